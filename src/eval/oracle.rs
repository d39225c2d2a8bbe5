//! The engine as the solvers and analyses see it (`crate::oracle::Oracle`):
//! each method the machine's own.

use super::*;

impl Oracle for Machine {
    fn program(&self) -> &ir::Program {
        Machine::program(self)
    }
    fn constants(&self) -> &[Option<Value>] {
        &self.consts
    }
    fn intern(&mut self, game: GameId, args: &[Value], span: Span) -> R<PosId> {
        Machine::intern(self, game, args, span)
    }
    fn position(&self, pos: PosId) -> (GameId, Vec<Value>) {
        Machine::position(self, pos)
    }
    fn show_pos(&self, pos: PosId) -> String {
        Machine::show_pos(self, pos)
    }
    fn options_into(&mut self, pos: PosId, out: &mut Moves) -> R<()> {
        Machine::options_into(self, pos, out)
    }
    fn has_options(&mut self, pos: PosId) -> R<bool> {
        Machine::has_options(self, pos)
    }
    fn grundy(&mut self, pos: PosId) -> R<u32> {
        Machine::grundy(self, pos)
    }
    fn gsg(&mut self, pos: PosId) -> R<crate::loopy::Gsg> {
        Machine::gsg(self, pos)
    }
    fn ascend(&mut self, game: GameId, to: i64) -> R<()> {
        Machine::ascend(self, game, to, Scope::default())
    }
    fn known_period(&self, game: GameId) -> Option<(i64, i64)> {
        Machine::known_period(self, game)
    }
    fn set_period(&mut self, game: GameId, preperiod: i64, period: i64) {
        Machine::set_period(self, game, preperiod, period);
    }
    fn state_count(&self) -> usize {
        Machine::state_count(self)
    }
    fn room(&self) -> usize {
        Machine::room(self)
    }
    fn max_states(&self) -> usize {
        self.limits.max_states
    }
    fn poll(&mut self) -> R<()> {
        Machine::poll(self)
    }
    fn work(&self) -> u64 {
        self.budget.work()
    }
    fn apart(&mut self, allowance: u64) -> Apart {
        self.budget.apart(allowance)
    }
    fn restore(&mut self, saved: Apart) {
        self.budget.restore(saved);
    }
}
