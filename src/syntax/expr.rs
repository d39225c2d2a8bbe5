//! Lowering expressions and clauses: operators by a Pratt parser,
//! primaries (literals, calls, lists, comprehensions, conditionals, `let
//! ... in`, folds), and string escapes.

use super::*;

/// The operands of an `expr` sequence (everything else is an operator).
fn is_primary(r: Rule) -> bool {
    matches!(
        r,
        Rule::cond
            | Rule::let_in
            | Rule::fold_call
            | Rule::int
            | Rule::string
            | Rule::true_lit
            | Rule::false_lit
            | Rule::call
            | Rule::list
            | Rule::ident
            | Rule::paren
    )
}

fn pratt() -> &'static PrattParser<Rule> {
    static PRATT: OnceLock<PrattParser<Rule>> = OnceLock::new();
    PRATT.get_or_init(|| {
        PrattParser::new()
            .op(Op::infix(Rule::or, Assoc::Left))
            .op(Op::infix(Rule::and, Assoc::Left))
            .op(Op::prefix(Rule::not))
            .op(Op::infix(Rule::eq, Assoc::Left)
                | Op::infix(Rule::ne, Assoc::Left)
                | Op::infix(Rule::lt, Assoc::Left)
                | Op::infix(Rule::le, Assoc::Left)
                | Op::infix(Rule::gt, Assoc::Left)
                | Op::infix(Rule::ge, Assoc::Left))
            .op(Op::infix(Rule::range_incl, Assoc::Left) | Op::infix(Rule::range_excl, Assoc::Left))
            .op(Op::infix(Rule::bor, Assoc::Left))
            .op(Op::infix(Rule::bxor, Assoc::Left))
            .op(Op::infix(Rule::band, Assoc::Left))
            .op(Op::infix(Rule::shl, Assoc::Left) | Op::infix(Rule::shr, Assoc::Left))
            .op(Op::infix(Rule::add, Assoc::Left) | Op::infix(Rule::sub, Assoc::Left))
            .op(Op::infix(Rule::mul, Assoc::Left)
                | Op::infix(Rule::div, Assoc::Left)
                | Op::infix(Rule::rem, Assoc::Left))
            .op(Op::prefix(Rule::neg))
            .op(Op::infix(Rule::pow, Assoc::Right))
            .op(Op::postfix(Rule::index) | Op::postfix(Rule::field))
    })
}

/// What a call or list holds.
enum Contents {
    List(Vec<Expr>),
    Comp(Box<Expr>, Vec<Clause>),
}

pub(super) fn literal_too_large(span: Span) -> Diag {
    Diag::user(
        Code::LiteralTooLarge,
        "integer literal does not fit in 64 bits",
    )
    .label(span, "this number")
    .help(format!("integers range from {} to {}", i64::MIN, i64::MAX))
}

impl Lower {
    pub(super) fn clause(&mut self, pair: Pair<Rule>) -> Clause {
        let kind = pair.as_rule();
        let span = self.span(&pair);
        let mut inner = parts(pair);
        match kind {
            Rule::for_clause => {
                let var = inner.next().map(|p| self.ident(p));
                let iter = inner.next().map(|p| self.expr(p));
                match (var, iter) {
                    (Some(var), Some(iter)) => Clause::For { var, iter },
                    _ => self.bad_clause(span),
                }
            }
            Rule::let_clause => {
                let var = inner.next().map(|p| self.ident(p));
                let value = inner.next().map(|p| self.expr(p));
                match (var, value) {
                    (Some(var), Some(value)) => Clause::Let { var, value, span },
                    _ => self.bad_clause(span),
                }
            }
            Rule::while_clause => match inner.next() {
                Some(c) => Clause::While { cond: self.expr(c) },
                None => self.bad_clause(span),
            },
            _ => match inner.next() {
                Some(c) => Clause::If { cond: self.expr(c) },
                None => self.bad_clause(span),
            },
        }
    }

    /// A string literal's text (`raw` with its quotes), escapes read;
    /// an unknown escape is an error at it.
    pub(super) fn string(&mut self, raw: &str, span: Span) -> String {
        let inner = raw.get(1..raw.len().saturating_sub(1)).unwrap_or("");
        let mut out = String::with_capacity(inner.len());
        let mut chars = inner.char_indices();
        while let Some((i, c)) = chars.next() {
            if c != '\\' {
                out.push(c);
                continue;
            }
            match chars.next() {
                Some((_, 'n')) => out.push('\n'),
                Some((_, 't')) => out.push('\t'),
                Some((_, '"')) => out.push('"'),
                Some((_, '\\')) => out.push('\\'),
                other => {
                    let at = span.start as usize + 1 + i;
                    let len = 1 + other.map_or(0, |(_, c)| c.len_utf8());
                    self.errors.push(
                        Diag::user(Code::BadString, "unknown escape in a string")
                            .label(Span::new(at, at + len), "not an escape")
                            .help("escapes are \\n (new line), \\t (tab), \\\" and \\\\"),
                    );
                }
            }
        }
        out
    }

    fn bad_clause(&mut self, span: Span) -> Clause {
        self.errors
            .push(Diag::bug("the parse tree has an unexpected shape").label(span, "here"));
        Clause::If {
            cond: Expr {
                kind: ExprKind::Bool(true),
                span,
            },
        }
    }

    pub(super) fn expr(&mut self, pair: Pair<Rule>) -> Expr {
        // Each operator can add a level to the tree, so the operator count
        // bounds the depth; checked before the Pratt parser (which recurses on
        // prefix operators) and before any tree is built.
        let levels = 1 + pair
            .clone()
            .into_inner()
            .filter(|p| !is_primary(p.as_rule()))
            .count();
        let span = self.span(&pair);
        if self.nesting + levels > MAX_EXPR_DEPTH {
            if !std::mem::replace(&mut self.too_deep, true) {
                self.errors.push(
                    Diag::user(
                        Code::Syntax,
                        format!("expression nested more than {MAX_EXPR_DEPTH} operators deep"),
                    )
                    .label(span, "the nesting passes the limit here")
                    .help(
                        "split it with `let` constants, or write a long sum or \
                         chain with a generator: `sum(S(k) for k in 1..=n)`",
                    ),
                );
            }
            return Expr {
                kind: ExprKind::Int(0),
                span,
            };
        }
        self.nesting += levels;
        let e = self.operators(pair);
        self.nesting -= levels;
        if self.nesting == 0 {
            self.too_deep = false;
        }
        e
    }

    fn operators(&mut self, pair: Pair<Rule>) -> Expr {
        // `expr` wraps a flat operator sequence; the Pratt parser builds the tree.
        let pairs = pair.into_inner();
        let base = self.base;
        let at = move |p: &Pair<Rule>| {
            let s = p.as_span();
            Span::new(s.start() + base, s.end() + base)
        };
        let this = std::cell::RefCell::new(self);
        pratt()
            .map_primary(|p| this.borrow_mut().primary(p))
            .map_prefix(|op, e| {
                let span = at(&op).to(e.span);
                let op = if op.as_rule() == Rule::neg {
                    UnOp::Neg
                } else {
                    UnOp::Not
                };
                // Fold `-LITERAL`; `-9223372036854775808` is i64::MIN.
                if let (UnOp::Neg, ExprKind::Int(v)) = (op, &e.kind) {
                    let mut lower = this.borrow_mut();
                    if let Some(i) = lower.min_literals.iter().position(|s| *s == e.span) {
                        lower.min_literals.swap_remove(i);
                        return Expr {
                            kind: ExprKind::Int(i64::MIN),
                            span,
                        };
                    }
                    if let Some(n) = v.checked_neg() {
                        return Expr {
                            kind: ExprKind::Int(n),
                            span,
                        };
                    }
                }
                Expr {
                    kind: ExprKind::Unary(op, Box::new(e)),
                    span,
                }
            })
            .map_postfix(|e, op| {
                let span = e.span.to(at(&op));
                if op.as_rule() == Rule::field {
                    let Some(name) = parts(op).next() else {
                        return e;
                    };
                    let name = this.borrow_mut().ident(name);
                    return Expr {
                        kind: ExprKind::Field(Box::new(e), name),
                        span,
                    };
                }
                let idx = match parts(op).next() {
                    Some(i) => this.borrow_mut().expr(i),
                    None => Expr {
                        kind: ExprKind::Int(0),
                        span,
                    },
                };
                Expr {
                    kind: ExprKind::Index(Box::new(e), Box::new(idx)),
                    span,
                }
            })
            .map_infix(|l, op, r| {
                let span = l.span.to(r.span);
                let bin = match op.as_rule() {
                    Rule::range_incl | Rule::range_excl => {
                        return Expr {
                            kind: ExprKind::Range {
                                lo: Box::new(l),
                                hi: Box::new(r),
                                inclusive: op.as_rule() == Rule::range_incl,
                            },
                            span,
                        };
                    }
                    Rule::or => BinOp::Or,
                    Rule::and => BinOp::And,
                    Rule::eq => BinOp::Eq,
                    Rule::ne => BinOp::Ne,
                    Rule::lt => BinOp::Lt,
                    Rule::le => BinOp::Le,
                    Rule::gt => BinOp::Gt,
                    Rule::ge => BinOp::Ge,
                    Rule::bor => BinOp::BitOr,
                    Rule::bxor => BinOp::BitXor,
                    Rule::band => BinOp::BitAnd,
                    Rule::shl => BinOp::Shl,
                    Rule::shr => BinOp::Shr,
                    Rule::add => BinOp::Add,
                    Rule::sub => BinOp::Sub,
                    Rule::mul => BinOp::Mul,
                    Rule::div => BinOp::Div,
                    Rule::rem => BinOp::Rem,
                    _ => BinOp::Pow,
                };
                Expr {
                    kind: ExprKind::Binary(bin, Box::new(l), Box::new(r)),
                    span,
                }
            })
            .parse(pairs)
    }

    /// The inside of a call or list: expressions, or a body and the clauses
    /// of a comprehension.
    fn elements<'i>(&mut self, mut inner: impl Iterator<Item = Pair<'i, Rule>>) -> Contents {
        let Some(first) = inner.next() else {
            return Contents::List(Vec::new());
        };
        let first = self.expr(first);
        let mut items = vec![first];
        for p in inner {
            if p.as_rule() == Rule::comp_tail {
                let clauses = parts(p).map(|c| self.clause(c)).collect();
                let body = Box::new(items.swap_remove(0));
                return Contents::Comp(body, clauses);
            }
            items.push(self.expr(p));
        }
        Contents::List(items)
    }

    fn primary(&mut self, pair: Pair<Rule>) -> Expr {
        let span = self.span(&pair);
        let kind = match pair.as_rule() {
            Rule::paren => {
                // Keep the parentheses in the span: messages quote them.
                return match parts(pair).next() {
                    Some(inner) => Expr {
                        span,
                        ..self.expr(inner)
                    },
                    None => self.bad_expr(span),
                };
            }
            Rule::int => {
                let digits: String = pair.as_str().chars().filter(|c| *c != '_').collect();
                match digits.parse::<i64>() {
                    Ok(v) => ExprKind::Int(v),
                    Err(_) if digits.parse::<u64>() == Ok(1 << 63) => {
                        // Valid only under a minus sign; checked at the end.
                        self.min_literals.push(span);
                        ExprKind::Int(i64::MIN)
                    }
                    Err(_) => {
                        self.errors.push(literal_too_large(span));
                        ExprKind::Int(0)
                    }
                }
            }
            Rule::string => ExprKind::Str(self.string(pair.as_str(), span)),
            Rule::true_lit => ExprKind::Bool(true),
            Rule::false_lit => ExprKind::Bool(false),
            Rule::ident => ExprKind::Name(pair.as_str().to_string()),
            Rule::cond => {
                let mut inner = pair.into_inner().filter(|p| p.as_rule() == Rule::expr);
                let mut next = |s: &mut Self| match inner.next() {
                    Some(p) => s.expr(p),
                    None => Expr {
                        kind: ExprKind::Int(0),
                        span,
                    },
                };
                let c = next(self);
                let t = next(self);
                let e = next(self);
                ExprKind::If(Box::new(c), Box::new(t), Box::new(e))
            }
            Rule::let_in => {
                let mut inner = parts(pair);
                let var = inner.next().map(|p| self.ident(p));
                let value = inner.next().map(|p| self.expr(p));
                let body = inner.next().map(|p| self.expr(p));
                let (Some(var), Some(value), Some(body)) = (var, value, body) else {
                    return self.bad_expr(span);
                };
                ExprKind::LetIn {
                    var,
                    value: Box::new(value),
                    body: Box::new(body),
                }
            }
            Rule::fold_call => {
                let mut inner = parts(pair);
                let scan = inner.next().is_some_and(|m| m.as_str() == "scan");
                let acc = inner.next().map(|p| self.ident(p));
                let init = inner.next().map(|p| self.expr(p));
                let body = inner.next().map(|p| self.expr(p));
                let clauses = inner
                    .next()
                    .map(|t| parts(t).map(|c| self.clause(c)).collect());
                let (Some(acc), Some(init), Some(body), Some(clauses)) = (acc, init, body, clauses)
                else {
                    return self.bad_expr(span);
                };
                ExprKind::Fold(Box::new(ast::Fold {
                    acc,
                    init,
                    body,
                    clauses,
                    scan,
                }))
            }
            Rule::call => {
                let mut inner = parts(pair);
                let callee = match inner.next() {
                    Some(p) => self.ident(p),
                    None => return self.bad_expr(span),
                };
                match self.elements(inner) {
                    Contents::Comp(body, clauses) => ExprKind::Generator {
                        callee,
                        body,
                        clauses,
                    },
                    Contents::List(args) => ExprKind::Call { callee, args },
                }
            }
            Rule::list => match self.elements(parts(pair)) {
                Contents::Comp(body, clauses) => ExprKind::ListComp { body, clauses },
                Contents::List(items) => ExprKind::List(items),
            },
            _ => return self.bad_expr(span),
        };
        Expr { kind, span }
    }

    fn bad_expr(&mut self, span: Span) -> Expr {
        self.errors
            .push(Diag::bug("the parse tree has an unexpected shape").label(span, "here"));
        Expr {
            kind: ExprKind::Int(0),
            span,
        }
    }
}
