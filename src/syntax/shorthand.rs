//! The `octal` and `subtraction` shorthands, lowered to ordinary game rules
//! (so they work everywhere a game does), and described in words.

use super::ast::{BinOp, Clause, Expr, ExprKind, GameDef, Ident, Rule, Shorthand};
use crate::diagnostics::{Code, Diag};
use crate::span::Span;

/// Longest octal code accepted (digits after the point).
const MAX_OCTAL_DIGITS: usize = 1000;

/// Builds AST nodes that all point at one span (the part of the shorthand
/// they come from).
struct At(Span);

impl At {
    fn expr(&self, kind: ExprKind) -> Expr {
        Expr { kind, span: self.0 }
    }
    fn int(&self, v: i64) -> Expr {
        self.expr(ExprKind::Int(v))
    }
    fn var(&self, name: &str) -> Expr {
        self.expr(ExprKind::Name(name.into()))
    }
    fn bin(&self, op: BinOp, a: Expr, b: Expr) -> Expr {
        self.expr(ExprKind::Binary(op, Box::new(a), Box::new(b)))
    }
    fn call(&self, game: &str, args: Vec<Expr>) -> Expr {
        self.expr(ExprKind::Call {
            callee: self.ident(game),
            args,
        })
    }
    fn ident(&self, name: &str) -> Ident {
        Ident {
            name: name.into(),
            span: self.0,
        }
    }
    fn rule(&self, body: Expr, clauses: Vec<Clause>) -> Rule {
        Rule {
            body,
            clauses,
            span: self.0,
        }
    }
    fn when(&self, cond: Expr) -> Clause {
        Clause::If { cond }
    }
    fn each(&self, var: &str, iter: Expr) -> Clause {
        Clause::For {
            var: self.ident(var),
            iter,
        }
    }
    /// `n - k`, or `n` when `k` is 0.
    fn n_minus(&self, k: i64) -> Expr {
        if k == 0 {
            self.var("n")
        } else {
            self.bin(BinOp::Sub, self.var("n"), self.int(k))
        }
    }
}

/// `octal NAME = CODE`: checks the code (`code_at` is where it starts) and
/// writes its moves as rules. Digit `d_k` (k tokens removed) allows: bit 1,
/// taking a whole heap of k; bit 2, leaving one smaller heap; bit 4,
/// leaving two non-empty heaps; bit 8 (hexadecimal codes), leaving three.
/// The digit before the point is for k = 0, where only splitting a heap (4,
/// 8, or both: c) makes sense.
pub fn octal(name: Ident, code: &str, code_at: usize, span: Span) -> Result<GameDef, Vec<Diag>> {
    let mut errors = Vec::new();
    let at = |i: usize, len: usize| Span::new(code_at + i, code_at + i + len);
    let (whole, frac) = code.split_once('.').unwrap_or((code, ""));
    let mut digits = Vec::new();
    let digit = |c: u8| (c as char).to_digit(16).map_or(0, |d| d as u8);
    let d0 = match whole {
        "" => 0,
        w if w.len() == 1 => digit(w.as_bytes()[0]),
        w => {
            errors.push(
                Diag::user(
                    Code::BadOctal,
                    "an octal code has one digit before the point",
                )
                .label(
                    at(0, w.len()),
                    "one digit here: 0, or 4 to allow splitting a heap",
                )
                .help("codes look like `0.07`, `0.137`, `4.07` or (hexadecimal) `0.3f`"),
            );
            0
        }
    };
    if d0 & 3 != 0 {
        errors.push(
            Diag::user(
                Code::BadOctal,
                format!("`{}` before the point makes no sense", hex_digit(d0)),
            )
            .label(at(0, 1), "taking 0 tokens can only split a heap")
            .help(
                "use 0, or 4: split a heap into two non-empty heaps without taking any \
                 (8: into three, c: into two or three)",
            ),
        );
    }
    if frac.len() > MAX_OCTAL_DIGITS {
        errors.push(
            Diag::user(
                Code::BadOctal,
                format!("an octal code of {} digits is too long", frac.len()),
            )
            .label(at(whole.len() + 1, frac.len()), "this part")
            .help(format!(
                "codes of up to {MAX_OCTAL_DIGITS} digits are accepted"
            )),
        );
    }
    if !errors.is_empty() {
        return Err(errors);
    }
    digits.push(d0);
    digits.extend(frac.bytes().map(digit));
    let g = name.name.clone();
    let mut rules = Vec::new();
    let frac_at = whole.len() + 1;
    for (k, &d) in digits.iter().enumerate() {
        let here = if k == 0 {
            At(at(0, whole.len().max(1)))
        } else {
            At(at(frac_at + k - 1, 1))
        };
        let k = k as i64;
        if d & 1 != 0 {
            // Take a whole heap of exactly k.
            let cond = here.bin(BinOp::Eq, here.var("n"), here.int(k));
            rules.push(here.rule(here.int(0), vec![here.when(cond)]));
        }
        if d & 2 != 0 {
            // Take k, leaving one heap.
            let cond = here.bin(BinOp::Gt, here.var("n"), here.int(k));
            rules.push(here.rule(here.call(&g, vec![here.n_minus(k)]), vec![here.when(cond)]));
        }
        if d & 4 != 0 {
            // Take k, leaving heaps a and n - k - a, both non-empty; each
            // unordered pair once.
            let rest = here.bin(BinOp::Sub, here.n_minus(k), here.var("a"));
            let body = here.bin(
                BinOp::Add,
                here.call(&g, vec![here.var("a")]),
                here.call(&g, vec![rest]),
            );
            let range = here.expr(ExprKind::Range {
                lo: Box::new(here.int(1)),
                hi: Box::new(here.n_minus(k)),
                inclusive: false,
            });
            let half = here.bin(
                BinOp::Le,
                here.bin(BinOp::Mul, here.int(2), here.var("a")),
                here.n_minus(k),
            );
            rules.push(here.rule(body, vec![here.each("a", range), here.when(half)]));
        }
        if d & 8 != 0 {
            // Take k, leaving heaps a <= b <= n - k - a - b, all non-empty;
            // each unordered triple once.
            let rest = here.n_minus(k);
            let c = here.bin(
                BinOp::Sub,
                here.bin(BinOp::Sub, here.n_minus(k), here.var("a")),
                here.var("b"),
            );
            let body = here.bin(
                BinOp::Add,
                here.bin(
                    BinOp::Add,
                    here.call(&g, vec![here.var("a")]),
                    here.call(&g, vec![here.var("b")]),
                ),
                here.call(&g, vec![c]),
            );
            let a_range = here.expr(ExprKind::Range {
                lo: Box::new(here.int(1)),
                hi: Box::new(rest.clone()),
                inclusive: false,
            });
            let a_third = here.bin(
                BinOp::Le,
                here.bin(BinOp::Mul, here.int(3), here.var("a")),
                rest.clone(),
            );
            let b_range = here.expr(ExprKind::Range {
                lo: Box::new(here.var("a")),
                hi: Box::new(rest.clone()),
                inclusive: false,
            });
            let b_half = here.bin(
                BinOp::Le,
                here.bin(
                    BinOp::Add,
                    here.var("a"),
                    here.bin(BinOp::Mul, here.int(2), here.var("b")),
                ),
                rest,
            );
            rules.push(here.rule(
                body,
                vec![
                    here.each("a", a_range),
                    here.when(a_third),
                    here.each("b", b_range),
                    here.when(b_half),
                ],
            ));
        }
    }
    Ok(game(name, rules, span, Shorthand::Octal { digits }))
}

/// `subtraction NAME = {s1, ..., sk}` (take one of these numbers of tokens)
/// or `subtraction NAME = all but {...}` (any positive number but these).
pub fn subtraction(
    name: Ident,
    set: Vec<(i64, Span)>,
    all_but: bool,
    span: Span,
) -> Result<GameDef, Vec<Diag>> {
    let mut errors = Vec::new();
    for (i, &(s, at)) in set.iter().enumerate() {
        if s < 1 {
            errors.push(
                Diag::user(
                    Code::BadSubtractionSet,
                    format!("`{s}` cannot be subtracted"),
                )
                .label(at, "a move takes a positive number of tokens")
                .help("the set holds the numbers of tokens a move may take: 1, 2, ..."),
            );
        }
        if let Some(&(_, first)) = set[..i].iter().find(|(t, _)| *t == s) {
            errors.push(
                Diag::user(
                    Code::BadSubtractionSet,
                    format!("`{s}` appears twice in the set"),
                )
                .label(at, "again here")
                .label(first, "first here"),
            );
        }
    }
    if !errors.is_empty() {
        return Err(errors);
    }
    let g = name.name.clone();
    let here = At(span);
    let numbers: Vec<i64> = set.iter().map(|(s, _)| *s).collect();
    let rule = if all_but {
        // Take k for every k in 1..=n but the excluded ones.
        let range = here.expr(ExprKind::Range {
            lo: Box::new(here.int(1)),
            hi: Box::new(here.var("n")),
            inclusive: true,
        });
        let mut clauses = vec![here.each("k", range)];
        for &(s, at) in &set {
            let at = At(at);
            clauses.push(at.when(at.bin(BinOp::Ne, at.var("k"), at.int(s))));
        }
        let body = here.call(&g, vec![here.bin(BinOp::Sub, here.var("n"), here.var("k"))]);
        here.rule(body, clauses)
    } else {
        let list = here.expr(ExprKind::List(
            set.iter().map(|&(s, at)| At(at).int(s)).collect(),
        ));
        let fits = here.bin(BinOp::Le, here.var("s"), here.var("n"));
        let body = here.call(&g, vec![here.bin(BinOp::Sub, here.var("n"), here.var("s"))]);
        here.rule(body, vec![here.each("s", list), here.when(fits)])
    };
    Ok(game(
        name,
        vec![rule],
        span,
        Shorthand::Subtraction {
            set: numbers,
            all_but,
        },
    ))
}

fn game(name: Ident, rules: Vec<Rule>, span: Span, shorthand: Shorthand) -> GameDef {
    let n = Ident {
        name: "n".into(),
        span: name.span,
    };
    GameDef {
        header: name.span,
        name,
        params: vec![n],
        rules,
        span,
        shorthand: Some(shorthand),
        loopy: false,
        split: None,
        canonical: None,
        prefer: None,
    }
}

/// A shorthand's moves in plain words, one line each.
pub fn describe(name: &str, shorthand: &Shorthand) -> Vec<String> {
    match shorthand {
        Shorthand::Octal { digits } => {
            let code = octal_code(digits);
            let mut lines = vec![format!(
                "{name}(n) = octal {code}: heaps of tokens; a move takes tokens from one heap"
            )];
            for (k, &d) in digits.iter().enumerate() {
                if d == 0 {
                    continue;
                }
                let mut ways = Vec::new();
                if d & 1 != 0 {
                    ways.push("the whole heap".to_string());
                }
                if d & 2 != 0 {
                    ways.push("leaving one smaller heap".to_string());
                }
                if d & 4 != 0 {
                    ways.push("leaving two non-empty heaps".to_string());
                }
                if d & 8 != 0 {
                    ways.push("leaving three non-empty heaps".to_string());
                }
                let what = if k == 0 {
                    match d & 12 {
                        4 => "take none: split a heap into two non-empty heaps",
                        8 => "take none: split a heap into three non-empty heaps",
                        _ => "take none: split a heap into two or three non-empty heaps",
                    }
                    .to_string()
                } else {
                    format!(
                        "take {k} token{}: {}",
                        if k == 1 { "" } else { "s" },
                        join_or(&ways)
                    )
                };
                lines.push(format!("  digit {} at position {k}: {what}", hex_digit(d)));
            }
            if lines.len() == 1 {
                lines.push("  no digit allows a move: every position is terminal".into());
            }
            lines
        }
        Shorthand::Subtraction { set, all_but } => {
            let mut sorted = set.clone();
            sorted.sort_unstable();
            let numbers: Vec<String> = sorted.iter().map(i64::to_string).collect();
            let list = join_or(&numbers);
            vec![if *all_but {
                if set.is_empty() {
                    format!(
                        "{name}(n) = subtraction all but {{}}: a move takes any positive number of tokens from the heap"
                    )
                } else {
                    format!(
                        "{name}(n) = subtraction all but {{{}}}: a move takes any positive number of tokens from the heap except {}",
                        numbers.join(", "),
                        join_and(&numbers)
                    )
                }
            } else if set.is_empty() {
                format!("{name}(n) = subtraction {{}}: no move at all")
            } else {
                format!(
                    "{name}(n) = subtraction {{{}}}: a move takes {} token{} from the heap (at most what it holds)",
                    numbers.join(", "),
                    list,
                    if set == &[1] { "" } else { "s" }
                )
            }]
        }
    }
}

/// `0.07`, `4.07`, `0.3f`: the digits in standard notation.
pub fn octal_code(digits: &[u8]) -> String {
    let mut code = format!("{}.", hex_digit(digits.first().copied().unwrap_or(0)));
    for &d in digits.iter().skip(1) {
        code.push(hex_digit(d));
    }
    if digits.len() <= 1 {
        code.push('0');
    }
    code
}

/// A digit of a code: 0-9, then a-f.
fn hex_digit(d: u8) -> char {
    char::from_digit(u32::from(d), 16).unwrap_or('?')
}

fn join_and(items: &[String]) -> String {
    match items {
        [] => String::new(),
        [one] => one.clone(),
        [init @ .., last] => format!("{} and {last}", init.join(", ")),
    }
}

fn join_or(items: &[String]) -> String {
    match items {
        [] => String::new(),
        [one] => one.clone(),
        [init @ .., last] => format!("{}, or {last}", init.join(", ")),
    }
}
