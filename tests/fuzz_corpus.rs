//! Replays the fuzzers' inputs (`fuzz/`: seeds, the corpora the runs grew, and every input that
//! once crashed or hung arrsh) under the fuzz targets' bounds: each must parse or fail with a
//! positioned error, and run to a result or a clean error, without a panic and in bounded time.

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use arrsh::interp::bounded::{check_parse, run_bounded};

const TIME_LIMIT: Duration = Duration::from_millis(50);
/// An input may run past the limit only by what one statement takes before it sees the interrupt.
const SLOWEST_ALLOWED: Duration = Duration::from_secs(5);

fn inputs(folders: &[&str]) -> Vec<PathBuf> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("fuzz");
    let mut files: Vec<PathBuf> = folders
        .iter()
        .filter_map(|folder| std::fs::read_dir(root.join(folder)).ok())
        .flatten()
        .map(|entry| entry.unwrap().path())
        .filter(|path| path.is_file())
        // The `fuse` target's inputs are bytes for a program generator: tests/fusion.rs runs them.
        .filter(|path| {
            !path
                .file_name()
                .unwrap()
                .to_string_lossy()
                .starts_with("fuse-")
        })
        .collect();
    files.sort();
    files
}

/// The only test in this file: it changes the working directory, where programs may save files.
#[test]
fn fuzz_inputs_never_crash_or_hang() {
    let scratch = Path::new(env!("CARGO_TARGET_TMPDIR")).join("fuzz_corpus");
    let _ = std::fs::remove_dir_all(&scratch);
    std::fs::create_dir_all(&scratch).unwrap();
    std::env::set_current_dir(&scratch).unwrap();
    arrsh::device::host::set_memory_limit(16 << 20);

    let files = inputs(&["seeds", "regressions", "corpus/parse", "corpus/run"]);
    assert!(files.len() >= 400, "only {} fuzz inputs", files.len());
    let mut failures = Vec::new();
    for file in &files {
        let Ok(text) = std::fs::read_to_string(file) else {
            continue;
        };
        let start = Instant::now();
        let parse_text = text.clone();
        let parsed = std::thread::Builder::new()
            .stack_size(arrsh::interp::INTERPRETER_STACK_BYTES)
            .spawn(move || check_parse(&parse_text))
            .unwrap()
            .join()
            .expect("the parser does not panic");
        if let Err(problem) = parsed {
            failures.push(format!("{}: {problem}", file.display()));
        }
        let _ = run_bounded(&text, TIME_LIMIT);
        if start.elapsed() > SLOWEST_ALLOWED {
            failures.push(format!("{}: took {:?}", file.display(), start.elapsed()));
        }
    }
    println!("{} fuzz inputs replayed", files.len());
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
