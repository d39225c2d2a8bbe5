//! The expression interpreter: values of expressions in an environment of
//! slots, with the compiled forms as its fast path; comprehensions,
//! builtins, positions and sums.

use super::*;

impl Machine {
    // ----- expressions ------------------------------------------------------

    fn span(&self, e: ExprId) -> Span {
        self.prog.span(e)
    }

    fn type_bug(&self, e: ExprId, want: &str, got: &Value) -> Diag {
        Diag::user(
            Code::TypeMismatch,
            format!("expected {want}, found {}", got.type_name()),
        )
        .label(self.span(e), format!("this is {}", got.type_name()))
    }

    /// Evaluates to an integer.
    pub fn eval_int(&mut self, e: ExprId, env: &mut [Value]) -> R<i64> {
        if let Some(v) = self.compiled.int(e).and_then(|c| c.eval(env)) {
            return Ok(v);
        }
        match self.eval(e, env)? {
            Value::Int(v) => Ok(v),
            other => Err(self.type_bug(e, "an integer", &other).into()),
        }
    }

    /// Evaluates to a boolean.
    pub fn eval_bool(&mut self, e: ExprId, env: &mut [Value]) -> R<bool> {
        if let Some(v) = self.compiled.bool(e).and_then(|c| c.eval(env)) {
            return Ok(v);
        }
        match self.eval(e, env)? {
            Value::Bool(v) => Ok(v),
            other => Err(self.type_bug(e, "a boolean", &other).into()),
        }
    }

    fn eval_list(&mut self, e: ExprId, env: &mut [Value]) -> R<Rc<[Value]>> {
        match self.eval(e, env)? {
            Value::List(v) => Ok(v),
            Value::Range(lo, hi) => self.materialize(e, lo, hi),
            other => Err(self.type_bug(e, "a list", &other).into()),
        }
    }

    fn materialize(&self, e: ExprId, lo: i64, hi: i64) -> R<Rc<[Value]>> {
        let len = if lo > hi {
            0
        } else {
            (hi as i128 - lo as i128 + 1) as u128
        };
        if len > self.limits.max_list as u128 {
            return Err(self.too_long(e, len).into());
        }
        self.reserve((len as usize).saturating_mul(std::mem::size_of::<Value>()))?;
        Ok((lo..=hi).map(Value::Int).collect::<Vec<_>>().into())
    }

    fn too_long(&self, e: ExprId, len: u128) -> Diag {
        let max = self.limits.max_list;
        let what = if len > max as u128 + 1 {
            format!("{len} elements")
        } else {
            format!("more than {max} elements")
        };
        Diag::user(Code::ListLimit, format!("this list would hold {what}"))
            .label(self.span(e), "too long")
            .help(format!(
                "lists hold at most {max} elements; raise the limit with `--max-list N`"
            ))
    }

    pub(super) fn make_iter(&mut self, e: ExprId, env: &mut [Value]) -> R<Iter> {
        match self.eval(e, env)? {
            Value::Range(lo, hi) => Ok(Iter::Range {
                next: lo,
                last: hi,
                done: lo > hi,
            }),
            Value::List(list) => Ok(Iter::List { list, idx: 0 }),
            other => Err(self.type_bug(e, "a range or a list", &other).into()),
        }
    }

    /// Evaluates a position-typed expression, appending its components.
    pub fn eval_pos_into(&mut self, e: ExprId, env: &mut [Value], out: &mut Vec<PosId>) -> R<()> {
        // The common case, read in place: a position whose arguments are all
        // compiled integer expressions.
        if let ir::Expr::Apply { game, args } = self.prog.expr(e) {
            let mut ints = [0i64; 8];
            if args.len() <= ints.len()
                && args.iter().zip(ints.iter_mut()).all(|(&a, slot)| {
                    match self.compiled.int(a).and_then(|c| c.eval(env)) {
                        Some(v) => {
                            *slot = v;
                            true
                        }
                        None => false,
                    }
                })
            {
                let p = match self.memo.intern_ints(*game, &ints[..args.len()]) {
                    Ok(p) => p,
                    Err(_) => return Err(self.state_limit(self.span(e)).into()),
                };
                out.push(p);
                return Ok(());
            }
        }
        let prog = self.prog.clone();
        match prog.expr(e) {
            ir::Expr::EmptyPos => Ok(()),
            ir::Expr::PosSum(a, b) => {
                self.eval_pos_into(*a, env, out)?;
                self.eval_pos_into(*b, env, out)
            }
            ir::Expr::Apply { game, args } => {
                // Arguments that are not all compiled integers.
                let mut vals = Vec::with_capacity(args.len());
                for &a in args {
                    vals.push(self.eval_data(a, env)?);
                }
                out.push(self.intern(*game, &vals, self.span(e))?);
                Ok(())
            }
            ir::Expr::If(c, t, f) => {
                let branch = if self.eval_bool(*c, env)? { *t } else { *f };
                self.eval_pos_into(branch, env, out)
            }
            ir::Expr::Comp {
                kind: CompKind::SumPos,
                body,
                clauses,
            } => {
                let body = *body;
                self.comp_loop(clauses, 0, env, &mut |m, env| {
                    m.eval_pos_into(body, env, out)?;
                    Ok(true)
                })
                .map(|_| ())
            }
            _ => match self.eval(e, env)? {
                Value::Pos(parts) => {
                    out.extend_from_slice(&parts);
                    Ok(())
                }
                other => Err(self.type_bug(e, "a position", &other).into()),
            },
        }
    }

    /// Runs `body` for every binding of `clauses` (from clause `i` on);
    /// `body` returns false to stop early. Returns false if stopped.
    pub fn comp_loop(
        &mut self,
        clauses: &[Clause],
        i: usize,
        env: &mut [Value],
        body: &mut dyn FnMut(&mut Machine, &mut [Value]) -> R<bool>,
    ) -> R<bool> {
        let Some(clause) = clauses.get(i) else {
            return body(self, env);
        };
        match *clause {
            Clause::If { cond } => {
                if self.eval_bool(cond, env)? {
                    self.comp_loop(clauses, i + 1, env, body)
                } else {
                    Ok(true)
                }
            }
            Clause::For { slot, iter } => {
                let mut it = self.make_iter(iter, env)?;
                while let Some(v) = it.next() {
                    self.poll()?;
                    env[slot as usize] = v;
                    if !self.comp_loop(clauses, i + 1, env, body)? {
                        return Ok(false);
                    }
                }
                Ok(true)
            }
        }
    }

    /// Evaluates an expression.
    pub fn eval(&mut self, e: ExprId, env: &mut [Value]) -> R<Value> {
        // Leaves, the most common nodes, read the program in place.
        match self.prog.expr(e) {
            ir::Expr::Int(v) => return Ok(Value::Int(*v)),
            ir::Expr::Bool(b) => return Ok(Value::Bool(*b)),
            ir::Expr::Local(s) if (*s as usize) < env.len() => {
                return Ok(env[*s as usize].clone());
            }
            _ => {}
        }
        let prog = self.prog.clone();
        let span = self.span(e);
        Ok(match prog.expr(e) {
            ir::Expr::Int(v) => Value::Int(*v),
            ir::Expr::Bool(b) => Value::Bool(*b),
            ir::Expr::Local(s) => env
                .get(*s as usize)
                .cloned()
                .ok_or_else(|| Diag::bug("variable slot out of range").label(span, "here"))?,
            ir::Expr::Const(c) => match &self.consts[*c as usize] {
                Some(v) => v.clone(),
                None => {
                    let name = &prog.consts[*c as usize].name;
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
                let mut v = Vec::with_capacity(items.len());
                for &i in items {
                    v.push(self.eval_data(i, env)?);
                }
                Value::List(v.into())
            }
            ir::Expr::Comp {
                kind,
                body,
                clauses,
            } => self.comp(e, *kind, *body, clauses, env)?,
            ir::Expr::Index(l, i) => {
                let list = self.eval_list(*l, env)?;
                let idx = self.eval_int(*i, env)?;
                match usize::try_from(idx).ok().and_then(|i| list.get(i)) {
                    Some(v) => v.clone(),
                    None => {
                        return Err(Diag::user(
                            Code::IndexOutOfRange,
                            format!(
                                "index {idx} is out of range for a list of length {}",
                                list.len()
                            ),
                        )
                        .label(self.span(*i), format!("index {idx}"))
                        .label(
                            self.span(*l),
                            format!("this list has {} elements", list.len()),
                        )
                        .into());
                    }
                }
            }
            ir::Expr::Neg(x) => {
                let v = self.eval_int(*x, env)?;
                Value::Int(
                    v.checked_neg()
                        .ok_or_else(|| overflow(span, format!("-({v})")))?,
                )
            }
            ir::Expr::Not(x) => Value::Bool(!self.eval_bool(*x, env)?),
            ir::Expr::Binary(op, a, b) => self.binary(*op, *a, *b, span, env)?,
            ir::Expr::Range { lo, hi, inclusive } => {
                let lo = self.eval_int(*lo, env)?;
                let hi = self.eval_int(*hi, env)?;
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
                let branch = if self.eval_bool(*c, env)? { *t } else { *f };
                self.eval(branch, env)?
            }
            ir::Expr::EmptyPos | ir::Expr::PosSum(..) | ir::Expr::Apply { .. } => {
                let mut out = Vec::new();
                self.eval_pos_into(e, env, &mut out)?;
                Value::Pos(out.into())
            }
            ir::Expr::Call { f, args } => self.call(*f, args, span, env)?,
            ir::Expr::GameRef(_) => {
                return Err(Diag::bug("a game name evaluated as a value")
                    .label(span, "here")
                    .into());
            }
        })
    }

    fn comp(
        &mut self,
        e: ExprId,
        kind: CompKind,
        body: ExprId,
        clauses: &[Clause],
        env: &mut [Value],
    ) -> R<Value> {
        match kind {
            CompKind::List => {
                let mut items = Vec::new();
                let max = self.limits.max_list;
                self.comp_loop(clauses, 0, env, &mut |m, env| {
                    // Before the list doubles: the memory limit.
                    if items.len() == items.capacity() {
                        m.reserve(items.capacity().max(4) * std::mem::size_of::<Value>())
                            .map_err(|s| {
                                s.map_diag(|d| d.label(m.span(e), "while building this list"))
                            })?;
                    }
                    items.push(m.eval_data(body, env)?);
                    if items.len() > max {
                        return Err(m.too_long(e, items.len() as u128).into());
                    }
                    Ok(true)
                })?;
                Ok(Value::List(items.into()))
            }
            CompKind::SumPos => {
                let mut out = Vec::new();
                self.eval_pos_into(e, env, &mut out)?;
                Ok(Value::Pos(out.into()))
            }
            CompKind::SumInt => {
                let mut acc: i64 = 0;
                let span = self.span(e);
                self.comp_loop(clauses, 0, env, &mut |m, env| {
                    let v = m.eval_int(body, env)?;
                    acc = acc
                        .checked_add(v)
                        .ok_or_else(|| overflow(span, format!("{acc} + {v}")))?;
                    Ok(true)
                })?;
                Ok(Value::Int(acc))
            }
            CompKind::Min | CompKind::Max => {
                let mut best: Option<i64> = None;
                self.comp_loop(clauses, 0, env, &mut |m, env| {
                    let v = m.eval_int(body, env)?;
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
                    .label(self.span(e), "the generator produced no values")
                    .into()
                })
            }
            CompKind::Any | CompKind::All => {
                let want = kind == CompKind::Any;
                let mut found = !want;
                self.comp_loop(clauses, 0, env, &mut |m, env| {
                    if m.eval_bool(body, env)? == want {
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
        op: BinOp,
        a: ExprId,
        b: ExprId,
        span: Span,
        env: &mut [Value],
    ) -> R<Value> {
        match op {
            BinOp::And => {
                return Ok(Value::Bool(
                    self.eval_bool(a, env)? && self.eval_bool(b, env)?,
                ));
            }
            BinOp::Or => {
                return Ok(Value::Bool(
                    self.eval_bool(a, env)? || self.eval_bool(b, env)?,
                ));
            }
            BinOp::Eq | BinOp::Ne => {
                let x = self.eval(a, env)?;
                let y = self.eval(b, env)?;
                let eq = match (&x, &y) {
                    (Value::Int(_), Value::Int(_))
                    | (Value::Bool(_), Value::Bool(_))
                    | (Value::List(_), Value::List(_)) => x == y,
                    _ => return Err(self.type_bug(b, x.type_name(), &y).into()),
                };
                return Ok(Value::Bool(eq == (op == BinOp::Eq)));
            }
            _ => {}
        }
        let x = self.eval_int(a, env)?;
        let y = self.eval_int(b, env)?;
        if let Some(c) = ops::compare(op, x, y) {
            return Ok(Value::Bool(c));
        }
        ops::int_op(op, x, y).map(Value::Int).map_err(|err| {
            self.op_error(err, span, b, format!("{x} {} {y}", op.symbol()), y)
                .into()
        })
    }

    /// The diagnostic for a failed integer operation at `span`: `what` as
    /// written with its values, `operand` the right operand (blamed for a
    /// bad divisor, exponent or shift) with value `y`.
    fn op_error(&self, err: OpError, span: Span, operand: ExprId, what: String, y: i64) -> Diag {
        match err {
            OpError::Overflow => overflow(span, what),
            OpError::DivisionByZero => {
                Diag::user(Code::DivisionByZero, format!("division by zero: {what}"))
                    .label(span, "divides by zero")
                    .label(self.span(operand), "this is 0")
            }
            OpError::BadExponent => {
                Diag::user(Code::BadExponent, format!("exponent {y} out of range"))
                    .label(self.span(operand), "must be between 0 and 2^32")
            }
            OpError::BadShift => {
                Diag::user(Code::BadShift, format!("shift amount {y} is out of range"))
                    .label(self.span(operand), "shift amounts are 0 to 63")
            }
            OpError::NegativePopcount => Diag::user(
                Code::NegativePopcount,
                format!("popcount of negative number {y}"),
            )
            .label(span, "needs a non-negative integer"),
        }
    }

    fn call(&mut self, f: Builtin, args: &[ExprId], span: Span, env: &mut [Value]) -> R<Value> {
        let arg = |i: usize| {
            args.get(i).copied().ok_or_else(|| {
                Diag::bug("builtin called with too few arguments").label(span, "here")
            })
        };
        match f {
            Builtin::Len => Ok(Value::Int(self.eval_list(arg(0)?, env)?.len() as i64)),
            Builtin::Sum => {
                let list = self.eval_ints(arg(0)?, env)?;
                let mut acc: i64 = 0;
                for &v in list.iter() {
                    acc = acc
                        .checked_add(v)
                        .ok_or_else(|| overflow(span, format!("{acc} + {v}")))?;
                }
                Ok(Value::Int(acc))
            }
            Builtin::Min | Builtin::Max => {
                let values: Vec<i64> = if args.len() == 1 {
                    self.eval_ints(args[0], env)?
                } else {
                    let mut v = Vec::new();
                    for &a in args {
                        v.push(self.eval_int(a, env)?);
                    }
                    v
                };
                let best = if f == Builtin::Min {
                    values.iter().min()
                } else {
                    values.iter().max()
                };
                best.map(|v| Value::Int(*v)).ok_or_else(|| {
                    Diag::user(Code::EmptyMinMax, format!("{} of an empty list", f.name()))
                        .label(span, "the list is empty")
                        .into()
                })
            }
            Builtin::Abs => {
                let v = self.eval_int(arg(0)?, env)?;
                v.checked_abs()
                    .map(Value::Int)
                    .ok_or_else(|| overflow(span, format!("abs({v})")).into())
            }
            Builtin::Sorted => {
                let mut v = self.eval_ints(arg(0)?, env)?;
                v.sort_unstable();
                Ok(Value::List(
                    v.into_iter().map(Value::Int).collect::<Vec<_>>().into(),
                ))
            }
            Builtin::Set => {
                let list = self.eval_list(arg(0)?, env)?;
                let i = self.eval_int(arg(1)?, env)?;
                let x = self.eval_data(arg(2)?, env)?;
                let mut v = list.to_vec();
                match usize::try_from(i).ok().and_then(|i| v.get_mut(i)) {
                    Some(slot) => *slot = x,
                    None => {
                        return Err(Diag::user(
                            Code::IndexOutOfRange,
                            format!(
                                "index {i} is out of range for a list of length {}",
                                list.len()
                            ),
                        )
                        .label(self.span(args[1]), format!("index {i}"))
                        .into());
                    }
                }
                Ok(Value::List(v.into()))
            }
            Builtin::Popcount => {
                let x = arg(0)?;
                let v = self.eval_int(x, env)?;
                ops::popcount(v)
                    .map(Value::Int)
                    .map_err(|err| self.op_error(err, span, x, v.to_string(), v).into())
            }
            Builtin::Mex => {
                let list = self.eval_ints(arg(0)?, env)?;
                let mut seen = Seen::default();
                for &v in list.iter() {
                    if let Ok(v) = u32::try_from(v)
                        && (v as usize) <= list.len()
                    {
                        seen.insert(v);
                    }
                }
                Ok(Value::Int(seen.mex() as i64))
            }
            Builtin::Grundy => {
                let mut parts = Vec::new();
                self.eval_pos_into(arg(0)?, env, &mut parts)?;
                Ok(Value::Int(i64::from(self.grundy_sum(&parts)?)))
            }
            Builtin::MisereGrundy => {
                let mut parts = Vec::new();
                self.eval_pos_into(arg(0)?, env, &mut parts)?;
                let v = self.with_misere(|ms, m| {
                    let s = ms.state(m, &parts)?;
                    ms.value(m, s)
                })?;
                Ok(Value::Int(i64::from(v)))
            }
            Builtin::Outcome
            | Builtin::Graph
            | Builtin::MisereOutcome
            | Builtin::MisereWinning
            | Builtin::Moves
            | Builtin::Winning
            | Builtin::Table
            | Builtin::PPositions
            | Builtin::Describe
            | Builtin::Period => Err(Diag::bug(format!(
                "report `{}` evaluated as a value",
                f.name()
            ))
            .label(span, "here")
            .into()),
        }
    }

    /// Evaluates the position argument of a query.
    pub fn eval_sum(&mut self, e: ExprId, env: &mut [Value]) -> R<Vec<PosId>> {
        let mut parts = Vec::new();
        self.eval_pos_into(e, env, &mut parts)?;
        Ok(parts)
    }

    /// Evaluates a range or list argument (tables) to its integers.
    pub fn eval_axis(&mut self, e: ExprId, env: &mut [Value]) -> R<Vec<i64>> {
        self.eval_ints(e, env)
    }

    /// Evaluates a list (or range) whose elements must all be integers.
    fn eval_ints(&mut self, e: ExprId, env: &mut [Value]) -> R<Vec<i64>> {
        let list = self.eval_list(e, env)?;
        list.iter()
            .map(|v| match v {
                Value::Int(x) => Ok(*x),
                other => Err(Diag::user(
                    Code::TypeMismatch,
                    format!(
                        "expected a list of integers, found {} in it",
                        other.type_name()
                    ),
                )
                .label(self.span(e), "this list")
                .into()),
            })
            .collect()
    }

    /// Evaluates a value that may be stored in a list or passed to a game.
    fn eval_data(&mut self, e: ExprId, env: &mut [Value]) -> R<Value> {
        let v = self.eval(e, env)?;
        match &v {
            Value::Int(_) | Value::Bool(_) => Ok(v),
            Value::List(_) if list_depth(&v) < MAX_LIST_DEPTH => Ok(v),
            Value::List(_) => Err(Diag::user(
                Code::ListLimit,
                format!("lists nested more than {MAX_LIST_DEPTH} deep"),
            )
            .label(self.span(e), "this list is too deep")
            .into()),
            other => Err(self
                .type_bug(e, "an integer, a boolean or a list", other)
                .into()),
        }
    }

    /// Evaluates a check condition, with the sides of a comparison on failure.
    pub fn check_case(&mut self, cond: ExprId, env: &mut [Value]) -> R<CheckCase> {
        if self.eval_bool(cond, env)? {
            return Ok(CheckCase::Held);
        }
        let prog = self.prog.clone();
        let sides = match prog.expr(cond) {
            ir::Expr::Binary(op, a, b) if !matches!(op, BinOp::And | BinOp::Or) => {
                Some((self.eval(*a, env)?, self.eval(*b, env)?))
            }
            _ => None,
        };
        Ok(CheckCase::Failed(sides))
    }
}

fn overflow(span: Span, what: String) -> Diag {
    Diag::user(Code::Overflow, format!("integer overflow in {what}"))
        .label(span, "overflows 64 bits")
        .help(format!("integers range from {} to {}", i64::MIN, i64::MAX))
}

/// Renders a list of integers as `[a, b]`.
pub fn show_list(xs: &[i64]) -> String {
    let mut s = String::new();
    let _ = write_list(&mut s, xs);
    s
}
