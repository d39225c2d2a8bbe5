//! How a position's options are listed: the one entry, [`Machine::list`],
//! told what is wanted by a [`ListSpec`] (a first look, options kept
//! whole) and saying what it did in a [`Listed`]; by the game's kernels
//! when they can, else by its rules as written.

use super::rename::{Names, Naming};
use super::search::{Held, Next};
use super::*;

/// What a listing is asked for, besides the options themselves.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(super) struct ListSpec {
    /// How the options are named (as written, by default).
    pub(super) names: Names,
    /// A first look ([`crate::solve::prune::Tree::look`]): the kernels leave out
    /// an option of one part that its game's `prefer` kernel says no to,
    /// before naming it.
    pub(super) look: bool,
    /// Listing the options of a position the hint prefers: the kernels
    /// keep an option of one part whole (in canonical form, not split)
    /// where its game's `prefer` kernel says no to it, and to its
    /// canonical form, for a game with a `canonical` kernel.
    pub(super) whole: bool,
}

/// What a listing did.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Listed {
    /// Whether it went to the end (`more` did not stop it).
    pub(super) all: bool,
    /// Whether a first look left an option out.
    pub(super) left_out: bool,
}

/// Buffers for listing a position's options, reused from one to the next.
#[derive(Default)]
pub(super) struct OptionBufs {
    env: Vec<Value>,
    iters: Vec<Option<Iter>>,
    pub(super) out: Vec<PosId>,
    /// The kernels' integer slots and an option's components.
    pub(super) kenv: Vec<i64>,
    pub(super) comps: Vec<kernel::KPos>,
}

impl Machine {
    /// Every option of one position, in rule order, into `moves` (cleared
    /// first).
    pub fn options_into(&mut self, pos: PosId, moves: &mut Moves) -> R<()> {
        let mut bufs = OptionBufs::default();
        self.list(pos, ListSpec::default(), moves, &mut bufs, &mut |_, _| true)
            .map(drop)
    }

    /// Whether a position has any option: its rules run up to the first
    /// (a heap of 10^6 is not listed to learn that it is not the end).
    pub fn has_options(&mut self, pos: PosId) -> R<bool> {
        let mut bufs = OptionBufs::default();
        let prog = Rc::clone(&self.prog);
        let compiled = Rc::clone(&self.forms.compiled);
        let held = Held {
            prog: &prog,
            compiled: &compiled,
            names: Names::default(),
        };
        let OptionBufs {
            env, iters, out, ..
        } = &mut bufs;
        let mut frame = self.enter(pos, env, iters);
        loop {
            match self
                .next_option(&held, &mut frame, env, iters, out)
                .map_err(|d| self.in_position(d, pos))?
            {
                Next::Option => return Ok(true),
                Next::Rule => {}
                Next::Done => return Ok(false),
            }
        }
    }

    /// The options of `pos` as `spec` asks, into `moves` (cleared first),
    /// with buffers kept from one call to the next (a loopy game's graph
    /// lists millions of positions), asking `more` after each option
    /// whether to go on (the pruned search stops as soon as the options it
    /// knows settle its question, before naming the rest).
    pub(super) fn list(
        &mut self,
        pos: PosId,
        spec: ListSpec,
        moves: &mut Moves,
        bufs: &mut OptionBufs,
        more: &mut dyn FnMut(&Machine, &[PosId]) -> bool,
    ) -> R<Listed> {
        moves.clear();
        if let Some(listed) = self.kernel_options(pos, spec, moves, bufs, more, None)? {
            return Ok(listed);
        }
        // The rules as written: a first look leaves nothing out.
        let listed = |all| Listed {
            all,
            left_out: false,
        };
        moves.clear();
        bufs.env.clear();
        bufs.iters.clear();
        let prog = Rc::clone(&self.prog);
        let compiled = Rc::clone(&self.forms.compiled);
        let held = Held {
            prog: &prog,
            compiled: &compiled,
            names: spec.names,
        };
        let OptionBufs {
            env, iters, out, ..
        } = bufs;
        let mut frame = self.enter(pos, env, iters);
        frame.fold = !moves.is_exact();
        loop {
            match self
                .next_option(&held, &mut frame, env, iters, out)
                .map_err(|d| self.in_position(d, pos))?
            {
                Next::Option => {
                    moves.push(out);
                    if !more(self, out) {
                        return Ok(listed(false));
                    }
                }
                Next::Rule => {}
                Next::Done => return Ok(listed(true)),
            }
        }
    }

    /// Adds "while listing the moves of P" to an error from a rule.
    pub(super) fn in_position(&self, s: Stop, pos: PosId) -> Stop {
        s.map_diag(|d| {
            d.note(format!(
                "while listing the moves of {}",
                self.show().pos_briefly(pos)
            ))
        })
    }

    /// Lists a position's options by its game's kernels, as `spec` asks,
    /// asking `more` after each whether to go on (as [`Machine::list`]
    /// does): `Ok(None)` when they cannot (a rule without a kernel, or one
    /// gave up: the general evaluator lists them then, and reports what
    /// there is to report). A game
    /// that renames lists by its listing kernels, each option named by its
    /// naming kernels when the naming asks. With `known`, an option of one
    /// part whose value is known goes into it instead of `moves` (the
    /// search's mex set: most options are known when listed).
    pub(super) fn kernel_options(
        &mut self,
        pos: PosId,
        spec: ListSpec,
        moves: &mut Moves,
        bufs: &mut OptionBufs,
        more: &mut dyn FnMut(&Machine, &[PosId]) -> bool,
        mut known: Option<&mut crate::mex::Seen>,
    ) -> R<Option<Listed>> {
        if !self.limits.kernels {
            return Ok(None);
        }
        let kernels = self.forms.kernels.clone();
        let Some(gk) = kernels.get(self.game_of(pos).index()) else {
            return Ok(None);
        };
        let (rules, listing): (&[Option<kernel::KRule>], &[kernel::KRule]) = if gk.lists {
            (&gk.rules, &[])
        } else if let Some(listing) = &gk.listing {
            (&[], listing)
        } else {
            return Ok(None);
        };
        let Some(args) = self.store.int_args(pos) else {
            return Ok(None);
        };
        bufs.kenv.clear();
        bufs.kenv.extend_from_slice(args.as_slice());
        bufs.kenv.resize(gk.slots.max(bufs.kenv.len()), 0);
        let prog = Rc::clone(&self.prog);
        let names = spec.names;
        let naming = names.naming;
        let mut parts: Vec<PosId> = std::mem::take(&mut bufs.out);
        let ListSpec { look, whole, .. } = spec;
        let mut left_out = false;
        let (mut listed, mut steps) = (0u64, 0u64);
        let mut stopped = false;
        let mut emit = |comps: &[kernel::KPos]| {
            listed += 1;
            // One part not renamed, the common case: no buffer.
            if let [(game, args, n)] = comps
                && !naming.renames(prog.games.get(game.index())?)
            {
                let (p, v) = self.store.intern_valued(*game, &args[..*n]).ok()?;
                if let Some(seen) = known.as_deref_mut()
                    && v <= MAX_VALUE
                {
                    seen.insert(v);
                    return Some(());
                }
                moves.push_one(p);
                if !more(self, std::slice::from_ref(&p)) {
                    stopped = true;
                    return None;
                }
                return Some(());
            }
            // The hint asked of the option as it stands before it is split
            // and put in canonical form (a hint orders, so any position of
            // the game will do to ask): on a first look, to leave it out;
            // among the options of a position the hint prefers, to keep it
            // whole.
            let preferred = match comps {
                [(game, args, n)] if look || whole => kernels
                    .get(game.index())
                    .and_then(|k| k.prefer.as_ref())
                    .and_then(|prefer| prefer.eval(&args[..*n])),
                _ => None,
            };
            if look && preferred == Some(false) {
                left_out = true;
                return Some(());
            }
            parts.clear();
            for &(game, args, n) in comps {
                let g = prog.games.get(game.index())?;
                if whole
                    && preferred == Some(false)
                    && named_whole(self, names.raw, game, &args[..n], &mut parts)
                {
                    // Whole: in canonical form, not split.
                } else if naming.renames(g) {
                    super::rename::by_kernel(self, names, &prog, game, &args[..n], &mut parts)?;
                } else {
                    parts.push(self.store.intern_ints(game, &args[..n]).ok()?);
                }
            }
            moves.push(&parts);
            if !more(self, &parts) {
                stopped = true;
                return None;
            }
            Some(())
        };
        // Each rule may step up to the kernels' bound; their steps add up.
        let ok = rules.iter().flatten().chain(listing).all(|k| {
            let mut rule_steps = 0;
            let ok = k
                .options(&mut bufs.kenv, &mut bufs.comps, &mut emit, &mut rule_steps)
                .is_some();
            steps += rule_steps;
            ok
        });
        bufs.out = parts;
        // Work: every loop value stepped, at least one per option; none
        // when a kernel gave up (the rules then run as written, and count).
        if ok || stopped {
            self.budget.spend(listed.max(steps).max(1))?;
        }
        // (When a kernel gave up, the rules as written list every option.)
        Ok((ok || stopped).then_some(Listed {
            all: !stopped,
            left_out,
        }))
    }
}

/// Appends `game(args)` kept whole: in canonical form, not split, if its
/// game has a `canonical` and the hint does not prefer that form either
/// (so that the whole's own options are split: wholes are one level deep
/// whatever the hint); `false`, appending nothing, if not.
fn named_whole(
    m: &mut Machine,
    raw: bool,
    game: GameId,
    args: &[i64],
    parts: &mut Vec<PosId>,
) -> bool {
    let prog = Rc::clone(&m.prog);
    if !prog
        .games
        .get(game.index())
        .is_some_and(|g| Naming::Canonical.renames(g))
    {
        return false;
    }
    let at = parts.len();
    let canonical = Names {
        naming: Naming::Canonical,
        raw,
    };
    let named = super::rename::by_kernel(m, canonical, &prog, game, args, parts);
    let kept = named.is_some()
        && parts.len() == at + 1
        && super::prune::prefers_by_kernel(m, parts[at]) == Some(false);
    if !kept {
        parts.truncate(at);
    }
    kept
}
