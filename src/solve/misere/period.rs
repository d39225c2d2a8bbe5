//! Periods of genera. When a one-parameter game's every move, from some
//! heap on, takes a fixed number of tokens and leaves at most one heap (its
//! rule's shape, as the normal-play period proofs read it), a heap's genus
//! and tameness there depend only on the last w heaps below it (w the most
//! tokens a move takes). So once the last w heaps' genera repeat, past that
//! heap, they repeat forever: the period is proven, as the subtraction
//! window proves normal values' periods, and heaps of any size are
//! answered from it.

use super::{ASCEND_FROM, Known, MAX_ARG, Misere, State};
use crate::diagnostics::Diag;
use crate::flow::R;
use crate::oracle::{Meter, Moves, Oracle};
use crate::store::PosId;
use crate::value::Value;
use rustc_hash::{FxHashMap, FxHashSet, FxHasher};
use std::hash::{Hash, Hasher};

/// A game's ascending run: the heaps below `next` are known.
#[derive(Default)]
pub(super) struct Ascent {
    next: i64,
    /// From this heap on, options take at most `w` tokens and leave one
    /// heap at most: `(from, w)`.
    window: Option<(i64, i64)>,
    /// Whether its parameter is a heap's size (a take-and-break shape), as
    /// normal play's ascending runs ask: a board's mask is not, and the
    /// masks below it are mostly never reached.
    heaps: bool,
    /// What is known of heaps 0, 1, ... (kept while a window is looked for).
    seq: Vec<Known>,
    /// A hash of the w heaps ending at a heap, and that heap.
    ends: FxHashMap<u64, i64>,
}

/// A proven period of a game's genera.
pub(super) struct GenusPeriod {
    /// Heaps from here on have moves (the window's shape holds).
    from: i64,
    /// The period holds from this heap on.
    start: i64,
    /// What is known of heaps `start .. start + period`.
    ids: Vec<Known>,
}

impl Misere {
    /// The heaps below each large one-parameter component of a game with a
    /// heap's shape, settled in ascending order (so no search goes deep),
    /// watching for a period of their genera; past `MAX_ARG`, only while a
    /// period may prove them.
    pub(super) fn ascend(&mut self, m: &mut dyn Oracle, s: &State) -> R<()> {
        for &c in s.iter() {
            let (game, args) = m.position(c);
            let [Value::Int(n)] = args[..] else { continue };
            if n < ASCEND_FROM
                || m.nim_heap(c).is_some()
                || self.periods.contains_key(&game)
                || self.get(&[c]).is_some()
            {
                continue;
            }
            let mut a = match self.ascents.remove(&game) {
                Some(a) => a,
                None => {
                    let window = m.heap_window(game);
                    Ascent {
                        window,
                        heaps: window.is_some() || m.heap_shaped(game),
                        ..Ascent::default()
                    }
                }
            };
            let top = if !a.heaps {
                0
            } else if n <= MAX_ARG || a.window.is_some() {
                n.min(MAX_ARG + 1)
            } else {
                0
            };
            let result = self.run(m, game, &mut a, top);
            m.meter(Meter::MisereAscend, None);
            self.ascents.insert(game, a);
            result?;
        }
        Ok(())
    }

    /// Settles heaps `a.next .. top` of `game` in order, until a period is
    /// proven.
    fn run(
        &mut self,
        m: &mut dyn Oracle,
        game: crate::oracle::GameId,
        a: &mut Ascent,
        top: i64,
    ) -> R<()> {
        let mut on_stack = FxHashSet::default();
        let mut stack = Vec::new();
        let mut moves = Moves::exact();
        while a.next < top {
            let k = a.next;
            // For the runaway projection: its heaps cost more as they grow.
            m.meter(Meter::MisereAscend, Some((k, top - 1)));
            let p = m.intern(game, &[Value::Int(k)], crate::span::Span::default())?;
            if self.get(&[p]).is_none() && !self.direct(m, p, &mut moves)? {
                self.search(m, Box::new([p]), &mut stack, &mut on_stack)?;
            }
            let Some((from, w)) = a.window else {
                a.next += 1;
                continue;
            };
            let known = if self.is_terminal(m, p)? {
                self.settle(m, &State::default())?
            } else {
                self.get(&[p])
            };
            // Pushed before `next` moves on, so an error above leaves the
            // two in step for the next ascent.
            a.seq
                .push(known.ok_or_else(|| Diag::bug("a heap not known after its ascent"))?);
            a.next += 1;
            // The w heaps ending at k, once every heap after them is past
            // `from`.
            if k + 1 < from || k + 1 < w {
                continue;
            }
            let window = |end: i64| &a.seq[(end + 1 - w) as usize..=end as usize];
            let mut h = FxHasher::default();
            window(k).hash(&mut h);
            match a.ends.get(&h.finish()).copied() {
                Some(e) if window(e) == window(k) => {
                    let start = e + 1 - w;
                    let ids = a.seq[start as usize..(start + k - e) as usize].to_vec();
                    self.periods.insert(game, GenusPeriod { from, start, ids });
                    a.seq = Vec::new();
                    a.ends = FxHashMap::default();
                    return Ok(());
                }
                _ => {
                    a.ends.insert(h.finish(), k);
                }
            }
        }
        Ok(())
    }

    /// What is known of a heap past its game's proven period's start.
    pub(super) fn periodic(&self, m: &dyn Oracle, c: PosId) -> Option<Known> {
        let (game, args) = m.position(c);
        let [Value::Int(n)] = args[..] else {
            return None;
        };
        let p = self.periods.get(&game)?;
        let i = n.checked_sub(p.start).filter(|i| *i >= 0)?;
        p.ids.get((i % p.ids.len() as i64) as usize).copied()
    }

    /// Whether a heap of a game with a proven period has no move, when the
    /// period tells (heaps past its shape's start always have one); a
    /// large heap first settles the heaps below it, looking for a period.
    pub(super) fn terminal_by_period(&mut self, m: &mut dyn Oracle, c: PosId) -> R<Option<bool>> {
        let (game, args) = m.position(c);
        let [Value::Int(n)] = args[..] else {
            return Ok(None);
        };
        if n > MAX_ARG && !self.periods.contains_key(&game) {
            let s: State = Box::new([c]);
            self.ascend(m, &s)?;
        }
        Ok(self
            .periods
            .get(&game)
            .filter(|p| n >= p.from.max(p.start))
            .map(|_| false))
    }
}
