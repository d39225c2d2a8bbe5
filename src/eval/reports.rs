//! Report queries, answered by the engine: as structured answers (what
//! `print` shows), and as values (what `let p = period(G)` binds).

use super::*;
use crate::analysis::HugeMove;
use crate::answer::{Answer, Component, Move, Outcome, Position, Shown};
use crate::flow::Stop;
use crate::loopy::Gsg;
use crate::value::{Record, RecordKind};
use std::collections::{HashMap, HashSet};

impl Machine {
    /// A report query's answer, as `print` shows it.
    pub fn report(
        &mut self,
        f: Builtin,
        play: Play,
        args: &[ExprId],
        env: &mut [Value],
    ) -> R<Answer> {
        report(self, f, play, args, env)
    }
}

/// Answers a report query (`outcome`, `moves`, `winning`, `table`,
/// `ppositions`, `describe`, `period`, `graph`, the misère forms).
pub(crate) fn report(
    m: &mut Machine,
    f: Builtin,
    play: Play,
    args: &[ExprId],
    env: &mut [Value],
) -> R<Answer> {
    let misere = play == Play::Misere;
    match f {
        Builtin::Outcome if misere => {
            let parts = m.eval_sum(args[0], env)?;
            let position = m.pos_data(&parts);
            let next = m
                .with_misere(|ms, m| {
                    let state = ms.state(m, &parts)?;
                    ms.next_wins(m, &state)
                })
                .map_err(|d| at(d, m.program().span(args[0])))?;
            Ok(Answer::MisereOutcome {
                position,
                outcome: if next { Outcome::N } else { Outcome::P },
            })
        }
        Builtin::Winning if misere => {
            let parts = m.eval_sum(args[0], env)?;
            let (rows, options) =
                misere_rows(m, &parts).map_err(|d| at(d, m.program().span(args[0])))?;
            Ok(Answer::MisereWinning {
                position: m.pos_data(&parts),
                components: parts.len(),
                moves: shown(m, rows),
                options,
            })
        }
        Builtin::Outcome => {
            let parts = m.eval_sum(args[0], env)?;
            let grundy = m.gsg_sum(&parts)?;
            Ok(Answer::Outcome {
                position: m.pos_data(&parts),
                outcome: Outcome::of_value(&grundy),
                grundy,
            })
        }
        Builtin::Moves | Builtin::Winning => {
            let parts = m.eval_sum(args[0], env)?;
            let grundy = m.gsg_sum(&parts)?;
            let (mut moves, options) = all_moves(m, &parts)?;
            if f == Builtin::Winning {
                // To a loss for the other player; from a draw, to a draw.
                let want = match Outcome::of_value(&grundy) {
                    Outcome::D => Outcome::D,
                    _ => Outcome::P,
                };
                moves.retain(|mv| Outcome::of_value(&mv.grundy) == want);
            }
            let position = m.pos_data(&parts);
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
                }
            })
        }
        Builtin::Table | Builtin::PPositions | Builtin::Map => {
            let ir::Expr::GameRef(game) = *m.program().expr(args[0]) else {
                return Err(Diag::bug("table without a game").into());
            };
            let params = m.program().games[game as usize].params.clone();
            let name = m.program().games[game as usize].name.clone();
            let mut axes = Vec::new();
            for &a in &args[1..] {
                axes.push(m.eval_axis(a, env)?);
            }
            let span = m.program().span(args[0]);
            let mut value_at = |m: &mut Machine, xs: &[i64]| -> R<Gsg> {
                let vals: Vec<Value> = xs.iter().map(|x| Value::Int(*x)).collect();
                let p = m.intern(game, &vals, span)?;
                if misere {
                    m.with_misere(|ms, m| {
                        let s = ms.state(m, &[p])?;
                        ms.value(m, s)
                    })
                    .map(Gsg::Finite)
                    .map_err(|d| at(d, span))
                } else {
                    m.gsg(p)
                }
            };
            match (f, axes.as_slice()) {
                (Builtin::Table, [xs]) => {
                    let mut values = Vec::with_capacity(xs.len());
                    for &x in xs.iter() {
                        values.push(value_at(m, &[x])?);
                    }
                    Ok(Answer::Table {
                        game: name,
                        misere,
                        param: params[0].clone(),
                        args: xs.to_vec(),
                        values,
                    })
                }
                (Builtin::Table | Builtin::Map, [rows, cols]) => {
                    let mut values = Vec::with_capacity(rows.len());
                    for &r in rows.iter() {
                        let mut row = Vec::with_capacity(cols.len());
                        for &c in cols.iter() {
                            row.push(value_at(m, &[r, c])?);
                        }
                        values.push(row);
                    }
                    let (params, rows, cols) = (
                        [params[0].clone(), params[1].clone()],
                        rows.to_vec(),
                        cols.to_vec(),
                    );
                    Ok(if f == Builtin::Table {
                        Answer::Grid {
                            game: name,
                            misere,
                            params,
                            rows,
                            cols,
                            values,
                        }
                    } else {
                        // A map is the grid's zeros.
                        let p = values
                            .iter()
                            .map(|row| row.iter().map(|v| *v == Gsg::Finite(0)).collect())
                            .collect();
                        Answer::Map {
                            game: name,
                            misere,
                            params,
                            rows,
                            cols,
                            p,
                        }
                    })
                }
                (Builtin::Map, _) => Err(Diag::bug("a map without two axes").into()),
                (_, axes) => {
                    let mut positions = Vec::new();
                    let mut tuple = vec![0; axes.len()];
                    p_positions(m, axes, 0, &mut tuple, &mut positions, &mut value_at)?;
                    Ok(Answer::PPositions {
                        game: name,
                        misere,
                        params,
                        ranges: axes
                            .iter()
                            .map(|a| crate::answer::describe_axis(a))
                            .collect(),
                        positions,
                    })
                }
            }
        }
        Builtin::Plot => plot(m, play, args, env),
        Builtin::Graph => {
            let parts = m.eval_sum(args[0], env)?;
            let limit = match args.get(1) {
                Some(&l) => m.eval_int(l, env)?,
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
            Ok(Answer::Graph {
                position: m.pos_data(&parts),
                dot: g.dot,
                nodes: g.nodes,
                edges: g.edges,
                file: None,
            })
        }
        Builtin::Describe | Builtin::Period => {
            let ir::Expr::GameRef(game) = *m.program().expr(args[0]) else {
                return Err(Diag::bug("describe/period without a game").into());
            };
            if f == Builtin::Describe {
                return Ok(Answer::Describe {
                    lines: crate::analysis::describe(&mut m.oracle(), game),
                });
            }
            let budget = match args.get(1) {
                Some(&b) => m.eval_int(b, env)?,
                None => m.limits().period_budget,
            };
            if budget < 1 {
                let (at, what) = match args.get(1) {
                    Some(&b) => (b, "this budget"),
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
            let name = m.program().games[game as usize].name.clone();
            let span = m.program().span(args[0]);
            let open = args.get(1).is_none();
            Ok(
                match crate::analysis::period(&mut m.oracle(), game, budget, open, span)? {
                    crate::analysis::Search::Found(p) => Answer::Period {
                        game: name,
                        computed: p.computed,
                        found: Some(p),
                        why: None,
                        ended: None,
                    },
                    crate::analysis::Search::NotFound {
                        computed,
                        why,
                        ended,
                    } => Answer::Period {
                        game: name,
                        found: None,
                        computed,
                        why,
                        ended: Some(ended),
                    },
                },
            )
        }
        _ => Err(Diag::bug(format!("`{}` is not a report", f.name())).into()),
    }
}

/// `plot(G, AXIS)` and `plot(G, ROWS, COLUMNS)`: the table's values drawn,
/// with the period marked on a sequence when a search over the values
/// plotted finds one.
fn plot(m: &mut Machine, play: Play, args: &[ExprId], env: &mut [Value]) -> R<Answer> {
    let misere = play == Play::Misere;
    let mut points = 1usize;
    for &a in &args[1..] {
        points = points.saturating_mul(m.eval_axis(a, env)?.len());
    }
    if points > crate::picture::MAX_POINTS {
        let span = m.program().span(args[args.len() - 1]);
        return Err(Diag::user(
            Code::ListLimit,
            format!(
                "a plot draws at most {} points; this one has {points}",
                crate::picture::MAX_POINTS
            ),
        )
        .label(span, "this range")
        .help("plot a shorter range, or a sample: `plot(G, [n * 10 for n in 0..10000])`")
        .into());
    }
    let drawn = |r: Result<String, String>| r.map_err(|e| Stop::from(Diag::bug(e)));
    let words = if misere { "misère values of " } else { "" };
    match report(m, Builtin::Table, play, args, env)? {
        Answer::Table {
            game,
            param,
            args: xs,
            values,
            ..
        } => {
            let title = format!(
                "{words}{game}({param}) for {param} in {}",
                crate::answer::describe_axis(&xs)
            );
            // A period search over the values plotted, or a few more (a
            // proof's window may reach past a short plot).
            let end = xs.iter().copied().max().unwrap_or(0);
            let budget = end
                .saturating_add(1)
                .max(m.limits().period_budget.min(1024));
            let period = match m.program().expr(args[0]) {
                ir::Expr::GameRef(g) if !misere && end >= 1 => {
                    let (g, span) = (*g, m.program().span(args[0]));
                    match crate::analysis::period(&mut m.oracle(), g, budget, false, span)? {
                        crate::analysis::Search::Found(p) => Some(p),
                        crate::analysis::Search::NotFound { .. } => None,
                    }
                }
                _ => None,
            };
            let mark = period.as_ref().map(|p| crate::picture::Mark {
                preperiod: p.preperiod,
                period: p.period,
                proven: p.is_proven(),
            });
            // ∞ values (loopy games) have no height: they are left out.
            let (xs, values): (Vec<i64>, Vec<u32>) = xs
                .iter()
                .zip(&values)
                .filter_map(|(&x, v)| Some((x, v.finite()?)))
                .unzip();
            let svg = drawn(crate::picture::sequence(&title, &param, &xs, &values, mark))?;
            Ok(Answer::Plot {
                title,
                game,
                misere,
                shape: crate::answer::PlotShape::Sequence,
                period,
                file: None,
                svg,
            })
        }
        Answer::Grid {
            game,
            params: [a, b],
            rows,
            cols,
            values,
            ..
        } => {
            let title = format!(
                "{words}{game}({a}, {b}) for {a} in {}, {b} in {}",
                crate::answer::describe_axis(&rows),
                crate::answer::describe_axis(&cols)
            );
            let Some(values) = values
                .iter()
                .map(|row| row.iter().map(Gsg::finite).collect::<Option<Vec<u32>>>())
                .collect::<Option<Vec<_>>>()
            else {
                return Err(Diag::user(
                    Code::Infinite,
                    "a heat map draws finite values, and some of these are ∞",
                )
                .label(m.program().span(args[0]), "a loopy game")
                .help("print `table(G, ROWS, COLUMNS)` to see them")
                .into());
            };
            let svg = drawn(crate::picture::heatmap(
                &title,
                [&a, &b],
                &rows,
                &cols,
                &values,
            ))?;
            Ok(Answer::Plot {
                title,
                game,
                misere,
                shape: crate::answer::PlotShape::Heatmap,
                period: None,
                file: None,
                svg,
            })
        }
        other => Err(Diag::bug(format!("a plot of {other:?}")).into()),
    }
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

type ValueAt<'a> = dyn FnMut(&mut Machine, &[i64]) -> R<Gsg> + 'a;

fn p_positions(
    m: &mut Machine,
    axes: &[Vec<i64>],
    i: usize,
    tuple: &mut Vec<i64>,
    out: &mut Vec<Vec<i64>>,
    value_at: &mut ValueAt<'_>,
) -> R<()> {
    if i == axes.len() {
        if value_at(m, tuple)? == Gsg::Finite(0) {
            out.push(tuple.clone());
        }
        return Ok(());
    }
    for &x in axes[i].iter() {
        tuple[i] = x;
        p_positions(m, axes, i + 1, tuple, out, value_at)?;
    }
    Ok(())
}

/// One move of a sum: which component moves, and what it becomes.
#[derive(Clone)]
struct Row {
    component: usize,
    from: PosId,
    to: To,
    /// The value of the whole sum after the move.
    grundy: Gsg,
}

/// What a component becomes.
#[derive(Clone)]
enum To {
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
fn rows(m: &mut Machine, parts: &[PosId]) -> R<(Vec<Row>, u64)> {
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
    if let Some(groups) = crate::analysis::huge_moves(&mut m.oracle(), c)? {
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
    let mut options = crate::oracle::Moves::default();
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

/// The moves of a sum as `print` shows them.
fn all_moves(m: &mut Machine, parts: &[PosId]) -> R<(Vec<Move>, u64)> {
    let (rows, count) = rows(m, parts)?;
    Ok((shown(m, rows), count))
}

/// Moves as `print` shows them.
fn shown(m: &Machine, rows: Vec<Row>) -> Vec<Move> {
    let moves: Vec<Move> = rows
        .into_iter()
        .map(|r| {
            let from = m.pos_data(&[r.from]);
            match r.to {
                To::Sum(ps) => Move::new(
                    r.component,
                    from,
                    m.params_of(r.from),
                    m.pos_data(&ps),
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

/// The winning moves of a sum in misère play (to a misère value of 0),
/// every component that makes one with its own index; and how many options
/// the sum has.
fn misere_rows(m: &mut Machine, parts: &[PosId]) -> R<(Vec<Row>, usize)> {
    m.with_misere(|ms, m| {
        let state = ms.state(m, parts)?;
        let options = ms.options(m, &state)?;
        let mut rows = Vec::new();
        for (from, to, next) in &options {
            if !ms.next_wins(m, next)? {
                for (component, _) in parts.iter().enumerate().filter(|(_, c)| *c == from) {
                    rows.push(Row {
                        component,
                        from: *from,
                        to: To::Sum(to.clone()),
                        grundy: Gsg::Finite(0),
                    });
                }
            }
        }
        rows.sort_by_key(|r| r.component);
        Ok((rows, options.len()))
    })
}

/// A move as a value: `{component, before, after, change, grundy}`.
fn move_record(m: &Machine, component: usize, from: PosId, to: Vec<PosId>, grundy: Gsg) -> Value {
    let change = Move::new(
        component,
        m.pos_data(&[from]),
        m.params_of(from),
        m.pos_data(&to),
        grundy.clone(),
        false,
    )
    .change;
    Value::Record(Rc::new(Record {
        kind: RecordKind::Move,
        values: vec![
            Value::Int(component as i64),
            Value::Pos(Rc::new([from])),
            Value::Pos(to.into()),
            Value::Str(change.into()),
            gsg_value(grundy),
        ],
    }))
}

/// A generalized value as a language value: finite ones are integers.
pub(super) fn gsg_value(g: Gsg) -> Value {
    match g {
        Gsg::Finite(v) => Value::Int(i64::from(v)),
        Gsg::Infinite(k) => Value::Infinite(k),
    }
}

impl Machine {
    /// A sum as data: its text and its components' games and arguments.
    pub fn pos_data(&self, parts: &[PosId]) -> Position {
        let components = parts
            .iter()
            .map(|&p| {
                let (game, args) = self.position(p);
                Component {
                    game: self.prog.games[game as usize].name.clone(),
                    args: args.iter().map(|a| self.json_of(a)).collect(),
                }
            })
            .collect();
        Position {
            text: self.show_sum(parts),
            components: Some(components),
        }
    }

    /// The parameter names of a position's game.
    pub fn params_of(&self, pos: PosId) -> &[String] {
        &self.prog.games[self.game_of(pos) as usize].params
    }

    /// A value as JSON: numbers as numbers, positions as position objects
    /// (`{text, components}`), records as objects.
    pub fn json_of(&self, v: &Value) -> serde_json::Value {
        match v {
            Value::Int(x) => (*x).into(),
            Value::Bool(b) => (*b).into(),
            Value::Str(s) => s.as_ref().into(),
            Value::List(xs) => xs
                .iter()
                .map(|x| self.json_of(x))
                .collect::<Vec<_>>()
                .into(),
            Value::Range(lo, hi) => serde_json::json!({ "from": lo, "to_inclusive": hi }),
            Value::Pos(parts) => {
                serde_json::to_value(self.pos_data(parts)).unwrap_or(serde_json::Value::Null)
            }
            Value::Record(r) => {
                let fields = r.kind.fields().iter().zip(&r.values);
                fields
                    .map(|(name, v)| (name.to_string(), self.json_of(v)))
                    .collect::<serde_json::Map<_, _>>()
                    .into()
            }
            Value::Infinite(k) => serde_json::json!({ "infinite": k.as_ref() }),
        }
    }

    /// A value as data and as `print` shows it.
    pub fn shown(&self, v: &Value) -> Shown {
        Shown {
            value: self.json_of(v),
            text: self.show_value(v),
        }
    }
}

impl Machine {
    /// A report query's answer as a value: an outcome or a period as a
    /// record, moves as a list of move records, tables and P-positions as
    /// lists, a description or a graph as a string.
    pub(super) fn report_value(
        &mut self,
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
                let parts = self.eval_sum(args[0], env)?;
                let (rows, _) = misere_rows(self, &parts).map_err(|d| at(d, span))?;
                Ok(list(
                    rows.into_iter()
                        .filter_map(|r| match r.to {
                            To::Sum(to) => {
                                Some(move_record(self, r.component, r.from, to, Gsg::Finite(0)))
                            }
                            To::Group { .. } => None,
                        })
                        .collect(),
                ))
            }
            Builtin::Moves | Builtin::Winning => {
                let parts = self.eval_sum(args[0], env)?;
                let total = self.gsg_sum(&parts)?;
                let (rows, _) = rows(self, &parts)?;
                // To a loss for the other player; from a draw, to a draw.
                let want = match Outcome::of_value(&total) {
                    Outcome::D => Outcome::D,
                    _ => Outcome::P,
                };
                let mut out = Vec::new();
                for r in rows {
                    if f == Builtin::Winning && Outcome::of_value(&r.grundy) != want {
                        continue;
                    }
                    match r.to {
                        To::Sum(to) => {
                            out.push(move_record(self, r.component, r.from, to, r.grundy))
                        }
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
                let parts = self.eval_sum(args[0], env)?;
                let grundy = if play == Play::Normal {
                    self.gsg_sum(&parts)?
                } else {
                    Gsg::Finite(
                        self.with_misere(|ms, m| {
                            let s = ms.state(m, &parts)?;
                            ms.value(m, s)
                        })
                        .map_err(|d| at(d, span))?,
                    )
                };
                let outcome = Outcome::of_value(&grundy);
                let letter = match outcome {
                    Outcome::N => "N",
                    Outcome::P => "P",
                    Outcome::D => "D",
                };
                Ok(Value::Record(Rc::new(Record {
                    kind: RecordKind::Outcome,
                    values: vec![
                        Value::Pos(parts.into()),
                        gsg_value(grundy),
                        Value::Str(letter.into()),
                        Value::Bool(outcome == Outcome::N),
                    ],
                })))
            }
            _ => match report(self, f, play, args, env)? {
                Answer::Table { values, .. } => {
                    Ok(list(values.into_iter().map(gsg_value).collect()))
                }
                Answer::Grid { values, .. } => Ok(list(
                    values
                        .into_iter()
                        .map(|row| list(row.into_iter().map(gsg_value).collect()))
                        .collect(),
                )),
                Answer::Map { p, .. } => Ok(list(
                    p.iter()
                        .map(|row| list(row.iter().map(|&b| Value::Bool(b)).collect()))
                        .collect(),
                )),
                Answer::PPositions { positions, .. } => Ok(list(
                    positions
                        .iter()
                        .map(|p| match p[..] {
                            [x] => Value::Int(x),
                            _ => ints(p),
                        })
                        .collect(),
                )),
                Answer::Describe { lines } => Ok(Value::Str(lines.join("\n").into())),
                Answer::Graph { dot, .. } => Ok(Value::Str(dot.into())),
                Answer::Plot { svg, .. } => Ok(Value::Str(svg.into())),
                Answer::Period {
                    found, computed, ..
                } => {
                    let (found, period, preperiod, proven) = match &found {
                        Some(p) => (true, p.period, p.preperiod, p.is_proven()),
                        None => (false, 0, 0, false),
                    };
                    Ok(Value::Record(Rc::new(Record {
                        kind: RecordKind::Period,
                        values: vec![
                            Value::Bool(found),
                            Value::Int(period),
                            Value::Int(preperiod),
                            Value::Bool(proven),
                            // The largest n with G(n) != G(n + p): e − 1
                            // (e is the least pre-period); -1 for none.
                            Value::Int(preperiod - 1),
                            Value::Int(computed),
                        ],
                    })))
                }
                other => Err(Diag::bug(format!("no value for the answer {other:?}"))
                    .label(span, "here")
                    .into()),
            },
        }
    }
}
