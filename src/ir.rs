//! The program IR: flat, index-addressed, names resolved, types checked.
//!
//! Expressions live in one arena ([`Program::exprs`](crate::ir::Program::exprs)) and refer to each other
//! by [`ExprId`](crate::ir::ExprId); variables are frame slots, games and constants are dense ids.
//! The evaluator walks this, never the AST and never a name map.

pub use crate::builtin::{Builtin, Ints, Play};
pub use crate::ids::{ConstId, ExprId, FunId, GameId, Slot};
pub use crate::ops::BinOp;
use crate::span::Span;

/// A checked program.
#[derive(Clone, Debug, Default)]
pub struct Program {
    /// Expression arena.
    pub exprs: Vec<Expr>,
    /// The span of each expression (parallel to `exprs`).
    pub spans: Vec<Span>,
    /// Games, by id.
    pub games: Vec<Game>,
    /// Constants, by id; `const_order` gives an order that respects dependencies.
    pub consts: Vec<Const>,
    /// Constants in an order where each comes after those it uses.
    pub const_order: Vec<ConstId>,
    /// Functions, by id.
    pub funs: Vec<Fun>,
    /// Statements, in source order.
    pub stmts: Vec<Stmt>,
}

impl Program {
    /// The expression with this id.
    pub fn expr(&self, id: ExprId) -> &Expr {
        &self.exprs[id.index()]
    }

    /// The span of this expression.
    pub fn span(&self, id: ExprId) -> Span {
        self.spans[id.index()]
    }

    /// Whether a position-typed expression has, along `+` and the branches
    /// of `if`, a generator with one `for` clause: what `eval::fold` may
    /// fold.
    pub fn may_fold(&self, e: ExprId) -> bool {
        let mut todo = vec![e];
        while let Some(e) = todo.pop() {
            match self.expr(e) {
                Expr::PosSum(a, b) | Expr::If(_, a, b) => todo.extend([*a, *b]),
                Expr::Comp {
                    kind: CompKind::SumPos,
                    clauses,
                    ..
                } if matches!(clauses[..], [Clause::For { .. }]) => return true,
                _ => {}
            }
        }
        false
    }

    /// Whether the expression reads the variable in `slot` (a call's body
    /// has its own slots, so only the call's arguments count).
    pub fn reads_local(&self, e: ExprId, slot: Slot) -> bool {
        self.any_part(e, |x| matches!(x, Expr::Local(s) if *s == slot))
    }

    /// Whether a game's positions are stored by key rather than in a dense
    /// array sized by the largest: boards. A game that renames its
    /// positions (`split`, `canonical`), and a one-parameter game whose
    /// positions are masks: one of its rules moves to the same game with
    /// the parameter's bits changed by `^`, `&` or `|` (`G(m ^ b)`,
    /// `G(m & (m - 1))`). Few of a mask's range are ever reached.
    pub fn stored_by_key(&self, game: GameId) -> bool {
        let Some(g) = self.games.get(game.index()) else {
            return false;
        };
        // A tree of `^`, `&` and `|` with the parameter among its operands.
        let masks = |e: ExprId| {
            let mut todo = vec![e];
            let mut top = true;
            while let Some(e) = todo.pop() {
                match self.expr(e) {
                    Expr::Local(Slot(0)) if !top => return true,
                    Expr::Binary(BinOp::BitXor | BinOp::BitAnd | BinOp::BitOr, a, b) => {
                        todo.extend([*a, *b]);
                    }
                    _ => {}
                }
                top = false;
            }
            false
        };
        g.renames()
            || g.params.len() == 1
                && g.rules.iter().any(|r| {
                    // The rule's options: along `+` and the branches of `if`.
                    let mut todo = vec![r.body];
                    while let Some(e) = todo.pop() {
                        match self.expr(e) {
                            Expr::PosSum(a, b) | Expr::If(_, a, b) => todo.extend([*a, *b]),
                            Expr::Apply { game: to, args }
                                if *to == game && args.first().is_some_and(|&a| masks(a)) =>
                            {
                                return true;
                            }
                            _ => {}
                        }
                    }
                    false
                })
    }

    /// The games, constants and functions named by the expressions from
    /// `start` on: a definition's expressions are contiguous in the arena.
    pub fn uses_from(&self, start: usize) -> Vec<Global> {
        let mut uses: Vec<Global> = self.exprs[start.min(self.exprs.len())..]
            .iter()
            .filter_map(|e| match e {
                Expr::Apply { game, .. } | Expr::GameRef(game) => Some(Global::Game(*game)),
                Expr::Const(c) => Some(Global::Const(*c)),
                Expr::CallFun { fun, .. } => Some(Global::Fun(*fun)),
                _ => None,
            })
            .collect();
        uses.sort_unstable();
        uses.dedup();
        uses
    }

    /// `e` and the bodies of the functions it reaches (`uses`: what `e`
    /// names), through any chain of calls.
    pub fn reached(&self, e: ExprId, uses: &[Global]) -> Vec<ExprId> {
        let mut out = vec![e];
        let mut seen = vec![false; self.funs.len()];
        let mut todo: Vec<Global> = uses.to_vec();
        while let Some(g) = todo.pop() {
            let Global::Fun(f) = g else { continue };
            let Some(fun) = self.funs.get(f.index()) else {
                continue;
            };
            if !std::mem::replace(&mut seen[f.index()], true) {
                out.push(fun.body);
                todo.extend(&fun.uses);
            }
        }
        out
    }

    /// Whether `found` holds for the expression or a part of it (a call's
    /// body is not a part; its arguments are). Walked with a stack of its
    /// own: an expression may nest as deep as its source.
    fn any_part(&self, e: ExprId, found: impl Fn(&Expr) -> bool) -> bool {
        let mut todo = vec![e];
        while let Some(e) = todo.pop() {
            if found(self.expr(e)) {
                return true;
            }
            self.children(e, &mut todo);
        }
        false
    }

    /// Pushes the parts of an expression onto `out` (a call's body is not
    /// a part; its arguments are).
    pub fn children(&self, e: ExprId, out: &mut Vec<ExprId>) {
        match self.expr(e) {
            Expr::Int(_)
            | Expr::Bool(_)
            | Expr::Str(_)
            | Expr::EmptyPos
            | Expr::Local(_)
            | Expr::Const(_)
            | Expr::GameRef(_) => {}
            Expr::Concat(a, b)
            | Expr::ListConcat(a, b)
            | Expr::Index(a, b)
            | Expr::Binary(_, a, b)
            | Expr::PosSum(a, b)
            | Expr::Range { lo: a, hi: b, .. } => out.extend([*a, *b]),
            Expr::Field(a, _) | Expr::Neg(a) | Expr::Not(a) => out.push(*a),
            Expr::If(c, a, b) => out.extend([*c, *a, *b]),
            Expr::List(xs)
            | Expr::Apply { args: xs, .. }
            | Expr::CallFun { args: xs, .. }
            | Expr::Call { args: xs, .. } => out.extend(xs),
            Expr::Comp { body, clauses, .. } => {
                out.push(*body);
                out.extend(clauses.iter().map(|c| c.expr()));
            }
            Expr::Let { value, body, .. } => out.extend([*value, *body]),
            Expr::Fold {
                init,
                body,
                clauses,
                ..
            } => {
                out.extend([*init, *body]);
                out.extend(clauses.iter().map(|c| c.expr()));
            }
        }
    }
}

/// A game definition.
#[derive(Clone, Debug)]
pub struct Game {
    /// Its name.
    pub name: String,
    /// Parameter names (slots `0..params.len()`).
    pub params: Vec<String>,
    /// Move rules, in source order.
    pub rules: Vec<Rule>,
    /// Frame size: parameters plus every variable bound in the rules.
    pub slots: u32,
    /// The largest number of clauses in one rule (iterator slots per frame).
    pub max_clauses: u32,
    /// `Name(params)` as written.
    pub header: Span,
    /// The whole definition.
    pub span: Span,
    /// The shorthand it was written as, if any.
    pub shorthand: Option<crate::syntax::ast::Shorthand>,
    /// Whether each parameter is an integer (as the checker inferred).
    pub int_params: Vec<bool>,
    /// The games and constants its rules name (from name resolution).
    pub uses: Vec<Global>,
    /// `loopy game`: its moves may return to a position it had.
    pub loopy: bool,
    /// `split`, `canonical` and `prefer`: how its positions are stored
    /// and searched.
    pub stored_as: StoredAs,
}

/// How a game's positions are stored: by their parts, each in canonical
/// form (`eval::rename`); and which the pruned search tries first. All
/// `None` for most games.
#[derive(Clone, Copy, Debug, Default)]
pub struct StoredAs {
    /// `split EXPR`: the position as a sum of parts no move joins (a
    /// position expression over the parameters, in the rules' frame).
    pub split: Option<ExprId>,
    /// `canonical EXPR`: the one position of this game its symmetry class
    /// is stored as.
    pub canonical: Option<ExprId>,
    /// `prefer COND` (a condition over the parameters): the pruned search
    /// tries first the options whose parts it holds for. A hint: it orders
    /// the search, never changes a value.
    pub prefer: Option<ExprId>,
}

impl Game {
    /// Whether its positions are stored by another name than their own
    /// (split into parts, or canonical forms).
    pub fn renames(&self) -> bool {
        self.stored_as.split.is_some() || self.stored_as.canonical.is_some()
    }
}

/// One move rule.
#[derive(Clone, Debug)]
pub struct Rule {
    /// A position-typed expression: the option this rule yields.
    pub body: ExprId,
    /// Clauses, outermost first.
    pub clauses: Vec<Clause>,
    /// The rule's span.
    pub span: Span,
    /// Whether its body has a generator the search may fold by parity
    /// (`Program::may_fold`): others are built as they are.
    pub folds: bool,
}

/// A comprehension clause.
#[derive(Clone, Copy, Debug)]
pub enum Clause {
    /// `for slot in iter`
    For {
        /// The loop variable's slot.
        slot: Slot,
        /// A range or list expression.
        iter: ExprId,
    },
    /// `if cond`
    If {
        /// A boolean expression.
        cond: ExprId,
    },
    /// `while cond`: ends the nearest `for` before it at its first value
    /// where `cond` is false (with none before it, an `if`).
    While {
        /// A boolean expression.
        cond: ExprId,
    },
    /// `let slot = value`: the value computed once, here, and held in a
    /// slot for the clauses after it and the body. (A `let` of plain
    /// arithmetic leaves no clause: the checker reads its name as its
    /// expression, which costs the same and keeps the rule's shape.)
    Let {
        /// The name's slot.
        slot: Slot,
        /// Its value.
        value: ExprId,
    },
}

impl Clause {
    /// The clause's expression: what it iterates, tests or binds.
    pub fn expr(&self) -> ExprId {
        match *self {
            Clause::For { iter, .. } => iter,
            Clause::If { cond } | Clause::While { cond } => cond,
            Clause::Let { value, .. } => value,
        }
    }
}

/// A named constant.
#[derive(Clone, Debug)]
pub struct Const {
    /// Its name.
    pub name: String,
    /// Its defining expression.
    pub expr: ExprId,
    /// Frame size for comprehensions inside it.
    pub slots: u32,
    /// The constant's name as written.
    pub name_span: Span,
    /// The definition's span.
    pub span: Span,
    /// The games and constants its expression names (from name resolution).
    pub uses: Vec<Global>,
    /// Whether it asks a query (or uses a constant that does): evaluated
    /// after the others, once the rules' compiled forms are ready.
    pub needs_values: bool,
}

/// A function: `let NAME(PARAMS) = BODY`.
#[derive(Clone, Debug)]
pub struct Fun {
    /// Its name.
    pub name: String,
    /// Parameter names (slots `0..params.len()`).
    pub params: Vec<String>,
    /// Its body.
    pub body: ExprId,
    /// Frame size: parameters plus every variable bound in the body.
    pub slots: u32,
    /// The definition's span.
    pub span: Span,
    /// The games, constants and functions its body names.
    pub uses: Vec<Global>,
    /// Whether it asks for values (a query, or a constant that asks one),
    /// so that rules may not call it: `Some(self)` in its own body, or
    /// `Some(g)` through the function `g` it calls (the next step of the
    /// chain).
    pub asks: Option<FunId>,
    /// Whether its calls are memoized: as declared (`let memo f`,
    /// `memo(N)`), else when it can call itself, through functions (a
    /// recursion's calls repeat); any other function is evaluated afresh
    /// at each call.
    pub memo: bool,
    /// `memo(N)`: at most N calls remembered at a time; `Some(u64::MAX)`
    /// for `memo`; `None` when undeclared.
    pub memo_limit: Option<u64>,
    /// Whether it can call itself, through functions.
    pub recursive: bool,
}

/// The `for` a clause at `at` belongs to: the nearest one before it (what
/// the search goes back to, and what a failed `while` ends).
pub fn enclosing_loop(clauses: &[Clause], at: usize) -> Option<usize> {
    clauses
        .get(..at)?
        .iter()
        .rposition(|c| matches!(c, Clause::For { .. }))
}

/// A game, a constant or a function: what a definition may use.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Global {
    Game(GameId),
    Const(ConstId),
    Fun(FunId),
}

/// A statement to run.
#[derive(Clone, Debug)]
pub enum Stmt {
    /// `print EXPR CLAUSES`
    Print {
        /// The expression (possibly a report query such as `table`).
        expr: ExprId,
        /// Clauses enumerating the cases (none: printed once).
        clauses: Vec<Clause>,
        /// Frame size.
        slots: u32,
        /// The statement's span.
        span: Span,
        /// `write`: the value alone, as text.
        plain: bool,
    },
    /// `check COND for ...`
    Check {
        /// The condition.
        cond: ExprId,
        /// The enumerating clauses.
        clauses: Vec<Clause>,
        /// Names of the `for` variables with their slots, for counterexamples.
        vars: Vec<(String, Slot)>,
        /// Frame size.
        slots: u32,
        /// The statement's span.
        span: Span,
    },
}

impl Stmt {
    /// The statement's span.
    pub fn span(&self) -> Span {
        match self {
            Stmt::Print { span, .. } | Stmt::Check { span, .. } => *span,
        }
    }
}

/// What a generator or comprehension computes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CompKind {
    /// `[e for ...]`: a list of integers.
    List,
    /// `sum(e for ...)` over integers.
    SumInt,
    /// `sum(P for ...)` over positions: their disjunctive sum.
    SumPos,
    /// `min(e for ...)`
    Min,
    /// `max(e for ...)`
    Max,
    /// `any(c for ...)`
    Any,
    /// `all(c for ...)`
    All,
}

/// Expressions. Types were checked: the evaluator still verifies the values
/// it receives, but a mismatch there is a bug, not a user error.
#[derive(Clone, Debug)]
pub enum Expr {
    /// An integer.
    Int(i64),
    /// A boolean.
    Bool(bool),
    /// A string.
    Str(std::sync::Arc<str>),
    /// `a + b` where one side is a string: the two as text, joined.
    Concat(ExprId, ExprId),
    /// `a + b` of two lists: the elements of `a`, then those of `b`.
    ListConcat(ExprId, ExprId),
    /// The empty position (`0` where a position is expected).
    EmptyPos,
    /// A variable.
    Local(Slot),
    /// A constant.
    Const(ConstId),
    /// A list literal.
    List(Vec<ExprId>),
    /// A comprehension or generator.
    Comp {
        /// What it computes.
        kind: CompKind,
        /// The element expression.
        body: ExprId,
        /// Its clauses.
        clauses: Vec<Clause>,
    },
    /// `list[index]`
    Index(ExprId, ExprId),
    /// `record.field`
    Field(ExprId, std::sync::Arc<str>),
    /// `-x`
    Neg(ExprId),
    /// `not b`
    Not(ExprId),
    /// An operator on integers, booleans or (for `==`/`!=`) lists.
    Binary(BinOp, ExprId, ExprId),
    /// `P + Q` on positions: the disjunctive sum.
    PosSum(ExprId, ExprId),
    /// `lo..hi` / `lo..=hi`
    Range {
        /// Lower bound.
        lo: ExprId,
        /// Upper bound.
        hi: ExprId,
        /// Whether `hi` is included.
        inclusive: bool,
    },
    /// `if c then a else b`
    If(ExprId, ExprId, ExprId),
    /// A game position `G(args)`.
    Apply {
        /// The game.
        game: GameId,
        /// One argument per parameter.
        args: Vec<ExprId>,
    },
    /// A call of a function of the program.
    CallFun {
        /// The function.
        fun: FunId,
        /// One argument per parameter.
        args: Vec<ExprId>,
    },
    /// A builtin call.
    Call {
        /// The builtin.
        f: Builtin,
        /// The play a query asks about (normal for everything else).
        play: Play,
        /// Its arguments (a last `misere` is `play`, not an argument).
        args: Vec<ExprId>,
    },
    /// A bare game name (the first argument of `table`/`ppositions`).
    GameRef(GameId),
    /// `let x = value in body`: `value` computed once, held in `slot`.
    Let {
        /// The name's slot.
        slot: Slot,
        /// Its value.
        value: ExprId,
        /// The expression that reads it.
        body: ExprId,
    },
    /// `fold(acc = init, body CLAUSES)`: `acc` starts as `init` and becomes
    /// `body` at each binding of the clauses, which read it as it stands;
    /// the last `acc` is the value (`scan`: the list of every `acc`, `init`
    /// first).
    Fold {
        /// The accumulator's slot.
        acc: Slot,
        /// Its first value.
        init: ExprId,
        /// Its next value, from the one before.
        body: ExprId,
        /// The clauses, outermost first.
        clauses: Vec<Clause>,
        /// Whether every value is kept (`scan`), or the last (`fold`).
        scan: bool,
    },
}
