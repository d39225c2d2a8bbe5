//! The engine as the solvers and analyses see it (`crate::oracle::Oracle`):
//! the machine with the scope its searches run in, so that a period search
//! sees the same engine as a statement, with searches that start no period
//! search of their own.

use super::*;

/// The machine as an oracle: its searches run in `scope`.
pub struct Scoped<'m> {
    pub(super) m: &'m mut Machine,
    pub(super) scope: Scope,
}

impl Machine {
    /// The machine as the solvers and analyses see it, for a statement.
    pub fn oracle(&mut self) -> Scoped<'_> {
        self.scoped(Scope::default())
    }

    /// The machine as an oracle whose searches run in `scope`.
    pub(super) fn scoped(&mut self, scope: Scope) -> Scoped<'_> {
        Scoped { m: self, scope }
    }
}

impl Oracle for Scoped<'_> {
    fn program(&self) -> &ir::Program {
        self.m.program()
    }
    fn constants(&self) -> &[Option<Value>] {
        &self.m.consts
    }
    fn intern(&mut self, game: GameId, args: &[Value], span: Span) -> R<PosId> {
        self.m.intern(game, args, span)
    }
    fn position(&self, pos: PosId) -> (GameId, Vec<Value>) {
        self.m.position(pos)
    }
    fn show_pos(&self, pos: PosId) -> String {
        self.m.show().pos(pos)
    }
    fn options_into(&mut self, pos: PosId, out: &mut Moves) -> R<()> {
        self.m.options_into(pos, out)
    }
    fn has_options(&mut self, pos: PosId) -> R<bool> {
        self.m.has_options(pos)
    }
    fn options_at_most(&mut self, pos: PosId, cap: usize) -> R<bool> {
        let mut moves = Moves::default();
        let mut bufs = super::OptionBufs::default();
        let mut listed = 0usize;
        self.m.list(
            pos,
            ListSpec::default(),
            &mut moves,
            &mut bufs,
            &mut |_, _| {
                listed += 1;
                listed <= cap
            },
        )?;
        Ok(listed <= cap)
    }
    fn grundy(&mut self, pos: PosId) -> R<u32> {
        self.search(pos)
    }
    fn gsg(&mut self, pos: PosId) -> R<crate::value::Gsg> {
        self.gsg_in(pos)
    }
    fn ascend(&mut self, game: GameId, to: i64) -> R<()> {
        Scoped::ascend(self, game, to)
    }
    fn nim_heap(&self, pos: PosId) -> Option<u32> {
        Scoped::nim_heap(self, pos)
    }
    fn heap_window(&mut self, game: GameId) -> Option<(i64, i64)> {
        let shape = crate::solve::analysis::shape::shape(self, game).ok()?;
        (shape.is_subtraction() && shape.max_take() >= 1).then(|| (shape.from, shape.max_take()))
    }
    fn heap_shaped(&mut self, game: GameId) -> bool {
        // As normal play's ascending runs read it: splits into unequal
        // heaps (Grundy's game) are a heap's shape too.
        crate::solve::analysis::shape::moves(self, game).is_ok()
    }
    fn octal_digits(&mut self, game: GameId) -> Option<Vec<u8>> {
        let shape = crate::solve::analysis::shape::shape(self, game).ok()?;
        crate::solve::analysis::shape::exact_octal(self, game, &shape)
    }
    fn period_at(&self, pos: PosId) -> Option<crate::oracle::PeriodAt> {
        self.m.period_at(pos)
    }
    fn set_period(&mut self, game: GameId, preperiod: i64, period: i64, saltus: i64) {
        self.m.set_period(game, preperiod, period, saltus);
    }
    fn state_count(&self) -> usize {
        self.m.state_count()
    }
    fn room(&self) -> usize {
        self.m.room()
    }
    fn max_states(&self) -> usize {
        self.m.limits.max_states
    }
    fn spend(&mut self, n: u64) -> R<()> {
        self.m.budget.spend(n)
    }
    fn poll(&mut self) -> R<()> {
        self.m.poll()
    }
    fn meter(&mut self, meter: crate::budget::Meter, at: Option<(i64, i64)>) {
        match at {
            Some((at, last)) => self.m.budget.report(meter, at, last),
            None => self.m.budget.end_meter(meter),
        }
    }
    fn work(&self) -> u64 {
        self.m.budget.work()
    }
    fn apart(&mut self, allowance: u64) -> Apart {
        self.m.budget.apart(allowance)
    }
    fn restore(&mut self, saved: Apart) {
        self.m.budget.restore(saved);
    }
}
