//! What `input_ints()` reads: standard input (or any text a front end
//! gives), read once, when first asked, as the list of its integers.
//!
//! Reading waits on its own thread, so that Ctrl-C (and the limits) are
//! looked at while a terminal is being typed into; the list is counted
//! against the list and memory limits before it is built.

use crate::diagnostics::{Code, Diag};
use crate::flow::R;
use crate::value::Value;
use std::rc::Rc;
use std::sync::mpsc::{Receiver, RecvTimeoutError};
use std::time::Duration;

/// A source of input text.
#[derive(Default)]
pub enum Input {
    /// Not read yet: reads the whole text when called.
    Unread(Box<dyn FnOnce() -> std::io::Result<String> + Send>),
    /// Being read on its own thread.
    Reading(Receiver<std::io::Result<String>>),
    /// Read, not yet made a list (a limit stopped that).
    Text(Rc<str>),
    /// Read: its integers.
    Ints(Rc<[Value]>),
    /// There is none here, or it could not be read; the text says why.
    Unavailable(String),
    /// Taken while being read.
    #[default]
    Gone,
}

/// How often a read in progress looks at Ctrl-C.
const LOOK_EVERY: Duration = Duration::from_millis(20);

impl Input {
    /// Input from this text.
    pub fn text(text: impl Into<String>) -> Input {
        let text = text.into();
        Input::Unread(Box::new(move || Ok(text)))
    }

    /// Standard input of the process.
    pub fn stdin() -> Input {
        Input::Unread(Box::new(|| std::io::read_to_string(std::io::stdin())))
    }

    /// Whether the input is still to be read (a wait may be ahead).
    pub fn pending(&self) -> bool {
        matches!(self, Input::Unread(_) | Input::Reading(_))
    }

    /// Every integer of the input, in order (read at the first call).
    /// While it is read, `poll` is called every few milliseconds (Ctrl-C
    /// ends the wait; asking again waits on); before the list is built,
    /// `room` is asked for its bytes and `max_list` bounds its length.
    pub fn ints(
        &mut self,
        max_list: usize,
        poll: &mut dyn FnMut() -> R<()>,
        room: &dyn Fn(usize) -> R<()>,
    ) -> R<Rc<[Value]>> {
        loop {
            match std::mem::take(self) {
                Input::Unread(read) => {
                    let (tx, rx) = std::sync::mpsc::channel();
                    let spawned =
                        std::thread::Builder::new()
                            .name("input".into())
                            .spawn(move || {
                                let _ = tx.send(read());
                            });
                    *self = match spawned {
                        Ok(_) => Input::Reading(rx),
                        Err(e) => Input::Unavailable(format!("standard input cannot be read: {e}")),
                    };
                }
                Input::Reading(rx) => match rx.recv_timeout(LOOK_EVERY) {
                    Ok(Ok(text)) => *self = Input::Text(text.into()),
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
                Input::Text(text) => {
                    let result = parse_ints(&text, max_list, room);
                    *self = match &result {
                        Ok(ints) => Input::Ints(ints.clone()),
                        Err(_) => Input::Text(text),
                    };
                    return result;
                }
                Input::Ints(ints) => {
                    *self = Input::Ints(ints.clone());
                    return Ok(ints);
                }
                Input::Unavailable(why) => {
                    *self = Input::Unavailable(why.clone());
                    return Err(Diag::user(Code::NoInput, why).into());
                }
                Input::Gone => {
                    return Err(Diag::user(Code::NoInput, "the input was not read").into());
                }
            }
        }
    }
}

/// The integers of a text: words separated by whitespace or commas, each
/// an integer (an optional sign, then digits), at most `max_list` of them,
/// and the list's bytes asked of `room` before it is built.
pub fn parse_ints(text: &str, max_list: usize, room: &dyn Fn(usize) -> R<()>) -> R<Rc<[Value]>> {
    let words = || {
        text.lines().enumerate().flat_map(|(line, l)| {
            l.split(|c: char| c.is_whitespace() || c == ',')
                .filter(|w| !w.is_empty())
                .map(move |w| (line, w))
        })
    };
    let count = words().count();
    if count > max_list {
        return Err(Diag::user(
            Code::ListLimit,
            format!("the input holds {count} words, more than the list limit of {max_list}"),
        )
        .help("raise the limit with `--max-list N`")
        .into());
    }
    room(count.saturating_mul(std::mem::size_of::<Value>()))?;
    let mut out = Vec::with_capacity(count);
    for (line, word) in words() {
        match word.parse::<i64>() {
            Ok(v) => out.push(Value::Int(v)),
            Err(_) => {
                // Control characters escaped: the report is for a terminal.
                let shown: String = word.chars().take(40).flat_map(char::escape_debug).collect();
                return Err(Diag::user(
                    Code::BadInput,
                    format!(
                        "the input is not all integers: `{shown}` on line {}",
                        line + 1
                    ),
                )
                .help(
                    "input_ints() reads integers (64-bit, an optional sign, then digits) \
                     separated by spaces, newlines or commas",
                )
                .into());
            }
        }
    }
    Ok(out.into())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::flow::Stop;

    fn ints(input: &mut Input) -> R<Rc<[Value]>> {
        input.ints(1000, &mut || Ok(()), &|_| Ok(()))
    }

    fn code(r: R<Rc<[Value]>>) -> Code {
        match r {
            Err(Stop::Error(d)) => d.code,
            other => panic!("{:?}", other.map(|v| v.len())),
        }
    }

    #[test]
    fn reads_integers_once() {
        let mut input = Input::text("2  3 1 2 4\n 2 5,5\n-7 +8\n");
        let want: Vec<Value> = [2, 3, 1, 2, 4, 2, 5, 5, -7, 8]
            .into_iter()
            .map(Value::Int)
            .collect();
        assert_eq!(&*ints(&mut input).unwrap(), &want[..]);
        assert_eq!(&*ints(&mut input).unwrap(), &want[..]);
        let err = ints(&mut Input::text("1 2\n3 x4")).unwrap_err().into_diag();
        assert!(err.message.contains("`x4` on line 2"), "{}", err.message);
        assert_eq!(err.code, Code::BadInput);
        assert_eq!(code(ints(&mut Input::default())), Code::NoInput);
        assert_eq!(
            code(ints(&mut Input::text("99999999999999999999"))),
            Code::BadInput
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
        let r = input.ints(4, &mut || Ok(()), &|_| Ok(()));
        assert_eq!(code(r), Code::ListLimit);
        let r = input.ints(5, &mut || Ok(()), &|_| {
            Err(Diag::user(Code::MemoryLimit, "full").into())
        });
        assert_eq!(code(r), Code::MemoryLimit);
        // The text is kept: with room, the same input reads.
        assert_eq!(input.ints(5, &mut || Ok(()), &|_| Ok(())).unwrap().len(), 5);
    }

    #[test]
    fn a_wait_for_input_looks_at_ctrl_c() {
        let (_tx, rx) = std::sync::mpsc::channel::<std::io::Result<String>>();
        let mut input = Input::Reading(rx);
        let r = input.ints(10, &mut || Err(Stop::Interrupted), &|_| Ok(()));
        assert_eq!(r.map(|v| v.len()), Err(Stop::Interrupted));
        assert!(matches!(input, Input::Reading(_)), "asking again waits on");
    }
}
