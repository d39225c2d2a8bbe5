//! What the solvers and analyses above the engine see of it: the options
//! of a position (flat, without an allocation per option), its normal-play
//! value, how it reads, and the limits. Misère play, the state graph and
//! the period analysis are written against [`Oracle`](crate::oracle::Oracle), so they depend on
//! this interface and the evaluator depends on them, never the reverse.

use crate::budget::Apart;
/// The loops a solver reports to [`Oracle::meter`].
pub use crate::budget::Meter;
use crate::flow::R;
use crate::ir;
pub use crate::ir::GameId;
use crate::span::Span;
use crate::store::PosId;
use crate::value::Value;

/// The options of one position, flat: option `i` is the sum of the
/// components `parts[ends[i - 1]..ends[i]]`.
#[derive(Clone, Debug, Default)]
pub struct Moves {
    parts: Vec<PosId>,
    ends: Vec<usize>,
    /// Whether every copy of a sum of many equal components is listed: a
    /// rule's `sum(G for i in 0..k)` is otherwise folded to `k % 2` copies
    /// (G + G = 0 in normal play, not in misère play).
    exact: bool,
}

impl Moves {
    /// Options listed with every component (for misère play).
    pub fn exact() -> Moves {
        Moves {
            exact: true,
            ..Moves::default()
        }
    }

    /// Whether every component is listed (see [`Moves::exact`]).
    pub fn is_exact(&self) -> bool {
        self.exact
    }

    /// No options.
    pub fn clear(&mut self) {
        self.parts.clear();
        self.ends.clear();
    }

    /// Adds an option: the sum of `parts`.
    pub fn push(&mut self, parts: &[PosId]) {
        self.parts.extend_from_slice(parts);
        self.ends.push(self.parts.len());
    }

    /// Adds an option of one component.
    pub fn push_one(&mut self, part: PosId) {
        self.parts.push(part);
        self.ends.push(self.parts.len());
    }

    /// Keeps the first `len` options.
    pub fn truncate(&mut self, len: usize) {
        self.ends.truncate(len);
        self.parts.truncate(self.ends.last().copied().unwrap_or(0));
    }

    /// How many components the options hold in all, and room for how many.
    pub fn parts_room(&self) -> (usize, usize) {
        (self.parts.len(), self.parts.capacity())
    }

    /// How many options.
    pub fn len(&self) -> usize {
        self.ends.len()
    }

    /// Whether there is no option.
    pub fn is_empty(&self) -> bool {
        self.ends.is_empty()
    }

    /// Option `i`, as its components.
    pub fn get(&self, i: usize) -> Option<&[PosId]> {
        let end = *self.ends.get(i)?;
        let start = if i == 0 { 0 } else { self.ends[i - 1] };
        self.parts.get(start..end)
    }

    /// The options in order.
    pub fn iter(&self) -> impl Iterator<Item = &[PosId]> {
        (0..self.len()).filter_map(|i| self.get(i))
    }
}

/// A proven period that answers a position: G(n + period) = G(n) + saltus
/// from `preperiod` on, over the argument `heap` (the others fixed at the
/// position's), which is `n` in the position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PeriodAt {
    pub heap: usize,
    pub n: i64,
    pub preperiod: i64,
    pub period: i64,
    pub saltus: i64,
}

/// The engine, as the solvers and analyses ask it for things.
pub trait Oracle {
    /// The checked program.
    fn program(&self) -> &ir::Program;
    /// The constants' values, by id (`None` where a definition failed).
    fn constants(&self) -> &[Option<Value>];
    /// The position `game(args)` (`span`: where it is asked for, for errors).
    fn intern(&mut self, game: GameId, args: &[Value], span: Span) -> R<PosId>;
    /// A position's game and arguments.
    fn position(&self, pos: PosId) -> (GameId, Vec<Value>);
    /// A position as source text.
    fn show_pos(&self, pos: PosId) -> String;
    /// The options of `pos`, in rule order, into `out` (cleared first).
    fn options_into(&mut self, pos: PosId, out: &mut Moves) -> R<()>;
    /// Whether a position has any option (without listing them all).
    fn has_options(&mut self, pos: PosId) -> R<bool> {
        let mut moves = Moves::default();
        self.options_into(pos, &mut moves)?;
        Ok(!moves.is_empty())
    }
    /// Whether `pos` has at most `cap` options, listing no more than
    /// that many.
    fn options_at_most(&mut self, pos: PosId, cap: usize) -> R<bool> {
        let mut moves = Moves::default();
        self.options_into(pos, &mut moves)?;
        Ok(moves.len() <= cap)
    }
    /// The normal-play Grundy value of `pos`.
    fn grundy(&mut self, pos: PosId) -> R<u32>;
    /// The generalized value of `pos` (∞ for some positions of loopy
    /// games); by default its Grundy value.
    fn gsg(&mut self, pos: PosId) -> R<crate::value::Gsg> {
        self.grundy(pos).map(crate::value::Gsg::Finite)
    }
    /// Computes the values of a one-parameter game below `to` in one
    /// ascending run where a faster evaluator can (sparse space, batch
    /// kernels): a hint before asking for them in order.
    fn ascend(&mut self, game: GameId, to: i64) -> R<()>;
    /// The size of the Nim heap a position is, when its game is Nim by its
    /// rule (every move to every smaller heap), whatever its size.
    fn nim_heap(&self, _pos: PosId) -> Option<u32> {
        None
    }
    /// For a one-parameter game each of whose moves, from some heap on,
    /// leaves at most one heap, taking a fixed number of tokens (its rule's
    /// shape): that heap and the most tokens a move takes. A heap's options
    /// then depend only on the last that many heaps below it.
    fn heap_window(&mut self, _game: GameId) -> Option<(i64, i64)> {
        None
    }
    /// Whether a one-parameter game's rules have a take-and-break shape:
    /// its parameter is a heap's size, not a board's mask.
    fn heap_shaped(&mut self, _game: GameId) -> bool {
        false
    }
    /// The digits of an octal (or hexadecimal) game whose moves a
    /// one-parameter game's rules are exactly, for every heap.
    fn octal_digits(&mut self, _game: GameId) -> Option<Vec<u8>> {
        None
    }
    /// The proven period that answers a position: of its game, or of its
    /// section with all but its largest argument fixed (`G(_, 6)` for
    /// `G(10**18, 6)`), once a search found one.
    fn period_at(&self, pos: PosId) -> Option<PeriodAt>;
    /// Records a proven period: G(n + period) = G(n) + saltus from
    /// `preperiod` on.
    fn set_period(&mut self, game: GameId, preperiod: i64, period: i64, saltus: i64);
    /// Positions stored so far.
    fn state_count(&self) -> usize;
    /// Positions that may still be stored (the state limit).
    fn room(&self) -> usize;
    /// The most positions (and misère sums) a search may hold.
    fn max_states(&self) -> usize;
    /// One unit of work; Ctrl-C and the limits.
    fn poll(&mut self) -> R<()>;
    /// `n` units of work done at once (a solver's steps, as marking's);
    /// Ctrl-C and the limits when due.
    fn spend(&mut self, n: u64) -> R<()>;
    /// A long loop of a solver stands at `at` of `..=last` (for the
    /// runaway projection); `None` when it is over.
    fn meter(&mut self, meter: Meter, at: Option<(i64, i64)>);
    /// The work done so far (moves and option values looked at).
    fn work(&self) -> u64;
    /// Starts work with a work limit of its own, at least `allowance`.
    fn apart(&mut self, allowance: u64) -> Apart;
    /// Back to the statement's work limit.
    fn restore(&mut self, saved: Apart);
}
