//! `moves(P)` and `winning(P)`: a position's moves, or its winning ones,
//! as a report and as move records, in normal or misère play.

use super::*;

pub(super) const QUERY: Query = Query { answer, value };

/// `print moves(P)`, `print winning(P)` and `print winning(P, misere)`.
fn answer(m: &mut Machine, q: &Asked<'_>, env: &mut [Value]) -> R<Answer> {
    let parts = m.interp().eval_sum(q.args[0], env)?;
    if !misere_winning(q) {
        return moves(m, q.f, parts);
    }
    let (rows, options, outcome) =
        misere_rows(m, &parts).map_err(|d| at(d, m.program().span(q.args[0])))?;
    Ok(Answer::MisereWinning {
        position: pos_data(m, &parts),
        components: parts.len(),
        moves: shown(m, rows),
        options,
        outcome,
    })
}

/// The moves as a list of move records: `{component, before, after,
/// change, grundy}`.
fn value(m: &mut Machine, q: &Asked<'_>, env: &mut [Value]) -> R<Value> {
    let list = |xs: Vec<Value>| Value::List(xs.into());
    let parts = m.interp().eval_sum(q.args[0], env)?;
    if misere_winning(q) {
        let (rows, _, _) = misere_rows(m, &parts).map_err(|d| at(d, q.span))?;
        let mut out = Vec::new();
        for r in rows {
            if let To::Sum(to) = r.to {
                out.push(move_record(m, r.component, r.from, to, Gsg::Finite(0))?);
            }
        }
        return Ok(list(out));
    }
    let total = m.gsg_sum(&parts)?;
    let (mut rows, _) = move_rows(m, &parts)?;
    if q.f == Builtin::Winning {
        winning(m, &parts, &total, &mut rows)?;
    }
    let mut out = Vec::new();
    for r in rows {
        match r.to {
            To::Sum(to) => out.push(move_record(m, r.component, r.from, to, r.grundy)?),
            To::Group { count: n, .. } => {
                return Err(Diag::user(
                    Code::ListLimit,
                    "the moves of a heap this large are only listed in groups",
                )
                .label(q.span, format!("a group of {n} moves"))
                .help("print the query to see its moves grouped by residue")
                .into());
            }
        }
    }
    Ok(list(out))
}

/// `moves(P)` and `winning(P)` in normal play.
fn moves(m: &mut Machine, f: Builtin, parts: Vec<PosId>) -> R<Answer> {
    let grundy = m.gsg_sum(&parts)?;
    let (mut rows, options) = move_rows(m, &parts)?;
    let mut ends_within = None;
    if f == Builtin::Winning {
        ends_within = winning(m, &parts, &grundy, &mut rows)?;
    }
    let moves = shown(m, rows);
    let position = pos_data(m, &parts);
    Ok(if f == Builtin::Moves {
        Answer::Moves {
            position,
            components: parts.len(),
            grundy,
            moves,
        }
    } else {
        Answer::Winning {
            position,
            components: parts.len(),
            grundy,
            moves,
            options,
            ends_within,
        }
    })
}

/// Whether the call is `winning(P, misere)`: misère play's winning moves.
fn misere_winning(q: &Asked<'_>) -> bool {
    q.f == Builtin::Winning && q.play == Play::Misere
}

/// Keeps of a sum's moves (its value `total`) the winning ones: to a loss
/// for the other player; from a draw, to a draw; alone in a loopy game,
/// nearer the end. The moves within which the game then ends.
fn winning(m: &mut Machine, parts: &[PosId], total: &Gsg, rows: &mut Vec<Row>) -> R<Option<u32>> {
    let want = match Outcome::of_value(total) {
        Outcome::D => Outcome::D,
        _ => Outcome::P,
    };
    rows.retain(|r| Outcome::of_value(&r.grundy) == want);
    fastest(m, parts, rows)
}

/// From a won position of a loopy game played alone, only the winning moves
/// that make progress: to a loss one move nearer the end (a move to any
/// loss could go round a cycle for ever, a draw). Keeps those of `rows`;
/// the moves within which the game then ends.
fn fastest(m: &mut Machine, parts: &[PosId], rows: &mut Vec<Row>) -> R<Option<u32>> {
    let [root] = parts else {
        return Ok(None);
    };
    let mut oracle = m.oracle();
    let Some(remote) = oracle.remoteness(*root)? else {
        return Ok(None);
    };
    let Some(Some((true, r))) = remote.get(root).copied() else {
        return Ok(None);
    };
    rows.retain(|row| match &row.to {
        To::Sum(to) => match to.as_slice() {
            [] => r == 1,
            [c] => remote.get(c).copied().flatten() == Some((false, r - 1)),
            _ => false,
        },
        To::Group { .. } => false,
    });
    Ok(Some(r))
}

/// Moves as `print` shows them.
fn shown(m: &Machine, rows: Vec<Row>) -> Vec<Move> {
    let moves: Vec<Move> = rows
        .into_iter()
        .map(|r| {
            let from = pos_data(m, &[r.from]);
            match r.to {
                To::Sum(ps) => Move::new(
                    r.component,
                    from,
                    params_of(m, r.from),
                    pos_data(m, &ps),
                    r.grundy,
                    false,
                ),
                To::Group { to, change, .. } => Move {
                    component: r.component,
                    from,
                    to: Position {
                        text: to,
                        components: None,
                    },
                    change,
                    grundy: r.grundy,
                    heap: true,
                },
            }
        })
        .collect();
    // A game's positions are heaps when every move listed of it leaves
    // heaps of the same game whose sizes add up to at most the heap's.
    let mut not_heaps = HashSet::new();
    for mv in &moves {
        // A group of a huge heap's moves is described in words only.
        if mv.to.components.is_some() && !leaves_smaller_heaps(mv) {
            not_heaps.insert(
                mv.from
                    .text
                    .split('(')
                    .next()
                    .unwrap_or_default()
                    .to_string(),
            );
        }
    }
    moves
        .into_iter()
        .map(|mut mv| {
            let game = mv.from.text.split('(').next().unwrap_or_default();
            mv.heap = !not_heaps.contains(game);
            mv
        })
        .collect()
}

/// Whether a move takes from one integer heap and leaves heaps of the same
/// game of at most as many tokens in all.
fn leaves_smaller_heaps(mv: &Move) -> bool {
    let one = |p: &Position| -> Option<Vec<(String, i64)>> {
        p.components
            .as_ref()?
            .iter()
            .map(|c| match &c.args[..] {
                [a] => Some((c.game.clone(), a.as_i64()?)),
                _ => None,
            })
            .collect()
    };
    match (one(&mv.from).as_deref(), one(&mv.to)) {
        (Some([(game, n)]), Some(after)) => {
            after.iter().all(|(g, _)| g == game)
                && after
                    .iter()
                    .try_fold(0i64, |acc, (_, k)| acc.checked_add(*k))
                    .is_some_and(|total| total <= *n)
                && after != [(game.clone(), *n)]
        }
        _ => false,
    }
}

/// A move as a value: `{component, before, after, change, grundy}`.
fn move_record(
    m: &Machine,
    component: usize,
    from: PosId,
    to: Vec<PosId>,
    grundy: Gsg,
) -> R<Value> {
    let change = Move::new(
        component,
        pos_data(m, &[from]),
        params_of(m, from),
        pos_data(m, &to),
        grundy.clone(),
        false,
    )
    .change;
    record(
        RecordKind::Move,
        vec![
            Value::Int(component as i64),
            Value::Pos(Rc::new([from])),
            Value::Pos(to.into()),
            Value::Str(change.into()),
            Value::from(grundy),
        ],
    )
}
