//! Table kernels: a one-argument game's rule that loops over a range whose
//! bounds are computed from `n`, with options `G(a(n) ± t(x))` and
//! conditions that compare a term of the loop variable `x` with a term of
//! `n` (`G(n - k * k) for k in 1..=isqrt(n)`, `G(n - k * k) for k in 1..=n
//! while k * k <= n`). The terms of `x` are computed once each, into a
//! table that grows as far as the loops go; each position then reads the
//! table as a loop over a constant list reads its items.
//!
//! The interpreter's arithmetic is kept exactly: every term is one of the
//! rule's own subexpressions, evaluated with its checks (a term that fails
//! is not used: the kernel gives up there, and the general path reports),
//! and the one operation that joins a term of `n` and a term of `x` gives
//! an option inside `0..n`, so it did not overflow either.

use super::*;
use std::cell::RefCell;

/// The most values of the loop variable a table holds: past it, the
/// kernel gives up (the per-position kernels run on).
const MAX_TABLE: usize = 1 << 22;

/// The most slots, terms of `n` and conditions of `n` a table rule takes
/// (each a fixed array on the stack).
const MAX_SLOTS: usize = 16;

/// A compiled rule of a table kernel.
#[derive(Clone, Debug)]
pub(super) struct TableRule {
    /// The loop variable's slot, and how many slots a frame has.
    x: u32,
    slots: usize,
    /// Terms of `n` alone, evaluated once per position: the loop's bounds,
    /// the conditions' sides and the options' parts.
    n_terms: Rc<[IntCode<[i64]>]>,
    /// Which of them are the loop's bounds.
    bounds: (usize, usize),
    n_conds: Rc<[BoolCode<[i64]>]>,
    inclusive: bool,
    /// Terms of `x` alone, as the table's columns (a condition of `x`
    /// alone is a column of 0 and 1).
    x_terms: Rc<[XTerm]>,
    /// The `if`s and `while`s after the loop, in order.
    conds: Vec<Cond>,
    /// Per component of an option, its argument.
    comps: Vec<TermArg>,
    table: RefCell<Columns>,
    divisors: Rc<RefCell<Divisors>>,
}

#[derive(Debug)]
enum XTerm {
    Int(IntCode<[i64]>),
    Bool(BoolCode<[i64]>),
}

#[derive(Clone, Copy, Debug)]
struct Cond {
    /// A `while`: where it fails, the loop ends.
    ends: bool,
    test: Test,
}

#[derive(Clone, Copy, Debug)]
enum Test {
    /// `x_terms[t] OP n_terms[v]`
    Cmp { t: usize, op: BinOp, v: usize },
    /// A condition of `x` alone: column `t` is 1 where it holds.
    X(usize),
    /// A condition of `n` alone.
    N(usize),
    /// `n_terms[a] % x == 0`: `x` divides a term of `n`.
    Divides(usize),
}

/// An option's argument: `±n_terms[n] + x_terms[x]`, each part optional
/// (a term of `x` subtracted is a column of its negation), or any other
/// arithmetic of terms of `n` and of `x` (`n - n / d`), computed operation
/// by operation as the interpreter computes it.
#[derive(Clone, Debug)]
struct TermArg {
    n: Option<(bool, usize)>,
    x: Option<usize>,
    mix: Option<MixFn>,
}

/// Arithmetic of terms of `n` and of `x`.
#[derive(Clone, Debug)]
enum Mix {
    N(usize),
    X(usize),
    Neg(Box<Mix>),
    Op(BinOp, Box<Mix>, Box<Mix>),
}

/// A [`Mix`] as closures: `f(nv, table, x)`, each operation computed as
/// the interpreter computes it (`None` where it would report an error).
#[derive(Clone)]
struct MixFn(Rc<MixDyn>);

/// What a [`MixFn`] holds.
type MixDyn = dyn Fn(&[i64], &Columns, usize) -> Option<i64>;

impl std::fmt::Debug for MixFn {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("MixFn")
    }
}

impl Mix {
    fn compile(&self) -> MixFn {
        use crate::ops::int_op;
        MixFn(match self {
            &Mix::N(t) => Rc::new(move |nv: &[i64], _: &Columns, _| Some(nv[t])),
            &Mix::X(t) => Rc::new(move |_: &[i64], table: &Columns, x| table.at(t, x)),
            Mix::Neg(a) => {
                let a = a.compile().0;
                Rc::new(move |nv: &[i64], table: &Columns, x| a(nv, table, x)?.checked_neg())
            }
            // The usual shapes read in place: `n / d`, and `n - n / d` in
            // one closure.
            &Mix::Op(op, ref a, ref b) => match (&**a, &**b) {
                (&Mix::N(p), &Mix::X(q)) => Rc::new(move |nv: &[i64], table: &Columns, x| {
                    int_op(op, nv[p], table.at(q, x)?).ok()
                }),
                (&Mix::N(p), Mix::Op(inner, c, d)) => match (&**c, &**d) {
                    (&Mix::N(r), &Mix::X(q)) => {
                        let inner = *inner;
                        Rc::new(move |nv: &[i64], table: &Columns, x| {
                            let y = int_op(inner, nv[r], table.at(q, x)?).ok()?;
                            int_op(op, nv[p], y).ok()
                        })
                    }
                    _ => general(op, a, b),
                },
                _ => general(op, a, b),
            },
        })
    }
}

/// `a op b`, each part compiled on its own.
fn general(op: BinOp, a: &Mix, b: &Mix) -> Rc<MixDyn> {
    let (a, b) = (a.compile().0, b.compile().0);
    Rc::new(move |nv: &[i64], table: &Columns, x| {
        crate::ops::int_op(op, a(nv, table, x)?, b(nv, table, x)?).ok()
    })
}

/// The columns: `cols[t][x]`, [`FAILS`] where the term fails at `x`.
#[derive(Clone, Debug, Default)]
struct Columns {
    cols: Vec<Vec<i64>>,
    /// Per column, whether it never falls (and never fails) so far.
    rising: Vec<bool>,
}

/// The divisors of the numbers a game's rules ask about, shared by its
/// rules (each asks about the same `n`).
#[derive(Debug, Default)]
pub(super) struct Divisors {
    /// Each number's least prime factor, as far as needed.
    least_factor: Vec<u32>,
    /// The number asked about last, and its divisors (in order when
    /// `sorted`).
    of: usize,
    list: Vec<usize>,
    sorted: bool,
}

/// A table entry whose term failed (or is `i64::MIN`, which is then
/// treated as failing: the kernel gives up, and the general path runs).
const FAILS: i64 = i64::MIN;

/// What a rule's pieces read.
fn reads_only(e: &IntExpr, slot: u32, slots: usize) -> bool {
    (0..slots as u32).all(|s| s == slot || !e.reads(s))
}

fn cond_reads_only(c: &BoolExpr, slot: u32, slots: usize) -> bool {
    (0..slots as u32).all(|s| s == slot || !c.reads(s))
}

/// Builds a table rule, collecting terms as it goes.
struct Builder {
    x: u32,
    slots: usize,
    n_terms: Vec<IntExpr>,
    n_conds: Vec<BoolExpr>,
    x_terms: Vec<XTerm>,
}

impl Builder {
    /// `e` as a term of `n`, one per distinct expression.
    fn n_term(&mut self, e: &IntExpr) -> Option<usize> {
        if !reads_only(e, 0, self.slots) {
            return None;
        }
        Some(match self.n_terms.iter().position(|t| t == e) {
            Some(i) => i,
            None => {
                self.n_terms.push(e.clone());
                self.n_terms.len() - 1
            }
        })
    }

    fn x_term(&mut self, e: &IntExpr) -> Option<usize> {
        reads_only(e, self.x, self.slots).then(|| {
            self.x_terms.push(XTerm::Int(IntCode::int(e)));
            self.x_terms.len() - 1
        })
    }

    fn test(&mut self, c: &BoolExpr) -> Option<Test> {
        if cond_reads_only(c, 0, self.slots) {
            self.n_conds.push(c.clone());
            return Some(Test::N(self.n_conds.len() - 1));
        }
        if cond_reads_only(c, self.x, self.slots) {
            self.x_terms.push(XTerm::Bool(BoolCode::new(c)));
            return Some(Test::X(self.x_terms.len() - 1));
        }
        let BoolExpr::Cmp(op, a, b) = c else {
            return None;
        };
        // `m % x == 0` (or `0 == m % x`), `m` a term of `n`.
        let zero = |e: &IntExpr| matches!(e, IntExpr::Const(0));
        let rem = match (op, a, b) {
            (BinOp::Eq, IntExpr::Bin(BinOp::Rem, m, d), z) if zero(z) => Some((m, d)),
            (BinOp::Eq, z, IntExpr::Bin(BinOp::Rem, m, d)) if zero(z) => Some((m, d)),
            _ => None,
        };
        if let Some((m, d)) = rem
            && matches!(**d, IntExpr::Slot(s) if s == self.x)
        {
            return Some(Test::Divides(self.n_term(m)?));
        }
        let flipped = match op {
            BinOp::Lt => BinOp::Gt,
            BinOp::Le => BinOp::Ge,
            BinOp::Gt => BinOp::Lt,
            BinOp::Ge => BinOp::Le,
            op => *op,
        };
        let (op, t, v) = if reads_only(a, self.x, self.slots) {
            (*op, a, b)
        } else {
            (flipped, b, a)
        };
        let (t, v) = (self.x_term(t)?, self.n_term(v)?);
        Some(Test::Cmp { t, op, v })
    }

    /// `e` as `A(n) ± T(x)` or `T(x) ± A(n)`, one operation at the top, or
    /// either alone.
    fn arg(&mut self, e: &IntExpr) -> Option<TermArg> {
        if let Some(n) = self.n_term(e) {
            return Some(TermArg {
                n: Some((false, n)),
                x: None,
                mix: None,
            });
        }
        if let Some(x) = self.x_term(e) {
            return Some(TermArg {
                n: None,
                x: Some(x),
                mix: None,
            });
        }
        let mixed = |b: &mut Builder| {
            Some(TermArg {
                n: None,
                x: None,
                mix: Some(b.mix(e)?.compile()),
            })
        };
        let IntExpr::Bin(op @ (BinOp::Add | BinOp::Sub), a, b) = e else {
            return mixed(self);
        };
        if !reads_only(a, 0, self.slots) && !reads_only(a, self.x, self.slots)
            || !reads_only(b, 0, self.slots) && !reads_only(b, self.x, self.slots)
        {
            return mixed(self);
        }
        let minus = *op == BinOp::Sub;
        if reads_only(a, 0, self.slots) {
            let t = if minus {
                IntExpr::Neg(b.clone())
            } else {
                (**b).clone()
            };
            Some(TermArg {
                n: Some((false, self.n_term(a)?)),
                x: Some(self.x_term(&t)?),
                mix: None,
            })
        } else {
            Some(TermArg {
                x: Some(self.x_term(a)?),
                n: Some((minus, self.n_term(b)?)),
                mix: None,
            })
        }
    }

    /// `e` as arithmetic of terms of `n` and of `x`, each part as large as
    /// it can be.
    fn mix(&mut self, e: &IntExpr) -> Option<Mix> {
        if let Some(n) = self.n_term(e) {
            return Some(Mix::N(n));
        }
        if let Some(x) = self.x_term(e) {
            return Some(Mix::X(x));
        }
        match e {
            IntExpr::Neg(a) => Some(Mix::Neg(Box::new(self.mix(a)?))),
            IntExpr::Bin(op, a, b) if op.is_arithmetic() => {
                Some(Mix::Op(*op, Box::new(self.mix(a)?), Box::new(self.mix(b)?)))
            }
            _ => None,
        }
    }
}

impl TableRule {
    /// The rule as a table kernel of `game`, if it has the shape: one loop
    /// over a range, then `if`s and `while`s, and options of the game
    /// itself.
    pub(super) fn of(
        game: GameId,
        r: &KRule,
        divisors: &Rc<RefCell<Divisors>>,
    ) -> Option<TableRule> {
        let (first, rest) = r.clauses.split_first()?;
        let &KClause::Range {
            slot: x,
            ref lo,
            ref hi,
            inclusive,
        } = first
        else {
            return None;
        };
        if r.comps.len() > MAX_FUSED || r.comps.iter().any(|c| c.game != game) {
            return None;
        }
        let slots = r.dom.len().max(x as usize + 1);
        if slots > MAX_SLOTS {
            return None;
        }
        let mut b = Builder {
            x,
            slots,
            n_terms: Vec::new(),
            n_conds: Vec::new(),
            x_terms: Vec::new(),
        };
        let bounds = (b.n_term(lo)?, b.n_term(hi)?);
        let conds = rest
            .iter()
            .map(|c| match c {
                KClause::If(c) => Some(Cond {
                    ends: false,
                    test: b.test(c)?,
                }),
                KClause::While(c) => Some(Cond {
                    ends: true,
                    test: b.test(c)?,
                }),
                _ => None,
            })
            .collect::<Option<Vec<_>>>()?;
        let comps = r
            .comps
            .iter()
            .map(|c| match c.args.as_slice() {
                [a] => b.arg(a),
                _ => None,
            })
            .collect::<Option<Vec<_>>>()?;
        // A loop whose terms all read `n` (or nothing) is a fused loop's
        // or a window's, when it is one of those at all.
        if b.x_terms.is_empty() || b.n_terms.len() > MAX_SLOTS || b.n_conds.len() > MAX_SLOTS {
            return None;
        }
        Some(TableRule {
            x,
            slots: b.slots,
            n_terms: b.n_terms.iter().map(IntCode::int).collect(),
            bounds,
            n_conds: b.n_conds.iter().map(BoolCode::new).collect(),
            inclusive,
            x_terms: b.x_terms.into(),
            conds,
            comps,
            table: RefCell::default(),
            divisors: Rc::clone(divisors),
        })
    }

    /// Inserts the values of this rule's options at `n`; `known` is
    /// `values[..n]`, all computed. `None`: the kernel gives up here.
    pub(super) fn run(&self, known: &[u32], n: i64, seen: &mut impl SeenSet) -> Option<()> {
        let mut env = [0i64; MAX_SLOTS];
        let env = &mut env[..self.slots];
        env[0] = n;
        let mut nv = [0i64; MAX_SLOTS];
        for (v, t) in nv.iter_mut().zip(self.n_terms.iter()) {
            *v = t.eval(env)?;
        }
        let mut nb = [false; MAX_SLOTS];
        for (v, c) in nb.iter_mut().zip(self.n_conds.iter()) {
            *v = c.eval(env)?;
        }
        let lo = nv[self.bounds.0];
        let hi = if self.inclusive {
            nv[self.bounds.1]
        } else {
            nv[self.bounds.1].checked_sub(1)?
        };
        if lo > hi {
            return Some(());
        }
        let (lo, hi) = (usize::try_from(lo).ok()?, usize::try_from(hi).ok()?);
        // Per component, its part of `n`, its column, and how they join.
        let mut parts = [Part::default(); MAX_FUSED];
        for (p, a) in parts.iter_mut().zip(&self.comps) {
            p.n = match a.n {
                Some((false, t)) => nv[t],
                Some((true, t)) => nv[t].checked_neg()?,
                None => 0,
            };
            p.x = a.x;
            p.mix = a.mix.as_ref();
        }
        let parts = &parts[..self.comps.len()];
        let mut table = self.table.borrow_mut();
        // Leading conditions `T(x) <= V(n)` (or `<`) on a column that never
        // falls hold for a first run of the loop's values and for none
        // after: `if` or `while`, they end the loop there. Found by
        // bisection, computing the column as far as it is needed.
        let mut hi = hi;
        let mut conds = &self.conds[..];
        while let Some(c) = conds.first() {
            let Test::Cmp {
                t,
                op: op @ (BinOp::Le | BinOp::Lt),
                v,
            } = c.test
            else {
                break;
            };
            let bound = nv[v];
            let holds = |y: i64| {
                if op == BinOp::Le {
                    y <= bound
                } else {
                    y < bound
                }
            };
            loop {
                let len = table.len();
                if len > hi || (len > lo && !holds(table.cols[t][len - 1])) || !table.rising(t) {
                    break;
                }
                table.grow(len, &self.x_terms, self.x, env)?;
            }
            if !table.rising(t) {
                break;
            }
            let end = hi.min(table.len() - 1);
            let run = table.cols[t][lo..=end].partition_point(|&y| holds(y));
            if run == 0 {
                return Some(());
            }
            hi = lo + run - 1;
            conds = &conds[1..];
        }
        // No conditions left: every value of the loop, the table read in
        // order.
        if conds.is_empty() {
            if hi >= table.len() {
                table.grow(hi, &self.x_terms, self.x, env)?;
            }
            // One component, `G(A(n) ± T(x))`: its column read as a slice.
            if let [
                Part {
                    n: a,
                    x: Some(t),
                    mix: None,
                },
            ] = *parts
            {
                for &y in &table.cols[t][lo..=hi] {
                    if y == FAILS {
                        return None;
                    }
                    let w = *known.get(usize::try_from(a.checked_add(y)?).ok()?)?;
                    if w & SENTINEL_BIT != 0 {
                        return None;
                    }
                    seen.insert(w);
                }
                return Some(());
            }
            for x in lo..=hi {
                seen.insert(option(known, parts, &nv, &table, x)?);
            }
            return Some(());
        }
        // A first condition `x` divides `m`: the divisors of `m` in the
        // range, in order, rather than every value.
        if let Some(Cond {
            ends: false,
            test: Test::Divides(a),
        }) = conds.first()
            && lo >= 1
        {
            let m = usize::try_from(nv[*a]).ok().filter(|&m| m >= 1)?;
            let mut divisors = self.divisors.borrow_mut();
            // In order where a `while` may end the loop; else as found.
            let ordered = conds[1..].iter().any(|c| c.ends);
            let list = divisors.of(m, ordered)?;
            let of_n = (&conds[1..], &nv[..], &nb[..]);
            let xs = list.iter().copied().filter(|d| (lo..=hi).contains(d));
            return self.values(known, of_n, parts, &mut table, xs, env, seen);
        }
        self.values(
            known,
            (conds, &nv, &nb),
            parts,
            &mut table,
            lo..=hi,
            env,
            seen,
        )
    }

    /// The options at the values `xs` of the loop's variable, where the
    /// conditions `conds` hold (`nv` and `nb`: the terms and conditions of
    /// `n`).
    #[allow(clippy::too_many_arguments)]
    fn values(
        &self,
        known: &[u32],
        (conds, nv, nb): (&[Cond], &[i64], &[bool]),
        parts: &[Part],
        table: &mut Columns,
        xs: impl IntoIterator<Item = usize>,
        env: &mut [i64],
        seen: &mut impl SeenSet,
    ) -> Option<()> {
        let mut len = table.len();
        'values: for x in xs {
            if x >= len {
                table.grow(x, &self.x_terms, self.x, env)?;
                len = table.len();
            }
            for c in conds {
                let holds = match c.test {
                    Test::Cmp { t, op, v } => crate::ops::compare(op, table.at(t, x)?, nv[v])?,
                    Test::X(t) => table.at(t, x)? != 0,
                    Test::N(i) => nb[i],
                    Test::Divides(a) => crate::ops::int_op(BinOp::Rem, nv[a], x as i64).ok()? == 0,
                };
                match (holds, c.ends) {
                    (true, _) => {}
                    (false, false) => continue 'values,
                    (false, true) => break 'values,
                }
            }
            seen.insert(option(known, parts, nv, table, x)?);
        }
        Some(())
    }
}

/// A component of an option at one position: its part of `n` and its
/// column, added, or its arithmetic of the two.
#[derive(Clone, Copy, Debug, Default)]
struct Part<'a> {
    n: i64,
    x: Option<usize>,
    mix: Option<&'a MixFn>,
}

/// The value of the option at `x`: the XOR of its components' values.
#[inline(always)]
fn option(known: &[u32], parts: &[Part], nv: &[i64], table: &Columns, x: usize) -> Option<u32> {
    let mut v = 0u32;
    for p in parts {
        let i = match (p.mix, p.x) {
            (Some(m), _) => (m.0)(nv, table, x)?,
            (None, Some(t)) => p.n.checked_add(table.at(t, x)?)?,
            (None, None) => p.n,
        };
        let w = *known.get(usize::try_from(i).ok()?)?;
        if w & SENTINEL_BIT != 0 {
            return None;
        }
        v ^= w;
    }
    Some(v)
}

impl Columns {
    fn len(&self) -> usize {
        self.cols.first().map_or(0, Vec::len)
    }

    /// Whether column `t` never falls (nor fails) as far as it is computed.
    fn rising(&self, t: usize) -> bool {
        self.rising.get(t).copied().unwrap_or(true)
    }

    /// Term `t` at `x` (computed), `None` where it fails.
    #[inline(always)]
    fn at(&self, t: usize, x: usize) -> Option<i64> {
        let v = self.cols[t][x];
        (v != FAILS).then_some(v)
    }

    /// Every column computed up to `x` (at most [`MAX_TABLE`] values).
    fn grow(&mut self, x: usize, terms: &[XTerm], slot: u32, env: &mut [i64]) -> Option<()> {
        if x >= MAX_TABLE {
            return None;
        }
        if self.cols.len() != terms.len() {
            self.cols = vec![Vec::new(); terms.len()];
            self.rising = vec![true; terms.len()];
        }
        let from = self.len();
        let to = (x + 1).max(2 * from).min(MAX_TABLE);
        let saved = env[slot as usize];
        for ((col, term), rising) in self.cols.iter_mut().zip(terms).zip(&mut self.rising) {
            col.reserve(to - from);
            for v in from..to {
                env[slot as usize] = v as i64;
                let y = match term {
                    XTerm::Int(t) => t.eval(env),
                    XTerm::Bool(c) => c.eval(env).map(i64::from),
                }
                .unwrap_or(FAILS);
                *rising &= y != FAILS && col.last().is_none_or(|&last| last <= y);
                col.push(y);
            }
        }
        env[slot as usize] = saved;
        Some(())
    }
}

impl Divisors {
    /// The divisors of `m`, in order if `ordered`, from its prime factors
    /// (the table of least factors grown to hold `m`, at most
    /// [`MAX_TABLE`]).
    fn of(&mut self, m: usize, ordered: bool) -> Option<&[usize]> {
        if m == self.of && !self.list.is_empty() {
            if ordered && !self.sorted {
                self.list.sort_unstable();
                self.sorted = true;
            }
            return Some(&self.list);
        }
        if m >= self.least_factor.len() {
            if m >= MAX_TABLE {
                return None;
            }
            let len = (m + 1).max(2 * self.least_factor.len()).min(MAX_TABLE);
            let mut f = vec![0u32; len];
            for p in 2..len {
                if f[p] == 0 {
                    for k in (p..len).step_by(p) {
                        if f[k] == 0 {
                            f[k] = p as u32;
                        }
                    }
                }
            }
            self.least_factor = f;
        }
        let out = &mut self.list;
        out.clear();
        out.push(1);
        let mut rest = m;
        while rest > 1 {
            let p = self.least_factor[rest] as usize;
            let known = out.len();
            let mut power = 1;
            while rest.is_multiple_of(p) {
                rest /= p;
                power *= p;
                for i in 0..known {
                    out.push(out[i] * power);
                }
            }
        }
        if ordered {
            out.sort_unstable();
        }
        (self.of, self.sorted) = (m, ordered);
        Some(&self.list)
    }
}
