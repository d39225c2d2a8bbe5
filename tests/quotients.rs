//! Misère sums of octal games' heaps, answered from their quotients,
//! against a brute force over the sums themselves: random octal codes
//! (each with a move that splits a heap, so the quotient answers), random
//! sums; the outcome, the winning moves and how many moves there are.

use grundy::answer::Answer;
use grundy::eval::Limits;
use grundy::session::{Event, Session};
use proptest::prelude::*;
use std::collections::{HashMap, HashSet};

/// The options of heap n of octal 0.d1d2…, each a sorted list of heaps.
fn options(digits: &[u32], n: u32) -> Vec<Vec<u32>> {
    let mut out = Vec::new();
    for (i, &d) in digits.iter().enumerate() {
        let j = i as u32 + 1;
        if j > n {
            break;
        }
        let r = n - j;
        if d & 1 != 0 && r == 0 {
            out.push(vec![]);
        }
        if d & 2 != 0 && r >= 1 {
            out.push(vec![r]);
        }
        if d & 4 != 0 && r >= 2 {
            for a in 1..=r / 2 {
                out.push(vec![a, r - a]);
            }
        }
    }
    out
}

/// The sums one move from `hs` (sorted, no empty heaps).
fn moves(digits: &[u32], hs: &[u32]) -> HashSet<Vec<u32>> {
    each_move(digits, hs).into_values().collect()
}

/// The moves from `hs`, each once: the heap that moved and what it became
/// (sorted), with the sum left (sorted). Moves of equal heaps are one move;
/// moves to the same heaps but for heaps with no move are different moves.
fn each_move(digits: &[u32], hs: &[u32]) -> HashMap<(u32, Vec<u32>), Vec<u32>> {
    let mut out = HashMap::new();
    for i in 0..hs.len() {
        for mut o in options(digits, hs[i]) {
            o.sort_unstable();
            let mut next: Vec<u32> = hs[..i].iter().chain(&hs[i + 1..]).copied().collect();
            next.extend(&o);
            next.sort_unstable();
            out.insert((hs[i], o), next);
        }
    }
    out
}

/// Whether the player to move loses the sum in misère play: it has a move
/// and every move leads to a sum the next player wins.
fn lost(digits: &[u32], hs: &[u32], memo: &mut HashMap<Vec<u32>, bool>) -> bool {
    if let Some(&b) = memo.get(hs) {
        return b;
    }
    let next = moves(digits, hs);
    let out = !next.is_empty() && next.iter().all(|n| !lost(digits, n, memo));
    memo.insert(hs.to_vec(), out);
    out
}

fn code() -> impl Strategy<Value = Vec<u32>> {
    (
        proptest::collection::vec(0u32..=7, 1..=3),
        any::<prop::sample::Index>(),
    )
        .prop_map(|(mut d, i)| {
            let at = i.index(d.len());
            d[at] |= 4;
            // A last digit that only empties a heap is below every large
            // heap's moves: not the code grundy reads from the rules.
            let last = d.len() - 1;
            if d[last] & 6 == 0 {
                d[last] |= 2;
            }
            d
        })
}

fn run(src: &str) -> Vec<Answer> {
    let mut session = Session::new(Limits::default());
    let mut answers = Vec::new();
    session.run("q.game", src, &mut |_, e| match e {
        Event::Answer(a) => answers.push(a),
        Event::Note(_) => {}
        Event::Error(d) | Event::Interrupted(d) => panic!("unexpected error: {}\n{src}", d.message),
    });
    answers
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 96, ..ProptestConfig::default() })]

    #[test]
    fn quotient_answers_match_brute_force(digits in code(), heaps in proptest::collection::vec(1u32..=10, 2..=4)) {
        let code: String = digits.iter().map(u32::to_string).collect();
        let sum: Vec<String> = heaps.iter().map(|h| format!("G({h})")).collect();
        let sum = sum.join(" + ");
        let src = format!("octal G = 0.{code}\nprint outcome({sum}, misere)\nprint winning({sum}, misere)\n");
        let answers = run(&src);
        let mut hs = heaps.clone();
        hs.sort_unstable();
        let mut memo = HashMap::new();
        let is_lost = lost(&digits, &hs, &mut memo);
        let Answer::MisereOutcome { outcome, found, .. } = &answers[0] else { panic!("{:?}", answers[0]) };
        prop_assert_eq!(format!("{outcome:?}") == "P", is_lost, "{}", src);
        // (Heaps with no move are misère Nim's; a quotient that cannot be
        // built falls back to the search.)
        prop_assert!(["from its game's misère quotient", "searched sum by sum", "misère Nim", "from its options' genera", "from its tame components' genera"].contains(&found.as_str()), "{}", found);
        let Answer::MisereWinning { moves: won, options: count, .. } = &answers[1] else { panic!("{:?}", answers[1]) };
        // Every winning move and no other (a move to heaps with no move is
        // not the same move as one to no heaps; a move of one of several
        // equal heaps is listed for each of them).
        let each = each_move(&digits, &hs);
        prop_assert_eq!(*count, each.len(), "{}", src);
        let distinct: HashSet<(&str, &str)> = won.iter().map(|m| (m.from.text.as_str(), m.to.text.as_str())).collect();
        let winners = each.values().filter(|n| lost(&digits, n, &mut memo)).count();
        prop_assert_eq!(distinct.len(), winners, "{}", src);
    }
}

/// Games whose quotients are known to build (orders 8 to 360): their sums
/// are answered from the quotient, and rightly.
#[test]
fn known_quotients_answer_their_sums() {
    for (code, heaps) in [
        ("75", vec![vec![9, 8, 2], vec![7, 7, 5, 3]]),
        ("77", vec![vec![9, 6, 4], vec![11, 5, 3, 2], vec![8, 8]]),
        ("07", vec![vec![10, 6, 4], vec![9, 9, 2]]),
        ("15", vec![vec![10, 7, 3]]),
        ("34", vec![vec![9, 7, 6]]),
        ("71", vec![vec![8, 6, 5, 2]]),
    ] {
        let digits: Vec<u32> = code.chars().filter_map(|c| c.to_digit(8)).collect();
        for hs in heaps {
            let sum: Vec<String> = hs.iter().map(|h| format!("G({h})")).collect();
            let src = format!(
                "octal G = 0.{code}\nprint outcome({}, misere)\n",
                sum.join(" + ")
            );
            let answers = run(&src);
            let Answer::MisereOutcome { outcome, found, .. } = &answers[0] else {
                panic!("{:?}", answers[0])
            };
            assert_eq!(found, "from its game's misère quotient", "{src}");
            let mut sorted = hs.clone();
            sorted.sort_unstable();
            assert_eq!(
                format!("{outcome:?}") == "P",
                lost(&digits, &sorted, &mut HashMap::new()),
                "{src}"
            );
        }
    }
}

/// 0.3122's quotient is infinite (it grows past any limit from heap 7):
/// asked for, that is a clean error; in a sum, the sum is searched instead.
#[test]
fn an_infinite_quotient_falls_back_to_the_search() {
    let digits = [3, 1, 2, 2];
    let src = "octal G = 0.3122\nprint outcome(G(9) + G(8) + G(2), misere)\n";
    let answers = run(src);
    let Answer::MisereOutcome { outcome, found, .. } = &answers[0] else {
        panic!("{:?}", answers[0])
    };
    assert_ne!(found, "from its game's misère quotient");
    assert_eq!(
        format!("{outcome:?}") == "P",
        lost(&digits, &[2, 8, 9], &mut HashMap::new())
    );
    let mut session = Session::new(Limits::default());
    let mut codes = Vec::new();
    let mut notes = Vec::new();
    session.run(
        "q.game",
        "octal G = 0.3122\nprint quotient(G, 0..=8)\n",
        &mut |_, e| {
            if let Event::Error(d) = e {
                codes.push(d.code);
                notes.extend(d.notes.clone());
            }
        },
    );
    assert_eq!(format!("{codes:?}"), "[TooLarge]");
    // What it had found by then: the quotient of the heaps before 7.
    assert!(
        notes.iter().any(
            |n| n.starts_with("the quotient of heaps 0..=6 so far: order ")
                && n.contains("; Q = <a,b,")
        ),
        "{notes:?}"
    );
}

/// The moves of a subtraction game's heap `n` under the set `sub`.
fn subtract(sub: &[u32], n: u32) -> Vec<Vec<u32>> {
    sub.iter()
        .filter(|&&k| k <= n)
        .map(|&k| if n == k { vec![] } else { vec![n - k] })
        .collect()
}

/// Whether the player to move loses a sum of a subtraction game's heaps
/// (`s`, sorted) and an octal game's heaps (`k`, sorted) in misère play.
fn mixed_lost(
    sub: &[u32],
    digits: &[u32],
    s: &[u32],
    k: &[u32],
    memo: &mut HashMap<(Vec<u32>, Vec<u32>), bool>,
) -> bool {
    if let Some(&b) = memo.get(&(s.to_vec(), k.to_vec())) {
        return b;
    }
    let next = mixed_moves(sub, digits, s, k);
    let out = !next.is_empty()
        && next
            .values()
            .all(|(s, k)| !mixed_lost(sub, digits, s, k, memo));
    memo.insert((s.to_vec(), k.to_vec()), out);
    out
}

/// Each move of such a sum once, keyed by the component's text and what it
/// became, with the sum it leaves.
#[allow(clippy::type_complexity)]
fn mixed_moves(
    sub: &[u32],
    digits: &[u32],
    s: &[u32],
    k: &[u32],
) -> HashMap<(String, Vec<u32>), (Vec<u32>, Vec<u32>)> {
    let mut out = HashMap::new();
    let rest = |hs: &[u32], i: usize, o: &[u32]| {
        let mut v: Vec<u32> = hs[..i]
            .iter()
            .chain(&hs[i + 1..])
            .chain(o)
            .copied()
            .collect();
        v.sort_unstable();
        v
    };
    for i in 0..s.len() {
        for o in subtract(sub, s[i]) {
            // A subtraction heap taken to 0 is S(0), a position still.
            let shown = if o.is_empty() { vec![0] } else { o.clone() };
            out.insert(
                (format!("S({})", s[i]), shown),
                (rest(s, i, &o), k.to_vec()),
            );
        }
    }
    for i in 0..k.len() {
        for mut o in options(digits, k[i]) {
            o.sort_unstable();
            out.insert(
                (format!("K({})", k[i]), o.clone()),
                (s.to_vec(), rest(k, i, &o)),
            );
        }
    }
    out
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 64, ..ProptestConfig::default() })]

    /// Misère `winning` on sums of two games (searched, not from a
    /// quotient): every winning move, no more, no fewer, against the brute
    /// force; octal codes with heaps that cannot move (0.06's 1 and 2) make
    /// different moves leave the same live sum.
    #[test]
    fn misere_winning_lists_every_winning_move(
        sub in proptest::sample::subsequence(vec![1u32, 2, 3], 1..=3),
        digits in proptest::collection::vec(0u32..=7, 1..=3),
        s in proptest::collection::vec(0u32..=5, 1..=2),
        k in proptest::collection::vec(1u32..=7, 1..=2),
    ) {
        let code: String = digits.iter().map(u32::to_string).collect();
        let set: Vec<String> = sub.iter().map(u32::to_string).collect();
        let parts: Vec<String> = s.iter().map(|h| format!("S({h})")).chain(k.iter().map(|h| format!("K({h})"))).collect();
        let sum = parts.join(" + ");
        let src = format!("octal K = 0.{code}\nsubtraction S = {{{}}}\nprint winning({sum}, misere)\n", set.join(", "));
        let answers = run(&src);
        let Answer::MisereWinning { moves: won, options: count, .. } = &answers[0] else { panic!("{:?}", answers[0]) };
        let (mut s, mut k) = (s.clone(), k.clone());
        s.sort_unstable();
        k.sort_unstable();
        let each = mixed_moves(&sub, &digits, &s, &k);
        prop_assert_eq!(*count, each.len(), "{}", src);
        let mut memo = HashMap::new();
        let mut want: Vec<String> = each
            .iter()
            .filter(|(_, (s, k))| mixed_lost(&sub, &digits, s, k, &mut memo))
            .map(|((from, to), _)| {
                let g = &from[..1];
                let to: Vec<String> = to.iter().map(|h| format!("{g}({h})")).collect();
                format!("{from} → {}", if to.is_empty() { "0".to_string() } else { to.join(" + ") })
            })
            .collect();
        want.sort();
        let mut got: Vec<String> = won.iter().map(|m| format!("{} → {}", m.from.text, m.to.text)).collect();
        got.sort();
        got.dedup();
        prop_assert_eq!(got, want, "{}", src);
    }
}

/// The sum: `4 → 2` and `4 → 1 + 1` leave the same live sum (heaps
/// 1 and 2 of 0.06 have no move) and both win.
#[test]
fn moves_to_dead_heaps_are_each_listed() {
    let src = "octal K = 0.06\nsubtraction S = {1}\nprint winning(S(1) + K(4), misere)\n";
    let answers = run(src);
    let Answer::MisereWinning {
        moves: won,
        options: count,
        ..
    } = &answers[0]
    else {
        panic!("{:?}", answers[0])
    };
    let got: Vec<String> = won
        .iter()
        .map(|m| format!("{} → {}", m.from.text, m.to.text))
        .collect();
    assert_eq!(got, ["S(1) → S(0)", "K(4) → K(2)", "K(4) → K(1) + K(1)"]);
    assert_eq!(*count, 3);
}

/// `quotient(G, 0..=N)` stops growing once the period of the pretending
/// function is proven and gives the heaps past it by the period: Kayles to
/// heap 20000 (past 200 s and 460 MB heap by heap). Against the quotient
/// grown heap by heap to 400, and its period read off the answer.
#[test]
fn a_quotient_stops_at_its_proven_period() {
    use grundy::solve::quotient::{Growth, Quotient};
    let digits = [7, 7];
    let mut q = Quotient::new(Growth::default());
    for n in 1..=400 {
        q.push::<()>(options(&digits, n), &mut || Ok(()))
            .expect("grows");
    }
    let names = q.names();
    let grown: Vec<String> = q.phi().iter().map(|&x| names[x as usize].clone()).collect();
    let answers = run("octal Kayles = 0.77\nprint quotient(Kayles, 0..=20000)\n");
    let Answer::Quotient {
        heaps,
        pretending,
        period,
        order,
        ..
    } = &answers[0]
    else {
        panic!("{:?}", answers[0])
    };
    assert_eq!(*heaps, 20000);
    assert_eq!(*order, q.order());
    assert_eq!(pretending.len(), 20001);
    assert_eq!(pretending[..=400], grown[..]);
    let p = period.as_ref().expect("a period");
    assert!(p.proven);
    assert_eq!((p.period, p.preperiod), (12, 71));
    for n in 401..=20000 {
        assert_eq!(pretending[n], grown[71 + (n - 71) % 12], "heap {n}");
    }
}

/// A graph draws one edge per distinct option: `4 → 2` and `4 → 1 + 1`
/// of 0.06 both leave no live heap, one edge (while `winning` lists both
/// moves).
#[test]
fn a_graph_draws_one_edge_per_distinct_option() {
    let answers = run("octal K = 0.06\nprint graph(K(4))\n");
    let Answer::Graph {
        nodes, edges, dot, ..
    } = &answers[0]
    else {
        panic!("{:?}", answers[0])
    };
    assert_eq!((*nodes, *edges), (2, 1), "{dot}");
    assert_eq!(dot.matches("n0 -> n1").count(), 1, "{dot}");
}
