//! The text layout of tables: one-axis rows, grids, P-position maps and
//! lists, each cell already text.

use super::{Gsg, misere_words};
use std::fmt::{self, Write as _};

pub(super) fn width(values: impl Iterator<Item = String>) -> usize {
    values.map(|s| s.chars().count()).max().unwrap_or(1)
}

/// A two-parameter table: a header row of the second argument, a row per
/// value of the first.
pub(super) fn grid(
    f: &mut fmt::Formatter<'_>,
    call: &str,
    misere: bool,
    params: &[String; 2],
    rows: &[i64],
    cols: &[i64],
    values: &[Vec<Gsg>],
) -> fmt::Result {
    let [a, b] = params;
    let header = format!(
        "{}{call} for {a} in {} (rows), {b} in {} (columns):",
        misere_words(misere),
        describe_axis(rows),
        describe_axis(cols)
    );
    let values: Vec<Vec<String>> = values
        .iter()
        .map(|row| row.iter().map(Gsg::to_string).collect())
        .collect();
    text_grid(f, &header, [a, b], rows, cols, &values)
}

/// A two-axis table's cells as text under its header line.
pub(super) fn text_grid(
    f: &mut fmt::Formatter<'_>,
    header: &str,
    [a, b]: [&String; 2],
    rows: &[i64],
    cols: &[i64],
    values: &[Vec<String>],
) -> fmt::Result {
    writeln!(f, "{header}")?;
    let vw = width(
        values
            .iter()
            .flatten()
            .cloned()
            .chain(cols.iter().map(i64::to_string)),
    );
    let corner = format!("{a}\\{b}");
    let rw = width(rows.iter().map(i64::to_string).chain([corner.clone()]));
    writeln!(f, "{}", cells(format!("  {corner:>rw$} "), cols, vw))?;
    for (r, row) in rows.iter().zip(values) {
        writeln!(f, "{}", cells(format!("  {r:>rw$} "), row, vw))?;
    }
    Ok(())
}

/// A line: its start, then the cells right-aligned in `width`.
fn cells<T: fmt::Display>(
    mut line: String,
    cells: impl IntoIterator<Item = T>,
    width: usize,
) -> String {
    for c in cells {
        let _ = write!(line, " {c:>width$}");
    }
    line
}

/// The P-positions of a two-parameter game as a picture in text.
pub(super) fn p_map(
    f: &mut fmt::Formatter<'_>,
    call: &str,
    misere: bool,
    params: &[String; 2],
    rows: &[i64],
    cols: &[i64],
    p: &[Vec<bool>],
) -> fmt::Result {
    let [a, b] = params;
    writeln!(
        f,
        "{}P-positions of {call} for {a} in {} (rows), {b} in {} (columns): # P, . N",
        if misere { "misère " } else { "" },
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

/// P-positions listed, ten a line.
pub(super) fn p_positions(
    f: &mut fmt::Formatter<'_>,
    call: &str,
    misere: bool,
    params: &[String],
    ranges: &[String],
    positions: &[Vec<i64>],
) -> fmt::Result {
    let over: Vec<String> = params
        .iter()
        .zip(ranges)
        .map(|(p, r)| format!("{p} in {r}"))
        .collect();
    writeln!(
        f,
        "{}P-positions of {call} for {}: {} found",
        if misere { "misère " } else { "" },
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

pub(super) fn contiguous(xs: &[i64]) -> bool {
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
pub(super) fn table_rows(f: &mut fmt::Formatter<'_>, args: &[i64], values: &[Gsg]) -> fmt::Result {
    let values: Vec<String> = values.iter().map(Gsg::to_string).collect();
    text_rows(f, args, &values)
}

/// A one-axis table's cells as text, ten to a row when the arguments run
/// on by one.
pub(super) fn text_rows(
    f: &mut fmt::Formatter<'_>,
    args: &[i64],
    values: &[String],
) -> fmt::Result {
    let vw = width(values.iter().cloned());
    let aw = width(args.iter().map(i64::to_string));
    let per_row = if contiguous(args) { 10 } else { 1 };
    for (chunk_args, chunk_vals) in args.chunks(per_row).zip(values.chunks(per_row)) {
        let start = format!("  {:>aw$}:", chunk_args[0]);
        writeln!(f, "{}", cells(start, chunk_vals, vw))?;
    }
    Ok(())
}

/// `genus(G, xs)` and `genus(G, xs, ys)`: the genera as a one-axis table
/// or a grid.
pub(super) fn genera(
    f: &mut fmt::Formatter<'_>,
    game: &str,
    params: &[String],
    axes: &[Vec<i64>],
    genera: &[String],
) -> fmt::Result {
    match (params, axes) {
        ([p], [xs]) => {
            writeln!(f, "genus of {game}({p}) for {p} in {}:", describe_axis(xs))?;
            text_rows(f, xs, genera)
        }
        ([a, b], [rows, cols]) => {
            let header = format!(
                "genus of {game}({a}, {b}) for {a} in {} (rows), {b} in {} (columns):",
                describe_axis(rows),
                describe_axis(cols)
            );
            let cells: Vec<Vec<String>> = match cols.len() {
                0 => vec![Vec::new(); rows.len()],
                n => genera.chunks(n).map(<[String]>::to_vec).collect(),
            };
            text_grid(f, &header, [a, b], rows, cols, &cells)
        }
        _ => Ok(()),
    }
}
