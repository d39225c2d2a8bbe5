//! `genus(P)` and `genus(G, xs[, ys])`: misère genera, as a report and as
//! values.

use super::{Query, at, game_arg, pos_data, push_counted, record};
use crate::answer::Answer;
use crate::diagnostics::Diag;
use crate::eval::{Machine, R};
use crate::ir::{self, ExprId};
use crate::solve::genus::Genus;
use crate::store::PosId;
use crate::value::{RecordKind, Value};

pub(super) const QUERY: Query = Query {
    answer: |m, q, env| genus_answer(m, q.args, env),
    value: |m, q, env| genus_value(m, q.args, env),
};

/// `print genus(P)` and `print genus(G, xs[, ys])`.
fn genus_answer(m: &mut Machine, args: &[ExprId], env: &mut [Value]) -> R<Answer> {
    if let [p] = args {
        let (parts, g, tame, found) = genus(m, *p, env)?;
        return Ok(Answer::Genus {
            position: pos_data(m, &parts),
            genus: g.to_string(),
            grundy: g.g,
            misere: g.misere(),
            tame,
            found: found.words().to_string(),
        });
    }
    let (game, axes, genera) = genera(m, args, env)?;
    let g = &m.program().games[game.index()];
    Ok(Answer::Genera {
        game: g.name.clone(),
        params: g.params.clone(),
        axes,
        genera: genera.iter().map(ToString::to_string).collect(),
    })
}

/// `genus(P)` as a value (a record) and `genus(G, xs[, ys])` (a list of
/// the genera as text, a list per row for two axes).
fn genus_value(m: &mut Machine, args: &[ExprId], env: &mut [Value]) -> R<Value> {
    let list = |xs: Vec<Value>| Value::List(xs.into());
    if let [p] = args {
        let (parts, g, tame, _) = genus(m, *p, env)?;
        let sup = g.sup.iter().map(|&d| Value::Int(i64::from(d))).collect();
        return record(
            RecordKind::Genus,
            vec![
                Value::Pos(parts.into()),
                Value::Str(g.to_string().into()),
                Value::Int(i64::from(g.g)),
                Value::Int(i64::from(g.misere())),
                list(sup),
                Value::Bool(tame),
            ],
        );
    }
    let (_, axes, genera) = genera(m, args, env)?;
    let text: Vec<Value> = genera
        .iter()
        .map(|g| Value::Str(g.to_string().into()))
        .collect();
    Ok(match &axes[..] {
        [_, cols] if !cols.is_empty() => list(
            text.chunks(cols.len())
                .map(|row| list(row.to_vec()))
                .collect(),
        ),
        [rows, _] => list(vec![list(Vec::new()); rows.len()]),
        _ => list(text),
    })
}

/// `genus(P)`: the position's components, its genus, whether it is tame
/// and how it was found.
fn genus(
    m: &mut Machine,
    arg: ExprId,
    env: &mut [Value],
) -> R<(Vec<PosId>, Genus, bool, crate::solve::misere::Way)> {
    let parts = m.interp().eval_sum(arg, env)?;
    let span = m.program().span(arg);
    let (g, tame, found) = m
        .with_misere(|ms, m| ms.genus_of(m, &parts))
        .map_err(|d| at(d, span))?;
    Ok((parts, g, tame, found))
}

/// `genus(G, xs[, ys])`: the game, its axes and the genera of its
/// positions (the last axis fastest).
fn genera(
    m: &mut Machine,
    args: &[ExprId],
    env: &mut [Value],
) -> R<(ir::GameId, Vec<Vec<i64>>, Vec<Genus>)> {
    let game = game_arg(m, args)?;
    let span = m.program().span(args[0]);
    let mut axes = Vec::new();
    for &a in &args[1..] {
        axes.push(m.interp().eval_axis(a, env)?);
    }
    let points: Vec<Vec<i64>> = match &axes[..] {
        [xs] => xs.iter().map(|&x| vec![x]).collect(),
        [rows, cols] => rows
            .iter()
            .flat_map(|&r| cols.iter().map(move |&c| vec![r, c]))
            .collect(),
        _ => return Err(Diag::bug("a table with other than one or two axes").into()),
    };
    let mut out = Vec::new();
    for xs in points {
        let vals: Vec<Value> = xs.iter().map(|x| Value::Int(*x)).collect();
        let p = m.intern(game, &vals, span)?;
        let (g, _, _) = m
            .with_misere(|ms, m| ms.genus_of(m, &[p]))
            .map_err(|d| at(d, span))?;
        push_counted(m, &mut out, g)?;
    }
    Ok((game, axes, out))
}
