//! Batch kernels: runs of a one-argument game computed in one loop over
//! its own array.

use super::affine::{in_param, of_form};
use super::run::*;
use super::table::TableRule;
use super::window::{Counts, Window};
use super::*;
use crate::linear::Affine;

/// The most option values one [`Batch::run`] call scans before it returns.
pub const CHUNK_WORK: u64 = 1 << 24;

#[derive(Clone, Debug)]
pub(super) enum BatchSource {
    /// A loop over constant items, each read as the positions `n` where its
    /// conditions hold and the option's components' offsets there.
    /// Where every item holds from some `n` on (`lo` rising, `hi` the
    /// largest), `rising` is set: a position stops at the first item above
    /// it.
    Items { items: Vec<BatchItem>, rising: bool },
    Range {
        lo: Affine,
        hi: Affine,
        inclusive: bool,
    },
}

/// One item `x` of a constant list, worked out once: the conditions hold
/// for `lo <= n <= hi`, and component `j` is `G(bases[j] + kn_j·n)`.
#[derive(Clone, Debug)]
pub(super) struct BatchItem {
    lo: i64,
    hi: i64,
    bases: [i64; MAX_FUSED],
}

impl BatchItem {
    fn of(x: i64, bounds: &[(BinOp, Affine)], comps: &[Affine]) -> Option<BatchItem> {
        let x = i128::from(x);
        // Every position a dense array can hold.
        let (mut lo, mut hi) = (0i128, i128::from(i64::MAX));
        for (op, b) in bounds {
            // k + kn·n + s·x OP 0, as a condition on n.
            let c = i128::from(b.k) + i128::from(b.a) * x;
            fold_bound(*op, c, i128::from(b.n), &mut lo, &mut hi);
        }
        let mut bases = [0i64; MAX_FUSED];
        for (base, c) in bases.iter_mut().zip(comps) {
            *base = i64::try_from(i128::from(c.k) + i128::from(c.a) * x).ok()?;
        }
        Some(BatchItem {
            lo: i64::try_from(lo).unwrap_or(i64::MAX),
            hi: i64::try_from(hi.max(-1)).ok()?,
            bases,
        })
    }
}

#[derive(Clone, Debug)]
pub(super) struct BatchRule {
    source: BatchSource,
    bounds: Vec<(BinOp, Affine)>,
    /// Components, all positions of the game itself: `G(k + kn·n + s·x)`.
    comps: Vec<Affine>,
}

/// A one-argument game whose every rule is one loop (over a constant list or
/// a range with bounds linear in `n`), with linear conditions and options
/// `G(affine)` of the game itself: its values for a run of positions are
/// computed in one loop, reading and writing one array, as a hand-written
/// table solver does.
///
/// A game whose one rule takes it to a window of its earlier positions
/// runs as a `Window` instead: running counts, not a loop per position.
#[derive(Clone, Debug)]
pub struct Batch {
    kind: BatchKind,
}

#[derive(Clone, Debug)]
enum BatchKind {
    Loops(Vec<LoopRule>),
    Window(Window),
}

/// One rule of a batch kernel.
#[derive(Clone, Debug)]
enum LoopRule {
    Affine(BatchRule),
    Table(TableRule),
}

impl LoopRule {
    fn run(&self, known: &[u32], n: i64, seen: &mut impl SeenSet) -> Option<()> {
        match self {
            LoopRule::Affine(r) => r.run(known, n, seen),
            LoopRule::Table(r) => r.run(known, n, seen),
        }
    }
}

impl Batch {
    pub(super) fn of(game: GameId, rules: &[Option<KRule>]) -> Option<Batch> {
        if let Some(w) = Window::of(game, rules) {
            return Some(Batch {
                kind: BatchKind::Window(w),
            });
        }
        // The rules' divisors, found once a position for all of them.
        let divisors = Rc::default();
        let rules = rules
            .iter()
            .map(|r| {
                let r = r.as_ref()?;
                match BatchRule::of(game, r) {
                    Some(b) => Some(LoopRule::Affine(b)),
                    None => TableRule::of(game, r, &divisors).map(LoopRule::Table),
                }
            })
            .collect::<Option<Vec<_>>>()?;
        Some(Batch {
            kind: BatchKind::Loops(rules),
        })
    }

    /// How it computes a run of values, in words (for `describe`).
    pub fn explained(&self) -> &'static str {
        match &self.kind {
            BatchKind::Window(_) => {
                "its values run as one loop over positions, keeping counts of the values in the \
                 window its moves reach (a window kernel)"
            }
            BatchKind::Loops(rules) if rules.iter().any(|r| matches!(r, LoopRule::Table(_))) => {
                "its values run as one loop over positions, the terms of its loop's variable \
                 computed once into a table (a table kernel)"
            }
            BatchKind::Loops(_) => {
                "its values run as one loop over positions, reading its own array (a batch kernel)"
            }
        }
    }

    /// The value of position `n` alone, from `values` (its game's dense
    /// array, [`UNKNOWN`] where not computed), when every option's value is
    /// there: a search's position of a game whose rules loop as this kernel
    /// does (the divisors of `n` enumerated, not every number below it).
    /// `None` where the kernel gives up (a window kernel always does: its
    /// counts are for runs).
    pub fn value_at(
        &self,
        values: &[u32],
        n: i64,
        seen: &mut Stamped,
        max_value: u32,
    ) -> Option<u32> {
        let BatchKind::Loops(rules) = &self.kind else {
            return None;
        };
        let known = values.get(..usize::try_from(n).ok()?)?;
        seen.clear(max_value);
        for r in rules {
            r.run(known, n, seen)?;
        }
        let v = seen.mex();
        (v & SENTINEL_BIT == 0).then_some(v)
    }

    /// Rule `rule`'s options at position `n` alone, into `seen`, from
    /// `values` as [`Batch::value_at`] reads them; `None` where the kernel
    /// gives up (it may have inserted values by then).
    pub fn rule_at(
        &self,
        rule: usize,
        values: &[u32],
        n: i64,
        seen: &mut impl SeenSet,
    ) -> Option<()> {
        let BatchKind::Loops(rules) = &self.kind else {
            return None;
        };
        let known = values.get(..usize::try_from(n).ok()?)?;
        rules.get(rule)?.run(known, n, seen)
    }

    /// Whether this is a window kernel (for tests and `describe`).
    pub fn is_window(&self) -> bool {
        matches!(self.kind, BatchKind::Window(_))
    }

    /// Whether the game is Nim: its one rule moves to every smaller heap
    /// (see `Window::is_nim`).
    pub fn is_nim(&self) -> bool {
        matches!(&self.kind, BatchKind::Window(w) if w.is_nim())
    }

    /// Computes `values[n]` for `n` in `from..to`, in order, given that every
    /// value below `from` is known. Stops at the first position it cannot
    /// compute (on the stack, an option outside `0..n`, or arithmetic that
    /// would overflow) and returns it, with how many values it stored.
    /// `counts` is a window kernel's state, kept between runs.
    pub fn run(
        &self,
        values: &mut [u32],
        from: usize,
        to: usize,
        seen: &mut Stamped,
        counts: &mut Counts,
        max_value: &mut u32,
    ) -> (usize, usize) {
        let rules = match &self.kind {
            BatchKind::Window(w) => return w.run(values, from, to, seen, counts, max_value),
            BatchKind::Loops(rules) => rules,
        };
        let mut stored = 0;
        let start = seen.inserted();
        for n in from..to.min(values.len()) {
            // A chunk ends after so much work, so that Ctrl-C and the limits
            // are looked at often (values late in a game scan many options).
            if seen.inserted() - start >= CHUNK_WORK {
                return (n, stored);
            }
            match values[n] {
                UNKNOWN => {}
                v if v & SENTINEL_BIT != 0 => return (n, stored),
                _ => continue,
            }
            seen.clear(*max_value);
            let known = &values[..n];
            if rules.iter().any(|r| r.run(known, n as i64, seen).is_none()) {
                return (n, stored);
            }
            let v = seen.mex();
            if v & SENTINEL_BIT != 0 {
                return (n, stored);
            }
            values[n] = v;
            *max_value = (*max_value).max(v);
            stored += 1;
        }
        (to.min(values.len()), stored)
    }
}

impl BatchRule {
    /// The rule as a loop whose options are affine in its variable (or
    /// over a constant list), if it is one.
    fn of(game: GameId, r: &KRule) -> Option<BatchRule> {
        let f = r.fused.as_ref()?;
        let (first, rest) = r.clauses.split_first()?;
        if rest.iter().any(|c| !matches!(c, KClause::If(_))) {
            return None;
        }
        let lin = |e: &IntExpr| {
            interval(e, &r.dom)?;
            in_param(&Lin::of(e.clone()))
        };
        let bounds: Vec<(BinOp, Affine)> = f
            .bounds
            .iter()
            .map(|b| Some((b.op, of_form(&b.d)?)))
            .collect::<Option<_>>()?;
        let comps = f
            .comps
            .iter()
            .map(|(g, args)| match args.as_slice() {
                [a] if *g == game => of_form(a),
                _ => None,
            })
            .collect::<Option<Vec<_>>>()?;
        if comps.len() > MAX_FUSED {
            return None;
        }
        let source = match first {
            KClause::List { items, .. } => {
                let items: Vec<BatchItem> = items
                    .iter()
                    .map(|&x| BatchItem::of(x, &bounds, &comps))
                    .collect::<Option<_>>()?;
                let rising =
                    items.is_sorted_by_key(|it| it.lo) && items.iter().all(|it| it.hi == i64::MAX);
                BatchSource::Items { items, rising }
            }
            KClause::Range {
                lo, hi, inclusive, ..
            } => BatchSource::Range {
                lo: lin(lo)?,
                hi: lin(hi)?,
                inclusive: *inclusive,
            },
            _ => return None,
        };
        Some(BatchRule {
            source,
            bounds,
            comps,
        })
    }

    /// Inserts the values of this rule's options at `n`; `known` is
    /// `values[..n]`, all computed.
    pub(super) fn run(&self, known: &[u32], n: i64, seen: &mut impl SeenSet) -> Option<()> {
        let len = i128::from(n);
        match &self.source {
            BatchSource::Items { items, rising } => {
                for it in items {
                    if n < it.lo || n > it.hi {
                        if *rising {
                            break;
                        }
                        continue;
                    }
                    let mut v = 0u32;
                    for (c, &base) in self.comps.iter().zip(&it.bases) {
                        let i = base.checked_add(c.n.checked_mul(n)?)?;
                        let w = *known.get(usize::try_from(i).ok()?)?;
                        if w & SENTINEL_BIT != 0 {
                            return None;
                        }
                        v ^= w;
                    }
                    seen.insert(v);
                }
                Some(())
            }
            BatchSource::Range { lo, hi, inclusive } => {
                let mut lo = i128::from(lo.at(n)?);
                let mut hi = i128::from(hi.at(n)?) - i128::from(!*inclusive);
                for (op, a) in &self.bounds {
                    fold_bound(*op, i128::from(a.at(n)?), i128::from(a.a), &mut lo, &mut hi);
                }
                if lo > hi {
                    return Some(());
                }
                let mut parts = [(&[][..], 0i128, 0i128); MAX_FUSED];
                for (part, c) in parts.iter_mut().zip(&self.comps) {
                    let (base, step) = (i128::from(c.at(n)?), i128::from(c.a));
                    for end in [lo, hi] {
                        let i = base + step * end;
                        if i < 0 || i >= len {
                            return None;
                        }
                    }
                    *part = (known, base, step);
                }
                affine_loop(&parts[..self.comps.len()], lo, hi, seen)
            }
        }
    }
}
