//! A game's declarations after its rules: `split`, `canonical` and
//! `prefer`, checked in the rules' frame (they read the parameters).

use super::{Checker, Ty};
use crate::diagnostics::{Code, Diag};
use crate::ir;
use crate::syntax::ast;

/// How `g`'s positions are stored and searched; the declarations it
/// cannot have reported.
pub(super) fn declarations(c: &mut Checker, g: &ast::GameDef) -> ir::StoredAs {
    // `split` and `canonical` read the parameters, in the rules' frame.
    let split = g
        .split
        .as_ref()
        .map(|e| c.check_ty(e, Ty::Pos, "`split` must give a position (a sum of parts)"));
    let canonical = g
        .canonical
        .as_ref()
        .map(|e| c.check_ty(e, Ty::Pos, "`canonical` must give a position of this game"));
    let prefer = g
        .prefer
        .as_ref()
        .map(|e| c.check_ty(e, Ty::Bool, "`prefer` must be a condition"));
    if let (Some(e), None, false) = (&g.prefer, &g.split, g.loopy) {
        c.errors.push(
            Diag::user(
                Code::NotSupported,
                "`prefer` without `split`: it orders the pruned search, which solves the games that split",
            )
            .label(e.span, "never used")
            .label(g.header, "this game does not split")
            .help("declare how a position splits into parts with `split`, or remove `prefer`"),
        );
    }
    if let Some(e) = g
        .split
        .as_ref()
        .or(g.canonical.as_ref())
        .or(g.prefer.as_ref())
        .filter(|_| g.loopy)
    {
        c.errors.push(
            Diag::user(
                Code::NotSupported,
                "`split`, `canonical` and `prefer` are not supported in a loopy game",
            )
            .label(e.span, "here")
            .label(g.header, "a loopy game")
            .help("a loopy game's values come from its whole graph: remove them, and write the parts as a sum where the game is used"),
        );
    }
    ir::StoredAs {
        split,
        canonical,
        prefer,
    }
}
