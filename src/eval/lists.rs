//! Lists in the interpreter: their forms (any values, or integers or
//! booleans packed), made from ranges, indexed and sliced, joined, and
//! built by comprehensions whose element does not change.

use super::host::Caller;
use super::*;
use crate::builtin::Host;

pub(super) fn materialize(
    m: &mut Interp<'_>,
    p: &ir::Program,
    e: ExprId,
    lo: i64,
    hi: i64,
) -> R<Rc<[Value]>> {
    Caller::new(m.m, p, &[e], p.span(e)).list(0, Value::Range(lo, hi))
}

/// A list-valued expression as a list in one of its forms (a range
/// made a packed list of integers).
pub(super) fn list_value(
    m: &mut Interp<'_>,
    p: &ir::Program,
    e: ExprId,
    env: &mut [Value],
) -> R<Value> {
    let v = m.value(p, e, env)?;
    Caller::new(m.m, p, &[e], p.span(e)).list_value(0, v)
}

/// `xs[i]` and `s[i]`: an element, or a character as a string; with a
/// range, `xs[a..b]` and `s[a..b]`, the slice.
pub(super) fn index(
    m: &mut Interp<'_>,
    p: &ir::Program,
    l: ExprId,
    i: ExprId,
    env: &mut [Value],
) -> R<Value> {
    let base = match m.value(p, l, env)? {
        Value::Dict(d) => return super::dicts::lookup(m, p, (&d, l), i, env),
        Value::Range(lo, hi) => Value::List(materialize(m, p, l, lo, hi)?),
        v @ (Value::List(_) | Value::Ints(_) | Value::Bools(_) | Value::Str(_)) => v,
        other => {
            return Err(m.type_bug(p, l, "a list or a string", &other).into());
        }
    };
    let len = match &base {
        Value::Str(s) => crate::value::char_count(s),
        v => v.elements().map_or(0, |xs| xs.len()),
    };
    let (lo, hi, slice) = match m.value(p, i, env)? {
        Value::Int(k) => (k, k, false),
        Value::Range(lo, hi) => (lo, hi, true),
        other => {
            return Err(m.type_bug(p, i, "an integer or a range", &other).into());
        }
    };
    // An empty slice may start just past the end.
    let empty = slice && lo > hi;
    let fits = |k: i64| usize::try_from(k).is_ok_and(|k| k < len || (empty && k == len));
    if !fits(lo) || (!empty && !fits(hi)) {
        let what = if slice {
            format!("{lo}..={hi}")
        } else {
            format!("{lo}")
        };
        let (noun, unit) = match &base {
            Value::Str(_) => ("string", "characters"),
            _ => ("list", "elements"),
        };
        let mut d = Diag::user(
            Code::IndexOutOfRange,
            format!("index {what} is out of range for a {noun} of length {len}"),
        )
        .label(p.span(i), format!("index {what}"))
        .label(p.span(l), format!("this {noun} has {len} {unit}"));
        // Reading past the input's end: the input's fault, most often.
        if let Value::Ints(xs) = &base
            && let Some((count, line, column)) = m.m.interp_state.input.ints_end(xs)
        {
            d = d.note(format!(
                "this list is the input's {count} integers, which end at line {line}, column \
                 {column}: the input holds fewer numbers than the program reads (a count larger \
                 than the numbers after it, or too few numbers)"
            ));
        }
        return Err(d.into());
    }
    let (lo, hi) = (
        lo as usize,
        if empty { lo as usize } else { hi as usize + 1 },
    );
    // A slice is a copy: its work and its memory, as `xs + ys` counts.
    if slice {
        m.m.budget.add((hi - lo) as u64);
        m.m.poll()?;
        let bytes = match &base {
            Value::Ints(_) => 8,
            Value::Bools(_) | Value::Str(_) => 1,
            _ => std::mem::size_of::<Value>(),
        };
        m.m.reserve((hi - lo).saturating_mul(bytes))?;
    }
    Ok(match base {
        Value::Str(s) if s.is_ascii() => Value::Str(s[lo..hi].into()),
        Value::Str(s) => Value::Str(s.chars().skip(lo).take(hi - lo).collect::<String>().into()),
        other => match other.elements() {
            Some(xs) if !slice => xs.get(lo).unwrap_or(Value::Int(0)),
            Some(xs) => xs.slice(lo, hi),
            None => other,
        },
    })
}

/// `[x for i in XS]` where `x` does not read `i`: `x` once (if `XS` is
/// not empty), copied; `None` for any other comprehension.
pub(super) fn copies(
    m: &mut Interp<'_>,
    p: &ir::Program,
    e: ExprId,
    body: ExprId,
    clauses: &[Clause],
    env: &mut [Value],
) -> R<Option<Value>> {
    let [Clause::For { slot, iter }] = *clauses else {
        return Ok(None);
    };
    if p.reads_local(body, slot) {
        return Ok(None);
    }
    let n = match m.value(p, iter, env)? {
        Value::Range(lo, hi) if lo > hi => 0,
        Value::Range(lo, hi) => u64::try_from(i128::from(hi) - i128::from(lo) + 1)
            .unwrap_or(u64::MAX)
            .min(usize::MAX as u64) as usize,
        v => v
            .elements()
            .ok_or_else(|| m.type_bug(p, iter, "a range or a list", &v))?
            .len(),
    };
    if n == 0 {
        return Ok(Some(Value::List(Rc::from([]))));
    }
    if n > m.m.limits.max_list {
        return Err(too_long(m, p, e, n as u128).into());
    }
    let (x, ext) = m.element(p, body, env)?;
    m.within_list_limit(p, e, ext.weight().saturating_mul(n as u64))?;
    m.m.budget.add(n as u64);
    m.m.poll()?;
    Ok(Some(match x {
        Value::Int(v) => {
            m.list_room_of(p, e, n, 8)?;
            Value::Ints(std::iter::repeat_n(v, n).collect())
        }
        Value::Bool(v) => {
            m.list_room_of(p, e, n, 1)?;
            Value::Bools(std::iter::repeat_n(v, n).collect())
        }
        x => {
            m.list_room_of(p, e, n, std::mem::size_of::<Value>())?;
            Value::List(std::iter::repeat_n(x, n).collect())
        }
    }))
}

/// `xs + ys`: a new list, within the list limits.
pub(super) fn concat_lists(
    m: &mut Interp<'_>,
    p: &ir::Program,
    e: ExprId,
    a: ExprId,
    b: ExprId,
    env: &mut [Value],
) -> R<Value> {
    let (a, b) = (list_value(m, p, a, env)?, list_value(m, p, b, env)?);
    let (Some(xs), Some(ys)) = (a.elements(), b.elements()) else {
        return Err(Diag::bug("a list that has no elements").into());
    };
    let len = xs.len() + ys.len();
    if len > m.m.limits.max_list {
        return Err(too_long(m, p, e, len as u128).into());
    }
    let size = extent(&a).size.saturating_add(extent(&b).size);
    m.within_list_limit(p, e, size)?;
    m.m.budget.add(len as u64);
    m.m.poll()?;
    use crate::value::Elements as L;
    Ok(match (xs, ys) {
        (L::Ints(xs), L::Ints(ys)) => {
            m.m.reserve(len.saturating_mul(8))?;
            Value::Ints(xs.iter().chain(ys).copied().collect())
        }
        (L::Bools(xs), L::Bools(ys)) => {
            m.m.reserve(len)?;
            Value::Bools(xs.iter().chain(ys).copied().collect())
        }
        _ => {
            m.m.reserve(len.saturating_mul(std::mem::size_of::<Value>()))?;
            Value::List(xs.iter().chain(ys.iter()).collect())
        }
    })
}

/// Evaluates a list (or range) whose elements must all be integers.
pub(super) fn ints(
    m: &mut Interp<'_>,
    p: &ir::Program,
    e: ExprId,
    env: &mut [Value],
) -> R<Rc<[i64]>> {
    let v = m.value(p, e, env)?;
    Caller::new(m.m, p, &[e], p.span(e)).ints(0, v)
}

pub(super) fn too_long(m: &Interp<'_>, p: &ir::Program, e: ExprId, len: u128) -> Diag {
    crate::builtin::list_too_long(m.m.limits.max_list, p.span(e), len)
}
