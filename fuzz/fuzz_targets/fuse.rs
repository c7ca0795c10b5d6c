//! Random elementwise programs, made from the fuzzer's bytes by the fusion test's generator (every
//! dtype, broadcasting, views, host scalars, in-place updates, reductions), run fused and with
//! fusion off: what they print and every array they save must agree bit for bit (a NaN matching
//! any NaN), as `tests/fusion.rs` checks for seeded programs and replays this target's corpus.
#![no_main]

use libfuzzer_sys::fuzz_target;

// The target uses only some of what the fusion test does.
#[allow(dead_code)]
#[path = "../../tests/fusion/programs.rs"]
mod programs;

fuzz_target!(|data: &[u8]| {
    let dir = std::env::temp_dir().join(format!("arrsh-fuzz-fuse-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("a directory for the saved arrays");
    let code = programs::from_bytes(data, &dir);
    if let Some(why) = programs::fused_against_unfused(&code, &dir) {
        panic!("fused and unfused runs differ: {why}\n--- program ---\n{code}");
    }
});
