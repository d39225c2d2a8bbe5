//! The store: positions interned into dense ids ([`PosId`](crate::store::PosId)), and the Grundy
//! value of each.
//!
//! Three kinds of storage, chosen by the position alone so that a position
//! always gets the same id:
//! - positions of games with one or two small non-negative integer arguments
//!   live in dense per-game arrays (4 bytes a position, addressed by
//!   arithmetic);
//! - other positions of games whose parameters are all integers live in a
//!   per-game table: the arguments side by side in one flat array, found
//!   through an FxHash table of indices (no allocation per position);
//! - everything else (lists, booleans) is interned by its key in an
//!   `IndexSet`.
//!
//! A [`PosId`](crate::store::PosId) says which: the top bit marks a dense position, the next one a
//! table position; both carry the game, so ids never change when arrays grow.
//!
//! A key is `[game, arg, arg, ...]` with each argument tagged so that `G(1)`
//! and `G(true)` stay distinct: Int -> [0, v], Bool -> [1, b], List ->
//! [2, len, items...] ([`crate::value`] encodes and decodes values).

mod infinite;
mod saved;
mod table;
use crate::ids::GameId;
use indexmap::IndexSet;
use infinite::Infinites;
use rustc_hash::FxBuildHasher;
use table::{IntTable, near_full};

/// The id of an interned position: its tag bits say where it is stored
/// (dense, table, keyed, or raw: named by its argument, not stored yet).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct PosId(pub u64);

/// Not computed yet.
pub const UNKNOWN: u32 = u32::MAX;
/// Being computed (on the evaluator's stack).
pub const ON_STACK: u32 = u32::MAX - 1;
/// Largest Grundy value stored; larger would collide with the top bit that
/// marks the sentinels above in fast checks.
pub const MAX_VALUE: u32 = (1 << 31) - 1;
/// A value with this bit set is a sentinel (unknown or on the stack) or
/// an infinite value of a loopy game.
pub const SENTINEL_BIT: u32 = 1 << 31;
/// The most infinite values (sets K) a store tells apart.
pub const MAX_INFINITE: u32 = (1 << 30) - 1;
/// Where the marks of positions being solved start (see [`solving`]).
const SOLVING: u32 = SENTINEL_BIT | 1 << 30;
/// The most vertices one loopy solve may mark.
pub const MAX_SOLVING: u32 = ON_STACK - 1 - SOLVING;

/// ∞ whose set K is not worked out yet: a loopy solve stores its ∞ values
/// so, and the set is found from the options when it is asked for.
pub const INFINITE_LATER: u32 = SENTINEL_BIT | MAX_INFINITE;

/// The stored form of the `i`-th infinite value (`i <`
/// [`MAX_INFINITE`]): a sentinel to every fast path.
pub fn infinite(i: u32) -> u32 {
    SENTINEL_BIT | i
}

/// Which infinite value a stored value is, if it is one.
pub fn infinite_index(v: u32) -> Option<u32> {
    (SENTINEL_BIT..SOLVING)
        .contains(&v)
        .then(|| v - SENTINEL_BIT)
}

/// The mark of a position that is vertex `i` of the loopy solve running
/// (`i <=` [`MAX_SOLVING`]): a sentinel to every fast path, and on the
/// stack to everything else.
pub fn solving(i: u32) -> u32 {
    SOLVING | i
}

/// Which vertex of the loopy solve running a stored value marks, if any.
pub fn solving_index(v: u32) -> Option<u32> {
    (SOLVING..ON_STACK).contains(&v).then(|| v - SOLVING)
}

/// Key tag of an integer argument.
pub const TAG_INT: i64 = 0;
/// Key tag of a boolean argument.
pub const TAG_BOOL: i64 = 1;
/// Key tag of a list argument (followed by its length and its items).
pub const TAG_LIST: i64 = 2;
/// Key tag of a list of integers (followed by its length and the integers,
/// a word each): how every such list is written.
pub const TAG_INTS: i64 = 3;
/// Key tag of a string (followed by its length in bytes and the bytes,
/// eight to a word).
pub const TAG_STR: i64 = 4;
/// Key tag of an integer wider than 64 bits (followed by its sign, 0 or 1,
/// the number of words of its magnitude, and the words, least significant
/// first).
pub const TAG_WIDE: i64 = 10;

const DENSE: u64 = 1 << 63;
const TABLE: u64 = 1 << 62;
/// A *raw* id: a board (a one-argument game kept in a table) named by its
/// argument without being interned, for the options a search lists but
/// may never enter ([`Store::found_or_raw`]). Its value reads through the
/// table; storing a value interns it.
const RAW: u64 = DENSE | TABLE;

/// Whether `p` is a raw id.
#[inline]
fn is_raw(p: PosId) -> bool {
    p.0 & RAW == RAW
}
const GAME_SHIFT: u32 = 48;
const PAYLOAD: u64 = (1 << GAME_SHIFT) - 1;
/// Largest coordinate of a two-argument dense position.
const MAX_2D: i64 = (1 << HALF) - 1;
/// The bits of a two-argument dense id's second argument (the first is
/// above them).
const HALF: u32 = 24;
const HALF_MASK: u64 = (1 << HALF) - 1;
/// One-argument dense positions have `n` below this (512 MiB of values at
/// most, even for a sparse game when `--max-states` is raised).
const MAX_1D: usize = 1 << 27;
/// A two-argument game's dense array holds at most this many cells (64 MiB):
/// a sparse game with large arguments is stored by key instead.
const MAX_2D_CELLS: usize = 1 << 24;
/// Games with ids from here on are stored by key only (the id layout has 15
/// bits for the game).
const MAX_DENSE_GAMES: GameId = GameId(1 << 14);
/// Games with ids from here on have no table (14 bits for the game).
const MAX_TABLE_GAMES: GameId = GameId(1 << 14);
/// Integer games with more arguments than this are stored by key.
const MAX_TABLE_ARITY: usize = 16;

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

/// The integer arguments of a position.
pub enum IntArgs<'a> {
    /// Of a dense position: the arguments and how many there are.
    Inline([i64; 2], usize),
    /// Of a table position.
    Table(&'a [i64]),
}

impl IntArgs<'_> {
    /// The arguments.
    pub fn as_slice(&self) -> &[i64] {
        match self {
            IntArgs::Inline(a, n) => &a[..*n],
            IntArgs::Table(a) => a,
        }
    }
}

/// The state limit was reached.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Full;

/// What the store needs to know of a game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GameShape {
    /// How many parameters it has.
    pub arity: usize,
    /// Whether every parameter is an integer (the checker's inference).
    pub ints: bool,
    /// Whether its positions are boards (masks, few of them reached):
    /// keyed, never in a dense array sized by the largest.
    pub sparse: bool,
}

/// Interned positions and their values.
#[derive(Default)]
pub struct Store {
    keys: IndexSet<Box<[i64]>, FxBuildHasher>,
    values: Vec<u32>,
    dense: Vec<Dense>,
    /// Per game, its table when its parameters are all integers.
    tables: Vec<Option<IntTable>>,
    /// Arity of each game (dense storage needs 1 or 2).
    arity: Vec<usize>,
    max_states: usize,
    /// Positions that count toward the state limit besides keyed ones:
    /// dense positions evaluated (or being evaluated), table positions
    /// interned.
    counted: usize,
    /// Dense cells allocated, over all games.
    dense_cells: usize,
    /// The largest Grundy value stored so far.
    max_value: u32,
    /// Games whose dense arrays may not grow any more.
    frozen: Vec<bool>,
    key_buf: Vec<i64>,
    /// The sets K of the ∞ values stored (loopy games).
    infinites: Infinites,
    /// Values stored so far (any kind, counted once each time): whether
    /// anything changed since a checkpoint was saved.
    writes: u64,
}

/// The game and the argument a raw id names.
#[inline]
fn raw_parts(p: PosId) -> (GameId, i64) {
    (
        GameId(((p.0 & !RAW) >> GAME_SHIFT) as u32),
        (p.0 & PAYLOAD) as i64,
    )
}

/// The id of entry `i` of `game`'s table.
fn table_id(game: GameId, i: u32) -> PosId {
    PosId(TABLE | (u64::from(game.0) << GAME_SHIFT) | u64::from(i))
}

fn table_for(game: usize, shape: GameShape) -> Option<IntTable> {
    (shape.ints && (1..=MAX_TABLE_ARITY).contains(&shape.arity) && game < MAX_TABLE_GAMES.index())
        .then(|| IntTable::new(shape.arity))
}

impl Store {
    /// A store for games of these shapes, holding at most `max_states`
    /// positions.
    pub fn new(games: &[GameShape], max_states: usize) -> Store {
        Store {
            dense: vec![Dense::Empty; games.len()],
            frozen: games.iter().map(|s| s.sparse).collect(),
            tables: games
                .iter()
                .enumerate()
                .map(|(g, s)| table_for(g, *s))
                .collect(),
            arity: games.iter().map(|s| s.arity).collect(),
            max_states,
            ..Store::default()
        }
    }

    /// Moves to a new set of games: `keep[n]` is the old id of new game `n`
    /// whose values carry over (its definition is unchanged), `games[n]` its
    /// shape. The positions of every other old game are dropped. Returns
    /// whether ids changed: ids carry the game id (dense and table ones) or
    /// an index (keyed ones), so a [`PosId`] held outside the store is stale
    /// when a game is dropped or moves.
    pub fn remap(&mut self, keep: &[Option<GameId>], games: &[GameShape]) -> bool {
        let old = self.arity.len();
        let identity = (0..old).all(|g| keep.get(g) == Some(&Some(GameId(g as u32))))
            && keep[old.min(keep.len())..].iter().all(Option::is_none);
        let arity: Vec<usize> = games.iter().map(|s| s.arity).collect();
        if identity {
            self.dense.resize(arity.len(), Dense::Empty);
            self.frozen.resize(arity.len(), false);
            for (g, shape) in games.iter().enumerate().skip(old) {
                self.tables.push(table_for(g, *shape));
            }
            self.arity = arity;
            self.keep_sparse_keyed(games);
            return false;
        }
        let mut old_dense = std::mem::take(&mut self.dense);
        let old_frozen = std::mem::take(&mut self.frozen);
        let mut old_tables = std::mem::take(&mut self.tables);
        let mut new_of = vec![None; old];
        self.dense = vec![Dense::Empty; arity.len()];
        self.frozen = vec![false; arity.len()];
        self.tables = games
            .iter()
            .enumerate()
            .map(|(g, s)| table_for(g, *s))
            .collect();
        for (n, o) in keep.iter().enumerate() {
            // A game kept with a new storage kind (its parameters' types
            // became known) starts afresh: a position has one id.
            let same_kind = |o: &GameId| {
                old_tables[o.index()].is_some() == self.tables.get(n).is_some_and(Option::is_some)
            };
            if let Some(o) = o.filter(|o| ((*o).index()) < old && n < arity.len() && same_kind(o)) {
                self.dense[n] = std::mem::take(&mut old_dense[o.index()]);
                self.frozen[n] = old_frozen[o.index()];
                if self.tables[n].is_some() {
                    self.tables[n] = old_tables[o.index()].take();
                }
                new_of[o.index()] = Some(n as i64);
            }
        }
        for t in old_tables.into_iter().flatten() {
            self.counted -= t.values.len();
        }
        for d in old_dense {
            if let Dense::One { values } | Dense::Two { values, .. } = d {
                self.dense_cells -= values.len();
                self.counted -= values.iter().filter(|v| **v != UNKNOWN).count();
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
        self.keep_sparse_keyed(games);
        true
    }

    /// Boards are keyed from the start: their dense storage is frozen
    /// empty (a game's dense array would be sized by its largest mask).
    fn keep_sparse_keyed(&mut self, games: &[GameShape]) {
        for (frozen, shape) in self.frozen.iter_mut().zip(games) {
            *frozen |= shape.sparse;
        }
    }

    /// How many positions are stored.
    pub fn states(&self) -> usize {
        self.keys.len() + self.counted
    }

    /// Bytes the next doubling of the position tables would allocate, when
    /// one is near (the memory check stops before the allocation fails).
    pub fn growth_near(&self) -> usize {
        let keyed = if near_full(self.keys.len(), self.keys.capacity()) {
            // An entry (hash and boxed key) and its slot in the index.
            self.keys.len().saturating_mul(2 * (24 + 9))
        } else {
            0
        };
        let tables = self.tables.iter().flatten().map(IntTable::growth_near);
        tables.fold(keyed, usize::saturating_add)
    }

    /// How many more positions may be stored.
    pub fn room(&self) -> usize {
        self.max_states.saturating_sub(self.states())
    }

    /// Interns `game(args)` for integer arguments, and gives its value
    /// (a board's read from its table as it is found).
    #[inline]
    pub fn intern_valued(&mut self, game: GameId, args: &[i64]) -> Result<(PosId, u32), Full> {
        if let Some(found) = self.intern_board(game, args) {
            return found;
        }
        let p = self.intern_ints(game, args)?;
        Ok((p, self.value(p)))
    }

    /// A board of one argument interned straight in its table, and its
    /// value; `None` for any other position.
    #[inline(always)]
    fn intern_board(&mut self, game: GameId, args: &[i64]) -> Option<Result<(PosId, u32), Full>> {
        let (true, &[a]) = (self.tabled(game), args) else {
            return None;
        };
        let room = self.room_for(1).is_ok();
        let Some(Some(t)) = self.tables.get_mut(game.index()) else {
            return None;
        };
        if t.arity != 1 {
            return None;
        }
        let before = t.values.len();
        let Some(i) = t.intern1(a, room) else {
            return Some(Err(Full));
        };
        self.counted += t.values.len() - before;
        let v = t.values.get(i as usize).copied().unwrap_or(UNKNOWN);
        Some(Ok((table_id(game, i), v)))
    }

    /// Interns `game(args)` for integer arguments.
    pub fn intern_ints(&mut self, game: GameId, args: &[i64]) -> Result<PosId, Full> {
        if let Some(found) = self.intern_board(game, args) {
            return found.map(|(p, _)| p);
        }
        let arrayless = self.tabled(game);
        let dense = match (self.arity.get(game.index()), args) {
            _ if arrayless => None,
            (Some(1), [n]) => self.dense1(game, *n)?,
            (Some(2), [a, b]) => self.dense2(game, *a, *b)?,
            _ => None,
        };
        if let Some(p) = dense {
            if self.states() >= self.max_states && self.value(p) == UNKNOWN {
                return Err(Full);
            }
            return Ok(p);
        }
        let room = self.room_for(1).is_ok();
        if let Some(Some(t)) = self.tables.get_mut(game.index())
            && t.arity == args.len()
        {
            let before = t.values.len();
            let i = t.intern(args, room).ok_or(Full)?;
            if t.values.len() > before {
                self.counted += 1;
            }
            return Ok(table_id(game, i));
        }
        let mut key = std::mem::take(&mut self.key_buf);
        key.clear();
        key.push(i64::from(game.0));
        for &a in args {
            key.extend([TAG_INT, a]);
        }
        let id = self.intern_keyed(&key);
        self.key_buf = key;
        id
    }

    /// Whether a game keeps every position in its table (or keys): a board,
    /// frozen with no dense array.
    #[inline]
    fn tabled(&self, game: GameId) -> bool {
        self.frozen.get(game.index()).copied().unwrap_or(false)
            && matches!(self.dense.get(game.index()), Some(Dense::Empty))
    }

    /// `game(arg)`'s id when it is interned, else, for a board (a
    /// one-argument game kept only in its table), a raw id that names it
    /// without interning it; `None` otherwise (the caller interns it).
    #[inline]
    pub fn found_or_raw(&self, game: GameId, arg: i64) -> Option<PosId> {
        let t = self.tables.get(game.index())?.as_ref()?;
        // Only a game with no dense array: its positions are all in the
        // table, where a raw id's value is read.
        if t.arity != 1 || !self.tabled(game) {
            return None;
        }
        if let Some(i) = t.find(&[arg]) {
            return Some(table_id(game, i));
        }
        let arg = u64::try_from(arg).ok().filter(|&a| a <= PAYLOAD)?;
        (u64::from(game.0) < 1 << (62 - GAME_SHIFT))
            .then_some(PosId(RAW | u64::from(game.0) << GAME_SHIFT | arg))
    }

    /// The interned id of `p` (a raw id is interned; any other is itself).
    pub fn interned(&mut self, p: PosId) -> Result<PosId, Full> {
        if is_raw(p) {
            let (game, arg) = raw_parts(p);
            return self.intern_ints(game, &[arg]);
        }
        Ok(p)
    }

    /// Interns `game(args)` from the key encoding of its arguments (without
    /// the game); integer-only keys go to [`Store::intern_ints`].
    pub fn intern_key(&mut self, game: GameId, args: &[i64]) -> Result<PosId, Full> {
        if args.len().is_multiple_of(2) && args.chunks_exact(2).all(|c| c[0] == TAG_INT) {
            let mut ints = [0i64; 8];
            if args.len() / 2 <= ints.len() {
                for (slot, c) in ints.iter_mut().zip(args.chunks_exact(2)) {
                    *slot = c[1];
                }
                return self.intern_ints(game, &ints[..args.len() / 2]);
            }
            let ints: Vec<i64> = args.chunks_exact(2).map(|c| c[1]).collect();
            return self.intern_ints(game, &ints);
        }
        let mut key = std::mem::take(&mut self.key_buf);
        key.clear();
        key.push(i64::from(game.0));
        key.extend_from_slice(args);
        let id = self.intern_keyed(&key);
        self.key_buf = key;
        id
    }

    /// Interns a position from its whole key: the game, then the encoding
    /// of its arguments (integer-only keys go to [`Store::intern_ints`]).
    pub fn intern_whole_key(&mut self, key: &[i64]) -> Result<PosId, Full> {
        let Some((&game, args)) = key.split_first() else {
            return Err(Full);
        };
        let game = GameId(u32::try_from(game).map_err(|_| Full)?);
        if args.len().is_multiple_of(2) && args.chunks_exact(2).all(|c| c[0] == TAG_INT) {
            return self.intern_key(game, args);
        }
        self.intern_keyed(key)
    }

    fn intern_keyed(&mut self, key: &[i64]) -> Result<PosId, Full> {
        let id = match self.keys.get_index_of(key) {
            Some(id) => id,
            None => {
                self.room_for(1)?;
                self.values.push(UNKNOWN);
                self.keys.insert_full(key.into()).0
            }
        };
        Ok(PosId(id as u64))
    }

    fn room_for(&self, more: usize) -> Result<(), Full> {
        if self.states().saturating_add(more) > self.max_states {
            Err(Full)
        } else {
            Ok(())
        }
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
        game < MAX_DENSE_GAMES && !self.frozen.get(game.index()).copied().unwrap_or(true)
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
        let id = PosId(DENSE | (u64::from(game.0) << GAME_SHIFT) | n as u64);
        let can_grow = self.dense_allowed(game);
        let budget = self.cell_budget();
        let total = self.dense_cells;
        let d = &mut self.dense[game.index()];
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
            self.frozen[game.index()] = true;
            return Ok(None);
        }
        self.dense_cells = total + len - values.len();
        values.resize(len, UNKNOWN);
        Ok(Some(id))
    }

    /// `G(a, b)` as a dense position, if both are in the dense range (frozen
    /// like [`Store::dense1`] when the array cannot grow).
    pub fn dense2(&mut self, game: GameId, a: i64, b: i64) -> Result<Option<PosId>, Full> {
        if game >= MAX_DENSE_GAMES || !(0..=MAX_2D).contains(&a) || !(0..=MAX_2D).contains(&b) {
            return Ok(None);
        }
        let (a, b) = (a as usize, b as usize);
        let id = PosId(DENSE | (u64::from(game.0) << GAME_SHIFT) | ((a as u64) << HALF) | b as u64);
        let can_grow = self.dense_allowed(game);
        let budget = self.cell_budget();
        let total = self.dense_cells;
        let d = &mut self.dense[game.index()];
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
        // (Few rows to start with: a game like E(3, 10**6) is four long rows.)
        let new_rows = if a >= *rows {
            (a + 1).max(*rows * 2).max(4)
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
            self.frozen[game.index()] = true;
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

    /// The cell array holding `p` and its index there.
    #[inline]
    fn cell(&self, p: PosId) -> Option<(&Vec<u32>, usize)> {
        if p.0 & DENSE == 0 {
            if p.0 & TABLE == 0 {
                return Some((&self.values, p.0 as usize));
            }
            let t = self
                .tables
                .get(((p.0 & !TABLE) >> GAME_SHIFT) as usize)?
                .as_ref()?;
            return Some((&t.values, (p.0 & PAYLOAD) as usize));
        }
        if is_raw(p) {
            return self.raw_cell(p);
        }
        let payload = p.0 & PAYLOAD;
        match self.dense.get(((p.0 & !DENSE) >> GAME_SHIFT) as usize)? {
            Dense::One { values } => Some((values, payload as usize)),
            Dense::Two { values, cols, .. } => Some((
                values,
                (payload >> HALF) as usize * cols + (payload & HALF_MASK) as usize,
            )),
            Dense::Empty => None,
        }
    }

    /// [`Store::set`] of a raw id: interned when it gets a value (a full
    /// store keeps none).
    #[inline(never)]
    fn set_raw(&mut self, p: PosId, v: u32) {
        if let Ok(q) = self.interned(p)
            && !is_raw(q)
        {
            self.set(q, v);
        }
    }

    /// [`Store::cell`] of a raw id: its entry in the table, if it has one.
    #[inline(never)]
    fn raw_cell(&self, p: PosId) -> Option<(&Vec<u32>, usize)> {
        let (game, arg) = raw_parts(p);
        let t = self.tables.get(game.index())?.as_ref()?;
        Some((&t.values, t.find(&[arg])? as usize))
    }

    /// The stored value (or `UNKNOWN` / `ON_STACK`).
    #[inline]
    pub fn value(&self, p: PosId) -> u32 {
        match self.cell(p) {
            Some((cells, i)) => cells.get(i).copied().unwrap_or(UNKNOWN),
            None => UNKNOWN,
        }
    }

    /// Stores a value (or a sentinel).
    pub fn set(&mut self, p: PosId, v: u32) {
        let dense = p.0 & DENSE != 0;
        if dense && is_raw(p) {
            return self.set_raw(p, v);
        }
        let (cells, i) = if dense {
            let payload = p.0 & PAYLOAD;
            match self.dense.get_mut(((p.0 & !DENSE) >> GAME_SHIFT) as usize) {
                Some(Dense::One { values }) => (values, payload as usize),
                Some(Dense::Two { values, cols, .. }) => {
                    let i = (payload >> HALF) as usize * *cols + (payload & HALF_MASK) as usize;
                    (values, i)
                }
                _ => return,
            }
        } else if p.0 & TABLE != 0 {
            match self.tables.get_mut(((p.0 & !TABLE) >> GAME_SHIFT) as usize) {
                Some(Some(t)) => (&mut t.values, (p.0 & PAYLOAD) as usize),
                _ => return,
            }
        } else {
            (&mut self.values, p.0 as usize)
        };
        if let Some(c) = cells.get_mut(i) {
            self.writes += 1;
            if v <= MAX_VALUE {
                self.max_value = self.max_value.max(v);
            }
            if *c == UNKNOWN && v != UNKNOWN && dense {
                self.counted += 1;
            } else if *c != UNKNOWN && v == UNKNOWN && dense {
                self.counted -= 1;
            }
            *c = v;
        }
    }

    /// Takes the value array of a one-argument dense game out (to be filled
    /// by a batch kernel) — give it back with [`Store::restore_dense1`].
    pub fn take_dense1(&mut self, game: GameId) -> Option<Vec<u32>> {
        match self.dense.get_mut(game.index())? {
            Dense::One { values } => Some(std::mem::take(values)),
            _ => None,
        }
    }

    /// Puts back an array taken by [`Store::take_dense1`], in which `stored`
    /// values were set and whose largest value is at most `max_value`.
    pub fn restore_dense1(&mut self, game: GameId, array: Vec<u32>, stored: usize, max_value: u32) {
        if let Some(Dense::One { values }) = self.dense.get_mut(game.index()) {
            *values = array;
            self.counted += stored;
            self.writes += stored as u64;
            self.max_value = self.max_value.max(max_value);
        }
    }

    /// The largest Grundy value stored so far.
    pub fn max_value(&self) -> u32 {
        self.max_value
    }

    /// The game of a position.
    pub fn game_of(&self, p: PosId) -> GameId {
        if is_raw(p) {
            return raw_parts(p).0;
        }
        if p.0 & DENSE != 0 {
            return GameId(((p.0 & !DENSE) >> GAME_SHIFT) as u32);
        }
        if p.0 & TABLE != 0 {
            return GameId(((p.0 & !TABLE) >> GAME_SHIFT) as u32);
        }
        self.keys
            .get_index(p.0 as usize)
            .and_then(|k| k.first())
            .copied()
            .map_or(GameId(0), |g| GameId(g as u32))
    }

    /// Appends the key encoding of a position's arguments to `out`.
    pub fn key_of(&self, p: PosId, out: &mut Vec<i64>) {
        if let Some(args) = self.int_args(p) {
            for a in args.as_slice() {
                out.extend([TAG_INT, *a]);
            }
        } else if let Some(k) = self.keys.get_index(p.0 as usize) {
            out.extend_from_slice(&k[1..]);
        }
    }

    /// The arguments of a position whose arguments are all integers and
    /// that is stored densely or in a table.
    pub fn int_args(&self, p: PosId) -> Option<IntArgs<'_>> {
        if is_raw(p) {
            return Some(IntArgs::Inline([raw_parts(p).1, 0], 1));
        }
        if let Some((args, n)) = self.dense_args(p) {
            return Some(IntArgs::Inline(args, n));
        }
        if p.0 & TABLE != 0 {
            let t = self
                .tables
                .get(((p.0 & !TABLE) >> GAME_SHIFT) as usize)?
                .as_ref()?;
            return t.args_of((p.0 & PAYLOAD) as usize).map(IntArgs::Table);
        }
        None
    }

    /// The dense values of a one-argument game (`values[n]`), if it has any.
    pub fn dense1_values(&self, game: GameId) -> Option<&[u32]> {
        match self.dense.get(game.index())? {
            Dense::One { values, .. } => Some(values),
            _ => None,
        }
    }

    /// The dense values of a two-argument game as `(values, stride)`.
    pub fn dense2_values(&self, game: GameId) -> Option<(&[u32], usize)> {
        match self.dense.get(game.index())? {
            Dense::Two { values, cols, .. } => Some((values, *cols)),
            _ => None,
        }
    }

    /// The integer arguments of a dense position, and how many there are.
    pub fn dense_args(&self, p: PosId) -> Option<([i64; 2], usize)> {
        if p.0 & DENSE == 0 || is_raw(p) {
            return None;
        }
        let payload = p.0 & PAYLOAD;
        match self.dense.get(self.game_of(p).index())? {
            Dense::One { .. } => Some(([payload as i64, 0], 1)),
            Dense::Two { .. } => {
                Some(([(payload >> HALF) as i64, (payload & HALF_MASK) as i64], 2))
            }
            Dense::Empty => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const INTS3: GameShape = GameShape {
        arity: 3,
        ints: true,
        sparse: false,
    };
    const ANY1: GameShape = GameShape {
        arity: 1,
        ints: false,
        sparse: false,
    };

    /// A board game's positions are keyed: the first mask seen, however
    /// large, allocates no dense array.
    #[test]
    fn boards_are_keyed_not_dense() {
        let board = GameShape {
            arity: 1,
            ints: true,
            sparse: true,
        };
        let mut s = Store::new(&[board], 1 << 30);
        let p = s.intern_ints(GameId(0), &[(1 << 25) - 1]).expect("room");
        assert!(s.dense_args(p).is_none(), "keyed");
        assert_eq!(s.dense_cells, 0);
        assert_eq!(s.game_of(p), GameId(0));
    }

    /// A board not stored yet gets a raw id: nothing is interned until it
    /// gets a value, which then reads through the raw id and the interned
    /// one alike. Games with dense arrays never get one.
    #[test]
    fn raw_ids_name_boards_until_they_get_a_value() {
        let board = GameShape {
            arity: 1,
            ints: true,
            sparse: true,
        };
        let mut s = Store::new(&[board, INTS3], 100);
        let raw = s.found_or_raw(GameId(0), 1 << 40).expect("a board");
        assert!(is_raw(raw));
        assert_eq!(s.states(), 0);
        assert_eq!(s.value(raw), UNKNOWN);
        assert_eq!(s.game_of(raw), GameId(0));
        assert_eq!(s.int_args(raw).unwrap().as_slice(), &[1 << 40]);
        assert!(s.dense_args(raw).is_none());
        s.set(raw, 3);
        assert_eq!(s.states(), 1);
        assert_eq!(s.value(raw), 3);
        let p = s.intern_ints(GameId(0), &[1 << 40]).unwrap();
        assert!(!is_raw(p));
        assert_eq!(s.value(p), 3);
        assert_eq!(s.found_or_raw(GameId(0), 1 << 40), Some(p));
        assert_eq!(s.interned(raw).unwrap(), p);
        // Not for a game of three arguments, nor an argument past the id.
        assert_eq!(s.found_or_raw(GameId(1), 5), None);
        assert_eq!(s.found_or_raw(GameId(0), -1), None);
        assert_eq!(s.found_or_raw(GameId(0), 1 << 50), None);
    }

    #[test]
    fn a_position_has_one_id_whichever_way_it_is_interned() {
        let mut s = Store::new(&[INTS3, ANY1], 100);
        let a = s.intern_ints(GameId(0), &[6, 4, 1 << 40]).unwrap();
        let b = s
            .intern_key(GameId(0), &[TAG_INT, 6, TAG_INT, 4, TAG_INT, 1 << 40])
            .unwrap();
        assert_eq!(a, b);
        assert_eq!(s.game_of(a), GameId(0));
        assert_eq!(s.int_args(a).unwrap().as_slice(), &[6, 4, 1 << 40]);
        // Small integer arguments of a one-argument game are dense; a
        // boolean argument is keyed.
        let d = s.intern_ints(GameId(1), &[5]).unwrap();
        let k = s.intern_key(GameId(1), &[TAG_BOOL, 1]).unwrap();
        assert_ne!(d, k);
        assert_eq!((s.game_of(d), s.game_of(k)), (GameId(1), GameId(1)));
        let mut key = Vec::new();
        s.key_of(k, &mut key);
        assert_eq!(key, [TAG_BOOL, 1]);
        // Table and keyed positions count when interned, dense ones when
        // evaluated.
        assert_eq!(s.states(), 2);
        s.set(d, 3);
        s.set(a, 7);
        assert_eq!((s.value(a), s.value(d), s.value(k)), (7, 3, UNKNOWN));
        assert_eq!(s.states(), 3);
    }

    #[test]
    fn the_state_limit_counts_table_positions() {
        let mut s = Store::new(&[INTS3], 3);
        for m in 0..3 {
            s.intern_ints(GameId(0), &[1, 1, m]).unwrap();
        }
        assert!(s.intern_ints(GameId(0), &[1, 1, 1]).is_ok());
        assert!(s.intern_ints(GameId(0), &[1, 1, 9]).is_err());
    }

    #[test]
    fn remapping_moves_tables_with_their_games() {
        let mut s = Store::new(&[ANY1, INTS3], 100);
        let p = s.intern_ints(GameId(1), &[2, 2, 15]).unwrap();
        s.set(p, 4);
        // Game 1 becomes game 0; old game 0 is dropped.
        assert!(s.remap(&[Some(GameId(1))], &[INTS3]));
        assert_eq!(s.states(), 1);
        let q = s.intern_ints(GameId(0), &[2, 2, 15]).unwrap();
        assert_eq!(s.value(q), 4);
        assert_eq!(s.states(), 1);
        // A game whose storage kind changes starts afresh.
        assert!(s.remap(
            &[None, Some(GameId(0))],
            &[
                ANY1,
                GameShape {
                    arity: 3,
                    ints: false,
                    sparse: false,
                }
            ]
        ));
        assert_eq!(s.states(), 0);
    }
}
