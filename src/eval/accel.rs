//! Accelerators inside the search: kernels for single positions, and the
//! ascending fill (batch kernels, then capped nested searches) when the
//! search gets deep.

use super::*;
use crate::solve::analysis::shape::Shape;
use crate::sparse::{HeapMoves, Sparse};

/// The least number of positions one fill may compute.
const FILL_MIN: usize = 1 << 20;

/// How many positions a batch kernel computes between looks at the
/// cancellation flag.
const BATCH_CHUNK: usize = 1 << 16;

/// How deep a nested search may go while filling.
const FILL_NESTED_DEPTH: usize = 64;

/// The fill's state (the ascending runs over a game's positions): per game,
/// how far it got, and what it keeps between runs. Owned by this module
/// (for a new program, [`Accel::renumber`] keeps what it knew of the games
/// that did not change).
#[derive(Default)]
pub(super) struct Accel {
    /// Bumped whenever a fill computed values: frames then retry kernels.
    fill_epoch: u64,
    /// Games whose fill met a failure other than the stack (an error, the
    /// depth cap of a nested search, no room for dense storage): not filled
    /// again.
    fill_disabled: Vec<bool>,
    /// Per game and row, how many leading positions are known (one-argument
    /// games use one row): where each row's fill goes on.
    row_done: Vec<Vec<i64>>,
    /// The mex set and integer slots of [`Machine::kernel_value`], reused.
    stamped: Stamped,
    /// A window kernel's counts, kept between the chunks of a fill.
    counts: crate::kernel::Counts,
    kenv: Vec<i64>,
    /// Per game, its sparse-space evaluator (dropped with the program).
    sparse: Vec<SparseSlot>,
    /// The last ascending run of this statement: its game and how far it
    /// got (for a limit's report of what was done).
    reached: Option<(GameId, i64)>,
}

impl Accel {
    /// For a new program whose game `n` was `games[n]`: what the fill knew
    /// of an unchanged game is kept.
    pub(super) fn renumber(&mut self, games: &[Option<GameId>], prog: &ir::Program) {
        let n = prog.games.len();
        self.fill_disabled = super::carry(games, &self.fill_disabled, n);
        // A loopy game's values come from its graph, never in order; a game
        // that renames its positions stores them by other names.
        for (d, g) in self.fill_disabled.iter_mut().zip(&prog.games) {
            *d |= g.loopy || g.renames();
        }
        self.row_done = super::carry(games, &self.row_done, n);
        // Looked for again: a game's shape reads the constants.
        self.sparse = (0..n).map(|_| SparseSlot::Unknown).collect();
        self.counts.reset();
    }

    /// Bumped whenever a fill computed values: a frame whose kernels could
    /// not finish it tries them again when this has moved.
    pub(super) fn epoch(&self) -> u64 {
        self.fill_epoch
    }

    /// The last ascending run of this statement: its game and how far it
    /// got.
    pub(super) fn reached(&self) -> Option<(GameId, i64)> {
        self.reached
    }

    /// A new statement: no run yet.
    pub(super) fn start_statement(&mut self) {
        self.reached = None;
    }
}

/// A game's sparse-space evaluator, if it has one.
#[derive(Default)]
pub(super) enum SparseSlot {
    /// Not looked for yet.
    #[default]
    Unknown,
    /// The game's moves have no two-heap take-and-break shape.
    None,
    Some(Box<Sparse>),
}

/// Option values a sparse-space run looks at between looks at Ctrl-C and
/// the limits (a few milliseconds).
const SPARSE_CHUNK: u64 = 1 << 22;

/// The sparse-space form of a shape's moves: families leaving at most two
/// heaps, at least one of them a split (else kernels do as well).
fn sparse_moves(shape: &Shape) -> Option<HeapMoves> {
    let mut moves = HeapMoves::default();
    for f in &shape.families {
        let take = usize::try_from(f.take).ok()?;
        match f.heaps {
            0 => moves.whole = true,
            1 => moves.takes.push(take),
            2 => moves.splits.push((take, f.unequal)),
            _ => return None,
        }
    }
    (!moves.splits.is_empty()).then_some(moves)
}

impl Machine {
    /// Runs the kernel of one rule into `seen`; false if there is none or it
    /// gave up.
    pub(super) fn kernel_rule(
        &mut self,
        game: GameId,
        rule: usize,
        params: &[Value],
        seen: &mut Seen,
    ) -> bool {
        let kernels = self.forms.kernels.clone();
        let Some(Some(Some(k))) = kernels.get(game.index()).map(|g| g.rules.get(rule)) else {
            return false;
        };
        if !k.reads {
            return false;
        }
        let mut env = std::mem::take(&mut self.accel.kenv);
        env.clear();
        env.resize(kernels[game.index()].slots, 0);
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
        let mut counted = crate::mex::Counted {
            set: &mut scratch,
            count: 0,
        };
        // A one-argument game with a batch kernel: its loop for this rule
        // and this one position, where its options' values are in the
        // dense array (the divisors of `n`, not every number below it).
        let batch = match (params, kernels[game.index()].batch.as_ref()) {
            ([Value::Int(x)], Some(b)) => self
                .store
                .dense1_values(game)
                .and_then(|values| b.rule_at(rule, values, *x, &mut counted)),
            _ => None,
        };
        let ok = batch.is_some()
            || (ints && {
                *counted.set = Seen::default();
                k.run(&self.store, &mut env, &mut counted).is_some()
            });
        self.budget.add(counted.count);
        self.accel.kenv = env;
        if ok {
            seen.union(&scratch);
        }
        ok
    }
}

/// Nim heaps up to this size have their value stored; larger ones are
/// answered each time they are asked.
const NIM_STORED: u32 = 1 << 20;

impl Scoped<'_> {
    /// The value of a position by its kernels alone (the kernel strategy),
    /// stored; `None` when a kernel gives up.
    pub(super) fn by_kernel(&mut self, pos: PosId) -> R<Option<u32>> {
        let Some(v) = self.kernel_value(pos) else {
            return Ok(None);
        };
        self.m.store.set(pos, v);
        // The kernel's work was counted: a table of positions each
        // answered by its kernel looks at the limits too.
        self.m.poll()?;
        Ok(Some(v))
    }

    /// The value of a one-parameter position after an ascending run to it
    /// (the ascent strategy), for games whose values need every smaller
    /// heap: take-and-break games in sparse space from its threshold on,
    /// rather than a deep search and its fills, and games whose options
    /// are a window of their earlier positions, which a search would visit
    /// one by one, each reading the whole window. `None` when no run
    /// applies, or it stopped short.
    /// The heap a position of a game that is Nim by its rule is (see
    /// `kernel::Batch::is_nim`): its argument, or 0 below 0.
    pub(super) fn nim_heap(&self, pos: PosId) -> Option<u32> {
        let game = self.m.game_of(pos);
        let nim = self.m.limits.kernels
            && self
                .m
                .forms
                .kernels
                .get(game.index())
                .and_then(|k| k.batch.as_ref())
                .is_some_and(|b| b.is_nim());
        if !nim {
            return None;
        }
        match self.m.position(pos).1.as_slice() {
            [Value::Int(n)] => u32::try_from((*n).max(0)).ok(),
            _ => None,
        }
    }

    pub(super) fn by_ascent(&mut self, pos: PosId) -> R<Option<u32>> {
        // Nim by its rule: the heap's size, at once.
        if let Some(h) = self.nim_heap(pos) {
            if h > MAX_VALUE {
                return Ok(None);
            }
            // A large value is not stored: the mex sets and the kernels'
            // marks are sized by the largest value stored.
            if h <= NIM_STORED {
                self.m.store.set(pos, h);
            }
            return Ok(Some(h));
        }
        let game = self.m.game_of(pos);
        let Some(([n, _], 1)) = self.m.store.dense_args(pos) else {
            return Ok(None);
        };
        let applies = self.scope.depth_cap.is_none()
            && n >= FILL_DEPTH as i64
            && (self.is_window(game)
                || self.sparse_from(game).is_some_and(|from| n >= from as i64));
        if !applies {
            return Ok(None);
        }
        self.ascend(game, n + 1)?;
        let v = self.m.store.value(pos);
        Ok((v <= MAX_VALUE).then_some(v))
    }

    /// The value of a position computed by kernels alone, if its game has
    /// kernels for every rule and they all succeed.
    pub(super) fn kernel_value(&mut self, pos: PosId) -> Option<u32> {
        // Only dense positions: their arguments are integers by construction.
        let (args, n) = self.m.store.dense_args(pos)?;
        self.kernel_value_at(self.m.game_of(pos), &args[..n])
    }

    /// [`Machine::kernel_value`] of `game(args)`, from its arguments.
    fn kernel_value_at(&mut self, game: GameId, args: &[i64]) -> Option<u32> {
        let ks = self.m.forms.kernels.get(game.index())?;
        if !ks.complete {
            return None;
        }
        // A one-argument game with a batch kernel: its loop for this one
        // position, where its options' values are in the dense array.
        if let ([x], Some(batch), Some(values)) =
            (args, ks.batch.as_ref(), self.m.store.dense1_values(game))
        {
            let max_value = self.m.store.max_value();
            let v = batch.value_at(values, *x, &mut self.m.accel.stamped, max_value);
            self.m.budget.add(self.m.accel.stamped.take_inserted());
            if let Some(v) = v.filter(|v| *v <= MAX_VALUE) {
                return Some(v);
            }
        }
        let n = args.len();
        let mut env = std::mem::take(&mut self.m.accel.kenv);
        env.clear();
        env.resize(ks.slots.max(n), 0);
        env[..n].copy_from_slice(args);
        self.m.accel.stamped.clear(self.m.store.max_value());
        let ok = ks.rules.iter().flatten().all(|k| {
            k.run(&self.m.store, &mut env, &mut self.m.accel.stamped)
                .is_some()
        });
        self.m.accel.kenv = env;
        // Checked at the next poll.
        self.m.budget.add(self.m.accel.stamped.take_inserted());
        if !ok {
            return None;
        }
        Some(self.m.accel.stamped.mex()).filter(|v| *v <= MAX_VALUE)
    }

    /// From which n on a one-parameter game's values can be computed in
    /// sparse space (its shape derived once per program).
    pub(super) fn sparse_from(&mut self, game: GameId) -> Option<usize> {
        // An accelerator like the kernels: off with them.
        if !self.m.limits.kernels {
            return None;
        }
        let slot = self.m.accel.sparse.get(game.index())?;
        if let SparseSlot::Unknown = slot {
            let found =
                crate::solve::analysis::shape::moves(&mut self.m.scoped(self.scope.fresh()), game)
                    .ok()
                    .and_then(|shape| {
                        let moves = sparse_moves(&shape)?;
                        Some(Box::new(Sparse::new(
                            moves,
                            usize::try_from(shape.from).ok()?,
                        )))
                    });
            self.m.accel.sparse[game.index()] = found.map_or(SparseSlot::None, SparseSlot::Some);
        }
        match &self.m.accel.sparse[game.index()] {
            SparseSlot::Some(s) => Some(s.from().max(1)),
            _ => None,
        }
    }

    /// Whether a one-argument game's values come from a window kernel.
    pub(super) fn is_window(&self, game: GameId) -> bool {
        self.m.limits.kernels
            && self
                .m
                .forms
                .kernels
                .get(game.index())
                .and_then(|k| k.batch.as_ref())
                .is_some_and(|b| b.is_window())
    }

    /// Computes a one-argument game's values from `*done` towards `to` in
    /// one loop over its array: by its batch kernel below its sparse-space
    /// threshold (or everywhere, without one), then in sparse space. At most
    /// `*budget` values, keeping `reserve` states free; `Ok(true)` when it
    /// computed any.
    fn fill_run(
        &mut self,
        game: GameId,
        done: &mut i64,
        to: i64,
        budget: &mut usize,
        reserve: usize,
    ) -> R<bool> {
        if to <= *done {
            return Ok(false);
        }
        let sparse_from = self.sparse_from(game).map(|f| f as i64);
        let batch = self
            .m
            .forms
            .kernels
            .get(game.index())
            .and_then(|k| k.batch.clone());
        let batch_to = sparse_from.map_or(to, |f| f.min(to));
        let use_sparse = sparse_from.is_some_and(|f| *done >= f);
        if !use_sparse && (batch.is_none() || batch_to <= *done) {
            return Ok(false);
        }
        let Ok(Some(_)) = self.m.store.dense1(game, to - 1) else {
            return Ok(false);
        };
        let Some(mut array) = self.m.store.take_dense1(game) else {
            return Ok(false);
        };
        let from = *done as usize;
        let room = self.m.store.room().saturating_sub(reserve).min(*budget);
        let end = |to: i64| (to as usize).min(from.saturating_add(room));
        let mut max_value = self.m.store.max_value();
        let (mut next, mut stored) = (from, 0);
        let mut interrupted = None;
        if use_sparse {
            let SparseSlot::Some(mut sparse) =
                std::mem::take(&mut self.m.accel.sparse[game.index()])
            else {
                unreachable!("sparse_from found the evaluator")
            };
            let to = end(to);
            while next < to {
                let ran = sparse.run(&mut array, next, to, SPARSE_CHUNK);
                stored += ran.stored;
                max_value = max_value.max(ran.max);
                let stuck = ran.next == next;
                next = ran.next;
                if let Some(p) = self.m.budget.progress() {
                    p.set_at(next as i64);
                    p.set_states(self.m.store.states() + stored);
                }
                self.m
                    .budget
                    .report(Meter::Ascend, next as i64, to as i64 - 1);
                if let Err(s) = self.m.budget.spend(ran.work.max(1)) {
                    interrupted = Some(s);
                    break;
                }
                if stuck {
                    break;
                }
            }
            self.m.accel.sparse[game.index()] = SparseSlot::Some(sparse);
        } else if let Some(batch) = batch {
            let to = end(batch_to);
            // In chunks, to notice Ctrl-C between them.
            while next < to {
                let chunk_end = to.min(next.saturating_add(BATCH_CHUNK));
                let (at, more) = batch.run(
                    &mut array,
                    next,
                    chunk_end,
                    &mut self.m.accel.stamped,
                    &mut self.m.accel.counts,
                    &mut max_value,
                );
                let stuck = at == next;
                (next, stored) = (at, stored + more);
                if let Some(p) = self.m.budget.progress() {
                    p.set_at(next as i64);
                    p.set_states(self.m.store.states() + stored);
                }
                self.m
                    .budget
                    .report(Meter::Ascend, next as i64, to as i64 - 1);
                if let Err(s) = self
                    .m
                    .budget
                    .spend(self.m.accel.stamped.take_inserted().max(1))
                {
                    interrupted = Some(s);
                    break;
                }
                // Short of the chunk's end with progress: its work was used up.
                if stuck {
                    break;
                }
            }
        }
        self.m.budget.end_meter(Meter::Ascend);
        self.m.store.restore_dense1(game, array, stored, max_value);
        *done = next as i64;
        self.m.accel.reached = Some((game, *done));
        *budget -= stored.min(*budget);
        if stored > 0 {
            self.m.accel.fill_epoch += 1;
        }
        interrupted.map_or(Ok(stored > 0), Err)
    }

    /// Computes the values of a one-parameter game below `to` in ascending
    /// order, where a loop over its array can (its batch kernel, sparse
    /// space); the positions below the sparse-space threshold by searches
    /// in `scope`. What it leaves is computed when asked for.
    pub(super) fn ascend(&mut self, game: GameId, to: i64) -> R<()> {
        if !self.m.limits.fill
            || self.m.accel.fill_disabled.get(game.index()) != Some(&false)
            || self.m.prog.games[game.index()].params.len() != 1
        {
            return Ok(());
        }
        let mut done = self.m.accel.row_done[game.index()]
            .first()
            .copied()
            .unwrap_or(0);
        if let Some(from) = self.sparse_from(game) {
            let span = self.m.prog.games[game.index()].header;
            while done < (from as i64).min(to) {
                let p = self.m.intern(game, &[Value::Int(done)], span)?;
                match self.search(p) {
                    Ok(_) => done += 1,
                    Err(s) if s.ends_statement() || s.limit() == Some(Limit::Work) => {
                        return Err(s);
                    }
                    // The search in its own order reports what is wrong
                    // (a cycle found from another position, say).
                    Err(_) => return Ok(()),
                }
            }
        }
        let reserve = self.m.limits.max_states / 10;
        let mut budget = usize::MAX;
        let result = self.fill_run(game, &mut done, to, &mut budget, reserve);
        let row = &mut self.m.accel.row_done[game.index()];
        if row.is_empty() {
            row.push(0);
        }
        row[0] = row[0].max(done);
        result.map(|_| ())
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
    pub(super) fn fill_towards(&mut self, target: PosId, frames: &[Frame]) -> R<()> {
        let game = self.m.game_of(target);
        if self.m.accel.fill_disabled[game.index()] {
            return Ok(());
        }
        let Some((args, n)) = self.m.store.dense_args(target) else {
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
            match self.m.store.dense_args(f.pos) {
                Some(([m, _], 1)) if !two => cols = cols.max(m + 1),
                Some(([a, b], 2)) if two => {
                    rows = rows.max(a + 1);
                    cols = cols.max(b + 1);
                }
                _ => {}
            }
        }
        let reserve = self.m.limits.max_states / 10;
        let mut budget = self.m.store.states().max(FILL_MIN);
        let complete = self
            .m
            .forms
            .kernels
            .get(game.index())
            .is_some_and(|k| k.complete);
        let mut done = std::mem::take(&mut self.m.accel.row_done[game.index()]);
        if done.len() < rows as usize {
            done.resize(rows as usize, 0);
        }
        let mut progressed = false;
        let mut disable = false;
        let mut interrupted = None;
        // Games of the simplest shapes fill their leading run in one loop.
        if !two {
            match self.fill_run(game, &mut done[0], cols, &mut budget, reserve) {
                Ok(p) => progressed |= p,
                Err(s) => interrupted = Some(s),
            }
        }
        // Nested searches stay shallow.
        let nested = Scope {
            depth_cap: Some(FILL_NESTED_DEPTH),
            ..self.scope
        };
        // A one-argument game with a sparse-space evaluator needs this loop
        // only below its threshold.
        let row_end = match self.sparse_from(game) {
            Some(f) if !two => (f as i64).min(cols),
            _ => cols,
        };
        'rows: for a in 0..rows {
            if interrupted.is_some() {
                break;
            }
            let row = &mut done[a as usize];
            for b in *row..row_end {
                if budget == 0 || self.m.store.room() <= reserve {
                    break 'rows;
                }
                if let Err(d) = self.m.poll() {
                    interrupted = Some(d);
                    break 'rows;
                }
                let cell = if two {
                    self.m.store.dense2(game, a, b)
                } else {
                    self.m.store.dense1(game, b)
                };
                let Ok(Some(p)) = cell else {
                    disable = true;
                    break 'rows;
                };
                match self.m.store.value(p) {
                    v if v <= MAX_VALUE => {
                        *row = b + 1;
                        continue;
                    }
                    UNKNOWN => {}
                    _ => break,
                }
                // Straight from the kernels when they can; else a search.
                let here: &[i64] = if two { &[a, b] } else { &[b] };
                if let Some(v) = self.kernel_value_at(game, here) {
                    self.m.store.set(p, v);
                } else if complete {
                    break;
                } else {
                    match self.m.scoped(nested).search(p) {
                        Ok(_) => {}
                        Err(Stop::Cycle(_)) => break,
                        // Ctrl-C and the statement's limits end the fill
                        // and the statement.
                        // (The fill spends the statement's work: its work
                        // limit too.)
                        Err(s) if s.ends_statement() || s.limit() == Some(Limit::Work) => {
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
        // Below a sparse-space threshold the rows loop computed what the
        // sparse evaluator needs: on from there.
        if !two && interrupted.is_none() && !disable {
            match self.fill_run(game, &mut done[0], cols, &mut budget, reserve) {
                Ok(p) => progressed |= p,
                Err(s) => interrupted = Some(s),
            }
        }
        self.m.accel.row_done[game.index()] = done;
        if disable {
            self.m.accel.fill_disabled[game.index()] = true;
        }
        if progressed {
            self.m.accel.fill_epoch += 1;
        }
        interrupted.map_or(Ok(()), Err)
    }
}
