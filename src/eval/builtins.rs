//! The builtins' implementations: a function of integers by the function
//! its entry declares (`crate::builtin::Ints`), every other by its arm here
//! (its name, arity, signature and help are its entry in `crate::builtin`).

use super::expr::{TEXT_BYTES_PER_WORK, overflow};
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
        return of_values(m, p, values, args, span, env);
    }
    match f {
        Builtin::Len => match m.value(p, arg(0)?, env)? {
            Value::Str(s) => Ok(Value::Int(crate::value::char_count(&s) as i64)),
            Value::Range(lo, hi) => Ok(Value::Int(if lo > hi {
                0
            } else {
                i64::try_from(i128::from(hi) - i128::from(lo) + 1)
                    .map_err(|_| overflow(span, format!("len({lo}..={hi})")))?
            })),
            Value::Dict(d) => Ok(Value::Int(d.len() as i64)),
            other => match other.elements() {
                Some(xs) => Ok(Value::Int(xs.len() as i64)),
                None => Err(m.type_bug(p, arg(0)?, "a list or a string", &other).into()),
            },
        },
        Builtin::Sum => {
            let list = super::lists::ints(m, p, arg(0)?, env)?;
            let mut acc: i64 = 0;
            for &v in list.iter() {
                acc = acc
                    .checked_add(v)
                    .ok_or_else(|| overflow(span, format!("{acc} + {v}")))?;
            }
            Ok(Value::Int(acc))
        }
        Builtin::Min | Builtin::Max => min_max(m, p, f, args, span, env),
        Builtin::Bisect => bisect(m, p, arg(0)?, arg(1)?, span, env),
        Builtin::Sorted => {
            let mut v = super::lists::ints(m, p, arg(0)?, env)?.to_vec();
            v.sort_unstable();
            Ok(Value::Ints(v.into()))
        }
        Builtin::Set => {
            let list = m.value(p, arg(0)?, env)?;
            let i = m.int(p, arg(1)?, env)?;
            let (x, ext) = m.element(p, arg(2)?, env)?;
            super::carry::set_in(m, p, (arg(0)?, arg(1)?), list, i, x, ext)
        }
        Builtin::Dict
        | Builtin::Counter
        | Builtin::Get
        | Builtin::Has
        | Builtin::Insert
        | Builtin::Keys
        | Builtin::Values => super::dicts::call(m, p, f, args, span, env),
        Builtin::Mex => {
            let list = super::lists::ints(m, p, arg(0)?, env)?;
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
        Builtin::Xor => {
            let list = super::lists::ints(m, p, arg(0)?, env)?;
            Ok(Value::Int(list.iter().fold(0, |x, &v| x ^ v)))
        }
        Builtin::Components | Builtin::GridCanon | Builtin::GridTurn => {
            board(m, p, f, args, span, env)
        }
        Builtin::Str => {
            let text = m.text(p, arg(0)?, env)?;
            Ok(Value::Str(text.into()))
        }
        Builtin::InputInts | Builtin::InputTokens | Builtin::InputLines => input(m, f, span),
        Builtin::Chars | Builtin::Int | Builtin::Ord | Builtin::Chr => {
            text_function(m, p, f, arg(0)?, env)
        }
        Builtin::Play => play_move(m, p, arg(0)?, arg(1)?, env),
        Builtin::Args | Builtin::Name => position_data(m, p, f, arg(0)?, env),
        Builtin::Join => join(m, p, arg(0)?, arg(1)?, span, env),
        Builtin::Grundy => {
            let parts = m.eval_normal_sum(arg(0)?, env)?;
            Ok(gsg_value(m.m.gsg_sum(&parts)?))
        }
        Builtin::MisereGrundy => {
            let mut parts = Vec::new();
            m.pos_into(p, arg(0)?, env, &mut parts)?;
            // A loopy game's misère value may be ∞, as its grundy may.
            Ok(gsg_value(m.m.with_misere(|ms, m| ms.gsg_of(m, &parts))?.0))
        }
        Builtin::Outcome
        | Builtin::Graph
        | Builtin::Moves
        | Builtin::Winning
        | Builtin::Table
        | Builtin::PPositions
        | Builtin::Map
        | Builtin::Plot
        | Builtin::Describe
        | Builtin::Genus
        | Builtin::Quotient
        | Builtin::Period
        | Builtin::Guess => match m.m.interp_state.report_values {
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

/// `components(mask, adj)` and `grid_canon(mask, w, h)` (`crate::board`).
fn board(
    m: &mut Interp<'_>,
    p: &ir::Program,
    f: Builtin,
    args: &[ExprId],
    span: Span,
    env: &mut [Value],
) -> R<Value> {
    let [mask, rest @ ..] = args else {
        return Err(Diag::bug("board builtin called with too few arguments").into());
    };
    let mask = m.int(p, *mask, env)?;
    if let (Builtin::Components, [adj]) = (f, rest) {
        // Read in place: the adjacency is most often a constant list.
        let adj = super::lists::list_value(m, p, *adj, env)?;
        let adj = adj.elements();
        let mut parts = Vec::new();
        let near = |v: usize| match adj?.get(v) {
            Some(Value::Int(x)) => Some(x),
            _ => None,
        };
        crate::board::components(mask, near, &mut parts)
            .map_err(|e| board_error(e, span, mask, f))?;
        return Ok(Value::Ints(parts.into()));
    }
    let [w, h] = rest else {
        return Err(Diag::bug("a grid builtin called with the wrong arguments").into());
    };
    let (w, h) = (m.int(p, *w, env)?, m.int(p, *h, env)?);
    let on_grid = match f {
        Builtin::GridTurn => crate::board::grid_turn,
        _ => crate::board::grid_canon,
    };
    on_grid(mask, w, h)
        .map(Value::Int)
        .map_err(|e| board_error(e, span, mask, f).into())
}

/// A board function's refusal, in the user's words.
fn board_error(e: crate::board::BoardError, span: Span, mask: i64, f: Builtin) -> Diag {
    use crate::board::BoardError as E;
    let (message, help) = match e {
        E::NegativeMask => (
            format!("the board {mask} is negative"),
            "a board is a mask of its cells: bit v is cell v",
        ),
        E::NoNeighbours(v) => (
            format!("vertex {v} of the board {mask} has no integer entry in the adjacency list"),
            "adj[v] must be the mask of v's neighbours, for every vertex of the board",
        ),
        E::NegativeNeighbours(v) => (
            format!("the neighbours of vertex {v} are a negative mask"),
            "adj[v] must be the mask of v's neighbours",
        ),
        E::BadGrid => (
            "a grid must be at least 1×1 and have at most 63 cells".to_string(),
            if f == Builtin::GridTurn {
                "grid_turn(mask, w, h) takes the grid's width and height"
            } else {
                "grid_canon(mask, w, h) takes the grid's width and height"
            },
        ),
        E::OffGrid(v) => (
            format!("cell {v} of the board {mask} is off the grid"),
            "cells of a w×h grid are 0 to w·h - 1",
        ),
    };
    Diag::user(Code::BadBoard, message)
        .label(span, "here")
        .help(help)
}

/// A function of values ([`crate::builtin::Values`]): its arguments'
/// values, each argument's place, and how the machine shows a value.
fn of_values(
    m: &mut Interp<'_>,
    p: &ir::Program,
    f: crate::builtin::Values,
    args: &[ExprId],
    span: Span,
    env: &mut [Value],
) -> R<Value> {
    // One argument, the usual case, without an allocation.
    let (one, many);
    let values: &[Value] = if let [a] = args {
        one = m.value(p, *a, env)?;
        std::slice::from_ref(&one)
    } else {
        many = args
            .iter()
            .map(|&a| m.value(p, a, env))
            .collect::<R<Vec<_>>>()?;
        &many
    };
    let machine = &*m.m;
    let show = |v: &Value| machine.show().value(v);
    let place = |i: usize| args.get(i).map_or(span, |&a| p.span(a));
    let call = crate::builtin::Call {
        span,
        place: &place,
        show: &show,
    };
    f(values, &call).map_err(Stop::from)
}

/// A function of integers ([`crate::builtin::Ints`]): its arguments'
/// values, and its error in terms of the call (`abs(-2^63)`).
fn of_ints(
    m: &mut Interp<'_>,
    p: &ir::Program,
    name: &str,
    f: crate::builtin::Ints,
    args: &[ExprId],
    span: Span,
    env: &mut [Value],
) -> R<Value> {
    let first = nth_arg(args, 0, span)?;
    let x = m.int(p, first, env)?;
    // An error names the call, and the argument it is about (a second
    // argument of 0 to divide by, as the operators do).
    let result = match f {
        crate::builtin::Ints::One(f) => f(x).map_err(|e| (e, format!("{name}({x})"), first, x)),
        crate::builtin::Ints::Two(f) => {
            let second = nth_arg(args, 1, span)?;
            let y = m.int(p, second, env)?;
            f(x, y).map_err(|e| {
                let (operand, v) = match e {
                    OpError::Overflow | OpError::NegativePopcount | OpError::NegativeRoot => {
                        (first, x)
                    }
                    OpError::DivisionByZero | OpError::BadExponent | OpError::BadShift => {
                        (second, y)
                    }
                };
                (e, format!("{name}({x}, {y})"), operand, v)
            })
        }
    };
    result
        .map(Value::Int)
        .map_err(|(err, what, operand, v)| m.op_error(p, err, span, operand, what, v).into())
}

/// `min` and `max`: of a list, or of two or more integers.
fn min_max(
    m: &mut Interp<'_>,
    p: &ir::Program,
    f: Builtin,
    args: &[ExprId],
    span: Span,
    env: &mut [Value],
) -> R<Value> {
    let values: Rc<[i64]> = if args.len() == 1 {
        super::lists::ints(m, p, args[0], env)?
    } else {
        let mut v = Vec::new();
        for &a in args {
            v.push(m.int(p, a, env)?);
        }
        v.into()
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

/// `join(list, separator)`: the elements as text.
fn join(
    m: &mut Interp<'_>,
    p: &ir::Program,
    list: ExprId,
    sep: ExprId,
    span: Span,
    env: &mut [Value],
) -> R<Value> {
    let list = super::lists::list(m, p, list, env)?;
    let sep = match m.value(p, sep, env)? {
        Value::Str(s) => s,
        other => return Err(m.type_bug(p, sep, "a string", &other).into()),
    };
    let mut text = String::new();
    for (i, v) in list.iter().enumerate() {
        m.m.poll()?;
        if i > 0 {
            text.push_str(&sep);
        }
        text.push_str(&m.m.show().text(v));
        if text.len() > m.m.limits.max_list {
            return Err(m.string_too_long(span, text.len()).into());
        }
    }
    // Copying text is work: long strings built in a loop look
    // at the limits (and Ctrl-C) as often as short ones.
    m.m.budget.add(text.len() as u64 / TEXT_BYTES_PER_WORK);
    m.m.reserve(text.len())?;
    Ok(Value::Str(text.into()))
}

/// The functions of text: `chars`, `int`, `ord`, `chr`.
fn text_function(
    m: &mut Interp<'_>,
    p: &ir::Program,
    f: Builtin,
    at: ExprId,
    env: &mut [Value],
) -> R<Value> {
    match f {
        Builtin::Chars => {
            let s = m.text_of(p, at, env)?;
            m.m.reserve(s.len().saturating_mul(std::mem::size_of::<Value>() + 8))?;
            Ok(Value::List(
                s.chars()
                    .map(|c| Value::Str(c.to_string().into()))
                    .collect(),
            ))
        }
        Builtin::Int => {
            let s = m.text_of(p, at, env)?;
            s.trim().parse::<i64>().map(Value::Int).map_err(|_| {
                let shown: String = s.chars().take(40).flat_map(char::escape_debug).collect();
                Diag::user(Code::BadInput, format!("\"{shown}\" is not an integer"))
                    .label(p.span(at), "this string")
                    .help("`int(s)` reads a 64-bit integer: an optional sign, then digits")
                    .into()
            })
        }
        Builtin::Ord => {
            let s = m.text_of(p, at, env)?;
            let mut cs = s.chars();
            match (cs.next(), cs.next()) {
                (Some(c), None) => Ok(Value::Int(i64::from(u32::from(c)))),
                _ => Err(Diag::user(
                    Code::TypeMismatch,
                    format!(
                        "`ord` of a string of {} characters",
                        crate::value::char_count(&s)
                    ),
                )
                .label(p.span(at), "not one character")
                .help("`ord(c)` takes one character: `ord(s[i])` for the i-th of a string")
                .into()),
            }
        }
        Builtin::Chr => {
            let n = m.int(p, at, env)?;
            match u32::try_from(n).ok().and_then(char::from_u32) {
            Some(c) => Ok(Value::Str(c.to_string().into())),
            None => Err(Diag::user(
                Code::IndexOutOfRange,
                format!("{n} is not the code of a character"),
            )
            .label(p.span(at), format!("{n}"))
            .help("character codes are Unicode scalar values: 0 to 0x10FFFF, not 0xD800 to 0xDFFF")
            .into()),
        }
        }
        _ => Err(Diag::bug("not a function of text")
            .label(p.span(at), "here")
            .into()),
    }
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

/// A value, finite or ∞, as the language's value.
fn gsg_value(v: crate::value::Gsg) -> Value {
    match v {
        crate::value::Gsg::Finite(v) => Value::Int(i64::from(v)),
        crate::value::Gsg::Infinite(k) => Value::Infinite(k),
    }
}

/// `bisect(xs, x)`: the first index of a sorted list of integers whose
/// element is at least x. The list is shared, not copied: log(n) probes.
fn bisect(
    m: &mut Interp,
    p: &ir::Program,
    xs: ExprId,
    x: ExprId,
    span: Span,
    env: &mut [Value],
) -> R<Value> {
    let list = super::lists::list_value(m, p, xs, env)?;
    let Some(list) = list.elements() else {
        return Err(Diag::bug("a list that has no elements").into());
    };
    let x = m.int(p, x, env)?;
    let (mut lo, mut hi) = (0usize, list.len());
    while lo < hi {
        let mid = lo + (hi - lo) / 2;
        let at = list.get(mid).unwrap_or(Value::Int(0));
        let Value::Int(v) = at else {
            return Err(Diag::user(
                Code::TypeMismatch,
                format!("`bisect` met {} in its list", at.type_name()),
            )
            .label(span, "here")
            .help("`bisect` searches a sorted list of integers")
            .into());
        };
        if v < x {
            lo = mid + 1;
        } else {
            hi = mid;
        }
    }
    Ok(Value::Int(lo as i64))
}
