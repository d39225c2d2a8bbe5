//! Kernels: move rules of common shapes compiled to tight loops over the dense
//! value arrays, used whenever every option's value is already known.
//!
//! A rule qualifies when its clauses are `for` over ranges or constant integer
//! lists and `if` over integer arithmetic, and its body is a sum of positions
//! of one- or two-argument games with integer arguments. Its innermost `for`
//! is *fused* when the trailing `if`s are linear inequalities in the loop
//! variable (folded into the loop bounds) and every argument is affine in it:
//! the loop then reads `values[c + s·x]` directly, as hand-written code would.
//!
//! A kernel never reports errors: on anything unusual (an unknown value, an
//! index outside the dense arrays, an overflow) it gives up and the general
//! evaluator runs the rule instead, and reports whatever there is to report.
//! A kernel may insert values computed from sentinels before it notices and
//! gives up, so callers run it into a scratch set and keep it on success only.

use crate::compiled::{self, BoolExpr, IntExpr};
use crate::ir::{self, BinOp, Clause, ExprId, GameId};
use crate::mex::{SeenSet, Stamped};
use crate::ops::div_floor_wide as div_floor;
use crate::store::{SENTINEL_BIT, Store, UNKNOWN};
use crate::value::Value;
use std::rc::Rc;

#[derive(Clone, Debug)]
enum KClause {
    Range {
        slot: u32,
        lo: IntExpr,
        hi: IntExpr,
        inclusive: bool,
    },
    List {
        slot: u32,
        items: Rc<[i64]>,
    },
    If(BoolExpr),
}

/// One component of an option: a position of a dense game.
#[derive(Clone, Debug)]
struct KComp {
    game: GameId,
    args: Vec<IntExpr>,
}

/// `c + s·x` with `c` computed per outer iteration and `s` fixed.
#[derive(Clone, Debug)]
struct Affine {
    c: IntExpr,
    s: i64,
}

/// A loop-invariant part, as `k + Σ coef·slot` when it is linear (evaluated
/// without walking a tree), else as an expression.
#[derive(Clone, Debug)]
enum Lin {
    Sum { k: i64, terms: Vec<(u32, i64)> },
    Expr(IntExpr),
}

impl Lin {
    fn of(e: IntExpr) -> Lin {
        fn linear(e: &IntExpr) -> Option<(i64, Vec<(u32, i64)>)> {
            Some(match e {
                IntExpr::Const(v) => (*v, Vec::new()),
                IntExpr::Slot(s) => (0, vec![(*s, 1)]),
                IntExpr::Neg(a) => {
                    let (k, t) = linear(a)?;
                    (
                        k.checked_neg()?,
                        t.into_iter()
                            .map(|(s, c)| Some((s, c.checked_neg()?)))
                            .collect::<Option<_>>()?,
                    )
                }
                IntExpr::Bin(op @ (BinOp::Add | BinOp::Sub), a, b) => {
                    let (ka, mut ta) = linear(a)?;
                    let (kb, tb) = linear(b)?;
                    let sign = if *op == BinOp::Add { 1 } else { -1 };
                    for (s, c) in tb {
                        ta.push((s, c.checked_mul(sign)?));
                    }
                    (ka.checked_add(kb.checked_mul(sign)?)?, ta)
                }
                IntExpr::Bin(BinOp::Mul, a, b) => match (&**a, &**b) {
                    (IntExpr::Const(m), other) | (other, IntExpr::Const(m)) => {
                        let (k, t) = linear(other)?;
                        (
                            k.checked_mul(*m)?,
                            t.into_iter()
                                .map(|(s, c)| Some((s, c.checked_mul(*m)?)))
                                .collect::<Option<_>>()?,
                        )
                    }
                    _ => return None,
                },
                _ => return None,
            })
        }
        match linear(&e) {
            Some((k, terms)) => Lin::Sum { k, terms },
            None => Lin::Expr(e),
        }
    }

    #[inline]
    fn eval(&self, env: &[i64]) -> Option<i64> {
        match self {
            Lin::Sum { k, terms } => {
                let mut v = *k;
                for &(s, c) in terms {
                    v = v.checked_add(env.get(s as usize)?.checked_mul(c)?)?;
                }
                Some(v)
            }
            Lin::Expr(e) => e.eval(env),
        }
    }
}

/// An affine form `c + s·x` ready to evaluate.
#[derive(Clone, Debug)]
struct Form {
    c: Lin,
    s: i64,
}

impl From<Affine> for Form {
    fn from(a: Affine) -> Form {
        Form {
            c: Lin::of(a.c),
            s: a.s,
        }
    }
}

/// A linear constraint `D(x) OP 0` folded into the loop bounds.
#[derive(Clone, Debug)]
struct Bound {
    op: BinOp,
    d: Form,
}

/// The innermost loop, fused.
#[derive(Clone, Debug)]
struct Fused {
    /// Linear conditions folded into the bounds.
    bounds: Vec<Bound>,
    /// Per component, its arguments as affine forms in the loop variable.
    comps: Vec<(GameId, Vec<Form>)>,
}

/// A compiled rule.
#[derive(Clone, Debug)]
pub struct KRule {
    clauses: Vec<KClause>,
    comps: Vec<KComp>,
    fused: Option<Fused>,
    /// The index of the clause `fused` replaces, when there is one.
    fused_at: Option<usize>,
    /// The domain of each slot (see [`domains`]).
    dom: Vec<(i128, i128)>,
    /// How many parameters the rule's game has (the first slots).
    arity: usize,
}

/// The kernels of one game: one per rule that qualifies.
#[derive(Clone, Debug, Default)]
pub struct GameKernels {
    /// Per rule, its kernel if it has one.
    pub rules: Vec<Option<KRule>>,
    /// Whether every rule has a kernel (the whole value can be computed by
    /// kernels alone).
    pub complete: bool,
    /// Integer slots a frame needs.
    pub slots: usize,
    /// For one-argument games of the simplest shapes, the whole value
    /// computation as one loop over positions.
    pub batch: Option<Rc<Batch>>,
}

/// Compiles the kernels of every game. `consts` are the evaluated constants
/// (`None` where the definition failed).
pub fn compile(prog: &ir::Program, consts: &[Option<Value>]) -> Vec<GameKernels> {
    prog.games
        .iter()
        .enumerate()
        .map(|(id, g)| {
            let rules: Vec<Option<KRule>> = g
                .rules
                .iter()
                .map(|r| {
                    Compiler(compiled::Compiler { prog, consts }).rule(
                        r,
                        g.params.len(),
                        g.slots as usize,
                    )
                })
                .collect();
            let batch = if g.params.len() == 1 {
                Batch::of(id as GameId, &rules).map(Rc::new)
            } else {
                None
            };
            GameKernels {
                complete: rules.iter().all(Option::is_some),
                rules,
                slots: g.slots.max(g.params.len() as u32) as usize,
                batch,
            }
        })
        .collect()
}

/// Compiles rules on top of the expression compiler.
struct Compiler<'a>(compiled::Compiler<'a>);

impl<'a> std::ops::Deref for Compiler<'a> {
    type Target = compiled::Compiler<'a>;
    fn deref(&self) -> &compiled::Compiler<'a> {
        &self.0
    }
}

impl Compiler<'_> {
    fn rule(&self, r: &ir::Rule, arity: usize, slots: usize) -> Option<KRule> {
        let mut clauses = Vec::new();
        for c in &r.clauses {
            clauses.push(match *c {
                Clause::If { cond } => KClause::If(self.cond(cond)?),
                Clause::For { slot, iter } => match self.prog.expr(iter) {
                    ir::Expr::Range { lo, hi, inclusive } => KClause::Range {
                        slot,
                        lo: self.int(*lo)?,
                        hi: self.int(*hi)?,
                        inclusive: *inclusive,
                    },
                    _ => KClause::List {
                        slot,
                        items: self.int_list(iter)?,
                    },
                },
            });
        }
        let mut comps = Vec::new();
        self.body(r.body, &mut comps)?;
        let dom = domains(&clauses, slots.max(arity), arity);
        let fused = fuse(&clauses, &comps, &dom);
        // The fused loop is the last `for` clause.
        let fused_at = fused
            .as_ref()
            .and_then(|_| clauses.iter().rposition(|c| !matches!(c, KClause::If(_))));
        Some(KRule {
            clauses,
            comps,
            fused,
            fused_at,
            dom,
            arity,
        })
    }

    fn body(&self, e: ExprId, out: &mut Vec<KComp>) -> Option<()> {
        match self.prog.expr(e) {
            ir::Expr::EmptyPos => Some(()),
            ir::Expr::PosSum(a, b) => {
                self.body(*a, out)?;
                self.body(*b, out)
            }
            ir::Expr::Apply { game, args } if (1..=2).contains(&args.len()) => {
                let args = args
                    .iter()
                    .map(|&a| self.int(a))
                    .collect::<Option<Vec<_>>>()?;
                out.push(KComp { game: *game, args });
                Some(())
            }
            _ => None,
        }
    }
}

/// Fused loops handle up to this many components per option.
const MAX_FUSED: usize = 4;

/// Coefficients stay small so that `s·x` fits in an `i64` for list items up
/// to 2^40 (the batch kernel's list loop computes in `i64`).
const MAX_COEF: i64 = 1 << 20;

/// `e` as an affine form in slot `x`, if it is one.
fn affine(e: &IntExpr, x: u32) -> Option<Affine> {
    if !mentions(e, x) {
        return Some(Affine { c: e.clone(), s: 0 });
    }
    let bin = |op, a: IntExpr, b: IntExpr| IntExpr::Bin(op, Box::new(a), Box::new(b));
    let r = match e {
        IntExpr::Slot(s) if *s == x => Affine {
            c: IntExpr::Const(0),
            s: 1,
        },
        IntExpr::Neg(a) => {
            let a = affine(a, x)?;
            Affine {
                c: IntExpr::Neg(Box::new(a.c)),
                s: -a.s,
            }
        }
        IntExpr::Bin(op @ (BinOp::Add | BinOp::Sub), a, b) => {
            let (a, b) = (affine(a, x)?, affine(b, x)?);
            let s = if *op == BinOp::Add {
                a.s + b.s
            } else {
                a.s - b.s
            };
            Affine {
                c: bin(*op, a.c, b.c),
                s,
            }
        }
        IntExpr::Bin(BinOp::Mul, a, b) => match (&**a, &**b) {
            (IntExpr::Const(k), other) | (other, IntExpr::Const(k))
                if k.unsigned_abs() <= MAX_COEF.unsigned_abs() =>
            {
                let f = affine(other, x)?;
                Affine {
                    c: bin(BinOp::Mul, f.c, IntExpr::Const(*k)),
                    s: f.s * k,
                }
            }
            _ => return None,
        },
        _ => return None,
    };
    (r.s.unsigned_abs() <= MAX_COEF.unsigned_abs()).then_some(r)
}

fn mentions(e: &IntExpr, x: u32) -> bool {
    match e {
        IntExpr::Const(_) => false,
        IntExpr::Slot(s) => *s == x,
        IntExpr::Bin(_, a, b) => mentions(a, x) || mentions(b, x),
        IntExpr::Neg(a) | IntExpr::Abs(a) | IntExpr::Popcount(a) | IntExpr::Index(_, a) => {
            mentions(a, x)
        }
        IntExpr::Min(xs) | IntExpr::Max(xs) => xs.iter().any(|a| mentions(a, x)),
        IntExpr::If(c, a, b) => cond_mentions(c, x) || mentions(a, x) || mentions(b, x),
    }
}

fn cond_mentions(c: &BoolExpr, x: u32) -> bool {
    match c {
        BoolExpr::Const(_) => false,
        BoolExpr::Cmp(_, a, b) => mentions(a, x) || mentions(b, x),
        BoolExpr::And(a, b) | BoolExpr::Or(a, b) => cond_mentions(a, x) || cond_mentions(b, x),
        BoolExpr::Not(a) => cond_mentions(a, x),
    }
}

/// Fuses the innermost range loop when everything after it is linear in it.
fn fuse(clauses: &[KClause], comps: &[KComp], dom: &[(i128, i128)]) -> Option<Fused> {
    let last_for = clauses.iter().rposition(|c| !matches!(c, KClause::If(_)))?;
    let (KClause::Range { slot: x, .. } | KClause::List { slot: x, .. }) = clauses[last_for] else {
        return None;
    };
    if comps.len() > MAX_FUSED {
        return None;
    }
    let mut bounds = Vec::new();
    for c in &clauses[last_for + 1..] {
        let KClause::If(cond) = c else { return None };
        // Regrouped below: only where evaluating as written cannot overflow.
        cond_safe(cond, dom)?;
        linear_bounds(cond, x, &mut bounds)?;
    }
    for k in comps {
        for a in &k.args {
            interval(a, dom)?;
        }
    }
    let comps = comps
        .iter()
        .map(|k| {
            Some((
                k.game,
                k.args
                    .iter()
                    .map(|a| affine(a, x).map(Form::from))
                    .collect::<Option<Vec<_>>>()?,
            ))
        })
        .collect::<Option<Vec<_>>>()?;
    Some(Fused { bounds, comps })
}

fn linear_bounds(c: &BoolExpr, x: u32, out: &mut Vec<Bound>) -> Option<()> {
    match c {
        BoolExpr::And(a, b) => {
            linear_bounds(a, x, out)?;
            linear_bounds(b, x, out)
        }
        BoolExpr::Cmp(op @ (BinOp::Lt | BinOp::Le | BinOp::Gt | BinOp::Ge | BinOp::Eq), l, r) => {
            let (l, r) = (affine(l, x)?, affine(r, x)?);
            let d = Affine {
                c: IntExpr::Bin(BinOp::Sub, Box::new(l.c), Box::new(r.c)),
                s: l.s - r.s,
            };
            out.push(Bound {
                op: *op,
                d: d.into(),
            });
            Some(())
        }
        _ => None,
    }
}

/// The most option values one [`Batch::run`] call scans before it returns.
pub const CHUNK_WORK: u64 = 1 << 24;

/// Integer slots of a kernel frame.
pub type Env = Vec<i64>;

/// Where a component's values are: a one-argument game's array, or a
/// two-argument game's array with its row stride.
fn values_of(memo: &Store, game: GameId, arity: usize) -> Option<(&[u32], usize, usize)> {
    if arity == 1 {
        let v = memo.dense1_values(game)?;
        Some((v, 1, v.len()))
    } else {
        let (v, cols) = memo.dense2_values(game)?;
        Some((v, cols, v.len().checked_div(cols)?))
    }
}

/// The most loop values one kernel run steps through one by one: a kernel
/// cannot look at Ctrl-C or the limits, so a longer loop (an `if` that
/// filters nearly everything out of a huge range) is left to the general
/// evaluator, which does.
const MAX_STEPS: u64 = 1 << 22;

/// One more loop value; `None` (give up) past [`MAX_STEPS`].
#[inline(always)]
fn step(steps: &mut u64) -> Option<()> {
    *steps += 1;
    (*steps <= MAX_STEPS).then_some(())
}

impl KRule {
    /// Inserts the value of every option of this rule into `seen`. `env`
    /// holds the parameters (and room for every slot). Returns `None` if it
    /// gave up; the general evaluator must then run the rule.
    pub fn run(&self, memo: &Store, env: &mut [i64], seen: &mut impl SeenSet) -> Option<()> {
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
        let done = self.clauses_from(0, memo, env, seen, &mut steps);
        seen.spent(steps);
        done
    }

    fn clauses_from(
        &self,
        d: usize,
        memo: &Store,
        env: &mut [i64],
        seen: &mut impl SeenSet,
        steps: &mut u64,
    ) -> Option<()> {
        let Some(clause) = self.clauses.get(d) else {
            return self.emit(memo, env, seen);
        };
        let is_fused_loop = self.fused_at == Some(d);
        match clause {
            KClause::If(c) => {
                if c.eval(env)? {
                    self.clauses_from(d + 1, memo, env, seen, steps)?;
                }
                Some(())
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
                    return fused_loop(f, lo, hi, *slot, memo, env, seen);
                }
                let mut x = lo;
                while x <= hi {
                    step(steps)?;
                    *env.get_mut(*slot as usize)? = x;
                    self.clauses_from(d + 1, memo, env, seen, steps)?;
                    x = x.checked_add(1)?;
                }
                Some(())
            }
            KClause::List { slot, items } => {
                if is_fused_loop && let Some(f) = &self.fused {
                    return fused_list(f, items, *slot, memo, env, seen);
                }
                for &x in items.iter() {
                    step(steps)?;
                    *env.get_mut(*slot as usize)? = x;
                    self.clauses_from(d + 1, memo, env, seen, steps)?;
                }
                Some(())
            }
        }
    }

    fn emit(&self, memo: &Store, env: &[i64], seen: &mut impl SeenSet) -> Option<()> {
        let mut v = 0u32;
        for c in &self.comps {
            let (values, stride, rows) = values_of(memo, c.game, c.args.len())?;
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

/// One component of a fused loop, ready to read.
#[derive(Clone, Copy)]
struct Prepared<'a> {
    values: &'a [u32],
    /// Argument forms `(c, s)`, and the bound each argument must stay below.
    forms: [(i64, i64); 2],
    limits: [i64; 2],
    arity: usize,
    /// The flat index as `base + step·x`.
    base: i64,
    step: i64,
}

const UNPREPARED: Prepared<'static> = Prepared {
    values: &[],
    forms: [(0, 0); 2],
    limits: [0; 2],
    arity: 0,
    base: 0,
    step: 0,
};

/// Evaluates the per-iteration constants of every component into `out`
/// (written in place: this runs once per position on the hottest path).
fn prepare<'a>(
    f: &Fused,
    memo: &'a Store,
    env: &[i64],
    out: &mut [Prepared<'a>; MAX_FUSED],
) -> Option<()> {
    for (slot, (game, args)) in out.iter_mut().zip(&f.comps) {
        let (values, stride, rows) = values_of(memo, *game, args.len())?;
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
fn fused_list(
    f: &Fused,
    items: &[i64],
    x: u32,
    memo: &Store,
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
    prepare(f, memo, env, &mut comps)?;
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
fn strided<'a>(p: &(&'a [u32], i128, i128), lo: i64, hi: i64) -> Option<(&'a [u32], usize, bool)> {
    let (v, base, step) = (p.0, p.1, p.2);
    let (a, b) = (base + step * i128::from(lo), base + step * i128::from(hi));
    let (from, to) = (a.min(b), a.max(b));
    let stride = usize::try_from(step.unsigned_abs()).ok()?.max(1);
    let slice = v.get(usize::try_from(from).ok()?..=usize::try_from(to).ok()?)?;
    Some((slice, stride, step >= 0))
}

/// Inserts each value XOR `fixed`; gives up if any value read was a sentinel.
#[inline(always)]
fn single_loop(
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
fn pair_loop<'a>(
    pairs: impl Iterator<Item = (&'a u32, &'a u32)>,
    fixed: u32,
    seen: &mut impl SeenSet,
) -> Option<()> {
    let read = seen.insert_all(pairs.map(|(&a, &b)| (a | b, a ^ b ^ fixed)));
    (read & SENTINEL_BIT == 0).then_some(())
}

/// Whether `d OP 0` (the operators of linear bounds).
fn holds(op: BinOp, d: i128) -> bool {
    match op {
        BinOp::Lt => d < 0,
        BinOp::Le => d <= 0,
        BinOp::Gt => d > 0,
        BinOp::Ge => d >= 0,
        _ => d == 0,
    }
}

/// Narrows `lo..=hi` to the `x` with `s·x + c OP 0`.
fn fold_bound(op: BinOp, c: i128, s: i128, lo: &mut i128, hi: &mut i128) {
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
fn fused_loop(
    f: &Fused,
    lo: i64,
    hi: i64,
    x: u32,
    memo: &Store,
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
    prepare(f, memo, env, &mut comps)?;
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
fn affine_loop(
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

/// `k + kn·n + s·x`: affine in the position's argument `n` and the loop
/// variable `x`.
#[derive(Clone, Copy, Debug)]
struct Aff2 {
    k: i64,
    kn: i64,
    s: i64,
}

impl Aff2 {
    fn of(form: &Form) -> Option<Aff2> {
        let (k, kn) = lin_in_param(&form.c)?;
        Some(Aff2 { k, kn, s: form.s })
    }

    /// The value at `n` (the loop-invariant part, for `x = 0`).
    fn at(self, n: i64) -> Option<i64> {
        self.k.checked_add(self.kn.checked_mul(n)?)
    }
}

/// `(k, kn)` when a loop invariant is `k + kn·n` in the parameter (slot 0).
fn lin_in_param(lin: &Lin) -> Option<(i64, i64)> {
    let Lin::Sum { k, terms } = lin else {
        return None;
    };
    let mut kn = 0i64;
    for &(slot, c) in terms {
        if slot != 0 {
            return None;
        }
        kn = kn.checked_add(c)?;
    }
    Some((*k, kn))
}

#[derive(Clone, Debug)]
enum BatchSource {
    List(Rc<[i64]>),
    Range { lo: Aff2, hi: Aff2, inclusive: bool },
}

#[derive(Clone, Debug)]
struct BatchRule {
    source: BatchSource,
    bounds: Vec<(BinOp, Aff2)>,
    /// Components, all positions of the game itself: `G(k + kn·n + s·x)`.
    comps: Vec<Aff2>,
}

/// A one-argument game whose every rule is one loop (over a constant list or
/// a range with bounds linear in `n`), with linear conditions and options
/// `G(affine)` of the game itself: its values for a run of positions are
/// computed in one loop, reading and writing one array, as a hand-written
/// table solver does.
#[derive(Clone, Debug)]
pub struct Batch {
    rules: Vec<BatchRule>,
}

impl Batch {
    fn of(game: GameId, rules: &[Option<KRule>]) -> Option<Batch> {
        let rules = rules
            .iter()
            .map(|r| {
                let r = r.as_ref()?;
                let f = r.fused.as_ref()?;
                let (first, rest) = r.clauses.split_first()?;
                if rest.iter().any(|c| !matches!(c, KClause::If(_))) {
                    return None;
                }
                let lin = |e: &IntExpr| {
                    interval(e, &r.dom)?;
                    let (k, kn) = lin_in_param(&Lin::of(e.clone()))?;
                    Some(Aff2 { k, kn, s: 0 })
                };
                let source = match first {
                    KClause::List { items, .. }
                        if items.iter().all(|x| x.unsigned_abs() <= 1 << 40) =>
                    {
                        BatchSource::List(items.clone())
                    }
                    KClause::Range {
                        lo, hi, inclusive, ..
                    } => BatchSource::Range {
                        lo: lin(lo)?,
                        hi: lin(hi)?,
                        inclusive: *inclusive,
                    },
                    _ => return None,
                };
                let bounds = f
                    .bounds
                    .iter()
                    .map(|b| Some((b.op, Aff2::of(&b.d)?)))
                    .collect::<Option<_>>()?;
                let comps = f
                    .comps
                    .iter()
                    .map(|(g, args)| match args.as_slice() {
                        [a] if *g == game => Aff2::of(a),
                        _ => None,
                    })
                    .collect::<Option<Vec<_>>>()?;
                (comps.len() <= MAX_FUSED).then_some(BatchRule {
                    source,
                    bounds,
                    comps,
                })
            })
            .collect::<Option<Vec<_>>>()?;
        Some(Batch { rules })
    }

    /// Computes `values[n]` for `n` in `from..to`, in order, given that every
    /// value below `from` is known. Stops at the first position it cannot
    /// compute (on the stack, an option outside `0..n`, or arithmetic that
    /// would overflow) and returns it, with how many values it stored.
    pub fn run(
        &self,
        values: &mut [u32],
        from: usize,
        to: usize,
        seen: &mut Stamped,
        max_value: &mut u32,
    ) -> (usize, usize) {
        let mut stored = 0;
        let start = seen.inserted();
        for n in from..to.min(values.len()) {
            // A chunk ends after so much work, so that Ctrl-C and the limits
            // are looked at often (values late in a game scan many options).
            if seen.inserted() - start >= CHUNK_WORK {
                return (n, stored);
            }
            match values[n] {
                UNKNOWN => {}
                v if v & SENTINEL_BIT != 0 => return (n, stored),
                _ => continue,
            }
            seen.clear(*max_value);
            let known = &values[..n];
            if self
                .rules
                .iter()
                .any(|r| r.run(known, n as i64, seen).is_none())
            {
                return (n, stored);
            }
            let v = seen.mex();
            if v & SENTINEL_BIT != 0 {
                return (n, stored);
            }
            values[n] = v;
            *max_value = (*max_value).max(v);
            stored += 1;
        }
        (to.min(values.len()), stored)
    }
}

impl BatchRule {
    /// Inserts the values of this rule's options at `n`; `known` is
    /// `values[..n]`, all computed.
    fn run(&self, known: &[u32], n: i64, seen: &mut Stamped) -> Option<()> {
        let len = i128::from(n);
        match &self.source {
            BatchSource::List(items) => {
                // Items are at most 2^40 and coefficients 2^20 (checked when
                // compiling), so `s·x` fits; the sums are checked.
                let mut bounds = [(BinOp::Eq, 0i64, 0i64); 8];
                if self.bounds.len() > bounds.len() {
                    return None;
                }
                for (slot, (op, a)) in bounds.iter_mut().zip(&self.bounds) {
                    *slot = (*op, a.at(n)?, a.s);
                }
                let bounds = &bounds[..self.bounds.len()];
                let mut comps = [(0i64, 0i64); MAX_FUSED];
                for (slot, c) in comps.iter_mut().zip(&self.comps) {
                    *slot = (c.at(n)?, c.s);
                }
                let comps = &comps[..self.comps.len()];
                'items: for &x in items.iter() {
                    for &(op, c, s) in bounds {
                        if !holds(op, i128::from(c.checked_add(s * x)?)) {
                            continue 'items;
                        }
                    }
                    let mut v = 0u32;
                    for &(c, s) in comps {
                        let i = c.checked_add(s * x)?;
                        let w = *known.get(usize::try_from(i).ok()?)?;
                        if w & SENTINEL_BIT != 0 {
                            return None;
                        }
                        v ^= w;
                    }
                    seen.insert(v);
                }
                Some(())
            }
            BatchSource::Range { lo, hi, inclusive } => {
                let mut lo = i128::from(lo.at(n)?);
                let mut hi = i128::from(hi.at(n)?) - i128::from(!*inclusive);
                for (op, a) in &self.bounds {
                    fold_bound(*op, i128::from(a.at(n)?), i128::from(a.s), &mut lo, &mut hi);
                }
                if lo > hi {
                    return Some(());
                }
                let mut parts = [(&[][..], 0i128, 0i128); MAX_FUSED];
                for (part, c) in parts.iter_mut().zip(&self.comps) {
                    let (base, step) = (i128::from(c.at(n)?), i128::from(c.s));
                    for end in [lo, hi] {
                        let i = base + step * end;
                        if i < 0 || i >= len {
                            return None;
                        }
                    }
                    *part = (known, base, step);
                }
                affine_loop(&parts[..self.comps.len()], lo, hi, seen)
            }
        }
    }
}

/// The values an integer expression can take when every slot stays within
/// its domain, or `None` if some step of evaluating it as written could
/// overflow. Fused and batch loops regroup arithmetic (`n + BIG - BIG` into
/// `n`); they are only allowed where this proves the regrouping cannot hide
/// an overflow the general evaluator would report.
fn interval(e: &IntExpr, dom: &[(i128, i128)]) -> Option<(i128, i128)> {
    const FULL: (i128, i128) = (i64::MIN as i128, i64::MAX as i128);
    let fits = |(lo, hi): (i128, i128)| (lo >= FULL.0 && hi <= FULL.1).then_some((lo, hi));
    let corners = |a: (i128, i128), b: (i128, i128), f: fn(i128, i128) -> i128| {
        let xs = [f(a.0, b.0), f(a.0, b.1), f(a.1, b.0), f(a.1, b.1)];
        (
            xs.into_iter().min().unwrap_or(0),
            xs.into_iter().max().unwrap_or(0),
        )
    };
    let abs_max = |a: (i128, i128)| a.0.abs().max(a.1.abs());
    match e {
        IntExpr::Const(v) => Some((i128::from(*v), i128::from(*v))),
        IntExpr::Slot(s) => dom.get(*s as usize).copied().or(Some(FULL)),
        IntExpr::Neg(a) => {
            let a = interval(a, dom)?;
            fits((-a.1, -a.0))
        }
        IntExpr::Popcount(a) => {
            interval(a, dom)?;
            Some((0, 64))
        }
        IntExpr::Abs(a) => {
            let a = interval(a, dom)?;
            let lo = if a.0 <= 0 && a.1 >= 0 {
                0
            } else {
                a.0.abs().min(a.1.abs())
            };
            fits((lo, abs_max(a)))
        }
        IntExpr::Bin(op, a, b) => {
            let (a, b) = (interval(a, dom)?, interval(b, dom)?);
            match op {
                BinOp::Add => fits(corners(a, b, |x, y| x + y)),
                BinOp::Sub => fits(corners(a, b, |x, y| x - y)),
                BinOp::Mul => fits(corners(a, b, |x, y| x * y)),
                // Division and remainder only shrink (a zero divisor is an
                // error the kernel hands to the general evaluator anyway).
                BinOp::Div => fits((-abs_max(a), abs_max(a))),
                BinOp::Rem => {
                    let m = abs_max(b).max(1) - 1;
                    Some((-m, m))
                }
                // Bit operations never overflow; `>>` only shrinks.
                BinOp::BitAnd | BinOp::BitOr | BinOp::BitXor | BinOp::Shr => Some(FULL),
                // `<<` and `**` may overflow: no regrouping around them.
                _ => None,
            }
        }
        IntExpr::Min(xs) | IntExpr::Max(xs) => {
            let ivs = xs
                .iter()
                .map(|x| interval(x, dom))
                .collect::<Option<Vec<_>>>()?;
            let lo = ivs.iter().map(|i| i.0).min()?;
            let hi = ivs.iter().map(|i| i.1).max()?;
            Some((lo, hi))
        }
        IntExpr::Index(items, i) => {
            interval(i, dom)?;
            let lo = items.iter().min().map_or(0, |v| i128::from(*v));
            let hi = items.iter().max().map_or(0, |v| i128::from(*v));
            Some((lo, hi))
        }
        IntExpr::If(c, a, b) => {
            cond_safe(c, dom)?;
            let (a, b) = (interval(a, dom)?, interval(b, dom)?);
            Some((a.0.min(b.0), a.1.max(b.1)))
        }
    }
}

fn cond_safe(c: &BoolExpr, dom: &[(i128, i128)]) -> Option<()> {
    match c {
        BoolExpr::Const(_) => Some(()),
        BoolExpr::Cmp(_, a, b) => {
            interval(a, dom)?;
            interval(b, dom).map(|_| ())
        }
        BoolExpr::And(a, b) | BoolExpr::Or(a, b) => {
            cond_safe(a, dom)?;
            cond_safe(b, dom)
        }
        BoolExpr::Not(a) => cond_safe(a, dom),
    }
}

/// The domain of each slot while a rule runs on a dense position: the
/// parameters within the dense ranges, loop variables within what their
/// ranges or lists can produce.
fn domains(clauses: &[KClause], slots: usize, arity: usize) -> Vec<(i128, i128)> {
    const FULL: (i128, i128) = (i64::MIN as i128, i64::MAX as i128);
    let param_max = if arity == 1 { 1i128 << 27 } else { 1i128 << 16 };
    let mut dom = vec![FULL; slots];
    for d in dom.iter_mut().take(arity) {
        *d = (0, param_max);
    }
    for c in clauses {
        match c {
            KClause::Range { slot, lo, hi, .. } => {
                let range = match (interval(lo, &dom), interval(hi, &dom)) {
                    (Some(l), Some(h)) => (l.0, h.1),
                    _ => FULL,
                };
                if let Some(d) = dom.get_mut(*slot as usize) {
                    *d = range;
                }
            }
            KClause::List { slot, items } => {
                let lo = items.iter().min().map_or(0, |v| i128::from(*v));
                let hi = items.iter().max().map_or(0, |v| i128::from(*v));
                if let Some(d) = dom.get_mut(*slot as usize) {
                    *d = (lo, hi);
                }
            }
            KClause::If(_) => {}
        }
    }
    dom
}
