//! Explaining an unknown name that a statement's `let` clause binds.

use super::*;

/// An unknown name that a statement binds with a `let` clause: say so (a
/// `let` after a statement that uses the statement's variables is one of
/// its clauses, not a constant).
pub(super) fn explain_clause_lets(program: &ast::Program, errors: Vec<Diag>) -> Vec<Diag> {
    let mut lets: HashMap<String, Span> = HashMap::new();
    let mut loops: HashMap<String, Span> = HashMap::new();
    for item in &program.items {
        let clauses = match item {
            Item::Print(s) => &s.clauses,
            Item::Check(s) => &s.clauses,
            _ => continue,
        };
        for c in clauses {
            match c {
                ast::Clause::Let { var, span, .. } => {
                    lets.entry(var.name.clone()).or_insert(*span);
                }
                ast::Clause::For { var, .. } => {
                    loops.entry(var.name.clone()).or_insert(var.span);
                }
                ast::Clause::If { .. } | ast::Clause::While { .. } => {}
            }
        }
    }
    errors
        .into_iter()
        .map(|d| {
            let name = d
                .message
                .strip_prefix("unknown name `")
                .and_then(|rest| rest.strip_suffix('`'));
            match name.and_then(|n| lets.get(n).map(|s| (n.to_string(), *s))) {
                Some((name, span)) if d.code == Code::UnknownName => d
                    .label(
                        span,
                        format!("`{name}` is bound here, for that statement only"),
                    )
                    .help(format!(
                        "this `let` uses a variable of the statement before it, so it is one of \
                         that statement's clauses; to define `{name}` for the whole file, start \
                         its line with it"
                    )),
                _ => match name.and_then(|n| loops.get(n).map(|s| (n.to_string(), *s))) {
                    Some((name, span)) if d.code == Code::UnknownName => d
                        .label(
                            span,
                            format!("`{name}` is bound here, for that statement only"),
                        )
                        .help(
                            "a `let` at the start of a line defines a constant of the whole file; \
                             to make it a clause of the statement before it, indent it or write it \
                             on the statement's line",
                        ),
                    _ => d,
                },
            }
        })
        .collect()
}
