//! Boards as bitmasks: the parts of a position that no move joins, and the
//! least image of a shape under a grid's symmetries. The two builtins
//! `components(mask, adj)` and `grid_canon(mask, w, h)`, written once for
//! the interpreter and the compiled expressions.
//!
//! A board is an integer whose bit `v` is cell (or vertex) `v`; on a grid of
//! width `w`, cell `v` is at row `v / w`, column `v % w`.

pub mod wide;

/// Why a board function has no result: the user's arguments.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BoardError {
    /// A mask below 0.
    NegativeMask,
    /// `components`: vertex `v` of the mask has no entry in the adjacency
    /// list, or one that is not an integer.
    NoNeighbours(u32),
    /// `components`: an adjacency entry below 0.
    NegativeNeighbours(u32),
    /// `grid_canon`: a width or height below 1, or more than 63 cells.
    BadGrid,
    /// `grid_canon`: a set bit at or past `w · h`.
    OffGrid(u32),
}

/// The parts of `mask` that are not joined: its vertices grouped by
/// connection, where vertex `v` is joined to the vertices of `adj[v]`
/// (a bitmask). Each part is a mask; they come in the order of their
/// lowest vertex. Written into `out` (cleared first).
pub fn components(
    mask: i64,
    adj: impl Fn(usize) -> Option<i64>,
    out: &mut Vec<i64>,
) -> Result<(), BoardError> {
    out.clear();
    if mask < 0 {
        return Err(BoardError::NegativeMask);
    }
    let mut rest = mask as u64;
    while rest != 0 {
        let part = part_of(rest, &adj)?;
        rest &= !part;
        out.push(part as i64);
    }
    Ok(())
}

/// The part of `rest` that holds its lowest vertex: the vertices of `rest`
/// joined to it (see [`components`]; the parts of a mask, lowest first,
/// without a list).
#[inline]
pub fn part_of(rest: u64, adj: impl Fn(usize) -> Option<i64>) -> Result<u64, BoardError> {
    let seed = rest & rest.wrapping_neg();
    let mut part = seed;
    let mut frontier = seed;
    while frontier != 0 {
        let v = frontier.trailing_zeros();
        frontier &= frontier - 1;
        let near = adj(v as usize).ok_or(BoardError::NoNeighbours(v))?;
        if near < 0 {
            return Err(BoardError::NegativeNeighbours(v));
        }
        let new = near as u64 & rest & !part;
        part |= new;
        frontier |= new;
    }
    Ok(part)
}

/// A grid's 4-neighbour adjacency, recognized: when `adj[v]` is the mask
/// of the cells beside cell `v` on a `w`-wide grid of `adj.len()` cells,
/// for some `w`, the grid. Its parts are then found a whole frontier at a
/// time by shifts ([`Grid::part_of`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Grid {
    w: u32,
    cells: u32,
    /// The cells outside the first and the last column.
    not_first: u64,
    not_last: u64,
}

impl Grid {
    /// The grid whose adjacency `adj` is, if it is one (of at most 63
    /// cells).
    pub fn of(adj: &[i64]) -> Option<Grid> {
        let n = u32::try_from(adj.len())
            .ok()
            .filter(|&n| (1..=63).contains(&n))?;
        (1..=n).filter(|w| n % w == 0).find_map(|w| {
            let h = n / w;
            let beside = |v: u32| {
                let (r, c) = (v / w, v % w);
                let mut a = 0i64;
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
            };
            adj.iter().zip(0..n).all(|(&a, v)| a == beside(v)).then(|| {
                let column = |c: u32| (0..h).fold(0u64, |m, r| m | 1 << (r * w + c));
                let all = (1u64 << n) - 1;
                Grid {
                    w,
                    cells: n,
                    not_first: all & !column(0),
                    not_last: all & !column(w - 1),
                }
            })
        })
    }

    /// Whether every cell of `mask` is on the grid.
    #[inline]
    pub fn holds(&self, mask: u64) -> bool {
        mask >> self.cells == 0
    }

    /// [`part_of`] on this grid; `None` for a cell off the grid (the
    /// builtin's error, left to it to report).
    #[inline]
    pub fn part_of(&self, rest: u64) -> Option<u64> {
        if !self.holds(rest) {
            return None;
        }
        let mut part = rest & rest.wrapping_neg();
        loop {
            let grown = (part
                | ((part << 1) & self.not_first)
                | ((part >> 1) & self.not_last)
                | (part << self.w)
                | (part >> self.w))
                & rest;
            if grown == part {
                return Some(part);
            }
            part = grown;
        }
    }
}

/// The least of the images of `mask`'s shape on a `w` × `h` grid: moved to
/// the top-left corner, then reflected and rotated (all eight ways when
/// the turned shape fits the grid, else the four of a rectangle), each
/// moved to the corner again. Two shapes get the same answer exactly when
/// one is a translation, rotation or reflection of the other within the
/// grid. The empty board is 0.
pub fn grid_canon(mask: i64, w: i64, h: i64) -> Result<i64, BoardError> {
    if mask < 0 {
        return Err(BoardError::NegativeMask);
    }
    GridSize::new(w, h)?.canon(mask)
}

/// A grid's sides, checked (at most 63 cells), with what finding a
/// cell's row takes: `grid_canon` and `grid_turn` on a grid whose size
/// is known ahead (a board of constant size), without a division.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GridSize {
    w: u32,
    h: u32,
    /// ⌈4096 / w⌉: a cell `v` below 64 is in row `v · recip >> 12`.
    recip: u32,
}

impl GridSize {
    pub fn new(w: i64, h: i64) -> Result<GridSize, BoardError> {
        if w < 1 || h < 1 || w.checked_mul(h).is_none_or(|n| n > 63) {
            return Err(BoardError::BadGrid);
        }
        let w = w as u32;
        Ok(GridSize {
            w,
            h: h as u32,
            recip: 4096u32.div_ceil(w),
        })
    }

    /// `v / w` for a cell `v` below 64: ⌈4096 / w⌉ exceeds 4096 / w by
    /// less than 1, so `v` times it by less than 64/4096 of a row.
    #[inline]
    fn row(self, v: u32) -> u32 {
        (v * self.recip) >> 12
    }

    /// [`grid_canon`] on this grid.
    pub fn canon(self, mask: i64) -> Result<i64, BoardError> {
        let Some(s) = shape(mask, self)? else {
            return Ok(0);
        };
        let (w, bh, bw) = (s.w, s.bh, s.bw);
        let row = |k: u32| s.row(k);
        if bh <= 8 && bw <= 8 {
            return Ok(least_packed(bh, bw, w, s.h, row) as i64);
        }
        // A box too long for a byte a line: the images row by row, a row of
        // the box as `bw` bits (reversed for a reflection of the columns),
        // placed top to bottom or bottom to top. (A turned image fits the
        // grid only for a box at most 7 by 7.)
        let (mut a, mut b, mut c, mut d) = (0u64, 0u64, 0u64, 0u64);
        for k in 0..bh {
            let x = row(k);
            let flipped = x.reverse_bits() >> (64 - bw);
            let (i, j) = (k * w, (bh - 1 - k) * w);
            a |= x << i;
            b |= flipped << i;
            c |= x << j;
            d |= flipped << j;
        }
        let best = a.min(b).min(c).min(d);
        Ok(best as i64)
    }

    /// [`grid_turn`] on this grid.
    pub fn turn(self, mask: i64) -> Result<i64, BoardError> {
        let Some(s) = shape(mask, self)? else {
            return Ok(0);
        };
        // The whole grid turned (its cells' order reversed), then moved so
        // that the box's centre stays: each cell moves by the same offset,
        // and stays in its row.
        let turned = s.mask.reverse_bits() >> (64 - s.w * s.h);
        let (w, h) = (i64::from(s.w), i64::from(s.h));
        let r = i64::from(2 * s.r0 + s.bh) - h;
        let c = i64::from(2 * s.c0 + s.bw) - w;
        let by = r * w + c;
        Ok(match by >= 0 {
            true => turned << by,
            false => turned >> -by,
        } as i64)
    }
}

/// The shape of `mask` turned half a turn within its bounding box: cell
/// (r, c) goes to (r0 + r1 - r, c0 + c1 - c), where rows r0..=r1 and
/// columns c0..=c1 are the box. A shape is symmetric under a half turn
/// about its box's centre exactly when it is its own turn: what a board
/// answered move by move with the mirror image of each stays (a move and
/// its answer may shrink the box, never move its centre).
pub fn grid_turn(mask: i64, w: i64, h: i64) -> Result<i64, BoardError> {
    if mask < 0 {
        return Err(BoardError::NegativeMask);
    }
    GridSize::new(w, h)?.turn(mask)
}

/// A shape on a grid, with its bounding box: rows `r0..r0 + bh`, columns
/// `c0..c0 + bw`.
struct GridShape {
    mask: u64,
    w: u32,
    h: u32,
    r0: u32,
    c0: u32,
    bh: u32,
    bw: u32,
}

impl GridShape {
    /// Row `k` of the box, as `bw` bits.
    #[inline]
    fn row(&self, k: u32) -> u64 {
        (self.mask >> ((self.r0 + k) * self.w + self.c0)) & ((1u64 << self.bw) - 1)
    }
}

/// `mask` as a shape on a `w` × `h` grid (`None` for the empty board),
/// or why it is not one: what `grid_canon` and `grid_turn` check.
#[inline]
fn shape(mask: i64, size: GridSize) -> Result<Option<GridShape>, BoardError> {
    if mask < 0 {
        return Err(BoardError::NegativeMask);
    }
    let (w, h, mask) = (size.w, size.h, mask as u64);
    if mask >> (w * h) != 0 {
        return Err(BoardError::OffGrid(63 - mask.leading_zeros()));
    }
    if mask == 0 {
        return Ok(None);
    }
    let row_mask = (1u64 << w) - 1;
    // Its rows from its lowest and highest cells, and its columns from the
    // union of those rows.
    let (r0, r1) = (
        size.row(mask.trailing_zeros()),
        size.row(63 - mask.leading_zeros()),
    );
    // Every row folded onto the lowest, in as many steps as doubling
    // takes to pass the box's rows.
    let mut rows = mask >> (r0 * w);
    let mut span = 1;
    while span <= r1 - r0 {
        rows |= rows >> (span * w);
        span *= 2;
    }
    let cols = rows & row_mask;
    let (c0, c1) = (cols.trailing_zeros(), 63 - cols.leading_zeros());
    Ok(Some(GridShape {
        mask,
        w,
        h,
        r0,
        c0,
        bh: r1 - r0 + 1,
        bw: c1 - c0 + 1,
    }))
}

/// [`grid_canon`] on one grid with its recent answers kept: a search names
/// the same parts of a board over and over (each option's parts, most of
/// them unchanged by its move). A direct-mapped table of 2^14 masks,
/// allocated at the first call.
#[derive(Debug, Default)]
pub struct CanonCache {
    slots: std::cell::RefCell<Vec<(i64, i64)>>,
}

/// Entries of a [`CanonCache`] (16 bytes each).
const CANON_SLOTS: usize = 1 << 14;

impl CanonCache {
    /// `grid_canon(mask, w, h)`, `None` where it reports an error.
    pub fn canon(&self, mask: i64, size: GridSize) -> Option<i64> {
        if mask < 0 {
            return size.canon(mask).ok();
        }
        let mut slots = self.slots.borrow_mut();
        if slots.is_empty() {
            // -1 is no mask: every key kept is at least 0.
            slots.resize(CANON_SLOTS, (-1, 0));
        }
        let i = ((mask as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15)
            >> (64 - CANON_SLOTS.trailing_zeros())) as usize;
        let slot = slots.get_mut(i)?;
        if slot.0 == mask {
            return Some(slot.1);
        }
        let canon = size.canon(mask).ok()?;
        *slot = (mask, canon);
        Some(canon)
    }
}

/// [`grid_canon`] for a box of at most 8 by 8: the box packed a byte a
/// row (row `r` of the box is byte `r`), its eight images made by moving
/// bytes and bits of one word, and the least laid out on the grid. Images
/// compare alike packed and on the grid: both lay rows out in order, each
/// within its row's room.
#[inline]
fn least_packed(bh: u32, bw: u32, w: u32, h: u32, row: impl Fn(u32) -> u64) -> u64 {
    let mut box_ = 0u64;
    for r in 0..bh {
        box_ |= row(r) << (8 * r);
    }
    // The four reflections of `n` rows of `len` bits each, packed.
    let reflections = |x: u64, n: u32, len: u32| {
        // Each byte's bits reversed, then moved down to its `len` bits.
        let across = x.reverse_bits().swap_bytes() >> (8 - len);
        // The rows in reverse order, moved down to the first `n` bytes.
        let down = |y: u64| y.swap_bytes() >> (8 * (8 - n));
        x.min(across).min(down(x)).min(down(across))
    };
    let mut best = (reflections(box_, bh, bw), bh);
    // Turned (its columns as rows), when the turned shape fits the grid.
    if bw <= h && bh <= w {
        let turned = reflections(transpose8(box_), bw, bh);
        if turned < best.0 {
            best = (turned, bw);
        }
    }
    let (packed, rows) = best;
    let mut out = 0u64;
    for r in 0..rows {
        out |= ((packed >> (8 * r)) & 0xff) << (r * w);
    }
    out
}

/// The 8 × 8 bit matrix `x` (row `r` is byte `r`, column `c` its bit `c`)
/// transposed (Hacker's Delight, 7-3).
fn transpose8(mut x: u64) -> u64 {
    let t = (x ^ (x >> 7)) & 0x00AA_00AA_00AA_00AA;
    x ^= t ^ (t << 7);
    let t = (x ^ (x >> 14)) & 0x0000_CCCC_0000_CCCC;
    x ^= t ^ (t << 14);
    let t = (x ^ (x >> 28)) & 0x0000_0000_F0F0_F0F0;
    x ^ t ^ (t << 28)
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

    /// Cells of a mask as (row, column) pairs, sorted.
    fn cells(mask: i64, w: i64) -> Vec<(i64, i64)> {
        let mut v: Vec<(i64, i64)> = (0..63)
            .filter(|b| mask >> b & 1 == 1)
            .map(|b| (b / w, b % w))
            .collect();
        v.sort_unstable();
        v
    }

    /// The shape moved to the origin, as a sorted set of cells.
    fn normalized(mut cs: Vec<(i64, i64)>) -> Vec<(i64, i64)> {
        let r0 = cs.iter().map(|c| c.0).min().unwrap_or(0);
        let c0 = cs.iter().map(|c| c.1).min().unwrap_or(0);
        for c in &mut cs {
            *c = (c.0 - r0, c.1 - c0);
        }
        cs.sort_unstable();
        cs
    }

    #[test]
    fn components_of_a_grid() {
        // 3×3: the corners and the centre, not joined.
        let adj = grid_adj(3, 3);
        let mut out = Vec::new();
        components(0b101_010_101, |v| adj.get(v).copied(), &mut out).unwrap();
        assert_eq!(out, vec![1, 4, 16, 64, 256]);
        // The top row and the right column: one L-shaped part.
        components(0b100_100_111, |v| adj.get(v).copied(), &mut out).unwrap();
        assert_eq!(out, vec![0b100_100_111]);
        components(0, |v| adj.get(v).copied(), &mut out).unwrap();
        assert!(out.is_empty());
        assert_eq!(
            components(1 << 9, |v| adj.get(v).copied(), &mut out),
            Err(BoardError::NoNeighbours(9))
        );
        assert_eq!(
            components(-1, |v| adj.get(v).copied(), &mut out),
            Err(BoardError::NegativeMask)
        );
    }

    /// `m`'s cells turned one by one within their box, as a mask.
    fn turned_by_cells(m: i64, w: i64) -> i64 {
        let cs = cells(m, w);
        let (Some(r0), Some(r1)) = (cs.iter().map(|c| c.0).min(), cs.iter().map(|c| c.0).max())
        else {
            return 0;
        };
        let c0 = cs.iter().map(|c| c.1).min().unwrap_or(0);
        let c1 = cs.iter().map(|c| c.1).max().unwrap_or(0);
        cs.iter()
            .map(|&(r, c)| 1i64 << ((r0 + r1 - r) * w + c0 + c1 - c))
            .sum()
    }

    /// Against the cells turned one by one: every mask of a 3×2, 3×3 and
    /// 2×4 board, and random shapes on a 9 × 7 grid; turning twice gives
    /// it back.
    #[test]
    fn half_turns_turn_each_cell_within_the_box() {
        for (w, h) in [(3i64, 2i64), (3, 3), (2, 4)] {
            for m in 0..1i64 << (w * h) {
                let got = grid_turn(m, w, h).unwrap();
                assert_eq!(got, turned_by_cells(m, w), "{m:b} on {w}×{h}");
                assert_eq!(grid_turn(got, w, h).unwrap(), m);
            }
        }
        // Random shapes on grids of up to 63 cells, a line or one cell
        // too: turned as each cell is, and put in the canonical form of
        // the shape they came from.
        let mut state = 0x2545_f491_4f6c_dd1du64;
        for (w, h) in [(9, 7), (7, 9), (1, 63), (63, 1), (1, 1), (2, 31)] {
            for _ in 0..5_000 {
                state ^= state << 13;
                state ^= state >> 7;
                state ^= state << 17;
                let m = (state & ((1 << (w * h)) - 1)) as i64 >> (state % 40).min(w * h - 1);
                let turned = grid_turn(m, w as i64, h as i64).unwrap();
                assert_eq!(turned, turned_by_cells(m, w as i64), "{m:b} on {w}×{h}");
                let canon = grid_canon(m, w as i64, h as i64).unwrap();
                assert_eq!(
                    grid_canon(turned, w as i64, h as i64),
                    Ok(canon),
                    "{m:b} on {w}×{h}"
                );
            }
        }
        assert_eq!(grid_turn(-1, 3, 3), Err(BoardError::NegativeMask));
        assert_eq!(grid_turn(1, 0, 3), Err(BoardError::BadGrid));
        assert_eq!(grid_turn(1 << 9, 3, 3), Err(BoardError::OffGrid(9)));
    }

    /// Against a brute force: two masks have the same canonical form
    /// exactly when their shapes are congruent (some rotation or
    /// reflection of one is a translation of the other), on every 3×2 and
    /// 3×3 board.
    #[test]
    fn canonical_forms_name_congruence_classes() {
        for (w, h) in [(3i64, 2i64), (3, 3), (2, 4)] {
            let n = w * h;
            let images = |m: i64| -> Vec<Vec<(i64, i64)>> {
                let cs = cells(m, w);
                let mut out = Vec::new();
                for t in 0..8 {
                    let img: Vec<(i64, i64)> = cs
                        .iter()
                        .map(|&(r, c)| {
                            let (r, c) = if t & 1 == 1 { (r, -c) } else { (r, c) };
                            let (r, c) = if t & 2 == 2 { (-r, c) } else { (r, c) };
                            if t >= 4 { (c, r) } else { (r, c) }
                        })
                        .collect();
                    let img = normalized(img);
                    // Only images that fit the grid count.
                    if img.iter().all(|&(r, c)| r < h && c < w) {
                        out.push(img);
                    }
                }
                out
            };
            for a in 0..1i64 << n {
                let ca = grid_canon(a, w, h).unwrap();
                assert_eq!(grid_canon(ca, w, h).unwrap(), ca, "idempotent");
                assert_eq!(ca.count_ones(), a.count_ones());
                let ia = images(a);
                for b in 0..1i64 << n {
                    let same = ia.contains(&normalized(cells(b, w)));
                    assert_eq!(
                        grid_canon(b, w, h).unwrap() == ca,
                        same,
                        "{a:b} and {b:b} on {w}×{h}"
                    );
                }
            }
        }
    }

    /// A recognized grid finds the parts `components` finds, on every mask
    /// of a few grids; a list that is not a grid's adjacency is not one.
    #[test]
    fn grids_split_as_components_do() {
        for (w, h) in [(3i64, 3i64), (4, 2), (1, 5), (5, 1), (2, 3)] {
            let adj = grid_adj(w, h);
            let grid = Grid::of(&adj).expect("a grid");
            for mask in 0..1i64 << (w * h) {
                let mut want = Vec::new();
                components(mask, |v| adj.get(v).copied(), &mut want).unwrap();
                let mut got = Vec::new();
                let mut rest = mask as u64;
                while rest != 0 {
                    let part = grid.part_of(rest).unwrap();
                    rest &= !part;
                    got.push(part as i64);
                }
                assert_eq!(got, want, "{mask:b} on {w}×{h}");
            }
            assert_eq!(grid.part_of(1 << (w * h)), None);
        }
        let mut path_with_a_chord = grid_adj(4, 1);
        path_with_a_chord[0] |= 1 << 3;
        path_with_a_chord[3] |= 1;
        assert_eq!(Grid::of(&path_with_a_chord), None);
    }

    /// The cache answers as `grid_canon` does, for masks that share its
    /// slots and masks asked again, and keeps no error.
    #[test]
    fn the_canon_cache_answers_as_grid_canon() {
        let cache = CanonCache::default();
        let (w, h) = (5i64, 6i64);
        let size = GridSize::new(w, h).unwrap();
        let mut x = 0x2545_f491_4f6c_dd1du64;
        for round in 0..3 {
            for _ in 0..(CANON_SLOTS * 2) {
                x ^= x << 13;
                x ^= x >> 7;
                x ^= x << 17;
                let mask = (x & ((1 << (w * h)) - 1)) as i64;
                assert_eq!(
                    cache.canon(mask, size),
                    grid_canon(mask, w, h).ok(),
                    "{mask:b}"
                );
            }
            x = 0x2545_f491_4f6c_dd1d + round;
        }
        assert_eq!(cache.canon(1 << 40, size), None);
        assert_eq!(cache.canon(-3, size), None);
        assert_eq!(cache.canon(0, size), Some(0));
    }

    /// A cell's row by the reciprocal is its row by division, on every
    /// grid and cell.
    #[test]
    fn rows_without_division() {
        for w in 1..=63 {
            let size = GridSize::new(w, 63 / w).unwrap();
            for v in 0..64 {
                assert_eq!(size.row(v), v / w as u32, "cell {v} of width {w}");
            }
        }
        assert_eq!(GridSize::new(8, 8), Err(BoardError::BadGrid));
        // A negative mask is that, whatever the grid.
        assert_eq!(grid_canon(-1, 0, 3), Err(BoardError::NegativeMask));
        assert_eq!(grid_turn(-1, 0, 3), Err(BoardError::NegativeMask));
        assert_eq!(GridSize::new(0, 3), Err(BoardError::BadGrid));
    }

    #[test]
    fn grid_errors() {
        assert_eq!(grid_canon(1, 0, 3), Err(BoardError::BadGrid));
        assert_eq!(grid_canon(1, 8, 8), Err(BoardError::BadGrid));
        assert_eq!(grid_canon(1 << 6, 3, 2), Err(BoardError::OffGrid(6)));
        assert_eq!(grid_canon(0, 3, 2), Ok(0));
    }
}
