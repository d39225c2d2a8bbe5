//! What still checks in a file with errors, so that the editor keeps
//! answering while a name is half typed: the file's items (each starts a
//! line at its first column), those with errors blanked out (spaces, lines
//! kept, so every offset stays the file's) and the rest parsed and checked
//! again, a few rounds at most, as rust-analyzer and gleam's server keep
//! answering from what still checks.

use crate::diagnostics::Diag;
use crate::ir;

/// Rounds of blanking and checking again before giving up.
const MAX_ROUNDS: usize = 8;

/// The program of the items of `text` that check without those `errors`
/// name (and those that fail once they are gone); `None` when nothing
/// checks, or an error says nowhere.
pub fn salvage(text: &str, errors: &[Diag]) -> Option<ir::Program> {
    let starts: Vec<usize> = std::iter::once(0)
        .chain(
            text.match_indices('\n')
                .map(|(i, _)| i + 1)
                .filter(|&i| text.as_bytes().get(i).is_some_and(u8::is_ascii_alphabetic)),
        )
        .collect();
    let chunk_of = |offset: usize| starts.partition_point(|&s| s <= offset).saturating_sub(1);
    let mut dropped = vec![false; starts.len()];
    let mut errors = errors.to_vec();
    for _ in 0..MAX_ROUNDS {
        let mut more = false;
        for d in errors.iter().filter(|d| !d.warning) {
            let at = d.labels.first()?.span.start as usize;
            let mut c = chunk_of(at);
            // A syntax error at an item's first word, a keyword: the item
            // before ran on into it (a `)` missing).
            let word = text[at..]
                .split(|ch: char| !ch.is_ascii_alphanumeric() && ch != '_')
                .next()
                .unwrap_or_default();
            if d.code == crate::diagnostics::Code::Syntax
                && c > 0
                && at == starts[c]
                && crate::syntax::KEYWORDS.contains(&word)
                && !dropped[c - 1]
            {
                c -= 1;
            }
            more |= !std::mem::replace(&mut dropped[c], true);
        }
        if !more {
            return None;
        }
        let mut bytes = text.as_bytes().to_vec();
        for (i, _) in dropped.iter().enumerate().filter(|(_, d)| **d) {
            let end = starts.get(i + 1).copied().unwrap_or(bytes.len());
            for b in &mut bytes[starts[i]..end] {
                if *b != b'\n' {
                    *b = b' ';
                }
            }
        }
        let masked = String::from_utf8(bytes).ok()?;
        match crate::syntax::parse_at(&masked, 0).and_then(|ast| crate::check::check(&ast)) {
            Ok((program, _)) => return Some(program),
            Err(e) => errors = e,
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    fn names(text: &str) -> Option<Vec<String>> {
        let errors = match crate::syntax::parse_at(text, 0).and_then(|a| crate::check::check(&a)) {
            Ok(_) => panic!("no errors in {text:?}"),
            Err(e) => e,
        };
        let p = salvage(text, &errors)?;
        Some(
            p.games
                .iter()
                .map(|g| g.name.clone())
                .chain(p.funs.iter().map(|f| f.name.clone()))
                .chain(p.consts.iter().map(|c| c.name.clone()))
                .collect(),
        )
    }

    #[test]
    fn the_items_that_check_are_kept() {
        let nim = "game Nim(n) = {\n  Nim(k) for k in 0..n\n}\nlet twice(x) = 2 * x\n";
        // A half-typed call, a parse error that runs to the end of the file.
        assert_eq!(
            names(&format!("{nim}print grundy(Ni\nlet N = 5\n")).as_deref(),
            Some(&["Nim".to_string(), "twice".into(), "N".into()][..])
        );
        // An unknown name, and an item that fails only once another is
        // gone: both dropped.
        assert_eq!(
            names(&format!("let a = nope + 1\nlet b = a * 2\n{nim}")).as_deref(),
            Some(&["Nim".to_string(), "twice".into()][..])
        );
        // Spans stay the file's.
        let text = format!("print (\n{nim}");
        let errors = crate::syntax::parse_at(&text, 0).unwrap_err();
        let p = salvage(&text, &errors).expect("Nim checks");
        let s = p.games[0].span;
        assert!(text[s.start as usize..s.end as usize].starts_with("game Nim(n)"));
    }
}
