//! Analysis of one-parameter games: the shape of their moves (derived from
//! the rules), periods of their value sequences with proofs where a theorem
//! allows, and descriptions in words.

pub mod pshape;
pub mod shape;
pub mod translate;

use crate::diagnostics::{Code, Diag};
use crate::flow::R;
use crate::ir::GameId;
use crate::oracle::Oracle;
use crate::span::Span;
use crate::syntax::shorthand;
use crate::value::Value;
pub use shape::{Family, Shape};

/// How a period is known.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(tag = "kind", rename_all = "lowercase")]
pub enum Basis {
    /// A theorem applies to the game's shape and the values were checked
    /// over the window it asks for.
    Proven {
        /// Which theorem, in words.
        theorem: String,
        /// The window checked: G(n + p) = G(n) + s for `from <= n < to`.
        from: i64,
        /// End of the window (exclusive).
        to: i64,
    },
    /// Seen in the values computed, without a theorem for this game.
    Observed {
        /// Why no theorem applies.
        why: String,
    },
}

/// A period of a value sequence G(0), G(1), ...
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct Period {
    /// The smallest n from which the values repeat.
    pub preperiod: i64,
    /// The fundamental period.
    pub period: i64,
    /// What a period adds to the values: G(n + period) = G(n) + saltus
    /// (0 for a plain period, more for an arithmetic one).
    pub saltus: i64,
    /// How many values were computed (G(0) .. G(computed - 1)).
    pub computed: i64,
    /// How it is known.
    pub basis: Basis,
}

impl Period {
    /// Whether a theorem backs it.
    pub fn is_proven(&self) -> bool {
        matches!(self.basis, Basis::Proven { .. })
    }
}

/// The result of a period search.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PeriodSearch {
    /// A period was found (proven or observed).
    Found(Period),
    /// None within the budget.
    NotFound {
        /// Values computed.
        computed: i64,
        /// Why no proof could apply, if the shape is not known.
        why: Option<String>,
        /// What ended the search.
        ended: String,
    },
}

/// The default number of values a period search may compute: take-and-break
/// games reach it in seconds in sparse space.
pub const DEFAULT_BUDGET: i64 = 1 << 21;
/// Values a search computes by default where no proof can apply (the moves
/// have no take-and-break shape): what repeats there is all it can say, and
/// more values only take longer.
pub const SHAPELESS_BUDGET: i64 = 1 << 14;
/// The budget that splits into three heaps are measured against (they are
/// quadratic per value, and not computed in sparse space).
const THREE_HEAP_BASE: i64 = 1 << 18;

/// A large count, roughly: `3.3e10`.
fn approx(x: f64) -> String {
    format!("{x:.1e}")
}

/// The least number of values computed before anything is called periodic.
const FIRST_STEP: i64 = 256;
/// Values computed before an observed period (without a theorem) is given.
const OBSERVE: i64 = 4096;

/// Searches a period of `game`'s values, computing at most `budget` of
/// them (doubling the range until a period is proven, or the budget ends).
/// A default budget (`open`) also ends early where going on cannot pay: at
/// [`SHAPELESS_BUDGET`] values when no proof can apply, and where the next
/// doubling would look at more than [`STEP_WORK`] option values.
pub fn period(
    m: &mut dyn Oracle,
    game: GameId,
    budget: i64,
    open: bool,
    span: Span,
) -> R<PeriodSearch> {
    period_of(m, &Section::whole(game), budget, open, span)
}

/// A one-parameter game, or a game of several parameters with all but one
/// fixed (`period(G(_, 6))`): the positions G(…, n, …) for n = 0, 1, ….
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Section {
    pub game: GameId,
    /// Which parameter is the heap.
    pub heap: usize,
    /// Every parameter's value, the heap's ignored.
    pub args: Vec<i64>,
}

impl Section {
    /// A one-parameter game as itself.
    pub fn whole(game: GameId) -> Section {
        Section {
            game,
            heap: 0,
            args: vec![0],
        }
    }

    pub fn is_whole(&self) -> bool {
        self.args.len() == 1
    }

    /// How it reads, given its game's name: `G`, or `G(_, 6)`.
    pub fn name(&self, game: &str) -> String {
        if self.is_whole() {
            return game.to_string();
        }
        let shown: Vec<String> = (0..self.args.len())
            .map(|i| {
                if i == self.heap {
                    "_".to_string()
                } else {
                    self.args[i].to_string()
                }
            })
            .collect();
        format!("{game}({})", shown.join(", "))
    }

    /// The arguments of the position at heap n.
    pub fn at(&self, n: i64) -> Vec<Value> {
        let mut out: Vec<Value> = self.args.iter().map(|&v| Value::Int(v)).collect();
        out[self.heap] = Value::Int(n);
        out
    }
}

/// [`period`] of a section.
pub fn period_of(
    m: &mut dyn Oracle,
    sec: &Section,
    budget: i64,
    open: bool,
    span: Span,
) -> R<PeriodSearch> {
    // B values of a take-and-break game scan at most about B options each.
    let b = u64::try_from(budget).unwrap_or(0);
    let saved = m.apart(b.saturating_mul(b));
    let result = search_values(m, sec, budget, open, span);
    m.restore(saved);
    result
}

/// The most option values the next doubling of a search with a default
/// budget may be expected to look at (some seconds of work).
pub const STEP_WORK: u64 = 15_000_000_000;

/// [`STEP_WORK`] for a section (`G(_, 6)`): its values are searched one
/// by one, without the ascending strategies' sparse space and kernels.
pub const SECTION_STEP_WORK: u64 = STEP_WORK / 64;

fn search_values(
    m: &mut dyn Oracle,
    sec: &Section,
    budget: i64,
    open: bool,
    span: Span,
) -> R<PeriodSearch> {
    let shape = shape::shape_any(m, sec);
    // The state limit ends the search too, with its answer rather than an
    // error.
    let room = m.state_count().saturating_add(m.room()) as i64 / 2;
    let mut ended = if room < budget {
        format!("the state limit (room for {room} values)")
    } else {
        format!("its budget of {budget} values")
    };
    let mut budget = budget.min(room).max(1);
    if open && shape.is_err() && budget > SHAPELESS_BUDGET {
        budget = SHAPELESS_BUDGET;
        ended =
            format!("{budget} values, as a search without a budget does where no proof can apply");
    }
    // Splits into three heaps step through about n²/3 loop values per
    // heap: within the search's work (the budget squared), with room to
    // spare, about B^(2/3) values.
    if shape.as_ref().is_ok_and(|s| s.max_heaps() >= 3) {
        let b = budget.min(THREE_HEAP_BASE) as f64;
        let short = budget.min((b * b).cbrt() as i64).max(1);
        if short < budget {
            ended = format!("{short} values, B^(2/3) of its budget (splits into three heaps)");
        }
        budget = short;
    }
    let mut values: Vec<u32> = Vec::new();
    let mut target = FIRST_STEP.min(budget);
    let mut last_step = 0u64;
    loop {
        let before = m.work();
        extend(m, sec, &mut values, target, span)?;
        let step = m.work().saturating_sub(before);
        // The next doubling costs what this one did, times how much this
        // one grew over the last (2 for linear work, 4 for quadratic).
        let growth = if last_step > 0 {
            (step as f64 / last_step as f64).clamp(2.0, 8.0)
        } else {
            2.0
        };
        let next_work = step as f64 * growth;
        last_step = step;
        let step_work = if sec.is_whole() {
            STEP_WORK
        } else {
            SECTION_STEP_WORK
        };
        let stop_here = open && target < budget && next_work > step_work as f64;
        if stop_here {
            ended = format!(
                "the next doubling would look at about {} option values (a search without \
                 a budget stops there)",
                approx(next_work)
            );
        }
        match search(&values, shape.as_ref().map_err(String::as_str)) {
            Some(p) if p.is_proven() => {
                if sec.is_whole() {
                    m.set_period(sec.game, p.preperiod, p.period, p.saltus);
                }
                return Ok(PeriodSearch::Found(p));
            }
            // No theorem: what is seen over a few thousand values is all
            // there is to say.
            Some(p) if target >= OBSERVE && shape.is_err() => return Ok(PeriodSearch::Found(p)),
            // A shape with a theorem but no proof within the budget: the
            // period seen so far is given as observed.
            found if target >= budget || stop_here => {
                return Ok(found.map_or_else(
                    || PeriodSearch::NotFound {
                        computed: values.len() as i64,
                        why: shape.err(),
                        ended,
                    },
                    PeriodSearch::Found,
                ));
            }
            _ => target = target.saturating_mul(2).min(budget),
        }
    }
}

/// Computes G(n) for n below `to`.
fn extend(m: &mut dyn Oracle, sec: &Section, values: &mut Vec<u32>, to: i64, span: Span) -> R<()> {
    if sec.is_whole() {
        m.ascend(sec.game, to)?;
    }
    for n in values.len() as i64..to {
        // Values from kernels do not poll: Ctrl-C and the limits are seen here.
        m.poll()?;
        let p = m.intern(sec.game, &sec.at(n), span)?;
        values.push(m.grundy(p)?);
    }
    Ok(())
}

/// The smallest period visible in `values`, plain or arithmetic, with the
/// pre-period it needs, proven when the shape allows (`Err` says why there
/// is none). A tail of the sequence is p-periodic from e when the reversed
/// sequence is p-periodic on its first len − e values: the Z-function of
/// the reversed sequence gives e for every p at once. An arithmetic tail
/// (G(n + p) = G(n) + s, s ≠ 0) is looked for only in values that grow.
fn search(values: &[u32], shape: Result<&Shape, &str>) -> Option<Period> {
    let len = values.len();
    let rev: Vec<u32> = values.iter().rev().copied().collect();
    let z = z_function(&rev);
    let computed = len as i64;
    let half = len / 2;
    let grows = values[half..].iter().max() > values[..half].iter().max();
    let mut observed = None;
    for (p, &zp) in z.iter().enumerate().skip(1) {
        let last = i64::from(values[len - 1]) - i64::from(values[len - 1 - p]);
        let (e, saltus) = if last == 0 {
            // rev[i] = rev[i + p] for i < z[p]: values[n] = values[n + p]
            // for len − p − z[p] <= n < len − p.
            ((len - p - zp) as i64, 0)
        } else if grows {
            (arithmetic_from(values, p, last), last)
        } else {
            continue;
        };
        let p = p as i64;
        if let Ok(shape) = shape
            && let Some((theorem, from, to)) = proof(values, shape, e, p, saltus)
        {
            return Some(Period {
                preperiod: e,
                period: p,
                saltus,
                computed,
                basis: Basis::Proven { theorem, from, to },
            });
        }
        // Seen repeating at least three times, over at least a third of
        // what was computed.
        if observed.is_none() && (computed - e) >= 3 * p && (computed - e) * 3 >= computed {
            observed = Some(Period {
                preperiod: e,
                period: p,
                saltus,
                computed,
                basis: Basis::Observed {
                    why: match shape {
                        Ok(s) if saltus != 0 && s.any.is_none() => {
                            "no theorem grundy knows proves a period with a saltus where moves \
                             split heaps"
                                .into()
                        }
                        Ok(_) => "the values computed so far do not reach the window a proof needs"
                            .into(),
                        Err(why) => why.to_string(),
                    },
                },
            });
            if shape.is_err() {
                return observed;
            }
        }
    }
    observed
}

/// The period and saltus a sequence of values shows, not proven: the
/// least period seen repeating at least three times over a third of it.
pub fn observed(values: &[u32]) -> Option<(i64, i64)> {
    search(values, Err("")).map(|p| (p.period, p.saltus))
}

/// The least e with G(n + p) − G(n) = G(len − 1) − G(len − 1 − p) for
/// every e <= n < len − p.
fn arithmetic_from(values: &[u32], p: usize, saltus: i64) -> i64 {
    let mut e = values.len() - p;
    while e > 0 && i64::from(values[e - 1 + p]) - i64::from(values[e - 1]) == saltus {
        e -= 1;
    }
    e as i64
}

/// The theorem that proves G(n + p) = G(n) + s for every n >= e from the
/// values computed, and the window it checked; `None` when the values do
/// not reach it (or no theorem covers the shape).
fn proof(values: &[u32], shape: &Shape, e: i64, p: i64, saltus: i64) -> Option<(String, i64, i64)> {
    let computed = values.len() as i64;
    if let Some(any) = &shape.any {
        return any_proof(values, shape, any, e, p, saltus);
    }
    if saltus != 0 {
        return None;
    }
    let (r, t) = (i64::from(shape.max_heaps().max(1)), shape.max_take());
    let start = e.max(1).max(shape.from);
    // Guy–Smith, generalized to r heaps: from n = r·e + (r − 1)·p + t
    // on, the largest heap of every option of G(n + p) is at least
    // e + p, so the options of G(n + p) and G(n) have equal values.
    let to = r
        .saturating_mul(start)
        .saturating_add((r - 1).saturating_mul(p))
        .saturating_add(t)
        .max(start + 1);
    (to.saturating_add(p) <= computed).then(|| (theorem(shape), e, to))
}

/// The proof for moves to any heap up to n − T (and a few one-heap moves
/// taking fewer than T): the options of G(n) are A(n) = {G(x) : x a heap
/// of the range up to n − T}, the values G(n − t) of the takes below T,
/// and 0 for a move to the empty position. Say that at n1 and n2 = n1 + p,
/// with h = mex A(n1): A(n2) holds every value below h + s, its values
/// from h + s on are those of A(n1) from h on plus s, and each of the
/// last T − 1 values before n1 is at least h with the one before n2 the
/// same plus s, or below h with the one before n2 below h + s (and h ≥ 1
/// with a move to the empty position). Then every later value
/// follows suit: by induction on i, the options of G(n1 + i) are every
/// value below h and a set X of values from h on, those of G(n2 + i) every
/// value below h + s and X + s, so G(n2 + i) = G(n1 + i) + s ≥ h + s, and
/// each value entering A keeps the two sets in step.
fn any_proof(
    values: &[u32],
    shape: &Shape,
    any: &shape::Any,
    e: i64,
    p: i64,
    s: i64,
) -> Option<(String, i64, i64)> {
    if s < 0 {
        return None;
    }
    let len = values.len() as i64;
    let t = any.take;
    let empty_move = shape.families.iter().any(|f| f.heaps == 0);
    let value = |x: i64| i64::from(values[x as usize]);
    // A(n): the values of the range's heaps, sorted.
    let range_values = |n: i64| -> Vec<i64> {
        let mut vs: Vec<i64> = any
            .low
            .iter()
            .copied()
            .chain(any.from_heap..=n - t)
            .map(value)
            .collect();
        vs.sort_unstable();
        vs.dedup();
        vs
    };
    let mut n1 = e.saturating_add(t - 1).max(shape.from).max(t);
    // A few places to try: the sets may need some values to fill in.
    for _ in 0..16 {
        let n2 = n1.checked_add(p)?;
        if n2 > len {
            return None;
        }
        let (a1, a2) = (range_values(n1), range_values(n2));
        let h = a1
            .iter()
            .enumerate()
            .find(|&(i, &v)| v != i as i64)
            .map_or(a1.len(), |(i, _)| i) as i64;
        let below = a2.iter().take_while(|&&v| v < h + s).count() as i64;
        let high1: Vec<i64> = a1.iter().filter(|&&v| v >= h).map(|v| v + s).collect();
        let high2: Vec<i64> = a2.iter().copied().filter(|&v| v >= h + s).collect();
        // A value below h (h + s) adds nothing: every such value is in.
        let window = (1..t).all(|j| {
            let (v1, v2) = (value(n1 - j), value(n2 - j));
            (v1 >= h && v2 == v1 + s) || (v1 < h && v2 < h + s)
        });
        if below == h + s && high1 == high2 && window && (h >= 1 || !empty_move) {
            let mut heaps = match any.from_heap {
                0 => format!("any heap up to n - {t}"),
                m => format!("any heap from {m} up to n - {t}"),
            };
            for x in &any.low {
                heaps.push_str(&format!(", or {x}"));
            }
            for f in &shape.families {
                heaps.push_str(&match f.heaps {
                    0 => ", or none".to_string(),
                    _ => format!(", or n - {}", f.take),
                });
            }
            let theorem = format!(
                "every move leaves one heap, {heaps}: the values those reach from G({n1}) and \
                 G({n2}) are the same shifted by {s}, so every value from there on is"
            );
            return Some((theorem, e, n2));
        }
        n1 = n1.checked_add(p.max(1))?;
    }
    None
}

fn theorem(shape: &Shape) -> String {
    let t = shape.max_take();
    if shape.families.is_empty() {
        return format!("from n = {} on, no position has a move", shape.from);
    }
    if shape.is_subtraction() {
        format!(
            "every move takes at most {t} token{} and leaves at most one heap (a subtraction game): \
             {} repeating means all do",
            if t == 1 { "" } else { "s" },
            if t == 1 {
                "one value".to_string()
            } else {
                format!("{t} consecutive values")
            }
        )
    } else {
        format!(
            "every move takes at most {t} token{} and leaves at most {} heaps (Guy–Smith for \
             take-and-break games)",
            if t == 1 { "" } else { "s" },
            shape.max_heaps()
        )
    }
}

/// `z[i]`: the length of the longest common prefix of `s` and `s[i..]`.
fn z_function(s: &[u32]) -> Vec<usize> {
    let n = s.len();
    let mut z = vec![0; n];
    if n > 0 {
        z[0] = n;
    }
    let (mut l, mut r) = (0, 0);
    for i in 1..n {
        if i < r {
            z[i] = (r - i).min(z[i - l]);
        }
        while i + z[i] < n && s[z[i]] == s[i + z[i]] {
            z[i] += 1;
        }
        if i + z[i] > r {
            l = i;
            r = i + z[i];
        }
    }
    z
}

/// A game's moves in words: a shorthand's own description, or the shape
/// derived from its rules.
pub fn describe(m: &mut dyn Oracle, game: GameId) -> Vec<String> {
    let g = m.program().games[game.index()].clone();
    if let Some(s) = &g.shorthand {
        return shorthand::describe(&g.name, s);
    }
    let mut lines = shape_lines(m, game);
    // How each rule runs, and why a rule is not a kernel.
    let how = crate::kernel::explain(m.program(), m.constants(), game);
    let many = how.len() > 1;
    for (i, r) in how.iter().enumerate() {
        let rule = if many {
            format!("rule {}", i + 1)
        } else {
            "its rule".to_string()
        };
        lines.push(match r {
            Ok(true) => format!(
                "  {rule} runs compiled, as a kernel: its options listed and their values read without the interpreter"
            ),
            Ok(false) => format!(
                "  {rule} runs compiled, as a kernel: its options listed without the interpreter"
            ),
            Err(why) => format!(
                "  {rule} runs in the interpreter (its integer expressions compiled): it has {}",
                why.what
            ),
        });
    }
    if let Some(batch) = crate::kernel::batch_explained(m.program(), m.constants(), game) {
        lines.push(format!("  {batch}"));
    }
    lines
}

/// What `describe` says of a game's moves: its rules' count, and for a game
/// of one parameter the take-and-break shape of its moves.
fn shape_lines(m: &mut dyn Oracle, game: GameId) -> Vec<String> {
    let g = m.program().games[game.index()].clone();
    let head = format!("{}({})", g.name, g.params.join(", "));
    let rules = format!(
        "{head}: {} rule{}",
        g.rules.len(),
        if g.rules.len() == 1 { "" } else { "s" }
    );
    if g.params.len() != 1 {
        return vec![rules];
    }
    match shape::moves(m, game) {
        Err(why) => match shape::shape_any(m, &Section::whole(game)) {
            Ok(Shape {
                any: Some(any),
                families,
                from,
            }) => {
                let mut lines = vec![format!(
                    "{rules}; for n >= {from} a move leaves one heap (its values grow: periods \
                     have a saltus):"
                )];
                let low: Vec<String> = any.low.iter().map(i64::to_string).collect();
                lines.push(format!(
                    "  any heap from {} up to n - {}{}",
                    any.from_heap,
                    any.take,
                    if low.is_empty() {
                        String::new()
                    } else {
                        format!(", and heaps {}", low.join(", "))
                    }
                ));
                lines.extend(families.iter().map(|f| format!("  {}", family_words(f))));
                lines
            }
            _ => vec![rules, format!("  no take-and-break shape: {why}")],
        },
        Ok(shape) => {
            if shape.families.is_empty() {
                return vec![format!("{rules}; for n >= {} there is no move", shape.from)];
            }
            let mut lines = vec![format!(
                "{rules}; for n >= {} a move takes tokens from one heap:",
                shape.from
            )];
            for f in &shape.families {
                lines.push(format!("  {}", family_words(f)));
            }
            match shape::exact_octal(m, game, &shape) {
                Some(digits) => lines.push(format!(
                    "  exactly the moves of octal {} (for every n)",
                    shorthand::octal_code(&digits)
                )),
                None if !shape.families.iter().any(|f| f.heaps == 0)
                    && let Some(digits) = shape.digits() =>
                {
                    lines.push(format!(
                        "  from n = {} on, the moves of octal {}",
                        shape.from,
                        shorthand::octal_code(&digits)
                    ))
                }
                None => {}
            }
            lines
        }
    }
}

fn family_words(f: &Family) -> String {
    let take = match f.take {
        0 => "take none".to_string(),
        1 => "take 1 token".to_string(),
        t => format!("take {t} tokens"),
    };
    match f.heaps {
        0 => "move to the empty position".into(),
        1 => format!("{take}, leaving one heap"),
        2 if f.unequal => format!("{take}, leaving two non-empty heaps of different sizes"),
        2 => format!("{take}, leaving two non-empty heaps (in every way)"),
        _ => format!("{take}, leaving three non-empty heaps (in every way)"),
    }
}

/// An error for a position too large to compute without a proven period.
/// `position` (as written) is too large to compute, and its game (or
/// section, `name`) has no proven period.
pub fn too_large(position: &str, name: &str, why: &str, span: Span) -> Diag {
    Diag::user(
        Code::TooLarge,
        format!("{position} is too large to compute, and no period of {name} is proven"),
    )
    .label(span, "the game has no proven period")
    .note(why.to_string())
    .help(format!(
        "ask `period({name})` to see what is known, or a smaller position"
    ))
}

/// Heaps from this size on have their moves listed by family (a list of
/// every option would be too long to read, or to compute).
pub const HUGE_MOVES: i64 = 1 << 16;

/// One move, or a group of moves, of a huge heap.
pub enum HugeMove {
    /// One move, to this sum.
    One(Vec<crate::value::PosId>),
    /// Splits into x and s − x for x in one residue class.
    Group {
        /// What the heap becomes, in words (`G(x) + G(s - x) for x = ...`).
        to: String,
        /// The change, in words (`n → x + (s - x) for x = ...`).
        change: String,
        /// The value of the two heaps (the same for every x of the class).
        value: u32,
        /// How many moves.
        count: u64,
    },
}

/// The moves of a huge heap G(n) of a game whose period is proven (found
/// now if need be): the one-heap moves one by one, the splits into x and
/// s − x one by one for x below the pre-period, then grouped by x mod p.
/// `None` when this does not apply.
pub fn huge_moves(m: &mut dyn Oracle, c: crate::value::PosId) -> R<Option<Vec<HugeMove>>> {
    let (game, args) = m.position(c);
    let Some(ints) = args
        .iter()
        .map(|a| match a {
            Value::Int(v) => Some(*v),
            _ => None,
        })
        .collect::<Option<Vec<i64>>>()
    else {
        return Ok(None);
    };
    if ints.iter().max().is_none_or(|&n| n < HUGE_MOVES) {
        return Ok(None);
    }
    // Asking for the heap's value finds the period if there is one to find.
    m.grundy(c)?;
    // A plain period of the game, or of its section (`G(_, 6)`).
    let Some(at) = m.period_at(c) else {
        return Ok(None);
    };
    if at.saltus != 0 {
        return Ok(None);
    }
    let mut fixed = ints.clone();
    fixed[at.heap] = 0;
    let sec = Section {
        game,
        heap: at.heap,
        args: fixed,
    };
    let Ok(shape) = shape::shape_of(m, &sec) else {
        return Ok(None);
    };
    // Splits into three heaps are not grouped (yet): listed one by one.
    if shape.max_heaps() > 2 {
        return Ok(None);
    }
    let span = m.program().games[game.index()].header;
    let (n, e, p) = (at.n, at.preperiod, at.period);
    if n < shape.from || n < e + p {
        return Ok(None);
    }
    let name = m.program().games[game.index()].name.clone();
    // `G(x)`, or `G(x, 6)` for a section.
    let call = |x: &str| {
        let shown: Vec<String> = (0..sec.args.len())
            .map(|i| match i == sec.heap {
                true => x.to_string(),
                false => sec.args[i].to_string(),
            })
            .collect();
        format!("{name}({})", shown.join(", "))
    };
    let value = |m: &mut dyn Oracle, x: i64| -> R<u32> {
        let q = m.intern(game, &sec.at(x), span)?;
        m.grundy(q)
    };
    let mut out = Vec::new();
    for f in &shape.families {
        let s = n - f.take;
        match f.heaps {
            0 => out.push(HugeMove::One(Vec::new())),
            1 => out.push(HugeMove::One(vec![m.intern(game, &sec.at(s), span)?])),
            _ => {
                let half = s / 2;
                // Below the pre-period, each split is its own.
                for x in 1..e.min(half + 1) {
                    let a = m.intern(game, &sec.at(x), span)?;
                    let b = m.intern(game, &sec.at(s - x), span)?;
                    out.push(HugeMove::One(vec![a, b]));
                }
                // From there, x and s − x are both periodic: the value
                // depends on x mod p only. Listed by their first x.
                let lo = e.max(1);
                for first in lo..lo.saturating_add(p) {
                    if first > half {
                        continue;
                    }
                    let count = (half - first) / p + 1;
                    let last = first + (count - 1) * p;
                    if count == 1 {
                        let a = m.intern(game, &sec.at(first), span)?;
                        let b = m.intern(game, &sec.at(s - first), span)?;
                        out.push(HugeMove::One(vec![a, b]));
                        continue;
                    }
                    let xs = format!("x = {first}, {}, ..., {last} ({count} moves)", first + p);
                    out.push(HugeMove::Group {
                        to: format!("{} + {} for {xs}", call("x"), call(&format!("{s} - x"))),
                        change: format!("{n} → x + ({s} - x) for {xs}"),
                        value: value(m, first)? ^ value(m, s - first)?,
                        count: count as u64,
                    });
                }
            }
        }
    }
    Ok(Some(out))
}
