//! Misère play's plan: the ways a sum is answered, in one order, each
//! answering what it can or declining.
//!
//! Asked of a sum, in this order: Nim heaps too large to list (their
//! winning moves by the tame rule), the game's misère quotient (outcomes
//! and winning moves of heaps of one octal game), the graph of the sums a
//! loopy game's position reaches, and the genus, which always answers.

use super::{Misere, State, Way};
use crate::diagnostics::Diag;
use crate::flow::R;
use crate::oracle::Oracle;
use crate::store::PosId;
use crate::value::{Gsg, Outcome};

/// A way of answering misère play.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Method {
    /// Tame sums with a Nim heap too large to list: winning moves only.
    HugeNim,
    /// Heaps of one game from its misère quotient: outcomes and winning
    /// moves, not values.
    Quotient,
    /// A loopy game's sums: the graph they reach, labelled.
    Graph,
    /// The genus, from the components' genera or by search: always answers.
    Genus,
}

/// The order the ways are asked in: the one place it is written.
pub(super) const PLAN: [Method; 4] = [
    Method::HugeNim,
    Method::Quotient,
    Method::Graph,
    Method::Genus,
];

/// What is asked of a sum.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Question {
    /// Who wins.
    Outcome,
    /// Its misère value (∞ where play may go on forever).
    Value,
    /// Its winning moves.
    Winning,
}

/// The winning moves of a sum (each the component that moved and what it
/// became), how many moves it has, and its outcome.
pub type Winning = (Vec<(PosId, Vec<PosId>)>, usize, Outcome);

/// An answer to a [`Question`].
pub(super) enum Reply {
    Outcome(Outcome, Way),
    Value(Gsg, Way),
    Winning(Winning),
}

impl Misere {
    /// Asks the plan's ways in order until one answers `q` for the sum of
    /// `parts`.
    pub(super) fn ask(&mut self, m: &mut dyn Oracle, parts: &[PosId], q: Question) -> R<Reply> {
        // The sum as a state, made once, when a way first needs it.
        let mut state = None;
        for s in PLAN {
            if let Some(a) = self.by(s, m, parts, &mut state, q)? {
                return Ok(a);
            }
        }
        Err(Diag::bug("no misère way answered, the genus included").into())
    }

    /// `q` for the sum of `parts` by the way `s`; `None` where it does not
    /// answer.
    fn by(
        &mut self,
        s: Method,
        m: &mut dyn Oracle,
        parts: &[PosId],
        state: &mut Option<State>,
        q: Question,
    ) -> R<Option<Reply>> {
        let mut state_of = |this: &mut Misere, m: &mut dyn Oracle| -> R<State> {
            if let Some(s) = state {
                return Ok(s.clone());
            }
            let s = this.state(m, parts)?;
            *state = Some(s.clone());
            Ok(s)
        };
        match (s, q) {
            (Method::HugeNim, Question::Winning) => {
                let state = state_of(self, m)?;
                let Some((moves, count)) = self.huge_nim_winning(m, &state)? else {
                    return Ok(None);
                };
                let value = self.value(m, state)?;
                let outcome = Gsg::Finite(value).outcome();
                Ok(Some(Reply::Winning((moves, count, outcome))))
            }
            (Method::HugeNim, _) => Ok(None),
            (Method::Quotient, Question::Outcome) => {
                Ok(self.quotient_loses(m, parts)?.map(|loses| {
                    Reply::Outcome(if loses { Outcome::P } else { Outcome::N }, Way::Quotient)
                }))
            }
            (Method::Quotient, Question::Winning) => {
                Ok(self
                    .quotient_winning(m, parts)?
                    .map(|(moves, count, loses)| {
                        let outcome = if loses { Outcome::P } else { Outcome::N };
                        Reply::Winning((moves, count, outcome))
                    }))
            }
            (Method::Quotient, Question::Value) => Ok(None),
            (Method::Graph, q) => {
                let state = state_of(self, m)?;
                if !Misere::has_loopy(m, &state) {
                    return Ok(None);
                }
                // A sum's options are listed before its value is sought.
                let options = match q {
                    Question::Winning => self.options(m, &state)?,
                    _ => Vec::new(),
                };
                let solved = self.solve_loopy(m, &state)?;
                let value = solved.value(&state)?;
                Ok(Some(match q {
                    Question::Outcome => Reply::Outcome(value.outcome(), Way::Graph),
                    Question::Value => Reply::Value(value, Way::Graph),
                    Question::Winning => {
                        let mut out = Vec::new();
                        for (from, to, next) in &options {
                            if solved.value(next)? == 0 {
                                out.push((*from, to.clone()));
                            }
                        }
                        Reply::Winning((out, options.len(), value.outcome()))
                    }
                }))
            }
            (Method::Genus, q) => {
                let state = state_of(self, m)?;
                let options = match q {
                    Question::Winning => self.options(m, &state)?,
                    _ => Vec::new(),
                };
                let value = Gsg::Finite(self.value(m, state.clone())?);
                Ok(Some(match q {
                    Question::Outcome => Reply::Outcome(value.outcome(), self.found(m, &state)?),
                    Question::Value => Reply::Value(value, self.found(m, &state)?),
                    Question::Winning => {
                        let mut out = Vec::new();
                        for (from, to, next) in &options {
                            if !self.next_wins(m, next)? {
                                out.push((*from, to.clone()));
                            }
                        }
                        Reply::Winning((out, options.len(), value.outcome()))
                    }
                }))
            }
        }
    }
}
