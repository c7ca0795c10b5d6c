//! Helpers shared by the integration tests (each test file uses some of them).
#![allow(dead_code)]

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::sync::atomic::{AtomicUsize, Ordering};

/// `arrsh -e CODE` run in `dir`, without colour or backtraces.
pub fn run_code(code: &str, dir: &Path) -> Output {
    Command::new(env!("CARGO_BIN_EXE_arrsh"))
        .arg("-e")
        .arg(code)
        .current_dir(dir)
        .env("NO_COLOR", "1")
        .env_remove("RUST_BACKTRACE")
        .output()
        .expect("arrsh runs")
}

/// arrsh with `args`, reading `input` as its standard input (as a piped REPL session: a failed
/// line leaves the session as it was), in `dir`, without colour or backtraces.
pub fn run_stdin(args: &[&str], dir: &Path, input: &str) -> Output {
    run_stdin_with_env(args, dir, input, &[])
}

/// `run_stdin` with the environment variables `env` set.
pub fn run_stdin_with_env(args: &[&str], dir: &Path, input: &str, env: &[(&str, &str)]) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_arrsh"))
        .args(args)
        .current_dir(dir)
        .envs(env.iter().copied())
        .env("NO_COLOR", "1")
        .env_remove("RUST_BACKTRACE")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("arrsh runs");
    child
        .stdin
        .take()
        .unwrap()
        .write_all(input.as_bytes())
        .unwrap();
    child.wait_with_output().expect("arrsh finishes")
}

/// True when arrsh finds a usable gpu. Otherwise says "skipped: no gpu" and returns false,
/// unless `ARRSH_REQUIRE_GPU` is set: then the missing gpu fails `test`.
pub fn gpu_or_skip(test: &str) -> bool {
    let present = run_code("assert(len(devices()) == 2)", &std::env::temp_dir())
        .status
        .success();
    if !present {
        assert!(
            std::env::var_os("ARRSH_REQUIRE_GPU").is_none(),
            "{test} needs a gpu and ARRSH_REQUIRE_GPU is set"
        );
        println!("skipped: no gpu");
    }
    present
}

/// True when python3 with NumPy is there; otherwise says "skipped: numpy not installed".
pub fn numpy_available() -> bool {
    let ok = Command::new("python3")
        .args(["-c", "import numpy"])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .is_ok_and(|s| s.success());
    if !ok {
        println!("skipped: numpy not installed");
    }
    ok
}

/// Runs a Python program in `dir`; panics with its stderr when it fails.
pub fn python(dir: &Path, program: &str) -> String {
    let out = Command::new("python3")
        .arg("-c")
        .arg(program)
        .current_dir(dir)
        .output()
        .expect("python3 runs");
    assert!(
        out.status.success(),
        "python failed:\n{}\n--- program ---\n{program}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

/// A fresh, empty scratch directory for one test (`prefix`: the test file's).
pub fn work_dir(prefix: &str, test: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("arrsh-{prefix}-{}-{test}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// The first differing lines of two texts, enough to see what changed.
pub fn line_diff(expected: &str, actual: &str) -> String {
    let (e, a): (Vec<&str>, Vec<&str>) = (expected.lines().collect(), actual.lines().collect());
    let mut out = String::new();
    let mut shown = 0;
    for i in 0..e.len().max(a.len()) {
        let (x, y) = (e.get(i), a.get(i));
        if x != y {
            out.push_str(&format!(
                "  line {}:\n    expected: {}\n    actual:   {}\n",
                i + 1,
                x.unwrap_or(&"<none>"),
                y.unwrap_or(&"<none>")
            ));
            shown += 1;
            if shown == 8 {
                out.push_str("  ...\n");
                break;
            }
        }
    }
    out
}

/// Runs `f` over `items` on several threads; results in item order.
pub fn parallel<T: Sync, R: Send>(items: &[T], f: impl Fn(usize, &T) -> R + Sync) -> Vec<R> {
    let next = AtomicUsize::new(0);
    let threads = std::thread::available_parallelism()
        .map_or(4, |n| n.get())
        .min(16);
    let mut results: Vec<(usize, R)> = std::thread::scope(|s| {
        let handles: Vec<_> = (0..threads)
            .map(|_| {
                s.spawn(|| {
                    let mut out = Vec::new();
                    loop {
                        let i = next.fetch_add(1, Ordering::Relaxed);
                        let Some(item) = items.get(i) else { break };
                        out.push((i, f(i, item)));
                    }
                    out
                })
            })
            .collect();
        handles
            .into_iter()
            .flat_map(|h| h.join().unwrap())
            .collect()
    });
    results.sort_by_key(|(i, _)| *i);
    results.into_iter().map(|(_, r)| r).collect()
}
