//! The builtins of dictionaries that are functions of their arguments'
//! values: `dict`, `counter`, `has`, `keys`, `values`; and the rules every
//! dictionary follows (its keys, its room), which the interpreter's
//! lookups and in-place inserts read too.

use std::rc::Rc;

use super::host::Host;
use crate::diagnostics::{Code, Diag};
use crate::flow::Stop;
use crate::value::{Dict, Key, Value};

type Out = Result<Value, Stop>;

/// Bytes an entry takes, about (its key, its value, the table's room).
const ENTRY_BYTES: usize = 64;

/// Argument `i` as a key: an integer or a string.
pub fn key<H: Host + ?Sized>(h: &H, i: usize, v: &Value) -> Result<Key, Stop> {
    Key::of(v).ok_or_else(|| {
        Diag::user(
            Code::TypeMismatch,
            format!(
                "a dictionary's keys are integers or strings, not {}",
                v.type_name()
            ),
        )
        .label(h.place(i), format!("this is {}", v.type_name()))
        .into()
    })
}

/// An element of argument `i`, a list, as a key (`counter`, `dict(keys,
/// values)`).
fn element_key(h: &dyn Host, i: usize, v: &Value) -> Result<Key, Stop> {
    Key::of(v).ok_or_else(|| {
        Diag::user(
            Code::TypeMismatch,
            format!(
                "a dictionary's keys are integers or strings, and this list holds {}",
                v.type_name()
            ),
        )
        .label(h.place(i), "this list")
        .into()
    })
}

/// Argument `i`, a dictionary.
pub fn dict<'v>(h: &dyn Host, i: usize, v: &'v Value) -> Result<&'v Rc<Dict>, Stop> {
    match v {
        Value::Dict(d) => Ok(d),
        other => Err(h.type_bug(i, "a dictionary", other)),
    }
}

/// Room for `n` more entries in a dictionary of `len` (argument `i`): the
/// list limit, the work and the memory.
#[inline]
pub fn room<H: Host + ?Sized>(h: &mut H, i: usize, len: usize, n: usize) -> Result<(), Stop> {
    let max = h.max_list();
    if len.saturating_add(n) > max {
        return Err(Diag::user(
            Code::ListLimit,
            format!("this dictionary would hold more than {max} keys"),
        )
        .label(h.place(i), "too many keys")
        .help(format!(
            "dictionaries hold at most {max} keys, as lists hold elements; raise the limit with `--max-list N`"
        ))
        .into());
    }
    h.work(n as u64);
    h.poll()?;
    h.reserve(n.saturating_mul(ENTRY_BYTES))
}

/// A copy of a dictionary of `len` entries: its work and its memory, as a
/// list's.
pub fn copy_room<H: Host + ?Sized>(h: &mut H, len: usize) -> Result<(), Stop> {
    h.work(len as u64);
    h.poll()?;
    h.reserve(len.saturating_mul(ENTRY_BYTES))
}

/// `dict()`, `dict(pairs)` and `dict(keys, values)`.
pub(super) fn make(args: &[Value], h: &mut dyn Host) -> Out {
    let mut d = Dict::default();
    match args {
        [] => {}
        [all] => {
            let Some(all) = all.elements() else {
                return Err(h.type_bug(0, "a list", all));
            };
            room(h, 0, 0, all.len())?;
            for (i, pair) in all.iter().enumerate() {
                let bad = || {
                    Diag::user(
                        Code::TypeMismatch,
                        format!("element {i} of the list is not a [key, value] pair"),
                    )
                    .label(h.place(0), "this list")
                    .help("`dict(pairs)` takes a list of [key, value] lists; `dict(keys, values)` two lists")
                };
                let (k, v) = match pair.elements() {
                    Some(kv) if kv.len() == 2 => (kv.get(0), kv.get(1)),
                    _ => return Err(bad().into()),
                };
                let (Some(k), Some(v)) = (k, v) else {
                    return Err(bad().into());
                };
                d.insert(element_key(h, 0, &k)?, v);
            }
        }
        [ks, vs] => {
            let (Some(k_all), Some(v_all)) = (ks.elements(), vs.elements()) else {
                return Err(h.type_bug(0, "two lists", ks));
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
                .label(h.place(0), ks)
                .label(h.place(1), vs)
                .into());
            }
            room(h, 0, 0, k_all.len())?;
            for (k, v) in k_all.iter().zip(v_all.iter()) {
                d.insert(element_key(h, 0, &k)?, v);
            }
        }
        _ => return Err(Diag::bug("`dict` of more than two arguments").into()),
    }
    Ok(Value::Dict(Rc::new(d)))
}

/// `counter(xs)`: how many times each element occurs.
pub(super) fn counter(args: &[Value], h: &mut dyn Host) -> Out {
    let Some(xs) = args[0].elements() else {
        return Err(h.type_bug(0, "a list", &args[0]));
    };
    let mut d = Dict::default();
    for x in xs.iter() {
        let k = element_key(h, 0, &x)?;
        let n = match d.get(&k) {
            Some(Value::Int(n)) => n + 1,
            _ => {
                room(h, 0, d.len(), 1)?;
                1
            }
        };
        d.insert(k, Value::Int(n));
    }
    Ok(Value::Dict(Rc::new(d)))
}

/// `has(d, k)`: whether the key is in the dictionary.
pub(super) fn has(args: &[Value], h: &mut dyn Host) -> Out {
    let d = dict(h, 0, &args[0])?;
    let k = key(h, 1, &args[1])?;
    Ok(Value::Bool(d.get(&k).is_some()))
}

/// `keys(d)`: the keys, in order.
pub(super) fn keys(args: &[Value], h: &mut dyn Host) -> Out {
    entries(args, h, |(k, _)| k.value())
}

/// `values(d)`: the values, in their keys' order.
pub(super) fn values(args: &[Value], h: &mut dyn Host) -> Out {
    entries(args, h, |(_, v)| v.clone())
}

fn entries(args: &[Value], h: &mut dyn Host, each: fn((&Key, &Value)) -> Value) -> Out {
    let d = dict(h, 0, &args[0])?;
    h.work(d.len() as u64);
    h.poll()?;
    h.reserve(d.len().saturating_mul(std::mem::size_of::<Value>()))?;
    Ok(Value::list(d.sorted().into_iter().map(each).collect()))
}
