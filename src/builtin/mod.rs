//! The builtins in one table: each one's name, how it is called, what it
//! takes and what it does. The checker reads arities, kinds and the words of
//! its arity errors from it; the REPL its completion, highlighting and
//! `:help`; evaluation and the session dispatch on [`Builtin`](crate::builtin::Builtin).

/// Builtin functions and queries.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Builtin {
    /// `len(list)`
    Len,
    /// `sum(list)`
    Sum,
    /// `min(list)` or `min(a, b, ...)`
    Min,
    /// `max(list)` or `max(a, b, ...)`
    Max,
    /// `abs(x)`
    Abs,
    /// `sorted(list)`
    Sorted,
    /// `set(list, i, v)`: a copy of the list with element `i` replaced by `v`.
    Set,
    /// `popcount(x)`: number of one bits of a non-negative integer.
    Popcount,
    /// `mex(list)`: the least non-negative integer not in the list.
    Mex,
    /// `xor(list)`: the bitwise XOR of a list's integers.
    Xor,
    /// `isqrt(x)`: the integer square root of `x >= 0`.
    Isqrt,
    /// `components(mask, adj)`: the parts of a board no move joins.
    Components,
    /// `grid_canon(mask, w, h)`: the least image of a shape on a grid.
    GridCanon,
    /// `grid_turn(mask, w, h)`: a shape turned half a turn in its box.
    GridTurn,
    /// `is_infinite(v)`: whether a value is ∞ (a loopy game's).
    IsInfinite,
    /// `escapes(v)`: the set K of an ∞{K} value, as a list.
    Escapes,
    /// `str(x)`: a value as text.
    Str,
    /// `join(list, sep)`: the elements as text, separated by `sep`.
    Join,
    /// `input_ints()`: every integer of standard input, as a list.
    InputInts,
    /// `input_tokens()`: every word of standard input, integers as integers.
    InputTokens,
    /// `input_lines()`: every line of standard input, as strings.
    InputLines,
    /// `chars(s)`: a string's characters, as one-character strings.
    Chars,
    /// `int(s)`: the integer a string writes.
    Int,
    /// `ord(c)`: a character's code (Unicode).
    Ord,
    /// `chr(n)`: the character of a code.
    Chr,
    /// `play(P, m)`: the whole position after the move `m` of `P`.
    Play,
    /// `args(P)`: a position's arguments, as a list.
    Args,
    /// `name(P)`: the name of a position's game.
    Name,
    /// `grundy(P)`
    Grundy,
    /// `outcome(P)`
    Outcome,
    /// `moves(P)`
    Moves,
    /// `winning(P)`
    Winning,
    /// `table(G, range[, range])`
    Table,
    /// `ppositions(G, range[, range])`
    PPositions,
    /// `describe(G)`: the moves of a game in words.
    Describe,
    /// `misere_grundy(P)`: the misère value of P played as one game.
    MisereGrundy,
    /// `genus(P)`: Conway's genus; `genus(G, xs[, ys])`: a table of them.
    Genus,
    /// `quotient(G, 0..=N)`: the misère quotient of a game's heaps.
    Quotient,
    /// `bisect(xs, x)`: where x goes in a sorted list of integers.
    Bisect,
    /// `dict()`, `dict(pairs)`, `dict(keys, values)`: a dictionary.
    Dict,
    /// `counter(xs)`: each element of a list to how often it occurs.
    Counter,
    /// `get(d, k, default)`: a key's value, or the default.
    Get,
    /// `has(d, k)`: whether a dictionary has a key.
    Has,
    /// `insert(d, k, v)`: the dictionary with key k set to v.
    Insert,
    /// `keys(d)`: a dictionary's keys, in order.
    Keys,
    /// `values(d)`: a dictionary's values, in its keys' order.
    Values,
    /// `graph(P[, limit])`: the state graph as Graphviz DOT.
    Graph,
    /// `period(G[, budget])`: pre-period and period, and how it is known.
    Period,
    /// `guess(G[, budget])`: the smallest formula giving a game's values.
    Guess,
    /// `map(G, rows, columns)`: the P-positions of a two-parameter game as
    /// a picture in text.
    Map,
    /// `plot(G, range)` and `plot(G, rows, columns)`: a picture, SVG.
    Plot,
}

/// The play a query asks about: normal (whoever cannot move loses), or
/// misère (whoever cannot move wins), asked with a last argument `misere`
/// of the queries that take it ([`Builtin::has_misere`]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Play {
    #[default]
    Normal,
    Misere,
}

/// What kind of thing a builtin is: where it may be used and what it gives.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// A function of values, usable anywhere.
    Function,
    /// A fold over a generator: `any(c for x in xs)`.
    Generator,
    /// A query whose answer is a value (needs Grundy values: statements only).
    ValueQuery,
    /// A query whose answer is a report (printable only, not a value).
    ReportQuery,
    /// A report that needs no values (`describe`).
    Report,
}

/// What a builtin's argument must be, as the checker checks it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Arg {
    Int,
    Str,
    List,
    /// A list, a string or a dictionary (what has a length).
    Seq,
    /// A dictionary.
    Dict,
    /// A dictionary's key: an integer or a string.
    Key,
    /// A move record (an element of `moves(P)` or `winning(P)`).
    Move,
    /// A position or a sum of positions.
    Pos,
    /// A value that can go in a list (integer, boolean, string, list).
    Data,
    /// Any value but a report.
    Value,
}

/// What a call of a builtin gives.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Gives {
    Int,
    Bool,
    Str,
    List,
    Dict,
    /// A value whose type is known at run time (a dictionary's value).
    Value,
    Pos,
    /// A report, printed (a value only where a query's answer may be).
    Report,
}

/// How the checker checks a call of a builtin.
#[derive(Clone, Copy, Debug)]
pub enum Sig {
    /// Each argument as listed, with the words of a mismatch, and what the
    /// call gives: the checker needs nothing else.
    Args(&'static [(Arg, &'static str)], Gives),
    /// Checked by the checker's own code (overloads, game names, ranges, a
    /// last `misere`): `check::call`.
    Special,
}

/// One builtin.
#[derive(Debug)]
pub struct Spec {
    pub name: &'static str,
    /// `None` for the generator folds (`sum`, `min`, `max` are also
    /// functions; `any` and `all` only folds).
    pub builtin: Option<Builtin>,
    pub kind: Kind,
    /// Least and most arguments.
    pub arity: (usize, usize),
    /// What it takes, in the words of an arity error.
    pub takes: &'static str,
    /// Ways to call it, each with one line on what it gives (`:help`).
    pub help: &'static [(&'static str, &'static str)],
    /// How its arguments are checked and what it gives.
    pub sig: Sig,
}

const ANY: usize = usize::MAX;

const fn spec(
    name: &'static str,
    builtin: Option<Builtin>,
    kind: Kind,
    arity: (usize, usize),
    takes: &'static str,
    help: &'static [(&'static str, &'static str)],
) -> Spec {
    Spec {
        name,
        builtin,
        kind,
        arity,
        takes,
        help,
        sig: Sig::Special,
    }
}

impl Spec {
    /// The entry with its arguments' types and what it gives.
    const fn args(self, args: &'static [(Arg, &'static str)], gives: Gives) -> Spec {
        Spec {
            sig: Sig::Args(args, gives),
            ..self
        }
    }
}

use Builtin as B;
use Kind::*;

/// Every builtin, in the order `:help` lists them.
pub const TABLE: &[Spec] = &[
    spec(
        "len",
        Some(B::Len),
        Function,
        (1, 1),
        "1 argument (a list, a string or a dictionary)",
        &[(
            "len(xs)",
            "the number of elements of a list, of characters of a string, of keys of a dictionary",
        )],
    )
    .args(
        &[(Arg::Seq, "`len` takes a list, a string or a dictionary")],
        Gives::Int,
    ),
    spec(
        "sum",
        Some(B::Sum),
        Function,
        (1, 1),
        "1 argument (a list)",
        &[(
            "sum(xs)",
            "the sum of a list (also `sum(e for x in ...)`, and of positions: their sum)",
        )],
    )
    .args(&[(Arg::List, "`sum` takes a list")], Gives::Int),
    spec(
        "min",
        Some(B::Min),
        Function,
        (1, ANY),
        "a list or at least 2 integers",
        &[(
            "min(xs), min(a, b)",
            "the least element (also `min(e for x in ...)`)",
        )],
    ),
    spec(
        "max",
        Some(B::Max),
        Function,
        (1, ANY),
        "a list or at least 2 integers",
        &[(
            "max(xs), max(a, b)",
            "the greatest element (also `max(e for x in ...)`)",
        )],
    ),
    spec(
        "abs",
        Some(B::Abs),
        Function,
        (1, 1),
        "1 argument (an integer)",
        &[("abs(x)", "the absolute value")],
    )
    .args(&[(Arg::Int, "`abs` takes an integer")], Gives::Int),
    spec(
        "sorted",
        Some(B::Sorted),
        Function,
        (1, 1),
        "1 argument (a list)",
        &[("sorted(xs)", "the list in increasing order")],
    )
    .args(&[(Arg::List, "`sorted` takes a list")], Gives::List),
    spec(
        "set",
        Some(B::Set),
        Function,
        (3, 3),
        "3 arguments (a list, an index, a value)",
        &[(
            "set(xs, i, v)",
            "a copy of the list with element i replaced by v",
        )],
    )
    .args(
        &[
            (Arg::List, "`set(list, index, value)`"),
            (Arg::Int, "`set(list, index, value)`"),
            (Arg::Data, "`set(list, index, value)`"),
        ],
        Gives::List,
    ),
    spec(
        "popcount",
        Some(B::Popcount),
        Function,
        (1, 1),
        "1 argument (an integer)",
        &[("popcount(x)", "the number of one bits of x >= 0")],
    )
    .args(&[(Arg::Int, "`popcount` takes an integer")], Gives::Int),
    spec(
        "isqrt",
        Some(B::Isqrt),
        Function,
        (1, 1),
        "1 argument (an integer)",
        &[(
            "isqrt(x)",
            "the integer square root of x >= 0: the largest r with r * r <= x",
        )],
    )
    .args(&[(Arg::Int, "`isqrt` takes an integer")], Gives::Int),
    spec(
        "mex",
        Some(B::Mex),
        Function,
        (1, 1),
        "1 argument (a list)",
        &[("mex(xs)", "the least non-negative integer not in the list")],
    )
    .args(&[(Arg::List, "`mex` takes a list")], Gives::Int),
    spec(
        "xor",
        Some(B::Xor),
        Function,
        (1, 1),
        "1 argument (a list)",
        &[(
            "xor(xs)",
            "the bitwise XOR of the integers (0 for []): a sum's value from its parts'",
        )],
    )
    .args(&[(Arg::List, "`xor` takes a list")], Gives::Int),
    spec(
        "bisect",
        Some(B::Bisect),
        Function,
        (2, 2),
        "2 arguments (a sorted list of integers and an integer)",
        &[(
            "bisect(xs, x)",
            "the first index i with xs[i] >= x in a sorted list (len(xs) if none), in log time",
        )],
    )
    .args(
        &[
            (Arg::List, "`bisect` takes a sorted list of integers"),
            (Arg::Int, "`bisect` looks for an integer"),
        ],
        Gives::Int,
    ),
    spec(
        "dict",
        Some(B::Dict),
        Function,
        (0, 2),
        "no argument, a list of [key, value] pairs, or a list of keys and a list of values",
        &[
            ("dict()", "the empty dictionary"),
            ("dict(pairs)", "a dictionary of [key, value] pairs (keys: integers or strings)"),
            ("dict(keys, values)", "each key to the value at its place"),
        ],
    )
    .args(
        &[
            (Arg::List, "`dict(pairs)` or `dict(keys, values)` takes lists"),
            (Arg::List, "`dict(keys, values)` takes two lists"),
        ],
        Gives::Dict,
    ),
    spec(
        "counter",
        Some(B::Counter),
        Function,
        (1, 1),
        "1 argument (a list of integers or strings)",
        &[(
            "counter(xs)",
            "a dictionary of each element of the list to how often it occurs",
        )],
    )
    .args(&[(Arg::List, "`counter` counts a list's elements")], Gives::Dict),
    spec(
        "get",
        Some(B::Get),
        Function,
        (3, 3),
        "3 arguments (a dictionary, a key and a default)",
        &[("get(d, k, default)", "the value of key k, or the default where d has no k")],
    )
    .args(
        &[
            (Arg::Dict, "`get(dict, key, default)`"),
            (Arg::Key, "a dictionary's keys are integers or strings"),
            (Arg::Data, "`get(dict, key, default)`"),
        ],
        Gives::Value,
    ),
    spec(
        "has",
        Some(B::Has),
        Function,
        (2, 2),
        "2 arguments (a dictionary and a key)",
        &[("has(d, k)", "whether the dictionary has the key k")],
    )
    .args(
        &[
            (Arg::Dict, "`has(dict, key)`"),
            (Arg::Key, "a dictionary's keys are integers or strings"),
        ],
        Gives::Bool,
    ),
    spec(
        "insert",
        Some(B::Insert),
        Function,
        (3, 3),
        "3 arguments (a dictionary, a key and a value)",
        &[(
            "insert(d, k, v)",
            "the dictionary with key k set to v (in place as a fold's accumulator)",
        )],
    )
    .args(
        &[
            (Arg::Dict, "`insert(dict, key, value)`"),
            (Arg::Key, "a dictionary's keys are integers or strings"),
            (Arg::Data, "`insert(dict, key, value)`"),
        ],
        Gives::Dict,
    ),
    spec(
        "keys",
        Some(B::Keys),
        Function,
        (1, 1),
        "1 argument (a dictionary)",
        &[("keys(d)", "the keys, integers ascending, then strings")],
    )
    .args(&[(Arg::Dict, "`keys` takes a dictionary")], Gives::List),
    spec(
        "values",
        Some(B::Values),
        Function,
        (1, 1),
        "1 argument (a dictionary)",
        &[("values(d)", "the values, in the order of their keys")],
    )
    .args(&[(Arg::Dict, "`values` takes a dictionary")], Gives::List),
    spec(
        "components",
        Some(B::Components),
        Function,
        (2, 2),
        "2 arguments (a mask and a list of neighbour masks)",
        &[(
            "components(mask, adj)",
            "the parts of a board (bit v: vertex v) where v is joined to the vertices of adj[v], as masks",
        )],
    )
    .args(
        &[
            (Arg::Int, "`components(mask, adj)`"),
            (Arg::List, "`components(mask, adj)`"),
        ],
        Gives::List,
    ),
    spec(
        "grid_canon",
        Some(B::GridCanon),
        Function,
        (3, 3),
        "3 arguments (a mask, a width and a height)",
        &[(
            "grid_canon(mask, w, h)",
            "the least image of a shape on a w×h grid, moved to the corner, reflected and rotated",
        )],
    )
    .args(
        &[
            (Arg::Int, "`grid_canon(mask, w, h)`"),
            (Arg::Int, "`grid_canon(mask, w, h)`"),
            (Arg::Int, "`grid_canon(mask, w, h)`"),
        ],
        Gives::Int,
    ),
    spec(
        "grid_turn",
        Some(B::GridTurn),
        Function,
        (3, 3),
        "3 arguments (a mask, a width and a height)",
        &[(
            "grid_turn(mask, w, h)",
            "a shape on a w×h grid turned half a turn within its bounding box",
        )],
    )
    .args(
        &[
            (Arg::Int, "`grid_turn(mask, w, h)`"),
            (Arg::Int, "`grid_turn(mask, w, h)`"),
            (Arg::Int, "`grid_turn(mask, w, h)`"),
        ],
        Gives::Int,
    ),
    spec(
        "is_infinite",
        Some(B::IsInfinite),
        Function,
        (1, 1),
        "1 argument (a value)",
        &[(
            "is_infinite(v)",
            "whether v is ∞ (a loopy game's value; a position of value ∞{K} is a draw unless 0 is in K)",
        )],
    )
    .args(&[(Arg::Int, "`is_infinite` takes a value")], Gives::Bool),
    spec(
        "escapes",
        Some(B::Escapes),
        Function,
        (1, 1),
        "1 argument (an ∞ value)",
        &[(
            "escapes(v)",
            "the set K of an ∞{K} value, as a list: the finite values of its options",
        )],
    )
    .args(&[(Arg::Int, "`escapes` takes an ∞ value")], Gives::List),
    spec(
        "str",
        Some(B::Str),
        Function,
        (1, 1),
        "1 argument (any value)",
        &[("str(x)", "a value as text, as print shows it")],
    )
    .args(&[(Arg::Value, "`str` shows a value as text")], Gives::Str),
    spec(
        "join",
        Some(B::Join),
        Function,
        (2, 2),
        "2 arguments (a list and a string)",
        &[(
            "join(xs, \", \")",
            "the elements as text, with the string between",
        )],
    )
    .args(
        &[
            (Arg::List, "`join(list, separator)`"),
            (Arg::Str, "`join(list, separator)`"),
        ],
        Gives::Str,
    ),
    spec(
        "input_ints",
        Some(B::InputInts),
        Function,
        (0, 0),
        "no arguments",
        &[("input_ints()", "every integer on standard input, as a list")],
    )
    .args(&[], Gives::List),
    spec(
        "input_tokens",
        Some(B::InputTokens),
        Function,
        (0, 0),
        "no arguments",
        &[(
            "input_tokens()",
            "every word on standard input, as a list: integers as integers, others as strings",
        )],
    )
    .args(&[], Gives::List),
    spec(
        "input_lines",
        Some(B::InputLines),
        Function,
        (0, 0),
        "no arguments",
        &[(
            "input_lines()",
            "every line on standard input, as a list of strings",
        )],
    )
    .args(&[], Gives::List),
    spec(
        "chars",
        Some(B::Chars),
        Function,
        (1, 1),
        "1 argument (a string)",
        &[(
            "chars(s)",
            "the characters of a string, as a list of one-character strings",
        )],
    )
    .args(&[(Arg::Str, "`chars` takes a string")], Gives::List),
    spec(
        "int",
        Some(B::Int),
        Function,
        (1, 1),
        "1 argument (a string)",
        &[("int(s)", "the integer a string writes (\"-12\" gives -12)")],
    )
    .args(&[(Arg::Str, "`int` reads a string")], Gives::Int),
    spec(
        "ord",
        Some(B::Ord),
        Function,
        (1, 1),
        "1 argument (a one-character string)",
        &[("ord(c)", "the code of a character (\"a\" gives 97)")],
    )
    .args(&[(Arg::Str, "`ord` takes a one-character string")], Gives::Int),
    spec(
        "chr",
        Some(B::Chr),
        Function,
        (1, 1),
        "1 argument (an integer)",
        &[("chr(n)", "the character of a code, as a string (97 gives \"a\")")],
    )
    .args(&[(Arg::Int, "`chr` takes a character code")], Gives::Str),
    spec(
        "play",
        Some(B::Play),
        Function,
        (2, 2),
        "2 arguments (a position and one of its moves)",
        &[(
            "play(P, m)",
            "the whole position after the move m of P (m from moves(P) or winning(P))",
        )],
    )
    .args(
        &[
            (Arg::Pos, "`play(P, m)` plays a move of the position P"),
            (Arg::Move, "`play(P, m)`: m is a move of P, from `moves(P)` or `winning(P)`"),
        ],
        Gives::Pos,
    ),
    spec(
        "args",
        Some(B::Args),
        Function,
        (1, 1),
        "1 argument (a position)",
        &[("args(P)", "the arguments of a position (not a sum), as a list")],
    )
    .args(&[(Arg::Pos, "`args` takes a position")], Gives::List),
    spec(
        "name",
        Some(B::Name),
        Function,
        (1, 1),
        "1 argument (a position)",
        &[("name(P)", "the name of a position's game (not a sum's), as a string")],
    )
    .args(&[(Arg::Pos, "`name` takes a position")], Gives::Str),
    spec(
        "any",
        None,
        Generator,
        (1, 1),
        "a generator",
        &[("any(c for x in xs)", "whether c holds for some x")],
    ),
    spec(
        "all",
        None,
        Generator,
        (1, 1),
        "a generator",
        &[("all(c for x in xs)", "whether c holds for every x")],
    ),
    spec(
        "grundy",
        Some(B::Grundy),
        ValueQuery,
        (1, 1),
        "1 argument (a position)",
        &[("grundy(P)", "the Grundy value of a position or sum")],
    )
    .args(&[(Arg::Pos, "`grundy` takes a position")], Gives::Int),
    spec(
        "outcome",
        Some(B::Outcome),
        ReportQuery,
        (1, 2),
        "a position, and optionally `misere`",
        &[
            (
                "outcome(P)",
                "who wins: P (previous player) or N (next player)",
            ),
            (
                "outcome(P, misere)",
                "who wins when the last player to move loses",
            ),
        ],
    ),
    spec(
        "moves",
        Some(B::Moves),
        ReportQuery,
        (1, 1),
        "1 argument (a position)",
        &[("moves(P)", "every move and the value after it")],
    )
    .args(&[(Arg::Pos, "`moves` takes a position")], Gives::Report),
    spec(
        "winning",
        Some(B::Winning),
        ReportQuery,
        (1, 2),
        "a position, and optionally `misere`",
        &[
            ("winning(P)", "the moves to a P-position"),
            ("winning(P, misere)", "the winning moves in misère play"),
        ],
    ),
    spec(
        "table",
        Some(B::Table),
        ReportQuery,
        (2, 4),
        "a game, 1 or 2 ranges, and optionally `misere`",
        &[
            ("table(G, 0..=30)", "values of a one-parameter game"),
            ("table(G, 0..=8, 0..=8)", "a grid for a two-parameter game"),
            ("table(G, 0..=30, misere)", "misère values (no move: 1)"),
        ],
    ),
    spec(
        "ppositions",
        Some(B::PPositions),
        ReportQuery,
        (2, 6),
        "a game, 1 to 4 ranges, and optionally `misere`",
        &[
            ("ppositions(G, 0..=30)", "the positions whose value is 0"),
            ("ppositions(G, 0..=30, misere)", "the misère P-positions"),
            (
                "ppositions(W3, 0..=9, 0..=9, 0..=9)",
                "a game of three parameters (marked where its moves are translations)",
            ),
        ],
    ),
    spec(
        "map",
        Some(B::Map),
        ReportQuery,
        (3, 4),
        "a game of two parameters, 2 ranges, and optionally `misere`",
        &[
            (
                "map(G, 0..=20, 0..=20)",
                "the P-positions as a map: # P, . N",
            ),
            (
                "map(G, 0..=20, 0..=20, misere)",
                "the misère P-positions as a map",
            ),
        ],
    ),
    spec(
        "plot",
        Some(B::Plot),
        ReportQuery,
        (2, 4),
        "a game, 1 or 2 ranges, and optionally `misere`",
        &[
            ("plot(G, 0..=200)", "the values against n, as an SVG file"),
            (
                "plot(G, 0..=30, 0..=30)",
                "a two-parameter table as a heat map, P-positions black",
            ),
            ("plot(G, 0..=200, misere)", "the misère values"),
        ],
    ),
    spec(
        "describe",
        Some(B::Describe),
        Report,
        (1, 1),
        "a game name",
        &[("describe(G)", "the moves of a one-heap game in words")],
    ),
    spec(
        "period",
        Some(B::Period),
        ReportQuery,
        (1, 2),
        "a game name and optionally a budget of positions",
        &[(
            "period(G)",
            "pre-period and period, proven when a theorem applies",
        )],
    ),
    spec(
        "guess",
        Some(B::Guess),
        ReportQuery,
        (1, 2),
        "a game (or a section, `G(_, 6)`) and optionally a budget of formulas",
        &[
            (
                "guess(G)",
                "the smallest formula giving the values (a guess: not a proof)",
            ),
            (
                "guess(G(_, 6), 10000000)",
                "for a section, with a budget of formulas",
            ),
        ],
    ),
    spec(
        "misere_grundy",
        Some(B::MisereGrundy),
        ValueQuery,
        (1, 1),
        "1 argument (a position)",
        &[("misere_grundy(P)", "the misère value of P as one game")],
    )
    .args(
        &[(Arg::Pos, "`misere_grundy` takes a position")],
        Gives::Int,
    ),
    spec(
        "genus",
        Some(B::Genus),
        ReportQuery,
        (1, 3),
        "a position, or a game and 1 or 2 ranges",
        &[
            (
                "genus(P)",
                "g^γ0γ1…: misère values of P, P + *2, ...; tame or wild",
            ),
            ("genus(G, 0..=20)", "the genera of a game's positions"),
        ],
    ),
    spec(
        "quotient",
        Some(B::Quotient),
        ReportQuery,
        (2, 2),
        "a game name and a range of heaps",
        &[(
            "quotient(G, 0..=N)",
            "misère quotient of heaps up to N: order, P, presentation, Φ",
        )],
    ),
    spec(
        "graph",
        Some(B::Graph),
        ReportQuery,
        (1, 2),
        "a position, and optionally the most positions to draw",
        &[(
            "graph(P)",
            "the positions reachable from P, as Graphviz DOT",
        )],
    )
    .args(
        &[
            (Arg::Pos, "`graph` draws a position"),
            (Arg::Int, "a limit is a number of positions"),
        ],
        Gives::Report,
    ),
];

/// The entry of a name.
pub fn lookup(name: &str) -> Option<&'static Spec> {
    TABLE.iter().find(|s| s.name == name)
}

/// Whether a name is a builtin's (functions, queries and folds).
pub fn is_name(name: &str) -> bool {
    lookup(name).is_some()
}

/// Every builtin name.
pub fn names() -> impl Iterator<Item = &'static str> {
    TABLE.iter().map(|s| s.name)
}

/// The `:help` lines of the builtins of these kinds, aligned.
pub fn help(kinds: &[Kind]) -> String {
    let lines: Vec<(&str, &str)> = TABLE
        .iter()
        .filter(|s| kinds.contains(&s.kind))
        .flat_map(|s| s.help.iter().copied())
        .collect();
    let width = lines
        .iter()
        .map(|(u, _)| u.chars().count())
        .max()
        .unwrap_or(0);
    let mut out = String::new();
    for (usage, what) in lines {
        out.push_str(&format!("  {usage:width$}  {what}\n"));
    }
    out
}

impl Builtin {
    /// Looks a builtin function or query up by name (not the folds).
    pub fn by_name(name: &str) -> Option<Builtin> {
        lookup(name)?.builtin
    }

    /// Whether the query takes a last argument `misere`.
    pub fn has_misere(self) -> bool {
        matches!(
            self,
            B::Outcome | B::Winning | B::Table | B::PPositions | B::Map | B::Plot
        )
    }

    /// Its entry in the table.
    pub fn spec(self) -> &'static Spec {
        TABLE
            .iter()
            .find(|s| s.builtin == Some(self))
            .unwrap_or(&TABLE[0])
    }

    /// The builtin's name.
    pub fn name(self) -> &'static str {
        self.spec().name
    }

    /// Queries of a game over ranges of its arguments: `table`,
    /// `ppositions`, `map`, `plot`, `quotient`.
    pub fn is_table_query(self) -> bool {
        matches!(
            self,
            B::Table | B::PPositions | B::Map | B::Plot | B::Quotient
        )
    }

    /// Whether this builtin is a query that needs game values.
    pub fn is_query(self) -> bool {
        matches!(self.spec().kind, ValueQuery | ReportQuery)
    }

    /// Whether this builtin produces a report (printable only, not a value).
    pub fn is_report(self) -> bool {
        matches!(self.spec().kind, ReportQuery | Report)
    }
}

#[cfg(test)]
mod tests;
