//! What `input_ints()` reads: standard input (or any text a front end
//! gives), read once, when first asked, as the list of its integers.

use crate::value::Value;
use std::rc::Rc;

/// A source of input text.
pub enum Input {
    /// Not read yet: reads the whole text when called.
    Unread(Box<dyn FnOnce() -> std::io::Result<String>>),
    /// There is none here; the text says why (and what to do).
    Unavailable(String),
    /// Read: its integers, or why it could not be read.
    Read(Result<Rc<[Value]>, String>),
}

impl Default for Input {
    fn default() -> Input {
        Input::Unavailable("no input is connected".into())
    }
}

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

    /// Every integer of the input, in order (read at the first call).
    pub fn ints(&mut self) -> Result<Rc<[Value]>, String> {
        if let Input::Unread(_) = self {
            *self = Input::Read(match std::mem::take(self) {
                Input::Unread(read) => match read() {
                    Ok(text) => parse_ints(&text),
                    Err(e) => Err(format!("standard input cannot be read: {e}")),
                },
                _ => Err("the input was not read".into()),
            });
        }
        match self {
            Input::Read(r) => r.clone(),
            Input::Unavailable(why) => Err(why.clone()),
            Input::Unread(_) => Err("the input was not read".into()),
        }
    }
}

/// The integers of a text: words separated by whitespace or commas, each
/// an integer (an optional sign, then digits).
pub fn parse_ints(text: &str) -> Result<Rc<[Value]>, String> {
    let mut out = Vec::new();
    for (line, l) in text.lines().enumerate() {
        for word in l.split(|c: char| c.is_whitespace() || c == ',') {
            if word.is_empty() {
                continue;
            }
            match word.parse::<i64>() {
                Ok(v) => out.push(Value::Int(v)),
                Err(_) => {
                    return Err(format!(
                        "the input is not all integers: `{}` on line {}",
                        word.chars().take(40).collect::<String>(),
                        line + 1
                    ));
                }
            }
        }
    }
    Ok(out.into())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_integers_once() {
        let mut input = Input::text("2  3 1 2 4\n 2 5,5\n-7 +8\n");
        let want: Vec<Value> = [2, 3, 1, 2, 4, 2, 5, 5, -7, 8]
            .into_iter()
            .map(Value::Int)
            .collect();
        assert_eq!(&*input.ints().unwrap(), &want[..]);
        assert_eq!(&*input.ints().unwrap(), &want[..]);
        let err = Input::text("1 2\n3 x4").ints().unwrap_err();
        assert!(err.contains("`x4` on line 2"), "{err}");
        assert!(Input::default().ints().is_err());
        assert!(parse_ints("99999999999999999999").is_err());
    }
}
