//! The protocol's framing on a byte stream: `Content-Length` headers and
//! JSON bodies, read with a bound and forgiving of what a broken client
//! sends. A frame that cannot be read is reported as `Incoming::Malformed`
//! (answered with a JSON-RPC error) and reading goes on at the next header;
//! a length over `MAX_MESSAGE` is answered at once, never allocated.

use lsp_server::Message;
use serde_json::Value;
use std::io::{self, BufRead, Read, Write};

/// The largest message read whole (a document of 64 MiB).
pub const MAX_MESSAGE: u64 = 64 << 20;

/// The longest header line kept; the rest of a longer line is skipped.
const MAX_HEADER: usize = 4096;

/// JSON-RPC's codes for a body that is not JSON, and for JSON that is not
/// a request, response or notification.
pub const PARSE_ERROR: i32 = -32700;
pub const INVALID_REQUEST: i32 = -32600;

/// What one frame held.
#[derive(Debug)]
pub enum Incoming {
    Message(Message),
    /// A frame that is not a message: the id to answer (`null` when none
    /// could be read), the error's code and what was wrong.
    Malformed {
        id: Value,
        code: i32,
        message: String,
    },
}

/// Reads the next frame; `None` at the end of the stream.
pub fn read(r: &mut impl BufRead) -> io::Result<Option<Incoming>> {
    let mut length: Option<Result<u64, String>> = None;
    let mut seen_header = false;
    let mut line = Vec::new();
    loop {
        if !read_line(r, &mut line)? {
            return Ok(None);
        }
        let text = String::from_utf8_lossy(&line);
        let text = text.trim_end_matches(['\r', '\n']);
        if text.trim().is_empty() {
            match length.take() {
                Some(Ok(n)) => return body(r, n).map(Some),
                Some(Err(message)) => return Ok(Some(malformed(Value::Null, message))),
                // Blank lines between frames are skipped.
                None if !seen_header => continue,
                None => {
                    let message = "a message's headers have no Content-Length".to_string();
                    return Ok(Some(malformed(Value::Null, message)));
                }
            }
        }
        seen_header = true;
        // The header may follow the rest of a body shorter than its length
        // said: it is looked for anywhere in the line, the last one.
        let lower = text.to_ascii_lowercase();
        if let Some(at) = lower.rfind("content-length:") {
            let value = text[at + "content-length:".len()..].trim();
            length = Some(
                value
                    .parse::<u64>()
                    .map_err(|_| format!("`{value}` is not a Content-Length")),
            );
        }
    }
}

/// Reads one line into `line` (cleared first), at most `MAX_HEADER` bytes
/// of it kept; false at the end of the stream.
fn read_line(r: &mut impl BufRead, line: &mut Vec<u8>) -> io::Result<bool> {
    line.clear();
    let mut any = false;
    loop {
        let buf = r.fill_buf()?;
        if buf.is_empty() {
            return Ok(any);
        }
        any = true;
        let (chunk, done) = match buf.iter().position(|&b| b == b'\n') {
            Some(i) => (&buf[..=i], true),
            None => (buf, false),
        };
        let n = chunk.len();
        let room = MAX_HEADER.saturating_sub(line.len());
        line.extend_from_slice(&chunk[..n.min(room)]);
        r.consume(n);
        if done {
            return Ok(true);
        }
    }
}

/// Reads a body of `n` bytes: a message, or why it is not one. A length
/// over the limit is answered at once and its body not read: what follows
/// is read as headers again (a body's bytes are no header), so a wrong
/// length loses one message, not the rest of the session.
fn body(r: &mut impl BufRead, n: u64) -> io::Result<Incoming> {
    if n > MAX_MESSAGE {
        let message = format!("a message of {n} bytes is over the limit of {MAX_MESSAGE}");
        return Ok(malformed(Value::Null, message));
    }
    // Grown as the bytes arrive: a length alone reserves nothing.
    let mut bytes = Vec::new();
    r.take(n).read_to_end(&mut bytes)?;
    if (bytes.len() as u64) < n {
        let message = format!(
            "the stream ended {} bytes into a {n}-byte message",
            bytes.len()
        );
        return Ok(malformed(Value::Null, message));
    }
    let value: Value = match serde_json::from_slice(&bytes) {
        Ok(v) => v,
        Err(e) => {
            return Ok(Incoming::Malformed {
                id: Value::Null,
                code: PARSE_ERROR,
                message: format!("the message is not JSON: {e}"),
            });
        }
    };
    let id = match value.get("id") {
        Some(id @ (Value::Number(_) | Value::String(_))) => id.clone(),
        _ => Value::Null,
    };
    // Anything with an id reads as a response: one with a method, or with
    // neither a result nor an error, is not one.
    let response = value.get("method").is_none()
        && (value.get("result").is_some() || value.get("error").is_some());
    Ok(match serde_json::from_value::<Message>(value) {
        Ok(Message::Response(_)) if !response => {
            malformed(id, "not a request, response or notification".to_string())
        }
        Ok(m) => Incoming::Message(m),
        Err(e) => malformed(id, format!("not a request, response or notification: {e}")),
    })
}

fn malformed(id: Value, message: String) -> Incoming {
    Incoming::Malformed {
        id,
        code: INVALID_REQUEST,
        message,
    }
}

/// Writes one message as a frame and flushes it.
pub fn write(w: &mut impl Write, msg: &Value) -> io::Result<()> {
    let body = msg.to_string();
    write!(w, "Content-Length: {}\r\n\r\n{body}", body.len())?;
    w.flush()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn frames(input: &[u8]) -> Vec<String> {
        let mut r = io::BufReader::new(input);
        let mut out = Vec::new();
        while let Some(f) = read(&mut r).expect("read") {
            out.push(match f {
                Incoming::Message(Message::Request(q)) => format!("request {}", q.method),
                Incoming::Message(Message::Notification(n)) => format!("notification {}", n.method),
                Incoming::Message(Message::Response(_)) => "response".to_string(),
                Incoming::Malformed { id, code, .. } => format!("error {code} {id}"),
            });
        }
        out
    }

    fn frame(body: &str) -> String {
        format!("Content-Length: {}\r\n\r\n{body}", body.len())
    }

    const PING: &str = r#"{"jsonrpc":"2.0","id":1,"method":"ping"}"#;

    #[test]
    fn broken_frames_are_reported_and_reading_goes_on() {
        let exit = r#"{"jsonrpc":"2.0","method":"exit"}"#;
        let cases = [
            // LF-only headers.
            (
                format!("Content-Length: {}\n\n{PING}", PING.len()),
                vec!["request ping"],
            ),
            // A length far over the limit (its body `{}` read as headers,
            // the next frame found), and one that overflows.
            (
                format!("Content-Length: 10000000000\r\n\r\n{{}}{}", frame(PING)),
                vec!["error -32600 null", "request ping"],
            ),
            // A header's text inside a body that runs into the next header:
            // the last one on the line is the header.
            (
                format!(
                    "Content-Length: {}\r\n\r\n{{\"x\": \"Content-Length: 3\"}}",
                    3
                ) + &frame(PING),
                vec!["error -32700 null", "request ping"],
            ),
            (
                "Content-Length: 18446744073709551616\r\n\r\n".to_string() + &frame(PING),
                vec!["error -32600 null", "request ping"],
            ),
            // A body that is not JSON, and JSON that is not a message.
            (
                frame("{\"jsonrpc\":") + &frame(PING),
                vec!["error -32700 null", "request ping"],
            ),
            (
                frame(r#"{"id":7,"x":1}"#) + &frame(PING),
                vec!["error -32600 7", "request ping"],
            ),
            // A length 5 bytes short: the rest runs into the next header.
            (
                format!("Content-Length: {}\r\n\r\n{PING}", PING.len() - 5) + &frame(exit),
                vec!["error -32700 null", "notification exit"],
            ),
            // Headers with no length; a body cut off by the end.
            (
                "Content-Type: x\r\n\r\n".to_string() + &frame(PING),
                vec!["error -32600 null", "request ping"],
            ),
            (
                format!("Content-Length: {}\r\n\r\n{}", PING.len(), &PING[..10]),
                vec!["error -32600 null"],
            ),
        ];
        for (input, want) in cases {
            assert_eq!(frames(input.as_bytes()), want, "{input:?}");
        }
    }
}
