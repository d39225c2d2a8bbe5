//! The state graph of a position as Graphviz DOT: one node per reachable
//! sum (components without moves dropped), labeled with the sum and its
//! Grundy value, P-positions drawn double and draws (loopy games) dashed;
//! one edge per distinct option.

use crate::diagnostics::{Code, Diag};
use crate::flow::R;
use crate::oracle::Oracle;
use crate::solve::misere::{Misere, State};
use crate::value::PosId;
use crate::value::{Gsg, Outcome};
use std::collections::HashMap;
use std::fmt::Write as _;

/// The default largest graph drawn.
pub const DEFAULT_NODES: i64 = 500;

/// A drawn graph.
pub struct DotGraph {
    /// The DOT text.
    pub dot: String,
    /// Nodes drawn.
    pub nodes: usize,
    /// Edges drawn.
    pub edges: usize,
}

/// Draws the graph of the sum `parts`, with at most `limit` nodes, over the
/// oracle's options and values (sums as the misère search keeps them).
pub fn graph(
    ms: &mut Misere,
    m: &mut dyn Oracle,
    parts: &[PosId],
    limit: i64,
    span: crate::span::Span,
) -> R<DotGraph> {
    let root = ms.state(m, parts)?;
    let mut ids: HashMap<State, usize> = HashMap::new();
    let mut order: Vec<State> = vec![root.clone()];
    ids.insert(root, 0);
    let mut edges = Vec::new();
    let mut next = 0;
    while next < order.len() {
        let s = order[next].clone();
        // One edge per distinct option (moves that leave the same state
        // are one edge).
        let mut targets = std::collections::HashSet::new();
        for (_, _, o) in ms.options(m, &s)? {
            let id = match ids.get(&o) {
                Some(&id) => id,
                None => {
                    if order.len() as i64 >= limit {
                        return Err(Diag::user(
                            Code::GraphTooLarge,
                            format!("the graph has more than {limit} positions"),
                        )
                        .label(span, "this position")
                        .help("draw a smaller position, or raise the limit: `graph(P, N)`")
                        .into());
                    }
                    order.push(o.clone());
                    ids.insert(o, order.len() - 1);
                    order.len() - 1
                }
            };
            if targets.insert(id) {
                edges.push((next, id));
            }
        }
        next += 1;
    }
    let mut dot = String::from(
        "digraph grundy {\n  rankdir=TB;\n  node [shape=box, style=rounded, fontname=\"Helvetica\"];\n",
    );
    for (i, s) in order.iter().enumerate() {
        let mut g = Gsg::Finite(0);
        for &p in s.iter() {
            g = g.sum(&m.gsg(p)?);
        }
        let shown = if s.is_empty() {
            "0".to_string()
        } else {
            s.iter()
                .map(|&p| m.show_pos(p))
                .collect::<Vec<_>>()
                .join(" + ")
        };
        let label = format!("{}\\ngrundy {g}", escape(&shown));
        let mark = match g.outcome() {
            Outcome::P => ", peripheries=2, style=\"rounded,filled\", fillcolor=\"#e8e8e8\"",
            Outcome::D => ", style=\"rounded,dashed\"",
            Outcome::N => "",
        };
        let _ = writeln!(dot, "  n{i} [label=\"{label}\"{mark}];");
    }
    for (a, b) in &edges {
        let _ = writeln!(dot, "  n{a} -> n{b};");
    }
    dot.push_str("}\n");
    Ok(DotGraph {
        dot,
        nodes: order.len(),
        edges: edges.len(),
    })
}

fn escape(s: &str) -> String {
    s.replace('\\', "\\\\").replace('"', "\\\"")
}
