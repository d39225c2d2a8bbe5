//! Evaluation: expressions, position interning, and memoized Grundy values
//! computed without recursion on the Rust stack.
//!
//! Positions are interned by the [`Store`](crate::store::Store) (dense arrays for small integer
//! arguments, hashed keys otherwise). [`Machine::grundy`](crate::eval::Machine::grundy) runs a
//! depth-first search over an explicit stack of frames; each frame is a
//! suspended enumeration of one position's options (its rule, clause cursor
//! and loop variables), so a frame waiting for a child resumes where it was.

use crate::budget::{Apart, Budget, Meter};
use crate::compiled::{BoolCode, Compiled, Scalar};
use crate::diagnostics::{Code, Diag};
use crate::ir::{self, BinOp, Builtin, Clause, CompKind, ConstId, ExprId, GameId};
use crate::kernel::{self, GameKernels};
pub(crate) use crate::mex::Seen;
use crate::mex::Stamped;
use crate::ops::{self, OpError};
use crate::oracle::{Moves, Oracle};
use crate::span::Span;
use crate::store::{GameShape, MAX_VALUE, ON_STACK, PosId, Store, TAG_INT, UNKNOWN};
use crate::value::{Extent, MAX_LIST_DEPTH, Value, extent, list_extent};

use listing::{ListSpec, OptionBufs};
use loops::{Iter, innermost_range};
use search::{FILL_DEPTH, Frame};
use std::rc::Rc;
use std::sync::Arc;
use std::sync::atomic::AtomicBool;

use crate::flow::Limit;
/// A result whose error is a diagnostic.
pub use crate::flow::{R, Stop};

mod accel;
mod arith;
mod builtins;
mod calls;
mod carry;
mod dicts;
mod expr;
mod fold;
mod host;
mod limits;
mod listing;
mod lists;
mod loops;
mod loopy;
mod oracle;
pub mod parallel;
mod periods;
mod plan;
mod prune;
mod rename;
mod resume;
mod rows;
mod search;
mod show;

pub use calls::ReportValues;
pub use expr::Interp;
pub use oracle::Scoped;
pub use rows::{Row, To, misere_rows, move_rows};
pub use show::Show;

/// The default of `--max-work`: none (work projected not to finish is
/// stopped by `--runaway` instead).
pub const DEFAULT_MAX_WORK: u64 = 0;

/// The default of `--max-memory`: what a laptop can spare.
pub const DEFAULT_MAX_MEMORY: usize = 2 << 30;

/// Resource limits; exceeding one ends in a diagnostic.
#[derive(Clone, Debug)]
pub struct Limits {
    /// Most distinct positions interned.
    pub max_states: usize,
    /// Most elements in one list or materialized range.
    pub max_list: usize,
    /// Most positions on the search stack at once.
    pub max_depth: usize,
    /// Whether to use kernels (off: every rule runs in the general
    /// evaluator; for testing them against it).
    pub kernels: bool,
    /// Whether deep searches fill smaller positions bottom-up.
    pub fill: bool,
    /// Whether rules evaluate their integer expressions in compiled form
    /// (off: everything in the tree-walking interpreter, for testing the
    /// compiled forms against it).
    pub compiled: bool,
    /// Most values a period search computes.
    pub period_budget: i64,
    /// Most moves and loop values one statement may examine (0: no limit).
    pub max_work: u64,
    /// Most time one statement may take.
    pub time_limit: Option<std::time::Duration>,
    /// Work projected to take longer than this ends the statement (`None`:
    /// never).
    pub runaway: Option<std::time::Duration>,
    /// Most bytes in use (0: no limit; counted only in the binary).
    pub max_memory: usize,
    /// Threads that solve boards side by side (`eval::parallel`); 1: one.
    pub threads: usize,
}

impl Default for Limits {
    fn default() -> Limits {
        Limits {
            max_states: 20_000_000,
            max_list: 10_000_000,
            max_depth: 1_000_000,
            kernels: true,
            fill: true,
            compiled: true,
            period_budget: crate::solve::analysis::DEFAULT_BUDGET,
            max_work: DEFAULT_MAX_WORK,
            time_limit: None,
            runaway: Some(crate::budget::DEFAULT_RUNAWAY),
            max_memory: DEFAULT_MAX_MEMORY,
            threads: 1,
        }
    }
}

/// What the program compiles to, made by `install` and `compile_rules` and
/// read by every way of evaluating.
#[derive(Default)]
struct Forms {
    /// Compiled integer expressions of the rules and the code around them.
    compiled: Rc<Compiled>,
    /// Per game, its kernels.
    kernels: Rc<Vec<GameKernels>>,
    /// Per game, which strategies give its positions their values
    /// (`eval::plan`), chosen with its kernels, and the solvers added.
    plans: plan::Plans,
}

/// The solvers' state, kept while the definitions stay: each part owned by
/// its solver's module (`tests/architecture.rs` keeps it so).
#[derive(Default)]
struct Caches {
    /// Period searches, per game (`eval::periods`).
    periods: periods::Periods,
    /// The remoteness of the loopy positions solved alone so far, every
    /// position a solved one reaches included (`eval::loopy`).
    remote: loopy::Remoteness,
    /// The pruned search's stacks, kept from one search to the next
    /// (`eval::prune`).
    pruning: crate::solve::prune::Searcher,
    /// Misère play's genera and facts, kept until game ids change
    /// (`Machine::with_misere`).
    misere: crate::solve::misere::Misere,
}

/// The evaluator: a checked program, its constants, and the store of positions.
pub struct Machine {
    prog: Rc<ir::Program>,
    /// Constant values; `None` when the definition failed.
    consts: Vec<Option<Value>>,
    /// Constants whose evaluation was interrupted (evaluated again on the
    /// next update).
    const_stopped: Vec<bool>,
    store: Store,
    /// Positions stored when the statement started.
    states_at_start: usize,
    /// What the program compiles to: expressions, kernels, plans.
    forms: Forms,
    /// The fill's state, per game.
    accel: accel::Accel,
    /// The solvers' state: periods, remoteness, the pruned search's
    /// stacks, misère play's genera.
    caches: Caches,
    limits: Limits,
    /// Ctrl-C and the work, time and memory limits of the statement.
    budget: Budget,
    /// The interpreter's state: position keys being built, function
    /// calls, input.
    interp_state: calls::InterpState,
    /// Where the run's proven values are saved, if anywhere
    /// (`eval::resume`).
    checkpoint: Option<crate::checkpoint::Checkpoint>,
}

/// The constants whose evaluation failed, and how.
pub type ConstFailures = Vec<(ConstId, Stop)>;

/// Positions of one-parameter games from this size on are worth a period
/// search (smaller ones are computed directly at once).
pub const PERIOD_FROM: i64 = 1024;

/// What one search may do besides computing values: passed down its
/// calls, never kept in the machine (a search started inside another one
/// gets its own).
#[derive(Clone, Copy, Debug, Default)]
pub(super) struct Scope {
    /// The deepest the search may go before it gives up ([`Stop::Aborted`]):
    /// the fill's nested searches, which must stay shallow.
    pub(super) depth_cap: Option<usize>,
    /// Inside a period search: positions are computed directly, with no
    /// period search of their own (so period searches never nest).
    pub(super) in_period_search: bool,
    /// An added solver is answering: no added solver is asked (they never
    /// nest).
    pub(super) in_added: bool,
    /// Loopy games' solves running, one inside another (a sum's component
    /// solved while a graph is explored): bounded by [`loopy::MAX_NESTED`].
    pub(super) loopy_nesting: u32,
    /// The first mark number a loopy solve started here may use: the marks
    /// below it are the solves around it (see [`crate::store::solving`]).
    pub(super) solving_base: u32,
}

impl Scope {
    /// The scope of a search started inside this one, for its own ends (a
    /// period search, a game's shape read): a fresh one, in which added
    /// solvers are still not asked if they are not asked here.
    pub(super) fn fresh(&self) -> Scope {
        Scope {
            in_added: self.in_added,
            ..Scope::default()
        }
    }
}

/// How a check condition came out for one case.
pub enum CheckCase {
    /// It held.
    Held,
    /// It failed; the two sides of a top-level comparison, if it is one.
    Failed(Option<(Value, Value)>),
}

/// The most solvers a machine asks besides its own strategies.
pub const MAX_SOLVERS: usize = plan::MAX_ADDED;

/// The error of a solver added past [`MAX_SOLVERS`].
pub fn too_many_solvers() -> Diag {
    Diag::user(
        Code::NotSupported,
        format!("grundy asks at most {MAX_SOLVERS} added solvers"),
    )
}

/// What a machine is made with: its limits, and what connects it to the
/// session around it.
#[derive(Clone, Default)]
pub struct Setup {
    pub limits: Limits,
    /// A flag that, once set, makes long evaluations stop with a
    /// [`Stop::Interrupted`].
    pub cancel: Option<Arc<AtomicBool>>,
    /// Where to show the progress of long statements.
    pub progress: Option<Arc<crate::progress::Progress>>,
    /// How report queries used as values are answered (the session's is
    /// `crate::report::value`).
    pub report_values: Option<ReportValues>,
    /// Solvers asked before the engine's own strategies, in this order,
    /// for the games each applies to (at most [`MAX_SOLVERS`]; the rest
    /// are not asked).
    pub solvers: Vec<Arc<dyn crate::solve::Solver>>,
}

impl Machine {
    /// A machine with an empty program: [`Machine::update`] gives it one.
    pub fn new(setup: Setup) -> Machine {
        let Setup {
            limits,
            cancel,
            progress,
            report_values,
            solvers,
        } = setup;
        let mut budget = Budget::new(
            limits.max_work,
            limits.time_limit,
            limits.max_memory,
            limits.runaway,
        );
        if let Some(flag) = cancel {
            budget.set_cancel(flag);
        }
        if let Some(progress) = progress {
            budget.set_progress(progress);
        }
        let mut forms = Forms::default();
        forms.plans.added = solvers;
        let mut interp_state = calls::InterpState::default();
        interp_state.report_values = report_values;
        Machine {
            prog: Rc::new(ir::Program::default()),
            consts: Vec::new(),
            const_stopped: Vec::new(),
            store: Store::new(&[], limits.max_states),
            states_at_start: 0,
            forms,
            accel: accel::Accel::default(),
            caches: Caches::default(),
            budget,
            interp_state,
            limits,
            checkpoint: None,
        }
    }

    /// Moves to a new version of the program (the REPL's next entry),
    /// keeping what is still valid: `games[n]` is the old id of new game `n`
    /// if its definition and everything it uses are unchanged, so its values
    /// carry over; `consts[c]` likewise for constants. Everything else is
    /// dropped and constants not kept are evaluated again; their failures are
    /// returned.
    pub fn update(
        &mut self,
        prog: ir::Program,
        games: &[Option<GameId>],
        consts: &[Option<ConstId>],
    ) -> Vec<(ConstId, Stop)> {
        let moved = install(self, prog, games);
        // Values saved for one program are not another's.
        self.checkpoint = None;
        self.constants(moved, consts)
    }

    /// A new machine's first program, going on from `checkpoint`: its
    /// file is read back before any constant is evaluated, and a file
    /// refused stops it there. How many positions the file held (`None`:
    /// no file yet), and the failures of constants.
    pub fn start(
        &mut self,
        prog: ir::Program,
        checkpoint: crate::checkpoint::Checkpoint,
    ) -> Result<(Option<usize>, ConstFailures), Diag> {
        let moved = install(self, prog, &[]);
        let loaded = self.resume(checkpoint)?;
        Ok((loaded, self.constants(moved, &[])))
    }

    /// Evaluates the constants not kept (`consts[c]`: the old id of new
    /// constant `c` whose value carries over); their failures.
    fn constants(&mut self, moved: bool, consts: &[Option<ConstId>]) -> ConstFailures {
        let mut old = std::mem::take(&mut self.consts);
        let old_stopped = std::mem::take(&mut self.const_stopped);
        self.consts = vec![None; self.prog.consts.len()];
        self.const_stopped = vec![false; self.prog.consts.len()];
        let prog = self.prog.clone();
        let mut errors = Vec::new();
        // Constants that ask queries come last, once the rules' compiled
        // forms are ready (no rule uses them: the checker sees to that).
        for needs_values in [false, true] {
            if needs_values {
                compile_rules(self);
            }
            for &c in &prog.const_order {
                let def = &prog.consts[c.index()];
                if def.needs_values != needs_values {
                    continue;
                }
                let kept = consts
                    .get(c.index())
                    .copied()
                    .flatten()
                    .and_then(|o| Some((old.get_mut(o.index())?, old_stopped.get(o.index())?)));
                // Evaluated again: a constant that was interrupted, and a
                // value holding positions when ids moved.
                match kept {
                    Some((v, false)) if !v.as_ref().is_some_and(|v| moved && v.has_pos()) => {
                        self.consts[c.index()] = v.take();
                        continue;
                    }
                    _ => {}
                }
                // Its loops compiled, and those of the functions it calls,
                // with the constants before it.
                if !needs_values
                    && self.limits.compiled
                    && let Some(c) = Rc::get_mut(&mut self.forms.compiled)
                {
                    c.add_loops(&prog, &self.consts, &prog.reached(def.expr, &def.uses));
                }
                let mut env = vec![Value::Int(0); def.slots as usize];
                // Each constant is a statement of its own for the limits.
                self.budget.start();
                match self.interp().eval(def.expr, &mut env) {
                    Ok(v) => self.consts[c.index()] = Some(v),
                    Err(d) => {
                        self.const_stopped[c.index()] = d.ends_statement();
                        errors.push((c, d));
                    }
                }
            }
        }
        errors
    }

    /// Connects what `input_ints()` reads.
    pub fn set_input(&mut self, input: crate::input::Input) {
        self.interp_state.input = input;
    }

    /// Adds a solver, asked after those added before it
    /// ([`Setup::solvers`]); refused past [`MAX_SOLVERS`].
    pub fn add_solver(&mut self, solver: Arc<dyn crate::solve::Solver>) -> Result<(), Diag> {
        if self.forms.plans.added.len() >= MAX_SOLVERS {
            return Err(too_many_solvers());
        }
        self.forms.plans.added.push(solver);
        let kernels = Rc::clone(&self.forms.kernels);
        self.forms.plans.make(&self.prog, &kernels, &self.limits);
        Ok(())
    }

    /// The limits it runs under.
    pub fn limits(&self) -> &Limits {
        &self.limits
    }

    /// The value of a constant (`None` if its definition failed).
    pub fn constant(&self, id: ConstId) -> Option<&Value> {
        self.consts.get(id.index())?.as_ref()
    }

    /// The program being run.
    pub fn program(&self) -> &ir::Program {
        &self.prog
    }

    /// How many more positions the state limit allows.
    pub fn room(&self) -> usize {
        self.store.room()
    }

    /// How many distinct positions have been interned.
    pub fn state_count(&self) -> usize {
        self.store.states()
    }

    // ----- positions -----------------------------------------------------------

    /// Interns `game(args)`.
    pub fn intern(&mut self, game: GameId, args: &[Value], span: Span) -> R<PosId> {
        match crate::key::intern(&mut self.store, game, args) {
            Ok(Some(id)) => Ok(id),
            Ok(None) => Err(loopy::bad_argument(args, span).into()),
            Err(_) => Err(state_limit(self.limits.max_states, span)),
        }
    }

    /// The game a position belongs to.
    pub fn game_of(&self, pos: PosId) -> GameId {
        self.store.game_of(pos)
    }

    /// A position's game and arguments.
    pub fn position(&self, pos: PosId) -> (GameId, Vec<Value>) {
        let mut args = Vec::new();
        crate::key::args_of(&self.store, pos, &mut args);
        (self.game_of(pos), args)
    }

    // ----- Grundy values --------------------------------------------------

    /// The Grundy value of a sum: the XOR of its components' values.
    pub fn grundy_sum(&mut self, parts: &[PosId]) -> R<u32> {
        let mut x = 0;
        for &p in parts {
            x ^= self.grundy(p)?;
        }
        Ok(x)
    }

    /// The Grundy value of one position (memoized; iterative).
    pub fn grundy(&mut self, root: PosId) -> R<u32> {
        self.scoped(Scope::default()).search(root)
    }

    /// Runs `f` with the misère search.
    pub fn with_misere<T>(
        &mut self,
        f: impl FnOnce(&mut crate::solve::misere::Misere, &mut oracle::Scoped) -> R<T>,
    ) -> R<T> {
        let mut misere = std::mem::take(&mut self.caches.misere);
        let result = f(&mut misere, &mut self.oracle());
        self.caches.misere = misere;
        result
    }
}

/// Gives `m` the program `prog`, keeping what is still valid of the old
/// one's values (`games[n]`: the old id of new game `n`); whether ids
/// moved. Constants are left to the caller, rules uncompiled until
/// [`compile_rules`].
fn install(m: &mut Machine, prog: ir::Program, games: &[Option<GameId>]) -> bool {
    let shapes: Vec<GameShape> = prog
        .games
        .iter()
        .enumerate()
        .map(|(id, g)| GameShape {
            arity: g.params.len(),
            ints: g.int_params.iter().all(|i| *i),
            sparse: prog.stored_by_key(GameId(id as u32)),
        })
        .collect();
    let moved = m.store.remap(games, &shapes);
    if moved {
        m.caches.misere = crate::solve::misere::Misere::default();
    }
    let n = prog.games.len();
    m.accel.renumber(games, &prog);
    m.caches.periods.games = carry(games, &m.caches.periods.games, n);
    // Sections are looked for again (their games may be renumbered).
    m.caches.periods.forget_sections();
    // Remoteness is by position, which new definitions may renumber.
    m.caches.remote.clear();
    m.prog = Rc::new(prog);
    m.interp_state.forget_calls();
    // Kernels and expressions are compiled for the new program once
    // constants are known.
    m.forms.kernels = Rc::new(Vec::new());
    m.forms.plans.make(&m.prog, &[], &m.limits);
    m.forms.compiled = Rc::new(Compiled::default());
    moved
}

/// Compiles the rules of `m`'s program with its constants as they are:
/// kernels, compiled expressions, and the plans that read them.
fn compile_rules(m: &mut Machine) {
    if m.limits.kernels {
        m.forms.kernels = Rc::new(kernel::compile(&m.prog, &m.consts));
    }
    if m.limits.compiled {
        let mut c = Compiled::new(&m.prog, &m.consts);
        // The code around the rules: constants, functions and statements.
        let p = &m.prog;
        let mut roots: Vec<ExprId> = p.consts.iter().map(|c| c.expr).collect();
        roots.extend(p.funs.iter().map(|f| f.body));
        for s in &p.stmts {
            let (e, clauses) = match s {
                ir::Stmt::Print { expr, clauses, .. } => (*expr, clauses),
                ir::Stmt::Check { cond, clauses, .. } => (*cond, clauses),
            };
            roots.push(e);
            roots.extend(clauses.iter().map(Clause::expr));
        }
        c.add_loops(p, &m.consts, &roots);
        m.forms.compiled = Rc::new(c);
    }
    m.forms.plans.make(&m.prog, &m.forms.kernels, &m.limits);
}

/// Per-game data for `n` new games: carried over from the old game in
/// `keep`, or fresh.
pub(super) fn carry<T: Clone + Default>(keep: &[Option<GameId>], old: &[T], n: usize) -> Vec<T> {
    (0..n)
        .map(|i| {
            keep.get(i)
                .copied()
                .flatten()
                .and_then(|o| old.get(o.index()).cloned())
                .unwrap_or_default()
        })
        .collect()
}

/// The error of a position past `--max-states`.
pub(super) fn state_limit(max_states: usize, span: Span) -> Stop {
    Limit::States
        .stop(format!("more than {max_states} positions reached"))
        .label(span, "while creating this position")
        .help("raise the limit with `--max-states N`, or ask about smaller positions")
}

/// Argument `i` of a builtin's call; a call with fewer is a bug (the
/// checker counts them).
fn nth_arg(args: &[ExprId], i: usize, span: Span) -> Result<ExprId, Diag> {
    args.get(i)
        .copied()
        .ok_or_else(|| Diag::bug("builtin called with too few arguments").label(span, "here"))
}
