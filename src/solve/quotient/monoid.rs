//! Finite commutative monoids and candidate quotients built from them: a
//! candidate's P-portion marked along the least words of its elements, then
//! reduced to the bipartite monoid it presents.

use super::{Growth, Unfinished, Word};
use rustc_hash::FxHashMap;

/// A finite commutative monoid as its multiplication table; element 0 is
/// the identity.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Table {
    q: usize,
    mul: Vec<u32>,
}

impl Table {
    /// The monoid with one element.
    pub fn trivial() -> Table {
        Table { q: 1, mul: vec![0] }
    }

    /// ⟨g | g^(index + period) = g^index⟩: g^0, …, g^(index + period − 1).
    pub fn cyclic(period: usize, index: usize) -> Table {
        let q = index + period;
        let norm = |k: usize| {
            if k < q {
                k
            } else {
                index + (k - index) % period
            }
        };
        let mut mul = Vec::with_capacity(q * q);
        for a in 0..q {
            for b in 0..q {
                mul.push(norm(a + b) as u32);
            }
        }
        Table { q, mul }
    }

    /// The number of elements.
    pub fn order(&self) -> usize {
        self.q
    }

    /// x · y.
    #[inline]
    pub fn mul(&self, x: u32, y: u32) -> u32 {
        self.mul[x as usize * self.q + y as usize]
    }

    /// x^e.
    pub fn pow(&self, x: u32, e: u32) -> u32 {
        (0..e).fold(0, |acc, _| self.mul(acc, x))
    }

    /// The least i with x^i = x^(i + p) for some p ≥ 1.
    pub fn index_of(&self, x: u32) -> usize {
        let mut seen = FxHashMap::default();
        let mut p = 0u32;
        for i in 0.. {
            if let Some(&j) = seen.get(&p) {
                return j;
            }
            seen.insert(p, i);
            p = self.mul(p, x);
        }
        unreachable!("a finite monoid's powers repeat")
    }
}

/// A direct product of monoids, its elements numbered in mixed radix
/// (the first factor's digit lowest).
pub struct Product {
    parts: Vec<Table>,
    strides: Vec<u64>,
}

impl Product {
    pub fn new(parts: Vec<Table>) -> Option<Product> {
        let mut strides = Vec::with_capacity(parts.len());
        let mut s = 1u64;
        for t in &parts {
            strides.push(s);
            s = s.checked_mul(t.q as u64)?;
        }
        Some(Product { parts, strides })
    }

    /// Element `e` of factor `i`, the identity in the others.
    pub fn unit(&self, i: usize, e: u32) -> u64 {
        u64::from(e) * self.strides[i]
    }

    #[inline]
    fn mul(&self, x: u64, y: u64) -> u64 {
        let mut out = 0;
        for (t, &s) in self.parts.iter().zip(&self.strides) {
            let q = t.q as u64;
            let (a, b) = ((x / s) % q, (y / s) % q);
            out += u64::from(t.mul(a as u32, b as u32)) * s;
        }
        out
    }
}

/// A bipartite monoid with its pretending function: the monoid, which
/// elements are P, each heap's element, and each element's least word.
#[derive(Clone, Debug)]
pub struct Quot {
    pub table: Table,
    pub p: Vec<bool>,
    pub phi: Vec<u32>,
    pub words: Vec<Word>,
}

impl Quot {
    /// The quotient of the heaps with no options: one element, no P.
    pub fn trivial() -> Quot {
        Quot {
            table: Table::trivial(),
            p: vec![false],
            phi: vec![0],
            words: vec![Word::new()],
        }
    }

    /// The element of a word.
    pub fn of_word(&self, w: &Word) -> u32 {
        w.iter().fold(0, |acc, &(h, e)| {
            self.table.mul(acc, self.table.pow(self.phi[h as usize], e))
        })
    }

    /// Each heap's transitions: the elements of its options.
    pub fn transitions(&self, opts: &[Vec<Vec<u32>>]) -> Vec<Vec<u32>> {
        opts.iter().map(|os| self.images(os)).collect()
    }

    /// The elements of one heap's options, each once, in order.
    pub fn images(&self, options: &[Vec<u32>]) -> Vec<u32> {
        let mut t: Vec<u32> = options.iter().map(|o| self.of_heaps(o)).collect();
        t.sort_unstable();
        t.dedup();
        t
    }

    /// The element of a sum of heaps.
    pub fn of_heaps(&self, heaps: &[u32]) -> u32 {
        heaps
            .iter()
            .fold(0, |acc, &h| self.table.mul(acc, self.phi[h as usize]))
    }
}

/// One element found along the least words: its id in the product, the
/// element its least word extends and the heap added, and the elements of
/// that word's options.
struct Reached {
    id: u64,
    parent: u32,
    heap: u32,
    tr: Vec<u32>,
    is_p: bool,
}

/// The candidate (M, φ) reduced to the bipartite monoid it presents: each
/// element reached from the heaps' images is P when the least word reaching
/// it has options and none of them is P (right when every smaller word is
/// right, which the failure searches then check), and elements no word
/// tells apart are merged.
pub fn build<E>(
    m: &Product,
    phi: &[u64],
    opts: &[Vec<Vec<u32>>],
    limits: &Growth,
    poll: &mut dyn FnMut() -> Result<(), E>,
) -> Result<Quot, Unfinished<E>> {
    let t: Vec<Vec<u64>> = opts
        .iter()
        .map(|os| {
            let mut v: Vec<u64> = os
                .iter()
                .map(|o| o.iter().fold(0, |acc, &c| m.mul(acc, phi[c as usize])))
                .collect();
            v.sort_unstable();
            v.dedup();
            v
        })
        .collect();
    let mut dense: FxHashMap<u64, u32> = FxHashMap::default();
    dense.insert(0, 0);
    let mut found = vec![Reached {
        id: 0,
        parent: u32::MAX,
        heap: 0,
        tr: Vec::new(),
        is_p: false,
    }];
    let look = |dense: &FxHashMap<u64, u32>, id: u64| {
        dense.get(&id).copied().ok_or(Unfinished::Bug(
            "an option's element was not reached before it",
        ))
    };
    for h in 1..phi.len() {
        if t[h].is_empty() {
            continue;
        }
        let g = phi[h];
        // Words by the exponent of h, then by the rest: the least words'
        // order; a word whose element is already reached is not least, nor
        // is any word it extends to.
        let mut frontier: Vec<u32> = (0..found.len() as u32).collect();
        while !frontier.is_empty() {
            let mut next = Vec::new();
            for &d in &frontier {
                poll().map_err(Unfinished::Interrupted)?;
                let from = &found[d as usize];
                let e = m.mul(from.id, g);
                if dense.contains_key(&e) {
                    continue;
                }
                let mut tr = Vec::with_capacity(from.tr.len() + t[h].len());
                for &y in &from.tr {
                    tr.push(look(&dense, m.mul(found[y as usize].id, g))?);
                }
                for &s in &t[h] {
                    tr.push(look(&dense, m.mul(from.id, s))?);
                }
                tr.sort_unstable();
                tr.dedup();
                let is_p = !tr.is_empty() && tr.iter().all(|&y| !found[y as usize].is_p);
                let id = found.len() as u32;
                if found.len() >= limits.max_elements {
                    return Err(Unfinished::TooLarge);
                }
                dense.insert(e, id);
                found.push(Reached {
                    id: e,
                    parent: d,
                    heap: h as u32,
                    tr,
                    is_p,
                });
                next.push(id);
            }
            frontier = next;
        }
    }
    reduce(m, phi, &t, &found, &dense, limits, poll)
}

/// Merges the elements no word tells apart (Moore's refinement from
/// P / not P, along the heaps' images), numbered by their least words.
fn reduce<E>(
    m: &Product,
    phi: &[u64],
    t: &[Vec<u64>],
    found: &[Reached],
    dense: &FxHashMap<u64, u32>,
    limits: &Growth,
    poll: &mut dyn FnMut() -> Result<(), E>,
) -> Result<Quot, Unfinished<E>> {
    let n = found.len();
    let mut gens: Vec<u64> = (1..phi.len())
        .filter(|&h| !t[h].is_empty())
        .map(|h| phi[h])
        .collect();
    gens.sort_unstable();
    gens.dedup();
    let mut act = Vec::with_capacity(gens.len());
    for &g in &gens {
        let row = found
            .iter()
            .map(|f| dense.get(&m.mul(f.id, g)).copied())
            .collect::<Option<Vec<u32>>>()
            .ok_or(Unfinished::Bug("a product left the reached elements"))?;
        act.push(row);
    }
    let mut block: Vec<u32> = found.iter().map(|f| u32::from(f.is_p)).collect();
    let mut count = 0;
    loop {
        poll().map_err(Unfinished::Interrupted)?;
        let mut ids: FxHashMap<Vec<u32>, u32> = FxHashMap::default();
        let mut next = Vec::with_capacity(n);
        for x in 0..n {
            let key: Vec<u32> = std::iter::once(block[x])
                .chain(act.iter().map(|row| block[row[x] as usize]))
                .collect();
            let fresh = ids.len() as u32;
            next.push(*ids.entry(key).or_insert(fresh));
        }
        // Blocks only split: past the limit already, it stays past.
        if ids.len() > limits.max_order {
            return Err(Unfinished::TooLarge);
        }
        let stable = ids.len() == count;
        count = ids.len();
        block = next;
        if stable {
            break;
        }
    }
    // Representatives: each block's first element, whose least word is the
    // block's; its parent lies in an earlier block.
    let mut rep = vec![u32::MAX; count];
    for (x, &b) in block.iter().enumerate() {
        if rep[b as usize] == u32::MAX {
            rep[b as usize] = x as u32;
        }
    }
    let gen_of = |h: u32| gens.binary_search(&phi[h as usize]).ok();
    let ract: Vec<Vec<u32>> = act
        .iter()
        .map(|row| {
            rep.iter()
                .map(|&r| block[row[r as usize] as usize])
                .collect()
        })
        .collect();
    let mut mul = vec![0u32; count * count];
    for b1 in 0..count {
        mul[b1 * count] = b1 as u32;
        for b2 in 1..count {
            let f = &found[rep[b2] as usize];
            let parent = block[f.parent as usize] as usize;
            let g = gen_of(f.heap).ok_or(Unfinished::Bug("a heap's image is no generator"))?;
            mul[b1 * count + b2] = ract[g][mul[b1 * count + parent] as usize];
        }
    }
    let words = rep
        .iter()
        .map(|&r| {
            let mut w = Word::new();
            let mut x = r;
            while x != 0 {
                let f = &found[x as usize];
                super::add_heap(&mut w, f.heap);
                x = f.parent;
            }
            w
        })
        .collect();
    let phi = (0..phi.len())
        .map(|h| {
            if t[h].is_empty() {
                Ok(0)
            } else {
                dense
                    .get(&phi[h])
                    .map(|&d| block[d as usize])
                    .ok_or(Unfinished::Bug("a heap's image was not reached"))
            }
        })
        .collect::<Result<Vec<u32>, _>>()?;
    Ok(Quot {
        table: Table { q: count, mul },
        p: rep.iter().map(|&r| found[r as usize].is_p).collect(),
        phi,
        words,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cyclic_monoids_wrap_into_their_period() {
        let c = Table::cyclic(2, 2);
        assert_eq!(c.order(), 4);
        // g^3 · g = g^4 = g^2.
        assert_eq!(c.mul(3, 1), 2);
        assert_eq!(c.index_of(1), 2);
        assert_eq!(Table::cyclic(3, 0).mul(2, 2), 1);
    }
}
