//! The builtins of boards (`crate::board`): `components`, `grid_canon`,
//! `grid_turn`, each a function of its arguments' values.

use super::host::Host;
use crate::board::{BoardError, wide};
use crate::diagnostics::{Code, Diag};
use crate::flow::Stop;
use crate::ops::Wide;
use crate::value::Value;

type Out = Result<Value, Stop>;

/// `components(mask, adj)`: the masks of a board's connected parts.
pub(super) fn components(args: &[Value], h: &mut dyn Host) -> Out {
    // Read in place: the adjacency is most often a constant list.
    let adj = h.list_value(1, args[1].clone())?;
    let adj = adj.elements();
    if let Value::Int(mask) = args[0] {
        let mut parts = Vec::new();
        let near = |v: usize| match adj?.get(v) {
            Some(Value::Int(x)) => Some(x),
            _ => None,
        };
        match crate::board::components(mask, near, &mut parts) {
            Ok(()) => return Ok(Value::Ints(parts.into())),
            // A neighbour wider than 64 bits: the board is read as words.
            Err(BoardError::NoNeighbours(v))
                if matches!(adj.and_then(|a| a.get(v as usize)), Some(Value::Wide(_))) => {}
            Err(e) => return Err(refusal(e, h, &args[0], "components")),
        }
    }
    let mask = words(h, &args[0], "components")?;
    let near = |v: usize| match adj?.get(v)? {
        Value::Int(x) => Some(Wide::from(x).words().ok_or(())),
        Value::Wide(x) => Some(x.words().ok_or(())),
        _ => None,
    };
    let parts = wide::components(&mask, near).map_err(|e| refusal(e, h, &args[0], "components"))?;
    Ok(Value::list(
        parts
            .iter()
            .map(|p| Value::integer(Wide::from_words(p)))
            .collect(),
    ))
}

/// `grid_canon(mask, w, h)`: the least of a grid board's symmetric images.
pub(super) fn grid_canon(args: &[Value], h: &mut dyn Host) -> Out {
    on_grid(
        args,
        h,
        "grid_canon",
        crate::board::grid_canon,
        wide::grid_canon,
    )
}

/// `grid_turn(mask, w, h)`: a grid board turned half a turn within its
/// bounding box.
pub(super) fn grid_turn(args: &[Value], h: &mut dyn Host) -> Out {
    on_grid(
        args,
        h,
        "grid_turn",
        crate::board::grid_turn,
        wide::grid_turn,
    )
}

/// A grid function on a board as words.
type OnWords = fn(&[u64], i64, i64) -> Result<Vec<u64>, BoardError>;

fn on_grid(
    args: &[Value],
    h: &mut dyn Host,
    name: &str,
    f: fn(i64, i64, i64) -> Result<i64, BoardError>,
    on_words: OnWords,
) -> Out {
    let (w, ht) = (h.int(1, &args[1])?, h.int(2, &args[2])?);
    // A board of at most 63 cells, as one word; any other as words.
    let small = w.checked_mul(ht).is_some_and(|n| n <= 63);
    if let (Value::Int(mask), true) = (&args[0], small) {
        return f(*mask, w, ht)
            .map(Value::Int)
            .map_err(|e| refusal(e, h, &args[0], name));
    }
    let mask = words(h, &args[0], name)?;
    on_words(&mask, w, ht)
        .map(|m| Value::integer(Wide::from_words(&m)))
        .map_err(|e| refusal(e, h, &args[0], name))
}

/// A board as words: an integer of any width, not negative.
fn words(h: &dyn Host, mask: &Value, name: &str) -> Result<Vec<u64>, Stop> {
    let words = match mask {
        Value::Int(x) => Wide::from(*x).words(),
        Value::Wide(x) => x.words(),
        other => return Err(h.type_bug(0, "an integer", other)),
    };
    words.ok_or_else(|| refusal(BoardError::NegativeMask, h, mask, name))
}

/// A board function's refusal, in the user's words.
fn refusal(e: BoardError, h: &dyn Host, mask: &Value, name: &str) -> Stop {
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
            format!(
                "a grid must be at least 1×1 and have at most {} cells",
                wide::MAX_CELLS
            ),
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
