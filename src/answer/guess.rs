//! The text of `guess(G)`: the formula with the points it fits and the
//! `check` statement to paste, or which sizes were searched in vain.

use super::Answer;
use serde::Serialize;
use std::fmt;

/// A formula `guess` found.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct GuessFound {
    /// The formula as the language writes it.
    pub formula: String,
    /// What it gives: `values` (the Grundy values) or `ppositions` (true
    /// exactly at the P-positions).
    pub gives: String,
    /// Its size: names, numbers and operators.
    pub size: u64,
    /// The `check` statement that tests it.
    pub statement: String,
}

pub(super) fn guess(f: &mut fmt::Formatter<'_>, answer: &Answer) -> fmt::Result {
    let Answer::Guess {
        game,
        call,
        points,
        found,
        searched,
        tried,
    } = answer
    else {
        return Ok(());
    };
    match found {
        Some(g) => {
            let says = match g.gives.as_str() {
                "values" => format!("grundy({call}) == {}", g.formula),
                _ => format!("grundy({call}) == 0 exactly when {}", g.formula),
            };
            writeln!(
                f,
                "guess for {game}: {says} for {points} (size {}; a guess, not a proof)",
                g.size
            )?;
            writeln!(f, "  {}", g.statement)
        }
        None => writeln!(
            f,
            "guess for {game}: none found among formulas of size up to {searched} ({} built) \
             for {points}",
            crate::progress::grouped(*tried)
        ),
    }
}
