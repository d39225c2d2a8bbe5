//! Integer expressions and conditions compiled from the IR into trees over
//! integer slots, with constants folded and constant lists decoded once.
//!
//! They are a fast path, never a second semantics: every operation is the
//! one of [`crate::ops`], and evaluation answers `None` wherever the
//! interpreter would report an error (overflow, a bad index, a slot that
//! holds no integer), so that the caller falls back to the interpreter,
//! which reports it with its span. The interpreter uses them for the
//! conditions, loop bounds and arguments of rules; the kernels build on them.

use crate::ir::{self, BinOp, Builtin, Clause, ExprId, GameId, Ints};
use crate::ops;
use crate::value::Value;
use std::rc::Rc;

mod closures;
mod fast;
pub use closures::{BoolCode, Filter, IntCode};
pub use fast::{Compiled, Scalar, Tests};

/// Expressions nested deeper than this are left to the interpreter.
const MAX_DEPTH: usize = 64;

/// Where compiled expressions read their variables.
pub trait Slots {
    /// The integer in slot `s`, if it holds one.
    fn int(&self, s: u32) -> Option<i64>;
    /// Element `i` of the list in slot `s`, if it is an integer.
    fn list_int(&self, _s: u32, _i: i64) -> Option<i64> {
        None
    }
    /// The length of the list in slot `s`.
    fn list_len(&self, _s: u32) -> Option<i64> {
        None
    }
    /// Element `i` of the list in slot `s`, if it is a boolean.
    fn list_bool(&self, _s: u32, _i: i64) -> Option<bool> {
        None
    }
}

impl Slots for [i64] {
    #[inline(always)]
    fn int(&self, s: u32) -> Option<i64> {
        self.get(s as usize).copied()
    }
}

impl Slots for [Value] {
    #[inline(always)]
    fn int(&self, s: u32) -> Option<i64> {
        match self.get(s as usize)? {
            Value::Int(v) => Some(*v),
            _ => None,
        }
    }

    #[inline]
    fn list_int(&self, s: u32, i: i64) -> Option<i64> {
        match self.get(s as usize)? {
            Value::Ints(xs) => xs.get(usize::try_from(i).ok()?).copied(),
            Value::List(xs) => match xs.get(usize::try_from(i).ok()?)? {
                Value::Int(v) => Some(*v),
                _ => None,
            },
            _ => None,
        }
    }

    #[inline]
    fn list_bool(&self, s: u32, i: i64) -> Option<bool> {
        match self.get(s as usize)? {
            Value::Bools(xs) => xs.get(usize::try_from(i).ok()?).copied(),
            Value::List(xs) => match xs.get(usize::try_from(i).ok()?)? {
                Value::Bool(v) => Some(*v),
                _ => None,
            },
            _ => None,
        }
    }

    #[inline]
    fn list_len(&self, s: u32) -> Option<i64> {
        i64::try_from(self.get(s as usize)?.elements()?.len()).ok()
    }
}

/// An integer expression over the frame's integer slots.
#[derive(Clone, Debug, PartialEq)]
pub enum IntExpr {
    /// A constant.
    Const(i64),
    /// A variable.
    Slot(u32),
    /// An arithmetic operator.
    Bin(BinOp, Box<IntExpr>, Box<IntExpr>),
    /// `-x`
    Neg(Box<IntExpr>),
    /// `min(a, b, ...)`
    Min(Vec<IntExpr>),
    /// `max(a, b, ...)`
    Max(Vec<IntExpr>),
    /// `abs(x)`
    Abs(Box<IntExpr>),
    /// `popcount(x)`
    Popcount(Box<IntExpr>),
    /// `isqrt(x)`
    Isqrt(Box<IntExpr>),
    /// `grid_canon(mask, w, h)`: three arguments.
    GridCanon(Vec<IntExpr>),
    /// `grid_turn(mask, w, h)`.
    GridTurn(Vec<IntExpr>),
    /// Another function of integers, by the function its builtin's entry
    /// declares ([`crate::builtin::Ints`]), with as many arguments.
    Call(Builtin, Vec<IntExpr>),
    /// A constant list indexed.
    Index(Rc<[i64]>, Box<IntExpr>),
    /// The list in a variable, indexed (a list state's `rows[i]`).
    SlotIndex(u32, Box<IntExpr>),
    /// `len(xs)` of the list in a variable.
    SlotLen(u32),
    /// `if c then a else b`
    If(Box<BoolExpr>, Box<IntExpr>, Box<IntExpr>),
    /// `sum`, `xor`, `min` or `max` of the elements `lo..hi` of a constant
    /// list (`xor(data[a..b])`, or the whole list), read in place.
    Reduce(Reduce, Rc<[i64]>, Box<IntExpr>, Box<IntExpr>),
}

/// What [`IntExpr::Reduce`] computes over its elements.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Reduce {
    /// `sum(xs)`
    Sum,
    /// `xor(xs)`
    Xor,
    /// `min(xs)`
    Min,
    /// `max(xs)`
    Max,
}

impl Reduce {
    /// The value over the elements `lo..hi` of `xs`, as the interpreter
    /// slices them (an empty slice may start anywhere up to the end, and
    /// `a..b` with `a > b` is empty); `None` where it reports an error (an
    /// index out of range, an overflow, `min` or `max` of no elements).
    #[inline]
    pub fn of(self, xs: &[i64], lo: i64, hi: i64) -> Option<i64> {
        let len = xs.len() as i64;
        if lo >= hi {
            return match self {
                _ if !(0..=len).contains(&lo) => None,
                Reduce::Sum | Reduce::Xor => Some(0),
                Reduce::Min | Reduce::Max => None,
            };
        }
        if lo < 0 || hi > len {
            return None;
        }
        let xs = &xs[lo as usize..hi as usize];
        match self {
            Reduce::Sum => xs.iter().try_fold(0i64, |a, &x| a.checked_add(x)),
            Reduce::Xor => Some(xs.iter().fold(0, |a, &x| a ^ x)),
            Reduce::Min => xs.iter().copied().min(),
            Reduce::Max => xs.iter().copied().max(),
        }
    }
}

/// A condition.
#[derive(Clone, Debug, PartialEq)]
pub enum BoolExpr {
    /// A constant.
    Const(bool),
    /// A comparison of integers.
    Cmp(BinOp, IntExpr, IntExpr),
    /// `a and b`
    And(Box<BoolExpr>, Box<BoolExpr>),
    /// `a or b`
    Or(Box<BoolExpr>, Box<BoolExpr>),
    /// `not a`
    Not(Box<BoolExpr>),
    /// The list in a variable, indexed: a boolean element (a sieve's
    /// `marked[i]`).
    SlotIndex(u32, IntExpr),
    /// A constant list of booleans, indexed (shared with the constant).
    Index(Rc<[bool]>, IntExpr),
}

/// Compiles IR expressions, with the program's constants folded in.
pub struct Compiler<'a> {
    /// The program.
    pub prog: &'a ir::Program,
    /// The constants' values (`None` where a definition failed).
    pub consts: &'a [Option<Value>],
}

impl Compiler<'_> {
    /// A constant list of booleans (packed, shared with the constant).
    fn bool_list(&self, e: ExprId) -> Option<Rc<[bool]>> {
        match self.constant(e)? {
            Value::Bools(xs) => Some(Rc::clone(xs)),
            Value::List(xs) if xs.is_empty() => Some(Rc::from([])),
            _ => None,
        }
    }

    /// A constant list of integers (packed, shared with the constant).
    pub fn int_list(&self, e: ExprId) -> Option<Rc<[i64]>> {
        match self.constant(e)? {
            Value::Ints(xs) => Some(Rc::clone(xs)),
            Value::List(xs) => xs
                .iter()
                .map(|v| match v {
                    Value::Int(x) => Some(*x),
                    _ => None,
                })
                .collect(),
            _ => None,
        }
    }

    /// The value of a constant.
    fn constant(&self, e: ExprId) -> Option<&Value> {
        let ir::Expr::Const(c) = self.prog.expr(e) else {
            return None;
        };
        self.consts.get(c.index())?.as_ref()
    }

    /// `e` compiled as an integer expression, if it is one of the shapes
    /// compiled (and not nested too deep).
    pub fn int(&self, e: ExprId) -> Option<IntExpr> {
        self.int_at(e, 0, MAX_DEPTH)
    }

    /// `e` compiled as an integer expression however deeply it nests (for
    /// analyses that read rules once, never for evaluation).
    pub fn int_deep(&self, e: ExprId) -> Option<IntExpr> {
        self.int_at(e, 0, usize::MAX)
    }

    /// `e` compiled as a condition.
    pub fn cond(&self, e: ExprId) -> Option<BoolExpr> {
        self.cond_at(e, 0, MAX_DEPTH)
    }

    fn int_at(&self, e: ExprId, depth: usize, max: usize) -> Option<IntExpr> {
        if depth > max {
            return None;
        }
        let int = |e: ExprId| self.int_at(e, depth + 1, max);
        let cond = |e: ExprId| self.cond_at(e, depth + 1, max);
        Some(folded(match self.prog.expr(e) {
            ir::Expr::Int(v) => IntExpr::Const(*v),
            ir::Expr::Local(s) => IntExpr::Slot(s.0),
            ir::Expr::Const(c) => match self.consts.get(c.index())? {
                Some(Value::Int(v)) => IntExpr::Const(*v),
                _ => return None,
            },
            ir::Expr::Neg(x) => IntExpr::Neg(Box::new(int(*x)?)),
            ir::Expr::Binary(op, a, b) if op.is_arithmetic() => {
                IntExpr::Bin(*op, Box::new(int(*a)?), Box::new(int(*b)?))
            }
            ir::Expr::Index(l, i) => match self.prog.expr(*l) {
                ir::Expr::Local(s) => IntExpr::SlotIndex(s.0, Box::new(int(*i)?)),
                _ => IntExpr::Index(self.int_list(*l)?, Box::new(int(*i)?)),
            },
            ir::Expr::If(c, a, b) => {
                IntExpr::If(Box::new(cond(*c)?), Box::new(int(*a)?), Box::new(int(*b)?))
            }
            ir::Expr::Call { f, args, .. } => match (f, args.as_slice()) {
                (Builtin::Abs, [x]) => IntExpr::Abs(Box::new(int(*x)?)),
                (Builtin::Len, [x]) => match self.prog.expr(*x) {
                    ir::Expr::Local(s) => IntExpr::SlotLen(s.0),
                    _ => return None,
                },
                (Builtin::Popcount, [x]) => IntExpr::Popcount(Box::new(int(*x)?)),
                (Builtin::Isqrt, [x]) => IntExpr::Isqrt(Box::new(int(*x)?)),
                (f, xs) if f.spec().ints.is_some() => {
                    IntExpr::Call(*f, xs.iter().map(|x| int(*x)).collect::<Option<_>>()?)
                }
                (Builtin::GridCanon, [m, w, h]) => {
                    IntExpr::GridCanon(vec![int(*m)?, int(*w)?, int(*h)?])
                }
                (Builtin::GridTurn, [m, w, h]) => {
                    IntExpr::GridTurn(vec![int(*m)?, int(*w)?, int(*h)?])
                }
                (Builtin::Sum, [x]) => self.reduce(Reduce::Sum, *x, &int)?,
                (Builtin::Xor, [x]) => self.reduce(Reduce::Xor, *x, &int)?,
                (Builtin::Min, [x]) => self.reduce(Reduce::Min, *x, &int)?,
                (Builtin::Max, [x]) => self.reduce(Reduce::Max, *x, &int)?,
                (Builtin::Min | Builtin::Max, args) if args.len() >= 2 => {
                    let xs = args.iter().map(|&a| int(a)).collect::<Option<Vec<_>>>()?;
                    if *f == Builtin::Min {
                        IntExpr::Min(xs)
                    } else {
                        IntExpr::Max(xs)
                    }
                }
                _ => return None,
            },
            ir::Expr::CallFun { fun, args } => {
                let (guard, xs) = self.inline_args(*fun, args, depth, max)?;
                let body = self.int_at(self.prog.funs[fun.index()].body, depth + 1, max)?;
                let body = body.subst(&xs)?;
                let out = match guard {
                    Some(g) => {
                        IntExpr::If(Box::new(g), Box::new(body), Box::new(IntExpr::Const(0)))
                    }
                    None => body,
                };
                if out.size() > MAX_INLINED {
                    return None;
                }
                out
            }
            _ => return None,
        }))
    }

    /// `f(xs)` or `f(xs[a..b])` (`a..=b` too) of a constant list of
    /// integers.
    fn reduce(
        &self,
        f: Reduce,
        e: ExprId,
        int: &dyn Fn(ExprId) -> Option<IntExpr>,
    ) -> Option<IntExpr> {
        if let Some(xs) = self.int_list(e) {
            let len = IntExpr::Const(xs.len() as i64);
            return Some(IntExpr::Reduce(
                f,
                xs,
                Box::new(IntExpr::Const(0)),
                Box::new(len),
            ));
        }
        let ir::Expr::Index(l, i) = self.prog.expr(e) else {
            return None;
        };
        let ir::Expr::Range { lo, hi, inclusive } = self.prog.expr(*i) else {
            return None;
        };
        let xs = self.int_list(*l)?;
        let (lo, mut hi) = (int(*lo)?, int(*hi)?);
        if *inclusive {
            hi = folded(IntExpr::Bin(
                BinOp::Add,
                Box::new(hi),
                Box::new(IntExpr::Const(1)),
            ));
        }
        Some(IntExpr::Reduce(f, xs, Box::new(lo), Box::new(hi)))
    }

    /// The arguments of a call of a plain function (not recursive, asking
    /// nothing) whose arguments are all integers, compiled, for its body to
    /// be inlined; and a condition that evaluates each argument that could
    /// fail once first, as the interpreter does before the call (so an
    /// argument that fails fails the call even where the body ignores it).
    fn inline_args(
        &self,
        fun: ir::FunId,
        args: &[ExprId],
        depth: usize,
        max: usize,
    ) -> Option<(Option<BoolExpr>, Vec<IntExpr>)> {
        let f = self.prog.funs.get(fun.index())?;
        // Not a recursion, nor a function whose calls are remembered.
        if f.recursive || f.memo || f.asks.is_some() || args.len() != f.params.len() {
            return None;
        }
        let xs = args
            .iter()
            .map(|&a| self.int_at(a, depth + 1, max))
            .collect::<Option<Vec<_>>>()?;
        let mut guard: Option<BoolExpr> = None;
        for x in xs.iter().rev() {
            if !matches!(x, IntExpr::Const(_) | IntExpr::Slot(_)) {
                let evaluated = BoolExpr::Cmp(BinOp::Eq, x.clone(), x.clone());
                guard = Some(match guard {
                    None => evaluated,
                    Some(rest) => BoolExpr::And(Box::new(evaluated), Box::new(rest)),
                });
            }
        }
        Some((guard, xs))
    }

    fn cond_at(&self, e: ExprId, depth: usize, max: usize) -> Option<BoolExpr> {
        if depth > max {
            return None;
        }
        let int = |e: ExprId| self.int_at(e, depth + 1, max);
        let cond = |e: ExprId| self.cond_at(e, depth + 1, max);
        Some(cond_folded(match self.prog.expr(e) {
            ir::Expr::Bool(b) => BoolExpr::Const(*b),
            ir::Expr::Not(x) => BoolExpr::Not(Box::new(cond(*x)?)),
            ir::Expr::Index(l, i) => match self.prog.expr(*l) {
                ir::Expr::Local(s) => BoolExpr::SlotIndex(s.0, int(*i)?),
                _ => BoolExpr::Index(self.bool_list(*l)?, int(*i)?),
            },
            ir::Expr::Binary(op, a, b) => match op {
                BinOp::And => BoolExpr::And(Box::new(cond(*a)?), Box::new(cond(*b)?)),
                BinOp::Or => BoolExpr::Or(Box::new(cond(*a)?), Box::new(cond(*b)?)),
                op if op.is_comparison() => BoolExpr::Cmp(*op, int(*a)?, int(*b)?),
                _ => return None,
            },
            // `all(c for f in L)` / `any(...)` over a short constant list:
            // unrolled into `and` / `or` of `c` at each item, in order (the
            // interpreter stops at the first item that decides, as these do).
            ir::Expr::Comp {
                kind: kind @ (ir::CompKind::All | ir::CompKind::Any),
                body,
                clauses,
            } => {
                let [Clause::For { slot, iter }] = clauses.as_slice() else {
                    return None;
                };
                let items = self.unrolled_items(*iter, depth, max)?;
                if items.len() > MAX_UNROLL {
                    return None;
                }
                let c = cond(*body)?;
                let all = *kind == ir::CompKind::All;
                let mut parts = items.iter().rev().map(|v| c.with_slot(slot.0, v));
                let Some(last) = parts.next() else {
                    return Some(BoolExpr::Const(all));
                };
                let mut out = last?;
                for part in parts {
                    let (a, b) = (Box::new(part?), Box::new(out));
                    out = if all {
                        BoolExpr::And(a, b)
                    } else {
                        BoolExpr::Or(a, b)
                    };
                }
                // The interpreter builds the whole list first: an item that
                // fails fails the condition, even after one that decides.
                for item in items.into_iter().rev() {
                    if !matches!(item, IntExpr::Const(_)) {
                        let evaluated = BoolExpr::Cmp(BinOp::Eq, item.clone(), item);
                        out = BoolExpr::And(Box::new(evaluated), Box::new(out));
                    }
                }
                out
            }
            ir::Expr::CallFun { fun, args } => {
                let (guard, xs) = self.inline_args(*fun, args, depth, max)?;
                let body = self.cond_at(self.prog.funs[fun.index()].body, depth + 1, max)?;
                let body = body.subst(&xs)?;
                let out = match guard {
                    Some(g) => BoolExpr::And(Box::new(g), Box::new(body)),
                    None => body,
                };
                if out.size() > MAX_INLINED {
                    return None;
                }
                out
            }
            _ => return None,
        }))
    }

    /// The items of a list literal of integer expressions, or of a
    /// constant list of integers (as constants).
    fn unrolled_items(&self, e: ExprId, depth: usize, max: usize) -> Option<Vec<IntExpr>> {
        if let ir::Expr::List(items) = self.prog.expr(e) {
            return items
                .iter()
                .map(|&i| self.int_at(i, depth + 1, max))
                .collect();
        }
        Some(
            self.int_list(e)?
                .iter()
                .map(|&v| IntExpr::Const(v))
                .collect(),
        )
    }
}

/// `all`/`any` over constant lists longer than this are left to the
/// interpreter (an unrolled condition is as deep as the list is long).
const MAX_UNROLL: usize = 16;

/// An inlined call larger than this many nodes is left to the interpreter:
/// a parameter used twice copies its argument, so nested calls
/// (`f(f(f(x)))` with `f(x) = x + x`) would grow exponentially.
const MAX_INLINED: usize = 512;

impl IntExpr {
    /// Whether the expression reads slot `s` in any way (its integer, or
    /// the list in it).
    pub fn reads(&self, s: u32) -> bool {
        match self {
            IntExpr::Const(_) => false,
            IntExpr::Slot(t) | IntExpr::SlotLen(t) => *t == s,
            IntExpr::SlotIndex(t, x) => *t == s || x.reads(s),
            IntExpr::Bin(_, x, y) => x.reads(s) || y.reads(s),
            IntExpr::Neg(x)
            | IntExpr::Abs(x)
            | IntExpr::Popcount(x)
            | IntExpr::Isqrt(x)
            | IntExpr::Index(_, x) => x.reads(s),
            IntExpr::Min(xs)
            | IntExpr::Max(xs)
            | IntExpr::GridCanon(xs)
            | IntExpr::GridTurn(xs)
            | IntExpr::Call(_, xs) => xs.iter().any(|x| x.reads(s)),
            IntExpr::If(c, x, y) => c.reads(s) || x.reads(s) || y.reads(s),
            IntExpr::Reduce(_, _, x, y) => x.reads(s) || y.reads(s),
        }
    }

    /// Whether the expression and each of its parts is affine in the
    /// integer in slot `s` (sums, differences and negations of such parts,
    /// and products of one with a part that does not read `s`): over a
    /// range of `s`, every part then takes its extreme values at the
    /// range's ends, so a part that does not overflow there never does.
    pub fn affine_in(&self, s: u32) -> bool {
        match self {
            e if !e.reads(s) => true,
            IntExpr::Slot(_) => true,
            IntExpr::Bin(BinOp::Add | BinOp::Sub, x, y) => x.affine_in(s) && y.affine_in(s),
            IntExpr::Bin(BinOp::Mul, x, y) => {
                (!x.reads(s) && y.affine_in(s)) || (x.affine_in(s) && !y.reads(s))
            }
            IntExpr::Neg(x) => x.affine_in(s),
            _ => false,
        }
    }

    /// The number of nodes.
    fn size(&self) -> usize {
        let all = |es: &[IntExpr]| es.iter().map(IntExpr::size).sum::<usize>();
        1 + match self {
            IntExpr::Const(_) | IntExpr::Slot(_) | IntExpr::SlotLen(_) => 0,
            IntExpr::Bin(_, x, y) => x.size() + y.size(),
            IntExpr::Neg(x) | IntExpr::Abs(x) | IntExpr::Popcount(x) | IntExpr::Isqrt(x) => {
                x.size()
            }
            IntExpr::Index(_, x) | IntExpr::SlotIndex(_, x) => x.size(),
            IntExpr::Min(xs)
            | IntExpr::Max(xs)
            | IntExpr::GridCanon(xs)
            | IntExpr::GridTurn(xs)
            | IntExpr::Call(_, xs) => all(xs),
            IntExpr::If(c, x, y) => c.size() + x.size() + y.size(),
            IntExpr::Reduce(_, _, x, y) => x.size() + y.size(),
        }
    }

    /// A function's body with its parameters (slots `0..args.len()`)
    /// replaced by the arguments, all at once; `None` where the body reads
    /// another slot or a parameter as a list.
    fn subst(&self, args: &[IntExpr]) -> Option<IntExpr> {
        let b = |e: &IntExpr| e.subst(args).map(Box::new);
        let all = |es: &[IntExpr]| es.iter().map(|e| e.subst(args)).collect::<Option<Vec<_>>>();
        Some(match self {
            IntExpr::Slot(t) => args.get(*t as usize)?.clone(),
            IntExpr::SlotIndex(..) | IntExpr::SlotLen(_) => return None,
            IntExpr::Const(_) => self.clone(),
            IntExpr::Bin(op, x, y) => IntExpr::Bin(*op, b(x)?, b(y)?),
            IntExpr::Neg(x) => IntExpr::Neg(b(x)?),
            IntExpr::Min(xs) => IntExpr::Min(all(xs)?),
            IntExpr::Max(xs) => IntExpr::Max(all(xs)?),
            IntExpr::GridCanon(xs) => IntExpr::GridCanon(all(xs)?),
            IntExpr::GridTurn(xs) => IntExpr::GridTurn(all(xs)?),
            IntExpr::Call(f, xs) => IntExpr::Call(*f, all(xs)?),
            IntExpr::Abs(x) => IntExpr::Abs(b(x)?),
            IntExpr::Popcount(x) => IntExpr::Popcount(b(x)?),
            IntExpr::Isqrt(x) => IntExpr::Isqrt(b(x)?),
            IntExpr::Index(l, i) => IntExpr::Index(l.clone(), b(i)?),
            IntExpr::Reduce(f, l, x, y) => IntExpr::Reduce(*f, l.clone(), b(x)?, b(y)?),
            IntExpr::If(c, x, y) => IntExpr::If(Box::new(c.subst(args)?), b(x)?, b(y)?),
        })
    }

    /// This expression with slot `s` replaced by `v`; `None` where `s` is
    /// read as a list.
    fn with_slot(&self, s: u32, v: &IntExpr) -> Option<IntExpr> {
        let b = |e: &IntExpr| e.with_slot(s, v).map(Box::new);
        let all = |es: &[IntExpr]| {
            es.iter()
                .map(|e| e.with_slot(s, v))
                .collect::<Option<Vec<_>>>()
        };
        Some(match self {
            IntExpr::Slot(t) if *t == s => v.clone(),
            IntExpr::SlotIndex(t, _) | IntExpr::SlotLen(t) if *t == s => return None,
            IntExpr::Const(_) | IntExpr::Slot(_) | IntExpr::SlotLen(_) => self.clone(),
            IntExpr::Bin(op, x, y) => IntExpr::Bin(*op, b(x)?, b(y)?),
            IntExpr::Neg(x) => IntExpr::Neg(b(x)?),
            IntExpr::Min(xs) => IntExpr::Min(all(xs)?),
            IntExpr::Max(xs) => IntExpr::Max(all(xs)?),
            IntExpr::GridCanon(xs) => IntExpr::GridCanon(all(xs)?),
            IntExpr::GridTurn(xs) => IntExpr::GridTurn(all(xs)?),
            IntExpr::Call(f, xs) => IntExpr::Call(*f, all(xs)?),
            IntExpr::Abs(x) => IntExpr::Abs(b(x)?),
            IntExpr::Popcount(x) => IntExpr::Popcount(b(x)?),
            IntExpr::Isqrt(x) => IntExpr::Isqrt(b(x)?),
            IntExpr::Index(l, i) => IntExpr::Index(l.clone(), b(i)?),
            IntExpr::SlotIndex(t, i) => IntExpr::SlotIndex(*t, b(i)?),
            IntExpr::Reduce(f, l, x, y) => IntExpr::Reduce(*f, l.clone(), b(x)?, b(y)?),
            IntExpr::If(c, x, y) => IntExpr::If(Box::new(c.with_slot(s, v)?), b(x)?, b(y)?),
        })
    }

    /// Where the comparisons of slot `s` with a constant (`i >= 3`) may
    /// change their answer as `s` counts up: the values at which a new run
    /// starts, unsorted. Empty when there is none.
    pub fn breaks(&self, s: u32, out: &mut Vec<i64>) {
        match self {
            IntExpr::Const(_) | IntExpr::Slot(_) | IntExpr::SlotLen(_) => {}
            IntExpr::Bin(_, x, y) | IntExpr::Reduce(_, _, x, y) => {
                x.breaks(s, out);
                y.breaks(s, out);
            }
            IntExpr::Neg(x)
            | IntExpr::Abs(x)
            | IntExpr::Popcount(x)
            | IntExpr::Isqrt(x)
            | IntExpr::Index(_, x)
            | IntExpr::SlotIndex(_, x) => x.breaks(s, out),
            IntExpr::Min(xs)
            | IntExpr::Max(xs)
            | IntExpr::GridCanon(xs)
            | IntExpr::GridTurn(xs)
            | IntExpr::Call(_, xs) => xs.iter().for_each(|x| x.breaks(s, out)),
            IntExpr::If(c, x, y) => {
                c.breaks(s, out);
                x.breaks(s, out);
                y.breaks(s, out);
            }
        }
    }

    /// This expression where slot `s` stays within `lo..=hi`, a run that no
    /// [`IntExpr::breaks`] point splits: the comparisons of `s` with a
    /// constant decided, and the `if`s on them taken.
    pub fn on_run(&self, s: u32, lo: i64, hi: i64) -> IntExpr {
        let b = |e: &IntExpr| Box::new(e.on_run(s, lo, hi));
        let all = |es: &[IntExpr]| es.iter().map(|e| e.on_run(s, lo, hi)).collect();
        match self {
            IntExpr::Const(_) | IntExpr::Slot(_) | IntExpr::SlotLen(_) => self.clone(),
            IntExpr::Bin(op, x, y) => IntExpr::Bin(*op, b(x), b(y)),
            IntExpr::Reduce(f, l, x, y) => IntExpr::Reduce(*f, l.clone(), b(x), b(y)),
            IntExpr::Neg(x) => IntExpr::Neg(b(x)),
            IntExpr::Abs(x) => IntExpr::Abs(b(x)),
            IntExpr::Popcount(x) => IntExpr::Popcount(b(x)),
            IntExpr::Isqrt(x) => IntExpr::Isqrt(b(x)),
            IntExpr::Index(l, x) => IntExpr::Index(l.clone(), b(x)),
            IntExpr::SlotIndex(t, x) => IntExpr::SlotIndex(*t, b(x)),
            IntExpr::Min(xs) => IntExpr::Min(all(xs)),
            IntExpr::Max(xs) => IntExpr::Max(all(xs)),
            IntExpr::GridCanon(xs) => IntExpr::GridCanon(all(xs)),
            IntExpr::GridTurn(xs) => IntExpr::GridTurn(all(xs)),
            IntExpr::Call(f, xs) => IntExpr::Call(*f, all(xs)),
            IntExpr::If(c, x, y) => match c.on_run(s, lo, hi) {
                BoolExpr::Const(true) => x.on_run(s, lo, hi),
                BoolExpr::Const(false) => y.on_run(s, lo, hi),
                c => IntExpr::If(Box::new(c), b(x), b(y)),
            },
        }
    }

    /// A constant or a slot read in place, anything else evaluated.
    #[inline(always)]
    fn leaf_or_eval<S: Slots + ?Sized>(&self, env: &S) -> Option<i64> {
        match self {
            IntExpr::Const(v) => Some(*v),
            IntExpr::Slot(s) => env.int(*s),
            e => e.eval(env),
        }
    }

    /// The value, or `None` where the interpreter would report an error
    /// (or a slot is not an integer).
    #[inline]
    pub fn eval<S: Slots + ?Sized>(&self, env: &S) -> Option<i64> {
        Some(match self {
            IntExpr::Const(v) => *v,
            IntExpr::Slot(s) => env.int(*s)?,
            // Leaves read in place: most operands are constants and slots,
            // and a call per leaf costs more than the operation.
            IntExpr::Bin(op, a, b) => {
                ops::int_op(*op, a.leaf_or_eval(env)?, b.leaf_or_eval(env)?).ok()?
            }
            IntExpr::Neg(a) => ops::neg(a.eval(env)?).ok()?,
            IntExpr::Abs(a) => ops::abs(a.eval(env)?).ok()?,
            IntExpr::Popcount(a) => ops::popcount(a.eval(env)?).ok()?,
            IntExpr::Isqrt(a) => ops::isqrt(a.eval(env)?).ok()?,
            IntExpr::Call(f, xs) => match (f.spec().ints?.0, xs.as_slice()) {
                (Ints::One(f), [x]) => f(x.eval(env)?).ok()?,
                (Ints::Two(f), [x, y]) => f(x.eval(env)?, y.eval(env)?).ok()?,
                _ => return None,
            },
            IntExpr::GridCanon(xs) | IntExpr::GridTurn(xs) => match xs.as_slice() {
                [m, w, h] => {
                    let f = match self {
                        IntExpr::GridTurn(_) => crate::board::grid_turn,
                        _ => crate::board::grid_canon,
                    };
                    f(m.eval(env)?, w.eval(env)?, h.eval(env)?).ok()?
                }
                _ => return None,
            },
            IntExpr::Min(xs) | IntExpr::Max(xs) => {
                let min = matches!(self, IntExpr::Min(_));
                let mut best: Option<i64> = None;
                for x in xs {
                    let v = x.eval(env)?;
                    best = Some(match best {
                        Some(b) if min => b.min(v),
                        Some(b) => b.max(v),
                        None => v,
                    });
                }
                best?
            }
            IntExpr::Index(items, i) => *items.get(usize::try_from(i.eval(env)?).ok()?)?,
            IntExpr::SlotIndex(s, i) => env.list_int(*s, i.eval(env)?)?,
            IntExpr::SlotLen(s) => env.list_len(*s)?,
            IntExpr::Reduce(f, xs, lo, hi) => f.of(xs, lo.eval(env)?, hi.eval(env)?)?,
            IntExpr::If(c, a, b) => {
                if c.eval(env)? {
                    a.eval(env)?
                } else {
                    b.eval(env)?
                }
            }
        })
    }
}

impl BoolExpr {
    /// Whether the condition reads slot `s` in any way.
    pub fn reads(&self, s: u32) -> bool {
        match self {
            BoolExpr::Const(_) => false,
            BoolExpr::Cmp(_, a, b) => a.reads(s) || b.reads(s),
            BoolExpr::And(a, b) | BoolExpr::Or(a, b) => a.reads(s) || b.reads(s),
            BoolExpr::Not(a) => a.reads(s),
            BoolExpr::SlotIndex(t, i) => *t == s || i.reads(s),
            BoolExpr::Index(_, i) => i.reads(s),
        }
    }

    /// The number of nodes.
    fn size(&self) -> usize {
        1 + match self {
            BoolExpr::Const(_) => 0,
            BoolExpr::Cmp(_, a, b) => a.size() + b.size(),
            BoolExpr::And(a, b) | BoolExpr::Or(a, b) => a.size() + b.size(),
            BoolExpr::Not(a) => a.size(),
            BoolExpr::SlotIndex(_, i) | BoolExpr::Index(_, i) => i.size(),
        }
    }

    /// This condition with slot `s` replaced by `v`; `None` where `s` is
    /// read as a list.
    /// [`IntExpr::subst`] for conditions.
    fn subst(&self, args: &[IntExpr]) -> Option<BoolExpr> {
        Some(match self {
            BoolExpr::Const(b) => BoolExpr::Const(*b),
            BoolExpr::Cmp(op, a, b) => BoolExpr::Cmp(*op, a.subst(args)?, b.subst(args)?),
            BoolExpr::And(a, b) => {
                BoolExpr::And(Box::new(a.subst(args)?), Box::new(b.subst(args)?))
            }
            BoolExpr::Or(a, b) => BoolExpr::Or(Box::new(a.subst(args)?), Box::new(b.subst(args)?)),
            BoolExpr::Not(a) => BoolExpr::Not(Box::new(a.subst(args)?)),
            BoolExpr::Index(xs, i) => BoolExpr::Index(Rc::clone(xs), i.subst(args)?),
            BoolExpr::SlotIndex(..) => return None,
        })
    }

    fn with_slot(&self, s: u32, v: &IntExpr) -> Option<BoolExpr> {
        Some(match self {
            BoolExpr::Const(b) => BoolExpr::Const(*b),
            BoolExpr::Cmp(op, a, b) => BoolExpr::Cmp(*op, a.with_slot(s, v)?, b.with_slot(s, v)?),
            BoolExpr::And(a, b) => {
                BoolExpr::And(Box::new(a.with_slot(s, v)?), Box::new(b.with_slot(s, v)?))
            }
            BoolExpr::Or(a, b) => {
                BoolExpr::Or(Box::new(a.with_slot(s, v)?), Box::new(b.with_slot(s, v)?))
            }
            BoolExpr::Not(a) => BoolExpr::Not(Box::new(a.with_slot(s, v)?)),
            BoolExpr::SlotIndex(t, _) if *t == s => return None,
            BoolExpr::SlotIndex(t, i) => BoolExpr::SlotIndex(*t, i.with_slot(s, v)?),
            BoolExpr::Index(xs, i) => BoolExpr::Index(Rc::clone(xs), i.with_slot(s, v)?),
        })
    }

    /// [`IntExpr::breaks`] for conditions.
    fn breaks(&self, s: u32, out: &mut Vec<i64>) {
        match self {
            BoolExpr::Const(_) => {}
            BoolExpr::Cmp(_, IntExpr::Slot(t), IntExpr::Const(k))
            | BoolExpr::Cmp(_, IntExpr::Const(k), IntExpr::Slot(t))
                if *t == s =>
            {
                out.push(*k);
                out.extend(k.checked_add(1));
            }
            BoolExpr::Cmp(_, a, b) => {
                a.breaks(s, out);
                b.breaks(s, out);
            }
            BoolExpr::And(a, b) | BoolExpr::Or(a, b) => {
                a.breaks(s, out);
                b.breaks(s, out);
            }
            BoolExpr::Not(a) => a.breaks(s, out),
            BoolExpr::SlotIndex(_, i) | BoolExpr::Index(_, i) => i.breaks(s, out),
        }
    }

    /// [`IntExpr::on_run`] for conditions.
    fn on_run(&self, s: u32, lo: i64, hi: i64) -> BoolExpr {
        let b = |c: &BoolExpr| Box::new(c.on_run(s, lo, hi));
        // A comparison of `s` with a constant, the same at both ends of a
        // run that no break splits: the same throughout.
        let decided = |op: BinOp, k: i64, slot_first: bool| {
            let at = |v: i64| {
                if slot_first {
                    ops::compare(op, v, k)
                } else {
                    ops::compare(op, k, v)
                }
            };
            match (at(lo), at(hi)) {
                (Some(x), Some(y)) if x == y && !(lo < k && k < hi) => Some(BoolExpr::Const(x)),
                _ => None,
            }
        };
        let c = match self {
            BoolExpr::Cmp(op, IntExpr::Slot(t), IntExpr::Const(k)) if *t == s => {
                if let Some(c) = decided(*op, *k, true) {
                    return c;
                }
                self.clone()
            }
            BoolExpr::Cmp(op, IntExpr::Const(k), IntExpr::Slot(t)) if *t == s => {
                if let Some(c) = decided(*op, *k, false) {
                    return c;
                }
                self.clone()
            }
            BoolExpr::Const(_) => self.clone(),
            BoolExpr::Cmp(op, x, y) => BoolExpr::Cmp(*op, x.on_run(s, lo, hi), y.on_run(s, lo, hi)),
            BoolExpr::And(x, y) => BoolExpr::And(b(x), b(y)),
            BoolExpr::Or(x, y) => BoolExpr::Or(b(x), b(y)),
            BoolExpr::Not(x) => BoolExpr::Not(b(x)),
            BoolExpr::SlotIndex(t, i) => BoolExpr::SlotIndex(*t, i.on_run(s, lo, hi)),
            BoolExpr::Index(l, i) => BoolExpr::Index(Rc::clone(l), i.on_run(s, lo, hi)),
        };
        cond_folded(c)
    }

    /// The value, or `None` where the interpreter would report an error.
    #[inline]
    pub fn eval<S: Slots + ?Sized>(&self, env: &S) -> Option<bool> {
        Some(match self {
            BoolExpr::Const(b) => *b,
            BoolExpr::Cmp(op, a, b) => {
                ops::compare(*op, a.leaf_or_eval(env)?, b.leaf_or_eval(env)?)?
            }
            BoolExpr::And(a, b) => a.eval(env)? && b.eval(env)?,
            BoolExpr::Or(a, b) => a.eval(env)? || b.eval(env)?,
            BoolExpr::Not(a) => !a.eval(env)?,
            BoolExpr::SlotIndex(s, i) => env.list_bool(*s, i.eval(env)?)?,
            BoolExpr::Index(xs, i) => *xs.get(usize::try_from(i.eval(env)?).ok()?)?,
        })
    }
}

/// `c` with a comparison of constants computed now, and `and`/`or` whose
/// first side is a constant decided as the interpreter decides them (a
/// constant second side is kept: the first side may fail). `w % 2 == 0
/// and ...` with `w` a constant is its second side, or false.
fn cond_folded(c: BoolExpr) -> BoolExpr {
    match c {
        BoolExpr::Cmp(_, IntExpr::Const(_), IntExpr::Const(_)) => match c.eval(&[] as &[Value]) {
            Some(b) => BoolExpr::Const(b),
            None => c,
        },
        BoolExpr::And(a, b) => match *a {
            BoolExpr::Const(true) => *b,
            BoolExpr::Const(false) => BoolExpr::Const(false),
            a => BoolExpr::And(Box::new(a), b),
        },
        BoolExpr::Or(a, b) => match *a {
            BoolExpr::Const(true) => BoolExpr::Const(true),
            BoolExpr::Const(false) => *b,
            a => BoolExpr::Or(Box::new(a), b),
        },
        BoolExpr::Not(a) => match *a {
            BoolExpr::Const(x) => BoolExpr::Const(!x),
            a => BoolExpr::Not(Box::new(a)),
        },
        c => c,
    }
}

/// `e` with its value computed now when its operands are constants (the
/// compiler builds bottom up, so every constant part folds); one whose
/// evaluation fails is left for the interpreter to report where it stands.
fn folded(e: IntExpr) -> IntExpr {
    let constant = |x: &IntExpr| matches!(x, IntExpr::Const(_));
    let operands_constant = match &e {
        IntExpr::Bin(_, a, b) => constant(a) && constant(b),
        IntExpr::Neg(a)
        | IntExpr::Abs(a)
        | IntExpr::Popcount(a)
        | IntExpr::Isqrt(a)
        | IntExpr::Index(_, a) => constant(a),
        IntExpr::Min(xs)
        | IntExpr::Max(xs)
        | IntExpr::GridCanon(xs)
        | IntExpr::GridTurn(xs)
        | IntExpr::Call(_, xs) => xs.iter().all(constant),
        IntExpr::Reduce(_, _, a, b) => constant(a) && constant(b),
        _ => false,
    };
    match operands_constant.then(|| e.eval(&[] as &[Value])).flatten() {
        Some(v) => IntExpr::Const(v),
        None => e,
    }
}
