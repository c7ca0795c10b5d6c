//! Any text, run by a fresh interpreter: a result or a clean error, never a panic or an abort.
//! Arrays and strings are capped at 16 MB and a program is interrupted (as Ctrl-C would) after
//! 200 ms, so that the fuzzer spends its time on many programs rather than on a few big ones.
//! Each program runs on a thread with the stack the `arrsh` binary gives its interpreter.
#![no_main]

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{channel, Receiver, Sender};
use std::sync::{Arc, Mutex, OnceLock};
use std::time::Duration;

use arrsh::interp::Interpreter;
use libfuzzer_sys::fuzz_target;

const TIME_LIMIT: Duration = Duration::from_millis(200);
const MEMORY_LIMIT: u64 = 16 << 20;

struct Worker {
    programs: Sender<String>,
    done: Receiver<()>,
    interrupt: Receiver<Arc<AtomicBool>>,
}

fn worker() -> &'static Mutex<Worker> {
    static WORKER: OnceLock<Mutex<Worker>> = OnceLock::new();
    WORKER.get_or_init(|| {
        arrsh::array::set_memory_limit(MEMORY_LIMIT);
        let (programs, inbox) = channel::<String>();
        let (finished, done) = channel();
        let (flags, interrupt) = channel();
        std::thread::Builder::new()
            .stack_size(arrsh::cli::INTERPRETER_STACK_BYTES)
            .spawn(move || {
                for text in inbox {
                    let mut interp = Interpreter::new(Box::new(std::io::sink()), Box::new(std::io::sink()));
                    flags.send(interp.interrupt_flag()).unwrap();
                    if let Err(error) = interp.run_source("<fuzz>", &text, true) {
                        interp.sources.render(&error, false);
                    }
                    finished.send(()).unwrap();
                }
            })
            .unwrap();
        Mutex::new(Worker {
            programs,
            done,
            interrupt,
        })
    })
}

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let worker = worker().lock().unwrap();
    worker.programs.send(text.to_string()).unwrap();
    let interrupt = worker.interrupt.recv().unwrap();
    if worker.done.recv_timeout(TIME_LIMIT).is_err() {
        interrupt.store(true, Ordering::Relaxed);
        worker.done.recv().unwrap();
    }
});
