//! Any bytes as the language server's input: every frame is read or
//! reported, with no panic and no allocation a length alone asks for.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let mut input = std::io::BufReader::new(data);
    while let Ok(Some(_)) = grundy::lsp::transport::read(&mut input) {}
});
