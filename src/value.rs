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
    /// A query's answer as a value, with named fields (`p.period`).
    Record(Rc<Record>),
    /// The value ∞ of a loopy game's position, with the finite values of
    /// its options (ascending): what `grundy(P)` gives when play from P
    /// can go on forever. Finite values are integers.
    Infinite(Rc<[u32]>),
}

/// The kinds of records, each with its fields in order.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RecordKind {
    /// `outcome(P)`: who wins.
    Outcome,
    /// One element of `moves(P)` or `winning(P)`.
    Move,
    /// `period(G)`.
    Period,
}

impl RecordKind {
    /// The fields, in order.
    pub fn fields(self) -> &'static [&'static str] {
        match self {
            RecordKind::Outcome => &["position", "grundy", "outcome", "first_wins"],
            RecordKind::Move => &["component", "before", "after", "change", "grundy"],
            RecordKind::Period => &[
                "found",
                "period",
                "preperiod",
                "proven",
                "last_exception",
                "computed",
            ],
        }
    }

    /// What it is, in words.
    pub fn describe(self) -> &'static str {
        match self {
            RecordKind::Outcome => "an outcome",
            RecordKind::Move => "a move",
            RecordKind::Period => "a period",
        }
    }
}

/// A record: its kind's fields' values, in the kind's order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Record {
    /// Which record.
    pub kind: RecordKind,
    /// One value per field of the kind.
    pub values: Vec<Value>,
}

impl Record {
    /// The value of a field.
    pub fn get(&self, field: &str) -> Option<&Value> {
        let i = self.kind.fields().iter().position(|f| *f == field)?;
        self.values.get(i)
    }
}

impl Value {
    /// Whether a position occurs in the value (its ids depend on the memo).
    pub fn has_pos(&self) -> bool {
        match self {
            Value::Pos(_) => true,
            Value::List(xs) => xs.iter().any(Value::has_pos),
            Value::Record(r) => r.values.iter().any(Value::has_pos),
            _ => false,
        }
    }

    /// Whether an ∞ value (a loopy game's) occurs in the value.
    pub fn has_infinite(&self) -> bool {
        match self {
            Value::Infinite(_) => true,
            Value::List(xs) => xs.iter().any(Value::has_infinite),
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
            Value::Record(r) => r.kind.describe(),
            Value::Infinite(_) => "an infinite value",
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
            Value::Record(r) => {
                f.write_str("{")?;
                for (i, (name, v)) in r.kind.fields().iter().zip(&r.values).enumerate() {
                    if i > 0 {
                        f.write_str(", ")?;
                    }
                    write!(f, "{name}: {v}")?;
                }
                f.write_str("}")
            }
            Value::Infinite(k) => crate::loopy::write_infinite(f, k),
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
