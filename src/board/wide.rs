//! Boards of any size: the same `components`, `grid_canon` and `grid_turn`
//! on masks held as words (least significant first), for boards wider
//! than 64 bits or grids of more than 63 cells. Cell by cell, where the
//! 64-bit functions work a row or a frontier at a time; they agree with
//! them wherever both apply (a test checks every shape of a small grid).

use super::BoardError;

/// The most cells a grid may have here (a board is at most this wide).
pub const MAX_CELLS: u64 = 1 << 16;

/// Whether bit `v` of `words` is set.
fn has(words: &[u64], v: usize) -> bool {
    words.get(v / 64).is_some_and(|w| w >> (v % 64) & 1 == 1)
}

/// Sets bit `v` of `words`, growing them as needed.
fn set(words: &mut Vec<u64>, v: usize) {
    if words.len() <= v / 64 {
        words.resize(v / 64 + 1, 0);
    }
    words[v / 64] |= 1 << (v % 64);
}

/// The set bits of `words`, lowest first.
fn bits(words: &[u64]) -> impl Iterator<Item = usize> + '_ {
    words.iter().enumerate().flat_map(|(i, &w)| {
        let mut w = w;
        std::iter::from_fn(move || {
            (w != 0).then(|| {
                let b = w.trailing_zeros() as usize;
                w &= w - 1;
                i * 64 + b
            })
        })
    })
}

/// Without high zero words: one form for each mask.
fn trim(mut words: Vec<u64>) -> Vec<u64> {
    while words.last() == Some(&0) {
        words.pop();
    }
    words
}

/// [`super::components`] on words: `adj(v)` is vertex `v`'s neighbours
/// (`None` when the list has no entry for it, `Some(Err(()))` when the
/// entry is negative).
pub fn components(
    mask: &[u64],
    adj: impl Fn(usize) -> Option<Result<Vec<u64>, ()>>,
) -> Result<Vec<Vec<u64>>, BoardError> {
    let mut rest = mask.to_vec();
    let mut parts = Vec::new();
    loop {
        let Some(seed) = bits(&rest).next() else {
            break;
        };
        let mut part = Vec::new();
        set(&mut part, seed);
        let mut frontier = vec![seed];
        while let Some(v) = frontier.pop() {
            let vertex = v as u32;
            let near = adj(v)
                .ok_or(BoardError::NoNeighbours(vertex))?
                .map_err(|()| BoardError::NegativeNeighbours(vertex))?;
            for u in bits(&near) {
                if has(&rest, u) && !has(&part, u) {
                    set(&mut part, u);
                    frontier.push(u);
                }
            }
        }
        for (r, p) in rest.iter_mut().zip(&part) {
            *r &= !p;
        }
        parts.push(trim(part));
    }
    Ok(parts)
}

/// A shape's cells as (row, column) on a `w`-wide grid of `h` rows, and its
/// box: rows `r0..=r1`, columns `c0..=c1`; `None` for the empty board.
type Cells = (Vec<(u32, u32)>, [u32; 4]);

fn cells(mask: &[u64], w: i64, h: i64) -> Result<Option<(Cells, u32, u32)>, BoardError> {
    let fits = w >= 1 && h >= 1 && w.checked_mul(h).is_some_and(|n| n as u64 <= MAX_CELLS);
    if !fits {
        return Err(BoardError::BadGrid);
    }
    let (w, h) = (w as u32, h as u32);
    let mut all = Vec::new();
    let mut bounds = [u32::MAX, 0, u32::MAX, 0];
    for v in bits(mask) {
        if v as u64 >= u64::from(w) * u64::from(h) {
            let top = bits(mask).last().unwrap_or(v);
            return Err(BoardError::OffGrid(top as u32));
        }
        let (r, c) = (v as u32 / w, v as u32 % w);
        bounds = [
            bounds[0].min(r),
            bounds[1].max(r),
            bounds[2].min(c),
            bounds[3].max(c),
        ];
        all.push((r, c));
    }
    Ok((!all.is_empty()).then_some(((all, bounds), w, h)))
}

/// Compares two masks as integers.
fn less(a: &[u64], b: &[u64]) -> bool {
    (a.len(), a.iter().rev().collect::<Vec<_>>()) < (b.len(), b.iter().rev().collect::<Vec<_>>())
}

/// [`super::grid_canon`] on words, for a grid of up to [`MAX_CELLS`]
/// cells.
pub fn grid_canon(mask: &[u64], w: i64, h: i64) -> Result<Vec<u64>, BoardError> {
    let Some(((cells, [r0, r1, c0, c1]), w, h)) = cells(mask, w, h)? else {
        return Ok(Vec::new());
    };
    let (bh, bw) = (r1 - r0 + 1, c1 - c0 + 1);
    let turned = bw <= h && bh <= w;
    let mut best: Option<Vec<u64>> = None;
    for image in 0..if turned { 8 } else { 4 } {
        let mut words = Vec::new();
        for &(r, c) in &cells {
            let (dr, dc) = (r - r0, c - c0);
            let (dr, dc) = if image >= 4 { (dc, dr) } else { (dr, dc) };
            let (rows, cols) = if image >= 4 { (bw, bh) } else { (bh, bw) };
            let dr = if image & 2 != 0 { rows - 1 - dr } else { dr };
            let dc = if image & 1 != 0 { cols - 1 - dc } else { dc };
            set(&mut words, (dr * w + dc) as usize);
        }
        let words = trim(words);
        if best.as_ref().is_none_or(|b| less(&words, b)) {
            best = Some(words);
        }
    }
    Ok(best.unwrap_or_default())
}

/// [`super::grid_turn`] on words.
pub fn grid_turn(mask: &[u64], w: i64, h: i64) -> Result<Vec<u64>, BoardError> {
    let Some(((cells, [r0, r1, c0, c1]), w, _)) = cells(mask, w, h)? else {
        return Ok(Vec::new());
    };
    let mut words = Vec::new();
    for (r, c) in cells {
        set(&mut words, ((r0 + r1 - r) * w + (c0 + c1 - c)) as usize);
    }
    Ok(trim(words))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn grid_adj(w: i64, h: i64) -> Vec<i64> {
        (0..w * h)
            .map(|v| {
                let (r, c) = (v / w, v % w);
                let mut a = 0;
                if c > 0 {
                    a |= 1 << (v - 1);
                }
                if c + 1 < w {
                    a |= 1 << (v + 1);
                }
                if r > 0 {
                    a |= 1 << (v - w);
                }
                if r + 1 < h {
                    a |= 1 << (v + w);
                }
                a
            })
            .collect()
    }

    fn words(x: i64) -> Vec<u64> {
        trim(vec![x as u64])
    }

    /// Every shape of small grids: the same answers as the 64-bit
    /// functions.
    #[test]
    fn words_agree_with_the_64_bit_functions() {
        for (w, h) in [(4, 4), (3, 5), (5, 3), (2, 7), (8, 2), (1, 9)] {
            let adj = grid_adj(w, h);
            for m in 0..1i64 << (w * h) {
                let want = super::super::grid_canon(m, w, h).map(words);
                assert_eq!(grid_canon(&words(m), w, h), want, "{w}x{h} {m}");
                let want = super::super::grid_turn(m, w, h).map(words);
                assert_eq!(grid_turn(&words(m), w, h), want, "{w}x{h} {m}");
                let mut parts = Vec::new();
                super::super::components(m, |v| adj.get(v).copied(), &mut parts).unwrap();
                let near = |v: usize| adj.get(v).map(|&a| Ok(words(a)));
                let got = components(&words(m), near).unwrap();
                assert_eq!(got, parts.iter().map(|&p| words(p)).collect::<Vec<_>>());
            }
        }
    }

    #[test]
    fn a_board_past_64_cells_has_its_parts_and_images() {
        // On a 10 × 10 grid: cells 0 and 99 (two parts), and a domino.
        let mut m = Vec::new();
        for v in [0, 99, 55, 56] {
            set(&mut m, v);
        }
        let near = |v: usize| {
            let mut a = Vec::new();
            let (r, c) = (v / 10, v % 10);
            for (ok, u) in [
                (c > 0, v.wrapping_sub(1)),
                (c < 9, v + 1),
                (r > 0, v.wrapping_sub(10)),
                (r < 9, v + 10),
            ] {
                if ok {
                    set(&mut a, u);
                }
            }
            Some(Ok(a))
        };
        let parts = components(&m, near).unwrap();
        assert_eq!(parts.len(), 3);
        assert_eq!(parts[0], vec![1]);
        assert_eq!(
            parts[2],
            trim({
                let mut x = Vec::new();
                set(&mut x, 99);
                x
            })
        );
        // The domino anywhere is the domino in the corner, across.
        let mut domino = Vec::new();
        set(&mut domino, 55);
        set(&mut domino, 65);
        assert_eq!(grid_canon(&domino, 10, 10), Ok(vec![0b11]));
        assert_eq!(grid_turn(&domino, 10, 10), Ok(domino.clone()));
        let mut corner = Vec::new();
        set(&mut corner, 99);
        assert_eq!(grid_canon(&corner, 10, 10), Ok(vec![1]));
        assert_eq!(grid_canon(&corner, 9, 11), Err(BoardError::OffGrid(99)));
        assert_eq!(grid_canon(&corner, 0, 11), Err(BoardError::BadGrid));
        assert_eq!(components(&m, |_| None), Err(BoardError::NoNeighbours(0)));
        assert_eq!(
            components(&m, |_| Some(Err(()))),
            Err(BoardError::NegativeNeighbours(0))
        );
    }
}
