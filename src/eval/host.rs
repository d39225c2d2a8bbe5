//! The machine as a builtin's function sees it: [`crate::builtin::Host`]
//! for a call in the program.

use super::*;

/// The machine as a builtin's function sees it ([`crate::builtin::Host`]):
/// a call of `args` at `span`.
pub(super) struct Caller<'c> {
    m: &'c mut Machine,
    p: &'c ir::Program,
    args: &'c [ExprId],
    span: Span,
}

impl<'c> Caller<'c> {
    pub(super) fn new(
        m: &'c mut Machine,
        p: &'c ir::Program,
        args: &'c [ExprId],
        span: Span,
    ) -> Caller<'c> {
        Caller { m, p, args, span }
    }
}

impl crate::builtin::Host for Caller<'_> {
    fn span(&self) -> Span {
        self.span
    }

    fn place(&self, i: usize) -> Span {
        self.args.get(i).map_or(self.span, |&a| self.p.span(a))
    }

    fn show(&self, v: &Value) -> String {
        self.m.show().value(v)
    }

    fn text(&self, v: &Value) -> String {
        self.m.show().text(v)
    }

    fn poll(&mut self) -> R<()> {
        self.m.poll()
    }

    fn work(&mut self, units: u64) {
        self.m.budget.add(units);
    }

    fn reserve(&mut self, bytes: usize) -> R<()> {
        self.m.reserve(bytes)
    }

    fn max_list(&self) -> usize {
        self.m.limits.max_list
    }
}
