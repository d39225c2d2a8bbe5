//! `outcome(P)`, and `print P`: who wins, as a report and as a record, in
//! normal or misère play.

use super::*;

pub(super) const QUERY: Query = Query { answer, value };

/// `print outcome(P)` and `print outcome(P, misere)`.
fn answer(m: &mut Machine, q: &Asked<'_>, env: &mut [Value]) -> R<Answer> {
    let parts = m.interp().eval_sum(q.args[0], env)?;
    if q.play == Play::Normal {
        return outcome(m, &parts);
    }
    let position = pos_data(m, &parts);
    let (outcome, found) = m
        .with_misere(|ms, m| ms.outcome_of(m, &parts))
        .map_err(|d| at(d, m.program().span(q.args[0])))?;
    Ok(Answer::MisereOutcome {
        position,
        outcome,
        found: found.words().to_string(),
    })
}

/// `outcome(P)` as a record: `{position, grundy, outcome, first_wins}`.
fn value(m: &mut Machine, q: &Asked<'_>, env: &mut [Value]) -> R<Value> {
    let parts = m.interp().eval_sum(q.args[0], env)?;
    let grundy = if q.play == Play::Normal {
        m.gsg_sum(&parts)?
    } else {
        m.with_misere(|ms, m| ms.gsg_of(m, &parts))
            .map_err(|d| at(d, q.span))?
            .0
    };
    let outcome = Outcome::of_value(&grundy);
    let letter = match outcome {
        Outcome::N => "N",
        Outcome::P => "P",
        Outcome::D => "D",
    };
    record(
        RecordKind::Outcome,
        vec![
            Value::Pos(parts.into()),
            Value::from(grundy),
            Value::Str(letter.into()),
            Value::Bool(outcome == Outcome::N),
        ],
    )
}

/// `outcome(P)` and `print P`: who wins, and for a loopy game's won or
/// lost position, within how many moves the game ends.
pub fn outcome(m: &mut Machine, parts: &[PosId]) -> R<Answer> {
    if let [root] = parts
        && let Some(p) = marked::outcome(m, *root)?
    {
        return Ok(Answer::Outcome {
            position: pos_data(m, parts),
            outcome: if p { Outcome::P } else { Outcome::N },
            grundy: None,
            ends_within: None,
        });
    }
    let grundy = m.gsg_sum(parts)?;
    let outcome = Outcome::of_value(&grundy);
    let ends_within = match (parts, outcome) {
        ([root], Outcome::N | Outcome::P) => m
            .oracle()
            .remoteness(*root)?
            .and_then(|remote| remote.get(root).copied().flatten())
            .map(|(_, r)| r),
        _ => None,
    };
    Ok(Answer::Outcome {
        position: pos_data(m, parts),
        outcome,
        grundy: Some(grundy),
        ends_within,
    })
}
