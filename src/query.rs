//! Statements and queries: `print`, `check`, and the reports (`outcome`,
//! `moves`, `winning`, `table`, `ppositions`, `describe`, `period`, `graph`,
//! the misère queries) answered from the engine as structured answers. The
//! session decides what runs; this module says what a statement answers.

use crate::answer::{Answer, Binding, Sides};
use crate::eval::{CheckCase, Machine};
use crate::flow::R;
use crate::ir::{self, ExprId, Stmt};
use crate::span::{Sources, Span};
use crate::value::Value;

/// The source text of a span, with runs of whitespace collapsed.
fn snippet(sources: &Sources, span: Span) -> String {
    normalize(sources.text(span))
}

/// Runs one statement, handing each of its answers (one, or one per case
/// of a `print` with clauses) to `out` as it comes, with the machine as it
/// stands then.
pub(crate) fn run_stmt(
    m: &mut Machine,
    stmt: &Stmt,
    sources: &Sources,
    out: &mut dyn FnMut(Answer, &Machine),
) -> R<()> {
    match stmt {
        Stmt::Print {
            expr,
            clauses,
            slots,
            span,
            plain,
        } => {
            let mut env = vec![Value::Int(0); *slots as usize];
            let one = |m: &mut Machine, env: &mut [Value]| {
                if *plain {
                    let v = m.interp().eval(*expr, env)?;
                    Ok(Answer::Text {
                        text: crate::report::plain_text(m, &v),
                    })
                } else {
                    print_one(m, *expr, *span, env, sources)
                }
            };
            if clauses.is_empty() {
                let a = one(m, &mut env)?;
                out(a, m);
                return Ok(());
            }
            m.interp().comp_loop(clauses, &mut env, &mut |m, env| {
                let a = one(m, env)?;
                out(a, m);
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
            m.interp()
                .comp_loop(clauses, &mut env, &mut |m, env| match m
                    .interp()
                    .check_case(*cond, env)?
                {
                    CheckCase::Held => {
                        passed += 1;
                        Ok(true)
                    }
                    CheckCase::Failed(sides) => {
                        let bindings = vars
                            .iter()
                            .map(|(n, s)| Binding {
                                name: n.clone(),
                                value: crate::report::shown_value(m, &env[s.index()]),
                            })
                            .collect();
                        let sides = sides.map(|(l, r)| Sides {
                            left: crate::report::shown_value(m, &l),
                            right: crate::report::shown_value(m, &r),
                        });
                        failure = Some((bindings, sides));
                        Ok(false)
                    }
                })?;
            let condition = snippet(sources, m.program().span(*cond));
            let a = match failure {
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
            };
            out(a, m);
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
    if let ir::Expr::Call { f, play, args } = m.program().expr(expr).clone()
        && f.is_report()
    {
        return crate::report::report(m, f, play, &args, span, env);
    }
    let value = m.interp().eval(expr, env)?;
    Ok(match value {
        Value::Pos(parts) => crate::report::outcome(m, &parts)?,
        Value::Str(s) => Answer::Text {
            text: s.to_string(),
        },
        v => {
            let expr_text = snippet(sources, span);
            Answer::Value {
                label: label(m, expr, &expr_text, env)?,
                expr: expr_text,
                value: crate::report::shown_value(m, &v),
            }
        }
    })
}

/// Labels longer than this are not shown.
const LABEL_WIDTH: usize = 60;

/// What `print` shows before ` = `: the expression as written when it is
/// short; else, for `grundy(P)`, the position as it is
/// (`grundy(Nim(7) + Nim(11))`) when that is short; else nothing.
fn label(m: &mut Machine, expr: ExprId, text: &str, env: &mut [Value]) -> R<Option<String>> {
    use crate::builtin::Builtin;
    if text.chars().count() <= LABEL_WIDTH {
        return Ok(Some(text.to_string()));
    }
    if let ir::Expr::Call { f, args, .. } = m.program().expr(expr).clone()
        && matches!(f, Builtin::Grundy | Builtin::MisereGrundy)
        && let [arg] = args[..]
    {
        let parts = if f == Builtin::Grundy {
            m.interp().eval_normal_sum(arg, env)?
        } else {
            m.interp().eval_sum(arg, env)?
        };
        let shown = format!("{}({})", f.name(), m.show().sum(&parts));
        if shown.chars().count() <= LABEL_WIDTH {
            return Ok(Some(shown));
        }
    }
    Ok(None)
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
