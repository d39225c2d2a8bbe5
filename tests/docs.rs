//! The documentation's examples are run: every ```game block in README.md and
//! docs/*.md runs without errors, and when an ```output block follows it, the
//! output must match exactly (answers, and diagnostics rendered without color).

use grundy::diagnostics::{Style, render};
use grundy::eval::Limits;
use grundy::session::{Event, Session};
mod common;

use std::path::PathBuf;

struct Block {
    file: PathBuf,
    line: usize,
    source: String,
    expected: Option<String>,
}

fn blocks() -> Vec<Block> {
    let files = common::doc_files();
    let mut blocks = Vec::new();
    for file in files {
        let text = std::fs::read_to_string(&file).expect("readable doc");
        let fs = common::fences(&text);
        for (k, (info, line, body)) in fs.iter().enumerate() {
            if info != "game" {
                continue;
            }
            let expected = fs
                .get(k + 1)
                .filter(|(i, _, _)| i == "output")
                .map(|(_, _, b)| b.clone());
            blocks.push(Block {
                file: file.clone(),
                line: *line,
                source: body.clone(),
                expected,
            });
        }
    }
    blocks
}

#[test]
fn documentation_examples_run_as_written() {
    let blocks = blocks();
    assert!(
        blocks.len() >= 10,
        "expected many ```game blocks in the docs, found {}",
        blocks.len()
    );
    let mut failures = Vec::new();
    // Plots are written into a scratch directory and shown as a user
    // running the block in a directory of their own would see them.
    let scratch = std::env::temp_dir().join(format!("grundy-docs-{}", std::process::id()));
    let prefix = format!("{}/", scratch.display());
    for b in &blocks {
        let mut files = grundy::files::Files::new(Some(scratch.join("")));
        let mut session = Session::new(Limits::default());
        let mut out = String::new();
        let name = b
            .file
            .file_name()
            .map(|n| n.to_string_lossy().replace(".md", ".game"))
            .unwrap_or_default();
        let summary = session.run(&name, &b.source, &mut |s, e| match e {
            Event::Answer(mut a) => match files.place(&mut a) {
                Ok(()) => out.push_str(&a.to_string().replace(&prefix, "")),
                Err((path, e)) => out.push_str(&format!("cannot write {path}: {e}\n")),
            },
            Event::Note(_) => {}
            Event::Error(d) | Event::Interrupted(d) => {
                out.push_str(&render(&d, s.sources(), Style::Plain))
            }
        });
        let place = format!("{}:{}", b.file.display(), b.line);
        if let Some(expected) = b.expected.as_ref().filter(|e| **e != out)
            && std::env::var_os("UPDATE_DOCS").is_some()
        {
            update_output(b, expected, &out);
            continue;
        }
        match &b.expected {
            Some(expected) if *expected != out => failures.push(format!(
                "{place}: output differs\n--- expected\n{expected}--- got\n{out}"
            )),
            None if summary.errors > 0 => failures.push(format!("{place}: errors\n{out}")),
            _ => {}
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// Rewrites the ```output block after `b` (with `UPDATE_DOCS=1`, to review
/// with `git diff`).
fn update_output(b: &Block, expected: &str, out: &str) {
    let text = std::fs::read_to_string(&b.file).expect("readable doc");
    let from: usize = text.lines().take(b.line).map(|l| l.len() + 1).sum();
    let old = format!("```output\n{expected}```");
    let at = from + text[from..].find(&old).expect("the output block");
    let new = format!("```output\n{out}```");
    let text = format!("{}{new}{}", &text[..at], &text[at + old.len()..]);
    std::fs::write(&b.file, text).expect("write doc");
}

/// The language reference and the REPL's help tell every builtin of the
/// table: a new builtin is documented or this fails.
#[test]
fn every_builtin_is_documented() {
    let reference = std::fs::read_to_string("docs/language.md").expect("docs/language.md");
    let help = grundy::repl::help_text("queries") + &grundy::repl::help_text("functions");
    for spec in grundy::builtin::entries() {
        let call = format!("`{}(", spec.name);
        assert!(
            reference.contains(&call),
            "docs/language.md never shows {call}"
        );
        assert!(
            help.contains(&format!("{}(", spec.name)),
            "`:help` never shows {}",
            spec.name
        );
    }
}

/// The reference's lexical rules list every keyword of the grammar and
/// every builtin name: a new reserved word is listed or this fails.
#[test]
fn every_reserved_name_is_listed() {
    let reference = std::fs::read_to_string("docs/language.md").expect("docs/language.md");
    let paragraph = |start: &str| {
        let at = reference
            .find(start)
            .unwrap_or_else(|| panic!("no {start}"));
        let rest = &reference[at..];
        let end = rest.find("\n- ").unwrap_or(rest.len());
        rest[..end].to_string()
    };
    let words = |text: &str| -> Vec<String> {
        text.split(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
            .filter(|w| !w.is_empty())
            .map(str::to_string)
            .collect()
    };
    let builtins = words(&paragraph("- **Builtin names**"));
    for spec in grundy::builtin::entries() {
        assert!(
            builtins.iter().any(|w| w == spec.name),
            "language.md §2 does not list the builtin `{}`",
            spec.name
        );
    }
    let grammar = std::fs::read_to_string("grammar/game.pest").expect("grammar");
    let rule = grammar
        .split("keyword  = @{")
        .nth(1)
        .and_then(|r| r.split('}').next())
        .expect("the grammar's keyword rule");
    let keywords = words(&paragraph("- **Keywords**"));
    let mut n = 0;
    let quoted = rule.split('"').skip(1).step_by(2);
    for kw in quoted.filter(|q| q.chars().all(|c| c.is_ascii_alphabetic())) {
        n += 1;
        assert!(
            keywords.iter().any(|w| w == kw),
            "language.md §2 does not list the keyword `{kw}`"
        );
    }
    assert!(n >= 16, "read {n} keywords from the grammar");
}
