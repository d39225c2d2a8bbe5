//! Positions and values as text: a position as written (`Name(arg, ...)`),
//! a sum joined with ` + `, a value as `print` shows it.

use super::*;

/// Renders positions and values of a machine's program.
pub struct Show<'a> {
    prog: &'a ir::Program,
    store: &'a Store,
}

impl Machine {
    /// Its positions and values as text.
    pub fn show(&self) -> Show<'_> {
        Show {
            prog: &self.prog,
            store: &self.store,
        }
    }
}

impl Show<'_> {
    /// Renders a position as `Name(arg, ...)`.
    pub fn pos(&self, pos: PosId) -> String {
        let game = self.store.game_of(pos);
        let name = self
            .prog
            .games
            .get(game.index())
            .map(|g| g.name.as_str())
            .unwrap_or("?");
        let mut args = Vec::new();
        crate::key::args_of(self.store, pos, &mut args);
        let args: Vec<String> = args.iter().map(Value::to_string).collect();
        format!("{name}({})", args.join(", "))
    }

    /// [`Show::pos`], cut to a few lines' worth for a note (a
    /// position with a list of 10^5 elements is not a message).
    pub fn pos_briefly(&self, pos: PosId) -> String {
        const MOST: usize = 200;
        let text = self.pos(pos);
        match text.char_indices().nth(MOST) {
            Some((cut, _)) => format!("{}… ({} characters)", &text[..cut], text.chars().count()),
            None => text,
        }
    }

    /// Renders a sum of positions (`0` when empty).
    pub fn sum(&self, parts: &[PosId]) -> String {
        if parts.is_empty() {
            return "0".to_string();
        }
        parts
            .iter()
            .map(|&p| self.pos(p))
            .collect::<Vec<_>>()
            .join(" + ")
    }

    /// A value as text for output: a string as it is (no quotes), any other
    /// value as `print` shows it (positions as written).
    pub fn text(&self, v: &Value) -> String {
        match v {
            // Copied, not formatted: a judge's answers go through here.
            Value::Str(s) => String::from(&**s),
            v => self.value(v),
        }
    }

    /// A value as `print` shows it, positions written as positions.
    pub fn value(&self, v: &Value) -> String {
        match v {
            Value::Pos(parts) => self.sum(parts),
            Value::Bools(xs) => {
                let items: Vec<&str> = xs
                    .iter()
                    .map(|&x| if x { "true" } else { "false" })
                    .collect();
                format!("[{}]", items.join(", "))
            }
            Value::List(xs)
                if xs
                    .iter()
                    .any(|x| x.has_pos() || !matches!(x, Value::Int(_))) =>
            {
                let items: Vec<String> = xs.iter().map(|x| self.value(x)).collect();
                format!("[{}]", items.join(", "))
            }
            // Its values as `print` shows them (positions written).
            Value::Dict(d) => {
                let entries: Vec<String> = d
                    .sorted()
                    .into_iter()
                    .map(|(k, v)| format!("{k}: {}", self.value(v)))
                    .collect();
                format!("{{{}}}", entries.join(", "))
            }
            Value::Record(r) => {
                let fields: Vec<String> = r
                    .kind
                    .fields()
                    .zip(&r.values)
                    .map(|(name, v)| format!("{name}: {}", self.value(v)))
                    .collect();
                format!("{{{}}}", fields.join(", "))
            }
            v => v.to_string(),
        }
    }
}
