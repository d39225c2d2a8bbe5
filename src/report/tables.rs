//! Tables and their drawings: `table`, `ppositions`, `map` and `plot` of
//! a game or of a slice of one (`G(_, 6)`, `G(_, _, 2)`), their points'
//! values computed in order.

use super::*;

/// `G(_, 6)` or `G(_, _, 2)` in a query's place: a game with some of its
/// parameters free (`free`, in order) and the others fixed (`args`, the
/// free ones' 0).
#[derive(Clone, Debug)]
pub(super) struct Slice {
    pub(super) free: Vec<usize>,
    pub(super) args: Vec<i64>,
}

impl Slice {
    /// The arguments of the point `xs` (a value per free parameter).
    pub(super) fn point(&self, xs: &[i64]) -> Vec<Value> {
        let mut args: Vec<Value> = self.args.iter().map(|&a| Value::Int(a)).collect();
        for (&i, &x) in self.free.iter().zip(xs) {
            args[i] = Value::Int(x);
        }
        args
    }

    /// The game's name with its fixed parameters, and `shown` in place of
    /// the free ones: `G(_, 6)`, or `G(n, 6)`.
    pub(super) fn name(&self, game: &str, shown: &[String]) -> String {
        let args: Vec<String> = (0..self.args.len())
            .map(|i| match self.free.iter().position(|&f| f == i) {
                Some(k) => shown.get(k).cloned().unwrap_or_else(|| "_".to_string()),
                None => self.args[i].to_string(),
            })
            .collect();
        format!("{game}({})", args.join(", "))
    }

    /// The section of a slice with one parameter free (for periods).
    pub(super) fn section(&self, game: ir::GameId) -> Option<crate::solve::analysis::Section> {
        match self.free[..] {
            [heap] => Some(crate::solve::analysis::Section {
                game,
                heap,
                args: self.args.clone(),
            }),
            _ => None,
        }
    }
}

/// `G(_, 6)` as the checker writes it into a query's arguments: the game,
/// the free parameters as a mask (bit `i` for parameter `i`), every
/// parameter's value (the free ones' 0); and the arguments after it.
pub(super) fn section<'a>(
    m: &mut Machine,
    args: &'a [ExprId],
    env: &mut [Value],
) -> R<(Slice, &'a [ExprId])> {
    let game = game_arg(m, args)?;
    let arity = m.program().games[game.index()].params.len();
    let Some(fixed) = args.get(2..2 + arity) else {
        return Err(Diag::bug("a section without its parameters").into());
    };
    let mask = m.interp().eval_int(args[1], env)?;
    let free: Vec<usize> = (0..arity).filter(|i| mask >> i & 1 == 1).collect();
    let mut values = Vec::with_capacity(arity);
    for &a in fixed {
        values.push(m.interp().eval_int(a, env)?);
    }
    Ok((Slice { free, args: values }, &args[2 + arity..]))
}

/// The values of a table's points: its game (or the section of it, `G(_,
/// 6)`, with its one axis), its axes (one or two; more for `ppositions`), and a value per point,
/// row by row (or, for `ppositions`, only the points of value 0).
pub(super) struct TableValues {
    pub(super) game: ir::GameId,
    pub(super) section: Option<Slice>,
    pub(super) axes: Vec<Vec<i64>>,
    pub(super) cells: Vec<Gsg>,
    pub(super) zeros: Vec<Vec<i64>>,
}

impl TableValues {
    /// The parameters of the axes, and the game as the table names it
    /// (`G`, or the section `G(_, 6)`).
    pub(super) fn names(&self, m: &Machine) -> (Vec<String>, String) {
        let g = &m.program().games[self.game.index()];
        match &self.section {
            Some(s) => (
                s.free.iter().map(|&i| g.params[i].clone()).collect(),
                s.name(&g.name, &[]),
            ),
            None => (g.params.clone(), g.name.clone()),
        }
    }

    /// A point of the table, written with its axes' parameters: `G(a, b)`,
    /// or `G(n, 6)` for the section `G(_, 6)`.
    pub(super) fn point_name(&self, m: &Machine, params: &[String]) -> String {
        let g = &m.program().games[self.game.index()];
        match &self.section {
            Some(s) => s.name(&g.name, params),
            None => format!("{}({})", g.name, params.join(", ")),
        }
    }
}

/// What a table keeps of its points' values.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) enum Keep {
    /// Every value (`table`, `map`, `plot`).
    Values,
    /// The points of value 0 (`ppositions`, `map`), as they are found.
    Zeros,
}

impl TableValues {
    /// The values of a two-axis table, a row per value of the first axis.
    pub(super) fn rows(&self) -> Vec<&[Gsg]> {
        let rows = self.axes.first().map_or(0, Vec::len);
        match self.axes.get(1).map_or(1, Vec::len) {
            0 => vec![&[][..]; rows],
            cols => self.cells.chunks(cols).collect(),
        }
    }

    /// A two-axis table's P-positions as rows of booleans, from the points
    /// of value 0 (`map`).
    pub(super) fn p_rows(&self) -> Vec<Vec<bool>> {
        let (Some(rows), Some(cols)) = (self.axes.first(), self.axes.get(1)) else {
            return Vec::new();
        };
        let zeros: std::collections::HashSet<&[i64]> =
            self.zeros.iter().map(Vec::as_slice).collect();
        rows.iter()
            .map(|&r| cols.iter().map(|&c| zeros.contains(&[r, c][..])).collect())
            .collect()
    }

    /// [`TableValues::rows`], each row its own list.
    pub(super) fn grid(&self) -> Vec<Vec<Gsg>> {
        self.rows().into_iter().map(<[Gsg]>::to_vec).collect()
    }
}

fn is_zero(v: &Gsg) -> bool {
    *v == Gsg::Finite(0)
}

/// The values of `table(G, AXES...)` (and `ppositions`, `map`, `plot`): a
/// game and one or two axes, in normal or misère play, the points in order
/// (the last axis fastest).
pub(super) fn table_values(
    m: &mut Machine,
    play: Play,
    args: &[ExprId],
    env: &mut [Value],
    keep: Keep,
) -> R<TableValues> {
    let game = game_arg(m, args)?;
    // A section (`table(G(_, 6), 0..=20)`): more arguments than a game
    // and two axes.
    let (sec, axis_args) = match args.len() > 3 {
        true => section(m, args, env).map(|(s, rest)| (Some(s), rest))?,
        false => (None, &args[1..]),
    };
    let mut axes = Vec::new();
    for &a in axis_args {
        axes.push(m.interp().eval_axis(a, env)?);
    }
    let span = m.program().span(args[0]);
    let mut t = TableValues {
        game,
        section: sec.clone(),
        axes: Vec::new(),
        cells: Vec::new(),
        zeros: Vec::new(),
    };
    // P-positions of a game whose moves are translations: marked, not
    // valued.
    if keep == Keep::Zeros
        && play == Play::Normal
        && let Some(zeros) = super::marked::zeros(m, game, sec.as_ref(), &axes, span)?
    {
        t.zeros = zeros;
        t.axes = axes;
        return Ok(t);
    }
    // Each point of a box is a position of its own: a box of two axes or
    // more past the state limit cannot be valued, and is said so before
    // any is. (One axis is a list, under the list limit; its large heaps
    // may be answered by a period without being stored.)
    let points = axes
        .iter()
        .fold(1u128, |n, a| n.saturating_mul(a.len() as u128));
    let room = (m.state_count() as u128).saturating_add(m.room() as u128);
    if axes.len() >= 2 && points > room {
        let name = &m.program().games[game.index()].name;
        return Err(Limit::States
            .stop(format!(
                "this table of {name} has {points} positions, more than the state limit allows ({room})"
            ))
            .label(span, "this game")
            .help(
                "ask about a smaller box, or raise the limit with `--max-states N`; P-positions of a game \
                 whose moves are translations are marked instead (language.md, section 10)",
            ));
    }
    let mut point = |m: &mut Machine, xs: &[i64]| -> R<()> {
        let vals: Vec<Value> = match &sec {
            Some(s) => s.point(xs),
            None => xs.iter().map(|x| Value::Int(*x)).collect(),
        };
        let p = m.intern(game, &vals, span)?;
        let v = match play {
            Play::Misere => m
                .with_misere(|ms, m| ms.gsg_of(m, &[p]))
                .map(|(v, _)| v)
                .map_err(|d| at(d, span))?,
            Play::Normal => m.gsg(p)?,
        };
        match keep {
            Keep::Values => push_counted(m, &mut t.cells, v),
            Keep::Zeros if is_zero(&v) => push_counted(m, &mut t.zeros, xs.to_vec()),
            Keep::Zeros => Ok(()),
        }
    };
    // `ppositions` may have more than two axes.
    each_point(&axes, &mut |xs| point(m, xs))?;
    t.axes = axes;
    Ok(t)
}

/// Every point of the axes in order, the last axis fastest (none if an
/// axis is empty).
pub(super) fn each_point(axes: &[Vec<i64>], f: &mut dyn FnMut(&[i64]) -> R<()>) -> R<()> {
    if axes.iter().any(Vec::is_empty) {
        return Ok(());
    }
    let mut at = vec![0usize; axes.len()];
    let mut xs: Vec<i64> = axes.iter().map(|a| a[0]).collect();
    loop {
        f(&xs)?;
        // The next point: the last axis that can step steps, the ones after
        // it start again.
        let Some(k) = (0..axes.len()).rev().find(|&k| at[k] + 1 < axes[k].len()) else {
            return Ok(());
        };
        at[k] += 1;
        xs[k] = axes[k][at[k]];
        for j in k + 1..axes.len() {
            at[j] = 0;
            xs[j] = axes[j][0];
        }
    }
}

/// A plot: its title, what it draws, and the SVG.
pub(super) struct Drawing {
    pub(super) title: String,
    pub(super) game: String,
    pub(super) shape: crate::answer::PlotShape,
    pub(super) period: Option<crate::solve::analysis::Period>,
    pub(super) svg: String,
}

/// `plot(G, AXIS)` and `plot(G, ROWS, COLUMNS)`: the table's values drawn,
/// with the period marked on a sequence when a search over the values
/// plotted finds one.
pub(super) fn plot(m: &mut Machine, play: Play, args: &[ExprId], env: &mut [Value]) -> R<Drawing> {
    let misere = play == Play::Misere;
    let mut points = 1usize;
    let axes = match args.len() > 3 {
        true => section(m, args, env)?.1,
        false => &args[1..],
    };
    for &a in axes {
        points = points.saturating_mul(m.interp().eval_axis(a, env)?.len());
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
    let t = table_values(m, play, args, env, Keep::Values)?;
    let (params, game) = t.names(m);
    match &t.axes[..] {
        [xs] => {
            let param = &params[0];
            let title = format!(
                "{words}{} for {param} in {}",
                t.point_name(m, std::slice::from_ref(param)),
                crate::answer::describe_axis(xs)
            );
            // A period search over the values plotted, or a few more (a
            // proof's window may reach past a short plot).
            let end = xs.iter().copied().max().unwrap_or(0);
            let budget = end
                .saturating_add(1)
                .max(m.limits().period_budget.min(1024));
            let period = if !misere && end >= 1 {
                let span = m.program().span(args[0]);
                let sec = t
                    .section
                    .as_ref()
                    .and_then(|s| s.section(t.game))
                    .unwrap_or_else(|| crate::solve::analysis::Section::whole(t.game));
                match crate::solve::analysis::period_of(&mut m.oracle(), &sec, budget, false, span)?
                {
                    crate::solve::analysis::PeriodSearch::Found(p) => Some(p),
                    crate::solve::analysis::PeriodSearch::NotFound { .. } => None,
                }
            } else {
                None
            };
            let mark = period.as_ref().map(|p| crate::picture::Mark {
                preperiod: p.preperiod,
                period: p.period,
                saltus: p.saltus,
                proven: p.is_proven(),
            });
            // ∞ values (loopy games) have no height: they are left out.
            let (xs, values): (Vec<i64>, Vec<u32>) = xs
                .iter()
                .zip(&t.cells)
                .filter_map(|(&x, v)| Some((x, v.finite()?)))
                .unzip();
            let svg = drawn(crate::picture::sequence(&title, param, &xs, &values, mark))?;
            Ok(Drawing {
                title,
                game,
                shape: crate::answer::PlotShape::Sequence,
                period,
                svg,
            })
        }
        [rows, cols] => {
            let (a, b) = (&params[0], &params[1]);
            let title = format!(
                "{words}{game}({a}, {b}) for {a} in {}, {b} in {}",
                crate::answer::describe_axis(rows),
                crate::answer::describe_axis(cols)
            );
            let Some(values) = t
                .rows()
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
            let svg = drawn(crate::picture::heatmap(&title, [a, b], rows, cols, &values))?;
            Ok(Drawing {
                title,
                game,
                shape: crate::answer::PlotShape::Heatmap,
                period: None,
                svg,
            })
        }
        _ => Err(Diag::bug("a plot with other than one or two axes").into()),
    }
}

/// `table`, `ppositions` and `map`.
pub(super) const TABLE: Query = Query {
    answer: table_answer,
    value: table_value,
};

/// `plot`.
pub(super) const PLOT: Query = Query {
    answer: plot_answer,
    value: |m, q, env| Ok(Value::Str(plot(m, q.play, q.args, env)?.svg.into())),
};

/// What a table query keeps of its values: the zeros for the P-positions
/// and a map.
fn keep(f: Builtin) -> Keep {
    match f {
        Builtin::PPositions | Builtin::Map => Keep::Zeros,
        _ => Keep::Values,
    }
}

/// `print table(...)`, `print ppositions(...)`, `print map(...)`.
fn table_answer(m: &mut Machine, q: &Asked<'_>, env: &mut [Value]) -> R<Answer> {
    let (f, play, args) = (q.f, q.play, q.args);
    let misere = play == Play::Misere;
    let t = table_values(m, play, args, env, keep(f))?;
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

/// A table's values as a list (a list per row for two axes), a map's as
/// rows of booleans (P-positions true), the P-positions as their
/// arguments.
fn table_value(m: &mut Machine, q: &Asked<'_>, env: &mut [Value]) -> R<Value> {
    let list = |xs: Vec<Value>| Value::List(xs.into());
    let ints = |xs: &[i64]| Value::List(xs.iter().map(|&x| Value::Int(x)).collect());
    let t = table_values(m, q.play, q.args, env, keep(q.f))?;
    let gsgs = |xs: &[Gsg]| list(xs.iter().cloned().map(Value::from).collect());
    Ok(match (q.f, t.axes.len()) {
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

/// `print plot(...)`: the drawing, written to a file by the session.
fn plot_answer(m: &mut Machine, q: &Asked<'_>, env: &mut [Value]) -> R<Answer> {
    let d = plot(m, q.play, q.args, env)?;
    Ok(Answer::Plot {
        title: d.title,
        game: d.game,
        misere: q.play == Play::Misere,
        shape: d.shape,
        period: d.period,
        file: None,
        svg: d.svg,
    })
}
