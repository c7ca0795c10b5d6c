//! Replays the fuzzers' inputs (`fuzz/`: seeds, the corpora the runs grew, and every input that
//! once crashed or hung arrsh) under the fuzz targets' bounds: each must parse or fail with a
//! positioned error, and run to a result or a clean error, without a panic and in bounded time.
//! Then calls every built-in of the table the same way with arguments it cannot take: each of its
//! parameters given odd values, too many arguments, none, and a keyword it does not have.

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use arrsh::error::ErrorKind;
use arrsh::interp::bounded::{check_parse, run_bounded};
use arrsh::interp::builtins::{self, Builtin};

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
fn fuzz_inputs_and_odd_calls_of_every_builtin_end_cleanly() {
    let scratch = Path::new(env!("CARGO_TARGET_TMPDIR")).join("fuzz_corpus");
    let _ = std::fs::remove_dir_all(&scratch);
    std::fs::create_dir_all(&scratch).unwrap();
    std::env::set_current_dir(&scratch).unwrap();
    arrsh::device::host::set_memory_limit(16 << 20);
    replay_fuzz_inputs();
    call_every_builtin_with_what_it_cannot_take();
}

fn replay_fuzz_inputs() {
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

/// Values no parameter of any built-in expects all of; each in turn takes one parameter's place.
const ODD_VALUES: &[&str] = &[
    "none",
    "print",
    "[[1], [2, 3]]",
    "-1",
    "2**62",
    "nan",
    "\"x\"",
    "zeros([0, 3])",
    "arange(24).reshape([2, 3, 4])",
];
/// What fills the other required parameters.
const PLAIN_VALUE: &str = "arange(6.0)";

/// Every built-in, with each positional parameter given each odd value (the others a plain
/// array), must run to a result or an error, never a panic, within the time bounds; and its
/// arguments are checked before it runs: too many, a required one missing, an unknown keyword are
/// type errors at the call.
fn call_every_builtin_with_what_it_cannot_take() {
    let mut failures = Vec::new();
    let mut calls = 0;
    for b in builtins::all() {
        let fixed = b.params.iter().take_while(|p| !p.starts_with('*')).count();
        let required = b
            .params
            .iter()
            .filter(|p| !p.ends_with('=') && !p.starts_with('*'))
            .count();
        for position in 0..fixed {
            for odd in ODD_VALUES {
                let args: Vec<&str> = (0..required.max(position + 1))
                    .map(|i| if i == position { *odd } else { PLAIN_VALUE })
                    .collect();
                let code = format!("{}({})", b.name, args.join(", "));
                let start = Instant::now();
                let ended = std::panic::catch_unwind(|| run_bounded(&code, TIME_LIMIT));
                calls += 1;
                if ended.is_err() {
                    failures.push(format!("{code}: panicked"));
                } else if start.elapsed() > SLOWEST_ALLOWED {
                    failures.push(format!("{code}: took {:?}", start.elapsed()));
                }
            }
        }
        let mut refused = vec![(format!("{}(bogus_keyword=1)", b.name), "unexpected keyword")];
        if fixed == b.params.len() {
            let zeros = vec!["0"; fixed + 1].join(", ");
            refused.push((format!("{}({zeros})", b.name), "takes at most"));
        }
        if required > 0 {
            refused.push((format!("{}()", b.name), "is missing the argument"));
        }
        for (code, words) in refused {
            calls += 1;
            if let Some(problem) = refusal_problem(b, &code, words) {
                failures.push(format!("{code}: {problem}"));
            }
        }
    }
    println!("{calls} calls of {} built-ins", builtins::all().len());
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// Why `code`, a call of `b` with arguments it cannot take, did not fail as it should: a type
/// error at the call (line 1, column 1) whose message names `b` and says `words`.
fn refusal_problem(b: &Builtin, code: &str, words: &str) -> Option<String> {
    let error = match run_bounded(code, TIME_LIMIT) {
        Ok(()) => return Some("ran".to_string()),
        Err(error) => error,
    };
    let at_call = error.span.is_some_and(|span| span.start == 0);
    let named = error.message.contains(&b.signature()) && error.message.contains(words);
    (error.kind != ErrorKind::Type || !at_call || !named).then(|| {
        format!(
            "{:?} at {:?}: {} (expected a type error at the call saying {words:?})",
            error.kind, error.span, error.message
        )
    })
}
