//! The `grundy` binary: runs the command line on a thread with a large stack,
//! so deeply nested (but legal) input cannot overflow it.

#[global_allocator]
static ALLOC: grundy::memory::Counting = grundy::memory::Counting;

fn main() {
    grundy::memory::enable();
    let worker = std::thread::Builder::new()
        .name("grundy".into())
        .stack_size(grundy::flow::ENGINE_STACK)
        .spawn(grundy::cli::main);
    let code = match worker.map(|h| h.join()) {
        Ok(Ok(code)) => code,
        _ => {
            let _ = std::io::Write::write_all(
                &mut std::io::stderr(),
                b"grundy: internal error (a bug in grundy): the worker thread failed\n",
            );
            3
        }
    };
    std::process::exit(code);
}
