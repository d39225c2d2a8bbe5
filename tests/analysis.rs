//! What the period and shape analysis claims, and what it refuses to
//! claim: rules written to look periodic where the reasoning must not
//! follow them, and period searches turned off. Run in process through a
//! `Session`, each answer or error as text.

fn session_events(
    src: &str,
    limits: grundy::eval::Limits,
) -> Vec<Result<grundy::answer::Answer, String>> {
    let mut s = grundy::session::Session::new(limits);
    let mut out = Vec::new();
    s.run("refuse.game", src, &mut |_, e| match e {
        grundy::session::Event::Answer(a) => out.push(Ok(a)),
        grundy::session::Event::Note(_) => {}
        grundy::session::Event::Error(d) | grundy::session::Event::Interrupted(d) => {
            out.push(Err(format!("{}: {}", d.code, d.message)))
        }
    });
    out
}

/// Rules written to look periodic where the reasoning must not follow them
/// (each from a review of the analysis).
#[test]
fn analysis_refuses_what_it_cannot_prove() {
    let text = |r: &Result<grundy::answer::Answer, String>| match r {
        Ok(a) => a.to_string(),
        Err(e) => format!("error {e}"),
    };
    // A take of 2^63 would wrap; moves below 0 change the values late.
    let out = session_events(
        "game S(n) = {\n  S(n - 9223372036854775807 - 1) if n >= 0\n  S(-1) if n < -1 and n >= -9223372036854775807 - 1 + 500\n}\n\
         print period(S, 1000)\nprint describe(S)\n",
        grundy::eval::Limits::default(),
    );
    assert!(text(&out[0]).contains("not proven"), "{}", text(&out[0]));
    assert!(
        text(&out[1]).contains("no take-and-break shape"),
        "{}",
        text(&out[1])
    );
    // A split that can leave G(0), when G(0) has moves: no one-heap family.
    let out = session_events(
        "game G(n) = { 0 if n == 0\n G(a) + G(n - 1 - a) for a in 0..n\n G(n - 2) if n >= 2 }\nprint describe(G)\n",
        grundy::eval::Limits::default(),
    );
    assert!(
        text(&out[0]).contains("has moves of its own"),
        "{}",
        text(&out[0])
    );
    // A move only at n = 5000: not "exactly" an octal code.
    let out = session_events(
        "game S(n) = { S(n - k) for k in [1, 2] if k <= n\n S(n - 3) if n == 5000 }\nprint describe(S)\n",
        grundy::eval::Limits::default(),
    );
    assert!(!text(&out[0]).contains("exactly"), "{}", text(&out[0]));
    // A parameter that is not an integer has no shape.
    let out = session_events(
        "game L(xs) = { 0 }\nprint describe(L)\n",
        grundy::eval::Limits::default(),
    );
    assert!(
        text(&out[0]).contains("not an integer"),
        "{}",
        text(&out[0])
    );
    // A cycle in misère play is reported, not searched forever.
    let out = session_events(
        "game C(n) = { C(1 - n) if n >= 0 and n <= 1 }\nprint outcome(C(0), misere)\n",
        grundy::eval::Limits::default(),
    );
    assert!(
        text(&out[0]).starts_with("error cycle"),
        "{}",
        text(&out[0])
    );
    // A huge position after a smaller search still gets the whole budget,
    // then a clear error.
    let out = session_events(
        "octal T = 0.007\nprint grundy(T(1500))\nprint grundy(T(10**18))\n",
        grundy::eval::Limits {
            period_budget: 2000,
            ..grundy::eval::Limits::default()
        },
    );
    assert!(
        text(&out[1]).starts_with("error too-large"),
        "{}",
        text(&out[1])
    );
}

#[test]
fn period_searches_can_be_turned_off() {
    let out = session_events(
        "octal K = 0.77\nprint period(K)\nprint grundy(K(10**18))\nprint grundy(K(500))\n",
        grundy::eval::Limits {
            period_budget: 0,
            ..grundy::eval::Limits::default()
        },
    );
    let text = |r: &Result<grundy::answer::Answer, String>| match r {
        Ok(a) => a.to_string(),
        Err(e) => format!("error {e}"),
    };
    assert!(
        text(&out[0]).starts_with("error bad-budget"),
        "{}",
        text(&out[0])
    );
    assert!(
        text(&out[1]).starts_with("error too-large"),
        "{}",
        text(&out[1])
    );
    // Kayles(500) = Kayles(71 + 429 mod 12) = Kayles(80) = 1 (OEIS A002186:
    // period 12 from n = 71), computed directly.
    assert_eq!(text(&out[2]), "grundy(K(500)) = 1\n");
}

/// Marking takes only games whose moves change two coordinates or more,
/// and sets aside a coordinate no move changes: positions with one large
/// argument that periods or the engine answer are answered as before (each
/// from a review of the marking).
#[test]
fn marking_leaves_other_positions_to_the_engine() {
    let text = |r: &Result<grundy::answer::Answer, String>| match r {
        Ok(a) => a.to_string(),
        Err(e) => format!("error {e}"),
    };
    let out = session_events(
        "game Sub(n, m) = { Sub(n - k, m) for k in [1, 2, 3] if n >= k }\n\
         print outcome(Sub(10**12, 5))\n\
         game Cap(n, c) = { Cap(n - k, c) for k in 1..=min(n, c) }\n\
         print outcome(Cap(50, 10**8))\n\
         game W3(a, b, c) = {\n\
             W3(a - k, b, c) for k in 1..=a\n\
             W3(a, b - k, c) for k in 1..=b\n\
             W3(a - k, b - k, c) for k in 1..=min(a, b)\n\
         }\n\
         print len(ppositions(W3(_, _, 10**9), 0..=2000, 0..=2000))\n\
         print outcome(W3(1618, 2618, 10**12))\n\
         print outcome(W3(1618, 2619, 10**12))\n",
        grundy::eval::Limits::default(),
    );
    // 10^12 = 4 (mod 4): a P-position of the subtraction game {1, 2, 3}.
    assert_eq!(
        text(&out[0]),
        "Sub(1000000000000, 5): second player wins (P), grundy 0\n"
    );
    assert_eq!(
        text(&out[1]),
        "Cap(50, 100000000): first player wins (N), grundy 50\n"
    );
    // Wythoff's P-positions with both below 2001: (⌊kφ⌋, ⌊kφ²⌋) for k up
    // to 764 and their mirrors.
    assert_eq!(
        text(&out[2]),
        "len(ppositions(W3(_, _, 10**9), 0..=2000, 0..=2000)) = 1529\n"
    );
    assert!(text(&out[3]).contains("(P)"), "{}", text(&out[3]));
    assert!(text(&out[4]).contains("(N)"), "{}", text(&out[4]));
}

/// A range of moves that leaves out a heap far up is refused (it would be
/// read one heap at a time), never read slowly.
#[test]
fn a_range_leaving_out_a_far_heap_has_no_shape() {
    let out = session_events(
        "game H(n) = { H(x) for x in 0..n if x != 2000000000 }\nprint describe(H)\n",
        grundy::eval::Limits::default(),
    );
    let Ok(a) = &out[0] else {
        panic!("{:?}", out[0])
    };
    assert!(
        a.to_string().contains("leaves out a heap or a take past"),
        "{a}"
    );
}

/// A box of 10^12 positions: marked, it would need a bit each (refused by
/// the memory limit, saying so); valued, a position each (refused by the
/// state limit before any is computed).
#[test]
fn a_box_of_a_trillion_positions_is_refused_at_once() {
    let out = session_events(
        "game W(a, b) = {\n W(a - k, b) for k in 1..=a\n W(a, b - k) for k in 1..=b\n \
         W(a - k, b - k) for k in 1..=min(a, b)\n}\n\
         game Q(a, b) = { Q(a - k * k, b) for k in 1..=isqrt(a)\n Q(a, b - k * k) for k in 1..=isqrt(b) }\n\
         print len(ppositions(W, 0..=10**6, 0..=10**6))\nprint len(ppositions(Q, 0..=10**6, 0..=10**6))\n",
        grundy::eval::Limits::default(),
    );
    let errors: Vec<&String> = out.iter().filter_map(|r| r.as_ref().err()).collect();
    assert_eq!(errors.len(), 2, "{out:?}");
    assert!(errors[0].starts_with("memory-limit: "), "{}", errors[0]);
    assert!(
        errors[1].starts_with("state-limit: this table of Q has 1000002000001 positions"),
        "{}",
        errors[1]
    );
}

/// The winning moves of a huge heap of a section (`K(_, 2)`, Kayles with
/// its take as a parameter) are grouped by residue from the section's
/// proven period, as a one-parameter game's are: each leaves a sum of
/// value 0, and they are Kayles's (the octal shorthand's, apart).
#[test]
fn winning_moves_of_a_huge_heap_of_a_section() {
    let out = session_events(
        "game K(n, r) = { K(a, r) + K(n - t - a, r) for t in 1..=r for a in 0..=n - t }\n\
         octal Kay = 0.77\n\
         let w = winning(K(10**9, 2) + K(5, 2))\n\
         print [grundy(m.after + K(5, 2)) for m in w if m.component == 0]\n\
         print [m.change for m in w]\n\
         print [m.change for m in winning(Kay(10**9) + Kay(5))]\n",
        grundy::eval::Limits::default(),
    );
    let text: Vec<String> = out
        .iter()
        .map(|r| match r {
            Ok(a) => a.to_string(),
            Err(e) => format!("error {e}"),
        })
        .collect();
    assert_eq!(text.len(), 3, "{text:?}");
    assert_eq!(
        text[0],
        "[grundy(m.after + K(5, 2)) for m in w if m.component == 0] = [0, 0]\n"
    );
    // The same moves of the huge heap, written with the section's
    // arguments; and one move of the small heap.
    let section = text[1].replace(", 2)", "").replace("K(", "");
    assert!(
        section.contains(
            "\"1000000000 → 3 + 999999995\", \"1000000000 → 39 + 999999959\", \"5 → 0 + 4\"]"
        ),
        "{text:?}"
    );
    assert!(
        text[2].ends_with(
            "[\"1000000000 → 3 + 999999995\", \"1000000000 → 39 + 999999959\", \"5 → 4\"]\n"
        ),
        "{text:?}"
    );
}
