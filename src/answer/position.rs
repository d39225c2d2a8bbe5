//! Positions and moves as answers hold them: a position's games and
//! arguments as data, and the change a move makes, in words.

use super::value_json;
use crate::value::Gsg;
use serde::Serialize;
use std::fmt;

/// One position of a game: its name and arguments as data.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Component {
    /// The game's name.
    pub game: String,
    /// Its arguments (integers, lists, booleans, strings; an integer
    /// wider than 64 bits as the string of its digits).
    pub args: Vec<serde_json::Value>,
    /// Which arguments (bit `i`) are integers wider than 64 bits, written
    /// as their digits: shown without quotes.
    #[serde(skip)]
    pub wide: u64,
}

impl Component {
    /// Argument `i` as `print` shows it.
    fn shown(&self, i: usize) -> String {
        match &self.args[i] {
            serde_json::Value::String(digits) if i < 64 && self.wide >> i & 1 == 1 => {
                digits.clone()
            }
            a => a.to_string(),
        }
    }
}

/// A position or a sum: its text and its components as data.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Position {
    /// As written (`Nim(3) + Nim(4)`; `0` for the empty sum).
    pub text: String,
    /// The components in order; absent for a group of a huge heap's moves,
    /// which is described in `text` only.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub components: Option<Vec<Component>>,
}

impl fmt::Display for Position {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.text)
    }
}

/// One option of a position or sum.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Move {
    /// Which component of the sum moves (0-based, as written; 0 for a
    /// single game). Identical components are listed each with its own.
    pub component: usize,
    /// The component that moves (the whole position for a single game).
    pub from: Position,
    /// What that component becomes.
    pub to: Position,
    /// The move in words: the change of the arguments where the rule keeps
    /// to one game (`9 → 5`, `5 → 1 + 3`, `a: 3 → 1`, `rows[2]: 4 → 1`),
    /// else `FROM → TO`.
    pub change: String,
    /// The Grundy value of the whole position after the move.
    #[serde(serialize_with = "value_json")]
    pub grundy: Gsg,
    /// Whether the component is a heap of a take-and-break game (text
    /// calls it `heap 2`).
    #[serde(skip)]
    pub heap: bool,
}

impl Move {
    /// A move of component `component` (a position of a game with these
    /// parameters) to `to`.
    pub fn new(
        component: usize,
        from: Position,
        params: &[String],
        to: Position,
        grundy: Gsg,
        heap: bool,
    ) -> Move {
        let change =
            change(&from, params, &to).unwrap_or_else(|| format!("{} → {}", from.text, to.text));
        Move {
            component,
            from,
            to,
            change,
            grundy,
            heap,
        }
    }

    /// Whether `change` says the move (rather than `FROM → TO`).
    pub(super) fn readable(&self) -> bool {
        !self.change.starts_with(&format!("{} →", self.from.text))
    }
}

/// The change a move makes, where the game stays the same: a heap's size
/// (and the heaps it leaves), or the arguments that differ.
fn change(from: &Position, params: &[String], to: &Position) -> Option<String> {
    let [from] = from.components.as_deref()? else {
        return None;
    };
    let to = to.components.as_deref()?;
    if to
        .iter()
        .any(|c| c.game != from.game || c.args.len() != from.args.len())
    {
        return None;
    }
    if let [a] = &from.args[..]
        && a.is_i64()
        && to.iter().all(|c| c.args[0].is_i64())
    {
        let after: Vec<String> = to.iter().map(|c| c.args[0].to_string()).collect();
        let after = if after.is_empty() {
            "nothing".to_string()
        } else {
            after.join(" + ")
        };
        return Some(format!("{a} → {after}"));
    }
    let [to] = to else { return None };
    let mut parts = Vec::new();
    let (source, target) = (from, to);
    for (i, (a, b)) in from.args.iter().zip(&to.args).enumerate() {
        let name = params.get(i).map_or("?", String::as_str);
        match (a, b) {
            _ if a == b => {}
            (serde_json::Value::Array(xs), serde_json::Value::Array(ys))
                if xs.len() == ys.len() =>
            {
                for (j, (x, y)) in xs.iter().zip(ys).enumerate() {
                    if x != y {
                        parts.push(format!("{name}[{j}]: {x} → {y}"));
                    }
                }
            }
            _ => parts.push(format!("{name}: {} → {}", source.shown(i), target.shown(i))),
        }
    }
    (!parts.is_empty()).then(|| parts.join(", "))
}
