//! Window kernels: a one-argument game whose one rule takes it to a window
//! of its own earlier positions, less a few exclusions
//! (`subtraction A = all but {2, 5}`, `A(n - k) for k in 1..=n if k != 3`).
//! Running counts of the values in the window replace re-reading it: each
//! position costs the window's movement plus its exclusions, not its size.

use super::affine::{in_param, of_form};
use super::run::fold_bound;
use super::*;
use crate::linear::Affine;

/// The most exclusions a window kernel takes (each costs two count updates
/// per position).
const MAX_EXCLUSIONS: usize = 64;

/// The compiled window: options `G(c(n) ± x)` for `x` in a range with
/// bounds linear in `n`, under linear conditions, except where one of the
/// exclusions `e(n, x) == 0` holds.
#[derive(Clone, Debug)]
pub(super) struct Window {
    game: GameId,
    /// The range's bounds: the greatest of `lo`, the least of `hi`.
    lo: Vec<Affine>,
    hi: Vec<Affine>,
    inclusive: bool,
    bounds: Vec<(BinOp, Affine)>,
    /// `x != …` conditions, as `k + kn·n + s·x != 0`.
    exclusions: Vec<Affine>,
    /// The option's position, `k + kn·n + s·x` with `s = ±1`.
    comp: Affine,
}

/// The counts a window kernel keeps between runs: the values of the
/// positions in `lo..hi` of one game's array, valid for computing position
/// `at.1` of game `at.0`.
#[derive(Clone, Debug, Default)]
pub struct Counts {
    at: Option<(GameId, usize)>,
    lo: usize,
    hi: usize,
    counts: Vec<u32>,
    /// Bit `v` set when `counts[v] > 0`.
    present: Vec<u64>,
    /// Bit `w` set when word `w` of `present` is full: the mex is found in
    /// a 4096th of the values.
    full: Vec<u64>,
}

impl Counts {
    /// Forgets everything (the program changed, or a run broke off).
    pub fn reset(&mut self) {
        *self = Counts::default();
    }

    fn add(&mut self, v: u32) -> Option<()> {
        if v & SENTINEL_BIT != 0 {
            return None;
        }
        let i = v as usize;
        if i >= self.counts.len() {
            let len = (i + 1).next_power_of_two().max(4096);
            self.counts.resize(len, 0);
            self.present.resize(len / 64, 0);
            self.full.resize(len / 4096, 0);
        }
        self.counts[i] += 1;
        if self.counts[i] == 1 {
            let w = &mut self.present[i / 64];
            *w |= 1 << (i % 64);
            if *w == u64::MAX {
                self.full[i / 4096] |= 1 << (i / 64 % 64);
            }
        }
        Some(())
    }

    fn remove(&mut self, v: u32) {
        let i = v as usize;
        self.counts[i] -= 1;
        if self.counts[i] == 0 {
            self.present[i / 64] &= !(1 << (i % 64));
            self.full[i / 4096] &= !(1 << (i / 64 % 64));
        }
    }

    /// Moves the window to `lo..hi` of `values`; the work done.
    fn slide(&mut self, values: &[u32], lo: usize, hi: usize) -> Option<u64> {
        let (old_lo, old_hi) = (self.lo, self.hi);
        let overlap = lo.max(old_lo) < hi.min(old_hi);
        if !overlap || (lo.abs_diff(old_lo) + hi.abs_diff(old_hi)) > hi - lo {
            // Cheaper to count afresh.
            let work = self.counts.len() / 64 + (hi - lo);
            self.counts.iter_mut().for_each(|c| *c = 0);
            self.present.iter_mut().for_each(|w| *w = 0);
            self.full.iter_mut().for_each(|w| *w = 0);
            for &v in &values[lo..hi] {
                self.add(v)?;
            }
            (self.lo, self.hi) = (lo, hi);
            return Some(work as u64 + 1);
        }
        for &v in &values[lo.min(old_lo)..old_lo] {
            self.add(v)?;
        }
        for &v in &values[old_hi..hi.max(old_hi)] {
            self.add(v)?;
        }
        for &v in &values[old_lo..lo.max(old_lo)] {
            self.remove(v);
        }
        for &v in &values[hi.min(old_hi)..old_hi] {
            self.remove(v);
        }
        (self.lo, self.hi) = (lo, hi);
        Some((lo.abs_diff(old_lo) + hi.abs_diff(old_hi)) as u64 + 1)
    }

    /// The least value with a zero count.
    fn mex(&self) -> u32 {
        // The first word of `present` that is not full, then its first
        // value missing.
        let word = crate::mex::first_zero(&self.full, 0) as usize;
        match self.present.get(word) {
            Some(&p) => (word * 64 + p.trailing_ones() as usize) as u32,
            None => self.counts.len() as u32,
        }
    }
}

impl Window {
    /// The window form of a game's rules: exactly one rule, a range loop
    /// with conditions linear in its variable or `!=` one, and one option of
    /// the game itself one step of the variable apart per step.
    /// Whether the window is every smaller heap, `0..n`, for every `n`
    /// (one position each, no bound or exclusion): the game is Nim, and
    /// `G(n)` is the heap `*n` (in misère play too).
    pub(super) fn is_nim(&self) -> bool {
        let ([lo], [hi]) = (self.lo.as_slice(), self.hi.as_slice()) else {
            return false;
        };
        if !self.bounds.is_empty() || !self.exclusions.is_empty() || lo.a != 0 || hi.a != 0 {
            return false;
        }
        // The greatest x, inclusive.
        let top = Affine {
            k: if self.inclusive { hi.k } else { hi.k - 1 },
            ..*hi
        };
        let c = self.comp;
        // x runs over lo..=top; the heap left is c.k + c.n·n + c.a·x, which
        // must run over exactly 0..=n - 1.
        match c.a {
            1 => c.k + lo.k == 0 && c.n + lo.n == 0 && c.k + top.k == -1 && c.n + top.n == 1,
            -1 => c.k - top.k == 0 && c.n - top.n == 0 && c.k - lo.k == -1 && c.n - lo.n == 1,
            _ => false,
        }
    }

    pub(super) fn of(game: GameId, rules: &[Option<KRule>]) -> Option<Window> {
        let [Some(r)] = rules else { return None };
        let (
            KClause::Range {
                slot: x,
                lo,
                hi,
                inclusive,
            },
            rest,
        ) = r.clauses.split_first()?
        else {
            return None;
        };
        let [k] = r.comps.as_slice() else {
            return None;
        };
        let [arg] = k.args.as_slice() else {
            return None;
        };
        if k.game != game {
            return None;
        }
        interval(arg, &r.dom)?;
        let comp = of_form(&Form::of(arg, *x)?)?;
        if comp.a.abs() != 1 {
            return None;
        }
        let mut bounds = Vec::new();
        let mut exclusions = Vec::new();
        for c in rest {
            let KClause::If(cond) = c else { return None };
            cond_safe(cond, &r.dom)?;
            conditions(cond, *x, &mut bounds, &mut exclusions)?;
        }
        if exclusions.len() > MAX_EXCLUSIONS {
            return None;
        }
        Some(Window {
            game,
            lo: linear_parts(lo, &r.dom, true)?,
            hi: linear_parts(hi, &r.dom, false)?,
            inclusive: *inclusive,
            bounds: bounds
                .iter()
                .map(|b: &LoopBound| Some((b.op, of_form(&b.d)?)))
                .collect::<Option<_>>()?,
            exclusions: exclusions.iter().map(of_form).collect::<Option<_>>()?,
            comp,
        })
    }

    /// Computes `values[n]` for `n` in `from..to` as [`Batch::run`] does;
    /// the window's counts carry over from the last run when it stopped at
    /// `from`.
    pub(super) fn run(
        &self,
        values: &mut [u32],
        from: usize,
        to: usize,
        seen: &mut Stamped,
        counts: &mut Counts,
        max_value: &mut u32,
    ) -> (usize, usize) {
        let game = self.game;
        if counts.at != Some((game, from)) {
            counts.reset();
        }
        let mut stored = 0;
        let start = seen.inserted();
        let to = to.min(values.len());
        for n in from..to {
            counts.at = None;
            if seen.inserted() - start >= CHUNK_WORK {
                return (n, stored);
            }
            match values[n] {
                UNKNOWN => {}
                v if v & SENTINEL_BIT != 0 => return (n, stored),
                _ => {
                    // Known already; the counts stay those of their window.
                    counts.at = Some((game, n + 1));
                    continue;
                }
            }
            let Some((v, work)) = self.value(values, n, counts) else {
                return (n, stored);
            };
            seen.spent(work);
            values[n] = v;
            *max_value = (*max_value).max(v);
            stored += 1;
            counts.at = Some((game, n + 1));
        }
        (to, stored)
    }

    /// The value at `n` and the work it took; `None` where the window
    /// leaves `0..n` or meets a value not known.
    fn value(&self, values: &[u32], n: usize, counts: &mut Counts) -> Option<(u32, u64)> {
        let at = n as i64;
        let mut lo = i128::MIN;
        for a in &self.lo {
            lo = lo.max(i128::from(a.at(at)?));
        }
        let mut hi = i128::MAX;
        for a in &self.hi {
            hi = hi.min(i128::from(a.at(at)?) - i128::from(!self.inclusive));
        }
        for (op, b) in &self.bounds {
            fold_bound(
                *op,
                i128::from(b.at(at)?),
                i128::from(b.a),
                &mut lo,
                &mut hi,
            );
        }
        if lo > hi {
            // No options; the counts stay those of the last window.
            return Some((0, 1));
        }
        // Positions `c + s·x` for `x` in `lo..=hi`.
        let c = i128::from(self.comp.at(at)?);
        let s = i128::from(self.comp.a);
        let (a, b) = (c + s * lo, c + s * hi);
        let (plo, phi) = (a.min(b), a.max(b));
        if plo < 0 || phi >= i128::from(at) {
            return None;
        }
        let work = counts.slide(values, plo as usize, phi as usize + 1)?;
        // The exclusions that fall in the window, each position once.
        let mut out = [0usize; MAX_EXCLUSIONS];
        let mut len = 0;
        for e in &self.exclusions {
            let k = i128::from(e.at(at)?);
            let es = i128::from(e.a);
            if es == 0 {
                if k == 0 {
                    // `k != 0` is false for every x: no options at all.
                    return Some((0, work));
                }
                continue;
            }
            if k % es != 0 {
                continue;
            }
            let x = -k / es;
            if x < lo || x > hi {
                continue;
            }
            let p = (c + s * x) as usize;
            if !out[..len].contains(&p) {
                out[len] = p;
                len += 1;
            }
        }
        let mut best = u32::MAX;
        for &p in &out[..len] {
            let v = values[p];
            let cnt = &mut counts.counts[v as usize];
            *cnt -= 1;
            if *cnt == 0 {
                best = best.min(v);
            }
        }
        let v = best.min(counts.mex());
        for &p in &out[..len] {
            counts.counts[values[p] as usize] += 1;
        }
        Some((v, work + len as u64))
    }
}

/// A range bound as affine forms in `n`: itself, or the parts of a `max`
/// (a lower bound, `lower`) or a `min` (an upper one).
fn linear_parts(e: &IntExpr, dom: &[(i128, i128)], lower: bool) -> Option<Vec<Affine>> {
    let parts = match e {
        IntExpr::Max(parts) if lower => parts.as_slice(),
        IntExpr::Min(parts) if !lower => parts.as_slice(),
        _ => std::slice::from_ref(e),
    };
    if parts.is_empty() {
        return None;
    }
    parts
        .iter()
        .map(|p| {
            interval(p, dom)?;
            in_param(&Lin::of(p.clone()))
        })
        .collect()
}

/// Splits a rule's condition into linear bounds on `x` and `!=` exclusions
/// (`not` pushed inwards: `not any(k == f for f in L)` excludes each item).
fn conditions(
    c: &BoolExpr,
    x: u32,
    bounds: &mut Vec<LoopBound>,
    exclusions: &mut Vec<Form>,
) -> Option<()> {
    match c {
        BoolExpr::And(a, b) => {
            conditions(a, x, bounds, exclusions)?;
            conditions(b, x, bounds, exclusions)
        }
        BoolExpr::Const(true) => Some(()),
        BoolExpr::Cmp(BinOp::Ne, l, r) => {
            let d = IntExpr::Bin(BinOp::Sub, Box::new(l.clone()), Box::new(r.clone()));
            exclusions.push(Form::of(&d, x)?);
            Some(())
        }
        BoolExpr::Not(a) => conditions(&negated(a)?, x, bounds, exclusions),
        _ => linear_bounds(c, x, bounds),
    }
}

/// `not c` without the `not`, where it is a conjunction of comparisons.
fn negated(c: &BoolExpr) -> Option<BoolExpr> {
    Some(match c {
        BoolExpr::Const(b) => BoolExpr::Const(!b),
        BoolExpr::Not(a) => (**a).clone(),
        BoolExpr::Or(a, b) => BoolExpr::And(Box::new(negated(a)?), Box::new(negated(b)?)),
        BoolExpr::Cmp(op, l, r) => {
            let op = match op {
                BinOp::Eq => BinOp::Ne,
                BinOp::Ne => BinOp::Eq,
                BinOp::Lt => BinOp::Ge,
                BinOp::Le => BinOp::Gt,
                BinOp::Gt => BinOp::Le,
                BinOp::Ge => BinOp::Lt,
                _ => return None,
            };
            BoolExpr::Cmp(op, l.clone(), r.clone())
        }
        BoolExpr::And(..) | BoolExpr::SlotIndex(..) | BoolExpr::Index(..) => return None,
    })
}
