//! Sparse-space evaluation of take-and-break games (Winning Ways, "sparse
//! space spells speed"; Flammenkamp's rare/common method, in the form of
//! ogsolve's RC2 solver).
//!
//! A position's *key* is its value and the parity of its heap. Splits are
//! grouped by the parity d of the tokens they take; for each group the keys
//! seen so far are split into *common* ones C, a set in which no x, y give
//! x ⊕ y ⊕ d in C, and *rare* ones R. A split of n into a + b of the group
//! has key(a) ⊕ key(b) ⊕ d = (its value, parity of n): so a value whose key
//! at n is common can only come from a split with a rare part, and the
//! common values among a position's options are found by pairing only the
//! few positions with rare keys. If the least value missing from those
//! options is common in every group, it is the mex; if not, the splits of
//! the groups where it is rare are scanned until it is common or the scan
//! ends. The values are exactly the plain mex of every option.
//!
//! Plain data in, plain data out: a game's moves for large n and its
//! values as a slice. Works in chunks bounded by work, so that its caller
//! can look at Ctrl-C and the limits between them.

use crate::mex::first_zero;
use crate::store::UNKNOWN;

/// The moves of a take-and-break game from some n on.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct HeapMoves {
    /// A move to no heap at all (value 0).
    pub whole: bool,
    /// Take t (at least 1), leaving one heap of n − t.
    pub takes: Vec<usize>,
    /// Take t, leaving two non-empty heaps that add up to n − t: in every
    /// way, or (`unequal`) only as two different sizes.
    pub splits: Vec<(usize, bool)>,
}

/// Values from this one on are left to other evaluators (the bit sets here
/// are sized by the largest value).
pub const MAX_VALUE: u32 = 1 << 16;

const WORDS: usize = MAX_VALUE as usize / 64;
/// The most splits scanned per family between looks at whether the
/// candidate was found (the first blocks are smaller: it often is early).
const SCAN_BLOCK: usize = 1024;
/// The splits whose smaller heap is below this are taken into the options
/// while the candidate is rare: most values of splits with two common
/// parts are found among them.
const FIRST_SPLITS: usize = 1024;

/// The split of keys for the splits that take tokens of one parity.
#[derive(Clone, Debug, Default)]
struct Group {
    /// The parity of the tokens taken.
    d: u32,
    /// Whether some split takes tokens of this parity.
    active: bool,
    /// Common and rare keys as bit sets (a key in neither is unclassified:
    /// common if it can join C).
    common: Vec<u64>,
    rare_set: Vec<u64>,
    /// The common keys, for the join test.
    common_list: Vec<u32>,
    /// Positions (from 1) whose keys are rare, ascending.
    rare: Vec<u32>,
    /// How many rare positions there were at the last rebuild.
    rare_at_rebuild: usize,
}

impl Group {
    fn new(d: u32, active: bool) -> Group {
        let mut g = Group {
            d,
            active,
            ..Group::default()
        };
        g.reset();
        g
    }

    fn reset(&mut self) {
        self.common.clear();
        self.rare_set.clear();
        self.common_list.clear();
        self.rare.clear();
        // key(a) ⊕ key(a) ⊕ d = d: never common.
        put(&mut self.rare_set, self.d);
    }

    /// Whether `key` may join C: no common x, y with x ⊕ y ⊕ d = key (nor
    /// key ⊕ x ⊕ d = y, the same test).
    fn can_join(&self, key: u32) -> bool {
        let k = key ^ self.d;
        k != 0 && self.common_list.iter().all(|&c| !has(&self.common, c ^ k))
    }

    fn is_rare(&self, key: u32) -> bool {
        self.active
            && (has(&self.rare_set, key) || (!has(&self.common, key) && !self.can_join(key)))
    }

    /// Classifies a key seen for the first time, or looks it up; true when
    /// it is rare.
    fn classify(&mut self, key: u32) -> bool {
        if has(&self.rare_set, key) {
            return true;
        }
        if has(&self.common, key) {
            return false;
        }
        if self.can_join(key) {
            put(&mut self.common, key);
            self.common_list.push(key);
            false
        } else {
            put(&mut self.rare_set, key);
            true
        }
    }

    /// Splits the keys seen afresh, the most frequent first, each common
    /// when it can be; and lists the rare positions.
    fn rebuild(&mut self, counts: &[u64], small: &[u16]) {
        if !self.active {
            return;
        }
        let mut order: Vec<u32> = (0..counts.len() as u32)
            .filter(|&k| counts[k as usize] > 0)
            .collect();
        order.sort_by_key(|&k| (std::cmp::Reverse(counts[k as usize]), k));
        self.reset();
        for k in order {
            self.classify(k);
        }
        for (i, &v) in small.iter().enumerate().skip(1) {
            if has(&self.rare_set, key(v, i)) {
                self.rare.push(i as u32);
            }
        }
        self.rare_at_rebuild = self.rare.len();
    }
}

/// A position's key: its value and the parity of its heap.
fn key(v: u16, n: usize) -> u32 {
    u32::from(v) << 1 | (n & 1) as u32
}

/// The evaluator's state for one game: the splits of keys and the rare
/// positions of each group.
#[derive(Clone, Debug)]
pub struct Sparse {
    moves: HeapMoves,
    /// From this n on the moves are exactly `moves`.
    from: usize,
    /// Splits that take an even and an odd number of tokens.
    groups: [Group; 2],
    /// Occurrences of each key among positions 1..small.len().
    counts: Vec<u64>,
    /// The values known so far as 16 bits (all handled values fit), a copy
    /// that keeps the pair loops in cache.
    small: Vec<u16>,
    /// The options' values of the position being computed: a bit per
    /// value below [`MAX_VALUE`].
    options: Box<[u64; WORDS]>,
}

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

/// Puts values below `top` (a power of two) into the options. Below 128
/// they gather in a register, not stored and loaded back at each value.
#[inline(always)]
fn put_all(options: &mut [u64; WORDS], top: usize, values: impl Iterator<Item = u16>) {
    if top <= 64 {
        options[0] |= values.fold(0u64, |w, v| w | 1 << (v & 63));
    } else if top <= 128 {
        let w = values.fold(0u128, |w, v| w | 1 << (v & 127));
        options[0] |= w as u64;
        options[1] |= (w >> 64) as u64;
    } else {
        values.for_each(|v| options[usize::from(v >> 6)] |= 1 << (v & 63));
    }
}

/// Whether `low[i] ⊕ high[len − 1 − i] = m` for some `i`.
#[inline]
fn hits(low: &[u16], high: &[u16], m: u16) -> bool {
    low.iter()
        .zip(high.iter().rev())
        .fold(false, |hit, (&x, &y)| hit | (x ^ y == m))
}

impl Sparse {
    /// An evaluator for a game with these moves from n = `from` on.
    pub fn new(moves: HeapMoves, from: usize) -> Sparse {
        let active = |d: usize| moves.splits.iter().any(|&(t, _)| t % 2 == d);
        let groups = [Group::new(0, active(0)), Group::new(1, active(1))];
        Sparse {
            moves,
            from,
            groups,
            counts: Vec::new(),
            small: Vec::new(),
            options: Box::new([0; WORDS]),
        }
    }

    /// From which n on this evaluator computes values.
    pub fn from(&self) -> usize {
        self.from
    }

    fn count(&mut self, v: u16, n: usize) {
        if n == 0 {
            return;
        }
        let k = key(v, n) as usize;
        if self.counts.len() <= k {
            self.counts.resize(k + 1, 0);
        }
        self.counts[k] += 1;
    }

    /// Takes in `values[small.len()..]`, all known and handled, and splits
    /// the keys afresh.
    fn sync(&mut self, values: &[u32]) {
        if values.len() < self.small.len() {
            self.small.clear();
            self.counts.clear();
        }
        let seen = self.small.len();
        for (n, &v) in values.iter().enumerate().skip(seen) {
            self.small.push(v as u16);
            self.count(v as u16, n);
        }
        for g in &mut self.groups {
            g.rebuild(&self.counts, &self.small);
        }
    }

    /// Computes `values[n]` for n in `start..to` in order, given every value
    /// below `start` (and `start >= from`), until about `work` option values
    /// have been looked at. Values already known are kept; it stops early at
    /// a value it does not handle (from [`MAX_VALUE`] on) and at a position
    /// marked otherwise (the store's sentinels: on the stack).
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
        let seen = self.small.len();
        let fresh = if seen <= start { seen } else { 0 };
        if values[fresh..start].iter().any(|&v| v >= MAX_VALUE) {
            return ran;
        }
        if seen != start {
            self.sync(&values[..start]);
        }
        #[allow(clippy::needless_range_loop)] // values[n] is written too
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
            self.record(n, v as u16);
        }
        ran
    }

    /// Whether value `m` at `n` is rare in group `d`: it may come from a
    /// split of that group with two common parts.
    fn rare_in(&self, d: usize, m: u32, n: usize) -> bool {
        self.groups[d].is_rare(m << 1 | (n & 1) as u32)
    }

    /// The mex of the options of `n`, every value below it known.
    fn value_at(&mut self, n: usize, work: &mut u64) -> Option<u32> {
        let Sparse {
            moves,
            groups,
            options,
            small,
            counts,
            ..
        } = self;
        let small = &small[..n];
        // Every XOR of two values stays below the next power of two.
        let top = (counts.len() / 2 + 1).max(2).next_power_of_two();
        let words = (top * 2).div_ceil(64).min(WORDS);
        options[..words].fill(0);
        let options: &mut [u64; WORDS] = options;
        // x >> 6 < WORDS: no bounds check.
        let put =
            |options: &mut [u64; WORDS], x: u16| options[usize::from(x >> 6)] |= 1 << (x & 63);
        if moves.whole {
            put(options, 0);
        }
        for &t in &moves.takes {
            // (Taking none would be a move to itself: never a take.)
            if (1..=n).contains(&t) {
                put(options, small[n - t]);
            }
        }
        for &(t, unequal) in &moves.splits {
            let Some(s) = n.checked_sub(t).filter(|&s| s >= 2) else {
                continue;
            };
            let rare = &groups[t % 2].rare;
            // The equal split of an unequal family is not a move.
            let skip = if unequal && s % 2 == 0 { s / 2 } else { 0 };
            let end = rare.partition_point(|&i| (i as usize) < s);
            let values = rare[..end]
                .iter()
                .map(|&i| i as usize)
                .filter(|&i| i != skip)
                .map(|i| small[i] ^ small[s - i]);
            put_all(options, top, values);
            *work += end as u64;
        }
        let mut m = first_zero(&self.options[..words], 0);
        // A candidate rare in a group may come from a split of that group
        // with two common parts. Most such values come from the first
        // splits: take those in, in blocks that grow, until the candidate
        // is common. Past them, look for each candidate left (a loop that
        // compares, which vectorizes), and once found, for the next one
        // afresh.
        let rare = |s: &Sparse, m: u32| s.rare_in(0, m, n) || s.rare_in(1, m, n);
        let mut a0 = 1;
        let mut block = 4;
        while a0 < FIRST_SPLITS && rare(self, m) {
            let hi = (a0 + block).min(FIRST_SPLITS);
            self.splits_into_options(n, (a0, hi), top, work);
            m = first_zero(&self.options[..words], m);
            (a0, block) = (hi, block * 2);
        }
        loop {
            let scan = [self.rare_in(0, m, n), self.rare_in(1, m, n)];
            if !(scan[0] || scan[1]) || !self.split_gives(n, m as u16, scan, work) {
                break;
            }
            self.options[(m >> 6) as usize] |= 1 << (m & 63);
            m = first_zero(&self.options[..words], m + 1);
        }
        (m < MAX_VALUE).then_some(m)
    }

    /// The half of the splits of `s` in a family: the smaller heap goes up
    /// to it (the equal split of an unequal family is not a move).
    fn half(s: usize, unequal: bool) -> usize {
        if unequal {
            s.saturating_sub(1) / 2
        } else {
            s / 2
        }
    }

    /// Puts the values of the splits of `n` whose smaller heap is in
    /// `a0..hi` into the options, for every family.
    /// Every value of a split is below `top`.
    fn splits_into_options(
        &mut self,
        n: usize,
        (a0, hi): (usize, usize),
        top: usize,
        work: &mut u64,
    ) {
        let options: &mut [u64; WORDS] = &mut self.options;
        for &(t, unequal) in &self.moves.splits {
            let Some(s) = n.checked_sub(t) else {
                continue;
            };
            let hi = hi.min(Sparse::half(s, unequal) + 1);
            if hi <= a0 {
                continue;
            }
            *work += (hi - a0) as u64;
            let low = &self.small[a0..hi];
            let high = &self.small[s + 1 - hi..=s - a0];
            put_all(
                options,
                top,
                low.iter().zip(high.iter().rev()).map(|(&x, &y)| x ^ y),
            );
        }
    }

    /// Whether a split of `n` in a family of a group marked in `scan`, its
    /// smaller heap from [`FIRST_SPLITS`] on, has the value `m`: smaller
    /// heaps first, the families in step, in blocks that grow (the value
    /// is often found early).
    fn split_gives(&self, n: usize, m: u16, scan: [bool; 2], work: &mut u64) -> bool {
        let mut a0 = FIRST_SPLITS;
        let mut block = 16;
        loop {
            let mut left = false;
            for &(t, unequal) in &self.moves.splits {
                let Some(s) = n.checked_sub(t).filter(|_| scan[t % 2]) else {
                    continue;
                };
                let hi = (a0 + block).min(Sparse::half(s, unequal) + 1);
                if a0 >= hi {
                    continue;
                }
                left = true;
                *work += (hi - a0) as u64;
                let low = &self.small[a0..hi];
                let high = &self.small[s + 1 - hi..=s - a0];
                if hits(low, high, m) {
                    return true;
                }
            }
            if !left {
                return false;
            }
            a0 += block;
            block = (block * 2).min(SCAN_BLOCK);
        }
    }

    /// Takes in the value just computed (or found known).
    fn record(&mut self, n: usize, v: u16) {
        self.small.push(v);
        self.count(v, n);
        let k = key(v, n);
        for g in &mut self.groups {
            if g.active && g.classify(k) {
                g.rare.push(n as u32);
                // The split stops paying when rare positions pile up:
                // rebuild it (after doubling, so rebuilds cost linear time
                // in all).
                if g.rare.len() > 2 * g.rare_at_rebuild + 64 {
                    g.rebuild(&self.counts, &self.small);
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The plain mex of every option.
    fn plain(moves: &HeapMoves, len: usize) -> Vec<u32> {
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

    fn sparse(moves: &HeapMoves, len: usize, chunk: u64) -> Vec<u32> {
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
        let kayles = HeapMoves {
            whole: false,
            takes: vec![1, 2],
            splits: vec![(1, false), (2, false)],
        };
        let grundy = HeapMoves {
            whole: false,
            takes: vec![],
            splits: vec![(0, true)],
        };
        let o16 = HeapMoves {
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

    /// 0.6 (take one, leave one or two heaps) reaches the value 262 by
    /// n = 12000: the options' bits gather in one word, then two, then in
    /// memory. Its take leaves a heap, so the moves hold from n = 2 on.
    #[test]
    fn values_past_64_and_128_match_the_plain_mex() {
        let len = 12000;
        let mut want = vec![0u32; len];
        for n in 2..len {
            let mut seen = vec![false; 1024];
            seen[want[n - 1] as usize] = true;
            for a in 1..n - 1 {
                seen[(want[a] ^ want[n - 1 - a]) as usize] = true;
            }
            want[n] = seen.iter().position(|b| !b).unwrap() as u32;
        }
        assert!(want.iter().any(|&v| v >= 256), "{:?}", want.iter().max());
        let mut g = vec![UNKNOWN; len];
        g[..2].copy_from_slice(&want[..2]);
        let o6 = HeapMoves {
            whole: false,
            takes: vec![1],
            splits: vec![(1, false)],
        };
        let ran = Sparse::new(o6, 2).run(&mut g, 2, len, u64::MAX);
        assert_eq!(ran.next, len);
        assert_eq!(g, want);
    }

    fn moves() -> impl proptest::strategy::Strategy<Value = HeapMoves> {
        use proptest::prelude::*;
        (
            any::<bool>(),
            proptest::collection::btree_set(1usize..=4, 0..=3),
            proptest::collection::btree_set((0usize..=3, any::<bool>()), 1..=3),
        )
            .prop_map(|(whole, takes, splits)| HeapMoves {
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
        assert_eq!(first_zero(&s, 0), 3);
        assert_eq!(first_zero(&s, 4), 5);
        assert_eq!(first_zero(&s, 63), 66);
        assert_eq!(first_zero(&s, 200), 200);
    }
}
