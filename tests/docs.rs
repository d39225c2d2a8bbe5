//! The documentation's examples are run: every ```game block in README.md and
//! docs/*.md runs without errors, and when an ```output block follows it, the
//! output must match exactly (answers, and diagnostics rendered without color).

use grundy::diagnostics::{Style, render};
use grundy::eval::Limits;
use grundy::session::{Event, Session};
use std::path::{Path, PathBuf};

struct Block {
    file: PathBuf,
    line: usize,
    source: String,
    expected: Option<String>,
}

/// Fenced blocks: (info string, first line number, body).
fn fences(text: &str) -> Vec<(String, usize, String)> {
    let mut out = Vec::new();
    let mut lines = text.lines().enumerate();
    while let Some((i, line)) = lines.next() {
        let Some(info) = line.strip_prefix("```") else {
            continue;
        };
        let mut body = String::new();
        for (_, l) in lines.by_ref() {
            if l.starts_with("```") {
                break;
            }
            body.push_str(l);
            body.push('\n');
        }
        out.push((info.trim().to_string(), i + 1, body));
    }
    out
}

fn blocks() -> Vec<Block> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut files = vec![root.join("README.md")];
    let mut docs: Vec<PathBuf> = std::fs::read_dir(root.join("docs"))
        .expect("docs/ exists")
        .map(|e| e.expect("entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "md"))
        .collect();
    docs.sort();
    files.extend(docs);
    let mut blocks = Vec::new();
    for file in files {
        let text = std::fs::read_to_string(&file).expect("readable doc");
        let fs = fences(&text);
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
    for b in &blocks {
        let mut session = Session::new(Limits::default());
        let mut out = String::new();
        let name = b
            .file
            .file_name()
            .map(|n| n.to_string_lossy().replace(".md", ".game"))
            .unwrap_or_default();
        let summary = session.run(&name, &b.source, &mut |s, e| match e {
            Event::Answer(a) => out.push_str(&a.to_string()),
            Event::Error(d) => out.push_str(&render(&d, s.sources(), Style::Plain)),
        });
        let place = format!("{}:{}", b.file.display(), b.line);
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
