//! P-positions by marking ([`crate::marking`]) for the reports: games of
//! several integers whose moves are translations
//! ([`crate::analysis::translate`]) get their P-positions in a box without
//! a Grundy value, one bit per position.

use super::*;
use crate::marking::PSet;

/// The P-positions of the box `0..=dims[i]` of `game`, or `None` when its
/// moves are not translations (the caller computes values instead). A box
/// too large to hold is an error.
pub(super) fn p_set(
    m: &mut Machine,
    game: ir::GameId,
    dims: &[i64],
    span: Span,
) -> R<Option<PSet>> {
    let read = {
        use crate::oracle::Oracle;
        let o = m.oracle();
        crate::analysis::translate::translations(o.program(), o.constants(), game)
    };
    let Ok(moves) = read else {
        return Ok(None);
    };
    let name = &m.program().games[game as usize].name;
    let Some(count) = crate::marking::positions(dims) else {
        return Err(too_large(name, dims, span).into());
    };
    let bytes = count.div_ceil(8);
    if usize::try_from(bytes).is_err() {
        return Err(too_large(name, dims, span).into());
    }
    m.reserve(bytes as usize).map_err(|s| {
        s.map_diag(|d| {
            d.note(format!(
                "marking the P-positions of {name} in this box holds a bit for each of \
                 {count} positions"
            ))
        })
    })?;
    let set = crate::marking::mark(&moves, dims, &mut |_| m.poll())?;
    Ok(Some(set))
}

fn too_large(name: &str, dims: &[i64], span: Span) -> Diag {
    let sizes: Vec<String> = dims
        .iter()
        .map(|d| (d.saturating_add(1)).to_string())
        .collect();
    Diag::user(
        Code::TooLarge,
        format!(
            "the P-positions of {name} in a box of {} positions are too many to mark",
            sizes.join(" × ")
        ),
    )
    .label(span, "this box")
    .help("ask about a smaller box")
}

/// `ppositions` by marking: the points of the axes (each a parameter, or
/// a section's free ones) that are P-positions, in the axes' order; `None`
/// when the game's moves are not translations or an argument is negative.
pub(super) fn zeros(
    m: &mut Machine,
    game: ir::GameId,
    sec: Option<&tables::Slice>,
    axes: &[Vec<i64>],
    span: Span,
) -> R<Option<Vec<Vec<i64>>>> {
    let arity = m.program().games[game as usize].params.len();
    // The box: each free parameter up to its axis' largest, each fixed one
    // its value.
    let mut dims = match sec {
        Some(s) => s.args.clone(),
        None => vec![0; arity],
    };
    let free: Vec<usize> = match sec {
        Some(s) => s.free.clone(),
        None => (0..arity).collect(),
    };
    if free.len() != axes.len() {
        return Ok(None);
    }
    for (&i, axis) in free.iter().zip(axes) {
        dims[i] = axis.iter().copied().max().unwrap_or(0);
        if axis.iter().any(|&x| x < 0) {
            return Ok(None);
        }
    }
    if dims.iter().any(|&d| d < 0) || axes.iter().any(Vec::is_empty) {
        return Ok(None);
    }
    let Some(set) = p_set(m, game, &dims, span)? else {
        return Ok(None);
    };
    let mut out = Vec::new();
    // Axes that are ascending runs over a whole box's last parameter: its
    // rows' bits scanned.
    let run = |a: &Vec<i64>| a.windows(2).all(|w| w[1] == w[0] + 1);
    if free.iter().copied().eq(0..arity) && axes.iter().all(run) {
        let last = axes.len() - 1;
        let (lo, hi) = (axes[last][0], axes[last][axes[last].len() - 1]);
        let mut at = vec![0usize; last];
        let mut head: Vec<i64> = vec![0; last];
        'rows: loop {
            for k in 0..last {
                head[k] = axes[k][at[k]];
            }
            let mut found = Vec::new();
            set.row(&head, lo, hi, &mut |x| found.push(x));
            for x in found {
                let mut p = head.clone();
                p.push(x);
                push_counted(m, &mut out, p)?;
            }
            for k in (0..last).rev() {
                at[k] += 1;
                if at[k] < axes[k].len() {
                    continue 'rows;
                }
                at[k] = 0;
            }
            break;
        }
        return Ok(Some(out));
    }
    let mut point = dims.clone();
    let mut at = vec![0usize; axes.len()];
    // Every point of the axes, the last fastest.
    'points: loop {
        for (k, &i) in free.iter().enumerate() {
            point[i] = axes[k][at[k]];
        }
        if set.is_p(&point) {
            push_counted(
                m,
                &mut out,
                at.iter().zip(axes).map(|(&j, a)| a[j]).collect(),
            )?;
        }
        for k in (0..axes.len()).rev() {
            at[k] += 1;
            if at[k] < axes[k].len() {
                continue 'points;
            }
            at[k] = 0;
        }
        break;
    }
    Ok(Some(out))
}

/// Positions from which `outcome` marks P-positions rather than computing
/// values: below, values come at once.
pub const MARK_FROM: u64 = 1 << 20;

/// Whether `root`, a position of a game whose moves are translations with
/// at least [`MARK_FROM`] positions below it, is a P-position, by marking;
/// `None` for any other position.
pub(super) fn outcome(m: &mut Machine, root: PosId) -> R<Option<bool>> {
    let game = m.game_of(root);
    if m.program().games[game as usize].params.len() < 2 {
        return Ok(None);
    }
    let (_, args) = {
        use crate::oracle::Oracle;
        m.oracle().position(root)
    };
    let dims: Option<Vec<i64>> = args
        .iter()
        .map(|a| match a {
            Value::Int(v) if *v >= 0 => Some(*v),
            _ => None,
        })
        .collect();
    let Some(dims) = dims else {
        return Ok(None);
    };
    if crate::marking::positions(&dims).is_some_and(|n| n < MARK_FROM) {
        return Ok(None);
    }
    let span = m.program().games[game as usize].header;
    Ok(p_set(m, game, &dims, span)?.map(|set| set.is_p(&dims)))
}
