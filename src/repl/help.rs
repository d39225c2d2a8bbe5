//! The text of `:help` and its topics.

use super::COMMANDS;
use crate::builtin::{self, Kind};

/// Topics `:help` knows.
pub const TOPICS: &[&str] = &["commands", "language", "queries", "functions", "keys"];

/// The help for a topic (empty: the overview).
pub fn text(topic: &str) -> String {
    match topic {
        "" => OVERVIEW.to_string() + &commands(),
        "commands" => commands(),
        "language" => LANGUAGE.to_string(),
        "queries" => format!(
            "queries:\n{}{QUERIES}",
            builtin::help(&[Kind::ValueQuery, Kind::ReportQuery, Kind::Report])
        ),
        "functions" => format!(
            "functions (usable anywhere, rules included):\n{}",
            builtin::help(&[Kind::Function, Kind::Generator])
        ),
        "keys" => KEYS.to_string(),
        other => format!("no help on `{other}`; topics: {}\n", TOPICS.join(", ")),
    }
}

fn commands() -> String {
    let width = COMMANDS
        .iter()
        .map(|(c, a, _)| c.len() + a.len() + 1)
        .max()
        .unwrap_or(0);
    let mut out = String::from("commands:\n");
    for (c, args, what) in COMMANDS {
        let head = if args.is_empty() {
            c.to_string()
        } else {
            format!("{c} {args}")
        };
        out.push_str(&format!("  {head:width$}  {what}\n"));
    }
    out
}

const OVERVIEW: &str = "\
Type definitions and statements of the .game language, or an expression:
  game Kayles(n) = { Kayles(a) + Kayles(n - r - a) for r in 1..=2 for a in 0..=n - r }
  Kayles(7) + Kayles(9)          a position: its Grundy value and who wins
  table(Kayles, 0..=20)          any query (`:help queries`)
Definitions stay for the session; defining a name again replaces it.
An entry may span lines while a bracket is open.
";

const LANGUAGE: &str = "\
the language (docs/language.md has all of it):
  game NAME(p, q) = { RULE  RULE ... }   a game; each rule yields options
  octal NAME = 0.77                     an octal game (heaps of n tokens)
  subtraction NAME = {1, 3, 4}          a subtraction game (also `all but {..}`)
  RULE:   POSITION for x in RANGE if COND ...
          e.g. Nim(n - k) for k in 1..=n
  0                                     the empty position (no moves)
  P + Q                                 a sum: play in one component per move
  let NAME = EXPR                       a constant
  print EXPR                            an answer (a bare expression does the same)
  check COND for n in 0..100            a claim, tested case by case
values: integers (checked, 64-bit), booleans, lists [1, 2], ranges a..b and
a..=b, comprehensions [x * x for x in 0..10 if x % 2 == 0], if c then a else b
";

/// After the table's lines.
const QUERIES: &str = "  check grundy(G(n)) == n % 3 for n in 0..100   a claim, tested case by case
huge positions (Kayles(10**18)) are answered from proven periods
";

const KEYS: &str = "\
keys:
  Tab          complete names, builtins, :commands, and paths after :load
  Enter        run the entry, or start a new line while a bracket is open
  Up / Down    history (kept across sessions)
  Ctrl-C       stop a running computation; at the prompt, clear the line
  Ctrl-D       leave
";
