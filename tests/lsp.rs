//! `grundy lsp` driven as an editor drives it: JSON-RPC over pipes
//! (initialize, didOpen, didChange, hover, completion, definition,
//! references, documentSymbol, rename, shutdown, exit). Its diagnostics are
//! `grundy check`'s: the same codes at the same places.

use serde_json::{Value, json};
use std::io::{BufRead, BufReader, Read, Write};
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};

struct Client {
    child: Child,
    stdin: ChildStdin,
    stdout: BufReader<ChildStdout>,
    next_id: i64,
}

impl Client {
    fn start() -> Client {
        let mut child = Command::new(env!("CARGO_BIN_EXE_grundy"))
            .arg("lsp")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .spawn()
            .expect("grundy lsp starts");
        let stdin = child.stdin.take().expect("stdin");
        let stdout = BufReader::new(child.stdout.take().expect("stdout"));
        let mut c = Client {
            child,
            stdin,
            stdout,
            next_id: 1,
        };
        let init = c.request("initialize", json!({ "capabilities": {} }));
        assert_eq!(init["serverInfo"]["name"], "grundy");
        assert_eq!(init["capabilities"]["hoverProvider"], true);
        c.notify("initialized", json!({}));
        c
    }

    fn send(&mut self, msg: Value) {
        let body = msg.to_string();
        write!(self.stdin, "Content-Length: {}\r\n\r\n{body}", body.len()).expect("write");
        self.stdin.flush().expect("flush");
    }

    fn receive(&mut self) -> Value {
        let mut length = 0;
        loop {
            let mut line = String::new();
            self.stdout.read_line(&mut line).expect("a header");
            let line = line.trim_end();
            if line.is_empty() {
                break;
            }
            if let Some(n) = line.strip_prefix("Content-Length: ") {
                length = n.parse().expect("a length");
            }
        }
        let mut body = vec![0; length];
        self.stdout.read_exact(&mut body).expect("a body");
        serde_json::from_slice(&body).expect("JSON")
    }

    fn notify(&mut self, method: &str, params: Value) {
        self.send(json!({ "jsonrpc": "2.0", "method": method, "params": params }));
    }

    fn request(&mut self, method: &str, params: Value) -> Value {
        let msg = self.respond(method, params);
        assert!(msg.get("error").is_none(), "{msg}");
        msg["result"].clone()
    }

    /// The whole response to a request (its result or its error).
    fn respond(&mut self, method: &str, params: Value) -> Value {
        let id = self.next_id;
        self.next_id += 1;
        self.send(json!({ "jsonrpc": "2.0", "id": id, "method": method, "params": params }));
        loop {
            let msg = self.receive();
            if msg["id"] == id {
                return msg;
            }
        }
    }

    /// The next diagnostics published.
    fn diagnostics(&mut self) -> Vec<Value> {
        loop {
            let msg = self.receive();
            if msg["method"] == "textDocument/publishDiagnostics" {
                return msg["params"]["diagnostics"]
                    .as_array()
                    .cloned()
                    .unwrap_or_default();
            }
        }
    }

    fn open(&mut self, uri: &str, text: &str) -> Vec<Value> {
        self.notify(
            "textDocument/didOpen",
            json!({ "textDocument": { "uri": uri, "languageId": "game", "version": 1, "text": text } }),
        );
        self.diagnostics()
    }

    fn at(&mut self, method: &str, uri: &str, line: u32, character: u32, extra: Value) -> Value {
        let mut params = json!({
            "textDocument": { "uri": uri },
            "position": { "line": line, "character": character },
        });
        if let (Some(p), Some(e)) = (params.as_object_mut(), extra.as_object()) {
            p.extend(e.clone());
        }
        self.request(method, params)
    }

    fn stop(mut self) {
        assert_eq!(self.request("shutdown", Value::Null), Value::Null);
        self.notify("exit", Value::Null);
        let status = self.child.wait().expect("exits");
        assert!(status.success(), "{status}");
    }
}

/// The start of a range as (line, character).
fn start(range: &Value) -> (u64, u64) {
    (
        range["start"]["line"].as_u64().expect("line"),
        range["start"]["character"].as_u64().expect("character"),
    )
}

const FILE: &str = "game Nim(n) = { Nim(k) for k in 0..n }
let N = 5
let twice(x) = 2 * x
print grundy(Nim(N) + Nim(twice(N)))
";

#[test]
fn diagnostics_are_those_of_grundy_check() {
    let broken = "game Nim(n) = { Nim(k) for k in 0..n }\n\
                  print grundy(Nmi(2))\n\
                  print grundy(Nim(1, 2))\n\
                  let x = 1 +\n";
    let parse_error = "game Nim(n) = { Nim(k) for k in 0..n\nprint grundy(Nim(2))\n";
    let type_errors = "let a = [1, 2] + 3\nprint grundy(a)\nprint outcome(5)\n";
    let dir = std::env::temp_dir().join(format!("grundy-lsp-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let mut c = Client::start();
    for (i, text) in [broken, parse_error, type_errors].into_iter().enumerate() {
        let path = dir.join(format!("f{i}.game"));
        std::fs::write(&path, text).expect("write");
        let out = Command::new(env!("CARGO_BIN_EXE_grundy"))
            .args(["check", "--json"])
            .arg(&path)
            .output()
            .expect("grundy check");
        let want: Vec<(String, u64, u64)> = String::from_utf8_lossy(&out.stdout)
            .lines()
            .map(|l| serde_json::from_str::<Value>(l).expect("JSON"))
            .filter(|v| v["kind"] == "error" || v["kind"] == "warning")
            .map(|v| {
                let line = v["line"].as_u64().expect("line") - 1;
                let col = v["column"].as_u64().expect("column") - 1;
                (v["code"].as_str().expect("code").to_string(), line, col)
            })
            .collect();
        assert!(!want.is_empty(), "{text}");
        let got: Vec<(String, u64, u64)> = c
            .open(&format!("file:///f{i}.game"), text)
            .iter()
            .map(|d| {
                let (line, col) = start(&d["range"]);
                (d["code"].as_str().expect("code").to_string(), line, col)
            })
            .collect();
        assert_eq!(got, want, "{text}");
    }
    // A fix clears them; two changes sent together are checked as the last.
    c.notify(
        "textDocument/didChange",
        json!({ "textDocument": { "uri": "file:///f0.game", "version": 2 },
                "contentChanges": [{ "text": "print grundy(Nmi(1))\n" }] }),
    );
    c.notify(
        "textDocument/didChange",
        json!({ "textDocument": { "uri": "file:///f0.game", "version": 3 },
                "contentChanges": [{ "text": FILE }] }),
    );
    let mut last = c.diagnostics();
    while !last.is_empty() {
        last = c.diagnostics();
    }
    c.stop();
}

#[test]
fn every_example_checks_clean_with_an_outline() {
    let mut c = Client::start();
    let mut paths: Vec<_> = std::fs::read_dir("examples")
        .expect("examples")
        .map(|e| e.expect("entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "game"))
        .collect();
    paths.sort();
    for path in paths {
        let text = std::fs::read_to_string(&path).expect("read");
        let uri = format!("file:///{}", path.display());
        let diags = c.open(&uri, &text);
        assert!(diags.is_empty(), "{}: {diags:?}", path.display());
        let symbols = c.request(
            "textDocument/documentSymbol",
            json!({ "textDocument": { "uri": uri } }),
        );
        assert!(
            symbols.as_array().is_some_and(|s| !s.is_empty()),
            "{}",
            path.display()
        );
    }
    c.stop();
}

#[test]
fn hover_completion_definition_references_rename() {
    let mut c = Client::start();
    let uri = "file:///t.game";
    assert!(c.open(uri, FILE).is_empty());

    // Hover on a use of the game: its signature and definition.
    let h = c.at("textDocument/hover", uri, 3, 14, json!({}));
    let text = h["contents"]["value"].as_str().expect("markdown");
    assert!(text.starts_with("game `Nim(n)`"), "{text}");
    assert!(text.contains("{ Nim(k) for k in 0..n }"), "{text}");
    // A one-parameter game's first values, from its definitions alone.
    assert!(
        text.contains("Nim(n) for n in 0..=20:\n   0:  0  1  2  3"),
        "{text}"
    );
    assert_eq!(start(&h["range"]), (3, 13));
    // On a builtin: its help.
    let h = c.at("textDocument/hover", uri, 3, 8, json!({}));
    let text = h["contents"]["value"].as_str().expect("markdown");
    assert!(text.contains("`grundy(P)`"), "{text}");
    // On a function and a constant.
    let h = c.at("textDocument/hover", uri, 3, 29, json!({}));
    assert!(
        h["contents"]["value"]
            .as_str()
            .expect("md")
            .starts_with("function `twice(x)`")
    );
    let h = c.at("textDocument/hover", uri, 3, 17, json!({}));
    let text = h["contents"]["value"].as_str().expect("md");
    assert!(text.starts_with("constant `N`"), "{text}");
    assert!(text.contains("```\nN = 5\n```"), "{text}");

    // Completion: the file's names and the builtins.
    let items = c.at("textDocument/completion", uri, 3, 0, json!({}));
    let labels: Vec<&str> = items
        .as_array()
        .expect("items")
        .iter()
        .filter_map(|i| i["label"].as_str())
        .collect();
    for want in ["Nim", "N", "twice", "grundy", "outcome", "genus"] {
        assert!(labels.contains(&want), "{want} in {labels:?}");
    }

    // Definition of `twice` from its use.
    let d = c.at("textDocument/definition", uri, 3, 30, json!({}));
    assert_eq!(start(&d["range"]), (2, 4));
    assert_eq!(d["uri"], uri);

    // References of `Nim`: the definition, the rule's use, two in `print`.
    let r = c.at(
        "textDocument/references",
        uri,
        0,
        6,
        json!({ "context": { "includeDeclaration": true } }),
    );
    let places: Vec<(u64, u64)> = r
        .as_array()
        .expect("locations")
        .iter()
        .map(|l| start(&l["range"]))
        .collect();
    assert_eq!(places, [(0, 5), (0, 16), (3, 13), (3, 22)]);

    // Rename `N` everywhere it is named.
    let e = c.at(
        "textDocument/rename",
        uri,
        1,
        4,
        json!({ "newName": "Heap" }),
    );
    let edits = e["changes"][uri].as_array().expect("edits");
    let at: Vec<(u64, u64)> = edits.iter().map(|t| start(&t["range"])).collect();
    assert_eq!(at, [(1, 4), (3, 17), (3, 32)]);
    assert!(edits.iter().all(|t| t["newText"] == "Heap"));
    // Not to a name the file defines, nor a builtin's, nor a keyword.
    for (name, why) in [
        ("twice", "already defined"),
        ("grundy", "builtin"),
        ("game", "not a name"),
    ] {
        let params = json!({
            "textDocument": { "uri": uri },
            "position": { "line": 1, "character": 4 },
            "newName": name,
        });
        let msg = c.respond("textDocument/rename", params);
        let error = msg["error"]["message"].as_str().unwrap_or("");
        assert!(error.contains(why), "{name}: {msg}");
    }

    // Closing the file clears its diagnostics in the client.
    let broken = "file:///broken.game";
    assert_eq!(c.open(broken, "print grundy(Nmi(3))\n").len(), 1);
    c.notify(
        "textDocument/didClose",
        json!({ "textDocument": { "uri": broken } }),
    );
    assert!(c.diagnostics().is_empty());
    c.stop();
}

/// Exit without shutdown is the protocol's exit code 1.
#[test]
fn exit_before_shutdown_fails() {
    let mut c = Client::start();
    assert!(c.open("file:///t.game", FILE).is_empty());
    c.notify("exit", Value::Null);
    let status = c.child.wait().expect("exits");
    assert_eq!(status.code(), Some(1));
}

/// Hover's values come from the definitions a game needs, within a small
/// budget: a game that needs a constant too slow for it shows none, and a
/// slow constant another game does not need is never evaluated for it.
#[test]
fn hover_values_are_bounded_by_their_budget() {
    let text = "let slow = len([k for k in 0..10**9])\n\
                game G(n) = { G(k) for k in 0..n if k < slow }\n\
                game H(n) = { H(n - 1) if n > 0 }\n\
                let data = input_ints()\n\
                game I(n) = { I(n - k) for k in data if k <= n }\n";
    let mut c = Client::start();
    let uri = "file:///slow.game";
    assert!(c.open(uri, text).is_empty());
    let g = c.at("textDocument/hover", uri, 1, 5, json!({}));
    let g = g["contents"]["value"].as_str().expect("markdown");
    assert!(
        g.starts_with("game `G(n)`") && !g.contains("for n in"),
        "{g}"
    );
    let h = c.at("textDocument/hover", uri, 2, 5, json!({}));
    let h = h["contents"]["value"].as_str().expect("markdown");
    assert!(h.contains("H(n) for n in 0..=20:\n   0: 0 1 0 1"), "{h}");
    // Standard input is the protocol's: a game that needs input shows no
    // values, and the server goes on answering.
    let i = c.at("textDocument/hover", uri, 4, 5, json!({}));
    let i = i["contents"]["value"].as_str().expect("markdown");
    assert!(
        i.starts_with("game `I(n)`") && !i.contains("for n in"),
        "{i}"
    );
    let h = c.at("textDocument/hover", uri, 2, 5, json!({}));
    assert!(
        h["contents"]["value"]
            .as_str()
            .expect("md")
            .contains("0: 0 1 0 1")
    );
    c.stop();
}

/// Hover shows a definition up to its last token: the comment lines after
/// it are about the next definition (they were shown with this one).
#[test]
fn hover_stops_at_the_definitions_last_token() {
    let mut c = Client::start();
    let uri = "file:///h.game";
    let file = "game Nim(n) = { Nim(k) for k in 0..n }\n\
                # Twice a heap: the next definition's comment.\n\
                let twice(x) = 2 * x\n\
                # Five heaps.\n\
                let N = 5\n\
                print grundy(Nim(N) + Nim(twice(N)))\n";
    assert!(c.open(uri, file).is_empty());
    for (col, name, next) in [(14, "Nim", "Twice"), (27, "twice", "Five")] {
        let h = c.at("textDocument/hover", uri, 5, col, json!({}));
        let text = h["contents"]["value"].as_str().expect("markdown");
        assert!(text.contains(name), "{text}");
        assert!(
            !text.contains(next),
            "hover on {name} shows the next comment: {text}"
        );
    }
    c.stop();
}

/// Frames a broken client sends are answered with JSON-RPC errors and the
/// server goes on: a length that overflows, a body that is not JSON, one
/// that is not a message, a length 5 bytes short, headers with no length,
/// LF-only headers. Then it still answers hover and shuts down cleanly.
#[test]
fn malformed_frames_are_answered_and_the_server_goes_on() {
    let mut c = Client::start();
    c.open("file:///a.game", FILE);
    let ping = |id: i64| {
        json!({ "jsonrpc": "2.0", "id": id, "method": "textDocument/documentSymbol",
                "params": { "textDocument": { "uri": "file:///a.game" } } })
        .to_string()
    };
    let frame = |body: &str| format!("Content-Length: {}\r\n\r\n{body}", body.len());
    let short = ping(101);
    let raw = [
        "Content-Length: 18446744073709551616\r\n\r\n".to_string(),
        frame("{\"jsonrpc\": \"2.0\", \"id\": 3, \"method\":"),
        frame(r#"{"jsonrpc":"2.0","id":4,"result":1,"error":1,"x":[}"#),
        frame(r#"{"jsonrpc":"2.0","id":5,"method":7}"#),
        format!("Content-Length: {}\r\n\r\n{short}", short.len() - 5),
        "X-Whatever: 1\r\n\r\n".to_string(),
        format!("Content-Length: {}\n\n{}", ping(102).len(), ping(102)),
    ];
    for r in &raw {
        c.stdin.write_all(r.as_bytes()).expect("write");
    }
    c.stdin.flush().expect("flush");
    let mut errors = Vec::new();
    loop {
        let msg = c.receive();
        if msg["id"] == 102 {
            assert!(
                msg["result"].as_array().is_some_and(|a| !a.is_empty()),
                "{msg}"
            );
            break;
        }
        errors.push((
            msg["id"].clone(),
            msg["error"]["code"].as_i64().expect("an error"),
        ));
    }
    let codes: Vec<i64> = errors.iter().map(|e| e.1).collect();
    assert_eq!(
        codes,
        [-32600, -32700, -32700, -32600, -32700, -32600],
        "{errors:?}"
    );
    assert_eq!(errors[3].0, 5);
    let hover = c.at("textDocument/hover", "file:///a.game", 0, 6, Value::Null);
    assert!(
        hover["contents"]["value"]
            .as_str()
            .is_some_and(|v| v.contains("Nim")),
        "{hover}"
    );
    c.stop();
}

/// A length far over the limit is answered at once, never allocated, and
/// what follows is read as headers again: the session goes on.
#[test]
fn a_huge_length_is_refused_not_allocated() {
    for length in ["10000000000", "18446744073709551615"] {
        let mut c = Client::start();
        write!(c.stdin, "Content-Length: {length}\r\n\r\n{{}}").expect("write");
        c.stdin.flush().expect("flush");
        let msg = c.receive();
        assert_eq!(msg["error"]["code"], -32600, "{msg}");
        assert!(
            msg["error"]["message"]
                .as_str()
                .is_some_and(|m| m.contains("over the limit")),
            "{msg}"
        );
        c.open("file:///h.game", FILE);
        let h = c.at("textDocument/hover", "file:///h.game", 0, 6, Value::Null);
        assert!(
            h["contents"]["value"]
                .as_str()
                .is_some_and(|v| v.contains("Nim")),
            "{h}"
        );
        c.stop();
    }
}

/// While a statement is typed letter by letter the file has errors at
/// nearly every step; completion still offers the file's own names, hover answers on
/// its games and definition finds them (from the items that still check),
/// and rename waits for the errors to go.
#[test]
fn the_editor_answers_while_a_name_is_typed() {
    let mut c = Client::start();
    let uri = "file:///typing.game";
    assert!(c.open(uri, FILE).is_empty());
    let typed = "print twice(N) + tw";
    for n in 1..=typed.len() {
        let text = format!("{FILE}{}", &typed[..n]);
        c.notify(
            "textDocument/didChange",
            json!({ "textDocument": { "uri": uri, "version": n + 1 },
                    "contentChanges": [{ "text": text }] }),
        );
        // (Every step but `print twice(N)` and a space after it has an
        // error.)
        let diags = c.diagnostics();
        let whole = n == "print twice(N)".len() || n == "print twice(N) ".len();
        assert_eq!(diags.is_empty(), whole, "{text:?}");
        let items = c.at("textDocument/completion", uri, 4, n as u32, json!({}));
        let labels: Vec<&str> = items
            .as_array()
            .expect("items")
            .iter()
            .filter_map(|i| i["label"].as_str())
            .collect();
        for want in ["Nim", "N", "twice", "grundy"] {
            assert!(labels.contains(&want), "{want} in {labels:?} at {text:?}");
        }
        let h = c.at("textDocument/hover", uri, 0, 6, json!({}));
        let hover = h["contents"]["value"].as_str().unwrap_or_default();
        assert!(hover.starts_with("game `Nim(n)`"), "{hover:?} at {text:?}");
        let d = c.at("textDocument/definition", uri, 3, 30, json!({}));
        assert_eq!(start(&d["range"]), (2, 4), "at {text:?}");
    }
    let rename = c.respond(
        "textDocument/rename",
        json!({ "textDocument": { "uri": uri }, "position": { "line": 0, "character": 6 },
                "newName": "Heap" }),
    );
    let message = rename["error"]["message"].as_str().unwrap_or_default();
    assert!(message.contains("fix them first"), "{rename}");
    c.stop();
}
