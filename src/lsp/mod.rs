//! `grundy lsp`: a Language Server Protocol server over standard input and
//! output, on `lsp-server`'s messages and `lsp-types` (as rust-analyzer
//! is), framed by `transport`, which answers a broken frame with an error
//! and reads on. Each open
//! file is parsed and checked as `grundy check` does it, never run: its
//! diagnostics are published on open and on every change (changes that
//! arrive together are checked once), and the checked program (while the
//! file has errors, that of its items that still check: `salvage`) answers
//! hover (with a one-parameter game's first values, from its definitions
//! alone, under a small time and memory budget), completion, definitions,
//! references, the outline and renames.
//! The only module that knows the protocol.

use crate::diagnostics::Diag;
use crate::ir::{self, Global};
use crate::span::Span;
use lsp_server::{ErrorCode, Message, Notification, Request, Response};
use lsp_types as lsp;
use std::cell::OnceCell;
use std::collections::{HashMap, VecDeque};
use std::sync::mpsc::Receiver;

mod salvage;
pub mod transport;

use transport::Incoming;

/// Serves until the client asks to shut down; the exit code.
pub fn main() -> i32 {
    match serve() {
        Ok(()) => 0,
        Err(e) => {
            eprintln!("grundy lsp: {e}");
            1
        }
    }
}

type Error = Box<dyn std::error::Error + Send + Sync>;

/// The server's side of the connection: messages read by a thread of their
/// own (so that changes waiting together are seen together), answers
/// written in order.
struct Connection {
    incoming: Receiver<Incoming>,
    out: std::io::Stdout,
}

impl Connection {
    fn stdio() -> Connection {
        let (tx, incoming) = std::sync::mpsc::channel();
        std::thread::spawn(move || {
            let mut input = std::io::stdin().lock();
            while let Ok(Some(frame)) = transport::read(&mut input) {
                if tx.send(frame).is_err() {
                    break;
                }
            }
        });
        Connection {
            incoming,
            out: std::io::stdout(),
        }
    }

    fn send(&mut self, msg: impl Into<Message>) -> Result<(), Error> {
        let value = serde_json::to_value(msg.into())?;
        transport::write(&mut self.out.lock(), &value)?;
        Ok(())
    }

    /// Answers a frame that is not a message with its error.
    fn reject(&mut self, id: serde_json::Value, code: i32, message: String) -> Result<(), Error> {
        let value = serde_json::json!({
            "jsonrpc": "2.0",
            "id": id,
            "error": { "code": code, "message": message },
        });
        transport::write(&mut self.out.lock(), &value)?;
        Ok(())
    }
}

fn capabilities() -> lsp::ServerCapabilities {
    lsp::ServerCapabilities {
        text_document_sync: Some(lsp::TextDocumentSyncCapability::Kind(
            lsp::TextDocumentSyncKind::FULL,
        )),
        hover_provider: Some(lsp::HoverProviderCapability::Simple(true)),
        completion_provider: Some(lsp::CompletionOptions::default()),
        definition_provider: Some(lsp::OneOf::Left(true)),
        references_provider: Some(lsp::OneOf::Left(true)),
        document_symbol_provider: Some(lsp::OneOf::Left(true)),
        rename_provider: Some(lsp::OneOf::Left(true)),
        ..Default::default()
    }
}

/// Where the conversation is: before `initialize`, serving, or shut down
/// and waiting for `exit`.
#[derive(PartialEq)]
enum Phase {
    Starting,
    Serving,
    ShutDown,
}

fn serve() -> Result<(), Error> {
    let mut connection = Connection::stdio();
    let mut docs: HashMap<String, Doc> = HashMap::new();
    let mut pending: VecDeque<Message> = VecDeque::new();
    let mut phase = Phase::Starting;
    loop {
        let msg = match pending.pop_front() {
            Some(m) => m,
            None => match connection.incoming.recv() {
                Ok(Incoming::Message(m)) => m,
                Ok(Incoming::Malformed { id, code, message }) => {
                    connection.reject(id, code, message)?;
                    continue;
                }
                // The client closed the stream.
                Err(_) => return Ok(()),
            },
        };
        match msg {
            Message::Request(req) => {
                let resp = match (&phase, req.method.as_str()) {
                    (Phase::Starting, "initialize") => {
                        phase = Phase::Serving;
                        Response::new_ok(
                            req.id,
                            serde_json::json!({
                                "capabilities": capabilities(),
                                "serverInfo": { "name": "grundy", "version": env!("CARGO_PKG_VERSION") },
                            }),
                        )
                    }
                    (Phase::Starting, _) => Response::new_err(
                        req.id,
                        ErrorCode::ServerNotInitialized as i32,
                        "the server is not initialized".into(),
                    ),
                    (Phase::Serving, "shutdown") => {
                        phase = Phase::ShutDown;
                        Response::new_ok(req.id, serde_json::Value::Null)
                    }
                    (Phase::Serving, _) => answer(&docs, req),
                    (Phase::ShutDown, _) => Response::new_err(
                        req.id,
                        ErrorCode::InvalidRequest as i32,
                        "the server is shut down".into(),
                    ),
                };
                connection.send(resp)?;
            }
            Message::Notification(n) if n.method == "exit" => {
                if phase == Phase::ShutDown {
                    return Ok(());
                }
                // Exit before shutdown: the protocol's exit code 1.
                return Err("the client exited without asking to shut down".into());
            }
            Message::Notification(_) if phase != Phase::Serving => {}
            Message::Notification(n) => {
                // Changes already waiting replace this one: check the last.
                // (A malformed frame among them is answered at once.)
                while let Ok(next) = connection.incoming.try_recv() {
                    match next {
                        Incoming::Message(m) => pending.push_back(m),
                        Incoming::Malformed { id, code, message } => {
                            connection.reject(id, code, message)?;
                        }
                    }
                }
                if let Some(uri) = changed(&mut docs, n, &pending) {
                    let diagnostics = docs
                        .get(uri.as_str())
                        .map(|d| d.diagnostics(&uri))
                        .unwrap_or_default();
                    let params = lsp::PublishDiagnosticsParams {
                        uri,
                        diagnostics,
                        version: None,
                    };
                    connection.send(Notification::new(
                        "textDocument/publishDiagnostics".into(),
                        params,
                    ))?;
                }
            }
            Message::Response(_) => {}
        }
    }
}

/// Applies a document notification; the document whose diagnostics are to
/// be published (`None` when a later change to it is already waiting).
fn changed(
    docs: &mut HashMap<String, Doc>,
    n: Notification,
    pending: &VecDeque<Message>,
) -> Option<lsp::Uri> {
    let superseded = |uri: &lsp::Uri| {
        pending.iter().any(|m| match m {
            Message::Notification(p) if p.method == "textDocument/didChange" => {
                serde_json::from_value::<lsp::DidChangeTextDocumentParams>(p.params.clone())
                    .is_ok_and(|p| p.text_document.uri == *uri)
            }
            _ => false,
        })
    };
    match n.method.as_str() {
        "textDocument/didOpen" => {
            let p: lsp::DidOpenTextDocumentParams = serde_json::from_value(n.params).ok()?;
            let uri = p.text_document.uri;
            docs.insert(uri.as_str().to_string(), Doc::new(p.text_document.text));
            Some(uri)
        }
        "textDocument/didChange" => {
            let p: lsp::DidChangeTextDocumentParams = serde_json::from_value(n.params).ok()?;
            let uri = p.text_document.uri;
            let text = p.content_changes.into_iter().last()?.text;
            if superseded(&uri) {
                return None;
            }
            docs.insert(uri.as_str().to_string(), Doc::new(text));
            Some(uri)
        }
        "textDocument/didClose" => {
            let p: lsp::DidCloseTextDocumentParams = serde_json::from_value(n.params).ok()?;
            // A closed file keeps no diagnostics in the client.
            docs.remove(p.text_document.uri.as_str());
            Some(p.text_document.uri)
        }
        _ => None,
    }
}

/// The most characters of a value hover shows.
const MAX_HOVER: usize = 600;

/// An open file: its text, where its lines start, and what checking it
/// gave.
struct Doc {
    text: String,
    lines: Vec<usize>,
    /// The checked program: the whole file's, or where it has errors, that
    /// of its items that still check (`salvage`, found when a request first
    /// asks: diagnostics are published without it); `None` when none does.
    program: OnceCell<Option<ir::Program>>,
    /// Whether `program` is the whole file's.
    complete: bool,
    /// The program's games, functions and constants by name.
    names: OnceCell<HashMap<String, Global>>,
    diags: Vec<Diag>,
}

impl Doc {
    fn new(text: String) -> Doc {
        let lines = std::iter::once(0)
            .chain(text.match_indices('\n').map(|(i, _)| i + 1))
            .collect();
        let program = OnceCell::new();
        let (complete, diags) =
            match crate::syntax::parse_at(&text, 0).and_then(|ast| crate::check::check(&ast)) {
                Ok((p, warnings)) => {
                    let _ = program.set(Some(p));
                    (true, warnings)
                }
                Err(errors) => (false, errors),
            };
        Doc {
            text,
            lines,
            program,
            complete,
            names: OnceCell::new(),
            diags,
        }
    }

    /// The checked program (see `Doc::program`).
    fn program(&self) -> Option<&ir::Program> {
        self.program
            .get_or_init(|| salvage::salvage(&self.text, &self.diags))
            .as_ref()
    }

    /// The program's games, functions and constants by name.
    fn names(&self) -> &HashMap<String, Global> {
        self.names.get_or_init(|| {
            let mut names = HashMap::new();
            if let Some(p) = self.program() {
                for (i, g) in p.games.iter().enumerate() {
                    names.insert(g.name.clone(), Global::Game(ir::GameId(i as u32)));
                }
                for (i, f) in p.funs.iter().enumerate() {
                    names.insert(f.name.clone(), Global::Fun(ir::FunId(i as u32)));
                }
                for (i, c) in p.consts.iter().enumerate() {
                    names.insert(c.name.clone(), Global::Const(ir::ConstId(i as u32)));
                }
            }
            names
        })
    }

    /// A byte offset as a protocol position (UTF-16 columns).
    fn position(&self, offset: usize) -> lsp::Position {
        let offset = offset.min(self.text.len());
        let line = self
            .lines
            .partition_point(|&s| s <= offset)
            .saturating_sub(1);
        let start = self.lines[line];
        let col: usize = self
            .text
            .get(start..offset)
            .map_or(0, |s| s.chars().map(char::len_utf16).sum());
        lsp::Position::new(line as u32, col as u32)
    }

    /// A protocol position as a byte offset.
    fn offset(&self, p: lsp::Position) -> usize {
        let Some(&start) = self.lines.get(p.line as usize) else {
            return self.text.len();
        };
        let mut units = 0;
        for (i, c) in self.text[start..].char_indices() {
            if units >= p.character as usize || c == '\n' {
                return start + i;
            }
            units += c.len_utf16();
        }
        self.text.len()
    }

    fn range(&self, span: Span) -> lsp::Range {
        lsp::Range::new(
            self.position(span.start as usize),
            self.position(span.end as usize),
        )
    }

    /// The diagnostics, as `grundy check` reports them: the primary
    /// label's range, the code, the message with its help, the other
    /// labels as related information.
    fn diagnostics(&self, uri: &lsp::Uri) -> Vec<lsp::Diagnostic> {
        self.diags
            .iter()
            .map(|d| {
                let range = d
                    .primary()
                    .map_or_else(lsp::Range::default, |s| self.range(s));
                let related: Vec<lsp::DiagnosticRelatedInformation> = d
                    .labels
                    .iter()
                    .skip(1)
                    .map(|l| lsp::DiagnosticRelatedInformation {
                        location: lsp::Location::new(uri.clone(), self.range(l.span)),
                        message: l.text.clone(),
                    })
                    .collect();
                let mut message = d.message.clone();
                if let Some(help) = &d.help {
                    message.push_str(&format!("\nhelp: {help}"));
                }
                lsp::Diagnostic {
                    range,
                    severity: Some(if d.warning {
                        lsp::DiagnosticSeverity::WARNING
                    } else {
                        lsp::DiagnosticSeverity::ERROR
                    }),
                    code: Some(lsp::NumberOrString::String(d.code.as_str().to_string())),
                    source: Some("grundy".into()),
                    message,
                    related_information: (!related.is_empty()).then_some(related),
                    ..Default::default()
                }
            })
            .collect()
    }

    /// The name (an identifier) at a byte offset, and its span.
    fn word_at(&self, offset: usize) -> Option<(&str, Span)> {
        let is_word = |c: char| c.is_ascii_alphanumeric() || c == '_';
        let bytes = self.text.as_bytes();
        let mut start = offset.min(bytes.len());
        while start > 0 && is_word(bytes[start - 1] as char) {
            start -= 1;
        }
        let mut end = offset.min(bytes.len());
        while end < bytes.len() && is_word(bytes[end] as char) {
            end += 1;
        }
        let word = self.text.get(start..end)?;
        (!word.is_empty() && !word.starts_with(|c: char| c.is_ascii_digit()))
            .then(|| (word, Span::new(start, end)))
    }

    /// The program's definition of a name.
    fn global(&self, name: &str) -> Option<Global> {
        self.names().get(name).copied()
    }

    /// Where a definition names itself.
    fn definition(&self, g: Global) -> Option<Span> {
        let p = self.program()?;
        let (name, span) = match g {
            Global::Game(i) => (&p.games[i.index()].name, p.games[i.index()].span),
            Global::Fun(i) => (&p.funs[i.index()].name, p.funs[i.index()].span),
            Global::Const(i) => return Some(p.consts[i.index()].name_span),
        };
        self.name_in(name, span)
    }

    /// The first occurrence of `name` as a whole word inside `span`.
    fn name_in(&self, name: &str, span: Span) -> Option<Span> {
        let text = self.text.get(span.start as usize..span.end as usize)?;
        let is_word = |c: Option<char>| c.is_some_and(|c| c.is_ascii_alphanumeric() || c == '_');
        text.match_indices(name).find_map(|(i, _)| {
            let before = text[..i].chars().next_back();
            let after = text[i + name.len()..].chars().next();
            (!is_word(before) && !is_word(after)).then(|| {
                let start = span.start as usize + i;
                Span::new(start, start + name.len())
            })
        })
    }

    /// Every place that names a definition: the definition itself, then
    /// its uses in order.
    fn references(&self, g: Global) -> Vec<Span> {
        let Some(p) = self.program() else {
            return Vec::new();
        };
        let name = match g {
            Global::Game(i) => &p.games[i.index()].name,
            Global::Fun(i) => &p.funs[i.index()].name,
            Global::Const(i) => &p.consts[i.index()].name,
        };
        let mut out: Vec<Span> = self.definition(g).into_iter().collect();
        for (e, span) in p.exprs.iter().zip(&p.spans) {
            let hit = match e {
                ir::Expr::Apply { game, .. } => g == Global::Game(*game),
                ir::Expr::GameRef(game) => g == Global::Game(*game),
                ir::Expr::CallFun { fun, .. } => g == Global::Fun(*fun),
                ir::Expr::Const(c) => g == Global::Const(*c),
                _ => false,
            };
            // A use starts with the name (`G(3)`, `f(x)`, `N`); spans that
            // point elsewhere (a shorthand's rules) are left out.
            let at = span.start as usize;
            if hit && self.text.get(at..at + name.len()) == Some(name.as_str()) {
                let s = Span::new(at, at + name.len());
                if !out.contains(&s) {
                    out.push(s);
                }
            }
        }
        out
    }

    /// What hovering a name shows.
    fn hover(&self, name: &str) -> Option<String> {
        if let Some(g) = self.global(name) {
            let mut text = self.signature(g);
            if let Some(values) = self.first_values(g) {
                text.push_str(&format!("\n\n```\n{}```", values));
            }
            return Some(text);
        }
        let spec = crate::builtin::lookup(name)?;
        let mut text = format!("builtin `{name}`: takes {}\n", spec.takes);
        for (usage, what) in spec.help {
            text.push_str(&format!("\n`{usage}`: {what}"));
        }
        Some(text)
    }

    /// A one-parameter game's first values, or a constant's value,
    /// computed from the definitions it needs alone (statements and other
    /// constants are not run) within a fifth of a second and 256 MB; `None`
    /// when they cannot be.
    fn first_values(&self, g: Global) -> Option<String> {
        let p = self.program()?;
        let query = match g {
            Global::Game(i) if p.games[i.index()].params.len() == 1 => {
                format!("table({}, 0..=20)", p.games[i.index()].name)
            }
            Global::Const(i) => p.consts[i.index()].name.clone(),
            _ => return None,
        };
        // The definitions the game needs (through any chain of uses), each
        // as written: nothing else is evaluated.
        let mut needed = vec![g];
        let mut i = 0;
        while let Some(&d) = needed.get(i) {
            let uses = match d {
                Global::Game(j) => &p.games[j.index()].uses,
                Global::Fun(j) => &p.funs[j.index()].uses,
                Global::Const(j) => &p.consts[j.index()].uses,
            };
            for u in uses {
                if !needed.contains(u) {
                    needed.push(*u);
                }
            }
            i += 1;
        }
        // In the file's order (a definition's spans are where it is).
        let mut spans: Vec<Span> = needed
            .iter()
            .map(|&d| match d {
                Global::Game(j) => p.games[j.index()].span,
                Global::Fun(j) => p.funs[j.index()].span,
                Global::Const(j) => p.consts[j.index()].span,
            })
            .collect();
        spans.sort_by_key(|s| s.start);
        let mut defs = String::new();
        for span in spans {
            defs.push_str(self.text.get(span.start as usize..span.end as usize)?);
            defs.push('\n');
        }
        let limits = crate::eval::Limits {
            time_limit: Some(std::time::Duration::from_millis(200)),
            max_memory: 256 << 20,
            ..crate::eval::Limits::default()
        };
        let mut session = crate::session::Session::new(limits);
        // Standard input is the protocol's: a definition that reads input
        // has no value here.
        session.set_input(crate::input::Input::Unavailable(
            "the language server reads no input".into(),
        ));
        let mut failed = false;
        session.run("<hover>", &defs, &mut |_, e| {
            use crate::session::Event;
            failed |= !matches!(e, Event::Answer(_) | Event::Note(_));
        });
        if failed {
            return None;
        }
        let mut out = None;
        session.entry("<hover>", &query, &mut |_, e| match e {
            crate::session::Event::Answer(a) => out = Some(a.to_string()),
            crate::session::Event::Error(_) | crate::session::Event::Interrupted(_) => {
                failed = true
            }
            crate::session::Event::Note(_) => {}
        });
        // A long value is cut, at a character boundary.
        out.filter(|_| !failed).map(|mut text| {
            if let Some((cut, _)) = text.char_indices().nth(MAX_HOVER) {
                text.truncate(cut);
                text.push_str("…\n");
            }
            text
        })
    }

    /// A definition in one line, and its text.
    fn signature(&self, g: Global) -> String {
        let Some(p) = self.program() else {
            return String::new();
        };
        let (kind, name, params, span) = match g {
            Global::Game(i) => {
                let d = &p.games[i.index()];
                let kind = if d.loopy { "loopy game" } else { "game" };
                (kind, &d.name, Some(&d.params), d.span)
            }
            Global::Fun(i) => {
                let d = &p.funs[i.index()];
                ("function", &d.name, Some(&d.params), d.span)
            }
            Global::Const(i) => {
                let d = &p.consts[i.index()];
                ("constant", &d.name, None, d.span)
            }
        };
        let head = match params {
            Some(ps) => format!("{kind} `{name}({})`", ps.join(", ")),
            None => format!("{kind} `{name}`"),
        };
        let text = self
            .text
            .get(span.start as usize..span.end as usize)
            .unwrap_or("")
            .trim_end();
        format!("{head}\n\n```game\n{text}\n```")
    }

    /// Every name a completion may offer: the file's definitions, then the
    /// builtins.
    fn completions(&self) -> Vec<lsp::CompletionItem> {
        let mut out = Vec::new();
        if let Some(p) = self.program() {
            let defs = p
                .games
                .iter()
                .map(|g| (&g.name, Some(&g.params), lsp::CompletionItemKind::CLASS))
                .chain(
                    p.funs
                        .iter()
                        .map(|f| (&f.name, Some(&f.params), lsp::CompletionItemKind::FUNCTION)),
                )
                .chain(
                    p.consts
                        .iter()
                        .map(|c| (&c.name, None, lsp::CompletionItemKind::CONSTANT)),
                );
            for (name, params, kind) in defs {
                out.push(lsp::CompletionItem {
                    label: name.clone(),
                    kind: Some(kind),
                    detail: params.map(|ps| format!("{name}({})", ps.join(", "))),
                    ..Default::default()
                });
            }
        }
        for name in crate::builtin::names() {
            let detail = crate::builtin::lookup(name)
                .and_then(|s| s.help.first())
                .map(|(usage, what)| format!("{usage}: {what}"));
            out.push(lsp::CompletionItem {
                label: name.to_string(),
                kind: Some(lsp::CompletionItemKind::FUNCTION),
                detail,
                ..Default::default()
            });
        }
        out
    }

    /// The file's outline: its games, functions and constants.
    #[allow(deprecated)] // `DocumentSymbol::deprecated` must be given.
    fn symbols(&self) -> Vec<lsp::DocumentSymbol> {
        let Some(p) = self.program() else {
            return Vec::new();
        };
        let globals = (0..p.games.len())
            .map(|i| Global::Game(ir::GameId(i as u32)))
            .chain((0..p.funs.len()).map(|i| Global::Fun(ir::FunId(i as u32))))
            .chain((0..p.consts.len()).map(|i| Global::Const(ir::ConstId(i as u32))));
        let mut out = Vec::new();
        for g in globals {
            let (name, span, kind) = match g {
                Global::Game(i) => {
                    let d = &p.games[i.index()];
                    (&d.name, d.span, lsp::SymbolKind::CLASS)
                }
                Global::Fun(i) => {
                    let d = &p.funs[i.index()];
                    (&d.name, d.span, lsp::SymbolKind::FUNCTION)
                }
                Global::Const(i) => {
                    let d = &p.consts[i.index()];
                    (&d.name, d.span, lsp::SymbolKind::CONSTANT)
                }
            };
            // A shorthand's games point into its definition; any other
            // span outside the file is no symbol of it.
            if span.end as usize > self.text.len() {
                continue;
            }
            let selection = self.definition(g).unwrap_or(span);
            out.push(lsp::DocumentSymbol {
                name: name.clone(),
                detail: None,
                kind,
                tags: None,
                deprecated: None,
                range: self.range(span),
                selection_range: self.range(selection),
                children: None,
            });
        }
        out
    }
}

/// Answers a request.
fn answer(docs: &HashMap<String, Doc>, req: Request) -> Response {
    let id = req.id.clone();
    match respond(docs, req) {
        Ok(value) => Response::new_ok(id, value),
        Err(message) => Response::new_err(id, ErrorCode::InvalidParams as i32, message),
    }
}

/// A position in an open document, from a request's parameters.
fn at<'a>(
    docs: &'a HashMap<String, Doc>,
    p: &lsp::TextDocumentPositionParams,
) -> Result<(&'a Doc, usize), String> {
    let doc = docs
        .get(p.text_document.uri.as_str())
        .ok_or_else(|| "the document is not open".to_string())?;
    Ok((doc, doc.offset(p.position)))
}

// The protocol's own map of edits is keyed by its `Uri`.
#[allow(clippy::mutable_key_type)]
fn respond(docs: &HashMap<String, Doc>, req: Request) -> Result<serde_json::Value, String> {
    let params = |r: &Request| r.params.clone();
    let parse = |e: serde_json::Error| e.to_string();
    let value = match req.method.as_str() {
        "textDocument/hover" => {
            let p: lsp::HoverParams = serde_json::from_value(params(&req)).map_err(parse)?;
            let (doc, offset) = at(docs, &p.text_document_position_params)?;
            let hover = doc.word_at(offset).and_then(|(word, span)| {
                Some(lsp::Hover {
                    contents: lsp::HoverContents::Markup(lsp::MarkupContent {
                        kind: lsp::MarkupKind::Markdown,
                        value: doc.hover(word)?,
                    }),
                    range: Some(doc.range(span)),
                })
            });
            serde_json::to_value(hover)
        }
        "textDocument/completion" => {
            let p: lsp::CompletionParams = serde_json::from_value(params(&req)).map_err(parse)?;
            let (doc, _) = at(docs, &p.text_document_position)?;
            serde_json::to_value(lsp::CompletionResponse::Array(doc.completions()))
        }
        "textDocument/definition" => {
            let p: lsp::GotoDefinitionParams =
                serde_json::from_value(params(&req)).map_err(parse)?;
            let (doc, offset) = at(docs, &p.text_document_position_params)?;
            let uri = p.text_document_position_params.text_document.uri;
            let found = doc
                .word_at(offset)
                .and_then(|(w, _)| doc.global(w))
                .and_then(|g| doc.definition(g))
                .map(|s| {
                    lsp::GotoDefinitionResponse::Scalar(lsp::Location::new(uri, doc.range(s)))
                });
            serde_json::to_value(found)
        }
        "textDocument/references" => {
            let p: lsp::ReferenceParams = serde_json::from_value(params(&req)).map_err(parse)?;
            let (doc, offset) = at(docs, &p.text_document_position)?;
            let uri = p.text_document_position.text_document.uri;
            let spans = doc
                .word_at(offset)
                .and_then(|(w, _)| doc.global(w))
                .map(|g| doc.references(g))
                .unwrap_or_default();
            let skip = usize::from(!p.context.include_declaration);
            let locations: Vec<lsp::Location> = spans
                .into_iter()
                .skip(skip)
                .map(|s| lsp::Location::new(uri.clone(), doc.range(s)))
                .collect();
            serde_json::to_value(locations)
        }
        "textDocument/documentSymbol" => {
            let p: lsp::DocumentSymbolParams =
                serde_json::from_value(params(&req)).map_err(parse)?;
            let doc = docs
                .get(p.text_document.uri.as_str())
                .ok_or_else(|| "the document is not open".to_string())?;
            serde_json::to_value(lsp::DocumentSymbolResponse::Nested(doc.symbols()))
        }
        "textDocument/rename" => {
            let p: lsp::RenameParams = serde_json::from_value(params(&req)).map_err(parse)?;
            let (doc, offset) = at(docs, &p.text_document_position)?;
            let uri = p.text_document_position.text_document.uri;
            let valid = p
                .new_name
                .starts_with(|c: char| c.is_ascii_alphabetic() || c == '_')
                && p.new_name
                    .chars()
                    .all(|c| c.is_ascii_alphanumeric() || c == '_')
                && !crate::syntax::KEYWORDS.contains(&p.new_name.as_str());
            if !valid {
                return Err(format!("`{}` is not a name", p.new_name));
            }
            // Uses inside the parts with errors would be missed.
            if !doc.complete {
                return Err(
                    "the file has errors: fix them first, so that every use is renamed".into(),
                );
            }
            let (old, _) = doc
                .word_at(offset)
                .ok_or_else(|| "no game, function or constant here to rename".to_string())?;
            let g = doc
                .global(old)
                .ok_or_else(|| "no game, function or constant here to rename".to_string())?;
            if old != p.new_name {
                if doc.global(&p.new_name).is_some() {
                    return Err(format!("`{}` is already defined in this file", p.new_name));
                }
                if crate::builtin::names().any(|b| b == p.new_name) {
                    return Err(format!("`{}` is a builtin", p.new_name));
                }
            }
            let edits: Vec<lsp::TextEdit> = doc
                .references(g)
                .into_iter()
                .map(|s| lsp::TextEdit::new(doc.range(s), p.new_name.clone()))
                .collect();
            serde_json::to_value(lsp::WorkspaceEdit::new(HashMap::from([(uri, edits)])))
        }
        other => return Err(format!("`{other}` is not supported")),
    };
    value.map_err(|e| e.to_string())
}
