//! The REPL's core: commands, entries, completion and highlighting as plain
//! data, with no terminal; [`line`] is the thin rustyline front end.

mod help;

/// The text of `:help TOPIC` (empty: the overview).
pub fn help_text(topic: &str) -> String {
    help::text(topic)
}
pub mod line;

use crate::answer::json_line;
use crate::diagnostics::{self, Code, Diag, Style, did_you_mean};
use crate::eval::Limits;
use crate::session::{Change, Event, Session, Summary};
use crate::syntax;
use std::ops::Range;
use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

/// Where the REPL writes: answers and messages to `out`, reports to `err`.
pub use crate::printer::Output;

/// A transcript of output, for tests and for capturing.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Transcript {
    /// Everything written, in order; reports are included as written.
    pub text: String,
}

impl Output for Transcript {
    fn out(&mut self, text: &str) {
        self.text.push_str(text);
    }
    fn err(&mut self, text: &str) {
        self.text.push_str(text);
    }
}

/// Whether to go on reading input.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Flow {
    /// Read the next input.
    Continue,
    /// `:quit` was entered.
    Quit,
}

/// The commands, with a one-line summary each (for `:help` and completion).
pub const COMMANDS: &[(&str, &str, &str)] = &[
    (
        ":help",
        "[TOPIC]",
        "this help; topics: language, queries, functions, commands, keys",
    ),
    (
        ":load",
        "FILE...",
        "run files; their definitions join the session",
    ),
    (
        ":reload",
        "",
        "read the loaded files again and say what changed",
    ),
    (":games", "", "the games and constants defined, and where"),
    (
        ":show",
        "NAME",
        "the definition of a game, constant or function",
    ),
    (
        ":doc",
        "NAME",
        "what a builtin takes and gives, or a definition with its moves in words",
    ),
    (
        ":time",
        "",
        "toggle timing and position counts after each answer",
    ),
    (
        ":plot",
        "ARGS",
        "draw plot(ARGS) as an SVG file and name the file",
    ),
    (
        ":limit",
        "time S",
        "stop each entry after S seconds (`off`: none), as --time-limit; alone: the limit",
    ),
    (":json", "", "toggle answers as JSON objects"),
    (":clear", "", "forget every definition and computed value"),
    (":quit", "", "leave (also Ctrl-D)"),
];

/// What a stretch of an input line is, for highlighting.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Token {
    /// A keyword of the language.
    Keyword,
    /// An integer literal.
    Number,
    /// The name of a game defined in the session.
    Game,
    /// A builtin function or query.
    Builtin,
    /// A `:command`.
    Command,
    /// A `#` comment.
    Comment,
    /// A string literal.
    Str,
}

/// An interactive session: the [`Session`] plus the REPL's own state.
pub struct Repl {
    session: Session,
    style: Style,
    entries: usize,
    loaded: Vec<String>,
    timing: bool,
    json: bool,
    /// Lines of a script entry still waiting for more (see [`Repl::feed`]).
    pending: String,
    /// The worst exit code so far (2 errors, 1 failed check), for scripts.
    status: i32,
    /// Where plots (and graphs, under `--out`) are written.
    files: crate::files::Files,
    /// Entries come from a terminal (whose Ctrl-C drops what was typed
    /// ahead).
    terminal: bool,
}

impl Repl {
    /// A REPL with these limits, rendering reports in this style.
    pub fn new(limits: Limits, style: Style) -> Repl {
        let mut session = Session::new(limits);
        session.set_input(crate::input::Input::Unavailable(
            "in the REPL, standard input is where entries come from; run the file with its \
             input instead: `grundy FILE < input.txt`"
                .into(),
        ));
        Repl {
            session,
            style,
            entries: 0,
            loaded: Vec::new(),
            timing: false,
            terminal: false,
            json: false,
            pending: String::new(),
            status: 0,
            files: crate::files::Files::default(),
        }
    }

    /// Where plots (and graphs) go: `--out DIR` or `--out FILE`.
    pub fn set_out(&mut self, out: Option<std::path::PathBuf>) {
        self.files = crate::files::Files::new(out);
    }

    /// The session (definitions, sources).
    pub fn session(&self) -> &Session {
        &self.session
    }

    /// Entries come from a terminal: an interruption says that what was
    /// typed while the entry ran is gone (the terminal drops it with
    /// Ctrl-C).
    pub fn set_terminal(&mut self, terminal: bool) {
        self.terminal = terminal;
    }

    /// Binds a constant from the command line (`--let NAME=EXPR`); false
    /// (with the errors written) when it is not a definition.
    pub fn add_let(&mut self, arg: &str, out: &mut dyn Output) -> bool {
        match self.session.add_let(arg) {
            Ok(()) => true,
            Err(diags) => {
                for d in diags {
                    out.err(&diagnostics::render(&d, self.session.sources(), self.style));
                }
                false
            }
        }
    }

    /// The flag a Ctrl-C handler sets to interrupt the running computation.
    pub fn cancel_flag(&self) -> Arc<AtomicBool> {
        self.session.cancel_flag()
    }

    /// What the entry running has done so far (for a progress line).
    pub fn progress(&self) -> Arc<crate::progress::Progress> {
        self.session.progress()
    }

    /// Whether answers are JSON lines.
    pub fn is_json(&self) -> bool {
        self.json
    }

    /// The worst outcome so far as an exit code: 2 after an error, 1 after a
    /// failed check, else 0.
    pub fn status(&self) -> i32 {
        self.status
    }

    /// Whether an input needs more lines (a bracket is still open). Commands
    /// are always one line.
    pub fn is_incomplete(text: &str) -> bool {
        !text.trim_start().starts_with(':') && syntax::is_incomplete(text)
    }

    /// Turns JSON answers on or off (`:json`).
    pub fn set_json(&mut self, on: bool) {
        self.json = on;
    }

    /// Feeds one line of a script. Lines are gathered while the entry is
    /// incomplete; a complete entry waits for the next line, which joins it
    /// when it is indented (a clause on a line of its own, as in files), and
    /// runs otherwise.
    pub fn feed(&mut self, line: &str, out: &mut dyn Output) -> Flow {
        let continues = line.starts_with([' ', '\t']) && !line.trim().is_empty();
        let held = !self.pending.is_empty() && !Repl::is_incomplete(&self.pending);
        if held && !continues {
            let input = std::mem::take(&mut self.pending);
            if self.handle(&input, out) == Flow::Quit {
                return Flow::Quit;
            }
        }
        if !self.pending.is_empty() {
            self.pending.push('\n');
        }
        self.pending.push_str(line);
        // Commands run at once: nothing continues them.
        if self.pending.trim_start().starts_with(':') || self.bare_word(&self.pending).is_some() {
            let input = std::mem::take(&mut self.pending);
            return self.handle(&input, out);
        }
        Flow::Continue
    }

    /// Ends a script: an entry still open is run (and reported unclosed).
    pub fn finish(&mut self, out: &mut dyn Output) {
        let input = std::mem::take(&mut self.pending);
        if !input.trim().is_empty() {
            self.handle(&input, out);
        }
    }

    /// Handles one complete input: a `:command` or an entry of the language.
    pub fn handle(&mut self, input: &str, out: &mut dyn Output) -> Flow {
        let trimmed = input.trim();
        if trimmed.is_empty() {
            return Flow::Continue;
        }
        if let Some(command) = trimmed.strip_prefix(':') {
            return self.command(command, out);
        }
        match self.bare_word(trimmed) {
            Some("help") => return self.command("help", out),
            Some("quit" | "exit") => return Flow::Quit,
            Some(word) => {
                // Forgetting everything is never done by a word typed bare.
                self.say(
                    out,
                    word,
                    &format!("`{word}` is a command here: type `:{word}` to forget every definition and value\n"),
                );
                return Flow::Continue;
            }
            None => {}
        }
        self.entries += 1;
        let name = format!("<repl:{}>", self.entries);
        let summary = self.run(&name, input, false, out);
        self.report_definitions(&summary, out);
        Flow::Continue
    }

    /// `help`, `quit`, `exit` or `clear` typed bare, as people type them in
    /// other shells, when no definition has that name.
    fn bare_word(&self, input: &str) -> Option<&'static str> {
        let word = ["help", "quit", "exit", "clear"]
            .into_iter()
            .find(|w| input.trim() == *w)?;
        (!self.session.names().any(|(n, _)| n == word)).then_some(word)
    }

    /// Runs a text as an entry (`file` false) or a file, printing answers
    /// and reports as they come.
    fn run(&mut self, name: &str, text: &str, file: bool, out: &mut dyn Output) -> Summary {
        let (json, timing, terminal) = (self.json, self.timing, self.terminal);
        let mut last = Instant::now();
        let mut states = self.session.state_count();
        let mut printer = crate::printer::Printer {
            style: self.style,
            json,
            quiet_checks: false,
            files: std::mem::take(&mut self.files),
            text: String::new(),
        };
        let mut failed_write = false;
        let mut emit = |s: &Session, e: Event| match e {
            Event::Answer(a) => {
                if !printer.answer(s.sources(), a, out) {
                    failed_write = true;
                    return;
                }
                if timing {
                    let now = s.state_count();
                    let new = now.saturating_sub(states);
                    out.out(&if json {
                        format!(
                            "{}\n",
                            json_line(serde_json::json!({
                                "kind": "timing",
                                "seconds": last.elapsed().as_secs_f64(),
                                "new_positions": new,
                                "stored": now,
                            }))
                        )
                    } else {
                        format!(
                            "  ({}, {} new position{}, {} stored)\n",
                            show_duration(last.elapsed()),
                            crate::progress::grouped(new as u64),
                            if new == 1 { "" } else { "s" },
                            crate::progress::grouped(now as u64)
                        )
                    });
                    states = now;
                    last = Instant::now();
                }
            }
            Event::Error(d) => {
                printer.error(s.sources(), &d, out);
                last = Instant::now();
            }
            Event::Interrupted(d) => {
                let d = if terminal {
                    d.note("lines typed while it ran, if any, were dropped with it")
                } else {
                    d
                };
                printer.error(s.sources(), &d, out);
                last = Instant::now();
            }
            Event::Note(note) => out.err(&format!("{note}\n")),
        };
        let summary = if file {
            self.session.run(name, text, &mut emit)
        } else {
            self.session.entry(name, text, &mut emit)
        };
        self.files = printer.files;
        let failed = if failed_write { 2 } else { 0 };
        self.status = self.status.max(summary.exit_code()).max(failed);
        summary
    }

    /// "defined Kayles(n)", "N = 10": what an entry defined.
    fn report_definitions(&self, summary: &Summary, out: &mut dyn Output) {
        if self.json {
            return;
        }
        let defs = self.session.definitions();
        for (name, change) in &summary.defined {
            // A function is shown with its parameters, as a game is.
            let function = defs
                .iter()
                .find(|d| d.name == *name && d.function)
                .and_then(|d| d.params.as_ref());
            let what = match function {
                Some(p) => format!("{name}({})", p.join(", ")),
                None => self.describe(name),
            };
            let game = what != *name;
            let line = match (change, self.session.constant(name)) {
                (Change::Removed, _) => format!("removed {name}"),
                (Change::Unchanged, _) => format!("{what} unchanged"),
                (_, Some(value)) => format!("{name} = {value}"),
                // A constant whose definition failed: reported already.
                (_, None) if !game => continue,
                (Change::Added, None) => format!("defined {what}"),
                (Change::Changed, None) => format!("redefined {what}"),
            };
            out.out(&format!("{line}\n"));
        }
    }

    /// `Kayles(n)` for a game, the bare name otherwise.
    fn describe(&self, name: &str) -> String {
        match self.session.params(name) {
            Some(p) => format!("{name}({})", p.join(", ")),
            None => name.to_string(),
        }
    }

    fn command(&mut self, command: &str, out: &mut dyn Output) -> Flow {
        let (word, rest) = command
            .split_once(char::is_whitespace)
            .unwrap_or((command, ""));
        let rest = rest.trim();
        match word {
            "help" | "h" | "?" => self.say(out, "help", &help::text(rest)),
            "load" | "l" => {
                if rest.is_empty() {
                    self.fail(out, "`:load` needs a file: `:load examples/kayles.game`");
                }
                for path in rest.split_whitespace() {
                    self.load(path, out);
                }
            }
            "reload" | "r" => self.reload(out),
            "games" => self.games(out),
            "show" => self.show(rest, out),
            "doc" => self.doc(rest, out),
            "time" => {
                self.timing = !self.timing;
                self.say(out, "time", &format!("timing {}\n", on_off(self.timing)));
            }
            "json" => {
                self.json = !self.json;
                // In the mode now in force: JSON output holds JSON only.
                self.say(
                    out,
                    "json",
                    &format!("JSON answers {}\n", on_off(self.json)),
                );
            }
            "limit" => self.limit(rest, out),
            "plot" => {
                if rest.is_empty() {
                    self.fail(
                        out,
                        "`:plot` needs a game and ranges: `:plot Kayles, 0..=100`",
                    );
                } else {
                    return self.handle(&format!("plot({rest})"), out);
                }
            }
            "clear" => {
                self.session.clear();
                self.loaded.clear();
                self.say(
                    out,
                    "clear",
                    "cleared: no definitions, no computed values\n",
                );
            }
            "quit" | "q" | "exit" => return Flow::Quit,
            _ => {
                let names = COMMANDS.iter().map(|(c, _, _)| &c[1..]);
                let hint = did_you_mean(word, names)
                    .map(|n| format!("; did you mean `:{n}`?"))
                    .unwrap_or_else(|| "; `:help` lists the commands".into());
                self.fail(out, &format!("unknown command `:{word}`{hint}"));
            }
        }
        Flow::Continue
    }

    /// `:limit`, `:limit time SECONDS`, `:limit time off`.
    fn limit(&mut self, rest: &str, out: &mut dyn Output) {
        let words: Vec<&str> = rest.split_whitespace().collect();
        let limit = match words.as_slice() {
            [] => self.session.time_limit(),
            ["time", "off"] => {
                self.session.set_time_limit(None);
                None
            }
            ["time", secs] => match secs.trim_end_matches('s').parse::<f64>() {
                Ok(s) if s > 0.0 && s.is_finite() && s < 1e9 => {
                    let t = std::time::Duration::from_secs_f64(s);
                    self.session.set_time_limit(Some(t));
                    Some(t)
                }
                _ => {
                    return self.fail(
                        out,
                        &format!("`:limit time` takes seconds or `off`, not `{secs}`"),
                    );
                }
            },
            _ => return self.fail(out, "`:limit` takes `time SECONDS` or `time off`"),
        };
        let text = match limit {
            Some(t) => format!("time limit: {} s per entry\n", t.as_secs_f64()),
            None => "time limit: none\n".to_string(),
        };
        self.say(out, "limit", &text);
    }

    /// Reports a problem with a command (not an error of the language).
    fn fail(&mut self, out: &mut dyn Output, message: &str) {
        if self.json {
            let d = Diag::user(Code::BadCommand, message);
            out.out(&format!(
                "{}\n",
                json_line(diagnostics::to_json(&d, self.session.sources()))
            ));
        }
        out.err(&format!("error: {message}\n"));
        self.status = 2;
    }

    /// A command's message: as is, or as a JSON object under `--json`.
    fn say(&self, out: &mut dyn Output, command: &str, text: &str) {
        if self.json {
            out.out(&format!(
                "{}\n",
                json_line(serde_json::json!({"kind": "message", "command": command, "text": text}))
            ));
        } else {
            out.out(text);
        }
    }

    /// Reads a file for `:load` and `:reload`; errors are reported.
    fn read(&mut self, path: &str, out: &mut dyn Output) -> Option<String> {
        match self.session.read_file(path) {
            Ok(text) => Some(text),
            Err(d) => {
                if self.json {
                    out.out(&format!(
                        "{}\n",
                        json_line(diagnostics::to_json(&d, self.session.sources()))
                    ));
                }
                out.err(&diagnostics::render(&d, self.session.sources(), self.style));
                self.status = 2;
                None
            }
        }
    }

    /// Runs a file; its definitions join the session.
    pub fn load(&mut self, path: &str, out: &mut dyn Output) {
        let Some(text) = self.read(path, out) else {
            return;
        };
        let summary = self.run(path, &text, true, out);
        if !self.loaded.iter().any(|p| p == path) {
            self.loaded.push(path.to_string());
        }
        if self.json {
            return;
        }
        if summary.errors > 0 && summary.defined.is_empty() {
            out.out(&format!("{path}: not loaded (errors above)\n"));
            return;
        }
        let names: Vec<String> = summary
            .defined
            .iter()
            .filter(|(_, c)| *c != Change::Removed)
            .map(|(n, _)| self.describe(n))
            .collect();
        out.out(&format!("loaded {path}: {}\n", list_or_nothing(&names)));
    }

    fn reload(&mut self, out: &mut dyn Output) {
        if self.loaded.is_empty() {
            self.say(out, "reload", "no files loaded; `:load FILE` first\n");
            return;
        }
        for path in self.loaded.clone() {
            let Some(text) = self.read(&path, out) else {
                continue;
            };
            let summary = self.run(&path, &text, true, out);
            if self.json {
                continue;
            }
            if summary.errors > 0 && summary.defined.is_empty() {
                out.out(&format!(
                    "{path}: not reloaded (errors above); the old definitions stay\n"
                ));
                continue;
            }
            let pick = |want: Change| -> Vec<String> {
                summary
                    .defined
                    .iter()
                    .filter(|(_, c)| *c == want)
                    .map(|(n, _)| n.clone())
                    .collect()
            };
            let mut parts = Vec::new();
            for (label, change) in [
                ("changed", Change::Changed),
                ("added", Change::Added),
                ("removed", Change::Removed),
                ("unchanged", Change::Unchanged),
            ] {
                let names = pick(change);
                if !names.is_empty() {
                    parts.push(format!("{label} {}", names.join(", ")));
                }
            }
            out.out(&format!("reloaded {path}: {}\n", list_or_nothing(&parts)));
        }
    }

    fn games(&self, out: &mut dyn Output) {
        let defs = self.session.definitions();
        if self.json {
            let list: Vec<serde_json::Value> = defs
                .iter()
                .map(|d| serde_json::json!({"name": d.name, "params": d.params, "function": d.function, "at": d.at}))
                .collect();
            out.out(&format!(
                "{}\n",
                json_line(serde_json::json!({"kind": "definitions", "definitions": list}))
            ));
            return;
        }
        if defs.is_empty() {
            out.out("nothing defined yet; `:help language` shows how\n");
            return;
        }
        let rows: Vec<(String, String)> = defs
            .iter()
            .map(|d| match &d.params {
                Some(p) if d.function => {
                    (format!("let {}({})", d.name, p.join(", ")), d.at.clone())
                }
                Some(p) => (format!("{}({})", d.name, p.join(", ")), d.at.clone()),
                None => (format!("let {}", d.name), d.at.clone()),
            })
            .collect();
        let width = rows
            .iter()
            .map(|(n, _)| n.chars().count())
            .max()
            .unwrap_or(0);
        for (name, at) in rows {
            out.out(&format!("{name:width$}  {at}\n"));
        }
    }

    fn show(&mut self, name: &str, out: &mut dyn Output) {
        if name.is_empty() {
            self.fail(out, "`:show` needs a name: `:show Kayles`");
            return;
        }
        let defs = self.session.definitions();
        match defs.iter().find(|d| d.name == name) {
            Some(d) if self.json => out.out(&format!(
                "{}\n",
                json_line(serde_json::json!({
                    "kind": "definition",
                    "name": d.name,
                    "params": d.params,
                    "at": d.at,
                    "text": d.text,
                }))
            )),
            Some(d) => out.out(&format!("# {}\n{}\n", d.at, d.text)),
            None => {
                let hint = did_you_mean(name, defs.iter().map(|d| d.name.as_str()))
                    .map(|n| format!("; did you mean `{n}`?"))
                    .unwrap_or_default();
                self.fail(out, &format!("nothing named `{name}` is defined{hint}"));
            }
        }
    }

    /// `:doc NAME`: a builtin's calls and what each gives; a definition's
    /// text, and for a one-parameter game its moves in words.
    fn doc(&mut self, name: &str, out: &mut dyn Output) {
        if name.is_empty() {
            self.fail(out, "`:doc` needs a name: `:doc period` or `:doc Kayles`");
            return;
        }
        if let Some(spec) = crate::builtin::lookup(name) {
            let mut text = format!("{name}: takes {}\n", spec.takes);
            let width = spec.help.iter().map(|(u, _)| u.len()).max().unwrap_or(0);
            for (usage, what) in spec.help {
                text.push_str(&format!("  {usage:width$}  {what}\n"));
            }
            self.say(out, "doc", &text);
            return;
        }
        if !self.session.names().any(|(n, _)| n == name) {
            let known: Vec<String> = self.names();
            let hint = did_you_mean(name, known.iter().map(String::as_str))
                .map(|n| format!("; did you mean `{n}`?"))
                .unwrap_or_default();
            self.fail(
                out,
                &format!("no builtin or definition named `{name}`{hint}"),
            );
            return;
        }
        self.show(name, out);
        if self.session.params(name).is_some_and(|p| p.len() == 1) {
            let mut sink = Vec::new();
            self.session
                .entry("<doc>", &format!("describe({name})"), &mut |_, e| {
                    sink.push(e)
                });
            for e in sink {
                if let crate::session::Event::Answer(a) = e {
                    // Under --json, JSON only.
                    if self.json {
                        out.out(&format!("{}\n", json_line(a.to_json())));
                    } else {
                        out.out(&a.to_string());
                    }
                }
            }
        }
    }

    /// What a completion candidate is, shown beside it in the list: a
    /// builtin's first call and what it gives, a game's or function's
    /// parameters, a constant.
    pub fn signature(&self, name: &str) -> String {
        if let Some(spec) = crate::builtin::lookup(name)
            && let Some((usage, what)) = spec.help.first()
        {
            return format!("{usage}  {what}");
        }
        if let Some(d) = self
            .session
            .definitions()
            .into_iter()
            .find(|d| d.name == name)
        {
            return match (&d.params, d.function) {
                (Some(p), true) => format!("{name}({})  function", p.join(", ")),
                (Some(p), false) => format!("{name}({})  game", p.join(", ")),
                (None, _) => format!("{name}  constant"),
            };
        }
        name.to_string()
    }

    /// Names a word may complete to: games, constants, builtins, keywords.
    fn names(&self) -> Vec<String> {
        let mut names: Vec<String> = self.session.names().map(|(n, _)| n.to_string()).collect();
        names.extend(crate::builtin::names().map(String::from));
        names.extend(syntax::KEYWORDS.iter().map(|n| n.to_string()));
        names
    }

    /// Completions for the word before `pos`: where it starts and the
    /// candidates, sorted.
    pub fn complete(&self, line: &str, pos: usize) -> (usize, Vec<String>) {
        let before = line.get(..pos).unwrap_or(line);
        let trimmed = before.trim_start();
        if let Some(command) = trimmed.strip_prefix(':') {
            let start = pos - command.len();
            return match command.split_once(char::is_whitespace) {
                None => (
                    start - 1,
                    sorted(
                        COMMANDS
                            .iter()
                            .map(|(c, _, _)| c.to_string())
                            .filter(|c| c.starts_with(trimmed)),
                    ),
                ),
                Some(("load" | "l", _)) => complete_path(before),
                Some(("help" | "h" | "?", arg)) => {
                    let word = arg.rsplit(char::is_whitespace).next().unwrap_or("");
                    (
                        pos - word.len(),
                        sorted(
                            help::TOPICS
                                .iter()
                                .map(|t| t.to_string())
                                .filter(|t| t.starts_with(word)),
                        ),
                    )
                }
                Some(("show", arg)) => {
                    let word = arg.rsplit(char::is_whitespace).next().unwrap_or("");
                    let defs = self.session.names().map(|(n, _)| n.to_string());
                    (
                        pos - word.len(),
                        sorted(defs.filter(|n| n.starts_with(word))),
                    )
                }
                Some(_) => (pos, Vec::new()),
            };
        }
        let word_len = before
            .chars()
            .rev()
            .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
            .count();
        let word = &before[before.len() - word_len..];
        if word.is_empty() || word.starts_with(|c: char| c.is_ascii_digit()) {
            return (pos, Vec::new());
        }
        let mut names = sorted(self.names().into_iter().filter(|n| n.starts_with(word)));
        names.dedup();
        (pos - word_len, names)
    }

    /// The highlighted stretches of a line: keywords, numbers, names of
    /// games and builtins, commands and comments.
    pub fn tokens(&self, line: &str) -> Vec<(Range<usize>, Token)> {
        let games: Vec<&str> = self
            .session
            .names()
            .filter_map(|(n, game)| game.then_some(n))
            .collect();
        let mut out = Vec::new();
        if line.trim_start().starts_with(':') {
            let start = line.len() - line.trim_start().len();
            let end = line[start..]
                .find(char::is_whitespace)
                .map_or(line.len(), |e| start + e);
            out.push((start..end, Token::Command));
            return out;
        }
        let bytes = line.as_bytes();
        let classes = syntax::lex(line);
        let mut i = 0;
        while i < bytes.len() {
            let c = bytes[i];
            if classes[i] != syntax::Lex::Code {
                let class = classes[i];
                let end = i + classes[i..].iter().take_while(|&&k| k == class).count();
                let kind = if class == syntax::Lex::Comment {
                    Token::Comment
                } else {
                    Token::Str
                };
                out.push((i..end, kind));
                i = end;
            } else if c.is_ascii_digit() {
                let end = i + line[i..]
                    .find(|c: char| !(c.is_ascii_digit() || c == '_'))
                    .unwrap_or(line.len() - i);
                out.push((i..end, Token::Number));
                i = end;
            } else if c.is_ascii_alphabetic() || c == b'_' {
                let end = i + line[i..]
                    .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
                    .unwrap_or(line.len() - i);
                let word = &line[i..end];
                let kind = if syntax::KEYWORDS.contains(&word) {
                    Some(Token::Keyword)
                } else if games.contains(&word) {
                    Some(Token::Game)
                } else if crate::builtin::is_name(word) {
                    Some(Token::Builtin)
                } else {
                    None
                };
                if let Some(kind) = kind {
                    out.push((i..end, kind));
                }
                i = end;
            } else {
                i += line[i..].chars().next().map_or(1, char::len_utf8);
            }
        }
        out
    }
}

/// Completes the last word of a `:load` line as a path: directories and
/// `.game` files.
fn complete_path(before: &str) -> (usize, Vec<String>) {
    let word = before.rsplit(char::is_whitespace).next().unwrap_or("");
    let start = before.len() - word.len();
    let (dir, prefix) = match word.rfind('/') {
        Some(i) => (&word[..=i], &word[i + 1..]),
        None => ("", word),
    };
    let Ok(entries) = std::fs::read_dir(if dir.is_empty() { "." } else { dir }) else {
        return (start, Vec::new());
    };
    let names = entries.filter_map(|e| {
        let e = e.ok()?;
        let name = e.file_name().into_string().ok()?;
        if !name.starts_with(prefix) || (name.starts_with('.') && !prefix.starts_with('.')) {
            return None;
        }
        if e.file_type().ok()?.is_dir() {
            Some(format!("{dir}{name}/"))
        } else if name.ends_with(".game") {
            Some(format!("{dir}{name}"))
        } else {
            None
        }
    });
    (start, sorted(names))
}

fn sorted(names: impl Iterator<Item = String>) -> Vec<String> {
    let mut v: Vec<String> = names.collect();
    v.sort();
    v
}

fn on_off(b: bool) -> &'static str {
    if b { "on" } else { "off" }
}

fn list_or_nothing(items: &[String]) -> String {
    if items.is_empty() {
        "no definitions".into()
    } else {
        items.join(", ")
    }
}

/// `12.3 ms`, `1.25 s`.
fn show_duration(d: Duration) -> String {
    let ms = d.as_secs_f64() * 1000.0;
    if ms < 1.0 {
        format!("{:.0} µs", ms * 1000.0)
    } else if ms < 1000.0 {
        format!("{ms:.1} ms")
    } else {
        format!("{:.2} s", ms / 1000.0)
    }
}
