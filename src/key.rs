//! The keys of positions: game arguments (values) encoded as tagged words
//! for the store, and decoded back. The store knows only words; values know
//! nothing of keys; this module is the one place that joins the two.

use crate::ir::GameId;
use crate::store::{Full, PosId, Store, TAG_BOOL, TAG_INT, TAG_INTS, TAG_LIST, TAG_STR, TAG_WIDE};
use crate::value::Value;

/// Appends the key encoding of one argument; `None` for values that cannot
/// be game arguments (ranges, positions).
pub fn encode_arg(v: &Value, key: &mut Vec<i64>) -> Option<()> {
    match v {
        Value::Int(x) => key.extend([TAG_INT, *x]),
        Value::Wide(x) => {
            let (negative, words) = x.to_signed_words();
            key.extend([TAG_WIDE, i64::from(negative), words.len() as i64]);
            key.extend(words.iter().map(|&w| w as i64));
        }
        Value::Bool(b) => key.extend([TAG_BOOL, i64::from(*b)]),
        Value::Str(s) => {
            key.extend([TAG_STR, s.len() as i64]);
            key.extend(s.as_bytes().chunks(8).map(|c| {
                let mut word = [0u8; 8];
                word[..c.len()].copy_from_slice(c);
                i64::from_le_bytes(word)
            }));
        }
        // A list of integers (the empty list included) packs one word an
        // element; any other list tags each element.
        Value::List(xs) if xs.iter().all(|x| matches!(x, Value::Int(_))) => {
            key.extend([TAG_INTS, xs.len() as i64]);
            key.extend(xs.iter().map(|x| match x {
                Value::Int(v) => *v,
                _ => 0,
            }));
        }
        Value::List(xs) => {
            key.extend([TAG_LIST, xs.len() as i64]);
            for x in xs.iter() {
                encode_arg(x, key)?;
            }
        }
        Value::Ints(xs) => {
            key.extend([TAG_INTS, xs.len() as i64]);
            key.extend(xs.iter());
        }
        // As a list of booleans is written element by element (the empty
        // list packed as integers).
        Value::Bools(xs) if xs.is_empty() => key.extend([TAG_INTS, 0]),
        Value::Bools(xs) => {
            key.extend([TAG_LIST, xs.len() as i64]);
            for &b in xs.iter() {
                key.extend([TAG_BOOL, i64::from(b)]);
            }
        }
        Value::Range(..)
        | Value::Pos(_)
        | Value::Record(_)
        | Value::Infinite(_)
        | Value::Dict(_) => return None,
    }
    Some(())
}

/// Tags of the keys of function calls' arguments that are not data.
const TAG_POS: i64 = 5;
const TAG_RANGE: i64 = 6;
const TAG_RECORD: i64 = 7;
const TAG_INFINITE: i64 = 8;
const TAG_DICT: i64 = 9;

/// Appends the memo key of a function argument: data as a position's
/// argument is written, positions and ranges tagged apart (a memo key is
/// never a position's key).
pub fn encode_call_arg(v: &Value, key: &mut Vec<i64>) {
    match v {
        Value::Pos(parts) => {
            key.extend([TAG_POS, parts.len() as i64]);
            key.extend(parts.iter().map(|&p| p.0 as i64));
        }
        Value::Range(lo, hi) => key.extend([TAG_RANGE, *lo, *hi]),
        // ∞{K} with its set K: values that differ in K are different
        // arguments.
        Value::Infinite(k) => {
            key.extend([TAG_INFINITE, k.len() as i64]);
            key.extend(k.iter().map(|&v| i64::from(v)));
        }
        // Its entries in key order.
        Value::Dict(d) => {
            key.extend([TAG_DICT, d.len() as i64]);
            for (k, v) in d.sorted() {
                let _ = encode_arg(&k.value(), key);
                encode_call_arg(v, key);
            }
        }
        Value::Record(r) => {
            key.extend([TAG_RECORD, r.kind as i64]);
            for x in &r.values {
                encode_call_arg(x, key);
            }
        }
        Value::List(xs) if xs.iter().any(needs_tags) => {
            key.extend([TAG_LIST, xs.len() as i64]);
            for x in xs.iter() {
                encode_call_arg(x, key);
            }
        }
        v => {
            let _ = encode_arg(v, key);
        }
    }
}

/// Whether a value holds what only a memo key can hold (positions, ∞
/// values, records), so that a list of it is written element by element
/// with tags: one pass over nested lists.
fn needs_tags(v: &Value) -> bool {
    match v {
        Value::Pos(_) | Value::Infinite(_) | Value::Record(_) | Value::Dict(_) => true,
        Value::List(xs) => xs.iter().any(needs_tags),
        _ => false,
    }
}

/// A list argument written into a key element by element, as
/// [`encode_arg`] would write the whole list: packed while every element is
/// an integer, tagged from the first that is not.
pub struct ListKey {
    start: usize,
    packed: bool,
}

impl ListKey {
    /// Starts a list at the end of `key`.
    pub fn open(key: &mut Vec<i64>) -> ListKey {
        let start = key.len();
        key.extend([TAG_INTS, 0]);
        ListKey {
            start,
            packed: true,
        }
    }

    /// Appends an integer element.
    #[inline]
    pub fn int(&self, key: &mut Vec<i64>, v: i64) {
        if !self.packed {
            key.push(TAG_INT);
        }
        key.push(v);
    }

    /// Appends any element; `None` for values that are not data.
    pub fn value(&mut self, key: &mut Vec<i64>, v: &Value) -> Option<()> {
        if let Value::Int(x) = v {
            self.int(key, *x);
            return Some(());
        }
        if self.packed {
            // The integers so far, tagged one by one.
            let ints: Vec<i64> = key.drain(self.start + 2..).collect();
            key[self.start] = TAG_LIST;
            for v in ints {
                key.extend([TAG_INT, v]);
            }
            self.packed = false;
        }
        encode_arg(v, key)
    }

    /// Ends the list: it has `n` elements.
    pub fn close(self, key: &mut [i64], n: usize) {
        key[self.start + 1] = n as i64;
    }
}

fn decode_one(key: &[i64]) -> Option<(Value, &[i64])> {
    match key {
        [TAG_INT, x, rest @ ..] => Some((Value::Int(*x), rest)),
        [TAG_BOOL, b, rest @ ..] => Some((Value::Bool(*b != 0), rest)),
        [TAG_WIDE, negative, n, rest @ ..] => {
            let n = usize::try_from(*n).ok().filter(|&n| n <= rest.len())?;
            let words: Vec<u64> = rest[..n].iter().map(|&w| w as u64).collect();
            let x = crate::ops::Wide::from_signed_words(*negative != 0, &words);
            Some((Value::integer(x), &rest[n..]))
        }
        [TAG_STR, n, rest @ ..] => {
            let n = usize::try_from(*n).ok()?;
            let words = n.div_ceil(8);
            let bytes: Vec<u8> = rest
                .get(..words)?
                .iter()
                .flat_map(|w| w.to_le_bytes())
                .take(n)
                .collect();
            let s = String::from_utf8(bytes).ok()?;
            Some((Value::Str(s.into()), &rest[words..]))
        }
        [TAG_INTS, n, rest @ ..] => {
            let n = usize::try_from(*n).ok().filter(|&n| n <= rest.len())?;
            let items: Vec<Value> = rest[..n].iter().map(|&v| Value::Int(v)).collect();
            Some((Value::List(items.into()), &rest[n..]))
        }
        [TAG_LIST, n, rest @ ..] => {
            let mut rest = rest;
            let mut items = Vec::with_capacity((*n).clamp(0, 1 << 16) as usize);
            for _ in 0..*n {
                let (v, r) = decode_one(rest)?;
                items.push(v);
                rest = r;
            }
            Some((Value::List(items.into()), rest))
        }
        _ => None,
    }
}

/// Decodes the arguments of a key (after its game id).
pub fn decode_args(mut key: &[i64], out: &mut Vec<Value>) {
    while let Some((v, rest)) = decode_one(key) {
        out.push(v);
        key = rest;
    }
}

/// Interns `game(args)`; `Ok(None)` if an argument cannot be part of a
/// position (ranges, positions).
pub fn intern(store: &mut Store, game: GameId, args: &[Value]) -> Result<Option<PosId>, Full> {
    let mut ints = [0i64; 8];
    if args.len() <= ints.len()
        && args.iter().zip(ints.iter_mut()).all(|(a, slot)| match a {
            Value::Int(v) => {
                *slot = *v;
                true
            }
            _ => false,
        })
    {
        return store.intern_ints(game, &ints[..args.len()]).map(Some);
    }
    let mut key = Vec::new();
    for a in args {
        if encode_arg(a, &mut key).is_none() {
            return Ok(None);
        }
    }
    store.intern_key(game, &key).map(Some)
}

/// Appends the arguments of a position to `out`.
pub fn args_of(store: &Store, p: PosId, out: &mut Vec<Value>) {
    if let Some(args) = store.int_args(p) {
        out.extend(args.as_slice().iter().map(|&a| Value::Int(a)));
        return;
    }
    let mut key = Vec::new();
    store.key_of(p, &mut key);
    decode_args(&key, out);
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::rc::Rc;

    fn list(xs: Vec<Value>) -> Value {
        Value::List(xs.into())
    }

    /// Function arguments that differ have different memo keys: ∞ values
    /// by their sets K, alone or in lists (they once all had one key).
    #[test]
    fn infinite_arguments_have_keys_of_their_own() {
        let inf = |k: &[u32]| Value::Infinite(k.into());
        let args = [
            inf(&[]),
            inf(&[0]),
            inf(&[0, 2]),
            Value::Int(0),
            list(vec![inf(&[])]),
            list(vec![inf(&[1])]),
            list(vec![Value::Int(1), inf(&[])]),
        ];
        let keys: Vec<Vec<i64>> = args
            .iter()
            .map(|a| {
                let mut k = Vec::new();
                encode_call_arg(a, &mut k);
                k
            })
            .collect();
        for (i, a) in keys.iter().enumerate() {
            for b in &keys[i + 1..] {
                assert_ne!(a, b);
            }
        }
    }

    /// Written element by element or whole, a list has one key, and it
    /// decodes back to the list.
    #[test]
    fn a_list_has_one_key_however_it_is_written() {
        let ints = |xs: &[i64]| list(xs.iter().map(|&x| Value::Int(x)).collect());
        let cases = vec![
            ints(&[]),
            ints(&[3, -1, 7]),
            list(vec![Value::Int(1), Value::Bool(true), Value::Int(2)]),
            list(vec![Value::Bool(false)]),
            list(vec![Value::Int(4), ints(&[1, 2]), ints(&[])]),
            list(vec![ints(&[5]), Value::Int(6)]),
        ];
        for v in cases {
            let mut whole = vec![9];
            encode_arg(&v, &mut whole).unwrap();
            let mut parts = vec![9];
            let mut lk = ListKey::open(&mut parts);
            let Value::List(xs) = &v else { unreachable!() };
            for x in xs.iter() {
                lk.value(&mut parts, x).unwrap();
            }
            lk.close(&mut parts, xs.len());
            assert_eq!(parts, whole, "{v}");
            let mut back = Vec::new();
            decode_args(&whole[1..], &mut back);
            assert_eq!(back, vec![v]);
        }
    }

    /// A packed list has the key of the same list held element by element
    /// (a position is one position whichever form built its argument).
    #[test]
    fn packed_lists_have_the_keys_of_their_elements() {
        let cases = [
            (Value::Ints(Rc::from([])), vec![]),
            (
                Value::Ints(Rc::from([3, -1, 7])),
                vec![Value::Int(3), Value::Int(-1), Value::Int(7)],
            ),
            (Value::Bools(Rc::from([])), vec![]),
            (
                Value::Bools(Rc::from([true, false])),
                vec![Value::Bool(true), Value::Bool(false)],
            ),
        ];
        for (packed, elements) in cases {
            let (mut a, mut b) = (Vec::new(), Vec::new());
            encode_arg(&packed, &mut a).unwrap();
            encode_arg(&list(elements.clone()), &mut b).unwrap();
            assert_eq!(a, b, "{packed}");
            let (mut a, mut b) = (Vec::new(), Vec::new());
            encode_call_arg(&packed, &mut a);
            encode_call_arg(&list(elements), &mut b);
            assert_eq!(a, b, "{packed}");
            let mut back = Vec::new();
            decode_args(&a, &mut back);
            assert_eq!(back, vec![packed]);
        }
    }
}
