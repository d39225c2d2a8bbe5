//! Run-time values, and the compact keys that intern game positions.

use std::fmt;
use std::rc::Rc;

pub use crate::memo::PosId;

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

// Position keys: `[game, arg, arg, ...]` with each argument tagged so that
// `G(1)` and `G(true)` stay distinct: Int -> [0, v], Bool -> [1, b],
// List -> [2, len, items...].
const TAG_INT: i64 = 0;
const TAG_BOOL: i64 = 1;
const TAG_LIST: i64 = 2;

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
