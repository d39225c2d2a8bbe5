//! Programs through the parser and the checker, as a file and as REPL
//! entries: no panic, and what the checker accepts compiles to IR. Half the
//! inputs are text, half are programs built from the grammar (so the
//! checker sees well-formed programs, not only syntax errors).
#![no_main]

use grundy_fuzz::Input;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|input: Input| {
    let text = input.text();
    if let Ok(program) = grundy::syntax::parse(&text) {
        let _ = grundy::check::check(&program);
    }
    grundy_fuzz::check_as_file(&text);
});
