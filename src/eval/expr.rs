//! The expression interpreter: values of expressions in an environment of
//! slots, with the compiled forms as its fast path; comprehensions,
//! builtins, positions and sums.

use super::*;
use crate::key::ListKey;
use std::ops::RangeInclusive;

pub(super) use crate::builtin::{TEXT_BYTES_PER_WORK, overflow};

/// The expression interpreter: evaluates the program's expressions against
/// a machine (its constants, positions and queries). A view made for each
/// evaluation; what it keeps between evaluations (the memo of function
/// calls, input) is the machine's `interp_state`.
pub struct Interp<'m> {
    pub(super) m: &'m mut Machine,
    /// How the positions this evaluation makes are named.
    pub(super) names: super::rename::Names,
}

impl Machine {
    /// The interpreter, evaluating against this machine.
    pub fn interp(&mut self) -> Interp<'_> {
        Interp::new(self, super::rename::Names::default())
    }
}

impl<'m> Interp<'m> {
    /// The interpreter over `m`, its positions named as `names` says.
    pub(super) fn new(m: &'m mut Machine, names: super::rename::Names) -> Interp<'m> {
        Interp { m, names }
    }
}

impl Interp<'_> {
    // ----- expressions ------------------------------------------------------

    pub(super) fn type_bug(&self, p: &ir::Program, e: ExprId, want: &str, got: &Value) -> Diag {
        crate::builtin::type_mismatch(p.span(e), want, got)
    }

    /// Evaluates an expression (the entry from outside the engine: the
    /// program is held once here and borrowed by everything below).
    pub fn eval(&mut self, e: ExprId, env: &mut [Value]) -> R<Value> {
        let p = Rc::clone(&self.m.prog);
        self.value(&p, e, env)
    }

    /// Evaluates to an integer (an entry from outside).
    pub fn eval_int(&mut self, e: ExprId, env: &mut [Value]) -> R<i64> {
        let p = Rc::clone(&self.m.prog);
        self.int(&p, e, env)
    }

    /// Evaluates to an integer.
    pub(super) fn int(&mut self, p: &ir::Program, e: ExprId, env: &mut [Value]) -> R<i64> {
        if let Some(v) = self.m.forms.compiled.int(e).and_then(|c| c.eval(env)) {
            return Ok(v);
        }
        match self.value(p, e, env)? {
            Value::Int(v) => Ok(v),
            Value::Wide(v) => Err(crate::builtin::too_wide(p.span(e), &v).into()),
            other => Err(self.type_bug(p, e, "an integer", &other).into()),
        }
    }

    /// Evaluates to a boolean.
    pub(super) fn boolean(&mut self, p: &ir::Program, e: ExprId, env: &mut [Value]) -> R<bool> {
        if let Some(v) = self.m.forms.compiled.bool(e).and_then(|c| c.eval(env)) {
            return Ok(v);
        }
        match self.value(p, e, env)? {
            Value::Bool(v) => Ok(v),
            other => Err(self.type_bug(p, e, "a boolean", &other).into()),
        }
    }

    pub(super) fn string_too_long(&self, span: Span, len: usize) -> Diag {
        crate::builtin::string_too_long(self.m.limits.max_list, span, len)
    }

    /// A sum of more components than a list may hold: a limit, and the
    /// way round it when the components are equal (normal play).
    fn sum_too_long(&self, p: &ir::Program, e: ExprId) -> Diag {
        let max = self.m.limits.max_list;
        Diag::user(
            Code::ListLimit,
            format!("this sum would have more than {max} components"),
        )
        .label(p.span(e), "too many")
        .help(format!(
            "`sum(G for i in 0..k)` with a G that does not use i folds by parity (G + G = 0) \
             where only its value counts (the search for values, `grundy(...)`), but values, \
             the records of `outcome`, `moves` and `winning`, and misère play have every copy: \
             write `sum(G for i in 0..k % 2)` for normal play, or raise the limit with \
             `--max-list N` (now {max})"
        ))
    }

    /// An expression's value as text for output.
    pub(super) fn text(&mut self, p: &ir::Program, e: ExprId, env: &mut [Value]) -> R<String> {
        let v = self.value(p, e, env)?;
        Ok(self.m.show().text(&v))
    }

    /// Evaluates a position-typed expression, appending its components.
    pub(super) fn pos_into(
        &mut self,
        p: &ir::Program,
        e: ExprId,
        env: &mut [Value],
        out: &mut Vec<PosId>,
    ) -> R<()> {
        // The common case, read in place: a position whose arguments are all
        // compiled integer expressions.
        // Else the arguments are encoded straight into the position's key,
        // from the first that is not (those before it are not computed
        // again), without a value per argument or a list per comprehension.
        if let ir::Expr::Apply { game, args } = p.expr(e) {
            let mut ints = [0i64; 8];
            let mut known = 0;
            while let (Some(&a), Some(slot)) = (args.get(known), ints.get_mut(known)) {
                match self.m.forms.compiled.int(a).and_then(|c| c.eval(env)) {
                    Some(v) => *slot = v,
                    None => break,
                }
                known += 1;
            }
            // A search's options are named as stored (`eval::rename`).
            if self.names.naming.renames(&p.games[game.index()]) {
                return if known == args.len() {
                    super::rename::renamed_ints_into(self, p, *game, &ints[..known], out)
                } else {
                    let mut vals: Vec<Value> =
                        ints[..known].iter().map(|&v| Value::Int(v)).collect();
                    for &a in &args[known..] {
                        vals.push(self.value(p, a, env)?);
                    }
                    self.renamed_into(p, *game, &vals, out)
                };
            }
            let id = if known == args.len() {
                self.m
                    .store
                    .intern_ints(*game, &ints[..known])
                    .map_err(|_| state_limit(self.m.limits.max_states, p.span(e)))
            } else {
                let mut key = std::mem::take(&mut self.m.interp_state.key);
                key.clear();
                key.push(i64::from(game.0));
                for &v in &ints[..known] {
                    key.extend([TAG_INT, v]);
                }
                let id = self
                    .encode_args(p, &args[known..], env, &mut key)
                    .and_then(|()| {
                        self.m
                            .store
                            .intern_whole_key(&key)
                            .map_err(|_| state_limit(self.m.limits.max_states, p.span(e)))
                    });
                self.m.interp_state.key = key;
                id
            };
            out.push(id?);
            return Ok(());
        }
        match p.expr(e) {
            ir::Expr::EmptyPos => Ok(()),
            ir::Expr::PosSum(a, b) => {
                self.pos_into(p, *a, env, out)?;
                self.pos_into(p, *b, env, out)
            }
            ir::Expr::If(c, t, f) => {
                let branch = if self.boolean(p, *c, env)? { *t } else { *f };
                self.pos_into(p, branch, env, out)
            }
            ir::Expr::Comp {
                kind: CompKind::SumPos,
                body,
                clauses,
            } => {
                let body = *body;
                let max = self.m.limits.max_list;
                self.bindings(p, clauses, 0, env, &mut |m, env| {
                    m.pos_into(p, body, env, out)?;
                    if out.len() > max {
                        return Err(m.sum_too_long(p, e).into());
                    }
                    Ok(true)
                })
                .map(|_| ())
            }
            _ => match self.value(p, e, env)? {
                Value::Pos(parts) => {
                    out.extend_from_slice(&parts);
                    Ok(())
                }
                other => Err(self.type_bug(p, e, "a position", &other).into()),
            },
        }
    }

    /// Appends the key encoding of a position's arguments (as
    /// [`crate::key::encode_arg`] writes them).
    fn encode_args(
        &mut self,
        p: &ir::Program,
        args: &[ExprId],
        env: &mut [Value],
        key: &mut Vec<i64>,
    ) -> R<()> {
        for &a in args {
            if let Some(v) = self.m.forms.compiled.int(a).and_then(|c| c.eval(env)) {
                key.extend([TAG_INT, v]);
                continue;
            }
            if let ir::Expr::Comp {
                kind: CompKind::List,
                body,
                clauses,
            } = p.expr(a)
            {
                self.encode_list(p, a, *body, clauses, env, key)?;
                continue;
            }
            let v = self.data(p, a, env)?;
            if crate::key::encode_arg(&v, key).is_none() {
                return Err(super::loopy::bad_argument(std::slice::from_ref(&v), p.span(a)).into());
            }
        }
        Ok(())
    }

    /// Appends the key encoding of the list comprehension `e`, element by
    /// element: the list [`Machine::comp`] would build, with its limits and
    /// errors, never built.
    fn encode_list(
        &mut self,
        p: &ir::Program,
        e: ExprId,
        body: ExprId,
        clauses: &[Clause],
        env: &mut [Value],
        key: &mut Vec<i64>,
    ) -> R<()> {
        let compiled = Rc::clone(&self.m.forms.compiled);
        let code = compiled.int(body);
        let mut w = ListWrite {
            list: ListKey::open(key),
            n: 0,
            cap: self.m.limits.max_list as u64,
            room: 0,
            deep: false,
        };
        // The common shape, `[body for x in lo..hi]` with compiled bounds, as
        // one loop (the same polls, limits and errors as `bindings`).
        let range = match clauses {
            [Clause::For { slot, iter }] => match p.expr(*iter) {
                ir::Expr::Range { lo, hi, inclusive } => compiled
                    .int(*lo)
                    .and_then(|c| c.eval(env))
                    .zip(compiled.int(*hi).and_then(|c| c.eval(env)))
                    .map(|(lo, hi)| {
                        (
                            *slot,
                            lo,
                            if *inclusive {
                                Some(hi)
                            } else {
                                hi.checked_sub(1)
                            },
                        )
                    }),
                _ => None,
            },
            _ => None,
        };
        if let Some((slot, lo, hi)) = range {
            // (No last value: the range is empty.)
            let values = match hi {
                Some(hi) => lo..=hi,
                None => RangeInclusive::new(1, 0),
            };
            for x in values {
                self.m.poll()?;
                crate::value::assign(&mut env[slot.index()], Value::Int(x));
                self.list_element(p, e, body, code, env, key, &mut w)?;
            }
        } else {
            self.bindings(p, clauses, 0, env, &mut |m, env| {
                m.list_element(p, e, body, code, env, key, &mut w)?;
                Ok(true)
            })?;
        }
        if w.deep {
            return Err(too_deep(p.span(e)).into());
        }
        w.list.close(key, w.n);
        Ok(())
    }

    /// One element of a list being encoded ([`Machine::encode_list`]): its
    /// compiled form where it answers, else the interpreter, which says why.
    #[allow(clippy::too_many_arguments)]
    #[inline(always)]
    fn list_element(
        &mut self,
        p: &ir::Program,
        e: ExprId,
        body: ExprId,
        code: Option<&crate::compiled::IntCode>,
        env: &mut [Value],
        key: &mut Vec<i64>,
        w: &mut ListWrite,
    ) -> R<()> {
        if w.n == w.room {
            w.room = self.list_room(p, e, w.room)?;
        }
        match code.and_then(|c| c.eval(env)) {
            Some(v) => w.list.int(key, v),
            None => {
                let (v, ext) = self.element(p, body, env)?;
                w.deep |= ext.depth + 1 >= MAX_LIST_DEPTH;
                // An element weighing more than one leaves less room for
                // the elements after it.
                w.cap = w.cap.saturating_sub(ext.weight() - 1);
                if w.list.value(key, &v).is_none() {
                    return Err(Diag::bug("a list element that is not data").into());
                }
            }
        }
        w.n += 1;
        if w.n as u64 > w.cap {
            if w.n > self.m.limits.max_list {
                return Err(super::lists::too_long(self, p, e, w.n as u128).into());
            }
            return Err(self.too_large(p, e).into());
        }
        Ok(())
    }

    /// Before a list of `room` elements being built by `e` grows: the
    /// memory it would take, as a list of values counts it (so a list
    /// encoded straight into a key meets the memory limit where the same list
    /// built as a value does). Returns the new room.
    #[inline(always)]
    pub(super) fn list_room(&mut self, p: &ir::Program, e: ExprId, room: usize) -> R<usize> {
        self.list_room_of(p, e, room, std::mem::size_of::<Value>())
    }

    /// [`Interp::list_room`] for elements of `bytes` each.
    #[inline(always)]
    pub(super) fn list_room_of(
        &mut self,
        p: &ir::Program,
        e: ExprId,
        room: usize,
        bytes: usize,
    ) -> R<usize> {
        if let Err(s) = self.m.reserve(room.max(4).saturating_mul(bytes)) {
            return Err(building_list(s, p.span(e)));
        }
        Ok(if room == 0 { 4 } else { room.saturating_mul(2) })
    }

    /// Evaluates an expression.
    pub(super) fn value(&mut self, p: &ir::Program, e: ExprId, env: &mut [Value]) -> R<Value> {
        // Leaves, the most common nodes, read the program in place.
        match p.expr(e) {
            ir::Expr::Int(v) => return Ok(Value::Int(*v)),
            ir::Expr::Bool(b) => return Ok(Value::Bool(*b)),
            ir::Expr::Local(s) if s.index() < env.len() => {
                return Ok(env[s.index()].clone());
            }
            // Integer arithmetic, when compiled (where it cannot answer,
            // the interpreter does, and reports what there is to report).
            ir::Expr::Binary(..) | ir::Expr::Index(..) | ir::Expr::If(..) => {
                if let Some(v) = self.m.forms.compiled.int(e).and_then(|c| c.eval(env)) {
                    return Ok(Value::Int(v));
                }
            }
            _ => {}
        }
        let span = p.span(e);
        Ok(match p.expr(e) {
            ir::Expr::Int(v) => Value::Int(*v),
            ir::Expr::Bool(b) => Value::Bool(*b),
            ir::Expr::Str(s) => match self.m.forms.compiled.string(e) {
                Some(s) => Value::Str(Rc::clone(s)),
                None => Value::Str(Rc::from(&**s)),
            },
            ir::Expr::Concat(a, b) => {
                let mut text = self.text(p, *a, env)?;
                text.push_str(&self.text(p, *b, env)?);
                if text.len() > self.m.limits.max_list {
                    return Err(self.string_too_long(span, text.len()).into());
                }
                self.m.budget.add(text.len() as u64 / TEXT_BYTES_PER_WORK);
                self.m.poll()?;
                self.m.reserve(text.len())?;
                Value::Str(text.into())
            }
            ir::Expr::ListConcat(a, b) => super::lists::concat_lists(self, p, e, *a, *b, env)?,
            ir::Expr::Local(s) => env
                .get(s.index())
                .cloned()
                .ok_or_else(|| Diag::bug("variable slot out of range").label(span, "here"))?,
            ir::Expr::Const(c) => match &self.m.consts[c.index()] {
                Some(v) => v.clone(),
                None => {
                    let name = &p.consts[c.index()].name;
                    return Err(Diag::user(
                        Code::ConstantFailed,
                        format!("constant `{name}` has no value"),
                    )
                    .label(span, "used here")
                    .note(format!(
                        "the definition of `{name}` failed (reported above)"
                    ))
                    .into());
                }
            },
            ir::Expr::List(items) => {
                let mut v = crate::value::ListBuilder::default();
                let mut size = 0u64;
                for &i in items {
                    let (x, ext) = self.element(p, i, env)?;
                    size = size.saturating_add(ext.weight());
                    self.within_list_limit(p, e, size)?;
                    v.push(x);
                }
                v.finish()
            }
            ir::Expr::Comp {
                kind,
                body,
                clauses,
            } => self.comp(p, e, *kind, *body, clauses, env)?,
            ir::Expr::Index(l, i) => super::lists::index(self, p, *l, *i, env)?,
            ir::Expr::Neg(x) => self.negate(p, *x, env)?,
            ir::Expr::Not(x) => Value::Bool(!self.boolean(p, *x, env)?),
            ir::Expr::Binary(op, a, b) => self.binary(p, *op, *a, *b, span, env)?,
            ir::Expr::Range { lo, hi, inclusive } => {
                let lo = self.int(p, *lo, env)?;
                let hi = self.int(p, *hi, env)?;
                if *inclusive {
                    Value::Range(lo, hi)
                } else {
                    match hi.checked_sub(1) {
                        Some(h) => Value::Range(lo, h),
                        None => Value::Range(1, 0),
                    }
                }
            }
            ir::Expr::If(c, t, f) => {
                let branch = if self.boolean(p, *c, env)? { *t } else { *f };
                self.value(p, branch, env)?
            }
            ir::Expr::EmptyPos | ir::Expr::PosSum(..) | ir::Expr::Apply { .. } => {
                Value::Pos(super::rename::interned_pos(self, p, e, env)?.into())
            }
            ir::Expr::Call { f, play, args } => {
                builtins::call(self, p, *f, *play, args, span, env)?
            }
            ir::Expr::Field(base, name) => match self.value(p, *base, env)? {
                Value::Record(r) => match r.get(name) {
                    Some(v) => v.clone(),
                    None => {
                        return Err(Diag::user(
                            Code::UnknownName,
                            format!("{} has no field `{name}`", r.kind.describe()),
                        )
                        .label(span, "no such field")
                        .help(format!("its fields: {}", r.kind.field_list()))
                        .into());
                    }
                },
                other => {
                    return Err(Diag::user(
                        Code::TypeMismatch,
                        format!("{} has no fields", other.type_name()),
                    )
                    .label(p.span(*base), format!("this is {}", other.type_name()))
                    .into());
                }
            },
            ir::Expr::CallFun { fun, args } => self.call_fun(p, *fun, args, span, env)?,
            ir::Expr::Let { slot, value, body } => {
                super::carry::let_in(self, p, *slot, *value, *body, env)?
            }
            ir::Expr::Fold { .. } => super::carry::fold(self, p, e, env)?,
            ir::Expr::GameRef(_) => {
                return Err(Diag::bug("a game name evaluated as a value")
                    .label(span, "here")
                    .into());
            }
        })
    }

    fn comp(
        &mut self,
        p: &ir::Program,
        e: ExprId,
        kind: CompKind,
        body: ExprId,
        clauses: &[Clause],
        env: &mut [Value],
    ) -> R<Value> {
        match kind {
            CompKind::List => {
                if let Some(list) = super::lists::copies(self, p, e, body, clauses, env)? {
                    return Ok(list);
                }
                let mut items = crate::value::ListBuilder::default();
                let max = self.m.limits.max_list;
                let mut size = 0u64;
                // An integer or boolean element, compiled: pushed packed.
                let compiled = Rc::clone(&self.m.forms.compiled);
                let scalar = compiled.scalar(body);
                self.bindings(p, clauses, 0, env, &mut |m, env| {
                    // Before the list doubles: the memory limit.
                    if items.len() == items.capacity() {
                        m.list_room_of(p, e, items.capacity(), items.element_bytes())?;
                    }
                    let pushed = match scalar {
                        Some(Scalar::Int(c)) => c.eval(env).map(|v| items.push_int(v)).is_some(),
                        Some(Scalar::Bool(c)) => c.eval(env).map(|v| items.push_bool(v)).is_some(),
                        None => false,
                    };
                    let weight = if pushed {
                        1
                    } else {
                        let (x, ext) = m.element(p, body, env)?;
                        items.push(x);
                        ext.weight()
                    };
                    if items.len() > max {
                        return Err(super::lists::too_long(m, p, e, items.len() as u128).into());
                    }
                    size = size.saturating_add(weight);
                    m.within_list_limit(p, e, size)?;
                    Ok(true)
                })?;
                Ok(items.finish())
            }
            CompKind::SumPos => Ok(Value::Pos(
                super::rename::interned_pos(self, p, e, env)?.into(),
            )),
            CompKind::SumInt => {
                let mut acc: i64 = 0;
                let span = p.span(e);
                self.bindings(p, clauses, 0, env, &mut |m, env| {
                    let v = m.int(p, body, env)?;
                    acc = acc
                        .checked_add(v)
                        .ok_or_else(|| overflow(span, format!("{acc} + {v}")))?;
                    Ok(true)
                })?;
                Ok(Value::Int(acc))
            }
            CompKind::Min | CompKind::Max => {
                let mut best: Option<i64> = None;
                self.bindings(p, clauses, 0, env, &mut |m, env| {
                    let v = m.int(p, body, env)?;
                    best = Some(match best {
                        None => v,
                        Some(b) if kind == CompKind::Min => b.min(v),
                        Some(b) => b.max(v),
                    });
                    Ok(true)
                })?;
                best.map(Value::Int).ok_or_else(|| {
                    Diag::user(
                        Code::EmptyMinMax,
                        format!(
                            "{} of an empty generator",
                            if kind == CompKind::Min { "min" } else { "max" }
                        ),
                    )
                    .label(p.span(e), "the generator produced no values")
                    .into()
                })
            }
            CompKind::Any | CompKind::All => {
                let want = kind == CompKind::Any;
                let mut found = !want;
                self.bindings(p, clauses, 0, env, &mut |m, env| {
                    if m.boolean(p, body, env)? == want {
                        found = want;
                        return Ok(false);
                    }
                    Ok(true)
                })?;
                Ok(Value::Bool(found))
            }
        }
    }

    fn binary(
        &mut self,
        p: &ir::Program,
        op: BinOp,
        a: ExprId,
        b: ExprId,
        span: Span,
        env: &mut [Value],
    ) -> R<Value> {
        match op {
            BinOp::And => {
                return Ok(Value::Bool(
                    self.boolean(p, a, env)? && self.boolean(p, b, env)?,
                ));
            }
            BinOp::Or => {
                return Ok(Value::Bool(
                    self.boolean(p, a, env)? || self.boolean(p, b, env)?,
                ));
            }
            BinOp::Eq | BinOp::Ne => {
                let x = self.value(p, a, env)?;
                let y = self.value(p, b, env)?;
                let lists = (x.elements(), y.elements());
                if let (Some(xs), Some(ys)) = lists {
                    self.m.budget.add(xs.len().min(ys.len()) as u64);
                    self.m.poll()?;
                }
                let eq = match (&x, &y) {
                    (Value::Int(_), Value::Int(_))
                    | (Value::Bool(_), Value::Bool(_))
                    | (Value::Str(_), Value::Str(_))
                    | (Value::Record(_), Value::Record(_))
                    | (Value::Int(_) | Value::Wide(_), Value::Int(_) | Value::Wide(_)) => x == y,
                    (Value::Dict(a), Value::Dict(b)) => {
                        self.m.budget.add(a.len().min(b.len()) as u64);
                        self.m.poll()?;
                        x == y
                    }
                    _ if lists.0.is_some() && lists.1.is_some() => x == y,
                    // `grundy(P)` of a loopy game: ∞ equals only the same ∞.
                    (Value::Infinite(_) | Value::Int(_), Value::Infinite(_) | Value::Int(_)) => {
                        x == y
                    }
                    _ => return Err(self.type_bug(p, b, x.type_name(), &y).into()),
                };
                return Ok(Value::Bool(eq == (op == BinOp::Eq)));
            }
            _ => {}
        }
        self.integer_op(p, op, a, b, span, env)
    }

    /// Evaluates the position argument of a query.
    pub fn eval_sum(&mut self, e: ExprId, env: &mut [Value]) -> R<Vec<PosId>> {
        let p = Rc::clone(&self.m.prog);
        let p = &*p;
        let mut parts = Vec::new();
        self.pos_into(p, e, env, &mut parts)?;
        Ok(parts)
    }

    /// Evaluates the position argument of `grundy(...)`, where a
    /// `sum(G for i in xs)` written in it folds by parity as a rule's does
    /// (its answer is a number: the folded sum goes nowhere else).
    pub fn eval_normal_sum(&mut self, e: ExprId, env: &mut [Value]) -> R<Vec<PosId>> {
        let p = Rc::clone(&self.m.prog);
        let p = &*p;
        let mut parts = Vec::new();
        self.pos_folded(p, e, env, &mut parts)?;
        Ok(parts)
    }

    /// Evaluates a range or list argument (tables) to its integers.
    pub fn eval_axis(&mut self, e: ExprId, env: &mut [Value]) -> R<Vec<i64>> {
        let p = Rc::clone(&self.m.prog);
        let p = &*p;
        super::lists::ints(self, p, e, env).map(|xs| xs.to_vec())
    }

    /// Evaluates a value that may be stored in a list or passed to a game.
    pub(super) fn data(&mut self, p: &ir::Program, e: ExprId, env: &mut [Value]) -> R<Value> {
        self.element(p, e, env).map(|(v, _)| v)
    }

    /// [`Interp::data`], with its extent: a list nests less than the limit
    /// and holds at most `--max-list` elements in all.
    pub(super) fn element(
        &mut self,
        p: &ir::Program,
        e: ExprId,
        env: &mut [Value],
    ) -> R<(Value, Extent)> {
        if let Some(v) = self.m.forms.compiled.scalar(e).and_then(|c| c.value(env)) {
            return Ok((v, Extent { depth: 0, size: 1 }));
        }
        let v = self.value(p, e, env)?;
        match &v {
            Value::Int(_)
            | Value::Wide(_)
            | Value::Bool(_)
            | Value::Infinite(_)
            | Value::Pos(_) => Ok((v, Extent { depth: 0, size: 1 })),
            Value::Str(_) => {
                let x = extent(&v);
                Ok((v, x))
            }
            Value::List(_) | Value::Ints(_) | Value::Bools(_) | Value::Dict(_) => {
                let x = extent(&v);
                if x.depth >= MAX_LIST_DEPTH {
                    return Err(too_deep(p.span(e)).into());
                }
                self.within_list_limit(p, e, x.size)?;
                Ok((v, x))
            }
            other => Err(self
                .type_bug(p, e, "an integer, a boolean or a list", other)
                .into()),
        }
    }

    /// Whether a list holding `size` elements in all is within `--max-list`.
    #[inline]
    pub(super) fn within_list_limit(&self, p: &ir::Program, e: ExprId, size: u64) -> R<()> {
        if size <= self.m.limits.max_list as u64 {
            return Ok(());
        }
        Err(self.too_large(p, e).into())
    }

    #[cold]
    fn too_large(&self, p: &ir::Program, e: ExprId) -> Diag {
        let max = self.m.limits.max_list;
        Diag::user(
            Code::ListLimit,
            format!("this list would hold more than {max} elements in all"),
        )
        .label(p.span(e), "too large")
        .note(
            "elements are counted at every level, as often as they appear (`[xs, xs]` holds \
             xs twice), and a string by its bytes: that is what printing or comparing it goes \
             through",
        )
        .help("lists hold at most the list limit; raise it with `--max-list N`")
    }
}

/// A list argument being encoded: its key, how many elements so far, the
/// room a list built as a value would have, and whether an element nests
/// too deep (reported once the list is done, as a built list would be).
struct ListWrite {
    list: ListKey,
    n: usize,
    /// The most elements the list may have: the list limit, less what
    /// its elements weigh past one each ([`Extent::weight`]).
    cap: u64,
    room: usize,
    deep: bool,
}

fn too_deep(span: Span) -> Diag {
    Diag::user(
        Code::ListLimit,
        format!("lists nested more than {MAX_LIST_DEPTH} deep"),
    )
    .label(span, "this list is too deep")
}

/// A limit met while a list was being built says where.
#[cold]
fn building_list(s: Stop, span: Span) -> Stop {
    s.map_diag(|d| d.label(span, "while building this list"))
}
