//! The builtins of text: `str`, `chars`, `int`, `ord`, `chr`, each a
//! function of its argument's value.

use super::host::Host;
use crate::diagnostics::{Code, Diag};
use crate::flow::Stop;
use crate::value::Value;

type Out = Result<Value, Stop>;

/// `str(x)`: a value as text, as `print` shows it.
pub(super) fn str(args: &[Value], h: &mut dyn Host) -> Out {
    Ok(Value::Str(h.text(&args[0]).into()))
}

/// `chars(s)`: a string's characters, each a string.
pub(super) fn chars(args: &[Value], h: &mut dyn Host) -> Out {
    let s = h.str(0, &args[0])?;
    h.reserve(s.len().saturating_mul(std::mem::size_of::<Value>() + 8))?;
    Ok(Value::List(
        s.chars()
            .map(|c| Value::Str(c.to_string().into()))
            .collect(),
    ))
}

/// `int(s)`: a string read as a 64-bit integer.
pub(super) fn int(args: &[Value], h: &mut dyn Host) -> Out {
    let s = h.str(0, &args[0])?;
    s.trim().parse::<i64>().map(Value::Int).map_err(|_| {
        let shown: String = s.chars().take(40).flat_map(char::escape_debug).collect();
        Diag::user(Code::BadInput, format!("\"{shown}\" is not an integer"))
            .label(h.place(0), "this string")
            .help("`int(s)` reads a 64-bit integer: an optional sign, then digits")
            .into()
    })
}

/// `ord(c)`: the code of a character.
pub(super) fn ord(args: &[Value], h: &mut dyn Host) -> Out {
    let s = h.str(0, &args[0])?;
    let mut cs = s.chars();
    match (cs.next(), cs.next()) {
        (Some(c), None) => Ok(Value::Int(i64::from(u32::from(c)))),
        _ => Err(Diag::user(
            Code::TypeMismatch,
            format!(
                "`ord` of a string of {} characters",
                crate::value::char_count(s)
            ),
        )
        .label(h.place(0), "not one character")
        .help("`ord(c)` takes one character: `ord(s[i])` for the i-th of a string")
        .into()),
    }
}

/// `chr(n)`: the character of a code.
pub(super) fn chr(args: &[Value], h: &mut dyn Host) -> Out {
    let n = h.int(0, &args[0])?;
    match u32::try_from(n).ok().and_then(char::from_u32) {
        Some(c) => Ok(Value::Str(c.to_string().into())),
        None => Err(Diag::user(
            Code::IndexOutOfRange,
            format!("{n} is not the code of a character"),
        )
        .label(h.place(0), format!("{n}"))
        .help("character codes are Unicode scalar values: 0 to 0x10FFFF, not 0xD800 to 0xDFFF")
        .into()),
    }
}
