//! Positions by the names they are stored under: a game's `split` (the
//! position as the sum of parts no move joins) and `canonical` (the one
//! position of its symmetry class that is stored). This is the seam's
//! interning hook: the searches that compute values name every option
//! this way, so that a part is solved once however many boards hold it;
//! what is shown (moves, winning moves, graphs) stays as the rules wrote it.

use super::*;

/// How the interpreter names the positions it makes.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(super) enum Naming {
    /// As written: shown to the user, or inside a `canonical` expression.
    #[default]
    AsWritten,
    /// Split into parts, each in its canonical form: a search's options.
    Stored,
    /// In canonical form only: the parts a `split` gives (never split
    /// again).
    Canonical,
}

impl Naming {
    /// The expression that renames a position of `g` in this naming, and
    /// the naming of the positions it makes in turn.
    fn renamer(self, g: &ir::Game) -> Option<(ExprId, Naming)> {
        match (self, g.stored_as.split, g.stored_as.canonical) {
            (Naming::Stored, Some(split), _) => Some((split, Naming::Canonical)),
            (Naming::Stored | Naming::Canonical, _, Some(canon)) => {
                Some((canon, Naming::AsWritten))
            }
            _ => None,
        }
    }

    /// Whether a position of `g` is renamed in this naming.
    #[inline]
    pub(super) fn renames(self, g: &ir::Game) -> bool {
        self != Naming::AsWritten && self.renamer(g).is_some()
    }
}

/// Runs `f` with the positions the interpreter makes named `naming`
/// (restored after, whatever `f` gives).
pub(super) fn named<T>(m: &mut Machine, naming: Naming, f: impl FnOnce(&mut Machine) -> T) -> T {
    let saved = std::mem::replace(&mut m.interp_state.naming, naming);
    let result = f(m);
    m.interp_state.naming = saved;
    result
}

impl Interp<'_> {
    /// Appends to `out` the stored names of `game(args)`: its `split`'s
    /// parts in canonical form, or its `canonical` form, as the current
    /// naming asks ([`Naming::renames`] holds).
    pub(super) fn renamed_into(
        &mut self,
        p: &ir::Program,
        game: GameId,
        args: &[Value],
        out: &mut Vec<PosId>,
    ) -> R<()> {
        let g = &p.games[game as usize];
        let naming = self.m.interp_state.naming;
        let Some((expr, inner)) = naming.renamer(g) else {
            return Err(Diag::bug("renaming a position its game does not rename").into());
        };
        // `split` makes parts that are put in canonical form in turn: one
        // buffer each, so that neither allocates per option.
        let buf = usize::from(inner == Naming::AsWritten);
        let mut env = std::mem::take(&mut self.m.interp_state.rename_envs[buf]);
        let need = g.slots.max(g.params.len() as u32) as usize + self.m.compiled.extra_slots(game);
        if env.len() != need {
            env.clear();
            env.resize(need, Value::Int(0));
        }
        for (slot, a) in env.iter_mut().zip(args) {
            *slot = a.clone();
        }
        self.m.compiled.hoist(game, &mut env);
        self.m.interp_state.naming = inner;
        let start = out.len();
        // A stored name is exact: misère play reads it too.
        let result = self.pos_into(p, expr, &mut env, out);
        self.m.interp_state.naming = naming;
        self.m.interp_state.rename_envs[buf] = env;
        result?;
        if inner == Naming::AsWritten {
            let one = &out[start..];
            if one.len() != 1 || self.m.game_of(one[0]) != game {
                let got = if one.is_empty() {
                    "no position".to_string()
                } else {
                    self.m.show().sum(one)
                };
                return Err(Diag::user(
                    Code::TypeMismatch,
                    format!("`canonical` of {} gave {got}", g.name),
                )
                .label(p.span(expr), format!("must be one position of {}", g.name))
                .help("`canonical` names the one position of its symmetry class that is stored: a position of the same game")
                .into());
            }
        }
        Ok(())
    }
}

impl Scoped<'_> {
    /// The stored names of `pos`: its parts in canonical form (just `pos`
    /// for a game that renames nothing).
    pub(super) fn stored_names(&mut self, pos: PosId, out: &mut Vec<PosId>) -> R<()> {
        out.clear();
        let m = &mut *self.m;
        let game = m.game_of(pos);
        let prog = Rc::clone(&m.prog);
        if !Naming::Stored.renames(&prog.games[game as usize]) {
            out.push(pos);
            return Ok(());
        }
        let mut args = Vec::new();
        crate::key::args_of(&m.memo, pos, &mut args);
        named(m, Naming::Stored, |m| {
            m.interp().renamed_into(&prog, game, &args, out)
        })
    }
}
