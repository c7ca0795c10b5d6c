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

/// One test of this file at a time: an interrupt test keeps every core busy and its latency is
/// its own, and its arrays (hundreds of megabytes) would count in the soak test's resident memory,
/// which is the whole process's.
static ONE_AT_A_TIME: std::sync::Mutex<()> = std::sync::Mutex::new(());

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
    let _alone = ONE_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner());
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

/// How soon after Ctrl-C a long built-in must give the prompt back.
const LATENCY: std::time::Duration = std::time::Duration::from_millis(200);

/// Runs `setup`, then `statement` with the interrupt flag raised 30 ms after it starts; the
/// statement must fail as interrupted within `LATENCY` of the flag, and leave `r` as it was.
fn interrupted(setup: &str, statement: &str) {
    let _alone = ONE_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner());
    let mut interp = Interpreter::new(Box::new(std::io::sink()), Box::new(std::io::sink()));
    interp
        .run_source("<setup>", &format!("r = 0\n{setup}"), false)
        .unwrap();
    let flag = interp.interrupt_flag();
    let raise = std::thread::spawn(move || {
        std::thread::sleep(std::time::Duration::from_millis(30));
        flag.store(true, std::sync::atomic::Ordering::Relaxed);
        std::time::Instant::now()
    });
    let error = interp
        .run_source("<statement>", statement, false)
        .unwrap_err();
    let stopped = std::time::Instant::now();
    let raised = raise.join().unwrap();
    assert_eq!(
        error.kind,
        arrsh::error::ErrorKind::Interrupted,
        "{statement}: {}",
        error.message
    );
    let latency = stopped.saturating_duration_since(raised);
    println!("{statement}: back {latency:.1?} after the interrupt");
    assert!(
        latency <= LATENCY,
        "{statement} stopped {latency:?} after the interrupt"
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
fn an_interrupt_stops_a_load() {
    let path = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("interrupted-load.npy");
    let path = path.to_string_lossy().replace('\\', "/");
    interrupted(
        &format!("save(\"{path}\", rand(25_000_000))"),
        &format!("r = load(\"{path}\")"),
    );
    let _ = std::fs::remove_file(path);
}

#[test]
fn an_interrupt_stops_a_fused_pass() {
    interrupted(
        "x = rand(100_000_000)",
        "r = sum(sin(x) * cos(x) + sqrt(x) * exp(x))",
    );
}

/// A piped session (or script) of arrsh in which every conv2d kernel faults on the device, as an
/// illegal address would: `ARRSH_GPU_FAULT` swaps in a kernel that traps.
fn faulting(args: &[&str], dir: &std::path::Path, input: &str) -> (String, String, Option<i32>) {
    let out = common::run_stdin_with_env(args, dir, input, &[("ARRSH_GPU_FAULT", "conv2d:trap")]);
    let text = |b: &[u8]| String::from_utf8_lossy(b).into_owned();
    (text(&out.stdout), text(&out.stderr), out.status.code())
}

const FAULT: &str = "c = conv2d(ones([8, 8], device=gpu), ones([3, 3], device=gpu)); sync()";

/// What an error about a lost gpu array advises, and what new gpu work prints: today's drivers
/// keep the fault for the life of the process (the documented behaviour), so the gpu does not
/// come back until arrsh restarts; a driver that allows a fresh context gets a working gpu.
fn after_a_loss(stderr: &str) -> (bool, &'static str) {
    let restarted = !stderr.contains("CUDA cannot start it again");
    let advice = if restarted {
        "make it again"
    } else {
        "restart arrsh to use the gpu again (CUDA cannot start it again in this process)"
    };
    (restarted, advice)
}

/// After a fault that destroys the gpu's state, names that held its arrays are errors that say
/// where the state was lost, even inside a tuple; cpu variables are untouched; new gpu work
/// either runs on a fresh context or says that only a restart brings the gpu back.
#[test]
fn gpu_arrays_are_lost_after_a_fault_in_the_shell() {
    if !common::gpu_or_skip("gpu_arrays_are_lost_after_a_fault_in_the_shell") {
        return;
    }
    let dir = common::work_dir("trust", "gpu_fault_shell");
    let input = [
        "x = arange(3)",
        "g = arange(3, device=gpu)",
        "gs = split(g, 3)",
        FAULT,
        "print(sum(g))",
        "print(len(gs))",
        "print(sum(arange(3, device=gpu) * 2))",
        "print(sum(x), x)",
    ]
    .join("\n");
    let (stdout, stderr, _) = faulting(&[], &dir, &(input + "\n"));
    let (restarted, advice) = after_a_loss(&stderr);
    let errors: Vec<&str> = stderr.lines().filter(|l| l.contains("error:")).collect();
    assert_eq!(errors.len(), if restarted { 3 } else { 4 }, "{stderr}");
    assert!(
        errors[0].starts_with("<input 4>:1:") && errors[0].contains("the gpu's state is lost"),
        "{stderr}"
    );
    assert_eq!(
        errors[1],
        format!("<input 5>:1:11: error: `g` was on the gpu when its state was lost at line 1 of <input 4>; {advice}")
    );
    assert_eq!(
        errors[2],
        format!("<input 6>:1:11: error: `gs` holds an array that was on the gpu when its state was lost at line 1 of <input 4>; {advice}")
    );
    if restarted {
        assert_eq!(stdout, "6\n3 [0 1 2]\n");
    } else {
        assert!(errors[3].starts_with("<input 7>:1:") && errors[3].contains("no gpu: its state was lost, and CUDA cannot start it again in this process; restart arrsh"), "{stderr}");
        assert_eq!(stdout, "3 [0 1 2]\n");
    }
}

/// A script that faults stops at the faulting line, with what it printed before, and fails; so
/// does one whose fault is still queued when it ends. Loaded into a shell, the shell's gpu
/// variables are lost at that line of the script, and the shell goes on.
#[test]
fn gpu_arrays_are_lost_after_a_fault_in_a_script() {
    if !common::gpu_or_skip("gpu_arrays_are_lost_after_a_fault_in_a_script") {
        return;
    }
    let dir = common::work_dir("trust", "gpu_fault_script");
    let script =
        format!("y = arange(3, device=gpu)\nprint(sum(y))\n{FAULT}\nprint(\"not reached\")\n");
    std::fs::write(dir.join("faulty.arr"), script).unwrap();
    let (stdout, stderr, code) = faulting(&["faulty.arr"], &dir, "");
    assert_eq!((stdout.as_str(), code), ("3\n", Some(1)), "{stderr}");
    assert!(
        stderr.starts_with("faulty.arr:3:") && stderr.contains("the gpu's state is lost"),
        "{stderr}"
    );
    let queued = "c = conv2d(ones([8, 8], device=gpu), ones([3, 3], device=gpu))\n";
    std::fs::write(dir.join("queued.arr"), queued).unwrap();
    let (_, stderr, code) = faulting(&["queued.arr"], &dir, "");
    assert_eq!(code, Some(1), "{stderr}");
    assert!(stderr.contains("the gpu's state is lost"), "{stderr}");

    let input = "x = arange(3)\ng = arange(3, device=gpu)\n:load faulty.arr\ng\nprint(x)\n";
    let (stdout, stderr, _) = faulting(&[], &dir, input);
    let (_, advice) = after_a_loss(&stderr);
    assert_eq!(stdout, "3\n[0 1 2]\n", "{stderr}");
    let lost = format!("<input 4>:1:1: error: `g` was on the gpu when its state was lost at line 3 of faulty.arr; {advice}");
    assert!(stderr.contains(&lost), "{lost} not in {stderr}");
}
