//! The error corpus: bad programs from every area of LANGUAGE.md sections 1–6, each run through the
//! real `arrsh -e SNIPPET`. Every one must fail the way the spec promises: exit status 1, exactly one
//! `<-e>:LINE:COL: error: ` header at the right place, a message that names the problem, and never a
//! panic. A second table holds edge cases that are *not* errors (they must run and print the right
//! thing), and a third holds inputs whose only promise is "no crash".
//!
//! The snippets run in parallel threads, each in a directory that holds a few fixture files.

mod common;
#[path = "errors/corpus.rs"]
mod corpus;

use std::path::{Path, PathBuf};

use arrsh::interp::Interpreter;
use std::process::{Command, Output};
use std::sync::atomic::{AtomicUsize, Ordering};

use corpus::{Case, CASES, GPU_CASES, NO_CRASH, NO_GPU_CASES, RUNS};

fn arrsh() -> &'static str {
    env!("CARGO_BIN_EXE_arrsh")
}

/// A fresh directory (one per table, since the tables run at the same time) with the files some
/// snippets read.
fn fixture_dir() -> PathBuf {
    static TABLES: AtomicUsize = AtomicUsize::new(0);
    let table = TABLES.fetch_add(1, Ordering::Relaxed);
    let dir = std::env::temp_dir().join(format!("arrsh-errors-{}-{table}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(dir.join("adir")).unwrap();
    std::fs::write(dir.join("bad.npy"), b"this is not a npy file\n").unwrap();
    std::fs::write(dir.join("f128.npy"), npy("<f16", "(3,)", &[0; 48])).unwrap();
    let doubles: Vec<u8> = [1.0f64, 2.0].iter().flat_map(|v| v.to_le_bytes()).collect();
    let ok = npy("<f8", "(2,)", &doubles);
    std::fs::write(dir.join("ok.npy"), &ok).unwrap();
    std::fs::write(dir.join("trunc.npy"), &ok[..40]).unwrap();
    dir
}

/// A version 1.0 `.npy` file: magic, header dict padded to 64 bytes, then the data.
fn npy(descr: &str, shape: &str, data: &[u8]) -> Vec<u8> {
    let mut header = format!("{{'descr': '{descr}', 'fortran_order': False, 'shape': {shape}, }}");
    while (10 + header.len() + 1) % 64 != 0 {
        header.push(' ');
    }
    header.push('\n');
    let mut out = b"\x93NUMPY\x01\x00".to_vec();
    out.extend_from_slice(&(header.len() as u16).to_le_bytes());
    out.extend_from_slice(header.as_bytes());
    out.extend_from_slice(data);
    out
}

fn run(code: &str, dir: &Path) -> Output {
    common::run_code(code, dir)
}

fn panic_text(stderr: &str) -> bool {
    stderr.contains("panicked")
        || stderr.contains("RUST_BACKTRACE")
        || stderr.contains("memory allocation of")
}

fn show(code: &str, out: &Output) -> String {
    format!(
        "  code:   {code:?}\n  exit:   {:?}\n  stdout: {:?}\n  stderr: {}\n",
        out.status.code(),
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr).replace('\n', "\n          ")
    )
}

/// Checks one error case; `None` when it behaves as promised.
fn check_case(c: &Case, dir: &Path) -> Option<String> {
    let out = run(c.code, dir);
    let stderr = String::from_utf8_lossy(&out.stderr);
    let mut problems = Vec::new();
    if panic_text(&stderr) {
        problems.push("it panicked".to_string());
    }
    if out.status.code() != Some(1) {
        problems.push(format!("exit status {:?}, expected 1", out.status.code()));
    }
    let headers: Vec<&str> = stderr
        .lines()
        .filter(|l| l.starts_with("<-e>:") && l.contains(": error: "))
        .collect();
    if headers.len() != 1 {
        problems.push(format!(
            "{} `<-e>:LINE:COL: error:` headers, expected exactly one",
            headers.len()
        ));
    }
    if let Some(header) = headers.first() {
        let want = format!("<-e>:{}:{}: error: ", c.line, c.col);
        if !header.starts_with(&want) {
            problems.push(format!("header {header:?} does not start with {want:?}"));
        }
        let lower = header.to_lowercase();
        for word in c.words {
            if !lower.contains(&word.to_lowercase()) {
                problems.push(format!("message lacks {word:?}"));
            }
        }
    }
    if problems.is_empty() {
        None
    } else {
        Some(format!("{}\n{}", problems.join("; "), show(c.code, &out)))
    }
}

fn check_run(code: &str, expected: &str, dir: &Path) -> Option<String> {
    let out = run(code, dir);
    let stdout = String::from_utf8_lossy(&out.stdout);
    if out.status.code() == Some(0) && stdout == expected && out.stderr.is_empty() {
        return None;
    }
    Some(format!(
        "expected exit 0 and stdout {expected:?}\n{}",
        show(code, &out)
    ))
}

fn check_no_crash(code: &str, dir: &Path) -> Option<String> {
    let out = run(code, dir);
    let stderr = String::from_utf8_lossy(&out.stderr);
    let clean_error = out.status.code() == Some(1)
        && stderr
            .lines()
            .filter(|l| l.starts_with("<-e>:") && l.contains(": error: "))
            .count()
            == 1;
    if !panic_text(&stderr) && (out.status.code() == Some(0) || clean_error) {
        return None;
    }
    Some(format!(
        "expected a result or a clean error, not a crash\n{}",
        show(code, &out)
    ))
}

/// Runs `check` over `items` on all cores; returns the failure reports in table order.
fn parallel<T: Sync>(
    items: &[T],
    check: impl Fn(&T, &Path) -> Option<String> + Sync,
) -> Vec<(usize, String)> {
    let base = fixture_dir();
    let next = AtomicUsize::new(0);
    let threads = std::thread::available_parallelism()
        .map_or(4, |n| n.get())
        .min(16);
    let mut failures: Vec<(usize, String)> = std::thread::scope(|s| {
        let handles: Vec<_> = (0..threads)
            .map(|t| {
                let (next, base, check) = (&next, &base, &check);
                s.spawn(move || {
                    // One working directory per thread: snippets that save files cannot collide.
                    let dir = base.join(format!("t{t}"));
                    std::fs::create_dir_all(&dir).unwrap();
                    for entry in std::fs::read_dir(base).unwrap() {
                        let path = entry.unwrap().path();
                        if path.is_file() {
                            std::fs::copy(&path, dir.join(path.file_name().unwrap())).unwrap();
                        }
                    }
                    std::fs::create_dir_all(dir.join("adir")).unwrap();
                    let mut found = Vec::new();
                    loop {
                        let i = next.fetch_add(1, Ordering::Relaxed);
                        let Some(item) = items.get(i) else { break };
                        if let Some(report) = check(item, &dir) {
                            found.push((i, report));
                        }
                    }
                    found
                })
            })
            .collect();
        handles
            .into_iter()
            .flat_map(|h| h.join().unwrap())
            .collect()
    });
    let _ = std::fs::remove_dir_all(&base);
    failures.sort_by_key(|(i, _)| *i);
    failures
}

fn report(what: &str, total: usize, failures: &[(usize, String)]) {
    println!("{what}: {} of {total} as promised", total - failures.len());
    assert!(
        failures.is_empty(),
        "{} of {total} {what} misbehave:\n\n{}",
        failures.len(),
        failures
            .iter()
            .map(|(i, r)| format!("#{i}: {r}"))
            .collect::<Vec<_>>()
            .join("\n")
    );
}

#[test]
fn the_corpus_is_large_and_distinct() {
    assert!(CASES.len() >= 600, "only {} error cases", CASES.len());
    let mut codes: Vec<&str> = CASES.iter().map(|c| c.code).collect();
    codes.sort();
    let before = codes.len();
    codes.dedup();
    assert_eq!(before, codes.len(), "a snippet appears twice in the corpus");
    assert!(CASES
        .iter()
        .all(|c| !c.words.is_empty() && c.line >= 1 && c.col >= 1));
}

#[test]
fn every_bad_snippet_fails_cleanly_at_its_position() {
    let failures = parallel(CASES, check_case);
    report("error cases", CASES.len(), &failures);
}

fn gpu_present() -> bool {
    run("assert(len(devices()) == 2)", &std::env::temp_dir())
        .status
        .success()
}

#[test]
fn device_errors_match_the_machine() {
    let require_gpu = std::env::var_os("ARRSH_REQUIRE_GPU").is_some();
    if gpu_present() {
        let failures = parallel(GPU_CASES, check_case);
        report("gpu error cases", GPU_CASES.len(), &failures);
    } else {
        assert!(
            !require_gpu,
            "the gpu error cases need a gpu and ARRSH_REQUIRE_GPU is set"
        );
        println!("skipped: no gpu: {} gpu error cases", GPU_CASES.len());
        let failures = parallel(NO_GPU_CASES, check_case);
        report("no-gpu error cases", NO_GPU_CASES.len(), &failures);
    }
}

#[test]
fn edge_cases_that_are_not_errors_run() {
    let failures = parallel(RUNS, |(code, expected), dir| check_run(code, expected, dir));
    report("edge cases", RUNS.len(), &failures);
}

#[test]
fn extreme_inputs_never_crash() {
    let failures = parallel(NO_CRASH, |code, dir| check_no_crash(code, dir));
    report("extreme inputs", NO_CRASH.len(), &failures);
}

#[test]
fn an_error_keeps_the_output_printed_before_it() {
    let out = run(
        "print(\"first\")\nprint(\"second\")\nx = arange(2)[7]\nprint(\"never\")",
        &std::env::temp_dir(),
    );
    assert_eq!(String::from_utf8_lossy(&out.stdout), "first\nsecond\n");
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(
        String::from_utf8_lossy(&out.stderr),
        "<-e>:3:5: error: index 7 is out of bounds for axis 0 with size 2\n3 | x = arange(2)[7]\n        ^^^^^^^^^^^^\n"
    );
}

#[test]
fn a_script_from_stdin_reports_errors_as_stdin() {
    let mut child = Command::new(arrsh())
        .arg("-")
        .env("NO_COLOR", "1")
        .env_remove("RUST_BACKTRACE")
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("arrsh runs");
    use std::io::Write;
    child
        .stdin
        .take()
        .unwrap()
        .write_all(b"print(1)\nx = y + 1\nprint(2)\n")
        .unwrap();
    let out = child.wait_with_output().unwrap();
    assert_eq!(String::from_utf8_lossy(&out.stdout), "1\n");
    assert_eq!(
        String::from_utf8_lossy(&out.stderr),
        "<stdin>:2:5: error: name `y` is not defined\n2 | x = y + 1\n        ^\n"
    );
    assert_eq!(out.status.code(), Some(1));
}

/// Runs each snippet in this process, in a fixture directory, on a thread with the binary's
/// stack, and reports those whose error has another kind (the rendered text does not show kinds).
fn kind_mismatches(cases: &'static [Case]) -> Vec<(usize, String)> {
    let dir = fixture_dir();
    std::env::set_current_dir(&dir).unwrap();
    let found = std::thread::Builder::new()
        .stack_size(arrsh::interp::INTERPRETER_STACK_BYTES)
        .spawn(move || {
            let mut found = Vec::new();
            for (i, c) in cases.iter().enumerate() {
                let mut interp =
                    Interpreter::new(Box::new(std::io::sink()), Box::new(std::io::sink()));
                let kind = interp
                    .run_source("<-e>", c.code, false)
                    .err()
                    .map(|e| e.kind);
                if kind != Some(c.kind) {
                    found.push((
                        i,
                        format!("{:?}: kind {kind:?}, expected {:?}", c.code, c.kind),
                    ));
                }
            }
            found
        })
        .unwrap()
        .join()
        .unwrap();
    let _ = std::fs::remove_dir_all(&dir);
    found
}

/// The only test that changes this process's working directory (the others give each child
/// its own), so the kinds of all tables are checked here, one after the other.
#[test]
fn every_error_has_its_kind() {
    let failures = kind_mismatches(CASES);
    report("error kinds", CASES.len(), &failures);
    let device_cases = if gpu_present() {
        GPU_CASES
    } else {
        NO_GPU_CASES
    };
    let failures = kind_mismatches(device_cases);
    report("device error kinds", device_cases.len(), &failures);
}

/// `arrsh FILE` with a file it cannot run: one `error:` line naming the file and why, exit 1.
#[test]
fn script_files_that_cannot_run_are_clean_errors() {
    let dir = fixture_dir();
    std::fs::write(
        dir.join("binary.arr"),
        [0x7fu8, b'E', b'L', b'F', 0, 0, 0xff, 0x01],
    )
    .unwrap();
    std::fs::write(dir.join("latin1.arr"), b"print(1)\nname = \"caf\xe9\"\n").unwrap();
    let cases: &[(&str, &[&str])] = &[
        ("missing.arr", &["cannot read missing.arr", "No such file"]),
        ("adir", &["adir is a directory, not a script"]),
        (
            "binary.arr",
            &["binary.arr is not a text script", "invalid UTF-8 at byte 6"],
        ),
        (
            "latin1.arr",
            &[
                "latin1.arr is not a text script",
                "invalid UTF-8 at byte 20",
            ],
        ),
    ];
    for (file, words) in cases {
        let out = Command::new(arrsh())
            .arg(file)
            .current_dir(&dir)
            .env("NO_COLOR", "1")
            .env_remove("RUST_BACKTRACE")
            .output()
            .unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(1), "{file}: {stderr}");
        assert!(out.stdout.is_empty(), "{file}: nothing runs");
        assert_eq!(stderr.lines().count(), 1, "{file}: {stderr}");
        assert!(stderr.starts_with("error: "), "{file}: {stderr}");
        for word in *words {
            assert!(stderr.contains(word), "{file}: {word:?} not in {stderr:?}");
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// Bad command-line use exits 2, with clap's message and no panic.
#[test]
fn bad_command_lines_exit_2() {
    let cases: &[&[&str]] = &[
        &["--bogus"],
        &["-e"],
        &["a.arr", "b.arr"],
        &["--device", "tpu", "-e", "1"],
        &["--scalar", "sometimes", "-e", "1"],
    ];
    for args in cases {
        let out = Command::new(arrsh()).args(*args).output().unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {stderr}");
        assert!(
            stderr.contains("error:") && !panic_text(&stderr),
            "{args:?}: {stderr}"
        );
    }
}
