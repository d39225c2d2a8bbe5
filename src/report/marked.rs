//! P-positions by marking ([`crate::marking`]) for the reports: games of
//! two or more integers whose moves are translations
//! ([`crate::solve::analysis::translate`]) moving at least two of them get their
//! P-positions in a box without a Grundy value, one bit per position.

use super::*;
use crate::marking::{PSet, Translation};

/// The P-positions of a box, over the coordinates kept (those a move
/// changes, or that run over more than one value).
pub(super) struct Marked {
    set: PSet,
    keep: Vec<usize>,
}

impl Marked {
    /// Whether the position `x` (every coordinate, inside the box) is a
    /// P-position.
    fn is_p(&self, x: &[i64]) -> bool {
        let kept: Vec<i64> = self.keep.iter().map(|&i| x[i]).collect();
        self.set.is_p(&kept)
    }
}

/// The P-positions of `game` in the box `0..=hi[i]` of each coordinate,
/// or just `hi[i]` where `fixed[i]` and no move changes it; `None` when
/// its moves are not translations or change fewer than two coordinates
/// (the caller computes values instead: periods and the other strategies
/// answer those). A box too large to hold is an error.
fn p_set(
    m: &mut Machine,
    game: ir::GameId,
    hi: &[i64],
    fixed: &[bool],
    span: Span,
) -> R<Option<Marked>> {
    let read = {
        use crate::oracle::Oracle;
        let o = m.oracle();
        crate::solve::analysis::translate::translations(o.program(), o.constants(), game)
    };
    let Ok(moves) = read else {
        return Ok(None);
    };
    let d = hi.len();
    let moved: Vec<bool> = (0..d)
        .map(|i| moves.iter().any(|t| t.step[i] != 0 || t.shift[i] != 0))
        .collect();
    if moved.iter().filter(|&&b| b).count() < 2 {
        return Ok(None);
    }
    let keep: Vec<usize> = (0..d).filter(|&i| moved[i] || !fixed[i]).collect();
    let moves = project(&moves, &keep, hi);
    let dims: Vec<i64> = keep.iter().map(|&i| hi[i]).collect();
    let name = m.program().games[game.index()].name.clone();
    let name = &name;
    let Some(count) = crate::marking::positions(&dims) else {
        return Err(too_large(name, &dims, span).into());
    };
    let Ok(bytes) = usize::try_from(count.div_ceil(8)) else {
        return Err(too_large(name, &dims, span).into());
    };
    m.reserve(bytes).map_err(|s| {
        s.map_diag(|d| {
            d.note(format!(
                "marking the P-positions of {name} in this box holds a bit for each of \
                 {count} positions"
            ))
        })
    })?;
    let mut spent = 0;
    let set = crate::marking::mark(&moves, &dims, &mut |done| {
        use crate::oracle::Oracle;
        let r = m.oracle().spend(done - spent);
        spent = done;
        r
    })?;
    // Under no memory limit, an allocation the machine refused.
    let Some(set) = set else {
        return Err(Limit::Memory
            .stop(format!("the machine has no room for a bit for each of {count} positions"))
            .label(span, "this box")
            .note(format!("marking the P-positions of {name} in this box holds a bit for each of {count} positions"))
            .help("ask about a smaller box"));
    };
    Ok(Some(Marked { set, keep }))
}

/// The translations over the coordinates `keep`, the others (which no
/// move changes) at their values `at`: a rule whose floor or condition
/// fails there is dropped, its conditions' other terms made constant.
fn project(moves: &[Translation], keep: &[usize], at: &[i64]) -> Vec<Translation> {
    let pick = |v: &[i64]| keep.iter().map(|&i| v[i]).collect::<Vec<i64>>();
    let gone: Vec<usize> = (0..at.len()).filter(|i| !keep.contains(i)).collect();
    let mut out = Vec::new();
    'moves: for t in moves {
        if gone.iter().any(|&i| at[i] < t.floor[i]) {
            continue;
        }
        let mut when = Vec::new();
        for (coefs, k) in &t.when {
            let k = gone.iter().fold(*k, |acc, &i| {
                acc.saturating_add(coefs[i].saturating_mul(at[i]))
            });
            let coefs = pick(coefs);
            match coefs.iter().all(|&c| c == 0) {
                true if k < 0 => continue 'moves,
                true => {}
                false => when.push((coefs, k)),
            }
        }
        out.push(Translation {
            step: pick(&t.step),
            shift: pick(&t.shift),
            k_lo: t.k_lo,
            k_hi: t.k_hi,
            floor: pick(&t.floor),
            when,
        });
    }
    out
}

fn too_large(name: &str, dims: &[i64], span: Span) -> Diag {
    let sizes: Vec<String> = dims
        .iter()
        .map(|d| d.saturating_add(1).to_string())
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
/// when the game is not marked or an argument is negative.
pub(super) fn zeros(
    m: &mut Machine,
    game: ir::GameId,
    sec: Option<&tables::Slice>,
    axes: &[Vec<i64>],
    span: Span,
) -> R<Option<Vec<Vec<i64>>>> {
    let arity = m.program().games[game.index()].params.len();
    // The box: each free parameter up to its axis' largest, each fixed one
    // at (or up to) its value.
    let mut hi = match sec {
        Some(s) => s.args.clone(),
        None => vec![0; arity],
    };
    let free: Vec<usize> = match sec {
        Some(s) => s.free.clone(),
        None => (0..arity).collect(),
    };
    if free.len() != axes.len() || axes.iter().any(Vec::is_empty) {
        return Ok(None);
    }
    for (&i, axis) in free.iter().zip(axes) {
        hi[i] = axis.iter().copied().max().unwrap_or(0);
        if axis.iter().any(|&x| x < 0) {
            return Ok(None);
        }
    }
    if hi.iter().any(|&d| d < 0) {
        return Ok(None);
    }
    let fixed: Vec<bool> = (0..arity).map(|i| !free.contains(&i)).collect();
    let Some(set) = p_set(m, game, &hi, &fixed, span)? else {
        return Ok(None);
    };
    let mut out = Vec::new();
    // Axes that are ascending runs over a whole box (no coordinate set
    // aside), the free parameters in order: its rows' bits scanned.
    let run = |a: &Vec<i64>| a.windows(2).all(|w| w[1] == w[0] + 1);
    if set.keep.len() == arity && free.iter().copied().eq(0..arity) && axes.iter().all(run) {
        let last = axes.len() - 1;
        let (lo, top) = (axes[last][0], axes[last][axes[last].len() - 1]);
        tables::each_point(&axes[..last], &mut |head| {
            let mut found = Vec::new();
            set.set.row(head, lo, top, &mut |x| found.push(x));
            for x in found {
                let mut p = head.to_vec();
                p.push(x);
                push_counted(m, &mut out, p)?;
            }
            Ok(())
        })?;
        return Ok(Some(out));
    }
    let mut point = hi.clone();
    tables::each_point(axes, &mut |xs| {
        for (&i, &x) in free.iter().zip(xs) {
            point[i] = x;
        }
        if set.is_p(&point) {
            push_counted(m, &mut out, xs.to_vec())?;
        }
        Ok(())
    })?;
    Ok(Some(out))
}

/// Positions from which `outcome` marks P-positions rather than computing
/// values: below, values come at once.
pub const MARK_FROM: u64 = 1 << 20;

/// Whether `root`, a position of a game marked (above) with at least
/// [`MARK_FROM`] positions below it, is a P-position, by marking; `None`
/// for any other position.
pub(super) fn outcome(m: &mut Machine, root: PosId) -> R<Option<bool>> {
    let game = m.game_of(root);
    if m.program().games[game.index()].params.len() < 2 {
        return Ok(None);
    }
    let (_, args) = {
        use crate::oracle::Oracle;
        m.oracle().position(root)
    };
    let hi: Option<Vec<i64>> = args
        .iter()
        .map(|a| match a {
            Value::Int(v) if *v >= 0 => Some(*v),
            _ => None,
        })
        .collect();
    let Some(hi) = hi else {
        return Ok(None);
    };
    if crate::marking::positions(&hi).is_some_and(|n| n < MARK_FROM) {
        return Ok(None);
    }
    let span = m.program().games[game.index()].header;
    let fixed = vec![true; hi.len()];
    Ok(p_set(m, game, &hi, &fixed, span)?.map(|set| set.is_p(&hi)))
}
