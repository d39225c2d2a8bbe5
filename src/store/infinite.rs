//! The ∞ values of loopy games in the store: each set K kept once, and a
//! position's stored value naming it.

use super::*;

/// The sets K of the ∞ values stored, each once: a position's stored value
/// [`infinite`]`(i)` is ∞ with `sets[i]`.
#[derive(Clone, Debug, Default)]
pub(super) struct Infinites {
    sets: Vec<std::rc::Rc<[u32]>>,
    index: std::collections::HashMap<std::rc::Rc<[u32]>, u32, FxBuildHasher>,
}

impl Store {
    /// Stores ∞ with the set `k` at `p`; false when [`MAX_INFINITE`]
    /// different sets are stored already.
    pub fn set_infinite(&mut self, p: PosId, k: &[u32]) -> bool {
        let i = match self.infinites.index.get(k) {
            Some(&i) => i,
            None => {
                let Some(i) = u32::try_from(self.infinites.sets.len())
                    .ok()
                    .filter(|&i| i < MAX_INFINITE)
                else {
                    return false;
                };
                let k: std::rc::Rc<[u32]> = k.into();
                self.infinites.sets.push(k.clone());
                self.infinites.index.insert(k, i);
                i
            }
        };
        self.set(p, infinite(i));
        true
    }

    /// The set K of a stored value that is ∞.
    pub fn infinite_set(&self, v: u32) -> Option<&std::rc::Rc<[u32]>> {
        self.infinites.sets.get(infinite_index(v)? as usize)
    }
}
