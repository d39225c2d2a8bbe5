//! P-positions by marking, for games of several integers whose moves are
//! translations: walk the positions of a box in an order every move goes
//! down in, and from each P-position mark every position that moves to it
//! (the sieve of Wythoff's game). One bit per position, and no Grundy
//! value: only who wins.
//!
//! A plain-data core: the moves come as [`Translation`](crate::marking::Translation)s (read from the
//! rules by [`crate::solve::analysis::translate`]), the box as its sizes; the
//! caller's `poll` is asked every few million marks (Ctrl-C, limits).

/// The moves of one rule: from x to y = x − k·step − shift for every k
/// with `k_lo <= k <= k_hi` that leaves y_i >= floor_i for every i, where
/// x meets `when`. Every step and `k_lo·step + shift` are at least 0 in
/// every coordinate, and the latter is not all 0: a move never makes a
/// coordinate larger, and changes one.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Translation {
    /// How far one k moves each coordinate down (at least 0).
    pub step: Vec<i64>,
    /// How far every move of the rule moves each coordinate down.
    pub shift: Vec<i64>,
    /// The least k.
    pub k_lo: i64,
    /// The largest k (`i64::MAX`: as far as the floors allow).
    pub k_hi: i64,
    /// The least each coordinate of y may be (at least 0).
    pub floor: Vec<i64>,
    /// Conditions on x: `coefs · x + k >= 0`.
    pub when: Vec<(Vec<i64>, i64)>,
}

/// The P-positions of the box `0..=dims[0] × 0..=dims[1] × …`, one bit
/// per position, in row-major order (the last coordinate fastest).
pub struct PSet {
    /// The box's largest coordinates.
    pub dims: Vec<i64>,
    /// Bit i: the position of index i is a P-position.
    bits: Vec<u64>,
    /// The index's step for each coordinate.
    strides: Vec<u64>,
}

impl PSet {
    /// Whether the position `x` (inside the box) is a P-position.
    pub fn is_p(&self, x: &[i64]) -> bool {
        let i = index(&self.strides, x);
        self.bits[(i / 64) as usize] >> (i % 64) & 1 == 1
    }

    /// The last coordinates `lo..=hi` (inside the box) of the P-positions
    /// whose other coordinates are `head`, in order: a scan of their bits.
    pub fn row(&self, head: &[i64], lo: i64, hi: i64, out: &mut dyn FnMut(i64)) {
        let base: u64 = self
            .strides
            .iter()
            .zip(head)
            .map(|(s, &v)| s * v as u64)
            .sum();
        let (start, end) = (base + lo as u64, base + hi as u64 + 1);
        let mut i = start;
        while i < end {
            let w = (i / 64) as usize;
            let mut bits = self.bits[w] >> (i % 64);
            let span = (64 - i % 64).min(end - i);
            if span < 64 {
                bits &= (1u64 << span) - 1;
            }
            while bits != 0 {
                let b = u64::from(bits.trailing_zeros());
                out((i + b - base) as i64);
                bits &= bits - 1;
            }
            i += span;
        }
    }

    /// How many P-positions the box holds.
    pub fn count(&self) -> u64 {
        self.bits.iter().map(|w| u64::from(w.count_ones())).sum()
    }
}

/// Positions a box of these sizes holds, if it fits in 64 bits.
pub fn positions(dims: &[i64]) -> Option<u64> {
    dims.iter().try_fold(1u64, |acc, &d| {
        acc.checked_mul(u64::try_from(d).ok()?.checked_add(1)?)
    })
}

fn index(strides: &[u64], x: &[i64]) -> u64 {
    strides.iter().zip(x).map(|(s, &v)| s * v as u64).sum()
}

/// Marks between two polls.
const CHUNK: u64 = 1 << 22;

/// The P-positions of the box, by marking: it must hold every position
/// its positions move to (the caller sets aside coordinates no move
/// changes). `poll` is called with the work done so far (marks and
/// P-positions), every few million: its error ends the walk. `None`: the
/// bits could not be allocated.
pub fn mark<E>(
    moves: &[Translation],
    dims: &[i64],
    poll: &mut dyn FnMut(u64) -> Result<(), E>,
) -> Result<Option<PSet>, E> {
    let total = positions(dims).unwrap_or(0);
    let d = dims.len();
    let mut strides = vec![1u64; d];
    for i in (0..d.saturating_sub(1)).rev() {
        strides[i] = strides[i + 1] * (dims[i + 1] as u64 + 1);
    }
    let Ok(words) = usize::try_from(total.div_ceil(64)) else {
        return Ok(None);
    };
    // Marked: a move to a P-position found. What is left is P.
    let mut marked: Vec<u64> = Vec::new();
    if marked.try_reserve_exact(words).is_err() {
        return Ok(None);
    }
    marked.resize(words, 0);
    let mut x = vec![0i64; d];
    let mut y = vec![0i64; d];
    let mut marks = 0u64;
    let mut next_poll = CHUNK;
    let mut i = 0u64;
    while i < total {
        // The next unmarked position, a word at a time.
        let w = (i / 64) as usize;
        let free = !marked[w] & (!0u64 << (i % 64));
        if free == 0 {
            i = (w as u64 + 1) * 64;
            continue;
        }
        i = w as u64 * 64 + u64::from(free.trailing_zeros());
        if i >= total {
            break;
        }
        // i is a P-position: its coordinates.
        let mut rest = i;
        for c in 0..d {
            y[c] = (rest / strides[c]) as i64;
            rest %= strides[c];
        }
        for t in moves {
            if (0..d).any(|c| y[c] < t.floor[c]) {
                continue;
            }
            // The largest k keeping x in the box.
            let mut k_max = t.k_hi;
            for c in 0..d {
                let room = dims[c] - y[c] - t.shift[c];
                if t.step[c] > 0 {
                    k_max = k_max.min(room.div_euclid(t.step[c]));
                } else if room < 0 {
                    k_max = i64::MIN;
                }
            }
            if k_max < t.k_lo {
                continue;
            }
            // Wrapping: with a k range inside the box, the sum is in range.
            let delta = (0..d).fold(0i64, |acc, c| {
                acc.wrapping_add(t.step[c].wrapping_mul(strides[c] as i64))
            });
            for c in 0..d {
                x[c] = y[c] + t.k_lo * t.step[c] + t.shift[c];
            }
            let mut at = index(&strides, &x) as usize;
            let delta = delta as usize;
            if t.when.is_empty() {
                for _ in t.k_lo..=k_max {
                    marked[at >> 6] |= 1 << (at & 63);
                    at = at.wrapping_add(delta);
                }
            } else {
                for _ in t.k_lo..=k_max {
                    if meets(&t.when, &x) {
                        marked[at >> 6] |= 1 << (at & 63);
                    }
                    for (xc, s) in x.iter_mut().zip(&t.step) {
                        *xc += s;
                    }
                    at = at.wrapping_add(delta);
                }
            }
            marks += (k_max - t.k_lo + 1) as u64;
        }
        // A P-position is work too, where few moves are marked.
        marks += 1;
        if marks >= next_poll {
            poll(marks)?;
            next_poll = marks + CHUNK;
        }
        i += 1;
    }
    // P: what was never marked (the tail past the box cleared).
    for w in &mut marked {
        *w = !*w;
    }
    if !total.is_multiple_of(64)
        && let Some(last) = marked.last_mut()
    {
        *last &= (1u64 << (total % 64)) - 1;
    }
    Ok(Some(PSet {
        dims: dims.to_vec(),
        bits: marked,
        strides,
    }))
}

fn meets(when: &[(Vec<i64>, i64)], x: &[i64]) -> bool {
    when.iter()
        .all(|(coefs, k)| coefs.iter().zip(x).map(|(a, b)| a * b).sum::<i64>() + k >= 0)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Wythoff's game: one heap, the other, or both by the same amount.
    fn wythoff() -> Vec<Translation> {
        [[1, 0], [0, 1], [1, 1]]
            .into_iter()
            .map(|step| Translation {
                step: step.to_vec(),
                shift: vec![0, 0],
                k_lo: 1,
                k_hi: i64::MAX,
                floor: vec![0, 0],
                when: Vec::new(),
            })
            .collect()
    }

    #[test]
    fn wythoff_p_positions_are_the_golden_pairs() {
        let p = mark::<()>(&wythoff(), &[40, 40], &mut |_| Ok(()))
            .expect("no poll error")
            .expect("room for 1681 bits");
        // (⌊kφ⌋, ⌊kφ²⌋) and mirrors, by hand.
        let pairs = [
            (0, 0),
            (1, 2),
            (3, 5),
            (4, 7),
            (6, 10),
            (8, 13),
            (9, 15),
            (11, 18),
        ];
        let mut want = 0;
        for &(a, b) in &pairs {
            assert!(p.is_p(&[a, b]) && p.is_p(&[b, a]), "({a}, {b})");
            want += if a == b { 1 } else { 2 };
        }
        let more = [
            (12, 20),
            (14, 23),
            (16, 26),
            (17, 28),
            (19, 31),
            (21, 34),
            (22, 36),
            (24, 39),
        ];
        for &(a, b) in &more {
            assert!(p.is_p(&[a, b]));
            want += 2;
        }
        assert_eq!(p.count(), want);
    }
}
