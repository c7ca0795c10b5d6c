//! Helpers shared by the integration tests (each test file uses some of them).
#![allow(dead_code)]

use std::path::Path;
use std::process::{Command, Output};
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
