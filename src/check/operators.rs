//! Binary operators: `and`/`or`, comparisons, `+` (integers, positions
//! summed, strings joined as text) and the integer operators.

use super::*;

impl Checker {
    pub(super) fn binary(
        &mut self,
        op: BinOp,
        l: &ast::Expr,
        r: &ast::Expr,
        span: Span,
    ) -> (ExprId, Ty) {
        use BinOp::*;
        match op {
            Or | And => {
                let why = "`and`/`or` combine booleans";
                let l = self.check_ty(l, Ty::Bool, why);
                let r = self.check_ty(r, Ty::Bool, why);
                (self.push(ir::Expr::Binary(op, l, r), span), Ty::Bool)
            }
            Eq | Ne => {
                let (l_id, l_ty) = self.infer(l);
                let (r_id, r_ty) = self.infer(r);
                let lt = self.resolve(l_ty);
                if matches!(lt, Ty::Pos | Ty::Range | Ty::Report) {
                    self.errors.push(
                        Diag::user(
                            Code::TypeMismatch,
                            format!("cannot compare {} with `{}`", lt.describe(), op.symbol()),
                        )
                        .label(l.span, format!("this is {}", lt.describe()))
                        .help("compare values instead, e.g. `grundy(P) == grundy(Q)`"),
                    );
                } else if !self.unify(r_ty, l_ty) {
                    self.mismatch(
                        r.span,
                        l_ty,
                        r_ty,
                        "both sides of a comparison must have the same type",
                    );
                }
                (self.push(ir::Expr::Binary(op, l_id, r_id), span), Ty::Bool)
            }
            Add => {
                let (l_id, l_ty) = self.infer(l);
                if self.resolve(l_ty) == Ty::Pos {
                    let (r_id, r_ty) = self.infer(r);
                    if self.resolve(r_ty) == Ty::Str {
                        return (self.push(ir::Expr::Concat(l_id, r_id), span), Ty::Str);
                    }
                    if matches!(r.kind, ExprKind::Int(0)) {
                        self.out.exprs[r_id as usize] = ir::Expr::EmptyPos;
                    } else if !self.unify(r_ty, Ty::Pos) {
                        self.mismatch(r.span, Ty::Pos, r_ty, "`+` of positions is their sum");
                    }
                    return (self.push(ir::Expr::PosSum(l_id, r_id), span), Ty::Pos);
                }
                let (r_id, r_ty) = self.infer(r);
                // With a string on either side, `+` joins the two as text.
                if self.resolve(l_ty) == Ty::Str || self.resolve(r_ty) == Ty::Str {
                    for (side, ty) in [(l, l_ty), (r, r_ty)] {
                        if matches!(self.resolve(ty), Ty::Range | Ty::Report) {
                            self.mismatch(
                                side.span,
                                Ty::Str,
                                ty,
                                "`+` joins a string with a value",
                            );
                        }
                    }
                    return (self.push(ir::Expr::Concat(l_id, r_id), span), Ty::Str);
                }
                // With a list on either side, `+` joins two lists.
                if self.resolve(l_ty) == Ty::List || self.resolve(r_ty) == Ty::List {
                    for (side, ty) in [(l, l_ty), (r, r_ty)] {
                        if !self.unify(ty, Ty::List) {
                            self.mismatch(side.span, Ty::List, ty, "`+` joins two lists");
                        }
                    }
                    return (self.push(ir::Expr::ListConcat(l_id, r_id), span), Ty::List);
                }
                if self.resolve(r_ty) == Ty::Pos {
                    if matches!(l.kind, ExprKind::Int(0)) {
                        self.out.exprs[l_id as usize] = ir::Expr::EmptyPos;
                        return (self.push(ir::Expr::PosSum(l_id, r_id), span), Ty::Pos);
                    }
                    // A parameter not known yet is a position, as on the left.
                    if !self.unify(l_ty, Ty::Pos) {
                        self.mismatch(
                            l.span,
                            Ty::Pos,
                            l_ty,
                            "`+` adds two integers or two positions",
                        );
                    }
                    return (self.push(ir::Expr::PosSum(l_id, r_id), span), Ty::Pos);
                }
                if !self.unify(l_ty, Ty::Int) {
                    self.mismatch(
                        l.span,
                        Ty::Int,
                        l_ty,
                        "`+` adds two integers or two positions",
                    );
                }
                if !self.unify(r_ty, Ty::Int) {
                    self.mismatch(
                        r.span,
                        Ty::Int,
                        r_ty,
                        "`+` adds two integers or two positions",
                    );
                }
                (self.push(ir::Expr::Binary(op, l_id, r_id), span), Ty::Int)
            }
            _ => {
                let why = match op {
                    Lt | Le | Gt | Ge => "only integers can be ordered",
                    _ => "arithmetic and bitwise operators work on integers",
                };
                let l_id = self.check_ty(l, Ty::Int, why);
                let r_id = self.check_ty(r, Ty::Int, why);
                let ty = if matches!(op, Lt | Le | Gt | Ge) {
                    Ty::Bool
                } else {
                    Ty::Int
                };
                (self.push(ir::Expr::Binary(op, l_id, r_id), span), ty)
            }
        }
    }
}
