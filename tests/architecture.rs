//! The invariants of docs/ARCHITECTURE.md that a test can check, read from
//! the source itself: which top-level modules use which, and which modules
//! know the outside crates that only one module may know.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

/// Every source file under `src/`, as (path relative to `src/`, text with
/// comments removed).
fn sources() -> Vec<(String, String)> {
    fn walk(dir: &Path, out: &mut Vec<(String, String)>) {
        let mut entries: Vec<_> = std::fs::read_dir(dir).unwrap().flatten().collect();
        entries.sort_by_key(|e| e.path());
        for e in entries {
            let p = e.path();
            if p.is_dir() {
                walk(&p, out);
            } else if p.extension().is_some_and(|x| x == "rs") {
                let rel = p
                    .strip_prefix("src")
                    .unwrap()
                    .to_string_lossy()
                    .replace('\\', "/");
                let text = std::fs::read_to_string(&p).unwrap();
                let code: Vec<&str> = text
                    .lines()
                    .map(|l| l.split("//").next().unwrap_or(""))
                    .collect();
                out.push((rel, code.join("\n")));
            }
        }
    }
    let mut out = Vec::new();
    walk(Path::new("src"), &mut out);
    assert!(out.len() > 10, "no sources found");
    out
}

/// The layer a file belongs to: its top-level module (`eval/search.rs`
/// belongs to `eval`), but each solver is a layer of its own
/// (`solve/analysis/shape.rs` belongs to `solve::analysis`).
fn module_of(rel: &str) -> String {
    let mut parts = rel.split('/').map(|p| p.trim_end_matches(".rs"));
    match (parts.next().unwrap(), parts.next()) {
        ("solve", Some(solver)) if solver != "mod" => format!("solve::{solver}"),
        (top, _) => top.to_string(),
    }
}

/// Which top-level modules each module names through `crate::`.
fn uses() -> BTreeMap<String, BTreeSet<String>> {
    let mut graph: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for (rel, code) in sources() {
        let from = module_of(&rel);
        if from == "lib" || from == "main" {
            continue;
        }
        let entry = graph.entry(from.clone()).or_default();
        for (i, _) in code.match_indices("crate::") {
            let mut name = ident(&code[i + 7..]);
            // A solver's module, not an item of `solve` itself (`Solver`).
            if name == "solve" && code[i + 12..].starts_with("::") {
                let item = ident(&code[i + 14..]);
                if item.starts_with(|c: char| c.is_lowercase()) {
                    name = format!("solve::{item}");
                }
            }
            if !name.is_empty() && name != from {
                entry.insert(name);
            }
        }
    }
    graph
}

/// The groups of modules that depend on each other in a cycle (strongly
/// connected components of more than one module), each sorted.
fn cycles(graph: &BTreeMap<String, BTreeSet<String>>) -> BTreeSet<Vec<String>> {
    let reach = |from: &str| {
        let mut seen = BTreeSet::new();
        let mut todo = vec![from.to_string()];
        while let Some(m) = todo.pop() {
            for n in graph.get(&m).into_iter().flatten() {
                if seen.insert(n.clone()) {
                    todo.push(n.clone());
                }
            }
        }
        seen
    };
    let reaches: BTreeMap<&String, BTreeSet<String>> =
        graph.keys().map(|m| (m, reach(m))).collect();
    let mut out = BTreeSet::new();
    for (m, r) in &reaches {
        let group: Vec<String> = r
            .iter()
            .filter(|n| reaches.get(n).is_some_and(|back| back.contains(*m)))
            .cloned()
            .collect();
        if group.len() > 1 {
            out.insert(group);
        }
    }
    out
}

/// The module path of a file: `kernel/batch.rs` is `kernel::batch`,
/// `eval/mod.rs` is `eval`.
fn path_of(rel: &str) -> String {
    rel.trim_end_matches(".rs")
        .trim_end_matches("/mod")
        .replace('/', "::")
}

/// The parent of a module path (`""` for a top-level module).
fn parent(path: &str) -> &str {
    path.rsplit_once("::").map_or("", |(p, _)| p)
}

/// The identifier at the start of `s`.
fn ident(s: &str) -> String {
    s.chars()
        .take_while(|c| c.is_alphanumeric() || *c == '_')
        .collect()
}

/// Which modules, at any depth, each module names: through `crate::a::b`,
/// `super::b`, or a child's name (`batch::Batch` in `kernel`). A path names
/// the longest module it starts with.
fn uses_at_every_depth() -> BTreeMap<String, BTreeSet<String>> {
    let files = sources();
    let known: BTreeSet<String> = files
        .iter()
        .map(|(rel, _)| path_of(rel))
        .filter(|p| p != "lib" && p != "main")
        .collect();
    // The longest known module among the prefixes of `a::b::c`.
    let longest = |segments: &[String]| -> Option<String> {
        (1..=segments.len())
            .rev()
            .map(|n| segments[..n].join("::"))
            .find(|p| known.contains(p))
    };
    let segments_at = |code: &str, at: usize| -> Vec<String> {
        let mut out = Vec::new();
        let mut rest = &code[at..];
        loop {
            let id = ident(rest);
            if id.is_empty() {
                break;
            }
            rest = &rest[id.len()..];
            out.push(id);
            match rest.strip_prefix("::") {
                Some(r) => rest = r,
                None => break,
            }
        }
        out
    };
    let mut graph: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for (rel, code) in &files {
        let from = path_of(rel);
        if !known.contains(&from) {
            continue;
        }
        let mut used = BTreeSet::new();
        for (i, _) in code.match_indices("crate::") {
            let segs = segments_at(code, i + 7);
            used.extend(longest(&segs));
        }
        for (i, _) in code.match_indices("super::") {
            // `super::super::` is not written here; `super::x` is a sibling
            // `x` or an item of the parent.
            let mut segs: Vec<String> = parent(&from)
                .split("::")
                .filter(|s| !s.is_empty())
                .map(String::from)
                .collect();
            segs.extend(segments_at(code, i + 7));
            used.extend(longest(&segs));
        }
        // A child named without `self::` (`batch::Batch`, `use loops::Iter`).
        for child in known.iter().filter(|k| parent(k) == from) {
            let name = child.rsplit("::").next().unwrap_or(child);
            let pattern = format!("{name}::");
            let named = code.match_indices(&pattern).any(|(i, _)| {
                let before = code[..i].chars().next_back();
                !before.is_some_and(|c| c.is_alphanumeric() || c == '_' || c == ':')
            });
            if named {
                used.insert(child.clone());
            }
        }
        used.remove(&from);
        graph.entry(from).or_default().extend(used);
    }
    graph
}

/// For each module with submodules (and the crate, `""`), the graph of its
/// children: child a uses child b when anything inside a names anything
/// inside b. A parent and its own children are not edges of it (a parent
/// owns its children; `use super::*` reads the parent's items).
fn sibling_graphs(
    graph: &BTreeMap<String, BTreeSet<String>>,
) -> BTreeMap<String, BTreeMap<String, BTreeSet<String>>> {
    // The child of `ancestor` that `path` lies in.
    let child_of = |ancestor: &str, path: &str| -> Option<String> {
        let rest = if ancestor.is_empty() {
            path
        } else {
            path.strip_prefix(ancestor)?.strip_prefix("::")?
        };
        let first = rest.split("::").next()?;
        Some(if ancestor.is_empty() {
            first.to_string()
        } else {
            format!("{ancestor}::{first}")
        })
    };
    let mut out: BTreeMap<String, BTreeMap<String, BTreeSet<String>>> = BTreeMap::new();
    for (from, tos) in graph {
        for to in tos {
            // Their lowest common ancestor, and the children under it.
            let (a, b): (Vec<&str>, Vec<&str>) =
                (from.split("::").collect(), to.split("::").collect());
            let common = a.iter().zip(&b).take_while(|(x, y)| x == y).count();
            if common == a.len() || common == b.len() {
                continue;
            }
            let lca = a[..common].join("::");
            let (Some(x), Some(y)) = (child_of(&lca, from), child_of(&lca, to)) else {
                continue;
            };
            out.entry(lca).or_default().entry(x).or_default().insert(y);
        }
    }
    out
}

#[test]
fn the_cycle_finder_finds_cycles() {
    let mut g: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for (a, b) in [("a", "b"), ("b", "c"), ("c", "a"), ("c", "d"), ("d", "e")] {
        g.entry(a.into()).or_default().insert(b.into());
    }
    let want: BTreeSet<Vec<String>> = [vec!["a".into(), "b".into(), "c".into()]].into();
    assert_eq!(cycles(&g), want);
}

/// Dependencies point down: no module reaches, directly or not, a module
/// that depends on it. (The evaluator calls the period analysis and owns the
/// misère memo; both ask it for values through `oracle::Oracle`.)
#[test]
fn no_module_cycle() {
    let graph = uses();
    assert_eq!(cycles(&graph), BTreeSet::new(), "module graph: {graph:#?}");
}

/// No cycle at any depth either: submodules of one module (say
/// `kernel::batch` and `kernel::window`) do not use each other both ways.
#[test]
fn no_module_cycle_at_any_depth() {
    let graph = uses_at_every_depth();
    assert!(
        graph.contains_key("kernel::batch") && graph.contains_key("eval::loops"),
        "submodules not read: {:?}",
        graph.keys().collect::<Vec<_>>()
    );
    let mut found = BTreeMap::new();
    for (parent, children) in sibling_graphs(&graph) {
        let c = cycles(&children);
        if !c.is_empty() {
            found.insert(parent, c);
        }
    }
    assert_eq!(found, BTreeMap::new(), "cycles among submodules");
}

#[test]
fn the_submodule_reader_sees_super_and_child_paths() {
    let mut g: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for (a, b) in [
        ("k::b", "k::w"),
        ("k::w", "k::b"),
        ("k", "k::b"),
        ("k::b", "k"),
        ("x::y", "k::w"),
    ] {
        g.entry(a.into()).or_default().insert(b.into());
    }
    let s = sibling_graphs(&g);
    let want: BTreeSet<Vec<String>> = [vec!["k::b".into(), "k::w".into()]].into();
    assert_eq!(cycles(&s["k"]), want, "siblings in a cycle");
    assert!(
        s[""]["x"].contains("k"),
        "a deep use is a use of the top module"
    );
    // Parent and child: not an edge.
    assert!(!s.contains_key("k::b"));
}

/// Each bottom layer and what it may use (read by the tests below).
const LAYERS: &[(&str, &[&str])] = &[
    ("span", &[]),
    ("ops", &[]),
    ("board", &[]),
    ("diagnostics", &["span"]),
    ("syntax", &["diagnostics", "ops", "span"]),
    (
        "builtin",
        &[
            "board",
            "diagnostics",
            "flow",
            "mex",
            "ops",
            "span",
            "value",
        ],
    ),
    ("ir", &["builtin", "ids", "ops", "span", "syntax"]),
    ("ids", &[]),
    ("store", &["ids"]),
    // A checkpoint is a store's known values in a file.
    ("checkpoint", &["diagnostics", "ids", "store"]),
    ("value", &["ops", "store"]),
    // Input is read against the memory limit (the allocator's count).
    ("input", &["diagnostics", "flow", "memory", "value"]),
    ("key", &["ir", "ops", "store", "value"]),
    ("compiled", &["board", "ir", "ops", "value"]),
    // The one linear lowering, under the kernels and the shape analysis.
    ("linear", &["compiled", "ops"]),
    (
        "kernel",
        &[
            "board", "compiled", "ir", "linear", "mex", "ops", "store", "value",
        ],
    ),
    // Sparse space over plain values (the store's sentinels only).
    ("sparse", &["mex", "store"]),
    // Games with cycles: plain graphs in, values out.
    ("solve::loopy", &["value"]),
    ("flow", &["diagnostics", "span"]),
    // Pictures are drawn from plain data; files are written from answers.
    ("picture", &[]),
    ("files", &["answer", "diagnostics"]),
    ("memory", &[]),
    ("progress", &[]),
    ("budget", &["diagnostics", "flow", "memory", "progress"]),
    ("mex", &["store"]),
    (
        "oracle",
        &["budget", "flow", "ir", "span", "store", "value"],
    ),
    // The pruned search: plain data over its own trait.
    ("solve::prune", &["diagnostics", "flow", "oracle", "store"]),
    // The solvers and analyses see the engine through the oracle only;
    // the seam's trait too.
    ("solve", &["flow", "ir", "oracle", "store"]),
    // The genus and misère quotients: plain numbers.
    ("solve::genus", &[]),
    ("solve::quotient", &[]),
    // Marking P-positions: plain translations in, bits out.
    ("marking", &[]),
    // Formulas searched: points and values in, a formula out.
    ("guess", &["ops"]),
    (
        "solve::misere",
        &[
            "diagnostics",
            "flow",
            "oracle",
            "solve::genus",
            "solve::loopy",
            "solve::quotient",
            "span",
            "store",
            "value",
        ],
    ),
    (
        "graph",
        &[
            "diagnostics",
            "flow",
            "oracle",
            "solve::misere",
            "span",
            "value",
        ],
    ),
    (
        "solve::analysis",
        &[
            "compiled",
            "diagnostics",
            "flow",
            // The P-positions' shape: a formula true exactly at them.
            "guess",
            "ir",
            "kernel",
            "linear",
            // Translations are read into the marking core's own type.
            "marking",
            "ops",
            "oracle",
            "span",
            "syntax",
            "value",
        ],
    ),
];

/// The lower layers never reach up: integer semantics, spans, the store
/// and values know nothing of the evaluator, the session or the front ends.
#[test]
fn the_bottom_layers_use_only_what_is_below_them() {
    let graph = uses();
    let allowed = LAYERS;
    for (module, may) in allowed {
        assert!(graph.contains_key(*module), "no module `{module}` found");
        let used = graph.get(*module).cloned().unwrap_or_default();
        let extra: Vec<&String> = used.iter().filter(|u| !may.contains(&u.as_str())).collect();
        assert!(extra.is_empty(), "`{module}` uses {extra:?}");
    }
}

/// The solvers are the engine's clients: a module under `src/solve/` sees
/// the engine through `oracle::Oracle` (or a plain-data trait of its own),
/// never the evaluator, the store's keys or anything above them; and each
/// has its layer written in `the_bottom_layers_use_only_what_is_below_them`.
#[test]
fn solvers_reach_the_engine_only_through_the_oracle() {
    let graph = uses();
    let solvers: Vec<&String> = graph.keys().filter(|m| m.starts_with("solve::")).collect();
    for s in [
        "solve::prune",
        "solve::loopy",
        "solve::analysis",
        "solve::misere",
    ] {
        assert!(graph.contains_key(s), "no solver `{s}` found");
    }
    for solver in solvers {
        let used = &graph[solver];
        for inside in [
            "eval", "key", "session", "query", "report", "answer", "printer", "files", "cli",
            "repl", "lsp", "graph",
        ] {
            assert!(!used.contains(inside), "`{solver}` uses `{inside}`");
        }
        assert!(
            LAYERS.iter().any(|(m, _)| m == solver),
            "`{solver}` has no layer in the_bottom_layers_use_only_what_is_below_them"
        );
    }
}

/// The solvers' state has one owner each: a part of the machine's
/// `Caches` is named by its solver's module alone (and by `eval/mod.rs`,
/// which declares the caches and renumbers or clears them for a new
/// program). The
/// fill's state (`Accel`) has private fields: the compiler keeps it to
/// `eval/accel.rs`.
#[test]
fn each_solvers_state_is_reached_by_its_owner_alone() {
    let owners = [
        ("periods", "eval/periods.rs"),
        ("remote", "eval/loopy.rs"),
        ("pruning", "eval/prune.rs"),
        ("misere", "eval/mod.rs"),
    ];
    let mut seen = BTreeSet::new();
    for (rel, code) in sources() {
        for (field, owner) in owners {
            if code.contains(&format!("caches.{field}")) {
                assert!(
                    rel == owner || rel == "eval/mod.rs",
                    "{rel} reaches the {field} cache, which {owner} owns"
                );
                seen.insert(field);
            }
        }
    }
    assert_eq!(seen.len(), owners.len(), "caches not found: {seen:?}");
}

/// Only `diagnostics` knows miette, only `repl/line.rs` knows rustyline,
/// only `syntax` knows pest.
#[test]
fn outside_crates_are_known_by_one_module_each() {
    for (rel, code) in sources() {
        for (krate, owner) in [
            ("miette", "diagnostics.rs"),
            ("rustyline", "repl/line.rs"),
            ("pest", "syntax/"),
            ("plotters", "picture.rs"),
            ("indicatif", "progress.rs"),
            ("xxhash_rust", "checkpoint"),
            ("num_bigint", "ops/wide.rs"),
            ("num_integer", "ops/wide.rs"),
            ("num_traits", "ops/wide.rs"),
        ] {
            let mentions = code.contains(&format!("{krate}::"))
                || code.contains(&format!("use {krate}"))
                || code.contains(&format!("{krate}_derive"));
            assert!(
                !mentions || rel.starts_with(owner),
                "{rel} uses {krate}, which only {owner} may know"
            );
        }
    }
}

/// No source file over 1000 lines: a file is long only when one concern
/// is. (A struct's fields and a type's methods are not counted: who owns
/// which state is checked by what reaches it, above, and a count met by
/// spreading one object over views would say nothing.)
#[test]
fn no_long_file() {
    let long: BTreeSet<String> = sources()
        .into_iter()
        .filter(|(_, code)| code.lines().count() > 1000)
        .map(|(rel, _)| rel)
        .collect();
    assert_eq!(long, BTreeSet::new(), "files over 1000 lines");
    assert!(sources().iter().any(|(rel, _)| rel == "eval/mod.rs"));
}

/// The ways of evaluating are chosen in one place: the strategies
/// (`Strategy`) and their entry points (`Machine::by_*`) are named only in
/// `eval/plan.rs`, where the planner picks them and one dispatch calls them.
#[test]
fn strategies_are_chosen_in_one_place() {
    let mut defined = BTreeSet::new();
    for (rel, code) in sources() {
        for (i, line) in code.lines().enumerate() {
            let t = line.trim_start();
            if t.starts_with("//") {
                continue;
            }
            let mut rest = t;
            while let Some(at) = rest.find("by_") {
                let before = rest[..at].chars().last();
                let name: String = rest[at..]
                    .chars()
                    .take_while(|c| c.is_alphanumeric() || *c == '_')
                    .collect();
                rest = &rest[at + name.len().max(1)..];
                if !rest.starts_with('(') {
                    continue;
                }
                if t.contains(&format!("fn {name}(")) && rel.starts_with("eval/") {
                    defined.insert(name);
                    continue;
                }
                // Method calls only (`self.by_kernel(..)`).
                if before != Some('.') {
                    continue;
                }
                assert_eq!(
                    rel,
                    "eval/plan.rs",
                    "{rel}:{}: a strategy ({name}) called outside the planner",
                    i + 1
                );
            }
            if t.contains("Strategy::") {
                assert_eq!(
                    rel,
                    "eval/plan.rs",
                    "{rel}:{}: `Strategy` outside the planner",
                    i + 1
                );
            }
            // Misère play's ways are asked by its plan alone.
            for way in [
                ".huge_nim_winning(",
                ".quotient_loses(",
                ".quotient_winning(",
                ".solve_loopy(m",
            ] {
                if t.contains(way) {
                    assert_eq!(
                        rel,
                        "solve/misere/plan.rs",
                        "{rel}:{}: a misère way ({way}) asked outside its plan",
                        i + 1
                    );
                }
            }
        }
    }
    // The test sees the strategies it guards.
    for s in [
        "by_loopy",
        "by_period",
        "by_ascent",
        "by_kernel",
        "by_search",
    ] {
        assert!(defined.contains(s), "no strategy `{s}` found");
    }
    let plan =
        std::fs::read_to_string("src/solve/misere/plan.rs").expect("src/solve/misere/plan.rs");
    for way in [
        ".huge_nim_winning(",
        ".quotient_loses(",
        ".quotient_winning(",
        ".solve_loopy(m",
    ] {
        assert!(plan.contains(way), "the misère plan does not ask {way}");
    }
}

/// The engine computes values and rows of ids; answers are shaped above
/// it (`report`, `query`) and rendered at the edge: nothing in `eval`
/// builds an `Answer`, JSON or a picture.
#[test]
fn the_engine_builds_no_answers() {
    let graph = uses();
    let used = graph.get("eval").cloned().unwrap_or_default();
    for above in [
        "answer", "picture", "files", "report", "query", "session", "repl", "cli",
    ] {
        assert!(!used.contains(above), "`eval` uses `{above}`");
    }
    for (rel, code) in sources() {
        if rel.starts_with("eval/") {
            for word in ["serde_json", "Answer::", "svg"] {
                assert!(!code.contains(word), "{rel} mentions {word}");
            }
        }
    }
}

/// Control flow is typed: a limit, a cycle and Ctrl-C are variants of
/// `flow::Stop`, made where they happen, so no code outside `flow` and
/// `diagnostics` names their codes, and no code decides by a diagnostic's
/// code or message text (the language server's recovery from syntax errors
/// excepted: it reads parse errors to find where an item ran on).
#[test]
fn control_flow_is_decided_by_matching_never_by_reading_a_diagnostic() {
    let codes = [
        "Code::TimeLimit",
        "Code::MemoryLimit",
        "Code::WorkLimit",
        "Code::StateLimit",
        "Code::DepthLimit",
        "Code::Runaway",
        "Code::Cycle",
        "Code::Interrupted",
    ];
    for (rel, code) in sources() {
        if rel == "flow.rs" || rel == "diagnostics.rs" {
            continue;
        }
        // Unit tests may assert a report's code.
        let code = code.split("#[cfg(test)]").next().unwrap_or_default();
        for c in codes {
            assert!(!code.contains(c), "{rel} names {c}");
        }
        for read in [
            ".message.strip_prefix",
            ".message.starts_with",
            ".message ==",
            ".message.contains",
        ] {
            assert!(
                !code.contains(read),
                "{rel} reads a diagnostic's text ({read})"
            );
        }
        if rel != "lsp/salvage.rs" {
            for read in [".code ==", ".code !=", "matches!(d.code"] {
                assert!(
                    !code.contains(read),
                    "{rel} decides by a diagnostic's code ({read})"
                );
            }
        }
    }
}

/// One meaning per name: no two types of the crate share a name (a reader
/// meeting `Found` or `Stop` knows which it is), but the AST's and the IR's
/// mirror images, which their module paths always name (`ast::Expr`,
/// `ir::Expr`).
#[test]
fn no_two_types_share_a_name() {
    let mirrored = ["Clause", "Expr", "Program", "Rule"];
    let mut seen: BTreeMap<String, String> = BTreeMap::new();
    for (rel, code) in sources() {
        for line in code.lines() {
            let words: Vec<&str> = line.split_whitespace().collect();
            // Items at the start of a line: `struct X`, `pub(super) enum X<..>`.
            let at = match words.first() {
                Some(w) if w.starts_with("pub") => 1,
                _ => 0,
            };
            let (Some(&kind), Some(&name)) = (words.get(at), words.get(at + 1)) else {
                continue;
            };
            let public_alias = kind == "type" && at == 1;
            if !(["struct", "enum", "trait"].contains(&kind) || public_alias) {
                continue;
            }
            let name: String = name
                .chars()
                .take_while(|c| c.is_alphanumeric() || *c == '_')
                .collect();
            if name.is_empty() || mirrored.contains(&name.as_str()) {
                continue;
            }
            if let Some(first) = seen.insert(name.clone(), rel.clone()) {
                assert_eq!(
                    first, rel,
                    "two types named `{name}`: in {first} and in {rel}"
                );
            }
        }
    }
    assert!(
        seen.contains_key("Machine") && seen.contains_key("Stop"),
        "the test sees the types"
    );
}

/// Every `fn` in the source (tests left out) as (file, name, lines).
fn functions() -> Vec<(String, String, usize)> {
    let mut fns = Vec::new();
    for (rel, code) in sources() {
        let lines: Vec<&str> = code.lines().collect();
        for (i, line) in lines.iter().enumerate() {
            let t = line.trim_start();
            let indent = line.len() - t.len();
            if t.starts_with("#[cfg(test)]") {
                break;
            }
            let sig = t
                .trim_start_matches("pub(crate) ")
                .trim_start_matches("pub(super) ")
                .trim_start_matches("pub ")
                .trim_start_matches("const ");
            let Some(rest) = sig.strip_prefix("fn ") else {
                continue;
            };
            let name: String = rest
                .chars()
                .take_while(|c| c.is_alphanumeric() || *c == '_')
                .collect();
            // Its end: the first line at its indent that closes it.
            let end = lines[i..]
                .iter()
                .position(|l| {
                    let lt = l.trim_start();
                    l.len() - lt.len() == indent && lt.starts_with('}')
                })
                .map_or(1, |n| n + 1);
            if !line.trim_end().ends_with(';') {
                fns.push((rel.clone(), name, end));
            }
        }
    }
    fns
}

/// No function over 150 lines.
#[test]
fn no_long_function() {
    let fns = functions();
    let long: BTreeSet<String> = fns
        .iter()
        .filter(|(_, _, n)| *n > 150)
        .map(|(rel, name, _)| format!("{rel}: {name}"))
        .collect();
    assert_eq!(long, BTreeSet::new(), "functions over 150 lines");
    // The reader sees what it counts.
    assert!(
        fns.iter()
            .any(|(rel, name, _)| rel == "eval/plan.rs" && name == "plan")
    );
}
