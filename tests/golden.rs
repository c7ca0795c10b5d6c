//! Golden scripts: every `tests/scripts/*.arr` runs through the real `arrsh` binary, in a fresh
//! directory of its own, and what it prints must match the `.out` file beside it:
//! stdout, then `--- stderr` and stderr when there is any, then `--- exit N` when N is not 0.
//! `BLESS=1 cargo test --test golden` rewrites the `.out` files from the current binary (review the diff).
//! A first line `# args: --device gpu` passes extra arguments, `# env: KEY=FILE` sets KEY to
//! the path of FILE beside the scripts; `# needs: gpu` skips the script
//! (reported, never silently passed) where no gpu is present; such scripts belong to the gpu run
//! and their expected output is `NAME.gpu.out`. The whole suite runs a second time
//! with `--device gpu` (see `run_suite`); without a gpu that run reports itself skipped, and with
//! `ARRSH_REQUIRE_GPU=1` a skip is a failure.
//! Durations (`12.3 ms`) and shares (`95.5%`) are masked in both texts: times vary, counts do not.

mod common;

use common::line_diff;
use std::path::{Path, PathBuf};
use std::process::Command;

fn scripts_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/scripts")
}

fn header_value<'a>(script: &'a str, key: &str) -> Option<&'a str> {
    script
        .lines()
        .take_while(|l| l.starts_with('#'))
        .find_map(|l| {
            l.strip_prefix('#')?
                .trim()
                .strip_prefix(key)?
                .strip_prefix(':')
                .map(str::trim)
        })
}

fn run_script(path: &Path, device: Option<&str>) -> String {
    let text = std::fs::read_to_string(path).unwrap();
    let name = path.file_name().unwrap();
    let workdir = std::env::temp_dir().join(format!(
        "arrsh-golden-{}-{}-{}",
        std::process::id(),
        device.unwrap_or("default"),
        name.to_string_lossy()
    ));
    let _ = std::fs::remove_dir_all(&workdir);
    std::fs::create_dir_all(&workdir).unwrap();
    std::fs::copy(path, workdir.join(name)).unwrap();
    let mut command = Command::new(env!("CARGO_BIN_EXE_arrsh"));
    if let Some(device) = device {
        command.args(["--device", device]);
    }
    if let Some(args) = header_value(&text, "args") {
        command.args(args.split_whitespace());
    }
    if let Some((key, file)) = header_value(&text, "env").and_then(|e| e.split_once('=')) {
        command.env(key, scripts_dir().join(file));
    }
    let output = command
        .arg(name)
        .current_dir(&workdir)
        .env("NO_COLOR", "1")
        .output()
        .expect("arrsh runs");
    let _ = std::fs::remove_dir_all(&workdir);
    let mut text = String::from_utf8_lossy(&output.stdout).into_owned();
    let stderr = String::from_utf8_lossy(&output.stderr);
    if !stderr.is_empty() {
        text.push_str("--- stderr\n");
        text.push_str(&stderr);
    }
    match output.status.code() {
        Some(0) => {}
        Some(code) => text.push_str(&format!("--- exit {code}\n")),
        None => text.push_str("--- killed by a signal\n"),
    }
    text
}

fn gpu_present() -> bool {
    Command::new(env!("CARGO_BIN_EXE_arrsh"))
        .args(["-e", "assert(len(devices()) == 2)"])
        .status()
        .map(|s| s.success())
        .unwrap_or(false)
}

fn golden_scripts_list() -> Vec<PathBuf> {
    let mut scripts: Vec<PathBuf> = std::fs::read_dir(scripts_dir())
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "arr"))
        .collect();
    scripts.sort();
    assert!(!scripts.is_empty(), "no golden scripts found");
    scripts
}

/// Runs every golden script, with `--device gpu` when `on_gpu`. On the gpu a script's expected
/// output is `NAME.gpu.out` where one exists (reprs say `device=gpu`, counters are not zero),
/// else the same `NAME.out` as on the cpu; `BLESS=1` writes a `.gpu.out` only where the gpu's
/// output differs from the cpu's. A `# devices: cpu` header keeps a script off the gpu run.
fn run_suite(on_gpu: bool) {
    let bless = std::env::var_os("BLESS").is_some();
    let require_gpu = std::env::var_os("ARRSH_REQUIRE_GPU").is_some();
    let has_gpu = gpu_present();
    if on_gpu && !has_gpu {
        assert!(
            !require_gpu,
            "the gpu golden run needs a gpu and ARRSH_REQUIRE_GPU is set"
        );
        println!("skipped: no gpu: the golden suite on --device gpu");
        return;
    }
    let mut failures = Vec::new();
    let mut passed = 0;
    let mut skipped = 0;
    for script in &golden_scripts_list() {
        let text = std::fs::read_to_string(script).unwrap();
        let needs_gpu = header_value(&text, "needs") == Some("gpu");
        if (on_gpu && header_value(&text, "devices") == Some("cpu")) || (!on_gpu && needs_gpu) {
            continue;
        }
        if needs_gpu && !has_gpu {
            if require_gpu {
                failures.push(format!(
                    "{}: needs a gpu and ARRSH_REQUIRE_GPU is set",
                    script.display()
                ));
            } else {
                println!("skipped: no gpu: {}", script.display());
                skipped += 1;
            }
            continue;
        }
        let actual = run_script(script, on_gpu.then_some("gpu"));
        let cpu_path = script.with_extension("out");
        let gpu_path = script.with_extension("gpu.out");
        let expected_path = if on_gpu && gpu_path.exists() {
            &gpu_path
        } else {
            &cpu_path
        };
        if bless {
            let cpu_text = std::fs::read_to_string(&cpu_path).unwrap_or_default();
            if !on_gpu {
                std::fs::write(&cpu_path, &actual).unwrap();
            } else if mask_durations(&actual) != mask_durations(&cpu_text) {
                std::fs::write(&gpu_path, &actual).unwrap();
            } else if gpu_path.exists() {
                std::fs::remove_file(&gpu_path).unwrap();
            }
            passed += 1;
            continue;
        }
        let expected = std::fs::read_to_string(expected_path).unwrap_or_default();
        if mask_durations(&actual) == mask_durations(&expected) {
            passed += 1;
        } else {
            failures.push(format!(
                "{}{}:\n{}",
                script.display(),
                if on_gpu { " (--device gpu)" } else { "" },
                line_diff(&expected, &actual)
            ));
        }
    }
    println!(
        "golden scripts{}: {passed} passed, {} failed, {skipped} skipped",
        if on_gpu { " on the gpu" } else { "" },
        failures.len()
    );
    assert!(
        failures.is_empty(),
        "golden mismatches:\n\n{}",
        failures.join("\n")
    );
}

#[test]
fn golden_scripts() {
    run_suite(false);
}

#[test]
fn golden_scripts_on_the_gpu() {
    run_suite(true);
}

/// Without a gpu, `device=auto` is the cpu: it says so once, and work runs as on the cpu.
#[test]
fn auto_without_a_gpu_is_the_cpu_and_says_so_once() {
    if gpu_present() {
        println!("skipped: a gpu is present (tests/scripts/placement_auto.arr covers auto there)");
        return;
    }
    let output = Command::new(env!("CARGO_BIN_EXE_arrsh"))
        .args(["--device", "auto", "-e"])
        .arg(":device auto\n:device cpu\n:device auto\nx = rand(1e6)\nprint(x.device, zeros(3, device=auto).device, sum(x * 0 + 1))")
        .env("NO_COLOR", "1")
        .output()
        .expect("arrsh runs");
    assert!(output.status.success());
    assert_eq!(
        String::from_utf8_lossy(&output.stdout),
        "cpu cpu 1000000.0\n"
    );
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(
        stderr.matches("device auto: no usable gpu (").count(),
        1,
        "{stderr}"
    );
    assert!(
        stderr.ends_with("), so everything runs on the cpu\n"),
        "{stderr}"
    );
}

/// `:threads` says how many threads a parallel loop gets. With `--threads 1` the interpreter's
/// thread is that pool's one thread; after `:threads all` loops get one a core (3 here), not the
/// pool the interpreter's thread belongs to.
#[test]
fn threads_reports_the_threads_a_loop_gets() {
    let dir = common::work_dir("golden", "threads");
    let script = ":threads\nx = sum(ones(100000) * 2)\n:threads all\n:threads\n:threads 2\n:threads\n:threads 1\n:threads\n";
    let out = common::run_stdin_with_env(
        &["--threads", "1", "-"],
        &dir,
        script,
        &[("RAYON_NUM_THREADS", "3")],
    );
    let stderr = String::from_utf8_lossy(&out.stderr);
    let counts: Vec<&str> = (stderr.lines())
        .filter_map(|line| line.strip_prefix("cpu worker threads: "))
        .filter_map(|rest| rest.split(' ').next())
        .collect();
    assert_eq!(counts, ["1", "3", "2", "1"], "{stderr}");
    assert!(out.status.success(), "{stderr}");
}

/// `code` run under `device=auto` with the test model and `flags`, which must succeed: what it
/// printed, stderr then stdout.
fn run_auto(flags: &[&str], code: &str) -> String {
    let output = Command::new(env!("CARGO_BIN_EXE_arrsh"))
        .args(["--device", "auto"])
        .args(flags)
        .args(["-e", code])
        .env("NO_COLOR", "1")
        .env(
            "ARRSH_PLACEMENT_MODEL",
            scripts_dir().join("placement.model"),
        )
        .output()
        .expect("arrsh runs");
    let shown = String::from_utf8_lossy(&output.stderr).into_owned()
        + &String::from_utf8_lossy(&output.stdout);
    assert!(output.status.success(), "{shown}");
    shown
}

/// `--profile` under `device=auto` lists each line's decisions, made as often as they were.
#[test]
fn the_profile_lists_the_decisions_of_auto() {
    if !common::gpu_or_skip("the_profile_lists_the_decisions_of_auto") {
        return;
    }
    let shown = run_auto(
        &["--profile"],
        "x = rand(100000)\nfor i in range(3) { y = x * 2 + 1 }\ns = sum(x)",
    );
    for line in 1..=3 {
        assert!(
            shown.contains(&format!("\nline {line}, device auto: ")),
            "line {line}: {shown}"
        );
    }
    assert!(shown.contains(" (6 times)\n"), "{shown}");
}

/// `:sweep` refits `device=auto`'s lines for the one class of work its body stands for, and
/// says why not when the body mixes classes; `:device` shows the refined crossover. Without a
/// gpu a sweep has nothing to compare, and says nothing about the model.
#[test]
fn a_sweep_refines_the_model_for_auto() {
    let sweep = |body: &str| {
        run_auto(
            &[],
            &format!(":sweep for n in [1e3, 1e5, 1e7] {{ {body} }}\n:device"),
        )
    };
    if !gpu_present() {
        assert!(
            std::env::var_os("ARRSH_REQUIRE_GPU").is_none(),
            "needs a gpu"
        );
        let shown = sweep("x = ones(n); y = x * 2 + 1");
        assert!(!shown.contains("the model"), "{shown}");
        println!("skipped: no gpu");
        return;
    }
    let shown = sweep("x = ones(n); y = x * 2 + 1");
    let refined =
        "device auto: the model's elementwise work now fits this sweep; its crossover 12,122 → ";
    let after = shown
        .split_once(refined)
        .and_then(|(_, rest)| rest.split_once(" elements (:calibrate measures it again)\n"))
        .map(|(crossover, _)| crossover.to_string())
        .unwrap_or_else(|| panic!("{shown}"));
    // :device's table: the elementwise row ends with the refined crossover.
    let row = shown
        .lines()
        .find(|l| {
            l.trim_start_matches(['│', '|', ' '])
                .starts_with("elementwise ")
        })
        .unwrap_or_else(|| panic!("{shown}"));
    let expected = format!("{after} elements");
    assert!(
        row.trim_end_matches(['│', '|', ' ']).ends_with(&expected),
        "{row} / {after}"
    );
    let mixed = sweep("x = ones(n); s = sum(x); t = max(x)");
    assert!(
        mixed.contains("device auto: the model is unchanged: no one class of work dominates the body (elementwise work, reductions); sweep one at a time\n"),
        "{mixed}"
    );
}

/// Replaces every duration (`12.3 ms`, `812 ns`) with `<t>` and every share (`95.5%`) with
/// `<p>%`, and squeezes runs of spaces and of table rules, so that table columns sized by a
/// duration compare equal.
/// Durations masked; the unsynced-timer note is left out, since whether a statement's device
/// time outlasts its return enough to earn it depends on the machine's timing.
fn mask_durations(text: &str) -> String {
    text.lines()
        .filter(|line| {
            !line
                .trim_start()
                .starts_with("an unsynced timer would have shown")
        })
        .map(mask_line)
        .collect::<Vec<_>>()
        .join("\n")
}

fn mask_line(line: &str) -> String {
    let tokens: Vec<&str> = line.split(' ').filter(|t| !t.is_empty()).collect();
    let mut out: Vec<String> = Vec::with_capacity(tokens.len());
    let mut i = 0;
    while i < tokens.len() {
        let unit_rest = tokens.get(i + 1).and_then(|t| strip_unit(t));
        match (tokens[i].parse::<f64>(), unit_rest) {
            (Ok(_), Some(rest)) => {
                out.push(format!("<t>{rest}"));
                i += 2;
            }
            _ if tokens[i]
                .strip_suffix('%')
                .is_some_and(|p| p.parse::<f64>().is_ok()) =>
            {
                out.push("<p>%".to_string());
                i += 1;
            }
            _ => {
                out.push(squeeze_rules(tokens[i]));
                i += 1;
            }
        }
    }
    out.join(" ")
}

fn strip_unit(token: &str) -> Option<&str> {
    ["ns", "µs", "ms", "s"].iter().find_map(|unit| {
        let rest = token.strip_prefix(unit)?;
        (!rest.starts_with(char::is_alphanumeric)).then_some(rest)
    })
}

fn squeeze_rules(token: &str) -> String {
    let mut out = String::new();
    for c in token.chars() {
        if matches!(c, '─' | '═') && out.ends_with(c) {
            continue;
        }
        out.push(c);
    }
    out
}
