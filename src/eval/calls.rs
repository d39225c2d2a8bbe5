//! Calls of the program's functions: arguments evaluated, each distinct
//! call computed once (memoized for the machine's program), nesting bounded.

use super::*;

/// The expression interpreter's own state beside the positions: the key
/// being built for a position, the memo of function calls and how deeply
/// calls nest now, and what `input_ints()` reads.
#[derive(Default)]
pub(super) struct InterpState {
    /// The key of a position being built argument by argument.
    pub(super) key: Vec<i64>,
    /// What is remembered of each function's calls.
    memo: Vec<Remembered>,
    /// Calls in progress.
    depth: usize,
    /// The fresh segments of stack the calls in progress run on, and the
    /// thread's stack left when the outermost call started.
    stack_bytes: usize,
    stack_base: usize,
    /// What `input_ints()` reads.
    pub(super) input: crate::input::Input,
    /// Searches running, one inside another: the outermost one's position
    /// is the one a statement asked about, whose options are metered.
    pub(super) searching: u32,
    /// A statement's own loops running, one inside another (metered while
    /// no search runs).
    pub(super) loop_depth: u8,
    /// How a report query used as a value is answered (installed from
    /// above the engine: `crate::report::value`).
    pub(super) report_values: Option<ReportValues>,
    /// A loop a `while` clause ended: its clause list and index (taken by
    /// that loop as it stops).
    pub(super) end_loop: Option<(*const Clause, usize)>,
    /// What naming keeps from one option to the next.
    pub(super) rename: super::rename::RenameBufs,
}

/// What is remembered of a function's calls: every call of a memoized
/// function, by its arguments' key; the last few calls of any other whose
/// arguments are a few integers and whose result is a short list of
/// integers or booleans, one per slot (a helper a rule calls with a cell, `nbrs(v)`:
/// building its list again costs more than finding it).
#[derive(Default)]
struct Remembered {
    all: rustc_hash::FxHashMap<Box<[i64]>, Value>,
    recent: Vec<Option<Recent>>,
    /// Calls in progress, and the bytes of their keys (kept until each
    /// returns and its result is remembered).
    pending: (usize, usize),
}

/// One recent call: its integer arguments and its result.
struct Recent {
    args: [i64; RECENT_ARGS],
    len: u8,
    value: Value,
}

/// The most integer arguments of a call kept as recent.
const RECENT_ARGS: usize = 4;

/// Recent calls kept per function (a direct-mapped table).
const RECENT_SLOTS: usize = 256;

/// The longest list kept as a recent result.
const RECENT_LEN: usize = 256;

impl Remembered {
    /// `calls` more calls in progress (or fewer, when negative), with
    /// keys of `bytes` each way.
    fn pend(&mut self, calls: isize, bytes: usize) {
        let (n, b) = self.pending;
        self.pending = if calls >= 0 {
            (n + calls as usize, b + bytes)
        } else {
            (
                n.saturating_sub(calls.unsigned_abs()),
                b.saturating_sub(bytes),
            )
        };
    }

    /// The slot of a call with these arguments.
    fn slot(args: &[i64]) -> usize {
        use std::hash::BuildHasher;
        rustc_hash::FxBuildHasher.hash_one(args) as usize % RECENT_SLOTS
    }

    fn recent(&self, args: &[i64]) -> Option<&Value> {
        // No slots until a result was kept: no hashing for helpers whose
        // values are never kept (integers, most of them).
        if self.recent.is_empty() {
            return None;
        }
        match self.recent.get(Self::slot(args))? {
            Some(r) if r.args[..r.len as usize] == *args => Some(&r.value),
            _ => None,
        }
    }

    /// Keeps a result as recent, if it is worth keeping and small: a
    /// short list of integers or booleans only (a list of lists may hold
    /// much more than its length says, and positions and the strings made
    /// of them depend on how positions are being named).
    fn keep(&mut self, args: &[i64], value: &Value) {
        let small = match value {
            Value::List(xs) => {
                xs.len() <= RECENT_LEN
                    && xs
                        .iter()
                        .all(|x| matches!(x, Value::Int(_) | Value::Bool(_)))
            }
            Value::Ints(xs) => xs.len() <= RECENT_LEN,
            Value::Bools(xs) => xs.len() <= RECENT_LEN,
            _ => false,
        };
        if !small || args.len() > RECENT_ARGS {
            return;
        }
        if self.recent.is_empty() {
            self.recent.resize_with(RECENT_SLOTS, || None);
        }
        let mut kept = [0; RECENT_ARGS];
        kept[..args.len()].copy_from_slice(args);
        self.recent[Self::slot(args)] = Some(Recent {
            args: kept,
            len: args.len() as u8,
            value: value.clone(),
        });
    }
}

/// A report query's answer as a value (`let p = period(G)`), given by the
/// layer above the engine that shapes answers.
pub type ReportValues =
    fn(&mut Machine, ir::Builtin, ir::Play, &[ExprId], Span, &mut [Value]) -> R<Value>;

impl InterpState {
    /// The function whose remembered calls' keys (and those of its calls
    /// in progress) take the most memory: it, how many calls, and the
    /// bytes of their keys.
    pub(super) fn largest_memo(&self) -> Option<(usize, usize, usize)> {
        self.memo
            .iter()
            .enumerate()
            .map(|(f, m)| {
                let bytes = m.all.keys().map(|k| k.len() * 8).sum::<usize>();
                (f, m.all.len() + m.pending.0, bytes + m.pending.1)
            })
            .max_by_key(|&(_, n, bytes)| (bytes, n))
    }

    /// What is remembered of a function's calls.
    fn remembered(&mut self, fun: ir::FunId) -> &mut Remembered {
        let i = fun.index();
        if self.memo.len() <= i {
            self.memo.resize_with(i + 1, Default::default);
        }
        &mut self.memo[i]
    }

    /// Forgets every call's result (the program changed).
    pub(super) fn forget_calls(&mut self) {
        self.memo = Default::default();
    }
}

/// Stack left below which a call's body runs on a fresh segment of stack
/// (`stacker`): calls nest as deep as the depth limit and memory allow,
/// whatever the thread's stack.
const RED_ZONE: usize = 128 * 1024;

/// The size of each fresh segment.
const SEGMENT: usize = 4 << 20;

impl Interp<'_> {
    /// `f(args)`: from the memo, or by evaluating the body in a frame of
    /// its own.
    pub(super) fn call_fun(
        &mut self,
        p: &ir::Program,
        fun: ir::FunId,
        args: &[ExprId],
        span: Span,
        env: &mut [Value],
    ) -> R<Value> {
        let Some(f) = p.funs.get(fun.index()) else {
            return Err(Diag::bug("a call of an unknown function")
                .label(span, "here")
                .into());
        };
        // Only a memoized function's calls are keyed.
        let mut key = Vec::new();
        let mut frame = vec![Value::Int(0); (f.slots as usize).max(args.len())];
        for (slot, &a) in frame.iter_mut().zip(args) {
            let v = self.value(p, a, env)?;
            if f.memo {
                crate::key::encode_call_arg(&v, &mut key);
            }
            *slot = v;
        }
        // Each call is work, and so is its key (list arguments copied in).
        self.m.budget.add(1 + key.len() as u64 / 8);
        self.m.poll()?;
        if f.memo
            && let Some(v) = self
                .m
                .interp_state
                .memo
                .get(fun.index())
                .and_then(|m| m.all.get(key.as_slice()))
        {
            return Ok(v.clone());
        }
        // A function with no memo declared: its recent calls of integers.
        let mut ints = [0i64; RECENT_ARGS];
        let recent = !f.memo
            && f.memo_limit.is_none()
            && args.len() <= RECENT_ARGS
            && frame[..args.len()]
                .iter()
                .zip(&mut ints)
                .all(|(v, slot)| match v {
                    Value::Int(x) => {
                        *slot = *x;
                        true
                    }
                    _ => false,
                });
        let ints = &ints[..args.len()];
        if recent
            && let Some(v) = self
                .m
                .interp_state
                .memo
                .get(fun.index())
                .and_then(|m| m.recent(ints))
        {
            return Ok(v.clone());
        }
        let depth = self.m.interp_state.depth;
        let cap = self.m.limits.max_depth;
        if depth >= cap {
            return Err(Limit::Depth
                .stop(format!("function calls nested more than {cap} deep"))
                .label(span, format!("a call of `{}` this deep", f.name))
                .help(
                    "does every recursive call get closer to a case without one? calls nest at \
                     most the depth limit (`--max-depth N`)",
                ));
        }
        let grows = self.take_stack(depth)?;
        self.m.interp_state.depth += 1;
        let keyed = key.len() * 8;
        if f.memo {
            self.m.interp_state.remembered(fun).pend(1, keyed);
        }
        // A function's result may be kept (its memo, a `let`): the boards it
        // makes are interned, never raw ids (`eval::rename`).
        let names = self.names.interned();
        let result = stacker::maybe_grow(RED_ZONE, SEGMENT, || {
            Interp::new(self.m, names).value(p, f.body, &mut frame)
        });
        self.m.interp_state.depth -= 1;
        if f.memo {
            self.m.interp_state.remembered(fun).pend(-1, keyed);
        }
        if grows {
            self.m.interp_state.stack_bytes -= SEGMENT;
        }
        let v = result?;
        if recent {
            self.m.interp_state.remembered(fun).keep(ints, &v);
        }
        if f.memo {
            self.remember(fun, f, key, &v)?;
        }
        Ok(v)
    }

    /// Takes the stack a call at this depth needs, counted against the
    /// memory limit (it is not the allocator's): the thread's own, measured
    /// from where the outermost call started, then each fresh segment
    /// before it is taken; looked at every 64 levels and at each segment.
    /// Whether the call runs on a fresh segment.
    fn take_stack(&mut self, depth: usize) -> R<bool> {
        let left = stacker::remaining_stack();
        let state = &mut self.m.interp_state;
        if depth == 0 {
            state.stack_base = left.unwrap_or(0);
        }
        let grows = left.is_none_or(|left| left < RED_ZONE);
        if grows {
            state.stack_bytes += SEGMENT;
        }
        if grows || depth % 64 == 63 {
            let own = match (state.stack_bytes, left) {
                (0, Some(left)) => state.stack_base.saturating_sub(left),
                _ => state.stack_base,
            };
            let total = own + state.stack_bytes;
            if let Err(stop) = self.m.reserve(total) {
                if grows {
                    self.m.interp_state.stack_bytes -= SEGMENT;
                }
                return Err(stop);
            }
        }
        Ok(grows)
    }

    /// Remembers a memoized function's call, its key and the memo's growth
    /// counted against the memory limit first.
    fn remember(&mut self, fun: ir::FunId, f: &ir::Fun, key: Vec<i64>, v: &Value) -> R<()> {
        let memo = &mut self.m.interp_state.remembered(fun).all;
        // `memo(N)`: a full memo starts again (what it held is freed).
        if f.memo_limit.is_some_and(|n| memo.len() as u64 >= n) {
            *memo = Default::default();
        }
        // The key and, when the memo is full, its table doubling.
        let entry = std::mem::size_of::<(Box<[i64]>, Value)>() + 1;
        let growth = if memo.len() == memo.capacity() {
            memo.capacity().max(4) * 2 * entry
        } else {
            0
        };
        self.m
            .reserve(key.len() * 8 + std::mem::size_of::<Value>() * 2 + growth)?;
        self.m
            .interp_state
            .remembered(fun)
            .all
            .insert(key.into(), v.clone());
        Ok(())
    }
}
