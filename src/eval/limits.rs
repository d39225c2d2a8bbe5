//! The statement's limits as the evaluator meets them: polling Ctrl-C and
//! the limits, memory reservations, what a limit's error says was done,
//! and the progress counters and time limit of statements.

use super::*;

impl Machine {
    /// One unit of work (a move, a loop value); every so often, Ctrl-C and
    /// the limits.
    #[inline(always)]
    pub fn poll(&mut self) -> R<()> {
        if self.budget.tick() {
            return self.poll_limits();
        }
        Ok(())
    }

    #[cold]
    #[inline(never)]
    pub(super) fn poll_limits(&mut self) -> R<()> {
        if let Some(p) = self.budget.progress() {
            p.set_states(self.store.states());
        }
        let growth = self.store.growth_near();
        self.budget
            .check_growth(growth)
            .map_err(|s| explain_memos(self, explain(s, self.store.states())))?;
        if self.checkpoint.is_some() {
            self.checkpoint_if_due();
        }
        Ok(())
    }

    /// A statement starts: the work and time limits start afresh.
    pub fn start_statement(&mut self) {
        self.budget.start();
        self.accel.start_statement();
        self.interp_state.loop_depth = 0;
        self.states_at_start = self.store.states();
    }

    /// What the statement did before a limit stopped it, in words.
    pub fn done_note(&self) -> String {
        let states = self.store.states();
        let mut note = format!(
            "by then it had looked at {} moves and option values, and {} positions were stored \
             ({} new)",
            crate::progress::grouped(self.budget.work()),
            crate::progress::grouped(states as u64),
            crate::progress::grouped(states.saturating_sub(self.states_at_start) as u64),
        );
        if let Some((game, n)) = self.accel.reached() {
            note.push_str(&format!(
                "; the values of {} were known up to n = {}",
                self.prog.games[game.index()].name,
                crate::progress::grouped(n.max(0) as u64)
            ));
        }
        note
    }

    /// The statement ended (its progress line goes).
    pub fn end_statement(&mut self) {
        self.budget.finish();
    }

    /// The time limit of each statement from now on.
    pub fn set_time_limit(&mut self, limit: Option<std::time::Duration>) {
        self.limits.time_limit = limit;
        self.budget.set_time_limit(limit);
    }

    /// Whether `bytes` more would fit under the memory limit; if not, the
    /// error says what holds the memory.
    #[inline]
    pub fn reserve(&self, bytes: usize) -> R<()> {
        self.budget
            .memory(bytes)
            .map_err(|s| explain_memos(self, explain(s, self.store.states())))
    }
}

/// The depth-limit error at `pos`, reached from the top frame by its
/// rule `rule` (when known).
pub(super) fn too_deep(m: &Machine, frames: &[Frame], pos: PosId, rule: Option<usize>) -> Stop {
    let first = frames
        .first()
        .map(|f| m.show().pos(f.pos))
        .unwrap_or_default();
    let mut d = Limit::Depth
        .stop(format!(
            "the search went more than {} positions deep",
            m.limits.max_depth
        ))
        .note(format!("from {first} down to {}", m.show().pos(pos)));
    // Integer arguments still within the first position's, none below
    // 0: the game is this deep, no guard is missing.
    let (root_game, root) = match frames.first() {
        Some(f) => m.position(f.pos),
        None => m.position(pos),
    };
    let (game, here) = m.position(pos);
    let within = game == root_game
        && here.len() == root.len()
        && here.iter().zip(&root).all(|(h, r)| match (h, r) {
            (Value::Int(h), Value::Int(r)) => (0..=*r).contains(h),
            _ => false,
        });
    if within {
        return d.help(
            "every position on the way is smaller than the first and none is negative: the \
             game is this deep; raise the limit with `--max-depth N`",
        );
    }
    d = d.help(
        "does every move make the position smaller? a missing `if` guard lets arguments \
         run past 0; raise the limit with `--max-depth N` if the game really is this deep",
    );
    if let Some(last) = frames.last() {
        let g = &m.prog.games[last.game.index()];
        if let Some(rule) = rule.and_then(|r| g.rules.get(r)) {
            d = d.label(rule.span, "this rule keeps making new positions");
        }
    }
    d
}

/// The note on a memory-limit error met while the search stack is deep.
pub(super) fn stack_note(d: Diag, depth: usize) -> Diag {
    d.note(format!(
        "the search holds {depth} positions waiting for their options' values \
         (--max-depth bounds them)"
    ))
}

/// Adds to a memory-limit error what holds the memory.
fn explain(s: Stop, states: usize) -> Stop {
    if s.limit() != Some(Limit::Memory) || states < 1000 {
        return s;
    }
    s.map_diag(|d| {
        d.note(format!(
            "{states} positions are stored (--max-states bounds them)"
        ))
    })
}

/// Adds to a memory-limit error the calls a function remembers, when
/// they are many or their keys large (a long list passed down a
/// recursion is copied into each call's key).
#[cold]
fn explain_memos(m: &Machine, s: Stop) -> Stop {
    if s.limit() != Some(Limit::Memory) {
        return s;
    }
    let Some((f, calls, bytes)) = m.interp_state.largest_memo() else {
        return s;
    };
    let Some(fun) = m.prog.funs.get(f) else {
        return s;
    };
    if s.limit() != Some(Limit::Memory) || (calls < 1000 && bytes < MEMO_NOTE_BYTES) {
        return s;
    }
    let name = &fun.name;
    let keys = if bytes >= MEMO_NOTE_BYTES {
        format!(
            ", their arguments copied into keys of {} in all",
            crate::memory::show(bytes)
        )
    } else {
        String::new()
    };
    s.map_diag(|d| {
        d.note(format!(
            "{calls} calls of `{name}` are kept by its memo (or will be, once they return), each with its result{keys}: \
             `let memo(0) {name}(...)` remembers none, `let memo(N) {name}(...)` at most N"
        ))
    })
}

/// Keys this large make a function's memo worth a note on its own.
const MEMO_NOTE_BYTES: usize = 64 << 20;
