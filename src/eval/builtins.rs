//! The builtins' implementations: a function of integers or of values by
//! the function its entry declares (`crate::builtin::Ints`,
//! `crate::builtin::Values`, called with `eval::host::Caller` as its host), every
//! other by its arm here: those that read positions, the input or the
//! solvers, or update a list or dictionary in place (their name, arity,
//! signature and help are their entry in `crate::builtin`).

use super::*;

pub(super) fn call(
    m: &mut Interp<'_>,
    p: &ir::Program,
    f: Builtin,
    play: ir::Play,
    args: &[ExprId],
    span: Span,
    env: &mut [Value],
) -> R<Value> {
    let arg = |i: usize| nth_arg(args, i, span);
    // A function of integers: its declared function.
    if let Some(ints) = f.spec().ints {
        return of_ints(m, p, f.name(), ints, args, span, env);
    }
    // A function of values: its declared function.
    if let Some(values) = f.spec().values {
        return of_values(m, p, f, values, args, span, env);
    }
    match f {
        Builtin::Set => {
            let list = m.value(p, arg(0)?, env)?;
            let i = m.int(p, arg(1)?, env)?;
            let (x, ext) = m.element(p, arg(2)?, env)?;
            super::carry::set_in(m, p, (arg(0)?, arg(1)?), list, i, x, ext)
        }
        Builtin::Get | Builtin::Insert => super::dicts::call(m, p, f, args, span, env),
        Builtin::InputInts | Builtin::InputTokens | Builtin::InputLines => input(m, f, span),
        Builtin::Play => play_move(m, p, arg(0)?, arg(1)?, env),
        Builtin::Args | Builtin::Name => position_data(m, p, f, arg(0)?, env),
        Builtin::Grundy => {
            let parts = m.eval_normal_sum(arg(0)?, env)?;
            Ok(Value::from(m.m.gsg_sum(&parts)?))
        }
        Builtin::MisereGrundy => {
            let mut parts = Vec::new();
            m.pos_into(p, arg(0)?, env, &mut parts)?;
            // A loopy game's misère value may be ∞, as its grundy may.
            Ok(Value::from(
                m.m.with_misere(|ms, m| ms.gsg_of(m, &parts))?.0,
            ))
        }
        // The report queries, answered above the engine (`crate::report`).
        _ if f.is_query() || f.is_report() => match m.m.interp_state.report_values {
            Some(answer) => answer(m.m, f, play, args, span, env),
            None => Err(Diag::bug("no report queries connected")
                .label(span, "here")
                .into()),
        },
        // The functions of integers and of values, answered above.
        _ => Err(Diag::bug(format!("`{}` has no implementation", f.name()))
            .label(span, "here")
            .into()),
    }
}

/// `args(P)` and `name(P)`: a position (one component) as data.
fn position_data(
    m: &mut Interp<'_>,
    p: &ir::Program,
    f: Builtin,
    e: ExprId,
    env: &mut [Value],
) -> R<Value> {
    // The position as written, even while a search names its options as
    // stored (a rule may ask about a position it makes).
    let mut parts = Vec::new();
    m.m.interp().pos_into(p, e, env, &mut parts)?;
    let [pos] = parts[..] else {
        return Err(Diag::user(
            Code::TypeMismatch,
            format!("`{}` of a sum of {} positions", f.spec().name, parts.len()),
        )
        .label(p.span(e), "not one position")
        .help("ask about one of its components")
        .into());
    };
    let (game, args) = m.m.position(pos);
    Ok(if f == Builtin::Args {
        Value::List(args.into())
    } else {
        Value::Str(p.games[game.index()].name.as_str().into())
    })
}

/// A function of values ([`crate::builtin::Values`]): its arguments'
/// values, and the machine it runs on.
fn of_values(
    m: &mut Interp<'_>,
    p: &ir::Program,
    builtin: Builtin,
    f: crate::builtin::Values,
    args: &[ExprId],
    span: Span,
    env: &mut [Value],
) -> R<Value> {
    // Its function reads as many arguments as the arity allows.
    let (least, most) = builtin.spec().arity;
    if !(least..=most).contains(&args.len()) {
        return Err(Diag::bug(format!(
            "`{}` called with {} arguments",
            builtin.name(),
            args.len()
        ))
        .label(span, "here")
        .into());
    }
    // Up to three arguments, the usual case, without an allocation.
    let (mut few, many): ([Value; 3], Vec<Value>);
    let values: &[Value] = if args.len() <= 3 {
        few = [Value::Int(0), Value::Int(0), Value::Int(0)];
        for (slot, &a) in few.iter_mut().zip(args) {
            *slot = m.value(p, a, env)?;
        }
        &few[..args.len()]
    } else {
        many = args
            .iter()
            .map(|&a| m.value(p, a, env))
            .collect::<R<Vec<_>>>()?;
        &many
    };
    f(values, &mut super::host::Caller::new(m.m, p, args, span))
}

/// A function of integers ([`crate::builtin::Ints`]): its arguments'
/// values, on 64 bits when they and the result fit, else on any width;
/// its error in terms of the call (`gcd(5, 0)`).
fn of_ints(
    m: &mut Interp<'_>,
    p: &ir::Program,
    name: &str,
    (f, wide): (crate::builtin::Ints, crate::builtin::WideInts),
    args: &[ExprId],
    span: Span,
    env: &mut [Value],
) -> R<Value> {
    use super::arith::Integer;
    use crate::builtin::{Ints, WideInts};
    let first = nth_arg(args, 0, span)?;
    let x = m.integer(p, first, env)?;
    let y = match f {
        Ints::One(_) => None,
        Ints::Two(_) => Some((
            nth_arg(args, 1, span)?,
            m.integer(p, nth_arg(args, 1, span)?, env)?,
        )),
    };
    let small = match (&f, &x, &y) {
        (Ints::One(f), Integer::Small(x), None) => f(*x).ok(),
        (Ints::Two(f), Integer::Small(x), Some((_, Integer::Small(y)))) => f(*x, *y).ok(),
        _ => None,
    };
    if let Some(v) = small {
        return Ok(Value::Int(v));
    }
    let result = match (wide, &y) {
        (WideInts::One(f), _) => f(&x.wide()),
        (WideInts::Two(f), Some((_, y))) => f(&x.wide(), &y.wide()),
        (WideInts::Two(_), None) => {
            return Err(Stop::Error(Diag::bug(format!(
                "`{name}` without its second argument"
            ))));
        }
    };
    result.map(Value::integer).map_err(|err| {
        // An error names the call, and the argument it is about (a second
        // argument of 0 to divide by, as the operators do).
        let (operand, v) = match (err, &y) {
            (OpError::DivisionByZero | OpError::BadExponent | OpError::BadShift, Some((e, y))) => {
                (*e, y.to_string())
            }
            _ => (first, x.to_string()),
        };
        let what = match &y {
            Some((_, y)) => format!("{name}({x}, {y})"),
            None => format!("{name}({x})"),
        };
        m.op_error(p, err, span, operand, what, v).into()
    })
}

/// `input_ints()`, `input_tokens()`, `input_lines()`: standard input
/// (read once) as a list.
fn input(m: &mut Interp<'_>, f: Builtin, span: Span) -> R<Value> {
    let max_list = m.m.limits.max_list;
    // No progress line over what is being typed.
    let pending = m.m.interp_state.input.pending();
    let progress = m.m.budget.progress().filter(|_| pending);
    if let Some(p) = progress {
        p.stop();
    }
    let budget = &m.m.budget;
    let poll = &mut || match budget.cancelled() {
        true => Err(Stop::Interrupted),
        false => Ok(()),
    };
    let bounds = crate::input::Bounds {
        max_list,
        room: &|bytes| budget.memory(bytes),
        max_memory: m.m.limits.max_memory,
    };
    let input = &mut m.m.interp_state.input;
    let result = match f {
        Builtin::InputTokens => input.tokens(poll, &bounds),
        Builtin::InputLines => input.lines(poll, &bounds),
        _ => input.ints(poll, &bounds).map(Value::Ints),
    };
    if let Some(p) = progress {
        p.start();
    }
    result.map_err(|s| s.label(span, "reads standard input"))
}

/// The components of a sum after one of its moves (a move record): the
/// moved component replaced by what it became; `None` if the record is no
/// move of this sum.
fn after_move(parts: &[PosId], mv: &Value) -> Option<Vec<PosId>> {
    let Value::Record(r) = mv else {
        return None;
    };
    let (Some(Value::Int(i)), Some(Value::Pos(before)), Some(Value::Pos(after))) =
        (r.get("component"), r.get("before"), r.get("after"))
    else {
        return None;
    };
    let i = usize::try_from(*i).ok()?;
    if before.len() != 1 || parts.get(i) != before.first() {
        return None;
    }
    let mut out = Vec::with_capacity(parts.len() + after.len());
    out.extend(&parts[..i]);
    out.extend(after.iter());
    out.extend(&parts[i + 1..]);
    Some(out)
}

/// `play(P, m)`: the whole position after the move `m` of `P`.
fn play_move(
    m: &mut Interp<'_>,
    p: &ir::Program,
    at_pos: ExprId,
    at_move: ExprId,
    env: &mut [Value],
) -> R<Value> {
    let mut parts = Vec::new();
    m.pos_into(p, at_pos, env, &mut parts)?;
    let mv = m.value(p, at_move, env)?;
    after_move(&parts, &mv)
        .map(|after| Value::Pos(after.into()))
        .ok_or_else(|| {
            Diag::user(
                Code::TypeMismatch,
                format!(
                    "{} is not a move of {}",
                    m.m.show().value(&mv),
                    m.m.show().sum(&parts)
                ),
            )
            .label(p.span(at_move), "this move")
            .label(p.span(at_pos), "this position")
            .help("play a move from `moves(P)` or `winning(P)` of the same P")
            .into()
        })
}
