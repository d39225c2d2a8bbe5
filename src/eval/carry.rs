//! Names and state that carry: `let ... in` (computed once, held in a
//! slot), and `fold` / `scan`, whose accumulator is updated in place when
//! nothing else holds it: `set(acc, i, x)` as the accumulator's next value
//! writes element `i` of the list it holds (functional, but in place). A
//! fold whose last loop is over a range, with its tests, index and element
//! compiled, runs that loop as one Rust loop.

use super::*;

/// `let slot = value in body`.
pub(super) fn let_in(
    m: &mut Interp<'_>,
    p: &ir::Program,
    slot: ir::Slot,
    value: ExprId,
    body: ExprId,
    env: &mut [Value],
) -> R<Value> {
    let v = m.value(p, value, env)?;
    match env.get_mut(slot.index()) {
        Some(s) => crate::value::assign(s, v),
        None => return Err(Diag::bug("a `let` slot out of range").into()),
    }
    m.value(p, body, env)
}

/// `fold(acc = init, body CLAUSES)` (the last value of `acc`) and
/// `scan(...)` (every value, `init` first, as a list): the expression `e`.
pub(super) fn fold(m: &mut Interp<'_>, p: &ir::Program, e: ExprId, env: &mut [Value]) -> R<Value> {
    let ir::Expr::Fold {
        acc,
        init,
        body,
        ref clauses,
        scan,
    } = *p.expr(e)
    else {
        return Err(Diag::bug("a fold that is not one").into());
    };
    let acc = acc.index();
    if acc >= env.len() {
        return Err(Diag::bug("a fold's slot out of range").into());
    }
    let carry = Carry { p, acc, body };
    env[acc] = if scan {
        m.data(p, init, env)?
    } else {
        m.value(p, init, env)?
    };
    if scan {
        return carry.scan(m, e, clauses, env);
    }
    match carry.tight(m, clauses) {
        Some(run) => {
            let (prefix, rest) = clauses.split_at(run.at);
            m.bindings(p, prefix, 0, env, &mut |m, env| {
                carry.run_tight(m, &run, &rest[1..], env)?;
                Ok(true)
            })?;
        }
        None => {
            m.bindings(p, clauses, 0, env, &mut |m, env| carry.step(m, env))?;
        }
    }
    Ok(std::mem::replace(&mut env[acc], Value::Int(0)))
}

/// `set(list, i, x)`, `at` the list's and the index's expressions: the
/// element written in place when nothing else holds the list, else into a
/// copy. A packed list stays packed while `x` is of its kind.
pub(super) fn set_in(
    m: &mut Interp<'_>,
    p: &ir::Program,
    at: (ExprId, ExprId),
    list: Value,
    i: i64,
    x: Value,
    ext: Extent,
) -> R<Value> {
    let (l, index) = at;
    let list = match list {
        Value::Range(lo, hi) => Value::List(super::lists::materialize(m, p, l, lo, hi)?),
        v => v,
    };
    let len = match list.elements() {
        Some(xs) => xs.len(),
        None => return Err(m.type_bug(p, l, "a list", &list).into()),
    };
    let Some(k) = usize::try_from(i).ok().filter(|&k| k < len) else {
        return Err(Diag::user(
            Code::IndexOutOfRange,
            format!("index {i} is out of range for a list of length {len}"),
        )
        .label(p.span(index), format!("index {i}"))
        .into());
    };
    // A copy is work and memory, as `xs + ys` counts them.
    let mut copy = |bytes: usize| -> R<()> {
        m.m.budget.add(len as u64);
        m.m.poll()?;
        m.m.reserve(len.saturating_mul(bytes))
    };
    Ok(match (list, x) {
        (Value::Ints(mut xs), Value::Int(x)) => {
            match Rc::get_mut(&mut xs) {
                Some(xs) => xs[k] = x,
                None => {
                    copy(8)?;
                    let mut v = xs.to_vec();
                    v[k] = x;
                    xs = v.into();
                }
            }
            Value::Ints(xs)
        }
        (Value::Bools(mut xs), Value::Bool(x)) => {
            match Rc::get_mut(&mut xs) {
                Some(xs) => xs[k] = x,
                None => {
                    copy(1)?;
                    let mut v = xs.to_vec();
                    v[k] = x;
                    xs = v.into();
                }
            }
            Value::Bools(xs)
        }
        (list, x) => {
            let mut xs = match list {
                Value::List(xs) => xs,
                other => {
                    copy(std::mem::size_of::<Value>())?;
                    other
                        .elements()
                        .map_or_else(|| Rc::from([]), |xs| xs.to_values())
                }
            };
            // An element that weighs one in place of one: the list's extent
            // is unchanged, and nothing needs counting again.
            let light =
                |v: &Value| matches!(v, Value::Int(_) | Value::Bool(_) | Value::Infinite(_));
            let same_weight = ext.depth == 0 && ext.size == 1 && light(&xs[k]);
            match Rc::get_mut(&mut xs) {
                Some(v) => v[k] = x,
                None => {
                    copy(std::mem::size_of::<Value>())?;
                    let mut v = xs.to_vec();
                    v[k] = x;
                    xs = v.into();
                }
            }
            // (The element's own nesting was checked as `set` checks it.)
            if !same_weight {
                m.within_list_limit(p, l, list_extent(&xs).size)?;
            }
            Value::List(xs)
        }
    })
}

/// [`write`] of an integer: a packed list's element set in place.
#[inline(always)]
fn write_int(list: &mut Value, i: usize, x: i64) -> bool {
    if let Value::Ints(xs) = list
        && let Some(at) = Rc::get_mut(xs).and_then(|xs| xs.get_mut(i))
    {
        *at = x;
        return true;
    }
    write(list, i, Value::Int(x))
}

/// Writes `x` at `i` of a list nobody else holds, an integer or a boolean
/// where one is (a packed list's kind); false where it does not.
#[inline]
fn write(list: &mut Value, i: usize, x: Value) -> bool {
    match (list, x) {
        (Value::Ints(xs), Value::Int(x)) => match Rc::get_mut(xs).and_then(|xs| xs.get_mut(i)) {
            Some(at) => {
                *at = x;
                true
            }
            None => false,
        },
        (Value::Bools(xs), Value::Bool(x)) => match Rc::get_mut(xs).and_then(|xs| xs.get_mut(i)) {
            Some(at) => {
                *at = x;
                true
            }
            None => false,
        },
        (Value::List(xs), x) => match Rc::get_mut(xs).and_then(|xs| xs.get_mut(i)) {
            Some(at @ (Value::Int(_) | Value::Bool(_))) => {
                *at = x;
                true
            }
            _ => false,
        },
        _ => false,
    }
}

/// The most runs a fold's loop is split into by its element's comparisons
/// with constants.
const MAX_RUNS: usize = 16;

/// A fold running: its accumulator's slot and its next value.
struct Carry<'p> {
    p: &'p ir::Program,
    acc: usize,
    body: ExprId,
}

/// The last loop of a fold that may run compiled: `set(acc, I, X) ... for
/// x in XS if C ...`, with `I`, `X` and the `if`s after the loop compiled.
struct TightRun {
    /// The loop's clause.
    at: usize,
    slot: ir::Slot,
    iter: ExprId,
    index: ExprId,
    element: ExprId,
    /// Whether the loop may be written as one stride ([`Carry::stride`]).
    strided: bool,
}

impl Carry<'_> {
    /// One binding of the clauses: the accumulator becomes the body.
    fn step(&self, m: &mut Interp<'_>, env: &mut [Value]) -> R<bool> {
        let next = self.owned(m, self.body, env)?;
        env[self.acc] = next;
        Ok(true)
    }

    /// A scan: every value of the accumulator, as a list within the list
    /// limits.
    fn scan(
        &self,
        m: &mut Interp<'_>,
        e: ExprId,
        clauses: &[Clause],
        env: &mut [Value],
    ) -> R<Value> {
        let weight = |v: &Value| match v {
            Value::List(_) | Value::Ints(_) | Value::Bools(_) | Value::Str(_) => extent(v).weight(),
            _ => 1,
        };
        let mut size = weight(&env[self.acc]);
        // Packed while the values are integers or booleans.
        let mut all = crate::value::ListBuilder::default();
        all.push(env[self.acc].clone());
        m.bindings(self.p, clauses, 0, env, &mut |m, env| {
            self.step(m, env)?;
            if all.len() == all.capacity() {
                m.list_room_of(self.p, e, all.capacity(), all.element_bytes())?;
            }
            size = size.saturating_add(weight(&env[self.acc]));
            m.within_list_limit(self.p, e, size)?;
            all.push(env[self.acc].clone());
            Ok(true)
        })?;
        env[self.acc] = Value::Int(0);
        Ok(all.finish())
    }

    /// The value of `e`, the next value of the accumulator: where `e` is
    /// the accumulator itself (through `set`, `if` and `let`), its value is
    /// taken from the slot rather than shared, so that `set` writes into
    /// the list when the accumulator is its only holder. What reads the
    /// accumulator (indices, elements, conditions) is evaluated first;
    /// nothing reads the slot after it is taken.
    fn owned(&self, m: &mut Interp<'_>, e: ExprId, env: &mut [Value]) -> R<Value> {
        let p = self.p;
        match p.expr(e) {
            ir::Expr::Local(s) if s.index() == self.acc => {
                Ok(std::mem::replace(&mut env[self.acc], Value::Int(0)))
            }
            ir::Expr::If(c, t, f) => {
                let branch = if m.boolean(p, *c, env)? { *t } else { *f };
                self.owned(m, branch, env)
            }
            ir::Expr::Let { slot, value, body } => {
                let v = m.value(p, *value, env)?;
                match env.get_mut(slot.index()) {
                    Some(s) => crate::value::assign(s, v),
                    None => return Err(Diag::bug("a `let` slot out of range").into()),
                }
                self.owned(m, *body, env)
            }
            ir::Expr::Call {
                f: Builtin::Set,
                args,
                ..
            } if args.len() == 3 => {
                let i = m.int(p, args[1], env)?;
                let (x, ext) = m.element(p, args[2], env)?;
                let list = self.owned(m, args[0], env)?;
                set_in(m, p, (args[0], args[1]), list, i, x, ext)
            }
            ir::Expr::Call {
                f: Builtin::Insert,
                args,
                ..
            } if args.len() == 3 => {
                let k = m.value(p, args[1], env)?;
                let Some(k) = crate::value::Key::of(&k) else {
                    // Not a key: the general evaluation says so.
                    return m.value(p, e, env);
                };
                let x = m.data(p, args[2], env)?;
                let d = self.owned(m, args[0], env)?;
                super::dicts::insert_in(m, p, args[0], d, k, x)
            }
            _ => m.value(p, e, env),
        }
    }

    /// The shape of a fold whose last loop may run compiled.
    fn tight(&self, m: &Interp<'_>, clauses: &[Clause]) -> Option<TightRun> {
        let (p, c) = (self.p, &m.m.forms.compiled);
        let at = clauses
            .iter()
            .rposition(|c| matches!(c, Clause::For { .. }))?;
        let Clause::For { slot, iter } = clauses[at] else {
            return None;
        };
        let tests_compiled = c.tests(&clauses[at + 1..]).is_some();
        let ir::Expr::Call {
            f: Builtin::Set,
            args,
            ..
        } = p.expr(self.body)
        else {
            return None;
        };
        let [list, index, element] = args[..] else {
            return None;
        };
        let of_acc = matches!(p.expr(list), ir::Expr::Local(s) if s.index() == self.acc);
        // A stride: the index affine in the loop's variable, the element
        // the same for every value, neither reading the list.
        let exprs = crate::compiled::Compiler {
            prog: p,
            consts: &m.m.consts,
        };
        let acc = self.acc as u32;
        let strided = clauses.len() == at + 1
            && exprs
                .int(index)
                .is_some_and(|i| i.affine_in(slot.0) && !i.reads(acc))
            && match (exprs.int(element), exprs.cond(element)) {
                (Some(x), _) => !x.reads(slot.0) && !x.reads(acc),
                (None, Some(x)) => !x.reads(slot.0) && !x.reads(acc),
                (None, None) => false,
            };
        (tests_compiled
            && of_acc
            && c.int(index).is_some()
            && (c.int(element).is_some() || c.bool(element).is_some()))
        .then_some(TightRun {
            at,
            slot,
            iter,
            index,
            element,
            strided,
        })
    }

    /// A [`TightRun`]'s loop over `lo..=hi` as one stride, where it is one:
    /// the index at the ends and one step on, every index within the list,
    /// the element evaluated once, the list held by nobody else. Returns
    /// whether it was written (else nothing was, and the loop runs value by
    /// value).
    fn stride(
        &self,
        m: &mut Interp<'_>,
        run: &TightRun,
        (lo, hi): (i64, i64),
        element: &Scalar<'_>,
        env: &mut [Value],
    ) -> R<bool> {
        let (slot, acc) = (run.slot.index(), self.acc);
        let Some(index) = m.m.forms.compiled.int(run.index) else {
            return Ok(false);
        };
        let mut at = |v: i64| {
            crate::value::assign_int(&mut env[slot], v);
            index.eval(env).map(i128::from)
        };
        let (Some(first), Some(last), Some(second)) = (at(lo), at(hi), at(lo.saturating_add(1)))
        else {
            return Ok(false);
        };
        let (count, step) = (i128::from(hi) - i128::from(lo) + 1, second - first);
        let len = env[acc].elements().map_or(0, |xs| xs.len()) as i128;
        if count < 2 || step == 0 || first + step * (count - 1) != last {
            return Ok(false);
        }
        if first.min(last) < 0 || first.max(last) >= len {
            return Ok(false);
        }
        // The indices written, lowest first: `lo, lo + step, ..., hi`.
        let (low, high) = (first.min(last) as usize, first.max(last) as usize);
        let step = step.unsigned_abs() as usize;
        let x = element.value(env);
        // The list of the element's kind, held by nobody else.
        let unique = match (&x, &mut env[acc]) {
            (Some(Value::Int(_)), Value::Ints(xs)) => Rc::get_mut(xs).is_some(),
            (Some(Value::Bool(_)), Value::Bools(xs)) => Rc::get_mut(xs).is_some(),
            _ => false,
        };
        let (Some(x), true) = (x, unique) else {
            return Ok(false);
        };
        // The work of the values, looked at as the loop would look at it.
        m.m.budget.add(count as u64);
        m.m.poll()?;
        crate::value::assign_int(&mut env[slot], hi);
        Ok(match (&mut env[acc], x) {
            (Value::Ints(xs), Value::Int(x)) => Rc::get_mut(xs)
                .map(|xs| xs[low..=high].iter_mut().step_by(step).for_each(|y| *y = x))
                .is_some(),
            (Value::Bools(xs), Value::Bool(x)) => Rc::get_mut(xs)
                .map(|xs| xs[low..=high].iter_mut().step_by(step).for_each(|y| *y = x))
                .is_some(),
            _ => false,
        })
    }

    /// The runs of `lo..=hi` on which the integer element's comparisons of
    /// the loop's variable with constants are decided, each with the
    /// element compiled for it (`None`: the element as it is, where there
    /// are no such comparisons or too many).
    fn runs(
        &self,
        m: &Interp<'_>,
        run: &TightRun,
        (lo, hi): (i64, i64),
    ) -> Vec<(i64, i64, Option<crate::compiled::IntCode>)> {
        let whole = vec![(lo, hi, None)];
        let exprs = crate::compiled::Compiler {
            prog: self.p,
            consts: &m.m.consts,
        };
        let Some(e) = exprs.int(run.element) else {
            return whole;
        };
        let mut breaks = Vec::new();
        e.breaks(run.slot.0, &mut breaks);
        breaks.retain(|&b| lo < b && b <= hi);
        breaks.sort_unstable();
        breaks.dedup();
        if breaks.is_empty() || breaks.len() > MAX_RUNS || lo > hi {
            return whole;
        }
        let starts = std::iter::once(lo).chain(breaks.iter().copied());
        let ends = breaks.iter().map(|&b| b - 1).chain(std::iter::once(hi));
        starts
            .zip(ends)
            .map(|(a, b)| {
                let code = crate::compiled::IntCode::int(&e.on_run(run.slot.0, a, b));
                (a, b, Some(code))
            })
            .collect()
    }

    /// The last loop of a [`TightRun`]: each value's tests, index and
    /// element compiled and the element written in place; a value where a
    /// compiled form does not answer, or the list is shared, or the index
    /// or the element it replaces is not one the loop writes, takes the
    /// general step (which reports what there is to report).
    fn run_tight(
        &self,
        m: &mut Interp<'_>,
        run: &TightRun,
        tests: &[Clause],
        env: &mut [Value],
    ) -> R<()> {
        let p = self.p;
        let values = m.iter(p, run.iter, env)?;
        let compiled = Rc::clone(&m.m.forms.compiled);
        let Some(element) = compiled.scalar(run.element) else {
            return Err(Diag::bug("a fold's compiled step is missing").into());
        };
        let (slot, acc) = (run.slot.index(), self.acc);
        let (Some(index), Some(conds), true) = (
            compiled.int(run.index),
            compiled.tests(tests),
            slot < env.len() && acc < env.len(),
        ) else {
            return Err(Diag::bug("a fold's compiled step is missing").into());
        };
        // One value: written in place, or the general step from the tests
        // on.
        let one = |m: &mut Interp<'_>, env: &mut [Value], element: &Scalar<'_>| -> R<()> {
            m.m.poll()?;
            match conds.hold(env) {
                Some(false) => return Ok(()),
                Some(true) => {
                    let i = index.eval(env).and_then(|i| usize::try_from(i).ok());
                    let written = match (i, element) {
                        (Some(i), Scalar::Int(x)) => {
                            x.eval(env).is_some_and(|x| write_int(&mut env[acc], i, x))
                        }
                        (Some(i), x) => x.value(env).is_some_and(|x| write(&mut env[acc], i, x)),
                        (None, _) => false,
                    };
                    if written {
                        return Ok(());
                    }
                }
                None => {}
            }
            m.bindings(p, tests, 0, env, &mut |m, env| self.step(m, env))?;
            Ok(())
        };
        match values {
            // A range: one stride, or the variable written in place, value
            // by value.
            Iter::Range(r) => {
                if run.strided && self.stride(m, run, (*r.start(), *r.end()), &element, env)? {
                    return Ok(());
                }
                // Runs of the range on which its comparisons with
                // constants (`if i >= 3`) are decided: the element there
                // without them.
                for (lo, hi, code) in self.runs(m, run, (*r.start(), *r.end())) {
                    let element = code.as_ref().map_or(element, Scalar::Int);
                    for v in lo..=hi {
                        crate::value::assign_int(&mut env[slot], v);
                        one(m, env, &element)?;
                    }
                }
            }
            mut values => {
                while let Some(v) = values.next() {
                    crate::value::assign(&mut env[slot], v);
                    one(m, env, &element)?;
                }
            }
        }
        Ok(())
    }
}
