//! Binary operators: `and`/`or`, comparisons, `+` (integers, positions
//! summed, strings joined as text) and the integer operators; indexing and
//! slicing (`xs[i]`, `s[a..b]`).

use super::*;

impl Checker {
    /// `base[idx]`: an element of a list or a character of a string, or
    /// with a range, a slice of either.
    pub(super) fn index(&mut self, base: &ast::Expr, idx: &ast::Expr, span: Span) -> (ExprId, Ty) {
        // `(xs + ys)[i]` joins lists where the sides are not known yet.
        let (base_id, base_ty) = match &base.kind {
            ExprKind::Binary(BinOp::Add, l, r) => self.binary(BinOp::Add, l, r, base.span, true),
            _ => self.infer(base),
        };
        let (idx_id, idx_ty) = self.infer(idx);
        // A dictionary's value, by its key.
        if self.types.resolve(base_ty) == Ty::Dict {
            if !matches!(
                self.types.resolve(idx_ty),
                Ty::Int | Ty::Str | Ty::Var(_) | Ty::Error
            ) {
                self.mismatch(
                    idx.span,
                    Ty::Int,
                    idx_ty,
                    "a dictionary's keys are integers or strings",
                );
            }
            // (A value may be a position.)
            let ty = self.types.fresh_any();
            return (self.push(ir::Expr::Index(base_id, idx_id), span), ty);
        }
        let slice = match self.types.resolve(idx_ty) {
            Ty::Range => true,
            Ty::Int | Ty::Var(_) | Ty::Error => false,
            _ => {
                self.mismatch(
                    idx.span,
                    Ty::Int,
                    idx_ty,
                    "an index is an integer, or a range for a slice",
                );
                false
            }
        };
        let ty = match self.types.resolve(base_ty) {
            Ty::Str => Ty::Str,

            Ty::List | Ty::Range if slice => Ty::List,
            // A slice of a value not known yet: a list of a list, a string
            // of a string, the same type either way.
            Ty::Var(_) if slice => base_ty,
            // Lists may hold lists: the element type is checked at
            // run time (and a parameter's, list or string, too).
            // (A list's element may be a position.)
            Ty::List | Ty::Range | Ty::Var(_) | Ty::Error => self.types.element_var(base_ty),
            _ => {
                self.mismatch(
                    base.span,
                    Ty::List,
                    base_ty,
                    "only lists and strings can be indexed",
                );
                Ty::Error
            }
        };
        (self.push(ir::Expr::Index(base_id, idx_id), span), ty)
    }

    /// `l op r`. Where a list or a string is wanted (`seq`: `len(xs + ys)`),
    /// `+` of two values not known yet joins lists.
    pub(super) fn binary(
        &mut self,
        op: BinOp,
        l: &ast::Expr,
        r: &ast::Expr,
        span: Span,
        seq: bool,
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
                let lt = self.types.resolve(l_ty);
                if matches!(lt, Ty::Pos | Ty::Range | Ty::Report) {
                    self.errors.push(
                        Diag::user(
                            Code::TypeMismatch,
                            format!("cannot compare {} with `{}`", lt.describe(), op.symbol()),
                        )
                        .label(l.span, format!("this is {}", lt.describe()))
                        .help("compare values instead, e.g. `grundy(P) == grundy(Q)`"),
                    );
                } else if !self.types.unify(r_ty, l_ty) {
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
                if self.types.resolve(l_ty) == Ty::Pos {
                    let (r_id, r_ty) = self.infer(r);
                    if self.types.resolve(r_ty) == Ty::Str {
                        return (self.push(ir::Expr::Concat(l_id, r_id), span), Ty::Str);
                    }
                    if matches!(r.kind, ExprKind::Int(0)) {
                        self.out.exprs[r_id.index()] = ir::Expr::EmptyPos;
                    } else if !self.types.unify(r_ty, Ty::Pos) {
                        self.mismatch(r.span, Ty::Pos, r_ty, "`+` of positions is their sum");
                    }
                    return (self.push(ir::Expr::PosSum(l_id, r_id), span), Ty::Pos);
                }
                let (r_id, r_ty) = self.infer(r);
                // With a string on either side, `+` joins the two as text.
                if self.types.resolve(l_ty) == Ty::Str || self.types.resolve(r_ty) == Ty::Str {
                    for (side, ty) in [(l, l_ty), (r, r_ty)] {
                        if matches!(self.types.resolve(ty), Ty::Range | Ty::Report) {
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
                let unknown = |t: Ty| matches!(t, Ty::Var(_));
                let both_unknown =
                    unknown(self.types.resolve(l_ty)) && unknown(self.types.resolve(r_ty));
                // A slice (`ys[0..2]`) of a value not known yet is a list
                // here, as where a list is wanted.
                let sliced = |e: &ast::Expr| matches!(&e.kind, ExprKind::Index(_, i) if matches!(i.kind, ExprKind::Range { .. }));
                if self.types.resolve(l_ty) == Ty::List
                    || self.types.resolve(r_ty) == Ty::List
                    || ((seq || sliced(l) || sliced(r)) && both_unknown)
                {
                    for (side, ty) in [(l, l_ty), (r, r_ty)] {
                        if !self.types.unify(ty, Ty::List) {
                            self.mismatch(side.span, Ty::List, ty, "`+` joins two lists");
                        }
                    }
                    return (self.push(ir::Expr::ListConcat(l_id, r_id), span), Ty::List);
                }
                if self.types.resolve(r_ty) == Ty::Pos {
                    if matches!(l.kind, ExprKind::Int(0)) {
                        self.out.exprs[l_id.index()] = ir::Expr::EmptyPos;
                        return (self.push(ir::Expr::PosSum(l_id, r_id), span), Ty::Pos);
                    }
                    // A parameter not known yet is a position, as on the left.
                    if !self.types.unify(l_ty, Ty::Pos) {
                        self.mismatch(
                            l.span,
                            Ty::Pos,
                            l_ty,
                            "`+` adds two integers or two positions",
                        );
                    }
                    return (self.push(ir::Expr::PosSum(l_id, r_id), span), Ty::Pos);
                }
                if !self.types.unify(l_ty, Ty::Int) {
                    self.mismatch(
                        l.span,
                        Ty::Int,
                        l_ty,
                        "`+` adds two integers or two positions",
                    );
                }
                if !self.types.unify(r_ty, Ty::Int) {
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
