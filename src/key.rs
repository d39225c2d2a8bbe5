//! The keys of positions: game arguments (values) encoded as tagged words
//! for the store, and decoded back. The store knows only words; values know
//! nothing of keys; this module is the one place that joins the two.

use crate::ir::GameId;
use crate::store::{Full, PosId, Store, TAG_BOOL, TAG_INT, TAG_LIST};
use crate::value::Value;

/// Appends the key encoding of one argument; `None` for values that cannot
/// be game arguments (ranges, positions).
pub fn encode_arg(v: &Value, key: &mut Vec<i64>) -> Option<()> {
    match v {
        Value::Int(x) => key.extend([TAG_INT, *x]),
        Value::Bool(b) => key.extend([TAG_BOOL, i64::from(*b)]),
        Value::List(xs) => {
            key.extend([TAG_LIST, xs.len() as i64]);
            for x in xs.iter() {
                encode_arg(x, key)?;
            }
        }
        Value::Range(..) | Value::Pos(_) => return None,
    }
    Some(())
}

fn decode_one(key: &[i64]) -> Option<(Value, &[i64])> {
    match key {
        [TAG_INT, x, rest @ ..] => Some((Value::Int(*x), rest)),
        [TAG_BOOL, b, rest @ ..] => Some((Value::Bool(*b != 0), rest)),
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
