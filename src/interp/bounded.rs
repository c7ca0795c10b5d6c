//! Running any text with bounds, as the fuzz targets and their regression test do: a fresh
//! interpreter with its output discarded, on a thread with the `arrsh` binary's stack, stopped
//! through its Ctrl-C flag once it has run for a time limit.

use std::sync::mpsc::{channel, RecvTimeoutError};
use std::time::Duration;

use super::Interpreter;
use crate::error::Result;

/// Runs `text`; its error (if any) is rendered too, as the binary would. Panics only if
/// arrsh panics, which is what the callers look for.
pub fn run_bounded(text: &str, time_limit: Duration) -> Result<()> {
    let text = text.to_string();
    let (flag_sender, flag) = channel();
    let (done_sender, done) = channel();
    let worker = std::thread::Builder::new()
        .stack_size(crate::cli::INTERPRETER_STACK_BYTES)
        .spawn(move || {
            let mut interp = Interpreter::new(Box::new(std::io::sink()), Box::new(std::io::sink()));
            let _ = flag_sender.send(interp.interrupt_flag());
            let result = interp.run_source("<bounded>", &text, true);
            if let Err(error) = &result {
                interp.sources.render(error, false);
            }
            let _ = done_sender.send(());
            result
        })
        .expect("a thread for the program");
    let flag = flag.recv().expect("the program's interrupt flag");
    if let Err(RecvTimeoutError::Timeout) = done.recv_timeout(time_limit) {
        flag.store(true, std::sync::atomic::Ordering::Relaxed);
    }
    worker
        .join()
        .unwrap_or_else(|panic| std::panic::resume_unwind(panic))
}
