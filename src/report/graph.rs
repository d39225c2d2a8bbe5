//! `graph(P[, limit])`: a position's state graph, as a report and as its
//! DOT text.

use super::*;

pub(super) const QUERY: Query = Query {
    answer: |m, q, env| {
        let (parts, g) = graph(m, q.args, env)?;
        Ok(Answer::Graph {
            position: pos_data(m, &parts),
            dot: g.dot,
            nodes: g.nodes,
            edges: g.edges,
            file: None,
        })
    },
    value: |m, q, env| Ok(Value::Str(graph(m, q.args, env)?.1.dot.into())),
};

/// `graph(P[, limit])`: the position and its state graph.
fn graph(
    m: &mut Machine,
    args: &[ExprId],
    env: &mut [Value],
) -> R<(Vec<PosId>, crate::graph::DotGraph)> {
    let parts = m.interp().eval_sum(args[0], env)?;
    let limit = match args.get(1) {
        Some(&l) => m.interp().eval_int(l, env)?,
        None => crate::graph::DEFAULT_NODES,
    };
    if limit < 1 {
        return Err(Diag::user(
            Code::BadLimit,
            "a graph needs a limit of at least 1 position",
        )
        .label(m.program().span(args[1]), "this limit")
        .into());
    }
    let span = m.program().span(args[0]);
    let g = m
        .with_misere(|ms, m| crate::graph::graph(ms, m, &parts, limit, span))
        .map_err(|d| at(d, span))?;
    Ok((parts, g))
}
