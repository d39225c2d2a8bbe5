//! Run-time values.

use std::fmt;
use std::rc::Rc;

pub use crate::store::PosId;

/// A run-time value.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Value {
    /// A checked 64-bit integer.
    Int(i64),
    /// A boolean.
    Bool(bool),
    /// A string.
    Str(Rc<str>),
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
            Value::Str(_) => "a string",
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
            Value::Str(s) => write!(f, "{s:?}"),
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

impl Value {
    /// The value as text for output: a string as it is (no quotes), any
    /// other value as it displays.
    pub fn text(&self) -> String {
        match self {
            Value::Str(s) => s.to_string(),
            v => v.to_string(),
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
