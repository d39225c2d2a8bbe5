//! Progress of long work: counters the engine writes as it polls, and a
//! display that draws them on a terminal's standard error (with indicatif)
//! once a statement has run for a second, cleared before anything else is
//! printed and when the statement ends. The only module that knows
//! indicatif.

use std::sync::atomic::{AtomicBool, AtomicI64, AtomicU64, Ordering};
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
}

impl Progress {
    /// A statement starts.
    pub fn start(&self) {
        self.work.store(0, Ordering::Relaxed);
        self.at.store(-1, Ordering::Relaxed);
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
        let msg = line(
            p.states.load(Ordering::Relaxed),
            rate as u64,
            p.at.load(Ordering::Relaxed),
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
/// being solved, which stores none yet), options per second, and the heap
/// an ascending run has reached.
fn line(states: u64, rate: u64, at: i64) -> String {
    let mut msg = if states > 0 {
        format!("{} positions, ", grouped(states))
    } else {
        String::new()
    };
    msg.push_str(&format!("{}/s options", grouped(rate)));
    if at >= 0 {
        msg.push_str(&format!(", n = {}", grouped(at as u64)));
    }
    msg.push_str("  (Ctrl-C stops)");
    msg
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
    #[test]
    fn the_line_shows_what_is_known() {
        assert_eq!(
            super::line(1234, 5_000_000, 70_000),
            "1,234 positions, 5,000,000/s options, n = 70,000  (Ctrl-C stops)"
        );
        assert_eq!(super::line(0, 10, -1), "10/s options  (Ctrl-C stops)");
    }

    #[test]
    fn numbers_are_grouped_by_thousands() {
        assert_eq!(super::grouped(0), "0");
        assert_eq!(super::grouped(999), "999");
        assert_eq!(super::grouped(1000), "1,000");
        assert_eq!(super::grouped(1234567), "1,234,567");
    }
}
