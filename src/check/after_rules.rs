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

/// A warning at each `prefer` of a program where no game splits: the
/// pruned search, which reads them, is the plan of games that split (and
/// of the parts they split into), so they are never used.
pub(super) fn unused_prefers(c: &mut Checker, program: &ast::Program) {
    let games = program.items.iter().filter_map(|item| match item {
        ast::Item::Game(g) => Some(g),
        _ => None,
    });
    if games.clone().any(|g| g.split.is_some()) {
        return;
    }
    for g in games {
        if let Some(e) = &g.prefer {
            c.errors.push(
                Diag::warning(
                    Code::UnusedPrefer,
                    "`prefer` is never used: no game of this program splits",
                )
                .label(e.span, "never used")
                .help("`prefer` orders the pruned search, the plan of games that `split` and of their parts: declare how a position splits, or remove it"),
            );
        }
    }
}
