//! Hostile input, through the real binary: each input here once crashed,
//! hung or exhausted memory. Each must now end in a clean diagnostic or the
//! right answer (exit 0 or 2, no signal, no panic, no allocation failure)
//! under a 4 GB address-space cap. Tests assert what was computed, never
//! how long it took (a loaded machine is slow, not wrong): a run still going
//! after two minutes is a hang.

use std::io::Write;
use std::path::PathBuf;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

struct Run {
    code: i32,
    stdout: String,
    stderr: String,
}

/// A run still going after this long is a hang, not a slow machine.
const HANG_NET: Duration = Duration::from_secs(120);

/// Runs the binary under `ulimit -v 4 GB`, killing it at the hang net.
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
        if start.elapsed() > HANG_NET {
            let _ = child.kill();
            let _ = child.wait();
            panic!("grundy {args:?} hung (still running after {HANG_NET:?})");
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
    assert_eq!(lines[0], n.to_string());
    assert!(lines[1].contains("ok"), "{}", lines[1]);
    assert_eq!(lines[2], "2");
    assert_eq!(lines[3], "1");
}

/// Function calls nest past the old fixed bound (10000) on fresh segments
/// of stack, with bodies that recurse through generators and
/// comprehensions; in a recursion without end, a clean depth-limit
/// diagnostic, or a memory-limit one when the stack would pass the limit.
#[test]
fn function_calls_nest_to_their_limit_and_no_further() {
    let text = "let f(n) = if n == 0 then 0 else \
                max([sum(f(n - 1) + k * 0 for k in 0..1 if k >= 0) for j in [1]]) + 1\n\
                let g(n) = if n == 0 then [0] else [len(g(n - 1)) + min(x for x in g(n - 1))]\n\
                print f(30000)\nprint g(30000)\n";
    let run = run_text("deep_calls.game", text, &[]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert_eq!(run.stdout, "f(30000) = 30000\ng(30000) = [30000]\n");
    for text in [
        "let f(n) = f(n + 1)\nprint f(0)\n",
        "let f(n) = if n == 0 then 0 else f(n - 1) + 1\nprint f(100000)\n",
        "let f(n) = g(n)[0] + 1\nlet g(n) = [f(n)]\nprint f(1)\n",
    ] {
        let run = run_text("endless.game", text, &["--max-depth", "50000"]);
        assert_eq!(run.code, 2, "{text}: {}", run.stdout);
        assert!(run.stderr.contains("depth-limit"), "{text}: {}", run.stderr);
    }
    // Generator bodies take the most stack a level: 64 MB ends it.
    let text = "let f(n) = 1 + max([sum(f(n + 1) for k in 0..1) for j in [1]])\nprint f(0)\n";
    let run = run_text("endless.game", text, &["--max-memory", "64M"]);
    assert_eq!(run.code, 2, "{}", run.stdout);
    assert!(run.stderr.contains("memory-limit"), "{}", run.stderr);
}

#[test]
fn nested_brackets_parse_in_linear_time() {
    // Each level once cost 3.4 times the one inside it.
    let lists = format!("print {}1{}\n", "[".repeat(30), "]".repeat(30));
    let run = run_text("lists.game", &lists, &[]);
    assert!(
        run.stdout
            .ends_with(&format!("{}1{}\n", "[".repeat(30), "]".repeat(30)))
    );
    let calls = format!("print {}-1{}\n", "len([abs(".repeat(40), ")])".repeat(40));
    let run = run_text("calls.game", &calls, &[]);
    assert_eq!(run.stdout, "1\n");
    let comps = format!(
        "print {}1{}\n",
        "sum([x for x in [".repeat(30),
        "]])".repeat(30)
    );
    let run = run_text("comps.game", &comps, &[]);
    assert_eq!(run.stdout, "1\n");
    // An index that fails to close inside a conditional's `else` was read
    // again as an index of the whole conditional: twice the time per level
    // (found by cargo-fuzz, a 1 KB entry taking 0.75 s to reject).
    let conds = format!("print ({}1\n", "if a then b else c[".repeat(60));
    let run = run_text("conds.game", &conds, &[]);
    assert_eq!(run.code, 2);
    assert!(run.stderr.contains("grundy::syntax"), "{}", run.stderr);
    // Closed, it reads: the `else` takes the index.
    let closed = format!(
        "let c = [0]\nprint {}0{}\n",
        "if false then 1 else c[".repeat(20),
        "]".repeat(20)
    );
    let run = run_text("closed.game", &closed, &[]);
    assert_eq!(run.stdout, "0\n", "{}", run.stderr);
}

#[test]
fn options_go_before_or_after_a_subcommand() {
    let run = bounded(&["--json", "repl", "examples/nim.game"], "");
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(
        run.stdout.lines().all(|l| l.starts_with('{')),
        "{}",
        run.stdout
    );
    let run = bounded(&["--max-states", "5", "check", "examples/nim.game"], "");
    assert_eq!(run.code, 0, "{}", run.stderr);
    let run = bounded(&["check", "--max-states", "5", "examples/nim.game"], "");
    assert_eq!(run.code, 0, "{}", run.stderr);
    let run = bounded(&["--no-kernels", "run", "examples/nim.game"], "");
    assert_eq!(run.code, 0, "{}", run.stderr);
}

#[test]
fn a_failed_write_fails_the_run() {
    if !std::path::Path::new("/dev/full").exists() {
        return;
    }
    let game = temp_file(
        "graph.game",
        "game N(n) = { N(k) for k in 0..n }\nprint graph(N(3))\n",
    );
    let run = bounded(&["--out", "/dev/full", game.to_str().expect("utf-8")], "");
    assert_eq!(run.code, 2, "{}", run.stderr);
    assert!(
        run.stderr.contains("cannot write /dev/full"),
        "{}",
        run.stderr
    );
}

/// Every line of standard output is one JSON object.
fn all_json(stdout: &str) -> Vec<serde_json::Value> {
    stdout
        .lines()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("not JSON ({e}): {l}")))
        .collect()
}

#[test]
fn json_output_is_json_only() {
    // Files that cannot be read.
    let latin1 = temp_file("latin1.game", "");
    std::fs::write(&latin1, b"let x = 1\n# caf\xe9\nprint x\n").expect("write");
    let dir = std::env::temp_dir();
    for (path, code) in [
        ("/nonexistent/x.game", "cannot-read"),
        (dir.to_str().expect("utf-8"), "cannot-read"),
        (latin1.to_str().expect("utf-8"), "not-utf8"),
    ] {
        let run = bounded(&["--json", path], "");
        assert_eq!(run.code, 2);
        let objects = all_json(&run.stdout);
        assert_eq!(objects.len(), 1, "{}", run.stdout);
        assert_eq!(objects[0]["kind"], "error");
        assert_eq!(objects[0]["code"], code, "{}", run.stdout);
    }
    // The bad byte is placed, in text mode too.
    let run = bounded(&[latin1.to_str().expect("utf-8")], "");
    assert!(run.stderr.contains("latin1.game:2:6"), "{}", run.stderr);
    assert!(run.stderr.contains("0xE9"), "{}", run.stderr);
    // REPL commands.
    let run = bounded(
        &["--json", "repl"],
        "game N(n) = { N(k) for k in 0..n }\n:games\n:show N\n:time\nN(3)\n:bogus\n:load /nonexistent\n:help\n",
    );
    let objects = all_json(&run.stdout);
    let kinds: Vec<&str> = objects
        .iter()
        .map(|o| o["kind"].as_str().unwrap_or("?"))
        .collect();
    assert_eq!(
        kinds,
        [
            "definitions",
            "definition",
            "message",
            "outcome",
            "timing",
            "error",
            "error",
            "message"
        ],
        "{}",
        run.stdout
    );
    assert_eq!(objects[5]["code"], "bad-command");
    assert_eq!(objects[6]["code"], "cannot-read");
}

#[test]
fn a_byte_order_mark_is_skipped() {
    let run = run_text("bom.game", "\u{feff}let x = 2\nprint x + 1\n", &[]);
    assert_eq!(run.stdout, "x + 1 = 3\n");
}

#[test]
fn grouped_moves_count_every_move() {
    let src =
        "octal Dawson = 0.07\nsubtraction S = {1, 3, 4}\nprint winning(Dawson(10**15) + S(10))\n";
    let run = run_text("count.game", src, &["--json"]);
    let objects = all_json(&run.stdout);
    // Dawson's heap: one move leaves one heap, (10^15 - 2) / 2 split it;
    // S(10): three moves.
    assert_eq!(
        objects[0]["options"],
        1 + (1_000_000_000_000_000u64 - 2) / 2 + 3
    );
}

#[test]
fn misere_moves_from_a_huge_heap_count_each_sum_once() {
    let src = "game Nim(n) = { Nim(k) for k in 0..n }\n\
        game K(n) = { K(a) + K(n - r - a) for r in 1..=2 for a in 0..=n - r }\n\
        print winning(Nim(10**9) + K(4), misere)\n";
    let run = run_text("misere_count.game", src, &["--json"]);
    let objects = all_json(&run.stdout);
    // The heap: 10^9 moves. Kayles 4: seven moves, four distinct sums
    // (K(3), K(1) + K(2), K(2), K(1) + K(1)).
    assert_eq!(
        objects[0]["options"],
        1_000_000_000u64 + 4,
        "{}",
        run.stdout
    );
}

#[test]
fn an_error_in_a_period_search_does_not_decide_the_answer() {
    let src = "game G(n) = { G(n - 2) if n >= 2   G(n + 2) if n == 3 }\nprint grundy(G(2000))\n";
    for opts in [&[][..], &["--no-kernels"], &["--period-budget", "0"]] {
        let run = run_text("modes.game", src, opts);
        assert_eq!(
            run.stdout, "grundy(G(2000)) = 0\n",
            "{opts:?}: {}",
            run.stderr
        );
    }
}

/// Nim with a condition that always holds but hides the moves' shape (`k * k`
/// is not linear): no period answers its huge heaps, whose values run past
/// what grundy holds anyway; each is computed heap by heap.
const NIM: &str = "game Nim(n) = { Nim(k) for k in 0..n if k * k >= 0 }\n";

#[test]
fn long_work_ends_at_the_work_limit() {
    // The state limit alone would let this run for days: 10^18 options,
    // each a new position, each needing all the smaller ones.
    let src = format!("{NIM}print grundy(Nim(10**18))\n");
    // (Without the projection, which stops it first on a slow machine.)
    for opts in [
        &["--max-work", "300000000", "--runaway", "0"][..],
        &["--max-work", "3000000", "--no-kernels", "--runaway", "0"],
    ] {
        let run = run_text("nim18.game", &src, opts);
        assert_eq!(run.code, 2);
        assert!(run.stderr.contains("grundy::work-limit"), "{}", run.stderr);
        assert!(run.stderr.contains("--max-work"), "{}", run.stderr);
    }
    // Each statement has its own budget: the next one runs.
    let src = format!("{NIM}print grundy(Nim(10**18))\nprint grundy(Nim(30))\n");
    let run = run_text(
        "two.game",
        &src,
        &["--max-work", "3000000", "--runaway", "0"],
    );
    assert!(
        run.stdout.contains("grundy(Nim(30)) = 30"),
        "{}",
        run.stdout
    );
}

/// With the default options nothing stops work that is making progress;
/// work projected not to finish stops with the projection in its message,
/// and the statements after it run.
#[test]
fn work_projected_not_to_finish_stops_with_the_projection() {
    for (name, query, loop_) in [
        (
            "nim18.game",
            "print grundy(Nim(10**18))",
            "values of the loop listing the options of the position asked are left",
        ),
        (
            "guarded.game",
            "game F(n) = { F(k) for k in 0..n if k % 3 != 1 }\nprint grundy(F(10**18))",
            "values of the loop listing the options of the position asked are left",
        ),
        (
            "check.game",
            "check r * r >= 0 for r in 1..=10**15",
            "values of this statement's loop are left",
        ),
        (
            "inner.game",
            "check r * s >= 0 for r in 0..3 for s in 0..10**15",
            "values of this statement's loop are left",
        ),
        // Misère play's ascending run over Grundy's game's heaps, each
        // dearer than the last: decades.
        (
            "misere.game",
            "game Gr(n) = { Gr(a) + Gr(n - a) for a in 1..n if 2 * a < n }\n\
             print outcome(Gr(1000000), misere)",
            "heaps of the ascending run in misère play are left",
        ),
        // Steps that grow: 3·10^7 values, the x-th costing x, about 60
        // days in all (past the hour's bound on a machine a thousand times
        // faster); at the cost of the values seen so far, minutes.
        (
            "growing.game",
            "print sum(sum(y for y in 0..x) for x in 0..30000000)",
            // (The note says how much dearer each step is than the one
            // before as measured between samples taken as time passes, or
            // nothing on a loaded machine where a sample shows no growth:
            // the loop it names is what the test reads.)
            "values of this statement's loop are left",
        ),
    ] {
        let src = format!("{NIM}{query}\nprint 6 * 7\n");
        let run = run_text(name, &src, &[]);
        assert_eq!(run.code, 2, "{query}: {}", run.stdout);
        assert!(
            run.stderr.contains("grundy::runaway"),
            "{query}: {}",
            run.stderr
        );
        assert!(
            run.stderr.contains("projected to run for about") && run.stderr.contains(loop_),
            "{query}: {}",
            run.stderr
        );
        assert!(run.stderr.contains("--runaway SECONDS"), "{}", run.stderr);
        assert!(run.stdout.contains("6 * 7 = 42"), "{query}: {}", run.stdout);
    }
    // `--runaway 0` turns the projection off: the time limit ends it instead.
    let run = run_text(
        "off.game",
        &format!("{NIM}print grundy(Nim(10**18))\n"),
        &["--runaway", "0", "--time-limit", "2"],
    );
    assert!(run.stderr.contains("grundy::time-limit"), "{}", run.stderr);
}

#[test]
fn long_work_ends_at_the_time_limit() {
    for (name, query) in [
        ("nim.game", "print grundy(Nim(10**18))"),
        // Not a window of earlier heaps (`k * k` is not affine): each
        // option's value reads all the smaller ones.
        (
            "moves.game",
            "game Sq(n) = { Sq(k) for k in 0..n if k * k != n }\nprint moves(Sq(100000))",
        ),
        (
            // Wild heaps of a game with no quotient to answer (Grundy's
            // game splits into unequal heaps, no octal game): the exact
            // search over their sums (tame ones add at once, and octal
            // games' heaps from their quotient).
            "misere.game",
            "game Gr(n) = { Gr(a) + Gr(n - a) for a in 1..n if 2 * a < n }\n\
             print outcome(Gr(23) + Gr(50) + Gr(77) + Gr(101) + Gr(88) + Gr(64), misere)",
        ),
        ("loop.game", "check r >= 0 for r in 1..=10**9"),
        // A loopy game whose graph never ends: explored until the limit.
        (
            "loopy.game",
            "loopy game U(n) = { U(n + 1)  U(n - 1) if n > 0 }\nprint outcome(U(0))",
        ),
    ] {
        // (Without the projection, which might stop some of these first.)
        // Each would run for minutes: a limit a thousand times shorter
        // ends it on any machine.
        let run = run_text(
            name,
            &format!("{NIM}{query}\n"),
            &["--time-limit", "0.2", "--runaway", "0"],
        );
        assert_eq!(run.code, 2, "{query}: {}", run.stdout);
        assert!(
            run.stderr.contains("grundy::time-limit"),
            "{query}: {}",
            run.stderr
        );
    }
}

/// Every kind of long work looks at the limits: tables filled by kernels
/// (one and two arguments), strings built in a loop.
#[test]
fn every_kind_of_long_work_looks_at_the_time_limit() {
    let wythoff = "game W(a, b) = {\n  W(a - k, b) for k in 1..=a\n  W(a, b - k) for k in 1..=b\n  \
                   W(a - k, b - k) for k in 1..=min(a, b)\n}\n";
    for (name, src) in [
        (
            "batch_table.game",
            "game N2(n) = { N2(k) for k in 0..n if k % 2 == 0 or k == n - 1 }\n\
             print len(table(N2, 0..=200000))\n"
                .to_string(),
        ),
        (
            "grid.game",
            format!("{wythoff}print len(table(W, 0..3000, 0..3000))\n"),
        ),
        (
            "strings.game",
            "let s = join([k for k in 0..200000], \",\")\n\
             print len([1 for i in 0..10**6 if join([s, s], \"\") != \"\"])\n"
                .to_string(),
        ),
        (
            // Recursive calls joining lists, with no loop to poll in.
            "list_calls.game",
            "let big = [k for k in 0..1000000]\n\
             let f(n) = if n == 0 then 0 else len(big + big + big + big) + f(n - 1)\n\
             print f(9000)\n"
                .to_string(),
        ),
    ] {
        // Each runs for half a minute or more here: 0.2 s ends it on a
        // machine a hundred times faster too.
        let run = run_text(name, &src, &["--time-limit", "0.2", "--runaway", "0"]);
        assert_eq!(run.code, 2, "{name}: {}", run.stdout);
        assert!(
            run.stderr.contains("grundy::time-limit"),
            "{name}: {}",
            run.stderr
        );
    }
}

/// A slice is a copy, counted as work as it is made: a loop of slices of
/// a million elements ends at a work limit a million loop values could not
/// reach (counted one a value, it ran for minutes).
#[test]
fn slices_count_their_work() {
    let run = run_text(
        "slices.game",
        "let xs = [k for k in 0..1000000]\n\
         print len([1 for i in 0..10**6 if len(xs[1..1000000]) > 0])\n",
        // (No projection: on a slow machine it could end the run first.)
        &["--max-work", "50000000", "--runaway", "0"],
    );
    assert_eq!(run.code, 2, "{}", run.stdout);
    assert!(run.stderr.contains("grundy::work-limit"), "{}", run.stderr);
}

/// A list shared many times over (`[x, x]` nested 30 deep: 2^31 elements
/// written out, 31 distinct lists) is as large as written out: refused at
/// the list limit where it is built, before printing, passing or comparing
/// it walks every element (once a failed allocation, or minutes unpolled).
#[test]
fn lists_shared_many_times_over_end_at_the_list_limit() {
    let deep = "let deep(n) = if n == 0 then [] else [deep(n - 1), deep(n - 1)]\n";
    for (name, query) in [
        ("print.game", "print deep(30)\n"),
        ("compare.game", "print deep(30) == deep(30)\n"),
        ("call.game", "let f(xs) = 1\nprint f(deep(30))\n"),
        (
            "position.game",
            "game G(xs) = { G(ys) for ys in xs }\nprint grundy(G(deep(30)))\n",
        ),
        ("depth.game", "print len(deep(40))\n"),
        (
            "copies.game",
            "let xs = [k for k in 0..5000000]\nprint len([xs, xs, xs])\n",
        ),
    ] {
        let run = run_text(name, &format!("{deep}{query}"), &["--time-limit", "20"]);
        assert_eq!(run.code, 2, "{name}: {}", run.stdout);
        assert!(
            run.stderr.contains("grundy::list-limit") && run.stderr.contains("in all"),
            "{name}: {}",
            run.stderr
        );
    }
    // Within the limit, shared lists are fine, and counted as written out.
    let run = run_text(
        "within.game",
        &format!("{deep}print len(deep(20))\nprint len([deep(19), deep(19)])\n"),
        &[],
    );
    assert_eq!(
        (run.code, run.stdout.as_str()),
        (0, "len(deep(20)) = 2\nlen([deep(19), deep(19)]) = 2\n"),
        "{}",
        run.stderr
    );
}

/// The moves of a sum of many components are listed in time linear in
/// them (once quadratic in the components, and cubic with the copies).
#[test]
fn the_moves_of_a_sum_of_many_components() {
    let src = format!(
        "{NIM}let big = sum(Nim(k % 50) for k in 0..20000)\n\
         print len(winning(big))\nprint len(moves(big))\n\
         print len(winning(big + Nim(7)))\n"
    );
    let run = run_text("sum.game", &src, &["--time-limit", "20"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    // Each of 0..49 appears 400 times: the values cancel, no winning move;
    // a heap of k has k moves: 400 * (0 + 1 + ... + 49) = 490,000 in all.
    // With a heap of 7 added, a heap k has a winning move exactly when
    // k XOR 7 < k (k has bit 4, the top bit of 7, set): to k XOR 7. The
    // heap of 7 moves to 0. 400 copies of each k.
    let winning_with_7 = 1 + 400 * (0..50).filter(|k: &u32| (k ^ 7) < *k).count();
    assert_eq!(
        run.stdout,
        format!(
            "len(winning(big)) = 0\nlen(moves(big)) = 490000\n\
             len(winning(big + Nim(7))) = {winning_with_7}\n"
        )
    );
}

/// A graph too large to draw is refused when it passes the limit, without
/// first computing the options of every position it lists.
#[test]
fn a_graph_too_large_is_refused_without_listing_everything() {
    let run = run_text(
        "graph.game",
        &format!("{NIM}print graph(Nim(1000000), 5)\n"),
        &[],
    );
    assert_eq!(run.code, 2, "{}", run.stdout);
    assert!(
        run.stderr.contains("grundy::graph-too-large"),
        "{}",
        run.stderr
    );
}

/// Every error has a place in the source (the statement, when nothing in
/// it is nearer), and a position in a note is cut to a readable length.
#[test]
fn every_error_has_a_location_and_short_notes() {
    let src = "loopy game U(n) = { U(n + 1) if n < 3  U(n - 1) if n > 0 }\n\
               game H(n) = { U(n) }\nprint grundy(H(1))\nprint genus(U(1))\n";
    let run = run_text("located.game", src, &["--json"]);
    let lines = all_json(&run.stdout);
    assert_eq!(lines.len(), 2, "{}", run.stdout);
    for (line, at) in lines.iter().zip([3, 4]) {
        assert!(
            line["file"]
                .as_str()
                .is_some_and(|f| f.ends_with("located.game")),
            "{line}"
        );
        assert_eq!(line["line"], at, "{line}");
    }
    assert!(
        lines[1]["help"]
            .as_str()
            .is_some_and(|h| h.contains("a genus needs every play to end")),
        "{}",
        lines[1]
    );
    let src = "game L(xs) = { L([xs[i] for i in 1..len(xs)]) if len(xs) > 0 }\n\
               print grundy(L([k for k in 0..100000]))\n";
    let run = run_text("long.game", src, &["--max-memory", "300M"]);
    assert!(
        run.stderr.contains("grundy::memory-limit"),
        "{}",
        run.stderr
    );
    assert!(run.stderr.contains("characters)"), "{}", run.stderr);
    assert!(run.stderr.len() < 4000, "{}", run.stderr.len());
}

/// A loopy game whose graph never ends stops at the state limit with a
/// clean error, and its positions are not left marked: the next statement
/// asks about a finite part of it.
#[test]
fn a_loopy_graph_ends_at_the_state_limit() {
    let src = "loopy game U(n) = { U(n + 1) if n < 10**9  U(n - 1) if n > 0 }\n\
               loopy game V(n) = { V(n - 1) if n > 0  V(n + 1) if n < 3  0 if n == 3 }\n\
               print outcome(U(0))\nprint outcome(V(3))\n";
    let run = run_text("loopy_states.game", src, &["--max-states", "100000"]);
    assert_eq!(run.code, 2, "{}", run.stdout);
    assert!(run.stderr.contains("grundy::state-limit"), "{}", run.stderr);
    assert_eq!(
        run.stdout,
        "V(3): first player wins (N), the game ends within 1 move, grundy ∞{0}\n"
    );
}

/// The function memo (of recursive functions) counts its keys and its
/// table's growth against the memory limit, and small allocations are counted as the allocator lays
/// them out (resident memory stays near the limit, not half again above it).
#[test]
fn the_function_memo_ends_at_the_memory_limit() {
    for (name, src) in [
        (
            "memo_small.game",
            // Recursive (the call in the branch never taken counts): its
            // calls are memoized.
            "let g(i) = if i < 0 then g(i + 1) else i * 2\nprint sum([g(i) for i in 0..20000000])\n",
        ),
        (
            "memo_lists.game",
            "let f(xs, i) = if i < 0 then f(xs, i + 1) else len(xs) + i\n\
             print sum([f([k for k in 0..100000], i) for i in 0..100000])\n",
        ),
    ] {
        let run = run_text(
            name,
            src,
            &["--max-memory", "256M", "--max-list", "100000000"],
        );
        assert_eq!(run.code, 2, "{name}: {}", run.stdout);
        assert!(
            run.stderr.contains("grundy::memory-limit"),
            "{name}: {}",
            run.stderr
        );
    }
}

/// A loop whose every step adds memory is stopped when it is projected
/// past the memory limit, long before it gets there.
#[test]
fn memory_projected_past_the_limit_stops_early() {
    let run = run_text(
        "nested.game",
        "print len([[y + x for y in 0..5000000] for x in 0..100])\n",
        &["--max-list", "1000000000"],
    );
    assert_eq!(run.code, 2);
    assert!(
        run.stderr.contains("grundy::memory-limit"),
        "{}",
        run.stderr
    );
    assert!(
        run.stderr.contains("projected to need about")
            && run
                .stderr
                .contains("values of this statement's loop are left"),
        "{}",
        run.stderr
    );
}

#[test]
fn memory_ends_at_the_memory_limit() {
    let lists = run_text(
        "lists.game",
        "print len([[y + x for y in 0..100000000] for x in 0..2])\n",
        &["--max-memory", "512M", "--max-list", "1000000000"],
    );
    assert_eq!(lists.code, 2);
    assert!(
        lists.stderr.contains("grundy::memory-limit"),
        "{}",
        lists.stderr
    );
    assert!(
        lists.stderr.contains("while building this list"),
        "{}",
        lists.stderr
    );
    let deep = run_text(
        "deep.game",
        "game G(n) = { G(n - 1) }\nprint grundy(G(10))\n",
        &["--max-depth", "100000000", "--max-memory", "512M"],
    );
    assert_eq!(deep.code, 2);
    assert!(
        deep.stderr.contains("grundy::memory-limit"),
        "{}",
        deep.stderr
    );
    assert!(
        deep.stderr.contains("--max-depth bounds them"),
        "{}",
        deep.stderr
    );
}

/// Ctrl-C on every kind of long work: the statement ends with an
/// `interrupted` error. How soon is measured in `bench/run.sh` (a loaded
/// machine is slow, not wrong); `cargo test --release --test hostile ctrl_c
/// -- --nocapture` prints the latencies of this run.
#[test]
fn ctrl_c_stops_every_kind_of_work_at_once() {
    use grundy::eval::Limits;
    use grundy::session::{Event, Session};
    use std::sync::atomic::Ordering;
    let nim = NIM;
    let kayles = "game K(n) = { K(a) + K(n - r - a) for r in 1..=2 for a in 0..=n - r }\n";
    let cram = "game Cram(w, h, m) = {\n\
        Cram(w, h, m ^ (3 << v)) for v in 0..w * h if v % w < w - 1 and (m >> v) & 3 == 3\n\
        Cram(w, h, m ^ (((1 << w) + 1) << v)) for v in 0..w * (h - 1) \
        if (m >> v) & ((1 << w) + 1) == (1 << w) + 1\n}\n";
    let chomp = "game Chomp(rows) = {\n\
        Chomp([if i >= r then min(rows[i], c) else rows[i] for i in 0..len(rows)])\n\
        for r in 0..len(rows) for c in 0..rows[r] if r + c > 0\n}\n";
    // No runaway projection: it could end a case before Ctrl-C on a fast
    // machine. Each case runs for many seconds here.
    let plain = Limits {
        runaway: None,
        ..Limits::default()
    };
    let no_kernels = Limits {
        kernels: false,
        ..plain.clone()
    };
    let no_periods = Limits {
        period_budget: 0,
        ..plain.clone()
    };
    let general = Limits {
        kernels: false,
        period_budget: 0,
        ..plain.clone()
    };
    let cases: Vec<(&str, String, Limits)> = vec![
        (
            "period search",
            "octal W = 0.377\nprint grundy(W(10**18))\n".into(),
            plain.clone(),
        ),
        (
            "kernel fill",
            format!("{nim}print grundy(Nim(10**18))\n"),
            plain.clone(),
        ),
        (
            "general rule",
            format!("{nim}print grundy(Nim(10**18))\n"),
            no_kernels.clone(),
        ),
        (
            "sparse space",
            "game G(n) = { G(a) + G(n - a) for a in 1..n if 2 * a < n }\nprint grundy(G(10**7))\n"
                .into(),
            no_periods.clone(),
        ),
        (
            "split rule",
            format!("{kayles}print grundy(K(10**6))\n"),
            general.clone(),
        ),
        (
            "bitmask board",
            format!("{cram}print grundy(Cram(6, 6, (1 << 36) - 1))\n"),
            plain.clone(),
        ),
        (
            "list states",
            format!("{chomp}print grundy(Chomp([30, 30, 30, 30, 30, 30, 30, 30, 30, 30]))\n"),
            plain.clone(),
        ),
        (
            "misere",
            "game Gr(n) = { Gr(a) + Gr(n - a) for a in 1..n if 2 * a < n }\n\
             print outcome(Gr(23) + Gr(50) + Gr(77) + Gr(101) + Gr(88) + Gr(64), misere)\n"
                .to_string(),
            plain.clone(),
        ),
        (
            "table",
            format!("{kayles}print table(K, 0..=1000000)\n"),
            general,
        ),
        (
            "check",
            "check r * r >= 0 for r in 1..=10**12\n".into(),
            plain.clone(),
        ),
        (
            "comprehension",
            "print sum([len([k for k in 0..i]) for i in 0..5000000])\n".into(),
            plain.clone(),
        ),
        (
            "period search in sparse space",
            "octal G = 0.6\nprint period(G, 10**7)\n".into(),
            plain.clone(),
        ),
        (
            "loopy game's graph",
            "loopy game U(n) = { U(n + 1)  U(n - 1) if n > 0 }\nprint outcome(U(0))\n".into(),
            plain.clone(),
        ),
        (
            "marking P-positions",
            "game W(a, b) = {\n W(a - k, b) for k in 1..=a\n W(a, b - k) for k in 1..=b\n \
             W(a - k, b - k) for k in 1..=min(a, b)\n}\n\
             print len(ppositions(W, 0..=40000, 0..=40000))\n"
                .into(),
            plain.clone(),
        ),
    ];
    let mut worst = Duration::ZERO;
    for (what, src, limits) in cases {
        let (tx, rx) = std::sync::mpsc::channel();
        let (flag_tx, flag_rx) = std::sync::mpsc::channel();
        let worker = std::thread::spawn(move || {
            let mut session = Session::new(limits);
            let _ = flag_tx.send(session.cancel_flag());
            let mut errors = Vec::new();
            session.run("w.game", &src, &mut |_, e| {
                if let Event::Error(d) | Event::Interrupted(d) = e {
                    errors.push(d.code.as_str());
                }
            });
            let _ = tx.send((errors, Instant::now()));
        });
        let flag = flag_rx.recv().expect("session made");
        std::thread::sleep(Duration::from_millis(300));
        flag.store(true, Ordering::Relaxed);
        let pressed = Instant::now();
        // Work that ignores Ctrl-C runs on for hours: the hang net catches it.
        let (errors, stopped) = rx
            .recv_timeout(HANG_NET)
            .unwrap_or_else(|_| panic!("{what}: still running {HANG_NET:?} after Ctrl-C"));
        worker.join().expect("worker");
        assert_eq!(errors, ["interrupted"], "{what}");
        let late = stopped.saturating_duration_since(pressed);
        println!("{what}: stopped {late:?} after Ctrl-C");
        worst = worst.max(late);
    }
    println!("worst: {worst:?}");
}

/// The time limit counts from each statement and each constant, not from
/// an earlier entry: a REPL left idle does not fail its next definition.
#[test]
fn the_time_limit_starts_with_each_statement_and_constant() {
    use grundy::eval::Limits;
    use grundy::session::{Event, Session};
    let mut session = Session::new(Limits {
        time_limit: Some(Duration::from_secs(1)),
        ..Limits::default()
    });
    let mut errors = Vec::new();
    let mut emit = |_: &Session, e: Event| {
        if let Event::Error(d) = e {
            errors.push(d.message.clone());
        }
    };
    session.entry("<1>", "print 1", &mut emit);
    std::thread::sleep(Duration::from_millis(1500));
    session.entry("<2>", "let x = sum([k for k in 0..100000])", &mut emit);
    session.entry("<3>", "print x", &mut emit);
    assert!(errors.is_empty(), "{errors:?}");
}

/// A table of 10^10 or 8·10^13 points is refused before any value when
/// the state limit cannot hold its positions, else computed point by point,
/// its values counted against the memory limit as they are kept: the limits
/// stop it (never an allocation of the whole grid up front, which aborted
/// the process).
#[test]
fn huge_grids_end_at_a_limit() {
    let rule = "game W(a, b) = {\n  W(a - k, b) for k in 1..=a\n  W(a, b - k) for k in 1..=b\n}\n";
    for query in [
        "print ppositions(W, 0..100000, 0..100000)",
        "print table(W, 0..9000000, 0..9000000)",
        "print len(table(W, 0..9000000, 0..9000000))",
        "print map(W, 0..100000, 0..100000)",
    ] {
        let run = run_text(
            "grid.game",
            &format!("{rule}{query}\n"),
            &["--time-limit", "1"],
        );
        assert_eq!(run.code, 2, "{query}: {}", run.stderr);
        assert!(
            run.stderr.contains("grundy::time-limit")
                || run.stderr.contains("grundy::memory-limit")
                || run.stderr.contains("grundy::state-limit"),
            "{query}: {}",
            run.stderr
        );
    }
}

/// A plain helper compiled into a rule still evaluates every argument
/// first, as a call does: an argument that fails fails the rule even where
/// the helper ignores it.
#[test]
fn an_argument_that_fails_fails_a_helper_in_a_rule() {
    let src = "let zero(x) = 0\n\
               game B(n) = { B(n - 1) if n > 0 and zero(10 / (n - 5)) == 0 }\n\
               print grundy(B(3))\nprint grundy(B(8))\n";
    let run = run_text("helper.game", src, &[]);
    assert_eq!(run.stdout, "grundy(B(3)) = 1\n");
    assert!(
        run.stderr.contains("grundy::division-by-zero"),
        "{}",
        run.stderr
    );
}

/// A source larger than the memory limit is refused as it is read: a
/// device that never ends, run, checked and loaded in the REPL, under a
/// 100 MB limit (it was read whole: 2.1 GB under a 4 GB address cap).
#[test]
fn a_source_larger_than_the_memory_limit_is_refused_as_it_is_read() {
    for (args, stdin) in [
        (&["--max-memory", "100M", "/dev/zero"][..], ""),
        (&["--max-memory", "100M", "check", "/dev/zero"][..], ""),
        (&["--max-memory", "100M", "repl"][..], ":load /dev/zero\n"),
    ] {
        let run = bounded(args, stdin);
        let all = format!("{}{}", run.stdout, run.stderr);
        assert!(
            all.contains("grundy::memory-limit")
                && all.contains("/dev/zero is larger than the memory limit of 100 MB"),
            "{args:?}: {all}"
        );
    }
}

/// The pruned search of a board keeps what it proves in the store, so the
/// state limit ends it: it stopped storing at the limit and went on
/// proving the same positions again, with no error and no answer.
#[test]
fn a_pruned_board_search_ends_at_the_state_limit() {
    let args = [
        "--max-states",
        "1000",
        "examples/cram.game",
        "--let",
        "w=5",
        "--let",
        "h=7",
    ];
    let run = bounded(&args, "");
    assert_eq!(run.code, 2, "{}", run.stdout);
    assert!(run.stderr.contains("grundy::state-limit"), "{}", run.stderr);
    assert!(
        run.stderr.contains("more than 1000 positions"),
        "{}",
        run.stderr
    );
    assert_eq!(run.stdout, "");
}

/// Standard input read by `input_*` is refused as it is read once holding
/// it would pass the memory limit: 1 GB of digits under 256 MB (it was
/// read whole first, 1.96 GB resident).
#[test]
fn input_larger_than_the_memory_limit_is_refused_as_it_is_read() {
    let path = temp_file("input_ints.game", "let xs = input_ints()\nprint len(xs)\n");
    let out = Command::new("sh")
        .arg("-c")
        .arg(
            "ulimit -v 4194304 && yes 123 | head -c 1000000000 | \"$0\" --max-memory 256M \"$1\"; echo \"exit $?\" >&2",
        )
        .arg(env!("CARGO_BIN_EXE_grundy"))
        .arg(&path)
        .output()
        .expect("sh runs");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("grundy::memory-limit"), "{stderr}");
    assert!(
        stderr.contains("the input is larger than the memory limit of 256 MB"),
        "{stderr}"
    );
    assert!(stderr.contains("exit 2"), "{stderr}");
    assert_eq!(String::from_utf8_lossy(&out.stdout), "");
}
