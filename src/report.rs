//! Report queries answered from what the engine computes (values, rows of
//! ids, period searches): as structured answers (what `print` shows), and
//! as values (what `let p = period(G)` binds). Each query's two forms are
//! written side by side in its module, as a `Query`; `query` is the one
//! table from builtins to them. Above the engine: the interpreter reaches
//! the value form through the hook the session installs
//! (`Setup::report_values`).

use crate::answer::{Answer, Component, Move, Outcome, Position, Shown};
use crate::diagnostics::{Code, Diag};
use crate::eval::{Machine, R, Row, To, misere_rows, move_rows};
use crate::flow::{Limit, Stop};
use crate::ir::{self, Builtin, ExprId, Play};
use crate::span::Span;
use crate::store::PosId;
use crate::value::Gsg;
use crate::value::{Record, RecordKind, Value};
use std::collections::HashSet;
use std::rc::Rc;

mod analysis;
mod genus;
mod graph;
mod guess;
mod marked;
mod moves;
mod outcome;
mod quotient;
mod tables;

pub use outcome::outcome;
use tables::section;

/// A call of a query: which, in which play, its arguments, and where it is.
struct Asked<'a> {
    f: Builtin,
    play: Play,
    args: &'a [ExprId],
    span: Span,
}

/// A report query's two forms: its answer, which `print` shows, and its
/// value, which `let` binds.
#[derive(Clone, Copy)]
struct Query {
    answer: fn(&mut Machine, &Asked<'_>, &mut [Value]) -> R<Answer>,
    value: fn(&mut Machine, &Asked<'_>, &mut [Value]) -> R<Value>,
}

/// Each report query's forms.
fn query(f: Builtin) -> Option<Query> {
    Some(match f {
        Builtin::Outcome => outcome::QUERY,
        Builtin::Moves | Builtin::Winning => moves::QUERY,
        Builtin::Table | Builtin::PPositions | Builtin::Map => tables::TABLE,
        Builtin::Plot => tables::PLOT,
        Builtin::Graph => graph::QUERY,
        Builtin::Describe => analysis::DESCRIBE,
        Builtin::Period => analysis::PERIOD,
        Builtin::Genus => genus::QUERY,
        Builtin::Quotient => quotient::QUERY,
        Builtin::Guess => guess::QUERY,
        _ => return None,
    })
}

/// Answers a report query (`outcome`, `moves`, `winning`, `table`,
/// `ppositions`, `describe`, `period`, `graph`, the misère forms) at `span`.
pub fn report(
    m: &mut Machine,
    f: Builtin,
    play: Play,
    args: &[ExprId],
    span: Span,
    env: &mut [Value],
) -> R<Answer> {
    let asked = Asked {
        f,
        play,
        args,
        span,
    };
    (asked.query()?.answer)(m, &asked, env)
}

/// A report query's answer as a value: an outcome or a period as a
/// record, moves as a list of move records, tables and P-positions as
/// lists, a description or a graph as a string.
pub fn value(
    m: &mut Machine,
    f: Builtin,
    play: Play,
    args: &[ExprId],
    span: Span,
    env: &mut [Value],
) -> R<Value> {
    let asked = Asked {
        f,
        play,
        args,
        span,
    };
    (asked.query()?.value)(m, &asked, env)
}

impl Asked<'_> {
    /// The query asked ([`query`]); a builtin that is none is a bug here.
    fn query(&self) -> R<Query> {
        query(self.f).ok_or_else(|| {
            Diag::bug(format!("`{}` is not a report query", self.f.name()))
                .label(self.span, "here")
                .into()
        })
    }
}

/// The game a query's first argument names.
fn game_arg(m: &Machine, args: &[ExprId]) -> R<ir::GameId> {
    match m.program().expr(args[0]) {
        ir::Expr::GameRef(game) => Ok(*game),
        _ => Err(Diag::bug("a query without its game").into()),
    }
}

/// Pushes onto a vector, its growth counted against the memory limit
/// first (a table of 10^5 × 10^5 points is stopped, not allocated).
fn push_counted<T>(m: &Machine, v: &mut Vec<T>, x: T) -> R<()> {
    if v.len() == v.capacity() {
        m.reserve(v.capacity().max(4).saturating_mul(std::mem::size_of::<T>()))?;
    }
    v.push(x);
    Ok(())
}

/// Points a report without a place at the position asked about.
fn at(s: Stop, span: Span) -> Stop {
    s.map_diag(|d| {
        if d.labels.is_empty() {
            d.label(span, "this position")
        } else {
            d
        }
    })
}

/// A record of `kind` as a value; values that do not fit its declared
/// fields are a bug here.
pub(crate) fn record(kind: RecordKind, values: Vec<Value>) -> R<Value> {
    match Record::new(kind, values) {
        Some(r) => Ok(Value::Record(Rc::new(r))),
        None => Err(Diag::bug(format!(
            "{} made with values that do not fit its fields",
            kind.describe()
        ))
        .into()),
    }
}

/// A sum as data: its text and its components' games and arguments.
pub fn pos_data(m: &Machine, parts: &[PosId]) -> Position {
    let components = parts
        .iter()
        .map(|&p| {
            let (game, args) = m.position(p);
            let wide = (args.iter().enumerate())
                .filter(|(i, a)| *i < 64 && matches!(a, Value::Wide(_)))
                .fold(0, |w, (i, _)| w | 1 << i);
            Component {
                game: m.program().games[game.index()].name.clone(),
                args: args.iter().map(|a| json_of(m, a)).collect(),
                wide,
            }
        })
        .collect();
    Position {
        text: m.show().sum(parts),
        components: Some(components),
    }
}

/// The parameter names of a position's game.
fn params_of(m: &Machine, pos: PosId) -> &[String] {
    &m.program().games[m.game_of(pos).index()].params
}

/// A value as JSON: numbers as numbers, positions as position objects
/// (`{text, components}`), records as objects.
fn json_of(m: &Machine, v: &Value) -> serde_json::Value {
    match v {
        Value::Int(x) => (*x).into(),
        // JSON numbers are read as 64-bit floats or integers by most
        // readers: a wider integer is given as the string of its digits.
        Value::Wide(x) => x.to_string().into(),
        Value::Bool(b) => (*b).into(),
        Value::Str(s) => s.as_ref().into(),
        Value::List(xs) => xs.iter().map(|x| json_of(m, x)).collect::<Vec<_>>().into(),
        Value::Ints(xs) => xs.as_ref().into(),
        Value::Bools(xs) => xs.as_ref().into(),
        Value::Range(lo, hi) => serde_json::json!({ "from": lo, "to_inclusive": hi }),
        // Its entries in key order, as `[key, value]` pairs (keys may be
        // integers, which JSON objects cannot have).
        Value::Dict(d) => d
            .sorted()
            .into_iter()
            .map(|(k, v)| serde_json::json!([json_of(m, &k.value()), json_of(m, v)]))
            .collect::<Vec<_>>()
            .into(),
        Value::Pos(parts) => {
            serde_json::to_value(pos_data(m, parts)).unwrap_or(serde_json::Value::Null)
        }
        Value::Record(r) => {
            let fields = r.kind.fields().zip(&r.values);
            fields
                .map(|(name, v)| (name.to_string(), json_of(m, v)))
                .collect::<serde_json::Map<_, _>>()
                .into()
        }
        Value::Infinite(k) => serde_json::json!({ "infinite": k.as_ref() }),
    }
}

/// A value as data and as `print` shows it.
pub fn shown_value(m: &Machine, v: &Value) -> Shown {
    Shown {
        value: json_of(m, v),
        text: m.show().value(v),
    }
}

/// A value as `write` writes it, for a judge: a list's elements with a
/// space between them (each as text: a string as it is, a list inside in
/// brackets), anything else as text, as `str` makes it.
pub fn plain_text(m: &Machine, v: &Value) -> String {
    let show = m.show();
    match v.elements() {
        Some(crate::value::Elements::Ints(xs)) => {
            let mut out = String::with_capacity(xs.len() * 4);
            for (i, x) in xs.iter().enumerate() {
                if i > 0 {
                    out.push(' ');
                }
                let _ = std::fmt::Write::write_fmt(&mut out, format_args!("{x}"));
            }
            out
        }
        Some(xs) => {
            let mut out = String::new();
            for (i, x) in xs.iter().enumerate() {
                if i > 0 {
                    out.push(' ');
                }
                out.push_str(&show.text(&x));
            }
            out
        }
        None => show.text(v),
    }
}
