//! Loopy games through the language, against brute force written here:
//! win, loss and draw by the plainest fixed point over explicit graphs and
//! over the product graph of sums, on random graphs with cycles; values
//! pinned down by sums with Nim heaps; and Berzerk (Codeforces 786A), a
//! contest problem of the win / lose / loop kind.

use grundy::answer::{Answer, Outcome};
use grundy::eval::Limits;
use grundy::session::{Event, Session};

/// A small deterministic generator (xorshift).
struct Rng(u64);

impl Rng {
    fn below(&mut self, n: u64) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0 % n
    }
}

/// Win, loss and draw by the plainest fixed point: won when some option is
/// lost, lost when every option is won; the rest draw.
fn brute(n: usize, options: &dyn Fn(usize) -> Vec<usize>) -> Vec<Outcome> {
    fixed_point(n, options, false)
}

/// The same fixed point in misère play: a position with no move is won
/// (whoever cannot move has not made the last move).
fn brute_misere(n: usize, options: &dyn Fn(usize) -> Vec<usize>) -> Vec<Outcome> {
    fixed_point(n, options, true)
}

fn fixed_point(n: usize, options: &dyn Fn(usize) -> Vec<usize>, misere: bool) -> Vec<Outcome> {
    let mut out: Vec<Option<Outcome>> = vec![None; n];
    loop {
        let mut changed = false;
        for v in 0..n {
            if out[v].is_some() {
                continue;
            }
            let os = options(v);
            let dead_end_won = misere && os.is_empty();
            if dead_end_won || os.iter().any(|&w| out[w] == Some(Outcome::P)) {
                out[v] = Some(Outcome::N);
                changed = true;
            } else if os.iter().all(|&w| out[w] == Some(Outcome::N)) {
                out[v] = Some(Outcome::P);
                changed = true;
            }
        }
        if !changed {
            break;
        }
    }
    out.into_iter().map(|o| o.unwrap_or(Outcome::D)).collect()
}

/// The answers of a program, in order; errors fail the test.
fn answers(src: &str) -> Vec<Answer> {
    let mut s = Session::new(Limits::default());
    let mut out = Vec::new();
    s.run("loopy.game", src, &mut |_, e| match e {
        Event::Answer(a) => out.push(a),
        Event::Note(_) => {}
        Event::Error(d) | Event::Interrupted(d) => panic!("{}\n{src}", d.message),
    });
    out
}

fn outcome_of(a: &Answer) -> Outcome {
    match a {
        Answer::Outcome { outcome, .. } => *outcome,
        other => panic!("{other:?}"),
    }
}

/// A random graph on 1..=7 vertices, up to 3 options each (self-loops and
/// repeated options allowed).
fn random_graph(r: &mut Rng) -> Vec<Vec<usize>> {
    let n = 1 + r.below(7) as usize;
    (0..n)
        .map(|_| {
            (0..r.below(4))
                .map(|_| r.below(n as u64) as usize)
                .collect()
        })
        .collect()
}

/// The graph as a loopy game `T(v)` over a constant list of options.
fn token_game(adj: &[Vec<usize>]) -> String {
    let lists: Vec<String> = adj
        .iter()
        .map(|os| {
            format!(
                "[{}]",
                os.iter()
                    .map(usize::to_string)
                    .collect::<Vec<_>>()
                    .join(", ")
            )
        })
        .collect();
    format!(
        "let next = [{}]\nloopy game T(v) = {{ T(w) for w in next[v] }}\ngame N(n) = {{ N(k) for k in 0..n }}\n",
        lists.join(", ")
    )
}

/// On random graphs: the outcome of every position, of every sum of two
/// positions and of some sums of three, against the fixed point over the
/// product graph; and every position's value against its sums with Nim
/// heaps (γ = m exactly when T(v) + N(m) is lost; ∞ with K exactly when
/// T(v) + N(k) is won for k in K and drawn otherwise).
#[test]
fn random_graphs_agree_with_brute_force() {
    let mut r = Rng(0x853c49e6748fea9b);
    for _ in 0..300 {
        let adj = random_graph(&mut r);
        let n = adj.len();
        let mut src = token_game(&adj);
        let heaps = n + 1;
        for v in 0..n {
            for k in 0..=heaps {
                src.push_str(&format!("print outcome(T({v}) + N({k}))\n"));
            }
        }
        let triples: Vec<[usize; 3]> = (0..6)
            .map(|_| [0, 1, 2].map(|_| r.below(n as u64) as usize))
            .collect();
        for a in 0..n {
            for b in 0..n {
                src.push_str(&format!("print outcome(T({a}) + T({b}))\n"));
            }
        }
        for [a, b, c] in &triples {
            src.push_str(&format!("print outcome(T({a}) + T({b}) + T({c}))\n"));
        }
        let got = answers(&src);
        let mut got = got.iter();
        // Sums with a Nim heap: the product of the graph and a heap of
        // `heaps` (a move to any smaller heap).
        let with_heap = brute(n * (heaps + 1), &|x| {
            let (v, k) = (x % n, x / n);
            let mut os: Vec<usize> = adj[v].iter().map(|&w| w + k * n).collect();
            os.extend((0..k).map(|j| v + j * n));
            os
        });
        for v in 0..n {
            for k in 0..=heaps {
                let want = with_heap[v + k * n];
                assert_eq!(
                    outcome_of(got.next().unwrap()),
                    want,
                    "{src}T({v}) + N({k})"
                );
            }
        }
        let pairs = brute(n * n, &|x| {
            let (a, b) = (x % n, x / n);
            let mut os: Vec<usize> = adj[a].iter().map(|&w| w + b * n).collect();
            os.extend(adj[b].iter().map(|&w| a + w * n));
            os
        });
        for a in 0..n {
            for b in 0..n {
                let want = pairs[a + b * n];
                assert_eq!(
                    outcome_of(got.next().unwrap()),
                    want,
                    "{src}T({a}) + T({b})"
                );
            }
        }
        let threes = brute(n * n * n, &|x| {
            let (a, b, c) = (x % n, x / n % n, x / (n * n));
            let mut os: Vec<usize> = adj[a].iter().map(|&w| w + b * n + c * n * n).collect();
            os.extend(adj[b].iter().map(|&w| a + w * n + c * n * n));
            os.extend(adj[c].iter().map(|&w| a + b * n + w * n * n));
            os
        });
        for [a, b, c] in &triples {
            let want = threes[a + b * n + c * n * n];
            assert_eq!(
                outcome_of(got.next().unwrap()),
                want,
                "{src}T({a}) + T({b}) + T({c})"
            );
        }
    }
}

/// Misère play on random graphs: every position, every sum of two and
/// sums with a Nim heap, against the misère fixed point over the product
/// graph; and `winning(P, misere)` lists exactly the moves to lost sums.
#[test]
fn misere_play_of_random_graphs_agrees_with_brute_force() {
    let mut r = Rng(0x2545f4914f6cdd1d);
    for _ in 0..300 {
        let adj = random_graph(&mut r);
        let n = adj.len();
        let mut src = token_game(&adj);
        let heaps = 2;
        for v in 0..n {
            for k in 0..=heaps {
                src.push_str(&format!("print outcome(T({v}) + N({k}), misere)\n"));
            }
        }
        for a in 0..n {
            for b in 0..n {
                src.push_str(&format!("print outcome(T({a}) + T({b}), misere)\n"));
            }
        }
        for v in 0..n {
            src.push_str(&format!("print winning(T({v}), misere)\n"));
        }
        let got = answers(&src);
        let mut got = got.iter();
        let misere_outcome = |a: &Answer| match a {
            Answer::MisereOutcome { outcome, .. } => *outcome,
            other => panic!("{other:?}"),
        };
        let with_heap = brute_misere(n * (heaps + 1), &|x| {
            let (v, k) = (x % n, x / n);
            let mut os: Vec<usize> = adj[v].iter().map(|&w| w + k * n).collect();
            os.extend((0..k).map(|j| v + j * n));
            os
        });
        for v in 0..n {
            for k in 0..=heaps {
                let want = with_heap[v + k * n];
                let got = misere_outcome(got.next().unwrap());
                assert_eq!(got, want, "{src}T({v}) + N({k})");
            }
        }
        let pairs = brute_misere(n * n, &|x| {
            let (a, b) = (x % n, x / n);
            let mut os: Vec<usize> = adj[a].iter().map(|&w| w + b * n).collect();
            os.extend(adj[b].iter().map(|&w| a + w * n));
            os
        });
        for a in 0..n {
            for b in 0..n {
                let got = misere_outcome(got.next().unwrap());
                assert_eq!(got, pairs[a + b * n], "{src}T({a}) + T({b})");
            }
        }
        let single = brute_misere(n, &|v| adj[v].clone());
        for (v, options) in adj.iter().enumerate() {
            let Answer::MisereWinning { moves, .. } = got.next().unwrap() else {
                panic!("not a misère winning answer")
            };
            let mut to: Vec<usize> = moves
                .iter()
                .map(|m| {
                    m.to.components.as_ref().unwrap()[0].args[0]
                        .as_u64()
                        .unwrap() as usize
                })
                .collect();
            to.sort_unstable();
            to.dedup();
            let mut want: Vec<usize> = options
                .iter()
                .copied()
                .filter(|&w| single[w] == Outcome::P)
                .collect();
            want.sort_unstable();
            want.dedup();
            assert_eq!(to, want, "{src}winning(T({v}), misere)");
        }
    }
}

/// The values themselves, as `grundy` shows them, on a graph worked by
/// hand: 0 → 1 → 2 → 0 is a cycle, 2 → 3 → 4 → 5 → 3 another, 5 → 6 ends.
#[test]
fn values_of_a_graph_worked_by_hand() {
    let adj = vec![
        vec![1],
        vec![2],
        vec![0, 3],
        vec![4],
        vec![5],
        vec![3, 6],
        vec![],
    ];
    let mut src = token_game(&adj);
    src.push_str("print table(T, 0..7)\nprint grundy(T(2) + T(3))\nprint grundy(T(3)) + 1\n");
    let got = answers(&src);
    // 6 ends: 0. 5 moves to it: it is at least 1, and its other option 3
    // must answer a move back: 3 → 4, 4 → 5 (value 2 with options 1, 0).
    // So 3 = 1, 4 = 0, 5 = 2. 2 reaches 3 (1) or the cycle: ∞{1}; 0 and 1
    // lead only into the cycle: ∞{}.
    assert_eq!(
        got[0].to_string(),
        "T(v) for v in 0..=6:\n  0:  ∞{}  ∞{} ∞{1}    1    0    2    0\n"
    );
    assert_eq!(got[1].to_string(), "grundy(T(2) + T(3)) = ∞{0}\n");
    assert_eq!(got[2].to_string(), "grundy(T(3)) + 1 = 2\n");
}

/// Berzerk (Codeforces 786A): objects 0..n on a circle, 0 a black hole; the
/// monster starts on another; the first player moves it by a step from
/// their set, the second from theirs, alternately; who moves it into the
/// hole wins. As an impartial game, the position holds whose turn it is.
fn berzerk_source(n: usize, sets: [&[usize]; 2]) -> String {
    let list = |s: &[usize]| {
        s.iter()
            .map(usize::to_string)
            .collect::<Vec<_>>()
            .join(", ")
    };
    format!(
        "let S = [[{}], [{}]]\n\
         loopy game B(p, t) = {{\n    \
             0 for x in S[t] if (p + x) % {n} == 0\n    \
             B((p + x) % {n}, 1 - t) for x in S[t] if (p + x) % {n} != 0\n\
         }}\n\
         let word(o) = if o == \"N\" then \"Win\" else if o == \"P\" then \"Lose\" else \"Loop\"\n\
         print join([word(outcome(B(p, t)).outcome) for p in 1..{n}], \" \") for t in 0..2\n",
        list(sets[0]),
        list(sets[1])
    )
}

#[test]
fn berzerk_agrees_with_brute_force() {
    let mut r = Rng(0xda942042e4dd58b5);
    for _ in 0..60 {
        let n = 2 + r.below(11) as usize;
        let mut sets: [Vec<usize>; 2] = Default::default();
        for s in &mut sets {
            for x in 1..n {
                if r.below(3) == 0 {
                    s.push(x);
                }
            }
            if s.is_empty() {
                s.push(1 + r.below(n as u64 - 1) as usize);
            }
        }
        let src = berzerk_source(n, [&sets[0], &sets[1]]);
        // Vertex p + n·t; the hole is an extra vertex 2n with no moves.
        let hole = 2 * n;
        let out = brute(2 * n + 1, &|x| {
            if x == hole {
                return Vec::new();
            }
            let (p, t) = (x % n, x / n);
            sets[t]
                .iter()
                .map(|s| match (p + s) % n {
                    0 => hole,
                    q => q + (1 - t) * n,
                })
                .collect()
        });
        let word = |o: Outcome| match o {
            Outcome::N => "Win",
            Outcome::P => "Lose",
            Outcome::D => "Loop",
        };
        let want: String = (0..2)
            .map(|t| {
                let line: Vec<&str> = (1..n).map(|p| word(out[p + t * n])).collect();
                format!("{}\n", line.join(" "))
            })
            .collect();
        let got: String = answers(&src).iter().map(|a| a.to_string()).collect();
        assert_eq!(got, want, "{src}");
    }
}

/// Without `loopy`, a cycle is an error whose help says how to allow it;
/// a game that is not loopy may move to loopy positions of finite value,
/// and one of ∞ value is an error that says to declare it loopy.
#[test]
fn cycles_need_the_declaration() {
    let run = |src: &str| {
        let mut s = Session::new(Limits::default());
        let mut out = Vec::new();
        s.run("cycles.game", src, &mut |_, e| match e {
            Event::Answer(a) => out.push(a.to_string()),
            Event::Note(_) => {}
            Event::Error(d) | Event::Interrupted(d) => out.push(format!(
                "error[{}]: {} / {}",
                d.code,
                d.message,
                d.help.clone().unwrap_or_default()
            )),
        });
        out
    };
    let out = run("game G(n) = { G(n + 1) if n < 3  G(0) if n == 3 }\nprint grundy(G(0))\n");
    assert!(out[0].starts_with("error[cycle]"), "{out:?}");
    assert!(out[0].contains("declare `loopy game G(...)`"), "{out:?}");
    // L: 1 ↔ 2 is a cycle, yet every value is finite (L(1) = 1, L(2) = 0);
    // M: 0 ↔ 1 and nothing else, ∞{} both.
    let out = run(
        "loopy game L(n) = { L(n - 1) if n > 0  L(n + 1) if n == 1 }\n\
         loopy game M(n) = { M(1 - n) }\n\
         game F(n) = { L(n) }\n\
         game H(n) = { M(n) }\n\
         print grundy(F(1))\nprint grundy(F(2))\nprint grundy(H(1))\n",
    );
    assert_eq!(out[0], "grundy(F(1)) = 0\n", "{out:?}");
    assert_eq!(out[1], "grundy(F(2)) = 1\n", "{out:?}");
    assert!(
        out[2].starts_with("error[infinite]: H(1) has a move to M(1), whose value is ∞{}"),
        "{out:?}"
    );
    assert!(out[2].contains("declare `loopy game H` too"), "{out:?}");
}

/// ∞ values as language values: shown, compared, kept in lists, refused
/// as arguments and in arithmetic; outcome records say D; the state graph
/// draws draws dashed, and the P-position double.
#[test]
fn infinite_values_in_the_language() {
    let src = "loopy game L(n) = { L(n - 1) if n > 0  L(n + 1) if n < 3  0 if n == 3 }\n\
               let v = grundy(L(3))\n\
               print v\n\
               print v == grundy(L(3))\n\
               print v == 1\n\
               print [grundy(L(n)) for n in 0..4]\n\
               print outcome(L(1)).outcome\n\
               print outcome(L(1)).first_wins\n\
               print winning(L(1))\n\
               print graph(L(2))\n\
               print v + 1\n\
               game Q(xs) = { Q([xs[0] - 1]) if xs[0] > 0 }\n\
               print Q([v])\n";
    let mut s = Session::new(Limits::default());
    let mut out = Vec::new();
    s.run("values.game", src, &mut |_, e| match e {
        Event::Answer(a) => out.push(a.to_string()),
        Event::Note(_) => {}
        Event::Error(d) | Event::Interrupted(d) => {
            out.push(format!("error[{}]: {}", d.code, d.message))
        }
    });
    assert_eq!(out[0], "v = ∞{0}\n");
    assert_eq!(out[1], "v == grundy(L(3)) = true\n");
    assert_eq!(out[2], "v == 1 = false\n");
    assert_eq!(
        out[3],
        "[grundy(L(n)) for n in 0..4] = [∞{}, ∞{}, ∞{}, ∞{0}]\n"
    );
    assert_eq!(out[4], "D\n");
    assert_eq!(out[5], "outcome(L(1)).first_wins = false\n");
    // From a draw, the moves that keep it: 1 → 0 and 1 → 2 (both draws).
    assert_eq!(
        out[6],
        "L(1): no winning move, a draw, play goes on forever (D); the moves that keep the draw (grundy ∞{}):\n  1 → 0\n  1 → 2\n"
    );
    assert!(
        out[7].contains("[label=\"L(2)\\ngrundy ∞{}\", style=\"rounded,dashed\"]"),
        "{}",
        out[7]
    );
    assert!(
        out[7].contains("[label=\"L(3)\\ngrundy ∞{0}\"]"),
        "{}",
        out[7]
    );
    assert!(
        out[7].contains("[label=\"0\\ngrundy 0\", peripheries=2"),
        "{}",
        out[7]
    );
    assert!(
        out[8].starts_with("error[type-mismatch]: expected an integer, found an infinite value"),
        "{}",
        out[8]
    );
    assert_eq!(
        out[9],
        "error[infinite]: an ∞ value cannot be a game's argument"
    );
}

/// A move into a sum of loopy positions solves them first, one solve inside
/// another: that nesting is bounded by a clean error (the Rust stack is
/// never at risk), and values solved before shorten it.
#[test]
fn nested_solves_are_bounded() {
    let src = "loopy game S(n) = { S(n - 1) + S(0) if n > 0   S(n) }\n\
               print grundy(S(300))\nprint grundy(S(200))\nprint grundy(S(300))\n";
    let mut s = Session::new(Limits::default());
    let mut out = Vec::new();
    s.run("nested.game", src, &mut |_, e| match e {
        Event::Answer(a) => out.push(a.to_string()),
        Event::Note(_) => {}
        Event::Error(d) | Event::Interrupted(d) => {
            out.push(format!("error[{}]: {}", d.code, d.message))
        }
    });
    assert!(out[0].starts_with("error[depth-limit]:"), "{out:?}");
    assert!(out[0].contains("more than 256 deep"), "{out:?}");
    assert_eq!(out[1], "grundy(S(200)) = ∞{}\n");
    assert_eq!(out[2], "grundy(S(300)) = ∞{}\n");
}

/// A published example: T. S. Ferguson, *Game Theory*, Part I, Figure 3.4
/// ("a cyclic graph"). e is terminal, d's only follower is e, c moves to d
/// or a, and a → b → c closes a cycle. The text: d has value 1, so a player
/// at c never moves to d, and a, b and c are all tied (draws).
#[test]
fn fergusons_cyclic_graph() {
    // a = 0, b = 1, c = 2, d = 3, e = 4.
    let adj = vec![vec![1], vec![2], vec![3, 0], vec![4], vec![]];
    let mut src = token_game(&adj);
    src.push_str(
        "print [outcome(T(v)).outcome for v in 0..5]\nprint [grundy(T(v)) for v in 0..5]\n",
    );
    let got: Vec<String> = answers(&src).iter().map(|a| a.to_string()).collect();
    assert_eq!(
        got[0],
        "[outcome(T(v)).outcome for v in 0..5] = [\"D\", \"D\", \"D\", \"N\", \"P\"]\n"
    );
    // The generalized values say more: c sees the value 1 of d.
    assert_eq!(
        got[1],
        "[grundy(T(v)) for v in 0..5] = [∞{}, ∞{}, ∞{1}, 1, 0]\n"
    );
}

/// A solve started inside another (for a sum's component) must not take the
/// outer solve's marks for its own: a cycle through a sum is the cycle
/// error, every time it is asked, and nothing wrong is left stored. (Found
/// by a second read: the inner solve once read an outer vertex number as
/// one of its own, and crashed or gave G(1) and G(2) the same value with a
/// move between them.)
#[test]
fn a_cycle_through_a_sum_is_an_error_every_time() {
    let src = "loopy game G(n) = { G(n + 1) if n < 4  G(9) + G(9) if n == 4  G(4) if n == 9 }\n\
               loopy game H(n) = { H(1) if n == 0  H(2) + H(2) if n == 1  H(1) if n == 2  H(3) if n == 2 }\n\
               print grundy(G(0))\nprint grundy(H(0))\nprint grundy(H(2))\nprint grundy(H(1))\n\
               print grundy(H(3))\nprint grundy(G(0))\n";
    let mut s = Session::new(Limits::default());
    let mut out = Vec::new();
    s.run("sums.game", src, &mut |_, e| match e {
        Event::Answer(a) => out.push(a.to_string()),
        Event::Note(_) => {}
        Event::Error(d) | Event::Interrupted(d) => {
            out.push(format!("error[{}]: {}", d.code, d.message))
        }
    });
    assert_eq!(
        out,
        [
            "error[cycle]: G(4) is reached again while its value is being worked out",
            "error[cycle]: H(1) is reached again while its value is being worked out",
            "error[cycle]: H(2) is reached again while its value is being worked out",
            "error[cycle]: H(1) is reached again while its value is being worked out",
            "grundy(H(3)) = 0\n",
            "error[cycle]: G(4) is reached again while its value is being worked out",
        ]
    );
}

/// Smith's remoteness by synchronous rounds: the end is lost at round 0;
/// at round k a position is won when an option was lost at an earlier
/// round, lost when every option was won at an earlier round; its round is
/// its remoteness. `None`: a draw.
fn brute_remoteness(adj: &[Vec<usize>]) -> Vec<Option<(bool, u32)>> {
    let n = adj.len();
    let mut out: Vec<Option<(bool, u32)>> = vec![None; n];
    for round in 0..=(2 * n as u32 + 2) {
        let before = out.clone();
        for v in 0..n {
            if before[v].is_some() {
                continue;
            }
            let os = &adj[v];
            if os.iter().any(|&w| matches!(before[w], Some((false, _)))) {
                out[v] = Some((true, round));
            } else if os.iter().all(|&w| matches!(before[w], Some((true, _)))) {
                out[v] = Some((false, round));
            }
        }
    }
    out
}

/// On 1,000 random graphs, from every won position `winning` lists exactly
/// the moves to a loss one move nearer the end, and says within how many
/// moves the game ends: following it, whatever the other player does, the
/// game ends within that many moves (a move to any loss could go round a
/// cycle for ever).
#[test]
fn following_winning_ends_the_game_within_its_remoteness() {
    let mut r = Rng(0x5eed_1234_abcd_0001);
    let mut won = 0;
    for _ in 0..1000 {
        let adj = random_graph(&mut r);
        let mut src = token_game(&adj);
        for v in 0..adj.len() {
            src.push_str(&format!("print winning(T({v}))\n"));
        }
        let remote = brute_remoteness(&adj);
        for (v, a) in answers(&src).iter().enumerate() {
            let Answer::Winning {
                moves, ends_within, ..
            } = a
            else {
                panic!("{a:?}");
            };
            let Some((true, rv)) = remote[v] else {
                assert!(ends_within.is_none(), "{adj:?} from {v}: {a:?}");
                continue;
            };
            won += 1;
            assert_eq!(*ends_within, Some(rv), "{adj:?} from {v}");
            let mut got: Vec<usize> = moves
                .iter()
                .map(|m| {
                    let t = m.to.text.trim_start_matches("T(").trim_end_matches(')');
                    t.parse().expect("a vertex")
                })
                .collect();
            got.sort_unstable();
            let mut want: Vec<usize> = adj[v]
                .iter()
                .copied()
                .filter(|&w| remote[w] == Some((false, rv - 1)))
                .collect();
            want.sort_unstable();
            want.dedup();
            assert_eq!(got, want, "{adj:?} from {v}");
            assert!(!got.is_empty());
        }
    }
    assert!(won > 1000, "{won} won positions");
}
