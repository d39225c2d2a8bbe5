//! What `input_ints()`, `input_tokens()` and `input_lines()` read:
//! standard input (or any text a front end gives), read once, when first
//! asked, and kept as text; each asks for it as a list.
//!
//! Reading waits on its own thread, so that Ctrl-C (and the limits) are
//! looked at while a terminal is being typed into; a list is counted
//! against the list and memory limits before it is built.

use crate::diagnostics::{Code, Diag};
use crate::flow::{Limit, R, Stop};
use crate::value::Value;
use std::rc::Rc;
use std::sync::mpsc::{Receiver, RecvTimeoutError};
use std::time::Duration;

/// A source of input text.
#[derive(Default)]
pub enum Input {
    /// Not read yet: reads the whole text when called, refusing it once
    /// it would pass the memory limit given (0: none).
    Unread(Box<dyn FnOnce(usize) -> std::io::Result<String> + Send>),
    /// Being read on its own thread.
    Reading(Receiver<std::io::Result<String>>),
    /// Read: the text, and its integers once asked for.
    Read(Rc<str>, Option<Rc<[i64]>>),
    /// There is none here, or it could not be read; the text says why.
    Unavailable(String),
    /// Taken while being read.
    #[default]
    Gone,
}

/// How often a read in progress looks at Ctrl-C.
const LOOK_EVERY: Duration = Duration::from_millis(20);

/// How a list read from the input is bounded: its length by the list
/// limit, its bytes by `room` before it is built; the text itself, as it
/// is read, by the memory limit `max_memory` (0: none).
pub struct Bounds<'a> {
    pub max_list: usize,
    pub room: &'a dyn Fn(usize) -> R<()>,
    pub max_memory: usize,
}

impl Input {
    /// Input from this text.
    pub fn text(text: impl Into<String>) -> Input {
        let text = text.into();
        Input::Unread(Box::new(move |limit| read_bounded(text.as_bytes(), limit)))
    }

    /// Standard input of the process.
    pub fn stdin() -> Input {
        Input::Unread(Box::new(|limit| {
            read_bounded(std::io::stdin().lock(), limit)
        }))
    }

    /// The text, if it has been read.
    pub fn read_text(&self) -> Option<&str> {
        match self {
            Input::Read(text, _) => Some(text),
            _ => None,
        }
    }

    /// Whether the input is still to be read (a wait may be ahead).
    pub fn pending(&self) -> bool {
        matches!(self, Input::Unread(_) | Input::Reading(_))
    }

    /// Where the input's integers end, when `xs` is them as `input_ints()`
    /// gave them: how many, and the line and column just after the last.
    pub fn ints_end(&self, xs: &Rc<[i64]>) -> Option<(usize, usize, usize)> {
        match self {
            Input::Read(text, Some(ints)) if Rc::ptr_eq(ints, xs) => {
                let end = text.trim_end().len();
                let line = text[..end].matches('\n').count() + 1;
                let start = text[..end].rfind('\n').map_or(0, |i| i + 1);
                Some((ints.len(), line, text[start..end].chars().count() + 1))
            }
            _ => None,
        }
    }

    /// The whole text (read at the first call), refused as it is read once
    /// it would pass `max_memory`. While it is read, `poll` is called every
    /// few milliseconds (Ctrl-C ends the wait; asking again waits on).
    pub fn read(&mut self, poll: &mut dyn FnMut() -> R<()>, max_memory: usize) -> R<Rc<str>> {
        loop {
            match std::mem::take(self) {
                Input::Unread(read) => {
                    let (tx, rx) = std::sync::mpsc::channel();
                    let spawned =
                        std::thread::Builder::new()
                            .name("input".into())
                            .spawn(move || {
                                let _ = tx.send(read(max_memory));
                            });
                    *self = match spawned {
                        Ok(_) => Input::Reading(rx),
                        Err(e) => Input::Unavailable(format!("standard input cannot be read: {e}")),
                    };
                }
                Input::Reading(rx) => match rx.recv_timeout(LOOK_EVERY) {
                    Ok(Ok(text)) => *self = Input::Read(text.into(), None),
                    Ok(Err(e)) if e.kind() == std::io::ErrorKind::OutOfMemory => {
                        // What was read is gone: later reads say why.
                        *self = Input::Unavailable(e.to_string());
                        return Err(Limit::Memory.stop(e.to_string()).help(
                            "raise the limit with `--max-memory SIZE`, or check what is piped in",
                        ));
                    }
                    Ok(Err(e)) => {
                        *self = Input::Unavailable(format!("standard input cannot be read: {e}"))
                    }
                    Err(RecvTimeoutError::Disconnected) => {
                        *self = Input::Unavailable("standard input cannot be read".into())
                    }
                    Err(RecvTimeoutError::Timeout) => {
                        *self = Input::Reading(rx);
                        poll()?;
                    }
                },
                Input::Read(text, ints) => {
                    *self = Input::Read(text.clone(), ints);
                    return Ok(text);
                }
                Input::Unavailable(why) => {
                    *self = Input::Unavailable(why.clone());
                    return Err(no_input(why));
                }
                Input::Gone => {
                    return Err(no_input("the input was not read"));
                }
            }
        }
    }

    /// Every integer of the input, in order.
    pub fn ints(&mut self, poll: &mut dyn FnMut() -> R<()>, bounds: &Bounds) -> R<Rc<[i64]>> {
        let text = self.read(poll, bounds.max_memory)?;
        if let Input::Read(_, Some(ints)) = self {
            return Ok(ints.clone());
        }
        let ints = parse_ints(&text, bounds)?;
        *self = Input::Read(text, Some(ints.clone()));
        Ok(ints)
    }

    /// Every word of the input (separated by whitespace), in order: an
    /// integer where it reads as one, else a string.
    pub fn tokens(&mut self, poll: &mut dyn FnMut() -> R<()>, bounds: &Bounds) -> R<Value> {
        let text = self.read(poll, bounds.max_memory)?;
        let words = || text.split_whitespace();
        let count = within(words().count(), "words", bounds)?;
        (bounds.room)(count.saturating_mul(std::mem::size_of::<Value>()) + text.len())?;
        Ok(Value::list(
            words()
                .map(|w| match w.parse::<i64>() {
                    Ok(v) => Value::Int(v),
                    Err(_) => Value::Str(w.into()),
                })
                .collect(),
        ))
    }

    /// Every line of the input as a string, without its line ending.
    pub fn lines(&mut self, poll: &mut dyn FnMut() -> R<()>, bounds: &Bounds) -> R<Value> {
        let text = self.read(poll, bounds.max_memory)?;
        let count = within(text.lines().count(), "lines", bounds)?;
        (bounds.room)(count.saturating_mul(std::mem::size_of::<Value>()) + text.len())?;
        Ok(Value::List(
            text.lines().map(|l| Value::Str(l.into())).collect(),
        ))
    }
}

/// Reads `r` to its end as UTF-8, a block at a time, refusing the text
/// (`ErrorKind::OutOfMemory`) once holding it would pass `limit` bytes in
/// use (0: no limit): a piped `/dev/zero` ends at the limit.
fn read_bounded(mut r: impl std::io::Read, limit: usize) -> std::io::Result<String> {
    use std::io::{Error, ErrorKind};
    let mut bytes = Vec::new();
    let mut block = vec![0u8; 1 << 16];
    loop {
        let n = match r.read(&mut block) {
            Ok(0) => break,
            Ok(n) => n,
            Err(e) if e.kind() == ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        };
        let need = bytes.len() + n;
        if need > bytes.capacity() {
            // Doubling, but never past the limit itself: only what is
            // needed must fit.
            let mut grown = need.max(bytes.capacity().saturating_mul(2));
            if limit > 0 {
                grown = grown.min(limit).max(need);
            }
            if !crate::memory::fits(grown - bytes.len(), limit) || (limit > 0 && need > limit) {
                let message = format!(
                    "the input is larger than the memory limit of {} allows (more than {} read)",
                    crate::memory::show(limit),
                    crate::memory::show(bytes.len())
                );
                return Err(Error::new(ErrorKind::OutOfMemory, message));
            }
            bytes.reserve_exact(grown - bytes.len());
        }
        bytes.extend_from_slice(&block[..n]);
    }
    String::from_utf8(bytes)
        .map_err(|_| Error::new(ErrorKind::InvalidData, "stream did not contain valid UTF-8"))
}

/// `count` pieces of the input, if the list limit allows them.
fn within(count: usize, what: &str, bounds: &Bounds) -> R<usize> {
    if count > bounds.max_list {
        return Err(Diag::user(
            Code::ListLimit,
            format!(
                "the input holds {count} {what}, more than the list limit of {}",
                bounds.max_list
            ),
        )
        .help("raise the limit with `--max-list N`")
        .into());
    }
    Ok(count)
}

/// [`parse_ints`] of an ASCII text, a byte at a time, in one pass: `None`
/// where a word is not an integer (the general reading then says where).
fn ascii_ints(text: &str, bounds: &Bounds) -> Option<R<Rc<[i64]>>> {
    // `char::is_whitespace` on ASCII, and commas: one table lookup a byte.
    const SEP: [bool; 256] = {
        let mut t = [false; 256];
        let mut c = 0;
        while c < 256 {
            let b = c as u8;
            t[c] = b.is_ascii_whitespace() || b == 0x0b || b == b',';
            c += 1;
        }
        t
    };
    let sep = |c: u8| SEP[c as usize];
    let bytes = text.as_bytes();
    let mut out: Vec<i64> = Vec::new();
    let mut at = 0;
    loop {
        while at < bytes.len() && sep(bytes[at]) {
            at += 1;
        }
        if at == bytes.len() {
            break;
        }
        let start = at;
        while at < bytes.len() && !sep(bytes[at]) {
            at += 1;
        }
        // Before the list grows: the list limit, and the memory it takes.
        if out.len() == out.capacity() {
            if out.len() >= bounds.max_list {
                let words = bytes.split(|&c| sep(c)).filter(|w| !w.is_empty()).count();
                return Some(within(words, "words", bounds).map(|_| Rc::from([])));
            }
            let room = (out.capacity() * 2).max(1024).min(bounds.max_list.max(1));
            if let Err(e) = (bounds.room)(room.saturating_mul(8)) {
                return Some(Err(e));
            }
            out.reserve_exact(room - out.len());
        }
        out.push(ascii_int(&bytes[start..at])?);
    }
    Some(Ok(out.into()))
}

/// An ASCII word as an integer, as `str::parse::<i64>` reads it (an
/// optional sign, then at least one digit), digit by digit.
#[inline]
fn ascii_int(w: &[u8]) -> Option<i64> {
    let (negative, digits) = match w {
        [b'-', rest @ ..] => (true, rest),
        [b'+', rest @ ..] => (false, rest),
        _ => (false, w),
    };
    if digits.is_empty() {
        return None;
    }
    // Built negative, so that `i64::MIN` fits.
    let mut v: i64 = 0;
    for &c in digits {
        let d = c.wrapping_sub(b'0');
        if d > 9 {
            return None;
        }
        v = v.checked_mul(10)?.checked_sub(i64::from(d))?;
    }
    if negative { Some(v) } else { v.checked_neg() }
}

/// The integers of a text: words separated by whitespace or commas, each
/// an integer (an optional sign, then digits), within the bounds.
pub fn parse_ints(text: &str, bounds: &Bounds) -> R<Rc<[i64]>> {
    if text.is_ascii()
        && let Some(ints) = ascii_ints(text, bounds)
    {
        return ints;
    }
    let words = || {
        text.lines().enumerate().flat_map(|(line, l)| {
            let mut at = 0;
            l.split(|c: char| c.is_whitespace() || c == ',')
                .map(move |w| {
                    let start = at;
                    at += w.len() + l[at + w.len()..].chars().next().map_or(0, char::len_utf8);
                    (line, start, w)
                })
                .filter(|(_, _, w)| !w.is_empty())
        })
    };
    let count = within(words().count(), "words", bounds)?;
    (bounds.room)(count.saturating_mul(8))?;
    let mut out = Vec::with_capacity(count);
    for (line, start, word) in words() {
        match word.parse::<i64>() {
            Ok(v) => out.push(v),
            Err(_) => {
                // Control characters escaped: the report is for a terminal.
                let shown: String = word.chars().take(40).flat_map(char::escape_debug).collect();
                // Counted here only: per word, it would be quadratic in a line.
                let column = text
                    .lines()
                    .nth(line)
                    .map_or(0, |l| l[..start].chars().count())
                    + 1;
                return Err(Diag::user(
                    Code::BadInput,
                    format!(
                        "the input is not all integers: `{shown}` on line {}, column {column}",
                        line + 1
                    ),
                )
                .help(
                    "input_ints() reads integers (64-bit, an optional sign, then digits) \
                     separated by spaces, newlines or commas; input_tokens() reads words as \
                     integers or strings, input_lines() lines",
                )
                .into());
            }
        }
    }
    Ok(out.into())
}

/// The error of input that cannot be read.
fn no_input(why: impl Into<String>) -> Stop {
    Diag::user(Code::NoInput, why)
        .help("run the file with its input on standard input: `grundy FILE < input.txt`")
        .into()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ascii_ints_read_as_rust_parses_them() {
        let words = [
            "0",
            "7",
            "-7",
            "+7",
            "007",
            "-0",
            "9223372036854775807",
            "-9223372036854775808",
            "9223372036854775808",
            "-9223372036854775809",
            "",
            "-",
            "+",
            "1-",
            "--1",
            "+-1",
            "12a",
            "a",
            "1 2",
            "99999999999999999999",
        ];
        for w in words {
            assert_eq!(ascii_int(w.as_bytes()), w.parse::<i64>().ok(), "{w:?}");
        }
    }

    fn ints(input: &mut Input) -> R<Rc<[i64]>> {
        input.ints(
            &mut || Ok(()),
            &Bounds {
                max_list: 1000,
                room: &|_| Ok(()),
                max_memory: 0,
            },
        )
    }

    fn code<T: std::fmt::Debug>(r: R<Rc<[T]>>) -> Code {
        match r {
            Err(s @ (Stop::Error(_) | Stop::Limit(..))) => s.into_diag().code,
            other => panic!("{:?}", other.map(|v| v.len())),
        }
    }

    /// The byte reader of ASCII text reads what the general one reads:
    /// every whitespace `char::is_whitespace` knows, commas, signs.
    #[test]
    fn ascii_reader_agrees_with_the_general_one() {
        let bounds = Bounds {
            max_list: 1000,
            room: &|_| Ok(()),
            max_memory: 0,
        };
        for text in [
            "1\x0b2\x0c3\t4\r\n5,,6 , 7",
            "  -0 +9 -9223372036854775808 9223372036854775807\n",
            "",
            ",\n,",
            "12",
        ] {
            let fast = ascii_ints(text, &bounds).expect("integers").ok();
            // The general reading, as for a text that is not ASCII.
            let general = parse_ints(&format!("{text} \u{a0}"), &bounds).ok();
            assert_eq!(fast, general, "{text:?}");
        }
        // A word that is no integer: the general reading says where.
        assert!(ascii_ints("1 2x", &bounds).is_none());
        assert!(ascii_ints("9223372036854775808", &bounds).is_none());
    }

    #[test]
    fn reads_integers_once() {
        let mut input = Input::text("2  3 1 2 4\n 2 5,5\n-7 +8\n");
        let want: Vec<i64> = vec![2, 3, 1, 2, 4, 2, 5, 5, -7, 8];
        assert_eq!(&*ints(&mut input).unwrap(), &want[..]);
        assert_eq!(&*ints(&mut input).unwrap(), &want[..]);
        let err = ints(&mut Input::text("1 2\n3 x4")).unwrap_err().into_diag();
        assert!(
            err.message.contains("`x4` on line 2, column 3"),
            "{}",
            err.message
        );
        assert_eq!(err.code, Code::BadInput);
        assert_eq!(code(ints(&mut Input::default())), Code::NoInput);
        assert_eq!(
            code(ints(&mut Input::text("99999999999999999999"))),
            Code::BadInput
        );
    }

    #[test]
    fn tokens_and_lines_as_they_come() {
        let mut input = Input::text("3 abc\r\n-4  x1\n\nlast line\n");
        let bounds = Bounds {
            max_list: 100,
            room: &|_| Ok(()),
            max_memory: 0,
        };
        let tokens = input.tokens(&mut || Ok(()), &bounds).unwrap();
        let s = |t: &str| Value::Str(t.into());
        let want = [
            Value::Int(3),
            s("abc"),
            Value::Int(-4),
            s("x1"),
            s("last"),
            s("line"),
        ];
        assert_eq!(tokens, Value::List(want.into()));
        let lines = input.lines(&mut || Ok(()), &bounds).unwrap();
        let want = [s("3 abc"), s("-4  x1"), s(""), s("last line")];
        assert_eq!(lines, Value::List(want.into()));
        // The same text as integers: not all are.
        let err = input.ints(&mut || Ok(()), &bounds).unwrap_err().into_diag();
        assert!(
            err.message.contains("`abc` on line 1, column 3"),
            "{}",
            err.message
        );
    }

    #[test]
    fn control_characters_are_escaped() {
        let err = ints(&mut Input::text("1 x\0y")).unwrap_err().into_diag();
        assert!(err.message.contains("`x\\0y`"), "{}", err.message);
    }

    #[test]
    fn the_list_and_memory_limits_apply_before_the_list_is_built() {
        let mut input = Input::text("1 2 3 4 5");
        let ok = &|_| Ok(());
        let r = input.ints(
            &mut || Ok(()),
            &Bounds {
                max_list: 4,
                room: ok,
                max_memory: 0,
            },
        );
        assert_eq!(code(r), Code::ListLimit);
        let full = &|_| Err(Limit::Memory.stop("full"));
        let r = input.ints(
            &mut || Ok(()),
            &Bounds {
                max_list: 5,
                room: full,
                max_memory: 0,
            },
        );
        assert_eq!(code(r), Code::MemoryLimit);
        // The text is kept: with room, the same input reads.
        let r = input.ints(
            &mut || Ok(()),
            &Bounds {
                max_list: 5,
                room: ok,
                max_memory: 0,
            },
        );
        assert_eq!(r.unwrap().len(), 5);
        let r = input.tokens(
            &mut || Ok(()),
            &Bounds {
                max_list: 4,
                room: ok,
                max_memory: 0,
            },
        );
        assert_eq!(code(r.map(|_| Rc::<[i64]>::from([]))), Code::ListLimit);
    }

    #[test]
    fn a_text_past_the_limit_is_refused_as_it_is_read() {
        // Endless input ends at the limit, not at the end of memory.
        let err = read_bounded(std::io::repeat(b'7'), 1 << 20).unwrap_err();
        assert_eq!(err.kind(), std::io::ErrorKind::OutOfMemory);
        assert_eq!(read_bounded(&b"12 34"[..], 1 << 20).unwrap(), "12 34");
        assert_eq!(
            read_bounded(&[0xff][..], 0).unwrap_err().kind(),
            std::io::ErrorKind::InvalidData
        );
    }

    #[test]
    fn a_wait_for_input_looks_at_ctrl_c() {
        let (_tx, rx) = std::sync::mpsc::channel::<std::io::Result<String>>();
        let mut input = Input::Reading(rx);
        let bounds = Bounds {
            max_list: 10,
            room: &|_| Ok(()),
            max_memory: 0,
        };
        let r = input.ints(&mut || Err(Stop::Interrupted), &bounds);
        assert_eq!(r.map(|v| v.len()), Err(Stop::Interrupted));
        assert!(matches!(input, Input::Reading(_)), "asking again waits on");
    }
}
