//! What the fuzz targets share: an `arbitrary` generator of well-formed
//! programs (so the fuzzer reaches the checker and the evaluator, not only
//! the parser's errors), and the runs they make of a text.

use arbitrary::Arbitrary;
use grundy::eval::Limits;
use grundy::session::Session;
use std::fmt::Write as _;

/// A fuzz input: raw text, or a program built from the grammar.
#[derive(Arbitrary, Debug)]
pub enum Input {
    /// Any text.
    Text(String),
    /// A program: games, constants, functions and queries.
    Program(Program),
    /// A program with a stretch of raw text spliced in.
    Spliced(Program, u16, String),
}

impl Input {
    /// The source text.
    pub fn text(&self) -> String {
        match self {
            Input::Text(t) => t.clone(),
            Input::Program(p) => p.render(),
            Input::Spliced(p, at, piece) => {
                let mut t = p.render();
                let mut i = (*at as usize).min(t.len());
                while !t.is_char_boundary(i) {
                    i -= 1;
                }
                t.insert_str(i, piece);
                t
            }
        }
    }
}

/// A generated program.
#[derive(Arbitrary, Debug)]
pub struct Program {
    loopy: bool,
    two: bool,
    list: Vec<Lit>,
    helper: Option<Int>,
    rules: Vec<Rule>,
    queries: Vec<Query>,
}

/// A move rule: `G(args) [+ G(args)] for k in LO..=HI [if COND]`.
#[derive(Arbitrary, Debug)]
struct Rule {
    args: [Arg; 2],
    second: Option<[Arg; 2]>,
    over: Over,
    cond: Option<(Int, Cmp, Int)>,
    /// The condition as `while` (ending the loop), not `if`.
    ends: bool,
}

/// What a rule's loop runs over.
#[derive(Arbitrary, Debug)]
enum Over {
    UpToParam,
    Range(Int),
    List,
    Nothing,
}

/// An argument of a move.
#[derive(Arbitrary, Debug)]
enum Arg {
    Down,
    Half,
    Expr(Int),
}

/// An integer expression over the parameters, the loop variable, the list
/// constant and the helper function.
#[derive(Arbitrary, Debug)]
enum Int {
    Param(bool),
    Var,
    Lit(Lit),
    Bin(Box<Int>, Op, Box<Int>),
    Abs(Box<Int>),
    Popcount(Box<Int>),
    Isqrt(Box<Int>),
    If(Box<(Int, Cmp, Int, Int, Int)>),
    Min(Box<Int>, Box<Int>),
    Index(Box<Int>),
    Len,
    /// `xor(S)`.
    XorS,
    /// An element of `S` with one more joined: `(S + [x])[i % (len(S) + 1)]`.
    Joined(Box<Int>, Box<Int>),
    Call(Box<Int>),
    /// Through text: `int(str(x))`, `len(str(x))`, `ord(str(x)[0])`.
    Text(Box<Int>, u8),
    /// The length of a slice of `S`.
    Slice(Box<Int>, Box<Int>),
}

#[derive(Arbitrary, Debug, Clone, Copy)]
enum Lit {
    Zero,
    One,
    Two,
    Three,
    MinusOne,
    Ten,
    SixtyThree,
    SixtyFour,
    Max,
    Min,
    Small(i8),
}

#[derive(Arbitrary, Debug, Clone, Copy)]
enum Op {
    Add,
    Sub,
    Mul,
    Div,
    Rem,
    Shl,
    Shr,
    And,
    Or,
    Xor,
    Pow,
}

#[derive(Arbitrary, Debug, Clone, Copy)]
enum Cmp {
    Lt,
    Le,
    Gt,
    Ge,
    Eq,
    Ne,
}

/// How large a queried position is.
#[derive(Arbitrary, Debug, Clone, Copy)]
enum Size {
    Small(u8),
    Kilo,
    Big,
    Huge,
    Negative,
}

#[derive(Arbitrary, Debug)]
enum Query {
    Grundy(Size, Size),
    Outcome(Size, Size),
    Winning(Size, Size, Size),
    Moves(Size, Size),
    Table(u8),
    Period,
    Misere(Size, Size),
    MisereWinning(Size, Size),
    Check(Size),
    Ppositions(u8),
    Graph(Size, u8),
    Describe,
    Plot(u8),
    Map(u8),
    Value(Int),
    Helper(Int),
    Comprehension(u8),
    /// A function that asks a query, called from a statement.
    Asking(Size, Size),
    /// The values after each move, through `play`.
    Play(Size, Size),
}

/// Expressions deeper than this are cut to a leaf (the generator's
/// programs stay small; the checker's depth limits are fuzzed by raw text).
const MAX_DEPTH: usize = 4;

impl Lit {
    fn text(self) -> String {
        match self {
            Lit::Zero => "0".into(),
            Lit::One => "1".into(),
            Lit::Two => "2".into(),
            Lit::Three => "3".into(),
            Lit::MinusOne => "-1".into(),
            Lit::Ten => "10".into(),
            Lit::SixtyThree => "63".into(),
            Lit::SixtyFour => "64".into(),
            Lit::Max => "9223372036854775807".into(),
            Lit::Min => "(-9223372036854775807 - 1)".into(),
            Lit::Small(v) => format!("({v})"),
        }
    }
}

impl Op {
    fn text(self) -> &'static str {
        match self {
            Op::Add => "+",
            Op::Sub => "-",
            Op::Mul => "*",
            Op::Div => "/",
            Op::Rem => "%",
            Op::Shl => "<<",
            Op::Shr => ">>",
            Op::And => "&",
            Op::Or => "|",
            Op::Xor => "^",
            Op::Pow => "**",
        }
    }
}

impl Cmp {
    fn text(self) -> &'static str {
        match self {
            Cmp::Lt => "<",
            Cmp::Le => "<=",
            Cmp::Gt => ">",
            Cmp::Ge => ">=",
            Cmp::Eq => "==",
            Cmp::Ne => "!=",
        }
    }
}

impl Size {
    fn text(self) -> String {
        match self {
            Size::Small(v) => (v % 40).to_string(),
            Size::Kilo => "1030".into(),
            Size::Big => "100000".into(),
            Size::Huge => "10**18".into(),
            Size::Negative => "-3".into(),
        }
    }
}

/// What an expression may name where it is written.
#[derive(Clone, Copy)]
struct Scope {
    two: bool,
    var: bool,
    helper: bool,
}

impl Int {
    fn text(&self, s: Scope, depth: usize) -> String {
        let leaf = |p: bool| match (p, s.two) {
            (true, true) => "b".to_string(),
            (_, true) => "a".to_string(),
            _ => "n".to_string(),
        };
        if depth >= MAX_DEPTH {
            return leaf(false);
        }
        let d = depth + 1;
        match self {
            Int::Param(p) => leaf(*p),
            Int::Var if s.var => "k".into(),
            Int::Var => leaf(false),
            Int::Lit(l) => l.text(),
            Int::Bin(a, op, b) => format!("({} {} {})", a.text(s, d), op.text(), b.text(s, d)),
            Int::Abs(a) => format!("abs({})", a.text(s, d)),
            Int::Popcount(a) => format!("popcount({})", a.text(s, d)),
            Int::Isqrt(a) => format!("isqrt({})", a.text(s, d)),
            Int::If(c) => {
                let (a, cmp, b, t, e) = &**c;
                format!(
                    "(if {} {} {} then {} else {})",
                    a.text(s, d),
                    cmp.text(),
                    b.text(s, d),
                    t.text(s, d),
                    e.text(s, d)
                )
            }
            Int::Min(a, b) => format!("min({}, {})", a.text(s, d), b.text(s, d)),
            Int::Index(i) => format!("S[{} % len(S)]", i.text(s, d)),
            Int::Len => "len(S)".into(),
            Int::XorS => "xor(S)".into(),
            Int::Joined(x, i) => {
                format!("(S + [{}])[{} % (len(S) + 1)]", x.text(s, d), i.text(s, d))
            }
            Int::Call(a) if s.helper => format!("f({})", a.text(s, d)),
            Int::Call(a) => a.text(s, d),
            Int::Text(a, k) => match k % 3 {
                0 => format!("int(str({}))", a.text(s, d)),
                1 => format!("len(str({}))", a.text(s, d)),
                _ => format!("ord(str({})[0])", a.text(s, d)),
            },
            Int::Slice(a, b) => format!(
                "len(S[{} % (len(S) + 1)..{} % (len(S) + 1)])",
                a.text(s, d),
                b.text(s, d)
            ),
        }
    }
}

impl Arg {
    fn text(&self, param: &str, s: Scope) -> String {
        match self {
            Arg::Down if s.var => format!("{param} - k"),
            Arg::Down => format!("{param} - 1"),
            Arg::Half => format!("{param} / 2"),
            Arg::Expr(e) => e.text(s, 1),
        }
    }
}

impl Program {
    /// The program as source text.
    pub fn render(&self) -> String {
        let params: &[&str] = if self.two { &["a", "b"] } else { &["n"] };
        let mut t = String::new();
        let list: Vec<String> = self.list.iter().take(6).map(|l| l.text()).collect();
        let _ = writeln!(t, "let S = [{}]", list.join(", "));
        let helper = self.helper.is_some();
        if let Some(h) = &self.helper {
            let s = Scope {
                two: false,
                var: false,
                helper: false,
            };
            // `n` is the helper's own parameter here.
            let _ = writeln!(t, "let f(n) = {}", h.text(s, 1));
        }
        let loopy = if self.loopy { "loopy " } else { "" };
        let _ = writeln!(t, "{loopy}game G({}) = {{", params.join(", "));
        for r in self.rules.iter().take(3) {
            let var = !matches!(r.over, Over::Nothing);
            let s = Scope {
                two: self.two,
                var,
                helper,
            };
            let pos = |args: &[Arg; 2]| {
                let a: Vec<String> = params.iter().zip(args).map(|(p, a)| a.text(p, s)).collect();
                format!("G({})", a.join(", "))
            };
            let _ = write!(t, "    {}", pos(&r.args));
            if let Some(second) = &r.second {
                let _ = write!(t, " + {}", pos(second));
            }
            match &r.over {
                Over::UpToParam => {
                    let _ = write!(t, " for k in 1..={}", params[0]);
                }
                Over::Range(hi) => {
                    let _ = write!(t, " for k in 0..{}", hi.text(s, 2));
                }
                Over::List => {
                    let _ = write!(t, " for k in S");
                }
                Over::Nothing => {}
            }
            if let Some((a, cmp, b)) = &r.cond {
                let word = if r.ends { "while" } else { "if" };
                let _ = write!(t, " {word} {} {} {}", a.text(s, 2), cmp.text(), b.text(s, 2));
            }
            t.push('\n');
        }
        t.push_str("}\n");
        let at = |x: Size, y: Size| {
            if self.two {
                format!("G({}, {})", x.text(), y.text())
            } else {
                format!("G({})", x.text())
            }
        };
        let plain = Scope {
            two: false,
            var: false,
            helper,
        };
        for (i, q) in self.queries.iter().take(4).enumerate() {
            let line = match q {
                Query::Grundy(x, y) => format!("print grundy({})", at(*x, *y)),
                Query::Outcome(x, y) => format!("print outcome({})", at(*x, *y)),
                Query::Winning(x, y, z) => {
                    format!("print winning({} + {})", at(*x, *y), at(*z, *x))
                }
                Query::Moves(x, y) => format!("print moves({})", at(*x, *y)),
                Query::Table(n) if self.two => format!("print table(G, 0..{}, 0..5)", n % 12),
                Query::Table(n) => format!("print table(G, 0..{})", n % 60),
                Query::Period if !self.two => "print period(G)".into(),
                Query::Period => "print describe(G)".into(),
                Query::Misere(x, y) => format!("print outcome({}, misere)", at(*x, *y)),
                Query::MisereWinning(x, y) => format!("print winning({}, misere)", at(*x, *y)),
                Query::Check(x) if self.two => {
                    format!("check grundy(G(n, {})) >= 0 for n in 0..10", x.text())
                }
                Query::Check(x) => format!("check grundy(G(n)) >= 0 for n in 0..{}", x.text()),
                Query::Ppositions(n) if self.two => {
                    format!("print ppositions(G, 0..{}, 0..4)", n % 10)
                }
                Query::Ppositions(n) => format!("print ppositions(G, 0..{})", n % 50),
                Query::Graph(x, n) => format!("print graph({}, {})", at(*x, *x), n % 30),
                Query::Describe => "print describe(G)".into(),
                Query::Plot(n) if !self.two => format!("print len(str(plot(G, 0..{})))", n % 40),
                Query::Plot(_) => "print describe(G)".into(),
                Query::Map(n) if self.two => format!("print map(G, 0..{}, 0..6)", n % 10),
                Query::Map(_) => "print describe(G)".into(),
                Query::Value(e) => format!("print {}", e.text(plain, 1)),
                Query::Helper(e) if helper => format!("print f({})", e.text(plain, 1)),
                Query::Helper(e) => format!("print [{} for n in S]", e.text(plain, 1)),
                Query::Asking(x, y) => format!(
                    "let asks{i}(m) = grundy({}) + m\nprint asks{i}(1) + asks{i}(2)",
                    at(*x, *y)
                ),
                Query::Play(x, y) => format!(
                    "print [grundy(play({p}, m)) for m in moves({p})]",
                    p = at(*x, *y)
                ),
                Query::Comprehension(n) => {
                    format!(
                        "print sum([grundy({}) for n in 0..{}])",
                        at(Size::Small(3), Size::Small(2)),
                        n % 20
                    )
                }
            };
            t.push_str(&line);
            t.push('\n');
        }
        t
    }
}

/// Small limits: each input ends quickly, at a limit if need be.
fn limits() -> Limits {
    Limits {
        max_states: 50_000,
        max_list: 50_000,
        max_depth: 5_000,
        period_budget: 2048,
        max_work: 2_000_000,
        time_limit: Some(std::time::Duration::from_secs(1)),
        max_memory: 1 << 30,
        ..Limits::default()
    }
}

/// Runs `f` on a thread with the binary's stack (256 MiB): the parser and
/// the checker recurse as deep as the source's own bounds allow.
fn on_big_stack(f: impl FnOnce() + Send + 'static) {
    let worker = std::thread::Builder::new()
        .stack_size(256 << 20)
        .spawn(f)
        .expect("a thread for the input");
    if let Err(panic) = worker.join() {
        std::panic::resume_unwind(panic);
    }
}

/// Parses and checks a text as a file, as `grundy check` does.
pub fn check_as_file(text: &str) {
    let text = text.to_string();
    on_big_stack(move || {
        let mut session = Session::new(limits());
        let _ = session.check("fuzz.game", &text);
    });
}

/// Runs a text as a file, then as REPL entries line by line, with small
/// limits.
pub fn run_small(text: &str) {
    let text = text.to_string();
    on_big_stack(move || {
        let mut session = Session::new(limits());
        session.set_input(grundy::input::Input::text("3 1 4 1 5"));
        session.run("fuzz.game", &text, &mut |_, _| {});
        let mut repl = Session::new(limits());
        for line in text.lines().take(6) {
            repl.entry("<repl>", line, &mut |_, _| {});
        }
    });
}
