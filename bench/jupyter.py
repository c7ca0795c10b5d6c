"""The Jupyter kernel's speed against ipykernel's, measured in one run on this machine.

    python3 bench/jupyter.py [--arrsh PATH] [--starts N] [--cells N]

For each kernel: the time from starting the kernel process to the first `execute_reply` (of an
empty cell; median of N starts), the round trip of an empty cell (send `execute_request`, receive
its `execute_reply`; median of N cells), and a cell printing 10,000 lines (every line arrives).
arrsh's kernelspec is installed into a scratch JUPYTER_DATA_DIR; ipykernel's is the `python3` one
(`pip install ipykernel`). Writes bench/RESULTS-jupyter.md.
"""

import argparse
import datetime
import os
import pathlib
import platform
import statistics
import subprocess
import tempfile
import time

import jupyter_client

ROOT = pathlib.Path(__file__).resolve().parents[1]
TIMEOUT = 60


def reply_to(client, msg_id):
    while True:
        message = client.get_shell_msg(timeout=TIMEOUT)
        if message["parent_header"].get("msg_id") == msg_id:
            return message


def first_reply_seconds(kernel_name):
    """Process start to the first execute_reply, the client polling as fast as it can."""
    manager = jupyter_client.KernelManager(kernel_name=kernel_name)
    started = time.perf_counter()
    manager.start_kernel(stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    client = manager.client()
    client.start_channels()
    while True:
        msg_id = client.execute("")
        try:
            client.get_shell_msg(timeout=0.005)
            break
        except Exception:
            continue
    seconds = time.perf_counter() - started
    return seconds, manager, client


def measure(kernel_name, starts, cells):
    start_times = []
    for i in range(starts):
        seconds, manager, client = first_reply_seconds(kernel_name)
        start_times.append(seconds)
        if i + 1 < starts:
            client.stop_channels()
            manager.shutdown_kernel(now=True)
    for _ in range(20):
        reply_to(client, client.execute(""))
    round_trips = []
    for _ in range(cells):
        t = time.perf_counter()
        reply_to(client, client.execute(""))
        round_trips.append(time.perf_counter() - t)
    loop = "for i in range(10000) { print(i) }" if kernel_name != "python3" else "for i in range(10000): print(i)"
    msg_id = client.execute(loop)
    t = time.perf_counter()
    text = []
    while True:
        message = client.get_iopub_msg(timeout=TIMEOUT)
        if message["parent_header"].get("msg_id") != msg_id:
            continue
        if message["msg_type"] == "stream":
            text.append(message["content"]["text"])
        if message["msg_type"] == "status" and message["content"]["execution_state"] == "idle":
            break
    print_seconds = time.perf_counter() - t
    complete = "".join(text) == "".join(f"{i}\n" for i in range(10000))
    client.stop_channels()
    manager.shutdown_kernel(now=True)
    return statistics.median(start_times), statistics.median(round_trips), print_seconds, complete


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--arrsh", default=str(ROOT / "target/release/arrsh"))
    parser.add_argument("--starts", type=int, default=7)
    parser.add_argument("--cells", type=int, default=300)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as data:
        os.environ["JUPYTER_DATA_DIR"] = data
        subprocess.run([args.arrsh, "kernel", "install", "--user", "--name", "arrsh-bench"], check=True,
                       stdout=subprocess.DEVNULL)
        rows = [("arrsh", *measure("arrsh-bench", args.starts, args.cells))]
        try:
            import ipykernel  # noqa: F401
            rows.append(("ipykernel", *measure("python3", args.starts, args.cells)))
        except ImportError:
            print("ipykernel is not installed: arrsh only")
    lines = [
        "# The Jupyter kernel against ipykernel",
        "",
        f"{platform.node()} · {os.cpu_count()} cores · {datetime.date.today()} · jupyter_client "
        f"{jupyter_client.__version__} · `python3 bench/jupyter.py` (medians of {args.starts} starts and "
        f"{args.cells} empty cells)",
        "",
        "| kernel | start to first execute_reply | empty cell round trip | 10,000 printed lines | all lines arrived |",
        "|---|---|---|---|---|",
    ]
    for name, start, trip, printing, complete in rows:
        lines.append(f"| {name} | {start * 1000:.0f} ms | {trip * 1000:.2f} ms | {printing * 1000:.0f} ms | "
                     f"{'yes' if complete else 'NO'} |")
    if len(rows) == 2:
        lines += ["", f"arrsh / ipykernel: start {rows[0][1] / rows[1][1]:.2f}, empty cell "
                      f"{rows[0][2] / rows[1][2]:.2f}, 10,000 lines {rows[0][3] / rows[1][3]:.2f}"]
    lines += ["", "Targets: start ≤ 0.5 s on the cpu, empty cell ≤ 5 ms, no line lost."]
    text = "\n".join(lines) + "\n"
    print(text)
    (ROOT / "bench/RESULTS-jupyter.md").write_text(text)


main()
