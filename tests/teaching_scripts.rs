//! Teaching scripts: every `scripts/*.arr` runs through the real `arrsh` binary, shrunk to a CI size,
//! in a fresh directory of its own, on the cpu (the default device), and what it prints must match
//! `tests/teaching/NAME.out`: stdout, then `--- stderr` and stderr when there is any, then
//! `--- exit N` when N is not 0 (the layout of tests/golden.rs).
//!
//! Shrinking: a script line `NAME = VALUE   # ci: SMALL` runs as `NAME = SMALL` (the line count, and
//! so every line number in reports and errors, stays the same). The full sizes are for people; the
//! CI sizes keep the suite to seconds.
//!
//! Masking, in both texts before they are compared: every duration (`12.3 ms`, `812 ns`, `1.5 s`)
//! becomes `<t>`, every other number with a fraction or an exponent (`0.000463`, `1.5e-05`, the
//! `4.2` of `4.2×`, `95.5%`, `8.0 KB`) becomes `<f>`; integers stay, so line, character, transfer
//! and kernel counts are checked exactly. Runs of spaces and of table rules are squeezed (columns
//! sized by a duration compare equal) and runs of block characters (bars, charts, histograms)
//! become `<bar>`.
//!
//! Where a gpu is usable, the scripts that loop over `devices()` (and `:sweep`) also run their gpu
//! half in this cpu-default run, so their expected output there is `NAME.with-gpu.out` when that
//! file exists (else `NAME.out`). Why a gpu is unusable (`no gpu: libcuda.so not found`, `no CUDA
//! device`, …) is masked as `no gpu: <why>`.
//!
//! `BLESS=1 cargo test --release --test teaching_scripts` rewrites the `.out` files from the current
//! binary (review the diff): `NAME.out` without a gpu; with one, `NAME.with-gpu.out` where the output
//! differs from `NAME.out` (and removes a stale one where it does not). With a gpu, every script
//! also runs with `--device gpu` at its CI size and must exit 0 without a panic (its random numbers
//! differ from the cpu's, so that run has no `.out`); without one that run says `skipped: no gpu`,
//! and with `ARRSH_REQUIRE_GPU=1` a skip is a failure.

mod common;

use common::line_diff;
use std::fs::File;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// A script that runs longer than this at its CI size has a bug (or lost its `# ci:` size).
const LIMIT: Duration = Duration::from_secs(300);

fn repo() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

fn scripts() -> Vec<PathBuf> {
    let mut scripts: Vec<PathBuf> = std::fs::read_dir(repo().join("scripts"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "arr"))
        .collect();
    scripts.sort();
    assert!(!scripts.is_empty(), "no scripts/*.arr found");
    scripts
}

/// `tests/teaching/NAME.out`, or with `suffix` `NAME.SUFFIX.out`.
fn expected_path(script: &Path, suffix: Option<&str>) -> PathBuf {
    let stem = script.file_stem().unwrap().to_string_lossy();
    let name = match suffix {
        Some(suffix) => format!("{stem}.{suffix}.out"),
        None => format!("{stem}.out"),
    };
    repo().join("tests/teaching").join(name)
}

/// `NAME = VALUE   # ci: SMALL` → `NAME = SMALL`; `None` for any other line.
fn ci_line(line: &str) -> Option<String> {
    let (code, small) = line.split_once("# ci:")?;
    let (name, value) = code.split_once('=')?;
    let indent = &name[..name.len() - name.trim_start().len()];
    let name = name.trim();
    let valid_name = name
        .chars()
        .next()
        .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
        && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_');
    let (value, small) = (value.trim(), small.trim());
    if !valid_name || value.is_empty() || small.is_empty() || value.starts_with('=') {
        return None;
    }
    Some(format!("{indent}{name} = {small}"))
}

/// The script at its CI sizes, and how many lines were shrunk.
fn shrink(text: &str) -> (String, usize) {
    let mut shrunk = 0;
    let mut out = String::with_capacity(text.len());
    for line in text.lines() {
        match ci_line(line) {
            Some(small) => {
                out.push_str(&small);
                shrunk += 1;
            }
            None => out.push_str(line),
        }
        out.push('\n');
    }
    (out, shrunk)
}

struct Run {
    /// stdout, `--- stderr` + stderr, `--- exit N`: the `.out` layout.
    text: String,
    success: bool,
    stderr: String,
}

/// Runs `script` at its CI sizes as `arrsh [--device DEV] NAME.arr` in a directory of its own.
/// Output goes to files, so a long run never blocks on a full pipe; past `LIMIT` it is killed.
fn run_script(script: &Path, device: Option<&str>) -> Run {
    let name = script.file_name().unwrap();
    let (text, _) = shrink(&std::fs::read_to_string(script).unwrap());
    let workdir = std::env::temp_dir().join(format!(
        "arrsh-teaching-{}-{}-{}",
        std::process::id(),
        device.unwrap_or("default"),
        name.to_string_lossy()
    ));
    let _ = std::fs::remove_dir_all(&workdir);
    std::fs::create_dir_all(&workdir).unwrap();
    std::fs::write(workdir.join(name), text).unwrap();
    let (out_path, err_path) = (workdir.join("stdout"), workdir.join("stderr"));
    let mut command = Command::new(env!("CARGO_BIN_EXE_arrsh"));
    if let Some(device) = device {
        command.args(["--device", device]);
    }
    let mut child = command
        .arg(name)
        .current_dir(&workdir)
        .env("NO_COLOR", "1")
        .env_remove("RUST_BACKTRACE")
        .stdin(Stdio::null())
        .stdout(File::create(&out_path).unwrap())
        .stderr(File::create(&err_path).unwrap())
        .spawn()
        .expect("arrsh runs");
    let started = Instant::now();
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break Some(status);
        }
        if started.elapsed() > LIMIT {
            let _ = child.kill();
            let _ = child.wait();
            break None;
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    let stdout = String::from_utf8_lossy(&std::fs::read(&out_path).unwrap()).into_owned();
    let stderr = String::from_utf8_lossy(&std::fs::read(&err_path).unwrap()).into_owned();
    let _ = std::fs::remove_dir_all(&workdir);
    let mut text = stdout;
    if !stderr.is_empty() {
        text.push_str("--- stderr\n");
        text.push_str(&stderr);
    }
    let success = match status.map(|s| s.code()) {
        Some(Some(0)) => true,
        Some(Some(code)) => {
            text.push_str(&format!("--- exit {code}\n"));
            false
        }
        Some(None) => {
            text.push_str("--- killed by a signal\n");
            false
        }
        None => {
            text.push_str(&format!("--- killed after {} s\n", LIMIT.as_secs()));
            false
        }
    };
    Run {
        text,
        success,
        stderr,
    }
}

fn gpu_present() -> bool {
    Command::new(env!("CARGO_BIN_EXE_arrsh"))
        .args(["-e", "assert(len(devices()) == 2)"])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .map(|s| s.success())
        .unwrap_or(false)
}

#[test]
fn teaching_scripts_on_the_cpu() {
    let bless = std::env::var_os("BLESS").is_some();
    let has_gpu = gpu_present();
    let mut failures = Vec::new();
    let mut passed = 0;
    for script in &scripts() {
        let run = run_script(script, None);
        let cpu_path = expected_path(script, None);
        let with_gpu_path = expected_path(script, Some("with-gpu"));
        if bless {
            std::fs::create_dir_all(cpu_path.parent().unwrap()).unwrap();
            let cpu_text = std::fs::read_to_string(&cpu_path).unwrap_or_default();
            let path = if !has_gpu {
                &cpu_path
            } else if mask(&run.text) != mask(&cpu_text) {
                &with_gpu_path
            } else {
                let _ = std::fs::remove_file(&with_gpu_path);
                println!("same as without a gpu: {}", cpu_path.display());
                passed += 1;
                continue;
            };
            std::fs::write(path, &run.text).unwrap();
            println!("blessed {}", path.display());
            passed += 1;
            continue;
        }
        let expected_path = if has_gpu && with_gpu_path.exists() {
            &with_gpu_path
        } else {
            &cpu_path
        };
        let Ok(expected) = std::fs::read_to_string(expected_path) else {
            failures.push(format!(
                "{}: no {} (BLESS=1 writes it; review it)\n  its output:\n{}",
                script.display(),
                expected_path.display(),
                indent(&run.text)
            ));
            continue;
        };
        if mask(&run.text) == mask(&expected) {
            passed += 1;
        } else {
            failures.push(format!(
                "{}:\n{}",
                script.display(),
                line_diff(&mask(&expected), &mask(&run.text))
            ));
        }
    }
    println!(
        "teaching scripts: {passed} passed, {} failed",
        failures.len()
    );
    assert!(
        failures.is_empty(),
        "teaching script mismatches:\n\n{}",
        failures.join("\n")
    );
}

#[test]
fn teaching_scripts_run_on_the_gpu() {
    if !gpu_present() {
        assert!(
            std::env::var_os("ARRSH_REQUIRE_GPU").is_none(),
            "the teaching scripts' gpu run needs a gpu and ARRSH_REQUIRE_GPU is set"
        );
        println!("skipped: no gpu: the teaching scripts on --device gpu");
        return;
    }
    let mut failures = Vec::new();
    for script in &scripts() {
        let run = run_script(script, Some("gpu"));
        if !run.success || run.stderr.contains("panicked") {
            failures.push(format!(
                "{} (--device gpu):\n{}",
                script.display(),
                indent(&run.text)
            ));
        }
    }
    assert!(
        failures.is_empty(),
        "teaching scripts failing on the gpu:\n\n{}",
        failures.join("\n")
    );
}

/// Each script states its sizes as `NAME = VALUE   # ci: SMALL` lines, and the README lists it.
#[test]
fn teaching_scripts_are_listed_and_shrinkable() {
    let readme = std::fs::read_to_string(repo().join("scripts/README.md")).unwrap_or_default();
    let mut problems = Vec::new();
    for script in &scripts() {
        let name = script.file_name().unwrap().to_string_lossy().into_owned();
        if !readme.contains(&name) {
            problems.push(format!("scripts/README.md does not mention {name}"));
        }
        let text = std::fs::read_to_string(script).unwrap();
        for (i, line) in text.lines().enumerate() {
            if line.contains("# ci:") && ci_line(line).is_none() {
                problems.push(format!(
                    "{name}:{}: a `# ci:` line must read `NAME = VALUE   # ci: SMALL`: {line}",
                    i + 1
                ));
            }
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

#[test]
fn ci_lines_are_rewritten() {
    assert_eq!(
        ci_line("size = 5000   # ci: 50").as_deref(),
        Some("size = 50")
    );
    assert_eq!(
        ci_line("sizes = [1e3, 1e4, 1e5]   # ci: [1e2, 1e3]").as_deref(),
        Some("sizes = [1e2, 1e3]")
    );
    assert_eq!(ci_line("    n = 10 # ci: 2").as_deref(), Some("    n = 2"));
    assert_eq!(ci_line("x == 3   # ci: 1"), None);
    assert_eq!(ci_line("# a comment about # ci: sizes"), None);
    assert_eq!(ci_line("size = 5000"), None);
    let (text, shrunk) = shrink("# top\nn = 1000   # ci: 50\nprint(n)\n");
    assert_eq!(text, "# top\nn = 50\nprint(n)\n");
    assert_eq!(shrunk, 1);
}

#[test]
fn masking_keeps_integers_and_hides_times_and_floats() {
    assert_eq!(
        mask_line("time 372 µs · returned after 1.5 ms · H→D 0 · D→H 5,475 (8.0 KB) · kernels 2"),
        "time <t> · returned after <t> · H→D 0 · D→H 5,475 (<f> KB) · kernels 2"
    );
    assert_eq!(
        mask_line("It took this many seconds: 4.63e-05"),
        "It took this many seconds: <f>"
    );
    assert_eq!(
        mask_line("cpu round 1: 12.5 s since the start, the gpu is 4.2× faster"),
        "cpu round 1: <t> since the start, the gpu is <f>× faster"
    );
    assert_eq!(
        mask_line("50 lines, 475 characters; x: [50, 50, 50] f64, 1e-06 GB, 7 s"),
        "50 lines, 475 characters; x: [50, 50, 50] f64, <f> GB, <t>"
    );
    assert_eq!(
        mask_line("│ 51   ┆ 475  ┆ 183 µs  ┆ 29.2% ┆ ███▌  │"),
        "│ 51 ┆ 475 ┆ <t> ┆ <f>% ┆ <bar> │"
    );
    assert_eq!(
        mask_line("hint: 92% of the time went to 100 device→host copies"),
        "hint: <f>% of the time went to 100 device→host copies"
    );
    assert_eq!(mask_line("└────┴──────┘"), "└─┴─┘");
    assert_eq!(
        mask_line("cpu only: no gpu: libcuda.so not found"),
        "cpu only: no gpu: <why>"
    );
    assert_eq!(
        mask("  5.62 µs │            c\n          │  g\n          └────────\n             100     1e3"),
        "<t> │ <plot>\n│ <plot>\n└─\n100 <f>"
    );
}

fn mask(text: &str) -> String {
    text.lines()
        .map(|line| {
            let line = mask_winner(line);
            mask_chart_row(&line, mask_line(&line))
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// Which device wins at the small CI sizes is a matter of microseconds and can go either way
/// from run to run: the winner's name is masked, in sentences and in `:sweep`'s table and verdict.
fn mask_winner(line: &str) -> String {
    if line.starts_with("crossover:") || line.contains("at every size tried") {
        return "<verdict>".to_string();
    }
    line.replace("the cpu is", "the <device> is")
        .replace("the gpu is", "the <device> is")
        .replace("┆ cpu    │", "┆ <faster> │")
        .replace("┆ gpu    │", "┆ <faster> │")
}

/// A row of a chart (`:sweep`'s log-log plot: an indented optional time label, `│`, then marks
/// placed by the measured times) keeps its label and loses its marks.
fn mask_chart_row(original: &str, masked: String) -> String {
    if !original.starts_with(' ') {
        return masked;
    }
    let row = masked.trim_start();
    if row.starts_with('│') {
        "│ <plot>".to_string()
    } else if row.starts_with("<t> │") {
        "<t> │ <plot>".to_string()
    } else {
        masked
    }
}

fn mask_line(line: &str) -> String {
    let chars: Vec<char> = match line.split_once("no gpu: ") {
        Some((before, _)) => format!("{before}no gpu: <why>").chars().collect(),
        None => line.chars().collect(),
    };
    let mut out = String::with_capacity(line.len());
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        // A number starts at a digit that does not continue a name (`f64`, `x2`).
        let starts_number = c.is_ascii_digit() && (i == 0 || !is_word_char(chars[i - 1]));
        if !starts_number {
            if is_bar(c) {
                while i < chars.len() && is_bar(chars[i]) {
                    i += 1;
                }
                out.push_str("<bar>");
                continue;
            }
            out.push(c);
            i += 1;
            continue;
        }
        let (end, fractional) = number_end(&chars, i);
        if let Some(after_unit) = unit_end(&chars, end) {
            out.push_str("<t>");
            i = after_unit;
        } else if fractional || chars.get(end) == Some(&'%') {
            // A whole percentage is a share of measured time, as noisy as the time.
            out.push_str("<f>");
            i = end;
        } else {
            out.extend(&chars[i..end]);
            i = end;
        }
    }
    squeeze(&out)
}

fn is_word_char(c: char) -> bool {
    c.is_alphanumeric() || c == '_'
}

/// The end of the number starting at `i` (digits, an optional `.digits`, an optional exponent) and
/// whether it has a fraction or an exponent.
fn number_end(chars: &[char], mut i: usize) -> (usize, bool) {
    let digits = |mut i: usize| {
        while i < chars.len() && chars[i].is_ascii_digit() {
            i += 1;
        }
        i
    };
    i = digits(i);
    let mut fractional = false;
    if i + 1 < chars.len() && chars[i] == '.' && chars[i + 1].is_ascii_digit() {
        i = digits(i + 1);
        fractional = true;
    }
    if i < chars.len() && (chars[i] == 'e' || chars[i] == 'E') {
        let mut j = i + 1;
        if j < chars.len() && (chars[j] == '+' || chars[j] == '-') {
            j += 1;
        }
        if j < chars.len() && chars[j].is_ascii_digit() {
            i = digits(j);
            fractional = true;
        }
    }
    (i, fractional)
}

/// After a number ending at `i`: one optional space, a time unit, then no letter or digit. Returns
/// where the unit ends.
fn unit_end(chars: &[char], mut i: usize) -> Option<usize> {
    if i < chars.len() && chars[i] == ' ' {
        i += 1;
    }
    ["ns", "µs", "ms", "s"].iter().find_map(|unit| {
        let unit: Vec<char> = unit.chars().collect();
        let end = i + unit.len();
        (end <= chars.len()
            && chars[i..end] == unit[..]
            && chars.get(end).is_none_or(|&c| !is_word_char(c)))
        .then_some(end)
    })
}

/// Block elements (bars, histograms, charts) and braille dots.
fn is_bar(c: char) -> bool {
    ('\u{2580}'..='\u{259F}').contains(&c) || ('\u{2800}'..='\u{28FF}').contains(&c)
}

/// Runs of spaces become one space (leading and trailing ones go); runs of table rules become one.
fn squeeze(line: &str) -> String {
    let mut out = String::with_capacity(line.len());
    for c in line.chars() {
        if (c == ' ' || matches!(c, '─' | '═')) && out.ends_with(c) {
            continue;
        }
        out.push(c);
    }
    out.trim().to_string()
}

fn indent(text: &str) -> String {
    text.lines().map(|l| format!("    {l}\n")).collect()
}
