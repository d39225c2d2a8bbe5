//! The session: source text in, answers and diagnostics out. Definitions
//! persist from one entry to the next (the REPL), and values already computed
//! are kept for every game an edit does not touch. Knows no terminal.

use crate::answer::{Answer, Move, Outcome};
use crate::check;
use crate::diagnostics::{Code, Diag};
use crate::eval::{CheckCase, Limits, Machine};
use crate::flow::{R, Stop, interrupted_diag};
use crate::ir::{self, Builtin, ExprId, Stmt};
use crate::span::{SourceId, Sources, Span};
use crate::syntax::{self, ast};
use crate::value::{PosId, Value};
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
    /// Parameter names for a game; `None` for a constant.
    pub params: Option<Vec<String>>,
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
        }
    }

    /// Every source text seen, for rendering diagnostics.
    pub fn sources(&self) -> &Sources {
        &self.sources
    }

    /// The flag that interrupts a running evaluation when set (from a
    /// Ctrl-C handler); each entry clears it when it starts, and stops at
    /// the first statement boundary or poll that finds it set.
    pub fn cancel_flag(&self) -> Arc<AtomicBool> {
        self.cancel.clone()
    }

    /// How many positions the memo holds.
    pub fn state_count(&self) -> usize {
        self.machine.as_ref().map_or(0, Machine::state_count)
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

    /// The games and constants in force, in definition order.
    pub fn definitions(&self) -> Vec<DefInfo> {
        self.defs
            .iter()
            .map(|(name, d)| {
                let (params, span) = match &d.item {
                    ast::Item::Game(g) => (
                        Some(g.params.iter().map(|p| p.name.clone()).collect()),
                        g.span,
                    ),
                    ast::Item::Let(l) => (None, l.span),
                    _ => (None, Span::default()),
                };
                DefInfo {
                    name: name.clone(),
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
        Some(match m.constant(id as u32)? {
            Value::Pos(parts) => m.show_sum(parts),
            v => v.to_string(),
        })
    }

    /// Reads a source file. A file that is not UTF-8 text is reported at
    /// its first bad byte (the file is kept, with that byte replaced, so
    /// the report can show the line).
    pub fn read_file(&mut self, path: &str) -> Result<String, Diag> {
        let bytes = std::fs::read(path).map_err(|e| {
            Diag::user(Code::CannotRead, format!("cannot read {path}: {e}"))
                .help("check the path; `grundy FILE` runs a .game file")
        })?;
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

    /// Parses and checks a text without running it or keeping it.
    pub fn check(&mut self, name: &str, text: &str) -> Result<ir::Program, Vec<Diag>> {
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
                Event::Error(_) => summary.errors += 1,
            }
            emit(s, e);
        };
        let entry = match parsed {
            Ok(p) => p,
            Err(diags) => {
                for d in diags {
                    report(self, &mut summary, Event::Error(d));
                }
                return summary;
            }
        };
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
            Ok(p) => p,
            Err(diags) => {
                for mut d in diags {
                    let home = d.primary().and_then(|p| self.sources.locate(p));
                    if home.is_some_and(|(src, _, _)| src != id) {
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
        let errors = self.install(program, &defined);
        self.defs = defs;
        summary.defined = defined;
        for s in errors {
            summary.interrupted |= s == Stop::Interrupted;
            report(self, &mut summary, Event::Error(s.into_diag()));
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
                report(self, &mut summary, Event::Error(interrupted_diag()));
                return summary;
            }
            machine.start_statement();
            let result = run_stmt(&mut machine, stmt, &self.sources);
            let stop = matches!(&result, Err(Stop::Interrupted));
            self.machine = Some(machine);
            let event = match result {
                Ok(a) => Event::Answer(a),
                Err(s) => Event::Error(s.into_diag()),
            };
            report(self, &mut summary, event);
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
    fn install(&mut self, program: ir::Program, defined: &[(String, Change)]) -> Vec<Stop> {
        let Some(machine) = self.machine.as_mut() else {
            let mut m = Machine::empty(self.limits.clone());
            m.set_cancel(self.cancel.clone());
            let errors = m.update(program, &[], &[]);
            self.machine = Some(m);
            return errors.into_iter().map(|(_, s)| s).collect();
        };
        let stale = stale(&program, defined);
        let old = machine.program();
        let old_games: HashMap<&str, u32> = old
            .games
            .iter()
            .enumerate()
            .map(|(i, g)| (g.name.as_str(), i as u32))
            .collect();
        let old_consts: HashMap<&str, u32> = old
            .consts
            .iter()
            .enumerate()
            .map(|(i, c)| (c.name.as_str(), i as u32))
            .collect();
        let games: Vec<Option<u32>> = program
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
        let consts: Vec<Option<u32>> = program
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
        machine
            .update(program, &games, &consts)
            .into_iter()
            .map(|(_, s)| s)
            .collect()
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
        ast::Item::Print(e) => e.span,
        ast::Item::Check(c) => c.span,
    }
}

/// A definition's text without comments, whitespace collapsed.
fn normalize(text: &str) -> String {
    let code = text.lines().map(|l| l.split('#').next().unwrap_or(""));
    code.flat_map(str::split_whitespace)
        .collect::<Vec<_>>()
        .join(" ")
}

/// The definitions whose values cannot be kept: those new, changed or
/// removed by the entry, and every definition that uses one of them,
/// directly or not, as the checker resolved its names.
fn stale<'a>(program: &'a ir::Program, defined: &'a [(String, Change)]) -> HashSet<&'a str> {
    let name = |g: ir::Global| match g {
        ir::Global::Game(id) => program.games.get(id as usize).map(|g| g.name.as_str()),
        ir::Global::Const(id) => program.consts.get(id as usize).map(|c| c.name.as_str()),
    };
    let defs = (program.games.iter().map(|g| (g.name.as_str(), &g.uses)))
        .chain(program.consts.iter().map(|c| (c.name.as_str(), &c.uses)));
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

/// The source text of a span, with runs of whitespace collapsed.
fn snippet(sources: &Sources, span: Span) -> String {
    normalize(sources.text(span))
}

fn run_stmt(m: &mut Machine, stmt: &Stmt, sources: &Sources) -> R<Answer> {
    match stmt {
        Stmt::Print { expr, slots, span } => {
            let mut env = vec![Value::Int(0); *slots as usize];
            if let ir::Expr::Call { f, args } = m.program().expr(*expr).clone()
                && f.is_report()
            {
                return report(m, f, &args, &mut env);
            }
            let value = m.eval(*expr, &mut env)?;
            Ok(match value {
                Value::Pos(parts) => {
                    let grundy = m.grundy_sum(&parts)?;
                    Answer::Outcome {
                        position: m.show_sum(&parts),
                        grundy,
                        outcome: Outcome::of(grundy),
                    }
                }
                v => Answer::Value {
                    expr: snippet(sources, *span),
                    value: v.to_string(),
                    json: value_json(&v),
                },
            })
        }
        Stmt::Check {
            cond,
            clauses,
            vars,
            slots,
            ..
        } => {
            let mut env = vec![Value::Int(0); *slots as usize];
            let mut passed = 0u64;
            let mut failure = None;
            m.comp_loop(
                clauses,
                &mut env,
                &mut |m, env| match m.check_case(*cond, env)? {
                    CheckCase::Held => {
                        passed += 1;
                        Ok(true)
                    }
                    CheckCase::Failed(sides) => {
                        let bindings = vars
                            .iter()
                            .map(|(n, s)| (n.clone(), env[*s as usize].to_string()))
                            .collect();
                        failure =
                            Some((bindings, sides.map(|(l, r)| (l.to_string(), r.to_string()))));
                        Ok(false)
                    }
                },
            )?;
            let condition = snippet(sources, m.program().span(*cond));
            Ok(match failure {
                None => Answer::CheckOk {
                    condition,
                    cases: passed,
                },
                Some((bindings, sides)) => Answer::CheckFailed {
                    condition,
                    passed,
                    bindings,
                    sides,
                },
            })
        }
    }
}

fn value_json(v: &Value) -> serde_json::Value {
    match v {
        Value::Int(x) => (*x).into(),
        Value::Bool(b) => (*b).into(),
        Value::List(xs) => xs.iter().map(value_json).collect::<Vec<_>>().into(),
        Value::Range(lo, hi) => serde_json::json!({ "from": lo, "to_inclusive": hi }),
        Value::Pos(_) => serde_json::Value::Null,
    }
}

fn report(m: &mut Machine, f: Builtin, args: &[ExprId], env: &mut [Value]) -> R<Answer> {
    match f {
        Builtin::Outcome => {
            let parts = m.eval_sum(args[0], env)?;
            let grundy = m.grundy_sum(&parts)?;
            Ok(Answer::Outcome {
                position: m.show_sum(&parts),
                grundy,
                outcome: Outcome::of(grundy),
            })
        }
        Builtin::Moves | Builtin::Winning => {
            let parts = m.eval_sum(args[0], env)?;
            let grundy = m.grundy_sum(&parts)?;
            let (mut moves, options) = all_moves(m, &parts, grundy)?;
            if f == Builtin::Winning {
                moves.retain(|mv| mv.grundy == 0);
            }
            let position = m.show_sum(&parts);
            Ok(if f == Builtin::Moves {
                Answer::Moves {
                    position,
                    grundy,
                    moves,
                }
            } else {
                Answer::Winning {
                    position,
                    grundy,
                    moves,
                    options,
                }
            })
        }
        Builtin::Table | Builtin::PPositions => {
            let ir::Expr::GameRef(game) = *m.program().expr(args[0]) else {
                return Err(Diag::bug("table without a game").into());
            };
            let params = m.program().games[game as usize].params.clone();
            let name = m.program().games[game as usize].name.clone();
            let mut axes = Vec::new();
            for &a in &args[1..] {
                axes.push(m.eval_axis(a, env)?);
            }
            let span = m.program().span(args[0]);
            let mut value_at = |m: &mut Machine, xs: &[i64]| -> R<u32> {
                let vals: Vec<Value> = xs.iter().map(|x| Value::Int(*x)).collect();
                let p = m.intern(game, &vals, span)?;
                m.grundy(p)
            };
            match (f, axes.as_slice()) {
                (Builtin::Table, [xs]) => {
                    let mut values = Vec::with_capacity(xs.len());
                    for &x in xs.iter() {
                        values.push(value_at(m, &[x])?);
                    }
                    Ok(Answer::Table {
                        game: name,
                        param: params[0].clone(),
                        args: xs.to_vec(),
                        values,
                    })
                }
                (Builtin::Table, [rows, cols]) => {
                    let mut values = Vec::with_capacity(rows.len());
                    for &r in rows.iter() {
                        let mut row = Vec::with_capacity(cols.len());
                        for &c in cols.iter() {
                            row.push(value_at(m, &[r, c])?);
                        }
                        values.push(row);
                    }
                    Ok(Answer::Grid {
                        game: name,
                        params: [params[0].clone(), params[1].clone()],
                        rows: rows.to_vec(),
                        cols: cols.to_vec(),
                        values,
                    })
                }
                (_, axes) => {
                    let mut positions = Vec::new();
                    let mut tuple = vec![0; axes.len()];
                    p_positions(m, axes, 0, &mut tuple, &mut positions, &mut value_at)?;
                    Ok(Answer::PPositions {
                        game: name,
                        params,
                        ranges: axes
                            .iter()
                            .map(|a| crate::answer::describe_axis(a))
                            .collect(),
                        positions,
                    })
                }
            }
        }
        Builtin::Graph => {
            let parts = m.eval_sum(args[0], env)?;
            let limit = match args.get(1) {
                Some(&l) => m.eval_int(l, env)?,
                None => crate::graph::DEFAULT_NODES,
            };
            if limit < 1 {
                return Err(Diag::user(
                    Code::BadLimit,
                    "a graph needs a limit of at least 1 position",
                )
                .label(m.program().span(args[1]), "this limit")
                .into());
            }
            let span = m.program().span(args[0]);
            let g = crate::graph::graph(m, &parts, limit, span).map_err(|d| at(d, span))?;
            Ok(Answer::Graph {
                position: m.show_sum(&parts),
                dot: g.dot,
                nodes: g.nodes,
                edges: g.edges,
            })
        }
        Builtin::MisereOutcome | Builtin::MisereWinning => {
            let parts = m.eval_sum(args[0], env)?;
            let position = m.show_sum(&parts);
            m.with_misere(|ms, m| {
                let state = ms.state(m, &parts)?;
                if f == Builtin::MisereOutcome {
                    let next = ms.next_wins(m, &state)?;
                    return Ok(Answer::MisereOutcome {
                        position,
                        outcome: if next { Outcome::N } else { Outcome::P },
                    });
                }
                let options = ms.options(m, &state)?;
                let mut moves = Vec::new();
                for (from, to, next) in &options {
                    if !ms.next_wins(m, next)? {
                        moves.push((m.show_pos(*from), m.show_sum(to)));
                    }
                }
                Ok(Answer::MisereWinning {
                    position,
                    moves,
                    options: options.len(),
                })
            })
            .map_err(|d| at(d, m.program().span(args[0])))
        }
        Builtin::Describe | Builtin::Period => {
            let ir::Expr::GameRef(game) = *m.program().expr(args[0]) else {
                return Err(Diag::bug("describe/period without a game").into());
            };
            if f == Builtin::Describe {
                return Ok(Answer::Describe {
                    lines: crate::analysis::describe(m, game),
                });
            }
            let budget = match args.get(1) {
                Some(&b) => m.eval_int(b, env)?,
                None => m.limits().period_budget,
            };
            if budget < 1 {
                let (at, what) = match args.get(1) {
                    Some(&b) => (b, "this budget"),
                    None => (args[0], "the budget is --period-budget"),
                };
                return Err(Diag::user(
                    Code::BadBudget,
                    "a period search needs a budget of at least 1",
                )
                .label(m.program().span(at), what)
                .help("give one: `period(G, 100000)`")
                .into());
            }
            let name = m.program().games[game as usize].name.clone();
            let span = m.program().span(args[0]);
            Ok(match crate::analysis::period(m, game, budget, span)? {
                crate::analysis::Search::Found(p) => Answer::Period {
                    game: name,
                    computed: p.computed,
                    found: Some(p),
                    why: None,
                },
                crate::analysis::Search::NotFound { computed, why } => Answer::Period {
                    game: name,
                    found: None,
                    computed,
                    why,
                },
            })
        }
        _ => Err(Diag::bug(format!("`{}` is not a report", f.name())).into()),
    }
}

/// Points a report without a place at the position asked about.
fn at(s: Stop, span: Span) -> Stop {
    s.map_diag(|d| {
        if d.labels.is_empty() {
            d.label(span, "this position")
        } else {
            d
        }
    })
}

type ValueAt<'a> = dyn FnMut(&mut Machine, &[i64]) -> R<u32> + 'a;

fn p_positions(
    m: &mut Machine,
    axes: &[Vec<i64>],
    i: usize,
    tuple: &mut Vec<i64>,
    out: &mut Vec<Vec<i64>>,
    value_at: &mut ValueAt<'_>,
) -> R<()> {
    if i == axes.len() {
        if value_at(m, tuple)? == 0 {
            out.push(tuple.clone());
        }
        return Ok(());
    }
    for &x in axes[i].iter() {
        tuple[i] = x;
        p_positions(m, axes, i + 1, tuple, out, value_at)?;
    }
    Ok(())
}

/// Every move of a sum: each distinct component, each distinct option;
/// and how many moves they stand for (a group of a huge heap's splits is
/// many moves).
fn all_moves(m: &mut Machine, parts: &[PosId], total: u32) -> R<(Vec<Move>, u64)> {
    let mut moves = Vec::new();
    let mut count = 0u64;
    let mut done_parts = HashSet::new();
    for &c in parts {
        if !done_parts.insert(c) {
            continue;
        }
        let gc = m.grundy(c)?;
        // A huge heap of a game with a proven period: its moves by family,
        // splits grouped by residue.
        if let Some(groups) = crate::analysis::huge_moves(m, c)? {
            for (to, value, n) in groups {
                count = count.saturating_add(n);
                moves.push(Move {
                    from: m.show_pos(c),
                    to,
                    grundy: total ^ gc ^ value,
                });
            }
            continue;
        }
        let mut seen = HashSet::new();
        let mut options = crate::oracle::Moves::default();
        m.options_into(c, &mut options)?;
        for opt in options.iter() {
            let mut canon = opt.to_vec();
            canon.sort_unstable();
            if !seen.insert(canon) {
                continue;
            }
            let after = total ^ gc ^ m.grundy_sum(opt)?;
            count += 1;
            moves.push(Move {
                from: m.show_pos(c),
                to: m.show_sum(opt),
                grundy: after,
            });
        }
    }
    Ok((moves, count))
}
