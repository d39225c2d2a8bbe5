//! How a session's events are printed: the one printer the command line and
//! the REPL share. An answer's files are written first (plots, graphs under
//! `--out`), then the answer goes to standard output as text or as a JSON
//! line; a diagnostic is rendered on standard error, and under `--json` is
//! also a JSON line on standard output.

use crate::answer::{Answer, json_line};
use crate::diagnostics::{self, Diag, Style};
use crate::files::{Files, cannot_write};
use crate::span::Sources;

/// Where printed text goes.
pub trait Output {
    /// Answers and messages (standard output).
    fn out(&mut self, text: &str);
    /// Error reports (standard error).
    fn err(&mut self, text: &str);
    /// Writes out what is held back (before a file goes to standard
    /// output by another way).
    fn flush(&mut self) {}
}

/// Prints events: answers and diagnostics.
pub struct Printer {
    /// How diagnostics are drawn.
    pub style: Style,
    /// JSON lines instead of text.
    pub json: bool,
    /// Checks that hold print nothing, and failed ones go to standard
    /// error (`--quiet-checks`).
    pub quiet_checks: bool,
    /// Where answers that are files go.
    pub files: Files,
    /// An answer's text, kept from one answer to the next (a judge's
    /// million lines, without a string made for each).
    pub text: String,
}

impl Printer {
    /// Prints an answer, its file written first; `false` when the file could
    /// not be written (then that is reported instead).
    pub fn answer(&mut self, sources: &Sources, mut a: Answer, out: &mut dyn Output) -> bool {
        if self.quiet_checks {
            match a {
                Answer::CheckOk { .. } => return true,
                Answer::CheckFailed { .. } => {
                    out.err(&a.to_string());
                    return true;
                }
                _ => {}
            }
        }
        // A file written to standard output (`--out -`) comes after what
        // was printed before it.
        if self.files.to_stdout() {
            out.flush();
        }
        if let Err((path, e)) = self.files.place(&mut a) {
            self.error(sources, &cannot_write(&path, &e), out);
            return false;
        }
        if self.json {
            out.out(&format!("{}\n", json_line(a.to_json())));
        } else {
            self.text.clear();
            let _ = std::fmt::Write::write_fmt(&mut self.text, format_args!("{a}"));
            out.out(&self.text);
        }
        true
    }

    /// Prints a diagnostic.
    pub fn error(&self, sources: &Sources, d: &Diag, out: &mut dyn Output) {
        if self.json {
            out.out(&format!(
                "{}\n",
                json_line(diagnostics::to_json(d, sources))
            ));
        }
        out.err(&diagnostics::render(d, sources, self.style));
    }
}
