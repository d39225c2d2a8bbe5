//! Dictionaries: keys (integers or strings) to values, with O(1) expected
//! lookups. Immutable as values are; `insert` of a dictionary nobody else
//! holds (a fold's accumulator) writes in place.

use super::Value;
use rustc_hash::FxHashMap;
use std::fmt;
use std::rc::Rc;

/// A dictionary's key.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Key {
    /// An integer (integers come before strings in key order).
    Int(i64),
    /// A string.
    Str(Rc<str>),
}

impl Key {
    /// The key a value is, if it is one.
    pub fn of(v: &Value) -> Option<Key> {
        match v {
            Value::Int(x) => Some(Key::Int(*x)),
            Value::Str(s) => Some(Key::Str(Rc::clone(s))),
            _ => None,
        }
    }

    /// The key as a value.
    pub fn value(&self) -> Value {
        match self {
            Key::Int(x) => Value::Int(*x),
            Key::Str(s) => Value::Str(Rc::clone(s)),
        }
    }
}

impl fmt::Display for Key {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Key::Int(x) => write!(f, "{x}"),
            Key::Str(s) => write!(f, "{s:?}"),
        }
    }
}

/// A dictionary.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Dict {
    entries: FxHashMap<Key, Value>,
}

impl Dict {
    /// The value of a key.
    #[inline]
    pub fn get(&self, k: &Key) -> Option<&Value> {
        self.entries.get(k)
    }

    /// Sets a key's value.
    #[inline]
    pub fn insert(&mut self, k: Key, v: Value) {
        self.entries.insert(k, v);
    }

    /// How many keys.
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// Whether there is none.
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// The entries in key order (integers ascending, then strings).
    pub fn sorted(&self) -> Vec<(&Key, &Value)> {
        let mut all: Vec<_> = self.entries.iter().collect();
        all.sort_unstable_by(|a, b| a.0.cmp(b.0));
        all
    }

    /// The values, as a dictionary's share of a list's limit.
    pub fn values(&self) -> impl Iterator<Item = &Value> {
        self.entries.values()
    }
}

impl fmt::Display for Dict {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("{")?;
        for (i, (k, v)) in self.sorted().into_iter().enumerate() {
            if i > 0 {
                f.write_str(", ")?;
            }
            write!(f, "{k}: {v}")?;
        }
        f.write_str("}")
    }
}
