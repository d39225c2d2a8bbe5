//! Property tests: grundy's values against brute force on whole sums.
//!
//! For random small take-and-break rule sets, the Grundy value grundy reports
//! for a sum must equal the mex computed by brute force over the *sum's own*
//! options (never using the XOR rule), and the P-positions grundy lists must be
//! exactly the positions a win/loss search calls lost.

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
        Event::Error(d) => panic!("unexpected error: {}\n{src}", d.message),
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
        let Answer::Value { json, .. } = &answers[0] else { panic!("not a value: {:?}", answers[0]) };
        let expected = rules.brute_value(&heaps, &mut HashMap::new());
        prop_assert_eq!(json.as_u64(), Some(u64::from(expected)), "{}", src);
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
        prop_assert_eq!(*grundy == 0, lost, "{}", src);
        // Every winning move reported must lead to a lost position for the opponent.
        let Answer::Winning { moves, .. } = &answers[1] else { panic!("not winning") };
        prop_assert_eq!(moves.is_empty(), lost);
        for m in moves {
            prop_assert_eq!(m.grundy, 0);
        }
    }
}
