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
    /// Function results by call, per function: by the call's arguments.
    memo: Vec<rustc_hash::FxHashMap<Box<[i64]>, Value>>,
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
    /// How positions made now are named (`eval::rename`).
    pub(super) naming: super::rename::Naming,
    /// What naming keeps from one option to the next.
    pub(super) rename: super::rename::RenameBufs,
}

/// A report query's answer as a value (`let p = period(G)`), given by the
/// layer above the engine that shapes answers.
pub type ReportValues =
    fn(&mut Machine, ir::Builtin, ir::Play, &[ExprId], Span, &mut [Value]) -> R<Value>;

impl InterpState {
    /// The function with the most calls remembered, and how many.
    pub(super) fn largest_memo(&self) -> Option<(usize, usize)> {
        self.memo
            .iter()
            .enumerate()
            .map(|(f, m)| (f, m.len()))
            .max_by_key(|&(_, n)| n)
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
        let Some(f) = p.funs.get(fun as usize) else {
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
                .get(fun as usize)
                .and_then(|m| m.get(key.as_slice()))
        {
            return Ok(v.clone());
        }
        let depth = self.m.interp_state.depth;
        let cap = self.m.limits.max_depth;
        if depth >= cap {
            return Err(Diag::user(
                Code::DepthLimit,
                format!("function calls nested more than {cap} deep"),
            )
            .label(span, format!("a call of `{}` this deep", f.name))
            .help(
                "does every recursive call get closer to a case without one? calls nest at \
                 most the depth limit (`--max-depth N`)",
            )
            .into());
        }
        // The stack the calls take counts against the memory limit (it is
        // not the allocator's): the thread's own, measured from where the
        // outermost call started, then each fresh segment before it is
        // taken; looked at every 64 levels and at each segment.
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
        self.m.interp_state.depth += 1;
        // A function's result may be kept (its memo, a `let`): the boards it
        // makes are interned, never raw ids (`eval::rename`).
        let raw = std::mem::replace(&mut self.m.interp_state.rename.raw, false);
        let result = stacker::maybe_grow(RED_ZONE, SEGMENT, || self.value(p, f.body, &mut frame));
        self.m.interp_state.rename.raw = raw;
        self.m.interp_state.depth -= 1;
        if grows {
            self.m.interp_state.stack_bytes -= SEGMENT;
        }
        let v = result?;
        if !f.memo {
            return Ok(v);
        }
        let memos = &mut self.m.interp_state.memo;
        if memos.len() <= fun as usize {
            memos.resize_with(fun as usize + 1, Default::default);
        }
        // `memo(N)`: a full memo starts again (what it held is freed).
        if f.memo_limit
            .is_some_and(|n| memos[fun as usize].len() as u64 >= n)
        {
            memos[fun as usize] = Default::default();
        }
        // The key and, when the memo is full, its table doubling.
        let entry = std::mem::size_of::<(Box<[i64]>, Value)>() + 1;
        let memo = &memos[fun as usize];
        let growth = if memo.len() == memo.capacity() {
            memo.capacity().max(4) * 2 * entry
        } else {
            0
        };
        self.m
            .reserve(key.len() * 8 + std::mem::size_of::<Value>() * 2 + growth)?;
        self.m.interp_state.memo[fun as usize].insert(key.into(), v.clone());
        Ok(v)
    }
}
