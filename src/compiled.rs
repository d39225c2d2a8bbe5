//! Integer expressions and conditions compiled from the IR into trees over
//! integer slots, with constants folded and constant lists decoded once.
//!
//! They are a fast path, never a second semantics: every operation is the
//! one of [`crate::ops`], and evaluation answers `None` wherever the
//! interpreter would report an error (overflow, a bad index, a slot that
//! holds no integer), so that the caller falls back to the interpreter,
//! which reports it with its span. The interpreter uses them for the
//! conditions, loop bounds and arguments of rules; the kernels build on them.

use crate::ir::{self, BinOp, Builtin, Clause, ExprId, GameId};
use crate::ops;
use crate::value::Value;
use std::rc::Rc;

mod closures;
pub use closures::{BoolCode, Code};

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
            Value::List(xs) => match xs.get(usize::try_from(i).ok()?)? {
                Value::Bool(v) => Some(*v),
                _ => None,
            },
            _ => None,
        }
    }

    #[inline]
    fn list_len(&self, s: u32) -> Option<i64> {
        match self.get(s as usize)? {
            Value::List(xs) => i64::try_from(xs.len()).ok(),
            _ => None,
        }
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
    /// `grid_canon(mask, w, h)`: three arguments.
    GridCanon(Vec<IntExpr>),
    /// `grid_turn(mask, w, h)`.
    GridTurn(Vec<IntExpr>),
    /// A constant list indexed.
    Index(Rc<[i64]>, Box<IntExpr>),
    /// The list in a variable, indexed (a list state's `rows[i]`).
    SlotIndex(u32, Box<IntExpr>),
    /// `len(xs)` of the list in a variable.
    SlotLen(u32),
    /// `if c then a else b`
    If(Box<BoolExpr>, Box<IntExpr>, Box<IntExpr>),
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
}

/// Compiles IR expressions, with the program's constants folded in.
pub struct Compiler<'a> {
    /// The program.
    pub prog: &'a ir::Program,
    /// The constants' values (`None` where a definition failed).
    pub consts: &'a [Option<Value>],
}

impl Compiler<'_> {
    /// A constant list of booleans, decoded once as 0 and 1.
    fn bool_list(&self, e: ExprId) -> Option<Rc<[i64]>> {
        let ir::Expr::Const(c) = self.prog.expr(e) else {
            return None;
        };
        let Some(Value::List(items)) = self.consts.get(*c as usize)? else {
            return None;
        };
        items
            .iter()
            .map(|v| match v {
                Value::Bool(x) => Some(i64::from(*x)),
                _ => None,
            })
            .collect()
    }

    /// A constant list of integers, decoded once.
    pub fn int_list(&self, e: ExprId) -> Option<Rc<[i64]>> {
        let ir::Expr::Const(c) = self.prog.expr(e) else {
            return None;
        };
        let Some(Value::List(items)) = self.consts.get(*c as usize)? else {
            return None;
        };
        items
            .iter()
            .map(|v| match v {
                Value::Int(x) => Some(*x),
                _ => None,
            })
            .collect()
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
            ir::Expr::Local(s) => IntExpr::Slot(*s),
            ir::Expr::Const(c) => match self.consts.get(*c as usize)? {
                Some(Value::Int(v)) => IntExpr::Const(*v),
                _ => return None,
            },
            ir::Expr::Neg(x) => IntExpr::Neg(Box::new(int(*x)?)),
            ir::Expr::Binary(op, a, b) if op.is_arithmetic() => {
                IntExpr::Bin(*op, Box::new(int(*a)?), Box::new(int(*b)?))
            }
            ir::Expr::Index(l, i) => match self.prog.expr(*l) {
                ir::Expr::Local(s) => IntExpr::SlotIndex(*s, Box::new(int(*i)?)),
                _ => IntExpr::Index(self.int_list(*l)?, Box::new(int(*i)?)),
            },
            ir::Expr::If(c, a, b) => {
                IntExpr::If(Box::new(cond(*c)?), Box::new(int(*a)?), Box::new(int(*b)?))
            }
            ir::Expr::Call { f, args, .. } => match (f, args.as_slice()) {
                (Builtin::Abs, [x]) => IntExpr::Abs(Box::new(int(*x)?)),
                (Builtin::Len, [x]) => match self.prog.expr(*x) {
                    ir::Expr::Local(s) => IntExpr::SlotLen(*s),
                    _ => return None,
                },
                (Builtin::Popcount, [x]) => IntExpr::Popcount(Box::new(int(*x)?)),
                (Builtin::GridCanon, [m, w, h]) => {
                    IntExpr::GridCanon(vec![int(*m)?, int(*w)?, int(*h)?])
                }
                (Builtin::GridTurn, [m, w, h]) => {
                    IntExpr::GridTurn(vec![int(*m)?, int(*w)?, int(*h)?])
                }
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
                let body = self.int_at(self.prog.funs[*fun as usize].body, depth + 1, max)?;
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
        let f = self.prog.funs.get(fun as usize)?;
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
                ir::Expr::Local(s) => BoolExpr::SlotIndex(*s, int(*i)?),
                // A constant list of booleans, as 0 and 1.
                _ => BoolExpr::Cmp(
                    BinOp::Ne,
                    IntExpr::Index(self.bool_list(*l)?, Box::new(int(*i)?)),
                    IntExpr::Const(0),
                ),
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
                let mut parts = items.iter().rev().map(|v| c.with_slot(*slot, v));
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
                let body = self.cond_at(self.prog.funs[*fun as usize].body, depth + 1, max)?;
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
    /// The number of nodes.
    fn size(&self) -> usize {
        let all = |es: &[IntExpr]| es.iter().map(IntExpr::size).sum::<usize>();
        1 + match self {
            IntExpr::Const(_) | IntExpr::Slot(_) | IntExpr::SlotLen(_) => 0,
            IntExpr::Bin(_, x, y) => x.size() + y.size(),
            IntExpr::Neg(x) | IntExpr::Abs(x) | IntExpr::Popcount(x) => x.size(),
            IntExpr::Index(_, x) | IntExpr::SlotIndex(_, x) => x.size(),
            IntExpr::Min(xs)
            | IntExpr::Max(xs)
            | IntExpr::GridCanon(xs)
            | IntExpr::GridTurn(xs) => all(xs),
            IntExpr::If(c, x, y) => c.size() + x.size() + y.size(),
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
            IntExpr::Abs(x) => IntExpr::Abs(b(x)?),
            IntExpr::Popcount(x) => IntExpr::Popcount(b(x)?),
            IntExpr::Index(l, i) => IntExpr::Index(l.clone(), b(i)?),
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
            IntExpr::Abs(x) => IntExpr::Abs(b(x)?),
            IntExpr::Popcount(x) => IntExpr::Popcount(b(x)?),
            IntExpr::Index(l, i) => IntExpr::Index(l.clone(), b(i)?),
            IntExpr::SlotIndex(t, i) => IntExpr::SlotIndex(*t, b(i)?),
            IntExpr::If(c, x, y) => IntExpr::If(Box::new(c.with_slot(s, v)?), b(x)?, b(y)?),
        })
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
    /// The number of nodes.
    fn size(&self) -> usize {
        1 + match self {
            BoolExpr::Const(_) => 0,
            BoolExpr::Cmp(_, a, b) => a.size() + b.size(),
            BoolExpr::And(a, b) | BoolExpr::Or(a, b) => a.size() + b.size(),
            BoolExpr::Not(a) => a.size(),
            BoolExpr::SlotIndex(_, i) => i.size(),
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
        })
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
        })
    }
}

/// A compiled expression of the interpreter's fast path.
#[derive(Debug)]
enum Fast {
    Int(Code),
    Bool(BoolCode),
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
        IntExpr::Neg(a) | IntExpr::Abs(a) | IntExpr::Popcount(a) | IntExpr::Index(_, a) => {
            constant(a)
        }
        IntExpr::Min(xs) | IntExpr::Max(xs) | IntExpr::GridCanon(xs) | IntExpr::GridTurn(xs) => {
            xs.iter().all(constant)
        }
        _ => false,
    };
    match operands_constant.then(|| e.eval(&[] as &[Value])).flatten() {
        Some(v) => IntExpr::Const(v),
        None => e,
    }
}

/// The compiled forms of the expressions that rules evaluate over and over
/// (conditions, loop bounds, arguments of positions), by expression id.
///
/// Parts that depend on a position's parameters alone (`(1 << w) + 1` in a
/// loop over a board of width `w`) are *hoisted*: computed once when the
/// position's frame is set up, into extra slots after the rule's own, and
/// read from there. A hoisted part whose evaluation fails leaves a slot
/// that holds no integer, so the code reading it falls back to the
/// interpreter, which evaluates the part where it stands (or never, behind
/// a guard) and reports what there is to report.
#[derive(Debug, Default)]
pub struct Compiled {
    /// Per expression, 1 + its index in `exprs` (0: not compiled).
    index: Vec<u32>,
    exprs: Vec<Fast>,
    /// Per game, its hoisted parts and the first slot they go to.
    hoisted: Vec<(u32, Vec<Code>)>,
}

/// What compiling one game's rules needs to know.
struct GameCx<'a> {
    c: Compiler<'a>,
    /// Parameters are the slots below this.
    arity: u32,
    /// The first extra slot.
    base: u32,
    /// The parts hoisted so far (slot `base + i` holds part `i`).
    parts: Vec<IntExpr>,
    /// Whether parts are hoisted: not in `split` and `canonical`, which
    /// run once per position named (hoisted, they would run whenever a
    /// frame of the game is set up).
    hoisting: bool,
}

impl GameCx<'_> {
    /// `e` with its non-trivial parameter-only parts read from extra slots.
    fn hoist(&mut self, e: IntExpr) -> IntExpr {
        fn params_only(e: &IntExpr, arity: u32) -> bool {
            match e {
                IntExpr::Const(_) => true,
                IntExpr::Slot(s) => *s < arity,
                IntExpr::Bin(_, a, b) => params_only(a, arity) && params_only(b, arity),
                IntExpr::Neg(a) | IntExpr::Abs(a) | IntExpr::Popcount(a) | IntExpr::Index(_, a) => {
                    params_only(a, arity)
                }
                IntExpr::Min(xs)
                | IntExpr::Max(xs)
                | IntExpr::GridCanon(xs)
                | IntExpr::GridTurn(xs) => xs.iter().all(|x| params_only(x, arity)),
                IntExpr::SlotIndex(s, a) => *s < arity && params_only(a, arity),
                IntExpr::SlotLen(s) => *s < arity,
                IntExpr::If(..) => false,
            }
        }
        let trivial = matches!(e, IntExpr::Const(_) | IntExpr::Slot(_));
        if !trivial && self.hoisting && params_only(&e, self.arity) {
            let i = match self.parts.iter().position(|p| *p == e) {
                Some(i) => i,
                None => {
                    self.parts.push(e);
                    self.parts.len() - 1
                }
            };
            return IntExpr::Slot(self.base + i as u32);
        }
        match e {
            IntExpr::Bin(op, a, b) => {
                let a = self.hoist_box(a);
                IntExpr::Bin(op, a, self.hoist_box(b))
            }
            IntExpr::Neg(a) => IntExpr::Neg(self.hoist_box(a)),
            IntExpr::Abs(a) => IntExpr::Abs(self.hoist_box(a)),
            IntExpr::Popcount(a) => IntExpr::Popcount(self.hoist_box(a)),
            IntExpr::Index(l, a) => IntExpr::Index(l, self.hoist_box(a)),
            IntExpr::SlotIndex(s, a) => IntExpr::SlotIndex(s, self.hoist_box(a)),
            IntExpr::Min(xs) => IntExpr::Min(xs.into_iter().map(|x| self.hoist(x)).collect()),
            IntExpr::Max(xs) => IntExpr::Max(xs.into_iter().map(|x| self.hoist(x)).collect()),
            IntExpr::GridCanon(xs) => {
                IntExpr::GridCanon(xs.into_iter().map(|x| self.hoist(x)).collect())
            }
            IntExpr::GridTurn(xs) => {
                IntExpr::GridTurn(xs.into_iter().map(|x| self.hoist(x)).collect())
            }
            IntExpr::If(c, a, b) => {
                let c = Box::new(self.hoist_cond(*c));
                let a = self.hoist_box(a);
                IntExpr::If(c, a, self.hoist_box(b))
            }
            leaf => leaf,
        }
    }

    fn hoist_box(&mut self, mut e: Box<IntExpr>) -> Box<IntExpr> {
        let inner = std::mem::replace(&mut *e, IntExpr::Const(0));
        *e = self.hoist(inner);
        e
    }

    fn hoist_cond(&mut self, c: BoolExpr) -> BoolExpr {
        match c {
            BoolExpr::Cmp(op, a, b) => {
                let a = self.hoist(a);
                BoolExpr::Cmp(op, a, self.hoist(b))
            }
            BoolExpr::And(a, b) => {
                let a = Box::new(self.hoist_cond(*a));
                BoolExpr::And(a, Box::new(self.hoist_cond(*b)))
            }
            BoolExpr::Or(a, b) => {
                let a = Box::new(self.hoist_cond(*a));
                BoolExpr::Or(a, Box::new(self.hoist_cond(*b)))
            }
            BoolExpr::Not(a) => BoolExpr::Not(Box::new(self.hoist_cond(*a))),
            BoolExpr::SlotIndex(s, i) => BoolExpr::SlotIndex(s, self.hoist(i)),
            BoolExpr::Const(b) => BoolExpr::Const(b),
        }
    }

    fn int(&mut self, e: ExprId) -> Option<Fast> {
        let x = self.c.int(e)?;
        Some(Fast::Int(Code::int(&self.hoist(x))))
    }

    fn cond(&mut self, e: ExprId) -> Option<Fast> {
        let x = self.c.cond(e)?;
        Some(Fast::Bool(BoolCode::new(&self.hoist_cond(x))))
    }
}

impl Compiled {
    /// Compiles the rules of every game.
    pub fn new(prog: &ir::Program, consts: &[Option<Value>]) -> Compiled {
        let mut out = Compiled {
            index: vec![0; prog.exprs.len()],
            exprs: Vec::new(),
            hoisted: Vec::new(),
        };
        for game in &prog.games {
            let arity = game.params.len() as u32;
            let mut cx = GameCx {
                c: Compiler { prog, consts },
                arity,
                base: game.slots.max(arity),
                parts: Vec::new(),
                hoisting: true,
            };
            for rule in &game.rules {
                out.clauses(&mut cx, &rule.clauses);
                out.position(&mut cx, rule.body, 0);
            }
            cx.hoisting = false;
            for &e in game.stored_as.split.iter().chain(&game.stored_as.canonical) {
                out.position(&mut cx, e, 0);
            }
            let parts = cx.parts.iter().map(Code::int).collect();
            out.hoisted.push((cx.base, parts));
        }
        out
    }

    /// Compiles the loops of code outside the rules (comprehensions,
    /// generators and folds under `roots`: constants, functions and
    /// statements, never through a call), with the constants known so far
    /// folded in: their clauses, their elements, and a fold's next value
    /// (through `if`, `let` and `set` of the accumulator, the index and
    /// the element). No part is hoisted: these run in frames of their own.
    pub fn add_loops(&mut self, prog: &ir::Program, consts: &[Option<Value>], roots: &[ExprId]) {
        if self.index.len() < prog.exprs.len() {
            self.index.resize(prog.exprs.len(), 0);
        }
        let mut cx = GameCx {
            c: Compiler { prog, consts },
            arity: 0,
            base: 0,
            parts: Vec::new(),
            hoisting: false,
        };
        let mut todo = roots.to_vec();
        while let Some(e) = todo.pop() {
            match prog.expr(e) {
                ir::Expr::Comp {
                    kind,
                    body,
                    clauses,
                } => {
                    self.clauses(&mut cx, clauses);
                    match kind {
                        ir::CompKind::Any | ir::CompKind::All => self.add(*body, cx.cond(*body)),
                        ir::CompKind::SumPos => {}
                        _ => self.add(*body, cx.int(*body)),
                    }
                }
                ir::Expr::Fold { body, clauses, .. } => {
                    self.clauses(&mut cx, clauses);
                    self.carried(&mut cx, *body, 0);
                }
                _ => {}
            }
            prog.children(e, &mut todo);
        }
    }

    /// A fold's next value: its conditions, `let`s and `set`s of the
    /// accumulator down to the value itself.
    fn carried(&mut self, cx: &mut GameCx, e: ExprId, depth: usize) {
        if depth > MAX_DEPTH {
            return;
        }
        match cx.c.prog.expr(e) {
            ir::Expr::If(c, a, b) => {
                self.add(*c, cx.cond(*c));
                self.carried(cx, *a, depth + 1);
                self.carried(cx, *b, depth + 1);
            }
            ir::Expr::Let { value, body, .. } => {
                self.add(*value, cx.int(*value));
                self.carried(cx, *body, depth + 1);
            }
            ir::Expr::Call {
                f: Builtin::Set,
                args,
                ..
            } if args.len() == 3 => {
                self.add(args[1], cx.int(args[1]));
                let element = match cx.int(args[2]) {
                    Some(f) => Some(f),
                    None => cx.cond(args[2]),
                };
                self.add(args[2], element);
                self.carried(cx, args[0], depth + 1);
            }
            _ => self.add(e, cx.int(e)),
        }
    }

    /// How many slots a frame of `game` needs beyond the rule's own.
    pub fn extra_slots(&self, game: GameId) -> usize {
        self.hoisted.get(game as usize).map_or(0, |(_, h)| h.len())
    }

    /// Computes the hoisted parts of `game` into the extra slots of `env`,
    /// which holds the parameters and room for every slot.
    pub fn hoist(&self, game: GameId, env: &mut [Value]) {
        let Some((base, parts)) = self.hoisted.get(game as usize) else {
            return;
        };
        for (i, code) in parts.iter().enumerate() {
            let v = match code.eval(env) {
                Some(v) => Value::Int(v),
                None => Value::Bool(false),
            };
            if let Some(slot) = env.get_mut(*base as usize + i) {
                *slot = v;
            }
        }
    }

    fn add(&mut self, e: ExprId, f: Option<Fast>) {
        if let (Some(f), Some(slot)) = (f, self.index.get_mut(e as usize)) {
            self.exprs.push(f);
            *slot = self.exprs.len() as u32;
        }
    }

    fn clauses(&mut self, cx: &mut GameCx, clauses: &[Clause]) {
        for clause in clauses {
            match *clause {
                Clause::If { cond } | Clause::While { cond } => self.add(cond, cx.cond(cond)),
                Clause::Let { value, .. } => self.add(value, cx.int(value)),
                Clause::For { iter, .. } => {
                    if let ir::Expr::Range { lo, hi, .. } = cx.c.prog.expr(iter) {
                        self.add(*lo, cx.int(*lo));
                        self.add(*hi, cx.int(*hi));
                    }
                }
            }
        }
    }

    /// The arguments and conditions inside a position-typed expression.
    fn position(&mut self, cx: &mut GameCx, e: ExprId, depth: usize) {
        if depth > MAX_DEPTH {
            return;
        }
        match cx.c.prog.expr(e) {
            ir::Expr::PosSum(a, b) => {
                self.position(cx, *a, depth + 1);
                self.position(cx, *b, depth + 1);
            }
            ir::Expr::Apply { args, .. } => {
                for &a in args {
                    self.add(a, cx.int(a));
                    // A list argument built by a comprehension (a list
                    // state's next rows): its loops and elements.
                    if let ir::Expr::Comp {
                        kind: ir::CompKind::List,
                        body,
                        clauses,
                    } = cx.c.prog.expr(a)
                    {
                        self.clauses(cx, clauses);
                        self.add(*body, cx.int(*body));
                    }
                }
            }
            ir::Expr::If(cond, t, f) => {
                self.add(*cond, cx.cond(*cond));
                self.position(cx, *t, depth + 1);
                self.position(cx, *f, depth + 1);
            }
            ir::Expr::Comp { body, clauses, .. } => {
                self.clauses(cx, clauses);
                self.position(cx, *body, depth + 1);
            }
            _ => {}
        }
    }

    /// The compiled integer expression `e`, if there is one.
    #[inline]
    pub fn int(&self, e: ExprId) -> Option<&Code> {
        match self
            .exprs
            .get(self.index.get(e as usize)?.checked_sub(1)? as usize)?
        {
            Fast::Int(x) => Some(x),
            Fast::Bool(_) => None,
        }
    }

    /// The compiled condition `e`, if there is one.
    #[inline]
    pub fn bool(&self, e: ExprId) -> Option<&BoolCode> {
        match self
            .exprs
            .get(self.index.get(e as usize)?.checked_sub(1)? as usize)?
        {
            Fast::Bool(x) => Some(x),
            Fast::Int(_) => None,
        }
    }
}
