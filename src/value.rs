//! Run-time values, and the compact keys that intern game positions.

use std::fmt;
use std::rc::Rc;

use crate::ir::GameId;
pub use crate::store::PosId;
use crate::store::{Full, Store, TAG_BOOL, TAG_INT, TAG_LIST};

/// A run-time value.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Value {
    /// A checked 64-bit integer.
    Int(i64),
    /// A boolean.
    Bool(bool),
    /// An immutable list (of integers, booleans or lists).
    List(Rc<[Value]>),
    /// An inclusive integer range `lo..=hi` (empty when `lo > hi`).
    Range(i64, i64),
    /// A sum of positions (its components; empty = the empty position).
    Pos(Rc<[PosId]>),
}

impl Value {
    /// Whether a position occurs in the value (its ids depend on the memo).
    pub fn has_pos(&self) -> bool {
        match self {
            Value::Pos(_) => true,
            Value::List(xs) => xs.iter().any(Value::has_pos),
            _ => false,
        }
    }

    /// A short name of the value's type, for error messages.
    pub fn type_name(&self) -> &'static str {
        match self {
            Value::Int(_) => "an integer",
            Value::Bool(_) => "a boolean",
            Value::List(_) => "a list",
            Value::Range(..) => "a range",
            Value::Pos(_) => "a position",
        }
    }
}

impl fmt::Display for Value {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Value::Int(v) => write!(f, "{v}"),
            Value::Bool(b) => write!(f, "{b}"),
            Value::List(xs) => {
                f.write_str("[")?;
                for (i, x) in xs.iter().enumerate() {
                    if i > 0 {
                        f.write_str(", ")?;
                    }
                    write!(f, "{x}")?;
                }
                f.write_str("]")
            }
            Value::Range(lo, hi) => write!(f, "{lo}..={hi}"),
            Value::Pos(_) => f.write_str("<position>"),
        }
    }
}

/// Writes `[a, b, c]`.
pub fn write_list(f: &mut impl fmt::Write, xs: &[i64]) -> fmt::Result {
    f.write_char('[')?;
    for (i, x) in xs.iter().enumerate() {
        if i > 0 {
            f.write_str(", ")?;
        }
        write!(f, "{x}")?;
    }
    f.write_char(']')
}

/// Lists may nest at most this deep (keeps keys and recursion small).
pub const MAX_LIST_DEPTH: usize = 32;

/// How deeply a value nests lists (0 for a scalar), capped just above the limit.
pub fn list_depth(v: &Value) -> usize {
    fn go(v: &Value, budget: usize) -> usize {
        match v {
            Value::List(xs) if budget > 0 => {
                1 + xs.iter().map(|x| go(x, budget - 1)).max().unwrap_or(0)
            }
            Value::List(_) => 1,
            _ => 0,
        }
    }
    go(v, MAX_LIST_DEPTH + 1)
}

/// Appends the key encoding of one argument; `None` for values that cannot
/// be game arguments (ranges, positions).
pub fn encode_arg(v: &Value, key: &mut Vec<i64>) -> Option<()> {
    match v {
        Value::Int(x) => key.extend([TAG_INT, *x]),
        Value::Bool(b) => key.extend([TAG_BOOL, i64::from(*b)]),
        Value::List(xs) => {
            key.extend([TAG_LIST, xs.len() as i64]);
            for x in xs.iter() {
                encode_arg(x, key)?;
            }
        }
        Value::Range(..) | Value::Pos(_) => return None,
    }
    Some(())
}

fn decode_one(key: &[i64]) -> Option<(Value, &[i64])> {
    match key {
        [TAG_INT, x, rest @ ..] => Some((Value::Int(*x), rest)),
        [TAG_BOOL, b, rest @ ..] => Some((Value::Bool(*b != 0), rest)),
        [TAG_LIST, n, rest @ ..] => {
            let mut rest = rest;
            let mut items = Vec::with_capacity((*n).clamp(0, 1 << 16) as usize);
            for _ in 0..*n {
                let (v, r) = decode_one(rest)?;
                items.push(v);
                rest = r;
            }
            Some((Value::List(items.into()), rest))
        }
        _ => None,
    }
}

/// Decodes the arguments of a key (after its game id).
pub fn decode_args(mut key: &[i64], out: &mut Vec<Value>) {
    while let Some((v, rest)) = decode_one(key) {
        out.push(v);
        key = rest;
    }
}

/// Interns `game(args)`; `Ok(None)` if an argument cannot be part of a
/// position (ranges, positions).
pub fn intern(store: &mut Store, game: GameId, args: &[Value]) -> Result<Option<PosId>, Full> {
    let mut ints = [0i64; 8];
    if args.len() <= ints.len()
        && args.iter().zip(ints.iter_mut()).all(|(a, slot)| match a {
            Value::Int(v) => {
                *slot = *v;
                true
            }
            _ => false,
        })
    {
        return store.intern_ints(game, &ints[..args.len()]).map(Some);
    }
    let mut key = Vec::new();
    for a in args {
        if encode_arg(a, &mut key).is_none() {
            return Ok(None);
        }
    }
    store.intern_key(game, &key).map(Some)
}

/// Appends the arguments of a position to `out`.
pub fn args_of(store: &Store, p: PosId, out: &mut Vec<Value>) {
    if let Some(args) = store.int_args(p) {
        out.extend(args.as_slice().iter().map(|&a| Value::Int(a)));
        return;
    }
    let mut key = Vec::new();
    store.key_of(p, &mut key);
    decode_args(&key, out);
}
