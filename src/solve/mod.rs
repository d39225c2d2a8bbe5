//! The solvers: ways of finding what the rules imply — values, outcomes,
//! periods, misère play — written as clients of the engine. Each sees the
//! engine through [`crate::oracle::Oracle`] (or a plain-data trait of its
//! own, as the pruned search's `Tree`), never through the evaluator's
//! internals: `tests/architecture.rs` keeps it so.

/// Analysis of one-parameter games: shapes, periods and proofs.
pub mod analysis;

/// The genus of a game: its normal and misère values with Nim heaps of 2.
pub mod genus;

/// Games with cycles: generalized Sprague–Grundy values of finite graphs.
pub mod loopy;

/// Misère play: exact search on sums, and misère Nim.
pub mod misere;

/// The pruned nimber search (Beling and Rogalski): values proven without
/// every option's.
pub mod prune;

/// Misère quotients of heap games: plain monoids, below the engine.
pub mod quotient;

use crate::flow::R;
use crate::ir::{GameId, Program};
use crate::oracle::Oracle;
use crate::store::PosId;

/// A way of finding positions' Grundy values, plugged into the engine's
/// plans (`Session::add_solver`): asked, for the games it
/// [applies](Solver::applies) to, before the engine's own strategies, it
/// answers a position's value or declines, and the next strategy is asked.
///
/// A solver sees the engine through the [`Oracle`] only. What its author
/// must know:
/// - It is asked for the positions whose values a search needs and does
///   not have: those asked directly and the options the general search
///   reaches. The engine's runs over many positions at once (ascending
///   fills, kernels, the pruned search's boards) may value a game's
///   positions without asking it.
/// - The values it asks of other positions (`Oracle::grundy`) come from the
///   engine's own strategies: no added solver is asked while one is
///   answering, so solvers never nest. Positions on the search's stack
///   above it have no value yet: asking one is reported as a cycle.
/// - A game that declares `split` or `canonical` is asked about the names
///   its positions are stored by (its parts, in canonical form).
/// - Loopy games are never asked about (their values may be ∞).
/// - A [`PosId`] is good for one call only: each `--threads` worker has a
///   store of its own, and a new program may renumber positions. With
///   `--threads`, workers call one solver side by side.
/// - An answer is stored as the position's value and trusted: a solver
///   that answers wrongly makes every answer that uses it wrong.
pub trait Solver: Send + Sync {
    /// Its name, for messages.
    fn name(&self) -> &str;

    /// Whether it may answer positions of `game`: asked whenever the plans
    /// are made (a new program, a solver added, each worker).
    fn applies(&self, prog: &Program, game: GameId) -> bool;

    /// `pos`'s Grundy value, or `None` to leave it to the next strategy.
    fn value(&self, oracle: &mut dyn Oracle, pos: PosId) -> R<Option<u32>>;
}
