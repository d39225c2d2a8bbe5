//! Why a computation stopped: control flow kept apart from errors.
//!
//! Evaluation answers `R<T>`. An error is the user's to read; an
//! interruption is the user's own doing (Ctrl-C, a time limit) and is not an
//! error; an abort ends speculative work (a fill step, a period search) that
//! its caller replaces by direct computation, and never reaches a user.

use crate::diagnostics::{Code, Diag};
use crate::span::Span;

/// A computation that did not produce its answer.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Stop {
    /// Ctrl-C: what was computed so far is kept.
    Interrupted,
    /// Speculative work gave up; the caller falls back.
    Aborted,
    /// A bound on the statement was reached: which one, and the report.
    Limit(Limit, Diag),
    /// A value was asked of a position that can reach itself (in a game
    /// that is not declared loopy, or a sum searched as a whole).
    Cycle(Diag),
    /// An error to report.
    Error(Diag),
}

/// The bounds a statement runs under.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Limit {
    /// `--time-limit`.
    Time,
    /// `--max-memory`, or memory the machine refused.
    Memory,
    /// `--max-work`: moves and loop values examined.
    Work,
    /// `--max-states`: positions (or sums) stored.
    States,
    /// `--max-depth`, or nesting past a fixed bound.
    Depth,
    /// Work projected to run past the runaway bound.
    Runaway,
}

impl Limit {
    /// The diagnostic code of this limit's report.
    pub fn code(self) -> Code {
        match self {
            Limit::Time => Code::TimeLimit,
            Limit::Memory => Code::MemoryLimit,
            Limit::Work => Code::WorkLimit,
            Limit::States => Code::StateLimit,
            Limit::Depth => Code::DepthLimit,
            Limit::Runaway => Code::Runaway,
        }
    }

    /// The report of this limit, outside a statement's flow (a file larger
    /// than the memory limit).
    pub fn diag(self, message: impl Into<String>) -> Diag {
        Diag::user(self.code(), message)
    }

    /// This limit, reached.
    pub fn stop(self, message: impl Into<String>) -> Stop {
        Stop::Limit(self, self.diag(message))
    }
}

/// The stack the engine runs on (the binary's thread, and each thread that
/// solves boards side by side): deeply nested but legal input must not
/// overflow it.
pub const ENGINE_STACK: usize = 256 << 20;

/// The result of evaluation.
pub type R<T> = Result<T, Stop>;

impl From<Diag> for Stop {
    fn from(d: Diag) -> Stop {
        Stop::Error(d)
    }
}

impl Stop {
    /// A cycle met where a value was asked.
    pub fn cycle(message: impl Into<String>) -> Stop {
        Stop::Cycle(Diag::user(Code::Cycle, message))
    }

    /// The report to show. An abort that escaped its caller is a bug.
    pub fn into_diag(self) -> Diag {
        match self {
            Stop::Error(d) | Stop::Limit(_, d) | Stop::Cycle(d) => d,
            Stop::Interrupted => interrupted_diag(),
            Stop::Aborted => Diag::bug("speculative work was aborted and nothing fell back"),
        }
    }

    /// The same stop, its report (if it has one) changed by `f`: a note or
    /// a label added on the way out.
    pub fn map_diag(self, f: impl FnOnce(Diag) -> Diag) -> Stop {
        match self {
            Stop::Error(d) => Stop::Error(f(d)),
            Stop::Limit(l, d) => Stop::Limit(l, f(d)),
            Stop::Cycle(d) => Stop::Cycle(f(d)),
            other => other,
        }
    }

    /// The same stop with a label on its report.
    pub fn label(self, span: Span, text: impl Into<String>) -> Stop {
        self.map_diag(|d| d.label(span, text))
    }

    /// The same stop with a note on its report.
    pub fn note(self, text: impl Into<String>) -> Stop {
        self.map_diag(|d| d.note(text))
    }

    /// The same stop with a help line on its report.
    pub fn help(self, text: impl Into<String>) -> Stop {
        self.map_diag(|d| d.help(text))
    }

    /// The limit this stop reached, if it is one.
    pub fn limit(&self) -> Option<Limit> {
        match self {
            Stop::Limit(l, _) => Some(*l),
            _ => None,
        }
    }

    /// Whether this ends the statement whatever the work was for: Ctrl-C,
    /// its time or memory limit, or a projection past the runaway bound
    /// (speculative work must pass these on, not fall back).
    pub fn ends_statement(&self) -> bool {
        matches!(
            self,
            Stop::Interrupted | Stop::Limit(Limit::Time | Limit::Memory | Limit::Runaway, _)
        )
    }
}

/// The report of a computation stopped by Ctrl-C.
pub fn interrupted_diag() -> Diag {
    Diag::user(Code::Interrupted, "interrupted").help(
        "the values computed so far are kept: asking again goes on from there (a loopy \
             game's graph being solved is not kept: it starts over)",
    )
}
