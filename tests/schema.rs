//! The JSON contract: every line `--json` writes validates against
//! `docs/schema.json`, for every example, for a file that asks every query
//! and makes errors, and for the REPL's own kinds; every kind the schema
//! lists is seen; the reference's JSON example is the binary's output.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

mod common;

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

fn schema() -> serde_json::Value {
    let text = std::fs::read_to_string(root().join("docs/schema.json")).expect("docs/schema.json");
    serde_json::from_str(&text).expect("the schema is JSON")
}

/// Standard output of the binary run in `dir` with `stdin`.
fn run(args: &[&str], dir: &Path, stdin: &str) -> String {
    common::run_in(args, dir, stdin).1
}

struct Checker {
    validator: jsonschema::Validator,
    kinds: BTreeSet<String>,
    failures: Vec<String>,
    lines: usize,
}

impl Checker {
    fn new() -> Checker {
        Checker {
            validator: jsonschema::validator_for(&schema()).expect("a valid JSON Schema"),
            kinds: BTreeSet::new(),
            failures: Vec::new(),
            lines: 0,
        }
    }

    /// Every line of `stdout` is a JSON object that validates.
    fn check(&mut self, what: &str, stdout: &str) {
        for line in stdout.lines() {
            self.lines += 1;
            let v: serde_json::Value = match serde_json::from_str(line) {
                Ok(v) => v,
                Err(e) => {
                    self.failures
                        .push(format!("{what}: not JSON ({e}): {line}"));
                    continue;
                }
            };
            if let Some(k) = v["kind"].as_str() {
                self.kinds.insert(k.to_string());
            }
            let errors: Vec<String> = self
                .validator
                .iter_errors(&v)
                .map(|e| format!("{e} at {}", e.instance_path()))
                .collect();
            if !errors.is_empty() {
                let short: String = line.chars().take(300).collect();
                self.failures
                    .push(format!("{what}: {short}\n    {}", errors.join("\n    ")));
            }
        }
    }
}

/// Asks every query and makes errors of several kinds.
const EVERYTHING: &str = r#"
octal Kayles = 0.77
game Nim(n) = { Nim(k) for k in 0..n }
game W(a, b) = {
    W(a - k, b) for k in 1..=a
    W(a, b - k) for k in 1..=b
    W(a - k, b - k) for k in 1..=min(a, b)
}
game Grundy(n) = { Grundy(a) + Grundy(n - a) for a in 1..n if 2 * a < n }
game L(xs) = { L(set(xs, i, xs[i] - 1)) for i in 0..len(xs) if xs[i] > 0 }
loopy game Walk(n) = { Walk(n - 1) if n > 0  Walk(n + 1) if n < 3  0 if n == 3 }
loopy game WalkXY(a, b) = { WalkXY(1 - a, b)  WalkXY(a, b - 1) if b > 0 }
print grundy(Kayles(10))
print "a string"
print Nim(3) + Kayles(4)
print moves(Nim(2))[0]
print outcome(Kayles(10**15))
print moves(Kayles(5))
print winning(Nim(3) + Nim(5) + Kayles(10**15))
print winning(W(3, 4) + L([2, 1]))
print outcome(Nim(2) + Nim(2), misere)
print genus(Nim(2) + Nim(3))
print genus(Nim, 0..4)
print genus(W, 0..3, 0..3)
print quotient(Kayles, 0..=30)
print winning(Kayles(5) + Kayles(9) + Kayles(4), misere)
print outcome(Kayles(5) + Kayles(9), misere)
print winning(Nim(2) + Nim(3), misere)
print table(Kayles, 0..=20)
print table(W, 0..4, 0..4, misere)
print map(W, 0..8, 0..8)
print ppositions(W, 0..10, 0..10)
print graph(Nim(2))
print plot(Kayles, 0..=100)
print plot(W, 0..=10, 0..=10)
print describe(Kayles)
print period(Kayles)
print period(Grundy, 200)
print guess(Nim)
print guess(Kayles, 1000)
print [m.change for m in winning(Nim(3) + Nim(5))]
print outcome(Nim(3))
print outcome(Walk(1))
print winning(Walk(2))
print moves(Walk(3) + Nim(1))
print table(Walk, 0..=3)
print table(WalkXY, 0..2, 0..2)
print grundy(Walk(3))
print [grundy(Walk(n)) for n in 0..4]
print outcome(Walk(3) + Nim(1)).outcome
check grundy(Nim(n)) == n for n in 0..10
check grundy(Nim(n)) == 0 for n in 0..10
check grundy(Nim(a) + Nim(b)) == a + b for a in 0..3 for b in 0..3
print 1 / 0
"#;

#[test]
fn every_json_line_validates_against_the_schema() {
    let mut c = Checker::new();

    // Every example, with its input when it has one.
    let mut examples: Vec<PathBuf> = std::fs::read_dir(root().join("examples"))
        .expect("examples/")
        .map(|e| e.expect("entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "game"))
        .collect();
    examples.sort();
    assert!(examples.len() >= 10);
    for game in &examples {
        let input = std::fs::read_to_string(game.with_extension("in")).unwrap_or_default();
        let out = run(&["--json", game.to_str().expect("utf-8")], root(), &input);
        assert!(!out.is_empty(), "{} printed nothing", game.display());
        c.check(&game.display().to_string(), &out);
    }

    // Every query, errors, and a file that cannot be read.
    let dir = common::scratch("schema-all");
    std::fs::write(dir.join("all.game"), EVERYTHING).expect("write");
    let out = run(&["--json", "--out", "pics/", "all.game"], &dir, "");
    c.check("all.game", &out);
    assert!(dir.join("pics/plot-1.svg").exists() && dir.join("pics/graph-1.dot").exists());
    c.check("missing file", &run(&["--json", "missing.game"], &dir, ""));
    std::fs::write(
        dir.join("bad.game"),
        "print grundy(Nmi(3))\nprint len(1, 2)\n",
    )
    .expect("write");
    c.check("bad.game", &run(&["--json", "bad.game"], &dir, ""));
    std::fs::write(dir.join("shadow.game"), "let len = 3\nprint len\n").expect("write");
    c.check("shadow.game", &run(&["--json", "shadow.game"], &dir, ""));

    // The REPL's own kinds.
    let script = "game Nim(n) = { Nim(k) for k in 0..n }\nlet N = 3\n:games\n:show Nim\n\
                  :time\ngrundy(Nim(N))\n:time\n:plot Nim, 0..10\n:help\n:nonsense\nNmi(2)\n";
    let out = run(&["repl", "--json"], &dir, script);
    c.check("repl", &out);

    assert!(c.failures.is_empty(), "{}", c.failures.join("\n"));
    // Every kind the schema lists was seen, and none it does not list.
    let listed: BTreeSet<String> = schema()["$defs"]
        .as_object()
        .expect("$defs")
        .iter()
        .filter_map(|(_, d)| d["properties"]["kind"]["const"].as_str().map(String::from))
        .collect();
    assert_eq!(c.kinds, listed, "kinds seen vs kinds in the schema");
    assert!(c.lines > 80, "{} lines checked", c.lines);
}

#[test]
fn the_schema_rejects_what_breaks_the_contract() {
    let c = Checker::new();
    let ok = serde_json::json!({"kind": "value", "schema_version": 1, "expr": "1 + 2", "label": "1 + 2", "value": 3, "text": "3"});
    assert!(c.validator.is_valid(&ok));
    for bad in [
        serde_json::json!({"kind": "value", "expr": "1 + 2", "label": null, "value": 3, "text": "3"}),
        serde_json::json!({"kind": "value", "schema_version": 1, "expr": "1", "label": "1", "value": 3}),
        serde_json::json!({"kind": "outcome", "schema_version": 1, "position": "Nim(3)", "grundy": 3, "outcome": "N"}),
        serde_json::json!({"kind": "nonsense", "schema_version": 1}),
    ] {
        assert!(!c.validator.is_valid(&bad), "accepted {bad}");
    }
}

/// The reference's example under "JSON output": the program in the
/// `game-json` block prints exactly the `json` block after it.
#[test]
fn the_json_example_in_the_reference_is_what_the_binary_prints() {
    let text = std::fs::read_to_string(root().join("docs/language.md")).expect("language.md");
    let fences = common::fences(&text);
    let i = fences
        .iter()
        .position(|(info, _, _)| info == "game-json")
        .expect("a game-json block");
    let (_, line, program) = &fences[i];
    let (info, _, expected) = &fences[i + 1];
    assert_eq!(info, "json", "a json block follows the program");
    let dir = common::scratch("schema-doc");
    std::fs::write(dir.join("nim.game"), program).expect("write");
    let got = run(&["--json", "nim.game"], &dir, "");
    if std::env::var_os("UPDATE_DOCS").is_some() && &got != expected {
        let updated = text.replacen(
            &format!("```json\n{expected}```"),
            &format!("```json\n{got}```"),
            1,
        );
        std::fs::write(root().join("docs/language.md"), updated).expect("update");
        return;
    }
    assert_eq!(&got, expected, "docs/language.md:{line}");
    let mut c = Checker::new();
    c.check("the reference's example", &got);
    assert!(c.failures.is_empty(), "{}", c.failures.join("\n"));
}
