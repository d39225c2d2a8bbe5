//! `quotient(G, 0..=N)`: the misère quotient of a game's heaps, as a
//! report and as a record.

use super::record;
use super::{Query, at, game_arg};
use crate::answer::{Answer, QuotientPeriod};
use crate::diagnostics::{Code, Diag};
use crate::eval::{Machine, R};
use crate::ir::ExprId;
use crate::value::{RecordKind, Value};

/// The most heaps a quotient query may ask for.
const MAX_HEAPS: i64 = 1 << 16;

/// What the query answers, whether printed or used as a value.
fn compute(m: &mut Machine, args: &[ExprId], env: &mut [Value]) -> R<Answer> {
    let game = game_arg(m, args)?;
    let span = m.program().span(args[1]);
    let xs = m.interp().eval_axis(args[1], env)?;
    let top = match xs.iter().max() {
        Some(&n) if (0..=MAX_HEAPS).contains(&n) => n as u32,
        Some(&n) if n > MAX_HEAPS => {
            return Err(Diag::user(
                Code::TooLarge,
                format!("a quotient of heaps up to {n} is too large to compute heap by heap"),
            )
            .label(span, "these heaps")
            .help(format!(
                "ask for heaps up to {MAX_HEAPS} at most: a proven period covers every heap beyond"
            ))
            .into());
        }
        _ => {
            return Err(
                Diag::user(Code::NotSupported, "a quotient needs heaps 0..=N, N ≥ 0")
                    .label(span, "no heap here")
                    .help("write e.g. `quotient(G, 0..=30)`")
                    .into(),
            );
        }
    };
    let name = m.program().games[game.index()].name.clone();
    m.with_misere(|ms, o| {
        ms.with_quotient(o, game, top, |h| {
            let q = &h.q;
            let names = q.names();
            // Heaps past the proven period's proof are the period's.
            let all: Vec<i64> = (0..=i64::from(top)).collect();
            let phi = h.elements(&all).unwrap_or_else(|| q.phi().to_vec());
            Answer::Quotient {
                game: name,
                heaps: phi.len().saturating_sub(1) as u32,
                order: q.order(),
                p_portion: q.p_names(),
                presentation: q.presentation(),
                pretending: phi.iter().map(|&x| names[x as usize].clone()).collect(),
                changed: q.expansions.clone(),
                period: h.period().map(|p| QuotientPeriod {
                    period: p.period,
                    preperiod: p.from,
                    proven: p.proven(),
                    needs: p.needs,
                }),
            }
        })
    })
    .map_err(|d| at(d, span))
}

/// `print quotient(G, 0..=N)`, and its value.
pub(super) const QUERY: Query = Query {
    answer: |m, q, env| compute(m, q.args, env),
    value: |m, q, env| value(m, q.args, env),
};

/// `quotient(G, 0..=N)` as a record: `heaps`, `order`, `p_portion`,
/// `presentation`, `pretending`, `changed`, `period` and `preperiod` (0 and
/// 0 for none), `proven`.
fn value(m: &mut Machine, args: &[ExprId], env: &mut [Value]) -> R<Value> {
    let Answer::Quotient {
        heaps,
        order,
        p_portion,
        presentation,
        pretending,
        changed,
        period,
        ..
    } = compute(m, args, env)?
    else {
        return Err(Diag::bug("a quotient query answered something else").into());
    };
    let strs = |xs: Vec<String>| {
        Value::List(
            xs.into_iter()
                .map(|s| Value::Str(s.into()))
                .collect::<Vec<_>>()
                .into(),
        )
    };
    let (p, from, proven) = period.map_or((0, 0, false), |p| (p.period, p.preperiod, p.proven));
    record(
        RecordKind::Quotient,
        vec![
            Value::Int(i64::from(heaps)),
            Value::Int(order as i64),
            strs(p_portion),
            Value::Str(presentation.into()),
            strs(pretending),
            Value::List(
                changed
                    .into_iter()
                    .map(|h| Value::Int(i64::from(h)))
                    .collect::<Vec<_>>()
                    .into(),
            ),
            Value::Int(i64::from(p)),
            Value::Int(i64::from(from)),
            Value::Bool(proven),
        ],
    )
}
