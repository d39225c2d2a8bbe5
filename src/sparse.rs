//! Sparse-space evaluation of take-and-break games (Winning Ways, "sparse
//! space spells speed"; Flammenkamp's rare/common method, in the form of
//! ogsolve's RC solver).
//!
//! The values seen so far are split into *common* values C, a set in which
//! no two members XOR to a third (so `0` is never common), and *rare* ones R.
//! An option `G(a) + G(b)` with a common value then has a rare component,
//! so the common values among a position's options are found by pairing
//! only the few positions with rare values. If the least value missing
//! from those options is common (or could join C), it is the mex; if it is
//! rare, every split is scanned until the candidate is common or the scan
//! ends. The values are exactly the plain mex of every option.
//!
//! Plain data in, plain data out: a game's moves for large n and its
//! values as a slice. Works in chunks bounded by work, so that its caller
//! can look at Ctrl-C and the limits between them.

/// The moves of a take-and-break game from some n on.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Moves {
    /// A move to no heap at all (value 0).
    pub whole: bool,
    /// Take t (at least 1), leaving one heap of n − t.
    pub takes: Vec<usize>,
    /// Take t, leaving two non-empty heaps that add up to n − t: in every
    /// way, or (`unequal`) only as two different sizes.
    pub splits: Vec<(usize, bool)>,
}

/// Values beyond this are left to other evaluators (the bit sets here
/// are sized by the largest value).
pub const MAX_VALUE: u32 = 1 << 16;

use crate::store::UNKNOWN;

/// The evaluator's state for one game: the split and the rare positions.
#[derive(Clone, Debug)]
pub struct Sparse {
    moves: Moves,
    /// From this n on the moves are exactly `moves`.
    from: usize,
    /// How many leading values the state below describes.
    synced: usize,
    /// Occurrences of each value among positions 1..synced.
    counts: Vec<u64>,
    /// The split, as bit sets over values: common and rare (a value in
    /// neither is unclassified: common if it can join C).
    common: Vec<u64>,
    rare_set: Vec<u64>,
    /// The common values, for the join test.
    common_list: Vec<u32>,
    /// Positions (from 1) whose values are rare, ascending.
    rare: Vec<u32>,
    /// How many rare positions there were at the last rebuild.
    rare_at_rebuild: usize,
    /// The values as 16 bits (all handled values fit), a copy that keeps
    /// the pair loops in cache.
    small: Vec<u16>,
    /// The options' values of the position being computed: a bit per
    /// value below [`MAX_VALUE`].
    options: Box<[u64; WORDS]>,
}

const WORDS: usize = MAX_VALUE as usize / 64;
/// The most splits scanned per family between looks at the candidate
/// (the first blocks are smaller: the candidate is often found early).
const SCAN_BLOCK: usize = 64;

/// What a run did.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Ran {
    /// The first position not computed.
    pub next: usize,
    /// Values stored.
    pub stored: usize,
    /// The largest value stored.
    pub max: u32,
    /// Option values looked at.
    pub work: u64,
}

fn has(set: &[u64], v: u32) -> bool {
    set.get((v >> 6) as usize)
        .is_some_and(|w| w >> (v & 63) & 1 != 0)
}

fn put(set: &mut Vec<u64>, v: u32) {
    let i = (v >> 6) as usize;
    if i >= set.len() {
        set.resize(i + 1, 0);
    }
    set[i] |= 1 << (v & 63);
}

/// The least value at or above `from` missing from `set`.
fn mex_from(set: &[u64], from: u32) -> u32 {
    let mut i = (from >> 6) as usize;
    if i >= set.len() {
        return from;
    }
    let mut w = !set[i] & (!0u64 << (from & 63));
    loop {
        if w != 0 {
            return (i as u32) * 64 + w.trailing_zeros();
        }
        i += 1;
        match set.get(i) {
            Some(x) => w = !x,
            None => return (i as u32) * 64,
        }
    }
}

impl Sparse {
    /// An evaluator for a game with these moves from n = `from` on.
    pub fn new(moves: Moves, from: usize) -> Sparse {
        Sparse {
            moves,
            from,
            synced: 0,
            counts: Vec::new(),
            common: Vec::new(),
            rare_set: Vec::new(),
            common_list: Vec::new(),
            rare: Vec::new(),
            rare_at_rebuild: 0,
            small: Vec::new(),
            options: Box::new([0; WORDS]),
        }
    }

    /// From which n on this evaluator computes values.
    pub fn from(&self) -> usize {
        self.from
    }

    /// How many positions have rare values.
    pub fn rare_count(&self) -> usize {
        self.rare.len()
    }

    fn can_join_common(&self, v: u32) -> bool {
        v != 0 && self.common_list.iter().all(|&c| !has(&self.common, c ^ v))
    }

    fn is_rare(&self, v: u32) -> bool {
        has(&self.rare_set, v) || (!has(&self.common, v) && !self.can_join_common(v))
    }

    /// Splits the values seen into common and rare afresh: the most
    /// frequent first, each common when it can be.
    fn rebuild(&mut self, values: &[u32]) {
        let mut order: Vec<u32> = (0..self.counts.len() as u32)
            .filter(|&v| self.counts[v as usize] > 0)
            .collect();
        order.sort_by_key(|&v| (std::cmp::Reverse(self.counts[v as usize]), v));
        self.common.clear();
        self.rare_set.clear();
        self.common_list.clear();
        put(&mut self.rare_set, 0);
        for v in order {
            if self.can_join_common(v) {
                put(&mut self.common, v);
                self.common_list.push(v);
            } else {
                put(&mut self.rare_set, v);
            }
        }
        self.rare.clear();
        for (i, &v) in values.iter().enumerate().skip(1) {
            if has(&self.rare_set, v) {
                self.rare.push(i as u32);
            }
        }
        self.rare_at_rebuild = self.rare.len();
    }

    /// Takes in the values of `values[synced..]`, all known.
    fn sync(&mut self, values: &[u32]) {
        if values.len() < self.synced {
            self.synced = 0;
            self.counts.clear();
            self.small.clear();
        }
        self.small
            .extend(values[self.small.len()..].iter().map(|&v| v as u16));
        for &v in &values[self.synced.max(1).min(values.len())..] {
            if self.counts.len() <= v as usize {
                self.counts.resize(v as usize + 1, 0);
            }
            self.counts[v as usize] += 1;
        }
        self.synced = values.len();
        self.rebuild(values);
    }

    /// Computes `values[n]` for n in `start..to` in order, given every value
    /// below `start` (and `start >= from`), until about `work` option values
    /// have been looked at. Values already known are kept; it stops early at
    /// a value it does not handle (one beyond [`MAX_VALUE`]) and at a
    /// position marked otherwise (the store's sentinels: on the stack).
    pub fn run(&mut self, values: &mut [u32], start: usize, to: usize, work: u64) -> Ran {
        let to = to.min(values.len());
        let mut ran = Ran {
            next: start,
            ..Ran::default()
        };
        if start < self.from.max(1) || start >= to {
            return ran;
        }
        // Only what this state has not seen yet needs a look.
        let fresh = if self.synced <= start { self.synced } else { 0 };
        if values[fresh..start].iter().any(|&v| v >= MAX_VALUE) {
            return ran;
        }
        if self.synced != start {
            self.sync(&values[..start]);
        }
        for n in start..to {
            if ran.work >= work {
                break;
            }
            let v = match values[n] {
                v if v < MAX_VALUE => v,
                UNKNOWN => {
                    let Some(v) = self.value_at(n, &mut ran.work) else {
                        break;
                    };
                    values[n] = v;
                    ran.stored += 1;
                    ran.max = ran.max.max(v);
                    v
                }
                _ => break,
            };
            ran.next = n + 1;
            self.record(values, n, v);
        }
        ran
    }

    /// The mex of the options of `n`, every value below it known.
    fn value_at(&mut self, n: usize, work: &mut u64) -> Option<u32> {
        let Sparse {
            moves,
            rare,
            options,
            small,
            counts,
            ..
        } = self;
        let small = &small[..n];
        // Every XOR of two values stays below the next power of two.
        let words = ((counts.len().max(2) as u32).next_power_of_two() as usize * 2).div_ceil(64);
        let words = words.min(WORDS);
        options[..words].fill(0);
        let options: &mut [u64; WORDS] = options;
        // x >> 6 < WORDS: no bounds check.
        let mut put = |x: u16| options[usize::from(x >> 6)] |= 1 << (x & 63);
        if moves.whole {
            put(0);
        }
        for &t in &moves.takes {
            // (Taking none would be a move to itself: never a take.)
            if (1..=n).contains(&t) {
                put(small[n - t]);
            }
        }
        for &(t, unequal) in &moves.splits {
            let Some(s) = n.checked_sub(t).filter(|&s| s >= 2) else {
                continue;
            };
            // The equal split of an unequal family is not a move.
            let skip = if unequal && s % 2 == 0 { s / 2 } else { 0 };
            let end = rare.partition_point(|&i| (i as usize) < s);
            for &i in &rare[..end] {
                let i = i as usize;
                if i != skip {
                    put(small[i] ^ small[s - i]);
                }
            }
            *work += end as u64;
        }
        let mut m = mex_from(&self.options[..words], 0);
        if self.is_rare(m) {
            // Rare: scan the splits, smaller heaps first in every family
            // at once, until the candidate is common or the scan ends.
            let longest = self
                .moves
                .splits
                .iter()
                .filter_map(|&(t, _)| n.checked_sub(t))
                .max()
                .unwrap_or(0);
            // In blocks: a tight loop per family, then a look at the
            // candidate.
            let (mut a0, mut block) = (1, 4);
            'scan: while a0 <= longest / 2 {
                let a1 = (a0 + block).min(longest / 2 + 1);
                block = (block * 2).min(SCAN_BLOCK);
                for &(t, unequal) in &self.moves.splits {
                    let Some(s) = n.checked_sub(t) else {
                        continue;
                    };
                    let half = if unequal {
                        s.saturating_sub(1) / 2
                    } else {
                        s / 2
                    };
                    let hi = a1.min(half + 1);
                    if a0 >= hi {
                        continue;
                    }
                    *work += (hi - a0) as u64;
                    let low = &self.small[a0..hi];
                    let high = &self.small[s + 1 - hi..=s - a0];
                    let options: &mut [u64; WORDS] = &mut self.options;
                    for (&x, &y) in low.iter().zip(high.iter().rev()) {
                        let v = x ^ y;
                        options[usize::from(v >> 6)] |= 1 << (v & 63);
                    }
                }
                if has(&self.options[..], m) {
                    m = mex_from(&self.options[..words], m + 1);
                    if !self.is_rare(m) {
                        break 'scan;
                    }
                }
                a0 = a1;
            }
        }
        (m < MAX_VALUE).then_some(m)
    }

    /// Takes in the value just computed.
    fn record(&mut self, values: &[u32], n: usize, v: u32) {
        if self.counts.len() <= v as usize {
            self.counts.resize(v as usize + 1, 0);
        }
        self.counts[v as usize] += 1;
        self.synced = n + 1;
        self.small.push(v as u16);
        if has(&self.rare_set, v) {
            self.rare.push(n as u32);
        } else if has(&self.common, v) {
        } else if self.can_join_common(v) {
            put(&mut self.common, v);
            self.common_list.push(v);
        } else {
            put(&mut self.rare_set, v);
            self.rare.push(n as u32);
        }
        // The split stops paying when rare positions pile up: rebuild it
        // (after doubling, so rebuilds cost linear time in all).
        if self.rare.len() > 2 * self.rare_at_rebuild + 64 {
            self.rebuild(&values[..=n]);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The plain mex of every option.
    fn plain(moves: &Moves, len: usize) -> Vec<u32> {
        let mut g = vec![0u32; len];
        for n in 1..len {
            let mut seen = vec![false; 2 * len + 2];
            if moves.whole {
                seen[0] = true;
            }
            for &t in &moves.takes {
                if (1..=n).contains(&t) {
                    seen[g[n - t] as usize] = true;
                }
            }
            for &(t, unequal) in &moves.splits {
                if n < t + 2 {
                    continue;
                }
                let s = n - t;
                for a in 1..s {
                    if !(unequal && 2 * a == s) {
                        seen[(g[a] ^ g[s - a]) as usize] = true;
                    }
                }
            }
            g[n] = seen.iter().position(|b| !b).unwrap() as u32;
        }
        g
    }

    fn sparse(moves: &Moves, len: usize, chunk: u64) -> Vec<u32> {
        let mut g = vec![UNKNOWN; len];
        let truth = plain(moves, 2);
        g[..2].copy_from_slice(&truth);
        let mut s = Sparse::new(moves.clone(), 1);
        let mut next = 2;
        while next < len {
            let ran = s.run(&mut g, next, len, chunk);
            assert!(ran.next > next, "stuck at {next}");
            next = ran.next;
        }
        g
    }

    #[test]
    fn kayles_grundy_and_0_16_match_the_plain_mex() {
        let kayles = Moves {
            whole: false,
            takes: vec![1, 2],
            splits: vec![(1, false), (2, false)],
        };
        let grundy = Moves {
            whole: false,
            takes: vec![],
            splits: vec![(0, true)],
        };
        let o16 = Moves {
            whole: false,
            takes: vec![2],
            splits: vec![(2, false)],
        };
        for m in [kayles, grundy, o16] {
            let want = plain(&m, 3000);
            assert_eq!(sparse(&m, 3000, 1 << 20), want, "{m:?}");
            assert_eq!(sparse(&m, 3000, 7), want, "{m:?} in small chunks");
        }
    }

    fn moves() -> impl proptest::strategy::Strategy<Value = Moves> {
        use proptest::prelude::*;
        (
            any::<bool>(),
            proptest::collection::btree_set(1usize..=4, 0..=3),
            proptest::collection::btree_set((0usize..=3, any::<bool>()), 1..=3),
        )
            .prop_map(|(whole, takes, splits)| Moves {
                whole,
                takes: takes.into_iter().collect(),
                splits: splits.into_iter().collect(),
            })
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig { cases: 64, ..Default::default() })]

        /// Random take-and-break moves, unequal splits among them, in
        /// chunks of random size: the plain mex of every option.
        #[test]
        fn random_moves_match_the_plain_mex(m in moves(), chunk in 1u64..5000) {
            let want = plain(&m, 2500);
            proptest::prop_assert_eq!(sparse(&m, 2500, chunk), want);
        }
    }

    #[test]
    fn the_mex_of_a_bit_set() {
        let mut s = Vec::new();
        for v in [0, 1, 2, 4, 63, 64, 65] {
            put(&mut s, v);
        }
        assert_eq!(mex_from(&s, 0), 3);
        assert_eq!(mex_from(&s, 4), 5);
        assert_eq!(mex_from(&s, 63), 66);
        assert_eq!(mex_from(&s, 200), 200);
    }
}
