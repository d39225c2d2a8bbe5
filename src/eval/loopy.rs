//! Loopy games inside the engine. A position of a `loopy game` is solved
//! over the graph of the positions it reaches (`crate::solve::loopy`): options
//! that are single positions of loopy games are vertices; the rest (the
//! end of the game, positions of other games, sums) are solved first, on
//! their own, and enter with their value. Every value found is stored:
//! finite ones as values, ∞ ones as a tag into the table of their sets K.

use super::*;
use crate::solve::loopy::{Graph, TooLarge};
use crate::store::{INFINITE_LATER, MAX_SOLVING, infinite_index, solving, solving_index};
use crate::value::Gsg;
use rustc_hash::FxHashMap;

/// Loopy solves one inside another (each a few frames of the Rust stack).
pub(super) const MAX_NESTED: u32 = 256;

/// A vertex that stands for a value known already (the end of the game, a
/// solved position, a sum), not a position: `KNOWN | index` among the
/// solve's vertices (no position id has both top bits).
const KNOWN: u64 = 3 << 62;

/// How a solve lists a position's options: named as stored, as every
/// search that computes values names them (a part in canonical form is
/// solved once however many positions hold it).
const SOLVED: ListSpec = ListSpec {
    names: super::rename::Names::STORED,
    look: false,
    whole: false,
};

impl Machine {
    /// The generalized Sprague–Grundy value of one position: finite, or ∞
    /// with the finite values of its options.
    pub fn gsg(&mut self, pos: PosId) -> R<Gsg> {
        self.scoped(Scope::default()).gsg_in(pos)
    }

    /// The generalized value of a sum (Smith's theorem).
    pub fn gsg_sum(&mut self, parts: &[PosId]) -> R<Gsg> {
        super::parallel::solve_boards(self, parts)?;
        self.scoped(Scope::default()).gsg_sum_in(parts)
    }
}

/// Who wins each position a loopy game's position reaches played alone,
/// and how soon ([`crate::solve::loopy::remoteness`]).
pub type Remoteness = FxHashMap<PosId, Option<(bool, u32)>>;

impl Scoped<'_> {
    /// Smith's remoteness of the positions `root` reaches, when it is a
    /// loopy game's position and every move on the way leads to one
    /// position of a loopy game or to nothing (a token on a graph); `None`
    /// otherwise (sums have no remoteness here).
    ///
    /// Kept for the positions met (each solve covers every position its
    /// root reaches), so following winning moves solves once.
    pub fn remoteness(&mut self, root: PosId) -> R<Option<&Remoteness>> {
        if !self.is_loopy(root) {
            return Ok(None);
        }
        if !self.m.caches.remote.contains_key(&root) && !self.solve_remoteness(root)? {
            return Ok(None);
        }
        Ok(Some(&self.m.caches.remote))
    }

    /// Solves the remoteness of what `root` reaches into the kept map;
    /// false where there is none (a move to a sum).
    fn solve_remoteness(&mut self, root: PosId) -> R<bool> {
        let mut index: FxHashMap<PosId, u32> = FxHashMap::default();
        index.insert(root, 0);
        let mut order = vec![root];
        let mut options: Vec<Vec<u32>> = Vec::new();
        // The end of the game, a vertex with no move, once some move leads
        // to nothing.
        let mut end = None;
        let mut moves = Moves::exact();
        while let Some(&p) = order.get(options.len()) {
            self.m.poll()?;
            self.m.options_into(p, &mut moves)?;
            let mut opts = Vec::with_capacity(moves.len());
            for option in moves.iter() {
                let v = match option {
                    [] => *end.get_or_insert(u32::MAX),
                    [c] if self.is_loopy(*c) => {
                        let next = order.len() as u32;
                        *index.entry(*c).or_insert_with(|| {
                            order.push(*c);
                            next
                        })
                    }
                    _ => return Ok(false),
                };
                opts.push(v);
            }
            options.push(opts);
        }
        let mut graph = Graph::default();
        let end_vertex = order.len() as u32;
        for opts in &options {
            let opts = opts
                .iter()
                .map(|&v| if v == u32::MAX { end_vertex } else { v });
            graph.add(opts).map_err(|_| too_large_graph())?;
        }
        if end.is_some() {
            graph.add([]).map_err(|_| too_large_graph())?;
        }
        let budget = &mut self.m.budget;
        let r = crate::solve::loopy::remoteness(&graph, &mut |w| budget.spend(w))?;
        // Straight into the kept map (no second map of the whole graph).
        drop(index);
        self.m.caches.remote.extend(order.into_iter().zip(r));
        Ok(true)
    }

    /// Whether `pos` is a position of a loopy game.
    pub(super) fn is_loopy(&self, pos: PosId) -> bool {
        self.m
            .prog
            .games
            .get(self.m.game_of(pos).index())
            .is_some_and(|g| g.loopy)
    }

    /// The value of a loopy game's position (the loopy strategy), which
    /// must be finite here: an ∞ value is an error.
    pub(super) fn by_loopy(&mut self, pos: PosId) -> R<u32> {
        match self.gsg_in(pos)? {
            value @ Gsg::Infinite(_) => Err(self.not_finite(pos, &value).into()),
            Gsg::Finite(v) => Ok(v),
        }
    }

    /// The stored value of `pos` as a generalized value, if it is known.
    pub(super) fn stored_gsg(&self, pos: PosId) -> Option<Gsg> {
        match self.m.store.value(pos) {
            v if v <= MAX_VALUE => Some(Gsg::Finite(v)),
            v => self
                .m
                .store
                .infinite_set(v)
                .map(|k| Gsg::Infinite(k.clone())),
        }
    }

    /// [`Machine::gsg`] inside `scope`.
    pub(super) fn gsg_in(&mut self, pos: PosId) -> R<Gsg> {
        if let Some(g) = self.stored_gsg(pos) {
            return Ok(g);
        }
        match self.m.store.value(pos) {
            UNKNOWN if self.is_loopy(pos) => {
                if self.scope.loopy_nesting >= MAX_NESTED {
                    return Err(Limit::Depth
                        .stop(format!(
                            "{} needs loopy games solved one inside another more than {MAX_NESTED} deep",
                            self.m.show().pos(pos)
                        ))
                        .help("each move into a sum of loopy positions solves those on their own first; ask about smaller positions"));
                }
                let inner = Scope {
                    loopy_nesting: self.scope.loopy_nesting + 1,
                    ..self.scope
                };
                self.m.scoped(inner).solve_loopy(pos)?;
                match self.m.store.value(pos) {
                    INFINITE_LATER => self.late_set(pos),
                    _ => self
                        .stored_gsg(pos)
                        .ok_or_else(|| Diag::bug("a loopy position left unsolved").into()),
                }
            }
            UNKNOWN => self.search(pos).map(Gsg::Finite),
            INFINITE_LATER => self.late_set(pos),
            _ => Err(self.reentered(pos)),
        }
    }

    /// The value of `pos`, stored as ∞ by a solve without its set K: the
    /// finite values of its options, every one known by now.
    fn late_set(&mut self, pos: PosId) -> R<Gsg> {
        let mut moves = Moves::default();
        // Named as the solve named them (`SOLVED`).
        let mut bufs = OptionBufs::default();
        self.m
            .list(pos, SOLVED, &mut moves, &mut bufs, &mut |_, _| true)?;
        let mut k = Vec::new();
        'options: for option in moves.iter() {
            let mut x = 0;
            for &c in option {
                match self.m.store.value(c) {
                    v if v <= MAX_VALUE => x ^= v,
                    UNKNOWN => match self.gsg_in(c)? {
                        Gsg::Finite(v) => x ^= v,
                        Gsg::Infinite(_) => continue 'options,
                    },
                    v if infinite_index(v).is_some() => continue 'options,
                    _ => return Err(self.reentered(c)),
                }
            }
            k.push(x);
        }
        k.sort_unstable();
        k.dedup();
        if !self.m.store.set_infinite(pos, &k) {
            return Err(too_many_infinities().into());
        }
        Ok(Gsg::Infinite(k.into()))
    }

    /// The value of `c`, a loopy game's position, as an option of `pos`, a
    /// position of a game that is not loopy: it must be finite.
    pub(super) fn option_value(&mut self, pos: PosId, c: PosId) -> R<u32> {
        match self.gsg_in(c)? {
            Gsg::Finite(v) => Ok(v),
            value => Err(Diag::user(
                Code::Infinite,
                format!(
                    "{} has a move to {}, whose value is {value}",
                    self.m.show().pos(pos),
                    self.m.show().pos(c)
                ),
            )
            .help(format!(
                "play can go on forever from there: declare `loopy game {}` too, so that its values may be ∞",
                self.m.prog.games[self.m.game_of(pos).index()].name
            ))
            .into()),
        }
    }

    fn gsg_sum_in(&mut self, parts: &[PosId]) -> R<Gsg> {
        let mut sum = Gsg::Finite(0);
        for &p in parts {
            sum = sum.sum(&self.gsg_in(p)?);
        }
        Ok(sum)
    }

    /// The error for a finite value asked of a position whose value is ∞.
    pub(super) fn not_finite(&self, pos: PosId, value: &Gsg) -> Diag {
        Diag::user(
            Code::Infinite,
            format!(
                "{} has the value {value}: play from it can go on forever",
                self.m.show().pos(pos)
            ),
        )
        .help("ask `outcome(P)` (win, loss or draw) or `grundy(P)`, which shows ∞ values; arithmetic needs a finite value")
    }

    /// A position reached again while its own value is being worked out,
    /// through something other than a loopy game's move to it.
    fn reentered(&self, pos: PosId) -> Stop {
        Stop::cycle(format!(
            "{} is reached again while its value is being worked out",
            self.m.show().pos(pos)
        ))
        .help(
            "a loopy game's cycles must go through moves to single positions of loopy games: \
             declare every game on the cycle `loopy game`, and do not split into a sum that leads back",
        )
    }

    /// Solves the loopy position `root` and every position of a loopy game
    /// it reaches by moves to single positions, storing their values.
    fn solve_loopy(&mut self, root: PosId) -> R<()> {
        // Positions are marked with their vertex while the solve runs, from
        // the scope's base on (the solves around this one use the marks
        // below it): reaching a position marked by another solve, or again
        // by another way, is a cycle this solve cannot see.
        let base = self.scope.solving_base;
        if base > MAX_SOLVING {
            return Err(Diag::user(Code::TooLarge, "loopy games' graphs of 2^30 positions").into());
        }
        let mut vertices = vec![root];
        self.m.store.set(root, solving(base));
        let mut known = Vec::new();
        let result = self.explore(&mut vertices, &mut known);
        let solved = result.and_then(|graph| {
            let budget = &mut self.m.budget;
            crate::solve::loopy::solve(&graph, &mut |w| budget.spend(w)).map(|s| (graph, s))
        });
        let solved = match solved {
            Ok((_, solved)) => solved,
            Err(e) => {
                self.unmark(&vertices);
                return Err(e);
            }
        };
        // ∞ values without their sets K: each is found from the options
        // when it is asked for (most never are).
        for (i, &p) in vertices.iter().enumerate() {
            if p.0 & KNOWN == KNOWN {
                continue;
            }
            match solved.finite(i as u32) {
                Some(v) if v <= MAX_VALUE => self.m.store.set(p, v),
                Some(_) => {
                    self.unmark(&vertices);
                    return Err(
                        Diag::user(Code::ValueLimit, "a Grundy value of 2^31 or more").into(),
                    );
                }
                None => self.m.store.set(p, INFINITE_LATER),
            }
        }
        Ok(())
    }

    /// Forgets the marks a failed solve left on its positions.
    fn unmark(&mut self, vertices: &[PosId]) {
        for &p in vertices {
            if p.0 & KNOWN != KNOWN && solving_index(self.m.store.value(p)).is_some() {
                self.m.store.set(p, UNKNOWN);
            }
        }
    }

    /// The graph from `vertices[0]` (breadth first): each position's
    /// options read in turn. Values known already become vertices of their
    /// own, one per value, listed in `known`.
    fn explore(&mut self, vertices: &mut Vec<PosId>, known: &mut Vec<Gsg>) -> R<Graph> {
        let too_large =
            |_: TooLarge| Diag::user(Code::TooLarge, "a loopy game's graph with 2^32 moves");
        let base = self.scope.solving_base;
        let mut known_ids: FxHashMap<Gsg, u32> = FxHashMap::default();
        let mut graph = Graph::default();
        let mut moves = Moves::default();
        let mut bufs = OptionBufs::default();
        let mut targets = Vec::new();
        while graph.len() < vertices.len() {
            let i = graph.len();
            let pos = vertices[i];
            if pos.0 & KNOWN == KNOWN {
                let value = known[(pos.0 & !KNOWN) as usize].clone();
                graph.add_known(value).map_err(too_large)?;
                continue;
            }
            if i.is_power_of_two() && i >= 1 << 16 {
                // The graph's arrays, before they double.
                self.m.reserve(i * 32)?;
            }
            let all = SOLVED;
            self.m
                .list(pos, all, &mut moves, &mut bufs, &mut |_, _| true)?;
            targets.clear();
            for option in moves.iter() {
                let target = match option {
                    [c] => match self.m.store.value(*c) {
                        UNKNOWN if self.is_loopy(*c) => {
                            let next = u32::try_from(vertices.len())
                                .ok()
                                .filter(|&n| n <= MAX_SOLVING - base)
                                .ok_or_else(|| too_large(TooLarge))?;
                            self.m.store.set(*c, solving(base + next));
                            vertices.push(*c);
                            Some(next)
                        }
                        v => match solving_index(v) {
                            Some(t) if t >= base => Some(t - base),
                            // A solve around this one is working it out.
                            Some(_) => return Err(self.reentered(*c)),
                            None => None,
                        },
                    },
                    _ => None,
                };
                let target = match target {
                    Some(t) => t,
                    None => {
                        // Solved on its own: it must not lead back here, and
                        // a solve it starts marks past this one's vertices.
                        let inner = Scope {
                            solving_base: base.saturating_add(vertices.len() as u32),
                            ..self.scope
                        };
                        let value = self.m.scoped(inner).gsg_sum_in(option)?;
                        match known_ids.get(&value) {
                            Some(&t) => t,
                            None => {
                                let t = vertices.len() as u32;
                                vertices.push(PosId(KNOWN | known.len() as u64));
                                known.push(value.clone());
                                known_ids.insert(value, t);
                                t
                            }
                        }
                    }
                };
                targets.push(target);
            }
            graph.add(targets.iter().copied()).map_err(too_large)?;
        }
        Ok(graph)
    }
}

/// A value that cannot be a game's argument: an ∞ value is the user's (a
/// loopy game's value passed on); anything else the checker let through.
pub(super) fn bad_argument(args: &[Value], span: Span) -> Diag {
    let has_dict = |v: &Value| match v {
        Value::Dict(_) => true,
        Value::List(xs) => xs.iter().any(|x| matches!(x, Value::Dict(_))),
        _ => false,
    };
    if args.iter().any(Value::has_infinite) {
        Diag::user(Code::Infinite, "an ∞ value cannot be a game's argument")
            .label(span, "this holds an ∞ value")
            .help("pass finite values only: test `grundy(P) == ...` or ask `outcome(P)` first")
    } else if args.iter().any(Value::has_pos) {
        Diag::user(Code::TypeMismatch, "a position cannot be a game's argument")
            .label(span, "this holds a position")
            .help("a game's arguments are data (integers, booleans, strings and lists of them): pass what names the position, and apply the game in the rule")
    } else if args.iter().any(has_dict) {
        Diag::user(Code::TypeMismatch, "a dictionary cannot be a game's argument")
            .label(span, "this holds a dictionary")
            .help("pass its entries as a sorted list of [key, value] pairs: `[[k, d[k]] for k in keys(d)]`")
    } else {
        Diag::bug("a range or position passed as a game argument").label(span, "here")
    }
}

fn too_many_infinities() -> Diag {
    Diag::user(Code::TooLarge, "more than 2^30 different ∞ values")
}

fn too_large_graph() -> Stop {
    Diag::user(
        Code::TooLarge,
        "a loopy game's graph with more than 2^32 moves",
    )
    .into()
}
