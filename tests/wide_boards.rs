//! Boards of more than 64 cells, as masks like any other (integers of any
//! width): Node Kayles on a graph of 100 vertices read from the input, and
//! Cram on a 9 × 8 board, each with holes, against a brute force written
//! here over 128-bit masks; with the compiled paths and without, on one
//! thread and on several.

mod common;

use common::{run_in, scratch};
use std::collections::HashMap;
use std::path::Path;

/// A small deterministic generator (no crate needed for a fixed sample).
struct Lcg(u64);

impl Lcg {
    fn below(&mut self, n: u64) -> u64 {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        (self.0 >> 33) % n
    }
}

/// `k` distinct cells of `0..n`, at least one of them past 64.
fn cells(rng: &mut Lcg, n: u64, k: usize) -> Vec<u64> {
    let mut cs: Vec<u64> = vec![64 + rng.below(n - 64)];
    while cs.len() < k {
        let c = rng.below(n);
        if !cs.contains(&c) {
            cs.push(c);
        }
    }
    cs.sort_unstable();
    cs
}

fn mask(cs: &[u64]) -> u128 {
    cs.iter().fold(0, |m, &c| m | 1 << c)
}

/// The cases as `--let` gives them: a list of lists of cells.
fn cases_arg(cases: &[Vec<u64>]) -> String {
    let lists: Vec<String> = cases
        .iter()
        .map(|c| {
            let cs: Vec<String> = c.iter().map(u64::to_string).collect();
            format!("[{}]", cs.join(", "))
        })
        .collect();
    format!("cases=[{}]", lists.join(", "))
}

fn mex(seen: &[u32]) -> u32 {
    (0..).find(|g| !seen.contains(g)).unwrap_or(0)
}

/// Node Kayles by brute force: a move takes a vertex and its neighbours.
fn node_kayles(m: u128, adj: &[u128], memo: &mut HashMap<u128, u32>) -> u32 {
    if let Some(&g) = memo.get(&m) {
        return g;
    }
    let mut seen = Vec::new();
    for v in 0..adj.len() {
        if m >> v & 1 == 1 {
            seen.push(node_kayles(m & !(1 << v | adj[v]), adj, memo));
        }
    }
    let g = mex(&seen);
    memo.insert(m, g);
    g
}

/// Cram by brute force on a `w`-wide board: a domino covers two empty
/// cells side by side or one above the other.
fn cram(m: u128, w: u32, cells: u32, memo: &mut HashMap<u128, u32>) -> u32 {
    if let Some(&g) = memo.get(&m) {
        return g;
    }
    let mut seen = Vec::new();
    for v in 0..cells {
        let across = 3u128 << v;
        if v % w + 1 < w && m & across == across {
            seen.push(cram(m ^ across, w, cells, memo));
        }
        let down = (1u128 | 1 << w) << v;
        if v + w < cells && m & down == down {
            seen.push(cram(m ^ down, w, cells, memo));
        }
    }
    let g = mex(&seen);
    memo.insert(m, g);
    g
}

/// Every way to run: the compiled paths and without them, one thread and
/// several; each prints `want`.
fn runs_agree(dir: &Path, args: &[&str], stdin: &str, want: &str) {
    for mode in [
        &["--threads", "1"][..],
        &["--threads", "3"],
        &["--no-kernels", "--threads", "1"],
        &["--no-kernels", "--threads", "3"],
    ] {
        let mut all = args.to_vec();
        all.extend_from_slice(mode);
        let (code, out, err) = run_in(&all, dir, stdin);
        assert_eq!((code, out.as_str()), (Some(0), want), "{mode:?}\n{err}");
    }
}

#[test]
fn node_kayles_on_a_graph_of_100_vertices_with_holes() {
    let mut rng = Lcg(7);
    let n = 100u64;
    // A ring with chords: every vertex has two to four neighbours.
    let mut edges: Vec<(u64, u64)> = (0..n).map(|v| (v, (v + 1) % n)).collect();
    for _ in 0..40 {
        let (a, b) = (rng.below(n), rng.below(n));
        if a != b {
            edges.push((a, b));
        }
    }
    let mut adj = vec![0u128; n as usize];
    for &(a, b) in &edges {
        adj[a as usize] |= 1 << b;
        adj[b as usize] |= 1 << a;
    }
    let cases: Vec<Vec<u64>> = (0..12).map(|i| cells(&mut rng, n, 10 + i)).collect();
    let mut memo = HashMap::new();
    let values: Vec<String> = cases
        .iter()
        .map(|c| node_kayles(mask(c), &adj, &mut memo).to_string())
        .collect();
    let stdin: String = std::iter::once(format!("{n} {}", edges.len()))
        .chain(edges.iter().map(|(a, b)| format!("{a} {b}")))
        .collect::<Vec<_>>()
        .join("\n");

    let dir = scratch("wide-node-kayles");
    // The example's rules as they are, asked about the cases.
    let example = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("examples/node_kayles.game"),
    )
    .expect("examples/node_kayles.game");
    let rules = example
        .split("let everything")
        .next()
        .expect("the rules come first");
    let program = format!(
        "{rules}let cases = []\nlet masks = [fold(m = 0, m | (1 << v) for v in c) for c in cases]\n\
         print [grundy(NodeKayles(m)) for m in masks]\n"
    );
    std::fs::write(dir.join("nk.game"), program).expect("write");
    let want = format!(
        "[grundy(NodeKayles(m)) for m in masks] = [{}]\n",
        values.join(", ")
    );
    // The cases are not all alike.
    assert!(values.iter().any(|v| v != &values[0]), "{values:?}");
    let cases = cases_arg(&cases);
    runs_agree(&dir, &["nk.game", "--let", &cases], &stdin, &want);
}

#[test]
fn cram_on_a_board_of_72_cells_with_holes() {
    let mut rng = Lcg(11);
    let (w, h) = (9u32, 8u32);
    let n = u64::from(w * h);
    let cases: Vec<Vec<u64>> = (0..10).map(|i| cells(&mut rng, n, 12 + i)).collect();
    // And the whole last three rows: a 9 × 3 board, every cell past 44.
    let mut cases = cases;
    cases.push((45..72).collect());
    let mut memo = HashMap::new();
    let values: Vec<String> = cases
        .iter()
        .map(|c| cram(mask(c), w, w * h, &mut memo).to_string())
        .collect();

    let dir = scratch("wide-cram");
    let example =
        std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("examples/cram.game"))
            .expect("examples/cram.game");
    // The rules, without the example's question (the whole board).
    let rules = example
        .split("\nprint ")
        .next()
        .expect("the rules come first");
    let program = format!(
        "{rules}\nlet cases = []\nlet masks = [fold(m = 0, m | (1 << v) for v in c) for c in cases]\n\
         print [grundy(Cram(m)) for m in masks]\n"
    );
    std::fs::write(dir.join("cram.game"), program).expect("write");
    let want = format!(
        "[grundy(Cram(m)) for m in masks] = [{}]\n",
        values.join(", ")
    );
    assert!(values.iter().any(|v| v != &values[0]), "{values:?}");
    let cases = cases_arg(&cases);
    let args = ["cram.game", "--let", "w=9", "--let", "h=8", "--let", &cases];
    runs_agree(&dir, &args, "", &want);
}
