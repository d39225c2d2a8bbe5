//! The builtins of boards (`crate::board`): `components`, `grid_canon`,
//! `grid_turn`, each a function of its arguments' values.

use super::host::Host;
use crate::board::BoardError;
use crate::diagnostics::{Code, Diag};
use crate::flow::Stop;
use crate::value::Value;

type Out = Result<Value, Stop>;

/// `components(mask, adj)`: the masks of a board's connected parts.
pub(super) fn components(args: &[Value], h: &mut dyn Host) -> Out {
    let mask = h.int(0, &args[0])?;
    // Read in place: the adjacency is most often a constant list.
    let adj = h.list_value(1, args[1].clone())?;
    let adj = adj.elements();
    let mut parts = Vec::new();
    let near = |v: usize| match adj?.get(v) {
        Some(Value::Int(x)) => Some(x),
        _ => None,
    };
    crate::board::components(mask, near, &mut parts)
        .map_err(|e| refusal(e, h, mask, "components"))?;
    Ok(Value::Ints(parts.into()))
}

/// `grid_canon(mask, w, h)`: the least of a grid board's symmetric images.
pub(super) fn grid_canon(args: &[Value], h: &mut dyn Host) -> Out {
    on_grid(args, h, "grid_canon", crate::board::grid_canon)
}

/// `grid_turn(mask, w, h)`: a grid board turned half a turn within its
/// bounding box.
pub(super) fn grid_turn(args: &[Value], h: &mut dyn Host) -> Out {
    on_grid(args, h, "grid_turn", crate::board::grid_turn)
}

fn on_grid(
    args: &[Value],
    h: &mut dyn Host,
    name: &str,
    f: fn(i64, i64, i64) -> Result<i64, BoardError>,
) -> Out {
    let mask = h.int(0, &args[0])?;
    let (w, ht) = (h.int(1, &args[1])?, h.int(2, &args[2])?);
    f(mask, w, ht)
        .map(Value::Int)
        .map_err(|e| refusal(e, h, mask, name))
}

/// A board function's refusal, in the user's words.
fn refusal(e: BoardError, h: &dyn Host, mask: i64, name: &str) -> Stop {
    use BoardError as E;
    let (message, help) = match e {
        E::NegativeMask => (
            format!("the board {mask} is negative"),
            "a board is a mask of its cells: bit v is cell v".to_string(),
        ),
        E::NoNeighbours(v) => (
            format!("vertex {v} of the board {mask} has no integer entry in the adjacency list"),
            "adj[v] must be the mask of v's neighbours, for every vertex of the board".to_string(),
        ),
        E::NegativeNeighbours(v) => (
            format!("the neighbours of vertex {v} are a negative mask"),
            "adj[v] must be the mask of v's neighbours".to_string(),
        ),
        E::BadGrid => (
            "a grid must be at least 1×1 and have at most 63 cells".to_string(),
            format!("{name}(mask, w, h) takes the grid's width and height"),
        ),
        E::OffGrid(v) => (
            format!("cell {v} of the board {mask} is off the grid"),
            "cells of a w×h grid are 0 to w·h - 1".to_string(),
        ),
    };
    Diag::user(Code::BadBoard, message)
        .label(h.span(), "here")
        .help(help)
        .into()
}
