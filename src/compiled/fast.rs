//! The interpreter's fast path: per expression id, the compiled closures
//! of the expressions rules evaluate over and over, their parts that depend
//! on the parameters alone hoisted, and the loops of the code around the
//! rules.

use super::*;

/// A compiled expression of the interpreter's fast path.
#[derive(Debug)]
enum Fast {
    Int(IntCode),
    Bool(BoolCode),
    /// A string literal's value, made once.
    Str(Rc<str>),
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
    hoisted: Vec<(u32, Vec<IntCode>)>,
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
                IntExpr::Neg(a)
                | IntExpr::Abs(a)
                | IntExpr::Popcount(a)
                | IntExpr::Isqrt(a)
                | IntExpr::Index(_, a) => params_only(a, arity),
                IntExpr::Min(xs)
                | IntExpr::Max(xs)
                | IntExpr::GridCanon(xs)
                | IntExpr::GridTurn(xs)
                | IntExpr::Call(_, xs) => xs.iter().all(|x| params_only(x, arity)),
                IntExpr::SlotIndex(s, a) => *s < arity && params_only(a, arity),
                IntExpr::SlotLen(s) => *s < arity,
                IntExpr::Reduce(_, _, a, b) => params_only(a, arity) && params_only(b, arity),
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
            IntExpr::Isqrt(a) => IntExpr::Isqrt(self.hoist_box(a)),
            IntExpr::Index(l, a) => IntExpr::Index(l, self.hoist_box(a)),
            IntExpr::Reduce(f, l, a, b) => {
                let a = self.hoist_box(a);
                IntExpr::Reduce(f, l, a, self.hoist_box(b))
            }
            IntExpr::SlotIndex(s, a) => IntExpr::SlotIndex(s, self.hoist_box(a)),
            IntExpr::Min(xs) => IntExpr::Min(xs.into_iter().map(|x| self.hoist(x)).collect()),
            IntExpr::Max(xs) => IntExpr::Max(xs.into_iter().map(|x| self.hoist(x)).collect()),
            IntExpr::GridCanon(xs) => {
                IntExpr::GridCanon(xs.into_iter().map(|x| self.hoist(x)).collect())
            }
            IntExpr::GridTurn(xs) => {
                IntExpr::GridTurn(xs.into_iter().map(|x| self.hoist(x)).collect())
            }
            IntExpr::Call(f, xs) => {
                IntExpr::Call(f, xs.into_iter().map(|x| self.hoist(x)).collect())
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
            BoolExpr::Index(xs, i) => BoolExpr::Index(xs, self.hoist(i)),
            BoolExpr::Const(b) => BoolExpr::Const(b),
        }
    }

    fn int(&mut self, e: ExprId) -> Option<Fast> {
        let x = self.c.int(e)?;
        Some(Fast::Int(IntCode::int(&self.hoist(x))))
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
            let parts = cx.parts.iter().map(IntCode::int).collect();
            out.hoisted.push((cx.base, parts));
        }
        out
    }

    /// Compiles the loops of code outside the rules (comprehensions,
    /// generators and folds under `roots`: constants, functions and
    /// statements, never through a call), with the constants known so far
    /// folded in: their clauses, their elements, a fold's next value
    /// (through `if`, `let` and `set` of the accumulator, the index and
    /// the element), and the conditions of `if`s. No part is hoisted:
    /// these run in frames of their own.
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
                        // A list's elements: integers or booleans.
                        ir::CompKind::List => {
                            let element = match cx.int(*body) {
                                Some(f) => Some(f),
                                None => cx.cond(*body),
                            };
                            self.add(*body, element)
                        }
                        _ => self.add(*body, cx.int(*body)),
                    }
                }
                ir::Expr::Fold { body, clauses, .. } => {
                    self.clauses(&mut cx, clauses);
                    self.carried(&mut cx, *body, 0);
                }
                // A statement's choice of what to write, once per case.
                ir::Expr::If(c, ..) => self.add(*c, cx.cond(*c)),
                ir::Expr::Str(s) => self.add(e, Some(Fast::Str(Rc::from(&**s)))),
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
        self.hoisted.get(game.index()).map_or(0, |(_, h)| h.len())
    }

    /// Computes the hoisted parts of `game` into the extra slots of `env`,
    /// which holds the parameters and room for every slot.
    pub fn hoist(&self, game: GameId, env: &mut [Value]) {
        let Some((base, parts)) = self.hoisted.get(game.index()) else {
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
        if let (Some(f), Some(slot)) = (f, self.index.get_mut(e.index())) {
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
    pub fn int(&self, e: ExprId) -> Option<&IntCode> {
        match self
            .exprs
            .get(self.index.get(e.index())?.checked_sub(1)? as usize)?
        {
            Fast::Int(x) => Some(x),
            Fast::Bool(_) | Fast::Str(_) => None,
        }
    }

    /// The compiled condition `e`, if there is one.
    #[inline]
    pub fn bool(&self, e: ExprId) -> Option<&BoolCode> {
        match self
            .exprs
            .get(self.index.get(e.index())?.checked_sub(1)? as usize)?
        {
            Fast::Bool(x) => Some(x),
            Fast::Int(_) | Fast::Str(_) => None,
        }
    }
}

/// An expression compiled as an integer or as a condition: a list's
/// element, a fold's.
#[derive(Clone, Copy, Debug)]
pub enum Scalar<'a> {
    /// An integer expression.
    Int(&'a IntCode),
    /// A condition.
    Bool(&'a BoolCode),
}

impl Compiled {
    /// The compiled form of `e`, integer or condition, if there is one.
    #[inline]
    pub fn scalar(&self, e: ExprId) -> Option<Scalar<'_>> {
        match self
            .exprs
            .get(self.index.get(e.index())?.checked_sub(1)? as usize)?
        {
            Fast::Int(x) => Some(Scalar::Int(x)),
            Fast::Bool(x) => Some(Scalar::Bool(x)),
            Fast::Str(_) => None,
        }
    }

    /// The value of the string literal `e`, made once.
    #[inline]
    pub fn string(&self, e: ExprId) -> Option<&Rc<str>> {
        match self
            .exprs
            .get(self.index.get(e.index())?.checked_sub(1)? as usize)?
        {
            Fast::Str(s) => Some(s),
            _ => None,
        }
    }
}

impl Scalar<'_> {
    /// The value for the values in `env`; `None` where the compiled form
    /// does not answer (the interpreter then evaluates it, and reports).
    #[inline]
    pub fn value(&self, env: &[Value]) -> Option<Value> {
        match self {
            Scalar::Int(x) => x.eval(env).map(Value::Int),
            Scalar::Bool(x) => x.eval(env).map(Value::Bool),
        }
    }
}

/// The `if`s after a loop, when every clause after it is one whose
/// compiled form exists (at most [`Tests::MAX`]): tested in place, value by
/// value, without a step through the clauses.
pub struct Tests<'a>([Option<&'a BoolCode>; Tests::MAX]);

impl Compiled {
    /// The compiled tests of `clauses`, if they are all compiled `if`s.
    pub fn tests(&self, clauses: &[Clause]) -> Option<Tests<'_>> {
        let mut codes = [None; Tests::MAX];
        if clauses.len() > Tests::MAX {
            return None;
        }
        for (code, c) in codes.iter_mut().zip(clauses) {
            let Clause::If { cond } = c else {
                return None;
            };
            *code = Some(self.bool(*cond)?);
        }
        Some(Tests(codes))
    }
}

impl Tests<'_> {
    /// How many `if`s a loop's tests may have.
    pub const MAX: usize = 4;

    /// The tests as one filter on the loop's variable in `slot`, when they
    /// are one (`if not marked[i]`).
    pub fn filter(&self, slot: u32) -> Option<&super::Filter> {
        match self.0 {
            [Some(t), None, ..] => t.filter().filter(|f| f.slot == slot),
            _ => None,
        }
    }

    /// Whether every test holds: `Some(false)` at the first that fails,
    /// `None` at the first that cannot answer (the interpreter then runs
    /// the clauses, and reports what there is to report).
    #[inline]
    pub fn hold(&self, env: &[Value]) -> Option<bool> {
        for t in &self.0 {
            match t {
                Some(t) if !t.eval(env)? => return Some(false),
                Some(_) => {}
                None => break,
            }
        }
        Some(true)
    }
}
