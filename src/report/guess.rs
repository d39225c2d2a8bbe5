//! `guess(G)`: the smallest formula giving a game's values (or, for two
//! parameters or three, its P-positions), searched by `crate::guess` over
//! values computed here, and written as a `check` statement to paste.

use super::*;
use crate::answer::GuessFound;
use crate::guess::{Formula, Problem, Sought};

/// Formulas built when no budget is given: a few seconds, under a
/// gigabyte (every formula of size 8 for one parameter).
const DEFAULT_BUDGET: i64 = 10_000_000;

/// The most formulas a budget may ask for.
const MOST: i64 = 1_000_000_000_000;

/// The points a guess fits, per number of free parameters: each runs over
/// `0..=fit`.
fn extent(vars: usize) -> i64 {
    match vars {
        1 => 1023,
        2 => 31,
        _ => 9,
    }
}

/// A guess and what it was asked about.
pub(super) struct Guessed {
    /// The game as asked: `G`, or the section `G(_, 3)`.
    game: String,
    /// A point as written: `G(n, 3)`.
    call: String,
    /// The free parameters' names.
    names: Vec<String>,
    /// How far each runs.
    fit: i64,
    /// The search's answer.
    found: crate::guess::Guess,
}

impl Guessed {
    /// `n in 0..=1023`, or `a, b in 0..=31`.
    fn points(&self) -> String {
        format!("{} in 0..={}", self.names.join(", "), self.fit)
    }

    /// The `check` statement of a formula, over the points it fits.
    fn check(&self, kind: Sought, f: &Formula) -> String {
        let clauses: Vec<String> = self
            .names
            .iter()
            .map(|n| format!("for {n} in 0..={}", self.fit))
            .collect();
        let cond = match kind {
            Sought::Values => format!("grundy({}) == {}", self.call, f.operand(&self.names)),
            Sought::Zeros => format!("(grundy({}) == 0) == {}", self.call, f.operand(&self.names)),
        };
        format!("check {cond} {}", clauses.join(" "))
    }

    /// The answer to print.
    pub(super) fn answer(&self) -> Answer {
        let found = self.found.found.as_ref().map(|(kind, f)| GuessFound {
            formula: f.text(&self.names),
            gives: match kind {
                Sought::Values => "values",
                Sought::Zeros => "ppositions",
            }
            .to_string(),
            size: f.size() as u64,
            statement: self.check(*kind, f),
        });
        Answer::Guess {
            game: self.game.clone(),
            call: self.call.clone(),
            points: self.points(),
            found,
            searched: self.found.complete as u64,
            tried: self.found.tried,
        }
    }

    /// The answer as a value.
    pub(super) fn value(&self) -> R<Value> {
        let s = |x: String| Value::Str(x.into());
        let mut values = match &self.found.found {
            Some((kind, f)) => vec![
                Value::Bool(true),
                s(f.text(&self.names)),
                s(match kind {
                    Sought::Values => "values".into(),
                    Sought::Zeros => "ppositions".into(),
                }),
                s(self.check(*kind, f)),
                Value::Int(f.size() as i64),
            ],
            None => vec![
                Value::Bool(false),
                s(String::new()),
                s(String::new()),
                s(String::new()),
                Value::Int(0),
            ],
        };
        values.push(Value::Int(self.found.complete as i64));
        values.push(Value::Int(
            i64::try_from(self.found.tried).unwrap_or(i64::MAX),
        ));
        record(RecordKind::Guess, values)
    }
}

pub(super) const QUERY: Query = Query {
    answer: |m, q, env| Ok(guess(m, q.args, env)?.answer()),
    value: |m, q, env| guess(m, q.args, env)?.value(),
};

/// `guess(G[, budget])`: the game's values at the points, then the search.
fn guess(m: &mut Machine, args: &[ExprId], env: &mut [Value]) -> R<Guessed> {
    let (slice, rest) = section(m, args, env)?;
    let game = game_arg(m, args)?;
    let budget = match rest.first() {
        Some(&b) => {
            let v = m.interp().eval_int(b, env)?;
            if !(1..=MOST).contains(&v) {
                return Err(Diag::user(
                    Code::BadBudget,
                    format!("a guess's budget is a number of formulas from 1 to 10^12, not {v}"),
                )
                .label(m.program().span(b), "this budget")
                .help(format!(
                    "leave it out for {DEFAULT_BUDGET} formulas (a few seconds), or give more: `guess(G, 30000000)`"
                ))
                .into());
            }
            v
        }
        None => DEFAULT_BUDGET,
    };
    let g = &m.program().games[game.index()];
    let gname = g.name.clone();
    let names: Vec<String> = slice.free.iter().map(|&i| g.params[i].clone()).collect();
    let call = slice.name(&gname, &names);
    let shown = match slice.free.len() == slice.args.len() {
        true => gname.clone(),
        false => slice.name(&gname, &[]),
    };
    let vars = names.len();
    let fit = extent(vars);
    let mut points = Vec::new();
    let axis: Vec<i64> = (0..=fit).collect();
    tables::each_point(&vec![axis; vars], &mut |xs| {
        points.extend_from_slice(xs);
        Ok(())
    })?;
    let span = m.program().span(args[0]);
    let mut values = Vec::with_capacity(points.len() / vars);
    for xs in points.chunks(vars) {
        let p = m.intern(game, &slice.point(xs), span)?;
        match m.gsg(p)? {
            Gsg::Finite(v) => values.push(i64::from(v)),
            Gsg::Infinite(_) => {
                let at: Vec<String> = xs.iter().map(i64::to_string).collect();
                return Err(Diag::user(
                    Code::Infinite,
                    format!(
                        "`guess` needs finite values: {} is a draw (∞)",
                        slice.name(&gname, &at)
                    ),
                )
                .label(span, "this game")
                .help("a formula gives numbers; ask `table` for the values with ∞")
                .into());
            }
        }
    }
    let constants = constants(&slice, vars, &values);
    // The points that tell formulas apart first.
    let (order, sample) = crate::guess::sample_first(&points, vars);
    let points: Vec<i64> = order
        .iter()
        .flat_map(|&i| points[i * vars..][..vars].iter().copied())
        .collect();
    let values: Vec<i64> = order.iter().map(|&i| values[i]).collect();
    let problem = Problem {
        vars,
        points: &points,
        values: &values,
        sample,
        constants: &constants,
        budget: budget as u64,
        values_too: true,
    };
    let found = crate::guess::search(&problem, &mut |done| {
        use crate::oracle::Oracle;
        m.oracle().spend(done)
    })?;
    Ok(Guessed {
        game: shown,
        call,
        names,
        fit,
        found,
    })
}

/// The numbers a formula may write: 0 to 10, the fixed parameters, and for
/// one parameter the period and saltus the values show (`values` in the
/// order of n).
fn constants(slice: &tables::Slice, vars: usize, values: &[i64]) -> Vec<i64> {
    let mut c: Vec<i64> = (0..=10).collect();
    c.extend(
        slice
            .args
            .iter()
            .copied()
            .filter(|&a| (0..=64).contains(&a)),
    );
    if vars == 1 {
        // One parameter's points are in order: the sample is 0..=63.
        let seq: Vec<u32> = values.iter().map(|&v| v as u32).collect();
        if let Some((p, s)) = crate::solve::analysis::observed(&seq) {
            c.extend([p, s].into_iter().filter(|&x| (0..=1024).contains(&x)));
        }
    }
    c.sort_unstable();
    c.dedup();
    c
}
