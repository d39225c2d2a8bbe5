//! Answers: what statements produce, as data, rendered as text or as JSON.

use serde::Serialize;
use std::fmt::{self, Write as _};

/// Who wins a position under normal play.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub enum Outcome {
    /// The player to move wins (Grundy value non-zero).
    N,
    /// The player who just moved wins (Grundy value zero).
    P,
}

impl Outcome {
    /// The outcome of a position with this Grundy value.
    pub fn of(grundy: u32) -> Outcome {
        if grundy == 0 { Outcome::P } else { Outcome::N }
    }

    /// In words, with the letter.
    pub fn words(self) -> &'static str {
        match self {
            Outcome::N => "first player wins (N)",
            Outcome::P => "second player wins (P)",
        }
    }
}

/// One option of a position or sum.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Move {
    /// Which component of the sum moves (0-based, as written; 0 for a
    /// single game). Identical components are listed each with its own.
    pub component: usize,
    /// The component that moves (the whole position for a single game).
    pub from: String,
    /// What that component becomes.
    pub to: String,
    /// The Grundy value of the whole position after the move.
    pub grundy: u32,
}

/// The result of one statement.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Answer {
    /// `print EXPR` for an ordinary value.
    Value {
        /// The expression as written.
        expr: String,
        /// The value, rendered.
        value: String,
        /// The value as JSON.
        json: serde_json::Value,
    },
    /// `print TEXT` for a string: the text as it is.
    Text {
        /// The string.
        text: String,
    },
    /// `print P` for a position, and `outcome(P)`.
    Outcome {
        /// The position, rendered.
        position: String,
        /// Its Grundy value.
        grundy: u32,
        /// Who wins.
        outcome: Outcome,
    },
    /// `moves(P)`
    Moves {
        /// The position.
        position: String,
        /// How many components it has (moves name theirs by index).
        components: usize,
        /// Its Grundy value.
        grundy: u32,
        /// Every option, with the value after it.
        moves: Vec<Move>,
    },
    /// `winning(P)`
    Winning {
        /// The position.
        position: String,
        /// How many components it has (moves name theirs by index).
        components: usize,
        /// Its Grundy value.
        grundy: u32,
        /// The options of value 0.
        moves: Vec<Move>,
        /// How many moves there are in all (a group of a huge heap's splits
        /// counts as its many moves).
        options: u64,
    },
    /// `table(G, range)`
    Table {
        /// The game.
        game: String,
        /// Whether the values are misère values (`table(G, .., misere)`).
        misere: bool,
        /// The parameter name.
        param: String,
        /// The arguments.
        args: Vec<i64>,
        /// Their values.
        values: Vec<u32>,
    },
    /// `table(G, range, range)`
    Grid {
        /// The game.
        game: String,
        /// Whether the values are misère values (`table(G, .., misere)`).
        misere: bool,
        /// The parameter names.
        params: [String; 2],
        /// Row arguments.
        rows: Vec<i64>,
        /// Column arguments.
        cols: Vec<i64>,
        /// Values, row by row.
        values: Vec<Vec<u32>>,
    },
    /// `map(G, rows, columns)`: P-positions as a picture.
    Map {
        /// The game.
        game: String,
        /// Whether these are misère P-positions.
        misere: bool,
        /// The parameter names.
        params: [String; 2],
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
        /// The ranges searched, rendered.
        ranges: Vec<String>,
        /// The argument tuples of value 0.
        positions: Vec<Vec<i64>>,
    },
    /// `outcome(P, misere)`.
    MisereOutcome {
        /// The position.
        position: String,
        /// Who wins when the last player to move loses.
        outcome: Outcome,
    },
    /// `winning(P, misere)`.
    MisereWinning {
        /// The position.
        position: String,
        /// How many components it has (moves name theirs by index).
        components: usize,
        /// The moves to a misère P-position (`grundy` is 0: the misère
        /// value after the move).
        moves: Vec<Move>,
        /// How many options the position has.
        options: usize,
    },
    /// `graph(P)`: the state graph.
    Graph {
        /// The position drawn.
        position: String,
        /// Graphviz DOT.
        dot: String,
        /// Nodes (distinct sums reachable).
        nodes: usize,
        /// Edges (moves).
        edges: usize,
    },
    /// `describe(G)`: the moves in words.
    Describe {
        /// The lines.
        lines: Vec<String>,
    },
    /// `period(G)`.
    Period {
        /// The game.
        game: String,
        /// What was found (`None`: no period within the budget).
        found: Option<crate::analysis::Period>,
        /// Values computed.
        computed: i64,
        /// Why no proof applies, when none does.
        why: Option<String>,
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
        bindings: Vec<(String, String)>,
        /// The two sides of the comparison, if the condition is one.
        sides: Option<(String, String)>,
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
fn misere_words(misere: bool) -> &'static str {
    if misere { "misère values of " } else { "" }
}

fn width(values: impl Iterator<Item = String>) -> usize {
    values.map(|s| s.len()).max().unwrap_or(1)
}

/// Moves one per line; in a sum, each with its component's index.
fn moves_block(
    f: &mut fmt::Formatter<'_>,
    moves: &[Move],
    show_value: bool,
    components: usize,
) -> fmt::Result {
    let sum = components > 1;
    let show = |m: &Move| {
        if sum {
            format!("[{}] {} -> {}", m.component, m.from, m.to)
        } else {
            format!("{} -> {}", m.from, m.to)
        }
    };
    let w = width(moves.iter().map(show));
    for m in moves {
        let mv = show(m);
        if show_value {
            writeln!(f, "  {mv:<w$}   grundy {}", m.grundy)?;
        } else {
            writeln!(f, "  {mv}")?;
        }
    }
    Ok(())
}

impl fmt::Display for Answer {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Answer::Value { expr, value, .. } => writeln!(f, "{expr} = {value}"),
            Answer::Text { text } => writeln!(f, "{text}"),
            Answer::Outcome {
                position,
                grundy,
                outcome,
            } => writeln!(f, "{position}: {}, grundy {grundy}", outcome.words()),
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
            Answer::Winning {
                position,
                components,
                grundy,
                moves,
                options,
            } => {
                if *options == 0 {
                    return writeln!(f, "{position}: no moves at all, {}", Outcome::P.words());
                }
                if *grundy == 0 {
                    return writeln!(
                        f,
                        "{position}: no winning move, {} (every move leads to a non-zero value)",
                        Outcome::P.words()
                    );
                }
                writeln!(f, "winning moves from {position} (grundy {grundy}):")?;
                moves_block(f, moves, false, *components)
            }
            Answer::Table {
                game,
                misere,
                param,
                args,
                values,
            } => {
                writeln!(
                    f,
                    "{}{game}({param}) for {param} in {}:",
                    misere_words(*misere),
                    describe_axis(args)
                )?;
                table_rows(f, args, values)
            }
            Answer::Grid {
                game,
                misere,
                params,
                rows,
                cols,
                values,
            } => {
                let [a, b] = params;
                writeln!(
                    f,
                    "{}{game}({a}, {b}) for {a} in {} (rows), {b} in {} (columns):",
                    misere_words(*misere),
                    describe_axis(rows),
                    describe_axis(cols)
                )?;
                let vw = width(
                    values
                        .iter()
                        .flatten()
                        .map(u32::to_string)
                        .chain(cols.iter().map(i64::to_string)),
                );
                let corner = format!("{a}\\{b}");
                let rw = width(rows.iter().map(i64::to_string).chain([corner.clone()]));
                let mut line = format!("  {corner:>rw$} ");
                for c in cols {
                    let _ = write!(line, " {c:>vw$}");
                }
                writeln!(f, "{line}")?;
                for (r, row) in rows.iter().zip(values) {
                    let mut line = format!("  {r:>rw$} ");
                    for v in row {
                        let _ = write!(line, " {v:>vw$}");
                    }
                    writeln!(f, "{line}")?;
                }
                Ok(())
            }
            Answer::Map {
                game,
                misere,
                params,
                rows,
                cols,
                p,
            } => {
                let [a, b] = params;
                writeln!(
                    f,
                    "{}P-positions of {game}({a}, {b}) for {a} in {} (rows), {b} in {} (columns): # P, . N",
                    if *misere { "misère " } else { "" },
                    describe_axis(rows),
                    describe_axis(cols)
                )?;
                let rw = width(rows.iter().map(i64::to_string));
                // A ruler: the column's argument every ten columns.
                let mut ruler = String::new();
                for (i, c) in cols.iter().enumerate() {
                    if i % 10 == 0 && ruler.chars().count() <= i {
                        while ruler.chars().count() < i {
                            ruler.push(' ');
                        }
                        ruler.push_str(&format!("|{c}"));
                    }
                }
                writeln!(f, "  {:rw$}  {}", "", ruler.trim_end())?;
                for (r, row) in rows.iter().zip(p) {
                    let cells: String = row.iter().map(|&x| if x { '#' } else { '.' }).collect();
                    writeln!(f, "  {r:>rw$}  {cells}")?;
                }
                Ok(())
            }
            Answer::PPositions {
                game,
                misere,
                params,
                ranges,
                positions,
            } => {
                let over: Vec<String> = params
                    .iter()
                    .zip(ranges)
                    .map(|(p, r)| format!("{p} in {r}"))
                    .collect();
                writeln!(
                    f,
                    "{}P-positions of {game}({}) for {}: {} found",
                    if *misere { "misère " } else { "" },
                    params.join(", "),
                    over.join(", "),
                    positions.len()
                )?;
                let items: Vec<String> = positions
                    .iter()
                    .map(|p| {
                        if p.len() == 1 {
                            p[0].to_string()
                        } else {
                            format!(
                                "({})",
                                p.iter().map(i64::to_string).collect::<Vec<_>>().join(", ")
                            )
                        }
                    })
                    .collect();
                for chunk in items.chunks(10) {
                    writeln!(f, "  {}", chunk.join(" "))?;
                }
                Ok(())
            }
            Answer::MisereOutcome { position, outcome } => {
                writeln!(f, "{position}: {} in misère play", outcome.words())
            }
            Answer::MisereWinning {
                position,
                components,
                moves,
                options,
            } => {
                if moves.is_empty() {
                    let why = if *options == 0 {
                        "no move at all: the player to move has already won".to_string()
                    } else {
                        "every move leads to a misère N-position".to_string()
                    };
                    return writeln!(f, "{position}: no winning move in misère play ({why})");
                }
                writeln!(f, "winning moves from {position} in misère play:")?;
                moves_block(f, moves, false, *components)
            }
            Answer::Graph { dot, .. } => f.write_str(dot),
            Answer::Describe { lines } => {
                for l in lines {
                    writeln!(f, "{l}")?;
                }
                Ok(())
            }
            Answer::Period {
                game,
                found,
                computed,
                why,
            } => match found {
                None => {
                    writeln!(
                        f,
                        "period of {game}: none found in {game}(0..{computed}) (the search budget or the state limit)"
                    )?;
                    if let Some(why) = why {
                        writeln!(f, "  and no proof could apply: {why}")?;
                    }
                    writeln!(
                        f,
                        "  search further with period({game}, N) or --period-budget N"
                    )
                }
                Some(p) => {
                    let pre = if p.preperiod == 0 {
                        "purely periodic".to_string()
                    } else {
                        format!("pre-period {}", p.preperiod)
                    };
                    match &p.basis {
                        crate::analysis::Basis::Proven { theorem, from, to } => {
                            writeln!(f, "period of {game}: {}, {pre} (proven)", p.period)?;
                            writeln!(f, "  {theorem};")?;
                            writeln!(
                                f,
                                "  checked G(n + {}) = G(n) for {from} <= n < {to} ({} values computed)",
                                p.period, p.computed
                            )
                        }
                        crate::analysis::Basis::Observed { why } => {
                            writeln!(
                                f,
                                "period of {game}: {}, {pre} (observed in {game}(0..{}), not proven)",
                                p.period, p.computed
                            )?;
                            writeln!(f, "  {why}")
                        }
                    }
                }
            },
            Answer::CheckOk { condition, cases } => match cases {
                0 => writeln!(
                    f,
                    "check {condition}: nothing tested (0 cases: the ranges are empty or every case was filtered out)"
                ),
                1 => writeln!(f, "check {condition}: ok (1 case)"),
                _ => writeln!(f, "check {condition}: ok ({cases} cases)"),
            },
            Answer::CheckFailed {
                condition,
                passed,
                bindings,
                sides,
            } => {
                let at: Vec<String> = bindings.iter().map(|(n, v)| format!("{n} = {v}")).collect();
                let at = if at.is_empty() {
                    String::new()
                } else {
                    format!(" at {}", at.join(", "))
                };
                let cases = if *passed == 1 { "case" } else { "cases" };
                writeln!(
                    f,
                    "check {condition}: FAILED{at} (after {passed} passing {cases})"
                )?;
                if let Some((l, r)) = sides {
                    writeln!(f, "  left side:  {l}")?;
                    writeln!(f, "  right side: {r}")?;
                }
                Ok(())
            }
        }
    }
}

fn contiguous(xs: &[i64]) -> bool {
    xs.windows(2).all(|w| w[0].checked_add(1) == Some(w[1]))
}

/// `0..=20` for a contiguous axis, else the list (`[]` when empty).
pub fn describe_axis(xs: &[i64]) -> String {
    match (xs.first(), xs.last()) {
        (Some(a), Some(b)) if contiguous(xs) => format!("{a}..={b}"),
        _ => {
            let mut s = String::new();
            let _ = crate::value::write_list(&mut s, xs);
            s
        }
    }
}

/// Rows of ten values, each labeled with its first argument; one value a
/// line when the arguments are not consecutive.
fn table_rows(f: &mut fmt::Formatter<'_>, args: &[i64], values: &[u32]) -> fmt::Result {
    let vw = width(values.iter().map(u32::to_string));
    let aw = width(args.iter().map(i64::to_string));
    let per_row = if contiguous(args) { 10 } else { 1 };
    for (chunk_args, chunk_vals) in args.chunks(per_row).zip(values.chunks(per_row)) {
        let mut line = format!("  {:>aw$}:", chunk_args[0]);
        for v in chunk_vals {
            let _ = write!(line, " {v:>vw$}");
        }
        writeln!(f, "{line}")?;
    }
    Ok(())
}
