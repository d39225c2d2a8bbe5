//! Running a compiled rule: its clauses stepped one by one, and the fused
//! innermost loops over the dense arrays.

use super::*;

/// Integer slots of a kernel frame.
pub type Env = Vec<i64>;

/// Where a component's values are: a one-argument game's array, or a
/// two-argument game's array with its row stride.
pub(super) fn values_of(
    store: &Store,
    game: GameId,
    arity: usize,
) -> Option<(&[u32], usize, usize)> {
    if arity == 1 {
        let v = store.dense1_values(game)?;
        Some((v, 1, v.len()))
    } else {
        let (v, cols) = store.dense2_values(game)?;
        Some((v, cols, v.len().checked_div(cols)?))
    }
}

/// The most loop values one kernel run steps through one by one: a kernel
/// cannot look at Ctrl-C or the limits, so a longer loop (an `if` that
/// filters nearly everything out of a huge range) is left to the general
/// evaluator, which does.
pub(super) const MAX_STEPS: u64 = 1 << 22;

/// One more loop value; `None` (give up) past [`MAX_STEPS`].
#[inline(always)]
pub(super) fn step(steps: &mut u64) -> Option<()> {
    *steps += 1;
    (*steps <= MAX_STEPS).then_some(())
}

impl KRule {
    /// Inserts the value of every option of this rule into `seen`. `env`
    /// holds the parameters (and room for every slot). Returns `None` if it
    /// gave up; the general evaluator must then run the rule.
    pub fn run(&self, store: &Store, env: &mut [i64], seen: &mut impl SeenSet) -> Option<()> {
        // The fused loops regroup arithmetic on the strength of the slots'
        // domains, which assume the parameters of a dense position: for a
        // position stored otherwise (a huge argument) the kernel gives up.
        let params = env.get(..self.arity)?;
        if !params
            .iter()
            .zip(&self.dom)
            .all(|(v, (lo, hi))| (*lo..=*hi).contains(&i128::from(*v)))
        {
            return None;
        }
        let mut steps = 0;
        let done = self.clauses_from(0, store, env, seen, &mut steps);
        seen.spent(steps);
        done.map(|_| ())
    }

    /// The clauses from `d` on: `Some(false)` where a `while` ended the
    /// nearest loop, `None` where the kernel gave up.
    pub(super) fn clauses_from(
        &self,
        d: usize,
        store: &Store,
        env: &mut [i64],
        seen: &mut impl SeenSet,
        steps: &mut u64,
    ) -> Option<bool> {
        let Some(clause) = self.clauses.get(d) else {
            return self.emit(store, env, seen).map(|()| true);
        };
        let is_fused_loop = self.fused_at == Some(d);
        match clause {
            KClause::If(c) => {
                if c.eval(env)? {
                    return self.clauses_from(d + 1, store, env, seen, steps);
                }
                Some(true)
            }
            KClause::While(c) => {
                if c.eval(env)? {
                    return self.clauses_from(d + 1, store, env, seen, steps);
                }
                Some(false)
            }
            KClause::Range {
                slot,
                lo,
                hi,
                inclusive,
            } => {
                let lo = lo.eval(env)?;
                let hi = hi.eval(env)?;
                let hi = if *inclusive { hi } else { hi.checked_sub(1)? };
                if is_fused_loop && let Some(f) = &self.fused {
                    return fused_loop(f, lo, hi, *slot, store, env, seen).map(|()| true);
                }
                let mut x = lo;
                while x <= hi {
                    step(steps)?;
                    *env.get_mut(*slot as usize)? = x;
                    if !self.clauses_from(d + 1, store, env, seen, steps)? {
                        break;
                    }
                    x = x.checked_add(1)?;
                }
                Some(true)
            }
            KClause::List { slot, items } => {
                if is_fused_loop && let Some(f) = &self.fused {
                    return fused_list(f, items, *slot, store, env, seen).map(|()| true);
                }
                for &x in items.iter() {
                    step(steps)?;
                    *env.get_mut(*slot as usize)? = x;
                    if !self.clauses_from(d + 1, store, env, seen, steps)? {
                        break;
                    }
                }
                Some(true)
            }
            KClause::Parts {
                slot,
                mask,
                adj,
                grid,
            } => {
                let mask = mask.eval(env)?;
                for_parts(mask, adj, *grid, *slot, env, steps, &mut |env, steps| {
                    self.clauses_from(d + 1, store, env, seen, steps)
                })
                .map(|()| true)
            }
        }
    }

    pub(super) fn emit(&self, store: &Store, env: &[i64], seen: &mut impl SeenSet) -> Option<()> {
        let mut v = 0u32;
        for c in &self.comps {
            let (values, stride, rows) = values_of(store, c.game, c.args.len())?;
            let i = match c.args.as_slice() {
                [n] => usize::try_from(n.eval(env)?).ok()?,
                [a, b] => {
                    let (a, b) = (
                        usize::try_from(a.eval(env)?).ok()?,
                        usize::try_from(b.eval(env)?).ok()?,
                    );
                    if a >= rows || b >= stride {
                        return None;
                    }
                    a * stride + b
                }
                _ => return None,
            };
            let w = *values.get(i)?;
            // Checked one by one: two sentinels would cancel in the XOR.
            if w & SENTINEL_BIT != 0 {
                return None;
            }
            v ^= w;
        }
        seen.insert(v);
        Some(())
    }
}

/// Runs `f` with each part of the board `mask` (joined by `adj`, as
/// `components` groups them) in `slot`, lowest first, until `f` says
/// `Some(false)` (a `while` ended the loop); `None` where the builtin would
/// report an error.
fn for_parts(
    mask: i64,
    adj: &[i64],
    grid: Option<crate::board::Grid>,
    slot: u32,
    env: &mut [i64],
    steps: &mut u64,
    f: &mut dyn FnMut(&mut [i64], &mut u64) -> Option<bool>,
) -> Option<()> {
    let mut rest = u64::try_from(mask).ok()?;
    // The builtin finds every part, and every error, before the loop runs:
    // a vertex without a neighbour mask gives up before any option.
    match &grid {
        Some(grid) => {
            if !grid.holds(rest) {
                return None;
            }
        }
        None => {
            let mut bits = rest;
            while bits != 0 {
                let v = bits.trailing_zeros() as usize;
                bits &= bits - 1;
                if *adj.get(v)? < 0 {
                    return None;
                }
            }
        }
    }
    while rest != 0 {
        step(steps)?;
        let part = match &grid {
            Some(grid) => grid.part_of(rest)?,
            None => crate::board::part_of(rest, |v| adj.get(v).copied()).ok()?,
        };
        rest &= !part;
        *env.get_mut(slot as usize)? = part as i64;
        if !f(env, steps)? {
            break;
        }
    }
    Some(())
}

/// One component of a fused loop, ready to read.
#[derive(Clone, Copy)]
pub(super) struct Prepared<'a> {
    values: &'a [u32],
    /// Argument forms `(c, s)`, and the bound each argument must stay below.
    forms: [(i64, i64); 2],
    limits: [i64; 2],
    arity: usize,
    /// The flat index as `base + step·x`.
    base: i64,
    step: i64,
}

pub(super) const UNPREPARED: Prepared<'static> = Prepared {
    values: &[],
    forms: [(0, 0); 2],
    limits: [0; 2],
    arity: 0,
    base: 0,
    step: 0,
};

/// Evaluates the per-iteration constants of every component into `out`
/// (written in place: this runs once per position on the hottest path).
pub(super) fn prepare<'a>(
    f: &Fused,
    store: &'a Store,
    env: &[i64],
    out: &mut [Prepared<'a>; MAX_FUSED],
) -> Option<()> {
    for (slot, (game, args)) in out.iter_mut().zip(&f.comps) {
        let (values, stride, rows) = values_of(store, *game, args.len())?;
        slot.values = values;
        slot.arity = args.len();
        for (form, a) in slot.forms.iter_mut().zip(args) {
            form.0 = a.c.eval(env)?;
            form.1 = a.s;
        }
        if args.len() == 1 {
            slot.limits[0] = i64::try_from(values.len()).ok()?;
            slot.base = slot.forms[0].0;
            slot.step = slot.forms[0].1;
        } else {
            let (stride, rows) = (i64::try_from(stride).ok()?, i64::try_from(rows).ok()?);
            slot.limits = [rows, stride];
            let [(ca, sa), (cb, sb)] = slot.forms;
            slot.base = ca.checked_mul(stride)?.checked_add(cb)?;
            slot.step = sa.checked_mul(stride)?.checked_add(sb)?;
        }
    }
    Some(())
}

/// A fused loop over a constant list (subtraction sets): each element is
/// checked against the folded conditions and the arrays' bounds.
pub(super) fn fused_list(
    f: &Fused,
    items: &[i64],
    x: u32,
    store: &Store,
    env: &mut [i64],
    seen: &mut impl SeenSet,
) -> Option<()> {
    *env.get_mut(x as usize)? = 0;
    let mut bounds = [(BinOp::Eq, 0i128, 0i128); 8];
    if f.bounds.len() > bounds.len() {
        return None;
    }
    for (slot, b) in bounds.iter_mut().zip(&f.bounds) {
        *slot = (b.op, i128::from(b.d.c.eval(env)?), i128::from(b.d.s));
    }
    let bounds = &bounds[..f.bounds.len()];
    let mut comps = [UNPREPARED; MAX_FUSED];
    prepare(f, store, env, &mut comps)?;
    let comps = &comps[..f.comps.len()];
    'items: for &x in items {
        let x = i128::from(x);
        if !bounds.iter().all(|&(op, c, s)| holds(op, s * x + c)) {
            continue 'items;
        }
        let mut v = 0u32;
        for comp in comps {
            for (&(c, s), &lim) in comp.forms[..comp.arity].iter().zip(&comp.limits) {
                let a = i128::from(c) + i128::from(s) * x;
                if a < 0 || a >= i128::from(lim) {
                    return None;
                }
            }
            let i = i128::from(comp.base) + i128::from(comp.step) * x;
            let w = *comp.values.get(usize::try_from(i).ok()?)?;
            if w & SENTINEL_BIT != 0 {
                return None;
            }
            v ^= w;
        }
        seen.insert(v);
    }
    Some(())
}

/// The values read for `x = lo..=hi`: a slice whose every `stride`-th
/// element is read, and whether they come in the order of `x` (`true`) or
/// reversed. Both ends were checked to be in range.
pub(super) fn strided<'a>(
    p: &(&'a [u32], i128, i128),
    lo: i64,
    hi: i64,
) -> Option<(&'a [u32], usize, bool)> {
    let (v, base, step) = (p.0, p.1, p.2);
    let (a, b) = (base + step * i128::from(lo), base + step * i128::from(hi));
    let (from, to) = (a.min(b), a.max(b));
    let stride = usize::try_from(step.unsigned_abs()).ok()?.max(1);
    let slice = v.get(usize::try_from(from).ok()?..=usize::try_from(to).ok()?)?;
    Some((slice, stride, step >= 0))
}

/// Inserts each value XOR `fixed`; gives up if any value read was a sentinel.
#[inline(always)]
pub(super) fn single_loop(
    values: impl Iterator<Item = u32>,
    fixed: u32,
    seen: &mut impl SeenSet,
) -> Option<()> {
    let read = seen.insert_all(values.map(|v| (v, v ^ fixed)));
    (read & SENTINEL_BIT == 0).then_some(())
}

/// Inserts `a ^ b ^ fixed` for each pair; gives up (after the loop, to keep
/// the loop free of branches) if any value read was a sentinel.
#[inline(always)]
pub(super) fn pair_loop<'a>(
    pairs: impl Iterator<Item = (&'a u32, &'a u32)>,
    fixed: u32,
    seen: &mut impl SeenSet,
) -> Option<()> {
    let read = seen.insert_all(pairs.map(|(&a, &b)| (a | b, a ^ b ^ fixed)));
    (read & SENTINEL_BIT == 0).then_some(())
}

/// Whether `d OP 0` (the operators of linear bounds).
pub(super) fn holds(op: BinOp, d: i128) -> bool {
    match op {
        BinOp::Lt => d < 0,
        BinOp::Le => d <= 0,
        BinOp::Gt => d > 0,
        BinOp::Ge => d >= 0,
        _ => d == 0,
    }
}

/// Narrows `lo..=hi` to the `x` with `s·x + c OP 0`.
pub(super) fn fold_bound(op: BinOp, c: i128, s: i128, lo: &mut i128, hi: &mut i128) {
    // Each case as `a·x <= k` constraints.
    let mut le = |a: i128, k: i128| {
        if a == 0 {
            if k < 0 {
                *hi = *lo - 1;
            }
        } else if a > 0 {
            *hi = (*hi).min(div_floor(k, a));
        } else {
            *lo = (*lo).max(-div_floor(k, -a));
        }
    };
    match op {
        BinOp::Lt => le(s, -c - 1),
        BinOp::Le => le(s, -c),
        BinOp::Gt => le(-s, c - 1),
        BinOp::Ge => le(-s, c),
        _ => {
            le(s, -c);
            le(-s, c);
        }
    }
}

/// The fused innermost loop: bounds narrowed by the linear conditions, then a
/// straight pass reading the dense arrays at affine indices.
pub(super) fn fused_loop(
    f: &Fused,
    lo: i64,
    hi: i64,
    x: u32,
    store: &Store,
    env: &mut [i64],
    seen: &mut impl SeenSet,
) -> Option<()> {
    let (mut lo, mut hi) = (i128::from(lo), i128::from(hi));
    *env.get_mut(x as usize)? = 0;
    for b in &f.bounds {
        fold_bound(
            b.op,
            i128::from(b.d.c.eval(env)?),
            i128::from(b.d.s),
            &mut lo,
            &mut hi,
        );
    }
    if lo > hi {
        return Some(());
    }
    // Each component: a slice and `index(x) = base + step·x`, checked at both
    // ends (affine, so everything between is in range too).
    let mut comps = [UNPREPARED; MAX_FUSED];
    prepare(f, store, env, &mut comps)?;
    let mut parts = [(&[][..], 0i128, 0i128); MAX_FUSED];
    for (part, comp) in parts.iter_mut().zip(&comps[..f.comps.len()]) {
        for (&(c, s), &lim) in comp.forms[..comp.arity].iter().zip(&comp.limits) {
            for end in [lo, hi] {
                let v = i128::from(c) + i128::from(s) * end;
                if v < 0 || v >= i128::from(lim) {
                    return None;
                }
            }
        }
        *part = (comp.values, i128::from(comp.base), i128::from(comp.step));
    }
    affine_loop(&parts[..f.comps.len()], lo, hi, seen)
}

/// Inserts, for each `x` in `lo..=hi`, the XOR of `values[base + step·x]`
/// over the parts (every index was checked to be in range at both ends).
pub(super) fn affine_loop(
    parts: &[(&[u32], i128, i128)],
    lo: i128,
    hi: i128,
    seen: &mut impl SeenSet,
) -> Option<()> {
    let (lo, hi) = (i64::try_from(lo).ok()?, i64::try_from(hi).ok()?);
    if lo > hi {
        return Some(());
    }
    // Parts that do not move with `x` are read once; their XOR is `fixed`.
    let mut fixed = 0u32;
    let mut moving = [(&[][..], 0i128, 0i128); MAX_FUSED];
    let mut n = 0;
    for p in parts {
        if p.2 == 0 {
            let w = *p.0.get(usize::try_from(p.1).ok()?)?;
            if w & SENTINEL_BIT != 0 {
                return None;
            }
            fixed ^= w;
        } else {
            *moving.get_mut(n)? = *p;
            n += 1;
        }
    }
    match &moving[..n] {
        [] => seen.insert(fixed),
        [p] => {
            // The order does not matter for a set.
            let (a, sa, _) = strided(p, lo, hi)?;
            single_loop(a.iter().step_by(sa).copied(), fixed, seen)?;
        }
        [p, q] => {
            // The hot loop of take-and-break games: two reads and a XOR.
            let (a, sa, fa) = strided(p, lo, hi)?;
            let (b, sb, fb) = strided(q, lo, hi)?;
            if (sa, sb) == (1, 1) {
                // Plain slices: no stepping, and the compiler sees the bounds.
                if fa == fb {
                    pair_loop(a.iter().zip(b.iter()), fixed, seen)?;
                } else {
                    pair_loop(a.iter().zip(b.iter().rev()), fixed, seen)?;
                }
            } else if fa == fb {
                pair_loop(a.iter().step_by(sa).zip(b.iter().step_by(sb)), fixed, seen)?;
            } else {
                pair_loop(
                    a.iter().step_by(sa).zip(b.iter().step_by(sb).rev()),
                    fixed,
                    seen,
                )?;
            }
        }
        ps => {
            for x in lo..=hi {
                let mut v = fixed;
                for p in ps {
                    let i = p.1 + p.2 * i128::from(x);
                    let w = *p.0.get(usize::try_from(i).ok()?)?;
                    if w & SENTINEL_BIT != 0 {
                        return None;
                    }
                    v ^= w;
                }
                seen.insert(v);
            }
        }
    }
    Some(())
}

/// One component of an option listed by [`KRule::options`]: its game, its
/// arguments (the first `arity` of them).
pub type KPos = (GameId, [i64; MAX_ARGS], usize);

/// The most arguments a kernel's component may have (one or two are read
/// from the dense arrays; more only listed, by the games' tables).
pub const MAX_ARGS: usize = 4;

impl KRule {
    /// Lists this rule's options at a position, in the general evaluator's
    /// order: `emit` gets each option's components. `env` holds the
    /// parameters (and room for every slot); `steps` counts the loop values
    /// stepped through (the work done). `None`: it gave up (a value the
    /// interpreter would report an error for, or too many loop values), or
    /// `emit` did; the general evaluator must list them.
    pub fn options(
        &self,
        env: &mut [i64],
        comps: &mut Vec<KPos>,
        emit: &mut dyn FnMut(&[KPos]) -> Option<()>,
        steps: &mut u64,
    ) -> Option<()> {
        self.options_from(0, env, comps, emit, steps).map(|_| ())
    }

    /// The options from clause `d` on: `Some(false)` where a `while` ended
    /// the nearest loop, `None` where the kernel gave up.
    fn options_from(
        &self,
        d: usize,
        env: &mut [i64],
        comps: &mut Vec<KPos>,
        emit: &mut dyn FnMut(&[KPos]) -> Option<()>,
        steps: &mut u64,
    ) -> Option<bool> {
        if d >= self.tail {
            return self.option_at(d, env, comps, emit).map(|()| true);
        }
        let clause = self.clauses.get(d)?;
        match clause {
            KClause::If(_) => {
                let c = self.fast.conds.get(d)?.as_ref()?;
                if c.eval(env)? {
                    return self.options_from(d + 1, env, comps, emit, steps);
                }
            }
            KClause::While(_) => {
                let c = self.fast.conds.get(d)?.as_ref()?;
                if c.eval(env)? {
                    return self.options_from(d + 1, env, comps, emit, steps);
                }
                return Some(false);
            }
            KClause::Range {
                slot,
                lo,
                hi,
                inclusive,
            } => {
                let lo = lo.eval(env)?;
                let hi = hi.eval(env)?;
                let hi = if *inclusive { hi } else { hi.checked_sub(1)? };
                let slot = *slot as usize;
                env.get(slot)?;
                // A bit test after the loop: only the values that pass it,
                // by their bits (when every value's shift is in range).
                let test = self.bit_test(d, env).filter(|_| lo <= hi);
                if let Some((test, word)) = test
                    && let (Some(a), Some(b)) = (test.bit(lo), test.bit(hi))
                {
                    let mut bits = (word >> a) & (u64::MAX >> (63 - (b - a)));
                    while bits != 0 {
                        step(steps)?;
                        env[slot] = lo + i64::from(bits.trailing_zeros());
                        if !self.go_on(d + 2, env, comps, emit, steps)? {
                            break;
                        }
                        bits &= bits - 1;
                    }
                    return Some(true);
                }
                let mut x = lo;
                while x <= hi {
                    step(steps)?;
                    env[slot] = x;
                    if !self.options_from(d + 1, env, comps, emit, steps)? {
                        break;
                    }
                    x = x.checked_add(1)?;
                }
            }
            KClause::List { slot, items } => {
                let slot = *slot as usize;
                env.get(slot)?;
                let test = if items.is_empty() {
                    None
                } else {
                    self.bit_test(d, env)
                };
                // Past the test (when it is one) or past the loop.
                let next = d + 1 + usize::from(test.is_some());
                for &x in items.iter() {
                    step(steps)?;
                    env[slot] = x;
                    let at = match test {
                        Some((test, word)) => match test.bit(x) {
                            Some(j) if word >> j & 1 == 0 => continue,
                            Some(_) => next,
                            // Out of shift range: the test as written reports.
                            None => d + 1,
                        },
                        None => d + 1,
                    };
                    if !self.go_on(at, env, comps, emit, steps)? {
                        break;
                    }
                }
            }
            KClause::Parts {
                slot,
                mask,
                adj,
                grid,
            } => {
                let mask = mask.eval(env)?;
                for_parts(mask, adj, *grid, *slot, env, steps, &mut |env, steps| {
                    self.options_from(d + 1, env, comps, emit, steps)
                })?;
            }
        }
        Some(true)
    }

    /// [`KRule::options_from`] from clause `d`, the option itself without
    /// a call when only conditions are left (a loop's body, per value).
    #[inline(always)]
    fn go_on(
        &self,
        d: usize,
        env: &mut [i64],
        comps: &mut Vec<KPos>,
        emit: &mut dyn FnMut(&[KPos]) -> Option<()>,
        steps: &mut u64,
    ) -> Option<bool> {
        if d >= self.tail {
            self.option_at(d, env, comps, emit).map(|()| true)
        } else {
            self.options_from(d, env, comps, emit, steps)
        }
    }

    /// The bit test right after loop clause `d`, and its word for this
    /// frame; `None` when there is none or its word cannot be evaluated
    /// (the test then runs as written).
    #[inline]
    fn bit_test(&self, d: usize, env: &[i64]) -> Option<(&super::bits::BitTest, u64)> {
        let test = self.fast.bits.get(d)?.as_ref()?;
        Some((test, test.word(env)?))
    }

    /// The one position of a rule with no clauses and one component (a
    /// `canonical`), without a list.
    #[inline]
    pub fn position(&self, env: &[i64]) -> Option<KPos> {
        let ([c], [args_of], 0) = (&self.comps[..], &self.fast.args[..], self.clauses.len()) else {
            return None;
        };
        component(c, args_of, env)
    }

    /// The conditions after the last loop (from clause `d`), and the
    /// option when they hold, in place.
    #[inline(always)]
    fn option_at(
        &self,
        d: usize,
        env: &[i64],
        comps: &mut Vec<KPos>,
        emit: &mut dyn FnMut(&[KPos]) -> Option<()>,
    ) -> Option<()> {
        for c in self.fast.conds.get(d..)?.iter().flatten() {
            if !c.eval(env)? {
                return Some(());
            }
        }
        // One component, the usual case: no list.
        if let ([c], [args_of]) = (&self.comps[..], &self.fast.args[..]) {
            return emit(&[component(c, args_of, env)?]);
        }
        comps.clear();
        for (c, args_of) in self.comps.iter().zip(&self.fast.args) {
            comps.push(component(c, args_of, env)?);
        }
        emit(comps)
    }
}

/// One component of an option, its arguments evaluated.
#[inline(always)]
fn component(c: &KComp, args_of: &[IntCode<[i64]>], env: &[i64]) -> Option<KPos> {
    let mut args = [0i64; MAX_ARGS];
    for (slot, a) in args.iter_mut().zip(args_of) {
        *slot = a.eval(env)?;
    }
    Some((c.game, args, c.args.len()))
}
