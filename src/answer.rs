//! Answers: what statements produce, as data, rendered as text or as JSON.

use crate::value::Gsg;
use serde::Serialize;
use std::fmt;

/// Who wins: one type for the solvers and the answers (defined beside
/// the generalized values it is read from).
pub use crate::value::Outcome;

mod guess;
mod layout;
mod position;
mod quotient;
pub use guess::GuessFound;
pub use layout::describe_axis;
use layout::{grid, p_map, p_positions, table_rows, width};
pub use position::{Component, Move, Position};
pub use quotient::QuotientPeriod;

impl Outcome {
    /// The outcome of a position with this Grundy value.
    pub fn of(grundy: u32) -> Outcome {
        if grundy == 0 { Outcome::P } else { Outcome::N }
    }

    /// The outcome of a position with this generalized value.
    pub fn of_value(value: &Gsg) -> Outcome {
        value.outcome()
    }

    /// In words, with the letter.
    pub fn words(self) -> &'static str {
        match self {
            Outcome::N => "first player wins (N)",
            Outcome::P => "second player wins (P)",
            Outcome::D => "a draw, play goes on forever (D)",
        }
    }
}

/// `outcome(P)`: who wins, how soon (a loopy game's), and the value when
/// it was computed.
fn outcome_line(
    f: &mut fmt::Formatter<'_>,
    position: &Position,
    grundy: Option<&Gsg>,
    outcome: Outcome,
    ends_within: Option<u32>,
) -> fmt::Result {
    let words = outcome.words();
    match (grundy, ends_within) {
        (None, _) => writeln!(
            f,
            "{position}: {words} (its P-positions marked: no grundy value computed)"
        ),
        (Some(g), None) => writeln!(f, "{position}: {words}, grundy {g}"),
        (Some(g), Some(r)) => writeln!(
            f,
            "{position}: {words}, the game ends within {}, grundy {g}",
            plural_moves(r)
        ),
    }
}

/// A value as JSON, or `null` ([`value_json`]).
fn maybe_value_json<S: serde::Serializer>(value: &Option<Gsg>, s: S) -> Result<S::Ok, S::Error> {
    match value {
        Some(v) => value_json(v, s),
        None => s.serialize_none(),
    }
}

/// Values as JSON (see [`value_json`]).
fn values_json<S: serde::Serializer>(values: &[Gsg], s: S) -> Result<S::Ok, S::Error> {
    s.collect_seq(values.iter().map(AsJson))
}

/// Rows of values as JSON (see [`value_json`]).
fn grid_json<S: serde::Serializer>(values: &[Vec<Gsg>], s: S) -> Result<S::Ok, S::Error> {
    s.collect_seq(
        values
            .iter()
            .map(|row| row.iter().map(AsJson).collect::<Vec<_>>()),
    )
}

/// A value to serialize with [`value_json`].
struct AsJson<'a>(&'a Gsg);

impl Serialize for AsJson<'_> {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        value_json(self.0, s)
    }
}

/// A value as JSON: a number, or `{"infinite": [K...]}` for ∞ with K.
pub fn value_json<S: serde::Serializer>(value: &Gsg, s: S) -> Result<S::Ok, S::Error> {
    match value {
        Gsg::Finite(v) => s.serialize_u32(*v),
        Gsg::Infinite(k) => {
            use serde::ser::SerializeMap;
            let mut m = s.serialize_map(Some(1))?;
            m.serialize_entry("infinite", k.as_ref())?;
            m.end()
        }
    }
}

/// The version of the JSON contract (`docs/schema.json`): every JSON line
/// carries it. Raised when a kind or field changes meaning or goes away.
pub const SCHEMA_VERSION: u32 = 1;

/// One JSON line: the object with `schema_version` added.
pub fn json_line(mut v: serde_json::Value) -> String {
    if let serde_json::Value::Object(map) = &mut v {
        map.insert("schema_version".into(), SCHEMA_VERSION.into());
    }
    v.to_string()
}

/// A value as data and as `print` shows it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Shown {
    /// As JSON: numbers as numbers, positions as position objects.
    pub value: serde_json::Value,
    /// As `print` shows it.
    pub text: String,
}

/// A loop variable of a check's counterexample.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Binding {
    /// The variable.
    pub name: String,
    /// Its value.
    #[serde(flatten)]
    pub value: Shown,
}

/// The two sides of a failed comparison.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Sides {
    /// The left side's value.
    pub left: Shown,
    /// The right side's value.
    pub right: Shown,
}

/// What a plot draws.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum PlotShape {
    /// Values against the argument of a one-parameter game.
    Sequence,
    /// A two-parameter table as coloured cells.
    Heatmap,
}

/// The result of one statement.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Answer {
    /// `print EXPR` for an ordinary value.
    Value {
        /// The expression as written.
        expr: String,
        /// What `print` shows before the value: `grundy(P)` with the
        /// position as it is, else the expression when short; `None` when
        /// that is long (the value is shown alone).
        label: Option<String>,
        /// The value.
        #[serde(flatten)]
        value: Shown,
    },
    /// `print TEXT` for a string: the text as it is.
    Text {
        /// The string.
        text: String,
    },
    /// `print P` for a position, and `outcome(P)`.
    Outcome {
        /// The position.
        position: Position,
        /// Its Grundy value; `None` where only who wins was found (the
        /// P-positions below a large position of a game whose moves are
        /// translations, marked).
        #[serde(serialize_with = "maybe_value_json")]
        grundy: Option<Gsg>,
        /// Who wins.
        outcome: Outcome,
        /// A loopy game's won or lost position: the moves within which
        /// the game ends under best play (its remoteness).
        #[serde(skip_serializing_if = "Option::is_none")]
        ends_within: Option<u32>,
    },
    /// `moves(P)`
    Moves {
        /// The position.
        position: Position,
        /// How many components it has (moves name theirs by index).
        components: usize,
        /// Its Grundy value.
        #[serde(serialize_with = "value_json")]
        grundy: Gsg,
        /// Every option, with the value after it.
        moves: Vec<Move>,
    },
    /// `winning(P)`
    Winning {
        /// The position.
        position: Position,
        /// How many components it has (moves name theirs by index).
        components: usize,
        /// Its Grundy value.
        #[serde(serialize_with = "value_json")]
        grundy: Gsg,
        /// The options of value 0.
        moves: Vec<Move>,
        /// How many moves there are in all (a group of a huge heap's splits
        /// counts as its many moves).
        options: u64,
        /// A loopy game's position played alone: the winner's moves within
        /// which the game ends (only the moves that keep to it are listed).
        #[serde(skip_serializing_if = "Option::is_none")]
        ends_within: Option<u32>,
    },
    /// `table(G, range)`
    Table {
        /// The game.
        game: String,
        /// Whether the values are misère values (`table(G, .., misere)`).
        misere: bool,
        /// The parameter name.
        param: String,
        /// A point as written: `S(n)`, or `G(n, 6)` for the section
        /// `G(_, 6)`.
        call: String,
        /// The arguments.
        args: Vec<i64>,
        /// Their values.
        #[serde(serialize_with = "values_json")]
        values: Vec<Gsg>,
    },
    /// `table(G, range, range)`
    Grid {
        /// The game.
        game: String,
        /// Whether the values are misère values (`table(G, .., misere)`).
        misere: bool,
        /// The parameter names.
        params: [String; 2],
        /// A point as written: `G(a, b)`, or `G(a, b, 2)` for the section
        /// `G(_, _, 2)`.
        call: String,
        /// Row arguments.
        rows: Vec<i64>,
        /// Column arguments.
        cols: Vec<i64>,
        /// Values, row by row.
        #[serde(serialize_with = "grid_json")]
        values: Vec<Vec<Gsg>>,
    },
    /// `map(G, rows, columns)`: P-positions as a picture.
    Map {
        /// The game.
        game: String,
        /// Whether these are misère P-positions.
        misere: bool,
        /// The parameter names.
        params: [String; 2],
        /// A point as written (see `Grid`).
        call: String,
        /// Row arguments.
        rows: Vec<i64>,
        /// Column arguments.
        cols: Vec<i64>,
        /// Row by row, whether each position is a P-position.
        p: Vec<Vec<bool>>,
    },
    /// `ppositions(G, ranges...)`
    PPositions {
        /// The game.
        game: String,
        /// Whether the values are misère values (`table(G, .., misere)`).
        misere: bool,
        /// The parameter names.
        params: Vec<String>,
        /// A point as written: `G(a, b)`, or `G(n, 6)` for the section
        /// `G(_, 6)`.
        call: String,
        /// The ranges searched, rendered.
        ranges: Vec<String>,
        /// The argument tuples of value 0.
        positions: Vec<Vec<i64>>,
        /// What they look like, when a shape is seen.
        shape: Option<crate::solve::analysis::pshape::PShape>,
    },
    /// `outcome(P, misere)`.
    MisereOutcome {
        /// The position.
        position: Position,
        /// Who wins when the last player to move loses.
        outcome: Outcome,
        /// How it was found (`genus` tells the words).
        found: String,
    },
    /// `winning(P, misere)`.
    MisereWinning {
        /// The position.
        position: Position,
        /// How many components it has (moves name theirs by index).
        components: usize,
        /// The moves to a misère P-position (`grundy` is 0: the misère
        /// value after the move).
        moves: Vec<Move>,
        /// How many options the position has.
        options: usize,
        /// Who wins it in misère play (D: a loopy game's draw).
        outcome: Outcome,
    },
    /// `graph(P)`: the state graph.
    Graph {
        /// The position drawn.
        position: Position,
        /// Graphviz DOT.
        dot: String,
        /// Nodes (distinct sums reachable).
        nodes: usize,
        /// Edges (moves).
        edges: usize,
        /// Where the DOT was written (`--out`), if it was.
        file: Option<String>,
    },
    /// `plot(G, ...)`: a picture of values (written to a file by the
    /// front end).
    Plot {
        /// What is drawn (`Kayles(n) for n in 0..=100`).
        title: String,
        /// The game.
        game: String,
        /// Whether the values are misère values.
        misere: bool,
        /// `sequence` (value against n) or `heatmap` (a two-parameter table).
        shape: PlotShape,
        /// The period marked on a sequence, when one was found.
        period: Option<crate::solve::analysis::Period>,
        /// Where the picture was written (set by the front end).
        file: Option<String>,
        /// The picture, SVG.
        #[serde(skip)]
        svg: String,
    },
    /// `describe(G)`: the moves in words.
    Describe {
        /// The lines.
        lines: Vec<String>,
    },
    /// `genus(P)`.
    Genus {
        /// The position.
        position: Position,
        /// Its genus as written: `4^146`.
        genus: String,
        /// Its normal-play value.
        grundy: u32,
        /// Its misère value (γ0).
        misere: u32,
        /// Whether it and every position below it have tame genera.
        tame: bool,
        /// How it was found: `misère Nim`, `tame components, from their
        /// genera`, `searched sum by sum`.
        found: String,
    },
    /// `genus(G, xs)` and `genus(G, xs, ys)`.
    Genera {
        /// The game.
        game: String,
        /// Its parameters' names.
        params: Vec<String>,
        /// The arguments along each axis.
        axes: Vec<Vec<i64>>,
        /// The genera, the last axis fastest.
        genera: Vec<String>,
    },
    /// `quotient(G, 0..=N)`.
    Quotient {
        /// The game.
        game: String,
        /// The largest heap included.
        heaps: u32,
        /// The number of elements.
        order: usize,
        /// The P-portion's elements, as words in the generators.
        p_portion: Vec<String>,
        /// `<a,b | a2=1, ...>`.
        presentation: String,
        /// Each heap's element, heap 0 first.
        pretending: Vec<String>,
        /// The heaps at which the quotient changed.
        changed: Vec<u32>,
        /// The pretending function's period, if it repeats.
        period: Option<QuotientPeriod>,
    },
    /// `period(G)`.
    Period {
        /// The game.
        game: String,
        /// What was found (`None`: no period within the budget).
        found: Option<crate::solve::analysis::Period>,
        /// Values computed.
        computed: i64,
        /// Why no proof applies, when none does.
        why: Option<String>,
        /// What ended a search that found nothing.
        ended: Option<String>,
    },
    /// `guess(G)`.
    Guess {
        /// The game as asked: `G`, or the section `G(_, 3)`.
        game: String,
        /// A point as written: `G(n, 3)`.
        call: String,
        /// The points the formula was fitted to: `n in 0..=1023`.
        points: String,
        /// The formula found (`None`: none within the budget).
        found: Option<GuessFound>,
        /// Every formula of at most this size was searched.
        searched: u64,
        /// Formulas built.
        tried: u64,
    },
    /// A `check` that held.
    CheckOk {
        /// The condition as written.
        condition: String,
        /// How many cases were tested.
        cases: u64,
    },
    /// A `check` that failed.
    CheckFailed {
        /// The condition as written.
        condition: String,
        /// Cases that held before the failure.
        passed: u64,
        /// The loop variables of the counterexample.
        bindings: Vec<Binding>,
        /// The two sides of the comparison, if the condition is one.
        sides: Option<Sides>,
    },
}

impl Answer {
    /// Whether this answer is a failed check (exit code 1).
    pub fn is_failure(&self) -> bool {
        matches!(self, Answer::CheckFailed { .. })
    }

    /// The answer as one JSON object.
    pub fn to_json(&self) -> serde_json::Value {
        serde_json::to_value(self).unwrap_or(serde_json::Value::Null)
    }
}

/// How a misère table's heading starts.
pub(crate) fn misere_words(misere: bool) -> &'static str {
    if misere { "misère values of " } else { "" }
}

/// What a period search found, and how it is known.
fn period(
    f: &mut fmt::Formatter<'_>,
    game: &str,
    found: Option<&crate::solve::analysis::Period>,
    computed: i64,
    why: Option<&str>,
    ended: Option<&str>,
) -> fmt::Result {
    // `G(0..N)`, or for a game with fixed parameters `G(2, n) for n in 0..N`.
    let upto = |n: i64| match game.split_once('(') {
        Some((name, args)) => {
            // The blank argument, not an underscore of the name.
            let args: Vec<&str> = args
                .trim_end_matches(')')
                .split(", ")
                .map(|a| if a == "_" { "n" } else { a })
                .collect();
            format!("{name}({}) for n in 0..{n}", args.join(", "))
        }
        None => format!("{game}(0..{n})"),
    };
    match found {
        None => {
            writeln!(f, "period of {game}: none found in {}", upto(computed))?;
            if let Some(ended) = ended {
                writeln!(f, "  stopped: {ended}")?;
            }
            if let Some(why) = why {
                writeln!(f, "  and no proof could apply: {why}")?;
            }
            writeln!(
                f,
                "  search further with period({game}, N) or --period-budget N"
            )
        }
        Some(p) => {
            let pre = if p.preperiod == 0 && p.saltus != 0 {
                "from n = 0".to_string()
            } else if p.preperiod == 0 {
                "purely periodic".to_string()
            } else {
                format!("pre-period {}", p.preperiod)
            };
            // An arithmetic period: its saltus, and the equation it means.
            let (saltus, plus) = match p.saltus {
                0 => (String::new(), String::new()),
                s => (format!(" with saltus {s}"), format!(" + {s}")),
            };
            match &p.basis {
                crate::solve::analysis::Basis::Proven { theorem, from, to } => {
                    writeln!(f, "period of {game}: {}{saltus}, {pre} (proven)", p.period)?;
                    writeln!(f, "  {theorem};")?;
                    writeln!(
                        f,
                        "  checked G(n + {}) = G(n){plus} for {from} <= n < {to} ({} values computed)",
                        p.period, p.computed
                    )
                }
                crate::solve::analysis::Basis::Observed { why } => {
                    writeln!(
                        f,
                        "period of {game}: {}{saltus}, {pre} (observed in {}, not proven)",
                        p.period,
                        upto(p.computed)
                    )?;
                    writeln!(f, "  {why}")
                }
            }
        }
    }
}

/// The winning moves of a position (from a draw, the moves that keep it).
/// `genus(P)`: the genus, its two values, tame or wild, and how it was
/// found.
fn genus(f: &mut fmt::Formatter<'_>, answer: &Answer) -> fmt::Result {
    let Answer::Genus {
        position,
        genus,
        grundy,
        misere,
        tame,
        found,
    } = answer
    else {
        return Ok(());
    };
    let kind = if *tame { "tame" } else { "wild" };
    writeln!(
        f,
        "{position}: genus {genus} (grundy {grundy}, misère {misere}), {kind}: {found}"
    )
}

/// `outcome(P, misere)` and `winning(P, misere)`.
fn misere(f: &mut fmt::Formatter<'_>, answer: &Answer) -> fmt::Result {
    match answer {
        Answer::MisereOutcome {
            position,
            outcome,
            found,
        } => {
            writeln!(
                f,
                "{position}: {} in misère play ({found})",
                outcome.words()
            )
        }
        Answer::MisereWinning {
            position,
            components,
            moves,
            options,
            outcome,
        } => {
            if moves.is_empty() {
                let why = if *options == 0 {
                    "no move at all: the player to move has already won".to_string()
                } else if *outcome == Outcome::D {
                    "a draw: no move leaves the opponent lost".to_string()
                } else {
                    "every move leads to a misère N-position".to_string()
                };
                return writeln!(f, "{position}: no winning move in misère play ({why})");
            }
            writeln!(f, "winning moves from {position} in misère play:")?;
            moves_block(f, moves, false, *components)
        }
        _ => Ok(()),
    }
}

fn winning(f: &mut fmt::Formatter<'_>, answer: &Answer) -> fmt::Result {
    let Answer::Winning {
        position,
        components,
        grundy,
        moves,
        options,
        ends_within,
    } = answer
    else {
        return Ok(());
    };
    let (components, options, ends_within) = (*components, *options, *ends_within);
    if options == 0 {
        return writeln!(f, "{position}: no moves at all, {}", Outcome::P.words());
    }
    match Outcome::of_value(grundy) {
        Outcome::P => {
            return writeln!(
                f,
                "{position}: no winning move, {} (every move leads to a non-zero value)",
                Outcome::P.words()
            );
        }
        Outcome::D => {
            writeln!(
                f,
                "{position}: no winning move, {}; the moves that keep the draw (grundy {grundy}):",
                Outcome::D.words()
            )?;
        }
        Outcome::N => match ends_within {
            Some(r) => writeln!(
                f,
                "winning moves from {position} (grundy {grundy}; the game ends within {}):",
                plural_moves(r)
            )?,
            None => writeln!(f, "winning moves from {position} (grundy {grundy}):")?,
        },
    }
    moves_block(f, moves, false, components)
}

/// A failed check: where, after how many cases, and its two sides.
fn check_failed(
    f: &mut fmt::Formatter<'_>,
    condition: &str,
    passed: u64,
    bindings: &[Binding],
    sides: Option<&Sides>,
) -> fmt::Result {
    let at: Vec<String> = bindings
        .iter()
        .map(|b| format!("{} = {}", b.name, b.value.text))
        .collect();
    let at = if at.is_empty() {
        String::new()
    } else {
        format!(" at {}", at.join(", "))
    };
    let cases = if passed == 1 { "case" } else { "cases" };
    writeln!(
        f,
        "check {}: FAILED{at} (after {passed} passing {cases})",
        short(condition)
    )?;
    if let Some(Sides { left, right }) = sides {
        writeln!(f, "  left side:  {}", left.text)?;
        writeln!(f, "  right side: {}", right.text)?;
    }
    Ok(())
}

/// Moves one per line, as changes; in a sum, each with its component
/// (`heap 2: 9 → 5` in take-and-break games, `[1] W(3, 4): a: 3 → 1`).
fn moves_block(
    f: &mut fmt::Formatter<'_>,
    moves: &[Move],
    show_value: bool,
    components: usize,
) -> fmt::Result {
    let show = |m: &Move| match () {
        _ if components <= 1 => m.change.clone(),
        _ if m.heap && m.readable() => format!("heap {}: {}", m.component, m.change),
        _ if m.readable() => format!("[{}] {}: {}", m.component, m.from, m.change),
        _ => format!("[{}] {}", m.component, m.change),
    };
    let w = width(
        moves
            .iter()
            .map(show)
            .map(|s| " ".repeat(s.chars().count())),
    );
    for m in moves {
        let mv = show(m);
        if show_value {
            let pad = w - mv.chars().count();
            writeln!(f, "  {mv}{:pad$}   grundy {}", "", m.grundy)?;
        } else {
            writeln!(f, "  {mv}")?;
        }
    }
    Ok(())
}

impl fmt::Display for Answer {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Answer::Value {
                label: Some(label),
                value,
                ..
            } => writeln!(f, "{label} = {}", value.text),
            Answer::Value { value, .. } => writeln!(f, "{}", value.text),
            Answer::Text { text } => {
                f.write_str(text)?;
                f.write_str("\n")
            }
            Answer::Outcome {
                position,
                grundy,
                outcome,
                ends_within,
            } => outcome_line(f, position, grundy.as_ref(), *outcome, *ends_within),
            Answer::Moves {
                position,
                components,
                grundy,
                moves,
            } => {
                if moves.is_empty() {
                    return writeln!(f, "{position} has no moves (grundy {grundy})");
                }
                writeln!(f, "moves from {position} (grundy {grundy}):")?;
                moves_block(f, moves, true, *components)
            }
            Answer::Winning { .. } => winning(f, self),
            Answer::Table {
                misere,
                param,
                call,
                args,
                values,
                ..
            } => {
                writeln!(
                    f,
                    "{}{call} for {param} in {}:",
                    misere_words(*misere),
                    describe_axis(args)
                )?;
                table_rows(f, args, values)
            }
            Answer::Grid {
                misere,
                params,
                call,
                rows,
                cols,
                values,
                ..
            } => grid(f, call, *misere, params, rows, cols, values),
            Answer::Map {
                misere,
                params,
                call,
                rows,
                cols,
                p,
                ..
            } => p_map(f, call, *misere, params, rows, cols, p),
            Answer::PPositions {
                misere,
                params,
                call,
                ranges,
                positions,
                shape,
                ..
            } => {
                p_positions(f, call, *misere, params, ranges, positions)?;
                match shape {
                    Some(s) => writeln!(f, "  shape: {}", s.words(params)),
                    None => Ok(()),
                }
            }
            Answer::MisereOutcome { .. } | Answer::MisereWinning { .. } => misere(f, self),
            Answer::Graph {
                position,
                nodes,
                edges,
                file: Some(file),
                ..
            } => writeln!(
                f,
                "graph of {position}: {nodes} positions, {edges} moves, written to {file}"
            ),
            Answer::Graph { dot, .. } => f.write_str(dot),
            Answer::Plot {
                title, file, svg, ..
            } => match file {
                Some(file) => writeln!(f, "plot of {title}: written to {file}"),
                None => writeln!(f, "plot of {title}: {} bytes of SVG", svg.len()),
            },
            Answer::Describe { lines } => {
                for l in lines {
                    writeln!(f, "{l}")?;
                }
                Ok(())
            }
            Answer::Genus { .. } => genus(f, self),
            Answer::Genera {
                game,
                params,
                axes,
                genera,
            } => layout::genera(f, game, params, axes, genera),
            Answer::Quotient { .. } => quotient::quotient(f, self),
            Answer::Period {
                game,
                found,
                computed,
                why,
                ended,
            } => period(
                f,
                game,
                found.as_ref(),
                *computed,
                why.as_deref(),
                ended.as_deref(),
            ),
            Answer::Guess { .. } => guess::guess(f, self),
            Answer::CheckOk { condition, cases } => match (short(condition), cases) {
                (condition, 0) => writeln!(
                    f,
                    "check {condition}: nothing tested (0 cases: the ranges are empty or every case was filtered out)"
                ),
                (condition, 1) => writeln!(f, "check {condition}: ok (1 case)"),
                (condition, _) => writeln!(f, "check {condition}: ok ({cases} cases)"),
            },
            Answer::CheckFailed {
                condition,
                passed,
                bindings,
                sides,
            } => check_failed(f, condition, *passed, bindings, sides.as_ref()),
        }
    }
}

/// A condition as a check's answer shows it: cut after 80 characters (JSON
/// keeps it whole).
fn short(text: &str) -> String {
    const WIDTH: usize = 80;
    if text.chars().count() <= WIDTH {
        return text.to_string();
    }
    let cut: String = text.chars().take(WIDTH - 1).collect();
    format!("{}…", cut.trim_end())
}

/// `1 move`, `3 moves`.
fn plural_moves(n: u32) -> String {
    if n == 1 {
        "1 move".to_string()
    } else {
        format!("{n} moves")
    }
}
