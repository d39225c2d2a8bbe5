//! Integers wider than 64 bits: the same operators, the same floor
//! division and the same two's-complement bitwise meaning as 64-bit ones,
//! on as many bits as a value needs, up to [`MAX_BITS`]. A value that fits
//! 64 bits is never kept wide: [`Wide::narrow`] gives it back as an `i64`,
//! so every integer has one form and the fast paths see only `i64`s.
//!
//! The only module that knows num-bigint.

use super::{BinOp, OpError};
use num_bigint::{BigInt, Sign};
use num_integer::Integer;
use num_traits::{One, Signed, ToPrimitive, Zero};

/// The most bits an integer may have (its magnitude's): a board of 65,536
/// cells.
pub const MAX_BITS: u64 = 1 << 16;

/// An integer of any width (up to [`MAX_BITS`]).
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Wide(BigInt);

impl From<i64> for Wide {
    fn from(x: i64) -> Wide {
        Wide(BigInt::from(x))
    }
}

impl std::fmt::Display for Wide {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}", self.0)
    }
}

impl Wide {
    /// The value as an `i64`, when it fits.
    pub fn narrow(&self) -> Option<i64> {
        self.0.to_i64()
    }

    /// How many bits its magnitude has.
    pub fn bits(&self) -> u64 {
        self.0.bits()
    }

    /// Whether it is below zero.
    pub fn is_negative(&self) -> bool {
        self.0.is_negative()
    }

    /// The words of a non-negative value, least significant first (none
    /// for 0); `None` for a negative one.
    pub fn words(&self) -> Option<Vec<u64>> {
        (!self.0.is_negative()).then(|| self.0.magnitude().to_u64_digits())
    }

    /// The non-negative value of these words, least significant first.
    pub fn from_words(words: &[u64]) -> Wide {
        Wide(BigInt::from_biguint(
            Sign::Plus,
            num_bigint::BigUint::from_slice(
                &words
                    .iter()
                    .flat_map(|w| [*w as u32, (*w >> 32) as u32])
                    .collect::<Vec<u32>>(),
            ),
        ))
    }

    /// Its sign and its magnitude's words (what a key holds).
    pub fn to_signed_words(&self) -> (bool, Vec<u64>) {
        (self.0.is_negative(), self.0.magnitude().to_u64_digits())
    }

    /// The value of a sign and a magnitude's words.
    pub fn from_signed_words(negative: bool, words: &[u64]) -> Wide {
        let m = Wide::from_words(words).0;
        Wide(if negative { -m } else { m })
    }

    /// The number of one bits of a non-negative value.
    pub fn popcount(&self) -> Result<u64, OpError> {
        if self.0.is_negative() {
            Err(OpError::NegativePopcount)
        } else {
            Ok(self.0.magnitude().count_ones())
        }
    }

    /// `popcount(x)` as an integer.
    pub fn popcount_of(&self) -> Result<Wide, OpError> {
        self.popcount().map(|n| Wide(BigInt::from(n)))
    }

    /// `isqrt(x)`: the largest `r` with `r · r <= x`, for `x >= 0`.
    pub fn isqrt(&self) -> Result<Wide, OpError> {
        if self.0.is_negative() {
            Err(OpError::NegativeRoot)
        } else {
            Ok(Wide(self.0.sqrt()))
        }
    }

    /// `gcd(a, b)`, never negative.
    pub fn gcd(&self, other: &Wide) -> Wide {
        Wide(self.0.gcd(&other.0))
    }

    /// `-x`.
    pub fn neg(&self) -> Wide {
        Wide(-&self.0)
    }

    /// `abs(x)`.
    pub fn abs(&self) -> Wide {
        Wide(self.0.abs())
    }

    /// `x op y` for a comparison operator (`None` for any other).
    pub fn compare(op: BinOp, x: &Wide, y: &Wide) -> Option<bool> {
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

    /// `x op y` for an arithmetic operator, on any width: errors only for
    /// a zero divisor, a negative exponent or shift, or a result wider
    /// than [`MAX_BITS`] (checked before it is computed).
    pub fn op(op: BinOp, x: &Wide, y: &Wide) -> Result<Wide, OpError> {
        use BinOp::*;
        let (a, b) = (&x.0, &y.0);
        let fits = |bits: u64| {
            if bits > MAX_BITS {
                Err(OpError::TooWide)
            } else {
                Ok(())
            }
        };
        let v = match op {
            Add => {
                fits(a.bits().max(b.bits()) + 1)?;
                a + b
            }
            Sub => {
                fits(a.bits().max(b.bits()) + 1)?;
                a - b
            }
            Mul => {
                fits(a.bits() + b.bits())?;
                a * b
            }
            Div | Rem if b.is_zero() => return Err(OpError::DivisionByZero),
            Div => a.div_floor(b),
            Rem => a.mod_floor(b),
            Pow => {
                if b.is_negative() {
                    return Err(OpError::BadExponent);
                }
                // 0, 1 and -1 stay small at any power.
                if a.magnitude().is_one() || a.is_zero() {
                    let even = b.is_even();
                    return Ok(Wide(if a.is_negative() && !even {
                        -BigInt::one()
                    } else if a.is_zero() && !b.is_zero() {
                        BigInt::zero()
                    } else {
                        BigInt::one()
                    }));
                }
                let e = b.to_u32().ok_or(OpError::TooWide)?;
                fits((a.bits() - 1).saturating_mul(u64::from(e)) + 1)?;
                num_traits::Pow::pow(a, e)
            }
            BitAnd => a & b,
            BitOr => a | b,
            BitXor => a ^ b,
            Shl | Shr if b.is_negative() => return Err(OpError::BadShift),
            Shl => {
                if a.is_zero() {
                    return Ok(Wide(BigInt::zero()));
                }
                let s = b
                    .to_u64()
                    .filter(|s| *s <= MAX_BITS)
                    .ok_or(OpError::TooWide)?;
                fits(a.bits() + s)?;
                a << s
            }
            Shr => match b.to_u64().filter(|s| *s <= MAX_BITS) {
                Some(s) => a >> s,
                // Past every bit: what is left is the sign.
                None if a.is_negative() => -BigInt::one(),
                None => BigInt::zero(),
            },
            Eq | Ne | Lt | Le | Gt | Ge | And | Or => return Err(OpError::Overflow),
        };
        Ok(Wide(v))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn w(x: i64) -> Wide {
        Wide::from(x)
    }

    /// 2^k.
    fn two_to(k: i64) -> Wide {
        Wide::op(BinOp::Shl, &w(1), &w(k)).unwrap()
    }

    #[test]
    fn wide_results_agree_with_128_bit_arithmetic() {
        let xs = [
            0i64,
            1,
            -1,
            7,
            -7,
            i64::MAX,
            i64::MIN,
            1 << 40,
            -(1 << 40) + 3,
        ];
        let big = |x: i128| {
            let neg = x < 0;
            let m = x.unsigned_abs();
            Wide::from_signed_words(neg, &[m as u64, (m >> 64) as u64])
        };
        for &x in &xs {
            for &y in &xs {
                let (a, b) = (i128::from(x), i128::from(y));
                for (op, want) in [
                    (BinOp::Add, Some(a + b)),
                    (BinOp::Sub, Some(a - b)),
                    (BinOp::BitAnd, Some(a & b)),
                    (BinOp::BitOr, Some(a | b)),
                    (BinOp::BitXor, Some(a ^ b)),
                    (
                        BinOp::Div,
                        (b != 0).then(|| super::super::div_floor_wide(a, b)),
                    ),
                    (
                        BinOp::Rem,
                        (b != 0).then(|| a - b * super::super::div_floor_wide(a, b)),
                    ),
                ] {
                    let got = Wide::op(op, &w(x), &w(y)).ok();
                    assert_eq!(got, want.map(big), "{x} {op:?} {y}");
                }
                if a.unsigned_abs() < 1 << 62 && b.unsigned_abs() < 1 << 62 {
                    assert_eq!(Wide::op(BinOp::Mul, &w(x), &w(y)), Ok(big(a * b)));
                }
                assert_eq!(Wide::compare(BinOp::Lt, &w(x), &w(y)), Some(x < y));
            }
        }
    }

    #[test]
    fn shifts_reach_any_width_and_come_back() {
        let m = Wide::op(BinOp::Sub, &two_to(100), &w(1)).unwrap();
        assert_eq!(m.bits(), 100);
        assert_eq!(m.popcount(), Ok(100));
        assert_eq!(m.words(), Some(vec![u64::MAX, (1 << 36) - 1]));
        assert_eq!(Wide::from_words(&m.words().unwrap()), m);
        assert_eq!(Wide::op(BinOp::Shr, &m, &w(98)).unwrap().narrow(), Some(3));
        assert_eq!(
            Wide::op(BinOp::Shr, &m, &w(1 << 40)).unwrap().narrow(),
            Some(0)
        );
        assert_eq!(
            Wide::op(BinOp::Shr, &w(-5), &w(1 << 40)).unwrap().narrow(),
            Some(-1)
        );
        assert_eq!(Wide::op(BinOp::Shl, &w(1), &w(-1)), Err(OpError::BadShift));
        assert_eq!(
            Wide::op(BinOp::Shl, &w(1), &w(1 << 17)),
            Err(OpError::TooWide)
        );
        assert_eq!(
            Wide::op(BinOp::Shl, &w(0), &w(1 << 40)).unwrap().narrow(),
            Some(0)
        );
        assert_eq!(two_to(63).to_string(), "9223372036854775808");
        assert_eq!(two_to(63).narrow(), None);
        assert_eq!(two_to(63).neg().narrow(), Some(i64::MIN));
        let (neg, words) = m.neg().to_signed_words();
        assert_eq!(Wide::from_signed_words(neg, &words), m.neg());
        assert_eq!(m.neg().popcount(), Err(OpError::NegativePopcount));
        assert_eq!(m.neg().words(), None);
        // Two's complement, as on 64 bits: -1 has every bit.
        assert_eq!(Wide::op(BinOp::BitAnd, &w(-1), &m), Ok(m.clone()));
        assert_eq!(Wide::op(BinOp::BitXor, &m, &m).unwrap().narrow(), Some(0));
    }

    #[test]
    fn powers_are_bounded_before_they_are_computed() {
        assert_eq!(Wide::op(BinOp::Pow, &w(2), &w(100)), Ok(two_to(100)));
        assert_eq!(
            Wide::op(BinOp::Pow, &w(2), &w(1 << 20)),
            Err(OpError::TooWide)
        );
        assert_eq!(
            Wide::op(BinOp::Pow, &w(2), &two_to(70)),
            Err(OpError::TooWide)
        );
        assert_eq!(
            Wide::op(BinOp::Pow, &w(-1), &two_to(70)).unwrap().narrow(),
            Some(1)
        );
        assert_eq!(
            Wide::op(BinOp::Pow, &w(-1), &w(3)).unwrap().narrow(),
            Some(-1)
        );
        assert_eq!(
            Wide::op(BinOp::Pow, &w(0), &w(0)).unwrap().narrow(),
            Some(1)
        );
        assert_eq!(
            Wide::op(BinOp::Pow, &w(0), &w(5)).unwrap().narrow(),
            Some(0)
        );
        assert_eq!(
            Wide::op(BinOp::Pow, &w(3), &w(-1)),
            Err(OpError::BadExponent)
        );
        assert_eq!(
            Wide::op(BinOp::Div, &w(3), &w(0)),
            Err(OpError::DivisionByZero)
        );
        assert_eq!(
            Wide::op(BinOp::Mul, &two_to(40_000), &two_to(40_000)),
            Err(OpError::TooWide)
        );
    }
}
