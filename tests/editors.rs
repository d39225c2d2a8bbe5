//! The TextMate grammar (editors/vscode/syntaxes/game.tmLanguage.json),
//! through VS Code's own engine (editors/tokens.js: vscode-textmate on
//! vscode-oniguruma, from `npm ci` in editors/): every example and every
//! ```game block of the docs tokenizes with no region left open at a line's
//! end; the grammar names exactly the language's keywords and builtins; and
//! it agrees with the REPL's highlighting on what is a keyword, a builtin,
//! a number, a string and a comment.

use grundy::diagnostics::Style;
use grundy::eval::Limits;
use grundy::repl::{Repl, Token};
use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::Command;
mod common;

const GRAMMAR: &str = "editors/vscode/syntaxes/game.tmLanguage.json";

/// The words of a `\b(a|b|c)\b` alternation in the grammar.
fn alternation(grammar: &Value, rule: &str) -> Vec<String> {
    let m = grammar["repository"][rule]["match"]
        .as_str()
        .expect("a match");
    let inner = m
        .strip_prefix("\\b(")
        .and_then(|m| m.strip_suffix(")\\b"))
        .expect("an alternation");
    let mut words: Vec<String> = inner.split('|').map(String::from).collect();
    words.sort();
    words
}

#[test]
fn the_grammar_names_the_keywords_and_builtins() {
    let grammar: Value =
        serde_json::from_str(&std::fs::read_to_string(GRAMMAR).expect("grammar")).expect("JSON");
    let mut keywords = alternation(&grammar, "keyword");
    keywords.extend(alternation(&grammar, "constant"));
    keywords.sort();
    let mut want: Vec<String> = grundy::syntax::KEYWORDS
        .iter()
        .map(|k| k.to_string())
        .collect();
    want.sort();
    assert_eq!(keywords, want);
    let mut builtins: Vec<String> = grundy::builtin::names().map(String::from).collect();
    builtins.sort();
    assert_eq!(alternation(&grammar, "builtin"), builtins);
}

/// Every example and every ```game block of the docs, as files.
fn sources(dir: &Path) -> Vec<PathBuf> {
    let mut out: Vec<PathBuf> = std::fs::read_dir("examples")
        .expect("examples")
        .map(|e| e.expect("entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "game"))
        .collect();
    for (i, doc) in common::doc_files().iter().enumerate() {
        let text = std::fs::read_to_string(doc).expect("doc");
        for (j, (info, _, body)) in common::fences(&text).iter().enumerate() {
            if info == "game" {
                let p = dir.join(format!("doc{i}_{j}.game"));
                std::fs::write(&p, body).expect("write");
                out.push(p);
            }
        }
    }
    out.sort();
    out
}

/// The grammar's class of a REPL token kind.
fn agrees(kind: &Token, scope: &str) -> bool {
    match kind {
        Token::Keyword => {
            scope.starts_with("keyword.other") || scope.starts_with("constant.language")
        }
        Token::Builtin => scope.starts_with("support.function.builtin"),
        Token::Number => scope.starts_with("constant.numeric"),
        Token::Str => {
            scope.starts_with("string.quoted") || scope.starts_with("constant.character.escape")
        }
        Token::Comment => scope.starts_with("comment.line"),
        Token::Game | Token::Command => true,
    }
}

#[test]
fn the_grammar_tokenizes_every_example_as_the_repl_highlights_it() {
    let tools = Path::new("editors/node_modules/vscode-textmate");
    let node = Command::new("node").arg("--version").output();
    if !tools.exists() || node.is_err() {
        assert!(
            std::env::var_os("GRUNDY_REQUIRE_NODE").is_none(),
            "node and `npm ci` in editors/ are required here"
        );
        eprintln!("skipped: node or editors/node_modules missing (`cd editors && npm ci`)");
        return;
    }
    let dir = std::env::temp_dir().join(format!("grundy-editors-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let files = sources(&dir);
    assert!(files.len() > 50, "{}", files.len());
    let out = Command::new("node")
        .arg("editors/tokens.js")
        .args(&files)
        .output()
        .expect("node runs");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let tokenized: Vec<Value> = serde_json::from_slice(&out.stdout).expect("JSON");
    let repl = Repl::new(Limits::default(), Style::Plain);
    let mut checked = 0;
    for (file, result) in files.iter().zip(&tokenized) {
        let text = std::fs::read_to_string(file).expect("read");
        let lines = result["lines"].as_array().expect("lines");
        for (n, (line, got)) in text.split('\n').zip(lines).enumerate() {
            let at = format!("{}:{}: {line}", file.display(), n + 1);
            assert_eq!(got["open"], false, "a region left open at {at}");
            let tokens: Vec<(usize, usize, &str)> = got["tokens"]
                .as_array()
                .expect("tokens")
                .iter()
                .map(|t| {
                    (
                        t[0].as_u64().expect("start") as usize,
                        t[1].as_u64().expect("end") as usize,
                        t[2].as_str().expect("scope"),
                    )
                })
                .collect();
            assert!(
                tokens.iter().all(|t| !t.2.contains("invalid")),
                "{at}: {tokens:?}"
            );
            // The grammar counts UTF-16 units; the REPL, bytes.
            let units = |byte: usize| line[..byte].encode_utf16().count();
            let scope_at = |unit: usize| {
                tokens
                    .iter()
                    .find(|t| t.0 <= unit && unit < t.1)
                    .map_or("", |t| t.2)
            };
            for (range, kind) in repl.tokens(line) {
                let scope = scope_at(units(range.start));
                assert!(
                    agrees(&kind, scope),
                    "{at}: {kind:?} at {range:?} is `{scope}`"
                );
                checked += 1;
            }
            // And back: what the grammar calls a keyword, builtin or number
            // the REPL highlights as one.
            let repl_tokens = repl.tokens(line);
            for &(start, _, scope) in &tokens {
                let kind = repl_tokens
                    .iter()
                    .find(|(r, _)| units(r.start) <= start && start < units(r.end))
                    .map(|(_, k)| k);
                let want = if scope.starts_with("support.function.builtin") {
                    Some(Token::Builtin)
                } else if scope.starts_with("constant.numeric") {
                    Some(Token::Number)
                } else if scope.starts_with("keyword.other")
                    || scope.starts_with("constant.language")
                {
                    Some(Token::Keyword)
                } else {
                    None
                };
                if let Some(want) = want {
                    assert_eq!(kind, Some(&want), "{at}: `{scope}` at {start}");
                }
            }
        }
    }
    assert!(checked > 1000, "{checked}");
}

/// Neovim, headless, configured as editors/nvim/init.lua (docs/editors.md)
/// says, opens a file with a typo and reports the diagnostic `grundy lsp`
/// publishes.
#[test]
fn neovim_reports_the_diagnostic_of_a_typo() {
    if Command::new("nvim").arg("--version").output().is_err() {
        assert!(
            std::env::var_os("GRUNDY_REQUIRE_NVIM").is_none(),
            "neovim is required here"
        );
        eprintln!("skipped: nvim missing");
        return;
    }
    let dir = std::env::temp_dir().join(format!("grundy-nvim-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let file = dir.join("typo.game");
    std::fs::write(
        &file,
        "game Nim(n) = { Nim(k) for k in 0..n }\nprint grundy(Nmi(3))\n",
    )
    .expect("write");
    let bin = Path::new(env!("CARGO_BIN_EXE_grundy"))
        .parent()
        .expect("bin dir")
        .to_path_buf();
    let path = std::env::join_paths(std::iter::once(bin).chain(std::env::split_paths(
        &std::env::var_os("PATH").unwrap_or_default(),
    )))
    .expect("PATH");
    let out = Command::new("nvim")
        .args(["--headless", "-u", "editors/nvim/init.lua"])
        .arg(&file)
        .args(["-c", "luafile editors/nvim/report.lua"])
        .env("PATH", path)
        .output()
        .expect("nvim runs");
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.contains("2:14 unknown-name unknown game or function `Nmi`"),
        "{text}\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
}
