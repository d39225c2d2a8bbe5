//! Evaluation: expressions, position interning, and memoized Grundy values
//! computed without recursion on the Rust stack.
//!
//! Positions are interned by the [`Store`] (dense arrays for small integer
//! arguments, hashed keys otherwise). [`Machine::grundy`] runs a
//! depth-first search over an explicit stack of frames; each frame is a
//! suspended enumeration of one position's options (its rule, clause cursor
//! and loop variables), so a frame waiting for a child resumes where it was.

use crate::budget::Budget;
use crate::compiled::{BoolCode, Compiled};
use crate::diagnostics::{Code, Diag};
use crate::ir::{self, BinOp, Builtin, Clause, CompKind, ConstId, ExprId, GameId};
use crate::kernel::{self, GameKernels, SeenSet, Stamped};
use crate::ops::{self, OpError};
use crate::span::Span;
use crate::store::{GameShape, MAX_VALUE, ON_STACK, PosId, Store, UNKNOWN};
use crate::value::{MAX_LIST_DEPTH, Value, list_depth, write_list};
use std::rc::Rc;
use std::sync::Arc;
use std::sync::atomic::AtomicBool;

/// A result whose error is a diagnostic.
pub use crate::flow::{R, Stop};

/// The default of `--max-work`.
pub const DEFAULT_MAX_WORK: u64 = 10_000_000_000;

/// The default of `--max-memory`: what a laptop can spare.
pub const DEFAULT_MAX_MEMORY: usize = 4 << 30;

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
    kernels: Rc<Vec<GameKernels>>,
    /// Compiled integer expressions of the rules.
    compiled: Rc<Compiled>,
    /// Bumped whenever a fill computed values: frames then retry kernels.
    fill_epoch: u64,
    /// Games whose fill met a failure other than the stack (an error, the
    /// depth cap of a nested search, no room for dense storage): not filled
    /// again.
    fill_disabled: Vec<bool>,
    /// Per game and row, how many leading positions are known (one-argument
    /// games use one row): where each row's fill goes on.
    row_done: Vec<Vec<i64>>,
    /// While filling: the deepest a nested search may go.
    depth_cap: Option<usize>,
    /// The misère search's memo (dropped when game ids change).
    misere: crate::misere::Misere,
    /// Per game, what period searches found.
    periods: Vec<PeriodState>,
    /// The game whose period is being searched (its positions are computed
    /// directly meanwhile).
    searching: Option<GameId>,
    /// The mex set and integer slots of [`Machine::kernel_value`], reused.
    stamped: Stamped,
    kenv: Vec<i64>,
    limits: Limits,
    /// Ctrl-C and the work, time and memory limits of the statement.
    budget: Budget,
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

/// An iterator of a `for` clause.
#[derive(Clone, Debug)]
enum Iter {
    Range { next: i64, last: i64, done: bool },
    List { list: Rc<[Value]>, idx: usize },
}

impl Iter {
    fn next(&mut self) -> Option<Value> {
        match self {
            Iter::Range { next, last, done } => {
                if *done || *next > *last {
                    return None;
                }
                let v = *next;
                if v == *last {
                    *done = true;
                } else {
                    *next += 1;
                }
                Some(Value::Int(v))
            }
            Iter::List { list, idx } => {
                let v = list.get(*idx).cloned();
                *idx += 1;
                v
            }
        }
    }
}

/// The set of option values seen so far, for the mex.
#[derive(Clone, Debug, Default)]
pub(crate) struct Seen {
    low: u64,
    high: Vec<u64>,
}

impl Seen {
    #[inline(always)]
    pub(crate) fn insert(&mut self, v: u32) {
        if v < 64 {
            self.low |= 1 << v;
        } else {
            self.insert_high(v);
        }
    }

    /// Values of 64 and more; sentinels (never a value) are ignored.
    fn insert_high(&mut self, v: u32) {
        if v > MAX_VALUE {
            return;
        }
        let i = (v as usize - 64) / 64;
        if self.high.len() <= i {
            self.high.resize(i + 1, 0);
        }
        self.high[i] |= 1 << ((v - 64) % 64);
    }

    fn union(&mut self, other: &Seen) {
        self.low |= other.low;
        if self.high.len() < other.high.len() {
            self.high.resize(other.high.len(), 0);
        }
        for (a, b) in self.high.iter_mut().zip(&other.high) {
            *a |= b;
        }
    }

    pub(crate) fn mex(&self) -> u64 {
        if self.low != u64::MAX {
            return u64::from(self.low.trailing_ones());
        }
        for (i, w) in self.high.iter().enumerate() {
            if *w != u64::MAX {
                return 64 + 64 * i as u64 + u64::from(w.trailing_ones());
            }
        }
        64 + 64 * self.high.len() as u64
    }
}

impl SeenSet for Seen {
    #[inline(always)]
    fn insert(&mut self, v: u32) {
        Seen::insert(self, v);
    }
}

/// How deep the search may go before values below the deepest position are
/// filled in ascending order instead (see [`Machine::fill_towards`]).
const FILL_DEPTH: usize = 256;
/// How many times a frame retries its kernel when a child is done.
const KERNEL_RETRIES: u8 = 8;
/// The least number of positions one fill may compute.
const FILL_MIN: usize = 1 << 20;
/// Positions of one-parameter games from this size on are worth a period
/// search (smaller ones are computed directly at once).
pub const PERIOD_FROM: i64 = 1024;

/// What period searches found for one game.
#[derive(Clone, Debug, Default)]
struct PeriodState {
    /// A proven `(preperiod, period)`, or why there is none; `None` while
    /// a larger search may still find one.
    found: Option<Result<(i64, i64), NoPeriod>>,
    /// The largest budget tried.
    tried: i64,
}

/// Why a game has no proven period.
#[derive(Clone, Debug)]
struct NoPeriod {
    text: String,
    /// Whether the game has a shape a theorem applies to (so that the only
    /// way to its huge positions is a period).
    proof_possible: bool,
}

/// How many positions a batch kernel computes between looks at the
/// cancellation flag.
const BATCH_CHUNK: usize = 1 << 16;
/// How deep a nested search may go while filling.
const FILL_NESTED_DEPTH: usize = 64;

/// One position whose options are being enumerated.
struct Frame {
    pos: PosId,
    game: GameId,
    rule: usize,
    mode: Mode,
    env_base: usize,
    iter_base: usize,
    seen: Seen,
    /// An option waiting for a component's value.
    pending: Option<Vec<PosId>>,
    /// The fill epoch when this rule's kernel was last tried.
    kernel_epoch: u64,
    /// How often a kernel was tried for this frame.
    kernel_tries: u8,
}

/// Enumerates a position's options one at a time.
struct Options {
    frame: Frame,
    env: Vec<Value>,
    iters: Vec<Option<Iter>>,
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
            kernels: Rc::new(Vec::new()),
            compiled: Rc::new(Compiled::default()),
            fill_epoch: 0,
            fill_disabled: Vec::new(),
            row_done: Vec::new(),
            depth_cap: None,
            periods: Vec::new(),
            searching: None,
            misere: crate::misere::Misere::default(),
            stamped: Stamped::default(),
            kenv: Vec::new(),
            budget: Budget::new(limits.max_work, limits.time_limit, limits.max_memory),
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
        self.fill_disabled = carry(games, &self.fill_disabled, n);
        self.row_done = carry(games, &self.row_done, n);
        self.periods = carry(games, &self.periods, n);
        self.depth_cap = None;
        self.prog = Rc::new(prog);
        // Kernels and expressions are compiled for the new program once
        // constants are known.
        self.kernels = Rc::new(Vec::new());
        self.compiled = Rc::new(Compiled::default());
        let mut old = std::mem::take(&mut self.consts);
        let old_stopped = std::mem::take(&mut self.const_stopped);
        self.consts = vec![None; self.prog.consts.len()];
        self.const_stopped = vec![false; self.prog.consts.len()];
        let prog = self.prog.clone();
        let mut errors = Vec::new();
        for &c in &prog.const_order {
            let kept = consts
                .get(c as usize)
                .copied()
                .flatten()
                .and_then(|o| Some((old.get_mut(o as usize)?, *old_stopped.get(o as usize)?)));
            // Evaluated again: a constant that was interrupted, and a value
            // holding positions when ids moved.
            match kept {
                Some((v, false)) if !v.as_ref().is_some_and(|v| moved && v.has_pos()) => {
                    self.consts[c as usize] = v.take();
                    continue;
                }
                _ => {}
            }
            let def = &prog.consts[c as usize];
            let mut env = vec![Value::Int(0); def.slots as usize];
            match self.eval(def.expr, &mut env) {
                Ok(v) => self.consts[c as usize] = Some(v),
                Err(d) => {
                    self.const_stopped[c as usize] = d == Stop::Interrupted;
                    errors.push((c, d));
                }
            }
        }
        if self.limits.kernels {
            self.kernels = Rc::new(kernel::compile(&self.prog, &self.consts));
        }
        if self.limits.compiled {
            self.compiled = Rc::new(Compiled::new(&self.prog, &self.consts));
        }
        errors
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
        match crate::value::intern(&mut self.memo, game, args) {
            Ok(Some(id)) => Ok(id),
            Ok(None) => Err(Diag::bug("a range or position passed as a game argument")
                .label(span, "here")
                .into()),
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
        crate::value::args_of(&self.memo, pos, &mut args);
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
        crate::value::args_of(&self.memo, pos, &mut args);
        let args: Vec<String> = args.iter().map(Value::to_string).collect();
        format!("{name}({})", args.join(", "))
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
        let v = self.memo.value(root);
        if v < ON_STACK {
            return Ok(v);
        }
        if let Some(v) = self.periodic_value(root)? {
            return Ok(v);
        }
        if let Some(v) = self.kernel_value(root) {
            self.memo.set(root, v);
            return Ok(v);
        }
        let mut frames: Vec<Frame> = Vec::new();
        let mut env: Vec<Value> = Vec::new();
        let mut iters: Vec<Option<Iter>> = Vec::new();
        let result = self.run(root, &mut frames, &mut env, &mut iters);
        if result.is_err() {
            for f in &frames {
                self.memo.set(f.pos, UNKNOWN);
            }
        }
        result.map_err(|s| match s {
            Stop::Error(d) => Stop::Error(self.why_no_period(d, root)),
            other => other,
        })
    }

    /// A limit met while computing a one-parameter position directly says
    /// why no period was used instead, when one was looked for.
    fn why_no_period(&self, d: Diag, root: PosId) -> Diag {
        if !matches!(d.code, Code::StateLimit | Code::DepthLimit) {
            return d;
        }
        match self.periods.get(self.game_of(root) as usize) {
            Some(PeriodState {
                found: Some(Err(why)),
                ..
            }) => {
                let name = &self.prog.games[self.game_of(root) as usize].name;
                d.note(if why.proof_possible {
                    format!("no period of {name} could answer instead: {}", why.text)
                } else {
                    format!(
                        "no period of {name} can be proven to answer instead: its moves have \
                         no take-and-break shape ({})",
                        why.text
                    )
                })
            }
            _ => d,
        }
    }

    /// The value of a one-parameter position from a proven period. A
    /// period is searched for (once the game has a take-and-break shape)
    /// when a position from [`PERIOD_FROM`] on is asked for: with a budget of
    /// n values, which computing G(n) directly would need anyway, doubled
    /// each time, and with the whole budget for positions too large to
    /// compute (more positions below them than the state limit).
    fn periodic_value(&mut self, pos: PosId) -> R<Option<u32>> {
        let game = self.game_of(pos);
        if self.prog.games[game as usize].params.len() != 1 || self.searching == Some(game) {
            return Ok(None);
        }
        let n = match self.memo.dense_args(pos) {
            Some(([n, _], 1)) => n,
            Some(_) => return Ok(None),
            None => {
                let mut args = Vec::new();
                crate::value::args_of(&self.memo, pos, &mut args);
                match args[..] {
                    [Value::Int(n)] => n,
                    _ => return Ok(None),
                }
            }
        };
        if n < PERIOD_FROM {
            return Ok(None);
        }
        let huge = n >= self.limits.max_states as i64;
        let span = self.prog.games[game as usize].header;
        let full = self.limits.period_budget;
        let budget = if huge { full } else { n.min(full) };
        let state = &self.periods[game as usize];
        // Searching again pays when the budget has doubled, or when it is
        // the whole budget for a position that needs it.
        // Not from inside a fill: its nested searches are capped in depth.
        let worth = self.depth_cap.is_none()
            && (budget >= state.tried.saturating_mul(2).max(1) || (huge && full > state.tried));
        if state.found.is_none() && worth {
            let found = self.search_period(game, budget, span)?;
            let slot = &mut self.periods[game as usize];
            slot.tried = budget;
            if found.is_ok() || budget >= full || huge {
                slot.found = Some(found);
            }
        }
        if self.periods[game as usize].found.is_none() && huge && full < 1 {
            if crate::analysis::shape::shape(self, game).is_err() {
                return Ok(None);
            }
            return Err(crate::analysis::too_large(
                &self.prog.games[game as usize].name,
                n,
                "period searches are turned off (--period-budget 0)",
                span,
            )
            .into());
        }
        match &self.periods[game as usize].found {
            &Some(Ok((e, p))) if n >= e + p => {
                let r = e + (n - e) % p;
                let q = self.intern(game, &[Value::Int(r)], span)?;
                self.grundy(q).map(Some)
            }
            Some(Err(why)) if huge && why.proof_possible => Err(crate::analysis::too_large(
                &self.prog.games[game as usize].name,
                n,
                &why.text,
                span,
            )
            .into()),
            _ => Ok(None),
        }
    }

    /// Runs a period search for a game (not for the positions it computes).
    fn search_period(
        &mut self,
        game: GameId,
        budget: i64,
        span: Span,
    ) -> R<Result<(i64, i64), NoPeriod>> {
        // Without a take-and-break shape no period can be proven: positions
        // are computed directly (a game may need few of them).
        if let Err(why) = crate::analysis::shape::shape(self, game) {
            return Ok(Err(NoPeriod {
                text: why,
                proof_possible: false,
            }));
        }
        self.searching = Some(game);
        let result = crate::analysis::period(self, game, budget, span);
        self.searching = None;
        let search = match result {
            Ok(search) => search,
            Err(Stop::Interrupted) => return Err(Stop::Interrupted),
            // The search is an optimization: positions it met that direct
            // computation may never reach (a cycle, an overflow, a limit)
            // must not decide the answer.
            Err(s) => {
                return Ok(Err(NoPeriod {
                    text: format!(
                        "the search for a period stopped ({})",
                        s.into_diag().message
                    ),
                    proof_possible: false,
                }));
            }
        };
        Ok(match search {
            crate::analysis::Search::Found(p) if p.is_proven() => Ok((p.preperiod, p.period)),
            crate::analysis::Search::Found(p) => Err(format!(
                "its values look periodic (period {} from n = {}) in the {} computed, \
                 but that is not proven",
                p.period, p.preperiod, p.computed
            )),
            crate::analysis::Search::NotFound { computed, .. } => Err(format!(
                "no period found in its first {computed} values (the period budget or the state \
                 limit; raise them with --period-budget N and --max-states N)"
            )),
        }
        .map_err(|text| NoPeriod {
            text,
            proof_possible: true,
        }))
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

    /// The proven `(preperiod, period)` of a game, if a search found one.
    pub fn known_period(&self, game: GameId) -> Option<(i64, i64)> {
        match self.periods.get(game as usize)?.found {
            Some(Ok(ep)) => Some(ep),
            _ => None,
        }
    }

    /// Records a proven period of a game.
    pub fn set_period(&mut self, game: GameId, preperiod: i64, period: i64) {
        if let Some(slot) = self.periods.get_mut(game as usize) {
            slot.found = Some(Ok((preperiod, period)));
        }
    }

    fn push_frame(
        &mut self,
        pos: PosId,
        frames: &mut Vec<Frame>,
        env: &mut Vec<Value>,
        iters: &mut Vec<Option<Iter>>,
    ) -> R<()> {
        if self.depth_cap.is_some_and(|cap| frames.len() >= cap) {
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
            self.reserve(bytes).map_err(|s| match s {
                Stop::Error(d) => Stop::Error(d.note(format!(
                    "the search holds {} positions waiting for their options' values \
                     (--max-depth bounds them)",
                    frames.len()
                ))),
                other => other,
            })?;
        }
        let game = self.game_of(pos);
        let g = &self.prog.games[game as usize];
        let env_base = env.len();
        let iter_base = iters.len();
        crate::value::args_of(&self.memo, pos, env);
        env.resize(
            env_base
                + g.slots.max(g.params.len() as u32) as usize
                + self.compiled.extra_slots(game),
            Value::Int(0),
        );
        self.compiled.hoist(game, &mut env[env_base..]);
        iters.resize(iter_base + g.max_clauses as usize, None);
        self.memo.set(pos, ON_STACK);
        frames.push(Frame {
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
        });
        Ok(())
    }

    fn run(
        &mut self,
        root: PosId,
        frames: &mut Vec<Frame>,
        env: &mut Vec<Value>,
        iters: &mut Vec<Option<Iter>>,
    ) -> R<u32> {
        let mut out: Vec<PosId> = Vec::new();
        // Buffers of parked options, reused: no allocation per option.
        let mut spare: Vec<Vec<PosId>> = Vec::new();
        let mut next_fill = FILL_DEPTH;
        self.push_frame(root, frames, env, iters)?;
        while let Some(f) = frames.last_mut() {
            // A kernel finishes a rule at once when its options' values are
            // known: try it when the rule starts, when a child is done (a few
            // times per frame, so a frame with many children stays linear),
            // and after every fill.
            let at_start = f.pending.is_none() && matches!(f.mode, Mode::Enter(0));
            let resumed = f.pending.is_some()
                && (f.kernel_epoch != self.fill_epoch || f.kernel_tries < KERNEL_RETRIES);
            if (at_start || resumed) && f.rule < self.prog.games[f.game as usize].rules.len() {
                f.kernel_epoch = self.fill_epoch;
                f.kernel_tries = f.kernel_tries.saturating_add(1);
                let nparams = self.prog.games[f.game as usize].params.len();
                let params = &env[f.env_base..f.env_base + nparams];
                if self.kernel_rule(f.game, f.rule, params, &mut f.seen) {
                    f.rule += 1;
                    f.mode = Mode::Enter(0);
                    f.pending = None;
                    continue;
                }
            }
            let have = match f.pending.take() {
                Some(p) => {
                    spare.push(std::mem::replace(&mut out, p));
                    true
                }
                None => match self
                    .next_option(
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
                        .note(format!("while evaluating {}", self.show_pos(pos)))
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
                    UNKNOWN => {
                        missing = Some(c);
                        break;
                    }
                    ON_STACK => return Err(self.cycle(frames, c).into()),
                    v => x ^= v,
                }
            }
            match missing {
                Some(c) => {
                    let fresh = spare.pop().unwrap_or_default();
                    f.pending = Some(std::mem::replace(&mut out, fresh));
                    // Fill when the stack is deep; after a fill, not again
                    // before the stack is deeper by as much (or twice as
                    // deep, when it achieved nothing), so that searches
                    // that only go up stay linear.
                    if frames.len() >= next_fill && self.depth_cap.is_none() && self.limits.fill {
                        let epoch = self.fill_epoch;
                        self.fill_towards(c, frames)?;
                        next_fill = if self.fill_epoch != epoch {
                            frames.len() + FILL_DEPTH
                        } else {
                            frames.len() * 2
                        };
                        if self.memo.value(c) < ON_STACK {
                            continue;
                        }
                    }
                    self.push_frame(c, frames, env, iters)?;
                }
                None => f.seen.insert(x),
            }
        }
        Ok(self.memo.value(root))
    }

    /// Runs the kernel of one rule into `seen`; false if there is none or it
    /// gave up.
    fn kernel_rule(
        &mut self,
        game: GameId,
        rule: usize,
        params: &[Value],
        seen: &mut Seen,
    ) -> bool {
        let kernels = self.kernels.clone();
        let Some(Some(Some(k))) = kernels.get(game as usize).map(|g| g.rules.get(rule)) else {
            return false;
        };
        let mut env = std::mem::take(&mut self.kenv);
        env.clear();
        env.resize(kernels[game as usize].slots, 0);
        let ints = env.iter_mut().zip(params).all(|(slot, p)| match p {
            Value::Int(v) => {
                *slot = *v;
                true
            }
            _ => false,
        });
        // Into a scratch set: a kernel that gives up may have inserted
        // values computed from unknown ones.
        let mut scratch = Seen::default();
        let mut counted = kernel::Counted {
            set: &mut scratch,
            count: 0,
        };
        let ok = ints && k.run(&self.memo, &mut env, &mut counted).is_some();
        self.budget.add(counted.count);
        self.kenv = env;
        if ok {
            seen.union(&scratch);
        }
        ok
    }

    /// The value of a position computed by kernels alone, if its game has
    /// kernels for every rule and they all succeed.
    fn kernel_value(&mut self, pos: PosId) -> Option<u32> {
        // Only dense positions: their arguments are integers by construction.
        let (args, n) = self.memo.dense_args(pos)?;
        self.kernel_value_at(self.game_of(pos), &args[..n])
    }

    /// [`Machine::kernel_value`] of `game(args)`, from its arguments.
    fn kernel_value_at(&mut self, game: GameId, args: &[i64]) -> Option<u32> {
        let ks = self.kernels.get(game as usize)?;
        if !ks.complete {
            return None;
        }
        let n = args.len();
        let mut env = std::mem::take(&mut self.kenv);
        env.clear();
        env.resize(ks.slots.max(n), 0);
        env[..n].copy_from_slice(args);
        self.stamped.clear(self.memo.max_value());
        let ok = ks
            .rules
            .iter()
            .flatten()
            .all(|k| k.run(&self.memo, &mut env, &mut self.stamped).is_some());
        self.kenv = env;
        // Checked at the next poll.
        self.budget.add(self.stamped.take_inserted());
        if !ok {
            return None;
        }
        Some(self.stamped.mex()).filter(|v| *v <= MAX_VALUE)
    }

    /// The search went deep: compute the positions of the same game below the
    /// missing one (and below this game's positions on the stack) in
    /// ascending order, a row at a time for two arguments, so that decreasing
    /// games are evaluated bottom-up with a shallow stack and their kernels
    /// apply. Each row goes on from the first position not known yet and
    /// stops at the first one that cannot be computed in this order: it needs
    /// a position on the stack, or (for games without complete kernels) its
    /// capped nested search failed.
    ///
    /// The work is speculative, so it is bounded: one call computes at most
    /// as many positions as are stored already (and at least [`FILL_MIN`]),
    /// so the total stays within a constant factor of what the search itself
    /// needs, and it stops while a tenth of the state limit is still free.
    /// Nothing here reports errors but an interruption: the search goes on
    /// afterwards and reports what is real. A failure other than meeting the
    /// stack disables filling for the game.
    fn fill_towards(&mut self, target: PosId, frames: &[Frame]) -> R<()> {
        let game = self.game_of(target);
        if self.fill_disabled[game as usize] {
            return Ok(());
        }
        let Some((args, n)) = self.memo.dense_args(target) else {
            return Ok(());
        };
        let two = n == 2;
        // (rows, cols) of the box; one-argument games are one row.
        let (mut rows, mut cols) = if two {
            (args[0] + 1, args[1] + 1)
        } else {
            (1, args[0] + 1)
        };
        for f in frames.iter().filter(|f| f.game == game) {
            match self.memo.dense_args(f.pos) {
                Some(([m, _], 1)) if !two => cols = cols.max(m + 1),
                Some(([a, b], 2)) if two => {
                    rows = rows.max(a + 1);
                    cols = cols.max(b + 1);
                }
                _ => {}
            }
        }
        let reserve = self.limits.max_states / 10;
        let mut budget = self.memo.states().max(FILL_MIN);
        let complete = self.kernels.get(game as usize).is_some_and(|k| k.complete);
        let mut done = std::mem::take(&mut self.row_done[game as usize]);
        if done.len() < rows as usize {
            done.resize(rows as usize, 0);
        }
        let mut progressed = false;
        let mut disable = false;
        let mut interrupted = None;
        // Games of the simplest shapes fill their leading run in one loop.
        if !two
            && let Some(batch) = self
                .kernels
                .get(game as usize)
                .and_then(|k| k.batch.clone())
            && let Ok(Some(_)) = self.memo.dense1(game, cols - 1)
            && let Some(mut array) = self.memo.take_dense1(game)
        {
            let from = done[0] as usize;
            let room = self.memo.room().saturating_sub(reserve).min(budget);
            let to = (cols as usize).min(from.saturating_add(room));
            let mut max_value = self.memo.max_value();
            // In chunks, to notice Ctrl-C between them.
            let (mut next, mut stored) = (from, 0);
            while next < to {
                let end = to.min(next.saturating_add(BATCH_CHUNK));
                let (at, more) =
                    batch.run(&mut array, next, end, &mut self.stamped, &mut max_value);
                let stuck = at == next;
                (next, stored) = (at, stored + more);
                if let Err(s) = self.budget.spend(self.stamped.take_inserted().max(1)) {
                    interrupted = Some(s);
                    break;
                }
                // Short of `end` with progress: the chunk's work was used up.
                if stuck {
                    break;
                }
            }
            self.memo.restore_dense1(game, array, stored, max_value);
            done[0] = next as i64;
            budget -= stored.min(budget);
            progressed = stored > 0;
        }
        self.depth_cap = Some(FILL_NESTED_DEPTH);
        'rows: for a in 0..rows {
            if interrupted.is_some() {
                break;
            }
            let row = &mut done[a as usize];
            for b in *row..cols {
                if budget == 0 || self.memo.room() <= reserve {
                    break 'rows;
                }
                if let Err(d) = self.poll() {
                    interrupted = Some(d);
                    break 'rows;
                }
                let cell = if two {
                    self.memo.dense2(game, a, b)
                } else {
                    self.memo.dense1(game, b)
                };
                let Ok(Some(p)) = cell else {
                    disable = true;
                    break 'rows;
                };
                match self.memo.value(p) {
                    ON_STACK => break,
                    v if v < ON_STACK => {
                        *row = b + 1;
                        continue;
                    }
                    _ => {}
                }
                // Straight from the kernels when they can; else a search.
                let here: &[i64] = if two { &[a, b] } else { &[b] };
                if let Some(v) = self.kernel_value_at(game, here) {
                    self.memo.set(p, v);
                } else if complete {
                    break;
                } else {
                    match self.grundy(p) {
                        Ok(_) => {}
                        Err(s) if s.is(Code::Cycle) => break,
                        // Ctrl-C and the statement's limits end the fill
                        // and the statement.
                        Err(s)
                            if s == Stop::Interrupted
                                || s.is(Code::WorkLimit)
                                || s.is(Code::TimeLimit)
                                || s.is(Code::MemoryLimit) =>
                        {
                            interrupted = Some(s);
                            break 'rows;
                        }
                        Err(_) => {
                            disable = true;
                            break 'rows;
                        }
                    }
                }
                *row = b + 1;
                budget -= 1;
                progressed = true;
            }
        }
        self.row_done[game as usize] = done;
        self.depth_cap = None;
        if disable {
            self.fill_disabled[game as usize] = true;
        }
        if progressed {
            self.fill_epoch += 1;
        }
        interrupted.map_or(Ok(()), Err)
    }

    fn too_deep(&self, frames: &[Frame], pos: PosId) -> Diag {
        let first = frames
            .first()
            .map(|f| self.show_pos(f.pos))
            .unwrap_or_default();
        let mut d = Diag::user(
            Code::DepthLimit,
            format!(
                "the search went more than {} positions deep",
                self.limits.max_depth
            ),
        )
        .note(format!("from {first} down to {}", self.show_pos(pos)))
        .help(
            "does every move make the position smaller? a missing `if` guard lets arguments \
             run past 0; raise the limit with `--max-depth N` if the game really is this deep",
        );
        if let Some(last) = frames.last() {
            let g = &self.prog.games[last.game as usize];
            if let Some(rule) = g.rules.get(last.rule) {
                d = d.label(rule.span, "this rule keeps making new positions");
            }
        }
        d
    }

    /// Adds "while listing the moves of P" to an error from a rule.
    fn in_position(&self, s: Stop, pos: PosId) -> Stop {
        match s {
            Stop::Error(d) => {
                Stop::Error(d.note(format!("while listing the moves of {}", self.show_pos(pos))))
            }
            other => other,
        }
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
        .help("Grundy values need every play to end: make each move decrease something")
    }

    /// Advances a frame to its next option, written into `out`.
    fn next_option(
        &mut self,
        f: &mut Frame,
        env: &mut [Value],
        iters: &mut [Option<Iter>],
        out: &mut Vec<PosId>,
    ) -> R<Next> {
        let prog = self.prog.clone();
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
                        self.eval_pos_into(rule.body, env, out)?;
                        return Ok(Next::Option);
                    };
                    match *clause {
                        Clause::If { cond } => {
                            f.mode = if self.eval_bool(cond, env)? {
                                Mode::Enter(d + 1)
                            } else {
                                Mode::Back(d)
                            };
                        }
                        Clause::For { iter, .. } => {
                            iters[d] = Some(self.make_iter(iter, env)?);
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
                    let compiled = Rc::clone(&self.compiled);
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
                        self.poll()?;
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

    /// One unit of work (a move, a loop value); every so often, Ctrl-C and
    /// the limits.
    #[inline]
    pub fn poll(&mut self) -> R<()> {
        self.budget.tick().map_err(|s| self.explain(s))
    }

    /// A statement starts: the work and time limits start afresh.
    pub fn start_statement(&mut self) {
        self.budget.start();
    }

    /// Runs `f` outside the work limit (period searches: their own budget
    /// bounds them, and an optimization must not turn an answer into an
    /// error).
    pub fn without_work_limit<T>(&mut self, f: impl FnOnce(&mut Machine) -> T) -> T {
        let mut budget = std::mem::take(&mut self.budget);
        let result = budget.exempt(|b| {
            std::mem::swap(&mut self.budget, b);
            let r = f(self);
            std::mem::swap(&mut self.budget, b);
            r
        });
        self.budget = budget;
        result
    }

    /// Whether `bytes` more would fit under the memory limit; if not, the
    /// error says what holds the memory.
    pub fn reserve(&self, bytes: usize) -> R<()> {
        self.budget.memory(bytes).map_err(|s| self.explain(s))
    }

    /// Adds to a memory-limit error what holds the memory.
    fn explain(&self, s: Stop) -> Stop {
        match s {
            Stop::Error(d) if d.code == Code::MemoryLimit && self.memo.states() >= 1000 => {
                Stop::Error(d.note(format!(
                    "{} positions are stored (--max-states bounds them)",
                    self.memo.states()
                )))
            }
            other => other,
        }
    }

    /// Every option of one position, in rule order (used by `moves`/`winning`).
    pub fn options(&mut self, pos: PosId) -> R<Vec<Vec<PosId>>> {
        let game = self.game_of(pos);
        let g = &self.prog.games[game as usize];
        let mut env = Vec::new();
        crate::value::args_of(&self.memo, pos, &mut env);
        env.resize(
            g.slots.max(g.params.len() as u32) as usize + self.compiled.extra_slots(game),
            Value::Int(0),
        );
        self.compiled.hoist(game, &mut env);
        let mut o = Options {
            frame: Frame {
                pos,
                game,
                rule: 0,
                mode: Mode::Enter(0),
                env_base: 0,
                iter_base: 0,
                seen: Seen::default(),
                pending: None,
                kernel_epoch: u64::MAX,
                kernel_tries: 0,
            },
            env,
            iters: vec![None; g.max_clauses as usize],
        };
        let mut all = Vec::new();
        let mut out = Vec::new();
        loop {
            match self
                .next_option(&mut o.frame, &mut o.env, &mut o.iters, &mut out)
                .map_err(|d| self.in_position(d, pos))?
            {
                Next::Option => all.push(out.clone()),
                Next::Rule => {}
                Next::Done => return Ok(all),
            }
        }
    }

    // ----- expressions ------------------------------------------------------

    fn span(&self, e: ExprId) -> Span {
        self.prog.span(e)
    }

    fn type_bug(&self, e: ExprId, want: &str, got: &Value) -> Diag {
        Diag::user(
            Code::TypeMismatch,
            format!("expected {want}, found {}", got.type_name()),
        )
        .label(self.span(e), format!("this is {}", got.type_name()))
    }

    /// Evaluates to an integer.
    pub fn eval_int(&mut self, e: ExprId, env: &mut [Value]) -> R<i64> {
        if let Some(v) = self.compiled.int(e).and_then(|c| c.eval(env)) {
            return Ok(v);
        }
        match self.eval(e, env)? {
            Value::Int(v) => Ok(v),
            other => Err(self.type_bug(e, "an integer", &other).into()),
        }
    }

    /// Evaluates to a boolean.
    pub fn eval_bool(&mut self, e: ExprId, env: &mut [Value]) -> R<bool> {
        if let Some(v) = self.compiled.bool(e).and_then(|c| c.eval(env)) {
            return Ok(v);
        }
        match self.eval(e, env)? {
            Value::Bool(v) => Ok(v),
            other => Err(self.type_bug(e, "a boolean", &other).into()),
        }
    }

    fn eval_list(&mut self, e: ExprId, env: &mut [Value]) -> R<Rc<[Value]>> {
        match self.eval(e, env)? {
            Value::List(v) => Ok(v),
            Value::Range(lo, hi) => self.materialize(e, lo, hi),
            other => Err(self.type_bug(e, "a list", &other).into()),
        }
    }

    fn materialize(&self, e: ExprId, lo: i64, hi: i64) -> R<Rc<[Value]>> {
        let len = if lo > hi {
            0
        } else {
            (hi as i128 - lo as i128 + 1) as u128
        };
        if len > self.limits.max_list as u128 {
            return Err(self.too_long(e, len).into());
        }
        self.reserve((len as usize).saturating_mul(std::mem::size_of::<Value>()))?;
        Ok((lo..=hi).map(Value::Int).collect::<Vec<_>>().into())
    }

    fn too_long(&self, e: ExprId, len: u128) -> Diag {
        let max = self.limits.max_list;
        let what = if len > max as u128 + 1 {
            format!("{len} elements")
        } else {
            format!("more than {max} elements")
        };
        Diag::user(Code::ListLimit, format!("this list would hold {what}"))
            .label(self.span(e), "too long")
            .help(format!(
                "lists hold at most {max} elements; raise the limit with `--max-list N`"
            ))
    }

    fn make_iter(&mut self, e: ExprId, env: &mut [Value]) -> R<Iter> {
        match self.eval(e, env)? {
            Value::Range(lo, hi) => Ok(Iter::Range {
                next: lo,
                last: hi,
                done: lo > hi,
            }),
            Value::List(list) => Ok(Iter::List { list, idx: 0 }),
            other => Err(self.type_bug(e, "a range or a list", &other).into()),
        }
    }

    /// Evaluates a position-typed expression, appending its components.
    pub fn eval_pos_into(&mut self, e: ExprId, env: &mut [Value], out: &mut Vec<PosId>) -> R<()> {
        let prog = self.prog.clone();
        match prog.expr(e) {
            ir::Expr::EmptyPos => Ok(()),
            ir::Expr::PosSum(a, b) => {
                self.eval_pos_into(*a, env, out)?;
                self.eval_pos_into(*b, env, out)
            }
            ir::Expr::Apply { game, args } => {
                // Integer arguments in compiled form: interned as they are.
                let mut ints = [0i64; 8];
                if args.len() <= ints.len()
                    && args.iter().zip(ints.iter_mut()).all(|(&a, slot)| {
                        match self.compiled.int(a).and_then(|c| c.eval(env)) {
                            Some(v) => {
                                *slot = v;
                                true
                            }
                            None => false,
                        }
                    })
                {
                    let p = match self.memo.intern_ints(*game, &ints[..args.len()]) {
                        Ok(p) => p,
                        Err(_) => return Err(self.state_limit(self.span(e)).into()),
                    };
                    out.push(p);
                    return Ok(());
                }
                let mut vals = Vec::with_capacity(args.len());
                for &a in args {
                    vals.push(self.eval_data(a, env)?);
                }
                out.push(self.intern(*game, &vals, self.span(e))?);
                Ok(())
            }
            ir::Expr::If(c, t, f) => {
                let branch = if self.eval_bool(*c, env)? { *t } else { *f };
                self.eval_pos_into(branch, env, out)
            }
            ir::Expr::Comp {
                kind: CompKind::SumPos,
                body,
                clauses,
            } => {
                let body = *body;
                self.comp_loop(clauses, 0, env, &mut |m, env| {
                    m.eval_pos_into(body, env, out)?;
                    Ok(true)
                })
                .map(|_| ())
            }
            _ => match self.eval(e, env)? {
                Value::Pos(parts) => {
                    out.extend_from_slice(&parts);
                    Ok(())
                }
                other => Err(self.type_bug(e, "a position", &other).into()),
            },
        }
    }

    /// Runs `body` for every binding of `clauses` (from clause `i` on);
    /// `body` returns false to stop early. Returns false if stopped.
    pub fn comp_loop(
        &mut self,
        clauses: &[Clause],
        i: usize,
        env: &mut [Value],
        body: &mut dyn FnMut(&mut Machine, &mut [Value]) -> R<bool>,
    ) -> R<bool> {
        let Some(clause) = clauses.get(i) else {
            return body(self, env);
        };
        match *clause {
            Clause::If { cond } => {
                if self.eval_bool(cond, env)? {
                    self.comp_loop(clauses, i + 1, env, body)
                } else {
                    Ok(true)
                }
            }
            Clause::For { slot, iter } => {
                let mut it = self.make_iter(iter, env)?;
                while let Some(v) = it.next() {
                    self.poll()?;
                    env[slot as usize] = v;
                    if !self.comp_loop(clauses, i + 1, env, body)? {
                        return Ok(false);
                    }
                }
                Ok(true)
            }
        }
    }

    /// Evaluates an expression.
    pub fn eval(&mut self, e: ExprId, env: &mut [Value]) -> R<Value> {
        let prog = self.prog.clone();
        let span = self.span(e);
        Ok(match prog.expr(e) {
            ir::Expr::Int(v) => Value::Int(*v),
            ir::Expr::Bool(b) => Value::Bool(*b),
            ir::Expr::Local(s) => env
                .get(*s as usize)
                .cloned()
                .ok_or_else(|| Diag::bug("variable slot out of range").label(span, "here"))?,
            ir::Expr::Const(c) => match &self.consts[*c as usize] {
                Some(v) => v.clone(),
                None => {
                    let name = &prog.consts[*c as usize].name;
                    return Err(Diag::user(
                        Code::ConstantFailed,
                        format!("constant `{name}` has no value"),
                    )
                    .label(span, "used here")
                    .note(format!(
                        "the definition of `{name}` failed (reported above)"
                    ))
                    .into());
                }
            },
            ir::Expr::List(items) => {
                let mut v = Vec::with_capacity(items.len());
                for &i in items {
                    v.push(self.eval_data(i, env)?);
                }
                Value::List(v.into())
            }
            ir::Expr::Comp {
                kind,
                body,
                clauses,
            } => self.comp(e, *kind, *body, clauses, env)?,
            ir::Expr::Index(l, i) => {
                let list = self.eval_list(*l, env)?;
                let idx = self.eval_int(*i, env)?;
                match usize::try_from(idx).ok().and_then(|i| list.get(i)) {
                    Some(v) => v.clone(),
                    None => {
                        return Err(Diag::user(
                            Code::IndexOutOfRange,
                            format!(
                                "index {idx} is out of range for a list of length {}",
                                list.len()
                            ),
                        )
                        .label(self.span(*i), format!("index {idx}"))
                        .label(
                            self.span(*l),
                            format!("this list has {} elements", list.len()),
                        )
                        .into());
                    }
                }
            }
            ir::Expr::Neg(x) => {
                let v = self.eval_int(*x, env)?;
                Value::Int(
                    v.checked_neg()
                        .ok_or_else(|| overflow(span, format!("-({v})")))?,
                )
            }
            ir::Expr::Not(x) => Value::Bool(!self.eval_bool(*x, env)?),
            ir::Expr::Binary(op, a, b) => self.binary(*op, *a, *b, span, env)?,
            ir::Expr::Range { lo, hi, inclusive } => {
                let lo = self.eval_int(*lo, env)?;
                let hi = self.eval_int(*hi, env)?;
                if *inclusive {
                    Value::Range(lo, hi)
                } else {
                    match hi.checked_sub(1) {
                        Some(h) => Value::Range(lo, h),
                        None => Value::Range(1, 0),
                    }
                }
            }
            ir::Expr::If(c, t, f) => {
                let branch = if self.eval_bool(*c, env)? { *t } else { *f };
                self.eval(branch, env)?
            }
            ir::Expr::EmptyPos | ir::Expr::PosSum(..) | ir::Expr::Apply { .. } => {
                let mut out = Vec::new();
                self.eval_pos_into(e, env, &mut out)?;
                Value::Pos(out.into())
            }
            ir::Expr::Call { f, args } => self.call(*f, args, span, env)?,
            ir::Expr::GameRef(_) => {
                return Err(Diag::bug("a game name evaluated as a value")
                    .label(span, "here")
                    .into());
            }
        })
    }

    fn comp(
        &mut self,
        e: ExprId,
        kind: CompKind,
        body: ExprId,
        clauses: &[Clause],
        env: &mut [Value],
    ) -> R<Value> {
        match kind {
            CompKind::List => {
                let mut items = Vec::new();
                let max = self.limits.max_list;
                self.comp_loop(clauses, 0, env, &mut |m, env| {
                    // Before the list doubles: the memory limit.
                    if items.len() == items.capacity() {
                        m.reserve(items.capacity().max(4) * std::mem::size_of::<Value>())
                            .map_err(|s| match s {
                                Stop::Error(d) => {
                                    Stop::Error(d.label(m.span(e), "while building this list"))
                                }
                                other => other,
                            })?;
                    }
                    items.push(m.eval_data(body, env)?);
                    if items.len() > max {
                        return Err(m.too_long(e, items.len() as u128).into());
                    }
                    Ok(true)
                })?;
                Ok(Value::List(items.into()))
            }
            CompKind::SumPos => {
                let mut out = Vec::new();
                self.eval_pos_into(e, env, &mut out)?;
                Ok(Value::Pos(out.into()))
            }
            CompKind::SumInt => {
                let mut acc: i64 = 0;
                let span = self.span(e);
                self.comp_loop(clauses, 0, env, &mut |m, env| {
                    let v = m.eval_int(body, env)?;
                    acc = acc
                        .checked_add(v)
                        .ok_or_else(|| overflow(span, format!("{acc} + {v}")))?;
                    Ok(true)
                })?;
                Ok(Value::Int(acc))
            }
            CompKind::Min | CompKind::Max => {
                let mut best: Option<i64> = None;
                self.comp_loop(clauses, 0, env, &mut |m, env| {
                    let v = m.eval_int(body, env)?;
                    best = Some(match best {
                        None => v,
                        Some(b) if kind == CompKind::Min => b.min(v),
                        Some(b) => b.max(v),
                    });
                    Ok(true)
                })?;
                best.map(Value::Int).ok_or_else(|| {
                    Diag::user(
                        Code::EmptyMinMax,
                        format!(
                            "{} of an empty generator",
                            if kind == CompKind::Min { "min" } else { "max" }
                        ),
                    )
                    .label(self.span(e), "the generator produced no values")
                    .into()
                })
            }
            CompKind::Any | CompKind::All => {
                let want = kind == CompKind::Any;
                let mut found = !want;
                self.comp_loop(clauses, 0, env, &mut |m, env| {
                    if m.eval_bool(body, env)? == want {
                        found = want;
                        return Ok(false);
                    }
                    Ok(true)
                })?;
                Ok(Value::Bool(found))
            }
        }
    }

    fn binary(
        &mut self,
        op: BinOp,
        a: ExprId,
        b: ExprId,
        span: Span,
        env: &mut [Value],
    ) -> R<Value> {
        match op {
            BinOp::And => {
                return Ok(Value::Bool(
                    self.eval_bool(a, env)? && self.eval_bool(b, env)?,
                ));
            }
            BinOp::Or => {
                return Ok(Value::Bool(
                    self.eval_bool(a, env)? || self.eval_bool(b, env)?,
                ));
            }
            BinOp::Eq | BinOp::Ne => {
                let x = self.eval(a, env)?;
                let y = self.eval(b, env)?;
                let eq = match (&x, &y) {
                    (Value::Int(_), Value::Int(_))
                    | (Value::Bool(_), Value::Bool(_))
                    | (Value::List(_), Value::List(_)) => x == y,
                    _ => return Err(self.type_bug(b, x.type_name(), &y).into()),
                };
                return Ok(Value::Bool(eq == (op == BinOp::Eq)));
            }
            _ => {}
        }
        let x = self.eval_int(a, env)?;
        let y = self.eval_int(b, env)?;
        if let Some(c) = ops::compare(op, x, y) {
            return Ok(Value::Bool(c));
        }
        ops::int_op(op, x, y).map(Value::Int).map_err(|err| {
            self.op_error(err, span, b, format!("{x} {} {y}", op.symbol()), y)
                .into()
        })
    }

    /// The diagnostic for a failed integer operation at `span`: `what` as
    /// written with its values, `operand` the right operand (blamed for a
    /// bad divisor, exponent or shift) with value `y`.
    fn op_error(&self, err: OpError, span: Span, operand: ExprId, what: String, y: i64) -> Diag {
        match err {
            OpError::Overflow => overflow(span, what),
            OpError::DivisionByZero => {
                Diag::user(Code::DivisionByZero, format!("division by zero: {what}"))
                    .label(span, "divides by zero")
                    .label(self.span(operand), "this is 0")
            }
            OpError::BadExponent => {
                Diag::user(Code::BadExponent, format!("exponent {y} out of range"))
                    .label(self.span(operand), "must be between 0 and 2^32")
            }
            OpError::BadShift => {
                Diag::user(Code::BadShift, format!("shift amount {y} is out of range"))
                    .label(self.span(operand), "shift amounts are 0 to 63")
            }
            OpError::NegativePopcount => Diag::user(
                Code::NegativePopcount,
                format!("popcount of negative number {y}"),
            )
            .label(span, "needs a non-negative integer"),
        }
    }

    fn call(&mut self, f: Builtin, args: &[ExprId], span: Span, env: &mut [Value]) -> R<Value> {
        let arg = |i: usize| {
            args.get(i).copied().ok_or_else(|| {
                Diag::bug("builtin called with too few arguments").label(span, "here")
            })
        };
        match f {
            Builtin::Len => Ok(Value::Int(self.eval_list(arg(0)?, env)?.len() as i64)),
            Builtin::Sum => {
                let list = self.eval_ints(arg(0)?, env)?;
                let mut acc: i64 = 0;
                for &v in list.iter() {
                    acc = acc
                        .checked_add(v)
                        .ok_or_else(|| overflow(span, format!("{acc} + {v}")))?;
                }
                Ok(Value::Int(acc))
            }
            Builtin::Min | Builtin::Max => {
                let values: Vec<i64> = if args.len() == 1 {
                    self.eval_ints(args[0], env)?
                } else {
                    let mut v = Vec::new();
                    for &a in args {
                        v.push(self.eval_int(a, env)?);
                    }
                    v
                };
                let best = if f == Builtin::Min {
                    values.iter().min()
                } else {
                    values.iter().max()
                };
                best.map(|v| Value::Int(*v)).ok_or_else(|| {
                    Diag::user(Code::EmptyMinMax, format!("{} of an empty list", f.name()))
                        .label(span, "the list is empty")
                        .into()
                })
            }
            Builtin::Abs => {
                let v = self.eval_int(arg(0)?, env)?;
                v.checked_abs()
                    .map(Value::Int)
                    .ok_or_else(|| overflow(span, format!("abs({v})")).into())
            }
            Builtin::Sorted => {
                let mut v = self.eval_ints(arg(0)?, env)?;
                v.sort_unstable();
                Ok(Value::List(
                    v.into_iter().map(Value::Int).collect::<Vec<_>>().into(),
                ))
            }
            Builtin::Set => {
                let list = self.eval_list(arg(0)?, env)?;
                let i = self.eval_int(arg(1)?, env)?;
                let x = self.eval_data(arg(2)?, env)?;
                let mut v = list.to_vec();
                match usize::try_from(i).ok().and_then(|i| v.get_mut(i)) {
                    Some(slot) => *slot = x,
                    None => {
                        return Err(Diag::user(
                            Code::IndexOutOfRange,
                            format!(
                                "index {i} is out of range for a list of length {}",
                                list.len()
                            ),
                        )
                        .label(self.span(args[1]), format!("index {i}"))
                        .into());
                    }
                }
                Ok(Value::List(v.into()))
            }
            Builtin::Popcount => {
                let x = arg(0)?;
                let v = self.eval_int(x, env)?;
                ops::popcount(v)
                    .map(Value::Int)
                    .map_err(|err| self.op_error(err, span, x, v.to_string(), v).into())
            }
            Builtin::Mex => {
                let list = self.eval_ints(arg(0)?, env)?;
                let mut seen = Seen::default();
                for &v in list.iter() {
                    if let Ok(v) = u32::try_from(v)
                        && (v as usize) <= list.len()
                    {
                        seen.insert(v);
                    }
                }
                Ok(Value::Int(seen.mex() as i64))
            }
            Builtin::Grundy => {
                let mut parts = Vec::new();
                self.eval_pos_into(arg(0)?, env, &mut parts)?;
                Ok(Value::Int(i64::from(self.grundy_sum(&parts)?)))
            }
            Builtin::MisereGrundy => {
                let mut parts = Vec::new();
                self.eval_pos_into(arg(0)?, env, &mut parts)?;
                let v = self.with_misere(|ms, m| {
                    let s = ms.state(m, &parts)?;
                    ms.value(m, s)
                })?;
                Ok(Value::Int(i64::from(v)))
            }
            Builtin::Outcome
            | Builtin::Graph
            | Builtin::MisereOutcome
            | Builtin::MisereWinning
            | Builtin::Moves
            | Builtin::Winning
            | Builtin::Table
            | Builtin::PPositions
            | Builtin::Describe
            | Builtin::Period => Err(Diag::bug(format!(
                "report `{}` evaluated as a value",
                f.name()
            ))
            .label(span, "here")
            .into()),
        }
    }

    /// Evaluates the position argument of a query.
    pub fn eval_sum(&mut self, e: ExprId, env: &mut [Value]) -> R<Vec<PosId>> {
        let mut parts = Vec::new();
        self.eval_pos_into(e, env, &mut parts)?;
        Ok(parts)
    }

    /// Evaluates a range or list argument (tables) to its integers.
    pub fn eval_axis(&mut self, e: ExprId, env: &mut [Value]) -> R<Vec<i64>> {
        self.eval_ints(e, env)
    }

    /// Evaluates a list (or range) whose elements must all be integers.
    fn eval_ints(&mut self, e: ExprId, env: &mut [Value]) -> R<Vec<i64>> {
        let list = self.eval_list(e, env)?;
        list.iter()
            .map(|v| match v {
                Value::Int(x) => Ok(*x),
                other => Err(Diag::user(
                    Code::TypeMismatch,
                    format!(
                        "expected a list of integers, found {} in it",
                        other.type_name()
                    ),
                )
                .label(self.span(e), "this list")
                .into()),
            })
            .collect()
    }

    /// Evaluates a value that may be stored in a list or passed to a game.
    fn eval_data(&mut self, e: ExprId, env: &mut [Value]) -> R<Value> {
        let v = self.eval(e, env)?;
        match &v {
            Value::Int(_) | Value::Bool(_) => Ok(v),
            Value::List(_) if list_depth(&v) < MAX_LIST_DEPTH => Ok(v),
            Value::List(_) => Err(Diag::user(
                Code::ListLimit,
                format!("lists nested more than {MAX_LIST_DEPTH} deep"),
            )
            .label(self.span(e), "this list is too deep")
            .into()),
            other => Err(self
                .type_bug(e, "an integer, a boolean or a list", other)
                .into()),
        }
    }

    /// Evaluates a check condition, with the sides of a comparison on failure.
    pub fn check_case(&mut self, cond: ExprId, env: &mut [Value]) -> R<CheckCase> {
        if self.eval_bool(cond, env)? {
            return Ok(CheckCase::Held);
        }
        let prog = self.prog.clone();
        let sides = match prog.expr(cond) {
            ir::Expr::Binary(op, a, b) if !matches!(op, BinOp::And | BinOp::Or) => {
                Some((self.eval(*a, env)?, self.eval(*b, env)?))
            }
            _ => None,
        };
        Ok(CheckCase::Failed(sides))
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

fn overflow(span: Span, what: String) -> Diag {
    Diag::user(Code::Overflow, format!("integer overflow in {what}"))
        .label(span, "overflows 64 bits")
        .help(format!("integers range from {} to {}", i64::MIN, i64::MAX))
}

/// Renders a list of integers as `[a, b]`.
pub fn show_list(xs: &[i64]) -> String {
    let mut s = String::new();
    let _ = write_list(&mut s, xs);
    s
}
