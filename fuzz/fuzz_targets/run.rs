//! Programs run with small limits: no panic, no stack overflow, no
//! allocation failure, and every statement ends (at a limit if need be).
#![no_main]

use grundy_fuzz::Input;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|input: Input| {
    grundy_fuzz::run_small(&input.text());
});
