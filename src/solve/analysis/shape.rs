//! The shape of a one-parameter game's moves, derived from its rules: for
//! every n from some threshold on, the options of G(n) are exactly the
//! take-and-break families "take t tokens, leave j heaps" (j ≤ 2, or 3 for a
//! hexadecimal shorthand, read from its digits), whatever way the rules are
//! written. This is what the periodicity theorems need.
//!
//! The rules are read symbolically: arguments and conditions must be affine
//! in the parameter `n` and in at most one "split" loop variable whose range
//! depends on `n`; every other loop runs over constants and is unrolled.
//! Everything the reading cannot follow makes the shape unknown (and
//! periods only observed), never wrong.

mod octal;

use super::Section;
use crate::compiled::Compiler;
use crate::ir::{BinOp, Clause, Expr, ExprId, GameId};
use crate::linear::{Affine, Linear};
use crate::ops::div_floor_wide as div_floor;
use crate::oracle::{Moves, Oracle};
use crate::value::Value;
use std::collections::BTreeSet;

pub use octal::exact_octal;

/// A move family, valid for every n from [`Shape::from`] on.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct Family {
    /// Tokens taken.
    pub take: i64,
    /// Heaps left: 0 (the move empties everything), 1 (one heap of
    /// `n - take`), 2 or 3 (non-empty heaps that add up to `n - take`, in
    /// every way).
    pub heaps: u8,
    /// Two heaps of different sizes only: the even split is no move
    /// (Grundy's game). The periodicity theorems do not cover it.
    pub unequal: bool,
}

/// The shape of a game's moves for large n.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Shape {
    /// The move families, sorted.
    pub families: Vec<Family>,
    /// From this n on, the options of G(n) are exactly the families'.
    pub from: i64,
    /// A move that takes any number of tokens (read only by
    /// [`shape_any`]; the other readers refuse such a game).
    pub any: Option<Any>,
}

/// Moves to one heap of any size up to `n - take`: the options G(x) for
/// every x in `low` and every `from_heap <= x <= n - take` (Nim's moves,
/// or a subtraction game whose set is every number but a few).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Any {
    /// The fewest tokens a move of the range takes (at least 1).
    pub take: i64,
    /// From this heap on, every heap up to `n - take` is an option.
    pub from_heap: i64,
    /// Heaps below `from_heap` that are options too (sorted).
    pub low: Vec<i64>,
}

impl Any {
    /// Both ranges' moves (the union of their options, for large n).
    fn merge(&self, o: &Any) -> Any {
        let from_heap = self.from_heap.min(o.from_heap);
        let low: BTreeSet<i64> = self
            .low
            .iter()
            .chain(&o.low)
            .copied()
            .filter(|&x| x < from_heap)
            .collect();
        Any {
            take: self.take.min(o.take),
            from_heap,
            low: low.into_iter().collect(),
        }
    }
}

impl Shape {
    /// The most tokens a move takes.
    pub fn max_take(&self) -> i64 {
        self.families.iter().map(|f| f.take).max().unwrap_or(0)
    }

    /// The most heaps a move leaves.
    pub fn max_heaps(&self) -> u8 {
        self.families.iter().map(|f| f.heaps).max().unwrap_or(0)
    }

    /// Whether every move leaves at most one heap: G(n - c), c from a
    /// finite set (a subtraction game, for large n).
    pub fn is_subtraction(&self) -> bool {
        self.max_heaps() <= 1
    }

    /// The octal (or hexadecimal) digits of the families (bits 2, 4 and 8 only: bit 1 concerns
    /// a heap of exactly k, below the threshold); `None` for a code longer
    /// than anyone would read.
    pub fn digits(&self) -> Option<Vec<u8>> {
        if self.max_take() > MAX_CODE || self.families.iter().any(|f| f.unequal) {
            return None;
        }
        let mut digits = vec![0u8; self.max_take() as usize + 1];
        for f in &self.families {
            match f.heaps {
                1 => digits[f.take as usize] |= 2,
                2 => digits[f.take as usize] |= 4,
                3 => digits[f.take as usize] |= 8,
                _ => {}
            }
        }
        Some(digits)
    }
}

/// Longest octal code shown for a shape.
const MAX_CODE: i64 = 1000;
/// Largest number a rule may use for its shape to be derived: beyond, the
/// rule is not a heap game anyone plays, and the reasoning would risk
/// overflow.
const MAX_NUMBER: i64 = 1 << 31;

/// A linear condition on (N, A).
#[derive(Clone, Copy, Debug)]
enum Cons {
    /// `form >= 0`
    Ge(Affine),
    /// `form == 0`
    Eq(Affine),
    /// `form != 0`
    Ne(Affine),
}

/// One case of a rule, after unrolling its constant loops.
#[derive(Clone, Debug)]
struct Piece {
    split: bool,
    cons: Vec<Cons>,
    comps: Vec<Affine>,
}

/// Most cases the unrolling may produce.
const MAX_PIECES: usize = 4096;
/// Thresholds beyond this are not worth a proof.
const MAX_FROM: i64 = 1 << 24;

/// Why a shape could not be derived (shown to users).
pub type Why = String;

/// Derives the shape of a one-parameter game, or says why not: the moves
/// the periodicity theorems cover.
pub fn shape(m: &mut dyn Oracle, game: GameId) -> Result<Shape, Why> {
    read(m, &Section::whole(game), false, false)
}

/// [`shape`] of a game with all parameters but the heap fixed.
pub fn shape_of(m: &mut dyn Oracle, sec: &Section) -> Result<Shape, Why> {
    read(m, sec, false, false)
}

/// [`shape_of`], moves to any heap up to `n - t` allowed too ([`Shape::any`]):
/// for the period searches, whose proofs read them.
pub fn shape_any(m: &mut dyn Oracle, sec: &Section) -> Result<Shape, Why> {
    read(m, sec, false, true)
}

/// [`shape`], splits into two unequal heaps allowed too (for evaluating
/// values, not for proofs).
pub fn moves(m: &mut dyn Oracle, game: GameId) -> Result<Shape, Why> {
    read(m, &Section::whole(game), true, false)
}

/// Why the readers other than [`shape_any`] refuse a range of one-heap
/// moves.
const ANY_MOVE: &str = "a move over a range takes any number of tokens, leaving one heap";

fn read(m: &mut dyn Oracle, sec: &Section, unequal_ok: bool, any_ok: bool) -> Result<Shape, Why> {
    let game = sec.game;
    let prog = m.program().clone();
    let g = &prog.games[game.index()];
    if g.params.len() != sec.args.len() {
        return Err(format!("`{}` has {} parameters", g.name, g.params.len()));
    }
    if !g.int_params.iter().all(|&i| i) {
        return Err(format!("a parameter of `{}` is not an integer", g.name));
    }
    // A hexadecimal shorthand's splits into three heaps are two nested
    // loops the rule reader does not follow: its shape is its digits.
    if let Some(crate::syntax::ast::Shorthand::Octal { digits }) = &g.shorthand
        && digits.iter().any(|d| d & 8 != 0)
    {
        return Ok(octal::of_digits(digits));
    }
    let mut pieces = Vec::new();
    for rule in &g.rules {
        let mut env: Vec<Option<Affine>> = vec![None; (g.slots as usize).max(sec.args.len())];
        for (i, &v) in sec.args.iter().enumerate() {
            env[i] = Some(Affine::konst(v));
        }
        env[sec.heap] = Some(Affine::N);
        let reader = ShapeReader { m, sec };
        reader.unroll(
            &rule.clauses,
            rule.body,
            &mut env,
            false,
            Vec::new(),
            &mut pieces,
        )?;
    }
    // A component G(0) is harmless when G(0) has no move: it adds nothing.
    let g0_terminal = {
        let p = m
            .intern(game, &sec.at(0), g.header)
            .map_err(|s| s.into_diag().message.clone())?;
        let mut moves = Moves::default();
        m.options_into(p, &mut moves).is_ok() && moves.is_empty()
    };
    let mut families = BTreeSet::new();
    let mut from = 0i64;
    let mut any: Option<Any> = None;
    // The ranges' largest fewest-taken and largest first heap: from where
    // their union is one range.
    let (mut most_take, mut most_heap) = (0i64, 0i64);
    for piece in pieces {
        let forms = piece.comps.iter().chain(piece.cons.iter().map(|c| match c {
            Cons::Ge(f) | Cons::Eq(f) | Cons::Ne(f) => f,
        }));
        if forms
            .flat_map(|f| [f.k, f.n, f.a])
            .any(|v| !(-MAX_NUMBER..=MAX_NUMBER).contains(&v))
        {
            return Err(format!("its rules use numbers beyond {MAX_NUMBER}"));
        }
        if let Some(found) = classify(&piece, g0_terminal, unequal_ok, &mut families, &mut from)? {
            if !any_ok {
                return Err(ANY_MOVE.into());
            }
            most_take = most_take.max(found.take);
            most_heap = most_heap.max(found.from_heap);
            any = Some(any.map_or_else(|| found.clone(), |a| a.merge(&found)));
        }
    }
    if let Some(a) = &any {
        if families.iter().any(|f| f.heaps >= 2) {
            return Err(
                "a move takes any number of tokens, and others split the heap: \
                        no theorem covers both"
                    .into(),
            );
        }
        // Each range reaches past every range's first heap from here: their
        // union is the one range.
        from = from.max(most_take.saturating_add(most_heap));
        // One-heap moves the range makes anyway add nothing, once the range
        // reaches down to them.
        for f in families.iter().filter(|f| f.heaps == 1 && f.take >= a.take) {
            from = from.max(f.take.saturating_add(a.from_heap));
        }
        families.retain(|f| f.heaps != 1 || f.take < a.take);
    }
    if from > MAX_FROM {
        return Err(format!(
            "the rules settle into a regular shape only from n = {from} on"
        ));
    }
    Ok(Shape {
        families: families.into_iter().collect(),
        from,
        any,
    })
}

struct ShapeReader<'a> {
    m: &'a dyn Oracle,
    sec: &'a Section,
}

impl ShapeReader<'_> {
    fn unroll(
        &self,
        clauses: &[Clause],
        body: ExprId,
        env: &mut Vec<Option<Affine>>,
        split: bool,
        cons: Vec<Cons>,
        out: &mut Vec<Piece>,
    ) -> Result<(), Why> {
        if out.len() > MAX_PIECES {
            return Err("its loops over constants have too many cases".into());
        }
        let Some((clause, rest)) = clauses.split_first() else {
            let mut comps = Vec::new();
            self.components(body, env, &mut comps)?;
            out.push(Piece { split, cons, comps });
            return Ok(());
        };
        match *clause {
            Clause::While { .. } => Err("a `while` clause ends a loop early".into()),
            Clause::Let { .. } => Err("a `let` clause holds a computed value".into()),
            Clause::If { cond } => {
                let mut cons = cons;
                if self.condition(cond, env, &mut cons)? {
                    self.unroll(rest, body, env, split, cons, out)?;
                }
                Ok(())
            }
            Clause::For { slot, iter } => {
                let prog = self.m.program();
                let slot = slot.index();
                if slot >= env.len() {
                    env.resize(slot + 1, None);
                }
                match prog.expr(iter).clone() {
                    Expr::Range { lo, hi, inclusive } => {
                        let lo = self.aff(lo, env).ok_or_else(unsupported)?;
                        let hi = self.aff(hi, env).ok_or_else(unsupported)?;
                        let hi = if inclusive {
                            hi
                        } else {
                            hi.checked_sub(Affine::konst(1)).ok_or_else(unsupported)?
                        };
                        if lo.is_const() && hi.is_const() {
                            if hi.k.saturating_sub(lo.k) > MAX_PIECES as i64 {
                                return Err("a loop over constants is too long".into());
                            }
                            for v in lo.k..=hi.k {
                                env[slot] = Some(Affine::konst(v));
                                self.unroll(rest, body, env, split, cons.clone(), out)?;
                            }
                            return Ok(());
                        }
                        if split || lo.a != 0 || hi.a != 0 {
                            return Err("it has two loops whose ranges depend on n".into());
                        }
                        let a = Affine::A;
                        let mut cons = cons;
                        cons.push(Cons::Ge(a.checked_sub(lo).ok_or_else(unsupported)?));
                        cons.push(Cons::Ge(hi.checked_sub(a).ok_or_else(unsupported)?));
                        env[slot] = Some(a);
                        self.unroll(rest, body, env, true, cons, out)
                    }
                    _ => {
                        let values = self.constant_list(iter, env).ok_or_else(unsupported)?;
                        for v in values {
                            env[slot] = Some(Affine::konst(v));
                            self.unroll(rest, body, env, split, cons.clone(), out)?;
                        }
                        Ok(())
                    }
                }
            }
        }
    }

    /// A list of integers that does not depend on n.
    fn constant_list(&self, e: ExprId, env: &[Option<Affine>]) -> Option<Vec<i64>> {
        match self.m.program().expr(e) {
            Expr::Const(c) => match self.m.constants().get(c.index())?.as_ref()? {
                Value::Range(lo, hi) if hi.saturating_sub(*lo) <= MAX_PIECES as i64 => {
                    Some((*lo..=*hi).collect())
                }
                _ => self.compiler().int_list(e).map(|xs| xs.to_vec()),
            },
            Expr::List(items) => items
                .iter()
                .map(|i| self.aff(*i, env).filter(|a| a.is_const()).map(|a| a.k))
                .collect(),
            _ => None,
        }
    }

    fn compiler(&self) -> Compiler<'_> {
        Compiler {
            prog: self.m.program(),
            consts: self.m.constants(),
        }
    }

    /// `e` as an affine form in (N, A): the rule's expression compiled and
    /// lowered to a linear form (the lowering the kernels use), each slot
    /// standing for its form in N (variable 0) and A (variable 1).
    fn aff(&self, e: ExprId, env: &[Option<Affine>]) -> Option<Affine> {
        let slot = |s: u32| {
            let a = (*env.get(s as usize)?)?;
            Linear::konst(a.k)
                .add(&Linear::slot(0).scale(a.n)?)?
                .add(&Linear::slot(1).scale(a.a)?)
        };
        let lin = Linear::of_in(&self.compiler().int_deep(e)?, &slot)?;
        Some(Affine {
            k: lin.k,
            n: lin.coef(0),
            a: lin.coef(1),
        })
    }

    /// Adds a condition's constraints; `false` when it never holds.
    fn condition(
        &self,
        e: ExprId,
        env: &[Option<Affine>],
        cons: &mut Vec<Cons>,
    ) -> Result<bool, Why> {
        let prog = self.m.program();
        let (op, x, y) = match prog.expr(e) {
            Expr::Bool(b) => return Ok(*b),
            Expr::Binary(BinOp::And, x, y) => {
                let (x, y) = (*x, *y);
                return Ok(self.condition(x, env, cons)? && self.condition(y, env, cons)?);
            }
            Expr::Binary(op, x, y) => (*op, *x, *y),
            _ => return Err(unsupported()),
        };
        let (x, y) = (
            self.aff(x, env).ok_or_else(unsupported)?,
            self.aff(y, env).ok_or_else(unsupported)?,
        );
        let d = x.checked_sub(y).ok_or_else(unsupported)?;
        let one = Affine::konst(1);
        let c = match op {
            BinOp::Lt => Cons::Ge(
                d.scale(-1)
                    .and_then(|d| d.checked_sub(one))
                    .ok_or_else(unsupported)?,
            ),
            BinOp::Le => Cons::Ge(d.scale(-1).ok_or_else(unsupported)?),
            BinOp::Gt => Cons::Ge(d.checked_sub(one).ok_or_else(unsupported)?),
            BinOp::Ge => Cons::Ge(d),
            BinOp::Eq => Cons::Eq(d),
            BinOp::Ne => Cons::Ne(d),
            _ => return Err(unsupported()),
        };
        // Decide constant conditions now.
        if d.is_const() {
            return Ok(match c {
                Cons::Ge(f) => f.k >= 0,
                Cons::Eq(f) => f.k == 0,
                Cons::Ne(f) => f.k != 0,
            });
        }
        cons.push(c);
        Ok(true)
    }

    fn components(
        &self,
        e: ExprId,
        env: &[Option<Affine>],
        out: &mut Vec<Affine>,
    ) -> Result<(), Why> {
        match self.m.program().expr(e) {
            Expr::EmptyPos | Expr::Int(0) => Ok(()),
            Expr::PosSum(x, y) => {
                let (x, y) = (*x, *y);
                self.components(x, env, out)?;
                self.components(y, env, out)
            }
            Expr::Apply { game, args }
                if *game == self.sec.game && args.len() == self.sec.args.len() =>
            {
                // The fixed parameters stay as they are.
                for (i, &a) in args.iter().enumerate() {
                    if i != self.sec.heap
                        && self.aff(a, env) != Some(Affine::konst(self.sec.args[i]))
                    {
                        return Err("a move changes a fixed parameter".into());
                    }
                }
                out.push(self.aff(args[self.sec.heap], env).ok_or_else(unsupported)?);
                Ok(())
            }
            Expr::Apply { .. } => Err("a move leads to another game".into()),
            _ => Err(unsupported()),
        }
    }
}

fn unsupported() -> Why {
    "its rules use arithmetic that is not linear in n (or not written with ranges, constant lists and comparisons)".into()
}

/// Where a condition on n alone settles, for large n: `Ok(Some(t))` true
/// from t on, `Ok(None)` false from some point (returned as its last n).
fn settle(c: &Cons) -> Result<Result<i64, i64>, Why> {
    let (f, kind) = match c {
        Cons::Ge(f) => (f, 0),
        Cons::Eq(f) => (f, 1),
        Cons::Ne(f) => (f, 2),
    };
    debug_assert!(f.a == 0);
    let (cn, k) = (f.n as i128, f.k as i128);
    let clamp = |v: i128| v.clamp(-(1 << 62), 1 << 62) as i64;
    Ok(match kind {
        // cn·n + k >= 0
        0 if cn > 0 => Ok(clamp(div_ceil(-k, cn))),
        0 => Err(clamp(div_floor(k, -cn))),
        // true at one n at most
        1 => Err(clamp(div_floor(-k, cn).max(div_ceil(-k, cn)))),
        _ => Ok(clamp(div_floor(-k, cn).max(div_ceil(-k, cn)) + 1)),
    })
}

fn div_ceil(a: i128, b: i128) -> i128 {
    -div_floor(-a, b)
}

/// `floor((p·n + q) / r)`, r > 0.
#[derive(Clone, Copy, Debug)]
struct Floor {
    p: i128,
    q: i128,
    r: i128,
}

impl Floor {
    fn at(self, n: i128) -> i128 {
        div_floor(self.p * n + self.q, self.r)
    }
    /// `s - self` where `s = n - t`: `floor(x) = -ceil(-x)` makes it
    /// `ceil((r·(n − t) − p·n − q) / r)`.
    fn reflect(self, t: i128) -> Floor {
        let p = self.r - self.p;
        let q = -self.r * t - self.q;
        Floor {
            p,
            q: q + self.r - 1,
            r: self.r,
        }
    }
}

/// From which n on any two of these functions keep their order (with a
/// margin of 3): their difference grows beyond the offsets.
fn crossing(fs: &[Floor]) -> i128 {
    let mut n0 = 0;
    for (i, f) in fs.iter().enumerate() {
        for g in &fs[i + 1..] {
            let d = (f.p * g.r - g.p * f.r).abs();
            if d != 0 {
                let num = f.q.abs() * g.r + g.q.abs() * f.r + 5 * f.r * g.r;
                n0 = n0.max(num / d + 1);
            }
        }
    }
    n0
}

fn classify(
    piece: &Piece,
    g0_terminal: bool,
    unequal_ok: bool,
    families: &mut BTreeSet<Family>,
    from: &mut i64,
) -> Result<Option<Any>, Why> {
    // Conditions on n alone.
    let mut start = 0i64;
    let mut xcons = Vec::new();
    for c in &piece.cons {
        let f = match c {
            Cons::Ge(f) | Cons::Eq(f) | Cons::Ne(f) => f,
        };
        if f.a != 0 {
            xcons.push(*c);
            continue;
        }
        match settle(c)? {
            Ok(t) => start = start.max(t),
            Err(last) => {
                // This case stops applying after `last`: the shape holds
                // beyond it.
                *from = (*from).max(last.saturating_add(1));
                return Ok(None);
            }
        }
    }
    *from = (*from).max(start);
    let mut comps: Vec<Affine> = Vec::new();
    for c in &piece.comps {
        if c.is_const() && c.k == 0 && g0_terminal {
            continue;
        }
        comps.push(*c);
    }
    if !piece.split {
        return match comps.as_slice() {
            [] => {
                families.insert(Family {
                    take: 0,
                    heaps: 0,
                    unequal: false,
                });
                Ok(None)
            }
            [c] if c.n == 1 && c.k < 0 => {
                let take = c.k.checked_neg().ok_or_else(unsupported)?;
                families.insert(Family {
                    take,
                    heaps: 1,
                    unequal: false,
                });
                *from = (*from).max(take);
                Ok(None)
            }
            [c] if c.n == 1 => Err("a move does not make the heap smaller".into()),
            _ => Err("a move leaves heaps whose sizes do not add up to at most n".into()),
        };
    }
    if let [x] = comps.as_slice() {
        let (range, takes) = any_range(x, &xcons, from)?;
        for take in takes {
            families.insert(Family {
                take,
                heaps: 1,
                unequal: false,
            });
        }
        *from = (*from).max(range.take);
        return Ok(Some(range));
    }
    // A split: x = ±A + k1 and y = N − x − t.
    let [c1, c2] = comps.as_slice() else {
        return Err(match comps.len() {
            0 => "a move over a range leaves no heap".into(),
            n => format!("a move over a range leaves {n} heaps (a split here makes two)"),
        });
    };
    let (x, y) = if c1.n == 0 { (c1, c2) } else { (c2, c1) };
    if x.n != 0 || y.n != 1 || x.a.abs() != 1 || x.a + y.a != 0 {
        return Err("a split does not share out what is left of the heap".into());
    }
    let t = -(x.k.checked_add(y.k).ok_or_else(unsupported)?);
    if t < 0 {
        return Err("a split makes the heaps bigger".into());
    }
    let (lower, upper) = split_bounds(x, &xcons)?;
    let (n0, m_lo, unequal) = split_coverage(&lower, &upper, t, *from, unequal_ok)?;
    if m_lo == Some(0) && t == 0 {
        return Err("a split without taking leaves the whole heap: a move to itself".into());
    }
    if m_lo == Some(0) && !g0_terminal {
        return Err("a split can leave an empty heap, and a heap of 0 has moves of its own".into());
    }
    if m_lo == Some(0) {
        families.insert(Family {
            take: t,
            heaps: 1,
            unequal: false,
        });
    }
    families.insert(Family {
        take: t,
        heaps: 2,
        unequal: unequal == Some(true),
    });
    *from = (*from).max(n0 as i64);
    Ok(None)
}

/// A range of moves to one heap `x` (an affine form in N and the loop
/// variable A): for large n, every heap from a constant up to `n - t`,
/// but for heaps or takes a `!=` leaves out. Gives the range (its
/// fewest tokens taken past the takes left out) and the one-heap moves
/// below that are left in.
fn any_range(x: &Affine, xcons: &[Cons], from: &mut i64) -> Result<(Any, Vec<i64>), Why> {
    if x.a.abs() != 1 || !(0..=1).contains(&x.n) {
        return Err(ANY_MOVE.into());
    }
    // A = c·(x − cn·N − k) with c = ±1: each condition rewritten in x.
    let (c, cn0, k0) = (x.a as i128, x.n as i128, x.k as i128);
    let (mut lower, mut upper) = (Vec::new(), Vec::new());
    let (mut skip_heaps, mut skip_takes) = (BTreeSet::new(), BTreeSet::new());
    for cons in xcons {
        let f = match cons {
            Cons::Ge(f) | Cons::Ne(f) => f,
            Cons::Eq(_) => return Err("a range of moves has an `==` condition".into()),
        };
        let cx = f.a as i128 * c;
        let cn = f.n as i128 - cx * cn0;
        let k = f.k as i128 - cx * k0;
        match cons {
            Cons::Ne(_) => {
                // x ≠ −cx·(cn·N + k) when cx = ±1: a heap (no N) or a take.
                if cx.abs() != 1 {
                    return Err("a range of moves leaves out heaps by a `!=` it cannot read".into());
                }
                match -cx * cn {
                    0 => skip_heaps.insert((-cx * k) as i64),
                    1 => skip_takes.insert((cx * k) as i64),
                    _ => {
                        return Err(
                            "a range of moves leaves out heaps by a `!=` it cannot read".into()
                        );
                    }
                };
            }
            _ if cx > 0 => lower.push(Floor {
                p: -cn,
                q: -k + cx - 1,
                r: cx,
            }),
            _ => upper.push(Floor {
                p: cn,
                q: k,
                r: -cx,
            }),
        }
    }
    // For large n: the largest constant lower bound, the tightest `n − t`.
    let lo = lower
        .iter()
        .filter(|f| f.p == 0)
        .map(|f| f.at(0))
        .max()
        .ok_or("a range of moves has no lower bound that stays put")?;
    let top = upper
        .iter()
        .filter(|f| f.p == f.r)
        .map(|f| f.at(0))
        .min()
        .ok_or("a range of moves does not reach a fixed distance below n")?;
    if lower.iter().any(|f| f.p > 0) || upper.iter().any(|f| f.p < f.r) {
        return Err("a range of moves has bounds that grow with n at another rate".into());
    }
    let take = -top;
    if take < 1 {
        return Err("a range of moves can leave the heap as it is, or larger".into());
    }
    if lo < 0 {
        return Err("a range of moves can leave a heap of negative size".into());
    }
    let lo_f = Floor { p: 0, q: lo, r: 1 };
    let top_f = Floor { p: 1, q: top, r: 1 };
    let mut fs: Vec<Floor> = lower.iter().chain(&upper).copied().collect();
    fs.extend([lo_f, top_f]);
    let n0 = crossing(&fs).max(*from as i128);
    if n0 > MAX_FROM as i128 {
        return Err(format!("a range of moves settles only from n = {n0} on"));
    }
    // Past n0 the bounds are the ones read: checked at its first n.
    let at = |n: i128| {
        let l = lower.iter().map(|f| f.at(n)).max();
        let u = upper.iter().map(|f| f.at(n)).min();
        (l, u)
    };
    if at(n0) != (Some(lo), Some(n0 + top)) {
        return Err("a range of moves has bounds that do not settle".into());
    }
    *from = (*from).max(n0 as i64);
    // Heaps and takes left out are read one by one: only small ones.
    if skip_heaps.iter().chain(&skip_takes).any(|&v| v > MAX_CODE) {
        return Err(format!(
            "a range of moves leaves out a heap or a take past {MAX_CODE}"
        ));
    }
    let lo = lo as i64;
    let from_heap = skip_heaps.range(lo..).next_back().map_or(lo, |&h| h + 1);
    let low = (lo..from_heap)
        .filter(|h| !skip_heaps.contains(h))
        .collect();
    let take = take as i64;
    let past = skip_takes
        .range(take..)
        .next_back()
        .map_or(take, |&t| t + 1);
    let takes = (take..past).filter(|t| !skip_takes.contains(t)).collect();
    Ok((
        Any {
            take: past,
            from_heap,
            low,
        },
        takes,
    ))
}

/// A split's range rewritten in its first heap `x` (with `A = s·(x − k1)`,
/// `s = x.a`): the lower and upper bounds of `x`, each `⌊(p·N + q) / r⌋`.
fn split_bounds(x: &Affine, xcons: &[Cons]) -> Result<(Vec<Floor>, Vec<Floor>), Why> {
    // Rewrite the constraints in x: A = s·(x − k1) with s = x.a.
    let (s, k1) = (x.a as i128, x.k as i128);
    let mut lower = Vec::new();
    let mut upper = Vec::new();
    for &c in xcons {
        let Cons::Ge(f) = c else {
            return Err("a split's range has an `==` or `!=` condition".into());
        };
        // f.k + f.n·N + f.a·A = (f.k − f.a·s·k1) + f.n·N + (f.a·s)·x
        let cx = f.a as i128 * s;
        let k = f.k as i128 - f.a as i128 * s * k1;
        let cn = f.n as i128;
        if cx > 0 {
            // x >= ceil((−k − cn·N) / cx) = floor((−k − cn·N + cx − 1) / cx)
            lower.push(Floor {
                p: -cn,
                q: -k + cx - 1,
                r: cx,
            });
        } else {
            // x <= floor((k + cn·N) / −cx)
            upper.push(Floor {
                p: cn,
                q: k,
                r: -cx,
            });
        }
    }
    if lower.is_empty() || upper.is_empty() {
        return Err("a split's range is not bounded".into());
    }
    Ok((lower, upper))
}

/// Whether a split's range covers every way to share what is left of the
/// heap in two (or every way but the even one: `unequal`), from the `n0`
/// where every comparison has settled, over one period of them: `n0`, the
/// smallest first heap, and whether the even split is left out.
fn split_coverage(
    lower: &[Floor],
    upper: &[Floor],
    t: i64,
    from: i64,
    unequal_ok: bool,
) -> Result<(i128, Option<i128>, Option<bool>), Why> {
    let t128 = t as i128;
    let s_fn = Floor {
        p: 1,
        q: -t128,
        r: 1,
    };
    let half = Floor {
        p: 1,
        q: -t128,
        r: 2,
    };
    let mut fs = vec![
        s_fn,
        half,
        half.reflect(t128),
        Floor { p: 0, q: 0, r: 1 },
        Floor { p: 0, q: 1, r: 1 },
    ];
    for f in lower.iter().chain(upper) {
        fs.push(*f);
        fs.push(f.reflect(t128));
    }
    let n0 = crossing(&fs).max(from as i128).max(t128 + 2);
    if n0 > MAX_FROM as i128 {
        return Err(format!("a split's range settles only from n = {n0} on"));
    }
    // Every comparison repeats with this period beyond n0: check it all.
    let period = fs.iter().fold(2i128, |acc, f| lcm(acc, f.r));
    if period > 1 << 16 {
        return Err("a split's bounds repeat only over a very long period".into());
    }
    let mut m_lo = None;
    // Whether the even split is left out (known once a heap to share is even).
    let mut unequal: Option<bool> = None;
    for n in n0..n0 + period {
        let sz = n - t128;
        let lo = lower.iter().map(|f| f.at(n)).max().unwrap_or(0);
        let hi = upper.iter().map(|f| f.at(n)).min().unwrap_or(0);
        if lo < 0 || hi > sz {
            return Err("a split can leave a heap of negative size".into());
        }
        let h = sz / 2;
        // The smaller heap of each split: x itself up to h, s − x above.
        let mut parts = Vec::new();
        if lo <= hi.min(h) {
            parts.push((lo, hi.min(h)));
        }
        let above = lo.max(h + 1);
        if above <= hi {
            parts.push((sz - hi, sz - above));
        }
        parts.sort();
        let (mut a, mut b) = match parts.first() {
            Some(p) => *p,
            None => return Err("a split's range is empty".into()),
        };
        for &(c, d) in &parts[1..] {
            if c > b + 1 {
                return Err("a split leaves out some ways to share the heap".into());
            }
            a = a.min(c);
            b = b.max(d);
        }
        // Every way, or (Grundy's game) every way but the even split.
        let here = match () {
            _ if b == h && sz % 2 == 1 => None,
            _ if b == h => Some(false),
            _ if b + 1 == h && sz % 2 == 0 && unequal_ok => Some(true),
            _ => return Err("a split does not cover every way to share the heap in two".into()),
        };
        if a > 1
            || m_lo.is_some_and(|m| m != a)
            || here.is_some_and(|u| unequal.is_some_and(|v| v != u))
        {
            return Err("a split does not cover every way to share the heap in two".into());
        }
        unequal = unequal.or(here);
        m_lo = Some(a);
    }
    Ok((n0, m_lo, unequal))
}

fn lcm(a: i128, b: i128) -> i128 {
    fn gcd(a: i128, b: i128) -> i128 {
        if b == 0 { a.abs() } else { gcd(b, a % b) }
    }
    if a == 0 || b == 0 {
        return a.max(b);
    }
    (a / gcd(a, b)).checked_mul(b).map_or(i128::MAX, i128::abs)
}
