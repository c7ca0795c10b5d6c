//! Trust under load and interrupts.
//!
//! A long session of mixed work, as a REPL user would type it: 100,000 lines of arrays made and
//! dropped, closures (recursive ones too), errors, views, `:bench`, and gpu arrays when there is
//! a gpu. After a warm-up, the process's resident memory may grow by at most 10%, and the gpu
//! memory that buffers use comes back to its level after `:reset`.
//!
//! An interrupt (what Ctrl-C sets) during a long built-in on the cpu — a matrix product, a sort,
//! an FFT, a conv2d, a fused pass — stops it between blocks: the statement fails as interrupted,
//! the variable it was assigning keeps its old value, and the session goes on.

mod common;

use arrsh::interp::Interpreter;

const WARM_UP_LINES: usize = 10_000;
const LINES: usize = 100_000;

/// Lines of cpu work, typed in turn; `FAILS` marks the ones that are errors.
const CPU_LINES: &[&str] = &[
    "x = rand(1000)",
    "y = x * 2 + 1; s = float(sum(y))",
    "v = x[10:500]; v += 1; m = max(v)",
    "fn depth(n) { fn down(k) { if k <= 0 { return 0 } return down(k - 1) + 1 } return down(n) }",
    "assert(depth(4) == 4)",
    "fn pair(n) { fn even(k) { if k == 0 { return true } return odd(k - 1) } fn odd(k) { if k == 0 { return false } return even(k - 1) } return even(n) }",
    "assert(pair(6))",
    "add = fn(a, b) { a + b }; t = add(1, 2)",
    "l = [x, 1, \"text\"]; n = len(l)",
    "w = reshape(arange(12.0), [3, 4]) @ ones([4, 2])",
    "u, c = unique(floor(x * 10), return_counts=true)",
    "not_defined + 1",
    "reshape(x, [7, 7])",
    "z = sort(x)[::-1]; k = int(argmax(z))",
];

const GPU_LINES: &[&str] = &[
    "g = rand(1000, device=gpu)",
    "h = g * 2 + 1; hs = float(sum(h))",
    "gv = g[100:900]; gv *= 3",
    "gh = to(g, cpu)",
];

/// The process's resident memory, in bytes.
fn resident_bytes() -> u64 {
    let statm = std::fs::read_to_string("/proc/self/statm").expect("/proc/self/statm");
    let pages: u64 = statm.split_whitespace().nth(1).unwrap().parse().unwrap();
    pages * 4096
}

fn run_lines(interp: &mut Interpreter, lines: &[&str], range: std::ops::Range<usize>) {
    for n in range {
        let line = lines[n % lines.len()];
        let _ = interp.run_source(&format!("<input {n}>"), line, true);
        if n % 20_000 == 0 {
            let _ = interp.run_source("<bench>", ":bench x + 1", true);
        }
    }
}

#[test]
fn a_long_session_does_not_grow() {
    if !cfg!(target_os = "linux") {
        println!("skipped: resident memory is read from /proc");
        return;
    }
    let with_gpu = common::gpu_or_skip("a_long_session_does_not_grow (its gpu lines)");
    let lines: Vec<&str> = if with_gpu {
        CPU_LINES.iter().chain(GPU_LINES).copied().collect()
    } else {
        CPU_LINES.to_vec()
    };
    let mut interp = Interpreter::new(Box::new(std::io::sink()), Box::new(std::io::sink()));
    run_lines(&mut interp, &lines, 0..WARM_UP_LINES);
    interp.run_source("<reset>", ":reset", true).unwrap();
    let gpu_after_warm_up = arrsh::device::gpu::memory_in_use().unwrap();
    let after_warm_up = resident_bytes();

    run_lines(&mut interp, &lines, WARM_UP_LINES..LINES);
    interp.run_source("<reset>", ":reset", true).unwrap();
    let at_end = resident_bytes();
    assert!(
        at_end as f64 <= 1.1 * after_warm_up as f64,
        "resident memory grew from {after_warm_up} to {at_end} bytes over {} lines",
        LINES - WARM_UP_LINES
    );
    assert_eq!(interp.live_closures(), 0, "closures left after :reset");
    if with_gpu {
        assert!(gpu_after_warm_up.is_some(), "the gpu lines ran on the gpu");
        assert_eq!(
            arrsh::device::gpu::memory_in_use().unwrap(),
            gpu_after_warm_up,
            "gpu memory in use after :reset"
        );
    }
}

/// Runs `setup`, then `statement` with the interrupt flag raised `delay` after it starts; the
/// statement must fail as interrupted, long before it would have finished, and leave `r` as it was.
fn interrupted(setup: &str, statement: &str) {
    let mut interp = Interpreter::new(Box::new(std::io::sink()), Box::new(std::io::sink()));
    interp
        .run_source("<setup>", &format!("r = 0\n{setup}"), false)
        .unwrap();
    let flag = interp.interrupt_flag();
    let start = std::time::Instant::now();
    let raise = std::thread::spawn(move || {
        std::thread::sleep(std::time::Duration::from_millis(30));
        flag.store(true, std::sync::atomic::Ordering::Relaxed);
    });
    let error = interp
        .run_source("<statement>", statement, false)
        .unwrap_err();
    let stopped = start.elapsed();
    raise.join().unwrap();
    assert_eq!(
        error.kind,
        arrsh::error::ErrorKind::Interrupted,
        "{statement}: {}",
        error.message
    );
    // Uninterrupted, each takes seconds on two cores.
    assert!(
        stopped.as_secs_f64() < 1.0,
        "{statement} stopped after {stopped:?}"
    );
    interp
        .run_source("<after>", "assert(r == 0)\nassert(1 + 1 == 2)", false)
        .unwrap();
}

#[test]
fn an_interrupt_stops_a_matrix_product() {
    interrupted("a = rand([4000, 4000])", "r = a @ a");
}

#[test]
fn an_interrupt_stops_a_sort() {
    interrupted("x = rand(60_000_000)", "r = sort(x)");
}

#[test]
fn an_interrupt_stops_ffts() {
    interrupted("x = rand([8192, 4096])", "r = fft.fft(x, axis=0)");
}

#[test]
fn an_interrupt_stops_a_conv2d() {
    interrupted(
        "img = rand([3000, 3000])\nk = ones([31, 31])",
        "r = conv2d(img, k)",
    );
}

#[test]
fn an_interrupt_stops_a_fused_pass() {
    interrupted(
        "x = rand(100_000_000)",
        "r = sum(sin(x) * cos(x) + sqrt(x) * exp(x))",
    );
}
