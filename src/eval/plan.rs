//! The seam between the engine and its ways of evaluating: the list of
//! strategies, the planner that picks a game's, and the one dispatch.
//!
//! A search for a position whose value is not stored asks first the
//! solvers added from outside that apply to its game (`crate::solve::Solver`),
//! then the strategies of its game's [`Plan`] in order; each answers the value or declines (it
//! does not apply to this position), and the general search, last in every
//! plan, always answers. A new way of evaluating is a module of its own
//! plus a variant here, a line in [`plan`] and an arm in
//! `Scoped::value_by` (docs/ARCHITECTURE.md, "Adding a solver").

use super::*;
use crate::solve::Solver;
use std::sync::Arc;

/// A way of evaluating a position, each owned by a module of its own.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Strategy {
    /// A loopy game's position: the graph it reaches, labeled by
    /// retrograde analysis (`eval::loopy`, `crate::solve::loopy`). Answers or
    /// reports an ∞ value where a finite one is needed.
    Loopy,
    /// A one-parameter position from [`PERIOD_FROM`] on: read from a
    /// proven period, searched for first (`eval::periods`,
    /// `crate::solve::analysis`).
    Period,
    /// A one-parameter position of a game whose values need every smaller
    /// heap (window kernels, take-and-break shapes): one ascending run over
    /// its array (`eval::accel`, `kernel::window`, `crate::sparse`).
    Ascend,
    /// Kernels for every rule: the value at once when the options' values
    /// are known (`eval::accel`, `kernel::run`).
    Kernel,
    /// A board's position: the pruned nimber search, which proves values
    /// without every option's (`eval::prune`, `crate::solve::prune`).
    Prune,
    /// The general memoized depth-first search (`eval::search`): always
    /// answers.
    Search,
}

/// A game's strategies, in the order they are asked: the added solvers
/// that apply to it first, then the engine's own; the last is always
/// [`Strategy::Search`] (or [`Strategy::Loopy`], which answers too).
#[derive(Clone, Copy, Debug)]
pub(super) struct Plan {
    /// The added solvers that apply, as bits of their places in
    /// [`Plans::added`].
    added: u64,
    steps: [Strategy; 4],
    len: u8,
}

impl Plan {
    fn of(steps: &[Strategy]) -> Plan {
        let mut plan = Plan {
            added: 0,
            steps: [Strategy::Search; 4],
            len: 0,
        };
        for (slot, &s) in plan.steps.iter_mut().zip(steps) {
            *slot = s;
            plan.len += 1;
        }
        plan
    }

    /// The strategies, in order.
    pub(super) fn steps(&self) -> &[Strategy] {
        &self.steps[..self.len as usize]
    }

    /// The places in [`Plans::added`] of the added solvers that apply, in
    /// order.
    fn added(&self) -> impl Iterator<Item = usize> {
        let bits = self.added;
        (0..MAX_ADDED).filter(move |i| bits >> i & 1 == 1)
    }
}

/// The most solvers a session may add.
pub(super) const MAX_ADDED: usize = 64;

/// Every game's plan, and the solvers added to them.
#[derive(Clone, Default)]
pub(super) struct Plans {
    /// Solvers added (`Session::add_solver`), in the order they are asked.
    pub(super) added: Vec<Arc<dyn Solver>>,
    /// Per game, its plan.
    games: Vec<Plan>,
}

impl Plans {
    /// Every game's plan, made again (a new program, new kernels, a solver
    /// added).
    pub(super) fn make(&mut self, prog: &ir::Program, kernels: &[GameKernels], limits: &Limits) {
        self.games = (0..prog.games.len())
            .map(|g| {
                let mut plan = plan(&prog.games[g], kernels.get(g), limits);
                let game = GameId(g as u32);
                // A loopy game's value may be ∞, which a solver cannot
                // answer: its own strategy alone values it.
                for (i, solver) in self.added.iter().enumerate().take(MAX_ADDED) {
                    if !prog.games[g].loopy && solver.applies(prog, game) {
                        plan.added |= 1 << i;
                    }
                }
                plan
            })
            .collect();
    }

    /// Whether any solver was added.
    #[inline(always)]
    pub(super) fn asks_solvers(&self) -> bool {
        !self.added.is_empty()
    }

    /// A game's plan.
    fn of(&self, game: GameId) -> Plan {
        self.games.get(game.index()).copied().unwrap_or_default()
    }
}

impl Default for Plan {
    fn default() -> Plan {
        Plan::of(&[Strategy::Search])
    }
}

/// The planner: how a game's positions get their values, from what the
/// checker knows (its parameters, whether it is loopy), its kernels and the
/// limits. Whether an ascending run applies (a window kernel, or a
/// take-and-break shape, read on first use) is decided per position by
/// the run itself.
pub(super) fn plan(game: &ir::Game, kernels: Option<&GameKernels>, limits: &Limits) -> Plan {
    if game.loopy {
        return Plan::of(&[Strategy::Loopy]);
    }
    // Positions stored by other names (parts, canonical forms): the
    // accelerators, which read values by argument, do not apply. Positions
    // that split are boards, where pruning pays (it lists a position's
    // options more than once; with single components, as Chomp's, that
    // costs more than it saves).
    if game.renames() {
        return if game.stored_as.split.is_some() {
            Plan::of(&[Strategy::Prune, Strategy::Search])
        } else {
            Plan::of(&[Strategy::Search])
        };
    }
    let mut steps = Vec::with_capacity(4);
    let nim = limits.kernels
        && kernels
            .and_then(|k| k.batch.as_ref())
            .is_some_and(|b| b.is_nim());
    if game.params.len() == 1 {
        // Nim by its rule: the ascending strategy answers any heap at once,
        // with no period to look for.
        if nim {
            steps.push(Strategy::Ascend);
        }
        steps.push(Strategy::Period);
        // Accelerators, off with the kernels (`--no-kernels`).
        if limits.kernels && limits.fill && !nim {
            steps.push(Strategy::Ascend);
        }
    } else if game.int_params.iter().all(|&i| i) {
        // With all arguments but the largest fixed: a section's period.
        steps.push(Strategy::Period);
    }
    if limits.kernels && kernels.is_some_and(|k| k.complete) {
        steps.push(Strategy::Kernel);
    }
    steps.push(Strategy::Search);
    Plan::of(&steps)
}

impl Scoped<'_> {
    /// The Grundy value of one position, searched within `scope`: stored,
    /// or from its game's strategies in order.
    pub(super) fn search(&mut self, root: PosId) -> R<u32> {
        self.m.interp_state.searching += 1;
        let result = self.search_in(root);
        self.m.interp_state.searching -= 1;
        if self.m.interp_state.searching == 0 {
            self.m.budget.end_meter(Meter::Search);
        }
        result
    }

    fn search_in(&mut self, root: PosId) -> R<u32> {
        let v = self.m.store.value(root);
        if v <= MAX_VALUE {
            return Ok(v);
        }
        // A position its game renames: the value of its stored names.
        if self.m.prog.games[self.m.game_of(root).index()].renames() {
            let mut parts = Vec::new();
            self.stored_names(root, &mut parts)?;
            if parts != [root] {
                let mut x = 0;
                for part in parts {
                    x ^= self.search_named(part)?;
                }
                self.m.store.set(root, x);
                return Ok(x);
            }
        }
        self.search_named(root)
    }

    /// [`Scoped::search_in`] for a position under its stored name.
    fn search_named(&mut self, root: PosId) -> R<u32> {
        let v = self.m.store.value(root);
        if v <= MAX_VALUE {
            return Ok(v);
        }
        // An ∞ value stored by a loopy solve: its game's strategy reports it.
        if crate::store::infinite_index(v).is_some() {
            return self.by_loopy(root);
        }
        let plan = self.m.forms.plans.of(self.m.game_of(root));
        if plan.added != 0
            && v == UNKNOWN
            && let Some(v) = self.solvers_answer(root)?
        {
            return Ok(v);
        }
        for &s in plan.steps() {
            if let Some(v) = self.value_by(s, root)? {
                return Ok(v);
            }
        }
        Err(Diag::bug("no strategy answered").into())
    }

    /// The value of a part that a strategy leaves to another (the pruned
    /// search's positions with too many options): the general search,
    /// which always answers.
    pub(super) fn fallback_value(&mut self, pos: PosId) -> R<u32> {
        self.by_search(pos)
    }

    /// The value of `pos` from the added solvers that apply to its game,
    /// stored; `None` when none answers, or one is answering already
    /// (solvers never nest). Asked for every position a search needs.
    #[inline(never)]
    pub(super) fn solvers_answer(&mut self, pos: PosId) -> R<Option<u32>> {
        if self.scope.in_added {
            return Ok(None);
        }
        let plan = self.m.forms.plans.of(self.m.game_of(pos));
        let scope = Scope {
            in_added: true,
            ..self.scope
        };
        for i in plan.added() {
            let Some(solver) = self.m.forms.plans.added.get(i).cloned() else {
                continue;
            };
            match solver.value(&mut self.m.scoped(scope), pos)? {
                Some(v) if v <= MAX_VALUE => {
                    self.m.store.set(pos, v);
                    return Ok(Some(v));
                }
                Some(v) => {
                    return Err(Diag::user(
                        Code::ValueLimit,
                        format!(
                            "the solver `{}` answered {v} for {}, past the largest value grundy holds (2^31 - 1)",
                            solver.name(),
                            self.m.show().pos_briefly(pos)
                        ),
                    )
                    .into());
                }
                None => {}
            }
        }
        Ok(None)
    }

    /// Asks one strategy for the value of `root`: `None` when it does not
    /// apply to this position.
    fn value_by(&mut self, s: Strategy, root: PosId) -> R<Option<u32>> {
        match s {
            Strategy::Loopy => self.by_loopy(root).map(Some),
            Strategy::Period => self.by_period(root),
            Strategy::Ascend => self.by_ascent(root),
            Strategy::Kernel => self.by_kernel(root),
            Strategy::Prune => self.by_pruning(root),
            Strategy::Search => self.by_search(root).map(Some),
        }
    }
}
