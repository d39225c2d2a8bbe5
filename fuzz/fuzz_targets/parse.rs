//! Any text through the parser and the REPL's validator: no panic, no
//! stack overflow.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|text: &str| {
    let _ = grundy::syntax::is_incomplete(text);
    let _ = grundy::syntax::parse(text);
    let _ = grundy::syntax::parse_entry(text, 0);
});
