//! Progress of long work: counters the engine writes as it polls, and a
//! display that draws them on a terminal's standard error (with indicatif)
//! once a statement has run for a second, cleared before anything else is
//! printed and when the statement ends. The only module that knows
//! indicatif.

use std::sync::atomic::{AtomicBool, AtomicI64, AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

/// What the statement running has done so far. Written with relaxed stores
/// where the engine already stops to look at its limits.
#[derive(Debug, Default)]
pub struct Progress {
    /// Whether a statement is running.
    running: AtomicBool,
    /// Bumped when a statement starts (the display's clock restarts).
    statement: AtomicU64,
    /// Option values and moves looked at.
    work: AtomicU64,
    /// Positions stored.
    states: AtomicU64,
    /// The heap an ascending run has reached (-1: none).
    at: AtomicI64,
    /// Where a search of one board is: of the root's options, and of the
    /// options of each under way below it, how many are done and of how
    /// many (`done << 32 | total`); `depth` of them set.
    levels: [AtomicU64; LEVELS],
    depth: AtomicUsize,
    /// Which round of the search's root the levels are of: a new one
    /// starts the time-left estimate's clock again.
    round: AtomicU64,
}

/// The levels of a search shown: the root's options, and two below.
pub const LEVELS: usize = 3;

impl Progress {
    /// A statement starts.
    pub fn start(&self) {
        self.work.store(0, Ordering::Relaxed);
        self.at.store(-1, Ordering::Relaxed);
        self.depth.store(0, Ordering::Relaxed);
        self.statement.fetch_add(1, Ordering::Relaxed);
        self.running.store(true, Ordering::Release);
    }

    /// The statement ended.
    pub fn stop(&self) {
        self.running.store(false, Ordering::Release);
    }

    /// The work done so far.
    pub fn set_work(&self, work: u64) {
        self.work.store(work, Ordering::Relaxed);
    }

    /// The positions stored so far.
    pub fn set_states(&self, states: usize) {
        self.states.store(states as u64, Ordering::Relaxed);
    }

    /// The heap an ascending run has reached.
    pub fn set_at(&self, n: i64) {
        self.at.store(n, Ordering::Relaxed);
    }

    /// Where a search of one board is: `(done, total)` for the root's
    /// options, then for the options of the one under way, and so on down
    /// (the first [`LEVELS`]), in the root's `round` (a new one restarts
    /// the estimate of the time left).
    pub fn set_levels(&self, round: u32, levels: &[(u32, u32)]) {
        self.round.store(u64::from(round), Ordering::Relaxed);
        let n = levels.len().min(LEVELS);
        for (slot, &(done, total)) in self.levels.iter().zip(&levels[..n]) {
            slot.store(u64::from(done) << 32 | u64::from(total), Ordering::Relaxed);
        }
        self.depth.store(n, Ordering::Relaxed);
    }

    /// The levels set, as [`Progress::set_levels`] was given them.
    fn levels(&self) -> Vec<(u32, u32)> {
        let n = self.depth.load(Ordering::Relaxed).min(LEVELS);
        self.levels[..n]
            .iter()
            .map(|l| {
                let v = l.load(Ordering::Relaxed);
                ((v >> 32) as u32, v as u32)
            })
            .collect()
    }
}

/// How long a statement runs before its progress is shown.
const SHOW_AFTER: Duration = Duration::from_secs(1);
/// How often the display looks at the counters.
const TICK: Duration = Duration::from_millis(100);

/// A progress line on standard error, drawn by a thread of its own.
pub struct Display {
    shared: Arc<Shared>,
    thread: Option<JoinHandle<()>>,
}

struct Shared {
    progress: Arc<Progress>,
    bar: Mutex<Option<indicatif::ProgressBar>>,
    quit: AtomicBool,
}

impl Display {
    /// Starts drawing `progress` (call only when standard error is a
    /// terminal and output is not JSON).
    pub fn start(progress: Arc<Progress>) -> Display {
        let shared = Arc::new(Shared {
            progress,
            bar: Mutex::new(None),
            quit: AtomicBool::new(false),
        });
        let mine = shared.clone();
        let thread = std::thread::Builder::new()
            .name("progress".into())
            .spawn(move || draw(&mine))
            .ok();
        Display { shared, thread }
    }

    /// Clears the line, before anything else is printed.
    pub fn clear(&self) {
        clear(&self.shared);
    }
}

impl Drop for Display {
    fn drop(&mut self) {
        self.shared.quit.store(true, Ordering::Relaxed);
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
        clear(&self.shared);
    }
}

fn clear(shared: &Shared) {
    if let Ok(mut bar) = shared.bar.lock()
        && let Some(b) = bar.take()
    {
        b.finish_and_clear();
    }
}

/// The display thread: every tick, the line for the statement running (from
/// its first second on), or nothing.
fn draw(shared: &Shared) {
    let p = &shared.progress;
    let mut seen = (u64::MAX, Instant::now());
    let mut last = (Instant::now(), 0u64);
    // The search's round, and when the display first saw it.
    let mut round = (u64::MAX, Instant::now());
    while !shared.quit.load(Ordering::Relaxed) {
        std::thread::sleep(TICK);
        let Ok(mut bar) = shared.bar.lock() else {
            return;
        };
        // Looked at under the lock: `stop` then `clear` leaves no line.
        if !p.running.load(Ordering::Acquire) {
            if let Some(b) = bar.take() {
                b.finish_and_clear();
            }
            continue;
        }
        let statement = p.statement.load(Ordering::Relaxed);
        if statement != seen.0 {
            seen = (statement, Instant::now());
            last = (Instant::now(), 0);
            if let Some(b) = bar.take() {
                b.finish_and_clear();
            }
        }
        if seen.1.elapsed() < SHOW_AFTER {
            continue;
        }
        let work = p.work.load(Ordering::Relaxed);
        let rate = work.saturating_sub(last.1) as f64 / last.0.elapsed().as_secs_f64().max(1e-3);
        last = (Instant::now(), work);
        let levels = p.levels();
        let r = p.round.load(Ordering::Relaxed);
        if r != round.0 {
            round = (r, Instant::now());
        }
        let left = fraction(&levels).and_then(|f| time_left(round.1.elapsed(), f));
        let msg = line(
            p.states.load(Ordering::Relaxed),
            rate as u64,
            p.at.load(Ordering::Relaxed),
            (&levels, left),
        );
        let b = bar.get_or_insert_with(|| {
            let b = indicatif::ProgressBar::new_spinner();
            b.set_draw_target(indicatif::ProgressDrawTarget::stderr());
            if let Ok(style) =
                indicatif::ProgressStyle::with_template("{spinner} {elapsed} {wide_msg}")
            {
                b.set_style(style);
            }
            b
        });
        // `wide_msg` cuts the line to the terminal's width: a line that
        // wraps cannot be cleared.
        b.set_message(msg);
        b.tick();
    }
}

/// The progress line's text: positions stored (none shown while a graph is
/// being solved, which stores none yet), options per second, the heap an
/// ascending run has reached, and a board search's time left, about, and
/// its place (the root's options done, and theirs below).
fn line(
    states: u64,
    rate: u64,
    at: i64,
    (levels, left): (&[(u32, u32)], Option<Duration>),
) -> String {
    let mut msg = if states > 0 {
        format!("{} positions, ", grouped(states))
    } else {
        String::new()
    };
    msg.push_str(&format!("{}/s options", grouped(rate)));
    if at >= 0 {
        msg.push_str(&format!(", n = {}", grouped(at as u64)));
    }
    // The time left first: a line too wide for the terminal is cut.
    if let Some(left) = left {
        msg.push_str(&format!(", about {} left", about(left)));
    }
    for (i, (done, total)) in levels.iter().enumerate() {
        msg.push_str(if i == 0 { ", root " } else { " > " });
        msg.push_str(&format!(
            "{}/{}",
            grouped(u64::from(*done)),
            grouped(u64::from(*total))
        ));
    }
    msg.push_str("  (Ctrl-C stops)");
    msg
}

/// The share of a search done, from its levels: the root's options done,
/// and of the one under way the share done of its own, and so on down.
/// `None` without levels.
fn fraction(levels: &[(u32, u32)]) -> Option<f64> {
    if levels.is_empty() {
        return None;
    }
    let mut below = 0.0;
    for &(done, total) in levels.iter().rev() {
        below = match total {
            0 => 1.0,
            t => ((f64::from(done) + below) / f64::from(t)).min(1.0),
        };
    }
    Some(below)
}

/// How long a search that has done `share` of its work in `elapsed` has
/// left, at the same pace (at least a second): `None` before a few seconds
/// or a thousandth of the work, when it would say nothing.
fn time_left(elapsed: Duration, share: f64) -> Option<Duration> {
    if elapsed < Duration::from_secs(3) || share < 1e-3 {
        return None;
    }
    let left = elapsed.as_secs_f64() * (1.0 - share) / share;
    Some(Duration::from_secs_f64(left.clamp(1.0, 1e9)))
}

/// A duration in round words: seconds, minutes or hours.
fn about(d: Duration) -> String {
    let s = d.as_secs();
    match s {
        0..120 => format!("{s} s"),
        120..7200 => format!("{} min", s / 60),
        _ => format!("{} h", s / 3600),
    }
}

/// `1234567` as `1,234,567`.
pub fn grouped(n: u64) -> String {
    grouped_u128(u128::from(n))
}

/// [`grouped`] for numbers past 2^64.
pub fn grouped_u128(n: u128) -> String {
    let s = n.to_string();
    let mut out = String::new();
    for (i, c) in s.chars().enumerate() {
        if i > 0 && (s.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

#[cfg(test)]
mod tests {
    use std::time::Duration;
    #[test]
    fn the_line_shows_what_is_known() {
        assert_eq!(
            super::line(1234, 5_000_000, 70_000, (&[], None)),
            "1,234 positions, 5,000,000/s options, n = 70,000  (Ctrl-C stops)"
        );
        assert_eq!(
            super::line(0, 10, -1, (&[], None)),
            "10/s options  (Ctrl-C stops)"
        );
        assert_eq!(
            super::line(
                42,
                1000,
                -1,
                (&[(7, 23), (3, 19)], Some(Duration::from_secs(300)))
            ),
            "42 positions, 1,000/s options, about 5 min left, root 7/23 > 3/19  (Ctrl-C stops)"
        );
    }

    /// The share done counts the option under way by its own share done.
    #[test]
    fn a_search_s_share_done_and_time_left() {
        assert_eq!(super::fraction(&[]), None);
        assert_eq!(super::fraction(&[(1, 4)]), Some(0.25));
        // One of 4 done, and half of the second: 1.5 / 4.
        assert_eq!(super::fraction(&[(1, 4), (2, 4)]), Some(0.375));
        // Half of the options under way of the first: (0 + 0.5) / 2, of 1/2.
        assert_eq!(super::fraction(&[(1, 2), (0, 2), (1, 2)]), Some(0.625));
        assert_eq!(super::fraction(&[(3, 3)]), Some(1.0));
        let s = Duration::from_secs;
        // A quarter done in 10 s: 30 s left.
        assert_eq!(super::time_left(s(10), 0.25), Some(s(30)));
        // Too soon, or too little done, to say.
        assert_eq!(super::time_left(s(1), 0.5), None);
        assert_eq!(super::time_left(s(100), 0.0), None);
        // Nearly done: a second, not none.
        assert_eq!(super::time_left(s(10), 0.9999), Some(s(1)));
        assert_eq!(super::about(s(45)), "45 s");
        assert_eq!(super::about(s(600)), "10 min");
        assert_eq!(super::about(s(3 * 3600 + 5)), "3 h");
    }

    /// The levels a search sets are read back as set, at most three.
    #[test]
    fn levels_are_read_back() {
        let p = super::Progress::default();
        p.set_levels(1, &[(1, 2), (3, 4), (5, 6), (7, 8)]);
        assert_eq!(p.levels(), [(1, 2), (3, 4), (5, 6)]);
        p.start();
        assert_eq!(p.levels(), []);
    }

    #[test]
    fn numbers_are_grouped_by_thousands() {
        assert_eq!(super::grouped(0), "0");
        assert_eq!(super::grouped(999), "999");
        assert_eq!(super::grouped(1000), "1,000");
        assert_eq!(super::grouped(1234567), "1,234,567");
    }
}
