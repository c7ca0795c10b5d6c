//! Any text, run by a fresh interpreter: a result or a clean error, never a panic or an abort.
//! Arrays and strings are capped at 16 MB and a program is interrupted (as Ctrl-C would) after
//! 100 ms, so that the fuzzer spends its time on many programs rather than on a few big ones.
#![no_main]

use std::time::Duration;

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    arrsh::device::host::set_memory_limit(16 << 20);
    let _ = arrsh::interp::bounded::run_bounded(text, Duration::from_millis(100));
});
