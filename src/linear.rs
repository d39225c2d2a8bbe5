//! Linear forms and value intervals of compiled integer expressions: the one
//! lowering that the kernels, the batch kernels and the shape analysis read
//! rules through.
//!
//! [`Linear::of`](crate::linear::Linear::of) turns `k + c·x - y` into `k + Σ coef·slot` (checked, so a
//! form exists only where its numbers fit); [`affine_in`](crate::linear::affine_in) splits an
//! expression into a part without the loop variable and a step per value of
//! it; [`interval`](crate::linear::interval) bounds what an expression can take and says where
//! evaluating it as written could overflow, which decides where the
//! regrouping of the first two is allowed. [`Affine`](crate::linear::Affine) is the one affine
//! form in a game's parameter and a loop variable that the shape analysis
//! and the batch and window kernels read their rules into.

use crate::compiled::{BoolExpr, IntExpr};
use crate::ops::BinOp;

/// `k + Σ coef·slot`, its terms in slot order with no zero coefficient.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Linear {
    /// The constant term.
    pub k: i64,
    /// `(slot, coefficient)`.
    pub terms: Vec<(u32, i64)>,
}

impl Linear {
    /// The constant `k`.
    pub fn konst(k: i64) -> Linear {
        Linear {
            k,
            terms: Vec::new(),
        }
    }

    /// The variable in `slot`.
    pub fn slot(slot: u32) -> Linear {
        Linear {
            k: 0,
            terms: vec![(slot, 1)],
        }
    }

    /// Whether no variable occurs.
    pub fn is_const(&self) -> bool {
        self.terms.is_empty()
    }

    /// The coefficient of `slot`.
    pub fn coef(&self, slot: u32) -> i64 {
        self.terms
            .iter()
            .find(|(s, _)| *s == slot)
            .map_or(0, |(_, c)| *c)
    }

    /// `self + o`.
    pub fn add(&self, o: &Linear) -> Option<Linear> {
        let mut terms = self.terms.clone();
        for &(s, c) in &o.terms {
            match terms.binary_search_by_key(&s, |t| t.0) {
                Ok(i) => terms[i].1 = terms[i].1.checked_add(c)?,
                Err(i) => terms.insert(i, (s, c)),
            }
        }
        terms.retain(|t| t.1 != 0);
        Some(Linear {
            k: self.k.checked_add(o.k)?,
            terms,
        })
    }

    /// `m·self`.
    pub fn scale(&self, m: i64) -> Option<Linear> {
        if m == 0 {
            return Some(Linear::konst(0));
        }
        Some(Linear {
            k: self.k.checked_mul(m)?,
            terms: self
                .terms
                .iter()
                .map(|&(s, c)| Some((s, c.checked_mul(m)?)))
                .collect::<Option<_>>()?,
        })
    }

    /// `self - o`.
    pub fn sub(&self, o: &Linear) -> Option<Linear> {
        self.add(&o.scale(-1)?)
    }

    /// `e` as a linear form in its slots, if it is one: sums, differences,
    /// negations and products where one factor is constant.
    pub fn of(e: &IntExpr) -> Option<Linear> {
        Linear::of_in(e, &|s| Some(Linear::slot(s)))
    }

    /// `e` as a linear form with each slot replaced by `slot(s)` (`None`:
    /// not linear): a slot that stands for a constant makes products with
    /// it linear (`k * k` for a loop variable unrolled to 3).
    pub fn of_in(e: &IntExpr, slot: &dyn Fn(u32) -> Option<Linear>) -> Option<Linear> {
        let of = |e: &IntExpr| Linear::of_in(e, slot);
        Some(match e {
            IntExpr::Const(v) => Linear::konst(*v),
            IntExpr::Slot(s) => slot(*s)?,
            IntExpr::Neg(a) => of(a)?.scale(-1)?,
            IntExpr::Bin(BinOp::Add, a, b) => of(a)?.add(&of(b)?)?,
            IntExpr::Bin(BinOp::Sub, a, b) => of(a)?.sub(&of(b)?)?,
            IntExpr::Bin(BinOp::Mul, a, b) => {
                let (a, b) = (of(a)?, of(b)?);
                match (a.is_const(), b.is_const()) {
                    (true, _) => b.scale(a.k)?,
                    (_, true) => a.scale(b.k)?,
                    _ => return None,
                }
            }
            _ => return None,
        })
    }

    /// The value for integer slots; `None` on overflow or a missing slot.
    #[inline]
    pub fn eval(&self, env: &[i64]) -> Option<i64> {
        let mut v = self.k;
        for &(s, c) in &self.terms {
            v = v.checked_add(env.get(s as usize)?.checked_mul(c)?)?;
        }
        Some(v)
    }
}

/// `k + n·N + a·A`: affine in a one-parameter game's parameter `N` and a
/// loop variable `A` (a split's first part, a window's position). The shape
/// analysis and the batch and window kernels all read rules into it;
/// every operation is checked (`None` on overflow).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Affine {
    /// The constant term.
    pub k: i64,
    /// The coefficient of the parameter.
    pub n: i64,
    /// The coefficient of the loop variable.
    pub a: i64,
}

impl Affine {
    /// The parameter `N`.
    pub const N: Affine = Affine { k: 0, n: 1, a: 0 };
    /// The loop variable `A`.
    pub const A: Affine = Affine { k: 0, n: 0, a: 1 };

    /// The constant `k`.
    pub const fn konst(k: i64) -> Affine {
        Affine { k, n: 0, a: 0 }
    }

    /// Whether it is a constant.
    pub fn is_const(self) -> bool {
        self.n == 0 && self.a == 0
    }

    pub fn checked_add(self, o: Affine) -> Option<Affine> {
        Some(Affine {
            k: self.k.checked_add(o.k)?,
            n: self.n.checked_add(o.n)?,
            a: self.a.checked_add(o.a)?,
        })
    }

    pub fn scale(self, c: i64) -> Option<Affine> {
        Some(Affine {
            k: self.k.checked_mul(c)?,
            n: self.n.checked_mul(c)?,
            a: self.a.checked_mul(c)?,
        })
    }

    pub fn checked_sub(self, o: Affine) -> Option<Affine> {
        self.checked_add(o.scale(-1)?)
    }

    /// The value at `N = n`, `A = 0` (the part without the loop variable).
    pub fn at(self, n: i64) -> Option<i64> {
        self.k.checked_add(self.n.checked_mul(n)?)
    }

    /// `k + n·N` from a linear form that reads no slot but the parameter's
    /// (slot 0); `None` otherwise.
    pub fn in_param(l: &Linear) -> Option<Affine> {
        match l.terms.as_slice() {
            [] => Some(Affine::konst(l.k)),
            [(0, n)] => Some(Affine {
                k: l.k,
                n: *n,
                a: 0,
            }),
            _ => None,
        }
    }
}

/// `e` as `c + s·x` in the variable `x`: `c` does not mention `x` (and may
/// be any expression), `s` is a constant of at most `max_step` in size.
pub fn affine_in(e: &IntExpr, x: u32, max_step: i64) -> Option<(IntExpr, i64)> {
    if !mentions(e, x) {
        return Some((e.clone(), 0));
    }
    let bin = |op, a: IntExpr, b: IntExpr| IntExpr::Bin(op, Box::new(a), Box::new(b));
    let (c, s) = match e {
        IntExpr::Slot(s) if *s == x => (IntExpr::Const(0), 1),
        IntExpr::Neg(a) => {
            let (c, s) = affine_in(a, x, max_step)?;
            (IntExpr::Neg(Box::new(c)), -s)
        }
        IntExpr::Bin(op @ (BinOp::Add | BinOp::Sub), a, b) => {
            let ((ca, sa), (cb, sb)) = (affine_in(a, x, max_step)?, affine_in(b, x, max_step)?);
            let s = if *op == BinOp::Add { sa + sb } else { sa - sb };
            (bin(*op, ca, cb), s)
        }
        IntExpr::Bin(BinOp::Mul, a, b) => match (&**a, &**b) {
            (IntExpr::Const(k), other) | (other, IntExpr::Const(k))
                if k.unsigned_abs() <= max_step.unsigned_abs() =>
            {
                let (c, s) = affine_in(other, x, max_step)?;
                (bin(BinOp::Mul, c, IntExpr::Const(*k)), s * k)
            }
            _ => return None,
        },
        _ => return None,
    };
    (s.unsigned_abs() <= max_step.unsigned_abs()).then_some((c, s))
}

/// Whether `e` reads slot `x`.
pub fn mentions(e: &IntExpr, x: u32) -> bool {
    match e {
        IntExpr::Const(_) => false,
        IntExpr::Slot(s) => *s == x,
        IntExpr::Bin(_, a, b) => mentions(a, x) || mentions(b, x),
        IntExpr::Neg(a)
        | IntExpr::Abs(a)
        | IntExpr::Popcount(a)
        | IntExpr::Isqrt(a)
        | IntExpr::Index(_, a)
        | IntExpr::SlotIndex(_, a) => mentions(a, x),
        IntExpr::SlotLen(_) => false,
        IntExpr::Min(xs)
        | IntExpr::Max(xs)
        | IntExpr::GridCanon(xs)
        | IntExpr::GridTurn(xs)
        | IntExpr::Call(_, xs) => xs.iter().any(|a| mentions(a, x)),
        IntExpr::If(c, a, b) => cond_mentions(c, x) || mentions(a, x) || mentions(b, x),
        IntExpr::Reduce(_, _, a, b) => mentions(a, x) || mentions(b, x),
    }
}

/// Whether the condition `c` reads slot `x`.
pub fn cond_mentions(c: &BoolExpr, x: u32) -> bool {
    match c {
        BoolExpr::Const(_) => false,
        BoolExpr::Cmp(_, a, b) => mentions(a, x) || mentions(b, x),
        BoolExpr::And(a, b) | BoolExpr::Or(a, b) => cond_mentions(a, x) || cond_mentions(b, x),
        BoolExpr::Not(a) => cond_mentions(a, x),
        BoolExpr::SlotIndex(s, i) => *s == x || mentions(i, x),
        BoolExpr::Index(_, i) => mentions(i, x),
    }
}

/// Every value of an `i64`.
pub const FULL: (i128, i128) = (i64::MIN as i128, i64::MAX as i128);

/// The values an integer expression can take when every slot stays within
/// its domain (`dom[slot]`, [`FULL`] where none is given), or `None` if
/// some step of evaluating it as written could overflow. Code that regroups
/// arithmetic (`n + BIG - BIG` into `n`) does so only where this proves the
/// regrouping cannot hide an overflow the interpreter would report.
pub fn interval(e: &IntExpr, dom: &[(i128, i128)]) -> Option<(i128, i128)> {
    let fits = |(lo, hi): (i128, i128)| (lo >= FULL.0 && hi <= FULL.1).then_some((lo, hi));
    let corners = |a: (i128, i128), b: (i128, i128), f: fn(i128, i128) -> i128| {
        let xs = [f(a.0, b.0), f(a.0, b.1), f(a.1, b.0), f(a.1, b.1)];
        (
            xs.into_iter().min().unwrap_or(0),
            xs.into_iter().max().unwrap_or(0),
        )
    };
    let abs_max = |a: (i128, i128)| a.0.abs().max(a.1.abs());
    match e {
        IntExpr::Const(v) => Some((i128::from(*v), i128::from(*v))),
        IntExpr::Slot(s) => dom.get(*s as usize).copied().or(Some(FULL)),
        IntExpr::Neg(a) => {
            let a = interval(a, dom)?;
            fits((-a.1, -a.0))
        }
        IntExpr::Popcount(a) => {
            interval(a, dom)?;
            Some((0, 64))
        }
        // A negative argument is an error: no interval.
        IntExpr::Isqrt(a) => {
            let (lo, hi) = interval(a, dom)?;
            let root = |x: i128| i128::from(crate::ops::isqrt(x as i64).unwrap_or(0));
            (lo >= 0).then(|| (root(lo), root(hi)))
        }
        IntExpr::GridCanon(xs) | IntExpr::GridTurn(xs) => {
            for a in xs {
                interval(a, dom)?;
            }
            Some((0, FULL.1))
        }
        // Another function of integers: any value (an error gives up).
        IntExpr::Call(_, xs) => {
            for a in xs {
                interval(a, dom)?;
            }
            Some(FULL)
        }
        IntExpr::Abs(a) => {
            let a = interval(a, dom)?;
            let lo = if a.0 <= 0 && a.1 >= 0 {
                0
            } else {
                a.0.abs().min(a.1.abs())
            };
            fits((lo, abs_max(a)))
        }
        IntExpr::Bin(op, a, b) => {
            let (a, b) = (interval(a, dom)?, interval(b, dom)?);
            match op {
                BinOp::Add => fits(corners(a, b, |x, y| x + y)),
                BinOp::Sub => fits(corners(a, b, |x, y| x - y)),
                BinOp::Mul => fits(corners(a, b, |x, y| x * y)),
                // Division and remainder only shrink (a zero divisor is an
                // error the interpreter reports anyway).
                BinOp::Div => fits((-abs_max(a), abs_max(a))),
                BinOp::Rem => {
                    let m = abs_max(b).max(1) - 1;
                    Some((-m, m))
                }
                // Bit operations never overflow; `>>` only shrinks.
                BinOp::BitAnd | BinOp::BitOr | BinOp::BitXor | BinOp::Shr => Some(FULL),
                // `<<` and `**` may overflow: no regrouping around them.
                _ => None,
            }
        }
        IntExpr::Min(xs) | IntExpr::Max(xs) => {
            let ivs = xs
                .iter()
                .map(|x| interval(x, dom))
                .collect::<Option<Vec<_>>>()?;
            let lo = ivs.iter().map(|i| i.0).min()?;
            let hi = ivs.iter().map(|i| i.1).max()?;
            Some((lo, hi))
        }
        IntExpr::Index(items, i) => {
            interval(i, dom)?;
            let lo = items.iter().min().map_or(0, |v| i128::from(*v));
            let hi = items.iter().max().map_or(0, |v| i128::from(*v));
            Some((lo, hi))
        }
        // Lists in variables, sums of slices: no bound known.
        IntExpr::SlotIndex(..) | IntExpr::SlotLen(_) | IntExpr::Reduce(..) => None,
        IntExpr::If(c, a, b) => {
            cond_safe(c, dom)?;
            let (a, b) = (interval(a, dom)?, interval(b, dom)?);
            Some((a.0.min(b.0), a.1.max(b.1)))
        }
    }
}

/// Whether evaluating the condition as written cannot overflow ([`interval`]).
pub fn cond_safe(c: &BoolExpr, dom: &[(i128, i128)]) -> Option<()> {
    match c {
        BoolExpr::Const(_) => Some(()),
        BoolExpr::Cmp(_, a, b) => {
            interval(a, dom)?;
            interval(b, dom).map(|_| ())
        }
        BoolExpr::And(a, b) | BoolExpr::Or(a, b) => {
            cond_safe(a, dom)?;
            cond_safe(b, dom)
        }
        BoolExpr::Not(a) => cond_safe(a, dom),
        BoolExpr::Index(_, i) => interval(i, dom).map(|_| ()),
        // Lists in variables: no bound known.
        BoolExpr::SlotIndex(..) => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn bin(op: BinOp, a: IntExpr, b: IntExpr) -> IntExpr {
        IntExpr::Bin(op, Box::new(a), Box::new(b))
    }

    #[test]
    fn linear_forms_collect_terms_and_refuse_products_of_variables() {
        // 3·(x0 + 2) - x1 + x0 = 6 + 4·x0 - x1
        let e = bin(
            BinOp::Add,
            bin(
                BinOp::Sub,
                bin(
                    BinOp::Mul,
                    IntExpr::Const(3),
                    bin(BinOp::Add, IntExpr::Slot(0), IntExpr::Const(2)),
                ),
                IntExpr::Slot(1),
            ),
            IntExpr::Slot(0),
        );
        let l = Linear::of(&e).unwrap();
        assert_eq!(l.k, 6);
        assert_eq!(l.terms, vec![(0, 4), (1, -1)]);
        assert_eq!(l.eval(&[5, 7]), Some(6 + 20 - 7));
        // x0 - x0 leaves no term.
        let zero = bin(BinOp::Sub, IntExpr::Slot(0), IntExpr::Slot(0));
        assert!(Linear::of(&zero).unwrap().is_const());
        let square = bin(BinOp::Mul, IntExpr::Slot(0), IntExpr::Slot(0));
        assert_eq!(Linear::of(&square), None);
        // Coefficients that do not fit give no form.
        let big = bin(BinOp::Mul, IntExpr::Const(i64::MAX), IntExpr::Const(2));
        assert_eq!(Linear::of(&big), None);
    }

    #[test]
    fn affine_parts_keep_what_does_not_mention_the_variable() {
        // (x0 * x0) - 2·x1 in x1: c = x0·x0 - 0, s = -2
        let e = bin(
            BinOp::Sub,
            bin(BinOp::Mul, IntExpr::Slot(0), IntExpr::Slot(0)),
            bin(BinOp::Mul, IntExpr::Const(2), IntExpr::Slot(1)),
        );
        let (c, s) = affine_in(&e, 1, 1 << 20).unwrap();
        assert_eq!(s, -2);
        assert!(!mentions(&c, 1));
        assert_eq!(affine_in(&e, 1, 1), None, "the step exceeds the bound");
    }

    #[test]
    fn intervals_refuse_what_could_overflow() {
        let dom = [(0, 100)];
        let e = bin(BinOp::Add, IntExpr::Slot(0), IntExpr::Const(i64::MAX - 100));
        assert_eq!(
            interval(&e, &dom),
            Some((i128::from(i64::MAX - 100), i64::MAX as i128))
        );
        let e = bin(BinOp::Add, IntExpr::Slot(0), IntExpr::Const(i64::MAX - 99));
        assert_eq!(interval(&e, &dom), None);
        let shift = bin(BinOp::Shl, IntExpr::Const(1), IntExpr::Slot(0));
        assert_eq!(interval(&shift, &dom), None);
    }
}
