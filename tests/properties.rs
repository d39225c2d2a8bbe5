//! Property tests: grundy's values against brute force on whole sums.
//!
//! For random small take-and-break rule sets, the Grundy value grundy reports
//! for a sum must equal the mex computed by brute force over the *sum's own*
//! options (never using the XOR rule), and the P-positions grundy lists must be
//! exactly the positions a win/loss search calls lost.

mod common;

use grundy::answer::Answer;
use grundy::eval::Limits;
use grundy::session::{Event, Session};
use proptest::prelude::*;
use std::collections::HashMap;

/// A rule set on heaps: remove `k` for k in `take`, and (if `split`) the rest
/// may be left as two heaps.
#[derive(Clone, Debug)]
struct Rules {
    take: Vec<u32>,
    split: bool,
}

impl Rules {
    fn source(&self) -> String {
        let set: Vec<String> = self.take.iter().map(u32::to_string).collect();
        let mut src = format!(
            "let T = [{}]\ngame G(n) = {{\n    G(n - k) for k in T if k <= n\n",
            set.join(", ")
        );
        if self.split {
            src.push_str("    G(a) + G(n - k - a) for k in T if k <= n for a in 1..n - k\n");
        }
        src.push_str("}\n");
        src
    }

    /// The options of one heap, each a list of heaps.
    fn heap_options(&self, n: u32) -> Vec<Vec<u32>> {
        let mut out = Vec::new();
        for &k in &self.take {
            if k <= n {
                out.push(vec![n - k].into_iter().filter(|&h| h > 0).collect());
                if self.split {
                    for a in 1..(n - k) {
                        out.push(vec![a, n - k - a]);
                    }
                }
            }
        }
        out
    }

    /// The options of a sum (a sorted multiset of non-empty heaps).
    fn sum_options(&self, heaps: &[u32]) -> Vec<Vec<u32>> {
        let mut out = Vec::new();
        for i in 0..heaps.len() {
            for opt in self.heap_options(heaps[i]) {
                let mut next: Vec<u32> =
                    heaps[..i].iter().chain(&heaps[i + 1..]).copied().collect();
                next.extend(opt);
                next.sort_unstable();
                out.push(next);
            }
        }
        out
    }

    /// The Grundy value of a sum by mex over the sum's options.
    fn brute_value(&self, heaps: &[u32], memo: &mut HashMap<Vec<u32>, u32>) -> u32 {
        let mut key: Vec<u32> = heaps.iter().copied().filter(|&h| h > 0).collect();
        key.sort_unstable();
        if let Some(&v) = memo.get(&key) {
            return v;
        }
        let mut seen: Vec<u32> = self
            .sum_options(&key)
            .iter()
            .map(|o| self.brute_value(o, memo))
            .collect();
        seen.sort_unstable();
        seen.dedup();
        let mex = seen
            .iter()
            .enumerate()
            .find(|(i, v)| *i as u32 != **v)
            .map_or(seen.len(), |(i, _)| i) as u32;
        memo.insert(key, mex);
        mex
    }

    /// Whether the player to move loses, by win/loss search only.
    fn brute_lost(&self, heaps: &[u32], memo: &mut HashMap<Vec<u32>, bool>) -> bool {
        let key = heaps.to_vec();
        if let Some(&v) = memo.get(&key) {
            return v;
        }
        let lost = self
            .sum_options(heaps)
            .iter()
            .all(|o| !self.brute_lost(o, memo));
        memo.insert(key, lost);
        lost
    }
}

fn run(src: &str) -> Vec<Answer> {
    let mut session = Session::new(Limits::default());
    let mut answers = Vec::new();
    let summary = session.run("prop.game", src, &mut |_, e| match e {
        Event::Answer(a) => answers.push(a),
        Event::Note(_) => {}
        Event::Error(d) | Event::Interrupted(d) => panic!("unexpected error: {}\n{src}", d.message),
    });
    assert_eq!(summary.errors, 0);
    answers
}

fn rules() -> impl Strategy<Value = Rules> {
    (
        proptest::collection::btree_set(1u32..=5, 1..=3),
        any::<bool>(),
    )
        .prop_map(|(take, split)| Rules {
            take: take.into_iter().collect(),
            split,
        })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 40, ..ProptestConfig::default() })]

    #[test]
    fn sum_value_is_brute_force_mex_of_the_sum(rules in rules(), heaps in proptest::collection::vec(0u32..=9, 1..=3)) {
        let parts: Vec<String> = heaps.iter().map(|h| format!("G({h})")).collect();
        let src = format!("{}print grundy({})\n", rules.source(), parts.join(" + "));
        let answers = run(&src);
        let Answer::Value { value, .. } = &answers[0] else { panic!("not a value: {:?}", answers[0]) };
        let expected = rules.brute_value(&heaps, &mut HashMap::new());
        prop_assert_eq!(value.value.as_u64(), Some(u64::from(expected)), "{}", src);
    }

    #[test]
    fn p_positions_are_exactly_the_lost_ones(rules in rules()) {
        let src = format!("{}print ppositions(G, 0..=14)\n", rules.source());
        let answers = run(&src);
        let Answer::PPositions { positions, .. } = &answers[0] else { panic!("not p-positions") };
        let got: Vec<i64> = positions.iter().map(|p| p[0]).collect();
        let mut memo = HashMap::new();
        let expected: Vec<i64> = (0..=14u32)
            .filter(|&n| rules.brute_lost(&[n].into_iter().filter(|&h| h > 0).collect::<Vec<_>>(), &mut memo))
            .map(i64::from)
            .collect();
        prop_assert_eq!(got, expected, "{}", src);
    }

    #[test]
    fn outcome_of_a_sum_matches_win_loss_search(rules in rules(), heaps in proptest::collection::vec(1u32..=8, 2..=3)) {
        let parts: Vec<String> = heaps.iter().map(|h| format!("G({h})")).collect();
        let src = format!("{}print outcome({})\nprint winning({})\n", rules.source(), parts.join(" + "), parts.join(" + "));
        let answers = run(&src);
        let Answer::Outcome { grundy, .. } = &answers[0] else { panic!("not an outcome") };
        let mut sorted = heaps.clone();
        sorted.sort_unstable();
        let mut memo = HashMap::new();
        let lost = rules.brute_lost(&sorted, &mut memo);
        prop_assert_eq!(grundy.as_ref().is_some_and(|g| *g == 0), lost, "{}", src);
        // Every winning move reported must lead to a lost position for the opponent.
        let Answer::Winning { moves, .. } = &answers[1] else { panic!("not winning") };
        prop_assert_eq!(moves.is_empty(), lost);
        for m in moves {
            prop_assert_eq!(&m.grundy, &0);
        }
    }
}

/// Runs a source with every fast path (kernels, fill, compiled
/// expressions) or with none: the tree-walking interpreter alone. Every
/// answer rendered as text.
fn run_text(src: &str, kernels: bool) -> String {
    let limits = Limits {
        kernels,
        fill: kernels,
        compiled: kernels,
        ..Limits::default()
    };
    let mut session = Session::new(limits);
    let mut out = String::new();
    session.run("k.game", src, &mut |_, e| match e {
        Event::Answer(a) => out.push_str(&a.to_string()),
        Event::Note(_) => {}
        Event::Error(d) | Event::Interrupted(d) => out.push_str(&format!("error: {}\n", d.message)),
    });
    out
}

/// Random rules in the shapes kernels compile (constant lists, ranges,
/// linear guards with every comparison, affine arguments, splits, two
/// arguments), so that the compiled fast path can be compared with the
/// general evaluator on the same rules.
fn kernel_rules() -> impl Strategy<Value = String> {
    let list = proptest::collection::btree_set(1i64..=6, 1..=3).prop_map(|s| {
        format!(
            "[{}]",
            s.iter().map(i64::to_string).collect::<Vec<_>>().join(", ")
        )
    });
    let guard = prop_oneof![
        Just("k <= n"),
        Just("n >= k"),
        Just("n - k > 0"),
        Just("2 * k <= n"),
        Just("k < n + 1"),
        Just("not (k > n)"),
        Just("k <= n and k != 2"),
        Just("(k == 1 and n >= 1) or k + 2 <= n"),
    ];
    let split = prop_oneof![
        Just(""),
        Just("    G(a) + G(n - k - a) for k in L if k <= n for a in 1..n - k if 2 * a < n - k\n"),
        Just("    G(a) + G(n - k - a) for k in L if k <= n for a in 0..=n - k\n"),
        Just("    G(n - a - 1) + G(a) + G(0) for a in 0..n if a + a >= n - 1\n"),
        Just("    G(n / 2) if n > 1\n"),
        Just("    G(n - 1 - a) for a in 0..n if a % 3 == 0\n"),
        // Parts that do not move with the loop variable.
        Just("    G(0) + G(a) for a in 0..n\n"),
        Just("    G(n - 1) + G(a) for a in 0..n - 1 if n >= 1\n"),
    ];
    (list, guard, split).prop_map(|(l, g, s)| {
        format!(
            "let L = {l}\ngame G(n) = {{\n    G(n - k) for k in L if {g}\n{s}}}\n\
             print table(G, 0..=40)\nprint grundy(G(300))\n"
        )
    })
}

fn kernel_rules_2d() -> impl Strategy<Value = String> {
    let rule = prop_oneof![
        Just("W(a - k, b) for k in 1..=a"),
        Just("W(a, b - k) for k in 1..=b if k <= 3"),
        Just("W(a - k, b - k) for k in 1..=min(a, b)"),
        Just("W(a - 1, b + 1) if a > 0 and b < 5"),
        Just("W(b, a - 1) if a > b"),
        Just("W(a - k, b) + W(k - 1, b) for k in 1..=a if 2 * k <= a + 1"),
        Just("W(a - k, b) + W(0, 0) for k in 1..=a"),
        Just("W(a, b - k) + W(a - 1, 0) for k in 1..=b if a >= 1"),
    ];
    proptest::collection::vec(rule, 1..=3).prop_map(|rules| {
        format!(
            "game W(a, b) = {{\n    {}\n}}\nprint table(W, 0..=10, 0..=10)\nprint grundy(W(24, 20))\n",
            rules.join("\n    ")
        )
    })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 32, ..ProptestConfig::default() })]

    #[test]
    fn kernels_agree_with_the_general_evaluator(src in kernel_rules()) {
        prop_assert_eq!(run_text(&src, true), run_text(&src, false), "{}", src);
    }

    #[test]
    fn kernels_agree_on_two_argument_games(src in kernel_rules_2d()) {
        prop_assert_eq!(run_text(&src, true), run_text(&src, false), "{}", src);
    }
}

/// Deep searches in two-argument games go through the ascending fill: the
/// values must still match Wythoff's closed form, floor(k·φ) = (k + ⌊√(5k²)⌋) / 2.
#[test]
fn deep_two_argument_search_matches_wythoffs_closed_form() {
    let isqrt = |x: u64| {
        let mut r = (x as f64).sqrt() as u64;
        while r * r > x {
            r -= 1;
        }
        while (r + 1) * (r + 1) <= x {
            r += 1;
        }
        r
    };
    let mut src = String::from(
        "game W(a, b) = {\n    W(a - k, b) for k in 1..=a\n    W(a, b - k) for k in 1..=b\n    \
         W(a - k, b - k) for k in 1..=min(a, b)\n}\n",
    );
    let mut expected = Vec::new();
    for k in [100u64, 123, 150] {
        let a = (k + isqrt(5 * k * k)) / 2;
        let b = a + k;
        // The P-position, and two neighbours that are not.
        for (x, y, zero) in [(b, a, true), (a, b + 1, false), (a + 1, b, false)] {
            src.push_str(&format!("print grundy(W({x}, {y})) == 0\n"));
            expected.push(format!("grundy(W({x}, {y})) == 0 = {zero}\n"));
        }
    }
    assert_eq!(run_text(&src, true), expected.concat());
}

/// A guarded two-argument game longer than the depth limit fills bottom-up
/// with the default limits: E is the sum of a heap taken one at a time
/// (value a mod 2) and a subtraction game {1, 2} (value b mod 3).
#[test]
fn a_long_two_argument_game_fills_within_the_default_limits() {
    let src = "game E(a, b) = {\n    E(a - 1, b) if a > 0\n    E(a, b - k) for k in 1..=2 if k <= b\n}\n\
               print grundy(E(3, 1100000))\nprint grundy(E(2, 1100001))\n";
    let want: String = [(3, 1_100_000), (2, 1_100_001)]
        .iter()
        .map(|&(a, b)| format!("grundy(E({a}, {b})) = {}\n", (a % 2) ^ (b % 3)))
        .collect();
    assert_eq!(run_mode(src, Limits::default()), want);
}

/// A random integer expression over the given variables (with division,
/// remainder and products, so that errors and non-affine shapes occur).
fn int_expr(vars: &'static [&'static str]) -> impl Strategy<Value = String> {
    let leaf = prop_oneof![
        proptest::sample::select(vars).prop_map(str::to_string),
        (-3i64..=5).prop_map(|v| v.to_string()),
    ];
    leaf.prop_recursive(3, 12, 2, |inner| {
        (
            inner.clone(),
            proptest::sample::select(
                &[
                    "+", "-", "*", "/", "%", "+", "-", "<<", ">>", "&", "|", "^", "**",
                ][..],
            ),
            inner,
        )
            .prop_map(|(a, op, b)| format!("({a} {op} {b})"))
    })
}

fn condition(vars: &'static [&'static str]) -> impl Strategy<Value = String> {
    (
        int_expr(vars),
        proptest::sample::select(&["<", "<=", ">", ">=", "==", "!="][..]),
        int_expr(vars),
    )
        .prop_map(|(a, op, b)| format!("{a} {op} {b}"))
}

/// A rule of a one-argument game that always decreases (arguments are
/// clamped to `0..n`), with random loops, filters and arguments.
fn random_rule() -> impl Strategy<Value = String> {
    const VARS: &[&str] = &["n", "x", "y"];
    let iter = prop_oneof![
        (int_expr(&["n"]), int_expr(&["n"]), any::<bool>())
            // Clamped, so a range never holds more than about n + 10 values.
            .prop_map(|(a, b, inc)| {
                format!(
                    "max(-5, min(n + 5, {a}))..{}max(-5, min(n + 5, {b}))",
                    if inc { "=" } else { "" }
                )
            }),
        proptest::collection::vec(-2i64..=6, 1..=3).prop_map(|v| format!(
            "[{}]",
            v.iter().map(i64::to_string).collect::<Vec<_>>().join(", ")
        )),
    ];
    (
        proptest::collection::vec(int_expr(VARS), 1..=2),
        iter.clone(),
        proptest::option::of(condition(&["n", "x"])),
        proptest::option::of(iter),
    )
        .prop_map(|(args, it, cond, inner)| {
            let comps: Vec<String> = args
                .iter()
                .map(|a| format!("G(max(0, min(n - 1, {a})))"))
                .collect();
            let mut rule = format!("{} for x in {it}", comps.join(" + "));
            if let Some(c) = cond {
                rule.push_str(&format!(" if {c}"));
            }
            if let Some(i) = inner {
                rule.push_str(&format!(" for y in {i}"));
            }
            rule.push_str(" if n > 0");
            rule
        })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 64, ..ProptestConfig::default() })]

    /// Differential test of the kernels on arbitrary arithmetic: errors
    /// (division by zero, overflow) must come out the same, and values too.
    #[test]
    fn kernels_agree_on_random_arithmetic(rules in proptest::collection::vec(random_rule(), 1..=3)) {
        let src = format!(
            "game G(n) = {{\n    {}\n    0 if n == 1\n}}\nprint table(G, 0..=20)\nprint grundy(G(120))\n",
            rules.join("\n    ")
        );
        prop_assert_eq!(run_text(&src, true), run_text(&src, false), "{}", src);
    }
}

/// Two sentinels cancel in a XOR: a kernel must not take `G(0) + G(0)` as
/// value 0 when `G(0)` has no value (here: its rule divides by zero).
#[test]
fn kernels_report_errors_in_options_that_cancel() {
    let src = "game G(n) = {\n    G(0) for x in (1 / n)..=0\n    G(max(0, n - 1)) + G(max(0, n - 1)) if n > 0\n}\n\
               print grundy(G(600))\nprint grundy(G(1))\n";
    let with = run_text(src, true);
    assert_eq!(with, run_text(src, false));
    assert_eq!(with.matches("error: division by zero").count(), 2, "{with}");
}

/// Kernels regroup arithmetic (`k + BIG - BIG` is `k`), where evaluating
/// as written passes 64 bits: integers of any width make both the same
/// number, so the kernels and the interpreter agree, value for value.
#[test]
fn kernels_regroup_only_what_any_width_computes_alike() {
    for (src, want) in [
        (
            "game G(n) = { G(k + 9223372036854775803 - 9223372036854775803) for k in 0..n }\n\
             print grundy(G(5))\nprint grundy(G(6))\n",
            "grundy(G(5)) = 5\ngrundy(G(6)) = 6\n",
        ),
        (
            "game G(n) = { G(n + 9223372036854775800 - 9223372036854775800 - k) for k in 1..=n }\n\
             print grundy(G(7))\nprint grundy(G(8))\n",
            "grundy(G(7)) = 7\ngrundy(G(8)) = 8\n",
        ),
        // A two-argument position beyond the dense range: the domains the
        // regrouping relies on do not hold for it.
        (
            "game G(n, z) = { G(n + 9223372036853727232 - 9223372036853727232 - k, z) \
             for k in max(1, n - 2)..=n }\nprint grundy(G(2, 0))\nprint grundy(G(2097152, 0))\n",
            "grundy(G(2, 0)) = 2\ngrundy(G(2097152, 0)) = 3\n",
        ),
    ] {
        let with = run_text(src, true);
        assert_eq!(with, run_text(src, false), "{src}");
        assert_eq!(with, want, "{src}");
    }
    // `2 * k` of k = -2^63 is -2^64, and every heap moves up past 2^64:
    // the search goes on until the depth limit, on every path alike.
    let up = "let S = [1, -9223372036854775807 - 1]\n\
              game G(n) = { G(n - 1 - 2 * k) for k in S if 2 * k <= n - 1 }\nprint grundy(G(5))\n";
    let with = run_text(up, true);
    assert_eq!(with, run_text(up, false));
    assert!(
        with.starts_with("error: the search went more than"),
        "{with}"
    );
}

/// A one-heap game written as general rules in one of several ways, some
/// with a take-and-break shape and some without (Grundy's-game-like splits,
/// a guard that changes one heap).
#[derive(Clone, Debug)]
struct Written {
    take: Vec<u32>,
    one_heap: bool,
    split: Option<(u32, u8)>,
    guard: Option<u32>,
}

impl Written {
    fn source(&self) -> String {
        let set: Vec<String> = self.take.iter().map(u32::to_string).collect();
        let guard = self
            .guard
            .map(|c| format!(" if n != {c}"))
            .unwrap_or_default();
        let mut src = format!("let T = [{}]\ngame G(n) = {{\n", set.join(", "));
        if self.one_heap {
            src.push_str(&format!("    G(n - k) for k in T if k <= n{guard}\n"));
        }
        if let Some((lo, form)) = self.split {
            let range = match form {
                0 => format!("for a in {lo}..=n - k"),
                1 => format!("for a in {lo}..n - k if 2 * a <= n - k"),
                _ => format!("for a in {lo}..n - k if 2 * a < n - k"),
            };
            src.push_str(&format!(
                "    G(a) + G(n - k - a) for k in T if k <= n {range}{guard}\n"
            ));
        }
        src.push_str("}\n");
        src
    }
}

fn written() -> impl Strategy<Value = Written> {
    (
        proptest::collection::btree_set(1u32..=3, 1..=2),
        any::<bool>(),
        proptest::option::of((0u32..=1, 0u8..=2)),
        proptest::option::of(0u32..30),
    )
        .prop_map(|(take, one_heap, split, guard)| Written {
            take: take.into_iter().collect(),
            one_heap,
            split,
            guard,
        })
}

fn values(src: &str, limits: Limits) -> Vec<Answer> {
    let mut s = Session::new(limits);
    let mut out = Vec::new();
    s.run("written.game", src, &mut |_, e| match e {
        Event::Answer(a) => out.push(a),
        Event::Note(_) => {}
        Event::Error(d) | Event::Interrupted(d) => panic!("{}\n{src}", d.message),
    });
    out
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 24, ..ProptestConfig::default() })]

    /// Whatever way a game is written, a period called proven holds on the
    /// values computed directly (period searches off), and huge positions
    /// answered from it agree with the direct values of the reduced heap.
    #[test]
    fn proven_periods_hold_on_direct_values(w in written()) {
        let n_max = 1200i64;
        let src = format!("{}print period(G, 3000)\n", w.source());
        let with = values(&src, Limits::default());
        let Answer::Period { found, .. } = &with[0] else { panic!("{:?}", with[0]) };
        let direct_src = format!("{}print table(G, 0..{n_max})\n", w.source());
        let off = Limits { period_budget: 0, ..Limits::default() };
        let Answer::Table { values: direct, .. } = &values(&direct_src, off)[0] else { panic!() };
        if let Some(p) = found.as_ref().filter(|p| p.is_proven()) {
            let (e, per) = (p.preperiod, p.period);
            for n in e..n_max - per {
                prop_assert_eq!(&direct[n as usize], &direct[(n + per) as usize], "n = {} in\n{}", n, src);
            }
            let reduced = e + (1_000_000_000_000 - e) % per;
            if reduced < n_max {
                let huge = format!("{}print grundy(G(10**12))\n", w.source());
                let Answer::Value { value, .. } = &values(&huge, Limits::default())[0] else { panic!() };
                let want = direct[reduced as usize].finite().map(u64::from);
                prop_assert_eq!(value.value.as_u64(), want, "{}", huge);
            }
        }
    }
}

/// Node Kayles on a graph of up to 9 vertices: pick a vertex, it and its
/// neighbours disappear. Brute force over bitmasks, written here.
fn node_kayles_brute(closed: &[u64], mask: u64, memo: &mut HashMap<u64, u32>) -> u32 {
    if let Some(&v) = memo.get(&mask) {
        return v;
    }
    let mut seen = 0u64;
    for (v, c) in closed.iter().enumerate() {
        if mask >> v & 1 == 1 {
            seen |= 1 << node_kayles_brute(closed, mask & !c, memo);
        }
    }
    let g = seen.trailing_ones();
    memo.insert(mask, g);
    g
}

/// A graph's closed neighbourhoods (each vertex with its neighbours) as
/// masks, from edges between vertices mod `n`; and as source text.
fn closed_neighbourhoods(n: usize, edges: &[(usize, usize)]) -> (Vec<u64>, Vec<String>) {
    let mut closed: Vec<u64> = (0..n).map(|v| 1 << v).collect();
    for &(a, b) in edges {
        let (a, b) = (a % n, b % n);
        closed[a] |= 1 << b;
        closed[b] |= 1 << a;
    }
    let list = closed.iter().map(u64::to_string).collect();
    (closed, list)
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 24, ..ProptestConfig::default() })]

    /// Boards as bitmasks, with the board's size as extra parameters (so
    /// positions are stored in the integer tables, not dense arrays) and
    /// shifts, masks and a constant list in the rule: every position's
    /// value matches brute force, with the fast paths and without.
    #[test]
    fn bitmask_games_match_brute_force(
        n in 3usize..=9,
        edges in proptest::collection::vec((0usize..9, 0usize..9), 0..=14),
    ) {
        let (closed, list) = closed_neighbourhoods(n, &edges);
        let src = format!(
            "let closed = [{}]\n\
             game K(n, pad, mask) = {{\n    \
                 K(n, pad, mask ^ (mask & closed[v])) for v in 0..n if (mask >> v) & 1 == 1\n\
             }}\n\
             print [grundy(K({n}, 1 << 40, m)) for m in 0..{}]\n",
            list.join(", "),
            1u64 << n,
        );
        let mut memo = HashMap::new();
        let want: Vec<String> = (0..1u64 << n)
            .map(|m| node_kayles_brute(&closed, m, &mut memo).to_string())
            .collect();
        let fast = run_text(&src, true);
        prop_assert!(fast.ends_with(&format!("= [{}]\n", want.join(", "))), "{}\n{}", src, fast);
        prop_assert_eq!(fast, run_text(&src, false));
    }
}

/// How many parts of `mask` no edge joins (`adj`: neighbour masks), by
/// flood fill, written here.
fn parts_count(adj: &[u64], mask: u64) -> u32 {
    let (mut rest, mut count) = (mask, 0);
    while rest != 0 {
        let mut part = rest & rest.wrapping_neg();
        loop {
            let grown = (0..adj.len())
                .filter(|v| part >> v & 1 == 1)
                .fold(part, |p, v| p | (adj[v] & rest));
            if grown == part {
                break;
            }
            part = grown;
        }
        rest &= !part;
        count += 1;
    }
    count
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 24, ..ProptestConfig::default() })]

    /// A board that splits into its parts (`split` over `components`),
    /// its moves tried in a constant order with a condition on the cell
    /// alone, and a game whose rule loops over the parts: by the listing
    /// and naming kernels and by the interpreter, every value matches
    /// brute force (Node Kayles; and removing a whole part, worth the
    /// parity of the number of parts).
    #[test]
    fn split_boards_by_kernels_match_brute_force(
        n in 3usize..=9,
        edges in proptest::collection::vec((0usize..9, 0usize..9), 0..=14),
        order in Just((0..12i64).collect::<Vec<_>>()).prop_shuffle(),
    ) {
        let (closed, _) = closed_neighbourhoods(n, &edges);
        let adj: Vec<u64> = closed.iter().enumerate().map(|(v, c)| c & !(1 << v)).collect();
        let show = |xs: &[u64]| xs.iter().map(u64::to_string).collect::<Vec<_>>().join(", ");
        let order: Vec<String> = order.iter().map(i64::to_string).collect();
        let src = format!(
            "let closed = [{}]\nlet adj = [{}]\nlet ORDER = [{}]\n\
             game K(mask) = {{\n    \
                 K(mask ^ (mask & closed[v])) for v in ORDER if v < {n} if (mask >> v) & 1 == 1\n\
             }}\n    \
                 split sum(K(part) for part in components(mask, adj) if popcount(part) > 0)\n\
             game T(mask) = {{ T(mask ^ part) for part in components(mask, adj) }}\n\
             print [grundy(K(m)) for m in 0..{m}]\n\
             print [grundy(T(m)) for m in 0..{m}]\n",
            show(&closed),
            show(&adj),
            order.join(", "),
            m = 1u64 << n,
        );
        let mut memo = HashMap::new();
        let kayles: Vec<u64> = (0..1u64 << n)
            .map(|m| u64::from(node_kayles_brute(&closed, m, &mut memo)))
            .collect();
        let parity: Vec<u64> = (0..1u64 << n).map(|m| u64::from(parts_count(&adj, m) % 2)).collect();
        let fast = run_text(&src, true);
        prop_assert!(fast.contains(&format!("= [{}]\n", show(&kayles))), "{}\n{}", src, fast);
        prop_assert!(fast.ends_with(&format!("= [{}]\n", show(&parity))), "{}\n{}", src, fast);
        prop_assert_eq!(fast, run_text(&src, false));
    }
}

/// The kernels report what the interpreter reports on boards: a vertex
/// without an adjacency entry, even when the search would have stopped
/// listing after an earlier part; and a sum of parts past `--max-list`,
/// counted over the whole option.
#[test]
fn board_kernels_keep_the_interpreters_errors() {
    let missing = "let ADJ = [2, 1, 0]\n\
        game Z(n) = { Z(n - 1) if n > 0 }\n\
        game B(m) = {\n    B(9) if m == 0\n    Z(0) for part in components(m, ADJ) if m == 9\n}\n    \
        split B(m)\n\
        print grundy(Z(0))\nprint grundy(B(0))\n";
    let fast = run_text(missing, true);
    assert_eq!(fast, run_text(missing, false));
    assert!(fast.contains("error: vertex 3"), "{fast}");
    let long = "let ADJ = [2, 1, 8, 4]\n\
        game B(m) = { B(5) + B(5) + B(1) if m == 3 }\n    \
        split sum(B(p) for p in components(m, ADJ))\n\
        print grundy(B(3))\n";
    let limits = |kernels| Limits {
        kernels,
        max_list: 4,
        ..Limits::default()
    };
    let fast = run_mode(long, limits(true));
    assert_eq!(fast, run_mode(long, limits(false)));
    assert!(fast.contains("more than 4 components"), "{fast}");
}

/// A memoized function a board's rule calls while the pruned search lists
/// its options: the compiled and the interpreted paths agree, and what it
/// remembers prints and plays as any position. (That it never holds a raw
/// id is not observable from a program: the checker keeps queries and
/// move records out of rules, so nothing compares such ids.)
#[test]
fn a_function_memo_filled_while_listing_keeps_plain_positions() {
    let src = "let ADJ = [2, 5, 2, 8, 20, 8]\n\
        let memo take(m, v) = Path(m ^ (m & (7 << (v - 1))))\n\
        game Path(m) = { take(m, v) for v in 1..5 if (m >> v) & 1 == 1 }\n    \
        split sum(Path(p) for p in components(m, ADJ) if popcount(p) > 0)\n\
        print grundy(Path(63))\n\
        print take(63, 2)\n\
        print grundy(take(63, 2))\n\
        print moves(take(63, 2))\n";
    let fast = run_text(src, true);
    assert_eq!(fast, run_text(src, false));
    assert!(fast.contains("Path(49): first player wins"), "{fast}");
}

/// Parts of a rule that depend on the parameters alone are computed once
/// per position, ahead of time: one that fails there (a negative shift)
/// must still be reported only where the rule reaches it, as the
/// interpreter does, and not at all behind a guard that is false; one
/// past 64 bits is computed on any width.
#[test]
fn hoisted_parts_fail_where_the_rule_reaches_them() {
    let src = "game G(w, n) = { G(w, n - 1) for k in 0..2 if n > 0 and (1 << (w - 4)) + k > 0 }\n\
               print grundy(G(2, 0))\nprint grundy(G(7, 5))\nprint grundy(G(68, 1))\n\
               print grundy(G(2, 1))\n";
    let fast = run_text(src, true);
    assert_eq!(fast, run_text(src, false));
    assert_eq!(
        fast,
        "grundy(G(2, 0)) = 0\ngrundy(G(7, 5)) = 1\ngrundy(G(68, 1)) = 1\n\
         error: shift amount -2 is out of range\n"
    );
}

/// Runs a source under the given limits; answers and errors (code and
/// message) as text.
fn run_mode(src: &str, limits: Limits) -> String {
    let mut session = Session::new(limits);
    let mut out = String::new();
    session.run("modes.game", src, &mut |_, e| match e {
        Event::Answer(a) => out.push_str(&a.to_string()),
        Event::Note(_) => {}
        Event::Error(d) | Event::Interrupted(d) => {
            out.push_str(&format!("error[{}]: {}\n", d.code, d.message))
        }
    });
    out
}

/// A rule of a one-argument game: shapes a period search accepts
/// (subtractions, splits), exceptions at small heaps that may move up (and
/// so cycle), and guards that fail (divide by zero) at one heap size.
fn mode_rule() -> impl Strategy<Value = String> {
    prop_oneof![
        (1i64..=5).prop_map(|a| format!("G(n - {a}) if n >= {a}")),
        (1i64..=3)
            .prop_map(|a| format!("G(k) + G(n - {a} - k) for k in 1..n - {a} if n >= {a} + 2")),
        // A range of heaps: periods with a saltus.
        (1i64..=3, 0i64..=2).prop_map(|(a, c)| format!("G(x) for x in 0..=n - {a} if x != {c}")),
        (1i64..=3, 0i64..=6).prop_map(|(b, c)| format!("G(n + {b}) if n == {c}")),
        (1i64..=3, 0i64..=6).prop_map(|(a, c)| format!("G(n - {a}) if n == {c} + {a}")),
        (1i64..=2, 0i64..=1500)
            .prop_map(|(a, c)| format!("G(n - {a}) if n >= {a} and 10 / (n - {c}) >= 0")),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 48, ..ProptestConfig::default() })]

    /// The three modes (every fast path; the interpreter alone; no period
    /// searches) give the same answers and the same errors: optimizations
    /// never change an answer or turn one into an error.
    #[test]
    fn the_three_modes_agree(rules in proptest::collection::vec(mode_rule(), 1..=3)) {
        let src = format!(
            "game G(n) = {{\n    {}\n}}\nprint table(G, 0..=12)\nprint grundy(G(1031))\nprint grundy(G(2000))\n",
            rules.join("\n    ")
        );
        let default = run_mode(&src, Limits::default());
        let plain = run_mode(&src, Limits {
            kernels: false,
            fill: false,
            compiled: false,
            ..Limits::default()
        });
        let no_periods = run_mode(&src, Limits { period_budget: 0, ..Limits::default() });
        prop_assert_eq!(&default, &plain, "{}", src);
        prop_assert_eq!(&default, &no_periods, "{}", src);
    }
}

/// The case of the hostile-input run: the period search met a cycle that
/// even positions never reach.
#[test]
fn a_period_search_that_fails_falls_back() {
    let src = "game G(n) = { G(n - 2) if n >= 2   G(n + 2) if n == 3 }\nprint grundy(G(2000))\n";
    for limits in [
        Limits::default(),
        Limits {
            kernels: false,
            fill: false,
            compiled: false,
            ..Limits::default()
        },
        Limits {
            period_budget: 0,
            ..Limits::default()
        },
    ] {
        assert_eq!(run_mode(src, limits), "grundy(G(2000)) = 0\n");
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 24, ..ProptestConfig::default() })]

    /// Games on lists: positions built by a comprehension (encoded element
    /// by element), by `set` and by a literal are the same positions, and
    /// their values are brute force's (Chomp) and the XOR of the rows (Nim
    /// written on a list), with and without the compiled fast path.
    #[test]
    fn list_states_match_brute_force(mut rows in proptest::collection::vec(0i64..=4, 1..=4)) {
        rows.sort_unstable_by(|a, b| b.cmp(a));
        let list = format!("{rows:?}");
        let src = format!(
            "game Chomp(rows) = {{\n    Chomp([if i >= r then min(rows[i], c) else rows[i] for i in 0..len(rows)])\n        for r in 0..len(rows) for c in 0..rows[r] if r + c > 0\n}}\n\
             game Nim(rows) = {{\n    Nim([if j == r then c else rows[j] for j in 0..len(rows)]) for r in 0..len(rows) for c in 0..rows[r]\n    Nim(set(rows, r, c)) for r in 0..len(rows) for c in 0..rows[r]\n}}\n\
             print grundy(Chomp({list}))\nprint grundy(Nim({list}))\n"
        );
        let chomp = common::chomp_brute(&rows, &mut HashMap::new());
        let nim = rows.iter().fold(0, |x, &r| x ^ r);
        let want = format!("grundy(Chomp({list})) = {chomp}\ngrundy(Nim({list})) = {nim}\n");
        prop_assert_eq!(run_text(&src, true), want.clone());
        prop_assert_eq!(run_text(&src, false), want);
    }
}

/// A list built by a comprehension as a game's argument keeps the limits
/// and errors of a list built as a value: a bad index, the list limit,
/// nesting too deep; and a comprehension's elements may be lists.
#[test]
fn list_arguments_keep_their_errors_and_limits() {
    let src = "game L(xs) = { L([xs[i + 1] for i in 0..len(xs)]) if len(xs) > 0 }\n\
               print grundy(L([1, 2]))\n\
               game M(xs) = { M([x - 1 for x in xs if x > 1]) if len(xs) > 0 }\n\
               print grundy(M([3, 1, 2]))\n\
               game N(xs) = { N([[y - 1 for y in x] for x in xs]) if xs[0][0] > 0 }\n\
               print grundy(N([[2, 3], [4]]))\n";
    let fast = run_text(src, true);
    assert_eq!(fast, run_text(src, false));
    assert_eq!(
        fast,
        "error: index 2 is out of range for a list of length 2\n\
         grundy(M([3, 1, 2])) = 1\n\
         grundy(N([[2, 3], [4]])) = 0\n"
    );
    let limits = Limits {
        max_list: 3,
        ..Limits::default()
    };
    let src = "game L(n, xs) = { L(n - 1, [x for x in 0..n]) if n > 0 }\nprint grundy(L(5, []))\n";
    assert_eq!(
        run_mode(src, limits),
        "error[list-limit]: this list would hold more than 3 elements\n"
    );
}

/// The shape analysis reads rules however deeply their arithmetic nests
/// (the compiled fast path stops at 64 levels; the analysis does not).
#[test]
fn a_deeply_nested_rule_keeps_its_shape() {
    let zeros = " + 0".repeat(70);
    let src = format!(
        "game S(n) = {{ S(n - r{zeros}) for r in 1..=3 if r <= n }}\nprint grundy(S(1000000000000))\n"
    );
    assert_eq!(
        run_mode(&src, Limits::default()),
        "grundy(S(1000000000000)) = 0\n"
    );
}

/// A position is one position however its arguments are produced: integers
/// compiled or interpreted, a list built by a comprehension or passed on.
/// Both moves below lead to the same position, so G(n, xs) has n + 1 of them
/// in all (twice as many if the two ways gave two keys).
#[test]
fn one_position_however_its_arguments_are_built() {
    let src = "let one = [1][0]\n\
               game G(n, xs) = { G(n - 1, [x + 0 for x in xs]) if n > 0   G(n - one, xs) if n > 0 }\n\
               print grundy(G(5, [1, 2]))\n";
    let mut session = Session::new(Limits::default());
    let mut out = String::new();
    session.run("one.game", src, &mut |_, e| match e {
        Event::Answer(a) => out.push_str(&a.to_string()),
        Event::Note(_) => {}
        Event::Error(d) | Event::Interrupted(d) => out.push_str(&format!("error: {}\n", d.message)),
    });
    assert_eq!(out, "grundy(G(5, [1, 2])) = 1\n");
    assert_eq!(session.state_count(), 6);
}

/// A take-and-break shape that settles late (from n = 301, past the depth
/// at which a search ascends): the heaps below the threshold are searched
/// one by one, never ascending again from inside.
#[test]
fn a_late_sparse_threshold_ascends_once() {
    let src = "game G(n) = {\n    G(a) + G(n - 1 - a) for a in 0..n - 1\n    G(n - 2) if n == 300\n}\n\
               print grundy(G(1000))\nprint table(G, 290..=310)\n";
    let plain = Limits {
        kernels: false,
        fill: false,
        period_budget: 0,
        ..Limits::default()
    };
    let fast = run_mode(src, Limits::default());
    assert!(!fast.contains("error"), "{fast}");
    assert_eq!(fast, run_mode(src, plain));
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 24, ..ProptestConfig::default() })]

    /// Sparse space through the engine: octal codes, and take-and-break
    /// rules written out (splits in every way, or into unequal heaps as in
    /// Grundy's game), give the values of the general evaluator alone.
    #[test]
    fn sparse_space_agrees_with_the_general_evaluator(
        digits in "[0-7]{1,3}",
        w in written(),
    ) {
        for game in [format!("octal G = 0.{digits}\n"), w.source()] {
            let src = format!("{game}print table(G, 0..=700)\nprint grundy(G(900))\n");
            let fast = run_mode(&src, Limits { period_budget: 0, ..Limits::default() });
            let plain = run_mode(&src, Limits {
                kernels: false,
                fill: false,
                period_budget: 0,
                ..Limits::default()
            });
            prop_assert_eq!(&fast, &plain, "{}", src);
        }
    }
}

/// A rule whose options are a window of earlier positions less a few
/// exclusions: `down` reads `G(n - k)` for `k` in `max(1, n - a)..=min(n,
/// b)`, else `G(k)` for `k` in `max(0, n - a)..n`; `half` adds `2 * k >= n`;
/// each exclusion is `k != c` or (when `from_n`) `k != n - c`.
#[derive(Clone, Debug)]
struct WindowRule {
    down: bool,
    a: Option<i64>,
    b: Option<i64>,
    half: bool,
    exclusions: Vec<(bool, i64)>,
}

impl WindowRule {
    fn source(&self) -> String {
        let (lo, hi, pos) = if self.down {
            let lo = self.a.map_or("1".into(), |a| format!("max(1, n - {a})"));
            let hi = self.b.map_or("=n".into(), |b| format!("=min(n, {b})"));
            (lo, hi, "n - k")
        } else {
            let lo = self.a.map_or("0".into(), |a| format!("max(0, n - {a})"));
            (lo, "n".to_string(), "k")
        };
        let mut conds = String::new();
        if self.half {
            conds.push_str(" if 2 * k >= n");
        }
        for (i, &(from_n, c)) in self.exclusions.iter().enumerate() {
            let e = if from_n {
                format!("k != n - {c}")
            } else {
                format!("k != {c}")
            };
            conds.push_str(if i % 2 == 1 { " and " } else { " if " });
            conds.push_str(&e);
        }
        format!("game G(n) = {{ G({pos}) for k in {lo}..{hi}{conds} }}\n")
    }

    /// The same rule with its exclusions as one `all` (or `not any`) over a
    /// list, as the cookbook writes them.
    fn source_with_list(&self) -> String {
        let excl = |v: &[(bool, i64)]| {
            let items: Vec<String> = v
                .iter()
                .map(|&(from_n, c)| {
                    if from_n {
                        format!("n - {c}")
                    } else {
                        c.to_string()
                    }
                })
                .collect();
            items.join(", ")
        };
        let plain = WindowRule {
            exclusions: Vec::new(),
            ..self.clone()
        }
        .source();
        let (constant, from_n): (Vec<_>, Vec<_>) = self.exclusions.iter().partition(|e| !e.0);
        let mut extra = String::new();
        if !constant.is_empty() {
            extra.push_str(" if all(k != f for f in FORBIDDEN)");
        }
        if !from_n.is_empty() {
            extra.push_str(&format!(" if not any(k == f for f in [{}])", excl(&from_n)));
        }
        let rule = plain.replace(" }\n", &format!("{extra} }}\n"));
        format!("let FORBIDDEN = [{}]\n{rule}", excl(&constant))
    }

    /// The values below `len`, by brute force over the rule as stated.
    fn brute(&self, len: i64) -> Vec<u32> {
        let mut v: Vec<u32> = Vec::new();
        for n in 0..len {
            let (lo, hi) = if self.down {
                (
                    self.a.map_or(1, |a| (n - a).max(1)),
                    self.b.map_or(n, |b| n.min(b)),
                )
            } else {
                (self.a.map_or(0, |a| (n - a).max(0)), n - 1)
            };
            let mut seen = vec![false; n as usize + 2];
            for k in lo..=hi {
                let excluded = self
                    .exclusions
                    .iter()
                    .any(|&(from_n, c)| k == if from_n { n - c } else { c });
                if excluded || (self.half && 2 * k < n) {
                    continue;
                }
                let p = if self.down { n - k } else { k };
                seen[v[p as usize] as usize] = true;
            }
            v.push(seen.iter().position(|s| !s).unwrap_or(0) as u32);
        }
        v
    }
}

fn window_rule() -> impl Strategy<Value = WindowRule> {
    (
        any::<bool>(),
        proptest::option::of(1i64..40),
        proptest::option::of(1i64..40),
        any::<bool>(),
        proptest::collection::vec((any::<bool>(), 0i64..12), 0..4),
    )
        .prop_map(|(down, a, b, half, exclusions)| WindowRule {
            down,
            a,
            b,
            half,
            exclusions,
        })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 64, ..ProptestConfig::default() })]

    /// Window kernels (running counts over a window of earlier positions)
    /// give the values of a brute force over the rule as stated, asked for
    /// as a table and as one large position.
    #[test]
    fn window_kernels_agree_with_brute_force(w in window_rule()) {
        let len = 3000;
        let want = w.brute(len);
        for rule in [w.source(), w.source_with_list()] {
            let src = format!("{rule}print table(G, 0..{len})\nprint grundy(G({}))\n", len - 1);
            let got = values(&src, Limits { period_budget: 0, ..Limits::default() });
            let Answer::Table { values: table, .. } = &got[0] else { panic!("{:?}", got[0]) };
            prop_assert_eq!(table, &want, "{}", src);
            let Answer::Value { value, .. } = &got[1] else { panic!("{:?}", got[1]) };
            prop_assert_eq!(value.value.as_u64(), Some(u64::from(want[len as usize - 1])), "{}", src);
        }
    }
}

/// `all but {2, 5}` to 2·10^5, as the shorthand and as the cookbook's rule:
/// a window kernel keeps it well within the work limit (re-reading the
/// window would look at 2·10^10 options). Its values are 2·⌊n/4⌋ + n mod 2,
/// read off the table by hand.
#[test]
fn all_but_sets_run_as_windows() {
    let formula = |n: u64| 2 * (n / 4) + n % 2;
    for game in [
        "subtraction A = all but {2, 5}\n",
        "let forbidden = [2, 5]\ngame A(n) = { A(n - k) for k in 1..=n if all(k != f for f in forbidden) }\n",
    ] {
        let src = format!("{game}print table(A, 0..=2000)\nprint grundy(A(200001))\n");
        let got = values(&src, Limits::default());
        let Answer::Table { values: table, .. } = &got[0] else {
            panic!("{:?}", got[0])
        };
        let want: Vec<u32> = (0..=2000).map(|n| formula(n) as u32).collect();
        assert_eq!(table, &want, "{src}");
        let Answer::Value { value, .. } = &got[1] else {
            panic!("{:?}", got[1])
        };
        assert_eq!(value.value.as_u64(), Some(formula(200_001)), "{src}");
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 48, ..ProptestConfig::default() })]

    /// Kernels list a position's options (for `moves`, `winning`, misère
    /// play, graphs and loopy games) exactly as the general evaluator does:
    /// the same options in the same order, and the same errors, on random
    /// arithmetic, on the kernel shapes, and on two-argument games.
    #[test]
    fn kernels_list_options_as_the_general_evaluator(
        rules in proptest::collection::vec(random_rule(), 1..=3),
        shaped in kernel_rules(),
        two in kernel_rules_2d(),
    ) {
        let queries = "print moves(G(7))\nprint moves(G(12) + G(3))\nprint winning(G(9) + G(4))\nprint outcome(G(5) + G(5), misere)\n";
        let arithmetic = format!(
            "game G(n) = {{\n    {}\n    0 if n == 1\n}}\n{queries}print graph(G(6))\n",
            rules.join("\n    ")
        );
        let shaped = format!("{shaped}{queries}");
        let two = format!("{two}print moves(W(5, 4))\nprint winning(W(6, 3) + W(2, 2))\n");
        for src in [arithmetic, shaped, two] {
            prop_assert_eq!(run_text(&src, true), run_text(&src, false), "{}", src);
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 32, ..ProptestConfig::default() })]

    /// A loop followed by a bit test on its variable (`(mask >> (v + c)) &
    /// K == K`, alone or in an `and`) visits only the cells that pass it,
    /// by their bits: values and errors (a shift out of range) are the
    /// interpreter's, for ranges and constant lists. With `c = 0` and
    /// `K = 1` the game is Node Kayles, checked against brute force.
    #[test]
    fn bit_tests_agree_with_the_interpreter(
        n in 3usize..=7,
        edges in proptest::collection::vec((0usize..7, 0usize..7), 0..=10),
        offset in -2i64..=2,
        k in prop_oneof![Just(1i64), Just(3), Just(5), Just(1 | (1 << 62))],
        shape in 0usize..4,
        far in proptest::bool::ANY,
    ) {
        let (closed, list) = closed_neighbourhoods(n, &edges);
        // Cells past the board read nothing (a shift out of range when
        // `far` puts one past 63).
        let last = if far { 64 } else { n as i64 };
        let test = format!("(mask >> (v + {offset})) & {k} == {k}");
        let rule = match shape {
            0 => format!("for v in 0..{last} if {test}"),
            1 => format!("for v in [{}] if {test}", (0..last).rev().map(|v| v.to_string()).collect::<Vec<_>>().join(", ")),
            2 => format!("for v in 0..{last} if v % 2 == 0 and {test}"),
            _ => format!("for v in 0..{last} if {test} and v != 1"),
        };
        let src = format!(
            "let closed = [{}] + [0 for i in 0..64]\n\
             game K(mask) = {{\n    K(mask ^ (mask & closed[v])) {rule}\n}}\n\
             print [grundy(K(m)) for m in 0..{}]\n",
            list.join(", "),
            1u64 << n,
        );
        let fast = run_text(&src, true);
        prop_assert_eq!(&fast, &run_text(&src, false), "{}", src);
        if offset == 0 && k == 1 && shape < 2 && !far {
            let mut memo = HashMap::new();
            let want: Vec<String> = (0..1u64 << n)
                .map(|m| node_kayles_brute(&closed, m, &mut memo).to_string())
                .collect();
            prop_assert!(fast.ends_with(&format!("= [{}]\n", want.join(", "))), "{}\n{}", src, fast);
        }
    }
}

/// A one-parameter game whose moves change its parameter's bits is a
/// board: its positions are stored by key, not in an array as long as the
/// largest mask (Chomp 7 × 7 as a mask took 71 MB that way, for 3,432
/// positions). Games that count down are not.
#[test]
fn games_whose_moves_change_bits_are_boards() {
    let cases = [
        (
            "game G(m) = { G(m ^ (1 << v)) for v in 0..8 if (m >> v) & 1 == 1 }",
            true,
        ),
        ("game G(m) = { G(m & (m - 1)) if m > 0 }", true),
        (
            "let Q = [1, 3]\ngame G(m) = { G(Q[v] | m) for v in 0..2 if m < 3 }",
            true,
        ),
        ("game G(n) = { G(n - k) for k in 1..=3 if k <= n }", false),
        ("game G(n) = { G(n / 2) if n > 0 }", false),
        ("game G(n) = { G(n - 1) if (n >> 1) & 1 == 1 }", false),
        ("game G(a, b) = { G(a ^ 1, b) if a > 5 }", false),
        // Bits read, not moved: the argument is not the parameter's bits.
        ("game G(n) = { G(n - 1 - (n & 1)) if n > 1 }", false),
        (
            "game H(n) = { H(n - 1) if n > 0 }\ngame G(n) = { G(n - 1) + H(n & 1) if n > 0 }",
            false,
        ),
        (
            "game G(n) = { if n & 1 == 1 then G(n - 1) else G(n / 2) if n > 0 }",
            false,
        ),
        ("game G(m) = { G(m - 1) + G(m ^ 3) if m > 7 }", true),
        ("game G(m) = { G((m | 4) & 3) if m > 7 }", true),
        ("game G(m) = { G(m) if m > 7 }", false),
    ];
    for (src, board) in cases {
        let mut session = Session::new(Limits::default());
        let (prog, errors) = session.check("b.game", src).expect("it checks");
        assert!(errors.is_empty(), "{src}");
        let last = grundy::ir::GameId(prog.games.len() as u32 - 1);
        assert_eq!(prog.stored_by_key(last), board, "{src}");
    }
}

/// A game whose kernels can only list its options (a part of three
/// arguments, read from no dense array) is still filled bottom-up when its
/// search gets deep, as it was before such parts had kernels; so is a game
/// that reads its parameter's bits without moving them.
#[test]
fn games_whose_kernels_only_list_are_still_filled() {
    let limits = Limits {
        period_budget: 0,
        ..Limits::default()
    };
    let src = "game H(a, b, c) = { H(a - 1, b, c) if a > 0 }\n\
               game G(n) = {\n    G(n - 1) if n > 0\n    G(n / 2) + H(1, 0, 0) if n > 1\n}\n\
               print grundy(G(1500000))\n\
               game F(n) = { F(n - 1 - (n & 1)) if n > 1\n    F(n - 1) if n > 0 }\n\
               print grundy(F(2000000))\n";
    let out = run_mode(src, limits);
    assert!(!out.contains("error"), "{out}");
    assert_eq!(out.lines().count(), 2, "{out}");
}

/// Kernels that list a board's options count every loop value they step
/// through as work, as the interpreter does: a rule that filters millions
/// of values down to one stops at the work limit either way.
#[test]
fn listing_kernels_count_their_steps_as_work() {
    let src = "game B(m) = { B(m & (m - 1)) for v in 0..3000000 if v == 0 and m > 0 }\n\
               print grundy(B(3))\n";
    for kernels in [true, false] {
        let limits = Limits {
            max_work: 1_000_000,
            kernels,
            fill: kernels,
            compiled: kernels,
            ..Limits::default()
        };
        let out = run_mode(src, limits);
        assert!(
            out.contains("error[work-limit]"),
            "kernels {kernels}: {out}"
        );
    }
}

/// A one-heap game whose moves reach a range of heaps (written as heaps
/// left or as tokens taken), some left out by `!=`, with a few takes below
/// the range: the shape of Nim and of subtraction games whose set is all
/// but a few numbers, whose values grow by a saltus each period.
#[derive(Clone, Debug)]
struct Ranged {
    /// The fewest tokens the range takes, and the smallest heap it leaves.
    take: i64,
    low: i64,
    /// Written as `G(x) for x in ...` (else `G(n - t) for t in ...`).
    as_heaps: bool,
    /// Takes (from `take` on) and heaps the range leaves out.
    skip_takes: Vec<i64>,
    skip_heaps: Vec<i64>,
    /// One-heap moves taking fewer tokens.
    extra: Vec<i64>,
}

impl Ranged {
    fn source(&self) -> String {
        let (t, lo) = (self.take, self.low);
        let mut conds: Vec<String> = Vec::new();
        let range = if self.as_heaps {
            conds.extend(self.skip_takes.iter().map(|k| format!("x != n - {k}")));
            conds.extend(self.skip_heaps.iter().map(|h| format!("x != {h}")));
            format!("G(x) for x in {lo}..=n - {t}")
        } else {
            conds.extend(self.skip_takes.iter().map(|k| format!("k != {k}")));
            conds.extend(self.skip_heaps.iter().map(|h| format!("n - k != {h}")));
            format!("G(n - k) for k in {t}..=n - {lo}")
        };
        let guard = if conds.is_empty() {
            String::new()
        } else {
            format!(" if {}", conds.join(" and "))
        };
        let mut src = format!("game G(n) = {{\n    {range}{guard}\n");
        for k in &self.extra {
            src.push_str(&format!("    G(n - {k}) if n >= {k}\n"));
        }
        src.push_str("}\n");
        src
    }

    /// The values by the definition, computed here.
    fn brute(&self, count: usize) -> Vec<i64> {
        let mut v: Vec<i64> = Vec::with_capacity(count);
        for n in 0..count as i64 {
            let mut seen = std::collections::BTreeSet::new();
            for x in self.low..=n - self.take {
                if !self.skip_takes.contains(&(n - x)) && !self.skip_heaps.contains(&x) {
                    seen.insert(v[x as usize]);
                }
            }
            for &k in &self.extra {
                if n >= k {
                    seen.insert(v[(n - k) as usize]);
                }
            }
            v.push((0..).find(|m| !seen.contains(m)).unwrap_or(0));
        }
        v
    }
}

fn ranged() -> impl Strategy<Value = Ranged> {
    (
        1i64..=3,
        0i64..=2,
        any::<bool>(),
        proptest::collection::btree_set(1i64..=7, 0..=2),
        proptest::collection::btree_set(0i64..=6, 0..=2),
        proptest::collection::btree_set(1i64..=3, 0..=2),
    )
        .prop_map(
            |(take, low, as_heaps, skip_takes, skip_heaps, extra)| Ranged {
                take,
                low,
                as_heaps,
                skip_takes: skip_takes.into_iter().filter(|&k| k >= take).collect(),
                skip_heaps: skip_heaps.into_iter().filter(|&h| h >= low).collect(),
                extra: extra.into_iter().filter(|&k| k < take).collect(),
            },
        )
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 32, ..ProptestConfig::default() })]

    /// A period of a game whose moves reach a range of heaps is proven
    /// (the values grow, so it has a saltus), holds on the values computed
    /// here by the definition, and answers huge positions with the value
    /// the period carries up.
    #[test]
    fn arithmetic_periods_hold_on_brute_force(r in ranged()) {
        let count = 1500usize;
        let brute = r.brute(count);
        let src = format!("{}print period(G, 3000)\nprint grundy(G(10**9 + 7))\n", r.source());
        let got = values(&src, Limits::default());
        let Answer::Period { found: Some(p), .. } = &got[0] else { panic!("{:?}\n{src}", got[0]) };
        prop_assert!(p.is_proven(), "{:?}\n{}", p, src);
        let (e, per, s) = (p.preperiod, p.period, p.saltus);
        prop_assert!(s > 0, "{:?}\n{}", p, src);
        for n in e..count as i64 - per {
            prop_assert_eq!(brute[(n + per) as usize], brute[n as usize] + s, "n = {} in\n{}", n, src);
        }
        // A violation just before e would make e not the least pre-period.
        if e > 0 {
            prop_assert_ne!(brute[(e - 1 + per) as usize], brute[(e - 1) as usize] + s, "{}", src);
        }
        let n = 1_000_000_007i64;
        let want = brute[(e + (n - e) % per) as usize] + s * ((n - e) / per);
        let Answer::Value { value, .. } = &got[1] else { panic!("{:?}", got[1]) };
        prop_assert_eq!(value.value.as_u64(), Some(want as u64), "{}", src);
    }
}

/// A game of two or three integers whose moves are translations: each
/// rule moves the arguments down by `step` times k (k from 1, up to a cap
/// or as far as the arguments stay at least 0) plus `shift`, or (no loop)
/// by `shift` alone. Written in several ways: the loop's bound as `min` of
/// the arguments, or as conditions.
#[derive(Clone, Debug)]
struct Translated {
    dims: usize,
    rules: Vec<TranslatedRule>,
}

/// `(step, shift, cap, bound_by_conditions)`: a rule of [`Translated`].
type TranslatedRule = (Vec<i64>, Vec<i64>, Option<i64>, bool);

impl Translated {
    fn source(&self) -> String {
        let names = ["a", "b", "c"];
        let params = &names[..self.dims];
        let mut src = format!("game G({}) = {{\n", params.join(", "));
        for (step, shift, cap, by_conditions) in &self.rules {
            let looped = step.iter().any(|&s| s > 0);
            let args: Vec<String> = (0..self.dims)
                .map(|i| {
                    let mut a = params[i].to_string();
                    if step[i] > 0 {
                        a.push_str(&format!(" - {} * k", step[i]));
                    }
                    if shift[i] > 0 {
                        a.push_str(&format!(" - {}", shift[i]));
                    }
                    a
                })
                .collect();
            // What keeps each moved argument at least 0.
            let mut conds: Vec<String> = Vec::new();
            let mut bounds: Vec<String> = Vec::new();
            for i in 0..self.dims {
                if step[i] > 0 && !by_conditions {
                    bounds.push(format!("({} - {}) / {}", params[i], shift[i], step[i]));
                } else if step[i] > 0 || shift[i] > 0 {
                    conds.push(format!("{} >= 0", args[i]));
                }
            }
            let mut line = format!("    G({})", args.join(", "));
            if looped {
                let hi = match (bounds.len(), cap) {
                    (0, Some(c)) => c.to_string(),
                    (0, None) => "1000".to_string(),
                    (1, None) => bounds[0].clone(),
                    (_, None) => format!("min({})", bounds.join(", ")),
                    (_, Some(c)) => format!("min({}, {c})", bounds.join(", ")),
                };
                line.push_str(&format!(" for k in 1..={hi}"));
            }
            if !conds.is_empty() {
                line.push_str(&format!(" if {}", conds.join(" and ")));
            }
            src.push_str(&line);
            src.push('\n');
        }
        src.push_str("}\n");
        src
    }

    /// Whether each position of the box `0..=n` in every argument is a
    /// P-position, by the definition, computed here (row-major).
    fn brute(&self, n: i64) -> Vec<bool> {
        let side = n + 1;
        let total = side.pow(self.dims as u32);
        let mut p = vec![false; total as usize];
        let coords = |mut i: i64| -> Vec<i64> {
            let mut x = vec![0; self.dims];
            for c in (0..self.dims).rev() {
                x[c] = i % side;
                i /= side;
            }
            x
        };
        let index = |x: &[i64]| x.iter().fold(0, |acc, &v| acc * side + v);
        for i in 0..total {
            let x = coords(i);
            let mut wins = false;
            for (step, shift, cap, _) in &self.rules {
                let looped = step.iter().any(|&s| s > 0);
                let ks: Vec<i64> = if looped {
                    (1..=cap.unwrap_or(1000)).collect()
                } else {
                    vec![0]
                };
                for k in ks {
                    let y: Vec<i64> = (0..self.dims)
                        .map(|c| x[c] - step[c] * k - shift[c])
                        .collect();
                    if y.iter().any(|&v| v < 0) {
                        continue;
                    }
                    if p[index(&y) as usize] {
                        wins = true;
                    }
                }
            }
            p[i as usize] = !wins;
        }
        p
    }
}

fn translated() -> impl Strategy<Value = Translated> {
    (2usize..=3).prop_flat_map(|dims| {
        let rule = (
            proptest::collection::vec(0i64..=2, dims),
            proptest::collection::vec(0i64..=1, dims),
            proptest::option::of(1i64..=3),
            any::<bool>(),
        )
            .prop_filter("a move changes something", |(step, shift, _, _)| {
                step.iter().chain(shift).any(|&v| v > 0)
            });
        proptest::collection::vec(rule, 1..=3).prop_map(move |rules| Translated { dims, rules })
    })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 32, ..ProptestConfig::default() })]

    /// The P-positions of a game whose moves are translations, marked, are
    /// those of the definition; `outcome` of a position with a million
    /// positions below it (marked too) agrees.
    #[test]
    fn marked_p_positions_match_the_definition(t in translated()) {
        let n = if t.dims == 2 { 24 } else { 9 };
        let axes = vec![format!("0..={n}"); t.dims].join(", ");
        let src = format!("{}print ppositions(G, {axes})\n", t.source());
        let got = values(&src, Limits::default());
        let Answer::PPositions { positions, .. } = &got[0] else { panic!("{:?}\n{src}", got[0]) };
        let brute = t.brute(n);
        let side = n + 1;
        let want: Vec<Vec<i64>> = (0..brute.len() as i64)
            .filter(|&i| brute[i as usize])
            .map(|i| {
                let mut x = vec![0; t.dims];
                let mut r = i;
                for c in (0..t.dims).rev() {
                    x[c] = r % side;
                    r /= side;
                }
                x
            })
            .collect();
        prop_assert_eq!(positions, &want, "{}", src);
    }
}
