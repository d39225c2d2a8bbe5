//! A one-parameter game's misère quotient, from its rules: heap h's options
//! listed by the engine, each a sum of the game's smaller heaps, fed to
//! `crate::solve::quotient` in order. Sums of the game's heaps then have their
//! misère outcomes and winning moves from the quotient: one product per
//! component, and heaps past the last one computed by the pretending
//! function's period where it is proven.
//!
//! The proof (Guy–Smith's argument in misère play): for an octal game whose
//! last digit takes k tokens, if Φ(n + p) = Φ(n) for n0 ≤ n ≤ N − p with
//! n0 ≥ 1 and N ≥ 2·n0 + 2·p + k − 1 (n0 + p + k − 1 when no move splits a
//! heap), heap N + 1 has the same options' elements as heap N + 1 − p, and
//! so the same element with the quotient unchanged; and so on for ever.

use super::{Misere, State};
use crate::diagnostics::{Code, Diag};
use crate::flow::R;
use crate::oracle::Meter;
use crate::oracle::{Moves, Oracle};
use crate::solve::quotient::{self, Growth, Quotient};
use crate::store::PosId;
use crate::value::Value;

/// A game's quotient so far, and what is known of its period.
pub struct Heaps {
    pub q: Quotient,
    /// The octal digits of the game's moves, when the analysis proves its
    /// rules are exactly an octal game's (the period's proof needs them).
    digits: Option<Vec<u8>>,
}

/// The period of the pretending function, as far as it is known.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PretendingPeriod {
    pub period: u32,
    /// The first heap of the periodic part.
    pub from: u32,
    /// The largest heap computed.
    pub computed: u32,
    /// The heap the proof needs computed (when the game's digits allow one).
    pub needs: Option<u32>,
}

impl PretendingPeriod {
    /// Whether every heap from `from` on follows the period.
    pub fn proven(&self) -> bool {
        self.needs.is_some_and(|n| self.computed >= n)
    }
}

impl Heaps {
    fn new(m: &mut dyn Oracle, game: crate::oracle::GameId, limits: Growth) -> Heaps {
        Heaps {
            q: Quotient::new(limits),
            digits: m.octal_digits(game),
        }
    }

    /// The pretending function's period, if its tail repeats: the first
    /// whose proof holds, else the one starting earliest (a chance repeat of
    /// the last few heaps is no period to report).
    pub fn period(&self) -> Option<PretendingPeriod> {
        let computed = self.q.heaps();
        let needs = |period: u32, from: u32| {
            let d = self.digits.as_ref()?;
            if d.iter().any(|&x| x & 8 != 0) {
                return None;
            }
            let k = d.len().saturating_sub(1) as u64;
            let m = if d.iter().any(|&x| x & 4 != 0) { 2 } else { 1 };
            let n = (m * (u64::from(from) + u64::from(period)) + k).saturating_sub(1);
            u32::try_from(n).ok()
        };
        let all: Vec<PretendingPeriod> = self
            .q
            .periods()
            .into_iter()
            .map(|(period, from)| PretendingPeriod {
                period,
                from,
                computed,
                needs: needs(period, from),
            })
            .collect();
        all.iter()
            .find(|p| p.proven())
            .or_else(|| all.iter().min_by_key(|p| (p.from + p.period, p.period)))
            .copied()
    }

    /// The elements of heaps, if all are known: computed, or past them by
    /// the proven period.
    pub fn elements(&self, hs: &[i64]) -> Option<Vec<u32>> {
        let top = i64::from(self.q.heaps());
        let phi = self.q.phi();
        let mut period = None;
        hs.iter()
            .map(|&h| {
                if (0..=top).contains(&h) {
                    return Some(phi[h as usize]);
                }
                if h < 0 {
                    return None;
                }
                let p =
                    *period.get_or_insert_with(|| self.period().filter(PretendingPeriod::proven));
                let p = p?;
                let (from, period) = (i64::from(p.from), i64::from(p.period));
                Some(phi[(from + (h - from) % period) as usize])
            })
            .collect()
    }
}

/// The most characters of the P-portion and of the presentation a stopped
/// quotient's note shows.
const MAX_SO_FAR: usize = 1000;

/// What a quotient stopped at a heap had found, MisereSolver's partial
/// answer: the quotient of the heaps before it.
fn so_far(h: &Heaps) -> String {
    let q = &h.q;
    let cut = |s: String| match s.char_indices().nth(MAX_SO_FAR) {
        Some((i, _)) => format!("{}…", &s[..i]),
        None => s,
    };
    let p = q.p_names();
    let changed: Vec<String> = q.expansions.iter().map(u32::to_string).collect();
    format!(
        "the quotient of heaps 0..={} so far: order {}, changed at heaps {}; P = {{{}}} ({} elements); Q = {}",
        q.heaps(),
        q.order(),
        changed.join(", "),
        cut(p.join(", ")),
        p.len(),
        cut(q.presentation())
    )
}

/// A heap's options as lists of smaller heaps of the same game.
fn heap_options(
    m: &mut dyn Oracle,
    game: crate::oracle::GameId,
    h: i64,
    moves: &mut Moves,
) -> R<Vec<Vec<u32>>> {
    let pos = m.intern(game, &[Value::Int(h)], crate::span::Span::default())?;
    m.options_into(pos, moves)?;
    let mut out = Vec::with_capacity(moves.len());
    for opt in moves.iter() {
        let mut heaps = Vec::with_capacity(opt.len());
        for &c in opt {
            let (g, args) = m.position(c);
            match args[..] {
                [Value::Int(k)] if g == game && (0..h).contains(&k) => heaps.push(k as u32),
                _ => {
                    return Err(Diag::user(
                        Code::NotSupported,
                        format!(
                            "{} has the option {}, not a sum of smaller heaps of its game",
                            m.show_pos(pos),
                            m.show_pos(c)
                        ),
                    )
                    .help("a misère quotient is of a take-and-break game: each move leaves smaller heaps of the same game")
                    .into());
                }
            }
        }
        out.push(heaps);
    }
    Ok(out)
}

/// Heaps that `quotient` computes for a sum by itself, at most.
const AUTO_TOP: u32 = 400;

/// Steps a sum's own attempt at its quotient may take (Kayles' to heap
/// 167, where its period is proven, takes about a million).
const AUTO_POLLS: u64 = 20_000_000;

/// Extends a game's quotient heap by heap to `top`, stopping early once
/// `enough` says so. On a stop the quotient is that of the heaps before
/// the one that stopped. With no `budget` of its own (a query's quotient,
/// not a sum's attempt), its heaps are metered for the runaway projection.
fn extend(
    m: &mut dyn Oracle,
    game: crate::oracle::GameId,
    heaps: &mut Heaps,
    top: u32,
    enough: &dyn Fn(&Heaps) -> bool,
    budget: Option<u64>,
) -> R<()> {
    let metered = budget.is_none();
    let result = extend_metered(m, game, heaps, top, enough, budget);
    if metered {
        m.meter(Meter::Quotient, None);
    }
    result
}

fn extend_metered(
    m: &mut dyn Oracle,
    game: crate::oracle::GameId,
    heaps: &mut Heaps,
    top: u32,
    enough: &dyn Fn(&Heaps) -> bool,
    budget: Option<u64>,
) -> R<()> {
    let mut moves = Moves::exact();
    let mut polls = 0u64;
    loop {
        let next = heaps.q.heaps() + 1;
        if next > top || enough(heaps) {
            return Ok(());
        }
        if budget.is_none() {
            // Projected to the heap a candidate period's proof needs, when
            // there is one: the quotient stops there if it holds.
            let end = heaps
                .period()
                .and_then(|p| p.needs)
                .map_or(top, |n| n.clamp(next, top));
            m.meter(Meter::Quotient, Some((i64::from(next), i64::from(end))));
        }
        let options = heap_options(m, game, i64::from(next), &mut moves)?;
        // A sum's own attempt has a budget of its own: past it, the sum is
        // searched instead (the statement's limits stay for the search).
        let mut poll = || {
            polls += 1;
            if budget.is_some_and(|b| polls > b) {
                return Err(crate::flow::Stop::Aborted);
            }
            m.poll()
        };
        match heaps.q.push(options, &mut poll) {
            Ok(()) => {}
            Err(quotient::Unfinished::Interrupted(stop)) => return Err(stop),
            Err(quotient::Unfinished::TooLarge) => {
                return Err(Diag::user(
                    Code::TooLarge,
                    format!(
                        "the misère quotient grew too large at heap {next} (order {} up to heap {}): it may be infinite",
                        heaps.q.order(),
                        next - 1
                    ),
                )
                .help("ask for fewer heaps; some octal games (0.3122) have infinite quotients")
                .into());
            }
            Err(quotient::Unfinished::NoCandidate(h)) => {
                return Err(Diag::user(
                    Code::NotSupported,
                    format!(
                        "the misère quotient could not be extended to heap {h}: no candidate of MisereSolver's recalibration step fits (order {} up to heap {})",
                        heaps.q.order(),
                        h - 1
                    ),
                )
                .help("ask for heaps up to the one before; sums of heaps beyond are searched instead")
                .into());
            }
            Err(quotient::Unfinished::Bug(what)) => return Err(Diag::bug(what).into()),
        }
    }
}

impl Misere {
    /// A game's quotient of heaps 0..=top, given to `f`: computed heap by
    /// heap until `top`, or until its period is proven (heaps past it are
    /// the period's: `Heaps::elements`); kept for sums of the game's heaps
    /// when it reaches further than the one kept. Where it stops, the error
    /// says what it had found by then.
    pub fn with_quotient<T>(
        &mut self,
        m: &mut dyn Oracle,
        game: crate::oracle::GameId,
        top: u32,
        f: impl FnOnce(&Heaps) -> T,
    ) -> R<T> {
        let kept = self.quotients.remove(&game);
        let (mut heaps, other) = match kept {
            Some(mut h) if h.q.heaps() <= top => {
                // Kept from a sum's own attempt, within smaller limits.
                h.q.set_limits(Growth::default());
                (h, None)
            }
            other => (Heaps::new(m, game, Growth::default()), other),
        };
        let proven = |h: &Heaps| h.period().is_some_and(|p| p.proven());
        let result = extend(m, game, &mut heaps, top, &proven, None)
            .map_err(|stop| stop.map_diag(|d| d.note(so_far(&heaps))));
        match (result, other) {
            (Ok(()), other) => {
                let out = f(&heaps);
                let keep = match other {
                    Some(o) if o.q.heaps() > heaps.q.heaps() => o,
                    _ => heaps,
                };
                self.quotients.insert(game, keep);
                Ok(out)
            }
            (Err(stop), Some(o)) => {
                self.quotients.insert(game, o);
                Err(stop)
            }
            (Err(stop), None) => Err(stop),
        }
    }

    /// The game and heaps of a sum of two or more heaps of one
    /// one-parameter game that splits heaps (its rules an octal game's),
    /// for the quotient to answer; `None` for any other sum.
    fn quotient_sum(
        &mut self,
        m: &mut dyn Oracle,
        s: &State,
    ) -> R<Option<(crate::oracle::GameId, Vec<i64>)>> {
        if s.len() < 2 {
            return Ok(None);
        }
        let mut game = None;
        let mut heaps = Vec::with_capacity(s.len());
        for &c in s.iter() {
            let (g, args) = m.position(c);
            match args[..] {
                [Value::Int(h)] if h >= 0 && game.is_none_or(|x| x == g) => {
                    game = Some(g);
                    heaps.push(h);
                }
                _ => return Ok(None),
            }
        }
        let Some(game) = game else { return Ok(None) };
        // Misère Nim's rule answers sums of Nim heaps (and of heaps with no
        // move) at once.
        if self.no_quotient.contains(&game) || s.iter().all(|&c| m.nim_heap(c).is_some()) {
            return Ok(None);
        }
        if !self.quotients.contains_key(&game) {
            let splits = m
                .octal_digits(game)
                .is_some_and(|d| d.iter().any(|&x| x & 4 != 0));
            if !splits {
                self.no_quotient.push(game);
                return Ok(None);
            }
        }
        Ok(Some((game, heaps)))
    }

    /// The elements of a sum's heaps from the game's quotient (computed
    /// here up to the largest heap, or until its period is proven, within
    /// small limits); `None` where the quotient does not answer.
    pub(super) fn quotient_elements(
        &mut self,
        m: &mut dyn Oracle,
        s: &State,
    ) -> R<Option<(crate::oracle::GameId, Vec<u32>)>> {
        let Some((game, heaps)) = self.quotient_sum(m, s)? else {
            return Ok(None);
        };
        let known = |q: &Heaps| q.elements(&heaps).is_some();
        let largest = heaps.iter().copied().max().unwrap_or(0);
        let top = u32::try_from(largest).unwrap_or(u32::MAX).min(AUTO_TOP);
        let limits = Growth {
            max_elements: 1 << 14,
            max_order: 1 << 10,
            max_words: 1 << 20,
        };
        let mut q = match self.quotients.remove(&game) {
            Some(q) => q,
            None => Heaps::new(m, game, limits),
        };
        match extend(m, game, &mut q, top, &known, Some(AUTO_POLLS)) {
            Ok(()) => {
                let out = q.elements(&heaps).map(|xs| (game, xs));
                self.quotients.insert(game, q);
                Ok(out)
            }
            Err(stop) if stop.ends_statement() => Err(stop),
            Err(_) => {
                self.no_quotient.push(game);
                Ok(None)
            }
        }
    }

    /// The misère outcome of a sum from its game's quotient: whether the
    /// player to move loses; `None` where the quotient does not answer.
    pub fn quotient_loses(&mut self, m: &mut dyn Oracle, parts: &[PosId]) -> R<Option<bool>> {
        // Heaps with no move stay in: their element is the identity (and
        // a huge heap is never listed).
        let mut s: Vec<PosId> = parts.to_vec();
        s.sort_unstable();
        let s: State = s.into();
        let Some((game, xs)) = self.quotient_elements(m, &s)? else {
            return Ok(None);
        };
        let q = &self.quotients[&game].q;
        let x = xs.iter().fold(0, |acc, &y| q.mul(acc, y));
        Ok(Some(q.is_p(x)))
    }

    /// The winning moves of a sum from its game's quotient, with how many
    /// moves it has and whether the player to move loses; `None` where the
    /// quotient does not answer. A move in one heap leaves the others'
    /// product (from products before and after it) times its option's.
    #[allow(clippy::type_complexity)]
    pub fn quotient_winning(
        &mut self,
        m: &mut dyn Oracle,
        parts: &[PosId],
    ) -> R<Option<(Vec<(PosId, Vec<PosId>)>, usize, bool)>> {
        // A heap too large to list its moves is left to the search's
        // error.
        let listed =
            |c: &PosId| matches!(m.position(*c).1[..], [Value::Int(h)] if h <= super::MAX_ARG);
        if !parts.iter().all(listed) {
            return Ok(None);
        }
        let s = self.state(m, parts)?;
        let Some((game, xs)) = self.quotient_elements(m, &s)? else {
            return Ok(None);
        };
        let n = xs.len();
        let (mut before, mut after) = (vec![0u32; n + 1], vec![0u32; n + 1]);
        {
            let q = &self.quotients[&game].q;
            for i in 0..n {
                before[i + 1] = q.mul(before[i], xs[i]);
                after[n - 1 - i] = q.mul(after[n - i], xs[n - 1 - i]);
            }
        }
        let loses = self.quotients[&game].q.is_p(before[n]);
        let mut out = Vec::new();
        let mut count = 0usize;
        let mut moves = Moves::exact();
        let mut seen = rustc_hash::FxHashSet::default();
        for (i, &c) in s.iter().enumerate() {
            if i > 0 && s[i - 1] == c {
                continue;
            }
            m.options_into(c, &mut moves)?;
            let rest = self.quotients[&game].q.mul(before[i], after[i + 1]);
            let options: Vec<Vec<PosId>> = moves.iter().map(<[PosId]>::to_vec).collect();
            for to in options {
                m.poll()?;
                // Each move once, as `options` lists them: moves to the
                // same heaps but for dead ones are still different moves.
                let mut key = to.clone();
                let mut hs = Vec::with_capacity(to.len());
                for &p in &to {
                    match m.position(p).1[..] {
                        [Value::Int(h)] => hs.push(h),
                        _ => return Ok(None),
                    }
                }
                key.sort_unstable();
                if !seen.insert((c, key)) {
                    continue;
                }
                count += 1;
                let Some(ys) = self.quotients[&game].elements(&hs) else {
                    return Ok(None);
                };
                let q = &self.quotients[&game].q;
                let x = ys.iter().fold(rest, |acc, &y| q.mul(acc, y));
                if self.quotients[&game].q.is_p(x) {
                    out.push((c, to));
                }
            }
        }
        Ok(Some((out, count, loses)))
    }
}
