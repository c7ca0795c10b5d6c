use clap::Parser;

#[global_allocator]
static ALLOCATOR: arrsh::device::cpu::retain::RetainLarge = arrsh::device::cpu::retain::RetainLarge;

fn main() {
    let options = arrsh::cli::Options::parse();
    let status = std::thread::Builder::new()
        .stack_size(arrsh::interp::INTERPRETER_STACK_BYTES)
        .spawn(move || arrsh::cli::run(options))
        .and_then(|thread| {
            thread
                .join()
                .map_err(|_| std::io::Error::other("the interpreter thread failed"))
        })
        .unwrap_or(1);
    std::process::exit(status);
}
