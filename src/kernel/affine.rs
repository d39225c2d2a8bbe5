//! The kernels' affine forms (`linear::Affine`, `k + n·N + a·x` in the
//! position's argument and a loop variable) read from their linear forms.
//! Below both kinds of batch kernel, so neither needs the other's.

use super::*;
use crate::linear::Affine;

/// A loop variable's form `c + s·x` whose invariant part `c` is affine in
/// the parameter.
pub(super) fn of_form(form: &Form) -> Option<Affine> {
    let mut f = in_param(&form.c)?;
    f.a = form.s;
    Some(f)
}

/// `k + n·N` when a loop invariant reads the parameter (slot 0) alone.
pub(super) fn in_param(lin: &Lin) -> Option<Affine> {
    let Lin::Sum(l) = lin else {
        return None;
    };
    Affine::in_param(l)
}
