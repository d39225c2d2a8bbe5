//! What one statement may spend: Ctrl-C, and the work, time and memory
//! limits, checked together where the evaluator polls; and the projection
//! that tells runaway work from long work.
//!
//! No default limit stops work that is making progress. What the defaults
//! stop is work projected not to finish: loops whose length is known (the
//! options of the position asked, the cases of a `check`, an ascending run
//! up to a heap) report where they stand, each step's cost in work is kept,
//! and when the values left times the cheapest recent step, at the rate of
//! work so far, pass the bound (an hour by default), the statement ends with
//! the projection in its message.

use crate::flow::{Limit, Stop};
use crate::memory;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

/// How often (in units of work) the limits are looked at.
const POLL_EVERY: u64 = 1024;

/// How many recent steps of a loop are kept; the cheapest is the cost a
/// projection assumes for every step left.
const STEPS_KEPT: usize = 8;

/// The work a loop's step is measured over, at least (one value's, or
/// several cheap values' together).
pub const STEP_WORK: u64 = 256;

/// Projections start once a statement has run this long (its rate of work
/// is known by then).
const PROJECT_AFTER: Duration = Duration::from_secs(1);

/// The default bound on projected time (`--runaway`): an hour.
pub const DEFAULT_RUNAWAY: Duration = Duration::from_secs(3600);

/// Which loop reports its progress: each has a track of its own.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Meter {
    /// The options of the position a statement asked about (the loop of
    /// its rule being stepped).
    Search,
    /// An ascending run of a game's values up to a heap.
    Ascend,
    /// A misère quotient grown heap by heap (`quotient(G, 0..=N)`).
    Quotient,
    /// Misère play's ascending run of a game's heaps (their genera).
    MisereAscend,
    /// A statement's own loop over a range (the cases of a `check`, a
    /// comprehension), at this nesting level (below [`STATEMENT_LEVELS`]).
    Statement(u8),
}

/// How many nested loops of a statement are metered.
pub const STATEMENT_LEVELS: u8 = 4;

impl Meter {
    fn index(self) -> usize {
        match self {
            Meter::Search => 0,
            Meter::Ascend => 1,
            Meter::Quotient => 2,
            Meter::MisereAscend => 3,
            Meter::Statement(level) => 4 + level as usize,
        }
    }

    /// What a meter's values are, in words.
    fn values(self) -> &'static str {
        match self {
            Meter::Statement(_) => "values of this statement's loop",
            Meter::Search => "values of the loop listing the options of the position asked",
            Meter::Ascend => "values of the ascending run",
            Meter::Quotient => "heaps of the misère quotient",
            Meter::MisereAscend => "heaps of the ascending run in misère play",
        }
    }

    fn at(index: usize) -> Meter {
        match index {
            0 => Meter::Search,
            1 => Meter::Ascend,
            2 => Meter::Quotient,
            3 => Meter::MisereAscend,
            i => Meter::Statement((i - 4) as u8),
        }
    }
}

/// What a loop reported: where it stands, where it ends, and the cost of
/// its recent steps.
#[derive(Clone, Copy, Debug, Default)]
struct Track {
    active: bool,
    /// The next value, and the last one (inclusive).
    at: i64,
    last: i64,
    /// The statement's total work when `at` was reported.
    work: u64,
    /// Work per value of recent steps (a ring of `STEPS_KEPT`).
    costs: [u64; STEPS_KEPT],
    /// Where the first step measured ended, and its cost per value.
    first: Option<(i64, u64)>,
    /// Memory in use when `at` was reported, and the bytes per value that
    /// recent steps added (negative when they freed more).
    memory: usize,
    grew: [i64; STEPS_KEPT],
    steps: usize,
}

impl Track {
    /// The cheapest recent cost per value, once enough steps were seen.
    fn per_value(&self) -> Option<u64> {
        (self.active && self.steps >= STEPS_KEPT)
            .then(|| self.costs.iter().copied().min().unwrap_or(1).max(1))
    }

    /// How much dearer each value is than the one before, when every recent
    /// step cost more than the one before it (a loop whose steps grow, as
    /// `sum(y for y in 0..x) for x in ...`): the growth since the loop's
    /// first step, per value since (recent steps alone are too few values
    /// to tell a trend from noise).
    fn growth(&self) -> Option<f64> {
        if !self.active || self.steps < STEPS_KEPT {
            return None;
        }
        let at = |k: usize| (self.steps + k) % STEPS_KEPT;
        let growing = (1..STEPS_KEPT).all(|k| self.costs[at(k)] > self.costs[at(k - 1)]);
        let (first_at, first_cost) = self.first?;
        let newest = self.costs[at(STEPS_KEPT - 1)];
        let span = self.at.abs_diff(first_at);
        (growing && span > 0 && newest > first_cost)
            .then(|| (newest - first_cost) as f64 / span as f64)
    }

    /// The least memory a recent step added per value, when every recent
    /// step added some.
    fn bytes_per_value(&self) -> Option<u64> {
        let least = *self.grew.iter().min()?;
        (self.active && self.steps >= STEPS_KEPT && least > 0).then_some(least as u64)
    }
}

/// A projection that passed the bound: what the message tells.
#[derive(Clone, Copy, Debug)]
pub struct Runaway {
    /// Which loop.
    pub meter: Meter,
    /// Values left in it.
    pub left: u128,
    /// Work per value assumed (the cheapest recent step).
    pub per_value: u64,
    /// How much dearer each value is than the one before (0: none).
    pub growth: f64,
    /// Work per second so far.
    pub rate: f64,
    /// Projected seconds.
    pub seconds: f64,
}

/// The limits of a statement, and what it has spent so far.
#[derive(Debug, Default)]
pub struct Budget {
    cancel: Option<Arc<AtomicBool>>,
    /// Where the work done is shown, if anywhere.
    progress: Option<Arc<crate::progress::Progress>>,
    /// Moves examined and loop values tried by this statement.
    work: u64,
    /// When `work` is next checked.
    next_check: u64,
    /// Most work per statement (0: none).
    max_work: u64,
    /// Most time per statement.
    time_limit: Option<Duration>,
    deadline: Option<Instant>,
    /// Most bytes in use (0: none).
    max_memory: usize,
    /// Work projected to take longer than this ends the statement.
    runaway: Option<Duration>,
    /// When the statement started.
    started: Option<Instant>,
    /// Work of the statement set apart by running [`Budget::apart`]s
    /// (so that `base + work` only grows).
    base: u64,
    /// Progress of loops whose length is known, one track per [`Meter`].
    tracks: [Track; 4 + STATEMENT_LEVELS as usize],
}

impl Budget {
    /// A budget with these limits.
    pub fn new(
        max_work: u64,
        time_limit: Option<Duration>,
        max_memory: usize,
        runaway: Option<Duration>,
    ) -> Budget {
        Budget {
            max_work,
            time_limit,
            max_memory,
            runaway,
            next_check: POLL_EVERY,
            ..Budget::default()
        }
    }

    /// The flag Ctrl-C sets.
    pub fn set_cancel(&mut self, flag: Arc<AtomicBool>) {
        self.cancel = Some(flag);
    }

    /// The time limit of statements started from now on.
    pub fn set_time_limit(&mut self, limit: Option<Duration>) {
        self.time_limit = limit;
    }

    /// Where to show the work done.
    pub fn set_progress(&mut self, progress: Arc<crate::progress::Progress>) {
        self.progress = Some(progress);
    }

    /// The progress counters, if shown.
    pub fn progress(&self) -> Option<&crate::progress::Progress> {
        self.progress.as_deref()
    }

    /// The statement ended.
    pub fn finish(&mut self) {
        if let Some(p) = &self.progress {
            p.stop();
        }
    }

    /// A statement starts: its work and time start from zero.
    pub fn start(&mut self) {
        if let Some(p) = &self.progress {
            p.start();
        }
        self.work = 0;
        self.base = 0;
        self.next_check = POLL_EVERY;
        let now = Instant::now();
        self.started = Some(now);
        self.deadline = self.time_limit.map(|t| now + t);
        self.tracks = Default::default();
    }

    /// A loop whose length is known stands at `at` of `first..=last`
    /// (`first` is not needed: only steps between reports are measured).
    /// A report that does not continue the track's loop starts it anew.
    /// A step is measured once it has cost [`STEP_WORK`]: a loop of cheap
    /// values is measured over several (their mean), one of dear values
    /// value by value.
    #[inline]
    pub fn report(&mut self, meter: Meter, at: i64, last: i64) {
        let total = self.base.saturating_add(self.work);
        if let Some(t) = self.tracks.get(meter.index())
            && t.active
            && t.last == last
            && at > t.at
            && total >= t.work
            && total - t.work < STEP_WORK
        {
            return;
        }
        self.measure(meter, at, last, total);
    }

    fn measure(&mut self, meter: Meter, at: i64, last: i64, total: u64) {
        let memory = memory::in_use().unwrap_or(0);
        let Some(t) = self.tracks.get_mut(meter.index()) else {
            return;
        };
        if !t.active || t.last != last || at < t.at || total < t.work {
            *t = Track {
                active: true,
                at,
                last,
                work: total,
                memory,
                ..Track::default()
            };
            return;
        }
        if at == t.at {
            return;
        }
        let values = at.abs_diff(t.at);
        let cost = (total - t.work).div_ceil(values);
        let grew = (memory as i64).saturating_sub(t.memory as i64) / values.max(1) as i64;
        t.costs[t.steps % STEPS_KEPT] = cost;
        t.first = t.first.or(Some((at, cost)));
        t.grew[t.steps % STEPS_KEPT] = grew;
        t.steps += 1;
        t.at = at;
        t.work = total;
        t.memory = memory;
    }

    /// The loop of `meter` is over.
    pub fn end_meter(&mut self, meter: Meter) {
        if let Some(t) = self.tracks.get_mut(meter.index()) {
            t.active = false;
        }
    }

    /// A loop whose recent steps each added memory, projected past the
    /// memory limit: (the meter, values left, bytes each, bytes projected).
    fn memory_runaway(&self) -> Option<(Meter, u128, u64, u128)> {
        if self.max_memory == 0 || self.started?.elapsed() < PROJECT_AFTER {
            return None;
        }
        let used = memory::in_use()?;
        self.tracks
            .iter()
            .enumerate()
            .filter_map(|(i, t)| {
                let per = t.bytes_per_value()?;
                let left = u128::from(t.last.abs_diff(t.at)) + 1;
                let projected = (used as u128).saturating_add(left.saturating_mul(u128::from(per)));
                (projected > self.max_memory as u128).then_some((
                    Meter::at(i),
                    left,
                    per,
                    projected,
                ))
            })
            .max_by_key(|r| r.3)
    }

    /// The longest projection of the loops reported, if it passes the bound.
    fn runaway(&self) -> Option<Runaway> {
        let bound = self.runaway?;
        if !self.tracks.iter().any(|t| t.per_value().is_some()) {
            return None;
        }
        let elapsed = self.started?.elapsed();
        if elapsed < PROJECT_AFTER {
            return None;
        }
        let rate = self.base.saturating_add(self.work) as f64 / elapsed.as_secs_f64();
        self.tracks
            .iter()
            .enumerate()
            .filter_map(|(i, t)| {
                let meter = Meter::at(i);
                let per_value = t.per_value()?;
                let left = u128::from(t.last.abs_diff(t.at)) + 1;
                // Steps that grow go on growing: the values left cost
                // `per_value`, and `growth` more each than the one before.
                let growth = t.growth().unwrap_or(0.0);
                let (n, c) = (left as f64, per_value as f64);
                let seconds = (n * c + growth * n * n / 2.0) / rate.max(1.0);
                Some(Runaway {
                    meter,
                    left,
                    per_value,
                    growth,
                    rate,
                    seconds,
                })
            })
            .filter(|r| r.seconds > bound.as_secs_f64())
            .max_by(|a, b| a.seconds.total_cmp(&b.seconds))
    }

    /// One unit of work (a move, a loop value); whether the limits are due
    /// to be looked at ([`Budget::check`]). On the hot path: one add, one
    /// compare.
    #[inline(always)]
    pub fn tick(&mut self) -> bool {
        self.work += 1;
        self.work >= self.next_check
    }

    /// `n` units of work (a kernel's scan).
    #[inline]
    pub fn spend(&mut self, n: u64) -> Result<(), Stop> {
        self.work = self.work.saturating_add(n);
        if self.work >= self.next_check {
            return self.check();
        }
        Ok(())
    }

    /// The work done so far (by the statement, or since [`Budget::apart`]).
    pub fn work(&self) -> u64 {
        self.work
    }

    /// The statement's work so far, which only grows (what the meters
    /// measure).
    #[inline]
    pub fn total(&self) -> u64 {
        self.base.saturating_add(self.work)
    }

    /// `n` units of work, looked at by the next [`Budget::tick`].
    #[inline]
    pub fn add(&mut self, n: u64) {
        self.work = self.work.saturating_add(n);
    }

    /// Whether Ctrl-C was pressed, leaving the flag set for
    /// [`Budget::cancelled`] to take.
    pub fn cancel_pending(&self) -> bool {
        self.cancel
            .as_ref()
            .is_some_and(|flag| flag.load(Ordering::Relaxed))
    }

    /// Whether Ctrl-C was pressed (the flag is cleared once seen).
    pub fn cancelled(&self) -> bool {
        self.cancel
            .as_ref()
            .is_some_and(|flag| flag.swap(false, Ordering::Relaxed))
    }

    /// Every limit, now.
    #[cold]
    #[inline(never)]
    pub fn check(&mut self) -> Result<(), Stop> {
        self.check_growth(0)
    }

    /// Every limit, now, with `growth` bytes about to be allocated.
    #[cold]
    #[inline(never)]
    pub fn check_growth(&mut self, growth: usize) -> Result<(), Stop> {
        self.next_check = self.work.saturating_add(POLL_EVERY);
        if let Some(p) = &self.progress {
            p.set_work(self.work);
        }
        if self.cancelled() {
            return Err(Stop::Interrupted);
        }
        if self.max_work > 0 && self.work > self.max_work {
            return Err(Limit::Work
                .stop(format!(
                    "more than {} moves and loop values examined by this statement",
                    self.max_work
                ))
                .help("raise the limit with `--max-work N` (0: no limit), or ask about smaller positions"));
        }
        if let Some(r) = self.runaway() {
            return Err(runaway(&r, self.runaway.unwrap_or_default()));
        }
        if let Some(deadline) = self.deadline
            && Instant::now() > deadline
        {
            let secs = self.time_limit.map_or(0.0, |t| t.as_secs_f64());
            return Err(Limit::Time
                .stop(format!("this statement ran longer than {secs} s"))
                .help(
                    "raise the limit with `--time-limit SECONDS` (`:limit time SECONDS` in the REPL), or ask about smaller positions",
                ));
        }
        // After the user's own bounds: a projection is a guess.
        if let Some((meter, left, per, projected)) = self.memory_runaway() {
            return Err(Limit::Memory
                .stop(format!(
                    "this statement is projected to need about {}, past the limit of {}",
                    memory::show(usize::try_from(projected).unwrap_or(usize::MAX)),
                    memory::show(self.max_memory)
                ))
                .note(format!(
                    "{} {} are left, each adding at least {} bytes",
                    crate::progress::grouped_u128(left),
                    meter.values(),
                    crate::progress::grouped(per)
                ))
                .help("raise the limit with `--max-memory SIZE` (e.g. 8G), or ask about smaller positions"));
        }
        if let Some(r) = self.runaway() {
            return Err(runaway(&r, self.runaway.unwrap_or_default()));
        }
        self.memory(growth)
    }

    /// Whether `more` bytes would still fit under the memory limit.
    #[inline]
    pub fn memory(&self, more: usize) -> Result<(), Stop> {
        if memory::fits(more, self.max_memory) {
            return Ok(());
        }
        self.over_memory(more)
    }

    /// The memory limit's error (kept out of the callers' hot loops).
    #[cold]
    #[inline(never)]
    fn over_memory(&self, more: usize) -> Result<(), Stop> {
        let used = memory::in_use().unwrap_or(0);
        Err(Limit::Memory
            .stop(format!(
                "memory use would pass the limit of {} ({} in use{})",
                memory::show(self.max_memory),
                memory::show(used),
                if more > 0 {
                    format!(", {} more asked for", memory::show(more))
                } else {
                    String::new()
                }
            ))
            .help("raise the limit with `--max-memory SIZE` (e.g. 8G), or ask about smaller positions"))
    }

    /// Starts work with a work limit of its own, at least `allowance` (a
    /// period search: what it spends is not taken from the statement's);
    /// [`Budget::restore`] with the answer goes back to the statement's.
    pub fn apart(&mut self, allowance: u64) -> Apart {
        let saved = Apart {
            work: self.work,
            max_work: self.max_work,
        };
        self.base = self.base.saturating_add(self.work);
        self.work = 0;
        self.next_check = POLL_EVERY;
        if self.max_work > 0 {
            self.max_work = self.max_work.max(allowance);
        }
        saved
    }

    /// Back to the statement's work and work limit.
    pub fn restore(&mut self, saved: Apart) {
        // What was spent apart still counts toward the rate of work.
        self.base = self
            .base
            .saturating_sub(saved.work)
            .saturating_add(self.work);
        self.work = saved.work;
        self.max_work = saved.max_work;
        self.next_check = saved.work.saturating_add(POLL_EVERY);
    }
}

/// The statement's work and limit, kept while work runs [`Budget::apart`].
#[derive(Clone, Copy, Debug)]
pub struct Apart {
    work: u64,
    max_work: u64,
}

/// The stop of work projected not to finish.
fn runaway(r: &Runaway, bound: Duration) -> Stop {
    let what = r.meter.values();
    Limit::Runaway.stop(format!(
        "this statement is projected to run for {}, past the bound of {} s",
        show_seconds(r.seconds),
        bound.as_secs_f64()
    ))
    .note(format!(
        "{} {what} are left, each taking at least {} units of work (moves and loop values){}, \
         at {} a second so far",
        crate::progress::grouped_u128(r.left),
        crate::progress::grouped(r.per_value),
        match r.growth {
            g if g >= 1.0 => format!(
                " and about {} more than the one before",
                crate::progress::grouped(g as u64)
            ),
            g if g > 0.0 => " and more than the one before".to_string(),
            _ => String::new(),
        },
        crate::progress::grouped(r.rate as u64),
    ))
    .help(
        "ask about smaller positions; to run it anyway, raise the bound with `--runaway SECONDS` \
         (0: never stop on a projection)",
    )
}

/// Seconds in the largest unit that reads well.
pub fn show_seconds(s: f64) -> String {
    const UNITS: [(f64, &str); 4] = [
        (365.25 * 86400.0, "years"),
        (86400.0, "days"),
        (3600.0, "hours"),
        (60.0, "minutes"),
    ];
    for (size, unit) in UNITS {
        if s >= size {
            let n = s / size;
            return if n >= 1e6 {
                format!("about {n:.1e} {unit}")
            } else if n >= 10.0 {
                format!("about {n:.0} {unit}")
            } else {
                format!("about {n:.1} {unit}")
            };
        }
    }
    format!("about {s:.0} seconds")
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A budget whose statement started `secs` ago, with `work` done.
    fn running(secs: u64, work: u64) -> Budget {
        let mut b = Budget::new(0, None, 0, Some(DEFAULT_RUNAWAY));
        b.start();
        b.started = Instant::now().checked_sub(Duration::from_secs(secs));
        b.work = work;
        b
    }

    /// Steps of a loop over `0..=last`: `costs[i]` work for value `i`.
    fn steps(b: &mut Budget, last: i64, costs: &[u64]) {
        b.report(Meter::Search, 0, last);
        for (i, c) in costs.iter().enumerate() {
            b.work += c;
            b.report(Meter::Search, i as i64 + 1, last);
        }
    }

    #[test]
    fn a_loop_too_long_to_finish_is_a_runaway() {
        // 10^18 values of 1000 work each, at 10^9 work a second.
        let mut b = running(10, 10_000_000_000);
        steps(&mut b, 1_000_000_000_000_000_000, &[1000; 20]);
        let r = b.runaway().expect("projected past an hour");
        assert_eq!(r.per_value, 1000);
        assert!(r.seconds > 1e11, "{r:?}");
        assert!(b.check().is_err());
    }

    #[test]
    fn a_loop_whose_steps_grow_is_projected_with_their_growth() {
        // 10^6 values left, the last costing 20,000 and each 1000 more than
        // the one before: 5·10^14 work at 10^9 a second, days; at the last
        // cost alone, 20 s.
        let mut b = running(10, 10_000_000_000);
        let costs: Vec<u64> = (1..=20).map(|k| 1000 * k).collect();
        steps(&mut b, 1_000_020, &costs);
        let r = b.runaway().expect("projected past an hour");
        assert_eq!(r.growth, 1000.0);
        assert!(r.seconds > 4e5, "{r:?}");
        // Steps that do not all grow: no growth assumed.
        let mut b = running(10, 10_000_000_000);
        let mut costs = costs.clone();
        costs[15] = 1;
        steps(&mut b, 1_000_020, &costs);
        assert!(b.runaway().is_none());
    }

    #[test]
    fn a_loop_that_finishes_within_the_bound_goes_on() {
        // 10^6 values left of 1000 work each, at 10^9 a second: a second.
        let mut b = running(10, 10_000_000_000);
        steps(&mut b, 1_000_020, &[1000; 20]);
        assert!(b.runaway().is_none());
    }

    #[test]
    fn one_costly_step_among_cheap_ones_projects_the_cheap_cost() {
        // The second value computed everything; the rest are looked up.
        // (Steps of at least STEP_WORK each, so that every value is one.)
        let mut b = running(10, 10_000_000_000);
        let mut costs = vec![STEP_WORK; 20];
        costs[1] = 10_000_000_000;
        steps(&mut b, 1_000_000_000, &costs);
        assert_eq!(b.tracks[Meter::Search.index()].per_value(), Some(STEP_WORK));
        assert!(b.runaway().is_none());
    }

    #[test]
    fn cheap_values_are_measured_together() {
        // 1 unit of work a value: a step every STEP_WORK values, each
        // measured at 1 a value.
        let mut b = running(10, 10_000_000_000);
        let n = STEP_WORK as usize * (STEPS_KEPT + 2);
        steps(&mut b, i64::MAX, &vec![1; n]);
        let t = b.tracks[Meter::Search.index()];
        assert_eq!(t.steps, STEPS_KEPT + 2);
        assert_eq!(t.per_value(), Some(1));
    }

    #[test]
    fn no_projection_before_enough_steps_or_time() {
        let mut b = running(10, 10_000_000_000);
        steps(&mut b, i64::MAX, &[1000; STEPS_KEPT - 1]);
        assert!(b.runaway().is_none(), "too few steps");
        let mut b = running(0, 10_000_000_000);
        steps(&mut b, i64::MAX, &[1000; 20]);
        assert!(b.runaway().is_none(), "too early");
        let mut b = running(10, 10_000_000_000);
        b.runaway = None;
        steps(&mut b, i64::MAX, &[1000; 20]);
        assert!(b.runaway().is_none(), "turned off");
    }

    #[test]
    fn a_new_loop_starts_its_track_anew() {
        let mut b = running(10, 10_000_000_000);
        steps(&mut b, i64::MAX, &[1000; 20]);
        b.end_meter(Meter::Search);
        assert!(b.runaway().is_none());
        steps(&mut b, i64::MAX, &[1000; 20]);
        assert!(b.runaway().is_some());
        // Another loop (another end) in the same track: no steps yet.
        b.report(Meter::Search, 0, 5);
        assert!(b.runaway().is_none());
    }

    #[test]
    fn work_set_apart_still_counts_toward_the_rate() {
        let mut b = running(10, 10_000_000_000);
        let saved = b.apart(0);
        assert_eq!(b.base, 10_000_000_000);
        b.work = 5;
        b.restore(saved);
        assert_eq!(b.base + b.work, 10_000_000_005);
    }
}
