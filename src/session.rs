//! The session: source text in, answers and diagnostics out. Definitions
//! persist from one entry to the next (the REPL), and values already computed
//! are kept for every game an edit does not touch. Knows no terminal.

use crate::answer::Answer;
use crate::check;
use crate::diagnostics::{Code, Diag};
use crate::eval::{Limits, Machine, Setup};
use crate::flow::{Limit, Stop, interrupted_diag};
use crate::input::Input;
use crate::ir;
use crate::query::normalize;
use crate::span::{SourceId, Sources, Span};
use crate::syntax::{self, ast};
use crate::value::Value;
use indexmap::IndexMap;
use std::collections::{HashMap, HashSet};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

/// What running a statement produced.
#[derive(Clone, Debug)]
pub enum Event {
    /// An answer to print.
    Answer(Answer),
    /// An error to report (rendered against [`Session::sources`]).
    Error(Diag),
    /// Ctrl-C stopped the entry: the report to show.
    Interrupted(Diag),
    /// Something to tell on the side (a checkpoint gone on from), in
    /// words: no answer and no error.
    Note(String),
}

impl Event {
    /// The event of a statement that stopped.
    fn stopped(s: Stop) -> Event {
        match s {
            Stop::Interrupted => Event::Interrupted(interrupted_diag()),
            s => Event::Error(s.into_diag()),
        }
    }

    /// The event of a statement at `span` that stopped. Every error has a
    /// place: the statement, when the error arose where no expression of
    /// it was at hand (a graph being solved, a limit met deep in a
    /// search); an abort that escaped is reported as the bug it is.
    fn stopped_in(s: Stop, span: crate::span::Span) -> Event {
        let s = match s {
            Stop::Aborted => Stop::Error(Stop::Aborted.into_diag()),
            s => s,
        };
        Event::stopped(s.map_diag(|d| {
            if d.labels.is_empty() {
                d.label(span, "while running this statement")
            } else {
                d
            }
        }))
    }
}

/// What an entry did to one definition.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Change {
    /// A new name.
    Added,
    /// Defined again with a different text.
    Changed,
    /// Defined again with the same text (its values are kept).
    Unchanged,
    /// Gone from the file it came from (on reloading it).
    Removed,
}

/// Totals of a run, for the exit code, and what it defined.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Summary {
    /// Answers produced.
    pub answers: usize,
    /// `check` statements that failed.
    pub failed_checks: usize,
    /// Errors reported.
    pub errors: usize,
    /// Definitions the entry made, in order (empty when it was rejected).
    pub defined: Vec<(String, Change)>,
    /// Whether Ctrl-C stopped it.
    pub interrupted: bool,
}

impl Summary {
    /// The process exit code: 2 on errors, 1 on a failed check, else 0.
    pub fn exit_code(&self) -> i32 {
        if self.errors > 0 {
            2
        } else if self.failed_checks > 0 {
            1
        } else {
            0
        }
    }
}

/// A definition in force.
#[derive(Clone, Debug)]
struct Def {
    item: ast::Item,
    /// Its text without comments and with whitespace collapsed: equal keys,
    /// equal definitions.
    key: String,
    /// The name of the source it came from (a path, or `<repl:N>`).
    origin: String,
}

/// A game or constant as the session knows it, for listings.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DefInfo {
    /// Its name.
    pub name: String,
    /// Parameter names for a game or a function; `None` for a constant.
    pub params: Option<Vec<String>>,
    /// Whether it is a function (`let f(x) = ...`).
    pub function: bool,
    /// Where it was defined: `file:line:column`.
    pub at: String,
    /// Its source text as written.
    pub text: String,
}

/// A session: the definitions in force, the sources seen so far, and the
/// evaluator with its memo.
pub struct Session {
    sources: Sources,
    limits: Limits,
    defs: IndexMap<String, Def>,
    machine: Option<Machine>,
    cancel: Arc<AtomicBool>,
    /// What the statement running has done, for a progress display.
    progress: Arc<crate::progress::Progress>,
    /// What `input_ints()` reads, until the machine is made.
    input: Option<Input>,
    /// Constants given outside the files (`--let NAME=EXPR`): they replace
    /// the files' definitions of the same name.
    lets: Vec<ast::LetDef>,
    /// While a statement runs (its machine taken out), the positions stored
    /// when it gave its latest answer.
    running_states: std::cell::Cell<usize>,
    /// Solvers added, given to every machine the session makes.
    solvers: Vec<Arc<dyn crate::solve::Solver>>,
    /// Where a run's checkpoint goes, and how often, until the machine is
    /// made and goes on from it.
    checkpoint: Option<(std::path::PathBuf, std::time::Duration)>,
}

/// A file's bytes, read a block at a time and refused as soon as they pass
/// `limit` (the memory limit: a source larger than it cannot be run, and a
/// device like /dev/zero never ends).
fn read_bounded(path: &str, limit: usize) -> Result<Vec<u8>, Diag> {
    use std::io::Read;
    let cannot = |e: std::io::Error| {
        Diag::user(Code::CannotRead, format!("cannot read {path}: {e}"))
            .help("check the path; `grundy FILE` runs a .game file")
    };
    let mut file = std::fs::File::open(path).map_err(cannot)?;
    let mut bytes = Vec::new();
    let mut block = vec![0u8; 1 << 16];
    loop {
        let n = match file.read(&mut block) {
            Ok(0) => return Ok(bytes),
            Ok(n) => n,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(cannot(e)),
        };
        if bytes.len() + n > limit {
            return Err(Limit::Memory
                .diag(format!(
                    "{path} is larger than the memory limit of {}",
                    crate::memory::show(limit)
                ))
                .help("check the path (a source is a .game file), or raise the limit with `--max-memory SIZE`"));
        }
        bytes.extend_from_slice(&block[..n]);
    }
}

impl Default for Session {
    fn default() -> Session {
        Session::new(Limits::default())
    }
}

impl Session {
    /// A new session with these limits.
    pub fn new(limits: Limits) -> Session {
        Session {
            sources: Sources::default(),
            limits,
            defs: IndexMap::new(),
            machine: None,
            cancel: Arc::new(AtomicBool::new(false)),
            progress: Arc::default(),
            input: None,
            lets: Vec::new(),
            running_states: std::cell::Cell::new(0),
            solvers: Vec::new(),
            checkpoint: None,
        }
    }

    /// Adds a solver to the plans of every game it applies to, asked
    /// before the engine's own strategies and after the solvers added
    /// before it (docs/ARCHITECTURE.md, "Adding a solver"); refused past
    /// [`crate::eval::MAX_SOLVERS`].
    pub fn add_solver(&mut self, solver: Arc<dyn crate::solve::Solver>) -> Result<(), Diag> {
        if self.solvers.len() >= crate::eval::MAX_SOLVERS {
            return Err(crate::eval::too_many_solvers());
        }
        if let Some(m) = self.machine.as_mut() {
            m.add_solver(Arc::clone(&solver))?;
        }
        self.solvers.push(solver);
        Ok(())
    }

    /// Connects what `input_ints()` reads (standard input, for the command
    /// line).
    pub fn set_input(&mut self, input: Input) {
        match self.machine.as_mut() {
            Some(m) => m.set_input(input),
            None => self.input = Some(input),
        }
    }

    /// Saves the proven values of the run to `path`, about every `every`
    /// while it runs and when [`Session::save_checkpoint`] is called; the
    /// run goes on from what `path` holds, when it holds a checkpoint of
    /// the same program (`crate::checkpoint`). For one run of a file: the
    /// machine the next entry makes resumes from it.
    pub fn set_checkpoint(&mut self, path: std::path::PathBuf, every: std::time::Duration) {
        self.checkpoint = Some((path, every));
    }

    /// Saves the run's checkpoint now, if it has one: how many positions,
    /// and where.
    pub fn save_checkpoint(&mut self) -> Option<Result<(usize, std::path::PathBuf), Diag>> {
        self.machine.as_mut()?.save_checkpoint()
    }

    /// Binds a constant from outside the files, `NAME=EXPR` with the value
    /// in the language's own syntax: it replaces a file's `let NAME` (in
    /// every file run after), or is added when no file defines it.
    pub fn add_let(&mut self, arg: &str) -> Result<(), Vec<Diag>> {
        let text = format!("let {arg}");
        let id = self.sources.add("--let", text.as_str());
        let bad = || {
            vec![
                Diag::user(Code::BadLet, format!("`--let {arg}` is not a definition"))
                    .help("write `--let NAME=VALUE`, e.g. `--let 'heaps=[4, 7, 9]'`"),
            ]
        };
        if !arg.contains('=') {
            return Err(bad());
        }
        let program = syntax::parse_at(&text, self.base(id))?;
        match &program.items[..] {
            [ast::Item::Let(l)] => {
                self.lets.retain(|o| o.name.name != l.name.name);
                self.lets.push(l.clone());
                Ok(())
            }
            _ => Err(bad()),
        }
    }

    /// Every source text seen, for rendering diagnostics.
    pub fn sources(&self) -> &Sources {
        &self.sources
    }

    /// The time limit of each statement.
    pub fn time_limit(&self) -> Option<std::time::Duration> {
        self.limits.time_limit
    }

    /// Sets the time limit of each statement from now on.
    pub fn set_time_limit(&mut self, limit: Option<std::time::Duration>) {
        self.limits.time_limit = limit;
        if let Some(m) = self.machine.as_mut() {
            m.set_time_limit(limit);
        }
    }

    /// What the statement running has done so far (for a progress line).
    pub fn progress(&self) -> Arc<crate::progress::Progress> {
        self.progress.clone()
    }

    /// The flag that interrupts a running evaluation when set (from a
    /// Ctrl-C handler); each entry clears it when it starts, and stops at
    /// the first statement boundary or poll that finds it set.
    pub fn cancel_flag(&self) -> Arc<AtomicBool> {
        self.cancel.clone()
    }

    /// How many positions the memo holds.
    pub fn state_count(&self) -> usize {
        match &self.machine {
            Some(m) => m.state_count(),
            // A statement running: as it stood at its latest answer.
            None => self.running_states.get(),
        }
    }

    /// Forgets every definition and value (sources stay, for old reports).
    pub fn clear(&mut self) {
        self.defs.clear();
        self.machine = None;
    }

    /// The names in force, in definition order, each with whether it is a
    /// game (cheap: for completion and highlighting on every key).
    pub fn names(&self) -> impl Iterator<Item = (&str, bool)> {
        self.defs
            .iter()
            .map(|(n, d)| (n.as_str(), matches!(d.item, ast::Item::Game(_))))
    }

    /// The parameter names of a game in force (`None` for anything else).
    pub fn params(&self, name: &str) -> Option<Vec<String>> {
        match &self.defs.get(name)?.item {
            ast::Item::Game(g) => Some(g.params.iter().map(|p| p.name.clone()).collect()),
            _ => None,
        }
    }

    /// The games, constants and functions in force, in definition order.
    pub fn definitions(&self) -> Vec<DefInfo> {
        self.defs
            .iter()
            .map(|(name, d)| {
                let names = |ps: &[ast::Ident]| ps.iter().map(|p| p.name.clone()).collect();
                let (params, span) = match &d.item {
                    ast::Item::Game(g) => (Some(names(&g.params)), g.span),
                    ast::Item::Let(l) => (l.params.as_deref().map(names), l.span),
                    _ => (None, Span::default()),
                };
                DefInfo {
                    name: name.clone(),
                    function: matches!(&d.item, ast::Item::Let(l) if l.params.is_some()),
                    params,
                    at: self.sources.position(span).unwrap_or_default(),
                    text: self.sources.text(span).to_string(),
                }
            })
            .collect()
    }

    /// The value of a constant in force, rendered (`None` if there is no
    /// such constant or its definition failed).
    pub fn constant(&self, name: &str) -> Option<String> {
        let m = self.machine.as_ref()?;
        let id = m.program().consts.iter().position(|c| c.name == name)?;
        Some(match m.constant(crate::ir::ConstId(id as u32))? {
            Value::Pos(parts) => m.show().sum(parts),
            v => v.to_string(),
        })
    }

    /// Reads a source file. A file that is not UTF-8 text is reported at
    /// its first bad byte (the file is kept, with that byte replaced, so
    /// the report can show the line).
    pub fn read_file(&mut self, path: &str) -> Result<String, Diag> {
        let bytes = read_bounded(path, self.limits.max_memory)?;
        match String::from_utf8(bytes) {
            Ok(text) => Ok(text),
            Err(e) => {
                let at = e.utf8_error().valid_up_to();
                let byte = e.as_bytes().get(at).copied().unwrap_or(0);
                let text = String::from_utf8_lossy(e.as_bytes()).into_owned();
                let id = self.sources.add(path, text);
                let base = self.base(id) as usize;
                Err(Diag::user(
                    Code::NotUtf8,
                    format!("{path} is not UTF-8 text: byte 0x{byte:02X} cannot start a character"),
                )
                .label(Span::new(base + at, base + at + 1), "this byte")
                .help(
                    "save the file as UTF-8 (a byte like 0xE9 is `é` in Latin-1, \
                     which UTF-8 writes as two bytes)",
                ))
            }
        }
    }

    /// Parses and checks a text without running it or keeping it: the
    /// program and its warnings, or every error.
    pub fn check(&mut self, name: &str, text: &str) -> Result<(ir::Program, Vec<Diag>), Vec<Diag>> {
        let id = self.sources.add(name, text);
        check::check(&syntax::parse_at(text, self.base(id))?)
    }

    fn base(&self, id: SourceId) -> u32 {
        self.sources.get(id).map_or(0, |s| s.base)
    }

    /// Runs a file's text: its definitions join the session, then its
    /// statements run in order, each answer or error handed to `emit` as soon
    /// as it is known. Definitions that came from an earlier text of the
    /// same name and are gone from this one are removed (a reload).
    pub fn run(
        &mut self,
        name: &str,
        text: &str,
        emit: &mut dyn FnMut(&Session, Event),
    ) -> Summary {
        let id = self.sources.add(name, text);
        let parsed = syntax::parse_at(text, self.base(id));
        self.submit(name, id, parsed, true, emit)
    }

    /// Runs one REPL entry: like [`Session::run`], and a bare expression is
    /// answered as if printed.
    pub fn entry(
        &mut self,
        name: &str,
        text: &str,
        emit: &mut dyn FnMut(&Session, Event),
    ) -> Summary {
        let id = self.sources.add(name, text);
        let parsed = syntax::parse_entry(text, self.base(id));
        self.submit(name, id, parsed, false, emit)
    }

    fn submit(
        &mut self,
        origin: &str,
        id: SourceId,
        parsed: Result<ast::Program, Vec<Diag>>,
        reload: bool,
        emit: &mut dyn FnMut(&Session, Event),
    ) -> Summary {
        let mut summary = Summary::default();
        let mut report = |s: &Session, summary: &mut Summary, e: Event| {
            match &e {
                Event::Answer(a) => {
                    summary.answers += 1;
                    if a.is_failure() {
                        summary.failed_checks += 1;
                    }
                }
                Event::Error(d) if d.warning => {}
                Event::Error(_) | Event::Interrupted(_) => summary.errors += 1,
                Event::Note(_) => {}
            }
            emit(s, e);
        };
        let mut entry = match parsed {
            Ok(p) => p,
            Err(diags) => {
                for d in diags {
                    report(self, &mut summary, Event::Error(d));
                }
                return summary;
            }
        };
        if reload {
            let unknown = self.unknown_lets(id);
            if !unknown.is_empty() {
                for d in unknown {
                    report(self, &mut summary, Event::Error(d));
                }
                return summary;
            }
            self.apply_lets(&mut entry);
        }
        let (defs, defined) = self.merge(origin, reload, &entry);
        let mut items: Vec<ast::Item> = defs.values().map(|d| d.item.clone()).collect();
        // A name defined twice in the entry stays an error for the checker.
        let mut firsts = HashSet::new();
        for item in &entry.items {
            match def_name(item) {
                Some(n) if firsts.insert(n) => {}
                _ => items.push(item.clone()),
            }
        }
        let program = match check::check(&ast::Program { items }) {
            Ok((p, warnings)) => {
                // Warnings about this entry's own text (the definitions in
                // force were warned about when they came).
                for w in warnings {
                    let home = w.primary().and_then(|p| self.sources.locate(p));
                    if home.is_some_and(|(src, _, _)| src == id) {
                        report(self, &mut summary, Event::Error(w));
                    }
                }
                p
            }
            Err(diags) => {
                for mut d in diags {
                    let home = d.primary().and_then(|p| self.sources.locate(p));
                    // (A `--let` is part of every file it is given with.)
                    if home.is_some_and(|(src, s, _)| src != id && s.name != "--let") {
                        d = d.note(
                            "this definition was accepted before and no longer checks with \
                             the new one: nothing was run, and the definitions stay as they \
                             were (change both in one entry)",
                        );
                    }
                    report(self, &mut summary, Event::Error(d));
                }
                return summary;
            }
        };
        // Ctrl-C pressed before this entry is not for it.
        self.cancel.store(false, Ordering::Relaxed);
        let (errors, note) = match self.install(program, &defined) {
            Ok(installed) => installed,
            // A checkpoint refused: nothing runs, and the file is left as
            // it is.
            Err(d) => {
                report(self, &mut summary, Event::Error(d));
                return summary;
            }
        };
        self.defs = defs;
        summary.defined = defined;
        if let Some(note) = note {
            report(self, &mut summary, Event::Note(note));
        }
        for s in errors {
            summary.interrupted |= s == Stop::Interrupted;
            report(self, &mut summary, Event::stopped(s));
        }
        let Some(mut machine) = self.machine.take() else {
            return summary;
        };
        let stmts = machine.program().stmts.clone();
        for stmt in &stmts {
            if summary.interrupted {
                break;
            }
            // Pressed after the last look of the previous statement.
            if self.cancel.swap(false, Ordering::Relaxed) {
                self.machine = Some(machine);
                summary.interrupted = true;
                report(self, &mut summary, Event::stopped(Stop::Interrupted));
                return summary;
            }
            machine.start_statement();
            // Each answer reported as it comes (a million lines are not
            // kept to the end).
            let result = crate::query::run_stmt(&mut machine, stmt, &self.sources, &mut |a, m| {
                self.running_states.set(m.state_count());
                report(self, &mut summary, Event::Answer(a))
            });
            machine.end_statement();
            // A limit says what was done before it.
            let result = result.map_err(|s| {
                if matches!(s.limit(), Some(Limit::Time | Limit::Work)) {
                    let note = machine.done_note();
                    s.map_diag(|d| d.note(note))
                } else {
                    s
                }
            });
            let stop = matches!(&result, Err(Stop::Interrupted));
            self.machine = Some(machine);
            if let Err(s) = result {
                report(self, &mut summary, Event::stopped_in(s, stmt.span()));
            }
            machine = match self.machine.take() {
                Some(m) => m,
                None => return summary,
            };
            if stop {
                summary.interrupted = true;
                break;
            }
        }
        self.machine = Some(machine);
        summary
    }

    /// The `--let` constants that a file neither defines nor uses (nor any
    /// definition before it): a misspelled name, most likely.
    fn unknown_lets(&self, id: SourceId) -> Vec<Diag> {
        let Some(src) = self.sources.get(id) else {
            return Vec::new();
        };
        let words = syntax::words(&src.text);
        self.lets
            .iter()
            .filter(|l| !words.contains(l.name.name.as_str()) && !self.defs.contains_key(&l.name.name))
            .map(|l| {
                let name = &l.name.name;
                let d = Diag::user(
                    Code::BadLet,
                    format!("`--let {name}`: {} neither defines nor uses `{name}`", src.name),
                )
                .label(l.name.span, "not in the file");
                match crate::diagnostics::did_you_mean(name, words.iter().copied()) {
                    Some(m) => d.help(format!("did you mean `--let {m}=...`?")),
                    None => d.help("`--let NAME=EXPR` binds a constant the file uses, or replaces its own `let NAME`"),
                }
            })
            .collect()
    }

    /// Puts the `--let` constants into a file's items: in place of its own
    /// definitions of those names, first when nothing defines them yet.
    fn apply_lets(&self, entry: &mut ast::Program) {
        for l in self.lets.iter().rev() {
            let mut found = false;
            for item in &mut entry.items {
                if let ast::Item::Let(mine) = item
                    && mine.name.name == l.name.name
                {
                    *mine = l.clone();
                    found = true;
                }
            }
            if !found && !self.defs.contains_key(&l.name.name) {
                entry.items.insert(0, ast::Item::Let(l.clone()));
            }
        }
    }

    /// The definitions after an entry: the current ones with the entry's
    /// replacing them in place, new ones at the end, and (on a `reload`)
    /// those that came from `origin` before but are not in it any more
    /// removed.
    fn merge(
        &self,
        origin: &str,
        reload: bool,
        entry: &ast::Program,
    ) -> (IndexMap<String, Def>, Vec<(String, Change)>) {
        let mut defs = self.defs.clone();
        let mut defined = Vec::new();
        let mut seen = HashSet::new();
        for item in &entry.items {
            let Some(name) = def_name(item) else { continue };
            if !seen.insert(name) {
                continue;
            }
            let key = normalize(self.sources.text(item_span(item)));
            let change = match defs.get(name) {
                None => Change::Added,
                Some(d) if d.key == key => Change::Unchanged,
                Some(_) => Change::Changed,
            };
            defined.push((name.to_string(), change));
            defs.insert(
                name.to_string(),
                Def {
                    item: item.clone(),
                    key,
                    origin: origin.to_string(),
                },
            );
        }
        defs.retain(|name, d| {
            let gone = reload && d.origin == origin && !seen.contains(name.as_str());
            if gone {
                defined.push((name.clone(), Change::Removed));
            }
            !gone
        });
        (defs, defined)
    }

    /// Hands a newly checked program to the machine, keeping the values of
    /// every game whose definition and dependencies did not change. Returns
    /// the failures of constants evaluated anew.
    fn install(
        &mut self,
        program: ir::Program,
        defined: &[(String, Change)],
    ) -> Result<(Vec<Stop>, Option<String>), Diag> {
        let Some(machine) = self.machine.as_mut() else {
            let mut m = Machine::new(Setup {
                limits: self.limits.clone(),
                cancel: Some(self.cancel.clone()),
                progress: Some(self.progress.clone()),
                report_values: Some(crate::report::value),
                solvers: self.solvers.clone(),
            });
            if let Some(input) = self.input.take() {
                m.set_input(input);
            }
            // A run's checkpoint is read back before its constants run;
            // refused, the machine (holding part of it) is dropped.
            let (errors, note) = match self.checkpoint.take() {
                None => (m.update(program, &[], &[]), None),
                Some((path, every)) => {
                    let hash = crate::checkpoint::program_hash(self.sources.texts());
                    let checkpoint = crate::checkpoint::Checkpoint::new(path.clone(), every, hash);
                    let (loaded, errors) = m.start(program, checkpoint)?;
                    let note = loaded.map(|n| {
                        format!(
                            "going on from the checkpoint {}: {} positions",
                            path.display(),
                            crate::progress::grouped(n as u64)
                        )
                    });
                    (errors, note)
                }
            };
            self.machine = Some(m);
            return Ok((errors.into_iter().map(|(_, s)| s).collect(), note));
        };
        let stale = stale(&program, defined);
        let old = machine.program();
        let old_games: HashMap<&str, crate::ir::GameId> = old
            .games
            .iter()
            .enumerate()
            .map(|(i, g)| (g.name.as_str(), crate::ir::GameId(i as u32)))
            .collect();
        let old_consts: HashMap<&str, crate::ir::ConstId> = old
            .consts
            .iter()
            .enumerate()
            .map(|(i, c)| (c.name.as_str(), crate::ir::ConstId(i as u32)))
            .collect();
        let games: Vec<Option<crate::ir::GameId>> = program
            .games
            .iter()
            .map(|g| {
                old_games
                    .get(g.name.as_str())
                    .copied()
                    .filter(|_| !stale.contains(g.name.as_str()))
            })
            .collect();
        let again: HashSet<&str> = defined.iter().map(|(n, _)| n.as_str()).collect();
        let consts: Vec<Option<crate::ir::ConstId>> = program
            .consts
            .iter()
            .map(|c| {
                old_consts
                    .get(c.name.as_str())
                    .copied()
                    .filter(|_| !stale.contains(c.name.as_str()))
                    // A failed constant entered again is evaluated again.
                    .filter(|o| !again.contains(c.name.as_str()) || machine.constant(*o).is_some())
            })
            .collect();
        let errors = machine.update(program, &games, &consts);
        Ok((errors.into_iter().map(|(_, s)| s).collect(), None))
    }
}

/// The name an item defines, if it is a definition.
fn def_name(item: &ast::Item) -> Option<&str> {
    match item {
        ast::Item::Game(g) => Some(&g.name.name),
        ast::Item::Let(l) => Some(&l.name.name),
        _ => None,
    }
}

fn item_span(item: &ast::Item) -> Span {
    match item {
        ast::Item::Game(g) => g.span,
        ast::Item::Let(l) => l.span,
        ast::Item::Print(p) => p.span,
        ast::Item::Check(c) => c.span,
    }
}

/// The definitions whose values cannot be kept: those new, changed or
/// removed by the entry, and every definition that uses one of them,
/// directly or not, as the checker resolved its names.
fn stale<'a>(program: &'a ir::Program, defined: &'a [(String, Change)]) -> HashSet<&'a str> {
    let name = |g: ir::Global| match g {
        ir::Global::Game(id) => program.games.get(id.index()).map(|g| g.name.as_str()),
        ir::Global::Const(id) => program.consts.get(id.index()).map(|c| c.name.as_str()),
        ir::Global::Fun(id) => program.funs.get(id.index()).map(|f| f.name.as_str()),
    };
    let defs = (program.games.iter().map(|g| (g.name.as_str(), &g.uses)))
        .chain(program.consts.iter().map(|c| (c.name.as_str(), &c.uses)))
        .chain(program.funs.iter().map(|f| (f.name.as_str(), &f.uses)));
    let mut users: HashMap<&str, Vec<&str>> = HashMap::new();
    for (user, uses) in defs {
        for used in uses.iter().filter_map(|&u| name(u)) {
            users.entry(used).or_default().push(user);
        }
    }
    let mut out = HashSet::new();
    let mut work: Vec<&str> = defined
        .iter()
        .filter(|(_, c)| matches!(c, Change::Added | Change::Changed | Change::Removed))
        .map(|(n, _)| n.as_str())
        .collect();
    while let Some(n) = work.pop() {
        if out.insert(n) {
            work.extend(users.get(n).into_iter().flatten().copied());
        }
    }
    out
}
