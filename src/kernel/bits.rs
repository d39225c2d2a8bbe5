//! Bit tests on a loop variable: a loop followed by `if (m >> v) & K == K`
//! (a board's cells that a move can start from) reads one word per loop
//! instead of testing every value. `m` does not depend on the loop
//! variable, so the cells that pass are the set bits of
//! `(m >> k1) & (m >> k2) & ...` over the bits `k` of `K`; a range loop
//! visits only those.

use crate::compiled::{BoolExpr, IntCode, IntExpr};
use crate::ir::BinOp;
use crate::linear::mentions;

/// `((m >> (v + offset)) & k) == k` for the loop variable `v`.
#[derive(Debug)]
pub(super) struct BitTest {
    /// `m`, which does not read `v`.
    m: IntCode<[i64]>,
    /// The bits `K` (positive).
    k: i64,
    /// What the shift adds to `v`.
    offset: i64,
}

impl BitTest {
    /// The test `c` as a bit test on the variable in slot `v`, if it is one:
    /// `(m >> v) & K == K`, the shift `v + c` or `v - c`, and `!= 0` for a
    /// single bit.
    pub(super) fn of(c: &BoolExpr, v: u32) -> Option<BitTest> {
        let BoolExpr::Cmp(op, lhs, IntExpr::Const(rhs)) = c else {
            return None;
        };
        let IntExpr::Bin(BinOp::BitAnd, a, b) = lhs else {
            return None;
        };
        let (shifted, k) = match (&**a, &**b) {
            (s, &IntExpr::Const(k)) | (&IntExpr::Const(k), s) => (s, k),
            _ => return None,
        };
        let holds = match op {
            BinOp::Eq => *rhs == k,
            BinOp::Ne => *rhs == 0 && k.count_ones() == 1,
            _ => false,
        };
        let IntExpr::Bin(BinOp::Shr, m, amount) = shifted else {
            return None;
        };
        let offset = match &**amount {
            &IntExpr::Slot(s) if s == v => 0,
            IntExpr::Bin(BinOp::Add, x, y) => match (&**x, &**y) {
                (&IntExpr::Slot(s), &IntExpr::Const(c))
                | (&IntExpr::Const(c), &IntExpr::Slot(s))
                    if s == v =>
                {
                    c
                }
                _ => return None,
            },
            IntExpr::Bin(BinOp::Sub, x, c) => match (&**x, &**c) {
                (&IntExpr::Slot(s), &IntExpr::Const(c)) if s == v => c.checked_neg()?,
                _ => return None,
            },
            _ => return None,
        };
        (holds && k > 0 && !mentions(m, v)).then(|| BitTest {
            m: IntCode::int(m),
            k,
            offset,
        })
    }

    /// The word whose bit `v + offset` says whether the test holds for `v`
    /// (when `v + offset` is a shift amount, 0 to 63); `None` where `m`
    /// cannot be evaluated (the test then runs as written, and reports).
    #[inline]
    pub(super) fn word(&self, env: &[i64]) -> Option<u64> {
        let m = self.m.eval(env)?;
        let mut word = -1i64;
        let mut k = self.k;
        while k != 0 {
            // Arithmetic shifts: bits above 63 are the sign, as `>>` reads them.
            word &= m >> k.trailing_zeros();
            k &= k - 1;
        }
        Some(word as u64)
    }

    /// The bit of `word` that holds the test for `v`, if `v + offset` is a
    /// shift amount.
    #[inline]
    pub(super) fn bit(&self, v: i64) -> Option<u32> {
        let j = v.checked_add(self.offset)?;
        (0..64).contains(&j).then_some(j as u32)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::compiled::BoolCode;

    fn shr(m: IntExpr, amount: IntExpr) -> IntExpr {
        IntExpr::Bin(BinOp::Shr, Box::new(m), Box::new(amount))
    }

    fn bin(op: BinOp, a: IntExpr, b: IntExpr) -> IntExpr {
        IntExpr::Bin(op, Box::new(a), Box::new(b))
    }

    /// Every shape the test recognizes agrees with the condition, evaluated
    /// as written, for every loop value whose shift is in range.
    #[test]
    fn a_bit_test_agrees_with_its_condition() {
        let (m, v) = (0u32, 1u32);
        let amounts = [
            IntExpr::Slot(v),
            bin(BinOp::Add, IntExpr::Slot(v), IntExpr::Const(3)),
            bin(BinOp::Add, IntExpr::Const(2), IntExpr::Slot(v)),
            bin(BinOp::Sub, IntExpr::Slot(v), IntExpr::Const(1)),
        ];
        let mut conds = Vec::new();
        for amount in &amounts {
            for k in [1i64, 3, 5, 33, (1 << 62) | 1] {
                let masked = bin(
                    BinOp::BitAnd,
                    shr(IntExpr::Slot(m), amount.clone()),
                    IntExpr::Const(k),
                );
                conds.push(BoolExpr::Cmp(BinOp::Eq, masked.clone(), IntExpr::Const(k)));
                if k == 1 {
                    conds.push(BoolExpr::Cmp(BinOp::Ne, masked, IntExpr::Const(0)));
                }
            }
        }
        let masks = [
            0i64,
            -1,
            0x0f0f_0f0f_0f0f_0f0f,
            i64::MIN,
            i64::MAX,
            0x1234_5678_9abc_def0,
            -0x1234_5678,
        ];
        for c in &conds {
            let test = BitTest::of(c, v).expect("a bit test");
            let code: BoolCode<[i64]> = BoolCode::new(c);
            for &mask in &masks {
                let mut env = [mask, 0];
                let word = test.word(&env).expect("m evaluates");
                for x in -5..70 {
                    env[1] = x;
                    let want = code.eval(&env);
                    match test.bit(x) {
                        Some(j) => {
                            assert_eq!(want, Some(word >> j & 1 == 1), "{c:?} m={mask} v={x}")
                        }
                        None => assert_eq!(want, None, "{c:?} v={x}: a bad shift"),
                    }
                }
            }
        }
    }

    #[test]
    fn other_conditions_are_not_bit_tests() {
        let v = 1;
        let masked =
            |m: IntExpr, k| bin(BinOp::BitAnd, shr(m, IntExpr::Slot(v)), IntExpr::Const(k));
        let not = [
            // `m` reads the loop variable.
            BoolExpr::Cmp(BinOp::Eq, masked(IntExpr::Slot(v), 1), IntExpr::Const(1)),
            // Not all of K's bits.
            BoolExpr::Cmp(BinOp::Eq, masked(IntExpr::Slot(0), 3), IntExpr::Const(1)),
            // `!= 0` of two bits holds when either is set.
            BoolExpr::Cmp(BinOp::Ne, masked(IntExpr::Slot(0), 3), IntExpr::Const(0)),
            BoolExpr::Cmp(BinOp::Lt, masked(IntExpr::Slot(0), 1), IntExpr::Const(1)),
            // A negative K.
            BoolExpr::Cmp(BinOp::Eq, masked(IntExpr::Slot(0), -1), IntExpr::Const(-1)),
        ];
        for c in &not {
            assert!(BitTest::of(c, v).is_none(), "{c:?}");
        }
    }
}
