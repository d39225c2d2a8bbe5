//! What the P-positions of a table look like: finite, periodic, with
//! differences that grow evenly, complementary Beatty pairs (Wythoff's),
//! or exactly where a small formula is true, each proven (one parameter,
//! from a proven period of the values) or observed in the box asked.

use super::{PeriodSearch, Section};
use crate::flow::R;
use crate::oracle::Oracle;
use crate::span::Span;
use serde::Serialize;

/// What the P-positions of a table look like, and how it is known.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct PShape {
    /// The shape.
    #[serde(flatten)]
    pub fact: Fact,
    /// Proven for every position (else seen in the table only).
    pub proven: bool,
    /// The largest argument seen (the least of the axes' for a box).
    pub upto: i64,
}

/// A shape of the P-positions.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Fact {
    /// Finitely many: the last one (`None`: none at all).
    Finite { last: Option<i64> },
    /// From `from` on, exactly the n with n mod `period` in `residues`.
    Periodic {
        from: i64,
        period: i64,
        residues: Vec<i64>,
    },
    /// n_k = first + k·step + growth·k(k − 1)/2: the differences grow by
    /// `growth`.
    Growing { first: i64, step: i64, growth: i64 },
    /// Two parameters: (0, 0), and the pairs (a_k, a_k + step·k) and their
    /// mirrors for k ≥ 1, a_k = ⌊kα⌋ with α = (2 − step + √(step² + 4))/2:
    /// the a_k and the b_k = ⌊kβ⌋ (β = α + step) together are every
    /// positive integer once (complementary Beatty sequences; step 1 is
    /// Wythoff's game, α = φ).
    Beatty { step: i64 },
    /// Exactly where a formula is true.
    Formula { formula: String },
}

impl PShape {
    /// The shape in words, as `ppositions` prints it.
    pub fn words(&self, params: &[String]) -> String {
        let n = params.first().map_or("n", String::as_str);
        let what = match &self.fact {
            Fact::Finite { last: None } => "none at all".to_string(),
            Fact::Finite { last: Some(l) } if self.proven => {
                format!("finitely many, the last {l}")
            }
            Fact::Finite { last: Some(l) } => format!("none after {l}"),
            Fact::Periodic {
                from,
                period,
                residues,
            } => {
                let which = match &residues[..] {
                    [r] => format!("{n} % {period} == {r}"),
                    rs => format!(
                        "{n} % {period} in [{}]",
                        rs.iter().map(i64::to_string).collect::<Vec<_>>().join(", ")
                    ),
                };
                format!("from {n} = {from} on, exactly where {which}")
            }
            Fact::Growing {
                first,
                step,
                growth,
            } => format!(
                "{first}, {}, {}, ...: the differences start at {step} and grow by {growth}",
                first + step,
                first + 2 * step + growth
            ),
            Fact::Beatty { step: 1 } => "(0, 0) and Wythoff's pairs (⌊kφ⌋, ⌊kφ⌋ + k) with \
                 their mirrors, φ = (1 + √5)/2: complementary Beatty sequences"
                .to_string(),
            Fact::Beatty { step } => format!(
                "(0, 0) and the pairs (⌊kα⌋, ⌊kα⌋ + {step}k) with their mirrors, \
                 α = (2 - {step} + √{})/2: complementary Beatty sequences",
                step * step + 4
            ),
            Fact::Formula { formula } => format!("exactly where {formula}"),
        };
        match self.proven {
            true => format!("{what} (proven)"),
            false => format!("{what} (observed up to {})", self.upto),
        }
    }
}

/// The formulas tried for a box's P-positions.
const FORMULA_BUDGET: u64 = 200_000;

/// The most points of a box a formula is fitted to.
const FORMULA_POINTS: usize = 1 << 16;

/// The shape of the P-positions `zeros` of the box `axes` (each a
/// contiguous range). `sec`: the section whose period may prove it (one
/// free parameter, normal play).
pub fn shape(
    m: &mut dyn Oracle,
    sec: Option<&Section>,
    axes: &[Vec<i64>],
    zeros: &[Vec<i64>],
    params: &[String],
    span: Span,
) -> R<Option<PShape>> {
    let contiguous = |a: &Vec<i64>| a.windows(2).all(|w| w[0].checked_add(1) == Some(w[1]));
    if axes.is_empty() || axes.iter().any(|a| a.len() < 2 || !contiguous(a)) {
        return Ok(None);
    }
    if let [axis] = axes {
        let ps: Vec<i64> = zeros.iter().filter_map(|p| p.first().copied()).collect();
        return one(m, sec, axis[0], axis[axis.len() - 1], &ps, span);
    }
    if axes.iter().any(|a| a[0] != 0) {
        return Ok(None);
    }
    let upto = axes.iter().map(|a| a[a.len() - 1]).min().unwrap_or(0);
    if let [a, b] = axes
        && let Some(step) = beatty(a[a.len() - 1], b[b.len() - 1], zeros)
    {
        return Ok(Some(PShape {
            fact: Fact::Beatty { step },
            proven: false,
            upto,
        }));
    }
    Ok(formula(m, axes, zeros, params)?.map(|formula| PShape {
        fact: Fact::Formula { formula },
        proven: false,
        upto,
    }))
}

/// One parameter over `lo..=hi`: periodic (finite when no residue is P)
/// or with differences that grow evenly.
fn one(
    m: &mut dyn Oracle,
    sec: Option<&Section>,
    lo: i64,
    hi: i64,
    ps: &[i64],
    span: Span,
) -> R<Option<PShape>> {
    let len = (hi - lo + 1) as usize;
    let mut is_p = vec![false; len];
    for &p in ps {
        is_p[(p - lo) as usize] = true;
    }
    // A proven period of the values proves the P-positions' from where
    // the table shows a whole period.
    if let Some(sec) = sec
        && lo == 0
        && let PeriodSearch::Found(per) = super::period_of(m, sec, hi + 1, false, span)?
        && per.is_proven()
        && per.preperiod + per.period - 1 <= hi
    {
        let (e, p) = (per.preperiod, per.period);
        let fact = match per.saltus {
            // The values grow past 0 after the first period.
            0 => periodic(&is_p, lo, e, p, hi),
            _ => Fact::Finite {
                last: ps.last().copied(),
            },
        };
        return Ok(Some(PShape {
            fact,
            proven: true,
            upto: hi,
        }));
    }
    Ok(seen(&is_p, lo, hi, ps).map(|fact| PShape {
        fact,
        proven: false,
        upto: hi,
    }))
}

/// The shape the P-positions `ps` of `lo..=hi` show (`is_p` by offset
/// from `lo`): periodic (finite when no residue is P), or differences that
/// grow evenly.
fn seen(is_p: &[bool], lo: i64, hi: i64, ps: &[i64]) -> Option<Fact> {
    let len = is_p.len();
    let ind: Vec<u32> = is_p.iter().map(|&b| u32::from(b)).collect();
    if let Some((p, 0)) = super::observed(&ind) {
        let e = (0..len)
            .rev()
            .take_while(|&i| i + (p as usize) >= len || is_p[i] == is_p[i + p as usize])
            .last()
            .unwrap_or(0) as i64;
        return Some(periodic(is_p, lo, lo + e, p, hi));
    }
    // Differences that grow evenly (an even step is a period, found above).
    let d: Vec<i64> = ps.windows(2).map(|w| w[1] - w[0]).collect();
    // Growing: the next one would be past the table.
    if let ([d0, d1, ..], Some(&last), Some(&d_last)) = (&d[..], ps.last(), d.last())
        && d.len() >= 3
        && d1 > d0
        && d.windows(2).all(|w| w[1] - w[0] == d1 - d0)
        && last + d_last + (d1 - d0) > hi
    {
        let (d0, d1) = (*d0, *d1);
        return Some(Fact::Growing {
            first: ps[0],
            step: d0,
            growth: d1 - d0,
        });
    }
    None
}

/// The P-positions of `lo..=hi` periodic with `p` from `e` (inside the
/// table): from the least start the table allows, with the least period
/// dividing `p`; finite when no residue is P.
fn periodic(is_p: &[bool], lo: i64, e: i64, p: i64, hi: i64) -> Fact {
    let at = |n: i64| is_p[(n - lo) as usize];
    // The least period q dividing p that one period from e repeats with
    // (the table holds e..e + p + q when q < p).
    let q = (1..=p)
        .filter(|q| p % q == 0)
        .find(|&q| q == p || (e + p + q - 1 <= hi && (e..e + p).all(|n| at(n) == at(n + q))))
        .unwrap_or(p);
    // The least start: earlier positions that already follow the period.
    let mut from = e;
    while from > lo && from - 1 + q <= hi && at(from - 1) == at(from - 1 + q) {
        from -= 1;
    }
    let residues: Vec<i64> = (from..from + q)
        .filter(|&n| n <= hi && at(n))
        .map(|n| n.rem_euclid(q))
        .collect::<std::collections::BTreeSet<i64>>()
        .into_iter()
        .collect();
    match residues.is_empty() {
        true => Fact::Finite {
            last: (lo..from).rev().find(|&n| at(n)),
        },
        false => Fact::Periodic {
            from,
            period: q,
            residues,
        },
    }
}

/// Whether the P-positions of the box `0..=a_hi × 0..=b_hi` are exactly
/// (0, 0) and the pairs (a_k, a_k + step·k) with their mirrors that lie
/// inside it, a_k = ⌊kα⌋ (at least four pairs): the step, if so.
fn beatty(a_hi: i64, b_hi: i64, zeros: &[Vec<i64>]) -> Option<i64> {
    let set: std::collections::HashSet<(i64, i64)> = zeros
        .iter()
        .filter_map(|p| Some((*p.first()?, *p.get(1)?)))
        .collect();
    if !set.contains(&(0, 0)) {
        return None;
    }
    // The step from the first two pairs below the diagonal.
    let mut pairs: Vec<(i64, i64)> = set.iter().copied().filter(|&(a, b)| a < b).collect();
    pairs.sort_unstable();
    if pairs.len() < 4 {
        return None;
    }
    let step = pairs[1].1 - pairs[1].0 - (pairs[0].1 - pairs[0].0);
    if step < 1 {
        return None;
    }
    // Exactly the pairs the formula gives, with the mirrors, inside the box.
    let alpha_k = |k: i64| -> Option<i64> {
        let (k, s) = (i128::from(k), i128::from(step));
        let root = (k
            .checked_mul(k)?
            .checked_mul(s.checked_mul(s)?.checked_add(4)?)?) as u128;
        i64::try_from(((2 - s) * k + root.isqrt() as i128).div_euclid(2)).ok()
    };
    let mut expected = std::collections::HashSet::from([(0i64, 0i64)]);
    let mut inside = 0;
    for k in 1.. {
        let a = alpha_k(k)?;
        if a > a_hi.max(b_hi) {
            break;
        }
        let b = a.checked_add(step.checked_mul(k)?)?;
        if a <= a_hi && b <= b_hi {
            expected.insert((a, b));
            inside += 1;
        }
        if b <= a_hi && a <= b_hi {
            expected.insert((b, a));
        }
    }
    (inside >= 4 && expected == set).then_some(step)
}

/// The smallest formula true exactly at the P-positions of a box (of at
/// most [`FORMULA_POINTS`] points), if one is found in a small budget.
fn formula(
    m: &mut dyn Oracle,
    axes: &[Vec<i64>],
    zeros: &[Vec<i64>],
    params: &[String],
) -> R<Option<String>> {
    let vars = axes.len();
    let points: usize = axes.iter().map(Vec::len).product();
    // A box of fewer points than the sample says too little.
    if !(2..=3).contains(&vars) || !(crate::guess::SAMPLE..=FORMULA_POINTS).contains(&points) {
        return Ok(None);
    }
    let set: std::collections::HashSet<&[i64]> = zeros.iter().map(Vec::as_slice).collect();
    let mut all = Vec::with_capacity(points * vars);
    let mut xs = vec![0i64; vars];
    for i in 0..points {
        let mut r = i;
        for (j, a) in axes.iter().enumerate().rev() {
            xs[j] = a[r % a.len()];
            r /= a.len();
        }
        all.extend_from_slice(&xs);
    }
    let (order, sample) = crate::guess::sample_first(&all, vars);
    let flat: Vec<i64> = order
        .iter()
        .flat_map(|&i| all[i * vars..][..vars].iter().copied())
        .collect();
    let values: Vec<i64> = order
        .iter()
        .map(|&i| i64::from(!set.contains(&all[i * vars..][..vars])))
        .collect();
    let constants: Vec<i64> = (0..=10).collect();
    let problem = crate::guess::Problem {
        vars,
        points: &flat,
        values: &values,
        sample,
        constants: &constants,
        budget: FORMULA_BUDGET,
        values_too: false,
    };
    let g = crate::guess::search(&problem, &mut |n| m.spend(n))?;
    Ok(g.found.map(|(_, f)| f.text(params)))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn seen_in(hi: i64, ps: &[i64]) -> Option<Fact> {
        let mut is_p = vec![false; hi as usize + 1];
        for &p in ps {
            is_p[p as usize] = true;
        }
        seen(&is_p, 0, hi, ps)
    }

    #[test]
    fn one_parameter_shapes_are_seen() {
        let tri: Vec<i64> = (0..14).map(|k| k * (k + 1) / 2).collect();
        assert_eq!(
            seen_in(100, &tri),
            Some(Fact::Growing {
                first: 0,
                step: 1,
                growth: 1
            })
        );
        let fours: Vec<i64> = (0..=100)
            .filter(|n| n % 4 == 1 && *n >= 9 || *n == 2)
            .collect();
        assert_eq!(
            seen_in(100, &fours),
            // 5 is not P: from 6 on.
            Some(Fact::Periodic {
                from: 6,
                period: 4,
                residues: vec![1]
            })
        );
        assert_eq!(seen_in(100, &[0, 5]), Some(Fact::Finite { last: Some(5) }));
        // Growing differences that the table contradicts are not claimed.
        assert_eq!(seen_in(15, &[0, 1, 3, 6, 10]), None);
        assert_eq!(seen_in(34, &[0, 10, 19, 27]), None);
        // Only finitely many seen: none after 21 up to 100.
        assert_eq!(
            seen_in(100, &[0, 1, 3, 7, 20, 21]),
            Some(Fact::Finite { last: Some(21) })
        );
        let primes: Vec<i64> = (2..=100).filter(|n| (2..*n).all(|d| n % d != 0)).collect();
        assert_eq!(seen_in(100, &primes), None);
    }

    #[test]
    fn beatty_pairs_are_seen_and_near_misses_are_not() {
        // Wythoff's pairs from their definition: a_k the least integer not
        // yet used, b_k = a_k + k.
        let mut used = std::collections::HashSet::new();
        let mut zeros = vec![vec![0, 0]];
        let mut a = 0;
        for k in 1..40 {
            a += 1;
            while used.contains(&a) {
                a += 1;
            }
            let b = a + k;
            used.extend([a, b]);
            for p in [vec![a, b], vec![b, a]] {
                if p[0] <= 60 && p[1] <= 60 {
                    zeros.push(p);
                }
            }
        }
        assert_eq!(beatty(60, 60, &zeros), Some(1));
        // One pair moved: not Beatty.
        let mut off = zeros.clone();
        off.retain(|p| p != &vec![4, 7] && p != &vec![7, 4]);
        off.extend([vec![4, 8], vec![8, 4]]);
        assert_eq!(beatty(60, 60, &off), None);
        // The first pairs only: the later ones are missing.
        let first: Vec<Vec<i64>> = zeros
            .iter()
            .filter(|p| p[0].max(p[1]) <= 10)
            .cloned()
            .collect();
        assert_eq!(beatty(20, 20, &first), None);
        // A non-square box: the pairs past the square are checked too.
        let wide: Vec<Vec<i64>> = zeros
            .iter()
            .filter(|p| p[0] <= 10 && p[1] <= 60)
            .cloned()
            .collect();
        assert_eq!(beatty(10, 60, &wide), Some(1));
        let mut wrong = wide.clone();
        wrong.retain(|p| p != &vec![9, 15]);
        assert_eq!(beatty(10, 60, &wrong), None);
        // Nim's diagonal is not.
        let diag: Vec<Vec<i64>> = (0..=60).map(|i| vec![i, i]).collect();
        assert_eq!(beatty(60, 60, &diag), None);
    }
}
