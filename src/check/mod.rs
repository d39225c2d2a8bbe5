//! Checking: resolves names, checks arity and types, and lowers the AST to the
//! flat IR, collecting every error of the stage.

use crate::diagnostics::{Code, Diag, did_you_mean};
use crate::ir::{self, Builtin, Clause, CompKind, ExprId, GameId, Play, Slot};
use crate::span::Span;
use crate::syntax::ast::{self, BinOp, ExprKind, Item, UnOp};
use crate::value::RecordKind;
use std::collections::HashMap;

mod after_rules;
mod call;
mod consts;
mod cost;
mod lets;
mod operators;
mod types;
use types::Types;

/// Static types. Game parameters start as variables and are fixed by use.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Ty {
    Int,
    Bool,
    Str,
    List,
    Range,
    Dict,
    Pos,
    /// A query's answer with fields (`p.period`).
    Record(RecordKind),
    Report,
    /// A type variable (index into `Checker::vars`).
    Var(u32),
    /// Unknown after an error: accepted everywhere to avoid cascades.
    Error,
}

impl Ty {
    fn describe(self) -> &'static str {
        match self {
            Ty::Int => "an integer",
            Ty::Bool => "a boolean",
            Ty::Str => "a string",
            Ty::List => "a list",
            Ty::Range => "a range",
            Ty::Dict => "a dictionary",
            Ty::Pos => "a position",
            Ty::Record(k) => k.describe(),
            Ty::Report => "a report",
            Ty::Var(_) | Ty::Error => "a value",
        }
    }
}

/// Where an expression is: queries need game values and are not allowed in
/// rules or functions.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Ctx {
    Rule,
    Const,
    Fun,
    Stmt,
}

#[derive(Clone, Copy)]
enum Defined {
    Game(GameId),
    Const(ir::ConstId),
    Fun(ir::FunId),
}

/// Checks a parsed program and lowers it to IR, with its warnings. Its
/// items may come from several sources: spans say which.
pub fn check(program: &ast::Program) -> Result<(ir::Program, Vec<Diag>), Vec<Diag>> {
    let mut c = Checker {
        out: ir::Program::default(),
        errors: Vec::new(),
        globals: HashMap::new(),
        game_params: Vec::new(),
        const_tys: Vec::new(),
        types: Types::default(),
        scope: Vec::new(),
        next_slot: 0,
        max_slot: 0,
        ctx: Ctx::Stmt,
        reported: Reported::default(),
        fun_tys: Vec::new(),
    };
    c.declare(program);
    c.check_lets(program);
    for item in &program.items {
        match item {
            Item::Game(g) => c.game(g),
            Item::Print(e) => c.print(e),
            Item::Check(s) => c.check_stmt(s),
            Item::Let(_) => {}
        }
    }
    after_rules::unused_prefers(&mut c, program);
    for (g, params) in c.game_params.clone().iter().enumerate() {
        let ints = params
            .iter()
            .map(|&t| c.types.resolve(t) == Ty::Int)
            .collect();
        c.out.games[g].int_params = ints;
    }
    if c.errors.iter().all(|d| d.warning) {
        Ok((c.out, c.errors))
    } else {
        Err(lets::explain_clause_lets(
            program,
            c.errors,
            &c.reported.names,
        ))
    }
}

/// A name bound in the frame being checked.
struct Bound {
    name: String,
    slot: Slot,
    ty: Ty,
    /// For a `let` clause, the expression the name stands for (pure, so
    /// using it where the name is used means the same); its slot is unused.
    alias: Option<ExprId>,
    /// Whether it is a fold's accumulator (it changes as the fold runs).
    carried: bool,
}

struct Checker {
    out: ir::Program,
    errors: Vec<Diag>,
    globals: HashMap<String, Defined>,
    /// Parameter type variables of each game.
    game_params: Vec<Vec<Ty>>,
    /// Each constant's type, and whether it needs Grundy values (it asks a
    /// query, or uses a constant that does).
    const_tys: Vec<(Ty, bool)>,
    /// The type variables.
    types: Types,
    scope: Vec<Bound>,
    /// The frame's slots in use, and the most in use so far (counts).
    next_slot: u32,
    max_slot: u32,
    ctx: Ctx,
    reported: Reported,
    /// Each function's parameter and result types.
    fun_tys: Vec<(Vec<Ty>, Ty)>,
}

/// Names already reported, so that their uses are not errors again.
#[derive(Default)]
struct Reported {
    /// Unknown names: index of their error, for more labels.
    unknown: HashMap<String, usize>,
    /// Names whose definition was rejected.
    poisoned: Vec<String>,
    /// Each error about an unknown name: its index and the name.
    names: Vec<(usize, String)>,
}

impl Checker {
    // ----- declarations ---------------------------------------------------

    fn declare(&mut self, program: &ast::Program) {
        let mut spans: HashMap<String, Span> = HashMap::new();
        for item in &program.items {
            let (name, span) = match item {
                Item::Game(g) => (&g.name, g.header),
                Item::Let(l) => (&l.name, l.name.span),
                _ => continue,
            };
            if let Some(first) = spans.get(&name.name) {
                self.errors.push(
                    Diag::user(
                        Code::DuplicateDefinition,
                        format!("`{}` is defined twice", name.name),
                    )
                    .label(name.span, "defined again here")
                    .label(*first, "first defined here")
                    .help("rename one of the definitions"),
                );
                continue;
            }
            // A definition named like a builtin hides it in this program.
            if crate::builtin::is_name(&name.name) {
                self.errors.push(
                    Diag::warning(
                        Code::ShadowsBuiltin,
                        format!("`{}` hides the builtin of that name", name.name),
                    )
                    .label(name.span, "defined here")
                    .note(format!(
                        "in this program, `{}` means this definition, not the builtin",
                        name.name
                    ))
                    .help("rename it to keep the builtin within reach"),
                );
            }
            spans.insert(name.name.clone(), span);
            match item {
                Item::Game(g) => {
                    let id = GameId(self.out.games.len() as u32);
                    let params = g.params.iter().map(|_| self.types.fresh_var()).collect();
                    self.game_params.push(params);
                    self.out.games.push(ir::Game {
                        name: g.name.name.clone(),
                        params: g.params.iter().map(|p| p.name.clone()).collect(),
                        rules: Vec::new(),
                        slots: 0,
                        max_clauses: 0,
                        header: g.header,
                        span: g.span,
                        shorthand: g.shorthand.clone(),
                        int_params: Vec::new(),
                        uses: Vec::new(),
                        loopy: g.loopy,
                        stored_as: ir::StoredAs::default(),
                    });
                    self.globals.insert(g.name.name.clone(), Defined::Game(id));
                }
                Item::Let(ast::LetDef {
                    name,
                    params: Some(params),
                    span,
                    memo,
                    ..
                }) => {
                    let memo_limit = memo.as_ref().map(|m| m.limit.unwrap_or(u64::MAX));
                    let id = ir::FunId(self.out.funs.len() as u32);
                    let tys = params.iter().map(|_| self.types.fresh_any()).collect();
                    let ret = self.types.fresh_any();
                    self.fun_tys.push((tys, ret));
                    self.out.funs.push(ir::Fun {
                        name: name.name.clone(),
                        params: params.iter().map(|p| p.name.clone()).collect(),
                        body: ExprId(0),
                        slots: 0,
                        span: *span,
                        uses: Vec::new(),
                        asks: None,
                        // Both set with `recursive` once the calls are known (`mark_funs`).
                        memo: false,
                        memo_limit,
                        recursive: false,
                    });
                    self.globals.insert(name.name.clone(), Defined::Fun(id));
                }
                Item::Let(l) => {
                    if let Some(m) = &l.memo {
                        self.errors.push(
                            Diag::user(
                                Code::BadLet,
                                format!("`memo` before the constant `{}`", l.name.name),
                            )
                            .label(m.span, "for functions only")
                            .help("a constant is computed once anyway; `memo` says how a function's calls are remembered"),
                        );
                    }
                    let id = ir::ConstId(self.out.consts.len() as u32);
                    self.const_tys.push((Ty::Error, false));
                    self.out.consts.push(ir::Const {
                        name: l.name.name.clone(),
                        expr: ExprId(0),
                        slots: 0,
                        name_span: l.name.span,
                        span: l.span,
                        uses: Vec::new(),
                        needs_values: false,
                    });
                    self.globals.insert(l.name.name.clone(), Defined::Const(id));
                }
                _ => {}
            }
        }
    }

    fn game(&mut self, g: &ast::GameDef) {
        let Some(Defined::Game(id)) = self.globals.get(&g.name.name).copied() else {
            return;
        };
        if self.out.games[id.index()].span != g.span {
            return; // a duplicate, already reported
        }
        self.begin_frame(Ctx::Rule);
        for (i, p) in g.params.iter().enumerate() {
            if g.params[..i].iter().any(|q| q.name == p.name) {
                self.errors.push(
                    Diag::user(
                        Code::DuplicateParameter,
                        format!("parameter `{}` appears twice", p.name),
                    )
                    .label(p.span, "repeated here"),
                );
            }
            let ty = self.game_params[id.index()][i];
            self.bind(&p.name, ty);
        }
        let mut rules = Vec::new();
        let mut max_clauses = 0;
        let start = self.out.exprs.len();
        for r in &g.rules {
            let mark = self.scope.len();
            let clauses = self.clauses(&r.clauses);
            let body = self.check_ty(&r.body, Ty::Pos, "a move rule must yield a position");
            self.scope.truncate(mark);
            max_clauses = max_clauses.max(clauses.len() as u32);
            rules.push(ir::Rule {
                body,
                clauses,
                span: r.span,
                folds: self.out.may_fold(body),
            });
        }
        let stored_as = after_rules::declarations(self, g);
        let uses = self.out.uses_from(start);
        let game = &mut self.out.games[id.index()];
        game.uses = uses;
        game.rules = rules;
        game.stored_as = stored_as;
        game.slots = self.max_slot;
        game.max_clauses = max_clauses;
    }

    fn print(&mut self, p: &ast::PrintStmt) {
        self.begin_frame(Ctx::Stmt);
        let clauses = self.clauses(&p.clauses);
        // `write` writes a value: a report query's answer as a value.
        let (expr, _) = if p.plain {
            self.infer(&p.expr)
        } else {
            self.infer_top(&p.expr)
        };
        self.out.stmts.push(ir::Stmt::Print {
            expr,
            clauses,
            slots: self.max_slot,
            span: p.expr.span,
            plain: p.plain,
        });
    }

    fn check_stmt(&mut self, s: &ast::CheckStmt) {
        self.begin_frame(Ctx::Stmt);
        let clauses = self.clauses(&s.clauses);
        let vars = s
            .clauses
            .iter()
            .filter_map(|c| match c {
                ast::Clause::For { var, .. } => self
                    .local(&var.name)
                    .filter(|b| b.alias.is_none())
                    .map(|b| (var.name.clone(), b.slot)),
                _ => None,
            })
            .collect();
        let cond = self.check_ty(&s.cond, Ty::Bool, "a check needs a condition");
        self.out.stmts.push(ir::Stmt::Check {
            cond,
            clauses,
            vars,
            slots: self.max_slot,
            span: s.span,
        });
    }

    // ----- scopes and types -------------------------------------------------

    fn begin_frame(&mut self, ctx: Ctx) {
        self.ctx = ctx;
        self.scope.clear();
        self.next_slot = 0;
        self.max_slot = 0;
    }

    fn bind(&mut self, name: &str, ty: Ty) -> Slot {
        let slot = Slot(self.next_slot);
        self.next_slot += 1;
        self.max_slot = self.max_slot.max(self.next_slot);
        self.scope.push(Bound {
            name: name.to_string(),
            slot,
            ty,
            alias: None,
            carried: false,
        });
        slot
    }

    /// The innermost local variable of this name.
    fn local(&self, name: &str) -> Option<&Bound> {
        self.scope.iter().rev().find(|b| b.name == name)
    }

    fn push(&mut self, e: ir::Expr, span: Span) -> ExprId {
        self.out.exprs.push(e);
        self.out.spans.push(span);
        ExprId((self.out.exprs.len() - 1) as u32)
    }

    fn mismatch(&mut self, span: Span, expected: Ty, found: Ty, why: &str) {
        let found = self.types.resolve(found);
        let expected = self.types.resolve(expected);
        // An earlier error explains this one already.
        if found == Ty::Error || expected == Ty::Error {
            return;
        }
        let mut d = Diag::user(
            Code::TypeMismatch,
            format!(
                "expected {}, found {}",
                expected.describe(),
                found.describe()
            ),
        )
        .label(span, format!("this is {}", found.describe()));
        if !why.is_empty() {
            d = d.note(why.to_string());
        }
        if expected == Ty::Pos && found == Ty::Int {
            d = d.help("a position is a game applied to arguments, like `Nim(3)`; `0` is the empty position");
        }
        if expected == Ty::List && found == Ty::Range {
            d = d.help("a range can only be iterated; write `[x for x in a..b]` for a list");
        }
        if expected == Ty::List && found == Ty::Int && why == "`+` joins two lists" {
            d = d.help("to add an element, join a list of one: `xs + [x]`");
        }
        if expected == Ty::Int && found == Ty::Pos {
            d = d.help("for the Grundy value of a position, write `grundy(P)`");
        }
        if let (Ty::Record(kind), _) | (_, Ty::Record(kind)) = (expected, found) {
            d = d.help(format!(
                "{} is compared by its fields ({}): e.g. `outcome(P).first_wins`, `period(G).period == 12`",
                kind.describe(),
                kind.field_list()
            ));
        }
        if expected == Ty::Bool && found == Ty::Int {
            d = d.help("conditions are booleans: compare, e.g. `k % 2 == 1`");
        }
        self.errors.push(d);
    }

    /// Checks an expression against an expected type.
    fn check_ty(&mut self, e: &ast::Expr, expected: Ty, why: &str) -> ExprId {
        match (&e.kind, self.types.resolve(expected)) {
            (ExprKind::Int(0), Ty::Pos) => return self.push(ir::Expr::EmptyPos, e.span),
            (
                ExprKind::Generator {
                    callee,
                    body,
                    clauses,
                },
                Ty::Pos,
            ) if callee.name == "sum" => {
                let (id, ty) = self.generator(callee, body, clauses, e.span, true);
                if !self.types.unify(ty, Ty::Pos) {
                    self.mismatch(e.span, Ty::Pos, ty, why);
                }
                return id;
            }
            (ExprKind::Binary(BinOp::Add, l, r), Ty::Pos) => {
                let l = self.check_ty(l, Ty::Pos, why);
                let r = self.check_ty(r, Ty::Pos, why);
                return self.push(ir::Expr::PosSum(l, r), e.span);
            }
            // Where a list is wanted, `+` joins two lists (so variables
            // not known yet are lists).
            (ExprKind::Binary(BinOp::Add, l, r), Ty::List) => {
                let l = self.check_ty(l, Ty::List, why);
                let r = self.check_ty(r, Ty::List, why);
                return self.push(ir::Expr::ListConcat(l, r), e.span);
            }
            // Where a string is wanted, `+` joins text (so values not known
            // yet are strings: a recursive function's own calls).
            (ExprKind::Binary(BinOp::Add, l, r), Ty::Str) => {
                let (l_id, l_ty) = self.infer(l);
                let (r_id, r_ty) = self.infer(r);
                let mut text = false;
                for (side, ty) in [(l, l_ty), (r, r_ty)] {
                    let t = self.types.resolve(ty);
                    text |=
                        t == Ty::Str || (matches!(t, Ty::Var(_)) && self.types.unify(ty, Ty::Str));
                    if matches!(t, Ty::Range | Ty::Report) {
                        self.mismatch(side.span, Ty::Str, ty, "`+` joins a string with a value");
                    }
                }
                if !text {
                    self.mismatch(e.span, Ty::Str, l_ty, why);
                }
                return self.push(ir::Expr::Concat(l_id, r_id), e.span);
            }
            (ExprKind::If(c, t, f), want @ (Ty::Pos | Ty::Int | Ty::Bool | Ty::List | Ty::Str)) => {
                let c = self.check_ty(c, Ty::Bool, "the condition of `if` must be a boolean");
                let t = self.check_ty(t, want, why);
                let f = self.check_ty(f, want, why);
                return self.push(ir::Expr::If(c, t, f), e.span);
            }
            (ExprKind::LetIn { var, value, body }, want) => {
                let mark = self.scope.len();
                let (v, ty) = self.infer(value);
                let slot = self.bind_let(&var.name, v, ty);
                let b = self.check_ty(body, want, why);
                self.scope.truncate(mark);
                return match slot {
                    Some(slot) => self.push(
                        ir::Expr::Let {
                            slot,
                            value: v,
                            body: b,
                        },
                        e.span,
                    ),
                    None => b,
                };
            }
            _ => {}
        }
        let (id, ty) = self.infer(e);
        if !self.types.unify(ty, expected) {
            self.mismatch(e.span, expected, ty, why);
        }
        id
    }

    /// Infers the top expression of a `print`: reports are allowed here.
    fn infer_top(&mut self, e: &ast::Expr) -> (ExprId, Ty) {
        self.infer_inner(e, true)
    }

    fn infer(&mut self, e: &ast::Expr) -> (ExprId, Ty) {
        self.infer_inner(e, false)
    }

    fn infer_inner(&mut self, e: &ast::Expr, top: bool) -> (ExprId, Ty) {
        let span = e.span;
        match &e.kind {
            ExprKind::Int(v) => (self.push(ir::Expr::Int(*v), span), Ty::Int),
            ExprKind::Bool(b) => (self.push(ir::Expr::Bool(*b), span), Ty::Bool),
            ExprKind::Str(text) => (
                self.push(ir::Expr::Str(text.as_str().into()), span),
                Ty::Str,
            ),
            ExprKind::Name(name) => self.name(name, span),
            ExprKind::Call { callee, args } => {
                let (id, ty) = self.call(callee, args, span);
                if ty == Ty::Report && !top {
                    // Not printed directly: the answer as a value.
                    return match self.out.expr(id) {
                        ir::Expr::Call { f, args, .. } => (id, answer_type(*f, args.len())),
                        _ => (id, Ty::Error),
                    };
                }
                (id, ty)
            }
            ExprKind::Field(base, name) => self.field(base, name, span),
            ExprKind::Generator {
                callee,
                body,
                clauses,
            } => self.generator(callee, body, clauses, span, false),
            ExprKind::List(items) => {
                let items = items.iter().map(|i| self.data(i)).collect();
                (self.push(ir::Expr::List(items), span), Ty::List)
            }
            ExprKind::ListComp { body, clauses } => {
                let mark = self.scope.len();
                let clauses = self.clauses(clauses);
                let body = self.data(body);
                self.scope.truncate(mark);
                let kind = CompKind::List;
                (
                    self.push(
                        ir::Expr::Comp {
                            kind,
                            body,
                            clauses,
                        },
                        span,
                    ),
                    Ty::List,
                )
            }
            ExprKind::Index(base, idx) => self.index(base, idx, span),
            ExprKind::Unary(UnOp::Neg, x) => {
                let x = self.check_ty(x, Ty::Int, "`-` negates an integer");
                (self.push(ir::Expr::Neg(x), span), Ty::Int)
            }
            ExprKind::Unary(UnOp::Not, x) => {
                let x = self.check_ty(x, Ty::Bool, "`not` applies to a boolean");
                (self.push(ir::Expr::Not(x), span), Ty::Bool)
            }
            ExprKind::Binary(op, l, r) => self.binary(*op, l, r, span, false),
            ExprKind::Range { lo, hi, inclusive } => {
                let lo = self.check_ty(lo, Ty::Int, "range bounds are integers");
                let hi = self.check_ty(hi, Ty::Int, "range bounds are integers");
                let inclusive = *inclusive;
                (
                    self.push(ir::Expr::Range { lo, hi, inclusive }, span),
                    Ty::Range,
                )
            }
            ExprKind::If(c, t, f) => {
                let c = self.check_ty(c, Ty::Bool, "the condition of `if` must be a boolean");
                let (t_id, t_ty) = self.infer(t);
                let t_ty = self.types.resolve(t_ty);
                let zero = matches!(t.kind, ExprKind::Int(0));
                let (t_id, f_id, ty) =
                    if t_ty == Ty::Int && (zero || matches!(f.kind, ExprKind::Call { .. })) {
                        // `if c then 0 else G(n)` (or `else G(n) + rest(n - 1)`):
                        // let the else branch decide.
                        let (f_id, f_ty) = self.infer(f);
                        if self.types.resolve(f_ty) == Ty::Pos && zero {
                            self.out.exprs[t_id.index()] = ir::Expr::EmptyPos;
                            (t_id, f_id, Ty::Pos)
                        } else {
                            if !self.types.unify(f_ty, t_ty) {
                                self.mismatch(
                                    f.span,
                                    t_ty,
                                    f_ty,
                                    "both branches of `if` must have the same type",
                                );
                            }
                            (t_id, f_id, t_ty)
                        }
                    } else {
                        let f_id =
                            self.check_ty(f, t_ty, "both branches of `if` must have the same type");
                        (t_id, f_id, t_ty)
                    };
                (self.push(ir::Expr::If(c, t_id, f_id), span), ty)
            }
            ExprKind::LetIn { .. } => {
                let want = self.types.fresh_any();
                let id = self.check_ty(e, want, "");
                (id, want)
            }
            ExprKind::Fold(f) => self.fold(f, span),
        }
    }

    /// `base.name`: a field of a record, checked here when the record's kind
    /// is known, at run time when it is not (a list's element).
    fn field(&mut self, base: &ast::Expr, name: &ast::Ident, span: Span) -> (ExprId, Ty) {
        let (b, ty) = self.infer(base);
        let id = self.push(ir::Expr::Field(b, name.name.as_str().into()), span);
        match self.types.resolve(ty) {
            Ty::Record(kind) => match field_type(kind, &name.name) {
                Some(t) => (id, t),
                None => {
                    let mut d = Diag::user(
                        Code::UnknownName,
                        format!("{} has no field `{}`", kind.describe(), name.name),
                    )
                    .label(name.span, "no such field");
                    d = match did_you_mean(&name.name, kind.fields()) {
                        Some(s) => d.help(format!("did you mean `{s}`?")),
                        None => d.help(format!("its fields: {}", kind.field_list())),
                    };
                    self.errors.push(d);
                    (id, Ty::Error)
                }
            },
            Ty::Var(_) | Ty::Error => (id, self.types.fresh_any()),
            t => {
                self.errors.push(
                    Diag::user(
                        Code::TypeMismatch,
                        format!("{} has no fields", t.describe()),
                    )
                    .label(base.span, format!("this is {}", t.describe()))
                    .help(
                        "fields belong to the answers of queries: `period(G).period`, \
                         `outcome(P).grundy`, `winning(P)[0].after`",
                    ),
                );
                (id, Ty::Error)
            }
        }
    }

    /// A value that can be stored in a list or passed to a game.
    fn data(&mut self, e: &ast::Expr) -> ExprId {
        let (id, ty) = self.infer(e);
        let ty = self.types.resolve(ty);
        // (What running would refuse: `check` finds it first.)
        if matches!(ty, Ty::Range | Ty::Report | Ty::Record(_)) {
            self.errors.push(
                Diag::user(
                    Code::TypeMismatch,
                    format!(
                        "lists hold integers, booleans, strings, lists, dictionaries and positions, not {}",
                        ty.describe()
                    ),
                )
                .label(e.span, format!("this is {}", ty.describe()))
                .help(match ty {
                    Ty::Range => "write `[x for x in a..b]` for the list of a range",
                    Ty::Record(_) => "keep one of its fields, e.g. `outcome(P).first_wins`",
                    _ => "to add up positions, use `sum(P for x in ...)`",
                }),
            );
        }
        id
    }

    fn name(&mut self, name: &str, span: Span) -> (ExprId, Ty) {
        if let Some(&Bound {
            slot, ty, alias, ..
        }) = self.local(name)
        {
            if let Some(e) = alias {
                return (e, ty);
            }
            return (self.push(ir::Expr::Local(slot), span), ty);
        }
        match self.globals.get(name).copied() {
            Some(Defined::Const(id)) => {
                let (ty, needs_values) = self.const_tys[id.index()];
                if needs_values && self.ctx == Ctx::Rule {
                    self.errors.push(
                        Diag::user(
                            Code::QueryNotAllowed,
                            format!("`{name}` cannot be used in a game's rules"),
                        )
                        .label(span, "needs Grundy values")
                        .note(format!(
                            "`{name}` asks a query (or uses a constant that does)"
                        ))
                        .help(
                            "rules say which moves exist: they cannot depend on what the \
                             moves are worth",
                        ),
                    );
                }
                (self.push(ir::Expr::Const(id), span), ty)
            }
            Some(Defined::Fun(id)) => {
                let f = &self.out.funs[id.index()];
                let example = format!("{}({})", f.name, f.params.join(", "));
                self.errors.push(
                    Diag::user(Code::BuiltinNotCalled, format!("`{name}` is a function"))
                        .label(span, "not called")
                        .help(format!("call it with arguments, like `{example}`")),
                );
                (self.push(ir::Expr::Int(0), span), Ty::Error)
            }
            Some(Defined::Game(id)) => {
                let g = &self.out.games[id.index()];
                let example = format!("{}({})", g.name, g.params.join(", "));
                self.errors.push(
                    Diag::user(
                        Code::GameWithoutArguments,
                        format!("`{name}` is a game, not a value"),
                    )
                    .label(span, "a game name alone")
                    .help(format!(
                        "a position gives the game its arguments, like `{example}`"
                    )),
                );
                (self.push(ir::Expr::Int(0), span), Ty::Error)
            }
            None if self.reported.poisoned.iter().any(|p| p == name) => {
                (self.push(ir::Expr::Int(0), span), Ty::Error)
            }
            None => {
                if let Some(&i) = self.reported.unknown.get(name) {
                    if self.errors[i].labels.len() < 6 {
                        self.errors[i] = self.errors[i].clone().label(span, "also used here");
                    }
                } else if crate::builtin::is_name(name) {
                    self.errors.push(
                        Diag::user(Code::BuiltinNotCalled, format!("`{name}` is a function"))
                            .label(span, "not called")
                            .help(format!("call it with arguments, like `{name}(...)`")),
                    );
                } else {
                    let d = self.unknown(name, span, "unknown name");
                    self.reported
                        .unknown
                        .insert(name.to_string(), self.errors.len());
                    self.reported
                        .names
                        .push((self.errors.len(), name.to_string()));
                    self.errors.push(d);
                }
                (self.push(ir::Expr::Int(0), span), Ty::Error)
            }
        }
    }

    /// Whether a name in the second argument of `outcome`/`winning` means
    /// `misere`: the word itself, or a slip of it that names nothing else.
    pub(super) fn means_misere(&self, name: &str) -> bool {
        if self.local(name).is_some() {
            return false;
        }
        name == "misere"
            || (!self.globals.contains_key(name) && did_you_mean(name, ["misere"]).is_some())
    }

    fn unknown(&self, name: &str, span: Span, what: &str) -> Diag {
        let mut known: Vec<&str> = self.scope.iter().map(|b| b.name.as_str()).collect();
        known.extend(self.globals.keys().map(String::as_str));
        // Pushed one by one: each `&'static str` shortens to `known`'s lifetime.
        for n in crate::builtin::names() {
            known.push(n);
        }
        let mut d =
            Diag::user(Code::UnknownName, format!("{what} `{name}`")).label(span, "not defined");
        // Habits from other languages first.
        if name == "range" {
            d = d
                .help("ranges are written `a..b` (without b) or `a..=b` (with b): `for x in 1..3`");
        } else if name == "xor" {
            d = d.help("XOR is the operator `^`: `a ^ b`");
        } else if let Some(s) = did_you_mean(name, known) {
            d = d.help(format!("did you mean `{s}`?"));
        } else if what == "unknown name" {
            d = d.help("define it with `let`, or bind it with `for`");
        } else {
            d = d.help(format!("define it with `game {name}(...) = {{ ... }}`"));
        }
        d
    }

    /// The clauses in IR: `for`, `if`, `while` and `let` (a `let` of a
    /// plain value binds its name to its expression and leaves no clause).
    fn clauses(&mut self, clauses: &[ast::Clause]) -> Vec<Clause> {
        let mut out = Vec::with_capacity(clauses.len());
        for c in clauses {
            out.push(match c {
                ast::Clause::For { var, iter } => {
                    let (it, ty) = self.infer(iter);
                    let ty = self.types.resolve(ty);
                    if !matches!(ty, Ty::Range | Ty::List | Ty::Error)
                        && !self.types.unify(ty, Ty::List)
                    {
                        self.errors.push(
                            Diag::user(
                                Code::TypeMismatch,
                                format!("cannot iterate over {}", ty.describe()),
                            )
                            .label(iter.span, "expected a range or a list")
                            .help("iterate over a range like `0..n` or a list like `[1, 3, 4]`"),
                        );
                    }
                    // A list's element: data or a position.
                    let elem = if ty == Ty::Range {
                        Ty::Int
                    } else {
                        self.types.element_var(ty)
                    };
                    let slot = self.bind(&var.name, elem);
                    Clause::For { slot, iter: it }
                }
                ast::Clause::If { cond } => Clause::If {
                    cond: self.check_ty(cond, Ty::Bool, "an `if` clause needs a condition"),
                },
                ast::Clause::While { cond } => Clause::While {
                    cond: self.check_ty(cond, Ty::Bool, "a `while` clause needs a condition"),
                },
                ast::Clause::Let { var, value, .. } => {
                    let (e, ty) = self.infer(value);
                    match self.bind_let(&var.name, e, ty) {
                        Some(slot) => Clause::Let { slot, value: e },
                        None => continue,
                    }
                }
            });
        }
        out
    }

    /// `sum(...)`, `min(...)`, `any(...)` ...; `positions`: a sum wanted
    /// as a position (a body whose type is not known yet is one: the
    /// elements of a list of positions).
    fn generator(
        &mut self,
        callee: &ast::Ident,
        body: &ast::Expr,
        clauses: &[ast::Clause],
        span: Span,
        positions: bool,
    ) -> (ExprId, Ty) {
        let mark = self.scope.len();
        let clauses_ir = self.clauses(clauses);
        let (kind, body_id, ty) = match callee.name.as_str() {
            "sum" => {
                let (b, t) = self.infer(body);
                if positions && matches!(self.types.resolve(t), Ty::Var(_)) {
                    self.types.unify(t, Ty::Pos);
                }
                match self.types.resolve(t) {
                    Ty::Pos => (CompKind::SumPos, b, Ty::Pos),
                    t => {
                        if !self.types.unify(t, Ty::Int) {
                            self.mismatch(
                                body.span,
                                Ty::Int,
                                t,
                                "`sum` adds integers or positions",
                            );
                        }
                        (CompKind::SumInt, b, Ty::Int)
                    }
                }
            }
            "min" | "max" => {
                let b = self.check_ty(body, Ty::Int, "`min`/`max` compare integers");
                let kind = if callee.name == "min" {
                    CompKind::Min
                } else {
                    CompKind::Max
                };
                (kind, b, Ty::Int)
            }
            "any" | "all" => {
                let b = self.check_ty(body, Ty::Bool, "`any`/`all` take conditions");
                let kind = if callee.name == "any" {
                    CompKind::Any
                } else {
                    CompKind::All
                };
                (kind, b, Ty::Bool)
            }
            other => {
                let d = if Builtin::by_name(other).is_some() || self.globals.contains_key(other) {
                    Diag::user(Code::BadGenerator, format!("`{other}` does not take a generator"))
                        .label(callee.span, "here")
                        .help("generators work with `sum`, `min`, `max`, `any` and `all`; for a list write `[e for x in ...]`")
                } else {
                    self.unknown(other, callee.span, "unknown function")
                };
                self.errors.push(d);
                let (b, _) = self.infer(body);
                (CompKind::List, b, Ty::Error)
            }
        };
        self.scope.truncate(mark);
        let id = self.push(
            ir::Expr::Comp {
                kind,
                body: body_id,
                clauses: clauses_ir,
            },
            span,
        );
        (id, ty)
    }
}

/// The type of a report query's answer used as a value.
fn answer_type(f: Builtin, args: usize) -> Ty {
    match f {
        Builtin::Outcome => Ty::Record(RecordKind::Outcome),
        Builtin::Genus if args == 1 => Ty::Record(RecordKind::Genus),
        Builtin::Period => Ty::Record(RecordKind::Period),
        Builtin::Guess => Ty::Record(RecordKind::Guess),
        Builtin::Quotient => Ty::Record(RecordKind::Quotient),
        Builtin::Describe | Builtin::Graph | Builtin::Plot => Ty::Str,
        _ => Ty::List,
    }
}

/// The type of a record's field (`None`: no such field).
fn field_type(kind: RecordKind, field: &str) -> Option<Ty> {
    use crate::value::Field;
    let (_, t) = kind
        .typed_fields()
        .iter()
        .find(|(name, _)| *name == field)?;
    Some(match t {
        Field::Pos => Ty::Pos,
        Field::Int => Ty::Int,
        Field::Bool => Ty::Bool,
        Field::Str => Ty::Str,
        Field::List => Ty::List,
    })
}

/// Every bare name used in an expression (for constant dependencies).
fn free_names(e: &ast::Expr, out: &mut Vec<String>) {
    e.names(out)
}
