//! The session: source text in, answers and diagnostics out. Used by the file
//! runner today and meant for the REPL's thin front end; knows no terminal.

use crate::answer::{Answer, Move, Outcome};
use crate::check;
use crate::diagnostics::Diag;
use crate::eval::{CheckCase, Limits, Machine, R};
use crate::ir::{self, Builtin, ExprId, Stmt};
use crate::span::Sources;
use crate::syntax;
use crate::value::{PosId, Value};
use std::collections::HashSet;

/// What running a statement produced.
#[derive(Clone, Debug)]
pub enum Event {
    /// An answer to print.
    Answer(Answer),
    /// An error to report (rendered against [`Session::sources`]).
    Error(Diag),
}

/// Totals of a run, for the exit code.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Summary {
    /// Answers produced.
    pub answers: usize,
    /// `check` statements that failed.
    pub failed_checks: usize,
    /// Errors reported.
    pub errors: usize,
}

impl Summary {
    /// The process exit code: 2 on errors, 1 on a failed check, else 0.
    pub fn exit_code(&self) -> i32 {
        if self.errors > 0 {
            2
        } else if self.failed_checks > 0 {
            1
        } else {
            0
        }
    }
}

/// A session: the sources seen so far and the limits to evaluate under.
#[derive(Default)]
pub struct Session {
    sources: Sources,
    limits: Limits,
}

impl Session {
    /// A new session with these limits.
    pub fn new(limits: Limits) -> Session {
        Session {
            sources: Sources::default(),
            limits,
        }
    }

    /// Every source text seen, for rendering diagnostics.
    pub fn sources(&self) -> &Sources {
        &self.sources
    }

    /// Parses and checks a text without running it.
    pub fn check(&mut self, name: &str, text: &str) -> Result<ir::Program, Vec<Diag>> {
        let id = self.sources.add(name, text);
        let base = self.sources.get(id).map_or(0, |s| s.base);
        check::check(&syntax::parse_at(text, base)?)
    }

    /// Runs a whole text: checks it, then runs its statements in order,
    /// handing each answer or error to `emit` as soon as it is known.
    pub fn run(
        &mut self,
        name: &str,
        text: &str,
        emit: &mut dyn FnMut(&Session, Event),
    ) -> Summary {
        let mut summary = Summary::default();
        let mut report = |s: &Session, summary: &mut Summary, e: Event| {
            match &e {
                Event::Answer(a) => {
                    summary.answers += 1;
                    if a.is_failure() {
                        summary.failed_checks += 1;
                    }
                }
                Event::Error(_) => summary.errors += 1,
            }
            emit(s, e);
        };
        let program = match self.check(name, text) {
            Ok(p) => p,
            Err(diags) => {
                for d in diags {
                    report(self, &mut summary, Event::Error(d));
                }
                return summary;
            }
        };
        let stmts = program.stmts.clone();
        let (mut machine, const_errors) = Machine::new(program, self.limits.clone());
        for d in const_errors {
            report(self, &mut summary, Event::Error(d));
        }
        for stmt in &stmts {
            let event = match run_stmt(&mut machine, stmt, &self.sources) {
                Ok(a) => Event::Answer(a),
                Err(d) => Event::Error(d),
            };
            report(self, &mut summary, event);
        }
        summary
    }
}

/// The source text of a span, with runs of whitespace collapsed.
fn snippet(sources: &Sources, span: crate::span::Span) -> String {
    let text = sources.text(span);
    let code = text.lines().map(|l| l.split('#').next().unwrap_or(""));
    code.flat_map(str::split_whitespace)
        .collect::<Vec<_>>()
        .join(" ")
}

fn run_stmt(m: &mut Machine, stmt: &Stmt, sources: &Sources) -> R<Answer> {
    match stmt {
        Stmt::Print { expr, slots, span } => {
            let mut env = vec![Value::Int(0); *slots as usize];
            if let ir::Expr::Call { f, args } = m.program().expr(*expr).clone()
                && f.is_report()
            {
                return report(m, f, &args, &mut env);
            }
            let value = m.eval(*expr, &mut env)?;
            Ok(match value {
                Value::Pos(parts) => {
                    let grundy = m.grundy_sum(&parts)?;
                    Answer::Outcome {
                        position: m.show_sum(&parts),
                        grundy,
                        outcome: Outcome::of(grundy),
                    }
                }
                v => Answer::Value {
                    expr: snippet(sources, *span),
                    value: v.to_string(),
                    json: value_json(&v),
                },
            })
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
                0,
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
            Ok(match failure {
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
            })
        }
    }
}

fn value_json(v: &Value) -> serde_json::Value {
    match v {
        Value::Int(x) => (*x).into(),
        Value::Bool(b) => (*b).into(),
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
            let mut moves = all_moves(m, &parts, grundy)?;
            let options = moves.len();
            if f == Builtin::Winning {
                moves.retain(|mv| mv.grundy == 0);
            }
            let position = m.show_sum(&parts);
            Ok(if f == Builtin::Moves {
                Answer::Moves {
                    position,
                    grundy,
                    moves,
                }
            } else {
                Answer::Winning {
                    position,
                    grundy,
                    moves,
                    options,
                }
            })
        }
        Builtin::Table | Builtin::PPositions => {
            let ir::Expr::GameRef(game) = *m.program().expr(args[0]) else {
                return Err(Diag::bug("table without a game"));
            };
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
                m.grundy(p)
            };
            match (f, axes.as_slice()) {
                (Builtin::Table, [xs]) => {
                    let mut values = Vec::with_capacity(xs.len());
                    for &x in xs.iter() {
                        values.push(value_at(m, &[x])?);
                    }
                    Ok(Answer::Table {
                        game: name,
                        param: params[0].clone(),
                        args: xs.to_vec(),
                        values,
                    })
                }
                (Builtin::Table, [rows, cols]) => {
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
        _ => Err(Diag::bug(format!("`{}` is not a report", f.name()))),
    }
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

/// Every move of a sum: each distinct component, each distinct option.
fn all_moves(m: &mut Machine, parts: &[PosId], total: u32) -> R<Vec<Move>> {
    let mut moves = Vec::new();
    let mut done_parts = HashSet::new();
    for &c in parts {
        if !done_parts.insert(c) {
            continue;
        }
        let gc = m.grundy(c)?;
        let mut seen = HashSet::new();
        for opt in m.options(c)? {
            let mut canon = opt.clone();
            canon.sort_unstable();
            if !seen.insert(canon) {
                continue;
            }
            let after = total ^ gc ^ m.grundy_sum(&opt)?;
            moves.push(Move {
                from: m.show_pos(c),
                to: m.show_sum(&opt),
                grundy: after,
            });
        }
    }
    Ok(moves)
}
