//! A shape as an octal (or hexadecimal) code: the shape of a code's
//! digits, and the code whose moves are exactly a game's, for every heap.

use super::{Family, MAX_CODE, Shape};
use crate::ir::GameId;
use crate::oracle::{Moves, Oracle};
use crate::value::Value;
use std::collections::BTreeSet;

/// The octal code whose moves are exactly this game's, for every n: the
/// shape's digits for large n, bit 1 read from the options of G(k), and the
/// options of every G(n) below the threshold compared with the code's.
pub fn exact_octal(m: &mut dyn Oracle, game: GameId, shape: &Shape) -> Option<Vec<u8>> {
    if shape.families.iter().any(|f| f.heaps == 0) {
        return None;
    }
    let span = m.program().games[game.index()].header;
    let mut digits = shape.digits()?;
    // The heaps of each option of G(n), sorted, zeros dropped.
    let heaps_of = |m: &mut dyn Oracle, n: i64| -> Option<BTreeSet<Vec<i64>>> {
        let p = m.intern(game, &[Value::Int(n)], span).ok()?;
        let mut out = BTreeSet::new();
        let mut moves = Moves::default();
        m.options_into(p, &mut moves).ok()?;
        for opt in moves.iter() {
            let mut hs = Vec::new();
            for &c in opt {
                match m.position(c) {
                    (g, args) if g == game => match args[..] {
                        [Value::Int(0)] => {}
                        [Value::Int(h)] => hs.push(h),
                        _ => return None,
                    },
                    _ => return None,
                }
            }
            hs.sort_unstable();
            out.insert(hs);
        }
        Some(out)
    };
    let g0 = heaps_of(m, 0)?;
    if !g0.is_empty() {
        return None;
    }
    for (k, d) in digits.iter_mut().enumerate().skip(1) {
        if heaps_of(m, k as i64)?.contains(&Vec::new()) {
            *d |= 1;
        }
    }
    // Digits past the families' that only take a whole heap (0.71's 1):
    // below the shape's threshold, where nothing else reads them.
    for k in digits.len()..=(shape.from.min(MAX_CODE) as usize) {
        if heaps_of(m, k as i64)?.contains(&Vec::new()) {
            digits.resize(k + 1, 0);
            digits[k] |= 1;
        }
    }
    let last = shape
        .from
        .saturating_add(shape.max_take())
        .saturating_add(2);
    if last > 4096 {
        return None;
    }
    for n in 1..=last {
        let want = octal_options(&digits, n);
        if heaps_of(m, n)? != want {
            return None;
        }
    }
    Some(digits)
}

/// The shape of the octal or hexadecimal game with these digits: bit 1
/// (a heap of exactly k) never applies from the largest k with a digit on.
pub(super) fn of_digits(digits: &[u8]) -> Shape {
    let mut families = BTreeSet::new();
    let mut from = 0;
    for (k, &d) in digits.iter().enumerate() {
        let take = k as i64;
        for (bit, heaps) in [(2, 1), (4, 2), (8, 3)] {
            if d & bit != 0 && (k > 0 || heaps > 1) {
                families.insert(Family {
                    take,
                    heaps,
                    unequal: false,
                });
            }
        }
        if d != 0 {
            from = take + 1;
        }
    }
    Shape {
        families: families.into_iter().collect(),
        from,
        any: None,
    }
}

/// The options of a heap of n in the octal game with these digits, as
/// sorted lists of the heaps left.
fn octal_options(digits: &[u8], n: i64) -> BTreeSet<Vec<i64>> {
    let mut out = BTreeSet::new();
    for (k, &d) in digits.iter().enumerate() {
        let rest = n - k as i64;
        if d & 1 != 0 && rest == 0 {
            out.insert(Vec::new());
        }
        if d & 2 != 0 && rest > 0 && k > 0 {
            out.insert(vec![rest]);
        }
        if d & 4 != 0 {
            for a in 1..=rest / 2 {
                out.insert(vec![a, rest - a]);
            }
        }
        if d & 8 != 0 {
            for a in 1..=rest / 3 {
                for b in a..=(rest - a) / 2 {
                    out.insert(vec![a, b, rest - a - b]);
                }
            }
        }
    }
    out
}
