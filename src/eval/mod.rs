//! Evaluation: expressions, position interning, and memoized Grundy values
//! computed without recursion on the Rust stack.
//!
//! Positions are interned by the [`Store`] (dense arrays for small integer
//! arguments, hashed keys otherwise). [`Machine::grundy`] runs a
//! depth-first search over an explicit stack of frames; each frame is a
//! suspended enumeration of one position's options (its rule, clause cursor
//! and loop variables), so a frame waiting for a child resumes where it was.

use crate::budget::{Apart, Budget, Meter};
use crate::compiled::{BoolCode, Compiled};
use crate::diagnostics::{Code, Diag};
use crate::ir::{self, BinOp, Builtin, Clause, CompKind, ConstId, ExprId, GameId};
use crate::kernel::{self, GameKernels};
pub(crate) use crate::mex::Seen;
use crate::mex::Stamped;
use crate::ops::{self, OpError};
use crate::oracle::{Moves, Oracle};
use crate::span::Span;
use crate::store::{GameShape, MAX_VALUE, ON_STACK, PosId, Store, TAG_INT, UNKNOWN};
use crate::value::{MAX_LIST_DEPTH, Value, list_depth};
use loops::{Iter, innermost_range};
use std::rc::Rc;
use std::sync::Arc;
use std::sync::atomic::AtomicBool;

/// A result whose error is a diagnostic.
pub use crate::flow::{R, Stop};

mod accel;
mod calls;
mod expr;
mod limits;
mod loops;
mod loopy;
mod oracle;
mod periods;
mod reports;

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
            period_budget: crate::analysis::DEFAULT_BUDGET,
            max_work: DEFAULT_MAX_WORK,
            time_limit: None,
            runaway: Some(crate::budget::DEFAULT_RUNAWAY),
            max_memory: DEFAULT_MAX_MEMORY,
        }
    }
}

/// The evaluator: a checked program, its constants, and the memo of positions.
pub struct Machine {
    prog: Rc<ir::Program>,
    /// Constant values; `None` when the definition failed.
    consts: Vec<Option<Value>>,
    /// Constants whose evaluation was interrupted (evaluated again on the
    /// next update).
    const_stopped: Vec<bool>,
    memo: Store,
    /// Positions stored when the statement started.
    states_at_start: usize,
    /// Kernels and the fill, with their per-game state.
    accel: accel::Accel,
    /// Compiled integer expressions of the rules.
    compiled: Rc<Compiled>,
    /// The misère search's memo (dropped when game ids change).
    misere: crate::misere::Misere,
    /// What period searches found, per game.
    periods: periods::Periods,
    limits: Limits,
    /// Ctrl-C and the work, time and memory limits of the statement.
    budget: Budget,
    /// The interpreter's state: position keys being built, function
    /// calls, input.
    interp: calls::Interp,
}

/// How a frame's clause cursor stands.
#[derive(Clone, Copy, Debug)]
enum Mode {
    /// About to evaluate clause `d` (or the body when `d` = clause count).
    Enter(usize),
    /// Advance the iterator of `for` clause `d`.
    Advance(usize),
    /// Backtrack from clause `d` to the nearest enclosing `for`.
    Back(usize),
}

/// What [`Machine::next_option`] found.
enum Next {
    /// An option, written into `out`.
    Option,
    /// The next rule starts (and has a kernel to try).
    Rule,
    /// No more options.
    Done,
}

/// How deep the search may go before values below the deepest position are
/// filled in ascending order instead (see [`Machine::fill_towards`]).
const FILL_DEPTH: usize = 256;
/// How many times a frame retries its kernel when a child is done.
const KERNEL_RETRIES: u8 = 8;
/// Positions of one-parameter games from this size on are worth a period
/// search (smaller ones are computed directly at once).
pub const PERIOD_FROM: i64 = 1024;

/// One position whose options are being enumerated.
struct Frame {
    pos: PosId,
    game: GameId,
    rule: usize,
    mode: Mode,
    env_base: usize,
    iter_base: usize,
    seen: Seen,
    /// An option waiting for a component's value: its components are the
    /// last this many of the search's parked stack.
    pending: Option<u32>,
    /// The fill epoch when this rule's kernel was last tried.
    kernel_epoch: u64,
    /// How often a kernel was tried for this frame.
    kernel_tries: u8,
    /// The position a statement asked about: its loops report their
    /// progress (for the runaway projection).
    metered: bool,
}

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
    /// Loopy games' solves running, one inside another (a sum's component
    /// solved while a graph is explored): bounded by [`loopy::MAX_NESTED`].
    pub(super) loopy_nesting: u32,
    /// The first mark number a loopy solve started here may use: the marks
    /// below it are the solves around it (see [`crate::store::solving`]).
    pub(super) solving_base: u32,
}

/// Buffers for listing a position's options, reused from one to the next.
#[derive(Default)]
pub(super) struct OptionBufs {
    env: Vec<Value>,
    iters: Vec<Option<Iter>>,
    out: Vec<PosId>,
    /// The kernels' integer slots and an option's components.
    kenv: Vec<i64>,
    comps: Vec<kernel::KPos>,
}

/// How a check condition came out for one case.
pub enum CheckCase {
    /// It held.
    Held,
    /// It failed; the two sides of a top-level comparison, if it is one.
    Failed(Option<(Value, Value)>),
}

impl Machine {
    /// Builds a machine for a program, evaluating its constants. A constant
    /// whose evaluation fails is reported in the returned list and has no
    /// value: using it is an error, but everything else still runs.
    pub fn new(prog: ir::Program, limits: Limits) -> (Machine, Vec<Diag>) {
        let mut m = Machine::empty(limits);
        let errors = m.update(prog, &[], &[]);
        (m, errors.into_iter().map(|(_, d)| d.into_diag()).collect())
    }

    /// A machine with an empty program: [`Machine::update`] gives it one
    /// (after [`Machine::set_cancel`], so that constants can be interrupted).
    pub fn empty(limits: Limits) -> Machine {
        Machine {
            prog: Rc::new(ir::Program::default()),
            consts: Vec::new(),
            const_stopped: Vec::new(),
            memo: Store::new(&[], limits.max_states),
            states_at_start: 0,
            accel: accel::Accel::default(),
            compiled: Rc::new(Compiled::default()),
            periods: periods::Periods::default(),
            misere: crate::misere::Misere::default(),
            budget: Budget::new(
                limits.max_work,
                limits.time_limit,
                limits.max_memory,
                limits.runaway,
            ),
            interp: calls::Interp::default(),
            limits,
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
        let shapes: Vec<GameShape> = prog
            .games
            .iter()
            .map(|g| GameShape {
                arity: g.params.len(),
                ints: g.int_params.iter().all(|i| *i),
            })
            .collect();
        let moved = self.memo.remap(games, &shapes);
        if moved {
            self.misere = crate::misere::Misere::default();
        }
        let n = prog.games.len();
        self.accel.fill_disabled = carry(games, &self.accel.fill_disabled, n);
        // A loopy game's values come from its graph, never in order.
        for (d, g) in self.accel.fill_disabled.iter_mut().zip(&prog.games) {
            *d |= g.loopy;
        }
        self.accel.row_done = carry(games, &self.accel.row_done, n);
        // Looked for again: a game's shape reads the constants.
        self.accel.sparse = (0..n).map(|_| accel::SparseSlot::Unknown).collect();
        self.accel.counts.reset();
        self.periods.games = carry(games, &self.periods.games, n);
        self.prog = Rc::new(prog);
        self.interp.forget_calls();
        // Kernels and expressions are compiled for the new program once
        // constants are known.
        self.accel.kernels = Rc::new(Vec::new());
        self.compiled = Rc::new(Compiled::default());
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
                if self.limits.kernels {
                    self.accel.kernels = Rc::new(kernel::compile(&self.prog, &self.consts));
                }
                if self.limits.compiled {
                    self.compiled = Rc::new(Compiled::new(&self.prog, &self.consts));
                }
            }
            for &c in &prog.const_order {
                let def = &prog.consts[c as usize];
                if def.needs_values != needs_values {
                    continue;
                }
                let kept =
                    consts.get(c as usize).copied().flatten().and_then(|o| {
                        Some((old.get_mut(o as usize)?, *old_stopped.get(o as usize)?))
                    });
                // Evaluated again: a constant that was interrupted, and a
                // value holding positions when ids moved.
                match kept {
                    Some((v, false)) if !v.as_ref().is_some_and(|v| moved && v.has_pos()) => {
                        self.consts[c as usize] = v.take();
                        continue;
                    }
                    _ => {}
                }
                let mut env = vec![Value::Int(0); def.slots as usize];
                // Each constant is a statement of its own for the limits.
                self.budget.start();
                match self.eval(def.expr, &mut env) {
                    Ok(v) => self.consts[c as usize] = Some(v),
                    Err(d) => {
                        self.const_stopped[c as usize] = d.ends_statement();
                        errors.push((c, d));
                    }
                }
            }
        }
        errors
    }

    /// Connects what `input_ints()` reads.
    pub fn set_input(&mut self, input: crate::input::Input) {
        self.interp.input = input;
    }

    /// The limits it runs under.
    pub fn limits(&self) -> &Limits {
        &self.limits
    }

    /// The value of a constant (`None` if its definition failed).
    pub fn constant(&self, id: ConstId) -> Option<&Value> {
        self.consts.get(id as usize)?.as_ref()
    }

    /// The program being run.
    pub fn program(&self) -> &ir::Program {
        &self.prog
    }

    /// Installs a flag that, once set, makes long evaluations stop with an
    /// [`Stop::Interrupted`].
    pub fn set_cancel(&mut self, flag: Arc<AtomicBool>) {
        self.budget.set_cancel(flag);
    }

    /// How many more positions the state limit allows.
    pub fn room(&self) -> usize {
        self.memo.room()
    }

    /// How many distinct positions have been interned.
    pub fn state_count(&self) -> usize {
        self.memo.states()
    }

    // ----- positions -----------------------------------------------------------

    /// Interns `game(args)`.
    pub fn intern(&mut self, game: GameId, args: &[Value], span: Span) -> R<PosId> {
        match crate::key::intern(&mut self.memo, game, args) {
            Ok(Some(id)) => Ok(id),
            Ok(None) => Err(loopy::bad_argument(args.iter().any(Value::has_infinite), span).into()),
            Err(_) => Err(self.state_limit(span).into()),
        }
    }

    fn state_limit(&self, span: Span) -> Diag {
        Diag::user(
            Code::StateLimit,
            format!("more than {} positions reached", self.limits.max_states),
        )
        .label(span, "while creating this position")
        .help("raise the limit with `--max-states N`, or ask about smaller positions")
    }

    fn game_of(&self, pos: PosId) -> GameId {
        self.memo.game_of(pos)
    }

    /// A position's game and arguments.
    pub fn position(&self, pos: PosId) -> (GameId, Vec<Value>) {
        let mut args = Vec::new();
        crate::key::args_of(&self.memo, pos, &mut args);
        (self.game_of(pos), args)
    }

    /// Renders a position as `Name(arg, ...)`.
    pub fn show_pos(&self, pos: PosId) -> String {
        let game = self.game_of(pos);
        let name = self
            .prog
            .games
            .get(game as usize)
            .map(|g| g.name.as_str())
            .unwrap_or("?");
        let mut args = Vec::new();
        crate::key::args_of(&self.memo, pos, &mut args);
        let args: Vec<String> = args.iter().map(Value::to_string).collect();
        format!("{name}({})", args.join(", "))
    }

    /// [`Machine::show_pos`], cut to a few lines' worth for a note (a
    /// position with a list of 10^5 elements is not a message).
    pub fn show_pos_briefly(&self, pos: PosId) -> String {
        const MOST: usize = 200;
        let text = self.show_pos(pos);
        match text.char_indices().nth(MOST) {
            Some((cut, _)) => format!("{}… ({} characters)", &text[..cut], text.chars().count()),
            None => text,
        }
    }

    /// Renders a sum of positions (`0` when empty).
    pub fn show_sum(&self, parts: &[PosId]) -> String {
        if parts.is_empty() {
            return "0".to_string();
        }
        parts
            .iter()
            .map(|&p| self.show_pos(p))
            .collect::<Vec<_>>()
            .join(" + ")
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
        self.search(root, Scope::default())
    }

    /// The Grundy value of one position, searched within `scope`.
    pub(super) fn search(&mut self, root: PosId, scope: Scope) -> R<u32> {
        self.interp.searching += 1;
        let result = self.search_in(root, scope);
        self.interp.searching -= 1;
        if self.interp.searching == 0 {
            self.budget.end_meter(Meter::Search);
        }
        result
    }

    fn search_in(&mut self, root: PosId, scope: Scope) -> R<u32> {
        let v = self.memo.value(root);
        if v <= MAX_VALUE {
            return Ok(v);
        }
        // A loopy game's positions are solved over their graph.
        if self.is_loopy(root) || crate::store::infinite_index(v).is_some() {
            return match self.gsg_in(root, scope)? {
                loopy_value @ crate::loopy::Gsg::Infinite(_) => {
                    Err(self.not_finite(root, &loopy_value).into())
                }
                crate::loopy::Gsg::Finite(v) => Ok(v),
            };
        }
        if let Some(v) = self.periodic_value(root, scope)? {
            return Ok(v);
        }
        // A take-and-break game needs every smaller heap: one ascending run
        // in sparse space, rather than a deep search and its fills. (Only
        // from the sparse threshold on: the run searches the heaps below it.)
        // So does a game whose options are a window of its earlier
        // positions, which a search would visit one by one, each reading
        // the whole window.
        if scope.depth_cap.is_none()
            && let Some(([n, _], 1)) = self.memo.dense_args(root)
            && n >= FILL_DEPTH as i64
            && (self.is_window(self.game_of(root))
                || self
                    .sparse_from(self.game_of(root))
                    .is_some_and(|from| n >= from as i64))
        {
            self.ascend(self.game_of(root), n + 1, scope)?;
            let v = self.memo.value(root);
            if v <= MAX_VALUE {
                return Ok(v);
            }
        }
        if let Some(v) = self.kernel_value(root) {
            self.memo.set(root, v);
            // The kernel's work was counted: a table of positions each
            // answered by its kernel looks at the limits too.
            self.poll()?;
            return Ok(v);
        }
        let mut frames: Vec<Frame> = Vec::new();
        let mut env: Vec<Value> = Vec::new();
        let mut iters: Vec<Option<Iter>> = Vec::new();
        let result = self.run(root, scope, &mut frames, &mut env, &mut iters);
        if result.is_err() {
            for f in &frames {
                self.memo.set(f.pos, UNKNOWN);
            }
        }
        result.map_err(|s| {
            let deep = frames.len() >= 1 << 16 && s.is(Code::MemoryLimit);
            s.map_diag(|d| {
                let d = if deep {
                    limits::stack_note(d, frames.len())
                } else {
                    d
                };
                self.why_no_period(d, root)
            })
        })
    }

    /// Runs `f` with the misère search's memo.
    pub fn with_misere<T>(
        &mut self,
        f: impl FnOnce(&mut crate::misere::Misere, &mut Machine) -> R<T>,
    ) -> R<T> {
        let mut memo = std::mem::take(&mut self.misere);
        let result = f(&mut memo, self);
        self.misere = memo;
        result
    }

    fn push_frame(
        &mut self,
        pos: PosId,
        scope: Scope,
        frames: &mut Vec<Frame>,
        env: &mut Vec<Value>,
        iters: &mut Vec<Option<Iter>>,
    ) -> R<()> {
        if scope.depth_cap.is_some_and(|cap| frames.len() >= cap) {
            return Err(Stop::Aborted);
        }
        if frames.len() >= self.limits.max_depth {
            return Err(self.too_deep(frames, pos).into());
        }
        // Before the search's stacks double: the memory limit.
        if frames.len() == frames.capacity() && frames.len() >= 1 << 16 {
            let bytes = frames.capacity() * std::mem::size_of::<Frame>()
                + env.capacity() * std::mem::size_of::<Value>()
                + iters.capacity() * std::mem::size_of::<Option<Iter>>();
            self.reserve(bytes)?;
        }
        let frame = self.enter(pos, env, iters);
        self.memo.set(pos, ON_STACK);
        frames.push(frame);
        Ok(())
    }

    /// A frame for `pos` at its first option: its slots (parameters, then
    /// room for every variable and the hoisted parts) appended to `env`, its
    /// iterators to `iters`.
    fn enter(&self, pos: PosId, env: &mut Vec<Value>, iters: &mut Vec<Option<Iter>>) -> Frame {
        let game = self.game_of(pos);
        let g = &self.prog.games[game as usize];
        let env_base = env.len();
        let iter_base = iters.len();
        crate::key::args_of(&self.memo, pos, env);
        env.resize(
            env_base
                + g.slots.max(g.params.len() as u32) as usize
                + self.compiled.extra_slots(game),
            Value::Int(0),
        );
        self.compiled.hoist(game, &mut env[env_base..]);
        iters.resize(iter_base + g.max_clauses as usize, None);
        Frame {
            pos,
            game,
            rule: 0,
            mode: Mode::Enter(0),
            env_base,
            iter_base,
            seen: Seen::default(),
            pending: None,
            kernel_epoch: u64::MAX,
            kernel_tries: 0,
            metered: false,
        }
    }

    fn run(
        &mut self,
        root: PosId,
        scope: Scope,
        frames: &mut Vec<Frame>,
        env: &mut Vec<Value>,
        iters: &mut Vec<Option<Iter>>,
    ) -> R<u32> {
        let mut out: Vec<PosId> = Vec::new();
        // The components of parked options, frame above frame: a frame's
        // are on top when it resumes (no allocation per option).
        let mut parked: Vec<PosId> = Vec::new();
        // The program and its compiled forms, held once for the search.
        let prog = Rc::clone(&self.prog);
        let compiled = Rc::clone(&self.compiled);
        let mut next_fill = FILL_DEPTH;
        self.push_frame(root, scope, frames, env, iters)?;
        if let Some(f) = frames.first_mut() {
            f.metered = self.interp.searching == 1;
        }
        let mut next_report = 0;
        while let Some(f) = frames.last_mut() {
            // The position asked about reports how far its loop got (at
            // most every 1024 units of work).
            if f.metered && self.budget.work() >= next_report {
                next_report = self.budget.work() + 1024;
                if let Some((at, last)) = innermost_range(&iters[f.iter_base..]) {
                    self.budget.report(Meter::Search, at, last);
                }
            }
            // A kernel finishes a rule at once when its options' values are
            // known: try it when the rule starts, when a child is done (a few
            // times per frame, so a frame with many children stays linear),
            // and after every fill.
            let at_start = f.pending.is_none() && matches!(f.mode, Mode::Enter(0));
            let resumed = f.pending.is_some()
                && (f.kernel_epoch != self.accel.fill_epoch || f.kernel_tries < KERNEL_RETRIES);
            if (at_start || resumed) && f.rule < self.prog.games[f.game as usize].rules.len() {
                f.kernel_epoch = self.accel.fill_epoch;
                f.kernel_tries = f.kernel_tries.saturating_add(1);
                let nparams = self.prog.games[f.game as usize].params.len();
                let params = &env[f.env_base..f.env_base + nparams];
                if self.kernel_rule(f.game, f.rule, params, &mut f.seen) {
                    f.rule += 1;
                    f.mode = Mode::Enter(0);
                    if let Some(n) = f.pending.take() {
                        parked.truncate(parked.len() - n as usize);
                    }
                    continue;
                }
            }
            let have = match f.pending.take() {
                Some(n) => {
                    out.clear();
                    out.extend(parked.drain(parked.len() - n as usize..));
                    true
                }
                None => match self
                    .next_option(
                        &prog,
                        &compiled,
                        f,
                        &mut env[f.env_base..],
                        &mut iters[f.iter_base..],
                        &mut out,
                    )
                    .map_err(|d| self.in_position(d, f.pos))?
                {
                    Next::Option => true,
                    Next::Rule => continue,
                    Next::Done => false,
                },
            };
            if !have {
                let mex = f.seen.mex();
                let pos = f.pos;
                if mex > u64::from(MAX_VALUE) {
                    return Err(Diag::user(Code::ValueLimit, "a Grundy value exceeds 2^31")
                        .note(format!("while evaluating {}", self.show_pos_briefly(pos)))
                        .into());
                }
                self.memo.set(pos, mex as u32);
                env.truncate(f.env_base);
                iters.truncate(f.iter_base);
                frames.pop();
                continue;
            }
            let mut x = 0u32;
            let mut missing = None;
            for &c in &out {
                match self.memo.value(c) {
                    // A loopy game's position: solved over its own graph.
                    UNKNOWN if self.is_loopy(c) => x ^= self.option_value(f.pos, c, scope)?,
                    UNKNOWN => {
                        missing = Some(c);
                        break;
                    }
                    ON_STACK if self.is_loopy(c) => x ^= self.option_value(f.pos, c, scope)?,
                    ON_STACK => return Err(self.cycle(frames, c).into()),
                    v if v <= MAX_VALUE => x ^= v,
                    _ => x ^= self.option_value(f.pos, c, scope)?,
                }
            }
            match missing {
                Some(c) => {
                    let n = u32::try_from(out.len()).map_err(|_| {
                        Diag::user(Code::TooLarge, "an option with 2^32 components")
                    })?;
                    // Before the parked stack grows past 2^16: the memory limit.
                    let need = parked.len() + out.len();
                    if need > parked.capacity() && need >= 1 << 16 {
                        let bytes = need.max(parked.capacity() * 2) * std::mem::size_of::<PosId>();
                        self.reserve(bytes)?;
                    }
                    parked.extend_from_slice(&out);
                    f.pending = Some(n);
                    // Fill when the stack is deep; after a fill, not again
                    // before the stack is deeper by as much (or twice as
                    // deep, when it achieved nothing), so that searches
                    // that only go up stay linear.
                    if frames.len() >= next_fill && scope.depth_cap.is_none() && self.limits.fill {
                        let epoch = self.accel.fill_epoch;
                        self.fill_towards(c, frames, scope)?;
                        next_fill = if self.accel.fill_epoch != epoch {
                            frames.len() + FILL_DEPTH
                        } else {
                            frames.len() * 2
                        };
                        if self.memo.value(c) <= MAX_VALUE {
                            continue;
                        }
                    }
                    self.push_frame(c, scope, frames, env, iters)?;
                }
                None => f.seen.insert(x),
            }
        }
        Ok(self.memo.value(root))
    }

    /// Adds "while listing the moves of P" to an error from a rule.
    fn in_position(&self, s: Stop, pos: PosId) -> Stop {
        s.map_diag(|d| {
            d.note(format!(
                "while listing the moves of {}",
                self.show_pos_briefly(pos)
            ))
        })
    }

    fn cycle(&self, frames: &[Frame], target: PosId) -> Diag {
        let start = frames.iter().rposition(|f| f.pos == target).unwrap_or(0);
        let mut path: Vec<String> = frames[start..]
            .iter()
            .map(|f| self.show_pos(f.pos))
            .collect();
        path.push(self.show_pos(target));
        if path.len() > 12 {
            let tail = path.split_off(path.len() - 5);
            path.truncate(6);
            path.push(format!("... ({} more) ...", frames.len() - start - 10));
            path.extend(tail);
        }
        let Some(last) = frames.last() else {
            return Diag::bug("cycle reported with no frames");
        };
        let g = &self.prog.games[last.game as usize];
        let rule_span = g.rules.get(last.rule).map(|r| r.span).unwrap_or(g.span);
        Diag::user(
            Code::Cycle,
            format!(
                "the game graph has a cycle: {} can be reached from itself",
                self.show_pos(target)
            ),
        )
        .label(
            rule_span,
            format!(
                "this rule moves from {} back to {}",
                self.show_pos(last.pos),
                self.show_pos(target)
            ),
        )
        .note(format!("cycle: {}", path.join(" -> ")))
        .help(format!(
            "Grundy values need every play to end: make each move decrease something; \
             or, if play may go on forever, declare `loopy game {}(...)` (its values may \
             then be ∞, and positions draws)",
            g.name
        ))
    }

    /// Advances a frame to its next option, written into `out`. `prog` and
    /// `compiled` are the machine's, held by the caller for the whole search.
    fn next_option(
        &mut self,
        prog: &ir::Program,
        compiled: &Compiled,
        f: &mut Frame,
        env: &mut [Value],
        iters: &mut [Option<Iter>],
        out: &mut Vec<PosId>,
    ) -> R<Next> {
        let game = &prog.games[f.game as usize];
        self.poll()?;
        loop {
            let Some(rule) = game.rules.get(f.rule) else {
                return Ok(Next::Done);
            };
            match f.mode {
                Mode::Enter(d) => {
                    let Some(clause) = rule.clauses.get(d) else {
                        f.mode = Mode::Back(d);
                        out.clear();
                        self.pos_into(prog, rule.body, env, out)?;
                        return Ok(Next::Option);
                    };
                    match *clause {
                        Clause::If { cond } => {
                            f.mode = if self.boolean(prog, cond, env)? {
                                Mode::Enter(d + 1)
                            } else {
                                Mode::Back(d)
                            };
                        }
                        Clause::For { iter, .. } => {
                            iters[d] = Some(self.iter(prog, iter, env)?);
                            f.mode = Mode::Advance(d);
                        }
                    }
                }
                Mode::Advance(d) => {
                    let Clause::For { slot, .. } = rule.clauses[d] else {
                        return Err(Diag::bug("advancing a non-loop clause").into());
                    };
                    // The `if`s right after the loop are tested here while
                    // their compiled forms answer: a failed one goes on with
                    // the next value at once, as `Back` would; one that
                    // cannot answer is left to `Enter`.
                    let mut tests: [Option<&BoolCode>; 4] = [None; 4];
                    let mut n = 0;
                    while let (Some(t), Some(Clause::If { cond })) =
                        (tests.get_mut(n), rule.clauses.get(d + 1 + n))
                    {
                        match compiled.bool(*cond) {
                            Some(c) => *t = Some(c),
                            None => break,
                        }
                        n += 1;
                    }
                    let tests = &tests[..n];
                    f.mode = Mode::Back(d);
                    while let Some(v) = iters[d].as_mut().and_then(Iter::next) {
                        if self.budget.tick() {
                            // A long run of values that fail the tests:
                            // the position asked about reports it here.
                            if f.metered
                                && let Some(Iter::Range { next, last, .. }) = &iters[d]
                            {
                                self.budget.report(Meter::Search, *next, *last);
                            }
                            self.poll_limits()?;
                        }
                        env[slot as usize] = v;
                        let mut k = 0;
                        let mut held = true;
                        for t in tests.iter().flatten() {
                            match t.eval(env) {
                                Some(true) => k += 1,
                                Some(false) => {
                                    held = false;
                                    break;
                                }
                                None => break,
                            }
                        }
                        if held {
                            f.mode = Mode::Enter(d + 1 + k);
                            break;
                        }
                    }
                }
                Mode::Back(d) => {
                    match rule.clauses[..d]
                        .iter()
                        .rposition(|c| matches!(c, Clause::For { .. }))
                    {
                        Some(k) => f.mode = Mode::Advance(k),
                        None => {
                            f.rule += 1;
                            f.mode = Mode::Enter(0);
                            // Back to the search, which tries the next rule's kernel.
                            let kernel = self
                                .accel
                                .kernels
                                .get(f.game as usize)
                                .and_then(|k| k.rules.get(f.rule));
                            if matches!(kernel, Some(Some(_))) {
                                return Ok(Next::Rule);
                            }
                        }
                    }
                }
            }
        }
    }

    /// Every option of one position, in rule order, into `moves` (cleared
    /// first).
    pub fn options_into(&mut self, pos: PosId, moves: &mut Moves) -> R<()> {
        self.options_with(pos, moves, &mut OptionBufs::default())
    }

    /// Whether a position has any option: its rules run up to the first
    /// (a heap of 10^6 is not listed to learn that it is not the end).
    pub fn has_options(&mut self, pos: PosId) -> R<bool> {
        let mut bufs = OptionBufs::default();
        let prog = Rc::clone(&self.prog);
        let compiled = Rc::clone(&self.compiled);
        let OptionBufs {
            env, iters, out, ..
        } = &mut bufs;
        let mut frame = self.enter(pos, env, iters);
        loop {
            match self
                .next_option(&prog, &compiled, &mut frame, env, iters, out)
                .map_err(|d| self.in_position(d, pos))?
            {
                Next::Option => return Ok(true),
                Next::Rule => {}
                Next::Done => return Ok(false),
            }
        }
    }

    /// [`Machine::options_into`] with buffers kept from one call to the
    /// next (a loopy game's graph lists millions of positions).
    pub(super) fn options_with(
        &mut self,
        pos: PosId,
        moves: &mut Moves,
        bufs: &mut OptionBufs,
    ) -> R<()> {
        moves.clear();
        if self.kernel_options(pos, moves, bufs)? {
            return Ok(());
        }
        moves.clear();
        bufs.env.clear();
        bufs.iters.clear();
        let prog = Rc::clone(&self.prog);
        let compiled = Rc::clone(&self.compiled);
        let OptionBufs {
            env, iters, out, ..
        } = bufs;
        let mut frame = self.enter(pos, env, iters);
        loop {
            match self
                .next_option(&prog, &compiled, &mut frame, env, iters, out)
                .map_err(|d| self.in_position(d, pos))?
            {
                Next::Option => moves.push(out),
                Next::Rule => {}
                Next::Done => return Ok(()),
            }
        }
    }
}

/// Per-game data for `n` new games: carried over from the old game in
/// `keep`, or fresh.
fn carry<T: Clone + Default>(keep: &[Option<GameId>], old: &[T], n: usize) -> Vec<T> {
    (0..n)
        .map(|i| {
            keep.get(i)
                .copied()
                .flatten()
                .and_then(|o| old.get(o as usize).cloned())
                .unwrap_or_default()
        })
        .collect()
}
