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
    /// Function results by call: the function's id, then its arguments.
    memo: rustc_hash::FxHashMap<Box<[i64]>, Value>,
    /// Calls in progress.
    depth: usize,
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
    /// The frames `split` and `canonical` are evaluated in, kept from one
    /// option to the next.
    pub(super) rename_envs: [Vec<Value>; 2],
}

/// A report query's answer as a value (`let p = period(G)`), given by the
/// layer above the engine that shapes answers.
pub type ReportValues =
    fn(&mut Machine, ir::Builtin, ir::Play, &[ExprId], Span, &mut [Value]) -> R<Value>;

impl InterpState {
    /// Forgets every call's result (the program changed).
    pub(super) fn forget_calls(&mut self) {
        self.memo = Default::default();
    }
}

/// Function calls nest at most this deep (each is a few frames of the Rust
/// stack; the binary's stack holds many more).
pub const MAX_CALL_DEPTH: usize = 10_000;

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
        // Only a recursive function's calls are memoized (and keyed).
        let mut key = if f.memo {
            vec![i64::from(fun)]
        } else {
            Vec::new()
        };
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
            && let Some(v) = self.m.interp_state.memo.get(key.as_slice())
        {
            return Ok(v.clone());
        }
        let cap = self.m.limits.max_depth.min(MAX_CALL_DEPTH);
        if self.m.interp_state.depth >= cap {
            return Err(Diag::user(
                Code::DepthLimit,
                format!("function calls nested more than {cap} deep"),
            )
            .label(span, format!("a call of `{}` this deep", f.name))
            .help(
                "does every recursive call get closer to a case without one? calls nest at \
                 most the depth limit (`--max-depth N`), and at most 10000",
            )
            .into());
        }
        self.m.interp_state.depth += 1;
        let result = self.value(p, f.body, &mut frame);
        self.m.interp_state.depth -= 1;
        let v = result?;
        if !f.memo {
            return Ok(v);
        }
        // The key and, when the memo is full, its table doubling.
        let entry = std::mem::size_of::<(Box<[i64]>, Value)>() + 1;
        let memo = &self.m.interp_state.memo;
        let growth = if memo.len() == memo.capacity() {
            memo.capacity().max(4) * 2 * entry
        } else {
            0
        };
        self.m
            .reserve(key.len() * 8 + std::mem::size_of::<Value>() * 2 + growth)?;
        self.m.interp_state.memo.insert(key.into(), v.clone());
        Ok(v)
    }
}
