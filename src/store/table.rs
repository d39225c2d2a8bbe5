//! A game's positions outside its dense array, when every argument is an
//! integer: the arguments side by side, found by an FxHash table.

use super::UNKNOWN;
use hashbrown::HashTable;
use rustc_hash::FxBuildHasher;
use std::hash::BuildHasher;

/// The positions of one integer game outside its dense array: arguments
/// side by side (`arity` to a position), found by an FxHash table of indices.
#[derive(Clone, Debug, Default)]
pub(super) struct IntTable {
    pub(super) arity: usize,
    args: Vec<i64>,
    pub(super) values: Vec<u32>,
    index: HashTable<u32>,
}

impl IntTable {
    pub(super) fn new(arity: usize) -> IntTable {
        IntTable {
            arity,
            ..IntTable::default()
        }
    }

    /// Whether entry `i` holds `args` (one argument compared in place: a
    /// board's mask, the common case, without a call to compare slices).
    #[inline(always)]
    fn holds(all: &[i64], arity: usize, i: u32, args: &[i64]) -> bool {
        match args {
            [a] => all.get(i as usize) == Some(a),
            _ => all.get(i as usize * arity..(i as usize + 1) * arity) == Some(args),
        }
    }

    #[inline]
    fn hash(args: &[i64]) -> u64 {
        match args {
            [a] => FxBuildHasher.hash_one(*a),
            _ => FxBuildHasher.hash_one(args),
        }
    }

    pub(super) fn find(&self, args: &[i64]) -> Option<u32> {
        let (all, ar) = (&self.args, self.arity);
        self.index
            .find(Self::hash(args), |&i| Self::holds(all, ar, i, args))
            .copied()
    }

    /// [`IntTable::intern`] of one argument (a board's mask).
    #[inline(always)]
    pub(super) fn intern1(&mut self, a: i64, room: bool) -> Option<u32> {
        let hash = FxBuildHasher.hash_one(a);
        let all = &self.args;
        if let Some(&i) = self.index.find(hash, |&i| all.get(i as usize) == Some(&a)) {
            return Some(i);
        }
        if !room {
            return None;
        }
        let i = u32::try_from(self.values.len()).ok()?;
        self.args.push(a);
        self.values.push(UNKNOWN);
        let all = &self.args;
        self.index.insert_unique(hash, i, |&j| {
            FxBuildHasher.hash_one(all.get(j as usize).copied().unwrap_or_default())
        });
        Some(i)
    }

    /// The index of `args`, inserted if new and `room` allows (`None` when
    /// it does not, or the table is full): hashed once.
    pub(super) fn intern(&mut self, args: &[i64], room: bool) -> Option<u32> {
        if let &[a] = args {
            return self.intern1(a, room);
        }
        let hash = Self::hash(args);
        let (all, ar) = (&self.args, self.arity);
        if let Some(&i) = self.index.find(hash, |&i| Self::holds(all, ar, i, args)) {
            return Some(i);
        }
        if !room {
            return None;
        }
        let i = u32::try_from(self.values.len()).ok()?;
        self.args.extend_from_slice(args);
        self.values.push(UNKNOWN);
        let all = &self.args;
        self.index.insert_unique(hash, i, |&j| {
            Self::hash(&all[j as usize * ar..(j as usize + 1) * ar])
        });
        Some(i)
    }

    pub(super) fn args_of(&self, i: usize) -> Option<&[i64]> {
        self.args.get(i * self.arity..(i + 1) * self.arity)
    }

    /// Bytes its next doubling would allocate, if that is near.
    pub(super) fn growth_near(&self) -> usize {
        let n = self.values.len();
        if !near_full(n, self.values.capacity()) {
            return 0;
        }
        // Arguments, values, and the index (4 bytes and a control byte each).
        n.saturating_mul(2 * (self.arity * 8 + 4 + 5))
    }
}

/// Whether a table of `len` entries is within a quarter of its `capacity`:
/// its next doubling is near.
pub(super) fn near_full(len: usize, capacity: usize) -> bool {
    len >= 1 << 16 && len >= capacity / 4 * 3
}
