//! Snapshot tests of rendered diagnostics: one case per user mistake.
//!
//! Each case runs a whole source text through a [`Session`] and snapshots the
//! source next to everything the run printed (answers and plain-style miette
//! reports) and its exit code, so that a reader of `tests/snapshots/` sees
//! what the user wrote and what they were told. Review a changed snapshot as
//! the user would: is the span on the right place, is the message clear, does
//! the help say how to fix it?
//!
//! Regenerate with `INSTA_UPDATE=always cargo test --release --test diagnostics`, then
//! review the `.snap` files.

use grundy::diagnostics::{Fault, Style, render};
use grundy::eval::Limits;
use grundy::session::{Event, Session};
use std::collections::BTreeSet;
use std::panic::{AssertUnwindSafe, catch_unwind};

/// Which limits a case runs under.
#[derive(Clone, Copy, Debug)]
enum Lim {
    /// `Limits::default()`.
    Default,
    /// Small limits, so that the limit cases fail fast.
    Small,
    /// A shallow search depth, for the depth-limit case.
    Shallow,
}

/// One user mistake: a descriptive name (the snapshot's name), the source the
/// user wrote, the limits, and the exit code the run must end with.
struct Case {
    name: &'static str,
    source: String,
    limits: Lim,
    exit: i32,
}

fn case(name: &'static str, source: &str, exit: i32) -> Case {
    Case {
        name,
        source: source.to_string(),
        limits: Lim::Default,
        exit,
    }
}

fn small(name: &'static str, source: &str, exit: i32) -> Case {
    Case {
        limits: Lim::Small,
        ..case(name, source, exit)
    }
}

/// Exit codes, as `Summary::exit_code` defines them.
const OK: i32 = 0;
const FAILED_CHECK: i32 = 1;
const ERRORS: i32 = 2;

fn cases() -> Vec<Case> {
    let deep = format!("print {}1{}\n", "(".repeat(200), ")".repeat(200));
    let mut cases = vec![
        // ---- a control: no mistake, no diagnostic ----
        case(
            "control_no_mistake",
            "game Kayles(n) = { Kayles(a) + Kayles(n - r - a) for r in 1..=2 for a in 0..=n - r }\n\
             print table(Kayles, 0..=20)\n\
             print outcome(Kayles(7) + Kayles(9))\n",
            OK,
        ),
        // ---- syntax ----
        case(
            "syntax_missing_closing_brace",
            "game Nim(n) = { Nim(k) for k in 0..n\nprint grundy(Nim(3))\n",
            ERRORS,
        ),
        case(
            "syntax_missing_in",
            "game Nim(n) = { Nim(k) for k 0..n }\nprint grundy(Nim(3))\n",
            ERRORS,
        ),
        case(
            "syntax_bad_token",
            "let S = [1, 3, 4]\nprint S $ 2\n",
            ERRORS,
        ),
        case(
            "syntax_unterminated_list",
            "let S = [1, 3, 4\ngame Sub(n) = { Sub(n - k) for k in S if k <= n }\n",
            ERRORS,
        ),
        case("syntax_stray_operator", "print 1 + * 2\n", ERRORS),
        case(
            "syntax_keyword_as_name",
            "game Nim(in) = { Nim(k) for k in 0..in }\n",
            ERRORS,
        ),
        case(
            "syntax_keyword_as_let_name",
            "let for = 3\nprint for\n",
            ERRORS,
        ),
        case(
            "syntax_single_equals_in_condition",
            "game Sub(n) = { Sub(n - 1) if n = 1 }\n",
            ERRORS,
        ),
        case(
            "syntax_double_ampersand",
            "game W(a, b) = { W(a - 1, b - 1) if a > 0 && b > 0 }\n",
            ERRORS,
        ),
        case(
            "syntax_missing_comma_in_params",
            "game W(a b) = { W(a - 1, b) if a > 0 }\n",
            ERRORS,
        ),
        case(
            "syntax_unclosed_call",
            "game Nim(n) = { Nim(k) for k in 0..n }\nprint grundy(Nim(3)\n",
            ERRORS,
        ),
        case(
            "syntax_game_without_equals",
            "game Nim(n) { Nim(k) for k in 0..n }\n",
            ERRORS,
        ),
        case("syntax_too_deep_nesting", &deep, ERRORS),
        case(
            "syntax_misspelled_keyword",
            "gmae Nim(n) = { Nim(k) for k in 0..n }\n",
            ERRORS,
        ),
        case(
            "syntax_query_without_print",
            "game Nim(n) = { Nim(k) for k in 0..n }\ngrundy(Nim(3))\n",
            ERRORS,
        ),
        case("syntax_single_quoted_string", "print 'hello'\n", ERRORS),
        // Habits from other languages.
        case("habit_braces_for_a_list", "let S = {1, 2}\n", ERRORS),
        case("habit_xor_operator", "print 3 xor 5\n", ERRORS),
        case(
            "habit_range_function",
            "print [x for x in range(1, 3)]\n",
            ERRORS,
        ),
        case(
            "habit_misspelled_misere",
            "game Nim(n) = { Nim(k) for k in 0..n }\nprint outcome(Nim(3), misre)\n",
            ERRORS,
        ),
        case(
            "syntax_unicode_operator",
            "game Sub(n) = { Sub(n - k) for k in [1, 2] if k \u{2264} n }\n",
            ERRORS,
        ),
        case("syntax_empty_print", "print 1\nprint\n", ERRORS),
        Case {
            limits: Lim::Shallow,
            ..case(
                "missing_guard_runs_too_deep",
                "let S = [1, 3, 4]\ngame Sub(n) = { Sub(n - k) for k in S }\nprint grundy(Sub(10))\n",
                ERRORS,
            )
        },
        // Past 0 the positions are in a table, listed by kernels: the label
        // still names the rule that goes on (the second).
        Case {
            limits: Lim::Shallow,
            ..case(
                "missing_guard_in_the_second_rule",
                "game G(n) = {\n    G(n - 2) if n >= 2\n    G(n - 1)\n}\nprint grundy(G(10))\n",
                ERRORS,
            )
        },
        // Deep and decreasing, too wide for the dense arrays (no bottom-up
        // fill): no guard is missing, the game is this deep.
        Case {
            limits: Lim::Shallow,
            ..case(
                "a_decreasing_game_deeper_than_the_limit",
                "game D(a, b) = { D(a, b - 1) if b > 0 }\nprint grundy(D(100000, 600))\n",
                ERRORS,
            )
        },
        // i64::MIN is writable as a literal under a minus sign.
        case("literal_i64_min", "print -9223372036854775808\n", OK),
        case(
            "literal_too_large",
            "print 99999999999999999999 + 1\n",
            ERRORS,
        ),
        // ---- names ----
        case(
            "unknown_game_did_you_mean",
            "game Kayles(n) = { Kayles(a) + Kayles(n - r - a) for r in 1..=2 for a in 0..=n - r }\n\
             print grundy(Kayels(10))\n",
            ERRORS,
        ),
        case(
            "unknown_game_in_table",
            "game Kayles(n) = { Kayles(a) + Kayles(n - r - a) for r in 1..=2 for a in 0..=n - r }\n\
             print table(kayles, 0..=20)\n",
            ERRORS,
        ),
        case(
            "unknown_variable",
            "game Sub(n) = { Sub(n - k) for k in S if k <= n }\nprint grundy(Sub(10))\n",
            ERRORS,
        ),
        case(
            "unknown_variable_did_you_mean",
            "game Nim(heap) = { Nim(k) for k in 0..heaps }\n",
            ERRORS,
        ),
        case(
            "unknown_builtin_did_you_mean",
            "print lenn([1, 2, 3])\n",
            ERRORS,
        ),
        case(
            "duplicate_definition",
            "let S = [1, 3, 4]\nlet S = [1, 2]\nprint S\n",
            ERRORS,
        ),
        case(
            "duplicate_game_definition",
            "game Nim(n) = { Nim(k) for k in 0..n }\ngame Nim(n) = { Nim(n - 1) if n > 0 }\n",
            ERRORS,
        ),
        case(
            "duplicate_parameter",
            "game W(a, a) = { W(a - 1, a) if a > 0 }\n",
            ERRORS,
        ),
        case("constant_cycle", "let a = b\nlet b = a\nprint a\n", ERRORS),
        case(
            "let_clause_used_later",
            "print x for x in 0..3\n    let good = x + 1\nprint good\n",
            ERRORS,
        ),
        case(
            "let_at_line_start_names_a_loop_variable",
            "print x for x in 0..3\nlet good = x + 1\nprint good\n",
            ERRORS,
        ),
        case(
            "constant_defined_by_itself",
            "let n = n + 1\nprint n\n",
            ERRORS,
        ),
        case(
            "redefine_builtin_as_constant",
            "let len = 3\nprint len\n",
            OK,
        ),
        case(
            "redefine_builtin_as_game",
            "game max(n) = { max(n - 1) if n > 0 }\nprint grundy(max(3))\nprint len([1, 2])\n",
            OK,
        ),
        case(
            "builtin_not_called",
            "let S = [1, 3, 4]\nprint len\n",
            ERRORS,
        ),
        case(
            "call_a_variable",
            "game G(n) = { G(n(1)) if n > 0 }\n",
            ERRORS,
        ),
        // ---- arity ----
        case(
            "wrong_arity_game",
            "game Wythoff(a, b) = {\n    Wythoff(a - k, b) for k in 1..=a\n    Wythoff(a, b - k) for k in 1..=b\n}\n\
             print grundy(Wythoff(3))\n",
            ERRORS,
        ),
        case(
            "wrong_arity_game_in_rule",
            "game Nim(n) = { Nim(k, n) for k in 0..n }\n",
            ERRORS,
        ),
        case("wrong_arity_builtin", "print abs(1, 2)\n", ERRORS),
        case("wrong_arity_builtin_no_args", "print popcount()\n", ERRORS),
        case(
            "wrong_arity_table_axes",
            "game Wythoff(a, b) = { Wythoff(a - k, b) for k in 1..=a }\n\
             print table(Wythoff, 0..5)\n",
            ERRORS,
        ),
        case(
            "generator_to_non_generator_builtin",
            "print len(k for k in 0..10)\n",
            ERRORS,
        ),
        // ---- types ----
        case(
            "type_list_where_int_expected",
            "let S = [1, 3, 4]\nprint S + 1\n",
            ERRORS,
        ),
        case(
            "type_list_as_game_argument",
            "let S = [1, 3, 4]\ngame Sub(n) = { Sub(n - k) for k in S if k <= n }\nprint grundy(Sub(S))\n",
            ERRORS,
        ),
        case(
            "type_int_condition",
            "game Nim(n) = { Nim(k) for k in 0..n if k % 2 }\n",
            ERRORS,
        ),
        case(
            "type_position_in_arithmetic",
            "game Nim(n) = { Nim(k) for k in 0..n }\nprint Nim(3) * 2\n",
            ERRORS,
        ),
        case(
            "type_int_as_move",
            "game Sub(n) = { n - 1 if n > 0 }\n",
            ERRORS,
        ),
        case(
            "type_iterate_over_bool",
            "game Nim(n) = { Nim(k) for k in n > 0 }\n",
            ERRORS,
        ),
        case(
            "type_game_name_as_value",
            "game Nim(n) = { Nim(k) for k in 0..n }\nprint grundy(Nim)\n",
            ERRORS,
        ),
        case("type_int_as_position_in_query", "print grundy(3)\n", ERRORS),
        case(
            "type_compare_positions",
            "game Nim(n) = { Nim(k) for k in 0..n }\nprint Nim(1) == Nim(1)\n",
            ERRORS,
        ),
        case("type_table_of_non_game", "print table(3, 0..5)\n", ERRORS),
        case(
            "type_check_condition_not_bool",
            "game Nim(n) = { Nim(k) for k in 0..n }\ncheck grundy(Nim(n)) for n in 0..10\n",
            ERRORS,
        ),
        case(
            "unknown_name_in_check",
            "game Nim(n) = { Nim(k) for k in 0..n }\ncheck grundy(Nim(m)) == m for n in 0..10\n",
            ERRORS,
        ),
        case(
            "report_inside_expression",
            "game Nim(n) = { Nim(k) for k in 0..n }\nprint outcome(Nim(1)) == 1\n",
            ERRORS,
        ),
        case(
            "query_inside_rule",
            "game G(n) = { G(k) for k in 0..n if grundy(G(k)) == 0 }\n",
            ERRORS,
        ),
        // ---- runtime ----
        case(
            "overflow_in_rule",
            "game Sq(n) = { Sq(n * n) if n > 1 }\nprint grundy(Sq(2))\n",
            ERRORS,
        ),
        case(
            "overflow_in_constant",
            "let big = 2 ** 65535\nlet bigger = big * 2\nprint bigger\n",
            ERRORS,
        ),
        case(
            "division_by_zero_in_rule",
            "game Half(n) = { Half(n / k) for k in 0..n }\nprint grundy(Half(3))\n",
            ERRORS,
        ),
        case("remainder_by_zero", "let m = 0\nprint 7 % m\n", ERRORS),
        // A loop filtered by a constant list, past the list's end: the
        // filter reads the list where it can, and the rest runs as written.
        case(
            "filter_past_the_list",
            "let marks = [i % 2 == 0 for i in 0..300]\nprint len([i for i in 0..400 if marks[i]])\n",
            ERRORS,
        ),
        // A map has two axes: a slice with one parameter free is not one.
        case(
            "map_of_one_free_parameter",
            "game G(a, b, k) = { G(a - 1, b, k) for i in [1] if a > 0 }\nprint map(G(_, 2, 1), 0..=3, 0..=3)\n",
            ERRORS,
        ),
        case(
            "table_of_two_free_parameters_with_one_range",
            "game G(a, b, k) = { G(a - 1, b, k) for i in [1] if a > 0 }\nprint table(G(_, _, 1), 0..=3)\n",
            ERRORS,
        ),
        // A table kernel's divisors start at 1: from 0, the rule runs as
        // written, and says so.
        case(
            "remainder_by_zero_in_divisor_rule",
            "game D(n) = { D(n - d) for d in 0..n if n % d == 0 }\nprint grundy(D(300))\n",
            ERRORS,
        ),
        case(
            "index_out_of_range_in_rule",
            "let edges = [[1, 2], [3], [3]]\ngame Token(v) = { Token(w) for w in edges[v] }\n\
             print grundy(Token(0))\n",
            ERRORS,
        ),
        case("negative_index", "let S = [1, 3, 4]\nprint S[-1]\n", ERRORS),
        case(
            "string_index_past_the_end",
            "let w = \"abc\"\nprint w[3]\n",
            ERRORS,
        ),
        case(
            "slice_past_the_end",
            "let xs = [1, 2]\nprint xs[1..=2]\n",
            ERRORS,
        ),
        case("index_of_an_integer", "let n = 5\nprint n[0]\n", ERRORS),
        case("ord_of_a_word", "print ord(\"ab\")\n", ERRORS),
        case("int_of_a_word", "print int(\"12a\")\n", ERRORS),
        case("chr_of_a_surrogate", "print chr(55296)\n", ERRORS),
        case("negative_shift", "print 1 << -1\n", ERRORS),
        case("shift_too_far", "let k = 65536\nprint 1 << k\n", ERRORS),
        case("negative_exponent", "print 2 ** -1\n", ERRORS),
        case("min_of_empty_list", "print min([])\n", ERRORS),
        case(
            "max_of_empty_generator",
            "print max(k for k in 0..10 if k > 20)\n",
            ERRORS,
        ),
        case("popcount_of_negative", "print popcount(-5)\n", ERRORS),
        case(
            "escapes_of_a_finite_value",
            "game Nim(n) = { Nim(k) for k in 0..n }\nprint escapes(grundy(Nim(3)))\n",
            ERRORS,
        ),
        case(
            "wide_integer_where_64_bits_are_needed",
            "let xs = [1, 2]\nprint gcd(-9223372036854775808, 0)\nprint xs[2 ** 64]\n",
            ERRORS,
        ),
        case(
            "cycle_two_positions",
            "game Loop(n) = { Loop(1 - n) }\nprint grundy(Loop(0))\n",
            ERRORS,
        ),
        // A board's options are listed at once by its kernels: the label
        // still names the rule that closes the cycle (the second).
        case(
            "cycle_on_a_board",
            "game B(m) = {\n    B(m | 1) if m == 2\n    B(m ^ 1) if m == 3\n}\nprint grundy(B(2))\n",
            ERRORS,
        ),
        case(
            "cycle_self_loop",
            "game Stay(n) = { Stay(n) if n > 0 }\nprint outcome(Stay(3))\n",
            ERRORS,
        ),
        small(
            "state_limit",
            "game Up(n) = { Up(n + 1) if n < 100000 }\nprint grundy(Up(0))\n",
            ERRORS,
        ),
        small(
            "list_limit",
            "let xs = [k * k for k in 0..5000]\nprint len(xs)\n",
            ERRORS,
        ),
        small(
            "state_limit_wide_position",
            "game Wide(n) = { Wide(k) for k in 0..n if k != n / 2 }\nprint grundy(Wide(100000))\n",
            ERRORS,
        ),
        small(
            "list_limit_in_rule",
            "game G(n) = { G(k) for k in [j for j in 0..n] }\nprint grundy(G(5000))\n",
            ERRORS,
        ),
        small(
            "list_limit_sum_of_equal_components",
            "game T(x) = { T(y) for y in 1..x if x % y == 0 }\nprint outcome(sum(T(5) for i in 0..5000), misere)\n",
            ERRORS,
        ),
        small(
            "list_limit_table_range",
            "game Nim(n) = { Nim(k) for k in 0..n }\nprint table(Nim, 0..=5000)\n",
            ERRORS,
        ),
        // ---- checks and several errors ----
        case(
            "check_failed",
            "game Nim(n) = { Nim(k) for k in 0..n }\ncheck grundy(Nim(n)) == n % 4 for n in 0..100\n",
            FAILED_CHECK,
        ),
        case(
            "check_passed_then_failed",
            "game Sub(n) = { Sub(n - k) for k in [1, 2] if k <= n }\n\
             check grundy(Sub(n)) == n % 3 for n in 0..100\n\
             check grundy(Sub(n)) == n % 2 for n in 0..100\n",
            FAILED_CHECK,
        ),
        case(
            "several_check_errors_collected",
            "let S = [1, 3, 4]\n\
             game Sub(n) = { Sub(n - k) for k in S if k <= n }\n\
             game Wythoff(a, b) = { Wythoff(a - k, b) for k in 1..=a }\n\
             print grundy(Sbu(10))\n\
             print grundy(Wythoff(3))\n\
             print S + 1\n\
             print len(S, S)\n",
            ERRORS,
        ),
        case(
            "several_syntax_errors",
            "print 1 +\nprint 2\ngame Nim(n) = { Nim(k) for k 0..n }\n",
            ERRORS,
        ),
        case(
            "constant_error_among_prints",
            "print 1 + 1\nlet zero = 0\nlet bad = 10 / zero\nprint 2 + 2\nprint bad\n",
            ERRORS,
        ),
        case(
            "argument_types_decided_by_the_first_call",
            "game G(n) = { 0 }\nprint G(true) + G(1)\n",
            ERRORS,
        ),
        case(
            "byte_order_mark_is_skipped",
            "\u{feff}let S = [1, 3, 4]\nprint S\nprint S + 1\n",
            ERRORS,
        ),
        case(
            "crlf_line_endings",
            "let S = [1, 3, 4]\r\n# a comment\r\nprint S + 1\r\n",
            ERRORS,
        ),
        case(
            "runtime_errors_between_answers",
            "game Nim(n) = { Nim(k) for k in 0..n }\n\
             let xs = [3, 5]\n\
             print grundy(Nim(3))\n\
             print xs[2]\n\
             print outcome(Nim(3) + Nim(3))\n\
             print 1 / (xs[0] - 3)\n",
            ERRORS,
        ),
        // ---- functions ----
        case(
            "rule_calls_a_function_that_asks",
            "game Nim(n) = { Nim(k) for k in 0..n }\nlet v(n) = grundy(Nim(n))\n\
             let w(n) = v(n) * 2\ngame G(n) = { G(n - 1) if w(n) > 3 }\nprint grundy(G(5))\n",
            ERRORS,
        ),
        case(
            "function_constant_cycle",
            "let a = f(1)\nlet f(x) = g(x) + 1\nlet g(x) = a + x\nprint a\n",
            ERRORS,
        ),
        case(
            "function_misuse",
            "let f(x) = x + 1\nprint f(1, 2)\nprint f + 1\nprint f([1])\nlet g(x, x) = x\n",
            ERRORS,
        ),
        // ---- strings ----
        case(
            "string_unknown_escape",
            "print \"a\\qb\"\nprint \"ok\"\n",
            ERRORS,
        ),
        case("string_unterminated", "print \"First\nprint 2\n", ERRORS),
        case(
            "string_in_arithmetic",
            "let s = \"3\"\nprint s * 2\nprint s < \"4\"\n",
            ERRORS,
        ),
        case(
            "isqrt_of_a_negative_number",
            "let n = 3\nprint isqrt(n - 5)\nprint isqrt(n)\n",
            ERRORS,
        ),
        // ---- lists ----
        case(
            "list_joined_with_an_integer",
            "let xs = [1, 2]\nprint xs + 3\nprint 3 + xs\nprint xs + [3]\n",
            ERRORS,
        ),
        // ---- shorthands and periods ----
        case(
            "octal_bad_digits",
            "octal A = d.79\noctal B = 12.3\noctal C = 3.07\nprint grundy(A(3))\n",
            ERRORS,
        ),
        case(
            "subtraction_bad_set",
            "subtraction S = {0, 2, 5, 2}\n",
            ERRORS,
        ),
        case(
            "period_needs_one_parameter",
            "game W(a, b) = { W(a - 1, b) if a > 0 }\nprint period(W)\nprint describe(3)\n",
            ERRORS,
        ),
        case(
            "guess_bad_budgets_and_draws",
            "game Nim(n) = { Nim(k) for k in 0..n }\n\
             loopy game Draw(n) = { Draw(n % 2 + 1) }\n\
             print guess(Nim, 0)\n\
             print guess(Nim, 10**18)\n\
             print guess(Draw)\n\
             print guess(Nim, 1)\n",
            ERRORS,
        ),
        case(
            "a_table_past_the_state_limit",
            "game Q(a, b) = { Q(a - k * k, b) for k in 1..=isqrt(a)\n                 Q(a, b - k * k) for k in 1..=isqrt(b) }\n\
             print ppositions(Q, 0..=10**6, 0..=10**6)\n\
             print ppositions(Q, 0..=3, 0..=3)\n",
            ERRORS,
        ),
        case(
            "guess_needs_one_to_three_integer_parameters",
            "game F(a, b, c, d) = { F(a - 1, b, c, d) if a > 0 }\n\
             game B(flag) = { B(false) if flag }\n\
             print guess(F)\n\
             print guess(B)\n",
            ERRORS,
        ),
        case(
            "misere_and_graph_of_a_huge_heap",
            "octal K = 0.77\nprint outcome(K(10**18), misere)\nprint graph(K(2**40))\nprint outcome(K(3), misere)\n",
            ERRORS,
        ),
        case(
            "args_of_a_sum",
            "game Nim(n) = { Nim(k) for k in 0..n }\nprint args(Nim(2))\nprint args(Nim(1) + Nim(2))\n",
            ERRORS,
        ),
        // ---- boards: split and canonical ----
        case(
            "board_canonical_of_another_game",
            "game Nim(n) = { Nim(k) for k in 0..n }\n\
             game G(n) = { G(n - 1) if n > 0 }\n    canonical Nim(n)\n\
             print grundy(G(3))\n",
            ERRORS,
        ),
        case(
            "board_split_in_a_loopy_game",
            "loopy game L(n) = { L(1 - n) }\n    split L(n) + L(n)\nprint grundy(L(0))\n",
            ERRORS,
        ),
        case(
            "prefer_without_split",
            "game G(m) = { G(m & (m - 1)) if m > 0 }\n    prefer m % 2 == 0\nprint grundy(G(7))\n",
            OK,
        ),
        case(
            "prefer_that_is_not_a_condition",
            "game G(m) = { G(m & (m - 1)) if m > 0 }\n    split G(m)\n    prefer m + 1\nprint grundy(G(7))\n",
            ERRORS,
        ),
        case(
            "prefer_that_fails_counts_as_false",
            "game G(m) = { G(m - 1) if m > 0 }\n    split G(m)\n    prefer 10 / (m - 3) > 0\nprint grundy(G(6))\n",
            OK,
        ),
        case(
            "board_cell_off_the_grid",
            "print grid_canon(1 << 12, 3, 4)\nprint components(5, [2, 5])\nprint grid_canon(3, 8, 8)\nprint grid_turn(-1, 3, 3)\n",
            ERRORS,
        ),
        small(
            "huge_position_without_a_proven_period",
            "octal T = 0.007\nprint grundy(T(10**18))\n",
            ERRORS,
        ),
        case(
            "cycle_through_many_equal_components",
            "game G(n) = { sum(G(n) for i in 0..64) }\nprint grundy(G(0))\n",
            ERRORS,
        ),
        case(
            "memo_before_a_constant",
            "let memo limit = 10\nlet memo(5) f(n) = n + limit\nprint f(1)\n",
            ERRORS,
        ),
        case(
            "huge_position_of_a_section_without_a_proven_period",
            "game T(n, c) = { T(a, c) + T(n - c - a, c) for a in 0..=n - c }\nprint grundy(T(10**18, 3))\n",
            ERRORS,
        ),
    ];
    cases.sort_by_key(|c| c.name);
    cases
}

/// Runs one case: the snapshot text and the exit code.
fn run(case: &Case) -> (String, i32) {
    let limits = match case.limits {
        Lim::Default => Limits::default(),
        Lim::Small => Limits {
            max_states: 1000,
            max_list: 1000,
            ..Limits::default()
        },
        Lim::Shallow => Limits {
            max_depth: 500,
            ..Limits::default()
        },
    };
    let mut session = Session::new(limits);
    let mut out = String::new();
    let mut bugs = Vec::new();
    let summary = session.run("case.game", &case.source, &mut |sess, ev| match ev {
        Event::Answer(a) => out.push_str(&a.to_string()),
        Event::Note(_) => {}
        Event::Error(d) | Event::Interrupted(d) => {
            if d.fault == Fault::Bug {
                bugs.push(d.message.clone());
            }
            out.push_str(&render(&d, sess.sources(), Style::Plain));
        }
    });
    assert!(
        bugs.is_empty(),
        "{}: a user mistake was reported as an internal error: {bugs:?}",
        case.name
    );
    let exit = summary.exit_code();
    let text = format!(
        "SOURCE:\n{}\n\nOUTPUT (exit {exit}):\n{}",
        case.source.trim_end(),
        out.trim_end()
    );
    (text, exit)
}

#[test]
fn diagnostics() {
    let cases = cases();
    let names: BTreeSet<&str> = cases.iter().map(|c| c.name).collect();
    assert_eq!(names.len(), cases.len(), "case names must be distinct");

    let mut failed = Vec::new();
    for case in &cases {
        let result = catch_unwind(AssertUnwindSafe(|| {
            let (text, exit) = run(case);
            insta::assert_snapshot!(case.name, text);
            assert_eq!(exit, case.exit, "{}: exit code", case.name);
        }));
        if result.is_err() {
            failed.push(case.name);
        }
    }
    assert!(failed.is_empty(), "failed cases: {failed:?}");
}

/// Every stored snapshot belongs to a case: a renamed or deleted case must
/// not leave its old snapshot behind.
#[test]
fn no_orphan_snapshots() {
    let cases = cases();
    let names: BTreeSet<String> = cases
        .iter()
        .map(|c| format!("diagnostics__{}.snap", c.name))
        .collect();
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/snapshots");
    let Ok(entries) = std::fs::read_dir(&dir) else {
        return;
    };
    for entry in entries.flatten() {
        let file = entry.file_name().to_string_lossy().into_owned();
        if file.starts_with("diagnostics__") && file.ends_with(".snap") {
            assert!(names.contains(&file), "orphan snapshot {file}");
        }
    }
}
