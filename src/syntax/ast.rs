//! The abstract syntax tree: what the user wrote, with byte spans, no pest types.

use crate::span::Span;

/// A name as written, with where it was written.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Ident {
    /// The name.
    pub name: String,
    /// Where it stands in the source.
    pub span: Span,
}

/// A whole source file (or one REPL entry): its items in order.
#[derive(Clone, Debug, Default)]
pub struct Program {
    /// Definitions and statements, in source order.
    pub items: Vec<Item>,
}

/// One top-level item.
#[derive(Clone, Debug)]
pub enum Item {
    /// `let NAME = EXPR`
    Let(LetDef),
    /// `game NAME(params) = { rules }`
    Game(GameDef),
    /// `print EXPR` (with clauses: one answer per case)
    Print(PrintStmt),
    /// `check COND for ... if ...`
    Check(CheckStmt),
}

/// `let NAME = EXPR`: a named constant; `let NAME(PARAMS) = EXPR`: a
/// function.
#[derive(Clone, Debug)]
pub struct LetDef {
    /// The constant's or function's name.
    pub name: Ident,
    /// A function's parameters (`None` for a constant).
    pub params: Option<Vec<Ident>>,
    /// Its defining expression.
    pub value: Expr,
    /// The whole definition.
    pub span: Span,
    /// `memo` or `memo(N)` before the name.
    pub memo: Option<MemoDecl>,
}

/// `let memo f(...)` (every call remembered, `limit` None) or
/// `let memo(N) f(...)` (at most N at a time; 0: none).
#[derive(Clone, Debug)]
pub struct MemoDecl {
    pub limit: Option<u64>,
    pub span: Span,
}

/// `game NAME(p1, ..., pk) = { rules }`.
#[derive(Clone, Debug)]
pub struct GameDef {
    /// The game's name.
    pub name: Ident,
    /// Parameter names.
    pub params: Vec<Ident>,
    /// The move rules.
    pub rules: Vec<Rule>,
    /// `Name(params)`: where diagnostics point to name the game.
    pub header: Span,
    /// The whole definition.
    pub span: Span,
    /// The shorthand it was written as (`octal`, `subtraction`), if any;
    /// `rules` are then generated from it.
    pub shorthand: Option<Shorthand>,
    /// `loopy game`: its moves may return to a position it had.
    pub loopy: bool,
    /// `split EXPR`: the position as a sum of parts no move joins.
    pub split: Option<Expr>,
    /// `canonical EXPR`: the position its symmetry class is stored as.
    pub canonical: Option<Expr>,
    /// `prefer COND`: the positions the pruned search moves to first.
    pub prefer: Option<Expr>,
}

/// A game written as a shorthand.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Shorthand {
    /// `octal NAME = d0.d1d2...`: `digits[k]` is the digit for taking k.
    Octal {
        /// The digits, `digits[0]` before the point.
        digits: Vec<u8>,
    },
    /// `subtraction NAME = {..}` or `= all but {..}`.
    Subtraction {
        /// The numbers in the set, as written.
        set: Vec<i64>,
        /// Whether it is `all but` the set.
        all_but: bool,
    },
}

/// One move rule: a sum of positions followed by `for`/`if` clauses.
#[derive(Clone, Debug)]
pub struct Rule {
    /// The position(s) a move leads to.
    pub body: Expr,
    /// Clauses, outermost first.
    pub clauses: Vec<Clause>,
    /// The whole rule.
    pub span: Span,
}

/// `print EXPR for ... if ...`.
#[derive(Clone, Debug)]
pub struct PrintStmt {
    /// What is printed, once per case.
    pub expr: Expr,
    /// Clauses enumerating the cases (none: printed once).
    pub clauses: Vec<Clause>,
    /// The whole statement.
    pub span: Span,
    /// `write`: the value alone, as text (else `print`'s report).
    pub plain: bool,
}

/// `check COND for ... if ...`.
#[derive(Clone, Debug)]
pub struct CheckStmt {
    /// The condition that must hold for every case.
    pub cond: Expr,
    /// Clauses enumerating the cases.
    pub clauses: Vec<Clause>,
    /// The whole statement.
    pub span: Span,
}

/// A comprehension clause.
#[derive(Clone, Debug)]
pub enum Clause {
    /// `for VAR in ITER`
    For {
        /// The loop variable.
        var: Ident,
        /// A range or a list.
        iter: Expr,
    },
    /// `if COND`
    If {
        /// The filter.
        cond: Expr,
    },
    /// `while COND`: ends the nearest `for` before it.
    While {
        /// The condition to go on.
        cond: Expr,
    },
    /// `let NAME = EXPR`: a name for a value, in the clauses after it and
    /// the body.
    Let {
        /// The name bound.
        var: Ident,
        /// Its value.
        value: Expr,
        /// The whole clause, `let` included.
        span: Span,
    },
}

impl Clause {
    /// The name a `for` or `let` clause binds.
    pub fn binds(&self) -> Option<&Ident> {
        match self {
            Clause::For { var, .. } | Clause::Let { var, .. } => Some(var),
            Clause::If { .. } | Clause::While { .. } => None,
        }
    }

    /// The expressions in the clause.
    pub fn exprs(&self) -> &Expr {
        match self {
            Clause::For { iter: e, .. }
            | Clause::If { cond: e }
            | Clause::While { cond: e }
            | Clause::Let { value: e, .. } => e,
        }
    }
}

impl Expr {
    /// Every name the expression uses that it does not bind itself (a
    /// comprehension's, a fold's and a `let ... in`'s own names are not
    /// free in it), called ones included.
    pub fn names(&self, out: &mut Vec<String>) {
        self.free(&mut Vec::new(), out)
    }

    fn free(&self, bound: &mut Vec<String>, out: &mut Vec<String>) {
        let mut name = |n: &String, bound: &[String]| {
            if !bound.contains(n) {
                out.push(n.clone())
            }
        };
        match &self.kind {
            ExprKind::Int(_) | ExprKind::Bool(_) | ExprKind::Str(_) => {}
            ExprKind::Name(n) => name(n, bound),
            ExprKind::Call { callee, args } => {
                name(&callee.name, bound);
                args.iter().for_each(|a| a.free(bound, out))
            }
            ExprKind::List(args) => args.iter().for_each(|a| a.free(bound, out)),
            ExprKind::Generator { body, clauses, .. } | ExprKind::ListComp { body, clauses } => {
                let mark = bound.len();
                Clause::free(clauses, bound, out);
                body.free(bound, out);
                bound.truncate(mark);
            }
            ExprKind::Index(a, b) | ExprKind::Binary(_, a, b) => {
                a.free(bound, out);
                b.free(bound, out);
            }
            ExprKind::Range { lo, hi, .. } => {
                lo.free(bound, out);
                hi.free(bound, out);
            }
            ExprKind::Unary(_, a) | ExprKind::Field(a, _) => a.free(bound, out),
            ExprKind::If(a, b, c) => {
                a.free(bound, out);
                b.free(bound, out);
                c.free(bound, out);
            }
            ExprKind::LetIn { var, value, body } => {
                value.free(bound, out);
                bound.push(var.name.clone());
                body.free(bound, out);
                bound.pop();
            }
            ExprKind::Fold(f) => {
                let Fold {
                    acc,
                    init,
                    body,
                    clauses,
                    ..
                } = &**f;
                init.free(bound, out);
                let mark = bound.len();
                bound.push(acc.name.clone());
                Clause::free(clauses, bound, out);
                body.free(bound, out);
                bound.truncate(mark);
            }
        }
    }
}

impl Clause {
    /// The free names of clauses, in order, each binding its name for the
    /// ones after it (left bound in `bound`).
    fn free(clauses: &[Clause], bound: &mut Vec<String>, out: &mut Vec<String>) {
        for c in clauses {
            c.exprs().free(bound, out);
            if let Some(v) = c.binds() {
                bound.push(v.name.clone());
            }
        }
    }
}

/// An expression with its span.
#[derive(Clone, Debug)]
pub struct Expr {
    /// What kind of expression.
    pub kind: ExprKind,
    /// Where it stands.
    pub span: Span,
}

/// Unary operators.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum UnOp {
    /// `-x`
    Neg,
    /// `not b`
    Not,
}

pub use crate::ops::BinOp;

/// The shapes of expressions.
#[derive(Clone, Debug)]
pub enum ExprKind {
    /// An integer literal.
    Int(i64),
    /// `true` / `false`.
    Bool(bool),
    /// A string literal (escapes read).
    Str(String),
    /// A bare name: a variable, constant or game.
    Name(String),
    /// `f(a, b)`: a game position or a builtin call.
    Call {
        /// What is called.
        callee: Ident,
        /// The arguments.
        args: Vec<Expr>,
    },
    /// `f(E for x in I if C)`: a builtin applied to a generator.
    Generator {
        /// The builtin (`sum`, `min`, `max`, `any`, `all`, ...).
        callee: Ident,
        /// The generated element.
        body: Box<Expr>,
        /// Its clauses.
        clauses: Vec<Clause>,
    },
    /// `[a, b, c]`
    List(Vec<Expr>),
    /// `[E for x in I if C]`
    ListComp {
        /// The element.
        body: Box<Expr>,
        /// Its clauses.
        clauses: Vec<Clause>,
    },
    /// `xs[i]`
    Index(Box<Expr>, Box<Expr>),
    /// `p.period`: a field of a query's answer.
    Field(Box<Expr>, Ident),
    /// `-x`, `not b`
    Unary(UnOp, Box<Expr>),
    /// `a OP b`
    Binary(BinOp, Box<Expr>, Box<Expr>),
    /// `a..b` or `a..=b`
    Range {
        /// Lower bound (included).
        lo: Box<Expr>,
        /// Upper bound.
        hi: Box<Expr>,
        /// Whether `hi` is included.
        inclusive: bool,
    },
    /// `if c then a else b`
    If(Box<Expr>, Box<Expr>, Box<Expr>),
    /// `let x = value in body`
    LetIn {
        /// The name bound.
        var: Ident,
        /// Its value, computed once.
        value: Box<Expr>,
        /// The expression that reads it.
        body: Box<Expr>,
    },
    /// `fold(acc = init, body CLAUSES)` or `scan(...)`.
    Fold(Box<Fold>),
}

/// `fold(acc = init, body CLAUSES)` or `scan(...)`.
#[derive(Clone, Debug)]
pub struct Fold {
    /// The accumulator.
    pub acc: Ident,
    /// Its first value.
    pub init: Expr,
    /// Its next value.
    pub body: Expr,
    /// The clauses.
    pub clauses: Vec<Clause>,
    /// `scan`: every value, as a list.
    pub scan: bool,
}
