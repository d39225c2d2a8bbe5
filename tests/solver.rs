//! A solver added from outside the crate, as docs/ARCHITECTURE.md's
//! "Adding a solver" tells it: a toy that answers Nim positions by XOR
//! (Bouton's theorem), written against the oracle alone and plugged into
//! the plans by one line, `Session::add_solver`.

use grundy::answer::Answer;
use grundy::flow::R;
use grundy::ir::{GameId, Program};
use grundy::oracle::Oracle;
use grundy::session::{Event, Session};
use grundy::solve::Solver;
use grundy::store::PosId;
use grundy::value::Value;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

/// Nim on three heaps as one game: a move takes from one heap.
const NIM3: &str = "game Nim3(a, b, c) = {
    Nim3(k, b, c) for k in 0..a
    Nim3(a, k, c) for k in 0..b
    Nim3(a, b, k) for k in 0..c
}
game Other(n) = { Other(k) for k in 0..n }
game Wrap(n) = { Nim3(n, n, k) for k in 0..3 }
";

/// The toy solver: a `Nim3` position's value is the XOR of its heaps.
#[derive(Default)]
struct NimByXor {
    asked: AtomicUsize,
}

impl Solver for NimByXor {
    fn name(&self) -> &str {
        "nim by xor"
    }

    fn applies(&self, prog: &Program, game: GameId) -> bool {
        prog.games[game.index()].name == "Nim3"
    }

    fn value(&self, oracle: &mut dyn Oracle, pos: PosId) -> R<Option<u32>> {
        self.asked.fetch_add(1, Ordering::Relaxed);
        let (_, args) = oracle.position(pos);
        let mut x = 0i64;
        for a in args {
            match a {
                Value::Int(n) if n >= 0 => x ^= n,
                _ => return Ok(None),
            }
        }
        Ok(u32::try_from(x).ok())
    }
}

/// A solver that always declines, counting how often it was asked.
#[derive(Default)]
struct Declining {
    asked: AtomicUsize,
}

impl Solver for Declining {
    fn name(&self) -> &str {
        "declining"
    }

    fn applies(&self, _: &Program, _: GameId) -> bool {
        true
    }

    fn value(&self, _: &mut dyn Oracle, _: PosId) -> R<Option<u32>> {
        self.asked.fetch_add(1, Ordering::Relaxed);
        Ok(None)
    }
}

/// A solver that answers 7 for every position of `Nim3`: wrong, and
/// trusted.
struct Seven;

impl Solver for Seven {
    fn name(&self) -> &str {
        "seven"
    }

    fn applies(&self, prog: &Program, game: GameId) -> bool {
        prog.games[game.index()].name == "Nim3"
    }

    fn value(&self, _: &mut dyn Oracle, _: PosId) -> R<Option<u32>> {
        Ok(Some(7))
    }
}

/// Runs `src` in `session`: each answer's text, or an error's code and
/// message.
fn run(session: &mut Session, src: &str) -> Vec<String> {
    let mut out = Vec::new();
    session.entry("nim3", src, &mut |_, e| match e {
        Event::Answer(a) => out.push(answer_text(&a)),
        Event::Note(_) => {}
        Event::Error(d) | Event::Interrupted(d) => {
            out.push(format!("error {}: {}", d.code, d.message))
        }
    });
    out
}

fn answer_text(a: &Answer) -> String {
    a.to_string().trim_end().to_string()
}

#[test]
fn an_added_solver_answers_its_games_positions() {
    let xor = Arc::new(NimByXor::default());
    let mut s = Session::default();
    // The plan line.
    s.add_solver(xor.clone()).unwrap();
    let big = (1_000_000i64, 70_000i64, 123i64);
    let out = run(
        &mut s,
        &format!(
            "{NIM3}print grundy(Nim3(3, 5, 6))\nprint grundy(Nim3({}, {}, {}))\n",
            big.0, big.1, big.2
        ),
    );
    assert_eq!(
        out,
        [
            "grundy(Nim3(3, 5, 6)) = 0".to_string(),
            format!(
                "grundy(Nim3({}, {}, {})) = {}",
                big.0,
                big.1,
                big.2,
                big.0 ^ big.1 ^ big.2
            ),
        ]
    );
    assert_eq!(xor.asked.load(Ordering::Relaxed), 2);
    // Answered without a search: the general one would store about
    // 10^6 · 7·10^4 · 123 positions.
    assert!(s.state_count() < 10, "{} positions stored", s.state_count());
    // Positions the general search reaches: Wrap(10^6)'s options are
    // Nim3(10^6, 10^6, k), of values 0, 1 and 2.
    assert_eq!(
        run(&mut s, "print grundy(Wrap(10**6))\n"),
        ["grundy(Wrap(10**6)) = 3"]
    );
    assert_eq!(xor.asked.load(Ordering::Relaxed), 2 + 3);
}

#[test]
fn the_engine_asks_a_solver_for_options_too() {
    let xor = Arc::new(NimByXor::default());
    let mut s = Session::default();
    s.add_solver(xor.clone()).unwrap();
    let out = run(
        &mut s,
        &format!(
            "{NIM3}print winning(Nim3(3, 5, 7))\nprint grundy(Nim3(2, 2, 0) + Nim3(1, 0, 0))\n"
        ),
    );
    // 3 ^ 5 ^ 7 = 1: each heap has a move that makes the XOR 0.
    assert_eq!(
        out,
        [
            "winning moves from Nim3(3, 5, 7) (grundy 1):\n  a: 3 → 2\n  b: 5 → 4\n  c: 7 → 6",
            "grundy(Nim3(2, 2, 0) + Nim3(1, 0, 0)) = 1",
        ]
    );
    // The root and its 3 + 5 + 7 options, then the sum's two parts.
    assert_eq!(xor.asked.load(Ordering::Relaxed), 1 + 15 + 2);
}

#[test]
fn solvers_are_asked_in_order_and_only_for_their_games() {
    let declining = Arc::new(Declining::default());
    let xor = Arc::new(NimByXor::default());
    // Without kernels, every position of Other is valued by the general
    // search, which asks the solvers for each.
    let mut s = Session::new(grundy::eval::Limits {
        kernels: false,
        ..Default::default()
    });
    s.add_solver(declining.clone()).unwrap();
    s.add_solver(xor.clone()).unwrap();
    let out = run(
        &mut s,
        &format!("{NIM3}print grundy(Nim3(1000, 1000, 1))\nprint grundy(Other(4))\n"),
    );
    assert_eq!(
        out,
        ["grundy(Nim3(1000, 1000, 1)) = 1", "grundy(Other(4)) = 4"]
    );
    // The declining solver first, then the XOR, for Nim3's position; the
    // declining one alone for Other(4) and the four positions below it.
    assert_eq!(xor.asked.load(Ordering::Relaxed), 1);
    assert_eq!(declining.asked.load(Ordering::Relaxed), 1 + 5);
}

#[test]
fn a_solvers_answer_is_trusted_even_when_wrong() {
    let mut s = Session::default();
    // Added once the session has a machine.
    assert_eq!(
        run(&mut s, &format!("{NIM3}print grundy(Nim3(1, 2, 3))\n")),
        ["grundy(Nim3(1, 2, 3)) = 0"]
    );
    s.add_solver(Arc::new(Seven)).unwrap();
    assert_eq!(
        run(&mut s, "print grundy(Nim3(4, 4, 4))\n"),
        ["grundy(Nim3(4, 4, 4)) = 7"]
    );
}

#[test]
fn without_the_solver_the_engine_agrees_on_small_heaps() {
    let xor = Arc::new(NimByXor::default());
    let mut with = Session::default();
    with.add_solver(xor.clone()).unwrap();
    let mut without = Session::default();
    let src =
        format!("{NIM3}print [grundy(Nim3(a, b, c)) for a in 0..5 for b in 0..5 for c in 0..5]\n");
    let values: Vec<String> = (0..5)
        .flat_map(|a| (0..5).flat_map(move |b| (0..5).map(move |c| (a ^ b ^ c).to_string())))
        .collect();
    let want = format!("[{}]", values.join(", "));
    let by_xor = run(&mut with, &src);
    assert_eq!(run(&mut without, &src), by_xor);
    assert_eq!(by_xor, [want]);
    assert_eq!(xor.asked.load(Ordering::Relaxed), 5 * 5 * 5);
}

#[test]
fn too_many_solvers_are_refused() {
    // Before the session has a machine, and after.
    for ran in [false, true] {
        let mut s = Session::default();
        if ran {
            run(&mut s, NIM3);
        }
        for _ in 0..grundy::eval::MAX_SOLVERS {
            s.add_solver(Arc::new(Declining::default())).unwrap();
        }
        let refused = s.add_solver(Arc::new(Declining::default())).unwrap_err();
        assert!(
            refused.message.contains("at most 64"),
            "{}",
            refused.message
        );
    }
}

#[test]
fn solvers_outlast_a_clear() {
    let xor = Arc::new(NimByXor::default());
    let mut s = Session::default();
    s.add_solver(xor.clone()).unwrap();
    run(&mut s, NIM3);
    // `:clear` in the REPL: definitions and values go, the solvers stay.
    s.clear();
    assert_eq!(
        run(&mut s, &format!("{NIM3}print grundy(Nim3(100000, 3, 0))\n")),
        ["grundy(Nim3(100000, 3, 0)) = 100003"]
    );
    assert_eq!(xor.asked.load(Ordering::Relaxed), 1);
}

#[test]
fn loopy_games_are_never_asked() {
    let declining = Arc::new(Declining::default());
    let mut s = Session::default();
    s.add_solver(declining.clone()).unwrap();
    // L(0) and L(1) move to each other, L(0) also to the end L(2).
    let out = run(
        &mut s,
        "loopy game L(n) = {\n  L(1) if n == 0\n  L(0) if n == 1\n  L(2) if n == 0\n}\n\
         print grundy(L(2))\nprint outcome(L(1))\n",
    );
    // L(2) ends the game; L(1)'s one move is to L(0), which moves to L(2).
    assert_eq!(
        out,
        [
            "grundy(L(2)) = 0",
            "L(1): second player wins (P), the game ends within 2 moves, grundy 0"
        ]
    );
    assert_eq!(declining.asked.load(Ordering::Relaxed), 0);
}
