//! What a builtin's entry says: where it may be used, what it takes and
//! gives, how the checker checks it, and, for a function, its function.

use super::Builtin;
use super::host::Host;
use crate::flow::Stop;
use crate::ops::{OpError, Wide};
use crate::value::Value;

/// The play a query asks about: normal (whoever cannot move loses), or
/// misère (whoever cannot move wins), asked with a last argument `misere`
/// of the queries whose signature says so ([`Builtin::has_misere`]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Play {
    #[default]
    Normal,
    Misere,
}

/// What kind of thing a builtin is: where it may be used and what it gives.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// A function of values, usable anywhere.
    Function,
    /// A fold over a generator: `any(c for x in xs)`.
    Generator,
    /// A query whose answer is a value (needs Grundy values: statements only).
    ValueQuery,
    /// A query whose answer is a report (printable only, not a value).
    ReportQuery,
    /// A report that needs no values (`describe`).
    Report,
}

/// What a builtin's argument must be, as the checker checks it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Arg {
    Int,
    Str,
    List,
    /// A list, a string or a dictionary (what has a length).
    Seq,
    /// A dictionary.
    Dict,
    /// A dictionary's key: an integer or a string.
    Key,
    /// A move record (an element of `moves(P)` or `winning(P)`).
    Move,
    /// A position or a sum of positions.
    Pos,
    /// A value that can go in a list (integer, boolean, string, list).
    Data,
    /// Any value but a report.
    Value,
}

/// What a call of a builtin gives.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Gives {
    Int,
    Bool,
    Str,
    List,
    Dict,
    /// A value whose type is known at run time (a dictionary's value).
    Value,
    Pos,
    /// A report, printed (a value only where a query's answer may be).
    Report,
}

/// How the checker checks a call of a builtin.
#[derive(Clone, Copy, Debug)]
pub enum Sig {
    /// Each argument as listed, with the words of a mismatch, and what the
    /// call gives: the checker needs nothing else.
    Args(&'static [(Arg, &'static str)], Gives),
    /// A list, or two or more integers; gives an integer (`min`, `max`).
    ListOrInts,
    /// A position (or a sum), then `misere` for misère play; gives a report.
    Position,
    /// A game first, then a budget (a number); `periodic`: the game has one
    /// integer parameter, or is a section with one free (`period`).
    Game { periodic: bool },
    /// A game of one to three integer parameters, or a section with one to
    /// three free, then a budget (`guess`).
    Formula,
    /// A game and one range or list per parameter ([`Axes`]).
    Axes(Axes),
    /// A position, or a game and its axes as [`Sig::Axes`] (`genus`).
    PositionOrAxes(Axes),
    /// A fold over a generator (`any`, `all`), checked as one.
    Fold,
    /// Not declared: no builtin's entry compiles with it (`Spec::of`).
    Undeclared,
}

/// The arguments of a table query: a game, then one range or list per
/// parameter.
#[derive(Clone, Copy, Debug)]
pub struct Axes {
    /// The most axes.
    pub most: usize,
    /// Exactly two axes (a map).
    pub two: bool,
    /// Whether the game may be a section (`table(G(_, 6), 0..=20)`).
    pub sections: bool,
    /// Whether a last argument `misere` asks of misère play.
    pub misere: bool,
}

/// A builtin that is a function of integers to an integer, and its
/// function: evaluated so wherever it is called (the interpreter, compiled
/// rules, kernels), with nothing else to write for it.
#[derive(Clone, Copy, Debug)]
pub enum Ints {
    One(fn(i64) -> Result<i64, OpError>),
    Two(fn(i64, i64) -> Result<i64, OpError>),
}

/// The same function on integers of any width: what the interpreter
/// calls when an argument, or the result, is wider than 64 bits.
#[derive(Clone, Copy, Debug)]
pub enum WideInts {
    One(fn(&Wide) -> Result<Wide, OpError>),
    Two(fn(&Wide, &Wide) -> Result<Wide, OpError>),
}

/// A builtin that is a function of its arguments' values, each evaluated
/// first (as many as its arity allows: the interpreter makes sure), and its function: the
/// interpreter calls it with the machine it runs on ([`Host`]), with nothing
/// else to write for it.
pub type Values = fn(&[Value], &mut dyn Host) -> Result<Value, Stop>;

/// One builtin.
#[derive(Debug)]
pub struct Spec {
    pub name: &'static str,
    /// `None` for the generator folds (`sum`, `min`, `max` are also
    /// functions; `any` and `all` only folds).
    pub builtin: Option<Builtin>,
    pub kind: Kind,
    /// Least and most arguments.
    pub arity: (usize, usize),
    /// What it takes, in the words of an arity error.
    pub takes: &'static str,
    /// Ways to call it, each with one line on what it gives (`:help`).
    pub help: &'static [(&'static str, &'static str)],
    /// How its arguments are checked and what it gives.
    pub sig: Sig,
    /// Its function, if it is one of integers ([`Ints`]) or of values
    /// ([`Values`]); the others are evaluated by `eval::builtins`.
    pub ints: Option<(Ints, WideInts)>,
    pub values: Option<Values>,
}

pub(super) const ANY: usize = usize::MAX;

pub(super) const fn spec(
    name: &'static str,
    kind: Kind,
    arity: (usize, usize),
    takes: &'static str,
    help: &'static [(&'static str, &'static str)],
) -> Spec {
    Spec {
        name,
        builtin: None,
        kind,
        arity,
        takes,
        help,
        sig: Sig::Undeclared,
        ints: None,
        values: None,
    }
}

impl Spec {
    /// The entry of `builtin`, which must declare its signature (else
    /// the crate does not compile).
    pub(super) const fn of(self, builtin: Builtin) -> Spec {
        assert!(
            !matches!(self.sig, Sig::Undeclared | Sig::Fold),
            "a builtin's entry declares its signature: `.args(...)` or `.sig(...)`"
        );
        Spec {
            builtin: Some(builtin),
            ..self
        }
    }

    /// The entry of a function of integers (its signature, declared with
    /// [`Spec::args`], takes integers and gives one), computed by `f` on
    /// 64 bits and by `wide` on any width.
    pub(super) const fn ints(self, f: Ints, wide: WideInts) -> Spec {
        Spec {
            ints: Some((f, wide)),
            ..self
        }
    }

    /// The entry of a function of values, computed by `f`.
    pub(super) const fn values(self, f: Values) -> Spec {
        Spec {
            values: Some(f),
            ..self
        }
    }

    /// The entry with its signature, when not plain [`Sig::Args`].
    pub(super) const fn sig(self, sig: Sig) -> Spec {
        Spec { sig, ..self }
    }

    /// The entry with its arguments' types and what it gives.
    pub(super) const fn args(self, args: &'static [(Arg, &'static str)], gives: Gives) -> Spec {
        Spec {
            sig: Sig::Args(args, gives),
            ..self
        }
    }
}
