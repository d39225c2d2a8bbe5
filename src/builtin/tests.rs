//! The builtin table: one entry per variant, and signatures where they are declared.

use super::*;

/// Every variant has its own entry, so `spec` never falls back to another builtin's entry.
/// `index` numbers the variants with an exhaustive match, which stops
/// compiling when a variant is added; the list must then hold it too.
#[test]
fn every_variant_has_an_entry() {
    use Builtin as B;
    fn index(b: Builtin) -> usize {
        match b {
            B::Len => 0,
            B::Sum => 1,
            B::Min => 2,
            B::Max => 3,
            B::Abs => 4,
            B::Sorted => 5,
            B::Set => 6,
            B::Popcount => 7,
            B::Mex => 8,
            B::Grundy => 9,
            B::Outcome => 10,
            B::Moves => 11,
            B::Winning => 12,
            B::Table => 13,
            B::PPositions => 14,
            B::Describe => 15,
            B::MisereGrundy => 16,
            B::Graph => 17,
            B::Period => 18,
            B::Str => 19,
            B::Join => 20,
            B::InputInts => 21,
            B::Map => 22,
            B::Plot => 23,
            B::Xor => 24,
            B::Isqrt => 25,
            B::IsInfinite => 26,
            B::Escapes => 27,
            B::InputTokens => 28,
            B::InputLines => 29,
            B::Chars => 30,
            B::Int => 31,
            B::Ord => 32,
            B::Chr => 33,
            B::Play => 34,
            B::Components => 35,
            B::GridCanon => 36,
            B::Args => 37,
            B::Name => 38,
            B::Genus => 39,
            B::Quotient => 40,
            B::Bisect => 41,
            B::GridTurn => 42,
            B::Dict => 43,
            B::Counter => 44,
            B::Get => 45,
            B::Has => 46,
            B::Insert => 47,
            B::Keys => 48,
            B::Values => 49,
            B::Guess => 50,
        }
    }
    let all = [
        B::Guess,
        B::Dict,
        B::Counter,
        B::Get,
        B::Has,
        B::Insert,
        B::Keys,
        B::Values,
        B::Bisect,
        B::Quotient,
        B::Genus,
        B::InputTokens,
        B::InputLines,
        B::Chars,
        B::Int,
        B::Ord,
        B::Chr,
        B::Play,
        B::Components,
        B::GridCanon,
        B::GridTurn,
        B::Args,
        B::Name,
        B::IsInfinite,
        B::Escapes,
        B::Isqrt,
        B::Xor,
        B::Len,
        B::Sum,
        B::Min,
        B::Max,
        B::Abs,
        B::Sorted,
        B::Set,
        B::Popcount,
        B::Mex,
        B::Grundy,
        B::Outcome,
        B::Moves,
        B::Winning,
        B::Table,
        B::PPositions,
        B::Describe,
        B::MisereGrundy,
        B::Graph,
        B::Period,
        B::Str,
        B::Join,
        B::InputInts,
        B::Map,
        B::Plot,
    ];
    let mut indexes: Vec<usize> = all.iter().map(|&b| index(b)).collect();
    indexes.sort_unstable();
    assert_eq!(
        indexes,
        (0..all.len()).collect::<Vec<_>>(),
        "each variant once"
    );
    for b in all {
        assert!(
            TABLE.iter().any(|s| s.builtin == Some(b)),
            "{b:?} has no entry"
        );
        // A query that takes `misere` says so in its entry.
        assert_eq!(b.has_misere(), b.spec().takes.contains("misere"), "{b:?}");
    }
}

/// The builtins the checker checks by its own code (overloads, game
/// names, ranges, a last `misere`); every other declares its signature.
#[test]
fn signatures_are_declared_but_for_the_special_ones() {
    let special: Vec<&str> = TABLE
        .iter()
        .filter(|s| s.builtin.is_some() && matches!(s.sig, Sig::Special))
        .map(|s| s.name)
        .collect();
    assert_eq!(
        special,
        [
            "min",
            "max",
            "outcome",
            "winning",
            "table",
            "ppositions",
            "map",
            "plot",
            "describe",
            "period",
            "guess",
            "genus",
            "quotient"
        ]
    );
    for s in TABLE {
        if let Sig::Args(args, _) = s.sig {
            // The most arguments the arity allows are all typed.
            assert_eq!(args.len(), s.arity.1, "{}", s.name);
        }
    }
}

#[test]
fn every_builtin_has_one_entry() {
    for s in TABLE {
        assert_eq!(
            TABLE.iter().filter(|t| t.name == s.name).count(),
            1,
            "{}",
            s.name
        );
        if let Some(b) = s.builtin {
            assert_eq!(b.spec().name, s.name);
            assert_eq!(Builtin::by_name(s.name), Some(b));
        }
        assert!(s.arity.0 <= s.arity.1 && !s.help.is_empty(), "{}", s.name);
    }
    assert!(B::MisereGrundy.is_query() && !B::MisereGrundy.is_report());
    assert!(B::Describe.is_report() && !B::Describe.is_query());
    assert!(!B::Len.is_query() && !B::Len.is_report());
}
