//! Hostile input, through the real binary: each input here once crashed,
//! hung or exhausted memory. Each must now end in a clean diagnostic or the
//! right answer (exit 0 or 2, no signal, no panic, no allocation failure)
//! within 10 seconds under a 4 GB address-space cap.

use std::io::Write;
use std::path::PathBuf;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

struct Run {
    code: i32,
    stdout: String,
    stderr: String,
}

/// Runs the binary under `ulimit -v 4 GB`, killing it after 10 seconds.
fn bounded(args: &[&str], stdin: &str) -> Run {
    let mut child = Command::new("sh")
        .arg("-c")
        .arg("ulimit -v 4194304 && exec \"$0\" \"$@\"")
        .arg(env!("CARGO_BIN_EXE_grundy"))
        .args(args)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("sh runs");
    let mut input = child.stdin.take().expect("stdin");
    let stdin = stdin.to_string();
    let writer = std::thread::spawn(move || {
        let _ = input.write_all(stdin.as_bytes());
    });
    let out = child.stdout.take().expect("stdout");
    let err = child.stderr.take().expect("stderr");
    let read = |mut r: Box<dyn std::io::Read + Send>| {
        std::thread::spawn(move || {
            let mut s = Vec::new();
            let _ = r.read_to_end(&mut s);
            String::from_utf8_lossy(&s).into_owned()
        })
    };
    let (out, err) = (read(Box::new(out)), read(Box::new(err)));
    let start = Instant::now();
    let status = loop {
        if let Some(status) = child.try_wait().expect("wait") {
            break status;
        }
        if start.elapsed() > Duration::from_secs(10) {
            let _ = child.kill();
            let _ = child.wait();
            panic!("grundy {args:?} did not finish within 10 seconds");
        }
        std::thread::sleep(Duration::from_millis(10));
    };
    let _ = writer.join();
    let run = Run {
        code: status.code().unwrap_or(-1),
        stdout: out.join().expect("stdout"),
        stderr: err.join().expect("stderr"),
    };
    assert!(
        run.code == 0 || run.code == 2,
        "grundy {args:?} exited with {status:?}\n{}",
        run.stderr
    );
    for bad in [
        "panicked",
        "internal error",
        "memory allocation",
        "overflowed",
    ] {
        assert!(!run.stderr.contains(bad), "{args:?}: {}", run.stderr);
    }
    run
}

fn temp_file(name: &str, contents: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("grundy-hostile-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let path = dir.join(name);
    std::fs::write(&path, contents).expect("write temp file");
    path
}

/// Runs a source text as a file.
fn run_text(name: &str, text: &str, options: &[&str]) -> Run {
    let path = temp_file(name, text);
    let mut args: Vec<&str> = options.to_vec();
    args.push(path.to_str().expect("utf-8 path"));
    bounded(&args, "")
}

#[test]
fn deep_operator_chains_are_rejected_before_any_recursion() {
    let sum = format!("print 1{}\n", " + 1".repeat(400_000));
    let neg = format!("print {}1\n", "-".repeat(700_000));
    let and = format!("check true{}\n", " and true".repeat(300_000));
    let elif = format!("print {}2\n", "if false then 1 else ".repeat(100_000));
    let pow = format!("print 1{}\n", " ** 1".repeat(100_000));
    for (name, text) in [
        ("sum", sum),
        ("neg", neg),
        ("and", and),
        ("elif", elif),
        ("pow", pow),
    ] {
        let run = run_text(&format!("{name}.game"), &text, &[]);
        assert_eq!(run.code, 2, "{name}: {}", run.stderr);
        assert!(
            run.stderr.contains("nested more than 50000 operators deep"),
            "{name}: {}",
            run.stderr
        );
        // A long line is not quoted; its position is.
        assert!(
            run.stderr.contains(&format!("{name}.game:1:")),
            "{}",
            run.stderr
        );
        assert!(
            run.stderr.len() < 2000,
            "{name}: {} bytes",
            run.stderr.len()
        );
    }
    // The same in the REPL and in `check`.
    let run = bounded(
        &["repl"],
        &format!("print 1{}\nprint 2\n", " + 1".repeat(400_000)),
    );
    assert!(run.stderr.contains("nested more than"), "{}", run.stderr);
    assert!(run.stdout.contains("2"), "{}", run.stdout);
    let path = temp_file(
        "check.game",
        &format!("check true{}\n", " and true".repeat(300_000)),
    );
    let run = bounded(&["check", path.to_str().expect("utf-8")], "");
    assert_eq!(run.code, 2);
}

#[test]
fn chains_just_inside_the_limit_are_evaluated() {
    let n = 49_990;
    let text = format!(
        "print 0{}\ncheck true{}\nprint {}2\nprint {}1\n",
        " + 1".repeat(n),
        " and true".repeat(n),
        "if false then 1 else ".repeat(n),
        "- ".repeat(n),
    );
    let run = run_text("inside.game", &text, &[]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let lines: Vec<&str> = run.stdout.lines().collect();
    assert!(lines[0].ends_with(&format!("= {n}")), "{}", lines[0]);
    assert!(lines[1].contains("ok"), "{}", lines[1]);
    assert!(lines[2].ends_with("= 2"));
    assert!(lines[3].ends_with("= 1"));
}

#[test]
fn nested_brackets_parse_in_linear_time() {
    // Each level once cost 3.4 times the one inside it.
    let lists = format!("print {}1{}\n", "[".repeat(30), "]".repeat(30));
    let run = run_text("lists.game", &lists, &[]);
    assert!(
        run.stdout
            .ends_with(&format!("= {}1{}\n", "[".repeat(30), "]".repeat(30)))
    );
    let calls = format!("print {}-1{}\n", "len([abs(".repeat(40), ")])".repeat(40));
    let run = run_text("calls.game", &calls, &[]);
    assert!(run.stdout.ends_with("= 1\n"), "{}", run.stdout);
    let comps = format!(
        "print {}1{}\n",
        "sum([x for x in [".repeat(30),
        "]])".repeat(30)
    );
    let run = run_text("comps.game", &comps, &[]);
    assert!(run.stdout.ends_with("= 1\n"), "{}", run.stdout);
}
