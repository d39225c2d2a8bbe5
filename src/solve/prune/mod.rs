//! The pruned nimber search of Beling and Rogalski ("On pruning search
//! trees of impartial games", Artificial Intelligence 283, 2020): to know
//! whether a position's value is in a set `R`, it need not know every
//! option's value. It keeps the candidates `C` for the value (`0..=n` for
//! `n` options; each option rules out one), asks each option only for the
//! values still in question, and stops as soon as no candidate is in `R`.
//! A position whose value is proven is stored; one that is only known not
//! to be in `R` is not.
//!
//! Plain data over a [`Tree`](crate::solve::prune::Tree): the engine (`eval::prune`) gives options as
//! sums of stored components and keeps the values; the search runs over an
//! explicit stack, never the Rust stack.

use crate::flow::{R, Stop};
use crate::oracle::Moves;
use crate::store::PosId;

/// What a listing asks after each option: whether to go on, given its
/// value when every component's is known, and whether the hint prefers it
/// (see [`Tree::options`]).
pub type More<'a> = dyn FnMut(Option<u32>, Option<bool>) -> bool + 'a;

/// What the pruned search reads and writes.
pub trait Tree {
    /// The stored value of `pos`, if it is known.
    fn known(&self, pos: PosId) -> Option<u32>;
    /// Stores the value of `pos`; an error when there is no room left
    /// (the state limit: a search that could not keep what it proves
    /// would prove it again and again).
    fn store(&mut self, pos: PosId, value: u32) -> R<()>;
    /// The options of `pos`, each a sum of components, into `out`, asking
    /// `more` after each whether to go on (`Ok(false)` when it stopped),
    /// given its value when every component's is known, and whether the
    /// hint prefers it ([`aimed_sum`]; `None` when that is for
    /// [`Tree::aimed`] to tell).
    fn options(&mut self, pos: PosId, out: &mut Moves, more: &mut More) -> R<bool>;
    /// [`Tree::options`] on a first look: it may leave out options the
    /// hint does not prefer, where telling so is cheaper than naming
    /// them. `Ok((all, left_out))`: whether it went to the end, and
    /// whether it left any option out.
    fn look(&mut self, pos: PosId, out: &mut Moves, more: &mut More) -> R<(bool, bool)> {
        self.options(pos, out, more).map(|all| (all, false))
    }
    /// The value of `pos` by another search: for a position with more
    /// options than a candidate set holds.
    fn value(&mut self, pos: PosId) -> R<u32>;
    /// How big `pos` is, for trying small parts first (the cells of a
    /// board); any measure will do, it only orders the search.
    fn size(&self, pos: PosId) -> u32;
    /// Whether there is a hint: options to try first. A hint orders the
    /// search and never changes a value.
    fn hinted(&self) -> bool {
        false
    }
    /// Whether the hint prefers the option `parts`, where the listing
    /// could not tell.
    fn aimed(&mut self, _parts: &[PosId]) -> R<bool> {
        Ok(false)
    }

    /// Where the search is, every few thousand steps: of the root's
    /// options not known when listed, and of those of each under way below
    /// it, how many are done and of how many; `round` tells a new round of
    /// the root's (a new value tried, or a new search), whose counts start
    /// again (for a progress line; the default ignores it).
    fn progress(&mut self, _round: u32, _levels: &[(u32, u32)]) {}
}

/// Sets of values below 128, as bits.
type Set = u128;

/// Every value a set can hold.
const ALL: Set = Set::MAX;

/// The most options a position may have to be searched here (its
/// candidates `0..=n` must fit a [`Set`]).
const MAX_OPTIONS: usize = Set::BITS as usize - 1;

/// The deepest the search goes before it leaves the position to the
/// general search (which reports cycles and the depth limit).
const MAX_DEPTH: usize = 1 << 16;

/// A node's answer: its value, or that its value is not in the set asked.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Verdict {
    Value(u32),
    NotInSet,
}

/// What a node waits for from the child it pushed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Wait {
    /// The value of a component after the first, asked in full.
    Other,
    /// Whether the first component's value, XOR the others', is a
    /// candidate.
    First,
}

/// One position being searched: a suspended loop over its options.
#[derive(Debug)]
struct Node {
    pos: PosId,
    /// The values asked about.
    asked: Set,
    /// The candidates for its value.
    cand: Set,
    /// Whether every option ruled out exactly its own value.
    exact: bool,
    /// Whether it holds only its preferred option, listed up to that one:
    /// the rest are listed if that option does not settle the question.
    partial: bool,
    /// The one-part option asked about now, and the last one answered
    /// with its answer.
    asking: Option<PosId>,
    last: Option<(PosId, Verdict)>,
    /// Its options whose values were not known on entry: `ends[first..]`.
    first: usize,
    /// The option looked at now, and how many of its components after the
    /// first are done, with their XOR.
    next: usize,
    done: usize,
    xor: u32,
    wait: Wait,
}

/// The least set holding `0..=max(s)` (empty for an empty `s`).
fn up_to_max(s: Set) -> Set {
    if s == 0 {
        0
    } else {
        let top = Set::BITS - 1 - s.leading_zeros();
        if top + 1 == Set::BITS {
            ALL
        } else {
            (1 << (top + 1)) - 1
        }
    }
}

/// `s` without its largest element.
fn without_largest(s: Set) -> Set {
    if s == 0 {
        0
    } else {
        s & !(1 << (Set::BITS - 1 - s.leading_zeros()))
    }
}

/// Rules `v` out of the candidates: `v` itself if it is one, else the
/// largest (with `n` options left and `n + 1` candidates, the largest can
/// only be the value if every smaller one is taken, which `n - 1` options
/// cannot do).
fn rule_out(cand: Set, v: u32) -> Set {
    if v < Set::BITS && cand >> v & 1 == 1 {
        cand & !(1 << v)
    } else {
        without_largest(cand)
    }
}

/// `{x ^ k : x in s}`, within a set's range.
fn xor_each(s: Set, k: u32) -> Set {
    if k == 0 {
        return s;
    }
    let mut out = 0;
    let mut bits = s;
    while bits != 0 {
        let x = bits.trailing_zeros();
        bits &= bits - 1;
        let y = x ^ k;
        if y < Set::BITS {
            out |= 1 << y;
        }
    }
    out
}

/// The searcher's stacks, kept from one search to the next.
#[derive(Default)]
pub struct Searcher {
    nodes: Vec<Node>,
    /// The options of the nodes on the stack, flat: components in `parts`,
    /// option `i` ends at `ends[i]`.
    parts: Vec<PosId>,
    ends: Vec<usize>,
    moves: Moves,
    /// Scratch for ordering a node's options: (rank, group, start, end),
    /// and the parts in their new order.
    order: Vec<(u64, usize, usize, usize)>,
    sorted: Vec<PosId>,
    /// Whether the hint prefers each option listed now.
    aimed: Vec<Option<bool>>,
    /// Whether the tree has a hint (read at the start of a search).
    hinted: bool,
    /// The values positions were found not to have, this search.
    excluded: excluded::Excluded,
    /// Steps taken, all searches together (wrapping): the search says
    /// where it is ([`Tree::progress`]) at each multiple of
    /// `PROGRESS_EVERY`.
    steps: u32,
    /// The root's options done in the round under way (the value tried),
    /// of how many; and which round it is (wrapping), to tell a new one.
    root: (u32, u32),
    round: u32,
}

/// How often (in steps) a search says where it is.
const PROGRESS_EVERY: u32 = 1 << 12;

/// The levels it says: the root's options, and two below.
const REPORTED: usize = 3;

/// An option of the root not known yet: its components (the hardest
/// first), how many after the first are done, and their XOR.
struct Pending {
    comps: Vec<PosId>,
    done: usize,
    xor: u32,
    cost: u64,
}

/// The value of a sum whose components' values are all known (their XOR).
pub fn known_sum(parts: &[PosId], known: impl Fn(PosId) -> Option<u32>) -> Option<u32> {
    parts.iter().try_fold(0, |x, &c| known(c).map(|v| x ^ v))
}

/// [`known_sum`], also when its unknown components come in equal pairs
/// (`G + G = 0`): what a mirror strategy leaves. Used with a hint only;
/// without one such options are too rare to pay for the looking.
pub fn known_sum_paired(parts: &[PosId], known: impl Fn(PosId) -> Option<u32>) -> Option<u32> {
    let mut x = 0;
    for (i, &c) in parts.iter().enumerate() {
        match known(c) {
            Some(v) => x ^= v,
            None if stands(parts, i) => return None,
            None => {}
        }
    }
    Some(x)
}

/// Whether part `i` of the sum `parts` stands once its equal parts cancel
/// in pairs: the first of an odd number of equal parts (the others, and
/// the parts of an even number, are left out).
fn stands(parts: &[PosId], i: usize) -> bool {
    let c = parts[i];
    !parts[..i].contains(&c) && parts.iter().filter(|&&d| d == c).count() % 2 == 1
}

/// Whether the hint prefers the sum `parts`: `holds` says yes for each of
/// its components, bar pairs of equal ones (which cancel); `None` when
/// `holds` cannot tell for one and none says no.
pub fn aimed_sum(parts: &[PosId], mut holds: impl FnMut(PosId) -> Option<bool>) -> Option<bool> {
    let mut all = Some(true);
    for (i, &c) in parts.iter().enumerate() {
        if !stands(parts, i) {
            continue;
        }
        match holds(c) {
            Some(false) => return Some(false),
            None => all = None,
            Some(true) => {}
        }
    }
    all
}

/// Sorts `parts` and moves equal pairs out (`G + G = 0`): the sum is
/// `parts[..n]` for the `n` returned.
fn cancel_pairs(parts: &mut [PosId]) -> usize {
    parts.sort_unstable();
    let mut out = 0;
    let mut i = 0;
    while i < parts.len() {
        if i + 1 < parts.len() && parts[i] == parts[i + 1] {
            i += 2;
        } else {
            parts[out] = parts[i];
            out += 1;
            i += 1;
        }
    }
    out
}

/// Where an option goes in the order of trying: those the hint prefers
/// first, each group by its cost.
fn rank(aimed: bool, cost: u64) -> u64 {
    match aimed {
        true => cost,
        false => cost.saturating_add(1 << 62),
    }
}

/// Moves the hardest component of an option first; the option's cost, the
/// sum of its components' squared sizes (Beling's "smaller components
/// first").
fn hardest_first<T: Tree>(t: &T, comps: &mut [PosId]) -> u64 {
    let mut cost = 0;
    let mut hardest = (0, 0);
    for (i, &c) in comps.iter().enumerate() {
        let size = u64::from(t.size(c));
        cost += size * size;
        if size > hardest.1 {
            hardest = (i, size);
        }
    }
    comps.swap(0, hardest.0);
    cost
}

impl Searcher {
    /// The value of `root`, or `None` when the search went too deep (the
    /// caller's general search answers then). At the root, each candidate
    /// value in turn, smallest first, is tested against every option not
    /// yet known ("aspiration sets": each option is asked only whether it
    /// has that one value).
    pub fn nimber<T: Tree>(&mut self, t: &mut T, root: PosId) -> R<Option<u32>> {
        if let Some(v) = t.known(root) {
            return Ok(Some(v));
        }
        self.excluded.renew();
        self.hinted = t.hinted();
        let hinted = self.hinted;
        let mut moves = std::mem::take(&mut self.moves);
        let mut aims = std::mem::take(&mut self.aimed);
        aims.clear();
        let listed = t.options(root, &mut moves, &mut |_, aimed| {
            if hinted {
                aims.push(aimed);
            }
            true
        });
        self.aimed = aims;
        let mut options: Vec<Pending> = Vec::new();
        let mut taken = vec![false; moves.len() + 1];
        let result = listed.and_then(|_| {
            for (i, option) in moves.iter().enumerate() {
                match self.known_sum(t, option) {
                    Some(x) => {
                        if let Some(slot) = taken.get_mut(x as usize) {
                            *slot = true;
                        }
                    }
                    None => {
                        let mut comps = option.to_vec();
                        let (kept, cost) = self.ranked(t, i, moves.len(), &mut comps)?;
                        comps.truncate(kept);
                        options.push(Pending {
                            comps,
                            done: 0,
                            xor: 0,
                            cost,
                        });
                    }
                }
            }
            Ok(())
        });
        self.moves = moves;
        result?;
        options.sort_by_key(|o| o.cost);
        for r in 0..taken.len() as u32 {
            if taken[r as usize] {
                continue;
            }
            let mut i = 0;
            let mut hit = false;
            let round = options.len();
            self.round = self.round.wrapping_add(1);
            loop {
                // Answered options leave the list: those before `i` that
                // stay, and those gone, are done this round.
                self.root = ((round - options.len() + i) as u32, round as u32);
                let Some(o) = options.get_mut(i) else {
                    break;
                };
                // The components after the first, in full.
                while o.done + 1 < o.comps.len() {
                    let c = o.comps[o.comps.len() - 1 - o.done];
                    o.xor ^= self.full(t, c)?;
                    o.done += 1;
                }
                let want = r ^ o.xor;
                let found = match t.known(o.comps[0]) {
                    Some(v) => Verdict::Value(v),
                    // A first look only for an option of one part (see
                    // `step`).
                    None if want < Set::BITS => match self.in_set(
                        t,
                        o.comps[0],
                        1 << want,
                        if o.comps.len() == 1 {
                            Listing::Look
                        } else {
                            Listing::Lazy
                        },
                    )? {
                        Some(found) => found,
                        // Too many options for a candidate set.
                        None => Verdict::Value(t.value(o.comps[0])?),
                    },
                    None => Verdict::Value(self.full(t, o.comps[0])?),
                };
                match found {
                    Verdict::Value(v) => {
                        let v = v ^ o.xor;
                        options.remove(i);
                        if let Some(slot) = taken.get_mut(v as usize) {
                            *slot = true;
                        }
                        if v == r {
                            hit = true;
                            break;
                        }
                    }
                    Verdict::NotInSet => i += 1,
                }
            }
            if !hit {
                t.store(root, r)?;
                return Ok(Some(r));
            }
        }
        Err(Stop::Error(crate::diagnostics::Diag::bug(
            "the pruned search found no value",
        )))
    }

    /// The value of `pos` in full.
    fn full<T: Tree>(&mut self, t: &mut T, pos: PosId) -> R<u32> {
        if let Some(v) = t.known(pos) {
            return Ok(v);
        }
        match self.in_set(t, pos, ALL, Listing::Full)? {
            Some(Verdict::Value(v)) => Ok(v),
            _ => t.value(pos),
        }
    }

    /// Whether the value of `pos` is in `asked` (its value, or
    /// [`Verdict::NotInSet`]); `None` when `pos` has too many options for
    /// a candidate set.
    fn in_set<T: Tree>(
        &mut self,
        t: &mut T,
        pos: PosId,
        asked: Set,
        listing: Listing,
    ) -> R<Option<Verdict>> {
        self.nodes.clear();
        self.parts.clear();
        self.ends.clear();
        match self.enter_as(t, pos, asked, listing)? {
            Entered::Pushed => {}
            Entered::Answered(found) => return Ok(Some(found)),
            Entered::TooMany => return Ok(None),
        }
        loop {
            self.steps = self.steps.wrapping_add(1);
            if self.steps.is_multiple_of(PROGRESS_EVERY) {
                self.report(t);
            }
            let found = match self.step(t)? {
                Step::Pushed => continue,
                // The node is done: its options leave the stacks, and its
                // parent takes its answer.
                Step::Done(found) => match self.pop() {
                    Some(node) => {
                        if found == Verdict::NotInSet {
                            self.excluded.add(node.pos, node.asked);
                        }
                        found
                    }
                    None => return Ok(None),
                },
                Step::Answered(found) => found,
            };
            match self.nodes.last_mut() {
                Some(parent) => parent.take(found),
                None => return Ok(Some(found)),
            }
        }
    }

    /// Pushes a node for `pos` asked about `asked`, or answers at once:
    /// the options whose values are known are read as they are listed,
    /// and the listing stops when they take every value asked about
    /// (Beling's enhanced transposition cut-off). Asked about one value,
    /// a position with a preferred option is listed only up to it, and
    /// that option tried alone (a partial node), listed as `listing`
    /// says. A question already answered "not in the set" this search is
    /// answered so again at once.
    fn enter_as<T: Tree>(
        &mut self,
        t: &mut T,
        pos: PosId,
        asked: Set,
        listing: Listing,
    ) -> R<Entered> {
        if self.nodes.len() >= MAX_DEPTH {
            return Err(Stop::Aborted);
        }
        if asked & !self.excluded.of(pos) == 0 {
            return Ok(Entered::Answered(Verdict::NotInSet));
        }
        // One value asked (not the largest a set holds, which a partial
        // node keeps as its spare candidate).
        let hinted = self.hinted;
        let lazy = listing != Listing::Full
            && asked.count_ones() == 1
            && asked >> (Set::BITS - 1) == 0
            && hinted;
        let look = lazy && listing == Listing::Look;
        let mut aims = std::mem::take(&mut self.aimed);
        aims.clear();
        let mut moves = std::mem::take(&mut self.moves);
        // Not when the whole value is asked: a component after an option's
        // first must answer its value (see `Wait::Other`).
        let mut untaken = asked;
        let whole = asked == ALL;
        let mut met = false;
        let mut more = |known: Option<u32>, aimed| {
            if hinted {
                aims.push(aimed);
            }
            if let Some(x) = known.filter(|&x| x < Set::BITS) {
                untaken &= !(1 << x);
            }
            if lazy && known.is_none() && aimed == Some(true) {
                met = true;
                return false;
            }
            whole || untaken != 0
        };
        let listed = match look {
            true => t.look(pos, &mut moves, &mut more),
            false => t
                .options(pos, &mut moves, &mut more)
                .map(|all| (all, false)),
        };
        self.aimed = aims;
        // A first look that left options out and settled nothing: every
        // option (its buffers given back first).
        let result = match listed {
            Ok((true, true)) if !met => None,
            listed => Some(listed.and_then(|(all, _)| self.node(t, pos, asked, &moves, all, met))),
        };
        self.moves = moves;
        let result = match result {
            Some(result) => result,
            None => self.enter_as(t, pos, asked, Listing::Lazy),
        };
        if let Ok(Entered::Answered(Verdict::NotInSet)) = result {
            self.excluded.add(pos, asked);
        }
        result
    }

    /// The node for `pos` from its options as listed (`all`: whether
    /// the listing went to the end; `met`: whether it stopped at the
    /// option the hint prefers), or the answer without one.
    fn node<T: Tree>(
        &mut self,
        t: &mut T,
        pos: PosId,
        asked: Set,
        moves: &Moves,
        all: bool,
        met: bool,
    ) -> R<Entered> {
        if !all && !met {
            return Ok(Entered::Answered(Verdict::NotInSet));
        }
        let n = moves.len();
        if n > MAX_OPTIONS {
            return Ok(Entered::TooMany);
        }
        let first = self.ends.len();
        if met {
            // The preferred option alone: the value asked, and a
            // spare that is never asked (the largest of a set), as
            // candidates. Ruling the one asked out settles it.
            let at = self.parts.len();
            let option = moves.iter().last().unwrap_or_default();
            self.parts.extend_from_slice(option);
            let n = cancel_pairs(&mut self.parts[at..]);
            self.parts.truncate(at + n);
            if n == 0 {
                // Nothing left to ask (a tree that said neither its value,
                // 0, nor no): every option instead.
                return self.enter_as(t, pos, asked, Listing::Full);
            }
            hardest_first(t, &mut self.parts[at..]);
            self.ends.push(self.parts.len());
            self.nodes.push(Node {
                cand: asked | 1 << (Set::BITS - 1),
                partial: true,
                ..Node::new(pos, asked, first)
            });
            return Ok(Entered::Pushed);
        }
        // The candidates 0..=n (all of a set's for n = 127).
        let mut cand: Set = up_to_max(1 << n);
        // Options whose values are known rule theirs out at once; the
        // others are tried smallest first, the hardest part of each
        // first (it is the one asked only about candidates), the
        // preferred option before all.
        let mut order = std::mem::take(&mut self.order);
        order.clear();
        let base = self.parts.len();
        for (i, option) in moves.iter().enumerate() {
            match self.known_sum(t, option) {
                Some(x) => cand = rule_out(cand, x),
                None => {
                    let at = self.parts.len();
                    self.parts.extend_from_slice(option);
                    let mut own = std::mem::take(&mut self.parts);
                    let ranked = self.ranked(t, i, n, &mut own[at..]);
                    self.parts = own;
                    let (kept, cost) = ranked?;
                    self.parts.truncate(at + kept);
                    order.push((cost, order.len(), at, self.parts.len()));
                }
            }
        }
        // With a hint (symmetric positions, whose symmetric options share
        // a canonical form), equal one-part options right after the first
        // of them (see `step`), the order otherwise kept.
        let parts = &self.parts;
        for k in (0..order.len()).filter(|_| self.hinted) {
            let (_, _, at, end) = order[k];
            if end == at + 1 {
                let first = order[..k]
                    .iter()
                    .position(|&(_, _, a, e)| e == a + 1 && parts[a] == parts[at]);
                order[k].1 = first.unwrap_or(k);
            }
        }
        order.sort_by_key(|o| (o.0, o.1));
        let mut sorted = std::mem::take(&mut self.sorted);
        sorted.clear();
        for &(_, _, a, b) in &order {
            sorted.extend_from_slice(&self.parts[a..b]);
            self.ends.push(base + sorted.len());
        }
        self.parts.truncate(base);
        self.parts.extend_from_slice(&sorted);
        self.order = order;
        self.sorted = sorted;
        self.nodes.push(Node {
            cand,
            ..Node::new(pos, asked, first)
        });
        Ok(Entered::Pushed)
    }

    /// The value of the sum `option` when its components' are known (with
    /// a hint, also when the unknown ones cancel in pairs).
    fn known_sum<T: Tree>(&self, t: &T, option: &[PosId]) -> Option<u32> {
        match self.hinted {
            true => known_sum_paired(option, |c| t.known(c)),
            false => known_sum(option, |c| t.known(c)),
        }
    }

    /// Option `i` of the `n` the last listing gave, its components in
    /// `parts`, made ready to be tried: with a hint, equal parts cancelled
    /// (the sum is `parts[..kept]`), the hardest part first; and its rank
    /// in the order of trying. Whether the hint prefers it is as the
    /// listing said (its answers are its last `n`: a tree may start a
    /// listing again, after a compiled one gave up), else as
    /// [`Tree::aimed`] says.
    fn ranked<T: Tree>(
        &self,
        t: &mut T,
        i: usize,
        n: usize,
        parts: &mut [PosId],
    ) -> R<(usize, u64)> {
        if !self.hinted {
            return Ok((parts.len(), rank(false, hardest_first(t, parts))));
        }
        let kept = cancel_pairs(parts);
        let parts = &mut parts[..kept];
        let aims = &self.aimed[self.aimed.len().saturating_sub(n)..];
        let aimed = match aims.get(i) {
            Some(&Some(aimed)) => aimed,
            Some(None) => t.aimed(parts)?,
            None => false,
        };
        Ok((kept, rank(aimed, hardest_first(t, parts))))
    }

    /// Says where the search is: the root's options done this round, and
    /// of the nodes under way below it, their options done ([`REPORTED`]
    /// levels in all).
    #[cold]
    #[inline(never)]
    fn report<T: Tree>(&self, t: &mut T) {
        let mut levels = [(0, 0); REPORTED];
        levels[0] = self.root;
        let mut n = 1;
        for (k, node) in self.nodes.iter().enumerate().take(levels.len() - 1) {
            let end = self.nodes.get(k + 1).map_or(self.ends.len(), |c| c.first);
            levels[n] = (
                node.next.saturating_sub(node.first) as u32,
                end.saturating_sub(node.first) as u32,
            );
            n += 1;
        }
        t.progress(self.round, &levels[..n]);
    }

    /// Takes the top node and its options off the stacks.
    fn pop(&mut self) -> Option<Node> {
        let node = self.nodes.pop()?;
        let start = match node.first {
            0 => 0,
            i => self.ends[i - 1],
        };
        self.ends.truncate(node.first);
        self.parts.truncate(start);
        Some(node)
    }

    /// Advances the top node: pushes a child, or finishes it.
    fn step<T: Tree>(&mut self, t: &mut T) -> R<Step> {
        loop {
            let Some(node) = self.nodes.last_mut() else {
                return Ok(Step::Done(Verdict::NotInSet));
            };
            if node.next == self.ends.len() && node.partial {
                if node.cand & node.asked == 0 {
                    return Ok(Step::Done(Verdict::NotInSet));
                }
                // The preferred option did not settle it: every option.
                let (pos, asked) = (node.pos, node.asked);
                self.pop();
                return Ok(match self.enter_as(t, pos, asked, Listing::Full)? {
                    Entered::Pushed => Step::Pushed,
                    Entered::Answered(found) => Step::Answered(found),
                    Entered::TooMany => Step::Answered(Verdict::Value(t.value(pos)?)),
                });
            }
            if node.next == self.ends.len() {
                let sure = node.exact || node.cand & up_to_max(node.asked) != 0;
                return Ok(Step::Done(if sure && node.cand != 0 {
                    let v = node.cand.trailing_zeros();
                    t.store(node.pos, v)?;
                    Verdict::Value(v)
                } else {
                    Verdict::NotInSet
                }));
            }
            if node.cand & node.asked == 0 {
                return Ok(Step::Done(Verdict::NotInSet));
            }
            let start = match node.next {
                0 => 0,
                i => self.ends[i - 1],
            };
            let option = &self.parts[start..self.ends[node.next]];
            // The components after the first, from the last, in full; then
            // the first, asked only whether its value, XOR the others', is
            // one of the candidates still in question (bar the largest).
            let (c, wait, asked) = if node.done + 1 < option.len() {
                (option[option.len() - 1 - node.done], Wait::Other, ALL)
            } else {
                let asked = without_largest(node.cand) & up_to_max(node.asked);
                let shifted = xor_each(asked, node.xor);
                // A candidate whose XOR no set can hold (128 or more): the
                // first component is asked for its whole value instead, or
                // its "not in the set" would hide that candidate.
                let asked = if shifted.count_ones() == asked.count_ones() {
                    shifted
                } else {
                    ALL
                };
                (option[0], Wait::First, asked)
            };
            node.wait = wait;
            node.asking = (wait == Wait::First && option.len() == 1).then_some(c);
            if let Some(v) = t.known(c) {
                node.take(Verdict::Value(v));
                continue;
            }
            // The same one-part option as the one before (symmetric moves
            // lead to one canonical form, and equal options are next to
            // each other): its answer holds again, for the question now
            // asked is no wider (the candidates only shrink).
            if let (Some(p), Some((q, found))) = (node.asking, node.last)
                && p == q
            {
                node.take(found);
                continue;
            }
            // A first look only at an option of one part: a part of a
            // sum is rarely answered by an option the hint prefers alone.
            let listing = match node.asking {
                Some(_) => Listing::Look,
                None => Listing::Lazy,
            };
            let found = match self.enter_as(t, c, asked, listing)? {
                Entered::Pushed => return Ok(Step::Pushed),
                Entered::Answered(found) => found,
                // Too many options for a candidate set: the general search.
                Entered::TooMany => Verdict::Value(t.value(c)?),
            };
            if let Some(node) = self.nodes.last_mut() {
                node.take(found);
            }
        }
    }
}

/// How [`Searcher::enter_as`] lists a position's options.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Listing {
    /// Asked one value: up to the first option the hint prefers whose
    /// value is not known, on a first look ([`Tree::look`]) that names
    /// only the options it may prefer.
    Look,
    /// The same, naming every option on the way.
    Lazy,
    /// Every option.
    Full,
}

/// What [`Searcher::enter_as`] did with a position.
enum Entered {
    /// A node for it is on the stack.
    Pushed,
    /// Its options answered the question as they were listed.
    Answered(Verdict),
    /// It has too many options for a candidate set.
    TooMany,
}

/// What [`Searcher::step`] did: pushed a node, finished the top node, or
/// took the top node off and answered for it (a partial node that was
/// entered again in full and answered at once).
enum Step {
    Pushed,
    Done(Verdict),
    Answered(Verdict),
}

impl Node {
    /// A node for `pos` asked about `asked`, its options from `first` on,
    /// before any is tried (candidates to be set).
    fn new(pos: PosId, asked: Set, first: usize) -> Node {
        Node {
            pos,
            asked,
            cand: 0,
            exact: true,
            partial: false,
            asking: None,
            last: None,
            first,
            next: first,
            done: 0,
            xor: 0,
            wait: Wait::Other,
        }
    }

    /// The answer of the child this node waited for.
    fn take(&mut self, found: Verdict) {
        if let Some(c) = self.asking.take() {
            self.last = Some((c, found));
        }
        match (self.wait, found) {
            (Wait::Other, Verdict::Value(v)) => {
                self.xor ^= v;
                self.done += 1;
                return;
            }
            (Wait::First, Verdict::Value(v)) => self.cand = rule_out(self.cand, v ^ self.xor),
            // Not in the set asked: the largest candidate goes, and the
            // answer is exact only up to the largest value asked about.
            (_, Verdict::NotInSet) => {
                self.cand = without_largest(self.cand);
                self.exact = false;
            }
        }
        self.next += 1;
        self.done = 0;
        self.xor = 0;
    }
}

mod excluded;
#[cfg(test)]
mod tests;
