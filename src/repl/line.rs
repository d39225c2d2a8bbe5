//! The terminal front end: rustyline editing, history, completion,
//! highlighting and Ctrl-C; piped input runs as a script without prompts.

use super::{Flow, Output, Repl, Token};
use crate::diagnostics::Style;
use crate::eval::Limits;
use rustyline::completion::{Completer, Pair};
use rustyline::error::ReadlineError;
use rustyline::highlight::{CmdKind, Highlighter};
use rustyline::hint::Hinter;
use rustyline::history::DefaultHistory;
use rustyline::validate::{ValidationContext, ValidationResult, Validator};
use rustyline::{CompletionType, Config, Context, Editor, Helper};
use std::borrow::Cow;
use std::cell::RefCell;
use std::io::{BufRead, IsTerminal, Write};
use std::path::PathBuf;
use std::rc::Rc;
use std::sync::atomic::Ordering;

/// Writes to the process's standard output and error.
#[derive(Default)]
struct Stdio {
    /// The progress line of long entries, cleared before anything is
    /// printed.
    display: Option<crate::progress::Display>,
    /// The first failure to write standard output (the run then fails).
    error: Option<std::io::Error>,
}

impl Stdio {
    fn clear(&self) {
        if let Some(d) = &self.display {
            d.clear();
        }
    }
}

/// A message on standard error, now.
fn complain(text: &str) {
    let _ = std::io::stdout().flush();
    let mut err = std::io::stderr().lock();
    let _ = err.write_all(text.as_bytes());
    let _ = err.flush();
}

impl Output for Stdio {
    fn out(&mut self, text: &str) {
        self.clear();
        let mut out = std::io::stdout().lock();
        if let Err(e) = out.write_all(text.as_bytes()).and_then(|()| out.flush()) {
            self.error.get_or_insert(e);
        }
    }
    fn err(&mut self, text: &str) {
        self.clear();
        complain(text);
    }
}

/// Runs the REPL: loads `files`, then reads entries from the terminal, or
/// from piped standard input as a script. Returns the exit code (a script's
/// worst outcome; 0 for an interactive session).
pub fn run(
    files: &[PathBuf],
    lets: &[String],
    limits: Limits,
    style: Style,
    json: bool,
    out_path: Option<PathBuf>,
) -> i32 {
    let mut repl = Repl::new(limits, style);
    repl.set_json(json);
    repl.set_out(out_path);
    let mut out = Stdio::default();
    for arg in lets {
        if !repl.add_let(arg, &mut out) {
            return 2;
        }
    }
    let terminal = std::io::stdin().is_terminal();
    if terminal {
        let flag = repl.cancel_flag();
        // Ctrl-C while computing: rustyline reads it as a key at the
        // prompt, so the signal only arrives while an entry runs. A second
        // press before the first was noticed (a loop that does not look)
        // leaves.
        let _ = ctrlc::set_handler(move || {
            if flag.swap(true, Ordering::Relaxed) {
                std::process::exit(130);
            }
        });
    }
    for f in files {
        repl.load(&f.display().to_string(), &mut out);
    }
    let code = if terminal {
        interactive(repl, &mut out)
    } else {
        script(repl, &mut out)
    };
    // A failed write to standard output fails the run, as for a file (a
    // reader that stopped early, `| head`, needs no report).
    match out.error {
        None => code,
        Some(e) => {
            if e.kind() != std::io::ErrorKind::BrokenPipe {
                complain(&format!("grundy: cannot write standard output: {e}\n"));
            }
            2
        }
    }
}

/// Piped input: every line is input, no prompts, no editing. Bytes that are
/// not UTF-8 are replaced (and then reported by the parser).
fn script(mut repl: Repl, out: &mut Stdio) -> i32 {
    let mut input = std::io::stdin().lock();
    let mut buf = Vec::new();
    loop {
        buf.clear();
        match input.read_until(b'\n', &mut buf) {
            Ok(0) => break,
            Ok(_) => {}
            Err(e) => {
                complain(&format!("grundy: cannot read standard input: {e}\n"));
                return 2;
            }
        }
        let line = String::from_utf8_lossy(&buf);
        let line = line.trim_end_matches(['\n', '\r']);
        if repl.feed(line, out) == Flow::Quit {
            return repl.status();
        }
    }
    repl.finish(out);
    repl.status()
}

fn interactive(repl: Repl, out: &mut Stdio) -> i32 {
    let repl = Rc::new(RefCell::new(repl));
    let config = Config::builder()
        .completion_type(CompletionType::List)
        .auto_add_history(false)
        .history_ignore_dups(true)
        .and_then(|b| b.max_history_size(10_000))
        .map(|b| b.build());
    let editor = config.and_then(Editor::<GameHelper, DefaultHistory>::with_config);
    let mut editor = match editor {
        Ok(e) => e,
        Err(e) => {
            complain(&format!(
                "grundy: cannot open the terminal ({e}); reading a script instead\n"
            ));
            let repl = Rc::try_unwrap(repl).map(RefCell::into_inner);
            return repl.map_or(2, |r| script(r, out));
        }
    };
    editor.set_helper(Some(GameHelper { repl: repl.clone() }));
    repl.borrow_mut().set_terminal(true);
    if std::io::stderr().is_terminal() && !repl.borrow().is_json() {
        out.display = Some(crate::progress::Display::start(repl.borrow().progress()));
    }
    let history = history_file();
    if let Some(h) = &history {
        let _ = editor.load_history(h);
    }
    out.out(&format!(
        "grundy {} — `:help` for help, Ctrl-D to leave\n",
        env!("CARGO_PKG_VERSION")
    ));
    loop {
        match editor.readline("grundy> ") {
            Ok(line) => {
                if !line.trim().is_empty() {
                    let _ = editor.add_history_entry(line.as_str());
                    if let Some(h) = &history {
                        let _ = editor.append_history(h);
                    }
                }
                if repl.borrow_mut().handle(&line, out) == Flow::Quit {
                    break;
                }
            }
            Err(ReadlineError::Interrupted) => continue,
            Err(ReadlineError::Eof) => break,
            Err(e) => {
                complain(&format!("grundy: cannot read the terminal: {e}\n"));
                break;
            }
        }
    }
    0
}

/// `$GRUNDY_HISTORY` (empty: none), else `grundy/history` in the user's data
/// directory (`$XDG_DATA_HOME`, or `~/.local/share`), created on demand.
/// `None` when there is no usable place: the REPL then runs without one.
fn history_file() -> Option<PathBuf> {
    if let Some(path) = std::env::var_os("GRUNDY_HISTORY") {
        return (!path.is_empty()).then(|| PathBuf::from(path));
    }
    let data = std::env::var_os("XDG_DATA_HOME")
        .filter(|d| !d.is_empty())
        .map(PathBuf::from)
        .or_else(|| {
            std::env::var_os("HOME")
                .filter(|h| !h.is_empty())
                .map(|h| PathBuf::from(h).join(".local").join("share"))
        })?;
    let dir = data.join("grundy");
    std::fs::create_dir_all(&dir).ok()?;
    Some(dir.join("history"))
}

/// rustyline's view of the REPL: completion, validation, highlighting.
struct GameHelper {
    repl: Rc<RefCell<Repl>>,
}

impl Helper for GameHelper {}

impl Hinter for GameHelper {
    type Hint = String;
}

impl Completer for GameHelper {
    type Candidate = Pair;

    fn complete(
        &self,
        line: &str,
        pos: usize,
        _ctx: &Context<'_>,
    ) -> rustyline::Result<(usize, Vec<Pair>)> {
        let repl = self.repl.borrow();
        let (start, names) = repl.complete(line, pos);
        // The list shows what each candidate is; only its name is put in.
        let pairs = names
            .into_iter()
            .map(|n| Pair {
                display: repl.signature(&n),
                replacement: n,
            })
            .collect();
        Ok((start, pairs))
    }
}

impl Validator for GameHelper {
    fn validate(&self, ctx: &mut ValidationContext) -> rustyline::Result<ValidationResult> {
        Ok(if Repl::is_incomplete(ctx.input()) {
            ValidationResult::Incomplete
        } else {
            ValidationResult::Valid(None)
        })
    }
}

impl Highlighter for GameHelper {
    fn highlight<'l>(&self, line: &'l str, _pos: usize) -> Cow<'l, str> {
        let tokens = self.repl.borrow().tokens(line);
        if tokens.is_empty() {
            return Cow::Borrowed(line);
        }
        // Colors only: escape codes take no columns, so the width the
        // editor computes for the cursor stays right.
        let mut out = String::with_capacity(line.len() + tokens.len() * 9);
        let mut at = 0;
        for (range, token) in tokens {
            out.push_str(&line[at..range.start]);
            let color = match token {
                Token::Keyword => "\x1b[35m",
                Token::Number => "\x1b[36m",
                Token::Game => "\x1b[32m",
                Token::Builtin => "\x1b[34m",
                Token::Command => "\x1b[33m",
                Token::Comment => "\x1b[90m",
                Token::Str => "\x1b[33m",
            };
            out.push_str(color);
            out.push_str(&line[range.clone()]);
            out.push_str("\x1b[0m");
            at = range.end;
        }
        out.push_str(&line[at..]);
        Cow::Owned(out)
    }

    fn highlight_char(&self, _line: &str, _pos: usize, _kind: CmdKind) -> bool {
        true
    }
}
