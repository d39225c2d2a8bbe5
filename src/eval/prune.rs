//! The pruned nimber search as a strategy: `crate::solve::prune` over the
//! machine, its options named as stored (`eval::rename`).

use super::rename::{Names, Naming};
use super::*;
use crate::solve::prune::{More, aimed_sum};

/// The machine as the pruned search sees it.
struct Board<'a, 'm> {
    s: &'a mut Scoped<'m>,
    bufs: OptionBufs,
    /// Whether a game of the program states a `prefer` that may hold
    /// (not one false whatever the parameters: `never_prefers`).
    hinted: bool,
}

impl crate::solve::prune::Tree for Board<'_, '_> {
    #[inline(always)]
    fn known(&self, pos: PosId) -> Option<u32> {
        let v = self.s.m.store.value(pos);
        (v <= MAX_VALUE).then_some(v)
    }

    fn store(&mut self, pos: PosId, value: u32) -> R<()> {
        let pos = self.interned(pos)?;
        self.s.m.store.set(pos, value);
        Ok(())
    }

    fn options(&mut self, pos: PosId, out: &mut Moves, more: &mut More) -> R<bool> {
        self.list(pos, out, more, false).map(|(all, _)| all)
    }

    /// The kernels leave out the options whose game's `prefer` says no
    /// before they are split and named (see `ListSpec::look`): on a
    /// board answered move by move, most are not the answer.
    fn look(&mut self, pos: PosId, out: &mut Moves, more: &mut More) -> R<(bool, bool)> {
        self.list(pos, out, more, true)
    }

    fn value(&mut self, pos: PosId) -> R<u32> {
        let pos = self.interned(pos)?;
        self.s.fallback_value(pos)
    }

    fn hinted(&self) -> bool {
        self.hinted
    }

    /// A `prefer` that fails on a part (an error in the user's condition)
    /// does not prefer it: a hint never changes an answer. Ctrl-C still
    /// stops the search (a limit reached here, the search meets again).
    fn aimed(&mut self, parts: &[PosId]) -> R<bool> {
        let mut stopped = None;
        let aimed = aimed_sum(parts, |c| match self.prefers(c) {
            Ok(yes) => Some(yes),
            Err(stop @ (Stop::Interrupted | Stop::Aborted)) => {
                stopped = Some(stop);
                Some(false)
            }
            Err(Stop::Error(_) | Stop::Limit(..) | Stop::Cycle(_)) => Some(false),
        });
        match stopped {
            Some(stop) => Err(stop),
            None => Ok(aimed == Some(true)),
        }
    }

    /// Where the search is, and the positions stored, for the progress
    /// line.
    fn progress(&mut self, round: u32, levels: &[(u32, u32)]) {
        if let Some(p) = self.s.m.budget.progress() {
            p.set_levels(round, levels);
            p.set_states(self.s.m.store.states());
        }
        // Every value stored is proven: a checkpoint due is saved here.
        if self.s.m.checkpoint.is_some() {
            self.s.m.checkpoint_if_due();
        }
    }

    /// The set bits of its integer arguments: a bitmask board's cells.
    #[inline(always)]
    fn size(&self, pos: PosId) -> u32 {
        self.s
            .m
            .store
            .int_args(pos)
            .map_or(0, |a| a.as_slice().iter().map(|v| v.count_ones()).sum())
    }
}

/// Whether `pos`'s game `prefer`s it, by the game's `prefer` kernel;
/// `None` when there is none to ask (or it gave up), and the interpreter
/// answers.
pub(super) fn prefers_by_kernel(m: &Machine, pos: PosId) -> Option<bool> {
    let game = m.store.game_of(pos).index();
    if m.prog.games.get(game)?.stored_as.prefer.is_none() {
        return Some(false);
    }
    if !m.limits.kernels {
        return None;
    }
    let code = m.forms.kernels.get(game)?.prefer.as_ref()?;
    code.eval(m.store.int_args(pos)?.as_slice())
}

impl Board<'_, '_> {
    /// `pos`'s options, named as stored, on a first look if `look` (see
    /// [`crate::solve::prune::Tree::look`]); whether the listing went to the end,
    /// and whether it left any option out.
    fn list(
        &mut self,
        pos: PosId,
        out: &mut Moves,
        more: &mut More,
        look: bool,
    ) -> R<(bool, bool)> {
        // A position the hint prefers is one to move to: the answer to a
        // move from it may be preferred only as a whole (a mirror image
        // across the parts the move cut), so its options are kept whole,
        // and listed at once (none is expected to be preferred).
        let whole = self.hinted && prefers_by_kernel(self.s.m, pos) == Some(true);
        // Named as stored; a board not stored yet by a raw id.
        let spec = ListSpec {
            names: Names {
                naming: Naming::Stored,
                raw: true,
            },
            look: look && !whole,
            whole,
        };
        // `pos` may be a raw id, listed by its argument: a position whose
        // listing stops early is never stored. The options it may never
        // enter are named without being stored in turn.
        let bufs = &mut self.bufs;
        let hinted = self.hinted;
        let listed = self.s.m.list(pos, spec, out, bufs, &mut |m, parts| {
            let value = |c| {
                let v = m.store.value(c);
                (v <= MAX_VALUE).then_some(v)
            };
            let known = match hinted {
                true => crate::solve::prune::known_sum_paired(parts, value),
                false => crate::solve::prune::known_sum(parts, value),
            };
            let aimed = match known {
                None if hinted => aimed_sum(parts, |c| prefers_by_kernel(m, c)),
                _ => Some(false),
            };
            more(known, aimed)
        });
        listed.map(|l| (l.all, l.left_out))
    }

    /// Whether `pos`'s game `prefer`s it, by the interpreter.
    fn prefers(&mut self, pos: PosId) -> R<bool> {
        let m = &mut *self.s.m;
        let game = m.game_of(pos);
        let prog = Rc::clone(&m.prog);
        let g = &prog.games[game.index()];
        let Some(cond) = g.stored_as.prefer else {
            return Ok(false);
        };
        let mut args = Vec::new();
        crate::key::args_of(&m.store, pos, &mut args);
        let mut env = Vec::new();
        super::rename::rule_frame(m, game, &args, &mut env);
        // The condition's positions as the rules wrote them.
        m.interp().boolean(&prog, cond, &mut env)
    }

    /// `pos` interned (the options it lists may be raw ids).
    fn interned(&mut self, pos: PosId) -> R<PosId> {
        let max = self.s.m.limits.max_states;
        self.s
            .m
            .store
            .interned(pos)
            .map_err(|_| state_limit(max, Span::default()))
    }
}

impl Scoped<'_> {
    /// The value of `root` by the pruned search; `None` when it declines
    /// (too many options, or too deep), and the general search answers.
    pub(super) fn by_pruning(&mut self, root: PosId) -> R<Option<u32>> {
        let mut search = std::mem::take(&mut self.m.caches.pruning);
        let kernels = &self.m.forms.kernels;
        let hinted = self.m.prog.games.iter().enumerate().any(|(i, g)| {
            g.stored_as.prefer.is_some() && !kernels.get(i).is_some_and(|k| k.never_prefers)
        });
        let mut board = Board {
            s: self,
            bufs: OptionBufs::default(),
            hinted,
        };
        let result = search.nimber(&mut board, root);
        // The progress line no longer shows where this search was.
        crate::solve::prune::Tree::progress(&mut board, 0, &[]);
        self.m.caches.pruning = search;
        match result {
            Err(Stop::Aborted) => Ok(None),
            other => other,
        }
    }
}
