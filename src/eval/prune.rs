//! The pruned nimber search as a strategy: `crate::prune` over the
//! machine, its options named as stored (`eval::rename`).

use super::rename::{Naming, named};
use super::*;

/// The machine as the pruned search sees it.
struct Board<'a, 'm> {
    s: &'a mut Scoped<'m>,
    bufs: OptionBufs,
}

impl crate::prune::Tree for Board<'_, '_> {
    fn known(&self, pos: PosId) -> Option<u32> {
        let v = self.s.m.memo.value(pos);
        (v <= MAX_VALUE).then_some(v)
    }

    fn store(&mut self, pos: PosId, value: u32) {
        self.s.m.memo.set(pos, value);
    }

    fn options(
        &mut self,
        pos: PosId,
        out: &mut Moves,
        more: &mut dyn FnMut(Option<u32>) -> bool,
    ) -> R<bool> {
        // `pos` may be a raw id, listed by its argument: a position whose
        // listing stops early is never stored. The options it may never
        // enter are named without being stored in turn.
        let bufs = &mut self.bufs;
        named(self.s.m, Naming::Stored, |m| {
            let raw = std::mem::replace(&mut m.interp_state.rename.raw, true);
            let listed = m.options_with(pos, out, bufs, &mut |m, parts| {
                more(crate::prune::known_sum(parts, |c| {
                    let v = m.memo.value(c);
                    (v <= MAX_VALUE).then_some(v)
                }))
            });
            m.interp_state.rename.raw = raw;
            listed
        })
    }

    fn value(&mut self, pos: PosId) -> R<u32> {
        let pos = self.interned(pos)?;
        self.s.fallback_value(pos)
    }

    /// The set bits of its integer arguments: a bitmask board's cells.
    fn size(&self, pos: PosId) -> u32 {
        self.s
            .m
            .memo
            .int_args(pos)
            .map_or(0, |a| a.as_slice().iter().map(|v| v.count_ones()).sum())
    }
}

impl Board<'_, '_> {
    /// `pos` interned (the options it lists may be raw ids).
    fn interned(&mut self, pos: PosId) -> R<PosId> {
        let max = self.s.m.limits.max_states;
        self.s
            .m
            .memo
            .interned(pos)
            .map_err(|_| state_limit(max, Span::default()).into())
    }
}

impl Scoped<'_> {
    /// The value of `root` by the pruned search; `None` when it declines
    /// (too many options, or too deep), and the general search answers.
    pub(super) fn by_pruning(&mut self, root: PosId) -> R<Option<u32>> {
        let mut search = std::mem::take(&mut self.m.accel.pruning);
        let mut board = Board {
            s: self,
            bufs: OptionBufs::default(),
        };
        let result = search.nimber(&mut board, root);
        self.m.accel.pruning = search;
        match result {
            Err(Stop::Aborted) => Ok(None),
            other => other,
        }
    }
}
