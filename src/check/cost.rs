//! What evaluating an expression costs, as far as binding a name needs to
//! know: whether it is *plain*, a few steps whatever its values.

use super::*;

/// The cost of the checked program's expressions; `leaf_ty` gives the
/// types the checker knows of variables and constants.
pub(super) struct Cost<'a, T: Fn(&ir::Expr) -> Option<Ty>, F: Fn(ir::Slot) -> bool> {
    pub prog: &'a ir::Program,
    pub leaf_ty: T,
    /// Whether a variable is a fold's accumulator, which changes while
    /// the clauses after a `let` run: a value that reads one is held.
    pub carried: F,
}

impl<T: Fn(&ir::Expr) -> Option<Ty>, F: Fn(ir::Slot) -> bool> Cost<'_, T, F> {
    /// Whether an expression costs a few steps whatever its values, and
    /// reads nothing that changes: integers, booleans, names (not a fold's
    /// accumulator), arithmetic and comparisons of them, indexing (not
    /// slicing), builtins of constant cost and positions. Such a value is
    /// the same computed at each use as once, so a `let`'s name is read as
    /// the expression (which keeps a rule's shape for the kernels and the
    /// analyses); any other value (a list built, a call of a function, a
    /// fold) is computed once, where it is bound.
    pub fn plain(&self, e: ExprId) -> bool {
        let p = self.prog;
        let mut todo = vec![e];
        while let Some(e) = todo.pop() {
            match p.expr(e) {
                ir::Expr::Local(s) if (self.carried)(*s) => return false,
                ir::Expr::Int(_)
                | ir::Expr::Bool(_)
                | ir::Expr::Str(_)
                | ir::Expr::EmptyPos
                | ir::Expr::Local(_)
                | ir::Expr::Const(_) => {}
                ir::Expr::Binary(op, a, b) => {
                    if matches!(op, BinOp::Eq | BinOp::Ne) && !self.scalar(*a) && !self.scalar(*b) {
                        return false;
                    }
                    todo.extend([*a, *b]);
                }
                ir::Expr::Neg(a) | ir::Expr::Not(a) | ir::Expr::Field(a, _) => todo.push(*a),
                ir::Expr::If(c, a, b) => todo.extend([*c, *a, *b]),
                ir::Expr::PosSum(a, b) => todo.extend([*a, *b]),
                ir::Expr::Range { lo, hi, .. } => todo.extend([*lo, *hi]),
                ir::Expr::Index(a, i) => {
                    let slice = match p.expr(*i) {
                        ir::Expr::Range { .. } => true,
                        x @ ir::Expr::Local(_) => matches!((self.leaf_ty)(x), Some(Ty::Range)),
                        _ => false,
                    };
                    if slice {
                        return false;
                    }
                    todo.extend([*a, *i]);
                }
                ir::Expr::Apply { args, .. } => todo.extend(args),
                ir::Expr::Call { f, args, .. } => {
                    let constant_cost = match f {
                        // A function of integers is a few steps.
                        f if f.spec().ints.is_some() => true,
                        Builtin::GridCanon
                        | Builtin::GridTurn
                        | Builtin::IsInfinite
                        | Builtin::Ord
                        | Builtin::Chr
                        | Builtin::Len => true,
                        Builtin::Min | Builtin::Max => args.len() >= 2,
                        _ => false,
                    };
                    if !constant_cost {
                        return false;
                    }
                    todo.extend(args);
                }
                // A helper may build a list or loop: its call is held.
                ir::Expr::CallFun { .. }
                | ir::Expr::Concat(..)
                | ir::Expr::ListConcat(..)
                | ir::Expr::List(_)
                | ir::Expr::Comp { .. }
                | ir::Expr::Let { .. }
                | ir::Expr::Fold { .. }
                | ir::Expr::GameRef(_) => return false,
            }
        }
        true
    }

    /// Whether an expression is an integer, a boolean or a string, as far
    /// as its form says (equality of those costs one step).
    fn scalar(&self, e: ExprId) -> bool {
        match self.prog.expr(e) {
            ir::Expr::Int(_) | ir::Expr::Bool(_) | ir::Expr::Str(_) => true,
            ir::Expr::Neg(_) | ir::Expr::Not(_) => true,
            ir::Expr::Binary(..) => true,
            x @ (ir::Expr::Local(_) | ir::Expr::Const(_)) => {
                matches!((self.leaf_ty)(x), Some(Ty::Int | Ty::Bool | Ty::Str))
            }
            ir::Expr::Call { f, .. } => {
                f.spec().ints.is_some() || matches!(f, Builtin::Len | Builtin::Ord)
            }
            _ => false,
        }
    }
}
