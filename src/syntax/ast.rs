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
    /// `print EXPR`
    Print(Expr),
    /// `check COND for ... if ...`
    Check(CheckStmt),
}

/// `let NAME = EXPR`: a named constant.
#[derive(Clone, Debug)]
pub struct LetDef {
    /// The constant's name.
    pub name: Ident,
    /// Its defining expression.
    pub value: Expr,
    /// The whole definition.
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
}
