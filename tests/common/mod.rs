//! Helpers shared by the integration tests.

use std::path::Path;
use std::process::{Command, Output};

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
