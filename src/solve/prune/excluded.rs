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
        self.written = 0;
        if self.search == 0 {
            self.slots.clear();
            self.search = 1;
        }
    }

    /// The slot of `pos` in a table of `n` slots (a power of two).
    fn slot(pos: PosId, n: usize) -> usize {
        (pos.0.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> (64 - n.trailing_zeros())) as usize
    }

    /// The values `pos`'s value is known not to be (none when not known).
    #[inline]
    pub(super) fn of(&self, pos: PosId) -> Set {
        match self.slots.get(Self::slot(pos, self.slots.len())) {
            Some(&(p, s, values)) if p == pos && s == self.search => values,
            _ => 0,
        }
    }

    /// Notes that `pos`'s value is none of `values` (not kept for a set
    /// with its top bit, a partial node's spare: only conservative).
    pub(super) fn add(&mut self, pos: PosId, values: Set) {
        if values >> (Set::BITS - 1) != 0 {
            return;
        }
        if self.slots.is_empty() {
            self.slots.resize(FIRST_SLOTS, (PosId(0), 0, 0));
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
        let mut slots = vec![(PosId(0), 0, 0); n];
        for &(p, s, values) in self.slots.iter().filter(|e| e.1 == self.search) {
            slots[Self::slot(p, n)] = (p, s, values);
        }
        self.slots = slots;
        self.written = 0;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashMap;

    /// What is read was written for that position in this search (a slot
    /// may lose it, never mix it up), through the table's growth.
    #[test]
    fn what_is_read_was_written_this_search() {
        let mut e = Excluded::default();
        e.renew();
        let mut written: HashMap<PosId, Set> = HashMap::new();
        for i in 0..200_000u64 {
            let pos = PosId(i * 7919 % 60_000);
            let values = 1 << (i % 5) | 1 << (pos.0 % 3 + 10);
            e.add(pos, values);
            *written.entry(pos).or_default() |= values;
        }
        assert!(e.slots.len() > FIRST_SLOTS);
        let mut kept = 0;
        for pos in (0..60_000).map(PosId) {
            let read = e.of(pos);
            assert_eq!(
                read & !written.get(&pos).copied().unwrap_or(0),
                0,
                "{pos:?}"
            );
            kept += usize::from(read != 0);
        }
        assert!(kept > 30_000, "{kept}");
        // The last one written is there.
        assert_eq!(e.of(PosId(199_999 * 7919 % 60_000)) & 1 << 4, 1 << 4);
        // Entries kept through a growth: a fresh search fills the table
        // to just before it grows, then one more write grows it.
        let mut e = Excluded::default();
        e.renew();
        e.add(PosId(0), 1);
        let first = e.slots.len();
        let before: Vec<PosId> = (1..=first as u64 / 2 - 1).map(|i| PosId(i * 7)).collect();
        for &pos in &before {
            e.add(pos, 2);
        }
        assert_eq!(e.slots.len(), first);
        let readable = |e: &Excluded| before.iter().filter(|&&p| e.of(p) == 2).count();
        let kept = readable(&e);
        e.add(PosId(1), 4);
        assert_eq!(e.slots.len(), 2 * first);
        assert_eq!(readable(&e), kept);
        assert_eq!(e.of(before[before.len() - 1]), 2);
        e.add(PosId(7), 1 << 127 | 1);
        assert_eq!(e.of(PosId(7)) & 1 << 127, 0);
        e.renew();
        assert!((0..60_000).all(|pos| e.of(PosId(pos)) == 0));
    }
}
