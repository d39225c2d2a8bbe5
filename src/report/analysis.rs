//! A game's analyses: `describe(G)`, its moves in words, and
//! `period(G[, budget])`, the search for its values' period; each as a
//! report and as a value.

use super::*;

pub(super) const DESCRIBE: Query = Query {
    answer: |m, q, _| {
        Ok(Answer::Describe {
            lines: describe(m, q.args)?,
        })
    },
    value: |m, q, _| Ok(Value::Str(describe(m, q.args)?.join("\n").into())),
};

pub(super) const PERIOD: Query = Query {
    answer: period_answer,
    value: period_value,
};

/// `describe(G)`: the moves of a game in words, a line each.
fn describe(m: &mut Machine, args: &[ExprId]) -> R<Vec<String>> {
    let game = game_arg(m, args)?;
    Ok(crate::solve::analysis::describe(&mut m.oracle(), game))
}

/// `print period(G)`: what the search found, or why it found nothing.
fn period_answer(m: &mut Machine, q: &Asked<'_>, env: &mut [Value]) -> R<Answer> {
    Ok(match period(m, q.args, env)? {
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
    })
}

/// `period(G)` as a record.
fn period_value(m: &mut Machine, q: &Asked<'_>, env: &mut [Value]) -> R<Value> {
    let (found, period, preperiod, saltus, proven, computed) = match period(m, q.args, env)?.1 {
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
