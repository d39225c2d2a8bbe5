//! The builtins, each declared once (`builtins!`): its variant, its name,
//! how it is called, what it takes and what it does, and for a function the
//! function itself: of integers ([`Ints`](crate::builtin::Ints)), or of
//! values ([`Values`](crate::builtin::Values), written in `lists`, `text`, `dicts` and
//! `boards` against the machine as [`Host`](crate::builtin::Host) sees it).
//! The checker reads arities, kinds, signatures and the words of its errors
//! from the declarations; the REPL its completion, highlighting and `:help`;
//! evaluation calls a function's function, and dispatches the others (which
//! read positions, the input, the solvers, or update in place) on
//! [`Builtin`](crate::builtin::Builtin).

/// Declares the builtins, each once: its variant of [`Builtin`] (with its
/// doc) and its entry, `Variant => spec(...)`, in the order `:help` lists
/// them. The variants number the entries: [`Builtin::spec`] reads its own.
macro_rules! builtins {
    ($($(#[$doc:meta])* $variant:ident => $spec:expr,)*) => {
        /// Builtin functions and queries.
        #[derive(Clone, Copy, Debug, PartialEq, Eq)]
        pub enum Builtin {
            $($(#[$doc])* $variant,)*
        }

        impl Builtin {
            /// Every builtin, in the order of their entries.
            pub const ALL: &[Builtin] = &[$(Builtin::$variant,)*];
        }

        /// Every builtin's entry, in the order of [`Builtin::ALL`].
        const SPECS: &[Spec] = &[$($spec.of(Builtin::$variant),)*];
    };
}

mod boards;
pub mod dicts;
mod host;
mod lists;
mod spec;
mod text;
pub use host::{Host, list_too_long, overflow, string_too_long, too_wide, type_mismatch};
pub use lists::TEXT_BYTES_PER_WORK;
use spec::{ANY, spec};
pub use spec::{Arg, Axes, Gives, Ints, Kind, Play, Sig, Spec, Values, WideInts};

use crate::diagnostics::{Code, Diag};
use crate::ops::{self, OpError, Wide};
use crate::value::Value;
use Kind::*;

/// The most axes `ppositions` runs over (marked, for games whose moves are
/// translations).
const MAX_P_AXES: usize = 4;

builtins! {
    /// `len(list)`
    Len => spec(
        "len",
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
    )
    .values(lists::len),
    /// `sum(list)`
    Sum => spec(
        "sum",
        Function,
        (1, 1),
        "1 argument (a list)",
        &[(
            "sum(xs)",
            "the sum of a list (also `sum(e for x in ...)`, and of positions: their sum)",
        )],
    )
    .args(&[(Arg::List, "`sum` takes a list")], Gives::Int)
    .values(lists::sum),
    /// `min(list)` or `min(a, b, ...)`
    Min => spec(
        "min",
        Function,
        (1, ANY),
        "a list or at least 2 integers",
        &[(
            "min(xs), min(a, b)",
            "the least element (also `min(e for x in ...)`)",
        )],
    )
    .values(lists::min)
    .sig(Sig::ListOrInts),
    /// `max(list)` or `max(a, b, ...)`
    Max => spec(
        "max",
        Function,
        (1, ANY),
        "a list or at least 2 integers",
        &[(
            "max(xs), max(a, b)",
            "the greatest element (also `max(e for x in ...)`)",
        )],
    )
    .values(lists::max)
    .sig(Sig::ListOrInts),
    /// `abs(x)`
    Abs => spec(
        "abs",
        Function,
        (1, 1),
        "1 argument (an integer)",
        &[("abs(x)", "the absolute value")],
    )
    .args(&[(Arg::Int, "`abs` takes an integer")], Gives::Int)
    .ints(Ints::One(ops::abs), WideInts::One(|x| Ok(x.abs()))),
    /// `sorted(list)`
    Sorted => spec(
        "sorted",
        Function,
        (1, 1),
        "1 argument (a list)",
        &[("sorted(xs)", "the list in increasing order")],
    )
    .args(&[(Arg::List, "`sorted` takes a list")], Gives::List)
    .values(lists::sorted),
    /// `set(list, i, v)`: a copy of the list with element `i` replaced by `v`.
    Set => spec(
        "set",
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
    /// `popcount(x)`: number of one bits of a non-negative integer.
    Popcount => spec(
        "popcount",
        Function,
        (1, 1),
        "1 argument (an integer)",
        &[("popcount(x)", "the number of one bits of x >= 0")],
    )
    .args(&[(Arg::Int, "`popcount` takes an integer")], Gives::Int)
    .ints(Ints::One(ops::popcount), WideInts::One(Wide::popcount_of)),
    /// `isqrt(x)`: the integer square root of `x >= 0`.
    Isqrt => spec(
        "isqrt",
        Function,
        (1, 1),
        "1 argument (an integer)",
        &[(
            "isqrt(x)",
            "the integer square root of x >= 0: the largest r with r * r <= x",
        )],
    )
    .args(&[(Arg::Int, "`isqrt` takes an integer")], Gives::Int)
    .ints(Ints::One(ops::isqrt), WideInts::One(Wide::isqrt)),
    /// `gcd(a, b)`: the greatest common divisor.
    Gcd => spec(
        "gcd",
        Function,
        (2, 2),
        "2 arguments (integers)",
        &[(
            "gcd(a, b)",
            "the greatest common divisor of a and b, never negative (gcd(0, 0) is 0)",
        )],
    )
    .args(
        &[
            (Arg::Int, "`gcd` takes integers"),
            (Arg::Int, "`gcd` takes integers"),
        ],
        Gives::Int,
    )
    .ints(Ints::Two(|a, b| {
        let (mut x, mut y) = (a.unsigned_abs(), b.unsigned_abs());
        while y != 0 {
            (x, y) = (y, x % y);
        }
        // gcd(-2^63, 0) is 2^63, past the largest integer.
        i64::try_from(x).map_err(|_| OpError::Overflow)
    }), WideInts::Two(|a, b| Ok(a.gcd(b)))),
    /// `mex(list)`: the least non-negative integer not in the list.
    Mex => spec(
        "mex",
        Function,
        (1, 1),
        "1 argument (a list)",
        &[("mex(xs)", "the least non-negative integer not in the list")],
    )
    .args(&[(Arg::List, "`mex` takes a list")], Gives::Int)
    .values(lists::mex),
    /// `xor(list)`: the bitwise XOR of a list's integers.
    Xor => spec(
        "xor",
        Function,
        (1, 1),
        "1 argument (a list)",
        &[(
            "xor(xs)",
            "the bitwise XOR of the integers (0 for []): a sum's value from its parts'",
        )],
    )
    .args(&[(Arg::List, "`xor` takes a list")], Gives::Int)
    .values(lists::xor),
    /// `bisect(xs, x)`: where x goes in a sorted list of integers.
    Bisect => spec(
        "bisect",
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
    )
    .values(lists::bisect),
    /// `dict()`, `dict(pairs)`, `dict(keys, values)`: a dictionary.
    Dict => spec(
        "dict",
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
    )
    .values(dicts::make),
    /// `counter(xs)`: each element of a list to how often it occurs.
    Counter => spec(
        "counter",
        Function,
        (1, 1),
        "1 argument (a list of integers or strings)",
        &[(
            "counter(xs)",
            "a dictionary of each element of the list to how often it occurs",
        )],
    )
    .args(&[(Arg::List, "`counter` counts a list's elements")], Gives::Dict)
    .values(dicts::counter),
    /// `get(d, k, default)`: a key's value, or the default.
    Get => spec(
        "get",
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
    /// `has(d, k)`: whether a dictionary has a key.
    Has => spec(
        "has",
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
    )
    .values(dicts::has),
    /// `insert(d, k, v)`: the dictionary with key k set to v.
    Insert => spec(
        "insert",
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
    /// `keys(d)`: a dictionary's keys, in order.
    Keys => spec(
        "keys",
        Function,
        (1, 1),
        "1 argument (a dictionary)",
        &[("keys(d)", "the keys, integers ascending, then strings")],
    )
    .args(&[(Arg::Dict, "`keys` takes a dictionary")], Gives::List)
    .values(dicts::keys),
    /// `values(d)`: a dictionary's values, in its keys' order.
    Values => spec(
        "values",
        Function,
        (1, 1),
        "1 argument (a dictionary)",
        &[("values(d)", "the values, in the order of their keys")],
    )
    .args(&[(Arg::Dict, "`values` takes a dictionary")], Gives::List)
    .values(dicts::values),
    /// `components(mask, adj)`: the parts of a board no move joins.
    Components => spec(
        "components",
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
    )
    .values(boards::components),
    /// `grid_canon(mask, w, h)`: the least image of a shape on a grid.
    GridCanon => spec(
        "grid_canon",
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
    )
    .values(boards::grid_canon),
    /// `grid_turn(mask, w, h)`: a shape turned half a turn in its box.
    GridTurn => spec(
        "grid_turn",
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
    )
    .values(boards::grid_turn),
    /// `is_infinite(v)`: whether a value is ∞ (a loopy game's).
    IsInfinite => spec(
        "is_infinite",
        Function,
        (1, 1),
        "1 argument (a value)",
        &[(
            "is_infinite(v)",
            "whether v is ∞ (a loopy game's value; a position of value ∞{K} is a draw unless 0 is in K)",
        )],
    )
    .args(&[(Arg::Int, "`is_infinite` takes a value")], Gives::Bool)
    .values(|v, _| Ok(Value::Bool(matches!(v.first(), Some(Value::Infinite(_)))))),
    /// `escapes(v)`: the set K of an ∞{K} value, as a list.
    Escapes => spec(
        "escapes",
        Function,
        (1, 1),
        "1 argument (an ∞ value)",
        &[(
            "escapes(v)",
            "the set K of an ∞{K} value, as a list: the finite values of its options",
        )],
    )
    .args(&[(Arg::Int, "`escapes` takes an ∞ value")], Gives::List)
    .values(|v, h| match v.first() {
        Some(Value::Infinite(k)) => Ok(Value::List(
            k.iter().map(|&v| Value::Int(i64::from(v))).collect(),
        )),
        other => Err(Diag::user(
            Code::TypeMismatch,
            format!(
                "`escapes` of {}, not an ∞ value",
                other.map(|v| h.show(v)).unwrap_or_default()
            ),
        )
        .label(h.place(0), "this value is finite")
        .help("only ∞{K} values have escapes; test `is_infinite(v)` first")
        .into()),
    }),
    /// `str(x)`: a value as text.
    Str => spec(
        "str",
        Function,
        (1, 1),
        "1 argument (any value)",
        &[("str(x)", "a value as text, as print shows it")],
    )
    .args(&[(Arg::Value, "`str` shows a value as text")], Gives::Str)
    .values(text::str),
    /// `join(list, sep)`: the elements as text, separated by `sep`.
    Join => spec(
        "join",
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
    )
    .values(lists::join),
    /// `input_ints()`: every integer of standard input, as a list.
    InputInts => spec(
        "input_ints",
        Function,
        (0, 0),
        "no arguments",
        &[("input_ints()", "every integer on standard input, as a list")],
    )
    .args(&[], Gives::List),
    /// `input_tokens()`: every word of standard input, integers as integers.
    InputTokens => spec(
        "input_tokens",
        Function,
        (0, 0),
        "no arguments",
        &[(
            "input_tokens()",
            "every word on standard input, as a list: integers as integers, others as strings",
        )],
    )
    .args(&[], Gives::List),
    /// `input_lines()`: every line of standard input, as strings.
    InputLines => spec(
        "input_lines",
        Function,
        (0, 0),
        "no arguments",
        &[(
            "input_lines()",
            "every line on standard input, as a list of strings",
        )],
    )
    .args(&[], Gives::List),
    /// `chars(s)`: a string's characters, as one-character strings.
    Chars => spec(
        "chars",
        Function,
        (1, 1),
        "1 argument (a string)",
        &[(
            "chars(s)",
            "the characters of a string, as a list of one-character strings",
        )],
    )
    .args(&[(Arg::Str, "`chars` takes a string")], Gives::List)
    .values(text::chars),
    /// `int(s)`: the integer a string writes.
    Int => spec(
        "int",
        Function,
        (1, 1),
        "1 argument (a string)",
        &[("int(s)", "the integer a string writes (\"-12\" gives -12)")],
    )
    .args(&[(Arg::Str, "`int` reads a string")], Gives::Int)
    .values(text::int),
    /// `ord(c)`: a character's code (Unicode).
    Ord => spec(
        "ord",
        Function,
        (1, 1),
        "1 argument (a one-character string)",
        &[("ord(c)", "the code of a character (\"a\" gives 97)")],
    )
    .args(&[(Arg::Str, "`ord` takes a one-character string")], Gives::Int)
    .values(text::ord),
    /// `chr(n)`: the character of a code.
    Chr => spec(
        "chr",
        Function,
        (1, 1),
        "1 argument (an integer)",
        &[("chr(n)", "the character of a code, as a string (97 gives \"a\")")],
    )
    .args(&[(Arg::Int, "`chr` takes a character code")], Gives::Str)
    .values(text::chr),
    /// `play(P, m)`: the whole position after the move `m` of `P`.
    Play => spec(
        "play",
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
    /// `args(P)`: a position's arguments, as a list.
    Args => spec(
        "args",
        Function,
        (1, 1),
        "1 argument (a position)",
        &[("args(P)", "the arguments of a position (not a sum), as a list")],
    )
    .args(&[(Arg::Pos, "`args` takes a position")], Gives::List),
    /// `name(P)`: the name of a position's game.
    Name => spec(
        "name",
        Function,
        (1, 1),
        "1 argument (a position)",
        &[("name(P)", "the name of a position's game (not a sum's), as a string")],
    )
    .args(&[(Arg::Pos, "`name` takes a position")], Gives::Str),
    /// `grundy(P)`
    Grundy => spec(
        "grundy",
        ValueQuery,
        (1, 1),
        "1 argument (a position)",
        &[("grundy(P)", "the Grundy value of a position or sum")],
    )
    .args(&[(Arg::Pos, "`grundy` takes a position")], Gives::Int),
    /// `outcome(P)`
    Outcome => spec(
        "outcome",
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
    )
    .sig(Sig::Position),
    /// `moves(P)`
    Moves => spec(
        "moves",
        ReportQuery,
        (1, 1),
        "1 argument (a position)",
        &[("moves(P)", "every move and the value after it")],
    )
    .args(&[(Arg::Pos, "`moves` takes a position")], Gives::Report),
    /// `winning(P)`
    Winning => spec(
        "winning",
        ReportQuery,
        (1, 2),
        "a position, and optionally `misere`",
        &[
            ("winning(P)", "the moves to a P-position"),
            ("winning(P, misere)", "the winning moves in misère play"),
        ],
    )
    .sig(Sig::Position),
    /// `table(G, range[, range])`
    Table => spec(
        "table",
        ReportQuery,
        (2, 4),
        "a game, 1 or 2 ranges, and optionally `misere`",
        &[
            ("table(G, 0..=30)", "values of a one-parameter game"),
            ("table(G, 0..=8, 0..=8)", "a grid for a two-parameter game"),
            ("table(G, 0..=30, misere)", "misère values (no move: 1)"),
        ],
    )
    .sig(Sig::Axes(Axes { most: 2, two: false, sections: true, misere: true })),
    /// `ppositions(G, range[, range])`
    PPositions => spec(
        "ppositions",
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
    )
    .sig(Sig::Axes(Axes { most: MAX_P_AXES, two: false, sections: true, misere: true })),
    /// `map(G, rows, columns)`: the P-positions of a two-parameter game as
    /// a picture in text.
    Map => spec(
        "map",
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
    )
    .sig(Sig::Axes(Axes { most: 2, two: true, sections: true, misere: true })),
    /// `plot(G, range)` and `plot(G, rows, columns)`: a picture, SVG.
    Plot => spec(
        "plot",
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
    )
    .sig(Sig::Axes(Axes { most: 2, two: false, sections: true, misere: true })),
    /// `describe(G)`: the moves of a game in words.
    Describe => spec(
        "describe",
        Report,
        (1, 1),
        "a game name",
        &[("describe(G)", "the moves of a one-heap game in words")],
    )
    .sig(Sig::Game { periodic: false }),
    /// `period(G[, budget])`: pre-period and period, and how it is known.
    Period => spec(
        "period",
        ReportQuery,
        (1, 2),
        "a game name and optionally a budget of positions",
        &[(
            "period(G)",
            "pre-period and period, proven when a theorem applies",
        )],
    )
    .sig(Sig::Game { periodic: true }),
    /// `guess(G[, budget])`: the smallest formula giving a game's values.
    Guess => spec(
        "guess",
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
    )
    .sig(Sig::Formula),
    /// `misere_grundy(P)`: the misère value of P played as one game.
    MisereGrundy => spec(
        "misere_grundy",
        ValueQuery,
        (1, 1),
        "1 argument (a position)",
        &[("misere_grundy(P)", "the misère value of P as one game")],
    )
    .args(
        &[(Arg::Pos, "`misere_grundy` takes a position")],
        Gives::Int,
    ),
    /// `genus(P)`: Conway's genus; `genus(G, xs[, ys])`: a table of them.
    Genus => spec(
        "genus",
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
    )
    .sig(Sig::PositionOrAxes(Axes { most: 2, two: false, sections: false, misere: false })),
    /// `quotient(G, 0..=N)`: the misère quotient of a game's heaps.
    Quotient => spec(
        "quotient",
        ReportQuery,
        (2, 2),
        "a game name and a range of heaps",
        &[(
            "quotient(G, 0..=N)",
            "misère quotient of heaps up to N: order, P, presentation, Φ",
        )],
    )
    .sig(Sig::Axes(Axes { most: 2, two: false, sections: false, misere: false })),
    /// `graph(P[, limit])`: the state graph as Graphviz DOT.
    Graph => spec(
        "graph",
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
}

/// The folds over a generator that are not functions too (`any`, `all`).
const FOLDS: &[Spec] = &[
    spec(
        "any",
        Generator,
        (1, 1),
        "a generator",
        &[("any(c for x in xs)", "whether c holds for some x")],
    )
    .sig(Sig::Fold),
    spec(
        "all",
        Generator,
        (1, 1),
        "a generator",
        &[("all(c for x in xs)", "whether c holds for every x")],
    )
    .sig(Sig::Fold),
];

/// Every entry: the builtins', then the folds'.
pub fn entries() -> impl Iterator<Item = &'static Spec> {
    SPECS.iter().chain(FOLDS)
}

/// The entry of a name.
pub fn lookup(name: &str) -> Option<&'static Spec> {
    entries().find(|s| s.name == name)
}

/// Whether a name is a builtin's (functions, queries and folds).
pub fn is_name(name: &str) -> bool {
    lookup(name).is_some()
}

/// Every builtin name.
pub fn names() -> impl Iterator<Item = &'static str> {
    entries().map(|s| s.name)
}

/// The `:help` lines of the builtins of these kinds, aligned.
pub fn help(kinds: &[Kind]) -> String {
    let lines: Vec<(&str, &str)> = entries()
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
            self.spec().sig,
            Sig::Position | Sig::Axes(Axes { misere: true, .. })
        )
    }

    /// Its entry.
    pub fn spec(self) -> &'static Spec {
        &SPECS[self as usize]
    }

    /// The builtin's name.
    pub fn name(self) -> &'static str {
        self.spec().name
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
