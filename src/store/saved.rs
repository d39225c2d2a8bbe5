//! The store's known values walked and put back: what a checkpoint saves
//! and restores. Only proven values are walked (never a sentinel or an ∞),
//! each by its whole key, so a restored position gets the id a search would
//! give it.

use super::*;

impl Store {
    /// How many games the store is laid out for.
    fn games(&self) -> usize {
        self.arity.len()
    }

    /// How many values have been stored so far: a count that changes
    /// whenever a value does.
    pub fn writes(&self) -> u64 {
        self.writes
    }

    /// Calls `each` with the whole key (`[game, tagged args...]`) and the
    /// value of every position whose value is known and finite; returns how
    /// many.
    pub fn each_known(&self, each: &mut dyn FnMut(&[i64], u32)) -> usize {
        let mut key = Vec::new();
        let mut count = 0;
        let mut known = |key: &[i64], v: u32| {
            if v <= MAX_VALUE {
                each(key, v);
                count += 1;
            }
        };
        for (game, dense) in self.dense.iter().enumerate() {
            let (values, cols) = match dense {
                Dense::Empty => continue,
                Dense::One { values } => (values, None),
                Dense::Two { values, cols, .. } => (values, Some(*cols)),
            };
            for (i, &v) in values.iter().enumerate() {
                key.clear();
                key.push(game as i64);
                match cols {
                    None => key.extend([TAG_INT, i as i64]),
                    Some(c) => key.extend([TAG_INT, (i / c) as i64, TAG_INT, (i % c) as i64]),
                }
                known(&key, v);
            }
        }
        for (game, table) in self.tables.iter().enumerate() {
            let Some(t) = table else { continue };
            for (i, &v) in t.values.iter().enumerate() {
                key.clear();
                key.push(game as i64);
                for a in t.args_of(i).unwrap_or_default() {
                    key.extend([TAG_INT, *a]);
                }
                known(&key, v);
            }
        }
        for (k, &v) in self.keys.iter().zip(&self.values) {
            known(k, v);
        }
        count
    }

    /// Stores `value` for the position of this whole key (as
    /// [`Store::each_known`] gives it); `Ok(false)` when the key cannot be
    /// one of this store's positions (a game it does not have, or integer
    /// arguments of the wrong number), or the value is not a finite one.
    pub fn restore(&mut self, key: &[i64], value: u32) -> Result<bool, Full> {
        let Some((&game, args)) = key.split_first() else {
            return Ok(false);
        };
        let fits = usize::try_from(game).is_ok_and(|g| g < self.games());
        if !fits || value > MAX_VALUE {
            return Ok(false);
        }
        let ints = args.len().is_multiple_of(2) && args.chunks_exact(2).all(|c| c[0] == TAG_INT);
        if ints && args.len() / 2 != self.arity[game as usize] {
            return Ok(false);
        }
        let p = self.intern_whole_key(key)?;
        self.set(p, value);
        Ok(true)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn shapes() -> Vec<GameShape> {
        let shape = |arity, ints, sparse| GameShape {
            arity,
            ints,
            sparse,
        };
        vec![
            shape(1, true, false),
            shape(2, true, false),
            shape(3, true, false),
            shape(1, true, true),
            shape(1, false, false),
        ]
    }

    fn walked(s: &Store) -> Vec<(Vec<i64>, u32)> {
        let mut all = Vec::new();
        let n = s.each_known(&mut |k, v| all.push((k.to_vec(), v)));
        assert_eq!(n, all.len());
        all.sort();
        all
    }

    #[test]
    fn every_kind_of_position_walks_and_restores_as_it_was() {
        let mut s = Store::new(&shapes(), 1 << 20);
        let put = |s: &mut Store, game: u32, args: &[i64], v: u32| {
            let p = s.intern_ints(GameId(game), args).unwrap();
            s.set(p, v);
        };
        put(&mut s, 0, &[5], 3);
        put(&mut s, 1, &[2, 7], 1);
        put(&mut s, 2, &[1, -4, 9], 0);
        put(&mut s, 3, &[0b1011], 2);
        let listed = s.intern_whole_key(&[4, TAG_INTS, 2, 3, 4]).unwrap();
        s.set(listed, 6);
        // A sentinel and an ∞ are not known values.
        let on_stack = s.intern_ints(GameId(0), &[9]).unwrap();
        s.set(on_stack, ON_STACK);
        let loopy = s.intern_ints(GameId(2), &[0, 0, 0]).unwrap();
        assert!(s.set_infinite(loopy, &[0, 2]));
        let before = walked(&s);
        assert_eq!(before.len(), 5);

        let mut back = Store::new(&shapes(), 1 << 20);
        for (k, v) in &before {
            assert_eq!(back.restore(k, *v), Ok(true));
        }
        assert_eq!(walked(&back), before);
        let p = back.intern_ints(GameId(1), &[2, 7]).unwrap();
        assert_eq!(back.value(p), 1);
        let p = back.intern_ints(GameId(3), &[0b1011]).unwrap();
        assert_eq!(back.value(p), 2);
    }

    #[test]
    fn a_key_that_is_no_position_of_the_store_is_refused() {
        let mut s = Store::new(&shapes(), 1 << 20);
        for key in [
            &[][..],
            &[5, TAG_INT, 1],
            &[-1, TAG_INT, 1],
            &[0, TAG_INT, 1, TAG_INT, 2],
            &[2, TAG_INT, 1],
        ] {
            assert_eq!(s.restore(key, 0), Ok(false), "{key:?}");
        }
        assert_eq!(s.restore(&[0, TAG_INT, 1], ON_STACK), Ok(false));
        assert_eq!(s.states(), 0);
    }
}
