//! The REPL, tested through its UI-agnostic core with scripted transcripts,
//! through the session API (what is kept across edits, Ctrl-C), through the
//! binary with piped input, and once in a real pseudo-terminal (completion,
//! multi-line input, Ctrl-C during a long computation).
//!
//! A transcript (`tests/repl/*.transcript`, and every ```repl block in the
//! docs) is what a user sees: `grundy> INPUT` lines, the lines that continue
//! an entry while a bracket is open, then the expected output (reports
//! rendered without color). Timings in `:time` lines are replaced by `T`.

mod common;

use grundy::diagnostics::Style;
use grundy::eval::Limits;
use grundy::repl::{Flow, Repl, Transcript};
use grundy::session::{Event, Session};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

const PROMPT: &str = "grundy> ";

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// `  (1.2 ms, 3 new positions, 9 stored)` → `  (T, 3 new positions, 9 stored)`.
fn normalize(text: &str) -> String {
    let mut out = String::new();
    for line in text.lines() {
        let line = line.trim_end();
        match line.strip_prefix("  (").and_then(|r| r.split_once(", ")) {
            Some((_, rest)) if rest.contains(" stored)") => {
                out.push_str(&format!("  (T, {rest}"));
            }
            _ => out.push_str(line),
        }
        out.push('\n');
    }
    out
}

/// Runs a transcript; returns the mismatches, described, and the transcript
/// as it came out (written back with `UPDATE_TRANSCRIPTS=1`, to review).
fn run_transcript(name: &str, text: &str) -> (Vec<String>, String) {
    std::env::set_current_dir(root()).expect("cd to the crate");
    let mut repl = Repl::new(Limits::default(), Style::Plain);
    let lines: Vec<&str> = text.lines().collect();
    let mut failures = Vec::new();
    let mut actual = String::new();
    let mut i = 0;
    while i < lines.len() {
        let Some(first) = lines[i].strip_prefix(PROMPT) else {
            failures.push(format!("{name}:{}: expected a `{PROMPT}` line", i + 1));
            i += 1;
            continue;
        };
        let at = i + 1;
        let mut input = first.to_string();
        i += 1;
        while Repl::is_incomplete(&input) && i < lines.len() {
            input.push('\n');
            input.push_str(lines[i]);
            i += 1;
        }
        let mut expected = String::new();
        while i < lines.len() && !lines[i].starts_with(PROMPT) {
            expected.push_str(lines[i]);
            expected.push('\n');
            i += 1;
        }
        let mut out = Transcript::default();
        let flow = repl.handle(&input, &mut out);
        let got = normalize(&out.text);
        actual.push_str(&format!("{PROMPT}{input}\n{got}"));
        if got != normalize(&expected) {
            failures.push(format!(
                "{name}:{at}: `{input}`\n--- expected\n{expected}--- got\n{got}"
            ));
        }
        if flow == Flow::Quit && i < lines.len() {
            failures.push(format!("{name}:{at}: the session quit before the end"));
            break;
        }
    }
    (failures, actual)
}

/// ```repl blocks in README.md and docs/*.md, with where they are.
fn doc_transcripts() -> Vec<(String, String)> {
    let mut out = Vec::new();
    for file in common::doc_files() {
        let text = std::fs::read_to_string(&file).expect("readable doc");
        for (info, line, body) in common::fences(&text) {
            if info == "repl" {
                out.push((format!("{}:{line}", file.display()), body));
            }
        }
    }
    out
}

#[test]
fn transcripts_match() {
    let mut files: Vec<PathBuf> = std::fs::read_dir(root().join("tests/repl"))
        .expect("tests/repl exists")
        .map(|e| e.expect("entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "transcript"))
        .collect();
    files.sort();
    assert!(files.len() >= 3, "the transcripts are found");
    let update = std::env::var_os("UPDATE_TRANSCRIPTS").is_some();
    let mut failures = Vec::new();
    for f in &files {
        let text = std::fs::read_to_string(f).expect("readable transcript");
        let (failed, actual) = run_transcript(&f.display().to_string(), &text);
        if update {
            std::fs::write(f, actual).expect("write transcript");
        } else {
            failures.extend(failed);
        }
    }
    let docs = doc_transcripts();
    assert!(!docs.is_empty(), "docs/repl.md has transcripts");
    for (name, text) in &docs {
        failures.extend(run_transcript(name, text).0);
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// Runs entries in a session, returning the answers' text (errors prefixed
/// with `error:`).
fn entry(s: &mut Session, text: &str) -> String {
    let mut out = String::new();
    s.entry("<test>", text, &mut |_, e| match e {
        Event::Answer(a) => out.push_str(&a.to_string()),
        Event::Note(_) => {}
        Event::Error(d) | Event::Interrupted(d) => out.push_str(&format!("error: {}\n", d.message)),
    });
    out
}

#[test]
fn edits_keep_the_values_of_games_they_do_not_touch() {
    let mut s = Session::default();
    entry(
        &mut s,
        "game Kayles(n) = { Kayles(a) + Kayles(n - r - a) for r in 1..=2 for a in 0..=n - r }",
    );
    assert_eq!(
        entry(&mut s, "grundy(Kayles(900))"),
        "grundy(Kayles(900)) = 4\n"
    );
    let kept = s.state_count();
    assert!(kept > 900, "Kayles(0..=900) are stored: {kept}");

    // An unrelated definition, and a constant: nothing is recomputed.
    entry(&mut s, "game Nim(n) = { Nim(k) for k in 0..n }\nlet N = 7");
    assert_eq!(
        entry(&mut s, "grundy(Kayles(900))"),
        "grundy(Kayles(900)) = 4\n"
    );
    assert_eq!(s.state_count(), kept);

    // The same text again (even reformatted) keeps the values too.
    entry(
        &mut s,
        "game Kayles(n) = {\n  Kayles(a) + Kayles(n - r - a)  # knock down r pins\n    for r in 1..=2 for a in 0..=n - r\n}",
    );
    assert_eq!(
        entry(&mut s, "grundy(Kayles(900))"),
        "grundy(Kayles(900)) = 4\n"
    );
    assert_eq!(s.state_count(), kept);

    // Redefined to knock down exactly two adjacent pins (octal game 0.07,
    // OEIS A002187): the old values are dropped, the answers are the new
    // game's.
    entry(
        &mut s,
        "game Kayles(n) = { Kayles(a) + Kayles(n - 2 - a) for a in 0..=n - 2 }",
    );
    assert!(s.state_count() < kept, "the old values are dropped");
    assert_eq!(
        entry(&mut s, "[grundy(Kayles(n)) for n in 0..12]"),
        "[grundy(Kayles(n)) for n in 0..12] = [0, 0, 1, 1, 2, 0, 3, 1, 1, 0, 3, 3]\n"
    );
}

#[test]
fn editing_a_game_drops_the_values_of_the_games_that_use_it() {
    let mut s = Session::default();
    entry(
        &mut s,
        "game B(n) = { B(k) for k in 0..n }\ngame A(n) = { B(n) + B(1) }\n\
         game C(n) = { C(n - 1) if n > 0\n C(k) for k in 0..n - 1 }",
    );
    // A(n) has one option, B(n) + B(1), of value n ^ 1: A(n) = 1 only for n = 1.
    assert_eq!(
        entry(&mut s, "[grundy(A(n)) for n in 0..5]"),
        "[grundy(A(n)) for n in 0..5] = [0, 1, 0, 0, 0]\n"
    );
    assert_eq!(entry(&mut s, "grundy(C(40))"), "grundy(C(40)) = 40\n");
    let c_states = s.state_count();
    // B loses its moves: every B is 0, so A(n) = mex{0} = 1 everywhere.
    entry(&mut s, "game B(n) = { }");
    assert_eq!(
        entry(&mut s, "[grundy(A(n)) for n in 0..5]"),
        "[grundy(A(n)) for n in 0..5] = [1, 1, 1, 1, 1]\n"
    );
    // C is untouched: still stored.
    let before = s.state_count();
    assert_eq!(entry(&mut s, "grundy(C(40))"), "grundy(C(40)) = 40\n");
    assert_eq!(s.state_count(), before);
    assert!(before >= 41 && c_states >= 41);
    // Constants a game uses count as what it depends on.
    entry(
        &mut s,
        "let S = [1, 2]\ngame Sub(n) = { Sub(n - s) for s in S if s <= n }",
    );
    assert_eq!(entry(&mut s, "grundy(Sub(10))"), "grundy(Sub(10)) = 1\n");
    entry(&mut s, "let S = [1, 2, 3]");
    assert_eq!(entry(&mut s, "grundy(Sub(10))"), "grundy(Sub(10)) = 2\n");
}

#[test]
fn a_rejected_entry_changes_nothing() {
    let mut s = Session::default();
    entry(
        &mut s,
        "game Nim(n) = { Nim(k) for k in 0..n }\ngame Twice(n) = { Nim(n) + Nim(n) }",
    );
    // Nim with two parameters would break Twice: the whole entry is refused.
    let out = entry(&mut s, "game Nim(a, b) = { Nim(a - 1, b) if a > 0 }");
    assert!(out.starts_with("error:"), "{out}");
    assert_eq!(entry(&mut s, "grundy(Nim(5))"), "grundy(Nim(5)) = 5\n");
    let names: Vec<String> = s.definitions().into_iter().map(|d| d.name).collect();
    assert_eq!(names, ["Nim", "Twice"]);
}

#[test]
fn ctrl_c_interrupts_and_the_session_stays_consistent() {
    for limits in [
        Limits::default(),
        Limits {
            kernels: false,
            fill: false,
            ..Limits::default()
        },
    ] {
        let kernels = limits.kernels;
        let mut s = Session::new(limits);
        // `n * n >= 0` keeps the game from being read as a subtraction game,
        // whose period would answer at once.
        entry(
            &mut s,
            "game S(n) = { S(n - k) for k in [1, 2] if k <= n and n * n >= 0 }",
        );
        // Keep pressing Ctrl-C until the entry stops.
        let flag = s.cancel_flag();
        let done = Arc::new(AtomicBool::new(false));
        let presser = {
            let (flag, done) = (flag.clone(), done.clone());
            std::thread::spawn(move || {
                while !done.load(Ordering::Relaxed) {
                    flag.store(true, Ordering::Relaxed);
                    std::thread::sleep(std::time::Duration::from_millis(1));
                }
            })
        };
        let n = if kernels { 3_000_000 } else { 200_000 };
        let mut events = Vec::new();
        let summary = s.entry(
            "<test>",
            &format!("print grundy(S({n}))\nprint grundy(S(1))"),
            &mut |_, e| events.push(e),
        );
        done.store(true, Ordering::Relaxed);
        presser.join().expect("the presser thread ends");
        assert!(summary.interrupted, "kernels {kernels}: {events:?}");
        assert_eq!(events.len(), 1, "the entry stops at the interruption");
        assert!(matches!(&events[0], Event::Interrupted(d) if d.code.as_str() == "interrupted"));
        // Asked again, the answer is right (S(n) = n mod 3) and so are the
        // values around it.
        let deep = n.min(100_000);
        let got = entry(
            &mut s,
            &format!("[grundy(S(x)) for x in [{deep}, 7, 8, 9, {}]]", deep - 1),
        );
        assert!(
            got.ends_with(&format!("= [{}, 1, 2, 0, {}]\n", deep % 3, (deep - 1) % 3)),
            "{got}"
        );
    }
}

#[test]
fn completion_offers_what_can_come_next() {
    std::env::set_current_dir(root()).expect("cd to the crate");
    let mut repl = Repl::new(Limits::default(), Style::Plain);
    let mut out = Transcript::default();
    repl.handle(
        "game Kayles(n) = { Kayles(n - 1) if n > 0 }\nlet KMAX = 9\ngame Nim(n) = { Nim(k) for k in 0..n }",
        &mut out,
    );
    let complete = |line: &str| {
        let (start, names) = repl.complete(line, line.len());
        (start, names)
    };
    // Names: games, constants, builtins and keywords, by prefix.
    assert_eq!(complete("K"), (0, vec!["KMAX".into(), "Kayles".into()]));
    assert_eq!(complete("grundy(Kay"), (7, vec!["Kayles".into()]));
    assert_eq!(complete("Nim(3) + N"), (9, vec!["Nim".into()]));
    assert_eq!(complete("win"), (0, vec!["winning".into()]));
    assert_eq!(
        complete("for x i"),
        (
            6,
            vec![
                "if".into(),
                "in".into(),
                "input_ints".into(),
                "input_lines".into(),
                "input_tokens".into(),
                "insert".into(),
                "int".into(),
                "is_infinite".into(),
                "isqrt".into()
            ]
        )
    );
    assert_eq!(complete("12"), (2, vec![]));
    // Commands, help topics, names to show, files to load.
    assert_eq!(complete(":re"), (0, vec![":reload".into()]));
    assert_eq!(complete(":help q"), (6, vec!["queries".into()]));
    assert_eq!(complete(":show Ka"), (6, vec!["Kayles".into()]));
    let (start, files) = complete(":load examples/ka");
    assert_eq!((start, files), (6, vec!["examples/kayles.game".into()]));
    let (_, dirs) = complete(":load ex");
    assert_eq!(dirs, vec!["examples/".to_string()]);
    // Completion in the middle of a line looks at the word before the cursor.
    assert_eq!(repl.complete("Ni + Kayles(2)", 2), (0, vec!["Nim".into()]));
}

#[test]
fn highlighting_marks_words_without_changing_the_text() {
    use grundy::repl::Token;
    let mut repl = Repl::new(Limits::default(), Style::Plain);
    repl.handle(
        "game G(n) = { G(n - 1) if n > 0 }",
        &mut Transcript::default(),
    );
    let line = "check grundy(G(12)) == 0 for n in 0..3 # ok";
    let tokens = repl.tokens(line);
    let words: Vec<(&str, Token)> = tokens.iter().map(|(r, t)| (&line[r.clone()], *t)).collect();
    assert_eq!(
        words,
        [
            ("check", Token::Keyword),
            ("grundy", Token::Builtin),
            ("G", Token::Game),
            ("12", Token::Number),
            ("0", Token::Number),
            ("for", Token::Keyword),
            ("in", Token::Keyword),
            ("0", Token::Number),
            ("3", Token::Number),
            ("# ok", Token::Comment),
        ]
    );
    // Spans are in order, never overlap, and fall on character boundaries.
    let line = "Gé(1) + G(2) # é";
    let mut at = 0;
    for (r, _) in repl.tokens(line) {
        assert!(r.start >= at && line.get(r.clone()).is_some());
        at = r.end;
    }
    assert_eq!(repl.tokens(":load x"), [(0..5, Token::Command)]);
}

#[test]
fn a_name_defined_twice_in_one_entry_is_an_error() {
    let mut s = Session::default();
    entry(&mut s, "game G(n) = { }");
    let out = entry(&mut s, "game G(n) = { G(n - 1) if n > 0 }\ngame G(n) = { }");
    assert_eq!(out, "error: `G` is defined twice\n");
    // Redefining a name from an earlier entry is not.
    assert_eq!(
        entry(&mut s, "game G(n) = { G(n - 1) if n > 0 }\nG(5)"),
        "G(5): first player wins (N), grundy 1\n"
    );
}

#[test]
fn reload_reports_what_changed_in_the_file() {
    let dir = std::env::temp_dir().join(format!("grundy-reload-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let file = dir.join("rules.game");
    let path = file.display().to_string();
    std::fs::write(
        &file,
        "let S = [1, 2]\ngame Sub(n) = { Sub(n - s) for s in S if s <= n }\ngame Old(n) = { }\n",
    )
    .expect("write");
    let mut repl = Repl::new(Limits::default(), Style::Plain);
    let mut out = Transcript::default();
    repl.handle(&format!(":load {path}"), &mut out);
    assert_eq!(out.text, format!("loaded {path}: S, Sub(n), Old(n)\n"));
    let mut out = Transcript::default();
    repl.handle("grundy(Sub(10))", &mut out);
    assert_eq!(out.text, "grundy(Sub(10)) = 1\n");

    // Edit the file: a new set, Old gone, New added, Sub as it was.
    std::fs::write(
        &file,
        "let S = [1, 2, 3]\ngame Sub(n) = { Sub(n - s) for s in S if s <= n }\ngame New(n) = { New(n - 1) if n > 0 }\nprint grundy(Sub(10))\n",
    )
    .expect("write");
    let mut out = Transcript::default();
    repl.handle(":reload", &mut out);
    assert_eq!(
        out.text,
        format!(
            "grundy(Sub(10)) = 2\nreloaded {path}: changed S, added New, removed Old, unchanged Sub\n"
        )
    );
    let names: Vec<String> = repl
        .session()
        .definitions()
        .into_iter()
        .map(|d| d.name)
        .collect();
    assert_eq!(names, ["S", "Sub", "New"]);

    // A file that no longer checks leaves the session as it was.
    std::fs::write(&file, "game Sub(n) = { Sub(n - s) for s in T if s <= n }\n").expect("write");
    let mut out = Transcript::default();
    repl.handle(":reload", &mut out);
    assert!(out.text.contains("unknown name `T`"), "{}", out.text);
    assert!(
        out.text.ends_with(&format!(
            "{path}: not reloaded (errors above); the old definitions stay\n"
        )),
        "{}",
        out.text
    );
    let mut out = Transcript::default();
    repl.handle("grundy(Sub(10)) + grundy(New(3))", &mut out);
    assert_eq!(out.text, "grundy(Sub(10)) + grundy(New(3)) = 3\n");
}

/// Keeps pressing Ctrl-C (setting the flag) while `f` runs.
fn pressing_ctrl_c<T>(flag: Arc<AtomicBool>, f: impl FnOnce() -> T) -> T {
    let done = Arc::new(AtomicBool::new(false));
    let presser = {
        let done = done.clone();
        std::thread::spawn(move || {
            while !done.load(Ordering::Relaxed) {
                flag.store(true, Ordering::Relaxed);
                std::thread::sleep(std::time::Duration::from_millis(1));
            }
        })
    };
    let out = f();
    done.store(true, Ordering::Relaxed);
    presser.join().expect("the presser thread ends");
    out
}

#[test]
fn an_interrupted_constant_is_evaluated_again_and_a_stray_ctrl_c_is_ignored() {
    let mut s = Session::default();
    let flag = s.cancel_flag();
    let slow = "let x = any(n < 0 for n in 0..10**6)\nprint 1";
    let out = pressing_ctrl_c(flag.clone(), || entry(&mut s, slow));
    // The statements after an interrupted constant do not run.
    assert_eq!(out, "error: interrupted\n");
    assert_eq!(s.constant("x"), None);
    // The next entry evaluates it again, undisturbed.
    assert_eq!(entry(&mut s, "x"), "x = false\n");
    // A press that nobody consumed does not stop the next entry.
    flag.store(true, Ordering::Relaxed);
    assert_eq!(entry(&mut s, "let y = 6 * 7\ny"), "y = 42\n");
    // A constant that failed for good is reported again when entered again,
    // and not on every later entry.
    assert!(entry(&mut s, "let z = 1 / 0").starts_with("error: division by zero"));
    assert_eq!(entry(&mut s, "1 + 1"), "1 + 1 = 2\n");
    assert!(entry(&mut s, "let z = 1 / 0").starts_with("error: division by zero"));
}

fn grundy_piped(args: &[&str], input: impl AsRef<[u8]>) -> (String, String, i32) {
    use std::io::Write;
    let mut child = Command::new(env!("CARGO_BIN_EXE_grundy"))
        .args(args)
        .current_dir(root())
        .env("GRUNDY_HISTORY", "")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("grundy starts");
    child
        .stdin
        .take()
        .expect("stdin")
        .write_all(input.as_ref())
        .expect("write stdin");
    let out = child.wait_with_output().expect("grundy ends");
    (
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
        out.status.code().unwrap_or(-1),
    )
}

#[test]
fn piped_input_runs_as_a_script() {
    let (out, err, code) = grundy_piped(
        &[],
        "game Nim(n) = {\n  Nim(k) for k in 0..n\n}\nNim(3) + Nim(5)\n:quit\nNim(1)\n",
    );
    assert_eq!(
        out,
        "defined Nim(n)\nNim(3) + Nim(5): first player wins (N), grundy 6\n"
    );
    assert_eq!((err.as_str(), code), ("", 0));

    // `repl FILE` loads it first; an error makes the exit code 2 and the
    // script goes on.
    let (out, err, code) =
        grundy_piped(&["repl", "examples/nim.game"], "Nimm(3)\nNim(4) + Nim(4)\n");
    assert!(out.contains("loaded examples/nim.game: Nim(n)"), "{out}");
    assert!(
        out.ends_with("Nim(4) + Nim(4): second player wins (P), grundy 0\n"),
        "{out}"
    );
    assert!(
        err.contains("<repl:1>") && err.contains("did you mean `Nim`?"),
        "{err}"
    );
    assert_eq!(code, 2);

    // An entry left open at the end of input is reported.
    let (_, err, code) = grundy_piped(&[], "game G(n) = {\n");
    assert!(err.contains("grundy::syntax"), "{err}");
    assert_eq!(code, 2);

    // A syntax error inside an open bracket is reported at once, and the
    // lines after it are entries of their own.
    let (out, err, code) = grundy_piped(&[], "print (1 +* 2\nprint 3\n");
    assert!(err.contains("expected an expression, found `*`"), "{err}");
    assert_eq!((out.as_str(), code), ("3 = 3\n", 2));

    // An indented line continues the entry before it, as in a file.
    let (out, err, code) =
        grundy_piped(&[], "let x =\n  5\ncheck x + n > 4\n    for n in 0..3\nx\n");
    assert_eq!(out, "x = 5\ncheck x + n > 4: ok (3 cases)\nx = 5\n");
    assert_eq!((err.as_str(), code), ("", 0));

    // Bytes that are not UTF-8 are an error, not the end of the script.
    let (out, err, code) = grundy_piped(&[], b"1 + 1\n\xff\n2 + 2\n");
    assert!(
        out.starts_with("1 + 1 = 2\n") && out.ends_with("2 + 2 = 4\n"),
        "{out}"
    );
    assert!(err.contains("grundy::syntax"), "{err}");
    assert_eq!(code, 2);

    // `--json` starts in JSON mode.
    let (out, _, code) = grundy_piped(&["repl", "--json"], "6 * 7\n");
    assert_eq!(
        out,
        "{\"expr\":\"6 * 7\",\"kind\":\"value\",\"label\":\"6 * 7\",\"schema_version\":1,\"text\":\"42\",\"value\":42}\n"
    );
    assert_eq!(code, 0);
}

/// Waits for an empty prompt: the editor is reading keys again (typing
/// earlier could be lost while the terminal switches modes).
fn ready(p: &mut rexpect::session::PtySession, what: &str) {
    p.exp_string("grundy> \r\x1b[8C").expect(what);
}

/// Types keys into the terminal (rexpect buffers writes).
fn keys(p: &mut rexpect::session::PtySession, text: &str, what: &str) {
    p.send(text).expect(what);
    p.flush().expect(what);
}

#[test]
fn a_real_terminal_session() {
    use rexpect::session::spawn_command;
    let dir = std::env::temp_dir().join(format!("grundy-pty-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let history = dir.join("history");
    let _ = std::fs::remove_file(&history);
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_grundy"));
    cmd.current_dir(root())
        .env("GRUNDY_HISTORY", &history)
        .env("TERM", "xterm")
        .args(["repl", "examples/kayles.game"]);
    let mut p = spawn_command(cmd, Some(120_000)).expect("spawn in a pty");
    p.exp_string("loaded examples/kayles.game").expect("loads");
    ready(&mut p, "first prompt");

    // Tab completes a game name.
    keys(&mut p, "Kay", "type");
    keys(&mut p, "\t", "tab");
    keys(&mut p, "(7) + Kayles(9)\r", "enter");
    p.exp_string("Kayles(7) + Kayles(9): first player wins (N), grundy 6")
        .expect("completed and answered");
    ready(&mut p, "prompt after an answer");

    // Tab twice lists the candidates, each with what it is; `help` helps.
    keys(&mut p, "p", "type");
    keys(&mut p, "\t", "tab");
    std::thread::sleep(std::time::Duration::from_millis(100));
    keys(&mut p, "\t", "second tab");
    p.exp_string("period(G)  pre-period and period")
        .expect("period listed with its signature");
    p.exp_string("ppositions(G, 0..=30)  the positions whose value is 0")
        .expect("ppositions listed with its signature");
    keys(&mut p, "\x15help\r", "clear the line, then help");
    p.exp_string("Type definitions and statements")
        .expect("bare help prints help");
    ready(&mut p, "prompt after help");

    // An open brace asks for more lines.
    keys(&mut p, "game G(n) = {\r", "first line");
    keys(&mut p, "  G(n - 1) if n > 0\r", "second line");
    keys(&mut p, "}\r", "closing line");
    p.exp_string("defined G(n)").expect("multi-line definition");
    ready(&mut p, "prompt after a definition");

    // Ctrl-C stops a long computation, and the session goes on.
    keys(
        &mut p,
        "check grundy(G(n % 2)) == n % 2 for n in 0..10**15\r",
        "long check",
    );
    std::thread::sleep(std::time::Duration::from_millis(300));
    p.send_control('c').expect("ctrl-c");
    p.exp_string("interrupted").expect("interrupted");
    p.exp_string("lines typed while it ran, if any, were dropped with it")
        .expect("a word on what was typed ahead");
    ready(&mut p, "prompt after an interruption");
    keys(&mut p, "6 * 7\r", "next entry");
    p.exp_string("6 * 7 = 42").expect("still running");
    ready(&mut p, "prompt after an answer");

    // Lines typed ahead or pasted (no bracketed paste) in one burst: none
    // is lost, none mangled.
    keys(
        &mut p,
        "let b1 = 1\rlet b2 = 2\rlet b3 = 3\rb1 + b2 + b3\r",
        "type-ahead",
    );
    p.exp_string("b1 + b2 + b3 = 6")
        .expect("every typed-ahead line ran");
    ready(&mut p, "prompt after type-ahead");
    let paste: String = (1..=41).map(|i| format!("let c{i} = {i}\r")).collect();
    keys(&mut p, &format!("{paste}c1 + c20 + c41\r"), "paste");
    p.exp_string("c1 + c20 + c41 = 62")
        .expect("every pasted line ran");
    ready(&mut p, "prompt after a paste");

    // Ctrl-C at the prompt clears the line; Ctrl-D leaves.
    keys(&mut p, "garbage", "type");
    p.send_control('c').expect("ctrl-c");
    ready(&mut p, "a cleared prompt");
    keys(&mut p, "1 + 1\r", "enter");
    p.exp_string("1 + 1 = 2").expect("the line was cleared");
    ready(&mut p, "prompt after an answer");
    p.send_control('d').expect("ctrl-d");
    p.exp_eof().expect("exits");

    let saved = std::fs::read_to_string(&history).expect("history saved");
    assert!(saved.contains("6 * 7"), "{saved}");

    // No usable home: the REPL runs without history.
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_grundy"));
    cmd.current_dir(root())
        .env_remove("GRUNDY_HISTORY")
        .env_remove("XDG_DATA_HOME")
        .env("HOME", "/proc/no-such-home")
        .env("TERM", "xterm");
    let mut p = spawn_command(cmd, Some(120_000)).expect("spawn in a pty");
    ready(&mut p, "a prompt without a home");
    keys(&mut p, "2 + 2\r", "enter");
    p.exp_string("2 + 2 = 4").expect("answers");
    ready(&mut p, "prompt after an answer");
    keys(&mut p, ":quit\r", "quit");
    p.exp_eof().expect("exits");
}

/// What a redefinition invalidates comes from name resolution: a local
/// variable named like a constant is not a use of it.
#[test]
fn a_local_named_like_a_constant_is_not_a_use() {
    let mut s = Session::default();
    entry(&mut s, "let k = 5\ngame Nim(n) = { Nim(k) for k in 0..n }");
    assert_eq!(
        entry(&mut s, "grundy(Nim(300))"),
        "grundy(Nim(300)) = 300\n"
    );
    let kept = s.state_count();
    entry(&mut s, "let k = 6");
    assert_eq!(s.state_count(), kept, "Nim's values are kept");
    assert_eq!(
        entry(&mut s, "grundy(Nim(300))"),
        "grundy(Nim(300)) = 300\n"
    );
    // A real use: the game's values go with the constant's old value.
    entry(
        &mut s,
        "game Sub(n) = { Sub(n - s) for s in 1..=k if s <= n }",
    );
    assert_eq!(entry(&mut s, "grundy(Sub(20))"), "grundy(Sub(20)) = 6\n");
    let with_sub = s.state_count();
    entry(&mut s, "let k = 2");
    assert!(s.state_count() < with_sub, "Sub's values are dropped");
    assert_eq!(entry(&mut s, "grundy(Sub(20))"), "grundy(Sub(20)) = 2\n");
}

/// A terminal read without rexpect's 100 ms polling: a thread blocks on the
/// pseudo-terminal and hands over what it reads, so arrival times are exact.
struct Term {
    _process: rexpect::process::PtyProcess,
    input: std::fs::File,
    output: std::sync::mpsc::Receiver<Vec<u8>>,
    seen: Vec<u8>,
}

impl Term {
    fn spawn(cmd: Command) -> Term {
        use std::io::Read;
        let process = rexpect::process::PtyProcess::new(cmd).expect("spawn in a pty");
        let input = process.get_file_handle().expect("pty");
        let mut reader = process.get_file_handle().expect("pty");
        let (tx, output) = std::sync::mpsc::channel();
        std::thread::spawn(move || {
            let mut buf = [0u8; 4096];
            while let Ok(n) = reader.read(&mut buf) {
                if n == 0 || tx.send(buf[..n].to_vec()).is_err() {
                    break;
                }
            }
        });
        Term {
            _process: process,
            input,
            output,
            seen: Vec::new(),
        }
    }

    fn send(&mut self, bytes: &[u8]) {
        use std::io::Write;
        self.input.write_all(bytes).expect("write to the pty");
        self.input.flush().expect("flush the pty");
    }

    /// Waits for the process to end: how it ended, as text
    /// (`Exited(Pid(..), CODE)`; nix's type is not re-exported).
    fn wait(&mut self) -> String {
        format!("{:?}", self._process.wait().expect("wait"))
    }

    /// Reads what is left until the output closes.
    fn drain(&mut self) {
        while let Ok(bytes) = self.output.recv_timeout(std::time::Duration::from_secs(5)) {
            self.seen.extend(bytes);
        }
    }

    /// Reads until `needle`, consuming through it; when it arrived.
    fn expect(&mut self, needle: &str) -> std::time::Instant {
        // A hang net, not a timing claim: a loaded machine is slow, not wrong.
        let deadline = std::time::Instant::now() + std::time::Duration::from_secs(120);
        loop {
            if let Some(at) = self
                .seen
                .windows(needle.len())
                .position(|w| w == needle.as_bytes())
            {
                self.seen.drain(..at + needle.len());
                return std::time::Instant::now();
            }
            let left = deadline.saturating_duration_since(std::time::Instant::now());
            match self.output.recv_timeout(left) {
                Ok(bytes) => self.seen.extend(bytes),
                Err(_) => panic!("no {needle:?} in {:?}", String::from_utf8_lossy(&self.seen)),
            }
        }
    }
}

/// `grundy FILE` on a terminal: a long statement shows its progress after a
/// second; Ctrl-C ends it with "interrupted" (the progress line cleared
/// first), skips the statements after it, and exits with 130 (bench/run.sh
/// measures how soon).
#[test]
fn a_long_file_shows_progress_and_ctrl_c_ends_it() {
    use std::time::Instant;
    let dir = std::env::temp_dir().join(format!("grundy-ctrlc-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("long.game");
    std::fs::write(
        &file,
        "game G(n) = { G(a) + G(n - a) for a in 1..n if 2 * a < n }\n\
         print 6 * 7\nprint grundy(G(10**7))\nprint 7 * 8\n",
    )
    .unwrap();
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_grundy"));
    cmd.env("TERM", "xterm")
        .args(["--period-budget", "0"])
        .arg(&file);
    let mut t = Term::spawn(cmd);
    t.expect("6 * 7 = 42");
    t.expect("(Ctrl-C stops)");
    let pressed = Instant::now();
    t.send(b"\x03");
    let stopped = t.expect("interrupted");
    let status = t.wait();
    // How soon is measured in bench/run.sh; this run's figure, for the log.
    println!("Ctrl-C to report: {:?}", stopped - pressed);
    assert!(
        status.starts_with("Exited(") && status.ends_with(", 130)"),
        "{status}"
    );
    // The line was cleared before the report, and nothing ran after it.
    t.drain();
    let rest = String::from_utf8_lossy(&t.seen).to_string();
    assert!(!rest.contains("7 * 8"), "{rest}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// A long entry shows its progress on the terminal after a second, and
/// Ctrl-C brings the prompt back, three times over (bench/run.sh measures
/// how soon).
#[test]
fn a_long_entry_shows_progress_and_stops_at_once() {
    use std::time::{Duration, Instant};
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_grundy"));
    cmd.current_dir(root())
        .env("GRUNDY_HISTORY", "")
        .env("TERM", "xterm")
        .args(["repl", "--period-budget", "0"]);
    let mut t = Term::spawn(cmd);
    let prompt = "grundy> \r\x1b[8C";
    t.expect(prompt);
    t.send(b"game G(n) = { G(a) + G(n - a) for a in 1..n if 2 * a < n }\r");
    t.expect("defined G(n)");
    t.expect(prompt);
    let mut best = Duration::MAX;
    for (i, n) in ["10**7", "10**7 + 1", "10**7 + 2"].iter().enumerate() {
        t.send(format!("grundy(G({n}))\r").as_bytes());
        if i == 0 {
            t.expect("positions");
            t.expect("(Ctrl-C stops)");
        } else {
            std::thread::sleep(Duration::from_millis(300));
        }
        let pressed = Instant::now();
        t.send(b"\x03");
        t.expect("interrupted");
        let back = t.expect(prompt);
        best = best.min(back - pressed);
    }
    // How soon is measured in bench/run.sh; this run's figure, for the log.
    println!("Ctrl-C to prompt: {best:?} (best of three)");
    t.send(b"6 * 7\r");
    t.expect("6 * 7 = 42");
    t.expect(prompt);
    t.send(b"\x04");
}

/// `:limit time` is `--time-limit` for the entries that follow: the limit
/// ends a long entry with what it had done by then.
#[test]
fn a_time_limit_set_in_the_repl_ends_long_entries() {
    let mut repl = Repl::new(
        Limits {
            period_budget: 0,
            max_work: 0,
            ..Limits::default()
        },
        Style::Plain,
    );
    let mut out = Transcript::default();
    repl.handle(":limit", &mut out);
    repl.handle(":limit time 0.2", &mut out);
    repl.handle(
        "game G(n) = { G(a) + G(n - a) for a in 1..n if 2 * a < n }",
        &mut out,
    );
    repl.handle("grundy(G(10**7))", &mut out);
    repl.handle(":limit time off", &mut out);
    repl.handle(":limit time soon", &mut out);
    repl.handle("grundy(G(1000))", &mut out);
    let text = &out.text;
    assert!(
        text.contains("time limit: none\ntime limit: 0.2 s per entry\n"),
        "{text}"
    );
    assert!(text.contains("ran longer than 0.2 s"), "{text}");
    assert!(text.contains("by then it had looked at"), "{text}");
    assert!(
        text.contains("the values of G were known up to n = "),
        "{text}"
    );
    assert!(
        text.contains("time limit: none\nerror: `:limit time` takes seconds or `off`, not `soon`"),
        "{text}"
    );
    assert!(
        text.contains("grundy(G(1000)) = "),
        "the session goes on: {text}"
    );
}
