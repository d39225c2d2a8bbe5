//! Type variables: a union-find over them, each bound to a type or linked
//! to another, with whether it holds data only (a game's parameter, a
//! list's element) and, for a game's parameter, the argument of the call
//! that fixed its type.

use super::Ty;
use crate::span::Span;

/// The type variables of a program being checked.
#[derive(Default)]
pub(super) struct Types {
    /// Per variable: `Some(t)` bound (to a type or a link), the call that
    /// fixed it, and whether it holds data only.
    vars: Vec<(Option<Ty>, Option<Span>, bool)>,
}

impl Types {
    /// A type variable for data (a game parameter, a list element): never
    /// a position, a range or a report.
    pub(super) fn fresh_var(&mut self) -> Ty {
        self.vars.push((None, None, true));
        Ty::Var(self.vars.len() as u32 - 1)
    }

    /// A type variable for any value (a function's parameters and result).
    pub(super) fn fresh_any(&mut self) -> Ty {
        self.vars.push((None, None, false));
        Ty::Var(self.vars.len() as u32 - 1)
    }

    /// A type variable for an element of a list of type `list`: data where
    /// the list is data (a game's parameter), else data or a position.
    pub(super) fn element_var(&mut self, list: Ty) -> Ty {
        match self.resolve(list) {
            Ty::Var(v) if self.vars[v as usize].2 => self.fresh_var(),
            _ => self.fresh_any(),
        }
    }

    /// What a type is, links followed (a variable where it is not bound).
    pub(super) fn resolve(&self, mut ty: Ty) -> Ty {
        while let Ty::Var(v) = ty {
            match self.vars[v as usize].0 {
                Some(t) => ty = t,
                None => return ty,
            }
        }
        ty
    }

    /// Makes `actual` agree with `expected`; false on a definite mismatch.
    pub(super) fn unify(&mut self, actual: Ty, expected: Ty) -> bool {
        let (a, e) = (self.resolve(actual), self.resolve(expected));
        match (a, e) {
            (Ty::Error, _) | (_, Ty::Error) => true,
            (Ty::Var(x), Ty::Var(y)) if x == y => true,
            (Ty::Var(x), Ty::Var(y)) => {
                // Linked, a variable for data makes the other one for data.
                let data = self.vars[x as usize].2 || self.vars[y as usize].2;
                self.vars[y as usize].2 = data;
                self.vars[x as usize].0 = Some(Ty::Var(y));
                true
            }
            (Ty::Var(x), t) | (t, Ty::Var(x)) => {
                // Data only: never positions, ranges or reports.
                if self.vars[x as usize].2 && matches!(t, Ty::Pos | Ty::Range | Ty::Report) {
                    return false;
                }
                self.vars[x as usize].0 = Some(t);
                true
            }
            (a, e) => a == e,
        }
    }

    /// The argument of the call that fixed a game parameter's type.
    pub(super) fn origin(&self, v: u32) -> Option<Span> {
        self.vars[v as usize].1
    }

    /// Records the argument that fixed a game parameter's type.
    pub(super) fn set_origin(&mut self, v: u32, at: Span) {
        self.vars[v as usize].1 = Some(at);
    }
}
