//! The moves of a sum as the engine finds them, rows of ids and values:
//! each component (copies each with its own index), each distinct option
//! and the value of the whole sum after it; in misère play, the winning
//! ones. Queries above the engine (`crate::report`) turn them into answers
//! and values.

use super::*;
use crate::solve::analysis::HugeMove;
use crate::value::Gsg;
use std::collections::{HashMap, HashSet};

/// One move of a sum: which component moves, and what it becomes.
#[derive(Clone)]
pub struct Row {
    pub component: usize,
    pub from: PosId,
    pub to: To,
    /// The value of the whole sum after the move.
    pub grundy: Gsg,
}

/// What a component becomes.
#[derive(Clone)]
pub enum To {
    /// This sum of positions.
    Sum(Vec<PosId>),
    /// A group of a huge heap's moves: what the heap becomes and the
    /// change, in words, and how many moves.
    Group {
        to: String,
        change: String,
        count: u64,
    },
}

/// Every move of a sum: each component (identical ones each with its own
/// index), each distinct option; and how many moves they stand for (a group
/// of a huge heap's splits is many moves).
pub fn move_rows(m: &mut Machine, parts: &[PosId]) -> R<(Vec<Row>, u64)> {
    let mut moves: Vec<Row> = Vec::new();
    // How many moves each component has.
    let mut counts = vec![0u64; parts.len()];
    // The value of the other components, for each: sums of the values
    // before it and after it (no inverse of ∞ to take a component's own
    // value out of the whole), so a sum of many is linear, not quadratic.
    let mut values = Vec::with_capacity(parts.len());
    for &d in parts {
        m.poll()?;
        values.push(m.gsg(d)?);
    }
    let mut after = vec![Gsg::Finite(0); parts.len() + 1];
    for (j, v) in values.iter().enumerate().rev() {
        after[j] = after[j + 1].sum(v);
    }
    let mut before = Gsg::Finite(0);
    // A component's first index and its rows, for copies of it.
    let mut first: HashMap<PosId, (usize, std::ops::Range<usize>)> = HashMap::new();
    for (i, &c) in parts.iter().enumerate() {
        m.poll()?;
        let others = before.sum(&after[i + 1]);
        before = before.sum(&values[i]);
        // A component seen before moves as that one did.
        if let Some((j, range)) = first.get(&c).cloned() {
            let same: Vec<Row> = moves[range].to_vec();
            moves.extend(same.into_iter().map(|mv| Row { component: i, ..mv }));
            counts[i] = counts[j];
            continue;
        }
        let start = moves.len();
        let result = component_rows(m, i, c, &others, &mut moves);
        first.insert(c, (i, start..moves.len()));
        counts[i] = result?;
    }
    Ok((moves, counts.iter().fold(0u64, |a, &b| a.saturating_add(b))))
}

/// The moves of component `i`, `c`, of a sum whose other components are
/// worth `others`, appended to `moves`; how many there are.
fn component_rows(
    m: &mut Machine,
    i: usize,
    c: PosId,
    others: &Gsg,
    moves: &mut Vec<Row>,
) -> R<u64> {
    let mut count = 0u64;
    // A huge heap of a game with a proven period: its moves by family,
    // splits grouped by residue.
    if let Some(groups) = crate::solve::analysis::huge_moves(&mut m.oracle(), c)? {
        for g in groups {
            let (to, value, n) = match g {
                HugeMove::One(to) => {
                    let v = m.gsg_sum(&to)?;
                    (To::Sum(to), v, 1)
                }
                HugeMove::Group {
                    to,
                    change,
                    value,
                    count,
                } => (To::Group { to, change, count }, Gsg::Finite(value), count),
            };
            count = count.saturating_add(n);
            moves.push(Row {
                component: i,
                from: c,
                to,
                grundy: others.sum(&value),
            });
        }
        return Ok(count);
    }
    let mut seen = HashSet::new();
    // Exact: the moves become records, values a statement may keep and
    // play in misère play.
    let mut options = crate::oracle::Moves::exact();
    m.options_into(c, &mut options)?;
    for opt in options.iter() {
        m.poll()?;
        let mut canon = opt.to_vec();
        canon.sort_unstable();
        if !seen.insert(canon) {
            continue;
        }
        let after = others.sum(&m.gsg_sum(opt)?);
        count += 1;
        moves.push(Row {
            component: i,
            from: c,
            to: To::Sum(opt.to_vec()),
            grundy: after,
        });
    }
    Ok(count)
}

/// The winning moves of a sum in misère play (to a misère value of 0),
/// every component that makes one with its own index; how many options
/// the sum has; and its misère value.
pub fn misere_rows(
    m: &mut Machine,
    parts: &[PosId],
) -> R<(Vec<Row>, usize, crate::value::Outcome)> {
    let (moves, options, value) = m.with_misere(|ms, m| ms.winning(m, parts))?;
    let mut rows = Vec::new();
    for (from, to) in moves {
        for (component, _) in parts.iter().enumerate().filter(|(_, c)| **c == from) {
            rows.push(Row {
                component,
                from,
                to: To::Sum(to.clone()),
                grundy: Gsg::Finite(0),
            });
        }
    }
    rows.sort_by_key(|r| r.component);
    Ok((rows, options, value))
}
