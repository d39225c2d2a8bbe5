//! Statements and queries: `print`, `check`, and the reports (`outcome`,
//! `moves`, `winning`, `table`, `ppositions`, `describe`, `period`, `graph`,
//! the misère queries) answered from the engine as structured answers. The
//! session decides what runs; this module says what a statement answers.

use crate::answer::{Answer, Move, Outcome};
use crate::diagnostics::{Code, Diag};
use crate::eval::{CheckCase, Machine};
use crate::flow::{R, Stop};
use crate::ir::{self, Builtin, ExprId, Stmt};
use crate::span::{Sources, Span};
use crate::value::{PosId, Value};
use std::collections::HashSet;

/// The source text of a span, with runs of whitespace collapsed.
fn snippet(sources: &Sources, span: Span) -> String {
    normalize(sources.text(span))
}

/// Runs one statement, appending its answers (one, or one per case of a
/// `print` with clauses) to `out`.
pub(crate) fn run_stmt(
    m: &mut Machine,
    stmt: &Stmt,
    sources: &Sources,
    out: &mut Vec<Answer>,
) -> R<()> {
    match stmt {
        Stmt::Print {
            expr,
            clauses,
            slots,
            span,
        } => {
            let mut env = vec![Value::Int(0); *slots as usize];
            if clauses.is_empty() {
                out.push(print_one(m, *expr, *span, &mut env, sources)?);
                return Ok(());
            }
            m.comp_loop(clauses, &mut env, &mut |m, env| {
                out.push(print_one(m, *expr, *span, env, sources)?);
                Ok(true)
            })?;
            Ok(())
        }
        Stmt::Check {
            cond,
            clauses,
            vars,
            slots,
            ..
        } => {
            let mut env = vec![Value::Int(0); *slots as usize];
            let mut passed = 0u64;
            let mut failure = None;
            m.comp_loop(
                clauses,
                &mut env,
                &mut |m, env| match m.check_case(*cond, env)? {
                    CheckCase::Held => {
                        passed += 1;
                        Ok(true)
                    }
                    CheckCase::Failed(sides) => {
                        let bindings = vars
                            .iter()
                            .map(|(n, s)| (n.clone(), env[*s as usize].to_string()))
                            .collect();
                        failure =
                            Some((bindings, sides.map(|(l, r)| (l.to_string(), r.to_string()))));
                        Ok(false)
                    }
                },
            )?;
            let condition = snippet(sources, m.program().span(*cond));
            out.push(match failure {
                None => Answer::CheckOk {
                    condition,
                    cases: passed,
                },
                Some((bindings, sides)) => Answer::CheckFailed {
                    condition,
                    passed,
                    bindings,
                    sides,
                },
            });
            Ok(())
        }
    }
}

/// What `print EXPR` answers in one environment.
fn print_one(
    m: &mut Machine,
    expr: ExprId,
    span: Span,
    env: &mut [Value],
    sources: &Sources,
) -> R<Answer> {
    if let ir::Expr::Call { f, args } = m.program().expr(expr).clone()
        && f.is_report()
    {
        return report(m, f, &args, env);
    }
    let value = m.eval(expr, env)?;
    Ok(match value {
        Value::Pos(parts) => {
            let grundy = m.grundy_sum(&parts)?;
            Answer::Outcome {
                position: m.show_sum(&parts),
                grundy,
                outcome: Outcome::of(grundy),
            }
        }
        Value::Str(s) => Answer::Text {
            text: s.to_string(),
        },
        v => Answer::Value {
            expr: snippet(sources, span),
            value: v.to_string(),
            json: value_json(&v),
        },
    })
}

fn value_json(v: &Value) -> serde_json::Value {
    match v {
        Value::Int(x) => (*x).into(),
        Value::Bool(b) => (*b).into(),
        Value::Str(s) => s.as_ref().into(),
        Value::List(xs) => xs.iter().map(value_json).collect::<Vec<_>>().into(),
        Value::Range(lo, hi) => serde_json::json!({ "from": lo, "to_inclusive": hi }),
        Value::Pos(_) => serde_json::Value::Null,
    }
}

fn report(m: &mut Machine, f: Builtin, args: &[ExprId], env: &mut [Value]) -> R<Answer> {
    match f {
        Builtin::Outcome => {
            let parts = m.eval_sum(args[0], env)?;
            let grundy = m.grundy_sum(&parts)?;
            Ok(Answer::Outcome {
                position: m.show_sum(&parts),
                grundy,
                outcome: Outcome::of(grundy),
            })
        }
        Builtin::Moves | Builtin::Winning => {
            let parts = m.eval_sum(args[0], env)?;
            let grundy = m.grundy_sum(&parts)?;
            let (mut moves, options) = all_moves(m, &parts, grundy)?;
            if f == Builtin::Winning {
                moves.retain(|mv| mv.grundy == 0);
            }
            let position = m.show_sum(&parts);
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
        Builtin::Table | Builtin::PPositions | Builtin::MisereTable | Builtin::MiserePPositions => {
            let ir::Expr::GameRef(game) = *m.program().expr(args[0]) else {
                return Err(Diag::bug("table without a game").into());
            };
            let misere = matches!(f, Builtin::MisereTable | Builtin::MiserePPositions);
            let params = m.program().games[game as usize].params.clone();
            let name = m.program().games[game as usize].name.clone();
            let mut axes = Vec::new();
            for &a in &args[1..] {
                axes.push(m.eval_axis(a, env)?);
            }
            let span = m.program().span(args[0]);
            let mut value_at = |m: &mut Machine, xs: &[i64]| -> R<u32> {
                let vals: Vec<Value> = xs.iter().map(|x| Value::Int(*x)).collect();
                let p = m.intern(game, &vals, span)?;
                if misere {
                    m.with_misere(|ms, m| {
                        let s = ms.state(m, &[p])?;
                        ms.value(m, s)
                    })
                    .map_err(|d| at(d, span))
                } else {
                    m.grundy(p)
                }
            };
            match (f, axes.as_slice()) {
                (Builtin::Table | Builtin::MisereTable, [xs]) => {
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
                (Builtin::Table | Builtin::MisereTable, [rows, cols]) => {
                    let mut values = Vec::with_capacity(rows.len());
                    for &r in rows.iter() {
                        let mut row = Vec::with_capacity(cols.len());
                        for &c in cols.iter() {
                            row.push(value_at(m, &[r, c])?);
                        }
                        values.push(row);
                    }
                    Ok(Answer::Grid {
                        game: name,
                        misere,
                        params: [params[0].clone(), params[1].clone()],
                        rows: rows.to_vec(),
                        cols: cols.to_vec(),
                        values,
                    })
                }
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
                position: m.show_sum(&parts),
                dot: g.dot,
                nodes: g.nodes,
                edges: g.edges,
            })
        }
        Builtin::MisereOutcome | Builtin::MisereWinning => {
            let parts = m.eval_sum(args[0], env)?;
            let position = m.show_sum(&parts);
            m.with_misere(|ms, m| {
                let state = ms.state(m, &parts)?;
                if f == Builtin::MisereOutcome {
                    let next = ms.next_wins(m, &state)?;
                    return Ok(Answer::MisereOutcome {
                        position,
                        outcome: if next { Outcome::N } else { Outcome::P },
                    });
                }
                let options = ms.options(m, &state)?;
                let mut moves = Vec::new();
                for (from, to, next) in &options {
                    if !ms.next_wins(m, next)? {
                        // Every component that is this one makes the move.
                        for (component, _) in parts.iter().enumerate().filter(|(_, c)| *c == from) {
                            moves.push(Move {
                                component,
                                from: m.show_pos(*from),
                                to: m.show_sum(to),
                                grundy: 0,
                            });
                        }
                    }
                }
                moves.sort_by_key(|mv| mv.component);
                Ok(Answer::MisereWinning {
                    position,
                    components: parts.len(),
                    moves,
                    options: options.len(),
                })
            })
            .map_err(|d| at(d, m.program().span(args[0])))
        }
        Builtin::Describe | Builtin::Period => {
            let ir::Expr::GameRef(game) = *m.program().expr(args[0]) else {
                return Err(Diag::bug("describe/period without a game").into());
            };
            if f == Builtin::Describe {
                return Ok(Answer::Describe {
                    lines: crate::analysis::describe(m, game),
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
            Ok(match crate::analysis::period(m, game, budget, span)? {
                crate::analysis::Search::Found(p) => Answer::Period {
                    game: name,
                    computed: p.computed,
                    found: Some(p),
                    why: None,
                },
                crate::analysis::Search::NotFound { computed, why } => Answer::Period {
                    game: name,
                    found: None,
                    computed,
                    why,
                },
            })
        }
        _ => Err(Diag::bug(format!("`{}` is not a report", f.name())).into()),
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

type ValueAt<'a> = dyn FnMut(&mut Machine, &[i64]) -> R<u32> + 'a;

fn p_positions(
    m: &mut Machine,
    axes: &[Vec<i64>],
    i: usize,
    tuple: &mut Vec<i64>,
    out: &mut Vec<Vec<i64>>,
    value_at: &mut ValueAt<'_>,
) -> R<()> {
    if i == axes.len() {
        if value_at(m, tuple)? == 0 {
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

/// Every move of a sum: each component (identical ones each with its own
/// index), each distinct option; and how many moves they stand for (a group
/// of a huge heap's splits is many moves).
fn all_moves(m: &mut Machine, parts: &[PosId], total: u32) -> R<(Vec<Move>, u64)> {
    let mut moves: Vec<Move> = Vec::new();
    // How many moves each component has.
    let mut counts = vec![0u64; parts.len()];
    for (i, &c) in parts.iter().enumerate() {
        // A component seen before moves as that one did.
        if let Some(j) = parts[..i].iter().position(|&d| d == c) {
            let same: Vec<Move> = moves
                .iter()
                .filter(|mv| mv.component == j)
                .cloned()
                .collect();
            moves.extend(same.into_iter().map(|mv| Move { component: i, ..mv }));
            counts[i] = counts[j];
            continue;
        }
        let count = &mut counts[i];
        let gc = m.grundy(c)?;
        // A huge heap of a game with a proven period: its moves by family,
        // splits grouped by residue.
        if let Some(groups) = crate::analysis::huge_moves(m, c)? {
            for (to, value, n) in groups {
                *count = count.saturating_add(n);
                moves.push(Move {
                    component: i,
                    from: m.show_pos(c),
                    to,
                    grundy: total ^ gc ^ value,
                });
            }
            continue;
        }
        let mut seen = HashSet::new();
        let mut options = crate::oracle::Moves::default();
        m.options_into(c, &mut options)?;
        for opt in options.iter() {
            let mut canon = opt.to_vec();
            canon.sort_unstable();
            if !seen.insert(canon) {
                continue;
            }
            let after = total ^ gc ^ m.grundy_sum(opt)?;
            *count += 1;
            moves.push(Move {
                component: i,
                from: m.show_pos(c),
                to: m.show_sum(opt),
                grundy: after,
            });
        }
    }
    Ok((moves, counts.iter().fold(0u64, |a, &b| a.saturating_add(b))))
}

/// A definition's text without comments, whitespace between tokens
/// collapsed to one space (strings kept as written).
pub(crate) fn normalize(text: &str) -> String {
    use crate::syntax::Lex;
    let mut out = String::with_capacity(text.len());
    let mut space = false;
    for (c, class) in text.chars().zip(char_classes(text)) {
        match class {
            Lex::Code if c.is_whitespace() => space = true,
            Lex::Comment => space = true,
            _ => {
                if space && !out.is_empty() {
                    out.push(' ');
                }
                space = false;
                out.push(c);
            }
        }
    }
    out
}

/// The class of each character (that of its first byte).
fn char_classes(text: &str) -> impl Iterator<Item = crate::syntax::Lex> {
    let classes = crate::syntax::lex(text);
    text.char_indices()
        .map(move |(i, _)| classes[i])
        .collect::<Vec<_>>()
        .into_iter()
}
