//! The general search: a memoized depth-first search over an explicit stack
//! of frames, each a suspended enumeration of one position's options (its
//! rule, clause cursor and loop variables), so a frame waiting for a child
//! resumes where it was; and the listing of a position's options that
//! `moves`, misère play, graphs and loopy games share with it. The last
//! strategy of every plan (`eval::plan`): it always answers.

use super::rename::Names;
use super::*;

/// How a frame's clause cursor stands.
#[derive(Clone, Copy, Debug)]
enum Mode {
    /// About to evaluate clause `d` (or the body when `d` = clause count).
    Enter(usize),
    /// Advance the iterator of `for` clause `d`.
    Advance(usize),
    /// Backtrack from clause `d` to the nearest enclosing `for`.
    Back(usize),
    /// Every option was listed at once by the game's kernels, into the
    /// search's stack of listed options: this frame's are `from..to`, and
    /// option `at` comes next.
    Listed { from: usize, at: usize, to: usize },
}

/// What [`Machine::next_option`] found.
pub(super) enum Next {
    /// An option, written into `out`.
    Option,
    /// The next rule starts (and has a kernel to try).
    Rule,
    /// No more options.
    Done,
}

/// How deep the search may go before values below the deepest position are
/// filled in ascending order instead (see [`Machine::fill_towards`]).
pub(super) const FILL_DEPTH: usize = 256;
/// The most parts the frames of a search keep listed (16 bytes each,
/// with the end of their option).
const MAX_LISTED: usize = 1 << 22;
/// How many times a frame retries its kernel when a child is done.
const KERNEL_RETRIES: u8 = 8;

/// One position whose options are being enumerated.
pub(super) struct Frame {
    pub(super) pos: PosId,
    pub(super) game: GameId,
    pub(super) rule: usize,
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
    /// Whether its options may fold equal components by parity (all but
    /// an exact listing, `Moves::exact`).
    pub(super) fold: bool,
}

impl Frame {
    /// A frame for `pos` at its first option, its slots and iterators from
    /// `env_base` and `iter_base` on (not set up yet).
    fn new(pos: PosId, game: GameId, env_base: usize, iter_base: usize) -> Frame {
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
            fold: true,
        }
    }
}

/// A frame's slots (parameters, then room for every variable and the
/// hoisted parts) appended to `env`, its iterators to `iters`: what its
/// rules need when they run as written.
fn set_up(m: &Machine, f: &Frame, env: &mut Vec<Value>, iters: &mut Vec<Option<Iter>>) {
    let g = &m.prog.games[f.game.index()];
    crate::key::args_of(&m.store, f.pos, env);
    env.resize(
        f.env_base
            + g.slots.max(g.params.len() as u32) as usize
            + m.forms.compiled.extra_slots(f.game),
        Value::Int(0),
    );
    m.forms.compiled.hoist(f.game, &mut env[f.env_base..]);
    iters.resize(f.iter_base + g.max_clauses as usize, None);
}

/// What a frame's listing holds for its whole run: the program, its
/// compiled forms (the machine's, held once by the caller), and how the
/// options are named.
#[derive(Clone, Copy)]
pub(super) struct Held<'a> {
    pub(super) prog: &'a ir::Program,
    pub(super) compiled: &'a Compiled,
    pub(super) names: Names,
}

impl Machine {
    /// A frame for `pos` at its first option: its slots (parameters, then
    /// room for every variable and the hoisted parts) appended to `env`, its
    /// iterators to `iters`.
    pub(super) fn enter(
        &self,
        pos: PosId,
        env: &mut Vec<Value>,
        iters: &mut Vec<Option<Iter>>,
    ) -> Frame {
        let f = Frame::new(pos, self.game_of(pos), env.len(), iters.len());
        set_up(self, &f, env, iters);
        f
    }

    /// Advances a frame to its next option, written into `out`, named as
    /// `held` says.
    pub(super) fn next_option(
        &mut self,
        held: &Held,
        f: &mut Frame,
        env: &mut [Value],
        iters: &mut [Option<Iter>],
        out: &mut Vec<PosId>,
    ) -> R<Next> {
        let Held {
            prog,
            compiled,
            names,
        } = *held;
        let game = &prog.games[f.game.index()];
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
                        if f.fold && rule.folds {
                            Interp::new(self, names).pos_folded(prog, rule.body, env, out)?;
                        } else {
                            Interp::new(self, names).pos_into(prog, rule.body, env, out)?;
                        }
                        return Ok(Next::Option);
                    };
                    match *clause {
                        Clause::If { cond } => {
                            f.mode = if Interp::new(self, names).boolean(prog, cond, env)? {
                                Mode::Enter(d + 1)
                            } else {
                                Mode::Back(d)
                            };
                        }
                        Clause::For { iter, .. } => {
                            iters[d] = Some(Interp::new(self, names).iter(prog, iter, env)?);
                            f.mode = Mode::Advance(d);
                        }
                        Clause::Let { slot, value } => {
                            let v = Interp::new(self, names).value(prog, value, env)?;
                            match env.get_mut(slot.index()) {
                                Some(s) => crate::value::assign(s, v),
                                None => {
                                    return Err(Diag::bug("a `let` slot out of range").into());
                                }
                            }
                            f.mode = Mode::Enter(d + 1);
                        }
                        // False: the nearest loop before it ends here.
                        Clause::While { cond } => {
                            f.mode = if Interp::new(self, names).boolean(prog, cond, env)? {
                                Mode::Enter(d + 1)
                            } else {
                                match ir::enclosing_loop(&rule.clauses, d) {
                                    Some(k) => {
                                        iters[k] = None;
                                        Mode::Back(k)
                                    }
                                    None => Mode::Back(d),
                                }
                            };
                        }
                    }
                }
                Mode::Listed { .. } => {
                    return Err(Diag::bug("a frame listed by kernels listed again").into());
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
                                && let Some((next, last)) = iters[d].as_ref().and_then(Iter::at)
                            {
                                self.budget.report(Meter::Search, next, last);
                            }
                            self.poll_limits()?;
                        }
                        env[slot.index()] = v;
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
                    match ir::enclosing_loop(&rule.clauses, d) {
                        Some(k) => f.mode = Mode::Advance(k),
                        None => {
                            f.rule += 1;
                            f.mode = Mode::Enter(0);
                            // Back to the search, which tries the next rule's kernel.
                            let kernel = self
                                .forms
                                .kernels
                                .get(f.game.index())
                                .and_then(|k| k.rules.get(f.rule));
                            if matches!(kernel, Some(Some(k)) if k.reads) {
                                return Ok(Next::Rule);
                            }
                        }
                    }
                }
            }
        }
    }
}

/// A game whose every rule has a kernel lists a position's options at
/// once, each named once, those whose values are known straight into the
/// frame's mex set; the frame then walks the others (`Mode::Listed`).
/// False when the kernels cannot list them.
fn list_by_kernels(
    m: &mut Machine,
    f: &mut Frame,
    listed: &mut Moves,
    bufs: &mut OptionBufs,
) -> R<bool> {
    let from = listed.len();
    // A deep search whose frames wait on many options each: past a bound,
    // frames step their rules as written, holding no list.
    let (len, cap) = listed.parts_room();
    if len >= MAX_LISTED {
        return Ok(false);
    }
    // Before the stack of listed options doubles: the memory limit (a part
    // and the end of its option, at most).
    if len >= 1 << 16 && 2 * len >= cap {
        m.reserve(2 * cap * (std::mem::size_of::<PosId>() + std::mem::size_of::<usize>()))?;
    }
    let all = ListSpec {
        names: Names::STORED,
        ..ListSpec::default()
    };
    match m.kernel_options(
        f.pos,
        all,
        listed,
        bufs,
        &mut |_, _| true,
        Some(&mut f.seen),
    )? {
        Some(_) => {
            f.mode = Mode::Listed {
                from,
                at: from,
                to: listed.len(),
            };
            Ok(true)
        }
        // No kernels, or one gave up: the rules run as written.
        None => {
            listed.truncate(from);
            Ok(false)
        }
    }
}

/// The rule of `pos` that has `target` among its options (for a frame
/// its kernels listed, which do not say); `Ok(None)` if listing them
/// fails (the cycle is reported all the same), an error only for what
/// ends the statement (Ctrl-C, its time or memory).
fn rule_to(m: &mut Machine, pos: PosId, target: PosId) -> R<Option<usize>> {
    let prog = Rc::clone(&m.prog);
    let compiled = Rc::clone(&m.forms.compiled);
    let (mut env, mut iters, mut out) = (Vec::new(), Vec::new(), Vec::new());
    let mut frame = m.enter(pos, &mut env, &mut iters);
    // The stored names, as the search that met the cycle made them.
    let held = Held {
        prog: &prog,
        compiled: &compiled,
        names: Names::STORED,
    };
    loop {
        match m.next_option(&held, &mut frame, &mut env, &mut iters, &mut out) {
            Ok(Next::Option) if out.contains(&target) => return Ok(Some(frame.rule)),
            Ok(Next::Option | Next::Rule) => {}
            Ok(Next::Done) => return Ok(None),
            Err(s) if s.ends_statement() => return Err(s),
            Err(_) => return Ok(None),
        }
    }
}

/// Takes a frame's listed options whose values are known, in one loop,
/// and writes the next other one into `out` for the search; false when it
/// has no more (and its options leave the stack).
fn next_listed(store: &Store, f: &mut Frame, listed: &mut Moves, out: &mut Vec<PosId>) -> bool {
    let Mode::Listed { from, mut at, to } = f.mode else {
        return false;
    };
    while let Some(comps) = listed.get(at).filter(|_| at < to) {
        at += 1;
        let mut x = 0;
        if comps.iter().all(|&c| {
            let v = store.value(c);
            x ^= v;
            v <= MAX_VALUE
        }) {
            f.seen.insert(x);
        } else {
            out.clear();
            out.extend_from_slice(comps);
            f.mode = Mode::Listed { from, at, to };
            return true;
        }
    }
    listed.truncate(from);
    false
}

impl Scoped<'_> {
    /// The value of `root` by the general search (with the kernels, the
    /// fill and loopy options inside it).
    pub(super) fn by_search(&mut self, root: PosId) -> R<u32> {
        let mut frames: Vec<Frame> = Vec::new();
        let mut env: Vec<Value> = Vec::new();
        let mut iters: Vec<Option<Iter>> = Vec::new();
        let result = self.run(root, &mut frames, &mut env, &mut iters);
        if result.is_err() {
            for f in &frames {
                self.m.store.set(f.pos, UNKNOWN);
            }
        }
        result.map_err(|s| match s.limit() {
            Some(Limit::Memory) if frames.len() >= 1 << 16 => {
                s.map_diag(|d| limits::stack_note(d, frames.len()))
            }
            Some(Limit::States | Limit::Depth) => self.why_no_period(s, root),
            _ => s,
        })
    }

    /// Pushes a frame for `pos`: its options listed by its kernels when
    /// they can, else its slots set up for its rules as written.
    fn push_frame(
        &mut self,
        pos: PosId,
        frames: &mut Vec<Frame>,
        (env, iters): (&mut Vec<Value>, &mut Vec<Option<Iter>>),
        (listed, bufs): (&mut Moves, &mut OptionBufs),
    ) -> R<()> {
        if self.scope.depth_cap.is_some_and(|cap| frames.len() >= cap) {
            return Err(Stop::Aborted);
        }
        if frames.len() >= self.m.limits.max_depth {
            let rule = match frames.last() {
                Some(f) if matches!(f.mode, Mode::Listed { .. }) => rule_to(self.m, f.pos, pos)?,
                f => f.map(|f| f.rule),
            };
            return Err(limits::too_deep(self.m, frames, pos, rule));
        }
        // Before the search's stacks double: the memory limit.
        if frames.len() == frames.capacity() && frames.len() >= 1 << 16 {
            let bytes = frames.capacity() * std::mem::size_of::<Frame>()
                + env.capacity() * std::mem::size_of::<Value>()
                + iters.capacity() * std::mem::size_of::<Option<Iter>>();
            self.m.reserve(bytes)?;
        }
        self.m.store.set(pos, ON_STACK);
        frames.push(Frame::new(pos, self.m.game_of(pos), env.len(), iters.len()));
        let Some(f) = frames.last_mut() else {
            return Ok(());
        };
        // Positions in the dense arrays (decreasing games, filled bottom-up
        // when deep) step their rules; the others, boards, are listed: a
        // dense search may be deep, and would hold every frame's options.
        let dense = self.m.store.dense_args(pos).is_some();
        if dense || !list_by_kernels(self.m, f, listed, bufs)? {
            set_up(self.m, f, env, iters);
        }
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
        // The components of parked options, and the options of frames
        // listed by kernels, frame above frame (no allocation per option).
        let (mut parked, mut listed, mut lbufs) =
            (Vec::new(), Moves::default(), OptionBufs::default());
        // The program and its compiled forms, held once for the search.
        let prog = Rc::clone(&self.m.prog);
        let compiled = Rc::clone(&self.m.forms.compiled);
        // Options are named as stored: parts in canonical form.
        let held = Held {
            prog: &prog,
            compiled: &compiled,
            names: Names::STORED,
        };
        let mut next_fill = FILL_DEPTH;
        self.push_frame(root, frames, (env, iters), (&mut listed, &mut lbufs))?;
        if let Some(f) = frames.first_mut() {
            f.metered = self.m.interp_state.searching == 1;
        }
        let mut next_report = 0;
        while let Some(f) = frames.last_mut() {
            // The position asked about reports how far its loop got (at
            // most every 1024 units of work).
            if f.metered && self.m.budget.work() >= next_report {
                next_report = self.m.budget.work() + 1024;
                let progress = match f.mode {
                    Mode::Listed { from, at, to } => Some(((at - from) as i64, (to - from) as i64)),
                    _ => innermost_range(&iters[f.iter_base..]),
                };
                if let Some((at, last)) = progress {
                    self.m.budget.report(Meter::Search, at, last);
                }
            }
            let at_start = f.pending.is_none() && matches!(f.mode, Mode::Enter(0));
            // A kernel finishes a rule at once when its options' values are
            // known: try it when the rule starts, when a child is done (a few
            // times per frame, so a frame with many children stays linear),
            // and after every fill.
            let resumed = f.pending.is_some()
                && (f.kernel_epoch != self.m.accel.epoch() || f.kernel_tries < KERNEL_RETRIES);
            if (at_start || resumed)
                && !matches!(f.mode, Mode::Listed { .. })
                && f.rule < self.m.prog.games[f.game.index()].rules.len()
            {
                f.kernel_epoch = self.m.accel.epoch();
                f.kernel_tries = f.kernel_tries.saturating_add(1);
                let nparams = self.m.prog.games[f.game.index()].params.len();
                let params = &env[f.env_base..f.env_base + nparams];
                if self.m.kernel_rule(f.game, f.rule, params, &mut f.seen) {
                    f.rule += 1;
                    f.mode = Mode::Enter(0);
                    if let Some(n) = f.pending.take() {
                        parked.truncate(parked.len() - n as usize);
                    }
                    continue;
                }
            }
            let have = match (f.pending.take(), f.mode) {
                (Some(n), _) => {
                    out.clear();
                    out.extend(parked.drain(parked.len() - n as usize..));
                    true
                }
                (None, Mode::Listed { .. }) => next_listed(&self.m.store, f, &mut listed, &mut out),
                (None, _) => match self
                    .m
                    .next_option(
                        &held,
                        f,
                        &mut env[f.env_base..],
                        &mut iters[f.iter_base..],
                        &mut out,
                    )
                    .map_err(|d| self.m.in_position(d, f.pos))?
                {
                    Next::Option => true,
                    Next::Rule => continue,
                    Next::Done => false,
                },
            };
            if !have {
                self.finish(frames, env, iters)?;
                continue;
            }
            let mut x = 0u32;
            let mut missing = None;
            for &c in &out {
                match self.m.store.value(c) {
                    // A loopy game's position: solved over its own graph.
                    UNKNOWN if self.is_loopy(c) => x ^= self.option_value(f.pos, c)?,
                    UNKNOWN => {
                        missing = Some(c);
                        break;
                    }
                    ON_STACK if self.is_loopy(c) => x ^= self.option_value(f.pos, c)?,
                    ON_STACK => return Err(cycle(self.m, frames, c)),
                    v if v <= MAX_VALUE => x ^= v,
                    _ => x ^= self.option_value(f.pos, c)?,
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
                        self.m.reserve(bytes)?;
                    }
                    parked.extend_from_slice(&out);
                    f.pending = Some(n);
                    if self.m.forms.plans.asks_solvers() && self.solvers_answer(c)?.is_some() {
                        continue;
                    }
                    // Fill when the stack is deep; after a fill, not again
                    // before the stack is deeper by as much (or twice as
                    // deep, when it achieved nothing), so that searches
                    // that only go up stay linear.
                    if frames.len() >= next_fill
                        && self.scope.depth_cap.is_none()
                        && self.m.limits.fill
                    {
                        let epoch = self.m.accel.epoch();
                        self.fill_towards(c, frames)?;
                        next_fill = if self.m.accel.epoch() != epoch {
                            frames.len() + FILL_DEPTH
                        } else {
                            frames.len() * 2
                        };
                        if self.m.store.value(c) <= MAX_VALUE {
                            continue;
                        }
                    }
                    self.push_frame(c, frames, (env, iters), (&mut listed, &mut lbufs))?;
                }
                None => f.seen.insert(x),
            }
        }
        Ok(self.m.store.value(root))
    }

    /// The top frame has no more options: its position gets its value.
    fn finish(
        &mut self,
        frames: &mut Vec<Frame>,
        env: &mut Vec<Value>,
        iters: &mut Vec<Option<Iter>>,
    ) -> R<()> {
        let Some(f) = frames.last() else {
            return Ok(());
        };
        let mex = f.seen.mex();
        if mex > u64::from(MAX_VALUE) {
            return Err(Diag::user(Code::ValueLimit, "a Grundy value exceeds 2^31")
                .note(format!(
                    "while evaluating {}",
                    self.m.show().pos_briefly(f.pos)
                ))
                .into());
        }
        self.m.store.set(f.pos, mex as u32);
        env.truncate(f.env_base);
        iters.truncate(f.iter_base);
        frames.pop();
        Ok(())
    }
}

/// The cycle error for `target`, reached again from the top frame (or
/// what ended the statement while its rule was looked for).
fn cycle(m: &mut Machine, frames: &[Frame], target: PosId) -> Stop {
    let start = frames.iter().rposition(|f| f.pos == target).unwrap_or(0);
    let mut path: Vec<String> = frames[start..]
        .iter()
        .map(|f| m.show().pos(f.pos))
        .collect();
    path.push(m.show().pos(target));
    if path.len() > 12 {
        let tail = path.split_off(path.len() - 5);
        path.truncate(6);
        path.push(format!("... ({} more) ...", frames.len() - start - 10));
        path.extend(tail);
    }
    let Some(last) = frames.last() else {
        return Diag::bug("cycle reported with no frames").into();
    };
    let rule = match last.mode {
        Mode::Listed { .. } => match rule_to(m, last.pos, target) {
            Ok(rule) => rule,
            Err(s) => return s,
        },
        _ => Some(last.rule),
    };
    let g = &m.prog.games[last.game.index()];
    let rule_span = rule.and_then(|r| g.rules.get(r)).map_or(g.span, |r| r.span);
    // The positions of the cycle are as the games' declarations name
    // them: a `canonical` (or `split`) that names a position of another
    // class closes a cycle the rules alone do not have.
    let renamers: Vec<&str> = frames[start..]
        .iter()
        .map(|f| &m.prog.games[f.game.index()])
        .filter(|g| g.renames())
        .map(|g| g.name.as_str())
        .collect();
    let declared = match renamers.first() {
        Some(name) => format!(
            "the positions here are as `{name}` stores them (its `canonical` or `split`): \
             a declaration that names a position of another class makes a cycle the \
             rules alone do not have; check it on small positions with \
             `check grundy(P) == mex([x.grundy for x in moves(P)])` (language.md, \
             section 7)"
        ),
        None => String::new(),
    };
    let d = Stop::cycle(format!(
        "the game graph has a cycle: {} can be reached from itself",
        m.show().pos(target)
    ))
    .label(
        rule_span,
        format!(
            "this rule moves from {} back to {}",
            m.show().pos(last.pos),
            m.show().pos(target)
        ),
    )
    .note(format!("cycle: {}", path.join(" -> ")))
    .help(format!(
        "Grundy values need every play to end: make each move decrease something; \
         or, if play may go on forever, declare `loopy game {}(...)` (its values may \
         then be ∞, and positions draws)",
        g.name
    ));
    if declared.is_empty() {
        d
    } else {
        d.note(declared)
    }
}
