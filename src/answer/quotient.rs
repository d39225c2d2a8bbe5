//! The text of `quotient(G, 0..=N)`: order and P-portion, the presentation,
//! the pretending function ten heaps a row, where the quotient changed,
//! and its period with the proof's reach.

use super::Answer;
use serde::Serialize;
use std::fmt;

/// The pretending function's period.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct QuotientPeriod {
    /// The period.
    pub period: u32,
    /// Its first heap.
    pub preperiod: u32,
    /// Whether every heap on follows it (and the quotient is the game's).
    pub proven: bool,
    /// The heap the proof needs computed (`None`: no proof for this game's
    /// rules, which are not an octal game's).
    pub needs: Option<u32>,
}

pub(super) fn quotient(f: &mut fmt::Formatter<'_>, answer: &Answer) -> fmt::Result {
    let Answer::Quotient {
        game,
        heaps,
        order,
        p_portion,
        presentation,
        pretending,
        changed,
        period,
    } = answer
    else {
        return Ok(());
    };
    writeln!(
        f,
        "misère quotient of {game}(n) for n in 0..={heaps}: order {order}, P = {{{}}}",
        p_portion.join(", ")
    )?;
    writeln!(f, "  Q = {presentation}")?;
    writeln!(f, "  pretending function (n: Φ(n) ...):")?;
    let digits = heaps.to_string().len();
    for (row, chunk) in pretending.chunks(10).enumerate() {
        writeln!(f, "  {:>digits$}: {}", row * 10, chunk.join(" "))?;
    }
    if !changed.is_empty() {
        let list: Vec<String> = changed.iter().map(u32::to_string).collect();
        writeln!(f, "  changed at heaps {}", list.join(", "))?;
    }
    match period {
        None => writeln!(f, "  no period yet"),
        Some(p) => {
            write!(f, "  period {} from heap {}", p.period, p.preperiod)?;
            match (p.proven, p.needs) {
                (true, Some(n)) => writeln!(
                    f,
                    ": proven (heaps to {n} suffice); this is the quotient of every heap"
                ),
                (false, Some(n)) => writeln!(f, ": not proven yet (the proof needs heaps to {n})"),
                _ => writeln!(
                    f,
                    ": not proven (no proof for rules that are not an octal game's)"
                ),
            }
        }
    }
}
