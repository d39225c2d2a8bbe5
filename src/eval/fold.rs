//! Sums of many equal components, folded by parity where only their
//! normal-play value counts (G + G = 0): a rule's moves as the search for
//! values reads them, and `grundy(...)`'s position.

use super::*;

/// A rule's sum of this many equal components or more is folded by parity
/// in normal play (`Interp::fold_copies`); fewer are listed as written.
pub const FOLD_FROM: i128 = 64;

impl Interp<'_> {
    /// In a rule's option (normal play), `sum(G for i in xs)` whose body
    /// does not read `i`, over at least [`FOLD_FROM`] values: one copy of G
    /// for an odd count, two for an even one, as G + G = 0. Returns whether it was folded (not when
    /// a component can reach a loopy game's: ∞ + ∞ is not 0).
    fn fold_copies(
        &mut self,
        p: &ir::Program,
        body: ExprId,
        clauses: &[Clause],
        env: &mut [Value],
        out: &mut Vec<PosId>,
    ) -> R<bool> {
        let [Clause::For { slot, iter }] = *clauses else {
            return Ok(false);
        };
        if p.reads_local(body, slot) {
            return Ok(false);
        }
        let count = match self.value(p, iter, env)? {
            Value::Range(lo, hi) => (i128::from(hi) - i128::from(lo) + 1).max(0),
            ref v @ (Value::List(_) | Value::Ints(_) | Value::Bools(_)) => {
                v.elements().map_or(0, |xs| xs.len()) as i128
            }
            other => return Err(self.type_bug(p, iter, "a range or a list", &other).into()),
        };
        if count < FOLD_FROM {
            return Ok(false);
        }
        let start = out.len();
        self.pos_folded(p, body, env, out)?;
        if out[start..]
            .iter()
            .any(|&c| reaches_loopy(p, self.m.game_of(c)))
        {
            out.truncate(start);
            return Ok(false);
        }
        // An even count keeps two copies, worth 0 all the same: G is still
        // searched, so an error or a cycle in it shows as for any count.
        if count % 2 == 0 {
            out.extend_from_within(start..);
        }
        Ok(true)
    }

    /// [`Interp::pos_into`] for normal play: along the sum's own structure
    /// (`+`, the branch an `if` takes, a generator's body), a generator of
    /// many equal components is folded by parity (`fold_copies`). Whatever
    /// else the expression evaluates (conditions, arguments, calls) is
    /// exact, so a folded sum never reaches a value, a memo or misère play.
    pub(super) fn pos_folded(
        &mut self,
        p: &ir::Program,
        e: ExprId,
        env: &mut [Value],
        out: &mut Vec<PosId>,
    ) -> R<()> {
        match p.expr(e) {
            ir::Expr::PosSum(a, b) => {
                self.pos_folded(p, *a, env, out)?;
                self.pos_folded(p, *b, env, out)
            }
            ir::Expr::If(c, t, f) => {
                let branch = if self.boolean(p, *c, env)? { *t } else { *f };
                self.pos_folded(p, branch, env, out)
            }
            ir::Expr::Comp {
                kind: CompKind::SumPos,
                body,
                clauses,
            } if self.fold_copies(p, *body, clauses, env, out)? => Ok(()),
            _ => self.pos_into(p, e, env, out),
        }
    }
}

/// Whether a position of `game` can reach a loopy game's (its own game
/// loopy, or one its rules name, however far down, through functions and
/// constants too): its value may be ∞, and copies of ∞ do not cancel.
fn reaches_loopy(p: &ir::Program, game: ir::GameId) -> bool {
    let mut seen = rustc_hash::FxHashSet::default();
    let mut todo = vec![ir::Global::Game(game)];
    while let Some(g) = todo.pop() {
        if !seen.insert(g) {
            continue;
        }
        let uses = match g {
            ir::Global::Game(h) => match p.games.get(h.index()) {
                Some(def) if !def.loopy => &def.uses,
                _ => return true,
            },
            ir::Global::Fun(f) => match p.funs.get(f.index()) {
                Some(def) => &def.uses,
                None => return true,
            },
            ir::Global::Const(c) => match p.consts.get(c.index()) {
                Some(def) => &def.uses,
                None => return true,
            },
        };
        todo.extend(uses.iter().copied());
    }
    false
}
