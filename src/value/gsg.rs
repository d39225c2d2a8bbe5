//! A game's value where play may go on forever: the generalized
//! Sprague–Grundy value (finite, or ∞ with the finite values of its
//! options) and who wins with it.

use std::fmt;
use std::rc::Rc;

/// A generalized Sprague–Grundy value.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Gsg {
    Finite(u32),
    /// ∞ with the finite values of the options, ascending.
    Infinite(Rc<[u32]>),
}

/// Who wins with the player to move (serialized as its letter).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize)]
pub enum Outcome {
    /// The player to move wins (N: a non-zero value, or ∞ with 0 in K).
    N,
    /// The player who just moved wins (P: value zero).
    P,
    /// Neither can force a win: play goes on forever (D, loopy games only).
    D,
}

impl Gsg {
    /// The value of the sum of two games: a ⊕ b for finite values,
    /// ∞(K ⊕ a) with one ∞, ∞(∅) with two (Smith's theorem).
    pub fn sum(&self, other: &Gsg) -> Gsg {
        match (self, other) {
            (Gsg::Finite(a), Gsg::Finite(b)) => Gsg::Finite(a ^ b),
            (Gsg::Finite(a), Gsg::Infinite(k)) | (Gsg::Infinite(k), Gsg::Finite(a)) => {
                let mut k: Vec<u32> = k.iter().map(|v| v ^ a).collect();
                k.sort_unstable();
                Gsg::Infinite(k.into())
            }
            (Gsg::Infinite(_), Gsg::Infinite(_)) => Gsg::Infinite(Rc::from([])),
        }
    }

    /// Who wins: 0 loses, another finite value wins; ∞ wins when it can
    /// move to 0, else it draws.
    pub fn outcome(&self) -> Outcome {
        match self {
            Gsg::Finite(0) => Outcome::P,
            Gsg::Finite(_) => Outcome::N,
            Gsg::Infinite(k) if k.first() == Some(&0) => Outcome::N,
            Gsg::Infinite(_) => Outcome::D,
        }
    }

    /// The finite value, if it is one.
    pub fn finite(&self) -> Option<u32> {
        match self {
            Gsg::Finite(v) => Some(*v),
            Gsg::Infinite(_) => None,
        }
    }
}

/// A finite value equals its integer (tables compare with plain values).
/// A value as the language's: finite ones are integers.
impl From<Gsg> for super::Value {
    fn from(g: Gsg) -> super::Value {
        match g {
            Gsg::Finite(v) => super::Value::Int(i64::from(v)),
            Gsg::Infinite(k) => super::Value::Infinite(k),
        }
    }
}

impl PartialEq<u32> for Gsg {
    fn eq(&self, other: &u32) -> bool {
        *self == Gsg::Finite(*other)
    }
}

impl fmt::Display for Gsg {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Gsg::Finite(v) => write!(f, "{v}"),
            Gsg::Infinite(k) => write_infinite(f, k),
        }
    }
}

/// Writes ∞ with its set K: `∞{0, 2}`.
pub fn write_infinite(f: &mut impl fmt::Write, k: &[u32]) -> fmt::Result {
    f.write_str("∞{")?;
    for (i, v) in k.iter().enumerate() {
        if i > 0 {
            f.write_str(", ")?;
        }
        write!(f, "{v}")?;
    }
    f.write_str("}")
}
