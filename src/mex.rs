//! Mex sets: the option values seen at a position, and the least value
//! not among them. `Seen` grows with the values (the search, misère play);
//! `Stamped` is the kernels' flat array, cleared by a stamp. The least
//! value missing from a bit set is found once, by [`first_zero`](crate::mex::first_zero).

use crate::store::MAX_VALUE;

/// The least value at or above `from` missing from a bit set of words
/// (bit `v % 64` of word `v / 64`): the one mex the sets below and the
/// sparse-space and window evaluators share.
#[inline]
pub fn first_zero(set: &[u64], from: u32) -> u32 {
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

/// The mex set a kernel writes into.
pub trait SeenSet {
    /// Adds a value (sentinel values are ignored).
    fn insert(&mut self, v: u32);

    /// Work done beside inserting (loop values stepped through), for the
    /// work limit; ignored by default.
    #[inline(always)]
    fn spent(&mut self, _steps: u64) {}

    /// Adds the values of `(bits read, value)` pairs; returns the OR of the
    /// bits read, so callers can tell afterwards whether a sentinel was seen.
    #[inline(always)]
    fn insert_all(&mut self, items: impl Iterator<Item = (u32, u32)>) -> u32 {
        let mut read = 0;
        for (r, v) in items {
            read |= r;
            self.insert(v);
        }
        read
    }
}

/// A mex set for computing one value at a time, as hand-written solvers do:
/// `stamps[v] == stamp` marks `v` as seen, so inserting is a plain store and a
/// new position starts with `stamp + 1` instead of clearing anything. The
/// array is a power of two larger than any XOR of stored values, and indices
/// are masked: a value computed from a sentinel lands somewhere harmless, and
/// the kernel gives up (and the set is cleared) anyway.
#[derive(Clone, Debug, Default)]
pub struct Stamped {
    stamps: Vec<u32>,
    stamp: u32,
    /// Values inserted since the last [`Stamped::take_inserted`]: the work
    /// done, for the work limit.
    inserted: u64,
}

impl Stamped {
    /// Empties the set for the next position, where every value stored so
    /// far is at most `max_value`.
    pub fn clear(&mut self, max_value: u32) {
        // XORs of values up to `max_value` stay below the next power of two
        // above it; `len / 2` of a power of two is the largest value covered.
        if max_value as usize >= self.stamps.len() / 2 {
            let need = (2 * max_value as usize + 4).next_power_of_two().max(1024);
            self.stamps = vec![0; need];
            self.stamp = 0;
        }
        self.stamp = self.stamp.wrapping_add(1);
        if self.stamp == 0 {
            self.stamps.iter_mut().for_each(|s| *s = 0);
            self.stamp = 1;
        }
    }

    /// How many values were inserted since the last
    /// [`Stamped::take_inserted`].
    pub fn inserted(&self) -> u64 {
        self.inserted
    }

    /// How many values were inserted since the last call.
    pub fn take_inserted(&mut self) -> u64 {
        std::mem::take(&mut self.inserted)
    }

    /// The least value not in the set.
    pub fn mex(&self) -> u32 {
        let mut v = 0;
        while self.stamps.get(v) == Some(&self.stamp) {
            v += 1;
        }
        v as u32
    }
}

/// A set that counts the values inserted into it: the work done, for the
/// work limit.
pub struct Counted<'a, S> {
    /// The set.
    pub set: &'a mut S,
    /// Values inserted so far.
    pub count: u64,
}

impl<S: SeenSet> SeenSet for Counted<'_, S> {
    #[inline(always)]
    fn insert(&mut self, v: u32) {
        self.count += 1;
        self.set.insert(v);
    }

    #[inline(always)]
    fn insert_all(&mut self, items: impl Iterator<Item = (u32, u32)>) -> u32 {
        self.count += items.size_hint().0 as u64;
        self.set.insert_all(items)
    }

    fn spent(&mut self, steps: u64) {
        self.count += steps;
    }
}

impl SeenSet for Stamped {
    fn spent(&mut self, steps: u64) {
        self.inserted += steps;
    }

    #[inline(always)]
    fn insert(&mut self, v: u32) {
        self.inserted += 1;
        let mask = self.stamps.len().wrapping_sub(1);
        if let Some(s) = self.stamps.get_mut(v as usize & mask) {
            *s = self.stamp;
        }
    }

    #[inline(always)]
    fn insert_all(&mut self, items: impl Iterator<Item = (u32, u32)>) -> u32 {
        // Locals, so the stores into `stamps` cannot alias `stamp`.
        let stamp = self.stamp;
        let stamps = &mut self.stamps[..];
        let mask = stamps.len().wrapping_sub(1);
        let mut read = 0;
        // Counted from the length (the loops are over slices), so the loop
        // itself stays as tight as before.
        self.inserted += items.size_hint().0 as u64;
        for (r, v) in items {
            read |= r;
            if let Some(s) = stamps.get_mut(v as usize & mask) {
                *s = stamp;
            }
        }
        read
    }
}

/// The set of option values seen so far, for the mex.
#[derive(Clone, Debug, Default)]
pub struct Seen {
    low: u64,
    high: Vec<u64>,
}

impl Seen {
    #[inline(always)]
    pub fn insert(&mut self, v: u32) {
        if v < 64 {
            self.low |= 1 << v;
        } else {
            self.insert_high(v);
        }
    }

    /// Values of 64 and more; sentinels (never a value) are ignored.
    fn insert_high(&mut self, v: u32) {
        if v > MAX_VALUE {
            return;
        }
        let i = (v as usize - 64) / 64;
        if self.high.len() <= i {
            self.high.resize(i + 1, 0);
        }
        self.high[i] |= 1 << ((v - 64) % 64);
    }

    pub fn union(&mut self, other: &Seen) {
        self.low |= other.low;
        if self.high.len() < other.high.len() {
            self.high.resize(other.high.len(), 0);
        }
        for (a, b) in self.high.iter_mut().zip(&other.high) {
            *a |= b;
        }
    }

    pub fn mex(&self) -> u64 {
        if self.low != u64::MAX {
            return u64::from(self.low.trailing_ones());
        }
        64 + u64::from(first_zero(&self.high, 0))
    }
}

impl SeenSet for Seen {
    #[inline(always)]
    fn insert(&mut self, v: u32) {
        Seen::insert(self, v);
    }
}
