//! Misère play (the player who makes the last move loses): the genus of
//! sums, whose states are multisets of component positions, by search or,
//! when every component is tame, from the components' genera alone.
//!
//! A state is the sorted list of its components, without components that
//! have no move (they add nothing). Its misère value is γ0 of its genus: the
//! mex of its options' values, and 1 for a state with no move at all; 0
//! means the player to move loses. A sum whose components are all tame
//! (with every position below them) adds like misère Nim (Conway); any
//! other state's genus comes from its options' (`genus`). The search is
//! iterative, memoized per state, and bounded by the state limit.
//!
//! Outcomes, values and winning moves are asked of `plan`, which tries
//! misère play's ways (huge Nim heaps, the quotient, a loopy game's graph,
//! the genus) in the one order it writes down.

use crate::diagnostics::{Code, Diag};
use crate::flow::{Limit, R, Stop};
use crate::oracle::GameId;
use crate::oracle::{Moves, Oracle};
use crate::solve::genus::Genus;
use crate::store::PosId;
use crate::value::Value;
use crate::value::{Gsg, Outcome};
use rustc_hash::{FxHashMap, FxHashSet};

mod loopy;
mod period;
mod plan;
pub mod quotient;

pub use plan::Winning;
use plan::{Question, Reply};

/// A sum as a canonical state: sorted components, none terminal.
pub type State = Box<[PosId]>;

/// What the search knows of a state: its genus (an index into the
/// distinct genera) and whether it and every state below it have tame
/// genera (then it adds to others like a Nim heap).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
struct Known {
    genus: u32,
    tame: bool,
}

/// How a sum's misère answer was found.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Way {
    /// Every component is Nim by its rule.
    Nim,
    /// Every component is tame: from their genera, as misère Nim.
    Tame,
    /// One position: from its options' genera.
    Options,
    /// By search over the sums below it.
    Search,
    /// A loopy game's: by labelling the graph of the sums it reaches.
    Graph,
    /// Heaps of one game: from its misère quotient.
    Quotient,
}

impl Way {
    /// In words, for answers.
    pub fn words(self) -> &'static str {
        match self {
            Way::Nim => "misère Nim",
            Way::Tame => "from its tame components' genera",
            Way::Options => "from its options' genera",
            Way::Search => "searched sum by sum",
            Way::Graph => "labelled over the graph of the sums it reaches",
            Way::Quotient => "from its game's misère quotient",
        }
    }
}

/// The misère search: genera of states and facts about components.
#[derive(Default)]
pub struct Misere {
    /// States of one component, by it.
    single: FxHashMap<PosId, Known>,
    /// States of no component or of two or more.
    sums: FxHashMap<State, Known>,
    /// Each distinct genus once.
    genera: Vec<Genus>,
    /// Each genus's index, by its words (`Genus::words`).
    ids: FxHashMap<Box<[u32]>, u32>,
    /// Scratch space for `direct`.
    scratch: (Vec<Known>, Vec<u32>, Vec<u32>),
    /// Components with no move.
    terminal: FxHashMap<PosId, bool>,
    /// Per one-parameter game, its ascending run so far.
    ascents: FxHashMap<GameId, period::Ascent>,
    /// Per one-parameter game, the proven period of its genera.
    periods: FxHashMap<GameId, period::GenusPeriod>,
    /// Per one-parameter game, its misère quotient so far.
    quotients: FxHashMap<GameId, quotient::Heaps>,
    /// Games whose sums the quotient does not answer.
    no_quotient: Vec<GameId>,
    /// Components with a large argument and few enough options to list
    /// (a board's mask, not a heap's size); and per game, whether it has
    /// a heap's shape (`Oracle::heap_shaped`, read once).
    large: (FxHashSet<PosId>, FxHashMap<GameId, bool>),
}

/// A state being searched: its options (first, for a sum, its components
/// alone), and which of them are known.
struct SumFrame {
    state: State,
    options: Vec<State>,
    next: usize,
    /// Whether `options` are the state's moves (not yet its components).
    expanded: bool,
}

/// Below this heap, a one-parameter component is searched from itself;
/// from it, the heaps below are settled in ascending order first (so the
/// search never goes that deep).
const ASCEND_FROM: i64 = 1024;

impl Misere {
    fn is_terminal(&mut self, m: &mut dyn Oracle, c: PosId) -> R<bool> {
        if let Some(&t) = self.terminal.get(&c) {
            return Ok(t);
        }
        if let Some(h) = m.nim_heap(c) {
            return Ok(h == 0);
        }
        if let Some(t) = self.terminal_by_period(m, c)? {
            return Ok(t);
        }
        self.too_big(m, c)?;
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

    /// The moves of a state, each once, with the component that moved,
    /// what it became and the state left. Two moves are one only when they
    /// move the same component to the same parts: moves that leave the
    /// same state once components with no move are dropped are still
    /// different moves (`4 → 2` and `4 → 1 + 1` when heaps 1 and 2 are
    /// dead), and each winning one is listed.
    pub fn options(&mut self, m: &mut dyn Oracle, s: &State) -> R<Vec<(PosId, Vec<PosId>, State)>> {
        let mut out = Vec::new();
        let mut seen = FxHashSet::default();
        let mut moves = Moves::exact();
        let mut parts = Vec::new();
        for (i, &c) in s.iter().enumerate() {
            if i > 0 && s[i - 1] == c {
                continue;
            }
            if self.periodic(m, c).is_none() {
                self.too_big(m, c)?;
            }
            m.options_into(c, &mut moves)?;
            for opt in moves.iter() {
                m.poll()?;
                parts.clear();
                parts.extend(s[..i].iter().chain(&s[i + 1..]).chain(opt));
                let mut to = opt.to_vec();
                to.sort_unstable();
                if seen.insert((c, to)) {
                    let next = self.state(m, &parts)?;
                    out.push((c, opt.to_vec(), next));
                }
            }
        }
        Ok(out)
    }

    /// The distinct options of a state.
    fn option_states(&mut self, m: &mut dyn Oracle, s: &State) -> R<Vec<State>> {
        let mut out = Vec::new();
        let mut moves = Moves::exact();
        let mut parts = Vec::new();
        for (i, &c) in s.iter().enumerate() {
            if i > 0 && s[i - 1] == c {
                continue;
            }
            if self.periodic(m, c).is_none() {
                self.too_big(m, c)?;
            }
            m.options_into(c, &mut moves)?;
            for opt in moves.iter() {
                m.poll()?;
                parts.clear();
                parts.extend(s[..i].iter().chain(&s[i + 1..]).chain(opt));
                out.push(self.state(m, &parts)?);
            }
        }
        out.sort_unstable();
        out.dedup();
        Ok(out)
    }

    /// The misère value of the sum of `parts` played as one game (0: the
    /// player to move loses).
    pub fn value_of(&mut self, m: &mut dyn Oracle, parts: &[PosId]) -> R<u32> {
        let s = self.state(m, parts)?;
        self.value(m, s)
    }

    /// The misère value of a sum played as one game: γ0 of its genus.
    pub fn value(&mut self, m: &mut dyn Oracle, s: State) -> R<u32> {
        let k = self.known(m, s)?;
        Ok(self.genera[k.genus as usize].misere())
    }

    /// The misère outcome of a sum, and how it was found.
    pub fn outcome_of(&mut self, m: &mut dyn Oracle, parts: &[PosId]) -> R<(Outcome, Way)> {
        match self.ask(m, parts, Question::Outcome)? {
            Reply::Outcome(outcome, way) => Ok((outcome, way)),
            _ => Err(Diag::bug("a misère outcome answered as something else").into()),
        }
    }

    /// The misère value of a sum, and how it was found: of a loopy game's
    /// positions, ∞ where play may go on forever.
    pub fn gsg_of(&mut self, m: &mut dyn Oracle, parts: &[PosId]) -> R<(Gsg, Way)> {
        match self.ask(m, parts, Question::Value)? {
            Reply::Value(value, way) => Ok((value, way)),
            _ => Err(Diag::bug("a misère value answered as something else").into()),
        }
    }

    /// The moves of a sum in misère play that leave the opponent lost,
    /// each with the component that moved and what it became; how many
    /// options the sum has; and its outcome.
    pub fn winning(&mut self, m: &mut dyn Oracle, parts: &[PosId]) -> R<Winning> {
        match self.ask(m, parts, Question::Winning)? {
            Reply::Winning(w) => Ok(w),
            _ => Err(Diag::bug("misère winning moves answered as something else").into()),
        }
    }

    /// The winning moves of a sum of tame components with a Nim heap (by
    /// its rule) too large to list the moves of, and how many moves the sum
    /// has; `None` for any other sum. A heap h of Nim can only win by
    /// moving to t = g or g ⊕ 1 (g the other components' grundy values
    /// XORed): the sum left is P when its misère value, by the tame rule,
    /// is 0, which asks for the XOR to be 0 (firm) or 1 (fickle).
    #[allow(clippy::type_complexity)]
    fn huge_nim_winning(
        &mut self,
        m: &mut dyn Oracle,
        s: &State,
    ) -> R<Option<(Vec<(PosId, Vec<PosId>)>, usize)>> {
        let huge = |m: &dyn Oracle, c: PosId| m.nim_heap(c).filter(|&h| i64::from(h) > MAX_ARG);
        if Misere::has_loopy(m, s) || !s.iter().any(|&c| huge(m, c).is_some()) {
            return Ok(None);
        }
        let mut g = Vec::with_capacity(s.len());
        for &c in s.iter() {
            let k = self.known(m, Box::new([c]))?;
            if !k.tame {
                return Ok(None);
            }
            g.push(self.genera[k.genus as usize].g);
        }
        let mut out = Vec::new();
        let mut count = 0usize;
        let mut moves = Moves::exact();
        let mut seen = FxHashSet::default();
        for (i, &c) in s.iter().enumerate() {
            if i > 0 && s[i - 1] == c {
                continue;
            }
            let rest: Vec<PosId> = s[..i].iter().chain(&s[i + 1..]).copied().collect();
            let wins = |this: &mut Misere, m: &mut dyn Oracle, to: &[PosId]| -> R<bool> {
                let next: Vec<PosId> = rest.iter().chain(to).copied().collect();
                let next = this.state(m, &next)?;
                Ok(!this.next_wins(m, &next)?)
            };
            if let Some(h) = huge(m, c) {
                count += h as usize;
                let others = g
                    .iter()
                    .enumerate()
                    .filter(|(j, _)| *j != i)
                    .fold(0, |x, (_, v)| x ^ v);
                let (game, _) = m.position(c);
                let mut targets = vec![others, others ^ 1];
                targets.dedup();
                for t in targets.into_iter().filter(|&t| t < h) {
                    let to = m.intern(
                        game,
                        &[Value::Int(i64::from(t))],
                        crate::span::Span::default(),
                    )?;
                    if wins(self, m, &[to])? {
                        out.push((c, vec![to]));
                    }
                }
            } else {
                if self.periodic(m, c).is_none() {
                    self.too_big(m, c)?;
                }
                m.options_into(c, &mut moves)?;
                let options: Vec<Vec<PosId>> = moves.iter().map(<[PosId]>::to_vec).collect();
                for to in options {
                    m.poll()?;
                    // Each move once, as `options` lists them (a huge
                    // heap's moves all differ: it shrinks).
                    let mut key = to.clone();
                    key.sort_unstable();
                    if !seen.insert((c, key)) {
                        continue;
                    }
                    count += 1;
                    if wins(self, m, &to)? {
                        out.push((c, to));
                    }
                }
            }
        }
        Ok(Some((out, count)))
    }

    /// Whether the player to move wins the sum in misère play.
    pub fn next_wins(&mut self, m: &mut dyn Oracle, s: &State) -> R<bool> {
        Ok(self.value(m, s.clone())? != 0)
    }

    /// The genus of the sum of `parts`, whether it is tame (with every
    /// position below it), and how it was found.
    pub fn genus_of(&mut self, m: &mut dyn Oracle, parts: &[PosId]) -> R<(Genus, bool, Way)> {
        let s = self.state(m, parts)?;
        let k = self.known(m, s.clone())?;
        let found = self.found(m, &s)?;
        Ok((self.genera[k.genus as usize].clone(), k.tame, found))
    }

    /// How the answer for a state is found (once it is known).
    pub fn found(&mut self, m: &mut dyn Oracle, s: &State) -> R<Way> {
        if s.iter().all(|&c| m.nim_heap(c).is_some()) {
            return Ok(Way::Nim);
        }
        if s.len() < 2 {
            return Ok(Way::Options);
        }
        for &c in s.iter() {
            if !self.known(m, Box::new([c]))?.tame {
                return Ok(Way::Search);
            }
        }
        Ok(Way::Tame)
    }

    fn get(&self, s: &[PosId]) -> Option<Known> {
        match s {
            [c] => self.single.get(c).copied(),
            _ => self.sums.get(s).copied(),
        }
    }

    fn put(&mut self, s: State, k: Known) {
        match &s[..] {
            [c] => self.single.insert(*c, k),
            _ => self.sums.insert(s, k),
        };
    }

    fn id(&mut self, g: Genus) -> u32 {
        let words: Vec<u32> = g.words().collect();
        self.id_of_words(&words)
    }

    /// The index of the genus of these words.
    fn id_of_words(&mut self, words: &[u32]) -> u32 {
        if let Some(&i) = self.ids.get(words) {
            return i;
        }
        let i = self.genera.len() as u32;
        self.genera.push(Genus::from_words(words));
        self.ids.insert(words.into(), i);
        i
    }

    /// What is known of a state, searched if it is not yet: a sum whose
    /// components are all tame from their genera, any other from the
    /// genera of its options.
    fn known(&mut self, m: &mut dyn Oracle, root: State) -> R<Known> {
        if let Some(k) = self.get(&root) {
            return Ok(k);
        }
        self.ascend(m, &root)?;
        self.search(m, root, &mut Vec::new(), &mut FxHashSet::default())
    }

    /// Settles one component at once when each of its options is nothing
    /// or one known component (a heap whose smaller heaps are known);
    /// whether it did.
    fn direct(&mut self, m: &mut dyn Oracle, p: PosId, moves: &mut Moves) -> R<bool> {
        m.options_into(p, moves)?;
        if moves.is_empty() {
            self.terminal.insert(p, true);
            return Ok(true);
        }
        self.terminal.insert(p, false);
        let (mut ids, mut set, mut words) = std::mem::take(&mut self.scratch);
        ids.clear();
        let mut all = true;
        for opt in moves.iter() {
            m.poll()?;
            let mut live = None;
            for &c in opt {
                if !self.is_terminal(m, c)? {
                    all &= live.is_none();
                    live = Some(c);
                }
            }
            let k = match live {
                None => self.settle(m, &State::default())?,
                Some(c) => self.get(&[c]),
            };
            match k {
                Some(k) if all => ids.push(k),
                _ => {
                    all = false;
                    break;
                }
            }
        }
        if all {
            ids.sort_unstable_by_key(|k| (k.genus, k.tame));
            ids.dedup_by_key(|k| (k.genus, k.tame));
            let genera = &self.genera;
            Genus::write_of_options(
                ids.iter().map(|k| &genera[k.genus as usize]),
                &mut set,
                &mut words,
            );
            let genus = self.id_of_words(&words);
            let tame = self.genera[genus as usize].is_tame() && ids.iter().all(|k| k.tame);
            self.single.insert(p, Known { genus, tame });
        }
        self.scratch = (ids, set, words);
        Ok(all)
    }

    fn search(
        &mut self,
        m: &mut dyn Oracle,
        root: State,
        stack: &mut Vec<SumFrame>,
        on_stack: &mut FxHashSet<State>,
    ) -> R<Known> {
        stack.clear();
        on_stack.clear();
        let result = (|| -> R<Known> {
            if let Some(k) = self.settle(m, &root)? {
                return Ok(k);
            }
            self.push(m, stack, on_stack, root.clone())?;
            while let Some(f) = stack.last_mut() {
                if let Some(o) = f.options.get(f.next) {
                    if self.get(o).is_some() {
                        f.next += 1;
                        continue;
                    }
                    let o = o.clone();
                    if on_stack.contains(&o) {
                        return Err(cycle(m, &o));
                    }
                    if self.settle(m, &o)?.is_none() {
                        self.push(m, stack, on_stack, o)?;
                    }
                    continue;
                }
                let k = if f.expanded {
                    let mut tame = true;
                    let mut of = Vec::with_capacity(f.options.len());
                    for o in &f.options {
                        let k = self
                            .get(o)
                            .ok_or_else(|| Diag::bug("an option not known"))?;
                        tame &= k.tame;
                        of.push(&self.genera[k.genus as usize]);
                    }
                    let g = Genus::of_options(&of);
                    tame &= g.is_tame();
                    Known {
                        genus: self.id(g),
                        tame,
                    }
                } else {
                    let parts = f
                        .state
                        .iter()
                        .map(|&c| self.get(&[c]))
                        .collect::<Option<Vec<Known>>>()
                        .ok_or_else(|| Diag::bug("a component not known"))?;
                    if parts.iter().all(|k| k.tame) {
                        let g =
                            Genus::tame_sum(parts.iter().map(|k| &self.genera[k.genus as usize]));
                        Known {
                            genus: self.id(g),
                            tame: true,
                        }
                    } else {
                        let state = f.state.clone();
                        let options = self.option_states(m, &state)?;
                        let f = stack.last_mut().ok_or_else(|| Diag::bug("no frame"))?;
                        f.options = options;
                        f.expanded = true;
                        f.next = 0;
                        continue;
                    }
                };
                let done = stack.pop().map(|f| f.state);
                if let Some(s) = done {
                    on_stack.remove(&s);
                    if stack.is_empty() {
                        self.put(s, k);
                        return Ok(k);
                    }
                    self.put(s, k);
                }
            }
            Err(Diag::bug("the misère search ended without a value").into())
        })();
        stack.clear();
        on_stack.clear();
        result
    }

    /// Settles a state without a search when it can: no component, or one
    /// Nim heap by its rule.
    fn settle(&mut self, m: &mut dyn Oracle, s: &State) -> R<Option<Known>> {
        let g = match &s[..] {
            [] => Genus::terminal(),
            [c] => match m.nim_heap(*c) {
                Some(h) => Genus::nim(h),
                None => {
                    let k = self.periodic(m, *c);
                    if let Some(k) = k {
                        self.put(s.clone(), k);
                    }
                    return Ok(k);
                }
            },
            _ => return Ok(None),
        };
        let k = Known {
            genus: self.id(g),
            tame: true,
        };
        self.put(s.clone(), k);
        Ok(Some(k))
    }

    /// Puts a state on the search stack: a sum first asks for its
    /// components alone, a single component for its options.
    fn push(
        &mut self,
        m: &mut dyn Oracle,
        stack: &mut Vec<SumFrame>,
        on_stack: &mut FxHashSet<State>,
        s: State,
    ) -> R<()> {
        if self.single.len() + self.sums.len() >= m.max_states() {
            return Err(Limit::States
                .stop(format!(
                    "the misère search reached {} sums of positions",
                    m.max_states()
                ))
                .help("misère play is searched exactly, sum by sum: ask about smaller sums, or raise `--max-states N`"));
        }
        let (options, expanded) = if s.len() >= 2 {
            let mut singles: Vec<State> = s.iter().map(|&c| Box::new([c]) as State).collect();
            singles.dedup();
            (singles, false)
        } else {
            (self.option_states(m, &s)?, true)
        };
        on_stack.insert(s.clone());
        stack.push(SumFrame {
            state: s,
            options,
            next: 0,
            expanded,
        });
        Ok(())
    }
}

/// The error of a state reached from itself.
fn cycle(m: &dyn Oracle, s: &State) -> Stop {
    let loopy = Misere::has_loopy(m, s);
    let what = match &s[..] {
        [c] => format!("{} can be reached from itself", m.show_pos(*c)),
        _ => "a sum can be reached from itself".to_string(),
    };
    Stop::cycle(format!("the game graph has a cycle: {what}")).help(if loopy {
        "a genus needs every play to end; `outcome(P, misere)`, `winning(P, misere)` and `misere_grundy(P)` answer a loopy game's misère play"
    } else {
        "misère play needs every play to end: make each move decrease something"
    })
}

/// Largest integer argument of a position whose options are listed one by
/// one here with no look first: every heap below it may be a state of the
/// search.
const MAX_ARG: i64 = 1 << 20;

/// The most options a position with a larger argument may have to be
/// searched (a board's mask is large, its options few).
const MAX_LISTED: usize = 1 << 16;

impl Misere {
    /// Refuses positions with so many options (and sums below them) that
    /// listing them cannot end in reasonable time: a heap past `MAX_ARG`
    /// of a game with a heap's shape, or any position past it with more
    /// than `MAX_LISTED` options.
    fn too_big(&mut self, m: &mut dyn Oracle, c: PosId) -> R<()> {
        let (game, args) = m.position(c);
        let big = args
            .iter()
            .any(|a| matches!(a, crate::value::Value::Int(n) if n.unsigned_abs() > MAX_ARG as u64));
        if !big || self.large.0.contains(&c) {
            return Ok(());
        }
        let shaped = *self
            .large
            .1
            .entry(game)
            .or_insert_with(|| m.heap_shaped(game));
        if !shaped && m.options_at_most(c, MAX_LISTED)? {
            self.large.0.insert(c);
            return Ok(());
        }
        Err(too_large(m, c))
    }
}

/// The error for a position too large to search here.
fn too_large(m: &dyn Oracle, c: PosId) -> Stop {
    Diag::user(
        Code::TooLarge,
        format!(
            "{} is too large to search position by position",
            m.show_pos(c)
        ),
    )
    .help("misère play and graphs list every position reachable: ask about small positions")
    .into()
}
