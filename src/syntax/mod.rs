//! Parsing: the pest grammar glue and the lowering of its parse tree to the AST.
//!
//! Nothing outside this module sees a pest type.

pub mod ast;
mod error;
mod expr;
use expr::literal_too_large;
pub mod shorthand;
use error::{recover, syntax_error};

use crate::diagnostics::{Code, Diag};
use crate::span::Span;
use ast::{BinOp, Clause, Expr, ExprKind, Ident, Item, UnOp};
use pest::Parser as _;
use pest::iterators::Pair;
use pest::pratt_parser::{Assoc, Op, PrattParser};
use std::sync::OnceLock;

#[derive(pest_derive::Parser)]
#[grammar = "../grammar/game.pest"]
struct GameParser;

/// Brackets may nest at most this deep: deeper input is almost surely
/// generated or broken, and the recursive-descent parser must not overflow.
pub const MAX_NESTING: usize = 128;

/// Operators may nest at most this deep in one expression (`1 + 1 + ...`
/// with this many terms, an `else if` chain this long): the checker, the
/// lowering and the interpreter recurse on expressions, and this bound keeps
/// them far inside the binary's stack.
pub const MAX_EXPR_DEPTH: usize = 50_000;

/// Words that cannot name anything.
pub const KEYWORDS: &[&str] = &[
    "let",
    "game",
    "for",
    "in",
    "if",
    "while",
    "then",
    "else",
    "and",
    "or",
    "not",
    "print",
    "check",
    "true",
    "false",
    "octal",
    "subtraction",
];

/// The keywords that start a top-level item.
pub const ITEM_KEYWORDS: &[&str] = &[
    "let",
    "game",
    "loopy",
    "octal",
    "subtraction",
    "print",
    "check",
];

/// Parses a whole source text into an AST, or reports every syntax error found.
pub fn parse(text: &str) -> Result<ast::Program, Vec<Diag>> {
    parse_at(text, 0)
}

/// Moves the spans of errors found in a text at offset `base`.
fn shift(base: u32, mut ds: Vec<Diag>) -> Vec<Diag> {
    for d in &mut ds {
        for l in &mut d.labels {
            l.span = Span::new(
                l.span.start as usize + base as usize,
                l.span.end as usize + base as usize,
            );
        }
    }
    ds
}

/// Parses one REPL entry at offset `base`: items as in a file, optionally
/// ending with a bare expression, which becomes a `print`. An entry that
/// starts with an item keyword and fails is reported as a file would be
/// (several errors); otherwise the one error points into the expression.
pub fn parse_entry(text: &str, base: u32) -> Result<ast::Program, Vec<Diag>> {
    parse_with(text, base, Rule::entry).or_else(|errors| {
        let first: String = text
            .trim_start()
            .chars()
            .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
            .collect();
        if ITEM_KEYWORDS.contains(&first.as_str()) {
            parse_at(text, base)
        } else {
            Err(errors)
        }
    })
}

/// Parses a text whose first byte has offset `base` in the session's span
/// space (see [`crate::span::Sources`]): every span in the AST and in the
/// errors is shifted by `base`.
pub fn parse_at(text: &str, base: u32) -> Result<ast::Program, Vec<Diag>> {
    parse_with(text, base, Rule::program)
}

fn parse_with(text: &str, base: u32, rule: Rule) -> Result<ast::Program, Vec<Diag>> {
    // A byte-order mark (some editors write one) is not part of the program.
    if let Some(rest) = text.strip_prefix('\u{feff}') {
        return parse_with(rest, base + '\u{feff}'.len_utf8() as u32, rule);
    }
    let shift = |ds| shift(base, ds);
    check_nesting(text).map_err(shift)?;
    let mut pairs = GameParser::parse(rule, text).map_err(|e| {
        shift(if rule == Rule::program {
            recover(text, e)
        } else {
            vec![syntax_error(text, e)]
        })
    })?;
    let program = pairs
        .next()
        .ok_or_else(|| vec![Diag::bug("the parser returned no program")])?;
    let mut lower = Lower {
        errors: Vec::new(),
        min_literals: Vec::new(),
        base: base as usize,
        nesting: 0,
        too_deep: false,
    };
    let mut items = Vec::new();
    for pair in program.into_inner() {
        match pair.as_rule() {
            Rule::let_def => items.push(lower.let_def(pair)),
            Rule::game_def => items.push(lower.game_def(pair)),
            Rule::octal_def | Rule::subtraction_def => items.push(lower.shorthand(pair)),
            Rule::print_stmt | Rule::check_stmt | Rule::write_stmt => {
                lower.statement(pair, &mut items)
            }
            // A REPL entry's closing bare expression.
            Rule::expr => {
                let expr = lower.expr(pair);
                items.push(Item::Print(ast::PrintStmt {
                    span: expr.span,
                    expr,
                    clauses: Vec::new(),
                    plain: false,
                }))
            }
            _ => {}
        }
    }
    lower.finish(items)
}

/// What a byte of source text belongs to, for the scans that run beside
/// the parser (nesting, incomplete REPL input, definition text, highlighting).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Lex {
    /// Code (and whitespace).
    Code,
    /// A `#` comment, to the end of its line.
    Comment,
    /// A string literal, quotes included (it ends at its line's end if not
    /// closed).
    Str,
}

/// The class of every byte of `text`.
pub fn lex(text: &str) -> Vec<Lex> {
    let mut out = Vec::with_capacity(text.len());
    let mut state = Lex::Code;
    let mut escaped = false;
    for b in text.bytes() {
        match state {
            Lex::Code => {
                state = match b {
                    b'#' => Lex::Comment,
                    b'"' => Lex::Str,
                    _ => Lex::Code,
                };
                out.push(state);
            }
            Lex::Comment if b == b'\n' => {
                state = Lex::Code;
                out.push(Lex::Code);
            }
            Lex::Comment => out.push(Lex::Comment),
            Lex::Str if b == b'\n' => {
                state = Lex::Code;
                out.push(Lex::Code);
            }
            Lex::Str => {
                out.push(Lex::Str);
                if escaped {
                    escaped = false;
                } else if b == b'\\' {
                    escaped = true;
                } else if b == b'"' {
                    state = Lex::Code;
                }
            }
        }
    }
    out
}

/// The names written in the code of `text` (not in comments or strings).
pub fn words(text: &str) -> std::collections::HashSet<&str> {
    let classes = lex(text);
    let bytes = text.as_bytes();
    let is_word = |i: usize| {
        classes[i] == Lex::Code && (bytes[i].is_ascii_alphanumeric() || bytes[i] == b'_')
    };
    let mut out = std::collections::HashSet::new();
    let mut i = 0;
    while i < bytes.len() {
        if !is_word(i) {
            i += 1;
            continue;
        }
        let start = i;
        while i < bytes.len() && is_word(i) {
            i += 1;
        }
        if let Some(w) = text.get(start..i) {
            out.insert(w);
        }
    }
    out
}

/// Rejects absurdly deep bracket nesting before the recursive parser sees it.
fn check_nesting(text: &str) -> Result<(), Vec<Diag>> {
    let mut depth = 0usize;
    let classes = lex(text);
    for (i, b) in text.bytes().enumerate() {
        if classes[i] != Lex::Code {
            continue;
        }
        match b {
            b'(' | b'[' | b'{' => {
                depth += 1;
                if depth > MAX_NESTING {
                    return Err(vec![
                        Diag::user(
                            Code::Syntax,
                            format!("brackets nested more than {MAX_NESTING} deep"),
                        )
                        .label(Span::new(i, i + 1), "this bracket is too deep")
                        .help("split the expression with `let` constants"),
                    ]);
                }
            }
            b')' | b']' | b'}' => depth = depth.saturating_sub(1),
            _ => {}
        }
    }
    Ok(())
}

/// Keywords and punctuation: structure the lowering does not need.
fn is_token(rule: Rule) -> bool {
    matches!(
        rule,
        Rule::kw_let
            | Rule::let_in_mark
            | Rule::kw_game
            | Rule::kw_for
            | Rule::kw_in
            | Rule::kw_if
            | Rule::kw_while
            | Rule::kw_then
            | Rule::kw_else
            | Rule::kw_print
            | Rule::kw_check
            | Rule::write_mark
            | Rule::kw_octal
            | Rule::kw_subtraction
            | Rule::kw_all
            | Rule::kw_but
            | Rule::split_mark
            | Rule::canonical_mark
            | Rule::prefer_mark
            | Rule::assign
            | Rule::lparen
            | Rule::rparen
            | Rule::lbrace
            | Rule::rbrace
            | Rule::lbracket
            | Rule::rbracket
            | Rule::comma
    )
}

/// The children of a pair that carry meaning.
fn parts(pair: Pair<Rule>) -> impl Iterator<Item = Pair<Rule>> {
    pair.into_inner().filter(|p| !is_token(p.as_rule()))
}

/// Lowers pest pairs to AST nodes, collecting errors (e.g. literals too large).
struct Lower {
    errors: Vec<Diag>,
    /// Literals equal to 2^63, fine only when negated.
    min_literals: Vec<Span>,
    /// Offset of the text in the session's span space.
    base: usize,
    /// An upper bound on the depth of the expression being lowered.
    nesting: usize,
    /// Whether the expression being lowered was reported as too deep.
    too_deep: bool,
}

/// An item standing in for one that failed (its errors are reported).
fn nothing(span: Span) -> Item {
    Item::Print(ast::PrintStmt {
        expr: Expr {
            kind: ExprKind::Int(0),
            span,
        },
        clauses: Vec::new(),
        span,
        plain: false,
    })
}

impl Lower {
    /// The program, or the errors found while lowering it.
    fn finish(mut self, items: Vec<Item>) -> Result<ast::Program, Vec<Diag>> {
        for span in std::mem::take(&mut self.min_literals) {
            self.errors.push(literal_too_large(span));
        }
        if self.errors.is_empty() {
            Ok(ast::Program { items })
        } else {
            Err(self.errors)
        }
    }

    fn span(&self, pair: &Pair<Rule>) -> Span {
        let s = pair.as_span();
        Span::new(s.start() + self.base, s.end() + self.base)
    }

    /// A definition's or statement's span, up to its last token: the
    /// whitespace and comments the parser skips after it (looking for an
    /// optional part) belong to what follows.
    fn item_span(&self, pair: &Pair<Rule>) -> Span {
        let mut text = pair.as_str();
        loop {
            text = text.trim_end();
            match text.rfind('\n') {
                Some(i) if text[i + 1..].trim_start().starts_with('#') => text = &text[..i],
                _ => break,
            }
        }
        let start = pair.as_span().start();
        Span::new(start + self.base, start + text.len() + self.base)
    }

    fn ident(&mut self, pair: Pair<Rule>) -> Ident {
        Ident {
            name: pair.as_str().to_string(),
            span: self.span(&pair),
        }
    }

    fn let_def(&mut self, pair: Pair<Rule>) -> Item {
        let span = self.item_span(&pair);
        let mut inner = parts(pair).peekable();
        let memo = match inner.peek().map(|p| p.as_rule()) {
            Some(Rule::memo_decl) => inner.next().map(|p| self.memo_decl(p)),
            _ => None,
        };
        let name = inner.next().map(|p| self.ident(p));
        let params = match inner.peek().map(|p| p.as_rule()) {
            Some(Rule::params) => inner
                .next()
                .map(|p| parts(p).map(|id| self.ident(id)).collect()),
            _ => None,
        };
        let value = inner.next().map(|p| self.expr(p));
        match (name, value) {
            (Some(name), Some(value)) => Item::Let(ast::LetDef {
                name,
                params,
                value,
                span,
                memo,
            }),
            _ => self.malformed(span),
        }
    }

    fn memo_decl(&mut self, pair: Pair<Rule>) -> ast::MemoDecl {
        // Up to its last token (the lookahead for the name adds none).
        let end = pair
            .clone()
            .into_inner()
            .last()
            .map_or(pair.as_span().end(), |p| p.as_span().end());
        let span = Span::new(pair.as_span().start() + self.base, end + self.base);
        let limit = parts(pair).find(|p| p.as_rule() == Rule::int).map(|i| {
            let at = self.span(&i);
            i.as_str()
                .replace('_', "")
                .parse::<u64>()
                .unwrap_or_else(|_| {
                    self.errors.push(literal_too_large(at));
                    0
                })
        });
        ast::MemoDecl { limit, span }
    }

    fn malformed(&mut self, span: Span) -> Item {
        self.errors
            .push(Diag::bug("the parse tree has an unexpected shape").label(span, "here"));
        nothing(span)
    }

    fn game_def(&mut self, pair: Pair<Rule>) -> Item {
        let span = self.item_span(&pair);
        let header_end = pair
            .clone()
            .into_inner()
            .find(|p| p.as_rule() == Rule::rparen)
            .map_or(span.end as usize, |p| p.as_span().end() + self.base);
        let mut inner = parts(pair).peekable();
        let loopy = inner.next_if(|p| p.as_rule() == Rule::loopy_mark).is_some();
        let Some(name) = inner.next().map(|p| self.ident(p)) else {
            return self.malformed(span);
        };
        let mut params = Vec::new();
        let mut rules = Vec::new();
        let (mut split, mut canonical, mut prefer) = (None, None, None);
        for p in inner {
            match p.as_rule() {
                Rule::split_decl | Rule::canonical_decl | Rule::prefer_decl => {
                    let slot = match p.as_rule() {
                        Rule::split_decl => &mut split,
                        Rule::canonical_decl => &mut canonical,
                        _ => &mut prefer,
                    };
                    if let Some(e) = parts(p).next() {
                        *slot = Some(self.expr(e));
                    }
                }
                Rule::params => {
                    for id in parts(p) {
                        params.push(self.ident(id));
                    }
                }
                Rule::move_rule => {
                    let rspan = self.span(&p);
                    let mut inner = parts(p);
                    let Some(body) = inner.next().map(|b| self.expr(b)) else {
                        continue;
                    };
                    let clauses = inner.map(|c| self.clause(c)).collect();
                    rules.push(ast::Rule {
                        body,
                        clauses,
                        span: rspan,
                    });
                }
                _ => {}
            }
        }
        Item::Game(ast::GameDef {
            header: Span::new(name.span.start as usize, header_end),
            name,
            params,
            rules,
            span,
            shorthand: None,
            loopy,
            split,
            canonical,
            prefer,
        })
    }

    /// `octal NAME = CODE` or `subtraction NAME = [all but] {...}`.
    fn shorthand(&mut self, pair: Pair<Rule>) -> Item {
        let span = self.item_span(&pair);
        let octal = pair.as_rule() == Rule::octal_def;
        let mut inner = parts(pair);
        let Some(name) = inner.next().map(|p| self.ident(p)) else {
            return self.malformed(span);
        };
        let result = if octal {
            let Some(code) = inner.next() else {
                return self.malformed(span);
            };
            let at = code.as_span().start() + self.base;
            shorthand::octal(name, code.as_str(), at, span)
        } else {
            let mut all_but = false;
            let mut set = Vec::new();
            for p in inner {
                match p.as_rule() {
                    Rule::all_but => all_but = true,
                    Rule::int_set => {
                        for i in parts(p).filter(|i| i.as_rule() == Rule::int) {
                            let at = self.span(&i);
                            match i.as_str().replace('_', "").parse::<i64>() {
                                Ok(v) => set.push((v, at)),
                                Err(_) => self.errors.push(literal_too_large(at)),
                            }
                        }
                    }
                    _ => {}
                }
            }
            shorthand::subtraction(name, set, all_but, span)
        };
        match result {
            Ok(g) => Item::Game(g),
            Err(errors) => {
                self.errors.extend(errors);
                nothing(span)
            }
        }
    }

    /// `print EXPR CLAUSES` or `check COND CLAUSES`, and the constants
    /// that follow it. A `let` at the start of a line (column 1) begins the
    /// next item, a constant, and so do those after it; another `let` at
    /// the end is the statement's clause when it uses one of the
    /// statement's variables, else the next constant (it has the same value
    /// either way).
    fn statement(&mut self, pair: Pair<Rule>, items: &mut Vec<Item>) {
        let check = pair.as_rule() == Rule::check_stmt;
        let plain = pair.as_rule() == Rule::write_stmt;
        let span = self.item_span(&pair);
        let mut inner = parts(pair);
        let Some(expr) = inner.next().map(|p| self.expr(p)) else {
            items.push(self.malformed(span));
            return;
        };
        let mut line_start = Vec::new();
        let mut clauses: Vec<Clause> = inner
            .map(|c| {
                // (Not `line_col`, which counts from the start of the text.)
                let (input, start) = (c.as_span().get_input(), c.as_span().start());
                line_start.push(start == 0 || input.as_bytes().get(start - 1) == Some(&b'\n'));
                self.clause(c)
            })
            .collect();
        // The `let`s after the last `for` or `if`, in order: one that uses
        // a variable of the statement is its clause, the others are items.
        let run = clauses
            .iter()
            .rposition(|c| !matches!(c, Clause::Let { .. }))
            .map_or(0, |i| i + 1);
        let mut bound: Vec<String> = clauses[..run]
            .iter()
            .filter_map(|c| c.binds().map(|v| v.name.clone()))
            .collect();
        let mut after = Vec::new();
        let mut item = false;
        for (c, at_start) in clauses.split_off(run).into_iter().zip(&line_start[run..]) {
            let Clause::Let { var, value, span } = c else {
                continue;
            };
            let mut names = Vec::new();
            value.names(&mut names);
            item |= *at_start;
            if !item && names.iter().any(|n| bound.contains(n)) {
                bound.push(var.name.clone());
                clauses.push(Clause::Let { var, value, span });
            } else {
                after.push(Item::Let(ast::LetDef {
                    name: var,
                    params: None,
                    value,
                    span,
                    memo: None,
                }));
            }
        }
        let span = match clauses.last() {
            Some(c) => Span::new(span.start as usize, c.exprs().span.end as usize),
            None => Span::new(span.start as usize, expr.span.end as usize),
        };
        items.push(if check {
            Item::Check(ast::CheckStmt {
                cond: expr,
                clauses,
                span,
            })
        } else {
            Item::Print(ast::PrintStmt {
                expr,
                clauses,
                span,
                plain,
            })
        });
        items.extend(after);
    }
}

/// Whether a REPL entry needs more lines: it does not parse, and the parser
/// stopped at its end (an open bracket, a trailing operator, `let x =`). An
/// error anywhere before the end is a real one, to report at once.
pub fn is_incomplete(text: &str) -> bool {
    // The end of the code: trailing blanks and comments do not count.
    let classes = lex(text);
    let end = text
        .bytes()
        .zip(&classes)
        .rposition(|(b, c)| *c != Lex::Comment && !b.is_ascii_whitespace())
        .map_or(0, |i| i + 1);
    if end == 0 || check_nesting(text).is_err() {
        return false;
    }
    match GameParser::parse(Rule::entry, text) {
        Ok(_) => false,
        Err(e) => {
            let at = match e.location {
                pest::error::InputLocation::Pos(p) => p,
                pest::error::InputLocation::Span((p, _)) => p,
            };
            at >= end
        }
    }
}
