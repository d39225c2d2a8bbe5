//! Syntax errors: pest's furthest failure turned into a diagnostic with
//! human names for what was expected and hints for common slips, and
//! recovery at the next top-level item to report more than one.

use super::{GameParser, ITEM_KEYWORDS, KEYWORDS, Rule};
use crate::diagnostics::{Code, Diag, did_you_mean};
use crate::span::Span;
use pest::Parser as _;
use pest::error::{ErrorVariant, InputLocation};

/// pest stops at the first error; to report more, resume parsing at the next
/// line that starts a top-level item (`game`, `let`, `print`, `check`).
pub(super) fn recover(text: &str, first: pest::error::Error<Rule>) -> Vec<Diag> {
    let mut errors = vec![syntax_error(text, first)];
    let mut from = 0usize;
    while errors.len() < 20 {
        let Some(at) = errors
            .last()
            .and_then(|d| d.primary())
            .map(|s| s.end as usize)
        else {
            break;
        };
        let Some(next) = next_item_start(text, at.max(from + 1)) else {
            break;
        };
        from = next;
        match GameParser::parse(Rule::program, &text[next..]) {
            Ok(_) => break,
            Err(e) => {
                let mut d = syntax_error(&text[next..], e);
                for l in &mut d.labels {
                    l.span = Span::new(l.span.start as usize + next, l.span.end as usize + next);
                }
                errors.push(d);
            }
        }
    }
    errors
}

/// The byte offset of the first line at or after `from` (not the line
/// containing `from`) that begins with a top-level keyword.
fn next_item_start(text: &str, from: usize) -> Option<usize> {
    let mut offset = text.get(from..)?.find('\n')? + from + 1;
    loop {
        let line = text.get(offset..)?;
        let trimmed = line.trim_start_matches([' ', '\t']);
        let word: String = trimmed
            .chars()
            .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
            .collect();
        if ITEM_KEYWORDS.contains(&word.as_str()) {
            return Some(offset + (line.len() - trimmed.len()));
        }
        offset += line.find('\n')? + 1;
    }
}

/// The human name of a grammar rule, for "expected ..." messages.
fn rule_name(r: &Rule) -> Option<&'static str> {
    Some(match r {
        Rule::EOI => "end of input",
        Rule::let_def | Rule::let_clause | Rule::kw_let => "`let`",
        Rule::game_def | Rule::kw_game => "`game`",
        Rule::loopy_mark => "`loopy`",
        Rule::memo_decl | Rule::memo_mark => "`memo`",
        Rule::split_decl | Rule::split_mark => "`split`",
        Rule::canonical_decl | Rule::canonical_mark => "`canonical`",
        Rule::prefer_decl | Rule::prefer_mark => "`prefer`",
        Rule::print_stmt | Rule::kw_print => "`print`",
        Rule::check_stmt | Rule::kw_check => "`check`",
        Rule::write_stmt | Rule::write_mark => "`write`",
        Rule::octal_def | Rule::kw_octal => "`octal`",
        Rule::subtraction_def | Rule::kw_subtraction => "`subtraction`",
        Rule::octal_code => "an octal code like 0.07 (or hexadecimal, 0.3f)",
        Rule::int_set => "a set like {1, 3, 4}",
        Rule::all_but | Rule::kw_all => "`all but`",
        Rule::kw_but => "`but`",
        Rule::for_clause | Rule::kw_for => "`for`",
        Rule::if_clause | Rule::kw_if => "`if`",
        Rule::kw_in => "`in`",
        Rule::kw_then => "`then`",
        Rule::kw_else => "`else`",
        Rule::ident => "a name",
        Rule::int => "a number",
        Rule::expr
        | Rule::cond
        | Rule::let_in
        | Rule::let_in_mark
        | Rule::fold_call
        | Rule::call
        | Rule::list
        | Rule::paren => "an expression",
        Rule::true_lit | Rule::false_lit => "an expression",
        Rule::string => "an expression",
        Rule::neg | Rule::not => "an expression",
        Rule::params => "a parameter name",
        Rule::move_rule => "a move rule",
        Rule::comp_tail => "`for`",
        Rule::index | Rule::lbracket => "`[`",
        Rule::field => "an operator",
        Rule::assign => "`=`",
        Rule::lparen => "`(`",
        Rule::rparen => "`)`",
        Rule::lbrace => "`{`",
        Rule::rbrace => "`}`",
        Rule::rbracket => "`]`",
        Rule::comma => "`,`",
        Rule::or
        | Rule::and
        | Rule::eq
        | Rule::ne
        | Rule::le
        | Rule::ge
        | Rule::shl
        | Rule::shr
        | Rule::lt
        | Rule::gt
        | Rule::range_incl
        | Rule::range_excl
        | Rule::bor
        | Rule::bxor
        | Rule::band
        | Rule::add
        | Rule::sub
        | Rule::pow
        | Rule::mul
        | Rule::div
        | Rule::rem => "an operator",
        _ => return None,
    })
}

pub(super) fn syntax_error(text: &str, e: pest::error::Error<Rule>) -> Diag {
    let (mut start, end) = match e.location {
        InputLocation::Pos(p) => (p, p),
        InputLocation::Span((s, e)) => (s, e),
    };
    // At the end of the input, point at the last token instead of past it.
    let at_end = text.get(start..).is_none_or(|rest| rest.trim().is_empty());
    if at_end {
        start = text.trim_end().len();
    }
    let (found, found_len) = if at_end {
        ("end of input".to_string(), 0)
    } else {
        token_at(text, start)
    };
    let expected: Vec<&str> = match &e.variant {
        ErrorVariant::ParsingError { positives, .. } => {
            let mut names: Vec<&str> = Vec::new();
            for n in positives.iter().filter_map(rule_name) {
                if !names.contains(&n) {
                    names.push(n);
                }
            }
            if names.contains(&"an expression") {
                // Numbers, names, brackets and `if` all start expressions.
                names.retain(|n| !matches!(*n, "a number" | "a name" | "`(`" | "`[`" | "`if`"));
            }
            if names.len() > 1 {
                names.retain(|n| *n != "end of input");
            }
            // `game` is tried at the start of `loopy game` as well, which
            // puts it early; it reads best right after `let`.
            if let Some(g) = names.iter().position(|n| *n == "`game`")
                && names
                    .iter()
                    .position(|n| *n == "`let`")
                    .is_some_and(|l| l > g)
            {
                let game = names.remove(g);
                let l = names.iter().position(|n| *n == "`let`").unwrap_or(0);
                names.insert(l + 1, game);
            }
            names
        }
        ErrorVariant::CustomError { .. } => Vec::new(),
    };
    let rest = text.get(start..).unwrap_or("");
    let first = rest.chars().next().unwrap_or(' ');
    let foreign =
        !(at_end || first.is_ascii_alphanumeric() || "_#()[]{},=+-*/%<>!&|^.".contains(first));
    let message = if foreign {
        format!("unexpected character `{first}`")
    } else if expected.is_empty() {
        format!("unexpected {found}")
    } else {
        format!("expected {}, found {found}", join_or(&expected))
    };
    let span = if at_end {
        let last = text[..start]
            .char_indices()
            .next_back()
            .map_or(0, |(i, _)| i);
        Span::new(last, start)
    } else if start == end {
        Span::new(
            start,
            start + found_len.max(first.len_utf8().min(rest.len())),
        )
    } else {
        Span::new(start, end)
    };
    let label = if at_end {
        "the input ends here"
    } else {
        "here"
    };
    let mut d = Diag::user(Code::Syntax, message).label(span, label);
    // `a && b` fails at the second `&`: look one byte back for the pair.
    let doubled = start
        .checked_sub(1)
        .and_then(|b| text.get(b..))
        .filter(|t| t.starts_with("&&") || t.starts_with("||"));
    if let Some(help) = syntax_hint(doubled.unwrap_or(rest), &found, &expected) {
        d = d.help(help);
    }
    d
}

/// Help for common slips: operators from other languages, misspelled
/// keywords, a missing closing bracket.
fn syntax_hint(rest: &str, found: &str, expected: &[&str]) -> Option<String> {
    const SWAPS: &[(&str, &str)] = &[
        ("&&", "write `and`"),
        ("||", "write `or`"),
        ("!=", ""),
        ("!", "write `not`"),
        ("==", ""),
        ("=", "to compare, write `==`"),
        ("≤", "write `<=`"),
        ("≥", "write `>=`"),
        ("≠", "write `!=`"),
        ("\"", "a string ends with `\"` on the line where it starts"),
        ("'", "strings are written in double quotes: \"text\""),
        ("//", "comments start with `#`"),
        (
            "~",
            "there is no `~`; the complement of `x` is `-1 ^ x`, and `m ^ (m & b)` clears the bits `b` of `m`",
        ),
    ];
    if let Some((_, hint)) = SWAPS.iter().find(|(tok, _)| rest.starts_with(tok)) {
        return (!hint.is_empty()).then(|| hint.to_string());
    }
    if rest.starts_with('{') && expected.contains(&"an expression") {
        return Some(
            "lists are written with square brackets: `[1, 2]` (braces are for game rules and \
             `subtraction S = {1, 2}`)"
                .into(),
        );
    }
    let word: String = rest
        .chars()
        .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
        .collect();
    if word == "xor" {
        return Some("XOR is the operator `^`: `a ^ b`".into());
    }
    if ["game", "let", "print", "check"].contains(&word.as_str()) {
        for (close, name) in [("`}`", "}"), ("`)`", ")"), ("`]`", "]")] {
            if expected.contains(&close) {
                return Some(format!("is a `{name}` missing before this line?"));
            }
        }
    }
    if !word.is_empty()
        && !found.starts_with("keyword")
        && let Some(k) = did_you_mean(&word, KEYWORDS.iter().copied())
    {
        return Some(format!("did you mean `{k}`?"));
    }
    None
}

/// The token at a byte offset, for "found ..." in messages, and its length.
fn token_at(text: &str, offset: usize) -> (String, usize) {
    let rest = text.get(offset..).unwrap_or("");
    let Some(first) = rest.chars().next() else {
        return ("end of input".to_string(), 0);
    };
    let word_len = |pred: fn(char) -> bool| rest.find(|c: char| !pred(c)).unwrap_or(rest.len());
    if first.is_ascii_alphabetic() || first == '_' {
        let n = word_len(|c| c.is_ascii_alphanumeric() || c == '_');
        let word = &rest[..n];
        if KEYWORDS.contains(&word) {
            (format!("keyword `{word}`"), n)
        } else {
            (format!("`{word}`"), n)
        }
    } else if first.is_ascii_digit() {
        let n = word_len(|c| c.is_ascii_digit() || c == '_');
        (format!("number `{}`", &rest[..n]), n)
    } else if first == '\n' || first == '\r' {
        ("end of line".to_string(), 1)
    } else {
        (format!("`{first}`"), first.len_utf8())
    }
}

fn join_or(names: &[&str]) -> String {
    match names {
        [] => String::new(),
        [one] => one.to_string(),
        [init @ .., last] => format!("{} or {}", init.join(", "), last),
    }
}
