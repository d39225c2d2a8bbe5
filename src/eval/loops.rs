//! Loops of the interpreter: `for` clauses over ranges and lists, the
//! bindings of a statement's or a comprehension's clauses, and `check`
//! cases. A statement's own loops report their progress to the budget's
//! meters, for the runaway projection.

use super::*;
use crate::budget::{STATEMENT_LEVELS, STEP_WORK};

/// How many values of a range whose tests are compiled go between two
/// looks at the limits.
const BLOCK: i64 = 256;

/// An iterator of a `for` clause (a range steps as Rust's inclusive ranges
/// do, up to `i64::MAX` without overflow).
#[derive(Clone, Debug)]
pub(super) enum Iter {
    Range(std::ops::RangeInclusive<i64>),
    List { list: Rc<[Value]>, idx: usize },
    Ints { list: Rc<[i64]>, idx: usize },
    Bools { list: Rc<[bool]>, idx: usize },
}

impl Iter {
    #[inline]
    pub(super) fn next(&mut self) -> Option<Value> {
        match self {
            Iter::Range(r) => r.next().map(Value::Int),
            Iter::List { list, idx } => {
                let v = list.get(*idx).cloned();
                *idx += 1;
                v
            }
            Iter::Ints { list, idx } => {
                let v = list.get(*idx).map(|&x| Value::Int(x));
                *idx += 1;
                v
            }
            Iter::Bools { list, idx } => {
                let v = list.get(*idx).map(|&x| Value::Bool(x));
                *idx += 1;
                v
            }
        }
    }

    /// Where a loop over a range stands, while values remain: its next
    /// value and its last (for the runaway projection's meters).
    pub(super) fn at(&self) -> Option<(i64, i64)> {
        match self {
            Iter::Range(r) if !r.is_empty() => Some((*r.start(), *r.end())),
            _ => None,
        }
    }
}

/// Where the innermost running loop over a range of a frame stands: its
/// next value and its last.
pub(super) fn innermost_range(iters: &[Option<Iter>]) -> Option<(i64, i64)> {
    iters.iter().rev().flatten().find_map(Iter::at)
}

/// A loop over a range whose clauses after it are compiled `if`s: its
/// clause, its variable's slot, its meter's level, its tests.
struct Tested<'a> {
    p: &'a ir::Program,
    clauses: &'a [Clause],
    i: usize,
    slot: usize,
    level: Option<u8>,
    tests: &'a crate::compiled::Tests<'a>,
}

impl Interp<'_> {
    /// Runs `body` for every binding of `clauses` (an entry from outside).
    pub fn comp_loop(
        &mut self,
        clauses: &[Clause],
        env: &mut [Value],
        body: &mut dyn FnMut(&mut Machine, &mut [Value]) -> R<bool>,
    ) -> R<bool> {
        let p = Rc::clone(&self.m.prog);
        self.bindings(&p, clauses, 0, env, &mut |i, env| body(i.m, env))
    }

    pub(super) fn iter(&mut self, p: &ir::Program, e: ExprId, env: &mut [Value]) -> R<Iter> {
        match self.value(p, e, env)? {
            Value::Range(lo, hi) => Ok(Iter::Range(lo..=hi)),
            Value::List(list) => Ok(Iter::List { list, idx: 0 }),
            Value::Ints(list) => Ok(Iter::Ints { list, idx: 0 }),
            Value::Bools(list) => Ok(Iter::Bools { list, idx: 0 }),
            other => Err(self.type_bug(p, e, "a range or a list", &other).into()),
        }
    }

    /// Runs `body` for every binding of `clauses` (from clause `i` on);
    /// `body` returns false to stop early. Returns false if stopped.
    pub(super) fn bindings(
        &mut self,
        p: &ir::Program,
        clauses: &[Clause],
        i: usize,
        env: &mut [Value],
        body: &mut dyn FnMut(&mut Interp<'_>, &mut [Value]) -> R<bool>,
    ) -> R<bool> {
        let Some(clause) = clauses.get(i) else {
            return body(self, env);
        };
        match *clause {
            Clause::If { cond } => {
                if self.boolean(p, cond, env)? {
                    self.bindings(p, clauses, i + 1, env, body)
                } else {
                    Ok(true)
                }
            }
            Clause::Let { slot, value } => {
                let v = self.value(p, value, env)?;
                match env.get_mut(slot.index()) {
                    Some(s) => crate::value::assign(s, v),
                    None => return Err(Diag::bug("a `let` slot out of range").into()),
                }
                self.bindings(p, clauses, i + 1, env, body)
            }
            Clause::While { cond } => {
                if self.boolean(p, cond, env)? {
                    return self.bindings(p, clauses, i + 1, env, body);
                }
                // The nearest loop before it ends (with none, an `if`).
                if let Some(k) = ir::enclosing_loop(clauses, i) {
                    self.m.interp_state.end_loop = Some((clauses.as_ptr(), k));
                }
                Ok(true)
            }
            Clause::For { slot, iter } => {
                let it = self.iter(p, iter, env)?;
                // A statement's own loops (no search running) report their
                // progress, for the runaway projection.
                let level = self.m.interp_state.loop_depth;
                if self.m.interp_state.searching > 0 || level >= STATEMENT_LEVELS {
                    return self.for_values(p, clauses, i, slot.0, it, env, body, None);
                }
                self.m.interp_state.loop_depth += 1;
                let result = self.for_values(p, clauses, i, slot.0, it, env, body, Some(level));
                self.m.interp_state.loop_depth -= 1;
                self.m.budget.end_meter(Meter::Statement(level));
                result
            }
        }
    }

    /// The values of a `for` clause, each with the clauses after it;
    /// reported to the loop's meter if it has one.
    #[allow(clippy::too_many_arguments)]
    fn for_values(
        &mut self,
        p: &ir::Program,
        clauses: &[Clause],
        i: usize,
        slot: u32,
        it: Iter,
        env: &mut [Value],
        body: &mut dyn FnMut(&mut Interp<'_>, &mut [Value]) -> R<bool>,
        level: Option<u8>,
    ) -> R<bool> {
        // This loop's own end, asked for by a `while` after it.
        let me = Some((clauses.as_ptr(), i));
        if self.m.interp_state.end_loop == me {
            self.m.interp_state.end_loop = None;
        }
        // The `if`s right after the last loop, when compiled, are tested
        // in place, value by value, and the body run where they hold.
        let compiled = Rc::clone(&self.m.forms.compiled);
        let tests = compiled.tests(&clauses[i + 1..]);
        let slot = slot as usize;
        if slot >= env.len() {
            return Err(Diag::bug("a loop's slot out of range").into());
        }
        // One value, with the clauses after the loop: `Some` of what the
        // loop returns where it ends here (false: stopped early; true:
        // ended by a `while`), `None` to go on.
        let mut one = |m: &mut Interp<'_>, env: &mut [Value]| -> R<Option<bool>> {
            m.m.poll()?;
            let go_on = match tests.as_ref().and_then(|t| t.hold(env)) {
                Some(true) => body(m, env)?,
                Some(false) => true,
                None => m.bindings(p, clauses, i + 1, env, body)?,
            };
            if !go_on {
                return Ok(Some(false));
            }
            if m.m.interp_state.end_loop == me {
                m.m.interp_state.end_loop = None;
                return Ok(Some(true));
            }
            Ok(None)
        };
        match it {
            // A range whose tests are compiled: no `while` follows, so
            // only the body ends the loop early.
            Iter::Range(r) if let Some(tests) = &tests => {
                let at = Tested {
                    p,
                    clauses,
                    i,
                    slot,
                    level,
                    tests,
                };
                return self.tested_range(&at, (*r.start(), *r.end()), env, body);
            }
            // A range: its integers in the variable's slot, in place.
            Iter::Range(r) => {
                let last = *r.end();
                for v in r {
                    if let Some(level) = level {
                        self.m.budget.report(Meter::Statement(level), v, last);
                    }
                    crate::value::assign_int(&mut env[slot], v);
                    if let Some(end) = one(self, env)? {
                        return Ok(end);
                    }
                }
            }
            mut it => {
                while let Some(v) = it.next() {
                    crate::value::assign(&mut env[slot], v);
                    if let Some(end) = one(self, env)? {
                        return Ok(end);
                    }
                }
            }
        }
        Ok(true)
    }

    /// The values `from..=last` of a loop whose tests are compiled ([`Tested`]),
    /// in blocks: the limits looked at once a block, the tests in place for
    /// each value; a test that is one filter on a constant list reads the
    /// list in place, a block at a time.
    fn tested_range(
        &mut self,
        at: &Tested<'_>,
        (mut from, last): (i64, i64),
        env: &mut [Value],
        body: &mut dyn FnMut(&mut Interp<'_>, &mut [Value]) -> R<bool>,
    ) -> R<bool> {
        let (slot, tests) = (at.slot, at.tests);
        // The meter is told of a value once a step's work has been done
        // since it was last told (it measures no less), value by value: a
        // body may be long (a loop of its own).
        let mut quiet_until = 0;
        let mut tell = |m: &mut Interp<'_>, v: i64| {
            if let Some(level) = at.level
                && m.m.budget.total() >= quiet_until
            {
                m.m.budget.report(Meter::Statement(level), v, last);
                quiet_until = m.m.budget.total().saturating_add(STEP_WORK);
            }
        };
        while from <= last {
            let to = from.saturating_add(BLOCK - 1).min(last);
            self.m.budget.add((to - from) as u64);
            self.m.poll()?;
            let filter = tests.filter(slot as u32).and_then(|f| {
                let (a, b) = (usize::try_from(from).ok()?, usize::try_from(to).ok()?);
                Some((f.list.get(a..=b)?, f.want))
            });
            if let Some((run, want)) = filter {
                for (v, _) in (from..=to).zip(run).filter(|(_, x)| **x == want) {
                    tell(self, v);
                    crate::value::assign_int(&mut env[slot], v);
                    if !body(self, env)? {
                        return Ok(false);
                    }
                }
            } else {
                for v in from..=to {
                    tell(self, v);
                    crate::value::assign_int(&mut env[slot], v);
                    let go_on = match tests.hold(env) {
                        Some(false) => continue,
                        Some(true) => body(self, env)?,
                        None => self.bindings(at.p, at.clauses, at.i + 1, env, body)?,
                    };
                    if !go_on {
                        return Ok(false);
                    }
                }
            }
            match to.checked_add(1) {
                Some(next) => from = next,
                None => break,
            }
        }
        Ok(true)
    }

    /// Evaluates a check condition, with the sides of a comparison on failure.
    pub fn check_case(&mut self, cond: ExprId, env: &mut [Value]) -> R<CheckCase> {
        let p = Rc::clone(&self.m.prog);
        let p = &*p;
        if self.boolean(p, cond, env)? {
            return Ok(CheckCase::Held);
        }
        let sides = match p.expr(cond) {
            ir::Expr::Binary(op, a, b) if !matches!(op, BinOp::And | BinOp::Or) => {
                Some((self.value(p, *a, env)?, self.value(p, *b, env)?))
            }
            _ => None,
        };
        Ok(CheckCase::Failed(sides))
    }
}
