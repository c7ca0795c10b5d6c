//! `arrsh kernel` driven by a real Jupyter client (`jupyter_client`, from PyPI): the
//! kernelspec it installs, cells, errors, completion, inspection, interrupts, a restart, a
//! forged message. The checks themselves are in `tests/jupyter/drive_kernel.py`.

mod common;

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn arrsh(args: &[&str], data_dir: &Path) -> Output {
    Command::new(env!("CARGO_BIN_EXE_arrsh"))
        .args(args)
        .env("JUPYTER_DATA_DIR", data_dir)
        .output()
        .expect("arrsh runs")
}

/// True when `jupyter_client` and `nbclient` can be imported; otherwise says so and returns false, unless
/// `ARRSH_REQUIRE_JUPYTER` is set (CI sets it): then its absence fails the test.
fn jupyter_client_or_skip() -> bool {
    let present = Command::new("python3")
        .args(["-c", "import jupyter_client, nbclient"])
        .output()
        .is_ok_and(|o| o.status.success());
    if !present {
        assert!(
            std::env::var_os("ARRSH_REQUIRE_JUPYTER").is_none(),
            "jupyter_client or nbclient is not installed and ARRSH_REQUIRE_JUPYTER is set"
        );
        println!("skipped: jupyter_client or nbclient not installed");
    }
    present
}

/// Installs the kernelspec `name` into a scratch Jupyter data directory and runs the Python
/// program `tests/jupyter/SCRIPT` with `args` against it (and, with `kernel_log`, the path of a
/// file for the kernel's own stderr, shown if the program fails); the program must succeed.
/// Returns the data directory.
fn run_client(test: &str, name: &str, script: &str, args: &[&str], kernel_log: bool) -> PathBuf {
    let dir = common::work_dir("jupyter", test);
    let data = dir.join("data");
    let installed = arrsh(&["kernel", "install", "--user", "--name", name], &data);
    assert!(installed.status.success(), "{installed:?}");
    let program = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/jupyter")
        .join(script);
    let log = dir.join("kernel.log");
    let mut command = Command::new("python3");
    command.arg(&program).args(args);
    if kernel_log {
        command.arg(&log);
    }
    let out = command
        .env("JUPYTER_DATA_DIR", &data)
        .env("JUPYTER_RUNTIME_DIR", dir.join("runtime"))
        .env("NO_COLOR", "1")
        .output()
        .expect("python3 runs");
    let stdout = String::from_utf8_lossy(&out.stdout);
    println!("{stdout}");
    assert!(
        out.status.success(),
        "{script} failed:\n{stdout}\n{}\n--- kernel log ---\n{}",
        String::from_utf8_lossy(&out.stderr),
        std::fs::read_to_string(&log).unwrap_or_default()
    );
    data
}

#[test]
fn a_jupyter_client_drives_the_kernel() {
    if !jupyter_client_or_skip() {
        return;
    }
    let data = run_client(
        "client",
        "arrsh-test",
        "drive_kernel.py",
        &["arrsh-test"],
        true,
    );
    let spec = std::fs::read_to_string(data.join("kernels/arrsh-test/kernel.json")).unwrap();
    assert!(spec.contains("{connection_file}") && spec.contains("\"language\": \"arrsh\""));
    let removed = arrsh(
        &["kernel", "remove", "--user", "--name", "arrsh-test"],
        &data,
    );
    assert!(removed.status.success(), "{removed:?}");
    assert!(!data.join("kernels/arrsh-test").exists());
}

/// CI runs every notebook in `notebooks/` on the cpu, small sizes, and fails on any error output.
#[test]
fn every_notebook_runs_without_errors() {
    if !jupyter_client_or_skip() {
        return;
    }
    let notebooks = ["arrsh-notebooks", "ci"];
    run_client(
        "notebooks",
        "arrsh-notebooks",
        "run_notebooks.py",
        &notebooks,
        false,
    );
}

#[test]
fn kernelspecs_are_installed_and_removed_with_clear_errors() {
    let dir = common::work_dir("jupyter", "spec");
    let prefix = dir.join("prefix");
    let prefix_arg = prefix.display().to_string();
    let installed = arrsh(
        &[
            "kernel",
            "install",
            "--prefix",
            &prefix_arg,
            "--device",
            "gpu",
        ],
        &dir,
    );
    assert!(installed.status.success(), "{installed:?}");
    let kernel_dir = prefix.join("share/jupyter/kernels/arrsh");
    let spec = std::fs::read_to_string(kernel_dir.join("kernel.json")).unwrap();
    assert!(
        spec.contains("\"--device\",\n    \"gpu\"") && spec.contains("arrsh (gpu)"),
        "{spec}"
    );
    for size in [32u32, 64] {
        let png = std::fs::read(kernel_dir.join(format!("logo-{size}x{size}.png"))).unwrap();
        assert_eq!(&png[1..4], b"PNG");
        assert_eq!(png[16..20], size.to_be_bytes(), "width");
        assert_eq!(png[20..24], size.to_be_bytes(), "height");
    }
    let removed = arrsh(&["kernel", "remove", "--prefix", &prefix_arg], &dir);
    assert!(removed.status.success());
    let again = arrsh(&["kernel", "remove", "--prefix", &prefix_arg], &dir);
    assert_eq!(again.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&again.stderr).contains("no kernelspec `arrsh`"));
    let bad = arrsh(
        &["kernel", "install", "--user", "--name", "a b"],
        &dir.join("d"),
    );
    assert_eq!(bad.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&bad.stderr).contains("is not a kernel name"));
    let bare = arrsh(&["kernel"], &dir);
    assert_eq!(bare.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&bare.stderr).contains("--connection-file"));
    let missing = arrsh(&["kernel", "--connection-file", "no-such.json"], &dir);
    assert_eq!(missing.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&missing.stderr).contains("cannot read the connection file"));
}
