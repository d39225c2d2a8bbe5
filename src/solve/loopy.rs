//! Games with cycles: the generalized Sprague–Grundy function of a finite
//! directed graph (C. A. B. Smith, 1966; Fraenkel and Yesha, 1986), by
//! retrograde analysis, one value at a time.
//!
//! A vertex's value is a finite m or ∞ with K, the set of its options'
//! finite values. γ(u) = m when no option has value m, every value below m
//! is an option's, and every option of value above m (or ∞) has an option
//! of value m: a move away from m can be answered by a move back to m.
//! Stage m labels with m every unlabeled vertex that has no option labeled
//! m and whose unlabeled (or ∞) options all have one; then every vertex
//! still unlabeled with no option labeled m is ∞. Each stage is one
//! retrograde pass, the one that finds win, loss and draw being stage 0.
//!
//! Some vertices come with their value known (positions computed before,
//! sums of solved components): their options are not read; a finite one is
//! labeled at the stage of its value, an ∞ one has an option of value m
//! exactly when m is in its K.
//!
//! Plain data in, plain data out: dense vertex ids, options contiguous.

use crate::value::Gsg;
use std::rc::Rc;

/// A finite graph: vertices `0..len`, added in order, each with its
/// options or its value.
#[derive(Clone, Debug, Default)]
pub struct Graph {
    /// Vertex `v`'s options are `targets[starts[v]..starts[v + 1]]`.
    starts: Vec<u32>,
    targets: Vec<u32>,
    /// Vertices whose value is given, with it.
    known: Vec<(u32, Gsg)>,
}

/// The graph has more edges than its 32-bit offsets hold.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TooLarge;

impl Graph {
    /// The number of vertices.
    pub fn len(&self) -> usize {
        self.starts.len()
    }

    /// Whether there are no vertices.
    pub fn is_empty(&self) -> bool {
        self.starts.is_empty()
    }

    /// Adds the next vertex with these options (vertex ids, possibly of
    /// vertices added later); its id.
    pub fn add(&mut self, options: impl IntoIterator<Item = u32>) -> Result<u32, TooLarge> {
        let id = u32::try_from(self.starts.len()).map_err(|_| TooLarge)?;
        let start = u32::try_from(self.targets.len()).map_err(|_| TooLarge)?;
        self.starts.push(start);
        self.targets.extend(options);
        u32::try_from(self.targets.len()).map_err(|_| TooLarge)?;
        Ok(id)
    }

    /// Adds the next vertex with its value given; its id.
    pub fn add_known(&mut self, value: Gsg) -> Result<u32, TooLarge> {
        let id = self.add([])?;
        self.known.push((id, value));
        Ok(id)
    }

    /// The options of `v`.
    pub fn options(&self, v: u32) -> &[u32] {
        let v = v as usize;
        let end = self
            .starts
            .get(v + 1)
            .map_or(self.targets.len(), |&e| e as usize);
        &self.targets[self.starts[v] as usize..end]
    }
}

const UNLABELED: u32 = u32::MAX;
const INF: u32 = u32::MAX - 1;

/// The values of a graph's vertices.
#[derive(Clone, Debug)]
pub struct Solved {
    /// Finite labels, or [`INF`].
    label: Vec<u32>,
    /// Per ∞ vertex whose value was given, its K.
    known_k: rustc_hash::FxHashMap<u32, Rc<[u32]>>,
}

/// How many units of work between calls of the caller's `poll`.
const POLL_EVERY: u64 = 1 << 16;

/// Predecessors, contiguous (the edges of vertices whose options are read).
struct Preds {
    starts: Vec<u32>,
    preds: Vec<u32>,
}

impl Preds {
    fn of(g: &Graph) -> Preds {
        let n = g.len();
        let mut starts = vec![0u32; n + 1];
        for &t in &g.targets {
            starts[t as usize + 1] += 1;
        }
        for v in 0..n {
            starts[v + 1] += starts[v];
        }
        let mut fill = starts.clone();
        let mut preds = vec![0u32; g.targets.len()];
        for v in 0..n {
            for &t in g.options(v as u32) {
                let at = &mut fill[t as usize];
                preds[*at as usize] = v as u32;
                *at += 1;
            }
        }
        Preds { starts, preds }
    }

    fn of_vertex(&self, v: u32) -> &[u32] {
        &self.preds[self.starts[v as usize] as usize..self.starts[v as usize + 1] as usize]
    }
}

/// The labels and the counters of the stage running.
struct Stage<'a, P> {
    preds: &'a Preds,
    /// This stage's value.
    value: u32,
    label: Vec<u32>,
    /// Per vertex, its options (edges) not finitely labeled.
    relevant: Vec<u32>,
    /// Per vertex, its options not finitely labeled and not won yet.
    count: Vec<u32>,
    /// `won[v] == value + 1`: v has an option labeled with this value.
    won: Vec<u32>,
    /// Counted down to 0 while not won: to be labeled.
    candidates: Vec<u32>,
    work: Work<'a, P>,
}

impl<P> Stage<'_, P> {
    fn stamp(&self) -> u32 {
        self.value + 1
    }

    fn is_won(&self, v: u32) -> bool {
        self.won[v as usize] == self.stamp()
    }

    /// `p` has an option labeled with this stage's value; if it counts as
    /// an option of others (not finitely labeled), they have one
    /// unanswered option fewer.
    fn mark_won<E>(&mut self, p: u32) -> Result<(), E>
    where
        P: FnMut(u64) -> Result<(), E>,
    {
        if self.is_won(p) {
            return Ok(());
        }
        self.won[p as usize] = self.stamp();
        if !matches!(self.label[p as usize], UNLABELED | INF) {
            return Ok(());
        }
        let ps = self.preds.of_vertex(p);
        self.work.add(ps.len() as u64)?;
        for &q in ps {
            // Only unlabeled vertices keep a count this stage.
            if self.label[q as usize] != UNLABELED {
                continue;
            }
            let c = &mut self.count[q as usize];
            *c -= 1;
            if *c == 0 && !self.is_won(q) {
                self.candidates.push(q);
            }
        }
        Ok(())
    }

    /// Labels `v` with this stage's value: its predecessors are won.
    fn set_label<E>(&mut self, v: u32) -> Result<(), E>
    where
        P: FnMut(u64) -> Result<(), E>,
    {
        self.label[v as usize] = self.value;
        let ps = self.preds.of_vertex(v);
        self.work.add(ps.len() as u64)?;
        for &p in ps {
            self.relevant[p as usize] -= 1;
            self.mark_won(p)?;
        }
        Ok(())
    }
}

/// Who wins a vertex played alone (a token on the graph, the player who
/// cannot move losing), and how soon: `Some((true, r))`, the player to move
/// wins within `r` moves by moving to a loss of remoteness `r - 1`;
/// `Some((false, r))`, the player to move loses, but only after `r` moves
/// at the most; `None`, a draw. (Smith's remoteness, by the retrograde
/// labelling in rounds: a loss is labelled when its last option is, a win
/// with its first lost option.) Vertices with given values count as draws:
/// the caller gives none. `poll(work)` as for [`solve`].
pub fn remoteness<E, P: FnMut(u64) -> Result<(), E>>(
    g: &Graph,
    poll: &mut P,
) -> Result<Vec<Option<(bool, u32)>>, E> {
    let n = g.len();
    let preds = Preds::of(g);
    let mut left: Vec<u32> = (0..n as u32).map(|v| g.options(v).len() as u32).collect();
    let mut out: Vec<Option<(bool, u32)>> = vec![None; n];
    let mut queue = std::collections::VecDeque::new();
    for v in 0..n as u32 {
        if left[v as usize] == 0 && !g.known.iter().any(|(k, _)| *k == v) {
            out[v as usize] = Some((false, 0));
            queue.push_back(v);
        }
    }
    let mut work = Work { done: 0, poll };
    while let Some(v) = queue.pop_front() {
        let Some((won, r)) = out[v as usize] else {
            continue;
        };
        for &u in preds.of_vertex(v) {
            work.add(1)?;
            if out[u as usize].is_some() {
                continue;
            }
            if !won {
                out[u as usize] = Some((true, r + 1));
                queue.push_back(u);
            } else {
                left[u as usize] -= 1;
                if left[u as usize] == 0 {
                    out[u as usize] = Some((false, r + 1));
                    queue.push_back(u);
                }
            }
        }
    }
    Ok(out)
}

/// Solves the graph: every vertex's value. `poll(work)` is called every so
/// often with the work done since the last call; an error from it stops the
/// solve.
pub fn solve<E, P: FnMut(u64) -> Result<(), E>>(g: &Graph, poll: &mut P) -> Result<Solved, E> {
    let n = g.len();
    let mut work = Work { done: 0, poll };
    let preds = Preds::of(g);
    work.add(2 * g.targets.len() as u64 + n as u64)?;
    let mut label = vec![UNLABELED; n];
    let mut explored = vec![true; n];
    let mut known_k = Vec::new();
    let mut known_finite: Vec<(u32, u32)> = Vec::new();
    for (v, value) in &g.known {
        explored[*v as usize] = false;
        match value {
            Gsg::Finite(m) => known_finite.push((*m, *v)),
            Gsg::Infinite(k) => {
                label[*v as usize] = INF;
                known_k.push((*v, k.clone()));
            }
        }
    }
    known_finite.sort_unstable();
    let mut s = Stage {
        preds: &preds,
        value: 0,
        label,
        relevant: (0..n as u32).map(|v| g.options(v).len() as u32).collect(),
        count: vec![0; n],
        won: vec![0; n],
        candidates: Vec::new(),
        work,
    };
    let mut unlabeled: Vec<u32> = (0..n as u32).filter(|&v| explored[v as usize]).collect();
    let mut next_known = 0;
    while !unlabeled.is_empty() {
        for &v in &unlabeled {
            s.count[v as usize] = s.relevant[v as usize];
        }
        s.work.add(unlabeled.len() as u64)?;
        // What the given values say at this stage: a finite value above it
        // has an option of this value, an ∞ one when it is in its K.
        for &(m, v) in &known_finite[next_known..] {
            if m > s.value {
                s.mark_won(v)?;
            }
        }
        for (v, k) in &known_k {
            if k.binary_search(&s.value).is_ok() {
                s.mark_won(*v)?;
            }
        }
        // Given values first: a vertex must know all its options labeled
        // with this value before it may be labeled itself.
        while next_known < known_finite.len() && known_finite[next_known].0 == s.value {
            s.set_label(known_finite[next_known].1)?;
            next_known += 1;
        }
        for &v in &unlabeled {
            if s.count[v as usize] == 0 && !s.is_won(v) {
                s.candidates.push(v);
            }
        }
        // Counted down to 0 and not won: its unlabeled options all have an
        // option of this value, so none of them takes it, and nothing can
        // win it any more. It is labeled.
        while let Some(v) = s.candidates.pop() {
            if s.label[v as usize] == UNLABELED && !s.is_won(v) {
                s.set_label(v)?;
            }
        }
        // Still unlabeled with no option of this value: ∞.
        unlabeled.retain(|&v| {
            if s.label[v as usize] != UNLABELED {
                return false;
            }
            if !s.is_won(v) {
                s.label[v as usize] = INF;
                return false;
            }
            true
        });
        s.value += 1;
    }
    // Given values stand as given (a solve may end before their stage).
    let mut label = s.label;
    for &(m, v) in &known_finite {
        label[v as usize] = m;
    }
    Ok(Solved {
        label,
        known_k: known_k.into_iter().collect(),
    })
}

/// Work done, passed to the caller's poll every [`POLL_EVERY`] units.
struct Work<'a, P> {
    done: u64,
    poll: &'a mut P,
}

impl<P> Work<'_, P> {
    fn add<E>(&mut self, units: u64) -> Result<(), E>
    where
        P: FnMut(u64) -> Result<(), E>,
    {
        self.done += units;
        if self.done >= POLL_EVERY {
            (self.poll)(std::mem::take(&mut self.done))?;
        }
        Ok(())
    }
}

impl Solved {
    /// The value of `v` if it is finite.
    pub fn finite(&self, v: u32) -> Option<u32> {
        Some(self.label[v as usize]).filter(|&l| l != INF)
    }

    /// The value of `v`.
    pub fn value(&self, g: &Graph, v: u32) -> Gsg {
        match self.label[v as usize] {
            INF => match self.known_k.get(&v) {
                Some(k) => Gsg::Infinite(k.clone()),
                None => {
                    let mut k: Vec<u32> = g
                        .options(v)
                        .iter()
                        .map(|&w| self.label[w as usize])
                        .filter(|&l| l != INF)
                        .collect();
                    k.sort_unstable();
                    k.dedup();
                    Gsg::Infinite(k.into())
                }
            },
            l => Gsg::Finite(l),
        }
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn remoteness_counts_the_moves_to_the_end() {
        // 0 -> 1 -> 2 (the end); 3 <-> 4 with 4 -> 2; 5 -> 5; 6 <-> 7 with
        // 7 -> 1 (to a win: no way out of the cycle that wins).
        let mut g = Graph::default();
        for opts in [
            vec![1],
            vec![2],
            vec![],
            vec![4],
            vec![3, 2],
            vec![5],
            vec![7],
            vec![6, 1],
        ] {
            g.add(opts).unwrap();
        }
        let r = remoteness(&g, &mut |_| Ok::<(), ()>(())).unwrap();
        assert_eq!(
            r,
            vec![
                Some((false, 2)),
                Some((true, 1)),
                Some((false, 0)),
                Some((false, 2)),
                Some((true, 1)),
                None,
                None,
                None,
            ]
        );
    }

    use super::*;
    use crate::value::Outcome;

    /// A small deterministic generator (xorshift), so that thousands of
    /// graphs need no shrinking machinery.
    struct Rng(u64);

    impl Rng {
        fn below(&mut self, n: u64) -> u64 {
            self.0 ^= self.0 << 13;
            self.0 ^= self.0 >> 7;
            self.0 ^= self.0 << 17;
            self.0 % n
        }
    }

    /// A random graph on 1..=8 vertices, up to 3 options each (self-loops
    /// and repeated options allowed), as adjacency lists.
    fn random_graph(r: &mut Rng) -> Vec<Vec<usize>> {
        let n = 1 + r.below(8) as usize;
        (0..n)
            .map(|_| {
                (0..r.below(4))
                    .map(|_| r.below(n as u64) as usize)
                    .collect()
            })
            .collect()
    }

    fn graph_of(adj: &[Vec<usize>]) -> Graph {
        let mut g = Graph::default();
        for opts in adj {
            g.add(opts.iter().map(|&w| w as u32)).unwrap();
        }
        g
    }

    fn solved(adj: &[Vec<usize>]) -> Vec<Gsg> {
        let g = graph_of(adj);
        let s = solve(&g, &mut |_| Ok::<(), ()>(())).unwrap();
        (0..adj.len() as u32).map(|v| s.value(&g, v)).collect()
    }

    /// Win, loss and draw by the plainest fixed point: a position is won
    /// when some option is lost, lost when every option is won; the rest
    /// draw.
    fn brute_outcomes(n: usize, options: &dyn Fn(usize) -> Vec<usize>) -> Vec<Outcome> {
        let mut out: Vec<Option<Outcome>> = vec![None; n];
        loop {
            let mut changed = false;
            for v in 0..n {
                if out[v].is_some() {
                    continue;
                }
                let os = options(v);
                if os.iter().any(|&w| out[w] == Some(Outcome::P)) {
                    out[v] = Some(Outcome::N);
                    changed = true;
                } else if os.iter().all(|&w| out[w] == Some(Outcome::N)) {
                    out[v] = Some(Outcome::P);
                    changed = true;
                }
            }
            if !changed {
                break;
            }
        }
        out.into_iter().map(|o| o.unwrap_or(Outcome::D)).collect()
    }

    /// The sum of games given as adjacency lists: a vertex is a tuple of
    /// their vertices (mixed radix), a move moves in one of them.
    fn product(games: &[&[Vec<usize>]]) -> (usize, impl Fn(usize) -> Vec<usize> + use<>) {
        let sizes: Vec<usize> = games.iter().map(|g| g.len()).collect();
        let n = sizes.iter().product();
        let games: Vec<Vec<Vec<usize>>> = games.iter().map(|g| g.to_vec()).collect();
        (n, move |v: usize| {
            let mut out = Vec::new();
            let mut rest = v;
            let mut place = 1;
            for (g, &size) in games.iter().zip(&sizes) {
                let here = rest % size;
                rest /= size;
                for &w in &g[here] {
                    out.push(v - here * place + w * place);
                }
                place *= size;
            }
            out
        })
    }

    /// A Nim heap of `k`: a move to any smaller heap.
    fn nim(k: usize) -> Vec<Vec<usize>> {
        (0..=k).map(|h| (0..h).collect()).collect()
    }

    /// The values say what a brute force over the sum with every Nim heap
    /// says: γ(u) = m exactly when u + *m is lost, and γ(u) = ∞(K) exactly
    /// when u + *k is won for k in K and drawn for every other k. Over the
    /// heaps up to one past the largest value, that pins the value down.
    #[test]
    fn values_agree_with_sums_with_nim_heaps() {
        let mut r = Rng(0x9e3779b97f4a7c15);
        for _ in 0..2000 {
            let adj = random_graph(&mut r);
            let values = solved(&adj);
            let top = values
                .iter()
                .flat_map(|v| match v {
                    Gsg::Finite(m) => vec![*m],
                    Gsg::Infinite(k) => k.to_vec(),
                })
                .max()
                .unwrap_or(0) as usize
                + 1;
            let heap = nim(top);
            let (n, options) = product(&[&adj, &heap]);
            let brute = brute_outcomes(n, &options);
            for (u, value) in values.iter().enumerate() {
                for k in 0..=top {
                    let want = brute[u + k * adj.len()];
                    let got = value.sum(&Gsg::Finite(k as u32)).outcome();
                    assert_eq!(got, want, "{adj:?}: vertex {u} is {value}, heap {k}");
                }
            }
        }
    }

    /// Sums of two and three random graphs: the outcome of the sum of their
    /// values (Smith's theorem) against a brute force over the sum's own
    /// graph; and each graph's own outcomes against it.
    #[test]
    fn sums_agree_with_the_product_graph() {
        let mut r = Rng(0x2545f4914f6cdd1d);
        for round in 0..1500 {
            let games: Vec<Vec<Vec<usize>>> =
                (0..2 + round % 2).map(|_| random_graph(&mut r)).collect();
            let values: Vec<Vec<Gsg>> = games.iter().map(|g| solved(g)).collect();
            let refs: Vec<&[Vec<usize>]> = games.iter().map(|g| g.as_slice()).collect();
            let (n, options) = product(&refs);
            let brute = brute_outcomes(n, &options);
            for (v, want) in brute.iter().enumerate() {
                let mut rest = v;
                let mut sum = Gsg::Finite(0);
                for (g, vals) in games.iter().zip(&values) {
                    sum = sum.sum(&vals[rest % g.len()]);
                    rest /= g.len();
                }
                assert_eq!(sum.outcome(), *want, "{games:?} at {v}");
            }
            let brute = brute_outcomes(games[0].len(), &|v| games[0][v].clone());
            for (v, want) in brute.iter().enumerate() {
                assert_eq!(values[0][v].outcome(), *want, "{:?} at {v}", games[0]);
            }
        }
    }

    /// Vertices given with their values (as the engine gives positions
    /// solved before) change nothing for the others.
    #[test]
    fn given_values_stand_for_their_vertices() {
        let mut r = Rng(0xdeadbeefcafef00d);
        for _ in 0..1000 {
            let adj = random_graph(&mut r);
            let full = solved(&adj);
            let given: Vec<bool> = (0..adj.len()).map(|_| r.below(3) == 0).collect();
            let mut g = Graph::default();
            for (v, opts) in adj.iter().enumerate() {
                if given[v] {
                    g.add_known(full[v].clone()).unwrap();
                } else {
                    g.add(opts.iter().map(|&w| w as u32)).unwrap();
                }
            }
            let s = solve(&g, &mut |_| Ok::<(), ()>(())).unwrap();
            for (v, want) in full.iter().enumerate() {
                assert_eq!(&s.value(&g, v as u32), want, "{adj:?} given {given:?}");
            }
        }
    }

    /// Small cases worked by hand: a position that only passes draws; a
    /// two-cycle with an exit.
    #[test]
    fn small_graphs_by_hand() {
        assert_eq!(solved(&[vec![0]]), [Gsg::Infinite(Rc::from([]))]);
        // a ↔ b, b → t: t = 0, a = 0 (its one move goes where the mover
        // can move to 0), b = 1.
        let v = solved(&[vec![1], vec![0, 2], vec![]]);
        assert_eq!(v, [Gsg::Finite(0), Gsg::Finite(1), Gsg::Finite(0)]);
        // a ↔ b, b → c → t: c = 1 (it moves to t); b may only leave the
        // cycle to c, a win for the other player, so a and b draw: b is
        // ∞{1}, a (whose one option is ∞) ∞{}.
        let v = solved(&[vec![1], vec![0, 2], vec![3], vec![]]);
        assert_eq!(v[1], Gsg::Infinite(Rc::from([1])));
        assert_eq!(v[0], Gsg::Infinite(Rc::from([])));
        assert_eq!(v[2], Gsg::Finite(1));
        assert_eq!(v[1].outcome(), Outcome::D);
        assert_eq!(format!("{} {}", v[1], v[0]), "∞{1} ∞{}");
    }

    /// Ctrl-C (the poll's error) stops a solve.
    #[test]
    fn a_poll_error_stops_the_solve() {
        let mut g = Graph::default();
        let n = 100_000u32;
        for v in 0..n {
            g.add([(v + 1) % n, (v + 7) % n]).unwrap();
        }
        let mut calls = 0;
        let r = solve(&g, &mut |_| {
            calls += 1;
            if calls == 1 { Err("stop") } else { Ok(()) }
        });
        assert_eq!(r.err(), Some("stop"));
    }
}
