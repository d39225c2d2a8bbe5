//! Misère play (the player who makes the last move loses): exact search on
//! sums, whose states are multisets of component positions, and the closed
//! rule for sums of Nim heaps.
//!
//! A state is the sorted list of its components, without components that
//! have no move (they add nothing). Its misère value is the mex of its
//! options' values, and 1 for a state with no move at all: value 0 means the
//! player to move loses. The search is iterative, memoized per state, and
//! bounded by the state limit.

use crate::diagnostics::{Code, Diag};
use crate::flow::R;
use crate::mex::Seen;
use crate::oracle::{Moves, Oracle};
use crate::store::PosId;
use rustc_hash::{FxHashMap, FxHashSet};

/// A sum as a canonical state: sorted components, none terminal.
pub type State = Box<[PosId]>;

/// The misère search: memo of states and of components.
#[derive(Default)]
pub struct Misere {
    values: FxHashMap<State, u32>,
    /// Components with no move.
    terminal: FxHashMap<PosId, bool>,
    /// Components misère-equivalent to a Nim heap, with its size.
    heap: FxHashMap<PosId, Option<u32>>,
}

/// Being computed (a state on the search stack).
const ON_STACK: u32 = u32::MAX;

impl Misere {
    fn is_terminal(&mut self, m: &mut dyn Oracle, c: PosId) -> R<bool> {
        if let Some(&t) = self.terminal.get(&c) {
            return Ok(t);
        }
        if let Some(h) = m.nim_heap(c) {
            return Ok(h == 0);
        }
        too_big(m, c)?;
        let t = !m.has_options(c)?;
        self.terminal.insert(c, t);
        Ok(t)
    }

    /// The canonical state of a sum.
    pub fn state(&mut self, m: &mut dyn Oracle, parts: &[PosId]) -> R<State> {
        let mut v = Vec::with_capacity(parts.len());
        for &c in parts {
            if !self.is_terminal(m, c)? {
                v.push(c);
            }
        }
        v.sort_unstable();
        Ok(v.into_boxed_slice())
    }

    /// The options of a state, each once, with the component that moved
    /// and what it became.
    pub fn options(&mut self, m: &mut dyn Oracle, s: &State) -> R<Vec<(PosId, Vec<PosId>, State)>> {
        let mut out = Vec::new();
        let mut seen = FxHashSet::default();
        let mut moves = Moves::default();
        let mut parts = Vec::new();
        for (i, &c) in s.iter().enumerate() {
            if i > 0 && s[i - 1] == c {
                continue;
            }
            too_big(m, c)?;
            m.options_into(c, &mut moves)?;
            for opt in moves.iter() {
                m.poll()?;
                parts.clear();
                parts.extend(s[..i].iter().chain(&s[i + 1..]).chain(opt));
                let next = self.state(m, &parts)?;
                if seen.insert(next.clone()) {
                    out.push((c, opt.to_vec(), next));
                }
            }
        }
        Ok(out)
    }

    /// The misère value of the sum of `parts` played as one game: by the
    /// Nim rule when every component is a Nim heap, else by exact search.
    pub fn value_of(&mut self, m: &mut dyn Oracle, parts: &[PosId]) -> R<u32> {
        let s = self.state(m, parts)?;
        if let Some(heaps) = self.nim_heaps(m, &s)? {
            return Ok(misere_nim_value(&heaps));
        }
        self.value(m, s)
    }

    /// The misère value of a sum played as one game (0: the player to move
    /// loses).
    pub fn value(&mut self, m: &mut dyn Oracle, root: State) -> R<u32> {
        if let Some(&v) = self.values.get(&root).filter(|v| **v != ON_STACK) {
            return Ok(v);
        }
        struct Frame {
            state: State,
            options: Vec<State>,
            next: usize,
            seen: Seen,
        }
        let mut stack: Vec<Frame> = Vec::new();
        let push = |this: &mut Misere,
                    m: &mut dyn Oracle,
                    stack: &mut Vec<Frame>,
                    s: State|
         -> R<()> {
            if this.values.len() >= m.max_states() {
                return Err(Diag::user(
                    Code::StateLimit,
                    format!(
                        "the misère search reached {} sums of positions",
                        m.max_states()
                    ),
                )
                .help("misère play is searched exactly, sum by sum: ask about smaller sums, or raise `--max-states N`").into());
            }
            let options = this
                .options(m, &s)?
                .into_iter()
                .map(|(_, _, o)| o)
                .collect();
            this.values.insert(s.clone(), ON_STACK);
            stack.push(Frame {
                state: s,
                options,
                next: 0,
                seen: Seen::default(),
            });
            Ok(())
        };
        let result = (|| -> R<u32> {
            push(self, m, &mut stack, root.clone())?;
            while let Some(f) = stack.last_mut() {
                if let Some(o) = f.options.get(f.next) {
                    match self.values.get(o).copied() {
                        Some(ON_STACK) => {
                            return Err(Diag::user(
                                Code::Cycle,
                                "a sum can be reached from itself: misère play needs every play to end",
                            ).into());
                        }
                        Some(v) => {
                            f.seen.insert(v);
                            f.next += 1;
                        }
                        None => {
                            let o = o.clone();
                            push(self, m, &mut stack, o)?;
                        }
                    }
                    continue;
                }
                let v = if f.options.is_empty() {
                    // No move: the player to move has already won.
                    1
                } else {
                    f.seen.mex() as u32
                };
                let done = stack.pop().map(|f| f.state);
                if let Some(s) = done {
                    self.values.insert(s, v);
                }
                if stack.is_empty() {
                    return Ok(v);
                }
            }
            Err(Diag::bug("the misère search ended without a value").into())
        })();
        if result.is_err() {
            for f in &stack {
                self.values.remove(&f.state);
            }
        }
        result
    }

    /// Whether the player to move wins the sum in misère play: by the Nim
    /// rule when every component is a Nim heap, else by exact search.
    pub fn next_wins(&mut self, m: &mut dyn Oracle, s: &State) -> R<bool> {
        if let Some(heaps) = self.nim_heaps(m, s)? {
            return Ok(misere_nim_next_wins(&heaps));
        }
        Ok(self.value(m, s.clone())? != 0)
    }

    /// The Nim heap sizes of a state whose components are all Nim heaps.
    fn nim_heaps(&mut self, m: &mut dyn Oracle, s: &State) -> R<Option<Vec<u32>>> {
        let mut heaps = Vec::with_capacity(s.len());
        for &c in s.iter() {
            match self.heap_size(m, c)? {
                Some(h) => heaps.push(h),
                None => return Ok(None),
            }
        }
        Ok(Some(heaps))
    }

    /// Whether a position is a Nim heap in misère play too: each option is
    /// a single Nim heap (or nothing), and their sizes are exactly
    /// 0, 1, ..., g − 1. Such a position's misère canonical form is *g.
    fn heap_size(&mut self, m: &mut dyn Oracle, root: PosId) -> R<Option<u32>> {
        if let Some(&h) = self.heap.get(&root) {
            return Ok(h);
        }
        // Nim by its rule: a heap of its size, however large.
        if let Some(h) = m.nim_heap(root) {
            return Ok(Some(h));
        }
        // Post-order over the positions below, without recursion; a
        // position met again while its options are pending closes a cycle.
        let mut stack = vec![(root, false)];
        let mut pending = FxHashSet::default();
        let mut options = Moves::default();
        let mut singles = Vec::new();
        while let Some((c, expanded)) = stack.pop() {
            if self.heap.contains_key(&c) {
                continue;
            }
            too_big(m, c)?;
            if !expanded && !pending.insert(c) {
                let (game, _) = m.position(c);
                let loopy = m
                    .program()
                    .games
                    .get(game as usize)
                    .is_some_and(|g| g.loopy);
                return Err(Diag::user(
                    Code::Cycle,
                    format!(
                        "the game graph has a cycle: {} can be reached from itself",
                        m.show_pos(c)
                    ),
                )
                .help(if loopy {
                    "misère play of a `loopy game` is not solved yet: ask about it in normal play"
                } else {
                    "misère play needs every play to end: make each move decrease something"
                })
                .into());
            }
            m.options_into(c, &mut options)?;
            singles.clear();
            for o in options.iter() {
                // The option's live components: none, one, or more (then
                // `c` is no heap).
                let mut live = None;
                let mut many = false;
                for &p in o {
                    if !self.is_terminal(m, p)? {
                        many |= live.is_some();
                        live = Some(p);
                    }
                }
                if many {
                    singles.clear();
                    self.heap.insert(c, None);
                    break;
                }
                singles.push(live);
            }
            if self.heap.contains_key(&c) {
                continue;
            }
            let unknown: Vec<PosId> = singles
                .iter()
                .flatten()
                .copied()
                .filter(|p| !self.heap.contains_key(p))
                .collect();
            if !unknown.is_empty() {
                if expanded {
                    return Err(Diag::bug("the Nim-heap test revisited a position").into());
                }
                stack.push((c, true));
                stack.extend(unknown.into_iter().map(|p| (p, false)));
                continue;
            }
            let mut sizes = Vec::with_capacity(singles.len());
            let mut ok = true;
            for s in &singles {
                match s {
                    None => sizes.push(0),
                    Some(p) => match self.heap.get(p).copied().flatten() {
                        Some(h) => sizes.push(h),
                        None => ok = false,
                    },
                }
            }
            sizes.sort_unstable();
            sizes.dedup();
            let g = sizes.len() as u32;
            let is_heap = ok && sizes.iter().enumerate().all(|(i, &h)| h == i as u32);
            self.heap.insert(c, is_heap.then_some(g));
            pending.remove(&c);
        }
        Ok(self.heap.get(&root).copied().flatten())
    }
}

/// Largest integer argument of a position whose options are listed one by
/// one here: every sum below it is a state of the search.
const MAX_ARG: i64 = 1 << 20;

/// Refuses positions with so many options (and sums below them) that
/// listing them cannot end in reasonable time.
fn too_big(m: &dyn Oracle, c: PosId) -> R<()> {
    let (_, args) = m.position(c);
    let big = args
        .iter()
        .any(|a| matches!(a, crate::value::Value::Int(n) if n.unsigned_abs() > MAX_ARG as u64));
    if big {
        return Err(Diag::user(
            Code::TooLarge,
            format!(
                "{} is too large to search position by position",
                m.show_pos(c)
            ),
        )
        .help("misère play and graphs list every position reachable: ask about small positions")
        .into());
    }
    Ok(())
}

/// The misère value of a sum of Nim heaps (as [`Misere::value`] defines
/// it, the mex of the options' values with 1 at the end): with every heap
/// of size 0 or 1, 1 when the 1-heaps are even in number and 0 when odd;
/// otherwise the XOR of the heaps, as in normal play.
pub fn misere_nim_value(heaps: &[u32]) -> u32 {
    if heaps.iter().all(|&h| h <= 1) {
        u32::from(heaps.iter().filter(|&&h| h == 1).count() % 2 == 0)
    } else {
        heaps.iter().fold(0, |x, &h| x ^ h)
    }
}

/// Misère Nim: with every heap of size 0 or 1, the player to move wins when
/// the number of 1-heaps is even; otherwise as in normal play (XOR ≠ 0).
pub fn misere_nim_next_wins(heaps: &[u32]) -> bool {
    misere_nim_value(heaps) != 0
}
