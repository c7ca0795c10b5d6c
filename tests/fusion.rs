//! Fused against unfused: random programs of elementwise statements — expression trees over all
//! dtypes, broadcasting, strided and reversed views, host scalars, in-place updates through
//! views, reductions of expressions — run through the real binary with fusion on and with
//! `--no-fuse`; the fused run runs the program twice, so that its second time reuses what the
//! first kept (cpu programs, dtype resolutions) over new buffers. Every result is saved as `.npy`
//! and the files must be identical byte for byte (floats too: kernels are compiled without FMA
//! contraction), and so must everything printed — except that a NaN matches any NaN: IEEE 754
//! leaves the sign and payload of a NaN an operation makes unspecified (the gpu's and the cpu's
//! differ, and so may two kernels'), and NumPy's `array_equal(equal_nan=True)` does not look at
//! them either.
//! The programs run on the cpu and, when there is one, on the gpu (`ARRSH_REQUIRE_GPU=1` makes a
//! missing gpu a failure).

mod common;
#[path = "fusion/programs.rs"]
mod programs;

use std::path::{Path, PathBuf};
use std::process::Command;

use programs::{
    difference, expected_of_twice, fused_against_unfused, program, saved_files, twice, Outcome,
    Random,
};

/// What the binary printed and saved running `code`, and whether it stopped at an error.
fn run(dir: &Path, code: &str, device: &str, fuse: bool) -> (Outcome, bool) {
    let _ = std::fs::remove_dir_all(dir);
    std::fs::create_dir_all(dir).unwrap();
    let mut command = Command::new(env!("CARGO_BIN_EXE_arrsh"));
    command.args(["--device", device, "--scalar", "allow"]);
    if !fuse {
        command.arg("--no-fuse");
    }
    let output = command
        .arg("-e")
        .arg(code)
        .current_dir(dir)
        .env("NO_COLOR", "1")
        .output()
        .expect("arrsh runs");
    let printed = format!(
        "{}{}",
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    );
    ((printed, saved_files(dir)), !output.status.success())
}

fn work_dir(name: &str) -> PathBuf {
    std::env::temp_dir().join(format!("arrsh-fusion-{}-{name}", std::process::id()))
}

/// Each seed's program run fused (`twice`) and unfused (seeds share out among threads: on the gpu
/// most of the time is compiling kernels).
fn check_device(device: &str, programs: usize) {
    let seeds: Vec<u64> = (0..programs as u64).collect();
    let verdicts = common::parallel(&seeds, |_, &seed| {
        let code = program(&mut Random::new(seed), 12, "");
        let (fused_dir, plain_dir) = (
            work_dir(&format!("{device}-{seed}-fused")),
            work_dir(&format!("{device}-{seed}-plain")),
        );
        let (fused, _) = run(&fused_dir, &twice(&code), device, true);
        let (plain, failed) = run(&plain_dir, &code, device, false);
        let _ = (
            std::fs::remove_dir_all(&fused_dir),
            std::fs::remove_dir_all(&plain_dir),
        );
        assert!(!fused.0.contains("panicked"), "seed {seed}: {}", fused.0);
        difference(&fused, &expected_of_twice(&plain, failed))
            .map(|why| format!("seed {seed} on {device}: {why}\n--- program ---\n{code}"))
    });
    let failures: Vec<String> = verdicts.into_iter().flatten().collect();
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}

#[test]
fn fused_and_unfused_programs_agree_bit_for_bit_on_the_cpu() {
    check_device("cpu", 40);
}

#[test]
fn fused_and_unfused_programs_agree_bit_for_bit_on_the_gpu() {
    if !common::gpu_or_skip("the gpu fusion test") {
        return;
    }
    check_device("gpu", 40);
}

#[test]
fn generated_programs_run_and_save_their_results() {
    let code = program(&mut Random::new(3), 12, "");
    let dir = work_dir("smoke");
    let ((printed, files), _) = run(&dir, &code, "cpu", true);
    let _ = std::fs::remove_dir_all(&dir);
    assert!(!printed.contains("error"), "{printed}\n{code}");
    assert!(files.iter().any(|(n, _)| n == "acc.npy"), "{printed}");
}

/// A statement too big to join the deferred work runs with it, not after it: it reads `acc` as
/// the pending `acc += x` will leave it, which running that first would have doubled (found by
/// the `fuse` fuzz target).
#[test]
fn a_statement_that_fills_the_batch_reads_what_the_batch_will_write() {
    let big = vec!["x"; 120].join(" + ");
    let code =
        format!("x = arange(5.0)\nacc = zeros(5)\nacc += x\nacc += {big}\nacc += x\nprint(acc)\n");
    for fuse in [true, false] {
        let dir = work_dir(&format!("full-batch-{fuse}"));
        let ((printed, _), _) = run(&dir, &code, "cpu", fuse);
        let _ = std::fs::remove_dir_all(&dir);
        assert_eq!(printed, "[  0. 122. 244. 366. 488.]\n", "fusion {fuse}");
    }
}

/// The inputs of the `fuse` fuzz target's corpus and its regressions (`fuzz/`), run as the fuzzer
/// runs them: made into programs, in this process, fused against unfused.
#[test]
fn the_fuse_fuzz_corpus_agrees() {
    let fuzz = Path::new(env!("CARGO_MANIFEST_DIR")).join("fuzz");
    let mut inputs: Vec<PathBuf> = std::fs::read_dir(fuzz.join("corpus/fuse"))
        .expect("fuzz/corpus/fuse")
        .map(|e| e.unwrap().path())
        .collect();
    inputs.extend(
        std::fs::read_dir(fuzz.join("regressions"))
            .unwrap()
            .map(|e| e.unwrap().path())
            .filter(|p| {
                p.file_name()
                    .unwrap()
                    .to_string_lossy()
                    .starts_with("fuse-")
            }),
    );
    inputs.sort();
    assert!(inputs.len() >= 100, "only {} inputs", inputs.len());
    let verdicts = common::parallel(&inputs, |k, input| {
        let dir = work_dir(&format!("corpus-{k}"));
        std::fs::create_dir_all(&dir).unwrap();
        let code = programs::from_bytes(&std::fs::read(input).unwrap(), &dir);
        let verdict = fused_against_unfused(&code, &dir)
            .map(|why| format!("{}: {why}\n--- program ---\n{code}", input.display()));
        let _ = std::fs::remove_dir_all(&dir);
        verdict
    });
    let failures: Vec<String> = verdicts.into_iter().flatten().collect();
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}
