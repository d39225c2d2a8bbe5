//! Names bound by `let` clauses and `let ... in` (read in place of the
//! name when plain, else computed once into a slot), and an unknown name
//! that a statement's `let` clause binds, explained.

use super::cost::Cost;
use super::*;

/// An unknown name that a statement binds with a `let` clause: say so (a
/// `let` after a statement that uses the statement's variables is one of
/// its clauses, not a constant). `names` holds each unknown-name error's
/// index in `errors` and its name.
pub(super) fn explain_clause_lets(
    program: &ast::Program,
    mut errors: Vec<Diag>,
    names: &[(usize, String)],
) -> Vec<Diag> {
    let mut lets: HashMap<&str, Span> = HashMap::new();
    let mut loops: HashMap<&str, Span> = HashMap::new();
    for item in &program.items {
        let clauses = match item {
            Item::Print(s) => &s.clauses,
            Item::Check(s) => &s.clauses,
            _ => continue,
        };
        for c in clauses {
            match c {
                ast::Clause::Let { var, span, .. } => {
                    lets.entry(&var.name).or_insert(*span);
                }
                ast::Clause::For { var, .. } => {
                    loops.entry(&var.name).or_insert(var.span);
                }
                ast::Clause::If { .. } | ast::Clause::While { .. } => {}
            }
        }
    }
    for (i, name) in names {
        let Some(d) = errors.get_mut(*i) else {
            continue;
        };
        let explained = if let Some(&span) = lets.get(name.as_str()) {
            d.clone()
                .label(
                    span,
                    format!("`{name}` is bound here, for that statement only"),
                )
                .help(format!(
                    "this `let` uses a variable of the statement before it, so it is one of \
                     that statement's clauses; to define `{name}` for the whole file, start \
                     its line with it"
                ))
        } else if let Some(&span) = loops.get(name.as_str()) {
            d.clone()
                .label(
                    span,
                    format!("`{name}` is bound here, for that statement only"),
                )
                .help(
                    "a `let` at the start of a line defines a constant of the whole file; \
                     to make it a clause of the statement before it, indent it or write it \
                     on the statement's line",
                )
        } else {
            continue;
        };
        *d = explained;
    }
    errors
}

impl Checker {
    /// Binds a `let`'s name to its checked value `e` of type `ty`: read in
    /// place of the name when the value is plain (`None`), else held in a
    /// slot of its own, computed once (`Some(slot)`).
    pub(super) fn bind_let(&mut self, name: &str, e: ExprId, ty: Ty) -> Option<Slot> {
        let leaf_ty = |x: &ir::Expr| match x {
            ir::Expr::Local(s) => self
                .scope
                .iter()
                .rev()
                .find(|b| b.slot == *s)
                .map(|b| self.types.resolve(b.ty)),
            ir::Expr::Const(c) => self
                .const_tys
                .get(c.index())
                .map(|t| self.types.resolve(t.0)),
            _ => None,
        };
        let carried = |s: Slot| self.scope.iter().any(|b| b.slot == s && b.carried);
        let plain = Cost {
            prog: &self.out,
            leaf_ty,
            carried,
        }
        .plain(e);
        let slot = self.bind(name, ty);
        if plain {
            if let Some(b) = self.scope.last_mut() {
                b.alias = Some(e);
            }
            return None;
        }
        Some(slot)
    }

    /// `fold(acc = init, body CLAUSES)` and `scan(...)`: the accumulator
    /// has the type of `init` and of `body`.
    pub(super) fn fold(&mut self, f: &ast::Fold, span: Span) -> (ExprId, Ty) {
        let ast::Fold {
            acc,
            init,
            body,
            clauses,
            scan,
        } = f;
        let scan = *scan;
        let (init_id, ty) = self.infer(init);
        let ty = self.types.resolve(ty);
        if matches!(ty, Ty::Range | Ty::Report) || (scan && ty == Ty::Pos) {
            self.errors.push(
                Diag::user(
                    Code::TypeMismatch,
                    format!("an accumulator cannot be {}", ty.describe()),
                )
                .label(init.span, format!("this is {}", ty.describe()))
                .help(
                    "a fold carries an integer, a boolean, a string, a list or a position \
                     (a scan, whose values make a list, all but a position)",
                ),
            );
        }
        let mark = self.scope.len();
        let slot = self.bind(&acc.name, ty);
        if let Some(b) = self.scope.last_mut() {
            b.carried = true;
        }
        let clauses = self.clauses(clauses);
        let name = &acc.name;
        let body_id = self.check_ty(
            body,
            ty,
            &format!("`{name}`'s next value must have the type of its first"),
        );
        self.scope.truncate(mark);
        let id = self.push(
            ir::Expr::Fold {
                acc: slot,
                init: init_id,
                body: body_id,
                clauses,
                scan,
            },
            span,
        );
        (id, if scan { Ty::List } else { ty })
    }
}
