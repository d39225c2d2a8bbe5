//! Run-time values.

use std::fmt;
use std::rc::Rc;

mod dict;
mod gsg;
pub use dict::{Dict, Key};
pub use gsg::{Gsg, Outcome, write_infinite};

pub use crate::store::PosId;

/// A run-time value.
///
/// A list has three forms: [`Value::List`] holds any elements, and
/// [`Value::Ints`] and [`Value::Bools`] hold integers or booleans packed
/// (what comprehensions, `input_ints()` and folds build, 8 and 1 bytes an
/// element). The forms are one type to the language: they compare, print
/// and key alike, element by element.
#[derive(Clone, Debug)]
pub enum Value {
    /// A checked 64-bit integer.
    Int(i64),
    /// An integer that does not fit 64 bits (never one that does: see
    /// [`Value::integer`]).
    Wide(Rc<crate::ops::Wide>),
    /// A boolean.
    Bool(bool),
    /// A string.
    Str(Rc<str>),
    /// An immutable list (of integers, booleans or lists).
    List(Rc<[Value]>),
    /// A list of integers, packed.
    Ints(Rc<[i64]>),
    /// A list of booleans, packed.
    Bools(Rc<[bool]>),
    /// A dictionary: integer or string keys to values.
    Dict(Rc<Dict>),
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

impl PartialEq for Value {
    fn eq(&self, other: &Value) -> bool {
        use Value::*;
        match (self, other) {
            (Int(a), Int(b)) => a == b,
            (Wide(a), Wide(b)) => a == b,
            (Bool(a), Bool(b)) => a == b,
            (Str(a), Str(b)) => a == b,
            (Range(a, b), Range(c, d)) => (a, b) == (c, d),
            (Pos(a), Pos(b)) => a == b,
            (Record(a), Record(b)) => a == b,
            (Infinite(a), Infinite(b)) => a == b,
            (Ints(a), Ints(b)) => a == b,
            (Bools(a), Bools(b)) => a == b,
            (List(a), List(b)) => a == b,
            (Dict(a), Dict(b)) => a == b,
            (a, b) => match (a.elements(), b.elements()) {
                (Some(a), Some(b)) => a.len() == b.len() && a.iter().eq(b.iter()),
                _ => false,
            },
        }
    }
}

impl Eq for Value {}

/// The elements of a list in any of its forms, borrowed.
#[derive(Clone, Copy, Debug)]
pub enum Elements<'a> {
    /// Elements of any kind.
    Values(&'a [Value]),
    /// Integers.
    Ints(&'a [i64]),
    /// Booleans.
    Bools(&'a [bool]),
}

impl<'a> Elements<'a> {
    /// How many.
    #[inline]
    pub fn len(self) -> usize {
        match self {
            Elements::Values(xs) => xs.len(),
            Elements::Ints(xs) => xs.len(),
            Elements::Bools(xs) => xs.len(),
        }
    }

    /// Whether there are none.
    pub fn is_empty(self) -> bool {
        self.len() == 0
    }

    /// Element `i`.
    #[inline]
    pub fn get(self, i: usize) -> Option<Value> {
        match self {
            Elements::Values(xs) => xs.get(i).cloned(),
            Elements::Ints(xs) => xs.get(i).map(|&x| Value::Int(x)),
            Elements::Bools(xs) => xs.get(i).map(|&x| Value::Bool(x)),
        }
    }

    /// The elements in order.
    pub fn iter(self) -> impl Iterator<Item = Value> + 'a {
        (0..self.len()).filter_map(move |i| self.get(i))
    }

    /// Elements `lo..hi` as a list of the same form.
    pub fn slice(self, lo: usize, hi: usize) -> Value {
        match self {
            Elements::Values(xs) => Value::List(xs[lo..hi].into()),
            Elements::Ints(xs) => Value::Ints(xs[lo..hi].into()),
            Elements::Bools(xs) => Value::Bools(xs[lo..hi].into()),
        }
    }

    /// The elements as values (a copy, for a packed list).
    pub fn to_values(self) -> Rc<[Value]> {
        match self {
            Elements::Values(xs) => xs.into(),
            _ => self.iter().collect(),
        }
    }
}

/// A list being built element by element: packed while its elements are
/// all integers or all booleans, unpacked from the first that is not.
#[derive(Debug, Default)]
pub enum ListBuilder {
    /// No element yet.
    #[default]
    Empty,
    /// Integers so far.
    Ints(Vec<i64>),
    /// Booleans so far.
    Bools(Vec<bool>),
    /// Anything.
    Values(Vec<Value>),
}

impl ListBuilder {
    /// How many elements so far.
    pub fn len(&self) -> usize {
        match self {
            ListBuilder::Empty => 0,
            ListBuilder::Ints(xs) => xs.len(),
            ListBuilder::Bools(xs) => xs.len(),
            ListBuilder::Values(xs) => xs.len(),
        }
    }

    /// Whether there is none.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Room for how many before the list grows.
    pub fn capacity(&self) -> usize {
        match self {
            ListBuilder::Empty => 0,
            ListBuilder::Ints(xs) => xs.capacity(),
            ListBuilder::Bools(xs) => xs.capacity(),
            ListBuilder::Values(xs) => xs.capacity(),
        }
    }

    /// Bytes an element takes.
    pub fn element_bytes(&self) -> usize {
        match self {
            ListBuilder::Empty | ListBuilder::Values(_) => std::mem::size_of::<Value>(),
            ListBuilder::Ints(_) => 8,
            ListBuilder::Bools(_) => 1,
        }
    }

    /// An integer at the end.
    #[inline]
    pub fn push_int(&mut self, x: i64) {
        match self {
            ListBuilder::Ints(xs) => xs.push(x),
            _ => self.push_other(Value::Int(x)),
        }
    }

    /// A boolean at the end.
    #[inline]
    pub fn push_bool(&mut self, x: bool) {
        match self {
            ListBuilder::Bools(xs) => xs.push(x),
            _ => self.push_other(Value::Bool(x)),
        }
    }

    /// A value at the end.
    #[inline]
    pub fn push(&mut self, x: Value) {
        match (&mut *self, x) {
            (ListBuilder::Ints(xs), Value::Int(v)) => xs.push(v),
            (ListBuilder::Bools(xs), Value::Bool(v)) => xs.push(v),
            (_, x) => self.push_other(x),
        }
    }

    /// A value at the end, in any other case: the first, or one that
    /// unpacks the list.
    fn push_other(&mut self, x: Value) {
        match (&mut *self, x) {
            (ListBuilder::Ints(xs), Value::Int(v)) => xs.push(v),
            (ListBuilder::Bools(xs), Value::Bool(v)) => xs.push(v),
            (ListBuilder::Values(xs), x) => xs.push(x),
            (ListBuilder::Empty, Value::Int(v)) => *self = ListBuilder::Ints(vec![v]),
            (ListBuilder::Empty, Value::Bool(v)) => *self = ListBuilder::Bools(vec![v]),
            (ListBuilder::Empty, x) => *self = ListBuilder::Values(vec![x]),
            (_, x) => {
                let mut all: Vec<Value> = Vec::with_capacity(self.len() + 1);
                match std::mem::take(self) {
                    ListBuilder::Ints(xs) => all.extend(xs.into_iter().map(Value::Int)),
                    ListBuilder::Bools(xs) => all.extend(xs.into_iter().map(Value::Bool)),
                    ListBuilder::Values(xs) => all = xs,
                    ListBuilder::Empty => {}
                }
                all.push(x);
                *self = ListBuilder::Values(all);
            }
        }
    }

    /// The list.
    pub fn finish(self) -> Value {
        match self {
            ListBuilder::Empty => Value::List(Rc::from([])),
            ListBuilder::Ints(xs) => Value::Ints(xs.into()),
            ListBuilder::Bools(xs) => Value::Bools(xs.into()),
            ListBuilder::Values(xs) => Value::List(xs.into()),
        }
    }
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
    /// `genus(P)`.
    Genus,
    /// `quotient(G, 0..=N)`.
    Quotient,
    /// `guess(G)`.
    Guess,
}

/// The type of a record's field.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Field {
    Pos,
    Int,
    Bool,
    Str,
    List,
}

impl Field {
    /// Whether `v` is of this type (an ∞ value is a Grundy value too).
    pub fn holds(self, v: &Value) -> bool {
        match self {
            Field::Pos => matches!(v, Value::Pos(_)),
            Field::Int => matches!(v, Value::Int(_) | Value::Wide(_) | Value::Infinite(_)),
            Field::Bool => matches!(v, Value::Bool(_)),
            Field::Str => matches!(v, Value::Str(_)),
            Field::List => matches!(v, Value::List(_) | Value::Ints(_) | Value::Bools(_)),
        }
    }
}

impl RecordKind {
    /// The fields with their types, in order: the one declaration of a
    /// record's shape (the checker types `r.field` from it, the report
    /// fills the values in this order).
    pub fn typed_fields(self) -> &'static [(&'static str, Field)] {
        use Field::*;
        match self {
            RecordKind::Outcome => &[
                ("position", Pos),
                ("grundy", Int),
                ("outcome", Str),
                ("first_wins", Bool),
            ],
            RecordKind::Move => &[
                ("component", Int),
                ("before", Pos),
                ("after", Pos),
                ("change", Str),
                ("grundy", Int),
            ],
            RecordKind::Period => &[
                ("found", Bool),
                ("period", Int),
                ("preperiod", Int),
                ("saltus", Int),
                ("proven", Bool),
                ("last_exception", Int),
                ("computed", Int),
            ],
            RecordKind::Genus => &[
                ("position", Pos),
                ("genus", Str),
                ("grundy", Int),
                ("misere", Int),
                ("sup", List),
                ("tame", Bool),
            ],
            RecordKind::Guess => &[
                ("found", Bool),
                ("formula", Str),
                ("gives", Str),
                ("statement", Str),
                ("size", Int),
                ("searched", Int),
                ("tried", Int),
            ],
            RecordKind::Quotient => &[
                ("heaps", Int),
                ("order", Int),
                ("p_portion", List),
                ("presentation", Str),
                ("pretending", List),
                ("changed", List),
                ("period", Int),
                ("preperiod", Int),
                ("proven", Bool),
            ],
        }
    }

    /// The fields' names, in order.
    pub fn fields(self) -> impl Iterator<Item = &'static str> + Clone {
        self.typed_fields().iter().map(|(name, _)| *name)
    }

    /// The names of the fields, joined for a message.
    pub fn field_list(self) -> String {
        self.fields().collect::<Vec<_>>().join(", ")
    }

    /// What it is, in words.
    pub fn describe(self) -> &'static str {
        match self {
            RecordKind::Outcome => "an outcome",
            RecordKind::Move => "a move",
            RecordKind::Period => "a period",
            RecordKind::Genus => "a genus",
            RecordKind::Quotient => "a misère quotient",
            RecordKind::Guess => "a guess",
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
    /// A record of `kind` with these values, one per field in the order
    /// [`RecordKind::typed_fields`] declares, each of its field's type;
    /// `None` when they are not (a bug in the report that made them).
    pub fn new(kind: RecordKind, values: Vec<Value>) -> Option<Record> {
        let fields = kind.typed_fields();
        let fit = values.len() == fields.len()
            && fields.iter().zip(&values).all(|((_, t), v)| t.holds(v));
        fit.then_some(Record { kind, values })
    }

    /// The value of a field.
    pub fn get(&self, field: &str) -> Option<&Value> {
        let i = self.kind.fields().position(|f| f == field)?;
        self.values.get(i)
    }
}

impl Value {
    /// A list's elements, in any of its forms (not a range's).
    #[inline]
    pub fn elements(&self) -> Option<Elements<'_>> {
        match self {
            Value::List(xs) => Some(Elements::Values(xs)),
            Value::Ints(xs) => Some(Elements::Ints(xs)),
            Value::Bools(xs) => Some(Elements::Bools(xs)),
            _ => None,
        }
    }

    /// A list of these values, packed when all are integers or all are
    /// booleans.
    pub fn list(xs: Vec<Value>) -> Value {
        let mut b;
        if xs.iter().all(|x| matches!(x, Value::Int(_))) {
            b = ListBuilder::Ints(Vec::with_capacity(xs.len()));
        } else if xs.iter().all(|x| matches!(x, Value::Bool(_))) {
            b = ListBuilder::Bools(Vec::with_capacity(xs.len()));
        } else {
            return Value::List(xs.into());
        }
        for x in xs {
            b.push(x);
        }
        b.finish()
    }

    /// Whether a position occurs in the value (its ids depend on the store).
    pub fn has_pos(&self) -> bool {
        match self {
            Value::Pos(_) => true,
            Value::List(xs) => xs.iter().any(Value::has_pos),
            Value::Dict(d) => d.values().any(Value::has_pos),
            Value::Record(r) => r.values.iter().any(Value::has_pos),
            _ => false,
        }
    }

    /// Whether an ∞ value (a loopy game's) occurs in the value.
    pub fn has_infinite(&self) -> bool {
        match self {
            Value::Infinite(_) => true,
            Value::List(xs) => xs.iter().any(Value::has_infinite),
            Value::Dict(d) => d.values().any(Value::has_infinite),
            _ => false,
        }
    }

    /// An integer of any width, in its one form: [`Value::Int`] when it
    /// fits 64 bits, else [`Value::Wide`].
    pub fn integer(x: crate::ops::Wide) -> Value {
        match x.narrow() {
            Some(v) => Value::Int(v),
            None => Value::Wide(Rc::new(x)),
        }
    }

    /// A short name of the value's type, for error messages.
    pub fn type_name(&self) -> &'static str {
        match self {
            Value::Int(_) | Value::Wide(_) => "an integer",
            Value::Bool(_) => "a boolean",
            Value::Str(_) => "a string",
            Value::List(_) | Value::Ints(_) | Value::Bools(_) => "a list",
            Value::Dict(_) => "a dictionary",
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
            Value::Wide(v) => write!(f, "{v}"),
            Value::Bool(b) => write!(f, "{b}"),
            Value::Str(s) => write!(f, "{s:?}"),
            Value::List(_) | Value::Ints(_) | Value::Bools(_) => {
                let xs = self.elements().unwrap_or(Elements::Values(&[]));
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
            Value::Dict(d) => write!(f, "{d}"),
            Value::Pos(_) => f.write_str("<position>"),
            Value::Record(r) => {
                f.write_str("{")?;
                for (i, (name, v)) in r.kind.fields().zip(&r.values).enumerate() {
                    if i > 0 {
                        f.write_str(", ")?;
                    }
                    write!(f, "{name}: {v}")?;
                }
                f.write_str("}")
            }
            Value::Infinite(k) => write_infinite(f, k),
        }
    }
}

/// Stores `v` in a frame's slot: an integer over an integer in place,
/// without dropping the old value (a loop variable, every step).
#[inline(always)]
pub fn assign(slot: &mut Value, v: Value) {
    match v {
        Value::Int(new) => assign_int(slot, new),
        v => *slot = v,
    }
}

/// [`assign`] of an integer.
#[inline(always)]
pub fn assign_int(slot: &mut Value, v: i64) {
    match slot {
        Value::Int(old) => *old = v,
        slot => *slot = Value::Int(v),
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

/// The characters of a string: its length for `len`, and what indexing
/// counts.
pub fn char_count(s: &str) -> usize {
    if s.is_ascii() {
        s.len()
    } else {
        s.chars().count()
    }
}

/// Lists may nest at most this deep (keeps keys and recursion small).
pub const MAX_LIST_DEPTH: usize = 32;

/// How far a value reaches: how deeply it nests lists (0 for a scalar,
/// capped just above [`MAX_LIST_DEPTH`]) and its size, every element at
/// every level counted as often as it appears, a string by its bytes (what
/// printing it, comparing it or writing it into a key goes through).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Extent {
    /// Lists nested.
    pub depth: usize,
    /// Elements at all levels (a scalar: its own weight).
    pub size: u64,
}

impl Extent {
    /// What the value weighs as an element of a list: itself and, for a
    /// list, everything in it.
    pub fn weight(&self) -> u64 {
        if self.depth == 0 {
            self.size
        } else {
            self.size.saturating_add(1)
        }
    }
}

/// A scalar's weight: a string by its bytes, anything else 1.
fn unit(v: &Value) -> u64 {
    match v {
        Value::Str(s) => (s.len() as u64).max(1),
        _ => 1,
    }
}

/// The [`Extent`] of a value.
///
/// Level by level, each list met once per level however often it is shared,
/// with how often it appears: `[x, x]` for a deep `x` is not walked twice (a
/// tree of shared lists is exponential in its depth, its distinct lists
/// are not).
pub fn extent(v: &Value) -> Extent {
    match v {
        Value::List(xs) => list_extent(xs),
        Value::Ints(xs) => Extent {
            depth: 1,
            size: xs.len() as u64,
        },
        Value::Bools(xs) => Extent {
            depth: 1,
            size: xs.len() as u64,
        },
        // A dictionary weighs as the list of its keys and values.
        Value::Dict(d) => {
            let (mut depth, mut size) = (1, 2 * d.len() as u64);
            for v in d.values() {
                let x = extent(v);
                depth = depth.max(x.depth + 1);
                size = size.saturating_add(x.weight()).saturating_sub(1);
            }
            Extent { depth, size }
        }
        v => Extent {
            depth: 0,
            size: unit(v),
        },
    }
}

/// The [`Extent`] of a list given by its elements.
pub fn list_extent(top: &[Value]) -> Extent {
    let mut level: Vec<(&[Value], u64)> = vec![(top, 1)];
    let mut index = rustc_hash::FxHashMap::default();
    let (mut depth, mut size) = (1, 0u64);
    // The deepest level a packed list reaches.
    let mut deepest = 1;
    loop {
        let mut next: Vec<(&[Value], u64)> = Vec::new();
        index.clear();
        for (xs, count) in level {
            for x in xs {
                size = size.saturating_add(count.saturating_mul(unit(x)));
                if let Some(Elements::Ints(_) | Elements::Bools(_)) = x.elements() {
                    // A packed list: its elements one level down, no deeper.
                    let n = x.elements().map_or(0, Elements::len) as u64;
                    size = size.saturating_add(count.saturating_mul(n));
                    deepest = deepest.max(depth + 1);
                }
                if let Value::List(ys) = x {
                    match index.entry(ys.as_ptr()) {
                        std::collections::hash_map::Entry::Occupied(i) => {
                            let slot: &mut (&[Value], u64) = &mut next[*i.get()];
                            slot.1 = slot.1.saturating_add(count);
                        }
                        std::collections::hash_map::Entry::Vacant(i) => {
                            i.insert(next.len());
                            next.push((ys, count));
                        }
                    }
                }
            }
        }
        if next.is_empty() || depth > MAX_LIST_DEPTH {
            depth = depth.max(deepest.min(MAX_LIST_DEPTH + 1));
            break;
        }
        level = next;
        depth += 1;
    }
    Extent { depth, size }
}

#[cfg(test)]
mod depth_tests {
    use super::*;

    fn list(xs: Vec<Value>) -> Value {
        Value::List(xs.into())
    }

    #[test]
    fn extent_counts_the_deepest_path_and_every_element() {
        assert_eq!(extent(&Value::Int(3)), Extent { depth: 0, size: 1 });
        assert_eq!(extent(&Value::Str("abc".into())).size, 3);
        assert_eq!(extent(&list(vec![])), Extent { depth: 1, size: 0 });
        let a = list(vec![list(vec![Value::Int(1), Value::Int(2)])]);
        // b = [a, [a], "xy"]: a at depth 2 and 3, its inner list at 3 and 4.
        let b = list(vec![
            a.clone(),
            list(vec![a.clone()]),
            Value::Str("xy".into()),
        ]);
        assert_eq!(extent(&a), Extent { depth: 2, size: 3 });
        // 3 at the top, then a, a's list, 1, 2 (twice each) and [a]'s a.
        assert_eq!(
            extent(&b),
            Extent {
                depth: 4,
                size: 3 + 1 + 3 + 3 + 1
            }
        );
    }

    #[test]
    fn shared_lists_are_not_walked_once_per_path() {
        // [x, x] nested 200 deep: 2^200 paths, depth capped above the limit.
        let mut x = list(vec![]);
        for _ in 0..20 {
            x = list(vec![x.clone(), x]);
        }
        assert_eq!(
            extent(&x),
            Extent {
                depth: 21,
                size: (1 << 21) - 2
            }
        );
        for _ in 0..180 {
            x = list(vec![x.clone(), x]);
        }
        assert_eq!(extent(&x).depth, MAX_LIST_DEPTH + 1);
    }
}
