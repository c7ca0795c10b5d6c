//! What the fuzz targets and their regression test do with any text: parse it and check the
//! error's position; run it in a fresh interpreter with its output discarded (or kept, to compare
//! two runs), on a thread with the `arrsh` binary's stack, stopped through its Ctrl-C flag once it
//! has run for a time limit.

use std::io::Write;
use std::sync::mpsc::{channel, RecvTimeoutError};
use std::sync::{Arc, Mutex};
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
    run(text, time_limit, true, || Box::new(std::io::sink())).0
}

/// Runs `text` as `run_bounded` does, with fusion on or off (as `--no-fuse`), and returns
/// everything it printed followed by its rendered error, and whether the time limit interrupted it.
pub fn run_bounded_capturing(
    text: &str,
    time_limit: Duration,
    fusion: bool,
) -> (Result<()>, String, bool) {
    let printed = Captured::default();
    let writer = printed.clone();
    let (result, interrupted) = run(text, time_limit, fusion, move || Box::new(writer.clone()));
    let text = String::from_utf8_lossy(&printed.0.lock().expect("the captured output")).into();
    (result, text, interrupted)
}

/// Output shared between the program's thread, which writes it, and the caller.
#[derive(Clone, Default)]
struct Captured(Arc<Mutex<Vec<u8>>>);

impl Write for Captured {
    fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
        self.0
            .lock()
            .expect("the captured output")
            .extend_from_slice(bytes);
        Ok(bytes.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

/// Runs `text` on its own thread with `output()` as both its output and its error stream,
/// interrupting it after `time_limit`; the result, and whether it was interrupted.
fn run(
    text: &str,
    time_limit: Duration,
    fusion: bool,
    output: impl Fn() -> Box<dyn Write> + Send + 'static,
) -> (Result<()>, bool) {
    let text = text.to_string();
    let (flag_sender, flag) = channel();
    let (done_sender, done) = channel();
    let worker = std::thread::Builder::new()
        .stack_size(super::INTERPRETER_STACK_BYTES)
        .spawn(move || {
            let mut interp = Interpreter::new(output(), output());
            let _ = flag_sender.send(interp.interrupt_flag());
            let result = crate::plan::set_fusion(fusion)
                .and_then(|()| interp.run_source("<bounded>", &text, true));
            if let Err(error) = &result {
                let rendered = interp.sources.render(error, false);
                let _ = writeln!(output(), "{rendered}");
            }
            let _ = done_sender.send(());
            result
        })
        .expect("a thread for the program");
    let flag = flag.recv().expect("the program's interrupt flag");
    let interrupted = matches!(
        done.recv_timeout(time_limit),
        Err(RecvTimeoutError::Timeout)
    );
    if interrupted {
        flag.store(true, std::sync::atomic::Ordering::Relaxed);
    }
    let result = worker
        .join()
        .unwrap_or_else(|panic| std::panic::resume_unwind(panic));
    (result, interrupted)
}
