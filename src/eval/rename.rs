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
    /// again), and the options the pruned search keeps whole.
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

/// How the positions an evaluation makes are named: the naming, and
/// whether a board not stored yet may be named by a raw id
/// (`Store::found_or_raw`: only in the pruned search's own listing, which
/// interns what it enters; never in what a function returns or a value
/// keeps). Held by the evaluation's view ([`Interp`]) or asked of a
/// listing (`ListSpec`), never kept in the machine.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(super) struct Names {
    pub(super) naming: Naming,
    pub(super) raw: bool,
}

impl Names {
    /// A search's options: stored names, interned.
    pub(super) const STORED: Names = Names {
        naming: Naming::Stored,
        raw: false,
    };

    /// The same naming, interned (never raw ids).
    pub(super) fn interned(self) -> Names {
        Names { raw: false, ..self }
    }
}

/// What naming keeps from one option to the next, so that it allocates
/// nothing per option.
#[derive(Debug, Default)]
pub(super) struct RenameBufs {
    /// The frames `split` and `canonical` are evaluated in.
    envs: [Vec<Value>; 2],
    /// The naming kernels' frames (`split`'s, then a part's
    /// `canonical`'s) and parts.
    kenvs: [Vec<i64>; 2],
    kparts: [Vec<kernel::KPos>; 1],
}

impl Interp<'_> {
    /// Appends to `out` the stored names of `game(args)`: its `split`'s
    /// parts in canonical form, or its `canonical` form, as the current
    /// naming asks ([`Naming::renames`] holds). The naming kernels name it
    /// when they can; else the interpreter.
    pub(super) fn renamed_into(
        &mut self,
        p: &ir::Program,
        game: GameId,
        args: &[Value],
        out: &mut Vec<PosId>,
    ) -> R<()> {
        let mut ints = [0i64; 8];
        let all = args.len() <= ints.len()
            && ints.iter_mut().zip(args).all(|(slot, a)| match a {
                Value::Int(x) => {
                    *slot = *x;
                    true
                }
                _ => false,
            });
        if all {
            return renamed_ints_into(self, p, game, &ints[..args.len()], out);
        }
        by_interp(self, p, game, args, out)
    }
}

/// [`Interp::renamed_into`] by the interpreter: the declaration evaluated
/// in a frame kept from one option to the next.
fn by_interp(
    i: &mut Interp,
    p: &ir::Program,
    game: GameId,
    args: &[Value],
    out: &mut Vec<PosId>,
) -> R<()> {
    let g = &p.games[game.index()];
    let names = i.names;
    let Some((expr, inner)) = names.naming.renamer(g) else {
        return Err(Diag::bug("renaming a position its game does not rename").into());
    };
    let start = out.len();
    // `split` makes parts that are put in canonical form in turn: one
    // buffer each, so that neither allocates per option.
    let buf = usize::from(inner == Naming::AsWritten);
    let mut env = std::mem::take(&mut i.m.interp_state.rename.envs[buf]);
    rule_frame(i.m, game, args, &mut env);
    // A stored name is exact: misère play reads it too. The declaration's
    // positions are named as `inner` says.
    let inner_names = Names {
        naming: inner,
        ..names
    };
    let result = Interp::new(i.m, inner_names).pos_into(p, expr, &mut env, out);
    i.m.interp_state.rename.envs[buf] = env;
    result?;
    if inner == Naming::AsWritten {
        let one = &out[start..];
        if one.len() != 1 || i.m.game_of(one[0]) != game {
            let got = if one.is_empty() {
                "no position".to_string()
            } else {
                i.m.show().sum(one)
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

/// `env` made a frame of `game`'s rules with these arguments first and
/// the rules' hoisted parts filled in: what a declaration after the rules
/// (`split`, `canonical`, `prefer`) is evaluated in.
pub(super) fn rule_frame(m: &Machine, game: GameId, args: &[Value], env: &mut Vec<Value>) {
    let g = &m.prog.games[game.index()];
    let need = g.slots.max(g.params.len() as u32) as usize + m.forms.compiled.extra_slots(game);
    if env.len() != need {
        env.clear();
        env.resize(need, Value::Int(0));
    }
    for (slot, a) in env.iter_mut().zip(args) {
        *slot = a.clone();
    }
    m.forms.compiled.hoist(game, env);
}

/// A position made as a value (kept, passed to a builtin or a function,
/// played): its parts as `pos_into` names them, but never raw ids, which
/// only the options the pruned search lists may hold.
pub(super) fn interned_pos(
    i: &mut Interp,
    p: &ir::Program,
    e: ExprId,
    env: &mut [Value],
) -> R<Vec<PosId>> {
    let mut out = Vec::new();
    let names = i.names.interned();
    Interp::new(i.m, names).pos_into(p, e, env, &mut out)?;
    Ok(out)
}

/// [`Interp::renamed_into`] for integer arguments, read in place: the
/// naming kernels first, without a value per argument.
pub(super) fn renamed_ints_into(
    i: &mut Interp,
    p: &ir::Program,
    game: GameId,
    args: &[i64],
    out: &mut Vec<PosId>,
) -> R<()> {
    let start = out.len();
    if i.m.limits.kernels && by_kernel(i.m, i.names, p, game, args, out).is_some() {
        return Ok(());
    }
    out.truncate(start);
    let vals: Vec<Value> = args.iter().map(|&x| Value::Int(x)).collect();
    by_interp(i, p, game, &vals, out)
}

/// [`Interp::renamed_into`] by the game's naming kernels (`split`'s parts
/// each put in canonical form by its game's); `None` when a kernel is
/// missing or gave up, and the interpreter names the position (and
/// reports what there is to report).
pub(super) fn by_kernel(
    m: &mut Machine,
    names: Names,
    p: &ir::Program,
    game: GameId,
    args: &[i64],
    out: &mut Vec<PosId>,
) -> Option<()> {
    let (_, inner) = names.naming.renamer(p.games.get(game.index())?)?;
    // The machine's parts borrowed one by one, so that nothing is cloned
    // or moved per option.
    let kernels = &*m.forms.kernels;
    let store = &mut m.store;
    let RenameBufs {
        kenvs: [env, canon_env],
        kparts: [parts],
        ..
    } = &mut m.interp_state.rename;
    let raw = names.raw;
    let gk = kernels.get(game.index())?;
    let k = match inner {
        Naming::Canonical => gk.split.as_ref()?,
        _ => gk.canonical.as_ref()?,
    };
    set_params(env, args, gk.slots);
    // Counted over the whole sum, as the interpreter counts it.
    let max = m.limits.max_list;
    let mut steps = 0;
    k.options(
        env,
        parts,
        &mut |comps| {
            for &(g, a, n) in comps {
                let (g, a, n) = if inner.renames(p.games.get(g.index())?) {
                    // A part of a `split`, in its game's canonical form.
                    let gk = kernels.get(g.index())?;
                    set_params(canon_env, &a[..n], gk.slots);
                    gk.canonical.as_ref()?.position(canon_env)?
                } else {
                    (g, a, n)
                };
                let found = match (raw, &a[..n]) {
                    (true, &[x]) => store.found_or_raw(g, x),
                    _ => None,
                };
                out.push(match found {
                    Some(id) => id,
                    None => store.intern_ints(g, &a[..n]).ok()?,
                });
            }
            // A sum too long is the interpreter's to report.
            (out.len() <= max).then_some(())
        },
        &mut steps,
    )
}

/// A kernel frame of at least `slots` slots with these parameters first,
/// written in place: called for every option and part, it copies a few
/// integers without a call. The slots after them hold what the last frame
/// left; a kernel binds each variable before it reads it.
#[inline]
fn set_params(env: &mut Vec<i64>, params: &[i64], slots: usize) {
    let need = slots.max(params.len());
    if env.len() < need {
        env.resize(need, 0);
    }
    for (slot, &p) in env.iter_mut().zip(params) {
        *slot = p;
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
        if !Naming::Stored.renames(&prog.games[game.index()]) {
            out.push(pos);
            return Ok(());
        }
        let mut args = Vec::new();
        crate::key::args_of(&m.store, pos, &mut args);
        Interp::new(m, Names::STORED).renamed_into(&prog, game, &args, out)
    }
}
