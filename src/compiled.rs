//! Integer expressions and conditions compiled from the IR into trees over
//! integer slots, with constants folded and constant lists decoded once.
//!
//! They are a fast path, never a second semantics: every operation is the
//! one of [`crate::ops`], and evaluation answers `None` wherever the
//! interpreter would report an error (overflow, a bad index, a slot that
//! holds no integer), so that the caller falls back to the interpreter,
//! which reports it with its span. The interpreter uses them for the
//! conditions, loop bounds and arguments of rules; the kernels build on them.

use crate::ir::{self, BinOp, Builtin, Clause, ExprId};
use crate::ops;
use crate::value::Value;
use std::rc::Rc;

/// Expressions nested deeper than this are left to the interpreter.
const MAX_DEPTH: usize = 64;

/// Where compiled expressions read their variables.
pub trait Slots {
    /// The integer in slot `s`, if it holds one.
    fn int(&self, s: u32) -> Option<i64>;
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
}

/// An integer expression over the frame's integer slots.
#[derive(Clone, Debug)]
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
    /// A constant list indexed.
    Index(Rc<[i64]>, Box<IntExpr>),
    /// `if c then a else b`
    If(Box<BoolExpr>, Box<IntExpr>, Box<IntExpr>),
}

/// A condition.
#[derive(Clone, Debug)]
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
}

/// Compiles IR expressions, with the program's constants folded in.
pub struct Compiler<'a> {
    /// The program.
    pub prog: &'a ir::Program,
    /// The constants' values (`None` where a definition failed).
    pub consts: &'a [Option<Value>],
}

impl Compiler<'_> {
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
        self.int_at(e, 0)
    }

    /// `e` compiled as a condition.
    pub fn cond(&self, e: ExprId) -> Option<BoolExpr> {
        self.cond_at(e, 0)
    }

    fn int_at(&self, e: ExprId, depth: usize) -> Option<IntExpr> {
        if depth > MAX_DEPTH {
            return None;
        }
        let int = |e: ExprId| self.int_at(e, depth + 1);
        let cond = |e: ExprId| self.cond_at(e, depth + 1);
        Some(match self.prog.expr(e) {
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
            ir::Expr::Index(l, i) => IntExpr::Index(self.int_list(*l)?, Box::new(int(*i)?)),
            ir::Expr::If(c, a, b) => {
                IntExpr::If(Box::new(cond(*c)?), Box::new(int(*a)?), Box::new(int(*b)?))
            }
            ir::Expr::Call { f, args } => match (f, args.as_slice()) {
                (Builtin::Abs, [x]) => IntExpr::Abs(Box::new(int(*x)?)),
                (Builtin::Popcount, [x]) => IntExpr::Popcount(Box::new(int(*x)?)),
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
            _ => return None,
        })
    }

    fn cond_at(&self, e: ExprId, depth: usize) -> Option<BoolExpr> {
        if depth > MAX_DEPTH {
            return None;
        }
        let int = |e: ExprId| self.int_at(e, depth + 1);
        let cond = |e: ExprId| self.cond_at(e, depth + 1);
        Some(match self.prog.expr(e) {
            ir::Expr::Bool(b) => BoolExpr::Const(*b),
            ir::Expr::Not(x) => BoolExpr::Not(Box::new(cond(*x)?)),
            ir::Expr::Binary(op, a, b) => match op {
                BinOp::And => BoolExpr::And(Box::new(cond(*a)?), Box::new(cond(*b)?)),
                BinOp::Or => BoolExpr::Or(Box::new(cond(*a)?), Box::new(cond(*b)?)),
                op if op.is_comparison() => BoolExpr::Cmp(*op, int(*a)?, int(*b)?),
                _ => return None,
            },
            _ => return None,
        })
    }
}

impl IntExpr {
    /// The value, or `None` where the interpreter would report an error
    /// (or a slot is not an integer).
    #[inline]
    pub fn eval<S: Slots + ?Sized>(&self, env: &S) -> Option<i64> {
        Some(match self {
            IntExpr::Const(v) => *v,
            IntExpr::Slot(s) => env.int(*s)?,
            IntExpr::Bin(op, a, b) => ops::int_op(*op, a.eval(env)?, b.eval(env)?).ok()?,
            IntExpr::Neg(a) => ops::neg(a.eval(env)?).ok()?,
            IntExpr::Abs(a) => ops::abs(a.eval(env)?).ok()?,
            IntExpr::Popcount(a) => ops::popcount(a.eval(env)?).ok()?,
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
    /// The value, or `None` where the interpreter would report an error.
    #[inline]
    pub fn eval<S: Slots + ?Sized>(&self, env: &S) -> Option<bool> {
        Some(match self {
            BoolExpr::Const(b) => *b,
            BoolExpr::Cmp(op, a, b) => ops::compare(*op, a.eval(env)?, b.eval(env)?)?,
            BoolExpr::And(a, b) => a.eval(env)? && b.eval(env)?,
            BoolExpr::Or(a, b) => a.eval(env)? || b.eval(env)?,
            BoolExpr::Not(a) => !a.eval(env)?,
        })
    }
}

/// Most entries a [`Code`] may need on its stack.
const MAX_STACK: usize = 16;

/// One instruction of a [`Code`]: a stack machine over integers (booleans
/// are 0 and 1), with the common leaf shapes fused into one instruction.
#[derive(Clone, Copy, Debug)]
enum Op {
    Const(i64),
    Slot(u32),
    /// The two top entries `a, b` become `a op b`.
    Bin(BinOp),
    /// The top entry `a` becomes `a op slot`.
    BinSlot(BinOp, u32),
    /// The top entry `a` becomes `a op k`.
    BinConst(BinOp, i64),
    Neg,
    Abs,
    Popcount,
    /// The top entry `i` becomes `lists[list][i]`.
    Index(u32),
    /// The top `n` entries become their least (or greatest).
    Min(u32),
    Max(u32),
    /// The two top entries `a, b` become `a op b` for a comparison.
    Cmp(BinOp),
    /// The top entry `a` becomes `a op k` for a comparison.
    CmpConst(BinOp, i64),
    Not,
    /// `and`: if the top entry is 0, jump (keeping it), else drop it.
    AndJump(u32),
    /// `or`: if the top entry is 1, jump (keeping it), else drop it.
    OrJump(u32),
    /// Drop the top entry; jump if it was 0.
    JumpIfZero(u32),
    Jump(u32),
}

/// An integer expression or a condition in flat form: what the hot paths
/// evaluate (a loop over instructions, no recursion, no allocation).
#[derive(Clone, Debug)]
pub struct Code {
    ops: Box<[Op]>,
    lists: Box<[Rc<[i64]>]>,
}

impl Code {
    /// The flat form of an integer expression (`None` if it needs more
    /// stack than a `Code` has).
    pub fn int(e: &IntExpr) -> Option<Code> {
        let mut b = Builder::default();
        b.int(e)?;
        b.finish()
    }

    /// The flat form of a condition.
    pub fn bool(c: &BoolExpr) -> Option<Code> {
        let mut b = Builder::default();
        b.cond(c)?;
        b.finish()
    }

    /// The value as an integer, or `None` where the interpreter would
    /// report an error (or a slot holds no integer).
    #[inline]
    pub fn eval<S: Slots + ?Sized>(&self, env: &S) -> Option<i64> {
        let mut st = [0i64; MAX_STACK];
        let mut sp = 0usize;
        let mut pc = 0usize;
        let ops = &*self.ops;
        while let Some(op) = ops.get(pc) {
            pc += 1;
            match *op {
                Op::Const(k) => {
                    *st.get_mut(sp)? = k;
                    sp += 1;
                }
                Op::Slot(s) => {
                    *st.get_mut(sp)? = env.int(s)?;
                    sp += 1;
                }
                Op::Bin(op) => {
                    sp = sp.checked_sub(1)?;
                    let b = st[sp];
                    let a = st.get_mut(sp.checked_sub(1)?)?;
                    *a = ops::int_op(op, *a, b).ok()?;
                }
                Op::BinSlot(op, s) => {
                    let b = env.int(s)?;
                    let a = st.get_mut(sp.checked_sub(1)?)?;
                    *a = ops::int_op(op, *a, b).ok()?;
                }
                Op::BinConst(op, k) => {
                    let a = st.get_mut(sp.checked_sub(1)?)?;
                    *a = ops::int_op(op, *a, k).ok()?;
                }
                Op::Neg | Op::Abs | Op::Popcount => {
                    let a = st.get_mut(sp.checked_sub(1)?)?;
                    *a = match *op {
                        Op::Neg => ops::neg(*a),
                        Op::Abs => ops::abs(*a),
                        _ => ops::popcount(*a),
                    }
                    .ok()?;
                }
                Op::Index(l) => {
                    let a = st.get_mut(sp.checked_sub(1)?)?;
                    let list = self.lists.get(l as usize)?;
                    *a = *list.get(usize::try_from(*a).ok()?)?;
                }
                Op::Min(n) | Op::Max(n) => {
                    let from = sp.checked_sub(n as usize)?;
                    let xs = st.get(from..sp)?;
                    let best = if matches!(op, Op::Min(_)) {
                        xs.iter().min()
                    } else {
                        xs.iter().max()
                    };
                    st[from] = *best?;
                    sp = from + 1;
                }
                Op::Cmp(op) => {
                    sp = sp.checked_sub(1)?;
                    let b = st[sp];
                    let a = st.get_mut(sp.checked_sub(1)?)?;
                    *a = i64::from(ops::compare(op, *a, b)?);
                }
                Op::CmpConst(op, k) => {
                    let a = st.get_mut(sp.checked_sub(1)?)?;
                    *a = i64::from(ops::compare(op, *a, k)?);
                }
                Op::Not => {
                    let a = st.get_mut(sp.checked_sub(1)?)?;
                    *a = i64::from(*a == 0);
                }
                Op::AndJump(t) => {
                    if *st.get(sp.checked_sub(1)?)? == 0 {
                        pc = t as usize;
                    } else {
                        sp -= 1;
                    }
                }
                Op::OrJump(t) => {
                    if *st.get(sp.checked_sub(1)?)? != 0 {
                        pc = t as usize;
                    } else {
                        sp -= 1;
                    }
                }
                Op::JumpIfZero(t) => {
                    sp = sp.checked_sub(1)?;
                    if st[sp] == 0 {
                        pc = t as usize;
                    }
                }
                Op::Jump(t) => pc = t as usize,
            }
        }
        (sp == 1).then_some(st[0])
    }

    /// The value as a condition.
    #[inline]
    pub fn eval_bool<S: Slots + ?Sized>(&self, env: &S) -> Option<bool> {
        self.eval(env).map(|v| v != 0)
    }
}

/// Builds a [`Code`], tracking the stack depth.
#[derive(Default)]
struct Builder {
    ops: Vec<Op>,
    lists: Vec<Rc<[i64]>>,
    depth: usize,
    max: usize,
}

impl Builder {
    fn push(&mut self, op: Op, delta: isize) {
        self.ops.push(op);
        self.depth = self.depth.saturating_add_signed(delta);
        self.max = self.max.max(self.depth);
    }

    fn finish(self) -> Option<Code> {
        (self.max <= MAX_STACK && self.depth == 1).then(|| Code {
            ops: self.ops.into(),
            lists: self.lists.into(),
        })
    }

    fn here(&self) -> u32 {
        self.ops.len() as u32
    }

    fn patch(&mut self, at: usize, to: u32) {
        if let Some(op @ (Op::AndJump(_) | Op::OrJump(_) | Op::JumpIfZero(_) | Op::Jump(_))) =
            self.ops.get_mut(at)
        {
            *op = match *op {
                Op::AndJump(_) => Op::AndJump(to),
                Op::OrJump(_) => Op::OrJump(to),
                Op::JumpIfZero(_) => Op::JumpIfZero(to),
                _ => Op::Jump(to),
            };
        }
    }

    fn int(&mut self, e: &IntExpr) -> Option<()> {
        match e {
            IntExpr::Const(k) => self.push(Op::Const(*k), 1),
            IntExpr::Slot(s) => self.push(Op::Slot(*s), 1),
            IntExpr::Bin(op, a, b) => {
                self.int(a)?;
                match **b {
                    IntExpr::Const(k) => self.push(Op::BinConst(*op, k), 0),
                    IntExpr::Slot(s) => self.push(Op::BinSlot(*op, s), 0),
                    _ => {
                        self.int(b)?;
                        self.push(Op::Bin(*op), -1);
                    }
                }
            }
            IntExpr::Neg(a) | IntExpr::Abs(a) | IntExpr::Popcount(a) => {
                self.int(a)?;
                let op = match e {
                    IntExpr::Neg(_) => Op::Neg,
                    IntExpr::Abs(_) => Op::Abs,
                    _ => Op::Popcount,
                };
                self.push(op, 0);
            }
            IntExpr::Min(xs) | IntExpr::Max(xs) => {
                for x in xs {
                    self.int(x)?;
                }
                let n = u32::try_from(xs.len()).ok().filter(|n| *n > 0)?;
                let op = if matches!(e, IntExpr::Min(_)) {
                    Op::Min(n)
                } else {
                    Op::Max(n)
                };
                self.push(op, 1 - n as isize);
            }
            IntExpr::Index(items, i) => {
                self.int(i)?;
                self.lists.push(items.clone());
                self.push(Op::Index(self.lists.len() as u32 - 1), 0);
            }
            IntExpr::If(c, a, b) => {
                self.cond(c)?;
                let jz = self.ops.len();
                self.push(Op::JumpIfZero(0), -1);
                self.int(a)?;
                let j = self.ops.len();
                self.push(Op::Jump(0), 0);
                // The other branch starts at the depth before the first.
                self.depth -= 1;
                let t = self.here();
                self.patch(jz, t);
                self.int(b)?;
                let t = self.here();
                self.patch(j, t);
            }
        }
        Some(())
    }

    fn cond(&mut self, c: &BoolExpr) -> Option<()> {
        match c {
            BoolExpr::Const(b) => self.push(Op::Const(i64::from(*b)), 1),
            BoolExpr::Cmp(op, a, b) => {
                self.int(a)?;
                if let IntExpr::Const(k) = b {
                    self.push(Op::CmpConst(*op, *k), 0);
                } else {
                    self.int(b)?;
                    self.push(Op::Cmp(*op), -1);
                }
            }
            BoolExpr::And(a, b) | BoolExpr::Or(a, b) => {
                self.cond(a)?;
                let at = self.ops.len();
                let op = if matches!(c, BoolExpr::And(..)) {
                    Op::AndJump(0)
                } else {
                    Op::OrJump(0)
                };
                self.push(op, -1);
                self.cond(b)?;
                let t = self.here();
                self.patch(at, t);
            }
            BoolExpr::Not(a) => {
                self.cond(a)?;
                self.push(Op::Not, 0);
            }
        }
        Some(())
    }
}

/// A compiled expression of the interpreter's fast path.
#[derive(Clone, Debug)]
enum Fast {
    Int(Code),
    Bool(Code),
}

/// The compiled forms of the expressions that rules evaluate over and over
/// (conditions, loop bounds, arguments of positions), by expression id.
#[derive(Clone, Debug, Default)]
pub struct Compiled {
    /// Per expression, 1 + its index in `exprs` (0: not compiled).
    index: Vec<u32>,
    exprs: Vec<Fast>,
}

impl Compiled {
    /// Compiles the rules of every game.
    pub fn new(prog: &ir::Program, consts: &[Option<Value>]) -> Compiled {
        let mut out = Compiled {
            index: vec![0; prog.exprs.len()],
            exprs: Vec::new(),
        };
        let c = Compiler { prog, consts };
        for game in &prog.games {
            for rule in &game.rules {
                out.clauses(&c, &rule.clauses);
                out.position(&c, rule.body, 0);
            }
        }
        out
    }

    fn add(&mut self, e: ExprId, f: Option<Fast>) {
        if let (Some(f), Some(slot)) = (f, self.index.get_mut(e as usize)) {
            self.exprs.push(f);
            *slot = self.exprs.len() as u32;
        }
    }

    fn clauses(&mut self, c: &Compiler, clauses: &[Clause]) {
        for clause in clauses {
            match *clause {
                Clause::If { cond } => self.add(
                    cond,
                    c.cond(cond).as_ref().and_then(Code::bool).map(Fast::Bool),
                ),
                Clause::For { iter, .. } => {
                    if let ir::Expr::Range { lo, hi, .. } = c.prog.expr(iter) {
                        self.add(*lo, c.int(*lo).as_ref().and_then(Code::int).map(Fast::Int));
                        self.add(*hi, c.int(*hi).as_ref().and_then(Code::int).map(Fast::Int));
                    }
                }
            }
        }
    }

    /// The arguments and conditions inside a position-typed expression.
    fn position(&mut self, c: &Compiler, e: ExprId, depth: usize) {
        if depth > MAX_DEPTH {
            return;
        }
        match c.prog.expr(e) {
            ir::Expr::PosSum(a, b) => {
                self.position(c, *a, depth + 1);
                self.position(c, *b, depth + 1);
            }
            ir::Expr::Apply { args, .. } => {
                for &a in args {
                    self.add(a, c.int(a).as_ref().and_then(Code::int).map(Fast::Int));
                }
            }
            ir::Expr::If(cond, t, f) => {
                self.add(
                    *cond,
                    c.cond(*cond).as_ref().and_then(Code::bool).map(Fast::Bool),
                );
                self.position(c, *t, depth + 1);
                self.position(c, *f, depth + 1);
            }
            ir::Expr::Comp { body, clauses, .. } => {
                self.clauses(c, clauses);
                self.position(c, *body, depth + 1);
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
    pub fn bool(&self, e: ExprId) -> Option<&Code> {
        match self
            .exprs
            .get(self.index.get(e as usize)?.checked_sub(1)? as usize)?
        {
            Fast::Bool(x) => Some(x),
            Fast::Int(_) => None,
        }
    }
}
