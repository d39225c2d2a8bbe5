//! The builtins' entries: one per variant, and signatures where they are declared.

use super::*;

/// Every variant reads its own entry, and every entry is a variant's or
/// a fold's.
#[test]
fn every_variant_has_its_entry() {
    assert_eq!(Builtin::ALL.len(), SPECS.len());
    for (i, &b) in Builtin::ALL.iter().enumerate() {
        assert_eq!(b as usize, i, "{b:?}");
        assert_eq!(b.spec().builtin, Some(b), "{b:?}");
        // A query that takes `misere` says so in its entry.
        assert_eq!(b.has_misere(), b.spec().takes.contains("misere"), "{b:?}");
    }
    assert!(FOLDS.iter().all(|s| s.builtin.is_none()));
}

/// The builtins whose signature is a shape the checker knows (overloads,
/// game names, ranges, a last `misere`); every other lists its arguments'
/// types, as many as its arity allows.
#[test]
fn signatures_are_declared_but_for_the_special_ones() {
    let special: Vec<&str> = entries()
        .filter(|s| s.builtin.is_some() && !matches!(s.sig, Sig::Args(..)))
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
    for s in entries() {
        if let Sig::Args(args, _) = s.sig {
            // The most arguments the arity allows are all typed.
            assert_eq!(args.len(), s.arity.1, "{}", s.name);
        }
    }
}

#[test]
fn every_builtin_has_one_entry() {
    for s in entries() {
        assert_eq!(
            entries().filter(|t| t.name == s.name).count(),
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
    assert!(Builtin::MisereGrundy.is_query() && !Builtin::MisereGrundy.is_report());
    assert!(Builtin::Describe.is_report() && !Builtin::Describe.is_query());
    assert!(!Builtin::Len.is_query() && !Builtin::Len.is_report());
}

/// A function of integers takes integers, as many as its function, and
/// gives one.
#[test]
fn functions_of_integers_say_so_in_their_signature() {
    let mut seen = 0;
    for s in entries() {
        let Some(f) = s.ints else { continue };
        seen += 1;
        let n = match f {
            (Ints::One(_), WideInts::One(_)) => 1,
            (Ints::Two(_), WideInts::Two(_)) => 2,
            _ => panic!(
                "{}: its 64-bit and wide functions take different counts",
                s.name
            ),
        };
        assert_eq!(s.arity, (n, n), "{}", s.name);
        assert!(
            matches!(s.sig, Sig::Args(args, Gives::Int) if args.iter().all(|a| a.0 == Arg::Int)),
            "{}",
            s.name
        );
    }
    assert!(seen >= 3);
}

/// A builtin is computed one way: by its function of integers, by its
/// function of values, or by the evaluator's own code.
#[test]
fn a_builtin_has_at_most_one_function() {
    for s in entries() {
        assert!(!(s.ints.is_some() && s.values.is_some()), "{}", s.name);
    }
    assert!(Builtin::Escapes.spec().values.is_some() && Builtin::Gcd.spec().ints.is_some());
}
