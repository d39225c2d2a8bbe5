//! Misère play of loopy games: the graph of sums a position reaches,
//! labelled as normal play labels it once every sum with no move is given
//! one move to an end with none (whoever cannot move wins misère play: the
//! opponent, left at the end, cannot move). The labels are then the misère
//! values: finite where play ends, ∞ where it may go on forever.

use super::{Misere, State};
use crate::diagnostics::Diag;
use crate::flow::{Limit, R, Stop};
use crate::oracle::Oracle;
use crate::solve::loopy::Graph;
use crate::value::Gsg;
use rustc_hash::FxHashMap;

/// The misère values of the sums a root reaches.
pub struct MisereSolved {
    index: FxHashMap<State, u32>,
    graph: Graph,
    solved: crate::solve::loopy::Solved,
}

impl MisereSolved {
    /// The misère value of a sum the root reaches.
    pub fn value(&self, s: &State) -> R<Gsg> {
        let v = self
            .index
            .get(s)
            .ok_or_else(|| Diag::bug("a sum outside the misère graph"))?;
        Ok(self.solved.value(&self.graph, *v))
    }
}

impl Misere {
    /// Whether a sum has a component of a loopy game.
    pub fn has_loopy(m: &dyn Oracle, s: &State) -> bool {
        s.iter().any(|&c| {
            let (game, _) = m.position(c);
            m.program().games.get(game.index()).is_some_and(|g| g.loopy)
        })
    }

    /// Solves the graph of the sums `root` reaches in misère play.
    pub fn solve_loopy(&mut self, m: &mut dyn Oracle, root: &State) -> R<MisereSolved> {
        let mut graph = Graph::default();
        // Vertex 0: the end, after the move from a sum with no move.
        graph.add([]).map_err(|_| too_large())?;
        let mut index = FxHashMap::default();
        index.insert(root.clone(), 1);
        let mut order = vec![root.clone()];
        let mut i = 0;
        while let Some(s) = order.get(i).cloned() {
            let options = self.option_states(m, &s)?;
            let mut ids = Vec::with_capacity(options.len().max(1));
            if options.is_empty() {
                ids.push(0);
            }
            for o in options {
                let next = order.len() as u32 + 1;
                let id = *index.entry(o.clone()).or_insert_with(|| {
                    order.push(o);
                    next
                });
                ids.push(id);
            }
            if order.len() > m.max_states() {
                return Err(Limit::States
                    .stop(format!(
                        "the misère graph reached {} sums of positions",
                        m.max_states()
                    ))
                    .help("a loopy game's misère play is solved over every sum it reaches: ask about smaller sums, or raise `--max-states N`"));
            }
            graph.add(ids).map_err(|_| too_large())?;
            i += 1;
        }
        let solved = crate::solve::loopy::solve(&graph, &mut |w| {
            for _ in 0..w {
                m.poll()?;
            }
            Ok::<(), Stop>(())
        })?;
        Ok(MisereSolved {
            index,
            graph,
            solved,
        })
    }
}

fn too_large() -> Stop {
    Limit::States
        .stop("the misère graph has more moves than it can hold")
        .help("ask about smaller sums")
}
