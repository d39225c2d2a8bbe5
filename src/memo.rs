//! The memo: interning of positions into ids, and the Grundy value of each.
//!
//! Positions of games with one or two small non-negative integer arguments
//! live in dense per-game arrays (4 bytes a position, addressed by
//! arithmetic); every other position is interned by its compact key in an
//! `IndexSet`. A [`PosId`] says which: the top bit marks a dense position and
//! carries its game and arguments, so ids never change when arrays grow.

use crate::ir::GameId;
use crate::value::{Value, decode_args, encode_arg};
use indexmap::IndexSet;

/// The id of an interned position.
pub type PosId = u64;

/// Not computed yet.
pub const UNKNOWN: u32 = u32::MAX;
/// Being computed (on the evaluator's stack).
pub const ON_STACK: u32 = u32::MAX - 1;
/// Largest Grundy value stored; larger would collide with the top bit that
/// marks the sentinels above in fast checks.
pub const MAX_VALUE: u32 = (1 << 31) - 1;
/// A value with this bit set is a sentinel (unknown or on the stack).
pub const SENTINEL_BIT: u32 = 1 << 31;

const DENSE: u64 = 1 << 63;
const GAME_SHIFT: u32 = 48;
const PAYLOAD: u64 = (1 << GAME_SHIFT) - 1;
/// Largest coordinate of a two-argument dense position.
const MAX_2D: i64 = (1 << 16) - 1;
/// One-argument dense positions have `n` below this (512 MiB of values at
/// most, even for a sparse game when `--max-states` is raised).
const MAX_1D: usize = 1 << 27;
/// A two-argument game's dense array holds at most this many cells (64 MiB):
/// a sparse game with large arguments is stored by key instead.
const MAX_2D_CELLS: usize = 1 << 24;
/// Games with ids from here on are stored by key only (the id layout has 15
/// bits for the game).
const MAX_DENSE_GAMES: GameId = 1 << 15;

/// Dense storage of one game's values.
#[derive(Clone, Debug, Default)]
pub enum Dense {
    /// The game is not stored densely (yet).
    #[default]
    Empty,
    /// `values[n]` for `G(n)`.
    One {
        /// Values, `UNKNOWN` where not computed.
        values: Vec<u32>,
    },
    /// `values[a * cols + b]` for `G(a, b)`.
    Two {
        /// Values, row by row.
        values: Vec<u32>,
        /// Allocated rows.
        rows: usize,
        /// Allocated columns (the row stride).
        cols: usize,
    },
}

/// The state limit was reached.
#[derive(Clone, Copy, Debug)]
pub struct Full;

/// Interned positions and their values.
#[derive(Default)]
pub struct Memo {
    keys: IndexSet<Box<[i64]>>,
    values: Vec<u32>,
    dense: Vec<Dense>,
    /// Arity of each game (dense storage needs 1 or 2).
    arity: Vec<usize>,
    max_states: usize,
    /// Dense positions that have been evaluated (or are being).
    dense_states: usize,
    /// Dense cells allocated, over all games.
    dense_cells: usize,
    /// The largest Grundy value stored so far.
    max_value: u32,
    /// Games whose dense arrays may not grow any more.
    frozen: Vec<bool>,
    key_buf: Vec<i64>,
}

impl Memo {
    /// A memo for games of these arities, holding at most `max_states` positions.
    pub fn new(arity: Vec<usize>, max_states: usize) -> Memo {
        Memo {
            dense: vec![Dense::Empty; arity.len()],
            frozen: vec![false; arity.len()],
            arity,
            max_states,
            ..Memo::default()
        }
    }

    /// Moves to a new set of games: `keep[n]` is the old id of new game `n`
    /// whose values carry over (its definition is unchanged), `arity[n]` its
    /// arity. The positions of every other old game are dropped. Returns
    /// whether ids changed: ids carry the game id (dense ones) or an index
    /// (keyed ones), so a [`PosId`] held outside the memo is stale when a
    /// game is dropped or moves.
    pub fn remap(&mut self, keep: &[Option<GameId>], arity: Vec<usize>) -> bool {
        let old = self.arity.len();
        let identity = (0..old).all(|g| keep.get(g) == Some(&Some(g as GameId)))
            && keep[old.min(keep.len())..].iter().all(Option::is_none);
        if identity {
            self.dense.resize(arity.len(), Dense::Empty);
            self.frozen.resize(arity.len(), false);
            self.arity = arity;
            return false;
        }
        let mut old_dense = std::mem::take(&mut self.dense);
        let old_frozen = std::mem::take(&mut self.frozen);
        let mut new_of = vec![None; old];
        self.dense = vec![Dense::Empty; arity.len()];
        self.frozen = vec![false; arity.len()];
        for (n, o) in keep.iter().enumerate() {
            if let Some(o) = o.filter(|o| (*o as usize) < old && n < arity.len()) {
                self.dense[n] = std::mem::take(&mut old_dense[o as usize]);
                self.frozen[n] = old_frozen[o as usize];
                new_of[o as usize] = Some(n as i64);
            }
        }
        for d in old_dense {
            if let Dense::One { values } | Dense::Two { values, .. } = d {
                self.dense_cells -= values.len();
                self.dense_states -= values.iter().filter(|v| **v != UNKNOWN).count();
            }
        }
        self.arity = arity;
        let keys = std::mem::take(&mut self.keys);
        let values = std::mem::take(&mut self.values);
        for (mut key, v) in keys.into_iter().zip(values) {
            if let Some(Some(n)) = key.first().and_then(|g| new_of.get(*g as usize)) {
                key[0] = *n;
                self.keys.insert(key);
                self.values.push(v);
            }
        }
        true
    }

    /// How many positions are stored.
    pub fn states(&self) -> usize {
        self.keys.len() + self.dense_states
    }

    /// How many more positions may be stored.
    pub fn room(&self) -> usize {
        self.max_states.saturating_sub(self.states())
    }

    fn room_for(&self, more: usize) -> Result<(), Full> {
        if self.states().saturating_add(more) > self.max_states {
            Err(Full)
        } else {
            Ok(())
        }
    }

    /// Interns `game(args)`; `None` in the error if an argument cannot be
    /// part of a position (ranges, positions).
    pub fn intern(&mut self, game: GameId, args: &[Value]) -> Result<Option<PosId>, Full> {
        let dense = match (self.arity.get(game as usize), args) {
            (Some(1), [Value::Int(n)]) => self.dense1(game, *n)?,
            (Some(2), [Value::Int(a), Value::Int(b)]) => self.dense2(game, *a, *b)?,
            _ => None,
        };
        if let Some(p) = dense {
            if self.states() >= self.max_states && self.value(p) == UNKNOWN {
                return Err(Full);
            }
            return Ok(Some(p));
        }
        let mut key = std::mem::take(&mut self.key_buf);
        key.clear();
        key.push(i64::from(game));
        for a in args {
            if encode_arg(a, &mut key).is_none() {
                self.key_buf = key;
                return Ok(None);
            }
        }
        let id = match self.keys.get_index_of(key.as_slice()) {
            Some(id) => id,
            None => {
                self.room_for(1)?;
                self.values.push(UNKNOWN);
                self.keys.insert_full(key.as_slice().into()).0
            }
        };
        self.key_buf = key;
        Ok(Some(id as PosId))
    }

    /// Dense arrays may hold at most this many cells in all: a sparse game
    /// with huge arguments must not allocate unbounded memory.
    fn cell_budget(&self) -> usize {
        self.max_states
            .min(MAX_1D)
            .saturating_mul(2)
            .saturating_add(1 << 16)
    }

    /// Whether this game's positions may be stored densely (more): games with
    /// ids that fit the id layout, whose storage has not been frozen.
    fn dense_allowed(&self, game: GameId) -> bool {
        game < MAX_DENSE_GAMES && !self.frozen.get(game as usize).copied().unwrap_or(true)
    }

    /// `G(n)` as a dense position, if `n` is in the dense range. When the
    /// array cannot grow (budget or allocation), the game's dense storage is
    /// frozen: positions it holds stay dense, every other one is keyed, so a
    /// position's id never depends on when it was first seen.
    pub fn dense1(&mut self, game: GameId, n: i64) -> Result<Option<PosId>, Full> {
        let Ok(n) = usize::try_from(n) else {
            return Ok(None);
        };
        if game >= MAX_DENSE_GAMES || n >= self.max_states.min(MAX_1D) {
            return Ok(None);
        }
        let id = DENSE | (u64::from(game) << GAME_SHIFT) | n as u64;
        let can_grow = self.dense_allowed(game);
        let budget = self.cell_budget();
        let total = self.dense_cells;
        let d = &mut self.dense[game as usize];
        if let Dense::Empty = d {
            if !can_grow {
                return Ok(None);
            }
            *d = Dense::One { values: Vec::new() };
        }
        let Dense::One { values } = d else {
            return Ok(None);
        };
        if n < values.len() {
            return Ok(Some(id));
        }
        if !can_grow {
            return Ok(None);
        }
        let want = (n + 1).max(values.len() * 2).max(64);
        let fits = |len: usize| total + len - values.len() <= budget;
        let len = if fits(want) { want } else { n + 1 };
        if !fits(len) || values.try_reserve_exact(len - values.len()).is_err() {
            self.frozen[game as usize] = true;
            return Ok(None);
        }
        self.dense_cells = total + len - values.len();
        values.resize(len, UNKNOWN);
        Ok(Some(id))
    }

    /// `G(a, b)` as a dense position, if both are in the dense range (frozen
    /// like [`Memo::dense1`] when the array cannot grow).
    pub fn dense2(&mut self, game: GameId, a: i64, b: i64) -> Result<Option<PosId>, Full> {
        if game >= MAX_DENSE_GAMES || !(0..=MAX_2D).contains(&a) || !(0..=MAX_2D).contains(&b) {
            return Ok(None);
        }
        let (a, b) = (a as usize, b as usize);
        let id = DENSE | (u64::from(game) << GAME_SHIFT) | ((a as u64) << 16) | b as u64;
        let can_grow = self.dense_allowed(game);
        let budget = self.cell_budget();
        let total = self.dense_cells;
        let d = &mut self.dense[game as usize];
        if let Dense::Empty = d {
            if !can_grow {
                return Ok(None);
            }
            *d = Dense::Two {
                values: Vec::new(),
                rows: 0,
                cols: 0,
            };
        }
        let Dense::Two { values, rows, cols } = d else {
            return Ok(None);
        };
        if a < *rows && b < *cols {
            return Ok(Some(id));
        }
        if !can_grow {
            return Ok(None);
        }
        // Grow geometrically and lay the rows out again.
        let new_rows = if a >= *rows {
            (a + 1).max(*rows * 2).max(16)
        } else {
            *rows
        };
        let new_cols = if b >= *cols {
            (b + 1).max(*cols * 2).max(16)
        } else {
            *cols
        };
        let cells = new_rows * new_cols;
        let mut grown = Vec::new();
        if cells > MAX_2D_CELLS
            || total + cells - values.len() > budget
            || grown.try_reserve_exact(cells).is_err()
        {
            self.frozen[game as usize] = true;
            return Ok(None);
        }
        grown.resize(cells, UNKNOWN);
        for r in 0..*rows {
            grown[r * new_cols..r * new_cols + *cols]
                .copy_from_slice(&values[r * *cols..(r + 1) * *cols]);
        }
        self.dense_cells = total + cells - values.len();
        *values = grown;
        *rows = new_rows;
        *cols = new_cols;
        Ok(Some(id))
    }

    fn slot(&self, p: PosId) -> Option<usize> {
        if p & DENSE == 0 {
            return Some(p as usize);
        }
        let game = ((p & !DENSE) >> GAME_SHIFT) as usize;
        let payload = p & PAYLOAD;
        match self.dense.get(game)? {
            Dense::One { .. } => Some(payload as usize),
            Dense::Two { cols, .. } => {
                Some((payload >> 16) as usize * cols + (payload & 0xFFFF) as usize)
            }
            Dense::Empty => None,
        }
    }

    fn cells(&self, p: PosId) -> Option<&Vec<u32>> {
        if p & DENSE == 0 {
            return Some(&self.values);
        }
        match self.dense.get(((p & !DENSE) >> GAME_SHIFT) as usize)? {
            Dense::One { values, .. } | Dense::Two { values, .. } => Some(values),
            Dense::Empty => None,
        }
    }

    /// The stored value (or `UNKNOWN` / `ON_STACK`).
    pub fn value(&self, p: PosId) -> u32 {
        match (self.slot(p), self.cells(p)) {
            (Some(i), Some(cells)) => cells.get(i).copied().unwrap_or(UNKNOWN),
            _ => UNKNOWN,
        }
    }

    /// Stores a value (or a sentinel).
    pub fn set(&mut self, p: PosId, v: u32) {
        let Some(i) = self.slot(p) else { return };
        let cells = if p & DENSE == 0 {
            &mut self.values
        } else {
            match self.dense.get_mut(((p & !DENSE) >> GAME_SHIFT) as usize) {
                Some(Dense::One { values, .. } | Dense::Two { values, .. }) => values,
                _ => return,
            }
        };
        if let Some(c) = cells.get_mut(i) {
            if v <= MAX_VALUE {
                self.max_value = self.max_value.max(v);
            }
            if *c == UNKNOWN && v != UNKNOWN && p & DENSE != 0 {
                self.dense_states += 1;
            } else if *c != UNKNOWN && v == UNKNOWN && p & DENSE != 0 {
                self.dense_states -= 1;
            }
            *c = v;
        }
    }

    /// Takes the value array of a one-argument dense game out (to be filled
    /// by a batch kernel) — give it back with [`Memo::restore_dense1`].
    pub fn take_dense1(&mut self, game: GameId) -> Option<Vec<u32>> {
        match self.dense.get_mut(game as usize)? {
            Dense::One { values } => Some(std::mem::take(values)),
            _ => None,
        }
    }

    /// Puts back an array taken by [`Memo::take_dense1`], in which `stored`
    /// values were set and whose largest value is at most `max_value`.
    pub fn restore_dense1(&mut self, game: GameId, array: Vec<u32>, stored: usize, max_value: u32) {
        if let Some(Dense::One { values }) = self.dense.get_mut(game as usize) {
            *values = array;
            self.dense_states += stored;
            self.max_value = self.max_value.max(max_value);
        }
    }

    /// The largest Grundy value stored so far.
    pub fn max_value(&self) -> u32 {
        self.max_value
    }

    /// The game of a position.
    pub fn game_of(&self, p: PosId) -> GameId {
        if p & DENSE != 0 {
            return ((p & !DENSE) >> GAME_SHIFT) as GameId;
        }
        self.keys
            .get_index(p as usize)
            .and_then(|k| k.first())
            .copied()
            .unwrap_or(0) as GameId
    }

    /// Appends the arguments of a position to `out`.
    pub fn args_of(&self, p: PosId, out: &mut Vec<Value>) {
        if p & DENSE != 0 {
            let payload = p & PAYLOAD;
            match self.dense.get(self.game_of(p) as usize) {
                Some(Dense::One { .. }) => out.push(Value::Int(payload as i64)),
                Some(Dense::Two { .. }) => {
                    out.push(Value::Int((payload >> 16) as i64));
                    out.push(Value::Int((payload & 0xFFFF) as i64));
                }
                _ => {}
            }
            return;
        }
        if let Some(k) = self.keys.get_index(p as usize) {
            decode_args(&k[1..], out);
        }
    }

    /// The dense values of a one-argument game (`values[n]`), if it has any.
    pub fn dense1_values(&self, game: GameId) -> Option<&[u32]> {
        match self.dense.get(game as usize)? {
            Dense::One { values, .. } => Some(values),
            _ => None,
        }
    }

    /// The dense values of a two-argument game as `(values, stride)`.
    pub fn dense2_values(&self, game: GameId) -> Option<(&[u32], usize)> {
        match self.dense.get(game as usize)? {
            Dense::Two { values, cols, .. } => Some((values, *cols)),
            _ => None,
        }
    }

    /// The integer arguments of a dense position, and how many there are.
    pub fn dense_args(&self, p: PosId) -> Option<([i64; 2], usize)> {
        if p & DENSE == 0 {
            return None;
        }
        let payload = p & PAYLOAD;
        match self.dense.get(self.game_of(p) as usize)? {
            Dense::One { .. } => Some(([payload as i64, 0], 1)),
            Dense::Two { .. } => Some(([(payload >> 16) as i64, (payload & 0xFFFF) as i64], 2)),
            Dense::Empty => None,
        }
    }
}
