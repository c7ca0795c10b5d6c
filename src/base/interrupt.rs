//! The user's request to stop the running statement (Ctrl-C, a notebook's Stop button), as seen
//! by long-running work below the interpreter: a matrix product, a sort, an FFT, a fused pass
//! check it between blocks and give up early, and the interpreter reports the statement as
//! interrupted (nothing it was computing is bound).
//!
//! Each interpreter has its own flag (tests and fuzzers run several at once); it makes its flag
//! its thread's current one while it runs, and work takes a `Stop` from the calling thread
//! before it spreads over worker threads.

use std::cell::RefCell;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

thread_local! {
    static CURRENT: RefCell<Option<Arc<AtomicBool>>> = const { RefCell::new(None) };
}

/// Makes `flag` the flag of the work this thread starts from now on.
pub fn set_current(flag: &Arc<AtomicBool>) {
    CURRENT.with(|current| {
        let mut current = current.borrow_mut();
        if !current.as_ref().is_some_and(|c| Arc::ptr_eq(c, flag)) {
            *current = Some(flag.clone());
        }
    });
}

/// Whether the user asked the work that made it to stop.
#[derive(Clone, Default)]
pub struct Stop(Option<Arc<AtomicBool>>);

impl Stop {
    /// The calling thread's current flag (none: the work cannot be stopped).
    pub fn current() -> Stop {
        Stop(CURRENT.with(|current| current.borrow().clone()))
    }

    pub fn requested(&self) -> bool {
        self.0.as_ref().is_some_and(|f| f.load(Ordering::Relaxed))
    }
}
