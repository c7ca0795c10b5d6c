//! What the fuzz targets and their regression test do with any text: parse it and check the
//! error's position; run it in a fresh interpreter with its output discarded, on a thread with
//! the `arrsh` binary's stack, stopped through its Ctrl-C flag once it has run for a time limit.

use std::sync::mpsc::{channel, RecvTimeoutError};
use std::time::Duration;

use super::Interpreter;
use crate::error::{Result, SourceMap};

/// Parses `text`: a program, or a syntax error that lies in the text and renders. Says what is
/// wrong otherwise.
pub fn check_parse(text: &str) -> std::result::Result<(), String> {
    let mut sources = SourceMap::default();
    let id = sources.add("<fuzz>", text);
    let Err(error) = crate::syntax::parse(text, id) else {
        return Ok(());
    };
    match error.span {
        Some(span) if span.start <= span.end && span.start as usize <= text.len() => {
            sources.render(&error, true);
            Ok(())
        }
        other => Err(format!("a syntax error at {other:?}: {}", error.message)),
    }
}

/// Runs `text`; its error (if any) is rendered too, as the binary would. Panics only if
/// arrsh panics, which is what the callers look for.
pub fn run_bounded(text: &str, time_limit: Duration) -> Result<()> {
    let text = text.to_string();
    let (flag_sender, flag) = channel();
    let (done_sender, done) = channel();
    let worker = std::thread::Builder::new()
        .stack_size(super::INTERPRETER_STACK_BYTES)
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
