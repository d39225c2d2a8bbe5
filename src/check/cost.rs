//! What evaluating an expression costs, as far as binding a name needs to
//! know: whether it is *plain*, a few steps whatever its values.

use super::*;

/// How many nodes a plain expression may have.
const PLAIN_NODES: usize = 48;

/// The cost of the checked program's expressions; `leaf_ty` gives the
/// types the checker knows of variables and constants.
pub(super) struct Cost<'a, T: Fn(&ir::Expr) -> Option<Ty>> {
    pub prog: &'a ir::Program,
    pub leaf_ty: T,
    /// Whether helpers' bodies are checked, so that a call may be plain.
    pub calls: bool,
}

impl<T: Fn(&ir::Expr) -> Option<Ty>> Cost<'_, T> {
    /// Whether an expression costs a few steps whatever its values:
    /// integers, booleans, names, arithmetic and comparisons of them,
    /// indexing (not slicing), builtins of constant cost, positions, and
    /// calls of helpers whose bodies are plain. Such a value is the same
    /// computed at each use as once, so a `let`'s name is read as the
    /// expression (which keeps a rule's shape for the kernels and the
    /// analyses); any other value (a list built, a call of a function that
    /// builds one, a fold) is computed once, where it is bound.
    pub fn plain(&self, e: ExprId, depth: u32) -> bool {
        let p = self.prog;
        let mut todo = vec![e];
        let mut nodes = 0;
        while let Some(e) = todo.pop() {
            nodes += 1;
            if nodes > PLAIN_NODES {
                return false;
            }
            match p.expr(e) {
                ir::Expr::Int(_)
                | ir::Expr::Bool(_)
                | ir::Expr::Str(_)
                | ir::Expr::EmptyPos
                | ir::Expr::Local(_)
                | ir::Expr::Const(_) => {}
                ir::Expr::Binary(op, a, b) => {
                    if matches!(op, BinOp::Eq | BinOp::Ne)
                        && !self.scalar(*a, depth)
                        && !self.scalar(*b, depth)
                    {
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
                        x @ ir::Expr::Local(_) => matches!(self.ty(x, depth), Some(Ty::Range)),
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
                        Builtin::Abs
                        | Builtin::Popcount
                        | Builtin::Isqrt
                        | Builtin::GridCanon
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
                ir::Expr::CallFun { fun, args } => {
                    let Some(f) = p.funs.get(*fun as usize) else {
                        return false;
                    };
                    if !self.calls
                        || depth >= 4
                        || f.recursive
                        || f.memo
                        || f.asks.is_some()
                        || !self.plain(f.body, depth + 1)
                    {
                        return false;
                    }
                    todo.extend(args);
                }
                ir::Expr::Concat(..)
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
    fn scalar(&self, e: ExprId, depth: u32) -> bool {
        match self.prog.expr(e) {
            ir::Expr::Int(_) | ir::Expr::Bool(_) | ir::Expr::Str(_) => true,
            ir::Expr::Neg(_) | ir::Expr::Not(_) => true,
            ir::Expr::Binary(..) => true,
            x @ (ir::Expr::Local(_) | ir::Expr::Const(_)) => {
                matches!(self.ty(x, depth), Some(Ty::Int | Ty::Bool | Ty::Str))
            }
            ir::Expr::Call { f, .. } => matches!(
                f,
                Builtin::Abs | Builtin::Popcount | Builtin::Isqrt | Builtin::Len | Builtin::Ord
            ),
            _ => false,
        }
    }

    /// The type of a variable or a constant, as far as the checker knows:
    /// a helper's variables (`depth` > 0) are not the frame's.
    fn ty(&self, x: &ir::Expr, depth: u32) -> Option<Ty> {
        match x {
            ir::Expr::Local(_) if depth > 0 => None,
            _ => (self.leaf_ty)(x),
        }
    }
}
