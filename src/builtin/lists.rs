//! The builtins of lists: `len`, `sum`, `min`, `max`, `sorted`, `mex`,
//! `xor`, `bisect`, `join`, each a function of its arguments' values.

use super::host::{Host, overflow, string_too_long};
use crate::diagnostics::{Code, Diag};
use crate::flow::Stop;
use crate::mex::Seen;
use crate::value::Value;

/// Bytes of text copied per unit of work (a move examined costs about as
/// much as copying this many bytes).
pub const TEXT_BYTES_PER_WORK: u64 = 64;

type Out = Result<Value, Stop>;

/// `len(xs)`: of a list, a string (its characters) or a dictionary.
pub(super) fn len(args: &[Value], h: &mut dyn Host) -> Out {
    let n = match &args[0] {
        Value::Str(s) => crate::value::char_count(s) as i64,
        Value::Range(lo, hi) if lo > hi => 0,
        Value::Range(lo, hi) => i64::try_from(i128::from(*hi) - i128::from(*lo) + 1)
            .map_err(|_| overflow(h.span(), format!("len({lo}..={hi})")))?,
        Value::Dict(d) => d.len() as i64,
        other => match other.elements() {
            Some(xs) => xs.len() as i64,
            None => return Err(h.type_bug(0, "a list or a string", other)),
        },
    };
    Ok(Value::Int(n))
}

/// `sum(xs)`, within 64 bits.
pub(super) fn sum(args: &[Value], h: &mut dyn Host) -> Out {
    let list = h.ints(0, args[0].clone())?;
    let mut acc: i64 = 0;
    for &v in list.iter() {
        acc = acc
            .checked_add(v)
            .ok_or_else(|| overflow(h.span(), format!("{acc} + {v}")))?;
    }
    Ok(Value::Int(acc))
}

/// `min(xs)` or `min(a, b, ...)`.
pub(super) fn min(args: &[Value], h: &mut dyn Host) -> Out {
    least_or_greatest("min", args, h, |xs| xs.iter().min().copied())
}

/// `max(xs)` or `max(a, b, ...)`.
pub(super) fn max(args: &[Value], h: &mut dyn Host) -> Out {
    least_or_greatest("max", args, h, |xs| xs.iter().max().copied())
}

fn least_or_greatest(
    name: &str,
    args: &[Value],
    h: &mut dyn Host,
    best: fn(&[i64]) -> Option<i64>,
) -> Out {
    let found = if let [list] = args {
        best(&h.ints(0, list.clone())?)
    } else {
        let mut found = None;
        for (i, v) in args.iter().enumerate() {
            let x = h.int(i, v)?;
            found = Some(found.map_or(x, |b| best(&[b, x]).unwrap_or(b)));
        }
        found
    };
    found.map(Value::Int).ok_or_else(|| {
        Diag::user(Code::EmptyMinMax, format!("{name} of an empty list"))
            .label(h.span(), "the list is empty")
            .into()
    })
}

/// `sorted(xs)`: a sorted copy.
pub(super) fn sorted(args: &[Value], h: &mut dyn Host) -> Out {
    let mut v = h.ints(0, args[0].clone())?.to_vec();
    v.sort_unstable();
    Ok(Value::Ints(v.into()))
}

/// `mex(xs)`: the least non-negative integer not in the list.
pub(super) fn mex(args: &[Value], h: &mut dyn Host) -> Out {
    let list = h.ints(0, args[0].clone())?;
    let mut seen = Seen::default();
    for &v in list.iter() {
        if let Ok(v) = u32::try_from(v)
            && (v as usize) <= list.len()
        {
            seen.insert(v);
        }
    }
    Ok(Value::Int(seen.mex() as i64))
}

/// `xor(xs)`: the bitwise XOR of the integers.
pub(super) fn xor(args: &[Value], h: &mut dyn Host) -> Out {
    let list = h.ints(0, args[0].clone())?;
    Ok(Value::Int(list.iter().fold(0, |x, &v| x ^ v)))
}

/// `bisect(xs, x)`: the first index of a sorted list of integers whose
/// element is at least x. The list is shared, not copied: log(n) probes.
pub(super) fn bisect(args: &[Value], h: &mut dyn Host) -> Out {
    let list = h.list_value(0, args[0].clone())?;
    let Some(list) = list.elements() else {
        return Err(Diag::bug("a list that has no elements").into());
    };
    let x = h.int(1, &args[1])?;
    let (mut lo, mut hi) = (0usize, list.len());
    while lo < hi {
        let mid = lo + (hi - lo) / 2;
        let at = list.get(mid).unwrap_or(Value::Int(0));
        let Value::Int(v) = at else {
            return Err(Diag::user(
                Code::TypeMismatch,
                format!("`bisect` met {} in its list", at.type_name()),
            )
            .label(h.span(), "here")
            .help("`bisect` searches a sorted list of integers")
            .into());
        };
        if v < x {
            lo = mid + 1;
        } else {
            hi = mid;
        }
    }
    Ok(Value::Int(lo as i64))
}

/// `join(xs, sep)`: the elements as text, separated.
pub(super) fn join(args: &[Value], h: &mut dyn Host) -> Out {
    let list = h.list(0, args[0].clone())?;
    let sep = h.str(1, &args[1])?;
    let mut text = String::new();
    for (i, v) in list.iter().enumerate() {
        h.poll()?;
        if i > 0 {
            text.push_str(sep);
        }
        text.push_str(&h.text(v));
        if text.len() > h.max_list() {
            return Err(string_too_long(h.max_list(), h.span(), text.len()).into());
        }
    }
    // Copying text is work: long strings built in a loop look at the
    // limits (and Ctrl-C) as often as short ones.
    h.work(text.len() as u64 / TEXT_BYTES_PER_WORK);
    h.reserve(text.len())?;
    Ok(Value::Str(text.into()))
}
