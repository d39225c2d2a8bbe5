//! Integer and comparison semantics, written once: the interpreter, the
//! compiled expressions, the kernels and the shape analysis all call these,
//! so a rule means the same thing on every path.
//!
//! Integers are checked 64-bit here: overflow is no result, never a wrap.
//! An integer that does not fit 64 bits is [`Wide`](crate::ops::Wide) (`ops::wide`), with the
//! same meaning on any width; the interpreter goes there when a 64-bit
//! operation has no result. Division and remainder round toward negative
//! infinity, so `n % k` is never negative for `k > 0`.

mod wide;
pub use wide::{MAX_BITS, Wide};

/// Binary operators.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BinOp {
    Or,
    And,
    Eq,
    Ne,
    Lt,
    Le,
    Gt,
    Ge,
    BitOr,
    BitXor,
    BitAnd,
    Shl,
    Shr,
    Add,
    Sub,
    Mul,
    Div,
    Rem,
    Pow,
}

impl BinOp {
    /// The operator as written.
    pub fn symbol(self) -> &'static str {
        match self {
            BinOp::Or => "or",
            BinOp::And => "and",
            BinOp::Eq => "==",
            BinOp::Ne => "!=",
            BinOp::Lt => "<",
            BinOp::Le => "<=",
            BinOp::Gt => ">",
            BinOp::Ge => ">=",
            BinOp::BitOr => "|",
            BinOp::BitXor => "^",
            BinOp::BitAnd => "&",
            BinOp::Shl => "<<",
            BinOp::Shr => ">>",
            BinOp::Add => "+",
            BinOp::Sub => "-",
            BinOp::Mul => "*",
            BinOp::Div => "/",
            BinOp::Rem => "%",
            BinOp::Pow => "**",
        }
    }

    /// Whether it compares two integers (`<`, `==`, ...).
    pub fn is_comparison(self) -> bool {
        matches!(
            self,
            BinOp::Eq | BinOp::Ne | BinOp::Lt | BinOp::Le | BinOp::Gt | BinOp::Ge
        )
    }

    /// Whether it maps two integers to an integer (`+`, `<<`, `&`, ...).
    pub fn is_arithmetic(self) -> bool {
        !self.is_comparison() && !matches!(self, BinOp::And | BinOp::Or)
    }
}

/// Why an integer operation has no result.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OpError {
    /// The result does not fit in 64 bits.
    Overflow,
    /// Division or remainder by zero.
    DivisionByZero,
    /// An exponent below 0 or from 2^32 on.
    BadExponent,
    /// A shift amount outside 0..64.
    BadShift,
    /// `popcount` of a negative number.
    NegativePopcount,
    /// `isqrt` of a negative number.
    NegativeRoot,
    /// A result wider than [`MAX_BITS`] bits.
    TooWide,
}

/// `x op y` for an arithmetic operator; comparisons and `and`/`or` are not
/// integer operations (see [`compare`]).
#[inline(always)]
pub fn int_op(op: BinOp, x: i64, y: i64) -> Result<i64, OpError> {
    use BinOp::*;
    let checked = |v: Option<i64>| v.ok_or(OpError::Overflow);
    match op {
        Add => checked(x.checked_add(y)),
        Sub => checked(x.checked_sub(y)),
        Mul => checked(x.checked_mul(y)),
        Div => div_floor(x, y),
        Rem => rem_floor(x, y),
        Pow => {
            let e = u32::try_from(y).map_err(|_| OpError::BadExponent)?;
            checked(x.checked_pow(e))
        }
        BitAnd => Ok(x & y),
        BitOr => Ok(x | y),
        BitXor => Ok(x ^ y),
        Shl => {
            let s = shift(y)?;
            let v = x << s;
            if v >> s == x {
                Ok(v)
            } else {
                Err(OpError::Overflow)
            }
        }
        Shr => Ok(x >> shift(y)?),
        // Not integer operations: a caller's bug, reported as no result.
        Eq | Ne | Lt | Le | Gt | Ge | And | Or => Err(OpError::Overflow),
    }
}

fn shift(y: i64) -> Result<u32, OpError> {
    if (0..64).contains(&y) {
        Ok(y as u32)
    } else {
        Err(OpError::BadShift)
    }
}

/// `x op y` for a comparison operator (`None` for any other operator).
#[inline(always)]
pub fn compare(op: BinOp, x: i64, y: i64) -> Option<bool> {
    Some(match op {
        BinOp::Lt => x < y,
        BinOp::Le => x <= y,
        BinOp::Gt => x > y,
        BinOp::Ge => x >= y,
        BinOp::Eq => x == y,
        BinOp::Ne => x != y,
        _ => return None,
    })
}

/// `x / y` rounded toward negative infinity.
#[inline]
pub fn div_floor(x: i64, y: i64) -> Result<i64, OpError> {
    if y == 0 {
        return Err(OpError::DivisionByZero);
    }
    let q = x.checked_div(y).ok_or(OpError::Overflow)?;
    if x % y != 0 && ((x < 0) != (y < 0)) {
        q.checked_sub(1).ok_or(OpError::Overflow)
    } else {
        Ok(q)
    }
}

/// `x % y` with the sign of `y` (floor semantics).
#[inline]
pub fn rem_floor(x: i64, y: i64) -> Result<i64, OpError> {
    if y == 0 {
        return Err(OpError::DivisionByZero);
    }
    let r = x.checked_rem(y).ok_or(OpError::Overflow)?;
    if r != 0 && ((r < 0) != (y < 0)) {
        r.checked_add(y).ok_or(OpError::Overflow)
    } else {
        Ok(r)
    }
}

/// `-x`.
#[inline]
pub fn neg(x: i64) -> Result<i64, OpError> {
    x.checked_neg().ok_or(OpError::Overflow)
}

/// `abs(x)`.
#[inline]
pub fn abs(x: i64) -> Result<i64, OpError> {
    x.checked_abs().ok_or(OpError::Overflow)
}

/// `popcount(x)`: the number of one bits of a non-negative integer.
#[inline]
pub fn popcount(x: i64) -> Result<i64, OpError> {
    if x < 0 {
        Err(OpError::NegativePopcount)
    } else {
        Ok(i64::from(x.count_ones()))
    }
}

/// `isqrt(x)`: the integer square root of a non-negative integer, the
/// largest `r` with `r · r <= x`.
#[inline]
pub fn isqrt(x: i64) -> Result<i64, OpError> {
    if x < 0 {
        Err(OpError::NegativeRoot)
    } else {
        Ok(x.isqrt())
    }
}

/// `⌊a / b⌋` in `i128`, for the affine forms of the analyses (`b != 0`).
pub fn div_floor_wide(a: i128, b: i128) -> i128 {
    let q = a / b;
    if a % b != 0 && ((a < 0) != (b < 0)) {
        q - 1
    } else {
        q
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn floor_division_and_remainder() {
        for x in -20i64..=20 {
            for y in [-7i64, -3, -1, 1, 2, 5] {
                let q = div_floor(x, y).unwrap();
                let r = rem_floor(x, y).unwrap();
                assert_eq!(q * y + r, x);
                assert!(if y > 0 {
                    (0..y).contains(&r)
                } else {
                    (y + 1..=0).contains(&r)
                });
                assert_eq!(i128::from(q), div_floor_wide(x.into(), y.into()));
            }
        }
        assert_eq!(div_floor(i64::MIN, -1), Err(OpError::Overflow));
        assert_eq!(rem_floor(5, 0), Err(OpError::DivisionByZero));
    }

    #[test]
    fn shifts_and_powers_are_checked() {
        assert_eq!(int_op(BinOp::Shl, 1, 62), Ok(1 << 62));
        assert_eq!(int_op(BinOp::Shl, 1, 63), Err(OpError::Overflow));
        assert_eq!(int_op(BinOp::Shl, -1, 63), Ok(i64::MIN));
        assert_eq!(int_op(BinOp::Shl, 1, 64), Err(OpError::BadShift));
        assert_eq!(int_op(BinOp::Shr, -8, 1), Ok(-4));
        assert_eq!(int_op(BinOp::Shr, 1, -1), Err(OpError::BadShift));
        assert_eq!(int_op(BinOp::Pow, 2, 62), Ok(1 << 62));
        assert_eq!(int_op(BinOp::Pow, 2, 63), Err(OpError::Overflow));
        assert_eq!(int_op(BinOp::Pow, 2, -1), Err(OpError::BadExponent));
        assert_eq!(popcount(-1), Err(OpError::NegativePopcount));
        assert_eq!(popcount(0b1011), Ok(3));
        assert_eq!(isqrt(-1), Err(OpError::NegativeRoot));
        assert_eq!(isqrt(i64::MAX), Ok(3_037_000_499));
    }
}
