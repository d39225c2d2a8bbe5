//! Standard output of a file's run: answers go into a buffer that is
//! written out in large writes (a judge's million lines), and a thread of
//! its own writes out what has waited 50 ms, so that answers printed
//! before a long computation reach a file or a pipe even if the process is
//! then killed. On a terminal, each answer is written at once.

use std::io::Write;
use std::sync::{Arc, Condvar, Mutex};
use std::time::Duration;

/// How long printed text may wait before the writer thread writes it.
const WAIT: Duration = Duration::from_millis(50);

/// Text held past this many bytes is written by the printing thread.
const HOLD: usize = 1 << 16;

/// What the printing thread and the writer share.
#[derive(Default)]
struct Unwritten {
    text: Vec<u8>,
    /// The first failed write, reported at the end.
    error: Option<std::io::Error>,
    /// The run is over: the writer thread ends.
    done: bool,
}

/// Standard output, buffered, with a writer thread.
pub struct Stdout {
    held: Arc<(Mutex<Unwritten>, Condvar)>,
    writer: Option<std::thread::JoinHandle<()>>,
    /// Whether standard output is a terminal: written after each answer.
    pub terminal: bool,
}

/// Writes `h.text` to standard output and empties it, keeping the first
/// error.
fn write_out(h: &mut Unwritten) {
    if h.text.is_empty() {
        return;
    }
    let mut out = std::io::stdout().lock();
    if let Err(e) = out.write_all(&h.text).and_then(|()| out.flush()) {
        h.error.get_or_insert(e);
    }
    h.text.clear();
}

impl Default for Stdout {
    fn default() -> Stdout {
        Stdout::new()
    }
}

impl Stdout {
    /// Standard output, with its writer thread started.
    pub fn new() -> Stdout {
        use std::io::IsTerminal;
        let held: Arc<(Mutex<Unwritten>, Condvar)> = Arc::default();
        let shared = Arc::clone(&held);
        // Without the thread, text waits for the next large write or the
        // end of the run, as before.
        let writer = std::thread::Builder::new()
            .name("stdout".into())
            .spawn(move || {
                let (lock, wake) = &*shared;
                let Ok(mut h) = lock.lock() else { return };
                while !h.done {
                    write_out(&mut h);
                    h = match wake.wait_timeout(h, WAIT) {
                        Ok((h, _)) => h,
                        Err(_) => return,
                    };
                }
            })
            .ok();
        Stdout {
            held,
            writer,
            terminal: std::io::stdout().is_terminal(),
        }
    }

    /// Adds text to what is held, written out once it is large.
    pub fn out(&mut self, text: &str) {
        if let Ok(mut h) = self.held.0.lock() {
            h.text.extend_from_slice(text.as_bytes());
            if h.text.len() >= HOLD {
                write_out(&mut h);
            }
        }
    }

    /// Writes out what is held.
    pub fn flush(&mut self) {
        if let Ok(mut h) = self.held.0.lock() {
            write_out(&mut h);
        }
    }

    /// Writes out what is held and ends the writer thread; the first
    /// failed write, if any.
    pub fn finish(mut self) -> Option<std::io::Error> {
        self.end()
    }

    fn end(&mut self) -> Option<std::io::Error> {
        let error = match self.held.0.lock() {
            Ok(mut h) => {
                write_out(&mut h);
                h.done = true;
                h.error.take()
            }
            Err(_) => None,
        };
        self.held.1.notify_all();
        if let Some(w) = self.writer.take() {
            let _ = w.join();
        }
        error
    }
}

/// What is held is written out however the run ends (a panic unwinding
/// too), as a buffered writer's drop does.
impl Drop for Stdout {
    fn drop(&mut self) {
        if self.writer.is_some() {
            let _ = self.end();
        }
    }
}
