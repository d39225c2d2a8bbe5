//! Tests written in the language: every `tests/fixtures/*.game` states its
//! expectations with `check` (each against a published or independently
//! computed value, named in the file's comments), and runs through the real
//! binary. Every check must hold and nothing may fail; a failure names its
//! file and line. Beside a fixture, `NAME.in` is its standard input and
//! `NAME.out` its exact expected output (where the layout matters).

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

/// Every fixture, sorted.
fn fixtures() -> Vec<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures");
    let mut out: Vec<PathBuf> = std::fs::read_dir(&dir)
        .expect("tests/fixtures/")
        .map(|e| e.expect("entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "game"))
        .collect();
    out.sort();
    out
}

/// Runs the binary on a fixture (with its `.in` on standard input).
fn run(path: &Path, json: bool) -> (Option<i32>, String, String) {
    let input = std::fs::read(path.with_extension("in")).unwrap_or_default();
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_grundy"));
    if json {
        cmd.arg("--json");
    }
    let mut child = cmd
        .arg(path)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the grundy binary runs");
    if let Some(mut stdin) = child.stdin.take() {
        use std::io::Write;
        let _ = stdin.write_all(&input);
    }
    let out = child.wait_with_output().expect("the binary ends");
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// Whitespace collapsed, as answers show a condition.
fn normalize(s: &str) -> String {
    s.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// The line (1-based) of the `check` whose condition starts with `cond`.
fn line_of(text: &str, cond: &str) -> Option<usize> {
    let want: String = normalize(cond).chars().take(40).collect();
    let flat: Vec<(usize, String)> = text
        .lines()
        .enumerate()
        .map(|(i, l)| (i + 1, normalize(l)))
        .collect();
    flat.iter()
        .find(|(_, l)| l.starts_with("check ") && l[6..].starts_with(&want))
        .map(|(i, _)| *i)
}

/// What is wrong with one fixture's run, each with its file and line.
fn problems(path: &Path) -> Vec<String> {
    let name = path
        .strip_prefix(env!("CARGO_MANIFEST_DIR"))
        .unwrap_or(path)
        .display()
        .to_string();
    let text = std::fs::read_to_string(path).expect("the fixture");
    let (code, stdout, stderr) = run(path, true);
    let mut out = Vec::new();
    let mut held = 0;
    for line in stdout.lines() {
        let Ok(v) = serde_json::from_str::<serde_json::Value>(line) else {
            out.push(format!("{name}: not JSON: {line}"));
            continue;
        };
        match v["kind"].as_str() {
            Some("check_ok") => held += 1,
            Some("check_failed") => {
                let cond = v["condition"].as_str().unwrap_or("");
                let at = line_of(&text, cond).map_or("?".into(), |l| l.to_string());
                let case: Vec<String> = v["bindings"]
                    .as_array()
                    .into_iter()
                    .flatten()
                    .map(|b| format!("{} = {}", b["name"], b["text"]))
                    .collect();
                out.push(format!(
                    "{name}:{at}: check {cond} failed at {} (left {}, right {})",
                    case.join(", "),
                    v["sides"]["left"]["text"],
                    v["sides"]["right"]["text"]
                ));
            }
            Some("error") => out.push(format!(
                "{name}:{}: {} ({})",
                v["line"], v["message"], v["code"]
            )),
            _ => {}
        }
    }
    if held == 0 {
        out.push(format!(
            "{name}: no check held (a fixture states what it checks)"
        ));
    }
    if code != Some(0) && out.is_empty() {
        out.push(format!("{name}: exit {code:?}: {stderr}"));
    }
    let expected = path.with_extension("out");
    if expected.exists() {
        let want = std::fs::read_to_string(&expected).expect("the .out file");
        let (_, got, _) = run(path, false);
        if got != want {
            out.push(format!(
                "{name}: output differs from {}",
                expected.display()
            ));
        }
    }
    out
}

#[test]
fn fixtures_hold() {
    let all = fixtures();
    assert!(!all.is_empty(), "no fixtures found");
    let found: Vec<String> = all.iter().flat_map(|p| problems(p)).collect();
    assert!(found.is_empty(), "\n{}", found.join("\n"));
}

/// The harness itself: a check that fails is reported with its file, its
/// line and the case, and a file that checks nothing is refused.
#[test]
fn a_failing_fixture_names_its_file_and_line() {
    let dir = std::env::temp_dir().join(format!("grundy-fixtures-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let bad = dir.join("bad.game");
    std::fs::write(
        &bad,
        "# a comment\nlet V = [0, 1, 2, 4]\ncheck V[n] == n for n in 0..4\n",
    )
    .expect("write");
    let found = problems(&bad);
    assert_eq!(found.len(), 2, "{found:?}");
    assert!(
        found[0].contains("bad.game:3: check V[n] == n failed at"),
        "{found:?}"
    );
    assert!(found[0].contains("(left \"4\", right \"3\")"), "{found:?}");
    let empty = dir.join("empty.game");
    std::fs::write(&empty, "print 1\n").expect("write");
    assert_eq!(problems(&empty).len(), 1);
    let _ = std::fs::remove_dir_all(&dir);
}
