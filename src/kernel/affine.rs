//! Affine forms of the batch and window kernels: `k + kn·n + s·x`, in the
//! position's argument `n` and a loop variable `x`, read from the kernels'
//! linear forms. Below both kinds of batch kernel, so neither needs the
//! other's.

use super::*;

/// `k + kn·n + s·x`: affine in the position's argument `n` and the loop
/// variable `x`.
#[derive(Clone, Copy, Debug)]
pub(super) struct Aff2 {
    pub(super) k: i64,
    pub(super) kn: i64,
    pub(super) s: i64,
}

impl Aff2 {
    pub(super) fn of(form: &Form) -> Option<Aff2> {
        let (k, kn) = lin_in_param(&form.c)?;
        Some(Aff2 { k, kn, s: form.s })
    }

    /// The value at `n` (the loop-invariant part, for `x = 0`).
    pub(super) fn at(self, n: i64) -> Option<i64> {
        self.k.checked_add(self.kn.checked_mul(n)?)
    }
}

/// `(k, kn)` when a loop invariant is `k + kn·n` in the parameter (slot 0).
pub(super) fn lin_in_param(lin: &Lin) -> Option<(i64, i64)> {
    let Lin::Sum(l) = lin else {
        return None;
    };
    match l.terms.as_slice() {
        [] => Some((l.k, 0)),
        [(0, kn)] => Some((l.k, *kn)),
        _ => None,
    }
}
