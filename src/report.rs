//! Report queries answered from what the engine computes (values, rows of
//! ids, period searches): as structured answers (what `print` shows), and
//! as values (what `let p = period(G)` binds), the one place that shapes
//! either. Above the engine: the interpreter reaches the value form through
//! the hook the session installs (`Setup::report_values`).

use crate::answer::{Answer, Component, Move, Outcome, Position, Shown};
use crate::diagnostics::{Code, Diag};
use crate::eval::{Machine, R, Row, To, misere_rows, move_rows};
use crate::flow::{Limit, Stop};
use crate::ir::{self, Builtin, ExprId, Play};
use crate::span::Span;
use crate::store::PosId;
use crate::value::Gsg;
use crate::value::{Record, RecordKind, Value};
use std::collections::HashSet;
use std::rc::Rc;

mod genus;
mod guess;
mod marked;
mod quotient;
mod tables;

use tables::{Keep, plot, section, table_values};

/// Answers a report query (`outcome`, `moves`, `winning`, `table`,
/// `ppositions`, `describe`, `period`, `graph`, the misère forms).
pub fn report(
    m: &mut Machine,
    f: Builtin,
    play: Play,
    args: &[ExprId],
    env: &mut [Value],
) -> R<Answer> {
    let misere = play == Play::Misere;
    match f {
        Builtin::Outcome if misere => {
            let parts = m.interp().eval_sum(args[0], env)?;
            let position = pos_data(m, &parts);
            let (outcome, found) = m
                .with_misere(|ms, m| ms.outcome_of(m, &parts))
                .map_err(|d| at(d, m.program().span(args[0])))?;
            Ok(Answer::MisereOutcome {
                position,
                outcome,
                found: found.words().to_string(),
            })
        }
        Builtin::Winning if misere => {
            let parts = m.interp().eval_sum(args[0], env)?;
            let (rows, options, outcome) =
                misere_rows(m, &parts).map_err(|d| at(d, m.program().span(args[0])))?;
            Ok(Answer::MisereWinning {
                position: pos_data(m, &parts),
                components: parts.len(),
                moves: shown(m, rows),
                options,
                outcome,
            })
        }
        Builtin::Outcome => {
            let parts = m.interp().eval_sum(args[0], env)?;
            outcome(m, &parts)
        }
        Builtin::Moves | Builtin::Winning => moves(m, f, args, env),
        Builtin::Table | Builtin::PPositions | Builtin::Map => {
            let keep = match f {
                Builtin::PPositions | Builtin::Map => Keep::Zeros,
                _ => Keep::Values,
            };
            let t = table_values(m, play, args, env, keep)?;
            let (params, name) = t.names(m);
            let call = t.point_name(m, &params);
            Ok(match (f, &t.axes[..]) {
                (Builtin::Table, [xs]) => Answer::Table {
                    game: name,
                    misere,
                    param: params[0].clone(),
                    call,
                    args: xs.clone(),
                    values: t.cells,
                },
                (Builtin::Table, [rows, cols]) => Answer::Grid {
                    game: name,
                    misere,
                    params: [params[0].clone(), params[1].clone()],
                    call,
                    rows: rows.clone(),
                    cols: cols.clone(),
                    values: t.grid(),
                },
                (Builtin::Map, [rows, cols]) => Answer::Map {
                    game: name,
                    misere,
                    params: [params[0].clone(), params[1].clone()],
                    call,
                    rows: rows.clone(),
                    cols: cols.clone(),
                    // A map is the grid's zeros.
                    p: t.p_rows(),
                },
                (Builtin::Map, _) => return Err(Diag::bug("a map without two axes").into()),
                _ => ppositions(m, play, args, t, name, params, call)?,
            })
        }
        Builtin::Plot => {
            let d = plot(m, play, args, env)?;
            Ok(Answer::Plot {
                title: d.title,
                game: d.game,
                misere,
                shape: d.shape,
                period: d.period,
                file: None,
                svg: d.svg,
            })
        }
        Builtin::Graph => {
            let (parts, g) = graph(m, args, env)?;
            Ok(Answer::Graph {
                position: pos_data(m, &parts),
                dot: g.dot,
                nodes: g.nodes,
                edges: g.edges,
                file: None,
            })
        }
        Builtin::Describe => Ok(Answer::Describe {
            lines: describe(m, args)?,
        }),
        Builtin::Genus => genus::genus_answer(m, args, env),
        Builtin::Quotient => quotient::answer(m, args, env),
        Builtin::Guess => Ok(guess::guess(m, args, env)?.answer()),
        Builtin::Period => Ok(match period(m, args, env)? {
            (game, crate::solve::analysis::PeriodSearch::Found(p)) => Answer::Period {
                game,
                computed: p.computed,
                found: Some(p),
                why: None,
                ended: None,
            },
            (
                game,
                crate::solve::analysis::PeriodSearch::NotFound {
                    computed,
                    why,
                    ended,
                },
            ) => Answer::Period {
                game,
                found: None,
                computed,
                why,
                ended: Some(ended),
            },
        }),
        _ => Err(Diag::bug(format!("`{}` is not a report", f.name())).into()),
    }
}

/// `ppositions(G, ...)`: the P-positions of a table, and what they look
/// like (a proven period of the values proves one parameter's shape).
fn ppositions(
    m: &mut Machine,
    play: Play,
    args: &[ExprId],
    t: tables::TableValues,
    game: String,
    params: Vec<String>,
    call: String,
) -> R<Answer> {
    // A loopy game's values may be ∞: no period proves its shape.
    let loopy = m.program().games[t.game.index()].loopy;
    let sec = match (play, &t.section) {
        (Play::Normal, _) if loopy => None,
        (Play::Normal, Some(s)) => s.section(t.game),
        (Play::Normal, None) => Some(crate::solve::analysis::Section::whole(t.game)),
        _ => None,
    };
    let span = m.program().span(args[0]);
    let shape = crate::solve::analysis::pshape::shape(
        &mut m.oracle(),
        sec.as_ref(),
        &t.axes,
        &t.zeros,
        &params,
        span,
    )?;
    Ok(Answer::PPositions {
        game,
        misere: play == Play::Misere,
        params,
        call,
        ranges: t
            .axes
            .iter()
            .map(|a| crate::answer::describe_axis(a))
            .collect(),
        positions: t.zeros,
        shape,
    })
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

/// `moves(P)` and `winning(P)` in normal play.
fn moves(m: &mut Machine, f: Builtin, args: &[ExprId], env: &mut [Value]) -> R<Answer> {
    let parts = m.interp().eval_sum(args[0], env)?;
    let grundy = m.gsg_sum(&parts)?;
    let (mut rows, options) = move_rows(m, &parts)?;
    let mut ends_within = None;
    if f == Builtin::Winning {
        // To a loss for the other player; from a draw, to a draw.
        let want = match Outcome::of_value(&grundy) {
            Outcome::D => Outcome::D,
            _ => Outcome::P,
        };
        rows.retain(|r| Outcome::of_value(&r.grundy) == want);
        ends_within = fastest(m, &parts, &mut rows)?;
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

/// `graph(P[, limit])`: the position and its state graph.
fn graph(
    m: &mut Machine,
    args: &[ExprId],
    env: &mut [Value],
) -> R<(Vec<PosId>, crate::graph::DotGraph)> {
    let parts = m.interp().eval_sum(args[0], env)?;
    let limit = match args.get(1) {
        Some(&l) => m.interp().eval_int(l, env)?,
        None => crate::graph::DEFAULT_NODES,
    };
    if limit < 1 {
        return Err(Diag::user(
            Code::BadLimit,
            "a graph needs a limit of at least 1 position",
        )
        .label(m.program().span(args[1]), "this limit")
        .into());
    }
    let span = m.program().span(args[0]);
    let g = m
        .with_misere(|ms, m| crate::graph::graph(ms, m, &parts, limit, span))
        .map_err(|d| at(d, span))?;
    Ok((parts, g))
}

/// The game a query's first argument names.
fn game_arg(m: &Machine, args: &[ExprId]) -> R<ir::GameId> {
    match m.program().expr(args[0]) {
        ir::Expr::GameRef(game) => Ok(*game),
        _ => Err(Diag::bug("a query without its game").into()),
    }
}

/// `describe(G)`: the moves of a game in words, a line each.
fn describe(m: &mut Machine, args: &[ExprId]) -> R<Vec<String>> {
    let game = game_arg(m, args)?;
    Ok(crate::solve::analysis::describe(&mut m.oracle(), game))
}

/// `period(G[, budget])`: the game's name and what the search found.
fn period(
    m: &mut Machine,
    args: &[ExprId],
    env: &mut [Value],
) -> R<(String, crate::solve::analysis::PeriodSearch)> {
    let game = game_arg(m, args)?;
    let arity = m.program().games[game.index()].params.len();
    let (sec, rest) = if arity >= 2 {
        let (slice, rest) = section(m, args, env)?;
        let Some(sec) = slice.section(game) else {
            return Err(Diag::bug("a period of more than one free parameter").into());
        };
        (sec, rest)
    } else {
        (crate::solve::analysis::Section::whole(game), &args[1..])
    };
    let budget_arg = rest.first().copied();
    let budget = match budget_arg {
        Some(b) => m.interp().eval_int(b, env)?,
        None => m.limits().period_budget,
    };
    if budget < 1 {
        let (at, what) = match budget_arg {
            Some(b) => (b, "this budget"),
            None => (args[0], "the budget is --period-budget"),
        };
        return Err(Diag::user(
            Code::BadBudget,
            "a period search needs a budget of at least 1",
        )
        .label(m.program().span(at), what)
        .help("give one: `period(G, 100000)`")
        .into());
    }
    let name = sec.name(&m.program().games[game.index()].name);
    let span = m.program().span(args[0]);
    let open = budget_arg.is_none();
    let search = crate::solve::analysis::period_of(&mut m.oracle(), &sec, budget, open, span)?;
    Ok((name, search))
}

/// Pushes onto a vector, its growth counted against the memory limit
/// first (a table of 10^5 × 10^5 points is stopped, not allocated).
fn push_counted<T>(m: &Machine, v: &mut Vec<T>, x: T) -> R<()> {
    if v.len() == v.capacity() {
        m.reserve(v.capacity().max(4).saturating_mul(std::mem::size_of::<T>()))?;
    }
    v.push(x);
    Ok(())
}

/// Points a report without a place at the position asked about.
fn at(s: Stop, span: Span) -> Stop {
    s.map_diag(|d| {
        if d.labels.is_empty() {
            d.label(span, "this position")
        } else {
            d
        }
    })
}

/// The moves of a sum as `print` shows them.
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

/// A record of `kind` as a value; values that do not fit its declared
/// fields are a bug here.
pub(crate) fn record(kind: RecordKind, values: Vec<Value>) -> R<Value> {
    match Record::new(kind, values) {
        Some(r) => Ok(Value::Record(Rc::new(r))),
        None => Err(Diag::bug(format!(
            "{} made with values that do not fit its fields",
            kind.describe()
        ))
        .into()),
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
            gsg_value(grundy),
        ],
    )
}

/// A generalized value as a language value: finite ones are integers.
fn gsg_value(g: Gsg) -> Value {
    match g {
        Gsg::Finite(v) => Value::Int(i64::from(v)),
        Gsg::Infinite(k) => Value::Infinite(k),
    }
}

/// A sum as data: its text and its components' games and arguments.
pub fn pos_data(m: &Machine, parts: &[PosId]) -> Position {
    let components = parts
        .iter()
        .map(|&p| {
            let (game, args) = m.position(p);
            Component {
                game: m.program().games[game.index()].name.clone(),
                args: args.iter().map(|a| json_of(m, a)).collect(),
            }
        })
        .collect();
    Position {
        text: m.show().sum(parts),
        components: Some(components),
    }
}

/// The parameter names of a position's game.
fn params_of(m: &Machine, pos: PosId) -> &[String] {
    &m.program().games[m.game_of(pos).index()].params
}

/// A value as JSON: numbers as numbers, positions as position objects
/// (`{text, components}`), records as objects.
fn json_of(m: &Machine, v: &Value) -> serde_json::Value {
    match v {
        Value::Int(x) => (*x).into(),
        Value::Bool(b) => (*b).into(),
        Value::Str(s) => s.as_ref().into(),
        Value::List(xs) => xs.iter().map(|x| json_of(m, x)).collect::<Vec<_>>().into(),
        Value::Ints(xs) => xs.as_ref().into(),
        Value::Bools(xs) => xs.as_ref().into(),
        Value::Range(lo, hi) => serde_json::json!({ "from": lo, "to_inclusive": hi }),
        // Its entries in key order, as `[key, value]` pairs (keys may be
        // integers, which JSON objects cannot have).
        Value::Dict(d) => d
            .sorted()
            .into_iter()
            .map(|(k, v)| serde_json::json!([json_of(m, &k.value()), json_of(m, v)]))
            .collect::<Vec<_>>()
            .into(),
        Value::Pos(parts) => {
            serde_json::to_value(pos_data(m, parts)).unwrap_or(serde_json::Value::Null)
        }
        Value::Record(r) => {
            let fields = r.kind.fields().zip(&r.values);
            fields
                .map(|(name, v)| (name.to_string(), json_of(m, v)))
                .collect::<serde_json::Map<_, _>>()
                .into()
        }
        Value::Infinite(k) => serde_json::json!({ "infinite": k.as_ref() }),
    }
}

/// A value as data and as `print` shows it.
pub fn shown_value(m: &Machine, v: &Value) -> Shown {
    Shown {
        value: json_of(m, v),
        text: m.show().value(v),
    }
}

/// A value as `write` writes it, for a judge: a list's elements with a
/// space between them (each as text: a string as it is, a list inside in
/// brackets), anything else as text, as `str` makes it.
pub fn plain_text(m: &Machine, v: &Value) -> String {
    let show = m.show();
    match v.elements() {
        Some(crate::value::Elements::Ints(xs)) => {
            let mut out = String::with_capacity(xs.len() * 4);
            for (i, x) in xs.iter().enumerate() {
                if i > 0 {
                    out.push(' ');
                }
                let _ = std::fmt::Write::write_fmt(&mut out, format_args!("{x}"));
            }
            out
        }
        Some(xs) => {
            let mut out = String::new();
            for (i, x) in xs.iter().enumerate() {
                if i > 0 {
                    out.push(' ');
                }
                out.push_str(&show.text(&x));
            }
            out
        }
        None => show.text(v),
    }
}

/// A report query's answer as a value: an outcome or a period as a
/// record, moves as a list of move records, tables and P-positions as
/// lists, a description or a graph as a string.
pub fn value(
    m: &mut Machine,
    f: Builtin,
    play: Play,
    args: &[ExprId],
    span: Span,
    env: &mut [Value],
) -> R<Value> {
    let list = |xs: Vec<Value>| Value::List(xs.into());
    let ints = |xs: &[i64]| Value::List(xs.iter().map(|&x| Value::Int(x)).collect());
    match f {
        Builtin::Winning if play == Play::Misere => {
            let parts = m.interp().eval_sum(args[0], env)?;
            let (rows, _, _) = misere_rows(m, &parts).map_err(|d| at(d, span))?;
            let mut out = Vec::new();
            for r in rows {
                if let To::Sum(to) = r.to {
                    out.push(move_record(m, r.component, r.from, to, Gsg::Finite(0))?);
                }
            }
            Ok(list(out))
        }
        Builtin::Moves | Builtin::Winning => {
            let parts = m.interp().eval_sum(args[0], env)?;
            let total = m.gsg_sum(&parts)?;
            let (mut rows, _) = move_rows(m, &parts)?;
            if f == Builtin::Winning {
                // To a loss for the other player; from a draw, to a draw;
                // alone in a loopy game, nearer the end.
                let want = match Outcome::of_value(&total) {
                    Outcome::D => Outcome::D,
                    _ => Outcome::P,
                };
                rows.retain(|r| Outcome::of_value(&r.grundy) == want);
                fastest(m, &parts, &mut rows)?;
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
                        .label(span, format!("a group of {n} moves"))
                        .help("print the query to see its moves grouped by residue")
                        .into());
                    }
                }
            }
            Ok(list(out))
        }
        Builtin::Outcome => {
            let parts = m.interp().eval_sum(args[0], env)?;
            let grundy = if play == Play::Normal {
                m.gsg_sum(&parts)?
            } else {
                m.with_misere(|ms, m| ms.gsg_of(m, &parts))
                    .map_err(|d| at(d, span))?
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
                    gsg_value(grundy),
                    Value::Str(letter.into()),
                    Value::Bool(outcome == Outcome::N),
                ],
            )
        }
        Builtin::Table | Builtin::PPositions | Builtin::Map => {
            let keep = match f {
                Builtin::PPositions | Builtin::Map => Keep::Zeros,
                _ => Keep::Values,
            };
            let t = table_values(m, play, args, env, keep)?;
            let gsgs = |xs: &[Gsg]| list(xs.iter().cloned().map(gsg_value).collect());
            Ok(match (f, t.axes.len()) {
                (Builtin::Table, 1) => gsgs(&t.cells),
                (Builtin::Table, _) => list(t.rows().into_iter().map(gsgs).collect()),
                (Builtin::Map, _) => list(
                    t.p_rows()
                        .into_iter()
                        .map(|row| list(row.into_iter().map(Value::Bool).collect()))
                        .collect(),
                ),
                _ => list(
                    t.zeros
                        .iter()
                        .map(|p| match p[..] {
                            [x] => Value::Int(x),
                            _ => ints(p),
                        })
                        .collect(),
                ),
            })
        }
        Builtin::Describe => Ok(Value::Str(describe(m, args)?.join("\n").into())),
        Builtin::Genus => genus::genus_value(m, args, env),
        Builtin::Quotient => quotient::value(m, args, env),
        Builtin::Graph => Ok(Value::Str(graph(m, args, env)?.1.dot.into())),
        Builtin::Plot => Ok(Value::Str(plot(m, play, args, env)?.svg.into())),
        Builtin::Guess => guess::guess(m, args, env)?.value(),
        Builtin::Period => {
            let (found, period, preperiod, saltus, proven, computed) = match period(m, args, env)?.1
            {
                crate::solve::analysis::PeriodSearch::Found(p) => (
                    true,
                    p.period,
                    p.preperiod,
                    p.saltus,
                    p.is_proven(),
                    p.computed,
                ),
                crate::solve::analysis::PeriodSearch::NotFound { computed, .. } => {
                    (false, 0, 0, 0, false, computed)
                }
            };
            record(
                RecordKind::Period,
                vec![
                    Value::Bool(found),
                    Value::Int(period),
                    Value::Int(preperiod),
                    Value::Int(saltus),
                    Value::Bool(proven),
                    // The largest n with G(n) + s != G(n + p): e − 1 (e is the
                    // least pre-period); -1 for none.
                    Value::Int(preperiod - 1),
                    Value::Int(computed),
                ],
            )
        }
        _ => Err(Diag::bug(format!("`{}` has no value", f.name()))
            .label(span, "here")
            .into()),
    }
}
