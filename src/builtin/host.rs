//! What a builtin's function asks of the machine that calls it
//! ([`Host`]): where the call and its arguments are, how a value is shown,
//! the work it does and the memory it takes; and its arguments read as
//! lists, within the limits, in the words every builtin uses.

use std::rc::Rc;

use crate::diagnostics::{Code, Diag};
use crate::flow::Stop;
use crate::span::Span;
use crate::value::Value;

/// The machine a builtin's function runs on, as the function sees it.
/// Errors are the machine's [`Stop`]s: a limit, Ctrl-C, or a user's error.
pub trait Host {
    /// Where the call is.
    fn span(&self) -> Span;
    /// Where argument `i` is (the call, past the last argument).
    fn place(&self, i: usize) -> Span;
    /// A value as the machine shows it (positions by their games' names).
    fn show(&self, v: &Value) -> String;
    /// A value as text (`print`'s and `str`'s: strings without quotes).
    fn text(&self, v: &Value) -> String;
    /// One unit of work; every so often, Ctrl-C and the limits.
    fn poll(&mut self) -> Result<(), Stop>;
    /// `units` of work done at once (looked at by the next `poll`).
    fn work(&mut self, units: u64);
    /// Whether `bytes` more fit under the memory limit.
    fn reserve(&mut self, bytes: usize) -> Result<(), Stop>;
    /// The most elements a list, keys a dictionary or bytes a string hold.
    fn max_list(&self) -> usize;

    /// Argument `i` is not what the checker let through: `want` was
    /// expected.
    fn type_bug(&self, i: usize, want: &str, got: &Value) -> Stop {
        type_mismatch(self.place(i), want, got).into()
    }

    /// Room for the range `lo..=hi` made a list of `bytes` per element
    /// (argument `i`): the list limit and the memory.
    fn range_room(&mut self, i: usize, lo: i64, hi: i64, bytes: usize) -> Result<(), Stop> {
        let len = if lo > hi {
            0
        } else {
            (i128::from(hi) - i128::from(lo) + 1) as u128
        };
        if len > self.max_list() as u128 {
            return Err(list_too_long(self.max_list(), self.place(i), len).into());
        }
        self.reserve((len as usize).saturating_mul(bytes))
    }

    /// Argument `i`, a list, as a list of any values (a range made one).
    fn list(&mut self, i: usize, v: Value) -> Result<Rc<[Value]>, Stop> {
        match v {
            Value::List(v) => Ok(v),
            Value::Range(lo, hi) => {
                self.range_room(i, lo, hi, std::mem::size_of::<Value>())?;
                Ok((lo..=hi).map(Value::Int).collect::<Vec<_>>().into())
            }
            other => match other.elements() {
                Some(xs) => {
                    self.reserve(xs.len().saturating_mul(std::mem::size_of::<Value>()))?;
                    Ok(xs.to_values())
                }
                None => Err(self.type_bug(i, "a list", &other)),
            },
        }
    }

    /// Argument `i`, a list, in whichever form it has (a range made a
    /// packed list of integers): read with [`Value::elements`].
    fn list_value(&mut self, i: usize, v: Value) -> Result<Value, Stop> {
        match v {
            Value::Range(lo, hi) => {
                self.range_room(i, lo, hi, 8)?;
                Ok(Value::Ints((lo..=hi).collect()))
            }
            v if v.elements().is_some() => Ok(v),
            other => Err(self.type_bug(i, "a list", &other)),
        }
    }

    /// Argument `i`, a list whose elements must all be integers: shared,
    /// not copied, when it is packed.
    fn ints(&mut self, i: usize, v: Value) -> Result<Rc<[i64]>, Stop> {
        let list = match v {
            Value::Ints(xs) => return Ok(xs),
            Value::Range(lo, hi) => {
                self.range_room(i, lo, hi, 8)?;
                return Ok((lo..=hi).collect());
            }
            Value::List(xs) => xs,
            other => match other.elements() {
                Some(xs) if xs.is_empty() => return Ok(Rc::from([])),
                _ => return Err(self.type_bug(i, "a list", &other)),
            },
        };
        list.iter()
            .map(|v| match v {
                Value::Int(x) => Ok(*x),
                Value::Wide(x) => Err(Diag::user(
                    Code::Overflow,
                    format!(
                        "an integer of {} bits in a list whose integers must fit 64 bits",
                        x.bits()
                    ),
                )
                .label(self.place(i), "this list")
                .help("`sum`, `min`, `max`, `sorted`, `xor`, `mex` and `bisect` take lists of 64-bit integers")
                .into()),
                other => Err(Diag::user(
                    Code::TypeMismatch,
                    format!(
                        "expected a list of integers, found {} in it",
                        other.type_name()
                    ),
                )
                .label(self.place(i), "this list")
                .into()),
            })
            .collect()
    }

    /// Argument `i`, an integer.
    fn int(&self, i: usize, v: &Value) -> Result<i64, Stop> {
        match v {
            Value::Int(x) => Ok(*x),
            other => Err(self.type_bug(i, "an integer", other)),
        }
    }

    /// Argument `i`, a string.
    fn str<'v>(&self, i: usize, v: &'v Value) -> Result<&'v Rc<str>, Stop> {
        match v {
            Value::Str(s) => Ok(s),
            other => Err(self.type_bug(i, "a string", other)),
        }
    }
}

/// A value of the wrong type at `span`, where `want` was expected.
pub fn type_mismatch(span: Span, want: &str, got: &Value) -> Diag {
    // An integer, where one of 64 bits is needed: too wide, not mistyped.
    if let Value::Wide(x) = got
        && want.contains("integer")
    {
        return too_wide(span, x);
    }
    Diag::user(
        Code::TypeMismatch,
        format!("expected {want}, found {}", got.type_name()),
    )
    .label(span, format!("this is {}", got.type_name()))
}

/// An integer wider than 64 bits at `span`, where one of 64 bits is
/// needed (an index, a range's bound, a count).
pub fn too_wide(span: Span, x: &crate::ops::Wide) -> Diag {
    Diag::user(
        Code::Overflow,
        format!(
            "an integer of {} bits where one of 64 bits is needed",
            x.bits()
        ),
    )
    .label(span, "this is wider than 64 bits")
    .help(format!(
        "integers of any width are kept and compared, and take `+ - * / % ** << >> & | ^`, \
         `abs`, `popcount`, `isqrt`, `gcd` and the board functions; here only {} to {} will do",
        i64::MIN,
        i64::MAX
    ))
}

/// A list at `span` that would hold `len` elements, past the list limit
/// `max`.
pub fn list_too_long(max: usize, span: Span, len: u128) -> Diag {
    let what = if len > max as u128 + 1 {
        format!("{len} elements")
    } else {
        format!("more than {max} elements")
    };
    Diag::user(Code::ListLimit, format!("this list would hold {what}"))
        .label(span, "too long")
        .help(format!(
            "lists hold at most {max} elements; raise the limit with `--max-list N`"
        ))
}

/// A string at `span` that would hold `len` bytes, past the list limit
/// `max`.
pub fn string_too_long(max: usize, span: Span, len: usize) -> Diag {
    Diag::user(
        Code::ListLimit,
        format!("this string would hold {len} bytes"),
    )
    .label(span, "too long")
    .help(format!(
        "strings hold at most {max} bytes (the list limit); raise it with `--max-list N`"
    ))
}

/// An integer that overflows 64 bits in `what`, at `span`.
pub fn overflow(span: Span, what: String) -> Diag {
    Diag::user(Code::Overflow, format!("integer overflow in {what}"))
        .label(span, "overflows 64 bits")
        .help(format!("integers range from {} to {}", i64::MIN, i64::MAX))
}
