//! Dictionaries in the interpreter: made from pairs, from two lists, or by
//! counting; looked up (a missing key named), and updated, in place where
//! nobody else holds the dictionary (a fold's accumulator).

use super::*;
use crate::value::{Dict, Key};

/// Bytes an entry takes, about (its key, its value, the table's room).
const ENTRY_BYTES: usize = 64;

/// The key that `e` evaluates to.
fn key(m: &mut Interp<'_>, p: &ir::Program, e: ExprId, env: &mut [Value]) -> R<Key> {
    let v = m.value(p, e, env)?;
    Key::of(&v).ok_or_else(|| {
        Diag::user(
            Code::TypeMismatch,
            format!(
                "a dictionary's keys are integers or strings, not {}",
                v.type_name()
            ),
        )
        .label(p.span(e), format!("this is {}", v.type_name()))
        .into()
    })
}

/// A key of an element of a list (`counter`, `dict(keys, values)`).
fn key_of(p: &ir::Program, e: ExprId, v: &Value) -> R<Key> {
    Key::of(v).ok_or_else(|| {
        Diag::user(
            Code::TypeMismatch,
            format!(
                "a dictionary's keys are integers or strings, and this list holds {}",
                v.type_name()
            ),
        )
        .label(p.span(e), "this list")
        .into()
    })
}

/// The dictionary that `e` evaluates to.
fn dict(m: &mut Interp<'_>, p: &ir::Program, e: ExprId, env: &mut [Value]) -> R<Rc<Dict>> {
    match m.value(p, e, env)? {
        Value::Dict(d) => Ok(d),
        other => Err(m.type_bug(p, e, "a dictionary", &other).into()),
    }
}

/// Room for `n` more entries: the list limit and the memory.
fn room(m: &mut Interp<'_>, p: &ir::Program, e: ExprId, len: usize, n: usize) -> R<()> {
    let max = m.m.limits.max_list;
    if len.saturating_add(n) > max {
        return Err(Diag::user(
            Code::ListLimit,
            format!("this dictionary would hold more than {max} keys"),
        )
        .label(p.span(e), "too many keys")
        .help(format!(
            "dictionaries hold at most {max} keys, as lists hold elements; raise the limit with `--max-list N`"
        ))
        .into());
    }
    m.m.budget.add(n as u64);
    m.m.poll()?;
    m.m.reserve(n.saturating_mul(ENTRY_BYTES))
}

/// `d[k]`: the value of a key; a missing key is an error that names it.
pub(super) fn lookup(
    m: &mut Interp<'_>,
    p: &ir::Program,
    (d, at): (&Dict, ExprId),
    k: ExprId,
    env: &mut [Value],
) -> R<Value> {
    let k_ = key(m, p, k, env)?;
    match d.get(&k_) {
        Some(v) => Ok(v.clone()),
        None => Err(Diag::user(
            Code::MissingKey,
            format!("key {k_} is not in this dictionary"),
        )
        .label(p.span(k), format!("key {k_}"))
        .label(p.span(at), format!("this dictionary has {} keys", d.len()))
        .help("ask `has(d, k)` first, or read it with a default: `get(d, k, default)`")
        .into()),
    }
}

/// `insert(d, k, x)` of a dictionary value `d` (`at`: its expression):
/// written in place when nobody else holds it, else into a copy.
pub(super) fn insert_in(
    m: &mut Interp<'_>,
    p: &ir::Program,
    at: ExprId,
    d: Value,
    k: Key,
    x: Value,
) -> R<Value> {
    let mut d = match d {
        Value::Dict(d) => d,
        other => return Err(m.type_bug(p, at, "a dictionary", &other).into()),
    };
    let new = usize::from(d.get(&k).is_none());
    room(m, p, at, d.len(), new)?;
    match Rc::get_mut(&mut d) {
        Some(d) => d.insert(k, x),
        None => {
            // A copy: its work and its memory, as a list's.
            m.m.budget.add(d.len() as u64);
            m.m.poll()?;
            m.m.reserve(d.len().saturating_mul(ENTRY_BYTES))?;
            let mut copy = (*d).clone();
            copy.insert(k, x);
            d = Rc::new(copy);
        }
    }
    Ok(Value::Dict(d))
}

/// The dictionary builtins.
pub(super) fn call(
    m: &mut Interp<'_>,
    p: &ir::Program,
    f: Builtin,
    args: &[ExprId],
    span: Span,
    env: &mut [Value],
) -> R<Value> {
    let arg = |i: usize| nth_arg(args, i, span);
    match f {
        Builtin::Dict => make(m, p, args, env),
        Builtin::Counter => {
            let xs = m.value(p, arg(0)?, env)?;
            let Some(xs) = xs.elements() else {
                return Err(m.type_bug(p, arg(0)?, "a list", &xs).into());
            };
            let mut d = Dict::default();
            for x in xs.iter() {
                let k = key_of(p, arg(0)?, &x)?;
                let n = match d.get(&k) {
                    Some(Value::Int(n)) => n + 1,
                    _ => {
                        room(m, p, arg(0)?, d.len(), 1)?;
                        1
                    }
                };
                d.insert(k, Value::Int(n));
            }
            Ok(Value::Dict(Rc::new(d)))
        }
        Builtin::Get => {
            let d = dict(m, p, arg(0)?, env)?;
            let k = key(m, p, arg(1)?, env)?;
            match d.get(&k) {
                Some(v) => Ok(v.clone()),
                None => m.data(p, arg(2)?, env),
            }
        }
        Builtin::Has => {
            let d = dict(m, p, arg(0)?, env)?;
            let k = key(m, p, arg(1)?, env)?;
            Ok(Value::Bool(d.get(&k).is_some()))
        }
        Builtin::Insert => {
            let d = m.value(p, arg(0)?, env)?;
            let k = key(m, p, arg(1)?, env)?;
            let x = m.data(p, arg(2)?, env)?;
            insert_in(m, p, arg(0)?, d, k, x)
        }
        Builtin::Keys | Builtin::Values => {
            let d = dict(m, p, arg(0)?, env)?;
            m.m.budget.add(d.len() as u64);
            m.m.poll()?;
            m.m.reserve(d.len().saturating_mul(std::mem::size_of::<Value>()))?;
            let all = d.sorted().into_iter();
            Ok(Value::list(match f {
                Builtin::Keys => all.map(|(k, _)| k.value()).collect(),
                _ => all.map(|(_, v)| v.clone()).collect(),
            }))
        }
        _ => Err(Diag::bug("not a dictionary builtin")
            .label(span, "here")
            .into()),
    }
}

/// `dict()`, `dict(pairs)` and `dict(keys, values)`.
fn make(m: &mut Interp<'_>, p: &ir::Program, args: &[ExprId], env: &mut [Value]) -> R<Value> {
    let mut d = Dict::default();
    match *args {
        [] => {}
        [pairs] => {
            let all = m.value(p, pairs, env)?;
            let Some(all) = all.elements() else {
                return Err(m.type_bug(p, pairs, "a list", &all).into());
            };
            room(m, p, pairs, 0, all.len())?;
            for (i, pair) in all.iter().enumerate() {
                let bad = || {
                    Diag::user(
                        Code::TypeMismatch,
                        format!("element {i} of the list is not a [key, value] pair"),
                    )
                    .label(p.span(pairs), "this list")
                    .help("`dict(pairs)` takes a list of [key, value] lists; `dict(keys, values)` two lists")
                };
                let (k, v) = match pair.elements() {
                    Some(kv) if kv.len() == 2 => (kv.get(0), kv.get(1)),
                    _ => return Err(bad().into()),
                };
                let (Some(k), Some(v)) = (k, v) else {
                    return Err(bad().into());
                };
                d.insert(key_of(p, pairs, &k)?, v);
            }
        }
        [keys, values] => {
            let (ks, vs) = (m.value(p, keys, env)?, m.value(p, values, env)?);
            let (Some(k_all), Some(v_all)) = (ks.elements(), vs.elements()) else {
                return Err(m.type_bug(p, keys, "two lists", &ks).into());
            };
            if k_all.len() != v_all.len() {
                let count = |n: usize, what: &str| match n {
                    1 => format!("1 {what}"),
                    n => format!("{n} {what}s"),
                };
                let (ks, vs) = (count(k_all.len(), "key"), count(v_all.len(), "value"));
                return Err(Diag::user(
                    Code::TypeMismatch,
                    format!("{ks} and {vs}: `dict(keys, values)` pairs them in order"),
                )
                .label(p.span(keys), ks)
                .label(p.span(values), vs)
                .into());
            }
            room(m, p, keys, 0, k_all.len())?;
            for (k, v) in k_all.iter().zip(v_all.iter()) {
                d.insert(key_of(p, keys, &k)?, v);
            }
        }
        _ => return Err(Diag::bug("`dict` of more than two arguments").into()),
    }
    Ok(Value::Dict(Rc::new(d)))
}
