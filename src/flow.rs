//! Why a computation stopped: control flow kept apart from errors.
//!
//! Evaluation answers `R<T>`. An error is the user's to read; an
//! interruption is the user's own doing (Ctrl-C, a time limit) and is not an
//! error; an abort ends speculative work (a fill step, a period search) that
//! its caller replaces by direct computation, and never reaches a user.

use crate::diagnostics::{Code, Diag};

/// A computation that did not produce its answer.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Stop {
    /// Ctrl-C: what was computed so far is kept.
    Interrupted,
    /// Speculative work gave up; the caller falls back.
    Aborted,
    /// An error to report.
    Error(Diag),
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
    /// The report to show. An abort that escaped its caller is a bug.
    pub fn into_diag(self) -> Diag {
        match self {
            Stop::Error(d) => d,
            Stop::Interrupted => interrupted_diag(),
            Stop::Aborted => Diag::bug("speculative work was aborted and nothing fell back"),
        }
    }

    /// The same stop, its diagnostic (if an error) changed by `f`: a note or
    /// a label added on the way out.
    pub fn map_diag(self, f: impl FnOnce(Diag) -> Diag) -> Stop {
        match self {
            Stop::Error(d) => Stop::Error(f(d)),
            other => other,
        }
    }

    /// Whether this ends the statement whatever the work was for: Ctrl-C,
    /// its time or memory limit, or a projection past the runaway bound
    /// (speculative work must pass these on, not fall back).
    pub fn ends_statement(&self) -> bool {
        *self == Stop::Interrupted
            || self.is(Code::TimeLimit)
            || self.is(Code::MemoryLimit)
            || self.is(Code::Runaway)
    }

    /// Whether this stop is an error with the given code.
    pub fn is(&self, code: Code) -> bool {
        matches!(self, Stop::Error(d) if d.code == code)
    }
}

/// The report of a computation stopped by Ctrl-C.
pub fn interrupted_diag() -> Diag {
    Diag::user(Code::Interrupted, "interrupted").help(
        "the values computed so far are kept: asking again goes on from there (a loopy \
             game's graph being solved is not kept: it starts over)",
    )
}
