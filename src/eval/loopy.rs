//! Loopy games inside the engine. A position of a `loopy game` is solved
//! over the graph of the positions it reaches (`crate::loopy`): options
//! that are single positions of loopy games are vertices; the rest (the
//! end of the game, positions of other games, sums) are solved first, on
//! their own, and enter with their value. Every value found is stored:
//! finite ones as values, ∞ ones as a tag into the table of their sets K.

use super::*;
use crate::loopy::{Graph, Gsg, TooLarge};
use rustc_hash::FxHashMap;

/// Loopy solves one inside another (each a few frames of the Rust stack).
pub(super) const MAX_NESTED: u32 = 256;

/// A vertex of the graph being built: a position whose options are read,
/// or a value known already.
enum Vertex {
    Pos(PosId),
    Known(Gsg),
}

impl Machine {
    /// Whether `pos` is a position of a loopy game.
    pub(super) fn is_loopy(&self, pos: PosId) -> bool {
        self.prog
            .games
            .get(self.game_of(pos) as usize)
            .is_some_and(|g| g.loopy)
    }

    /// The stored value of `pos` as a generalized value, if it is known.
    pub(super) fn stored_gsg(&self, pos: PosId) -> Option<Gsg> {
        match self.memo.value(pos) {
            v if v <= MAX_VALUE => Some(Gsg::Finite(v)),
            v => self.memo.infinite_set(v).map(|k| Gsg::Infinite(k.clone())),
        }
    }

    /// The generalized Sprague–Grundy value of one position: finite, or ∞
    /// with the finite values of its options.
    pub fn gsg(&mut self, pos: PosId) -> R<Gsg> {
        self.gsg_in(pos, Scope::default())
    }

    /// [`Machine::gsg`] inside `scope`.
    pub(super) fn gsg_in(&mut self, pos: PosId, scope: Scope) -> R<Gsg> {
        if let Some(g) = self.stored_gsg(pos) {
            return Ok(g);
        }
        match self.memo.value(pos) {
            UNKNOWN if self.is_loopy(pos) => {
                if scope.loopy_nesting >= MAX_NESTED {
                    return Err(Diag::user(
                        Code::DepthLimit,
                        format!(
                            "{} needs loopy games solved one inside another more than {MAX_NESTED} deep",
                            self.show_pos(pos)
                        ),
                    )
                    .help("each move into a sum of loopy positions solves those on their own first; ask about smaller positions")
                    .into());
                }
                let inner = Scope {
                    loopy_nesting: scope.loopy_nesting + 1,
                    ..scope
                };
                self.solve_loopy(pos, inner)?;
                self.stored_gsg(pos)
                    .ok_or_else(|| Diag::bug("a loopy position left unsolved").into())
            }
            UNKNOWN => self.search(pos, scope).map(Gsg::Finite),
            _ => Err(self.reentered(pos).into()),
        }
    }

    /// The value of `c`, a loopy game's position, as an option of `pos`, a
    /// position of a game that is not loopy: it must be finite.
    pub(super) fn option_value(&mut self, pos: PosId, c: PosId, scope: Scope) -> R<u32> {
        match self.gsg_in(c, scope)? {
            Gsg::Finite(v) => Ok(v),
            value => Err(Diag::user(
                Code::Infinite,
                format!(
                    "{} has a move to {}, whose value is {value}",
                    self.show_pos(pos),
                    self.show_pos(c)
                ),
            )
            .help(format!(
                "play can go on forever from there: declare `loopy game {}` too, so that its values may be ∞",
                self.prog.games[self.game_of(pos) as usize].name
            ))
            .into()),
        }
    }

    /// The generalized value of a sum (Smith's theorem).
    pub fn gsg_sum(&mut self, parts: &[PosId]) -> R<Gsg> {
        self.gsg_sum_in(parts, Scope::default())
    }

    fn gsg_sum_in(&mut self, parts: &[PosId], scope: Scope) -> R<Gsg> {
        let mut sum = Gsg::Finite(0);
        for &p in parts {
            sum = sum.sum(&self.gsg_in(p, scope)?);
        }
        Ok(sum)
    }

    /// The error for a finite value asked of a position whose value is ∞.
    pub(super) fn not_finite(&self, pos: PosId, value: &Gsg) -> Diag {
        Diag::user(
            Code::Infinite,
            format!(
                "{} has the value {value}: play from it can go on forever",
                self.show_pos(pos)
            ),
        )
        .help("ask `outcome(P)` (win, loss or draw) or `grundy(P)`, which shows ∞ values; arithmetic needs a finite value")
    }

    /// A position reached again while its own value is being worked out,
    /// through something other than a loopy game's move to it.
    fn reentered(&self, pos: PosId) -> Diag {
        Diag::user(
            Code::Cycle,
            format!(
                "{} is reached again while its value is being worked out",
                self.show_pos(pos)
            ),
        )
        .help(
            "a loopy game's cycles must go through moves to single positions of loopy games: \
             declare every game on the cycle `loopy game`, and do not split into a sum that leads back",
        )
    }

    /// Stores a generalized value.
    fn store_gsg(&mut self, pos: PosId, value: &Gsg) -> R<()> {
        match value {
            Gsg::Finite(v) if *v <= MAX_VALUE => self.memo.set(pos, *v),
            Gsg::Finite(_) => {
                return Err(Diag::user(Code::ValueLimit, "a Grundy value of 2^31 or more").into());
            }
            Gsg::Infinite(k) => {
                if !self.memo.set_infinite(pos, k) {
                    return Err(
                        Diag::user(Code::TooLarge, "more than 2^31 different ∞ values").into(),
                    );
                }
            }
        }
        Ok(())
    }

    /// Solves the loopy position `root` and every position of a loopy game
    /// it reaches by moves to single positions, storing their values.
    fn solve_loopy(&mut self, root: PosId, scope: Scope) -> R<()> {
        let mut vertices = vec![Vertex::Pos(root)];
        let mut ids: FxHashMap<PosId, u32> = FxHashMap::default();
        ids.insert(root, 0);
        let mut known: FxHashMap<Gsg, u32> = FxHashMap::default();
        // Marked while being solved: reaching one again by another way is
        // a cycle this solve cannot see.
        self.memo.set(root, ON_STACK);
        let result = self.explore(&mut vertices, &mut ids, &mut known, scope);
        let solved = result.and_then(|graph| {
            let budget = &mut self.budget;
            crate::loopy::solve(&graph, false, &mut |w| budget.spend(w)).map(|s| (graph, s))
        });
        let (graph, solved) = match solved {
            Ok(x) => x,
            Err(e) => {
                for v in &vertices {
                    if let Vertex::Pos(p) = v
                        && self.memo.value(*p) == ON_STACK
                    {
                        self.memo.set(*p, UNKNOWN);
                    }
                }
                return Err(e);
            }
        };
        for (i, v) in vertices.iter().enumerate() {
            if let Vertex::Pos(p) = v
                && let Some(value) = solved.value(&graph, i as u32)
            {
                self.store_gsg(*p, &value)?;
            }
        }
        Ok(())
    }

    /// The graph from `vertices[0]` (breadth first): each position's
    /// options read in turn.
    fn explore(
        &mut self,
        vertices: &mut Vec<Vertex>,
        ids: &mut FxHashMap<PosId, u32>,
        known: &mut FxHashMap<Gsg, u32>,
        scope: Scope,
    ) -> R<Graph> {
        let too_large =
            |_: TooLarge| Diag::user(Code::TooLarge, "a loopy game's graph with 2^32 moves");
        let mut graph = Graph::default();
        let mut moves = Moves::default();
        let mut targets = Vec::new();
        while graph.len() < vertices.len() {
            let i = graph.len();
            let pos = match &vertices[i] {
                Vertex::Known(value) => {
                    graph.add_known(value.clone()).map_err(too_large)?;
                    continue;
                }
                Vertex::Pos(p) => *p,
            };
            if i.is_power_of_two() && i >= 1 << 16 {
                // The graph's arrays and maps, before they double.
                self.reserve(i * 64)?;
            }
            self.options_into(pos, &mut moves)?;
            targets.clear();
            for option in moves.iter() {
                let target = match option {
                    [c] if self.is_loopy(*c) && self.memo.value(*c) == UNKNOWN => {
                        let next = vertices.len() as u32;
                        self.memo.set(*c, ON_STACK);
                        ids.insert(*c, next);
                        vertices.push(Vertex::Pos(*c));
                        next
                    }
                    [c] if ids.contains_key(c) => ids[c],
                    parts => {
                        // Solved on its own: it must not lead back here.
                        let value = self.gsg_sum_in(parts, scope)?;
                        *known.entry(value.clone()).or_insert_with(|| {
                            vertices.push(Vertex::Known(value));
                            vertices.len() as u32 - 1
                        })
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
pub(super) fn bad_argument(infinite: bool, span: Span) -> Diag {
    if infinite {
        Diag::user(Code::Infinite, "an ∞ value cannot be a game's argument")
            .label(span, "this holds an ∞ value")
            .help("pass finite values only: test `grundy(P) == ...` or ask `outcome(P)` first")
    } else {
        Diag::bug("a range or position passed as a game argument").label(span, "here")
    }
}
