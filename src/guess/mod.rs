//! Closed forms found by search (`guess`): the smallest formulas in the
//! language's own operators whose values are a game's values (or whose
//! zeros are its P-positions) at every point computed.
//!
//! Formulas are built bottom-up, by size (a size is the number of names,
//! numbers and operators written), each from smaller ones, and two
//! formulas with the same values at the points leading the problem (the
//! *sample*, at most 64: see [`sample_first`](crate::guess::sample_first)) are one: only the first of
//! them is kept and combined further (observational equivalence). A
//! formula whose top operation is `+`, `-` or `^` is found by lookup as
//! soon as both halves are kept: the value the other half would need is
//! looked up among the kept ones. Every formula built that fits the sample
//! (kept or not) is then evaluated at every point, and only one that fits
//! them all is an answer: a guess, never a proof.
//!
//! A plain-data core: points and values in, a [`Formula`](crate::guess::Formula) out; the caller's
//! `poll` is asked every few thousand formulas (Ctrl-C, limits), and the
//! budget counts the formulas built.

use crate::ops::{self, BinOp};

mod formula;
pub use formula::{Formula, Op, Val};
use rustc_hash::FxHashMap;

/// The most points formulas are told apart by.
pub const SAMPLE: usize = 64;

/// How many first values the quick test of a lookup hashes.
const PREFIX: usize = 8;

/// How often the caller's `poll` is asked, in formulas built.
const POLL_EVERY: u64 = 1 << 14;

/// The integer operators combined (comparisons and `and`/`or` make
/// booleans; [`Op::Min`] and [`Op::Max`] are calls).
const INT_OPS: [BinOp; 10] = [
    BinOp::Add,
    BinOp::Sub,
    BinOp::Mul,
    BinOp::Div,
    BinOp::Rem,
    BinOp::BitXor,
    BinOp::BitAnd,
    BinOp::BitOr,
    BinOp::Shl,
    BinOp::Shr,
];

/// What a formula is asked to give.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Sought {
    /// The values: `grundy(G(x)) == f(x)`.
    Values,
    /// The P-positions: `grundy(G(x)) == 0` exactly where `f(x)` is true.
    Zeros,
}

/// The points (`vars` numbers each) reordered so that the first tell
/// formulas apart well: the corner nearest 0 (about 40 points), then
/// points spread evenly over the others (a formula that differs from
/// another only far out is then told apart from it), [`SAMPLE`] in all;
/// then the rest, in order. The order (indices of points) and how many
/// lead.
pub fn sample_first(points: &[i64], vars: usize) -> (Vec<usize>, usize) {
    let count = points.len() / vars.max(1);
    let corner = match vars {
        1 => 39,
        2 => 5,
        _ => 2,
    };
    let (mut first, mut rest): (Vec<usize>, Vec<usize>) =
        (0..count).partition(|&i| points[i * vars..][..vars].iter().all(|&x| x <= corner));
    rest.extend(first.drain(SAMPLE.min(first.len())..));
    rest.sort_unstable();
    let want = (SAMPLE - first.len()).min(rest.len());
    if let Some(stride) = rest.len().checked_div(want) {
        let picked: Vec<usize> = (0..want).map(|j| j * stride + stride / 2).collect();
        for &j in picked.iter().rev() {
            first.push(rest.remove(j));
        }
    }
    let sample = first.len();
    first.extend(rest);
    (first, sample)
}

/// A search's question.
pub struct Problem<'a> {
    /// Variables per point.
    pub vars: usize,
    /// The points, `vars` numbers each; the first `sample` (at most
    /// [`SAMPLE`]) tell formulas apart.
    pub points: &'a [i64],
    /// The value at each point.
    pub values: &'a [i64],
    /// How many points tell formulas apart.
    pub sample: usize,
    /// The numbers a formula may write.
    pub constants: &'a [i64],
    /// The most formulas to build.
    pub budget: u64,
    /// Whether a formula for the values is asked for (else only one true
    /// exactly at the zeros, for two variables or more).
    pub values_too: bool,
}

/// A search's answer.
#[derive(Clone, Debug)]
pub struct Guess {
    /// The formula found, and what it gives.
    pub found: Option<(Sought, Formula)>,
    /// Every formula of at most this size was built (or found equal at
    /// the sample to one that was).
    pub complete: usize,
    /// Formulas built.
    pub tried: u64,
}

/// A kept formula: its operation and operands (indices among the kept
/// integers or booleans, as the operation takes them).
#[derive(Clone, Copy)]
struct Entry {
    op: Op,
    kids: [u32; 3],
}

/// The kept formulas, by size, with their values at the sample.
struct Pool {
    k: usize,
    /// The bits of the sample's points.
    mask: u64,
    ints: Vec<Entry>,
    /// Their values at the sample (a formula with a value outside the
    /// 32-bit range at some point is not kept: Grundy values are smaller).
    int_vals: Vec<i32>,
    /// The kept integers of each size whose value is one number at every
    /// point (the divisors and shift amounts).
    consts: Vec<Vec<u32>>,
    /// The hashes of the kept integers' first values, a quick "no" for
    /// the lookups of [`Enumeration::inverse`].
    prefixes: rustc_hash::FxHashSet<u64>,
    /// The kept integers of each size: `int_levels[s]` is a range of `ints`.
    int_levels: Vec<(u32, u32)>,
    int_seen: FxHashMap<u64, u32>,
    bools: Vec<Entry>,
    /// A boolean's values at the sample, bit i for point i.
    bool_vals: Vec<u64>,
    bool_levels: Vec<(u32, u32)>,
    bool_seen: FxHashMap<u64, u32>,
}

/// The search's state: the pool, the question, what was found.
struct Enumeration<'a, 'p, E> {
    p: &'a Problem<'a>,
    pool: Pool,
    /// The values at the sample, and the P-positions among them (bits).
    target: Vec<i64>,
    zeros: u64,
    found: Vec<(Sought, Formula)>,
    tried: u64,
    polled: u64,
    poll: &'p mut dyn FnMut(u64) -> Result<(), E>,
    buf: Vec<i64>,
    need: Vec<i64>,
}

/// Why a level stopped early.
enum Halt<E> {
    Budget,
    Stop(E),
}

/// The smallest formula that fits every point, searched within the budget.
pub fn search<E>(p: &Problem<'_>, poll: &mut dyn FnMut(u64) -> Result<(), E>) -> Result<Guess, E> {
    let k = p.sample.min(SAMPLE).min(p.values.len());
    let target: Vec<i64> = p.values[..k].to_vec();
    // The P-positions are asked for where there are two variables or
    // more (those of one are periodic or finite: `ppositions` says which)
    // and some are in the sample (0: not asked).
    let zeros = match p.vars {
        1 => 0,
        _ => zero_bits(&target),
    };
    let mut s = Enumeration {
        p,
        pool: Pool {
            k,
            mask: match k {
                64 => u64::MAX,
                _ => (1u64 << k) - 1,
            },
            ints: Vec::new(),
            int_vals: Vec::new(),
            consts: vec![Vec::new()],
            prefixes: Default::default(),
            int_levels: vec![(0, 0)],
            int_seen: FxHashMap::default(),
            bools: Vec::new(),
            bool_vals: Vec::new(),
            bool_levels: vec![(0, 0)],
            bool_seen: FxHashMap::default(),
        },
        target,
        zeros,
        found: Vec::new(),
        tried: 0,
        polled: 0,
        poll,
        buf: vec![0; k],
        need: vec![0; k],
    };
    let mut complete = 0;
    let mut size = 1;
    while size < 256 {
        let halted = s.level(size);
        s.pool.int_levels.push((
            s.pool.int_levels.last().map_or(0, |l| l.1),
            s.pool.ints.len() as u32,
        ));
        s.pool.bool_levels.push((
            s.pool.bool_levels.last().map_or(0, |l| l.1),
            s.pool.bools.len() as u32,
        ));
        match halted {
            Err(Halt::Stop(e)) => return Err(e),
            Err(Halt::Budget) => break,
            Ok(()) => complete = size,
        }
        // A formula for the values ends the search; one for the
        // P-positions only once every formula for the values of its size
        // has been tried (the values say more).
        if s.found
            .iter()
            .any(|(kind, f)| *kind == Sought::Values || f.size() <= complete || !p.values_too)
        {
            break;
        }
        size += 1;
    }
    // The smallest for the values, else the smallest for the P-positions.
    let found = s
        .found
        .into_iter()
        .min_by_key(|(kind, f)| (*kind == Sought::Zeros, f.size()));
    Ok(Guess {
        found,
        complete,
        tried: s.tried,
    })
}

impl<E> Enumeration<'_, '_, E> {
    /// Builds every formula of `size` from the kept smaller ones.
    fn level(&mut self, size: usize) -> Result<(), Halt<E>> {
        if size == 1 {
            for v in 0..self.p.vars {
                let vals: Vec<i64> = (0..self.pool.k)
                    .map(|i| self.p.points[i * self.p.vars + v])
                    .collect();
                self.buf.copy_from_slice(&vals);
                self.keep_int(Op::Var(v as u8), [0; 3])?;
            }
            for &c in self.p.constants {
                self.buf.fill(c);
                self.keep_int(Op::Const(c), [0; 3])?;
            }
            return Ok(());
        }
        // `popcount` and `isqrt` of one operand count 2 (a name and its
        // parentheses); `not` 1.
        for i in self.int_range(size.saturating_sub(2)) {
            for op in [Op::Popcount, Op::Isqrt] {
                self.count()?;
                if self.unary_int(op, i) {
                    self.keep_int(op, [i, 0, 0])?;
                }
            }
        }
        for i in self.bool_range(size - 1) {
            self.count()?;
            self.keep_bool(Op::Not, [i, 0, 0], !self.pool.bool_vals[i as usize])?;
        }
        // Two operands, sizes a + b = size − 1: the booleans first (few),
        // then comparisons, then arithmetic (most).
        self.connectives(size)?;
        self.comparisons(size)?;
        self.arithmetic(size)?;
        // `if c then x else y`: sizes c + x + y = size − 1.
        for c in 3..size.saturating_sub(2) {
            for a in 1..size - 1 - c {
                let b = size - 1 - c - a;
                for t in self.bool_range(c) {
                    let bits = self.pool.bool_vals[t as usize];
                    for x in self.int_range(a) {
                        for y in self.int_range(b) {
                            if x == y {
                                continue;
                            }
                            self.count()?;
                            let k = self.pool.k;
                            let (xs, ys) = (x as usize * k, y as usize * k);
                            for i in 0..k {
                                self.buf[i] = i64::from(match bits >> i & 1 {
                                    1 => self.pool.int_vals[xs + i],
                                    _ => self.pool.int_vals[ys + i],
                                });
                            }
                            self.keep_int(Op::If, [t, x, y])?;
                        }
                    }
                }
            }
        }
        Ok(())
    }

    /// `and` and `or` of two kept booleans.
    fn connectives(&mut self, size: usize) -> Result<(), Halt<E>> {
        for a in (size - 1).div_ceil(2)..size - 1 {
            let b = size - 1 - a;
            for o in [BinOp::And, BinOp::Or] {
                for x in self.bool_range(a) {
                    for y in self.bool_range(b) {
                        if a == b && y <= x {
                            continue;
                        }
                        self.count()?;
                        let (u, v) = (
                            self.pool.bool_vals[x as usize],
                            self.pool.bool_vals[y as usize],
                        );
                        let bits = if o == BinOp::And { u & v } else { u | v };
                        self.keep_bool(Op::Bin(o), [x, y, 0], bits)?;
                    }
                }
            }
        }
        Ok(())
    }

    /// `==`, `!=`, `<` and `<=` of two kept integers (`>` and `>=` are
    /// these with the operands swapped).
    fn comparisons(&mut self, size: usize) -> Result<(), Halt<E>> {
        for a in 1..size - 1 {
            let b = size - 1 - a;
            for o in [BinOp::Eq, BinOp::Ne, BinOp::Lt, BinOp::Le] {
                let symmetric = matches!(o, BinOp::Eq | BinOp::Ne);
                if symmetric && a < b {
                    continue;
                }
                for x in self.int_range(a) {
                    for y in self.int_range(b) {
                        if symmetric && a == b && y <= x {
                            continue;
                        }
                        self.count()?;
                        let bits = self.compare(o, x, y);
                        self.keep_bool(Op::Bin(o), [x, y, 0], bits)?;
                    }
                }
            }
        }
        Ok(())
    }

    /// The integer operations and `min`, `max` of two kept integers.
    fn arithmetic(&mut self, size: usize) -> Result<(), Halt<E>> {
        for a in 1..size - 1 {
            let b = size - 1 - a;
            for op in INT_OPS
                .iter()
                .map(|&o| Op::Bin(o))
                .chain([Op::Min, Op::Max])
            {
                let symmetric = matches!(
                    op,
                    Op::Min
                        | Op::Max
                        | Op::Bin(
                            BinOp::Add | BinOp::Mul | BinOp::BitXor | BinOp::BitAnd | BinOp::BitOr
                        )
                );
                if symmetric && a < b {
                    continue;
                }
                // A divisor or a shift amount has one value at every point
                // of the sample: a number.
                let by_number = matches!(
                    op,
                    Op::Bin(BinOp::Div | BinOp::Rem | BinOp::Shl | BinOp::Shr)
                );
                let ys: Vec<u32> = match by_number {
                    true => self.pool.consts.get(b).cloned().unwrap_or_default(),
                    false => self.int_range(b).collect(),
                };
                for x in self.int_range(a) {
                    for &y in &ys {
                        if symmetric && a == b && y < x {
                            continue;
                        }
                        self.count()?;
                        if self.binary_int(op, x, y) {
                            self.keep_int(op, [x, y, 0])?;
                        }
                    }
                }
            }
        }
        Ok(())
    }

    /// The kept integers of a size.
    fn int_range(&self, size: usize) -> std::ops::Range<u32> {
        self.pool.int_levels.get(size).map_or(0..0, |l| l.0..l.1)
    }

    /// The kept booleans of a size.
    fn bool_range(&self, size: usize) -> std::ops::Range<u32> {
        self.pool.bool_levels.get(size).map_or(0..0, |l| l.0..l.1)
    }

    /// One more formula built: against the budget, and the caller asked
    /// now and then.
    fn count(&mut self) -> Result<(), Halt<E>> {
        if self.tried >= self.p.budget {
            return Err(Halt::Budget);
        }
        self.tried += 1;
        if self.tried - self.polled >= POLL_EVERY {
            (self.poll)(self.tried - self.polled).map_err(Halt::Stop)?;
            self.polled = self.tried;
        }
        Ok(())
    }

    /// `op` of the kept integer `x` into `buf`; false where it has no
    /// value at some point.
    fn unary_int(&mut self, op: Op, x: u32) -> bool {
        let k = self.pool.k;
        let xs = &self.pool.int_vals[x as usize * k..][..k];
        let f = match op {
            Op::Popcount => ops::popcount,
            _ => ops::isqrt,
        };
        for (o, &v) in self.buf.iter_mut().zip(xs) {
            match f(i64::from(v)) {
                Ok(r) => *o = r,
                Err(_) => return false,
            }
        }
        true
    }

    /// `x op y` of two kept integers into `buf`; false where it has no
    /// value at some point.
    fn binary_int(&mut self, op: Op, x: u32, y: u32) -> bool {
        let k = self.pool.k;
        let xs = &self.pool.int_vals[x as usize * k..][..k];
        let ys = &self.pool.int_vals[y as usize * k..][..k];
        match op {
            Op::Min => map2(xs, ys, &mut self.buf, |a, b| Some(a.min(b))),
            Op::Max => map2(xs, ys, &mut self.buf, |a, b| Some(a.max(b))),
            Op::Bin(BinOp::Add) => map2(xs, ys, &mut self.buf, i64::checked_add),
            Op::Bin(BinOp::Sub) => map2(xs, ys, &mut self.buf, i64::checked_sub),
            Op::Bin(BinOp::Mul) => map2(xs, ys, &mut self.buf, i64::checked_mul),
            Op::Bin(BinOp::BitXor) => map2(xs, ys, &mut self.buf, |a, b| Some(a ^ b)),
            Op::Bin(BinOp::BitAnd) => map2(xs, ys, &mut self.buf, |a, b| Some(a & b)),
            Op::Bin(BinOp::BitOr) => map2(xs, ys, &mut self.buf, |a, b| Some(a | b)),
            Op::Bin(o) => map2(xs, ys, &mut self.buf, |a, b| ops::int_op(o, a, b).ok()),
            _ => false,
        }
    }

    /// `x o y` of two kept integers, as bits.
    fn compare(&self, o: BinOp, x: u32, y: u32) -> u64 {
        let k = self.pool.k;
        let xs = &self.pool.int_vals[x as usize * k..][..k];
        let ys = &self.pool.int_vals[y as usize * k..][..k];
        let mut bits = 0u64;
        for (i, (a, b)) in xs.iter().zip(ys).enumerate() {
            if ops::compare(o, i64::from(*a), i64::from(*b)) == Some(true) {
                bits |= 1 << i;
            }
        }
        bits
    }

    /// Keeps the integer formula whose values are in `buf`, unless one
    /// kept already has them; and asks whether it, or it combined with a
    /// kept one, answers.
    fn keep_int(&mut self, op: Op, kids: [u32; 3]) -> Result<(), Halt<E>> {
        if self.buf.iter().any(|&v| i32::try_from(v).is_err()) {
            return Ok(());
        }
        let h = hash(&self.buf);
        let kept = self.pool.int_seen.contains_key(&h);
        // A formula whose values at the sample are the target's is tried
        // even when one kept has them: it may fit where that one did not.
        if self.p.values_too && self.buf == self.target {
            let f = self.formula(op, kids);
            self.offer(Sought::Values, f);
        }
        if self.zeros != 0 && zero_bits(&self.buf) == self.zeros {
            let f = self.is_zero(op, kids);
            self.offer(Sought::Zeros, f);
        }
        if kept {
            return Ok(());
        }
        let id = self.pool.ints.len() as u32;
        self.pool.int_seen.insert(h, id);
        self.pool
            .prefixes
            .insert(hash(&self.buf[..PREFIX.min(self.pool.k)]));
        self.pool.ints.push(Entry { op, kids });
        self.pool
            .int_vals
            .extend(self.buf.iter().map(|&v| v as i32));
        if self.buf.iter().all(|&v| v == self.buf[0]) {
            let size = self.pool.int_levels.len();
            self.pool.consts.resize_with(size + 1, Vec::new);
            self.pool.consts[size].push(id);
        }
        self.inverse(id);
        Ok(())
    }

    /// The formulas `x + y`, `x - y`, `y - x` and `x ^ y` that give the
    /// values at the sample, for the new kept `x` and any kept `y`.
    fn inverse(&mut self, x: u32) {
        if !self.p.values_too {
            return;
        }
        let k = self.pool.k;
        for o in [BinOp::Add, BinOp::Sub, BinOp::BitXor, BinOp::Shl] {
            // The y with x o y = t (or, for `Shl` standing for y − x: y = t + x).
            let need = |i: usize| {
                let (v, t) = (
                    i64::from(self.pool.int_vals[x as usize * k + i]),
                    self.target[i],
                );
                match o {
                    BinOp::Add => t.checked_sub(v),
                    BinOp::Sub => v.checked_sub(t),
                    BinOp::BitXor => Some(t ^ v),
                    _ => t.checked_add(v),
                }
            };
            // Most lookups fail: the first values say so first.
            let p = PREFIX.min(k);
            let mut ok = true;
            for i in 0..p {
                match need(i) {
                    Some(n) => self.need[i] = n,
                    None => ok = false,
                }
            }
            if !ok || !self.pool.prefixes.contains(&hash(&self.need[..p])) {
                continue;
            }
            for i in p..k {
                match need(i) {
                    Some(n) => self.need[i] = n,
                    None => ok = false,
                }
            }
            if !ok {
                continue;
            }
            let Some(&y) = self.pool.int_seen.get(&hash(&self.need)) else {
                continue;
            };
            let ys = &self.pool.int_vals[y as usize * k..][..k];
            if ys.iter().zip(&self.need).any(|(&a, &b)| i64::from(a) != b) {
                continue;
            }
            // The operands of `+` and `^` in the order they were kept.
            let top = match o {
                BinOp::Shl => (BinOp::Sub, y, x),
                BinOp::Sub => (o, x, y),
                o => (o, x.min(y), x.max(y)),
            };
            let f = self.formula(Op::Bin(top.0), [top.1, top.2, 0]);
            self.offer(Sought::Values, f);
        }
    }

    /// Keeps a boolean formula, unless one kept already has its values.
    fn keep_bool(&mut self, op: Op, kids: [u32; 3], bits: u64) -> Result<(), Halt<E>> {
        let bits = bits & self.pool.mask;
        if self.zeros != 0 && bits == self.zeros {
            let f = self.formula(op, kids);
            self.offer(Sought::Zeros, f);
        }
        if self.pool.bool_seen.contains_key(&bits) {
            return Ok(());
        }
        let id = self.pool.bools.len() as u32;
        self.pool.bool_seen.insert(bits, id);
        self.pool.bools.push(Entry { op, kids });
        self.pool.bool_vals.push(bits);
        Ok(())
    }

    /// The formula `op` of the kept `kids` (integers or booleans, as `op`
    /// takes them; `u32::MAX` for an integer: the number 0).
    fn formula(&self, op: Op, kids: [u32; 3]) -> Formula {
        let mut nodes = Vec::new();
        self.push(&mut nodes, op, kids);
        Formula { nodes }
    }

    /// `op` of the kept `kids` pushed onto `nodes`, its operands first;
    /// its index.
    fn push(&self, nodes: &mut Vec<(Op, [u32; 3])>, op: Op, kids: [u32; 3]) -> u32 {
        let mut at = [0u32; 3];
        for (j, slot) in at.iter_mut().enumerate().take(op.arity()) {
            // `if`'s first operand and those of `not`, `and` and `or` are
            // booleans.
            let is_bool = match op {
                Op::If => j == 0,
                Op::Not | Op::Bin(BinOp::And | BinOp::Or) => true,
                _ => false,
            };
            *slot = match (is_bool, kids[j]) {
                (false, u32::MAX) => {
                    nodes.push((Op::Const(0), [0; 3]));
                    (nodes.len() - 1) as u32
                }
                (true, id) => {
                    let e = self.pool.bools[id as usize];
                    self.push(nodes, e.op, e.kids)
                }
                (false, id) => {
                    let e = self.pool.ints[id as usize];
                    self.push(nodes, e.op, e.kids)
                }
            };
        }
        nodes.push((op, at));
        (nodes.len() - 1) as u32
    }

    /// `f == 0`, for the formula `op` of the kept `kids`.
    fn is_zero(&self, op: Op, kids: [u32; 3]) -> Formula {
        let mut nodes = Vec::new();
        let f = self.push(&mut nodes, op, kids);
        nodes.push((Op::Const(0), [0; 3]));
        nodes.push((Op::Bin(BinOp::Eq), [f, f + 1, 0]));
        Formula { nodes }
    }

    /// A formula that fits the sample: kept as an answer if it fits every
    /// point.
    fn offer(&mut self, kind: Sought, f: Formula) {
        let p = self.p;
        let mut vals = Vec::with_capacity(f.size());
        let fits = (0..p.values.len()).all(|i| {
            let x = &p.points[i * p.vars..][..p.vars];
            match (kind, f.eval_in(x, &mut vals)) {
                (Sought::Values, Some(Val::Int(v))) => v == p.values[i],
                (Sought::Zeros, Some(Val::Bool(b))) => b == (p.values[i] == 0),
                _ => false,
            }
        });
        if fits {
            self.found.push((kind, f));
        }
    }
}

/// `out[i] = f(xs[i], ys[i])`; false where `f` has no value.
#[inline(always)]
fn map2(xs: &[i32], ys: &[i32], out: &mut [i64], f: impl Fn(i64, i64) -> Option<i64>) -> bool {
    for ((o, &a), &b) in out.iter_mut().zip(xs).zip(ys) {
        match f(i64::from(a), i64::from(b)) {
            Some(v) => *o = v,
            None => return false,
        }
    }
    true
}

/// The points where the values are 0, as bits.
fn zero_bits(xs: &[i64]) -> u64 {
    xs.iter()
        .enumerate()
        .filter(|(_, v)| **v == 0)
        .fold(0, |m, (i, _)| m | 1 << i)
}

/// A hash of a formula's values at the sample (two formulas with one hash
/// count as one: a formula lost so, of 2^64, is not missed).
fn hash(xs: &[i64]) -> u64 {
    // Four lanes, so that the multiplications do not wait on each other.
    const M: u64 = 0x517c_c1b7_2722_0a95;
    let mut h = [
        0x9e37_79b9_7f4a_7c15u64,
        0x6a09_e667_f3bc_c909,
        0xbb67_ae85_84ca_a73b,
        0x3c6e_f372_fe94_f82b,
    ];
    let mut chunks = xs.chunks_exact(4);
    for c in &mut chunks {
        for j in 0..4 {
            h[j] = (h[j] ^ c[j] as u64).wrapping_mul(M).rotate_left(29);
        }
    }
    for (j, &x) in chunks.remainder().iter().enumerate() {
        h[j] = (h[j] ^ x as u64).wrapping_mul(M).rotate_left(29);
    }
    let h = h[0] ^ h[1].rotate_left(16) ^ h[2].rotate_left(32) ^ h[3].rotate_left(48);
    (h ^ h >> 31).wrapping_mul(M)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The search over one variable `n` in `0..count`, its values `f(n)`.
    fn one(count: i64, f: impl Fn(i64) -> i64, budget: u64) -> Guess {
        let points: Vec<i64> = (0..count).collect();
        let values: Vec<i64> = points.iter().map(|&n| f(n)).collect();
        let p = Problem {
            vars: 1,
            points: &points,
            values: &values,
            sample: 64,
            constants: &(0..=10).collect::<Vec<i64>>(),
            budget,
            values_too: true,
        };
        search::<()>(&p, &mut |_| Ok(())).unwrap()
    }

    fn text(g: &Guess) -> Option<String> {
        g.found.as_ref().map(|(_, f)| f.text(&["n".to_string()]))
    }

    #[test]
    fn small_formulas_are_found_smallest_first() {
        assert_eq!(text(&one(200, |n| n, 1000)).as_deref(), Some("n"));
        assert_eq!(text(&one(200, |n| n % 4, 10_000)).as_deref(), Some("n % 4"));
        assert_eq!(
            text(&one(300, |n| n / 6 * 3 + n % 3, 10_000_000)).as_deref(),
            Some("n % 3 + n / 6 * 3")
        );
    }

    /// Formulas of a few shapes with random numbers: each is found again,
    /// no larger than written, and what is found gives the same values
    /// (computed here, apart from the search).
    #[test]
    fn random_small_formulas_are_found_again() {
        use proptest::prelude::*;
        type Shape = (&'static str, usize, fn(i64, i64, i64) -> i64);
        let shapes: [Shape; 6] = [
            ("n % c", 3, |n, c, _| n % c),
            ("n / c + d", 5, |n, c, d| n / c + d),
            ("n * c ^ d", 5, |n, c, d| (n * c) ^ d),
            ("min(n, c) + n % d", 7, |n, c, d| n.min(c) + n % d),
            ("n / c * d + n % c", 9, |n, c, d| n / c * d + n % c),
            ("n & c | d", 5, |n, c, d| (n & c) | d),
        ];
        let mut runner = proptest::test_runner::TestRunner::new(proptest::test_runner::Config {
            cases: 24,
            ..Default::default()
        });
        runner
            .run(&(0..shapes.len(), 1i64..=10, 1i64..=10), |(i, c, d)| {
                let (text, size, f) = shapes[i];
                let g = one(1024, |n| f(n, c, d), 3_000_000);
                let found = g.found.as_ref().map(|(_, f)| f.clone());
                prop_assert!(found.is_some(), "{text} with c = {c}, d = {d}: none");
                let found = found.unwrap_or_else(|| unreachable!());
                prop_assert!(
                    found.size() <= size,
                    "{text}: {}",
                    found.text(&["n".into()])
                );
                for n in 0..5000 {
                    prop_assert_eq!(found.eval(&[n]), Some(Val::Int(f(n, c, d))), "{}", text);
                }
                Ok(())
            })
            .unwrap_or_else(|e| panic!("{e}"));
    }

    #[test]
    fn a_formula_fitting_the_sample_only_is_no_answer() {
        // n % 4 up to 63, then 7 at 100.
        let g = one(101, |n| if n == 100 { 7 } else { n % 4 }, 20_000);
        assert!(g.found.is_none(), "{:?}", text(&g));
        assert!(g.complete >= 3);
    }

    #[test]
    fn formulas_are_written_with_the_parentheses_they_need() {
        let f = Formula {
            nodes: vec![
                (Op::Var(0), [0; 3]),
                (Op::Const(1), [0; 3]),
                (Op::Bin(BinOp::Sub), [0, 1, 0]),
                (Op::Var(0), [0; 3]),
                (Op::Bin(BinOp::Sub), [3, 2, 0]),
                (Op::Const(2), [0; 3]),
                (Op::Bin(BinOp::Mul), [4, 5, 0]),
            ],
        };
        assert_eq!(f.text(&["n".into()]), "(n - (n - 1)) * 2");
        assert_eq!(f.eval(&[5]), Some(Val::Int(2)));
        // `^` regroups without parentheses; `-` does not.
        let xor = Formula {
            nodes: vec![
                (Op::Var(2), [0; 3]),
                (Op::Var(0), [0; 3]),
                (Op::Var(1), [0; 3]),
                (Op::Bin(BinOp::BitXor), [1, 2, 0]),
                (Op::Bin(BinOp::BitXor), [0, 3, 0]),
            ],
        };
        let names = ["a".to_string(), "b".to_string(), "c".to_string()];
        assert_eq!(xor.text(&names), "c ^ a ^ b");
    }
}
