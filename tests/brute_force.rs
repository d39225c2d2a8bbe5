//! grundy against brute forces written in Rust: random rule sets and sums
//! of them, single games (Chomp, Staircase Nim, Node Kayles, tokens on a
//! DAG), periods against a naive period finder, huge heaps' grouped moves,
//! each checked against an independent source, never against grundy's own
//! output. (What a `.game` file can state with `check` is in
//! `tests/fixtures/`: published sequences, Wythoff's game, Nim sums. What
//! the analysis refuses to claim is in `tests/analysis.rs`.)
//!
//! Sources:
//! 1. Published sequences and theorems: OEIS A002186 (Kayles), A002187 (Dawson's
//!    chess; Dawson's Kayles 0.07 has values A002187(n-1)), A002188 (Grundy's
//!    game), A. Flammenkamp's list of sparse values of Grundy's game, Wythoff's
//!    P-positions (floor(k*phi), floor(k*phi) + k), Bouton's theorem for Nim,
//!    Lasker's Nim, the P-positions of Staircase Nim and of small Chomp shapes.
//! 2. The brute-force baselines in `../shared/baselines/` (C++, built with
//!    `g++ -O2`); the numbers they printed are pasted below as constants, with
//!    the command that printed them.
//! 3. Small brute-force solvers written below in plain Rust: they search the
//!    game tree of a whole position (a sum is searched as one game, without
//!    using XOR) and take the mex by hand.
//!
//! Each test drives the real `grundy` binary with `--json` on a temporary
//! `.game` file, collects every mismatch with the name of its case, and fails
//! at the end listing them (the first 60, then a count).

use serde_json::Value;
use std::collections::{BTreeSet, HashMap};
use std::fmt::Debug;
use std::process::Command;
use std::sync::atomic::{AtomicUsize, Ordering};

// ---------------------------------------------------------------------------
// Published and baseline data
// ---------------------------------------------------------------------------

/// Kayles (octal 0.77), g(0..100). Printed by the C++ baseline
/// `cpp_kayles kayles 200 100` (shared/baselines/cpp/kayles.cpp); identical to
/// the first 100 terms of OEIS A002186.
const KAYLES_100: [u32; 100] = [
    0, 1, 2, 3, 1, 4, 3, 2, 1, 4, 2, 6, 4, 1, 2, 7, 1, 4, 3, 2, 1, 4, 6, 7, 4, 1, 2, 8, 5, 4, 7, 2,
    1, 8, 6, 7, 4, 1, 2, 3, 1, 4, 7, 2, 1, 8, 2, 7, 4, 1, 2, 8, 1, 4, 7, 2, 1, 4, 2, 7, 4, 1, 2, 8,
    1, 4, 7, 2, 1, 8, 6, 7, 4, 1, 2, 8, 1, 4, 7, 2, 1, 8, 2, 7, 4, 1, 2, 8, 1, 4, 7, 2, 1, 8, 2, 7,
    4, 1, 2, 8,
];

// ---------------------------------------------------------------------------
// Running grundy
// ---------------------------------------------------------------------------

static FILE_COUNTER: AtomicUsize = AtomicUsize::new(0);

struct Run {
    status: Option<i32>,
    answers: Vec<Value>,
    stderr: String,
}

/// Runs `grundy --json` on `src` written to a fresh temporary file.
fn run_grundy(tag: &str, src: &str) -> Run {
    let n = FILE_COUNTER.fetch_add(1, Ordering::SeqCst);
    let path = std::env::temp_dir().join(format!(
        "grundy-brute-{}-{n}-{tag}.game",
        std::process::id()
    ));
    std::fs::write(&path, src).expect("write temporary .game file");
    let out = Command::new(env!("CARGO_BIN_EXE_grundy"))
        .arg("--json")
        .arg(&path)
        .output()
        .expect("run the grundy binary");
    let _ = std::fs::remove_file(&path);
    let stdout = String::from_utf8_lossy(&out.stdout);
    let answers = stdout
        .lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| {
            serde_json::from_str(l)
                .unwrap_or_else(|e| panic!("[{tag}] stdout line is not JSON ({e}): {l}"))
        })
        .collect();
    Run {
        status: out.status.code(),
        answers,
        stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
    }
}

/// A `.game` file under construction: definitions, then `print` statements,
/// each labelled with the case it checks.
struct Script {
    src: String,
    cases: Vec<String>,
}

impl Script {
    fn new(defs: &str) -> Script {
        Script {
            src: format!("{defs}\n"),
            cases: Vec::new(),
        }
    }

    fn print(&mut self, case: impl Into<String>, expr: &str) {
        self.src.push_str(&format!("print {expr}\n"));
        self.cases.push(case.into());
    }

    /// Runs the script; it must exit 0 and print one answer per `print`.
    fn run(self, tag: &str) -> Vec<(String, Value)> {
        let run = run_grundy(tag, &self.src);
        assert_eq!(
            run.status,
            Some(0),
            "[{tag}] grundy failed\nstderr:\n{}\nstdout answers: {:?}\nsource:\n{}",
            run.stderr,
            run.answers,
            self.src
        );
        assert_eq!(
            run.answers.len(),
            self.cases.len(),
            "[{tag}] expected one answer per print\nanswers: {:?}\nsource:\n{}",
            run.answers,
            self.src
        );
        self.cases.into_iter().zip(run.answers).collect()
    }
}

// ---------------------------------------------------------------------------
// Collecting failures
// ---------------------------------------------------------------------------

#[derive(Default)]
struct Report {
    checked: usize,
    failures: Vec<String>,
}

impl Report {
    fn eq<T: PartialEq + Debug>(&mut self, case: &str, expected: T, got: T) {
        self.checked += 1;
        if expected != got {
            self.failures
                .push(format!("{case}: expected {expected:?}, got {got:?}"));
        }
    }

    fn truth(&mut self, case: &str, ok: bool, detail: impl FnOnce() -> String) {
        self.checked += 1;
        if !ok {
            self.failures.push(format!("{case}: {}", detail()));
        }
    }

    /// Reads an answer of the given kind, recording a failure if it is not one.
    fn answer<T>(
        &mut self,
        case: &str,
        v: &Value,
        kind: &str,
        read: impl FnOnce(&Value) -> Option<T>,
    ) -> Option<T> {
        let got = if v["kind"] == kind { read(v) } else { None };
        if got.is_none() {
            self.checked += 1;
            self.failures
                .push(format!("{case}: expected a `{kind}` answer, got {v}"));
        }
        got
    }

    fn int(&mut self, case: &str, v: &Value) -> Option<u64> {
        self.answer(case, v, "value", |v| v["value"].as_u64())
    }

    /// A 1-D table, which must be over exactly `args`.
    fn table(&mut self, case: &str, v: &Value, args: &[u64]) -> Option<Vec<u64>> {
        let (got_args, values) = self.answer(case, v, "table", |v| {
            Some((ints(&v["args"])?, ints(&v["values"])?))
        })?;
        self.eq(&format!("{case}: arguments"), args, &got_args[..]);
        self.eq(
            &format!("{case}: number of values"),
            args.len(),
            values.len(),
        );
        (got_args == args && values.len() == args.len()).then_some(values)
    }

    fn outcome(&mut self, case: &str, v: &Value) -> Option<(String, u64)> {
        self.answer(case, v, "outcome", |v| {
            Some((v["outcome"].as_str()?.to_string(), v["grundy"].as_u64()?))
        })
    }

    /// The moves of a `moves` or `winning` answer as sorted (from, to
    /// components sorted, grundy) triples, plus the position's grundy value.
    fn move_list(&mut self, case: &str, v: &Value, kind: &str) -> Option<(u64, Vec<Move>)> {
        self.answer(case, v, kind, |v| {
            let mut out = Vec::new();
            for m in v["moves"].as_array()? {
                let to = m["to"]["text"].as_str()?;
                out.push(Move {
                    component: usize::try_from(m["component"].as_u64()?).ok()?,
                    from: m["from"]["text"].as_str()?.to_string(),
                    to: split_sum(to),
                    grundy: m["grundy"].as_u64()?,
                });
            }
            out.sort();
            Some((v["grundy"].as_u64()?, out))
        })
    }

    fn finish(self, test: &str) {
        const SHOWN: usize = 60;
        let more = self.failures.len().saturating_sub(SHOWN);
        assert!(
            self.failures.is_empty(),
            "{test}: {} of {} checks failed:\n  {}{}",
            self.failures.len(),
            self.checked,
            self.failures[..self.failures.len().min(SHOWN)].join("\n  "),
            if more > 0 {
                format!("\n  ... and {more} more")
            } else {
                String::new()
            }
        );
        eprintln!("{test}: {} checks passed", self.checked);
    }
}

fn ints(v: &Value) -> Option<Vec<u64>> {
    v.as_array()?.iter().map(Value::as_u64).collect()
}

/// One reported move: the component moved in, what it became (the components
/// of the new sum, sorted), and the grundy value reported with it.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
struct Move {
    /// The component's index in the sum (each of identical ones).
    component: usize,
    from: String,
    to: Vec<String>,
    grundy: u64,
}

fn split_sum(s: &str) -> Vec<String> {
    let mut parts: Vec<String> = s.split(" + ").map(str::to_string).collect();
    parts.sort();
    parts
}

fn list_lit(xs: &[u32]) -> String {
    let items: Vec<String> = xs.iter().map(u32::to_string).collect();
    format!("[{}]", items.join(", "))
}

/// The baselines' summary of a table: (sum, hash = hash * 31 + g wrapping).
fn mex(values: &[u32]) -> u32 {
    let mut seen = vec![false; values.len() + 1];
    for &v in values {
        if (v as usize) < seen.len() {
            seen[v as usize] = true;
        }
    }
    seen.iter().position(|&s| !s).unwrap() as u32
}

// ---------------------------------------------------------------------------
// Independent brute force
// ---------------------------------------------------------------------------

/// One component of a position, in the Rust brute force.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
enum Comp {
    /// A Nim heap.
    Nim(u32),
    /// Subtraction game {1, 3, 4}.
    Sub(u32),
    /// A row of Kayles pins.
    Kayles(u32),
    /// Chomp: row lengths, non-increasing; the poisoned square is row 0,
    /// column 0 and is never taken (a player left with only it has lost).
    Chomp(Vec<u32>),
    /// Staircase Nim: coins on stairs 1, 2, ...; a move carries some coins
    /// from a stair one step down (from stair 1 they leave the game).
    Stair(Vec<u32>),
    /// Node Kayles on the GRID_H x GRID_W grid: the remaining vertices.
    NodeK(u32),
    /// A token on vertex v of the test DAG.
    Token(usize),
    /// A heap that may only be split into three non-empty heaps.
    Split3(u32),
    /// Nim written with an explicit empty position: from n > 0 move to `0`
    /// (the position with no moves) or to any 1..n.
    ZNim(u32),
}

impl Comp {
    /// The same position in the `.game` syntax of `games_src`, as grundy
    /// prints it.
    fn render(&self) -> String {
        match self {
            Comp::Nim(n) => format!("Nim({n})"),
            Comp::Sub(n) => format!("Sub({n})"),
            Comp::Kayles(n) => format!("Kayles({n})"),
            Comp::Chomp(r) => format!("Chomp({})", list_lit(r)),
            Comp::Stair(c) => format!("Stair({})", list_lit(c)),
            Comp::NodeK(m) => format!("NK({m})"),
            Comp::Token(v) => format!("Token({v})"),
            Comp::Split3(n) => format!("Split3({n})"),
            Comp::ZNim(n) => format!("Z({n})"),
        }
    }
}

fn render_sum(pos: &[Comp]) -> String {
    let parts: Vec<String> = pos.iter().map(Comp::render).collect();
    parts.join(" + ")
}

fn sorted_render(pos: &[Comp]) -> Vec<String> {
    let mut parts: Vec<String> = pos.iter().map(Comp::render).collect();
    parts.sort();
    parts
}

const GRID_W: i32 = 4;
const GRID_H: i32 = 3;
const DAG_SIZE: usize = 24;

/// Closed neighbourhoods of the GRID_H x GRID_W grid graph, vertex r * W + c.
fn grid_neighbourhoods() -> Vec<u32> {
    let mut out = Vec::new();
    for r in 0..GRID_H {
        for c in 0..GRID_W {
            let mut mask = 0u32;
            for (dr, dc) in [(0, 0), (1, 0), (-1, 0), (0, 1), (0, -1)] {
                let (rr, cc) = (r + dr, c + dc);
                if (0..GRID_H).contains(&rr) && (0..GRID_W).contains(&cc) {
                    mask |= 1 << (rr * GRID_W + cc);
                }
            }
            out.push(mask);
        }
    }
    out
}

/// A fixed pseudo-random DAG on `n` vertices; edges go from lower to higher
/// numbers.
fn test_dag(n: usize) -> Vec<Vec<usize>> {
    let mut state: u64 = 0x2545_f491_4f6c_dd1d;
    let mut next = move || {
        state = state
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        (state >> 33) % 100
    };
    (0..n)
        .map(|v| (v + 1..n).filter(|_| next() < 22).collect())
        .collect()
}

struct Brute {
    dag: Vec<Vec<usize>>,
    grid_nb: Vec<u32>,
    memo: HashMap<Vec<Comp>, u32>,
}

impl Brute {
    fn new() -> Brute {
        Brute {
            dag: test_dag(DAG_SIZE),
            grid_nb: grid_neighbourhoods(),
            memo: HashMap::new(),
        }
    }

    /// Every move of one component: what the component is replaced by.
    fn options(&self, c: &Comp) -> Vec<Vec<Comp>> {
        let mut out = Vec::new();
        match c {
            Comp::Nim(n) => {
                for k in 0..*n {
                    out.push(vec![Comp::Nim(k)]);
                }
            }
            Comp::Sub(n) => {
                for k in [1, 3, 4] {
                    if k <= *n {
                        out.push(vec![Comp::Sub(n - k)]);
                    }
                }
            }
            Comp::Kayles(n) => {
                // Knock down 1 or 2 adjacent pins; `left` pins stay on the left.
                for take in 1..=2 {
                    if take <= *n {
                        for left in 0..=n - take {
                            out.push(vec![Comp::Kayles(left), Comp::Kayles(n - take - left)]);
                        }
                    }
                }
            }
            Comp::Chomp(rows) => {
                for (i, &len) in rows.iter().enumerate() {
                    for j in 0..len {
                        if i == 0 && j == 0 {
                            continue; // the poisoned square
                        }
                        let bitten: Vec<u32> = rows
                            .iter()
                            .enumerate()
                            .map(|(k, &l)| if k >= i { l.min(j) } else { l })
                            .collect();
                        out.push(vec![Comp::Chomp(bitten)]);
                    }
                }
            }
            Comp::Stair(coins) => {
                for (i, &here) in coins.iter().enumerate() {
                    for t in 1..=here {
                        let mut after = coins.clone();
                        after[i] -= t;
                        if i > 0 {
                            after[i - 1] += t;
                        }
                        out.push(vec![Comp::Stair(after)]);
                    }
                }
            }
            Comp::NodeK(mask) => {
                for (v, nb) in self.grid_nb.iter().enumerate() {
                    if mask & (1 << v) != 0 {
                        out.push(vec![Comp::NodeK(mask & !nb)]);
                    }
                }
            }
            Comp::Token(v) => {
                for &w in &self.dag[*v] {
                    out.push(vec![Comp::Token(w)]);
                }
            }
            Comp::Split3(n) => {
                // Heaps a <= b <= c, all non-empty, a + b + c = n.
                for a in 1..=*n {
                    for b in a..=*n {
                        if a + b < *n && b <= n - a - b {
                            out.push(vec![
                                Comp::Split3(a),
                                Comp::Split3(b),
                                Comp::Split3(n - a - b),
                            ]);
                        }
                    }
                }
            }
            Comp::ZNim(n) => {
                if *n > 0 {
                    out.push(vec![]);
                }
                for k in 1..*n {
                    out.push(vec![Comp::ZNim(k)]);
                }
            }
        }
        out
    }

    /// All positions one move away from the sum `pos`: (index of the component
    /// moved in, what it became, the whole new position).
    fn followers(&self, pos: &[Comp]) -> Vec<(usize, Vec<Comp>, Vec<Comp>)> {
        let mut out = Vec::new();
        for (i, c) in pos.iter().enumerate() {
            for opt in self.options(c) {
                let mut next: Vec<Comp> = pos.to_vec();
                next.remove(i);
                next.extend(opt.iter().cloned());
                out.push((i, opt, next));
            }
        }
        out
    }

    /// The Grundy value of the sum `pos`, by searching the whole sum as one
    /// game (no XOR of component values).
    fn value(&mut self, pos: &[Comp]) -> u32 {
        // Components with no moves left change nothing; leave them out of
        // the key so that, e.g., Kayles rows of length 0 do not multiply the
        // number of positions.
        let mut key: Vec<Comp> = pos
            .iter()
            .filter(|c| !self.options(c).is_empty())
            .cloned()
            .collect();
        key.sort();
        if let Some(&v) = self.memo.get(&key) {
            return v;
        }
        let mut seen = Vec::new();
        for (_, _, next) in self.followers(&key) {
            seen.push(self.value(&next));
        }
        let v = mex(&seen);
        self.memo.insert(key, v);
        v
    }

    /// Every distinct move of `pos` with the value of the position it leads to.
    fn moves(&mut self, pos: &[Comp]) -> Vec<Move> {
        let mut out = BTreeSet::new();
        for (i, opt, next) in self.followers(pos) {
            // grundy prints the empty position as `0`.
            let to = if opt.is_empty() {
                vec!["0".to_string()]
            } else {
                sorted_render(&opt)
            };
            out.insert(Move {
                component: i,
                from: pos[i].render(),
                to,
                grundy: u64::from(self.value(&next)),
            });
        }
        out.into_iter().collect()
    }

    fn winning(&mut self, pos: &[Comp]) -> Vec<Move> {
        self.moves(pos)
            .into_iter()
            .filter(|m| m.grundy == 0)
            .collect()
    }
}

/// The `.game` definitions of the games in `Comp`, written independently of
/// the Rust brute force (the grid's neighbourhoods are computed by the
/// `.game` file itself; the DAG's edges are data).
fn games_src(brute: &Brute) -> String {
    let edges: Vec<String> = brute
        .dag
        .iter()
        .map(|ws| {
            let ws: Vec<u32> = ws.iter().map(|&w| w as u32).collect();
            list_lit(&ws)
        })
        .collect();
    format!(
        r#"
game Nim(n) = {{ Nim(k) for k in 0..n }}
let S = [1, 3, 4]
game Sub(n) = {{ Sub(n - k) for k in S if k <= n }}
game Kayles(n) = {{ Kayles(a) + Kayles(n - r - a) for r in 1..=2 for a in 0..=n - r }}
# Chomp: bite at row i, column j; every row from i on is cut to length j.
game Chomp(r) = {{
    Chomp([if k >= i then min(r[k], j) else r[k] for k in 0..len(r)])
        for i in 0..len(r) for j in 0..r[i] if i + j > 0
}}
# Staircase Nim: move t coins from stair i + 1 down to stair i (off the board from the first).
game Stair(c) = {{
    Stair(if i == 0 then set(c, 0, c[0] - t) else set(set(c, i, c[i] - t), i - 1, c[i - 1] + t))
        for i in 0..len(c) for t in 1..=c[i]
}}
# Node Kayles on a {h} x {w} grid: a vertex goes with its neighbours.
let W = {w}
let H = {h}
let NB = [(1 << v)
          | (if v % W > 0 then 1 << (v - 1) else 0)
          | (if v % W < W - 1 then 1 << (v + 1) else 0)
          | (if v >= W then 1 << (v - W) else 0)
          | (if v + W < W * H then 1 << (v + W) else 0)
          for v in 0..W * H]
game NK(m) = {{ NK(m - (m & NB[v])) for v in 0..W * H if ((m >> v) & 1) == 1 }}
let E = [{edges}]
game Token(v) = {{ Token(u) for u in E[v] }}
# Split a heap into three non-empty heaps a <= b <= c.
game Split3(n) = {{
    Split3(a) + Split3(b) + Split3(n - a - b) for a in 1..n for b in a..n if a + b < n and b <= n - a - b
}}
# Nim with the empty position written out.
game Z(n) = {{
    0 if n > 0
    Z(k) for k in 1..n
}}
"#,
        w = GRID_W,
        h = GRID_H,
        edges = edges.join(", ")
    )
}

// ---------------------------------------------------------------------------
// Tests
// ---------------------------------------------------------------------------

/// Single games (Chomp, Staircase Nim, Node Kayles, token on a DAG, Kayles,
/// more subtraction games) against the Rust brute force and known theorems.
#[test]
fn brute_force_games() {
    let mut brute = Brute::new();
    let mut s = Script::new(&games_src(&brute));

    // Chomp: every shape with at most 4 rows and 5 columns.
    let mut shapes = Vec::new();
    for a in 1..=5u32 {
        for b in 0..=a {
            for c in 0..=b {
                for d in 0..=c {
                    shapes.push(vec![a, b, c, d]);
                }
            }
        }
    }
    // Chomp with a natural number of rows too (no trailing empty rows).
    shapes.extend([
        vec![1],
        vec![5],
        vec![3, 2],
        vec![4, 3],
        vec![6, 5],
        vec![3, 3, 3],
        vec![4, 1, 1, 1],
    ]);
    let mut cases: Vec<Comp> = shapes.into_iter().map(Comp::Chomp).collect();
    // Staircase Nim: every 3-stair position with at most 3 coins a stair, and
    // every 4-stair position with at most 2.
    for a in 0..=3 {
        for b in 0..=3 {
            for c in 0..=3 {
                cases.push(Comp::Stair(vec![a, b, c]));
            }
        }
    }
    for a in 0..=2 {
        for b in 0..=2 {
            for c in 0..=2 {
                for d in 0..=2 {
                    cases.push(Comp::Stair(vec![a, b, c, d]));
                }
            }
        }
    }
    for c in &cases {
        let p = c.render();
        s.print(format!("grundy({p})"), &format!("grundy({p})"));
    }
    s.print("NB", "NB");
    s.print("table(NK, 0..4096)", "table(NK, 0..4096)");
    s.print(
        "table(Token, 0..24)",
        &format!("table(Token, 0..{DAG_SIZE})"),
    );
    s.print(
        "ppositions(Token, 0..24)",
        &format!("ppositions(Token, 0..{DAG_SIZE})"),
    );
    s.print("table(Kayles, 0..=25)", "table(Kayles, 0..=25)");
    s.print("table(Split3, 0..=24)", "table(Split3, 0..=24)");
    s.print("table(Z, 0..12)", "table(Z, 0..12)");
    let sub_sets: [&[u32]; 3] = [&[2, 5, 6], &[1, 2, 4, 8, 16], &[3, 4, 7, 11]];
    for (i, set) in sub_sets.iter().enumerate() {
        s.src.push_str(&format!(
            "let S{i} = {}\ngame Sub{i}(n) = {{ Sub{i}(n - k) for k in S{i} if k <= n }}\n",
            list_lit(set)
        ));
        s.print(
            format!("subtraction {set:?}"),
            &format!("table(Sub{i}, 0..=150)"),
        );
    }
    let move_probes = [
        Comp::Kayles(6),
        Comp::Chomp(vec![3, 2, 1]),
        Comp::Chomp(vec![4, 4]),
        Comp::Stair(vec![2, 1, 1]),
        Comp::NodeK(0b0000_0111_1111),
        Comp::NodeK(4095),
        Comp::Token(0),
        Comp::Sub(9),
        Comp::Split3(12),
        Comp::ZNim(3),
        Comp::ZNim(0),
    ];
    for c in &move_probes {
        let p = c.render();
        s.print(format!("moves({p})"), &format!("moves({p})"));
    }

    let mut r = Report::default();
    for (case, v) in s.run("brute") {
        if let Some(c) = cases
            .iter()
            .find(|c| case == format!("grundy({})", c.render()))
        {
            if let Some(g) = r.int(&case, &v) {
                let want = brute.value(std::slice::from_ref(c));
                r.eq(&case, u64::from(want), g);
                published_facts(&mut r, c, g);
            }
            continue;
        }
        if let Some(c) = move_probes
            .iter()
            .find(|c| case == format!("moves({})", c.render()))
        {
            if let Some(got) = r.move_list(&case, &v, "moves") {
                let pos = std::slice::from_ref(c);
                let want = (u64::from(brute.value(pos)), brute.moves(pos));
                r.eq(&case, want, got);
            }
            continue;
        }
        match case.as_str() {
            "NB" => {
                let got = r.answer(&case, &v, "value", |v| ints(&v["value"]));
                let want: Vec<u64> = brute.grid_nb.iter().map(|&m| u64::from(m)).collect();
                r.eq(
                    "grid neighbourhoods computed by the .game file",
                    Some(want),
                    got,
                );
            }
            "table(NK, 0..4096)" => {
                if let Some(t) = r.table(&case, &v, &(0..4096).collect::<Vec<_>>()) {
                    for (m, &got) in t.iter().enumerate() {
                        let want = brute.value(&[Comp::NodeK(m as u32)]);
                        r.eq(&format!("Node Kayles 3x4, NK({m})"), u64::from(want), got);
                    }
                }
            }
            "table(Token, 0..24)" => {
                if let Some(t) = r.table(&case, &v, &(0..DAG_SIZE as u64).collect::<Vec<_>>()) {
                    // Independent of `Brute::value`: a sweep from the last vertex back.
                    let mut g = [0u32; DAG_SIZE];
                    for u in (0..DAG_SIZE).rev() {
                        let opts: Vec<u32> = brute.dag[u].iter().map(|&w| g[w]).collect();
                        g[u] = mex(&opts);
                    }
                    let want: Vec<u64> = g.iter().map(|&x| u64::from(x)).collect();
                    r.eq("token on a DAG, values", want, t.clone());
                    for (u, &got) in t.iter().enumerate() {
                        let want = brute.value(&[Comp::Token(u)]);
                        r.eq(&format!("Token({u})"), u64::from(want), got);
                    }
                }
            }
            "ppositions(Token, 0..24)" => {
                let got = r.answer(&case, &v, "p_positions", |v| {
                    v["positions"]
                        .as_array()?
                        .iter()
                        .map(|p| p[0].as_u64())
                        .collect::<Option<Vec<u64>>>()
                });
                let want: Vec<u64> = (0..DAG_SIZE)
                    .filter(|&u| brute.value(&[Comp::Token(u)]) == 0)
                    .map(|u| u as u64)
                    .collect();
                r.eq(&case, Some(want), got);
            }
            "table(Split3, 0..=24)" | "table(Z, 0..12)" => {
                let last = if case.contains("Split3") { 24 } else { 11 };
                if let Some(t) = r.table(&case, &v, &(0..=last).collect::<Vec<_>>()) {
                    for (n, &got) in t.iter().enumerate() {
                        let c = if case.contains("Split3") {
                            Comp::Split3(n as u32)
                        } else {
                            Comp::ZNim(n as u32)
                        };
                        let want = brute.value(std::slice::from_ref(&c));
                        r.eq(&c.render(), u64::from(want), got);
                    }
                }
            }
            "table(Kayles, 0..=25)" => {
                if let Some(t) = r.table(&case, &v, &(0..=25).collect::<Vec<_>>()) {
                    for (n, &got) in t.iter().enumerate() {
                        let want = brute.value(&[Comp::Kayles(n as u32)]);
                        r.eq(&format!("Kayles({n}) [brute force]"), u64::from(want), got);
                        r.eq(
                            &format!("Kayles({n}) brute force vs A002186"),
                            KAYLES_100[n],
                            want,
                        );
                    }
                }
            }
            _ => {
                let (i, set) = sub_sets
                    .iter()
                    .enumerate()
                    .find(|(_, set)| case == format!("subtraction {set:?}"))
                    .unwrap();
                if let Some(t) = r.table(&case, &v, &(0..=150).collect::<Vec<_>>()) {
                    let mut g: Vec<u32> = Vec::new();
                    for n in 0..=150u32 {
                        let opts: Vec<u32> = set
                            .iter()
                            .filter(|&&k| k <= n)
                            .map(|&k| g[(n - k) as usize])
                            .collect();
                        g.push(mex(&opts));
                    }
                    let want: Vec<u64> = g.iter().map(|&x| u64::from(x)).collect();
                    r.eq(&format!("Sub{i} {set:?} 0..=150"), want, t);
                }
            }
        }
    }
    r.finish("brute_force_games");
}

/// Theorems that hold for some single positions, checked on grundy's value.
fn published_facts(r: &mut Report, c: &Comp, g: u64) {
    match c {
        Comp::Chomp(rows) => {
            let rows: Vec<u32> = rows.iter().copied().filter(|&l| l > 0).collect();
            let cells: u32 = rows.iter().sum();
            let p = c.render();
            // Strategy stealing: every rectangle but the poisoned square alone
            // is a first-player win.
            if rows.iter().all(|&l| l == rows[0]) {
                r.truth(
                    &format!("{p}: rectangle is N iff it has more than one cell"),
                    (g != 0) == (cells > 1),
                    || format!("grundy {g}"),
                );
            }
            // Two rows: P exactly when the first row is one longer.
            if rows.len() == 2 {
                r.truth(
                    &format!("{p}: two-row Chomp is P iff a = b + 1"),
                    (g == 0) == (rows[0] == rows[1] + 1),
                    || format!("grundy {g}"),
                );
            }
            // An L (one row plus one column) is Nim with heaps a - 1 and h - 1.
            if rows.iter().skip(1).all(|&l| l == 1) {
                let want = u64::from((rows[0] - 1) ^ (rows.len() as u32 - 1));
                r.eq(
                    &format!(
                        "{p}: L-shaped Chomp = Nim({}) + Nim({})",
                        rows[0] - 1,
                        rows.len() - 1
                    ),
                    want,
                    g,
                );
            }
        }
        Comp::Stair(coins) => {
            // Staircase Nim: P exactly when the coins on odd stairs XOR to 0.
            let odd = coins.iter().step_by(2).fold(0, |acc, &x| acc ^ x);
            r.truth(
                &format!("{}: P iff odd stairs XOR to 0", c.render()),
                (g == 0) == (odd == 0),
                || format!("grundy {g}, odd-stair XOR {odd}"),
            );
        }
        _ => {}
    }
}

/// Disjunctive sums of different games: grundy's value, outcome and winning
/// moves against a brute-force search of the whole sum (no XOR), and the
/// brute force against the XOR of the components' values.
#[test]
fn disjunctive_sums() {
    use Comp::*;
    let mut brute = Brute::new();
    let sums: Vec<Vec<Comp>> = vec![
        vec![Kayles(3), Kayles(5)],
        vec![Kayles(7), Nim(4)],
        vec![Kayles(4), Kayles(4), Kayles(1)],
        vec![Chomp(vec![3, 2]), Stair(vec![1, 2, 1])],
        vec![Chomp(vec![4, 4]), Nim(3)],
        vec![Chomp(vec![3, 2]), Chomp(vec![3, 2])],
        vec![Chomp(vec![3, 3, 3]), Kayles(6)],
        vec![NodeK(0b0000_0111_1111), Token(0)],
        vec![NodeK(0b1001_0110_1001), Sub(7)],
        vec![Sub(9), Kayles(4), Chomp(vec![2, 2])],
        vec![Token(0), Token(3), Token(5)],
        vec![Token(1), Token(1)],
        vec![Stair(vec![2, 0, 1]), Stair(vec![1, 1])],
        vec![Stair(vec![1, 2]), Stair(vec![1, 2])],
        vec![Nim(5), Nim(5)],
        vec![
            Nim(2),
            Sub(6),
            Kayles(2),
            Token(2),
            Stair(vec![0, 1]),
            Chomp(vec![2, 1]),
        ],
        vec![Split3(13), Kayles(5)],
        vec![Split3(9), Split3(7), ZNim(3)],
        vec![ZNim(1), Nim(1)],
        vec![ZNim(4), Chomp(vec![3, 1]), Token(4)],
    ];
    let mut s = Script::new(&games_src(&brute));
    for pos in &sums {
        let p = render_sum(pos);
        s.print(format!("grundy({p})"), &format!("grundy({p})"));
        s.print(format!("outcome({p})"), &format!("outcome({p})"));
        s.print(format!("winning({p})"), &format!("winning({p})"));
        s.print(format!("moves({p})"), &format!("moves({p})"));
    }

    let mut r = Report::default();
    let answers = s.run("sums");
    for (i, (case, v)) in answers.iter().enumerate() {
        let pos = &sums[i / 4];
        let want = brute.value(pos);
        match i % 4 {
            0 => {
                let xor = pos
                    .iter()
                    .fold(0, |acc, c| acc ^ brute.value(std::slice::from_ref(c)));
                r.eq(
                    &format!("{case}: brute force of the sum vs XOR of components"),
                    xor,
                    want,
                );
                if let Some(g) = r.int(case, v) {
                    r.eq(case, u64::from(want), g);
                }
            }
            1 => {
                if let Some(got) = r.outcome(case, v) {
                    let word = if want == 0 { "P" } else { "N" };
                    r.eq(case, (word.to_string(), u64::from(want)), got);
                }
            }
            2 => {
                if let Some(got) = r.move_list(case, v, "winning") {
                    r.eq(case, (u64::from(want), brute.winning(pos)), got);
                }
            }
            _ => {
                // Every move of the sum, each with the value of the whole
                // position it leads to.
                if let Some(got) = r.move_list(case, v, "moves") {
                    r.eq(case, (u64::from(want), brute.moves(pos)), got);
                }
            }
        }
    }
    r.finish("disjunctive_sums");
}

// ---------------------------------------------------------------------------
// Shorthands and periods (issue 4), through the library: octal and
// subtraction games against brute force written here from the definitions,
// periods against published results and against the brute-force sequences.
// ---------------------------------------------------------------------------

/// Values of an octal (or hexadecimal) game straight from the definition
/// of its code.
fn octal_brute(code: &str, n_max: usize) -> Vec<u32> {
    let (whole, frac) = code.split_once('.').unwrap_or((code, ""));
    let digit = |c: char| c.to_digit(16).unwrap() as u8;
    let mut digits: Vec<u8> = vec![whole.chars().next().map_or(0, digit)];
    digits.extend(frac.chars().map(digit));
    let mut g = vec![0u32; n_max + 1];
    for n in 0..=n_max {
        let mut seen = Vec::new();
        for (k, &d) in digits.iter().enumerate().filter(|(k, _)| *k <= n) {
            let rest = n - k;
            if d & 1 != 0 && rest == 0 {
                seen.push(0);
            }
            if d & 2 != 0 && rest > 0 && k > 0 {
                seen.push(g[rest]);
            }
            if d & 4 != 0 {
                for a in 1..rest {
                    if a <= rest - a {
                        seen.push(g[a] ^ g[rest - a]);
                    }
                }
            }
            if d & 8 != 0 {
                for a in 1..rest {
                    for b in a..rest {
                        if a + b < rest && b <= rest - a - b {
                            seen.push(g[a] ^ g[b] ^ g[rest - a - b]);
                        }
                    }
                }
            }
        }
        g[n] = mex(&seen);
    }
    g
}

/// Values of a subtraction game (or its all-but form) from the definition.
fn subtraction_brute(set: &[usize], all_but: bool, n_max: usize) -> Vec<u32> {
    let mut g = vec![0u32; n_max + 1];
    for n in 0..=n_max {
        let seen: Vec<u32> = (1..=n)
            .filter(|k| set.contains(k) != all_but)
            .map(|k| g[n - k])
            .collect();
        g[n] = mex(&seen);
    }
    g
}

/// The smallest period of a sequence's tail, with its pre-period, by the
/// definition (a candidate must repeat at least four times).
fn naive_period(g: &[u32]) -> Option<(usize, usize)> {
    let len = g.len();
    (1..len / 5).find_map(|p| {
        let mut e = len - p;
        while e > 0 && g[e - 1] == g[e - 1 + p] {
            e -= 1;
        }
        (len - p - e >= 4 * p).then_some((e, p))
    })
}

fn session_answers(src: &str) -> Vec<grundy::answer::Answer> {
    let mut s = grundy::session::Session::default();
    let mut out = Vec::new();
    s.run("shorthands.game", src, &mut |_, e| match e {
        grundy::session::Event::Answer(a) => out.push(a),
        grundy::session::Event::Note(_) => {}
        grundy::session::Event::Error(d) | grundy::session::Event::Interrupted(d) => {
            panic!("error: {} ({:?})\n{src}", d.message, d.labels)
        }
    });
    out
}

fn period_of(a: &grundy::answer::Answer) -> (i64, i64, bool) {
    match a {
        grundy::answer::Answer::Period { found: Some(p), .. } => {
            (p.preperiod, p.period, p.is_proven())
        }
        other => panic!("no period: {other:?}"),
    }
}

#[test]
fn periods_are_found_and_proven() {
    // (Published periods: tests/fixtures/periods.game.)
    // Against the brute-force sequences, including pre-periods where the
    // first repeated window is not the period; hexadecimal codes (three
    // heaps) proven with the window for three heaps.
    let cases: [(&str, Vec<u32>); 11] = [
        ("octal S = 0.b1", octal_brute("0.b1", 400)),
        ("octal S = 0.b3", octal_brute("0.b3", 400)),
        ("octal S = 0.f1", octal_brute("0.f1", 400)),
        ("octal S = 4.b", octal_brute("4.b", 400)),
        ("octal S = 4.07", octal_brute("4.07", 3000)),
        ("octal S = 0.51", octal_brute("0.51", 3000)),
        ("octal S = 0.53", octal_brute("0.53", 3000)),
        ("octal S = 0.34", octal_brute("0.34", 3000)),
        ("octal S = 0.3", octal_brute("0.3", 3000)),
        (
            "subtraction S = {2, 5, 7}",
            subtraction_brute(&[2, 5, 7], false, 3000),
        ),
        (
            "subtraction S = {3, 4, 9}",
            subtraction_brute(&[3, 4, 9], false, 3000),
        ),
    ];
    for (def, brute) in cases {
        let (e, p) = naive_period(&brute).expect("the brute force sees a period");
        let answers = session_answers(&format!("{def}\nprint period(S)\n"));
        assert_eq!(period_of(&answers[0]), (e as i64, p as i64, true), "{def}");
    }
    // Grundy's game: no theorem, and nothing claimed beyond what is seen.
    let answers = session_answers(
        "game G(n) = { G(a) + G(n - a) for a in 1..n if 2 * a < n }\nprint period(G, 3000)\n",
    );
    match &answers[0] {
        grundy::answer::Answer::Period {
            found: None,
            computed,
            why,
            ..
        } => {
            assert_eq!(*computed, 3000);
            assert!(
                why.as_deref().is_some_and(|w| w.contains("split")),
                "{why:?}"
            );
        }
        other => panic!("Grundy's game has no known period: {other:?}"),
    }
    // Treblecross (0.007) has no known period: none is claimed.
    let answers = session_answers("octal T = 0.007\nprint period(T, 2000)\n");
    assert!(matches!(
        &answers[0],
        grundy::answer::Answer::Period {
            found: None,
            computed: 2000,
            ..
        }
    ));
}

#[test]
fn winning_moves_of_huge_heaps_are_grouped_and_complete() {
    // n above the size where moves are grouped, small enough to enumerate
    // here by brute force (with the published period of Kayles).
    let k = octal_brute("0.77", 200);
    let g = |x: usize| if x < 83 { k[x] } else { k[71 + (x - 71) % 12] };
    for (n, other) in [(70_001usize, 5usize), (70_000, 0), (123_457, 7)] {
        let src = format!(
            "octal Kayles = 0.77\nprint winning(Kayles({n}){})\n",
            if other > 0 {
                format!(" + Kayles({other})")
            } else {
                String::new()
            }
        );
        let answers = session_answers(&src);
        let grundy::answer::Answer::Winning { moves, .. } = &answers[0] else {
            panic!("not winning moves: {:?}", answers[0]);
        };
        let total = g(n) ^ g(other);
        // Brute force: the winning moves in the big heap.
        let mut want = 0u64;
        for t in 1..=2 {
            let s = n - t;
            if g(s) ^ g(other) == 0 {
                want += 1;
            }
            for x in 1..=s / 2 {
                if g(x) ^ g(s - x) ^ g(other) == 0 {
                    want += 1;
                }
            }
        }
        let mut got = 0u64;
        for mv in moves
            .iter()
            .filter(|m| m.from.text == format!("Kayles({n})"))
        {
            assert_eq!(mv.grundy, 0);
            got += match mv.to.text.rsplit_once(" (") {
                Some((_, count)) if count.ends_with(" moves)") => count
                    .trim_end_matches(" moves)")
                    .parse::<u64>()
                    .expect("a count"),
                _ => 1,
            };
        }
        assert_eq!(
            got, want,
            "winning moves of Kayles({n}) + Kayles({other}), total {total}"
        );
    }
}

/// The heavy case: octal 0.16 has period 149459 from n = 105351 (published:
/// Gangolli and Plambeck). About a minute in a release build:
/// `cargo test --release --test brute_force -- --ignored`.
#[test]
#[ignore = "heavy: a minute in release mode"]
fn octal_0_16_period_is_proven() {
    let answers = session_answers("octal O = 0.16\nprint period(O, 524288)\n");
    assert_eq!(period_of(&answers[0]), (105351, 149459, true));
}

/// Misère play on a one-argument board whose mask is large: Cram on a
/// 6-wide board given as one mask (cells past bit 20, 18 cells at most),
/// against a brute force over masks. It was refused (`too-large`, a mask
/// above 2^20 read as a heap's size) or slow (every mask below it
/// settled first).
#[test]
fn misere_boards_with_large_masks_against_brute_force() {
    const W: u32 = 6;
    fn moves(mask: u64) -> Vec<u64> {
        let mut out = Vec::new();
        for v in 0..64 - W {
            let across = 3u64 << v;
            if v % W < W - 1 && mask & across == across {
                out.push(mask ^ across);
            }
            let down = (1u64 | 1 << W) << v;
            if mask & down == down {
                out.push(mask ^ down);
            }
        }
        out
    }
    /// Whether the player to move loses in misère play: every move leads
    /// to a win for the next player, and there is a move.
    fn loses(mask: u64, memo: &mut HashMap<u64, bool>) -> bool {
        if let Some(&b) = memo.get(&mask) {
            return b;
        }
        let next = moves(mask);
        let out = !next.is_empty() && next.iter().all(|&n| !loses(n, memo));
        memo.insert(mask, out);
        out
    }
    let rows = |r: u32| (1u64 << (W * r)) - 1;
    let boards = [
        ("two cells high", 3u64 << 40),
        ("3 x 6 from bit 0", rows(3)),
        ("3 x 6 from row 4", rows(3) << (4 * W)),
        ("3 x 6 less a corner, from row 5", (rows(3) & !1) << (5 * W)),
        ("an L", (rows(2) << 24) | (1 << 36) | (1 << 42)),
    ];
    let mut script = Script::new(&format!(
        "game Cram(mask) = {{\n\
         \x20   Cram(mask ^ (3 << v)) for v in 0..{top} if v % {W} < {W} - 1 and (mask >> v) & 3 == 3\n\
         \x20   Cram(mask ^ (((1 << {W}) + 1) << v)) for v in 0..{top} if (mask >> v) & ((1 << {W}) + 1) == (1 << {W}) + 1\n\
         }}",
        top = 64 - W
    ));
    for (name, mask) in boards {
        script.print(name, &format!("outcome(Cram({mask}), misere)"));
    }
    let mut memo = HashMap::new();
    let mut bad = Vec::new();
    for ((name, answer), (_, mask)) in script.run("misere_boards").into_iter().zip(boards) {
        let want = if loses(mask, &mut memo) { "P" } else { "N" };
        if answer["outcome"] != want {
            bad.push(format!("{name}: {answer} (want {want})"));
        }
    }
    assert!(bad.is_empty(), "{bad:#?}");
}
