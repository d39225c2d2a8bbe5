//! Dictionaries in the interpreter: looked up (a missing key named), read
//! with a default, and updated, in place where nobody else holds the
//! dictionary (a fold's accumulator). What a key is and how much room a
//! dictionary has are the builtins' rules (`crate::builtin::dicts`), as are
//! the dictionary builtins that are functions of values.

use super::host::Caller;
use super::*;
use crate::builtin::dicts::{copy_room, room};
use crate::value::{Dict, Key};

/// The key that `e` evaluates to.
fn key(m: &mut Interp<'_>, p: &ir::Program, e: ExprId, env: &mut [Value]) -> R<Key> {
    let v = m.value(p, e, env)?;
    crate::builtin::dicts::key(&Caller::new(m.m, p, &[e], p.span(e)), 0, &v)
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
    let h = &mut Caller::new(m.m, p, std::slice::from_ref(&at), p.span(at));
    let mut d = match d {
        Value::Dict(d) => d,
        other => return Err(crate::builtin::Host::type_bug(h, 0, "a dictionary", &other)),
    };
    let new = usize::from(d.get(&k).is_none());
    room(h, 0, d.len(), new)?;
    match Rc::get_mut(&mut d) {
        Some(d) => d.insert(k, x),
        None => {
            copy_room(h, d.len())?;
            let mut copy = (*d).clone();
            copy.insert(k, x);
            d = Rc::new(copy);
        }
    }
    Ok(Value::Dict(d))
}

/// `get(d, k, default)`, whose default is evaluated only when the key is
/// missing, and `insert(d, k, x)`.
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
        Builtin::Get => {
            let d = m.value(p, arg(0)?, env)?;
            let d = Rc::clone(crate::builtin::dicts::dict(
                &Caller::new(m.m, p, args, span),
                0,
                &d,
            )?);
            let k = key(m, p, arg(1)?, env)?;
            match d.get(&k) {
                Some(v) => Ok(v.clone()),
                None => m.data(p, arg(2)?, env),
            }
        }
        Builtin::Insert => {
            let d = m.value(p, arg(0)?, env)?;
            let k = key(m, p, arg(1)?, env)?;
            let x = m.data(p, arg(2)?, env)?;
            insert_in(m, p, arg(0)?, d, k, x)
        }
        _ => Err(Diag::bug("not a dictionary builtin")
            .label(span, "here")
            .into()),
    }
}
