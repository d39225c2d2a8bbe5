//! Shared by the test binaries: reading the documentation, running the binary.
// Each test binary uses its own part of these helpers.
#![allow(dead_code)]

use std::path::{Path, PathBuf};

/// README.md and every docs/*.md, in a stable order.
pub fn doc_files() -> Vec<PathBuf> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut files = vec![root.join("README.md")];
    let mut docs: Vec<PathBuf> = std::fs::read_dir(root.join("docs"))
        .expect("docs/ exists")
        .map(|e| e.expect("entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "md"))
        .collect();
    docs.sort();
    files.extend(docs);
    files
}

/// Fenced blocks of a Markdown text: (info string, first line number, body).
pub fn fences(text: &str) -> Vec<(String, usize, String)> {
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

/// (exit code, standard output, standard error) of the grundy binary run
/// in `dir` with `stdin` as its input.
pub fn run_in(args: &[&str], dir: &Path, stdin: &str) -> (Option<i32>, String, String) {
    use std::io::Write;
    use std::process::{Command, Stdio};
    let mut child = Command::new(env!("CARGO_BIN_EXE_grundy"))
        .args(args)
        .current_dir(dir)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the grundy binary runs");
    if let Some(mut s) = child.stdin.take() {
        s.write_all(stdin.as_bytes()).expect("write stdin");
    }
    let out = child.wait_with_output().expect("the binary ends");
    let text = |b: &[u8]| String::from_utf8_lossy(b).into_owned();
    (out.status.code(), text(&out.stdout), text(&out.stderr))
}

/// A fresh, empty scratch directory for one test.
pub fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("grundy-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("scratch dir");
    dir
}

/// Chomp by brute force over row lengths (bottom row first): a move eats
/// square (r, c) and everything above and to its right, never the poison
/// (0, 0). Written here, apart from grundy, as the tests' oracle.
pub fn chomp_brute(rows: &[i64], memo: &mut std::collections::HashMap<Vec<i64>, u32>) -> u32 {
    if let Some(&v) = memo.get(rows) {
        return v;
    }
    let mut seen = Vec::new();
    for r in 0..rows.len() {
        for c in 0..rows[r] {
            if r + c as usize == 0 {
                continue;
            }
            let next: Vec<i64> = rows
                .iter()
                .enumerate()
                .map(|(i, &x)| if i >= r { x.min(c) } else { x })
                .collect();
            seen.push(chomp_brute(&next, memo));
        }
    }
    let v = (0..).find(|v| !seen.contains(v)).unwrap_or(0);
    memo.insert(rows.to_vec(), v);
    v
}
