//! `arrsh kernel` driven by a real Jupyter client (`jupyter_client`, from PyPI): the
//! kernelspec it installs, cells, errors, completion, inspection, interrupts, a restart, a
//! forged message. The checks themselves are in `tests/jupyter/drive_kernel.py`. Sessions that
//! need no Python (a failed cell, a gpu fault) are driven from Rust over ZeroMQ.

mod common;

use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::sync::{Mutex, MutexGuard, PoisonError};

/// The tests' kernels start one at a time: a client picks free ports and the kernel binds them a
/// moment later, and a kernel of another test started in between once took one of them
/// (`Address already in use`).
fn one_kernel_at_a_time() -> MutexGuard<'static, ()> {
    static KERNELS: Mutex<()> = Mutex::new(());
    KERNELS.lock().unwrap_or_else(PoisonError::into_inner)
}

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
    let _kernel = one_kernel_at_a_time();
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

/// Runs `cells` in turn in a kernel started with `env`, driven over ZeroMQ from Rust (no Python
/// client needed): each cell's outcome, `Err` with the error's text when it failed.
fn run_cells(test: &str, env: &[(&str, &str)], cells: &[&str]) -> Vec<Result<(), String>> {
    let _kernel = one_kernel_at_a_time();
    let dir = common::work_dir("jupyter", test);
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    runtime.block_on(async {
        let ip = "127.0.0.1".parse().unwrap();
        let ports = jupyter_zmq_client::peek_ports(ip, 5).await.unwrap();
        let info = jupyter_protocol::ConnectionInfo {
            ip: "127.0.0.1".into(),
            transport: jupyter_protocol::connection_info::Transport::TCP,
            shell_port: ports[0],
            iopub_port: ports[1],
            stdin_port: ports[2],
            control_port: ports[3],
            hb_port: ports[4],
            key: uuid::Uuid::new_v4().to_string(),
            signature_scheme: "hmac-sha256".into(),
            kernel_name: None,
        };
        let file = dir.join("connection.json");
        std::fs::write(&file, serde_json::to_string(&info).unwrap()).unwrap();
        let mut kernel = Command::new(env!("CARGO_BIN_EXE_arrsh"))
            .args(["kernel", "--connection-file"])
            .arg(&file)
            .envs(env.iter().copied())
            .env("NO_COLOR", "1")
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::null())
            .spawn()
            .unwrap();
        let session = uuid::Uuid::new_v4().to_string();
        let identity = jupyter_zmq_client::peer_identity_for_session(&session).unwrap();
        let mut shell = None;
        for _ in 0..100 {
            let connected = jupyter_zmq_client::create_client_shell_connection_with_identity(
                &info,
                &session,
                identity.clone(),
            )
            .await;
            match connected {
                Ok(s) => {
                    shell = Some(s);
                    break;
                }
                Err(_) => tokio::time::sleep(std::time::Duration::from_millis(100)).await,
            }
        }
        let mut shell = shell.expect("the kernel's shell socket is reachable");
        let mut outcomes = Vec::new();
        for code in cells {
            let request = jupyter_protocol::ExecuteRequest::new(code.to_string());
            shell.send(request.into()).await.unwrap();
            let reply = tokio::time::timeout(std::time::Duration::from_secs(120), shell.read())
                .await
                .expect("the kernel replies")
                .unwrap();
            outcomes.push(match reply.content {
                jupyter_protocol::JupyterMessageContent::ExecuteReply(r) => match r.error {
                    None => Ok(()),
                    Some(e) => Err(e.evalue),
                },
                other => panic!("not an execute reply: {other:?}"),
            });
        }
        let _ = kernel.kill();
        let _ = kernel.wait();
        outcomes
    })
}

/// A failed cell leaves the kernel's session as it was: its assignments are undone.
#[test]
fn a_failed_cell_leaves_the_session_as_it_was() {
    let outcomes = run_cells(
        "failed_cell",
        &[],
        &["x = 5", "x = 6\ny = undefined_name", "assert(x == 5)"],
    );
    assert_eq!(outcomes[0], Ok(()));
    assert_eq!(
        outcomes[1],
        Err("name `undefined_name` is not defined".into())
    );
    assert_eq!(outcomes[2], Ok(()));
}

/// With every conv2d kernel faulting on the device, the cell that faults loses the gpu's state;
/// a later cell's name that held a gpu array is an error naming the cell where it was lost, the
/// cpu variables are kept, and new gpu work either runs on a fresh context or says that only a
/// restart brings the gpu back (what today's drivers allow).
#[test]
fn gpu_arrays_are_lost_after_a_fault_in_the_kernel() {
    if !common::gpu_or_skip("gpu_arrays_are_lost_after_a_fault_in_the_kernel") {
        return;
    }
    let outcomes = run_cells(
        "gpu_fault",
        &[("ARRSH_GPU_FAULT", "conv2d:trap")],
        &[
            "x = 5\ng = arange(3, device=gpu)\nassert(sum(g) == 3)",
            "c = conv2d(ones([8, 8], device=gpu), ones([3, 3], device=gpu))\nsync()",
            "y = x + 1\ng",
            "assert(x == 5)",
            "h = arange(3, device=gpu) * 2\nassert(sum(h) == 6)",
        ],
    );
    assert_eq!(outcomes[0], Ok(()));
    let fault = outcomes[1].as_ref().unwrap_err();
    assert!(fault.contains("the gpu's state is lost"), "{fault}");
    let lost = outcomes[2].as_ref().unwrap_err();
    let restarted = lost.ends_with("make it again");
    let advice = if restarted {
        "make it again"
    } else {
        "restart arrsh to use the gpu again (CUDA cannot start it again in this process)"
    };
    assert_eq!(
        lost,
        &format!("`g` was on the gpu when its state was lost at line 2 of <cell 2>; {advice}")
    );
    assert_eq!(outcomes[3], Ok(()));
    match &outcomes[4] {
        Ok(()) => assert!(restarted),
        Err(e) => assert!(
            !restarted && e.contains("CUDA cannot start it again"),
            "{e}"
        ),
    }
}
