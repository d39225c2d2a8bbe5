//! What one statement may spend: Ctrl-C, and the work, time and memory
//! limits, checked together where the evaluator polls.

use crate::diagnostics::{Code, Diag};
use crate::flow::Stop;
use crate::memory;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

/// How often (in units of work) the limits are looked at.
const POLL_EVERY: u64 = 1024;

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
}

impl Budget {
    /// A budget with these limits.
    pub fn new(max_work: u64, time_limit: Option<Duration>, max_memory: usize) -> Budget {
        Budget {
            max_work,
            time_limit,
            max_memory,
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
        self.next_check = POLL_EVERY;
        self.deadline = self.time_limit.map(|t| Instant::now() + t);
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

    /// `n` units of work, looked at by the next [`Budget::tick`].
    #[inline]
    pub fn add(&mut self, n: u64) {
        self.work = self.work.saturating_add(n);
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
            return Err(Stop::Error(
                Diag::user(
                    Code::WorkLimit,
                    format!(
                        "more than {} moves and loop values examined by this statement",
                        self.max_work
                    ),
                )
                .help("raise the limit with `--max-work N` (0: no limit), or ask about smaller positions"),
            ));
        }
        if let Some(deadline) = self.deadline
            && Instant::now() > deadline
        {
            let secs = self.time_limit.map_or(0.0, |t| t.as_secs_f64());
            return Err(Stop::Error(
                Diag::user(
                    Code::TimeLimit,
                    format!("this statement ran longer than {secs} s"),
                )
                .help(
                    "raise the limit with `--time-limit SECONDS` (`:limit time SECONDS` in the REPL), or ask about smaller positions",
                ),
            ));
        }
        self.memory(growth)
    }

    /// Whether `more` bytes would still fit under the memory limit.
    pub fn memory(&self, more: usize) -> Result<(), Stop> {
        if memory::fits(more, self.max_memory) {
            return Ok(());
        }
        let used = memory::in_use().unwrap_or(0);
        Err(Stop::Error(
            Diag::user(
                Code::MemoryLimit,
                format!(
                    "memory use would pass the limit of {} ({} in use{})",
                    memory::show(self.max_memory),
                    memory::show(used),
                    if more > 0 {
                        format!(", {} more asked for", memory::show(more))
                    } else {
                        String::new()
                    }
                ),
            )
            .help("raise the limit with `--max-memory SIZE` (e.g. 8G), or ask about smaller positions"),
        ))
    }

    /// Starts work with a work limit of its own, at least `allowance` (a
    /// period search: what it spends is not taken from the statement's);
    /// [`Budget::restore`] with the answer goes back to the statement's.
    pub fn apart(&mut self, allowance: u64) -> Apart {
        let saved = Apart {
            work: self.work,
            max_work: self.max_work,
        };
        self.work = 0;
        self.next_check = POLL_EVERY;
        if self.max_work > 0 {
            self.max_work = self.max_work.max(allowance);
        }
        saved
    }

    /// Back to the statement's work and work limit.
    pub fn restore(&mut self, saved: Apart) {
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
