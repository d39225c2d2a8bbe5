//! A fuzz target over source text: mutations of every example and docs
//! block, and programs generated from the grammar, run through the parser,
//! the REPL's validator, the checker and the evaluator with small limits.
//! Each input must end without a panic or a stack overflow (either kills
//! this process), and stop when Ctrl-C is pressed, after 2 s (a run still
//! going two minutes later is a hang).
//!
//! CI runs it for a few seconds. A long run (the last input is kept in
//! `target/fuzz-last.game`, so a crash can be replayed):
//!
//! ```text
//! GRUNDY_FUZZ_SECONDS=3600 cargo test --release --test fuzz -- --nocapture
//! ```
//!
//! `GRUNDY_FUZZ_SEED` repeats a run.

mod common;

use grundy::eval::Limits;
use grundy::session::{Event, Session};
use std::path::Path;
use std::sync::atomic::Ordering;
use std::sync::mpsc;
use std::time::{Duration, Instant};

/// xorshift64*: small, deterministic, no dependency.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }
    fn pick<'a, T>(&mut self, xs: &'a [T]) -> &'a T {
        &xs[self.below(xs.len())]
    }
    fn chance(&mut self, percent: usize) -> bool {
        self.below(100) < percent
    }
}

/// Every example file and every `game` block of the docs.
fn corpus() -> Vec<String> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut out = Vec::new();
    let mut files: Vec<_> = std::fs::read_dir(root.join("examples"))
        .expect("examples/")
        .map(|e| e.expect("entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "game"))
        .collect();
    files.sort();
    for f in files {
        out.push(std::fs::read_to_string(f).expect("example"));
    }
    for doc in common::doc_files() {
        let text = std::fs::read_to_string(doc).expect("doc");
        for (info, _, body) in common::fences(&text) {
            if info == "game" {
                out.push(body);
            }
        }
    }
    out
}

const TOKENS: &[&str] = &[
    "(",
    ")",
    "[",
    "]",
    "{",
    "}",
    ",",
    "=",
    "+",
    "-",
    "*",
    "/",
    "%",
    "**",
    "<<",
    ">>",
    "&",
    "|",
    "^",
    "==",
    "!=",
    "<",
    "<=",
    ">",
    ">=",
    "..",
    "..=",
    " and ",
    " or ",
    " not ",
    " if ",
    " then ",
    " else ",
    " for ",
    " in ",
    "let ",
    "game ",
    "loopy game ",
    "print ",
    "check ",
    "octal ",
    "subtraction ",
    "0.3f",
    "c.8",
    "\"",
    "\"a\\n\"",
    "\"\\q\"",
    " let ",
    "let f(x) = ",
    "f(",
    ".period",
    ".after",
    "str(",
    "join(",
    "input_ints()",
    "all but ",
    "true",
    "false",
    "0",
    "1",
    "-1",
    "2",
    "7",
    "63",
    "64",
    "9223372036854775807",
    "9223372036854775808",
    "-9223372036854775808",
    "10**18",
    "2**62",
    "n",
    "k",
    "x",
    "G",
    "grundy(",
    "outcome(",
    "moves(",
    "winning(",
    "table(",
    "ppositions(",
    "map(",
    "plot(",
    ".change",
    "period(",
    "describe(",
    "graph(",
    "misere",
    "misere_grundy(",
    "len(",
    "sum(",
    "min(",
    "max(",
    "abs(",
    "sorted(",
    "set(",
    "popcount(",
    "mex(",
    "any(",
    "all(",
    "\n",
    "\n  ",
    "#",
    "é",
    "\u{feff}",
    "\t",
    ";",
];

/// One random change to a text.
fn mutate(rng: &mut Rng, text: &mut String) {
    let pos = |rng: &mut Rng, t: &str| {
        let mut i = rng.below(t.len() + 1);
        while !t.is_char_boundary(i) {
            i -= 1;
        }
        i
    };
    match rng.below(8) {
        0 | 1 => {
            let i = pos(rng, text);
            let token: &&str = rng.pick(TOKENS);
            text.insert_str(i, token);
        }
        2 => {
            let (a, b) = (pos(rng, text), pos(rng, text));
            let (a, b) = (a.min(b), a.max(b));
            if b - a < 200 {
                text.replace_range(a..b, "");
            }
        }
        3 => {
            let (a, b) = (pos(rng, text), pos(rng, text));
            let (a, b) = (a.min(b), a.max(b).min(a + 300));
            let b = (b..=text.len())
                .find(|&i| text.is_char_boundary(i))
                .unwrap_or(a);
            let piece = text[a..b].to_string();
            let at = pos(rng, text);
            text.insert_str(at, &piece);
        }
        4 => {
            // A number replaced by an edge of i64.
            let edges = [
                "0",
                "-1",
                "63",
                "64",
                "9223372036854775807",
                "4611686018427387904",
            ];
            if let Some(i) = text.find(|c: char| c.is_ascii_digit()) {
                let end = text[i..]
                    .find(|c: char| !c.is_ascii_digit())
                    .map_or(text.len(), |j| i + j);
                let edge: &&str = rng.pick(&edges[..]);
                text.replace_range(i..end, edge);
            }
        }
        5 => {
            // Deep nesting.
            let depth = 1 + rng.below(150);
            let (open, close) = *rng.pick(&[("(", ")"), ("[", "]"), ("-", ""), ("not ", "")][..]);
            let i = pos(rng, text);
            let inner = format!("{}1{}", open.repeat(depth), close.repeat(depth));
            text.insert_str(i, &inner);
        }
        6 => {
            // Two lines swapped.
            let mut lines: Vec<&str> = text.lines().collect();
            if lines.len() > 1 {
                let (a, b) = (rng.below(lines.len()), rng.below(lines.len()));
                lines.swap(a, b);
                *text = lines.join("\n") + "\n";
            }
        }
        _ => {
            let i = pos(rng, text);
            let c = char::from_u32(rng.below(0x300) as u32).unwrap_or('?');
            text.insert(i, c);
        }
    }
}

/// An integer expression over `vars`.
fn int_expr(rng: &mut Rng, vars: &[&str], depth: usize) -> String {
    if depth == 0 || rng.chance(35) {
        return if rng.chance(60) {
            rng.pick(vars).to_string()
        } else {
            rng.pick(&["0", "1", "2", "3", "-1", "10", "63", "9223372036854775807"][..])
                .to_string()
        };
    }
    let a = int_expr(rng, vars, depth - 1);
    let b = int_expr(rng, vars, depth - 1);
    match rng.below(10) {
        0 => format!("abs({a})"),
        1 => format!("popcount({a})"),
        2 => format!("(if {a} > {b} then {a} else {b})"),
        3 => format!("min({a}, {b})"),
        _ => {
            let op = rng.pick(&["+", "-", "*", "/", "%", "<<", ">>", "&", "|", "^", "**"][..]);
            format!("({a} {op} {b})")
        }
    }
}

/// A random game with one or two parameters, and queries about it.
fn program(rng: &mut Rng) -> String {
    let two = rng.chance(30);
    let params: &[&str] = if two { &["a", "b"] } else { &["n"] };
    let mut rules = Vec::new();
    for _ in 0..1 + rng.below(3) {
        let var = *rng.pick(params);
        let loop_var = "k";
        let mut vars = params.to_vec();
        vars.push(loop_var);
        let arg = |rng: &mut Rng, p: &str| {
            if rng.chance(70) {
                format!("{p} - {loop_var}")
            } else {
                int_expr(rng, &vars, 2)
            }
        };
        let args: Vec<String> = params.iter().map(|p| arg(rng, p)).collect();
        let mut rule = format!("G({})", args.join(", "));
        if rng.chance(25) {
            let more: Vec<String> = params.iter().map(|p| arg(rng, p)).collect();
            rule.push_str(&format!(" + G({})", more.join(", ")));
        }
        let hi = if rng.chance(80) {
            var.to_string()
        } else {
            int_expr(rng, params, 2)
        };
        rule.push_str(&format!(" for {loop_var} in 1..={hi}"));
        if rng.chance(50) {
            let c = int_expr(rng, &vars, 2);
            let cmp = rng.pick(&["<", "<=", ">", ">=", "==", "!="][..]);
            rule.push_str(&format!(" if {c} {cmp} {}", int_expr(rng, &vars, 1)));
        }
        rules.push(rule);
    }
    // Some declared loopy: their cycles are then graphs to solve.
    let loopy = if rng.chance(25) { "loopy " } else { "" };
    let mut text = format!(
        "{loopy}game G({}) = {{\n    {}\n}}\n",
        params.join(", "),
        rules.join("\n    ")
    );
    let at = |rng: &mut Rng| {
        let big = ["3", "7", "30", "1030", "100000", "10**18"];
        params
            .iter()
            .map(|_| rng.pick(&big[..]).to_string())
            .collect::<Vec<_>>()
            .join(", ")
    };
    for _ in 0..1 + rng.below(3) {
        let q = match rng.below(7) {
            0 => format!("print grundy(G({}))", at(rng)),
            1 => format!("print winning(G({}) + G({}))", at(rng), at(rng)),
            2 if !two => "print table(G, 0..40)".to_string(),
            3 if !two => "print period(G)".to_string(),
            4 => format!("print outcome(G({}), misere)", at(rng)),
            5 => format!("check grundy(G({})) >= 0", at(rng)),
            _ => format!("print moves(G({}))", at(rng)),
        };
        text.push_str(&q);
        text.push('\n');
    }
    text
}

/// Runs one input; the error text if it misbehaved.
fn run_one(text: String) -> Result<(), String> {
    let keep = Path::new(env!("CARGO_MANIFEST_DIR")).join("target/fuzz-last.game");
    let _ = std::fs::write(&keep, &text);
    let (tx, rx) = mpsc::channel();
    let (flag_tx, flag_rx) = mpsc::channel();
    let input = text.clone();
    let worker = std::thread::Builder::new()
        .stack_size(256 << 20)
        .spawn(move || {
            let result = std::panic::catch_unwind(move || {
                let _ = grundy::syntax::is_incomplete(&input);
                let limits = Limits {
                    max_states: 200_000,
                    max_list: 100_000,
                    max_depth: 20_000,
                    period_budget: 8192,
                    ..Limits::default()
                };
                let mut session = Session::new(limits);
                let _ = flag_tx.send(session.cancel_flag());
                session.run("fuzz.game", &input, &mut |_, _: Event| {});
                let mut repl = Session::new(Limits {
                    max_states: 20_000,
                    ..Limits::default()
                });
                let _ = flag_tx.send(repl.cancel_flag());
                for line in input.lines().take(20) {
                    repl.entry("<repl>", line, &mut |_, _| {});
                }
            });
            let _ = tx.send(result.is_ok());
        })
        .map_err(|e| e.to_string())?;
    let start = Instant::now();
    let mut flags = Vec::new();
    loop {
        while let Ok(f) = flag_rx.try_recv() {
            flags.push(f);
        }
        match rx.recv_timeout(Duration::from_millis(20)) {
            Ok(true) => break,
            Ok(false) => return Err("panicked".to_string()),
            Err(mpsc::RecvTimeoutError::Disconnected) => return Err("panicked".to_string()),
            Err(mpsc::RecvTimeoutError::Timeout) => {}
        }
        let spent = start.elapsed();
        if spent > Duration::from_secs(2) {
            // Ctrl-C, again and again: each statement stops at once.
            for f in &flags {
                f.store(true, Ordering::Relaxed);
            }
        }
        // A hang net: a loaded machine is slow, not wrong.
        if spent > Duration::from_secs(120) {
            return Err(format!("still running after {spent:?} (Ctrl-C from 2 s)"));
        }
    }
    let _ = worker.join();
    Ok(())
}

#[test]
fn fuzz_inputs_end_cleanly() {
    let seconds: u64 = std::env::var("GRUNDY_FUZZ_SECONDS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(8);
    let seed: u64 = std::env::var("GRUNDY_FUZZ_SEED")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or_else(|| {
            std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .map_or(1, |d| d.as_nanos() as u64)
        })
        | 1;
    println!("fuzz seed {seed}, {seconds} s");
    let corpus = corpus();
    let mut rng = Rng(seed);
    let start = Instant::now();
    let mut runs = 0u64;
    while start.elapsed() < Duration::from_secs(seconds) {
        let mut text = if rng.chance(40) {
            program(&mut rng)
        } else {
            rng.pick(&corpus).clone()
        };
        for _ in 0..rng.below(4) {
            mutate(&mut rng, &mut text);
        }
        if let Err(why) = run_one(text.clone()) {
            panic!("input {runs} (seed {seed}) {why}:\n{text}");
        }
        runs += 1;
    }
    println!("fuzz: {runs} inputs, all clean");
}
