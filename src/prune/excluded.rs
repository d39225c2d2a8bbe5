//! What the pruned search has proved a position's value is not: a node
//! that answers "not in the set asked" says so of every value it was
//! asked about. A position asked the same question again (the same part
//! in another sum) is answered at once. A table of bounded size, each
//! slot one position's values ruled out, for one search at a time (ids
//! may name other positions once the program changes).

use super::{PosId, Set};

/// Slots of the table at first (128 KiB), and at most (8 MiB): it
/// doubles each time a search writes half as many entries as it has
/// slots, so that a small search touches little memory.
const FIRST_SLOTS: usize = 1 << 12;
const MAX_SLOTS: usize = 1 << 18;

#[derive(Default)]
pub(super) struct Excluded {
    /// Per slot: the position, the search it was written in, and the
    /// values its value is not.
    slots: Vec<(PosId, u32, Set)>,
    search: u32,
    /// Entries written since the table last grew.
    written: usize,
}

impl Excluded {
    /// A new search: what the last one found is forgotten.
    pub(super) fn renew(&mut self) {
        self.search = self.search.wrapping_add(1);
        if self.search == 0 {
            self.slots.clear();
            self.search = 1;
        }
    }

    /// The slot of `pos` in a table of `n` slots (a power of two).
    fn slot(pos: PosId, n: usize) -> usize {
        (pos.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> (64 - n.trailing_zeros())) as usize
    }

    /// The values `pos`'s value is known not to be (none when not known).
    #[inline]
    pub(super) fn of(&self, pos: PosId) -> Set {
        match self.slots.get(Self::slot(pos, self.slots.len())) {
            Some(&(p, s, values)) if p == pos && s == self.search => values,
            _ => 0,
        }
    }

    /// Notes that `pos`'s value is none of `values` (a set without its
    /// top bit, which some questions use for "this or more").
    pub(super) fn add(&mut self, pos: PosId, values: Set) {
        if values >> (Set::BITS - 1) != 0 {
            return;
        }
        if self.slots.is_empty() {
            self.slots.resize(FIRST_SLOTS, (0, 0, 0));
        }
        self.written += 1;
        if self.written > self.slots.len() / 2 && self.slots.len() < MAX_SLOTS {
            self.grow();
        }
        let (search, n) = (self.search, self.slots.len());
        if let Some(slot) = self.slots.get_mut(Self::slot(pos, n)) {
            *slot = match *slot {
                (p, s, old) if p == pos && s == search => (p, s, old | values),
                _ => (pos, search, values),
            };
        }
    }

    /// Twice the slots, this search's entries kept.
    fn grow(&mut self) {
        let n = 2 * self.slots.len();
        let mut slots = vec![(0, 0, 0); n];
        for &(p, s, values) in self.slots.iter().filter(|e| e.1 == self.search) {
            slots[Self::slot(p, n)] = (p, s, values);
        }
        self.slots = slots;
        self.written = 0;
    }
}
