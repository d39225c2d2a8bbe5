//! Whether a bipartite monoid with a pretending function predicts every
//! misère outcome of sums of heaps: the least word it gets wrong, if any.
//!
//! A word is predicted wrong first where it is a failure: P-failure, its
//! element P and an option's element P; N-failure, its element not P, it
//! has options, and none of their elements is P. With no failure, every
//! prediction holds (by induction along the word order, options first).
//! P-failures are found from each element and heap; N-failures by walking
//! words in order, carrying each word's element and its options' elements,
//! and leaving a word whose element an earlier word reached with fewer
//! option elements (a failure of it would be one of the earlier word first,
//! and so would every word it extends to).

use super::monoid::Quot;
use super::{Growth, Unfinished, Word, add_heap, cmp_words};
use std::cmp::Ordering;

/// A set of elements.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Bits(Vec<u64>);

impl Bits {
    pub fn new(q: usize) -> Bits {
        Bits(vec![0; q.div_ceil(64)])
    }
    pub fn insert(&mut self, x: u32) {
        self.0[x as usize / 64] |= 1 << (x % 64);
    }
    pub fn contains(&self, x: u32) -> bool {
        self.0[x as usize / 64] >> (x % 64) & 1 == 1
    }
    pub fn is_subset(&self, of: &Bits) -> bool {
        self.0.iter().zip(&of.0).all(|(a, b)| a & !b == 0)
    }
    pub fn meets(&self, other: &Bits) -> bool {
        self.0.iter().zip(&other.0).any(|(a, b)| a & b != 0)
    }
    pub fn iter(&self) -> impl Iterator<Item = u32> + '_ {
        self.0.iter().enumerate().flat_map(|(i, &w)| {
            (0..64)
                .filter(move |b| w >> b & 1 == 1)
                .map(move |b| (i * 64 + b) as u32)
        })
    }
}

/// The least P-failure: a word reaching x, plus heap h, whose element is P
/// while an option inside h leads to a P element.
pub fn p_failure(q: &Quot, t: &[Vec<u32>]) -> Option<Word> {
    let mut best: Option<Word> = None;
    for x in 0..q.table.order() as u32 {
        for (h, th) in t.iter().enumerate() {
            if th.is_empty() || !q.p[q.table.mul(x, q.phi[h]) as usize] {
                continue;
            }
            if th.iter().any(|&s| q.p[q.table.mul(x, s) as usize]) {
                let mut w = q.words[x as usize].clone();
                add_heap(&mut w, h as u32);
                if best
                    .as_ref()
                    .is_none_or(|b| cmp_words(&w, b) == Ordering::Less)
                {
                    best = Some(w);
                }
            }
        }
    }
    best
}

/// A word met by the walk: its element, its options' elements, and the
/// word it extends with the heap added.
struct Walked {
    e: u32,
    tr: Bits,
    parent: u32,
    heap: u32,
}

fn word_of(nodes: &[Walked], mut i: u32) -> Word {
    let mut w = Word::new();
    while i != 0 {
        add_heap(&mut w, nodes[i as usize].heap);
        i = nodes[i as usize].parent;
    }
    w
}

/// What the walk found: the least N-failure below `bound` (if any), and for
/// each element the least sets of option elements its words have (the walk
/// went through every word, when there was no failure and no bound).
pub struct Walk {
    pub failure: Option<Word>,
    pub least: Vec<Vec<Bits>>,
}

/// Walks the words in order, for the least N-failure before `bound`.
pub fn n_failure<E>(
    q: &Quot,
    t: &[Vec<u32>],
    bound: Option<&Word>,
    limits: &Growth,
    poll: &mut dyn FnMut() -> Result<(), E>,
) -> Result<Walk, Unfinished<E>> {
    let size = q.table.order();
    let mut p_bits = Bits::new(size);
    for (x, &b) in q.p.iter().enumerate() {
        if b {
            p_bits.insert(x as u32);
        }
    }
    let mut nodes = vec![Walked {
        e: 0,
        tr: Bits::new(size),
        parent: u32::MAX,
        heap: 0,
    }];
    let mut least: Vec<Vec<u32>> = vec![Vec::new(); size];
    let done = |nodes: &[Walked], least: Vec<Vec<u32>>, failure| Walk {
        failure,
        least: least
            .into_iter()
            .map(|l| {
                l.into_iter()
                    .map(|i| nodes[i as usize].tr.clone())
                    .collect()
            })
            .collect(),
    };
    let (top, top_exp) = bound
        .and_then(|b| b.last().copied())
        .map_or((u32::MAX, u32::MAX), |(h, e)| (h, e));
    for (h, th) in t.iter().enumerate().skip(1) {
        if h as u32 > top {
            break;
        }
        if th.is_empty() {
            continue;
        }
        let g = q.phi[h];
        let mut frontier: Vec<u32> = (0..nodes.len() as u32).collect();
        let mut round = 0u32;
        while !frontier.is_empty() {
            round += 1;
            if h as u32 == top && round > top_exp {
                break;
            }
            let mut next = Vec::new();
            for &d in &frontier {
                poll().map_err(Unfinished::Interrupted)?;
                let from = &nodes[d as usize];
                let e = q.table.mul(from.e, g);
                let mut tr = Bits::new(size);
                for y in from.tr.iter() {
                    tr.insert(q.table.mul(y, g));
                }
                for &s in th {
                    tr.insert(q.table.mul(from.e, s));
                }
                let dominated = least[e as usize]
                    .iter()
                    .any(|&i| nodes[i as usize].tr.is_subset(&tr));
                if dominated {
                    continue;
                }
                let id = nodes.len() as u32;
                if h as u32 == top && round == top_exp {
                    let mut w = word_of(&nodes, d);
                    add_heap(&mut w, h as u32);
                    if bound.is_some_and(|b| cmp_words(&w, b) != Ordering::Less) {
                        break;
                    }
                }
                if !q.p[e as usize] && !tr.meets(&p_bits) {
                    let mut w = word_of(&nodes, d);
                    add_heap(&mut w, h as u32);
                    return Ok(done(&nodes, least, Some(w)));
                }
                if nodes.len() * size.div_ceil(64) >= limits.max_words {
                    return Err(Unfinished::TooLarge);
                }
                least[e as usize].retain(|&i| !tr.is_subset(&nodes[i as usize].tr));
                least[e as usize].push(id);
                nodes.push(Walked {
                    e,
                    tr,
                    parent: d,
                    heap: h as u32,
                });
                next.push(id);
            }
            frontier = next;
        }
    }
    Ok(done(&nodes, least, None))
}

/// For each element x, the elements y ≠ x that can be options of a word
/// reaching x: no z makes both xz and yz P.
pub fn compatible<E>(
    q: &Quot,
    poll: &mut dyn FnMut() -> Result<(), E>,
) -> Result<Vec<Bits>, Unfinished<E>> {
    let n = q.table.order();
    let s: Vec<Bits> = (0..n as u32)
        .map(|x| {
            let mut b = Bits::new(n);
            for z in 0..n as u32 {
                if q.p[q.table.mul(x, z) as usize] {
                    b.insert(z);
                }
            }
            b
        })
        .collect();
    let mut out = Vec::with_capacity(n);
    for x in 0..n {
        poll().map_err(Unfinished::Interrupted)?;
        let mut b = Bits::new(n);
        for y in 0..n {
            if y != x && !s[x].meets(&s[y]) {
                b.insert(y as u32);
            }
        }
        out.push(b);
    }
    Ok(out)
}
