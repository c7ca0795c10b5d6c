"""Drives `arrsh kernel` through jupyter_client, as a notebook front end does.

Run by tests/jupyter_kernel.rs with JUPYTER_DATA_DIR pointing at a directory where
`arrsh kernel install --user` put the kernelspec, and with the path of a file to log the
kernel's own stderr in. Each check prints `ok: ...`; the first failure raises.
"""

import sys
import time

import jupyter_client
from jupyter_client.session import Session

KERNEL = sys.argv[1]
KERNEL_LOG = sys.argv[2]
PROFILED = KERNEL_LOG + ".profiled.arr"
TIMEOUT = 20


def check(condition, what, detail=""):
    if not condition:
        raise AssertionError(f"{what}\n{detail}")
    print(f"ok: {what}")


class Cell:
    """One executed cell: its reply and its iopub messages, in order."""

    def __init__(self, client, code, wait=True, silent=False):
        self.client = client
        self.msg_id = client.execute(code, silent=silent)
        self.reply = None
        self.outputs = []
        if wait:
            self.wait()

    def wait(self):
        while True:
            message = self.client.get_iopub_msg(timeout=TIMEOUT)
            if message["parent_header"].get("msg_id") != self.msg_id:
                continue
            kind, content = message["msg_type"], message["content"]
            if kind == "status":
                if content["execution_state"] == "idle":
                    break
                continue
            self.outputs.append((kind, content))
        while self.reply is None:
            message = self.client.get_shell_msg(timeout=TIMEOUT)
            if message["parent_header"].get("msg_id") == self.msg_id:
                self.reply = message["content"]
        return self

    def stream(self, name):
        return "".join(c["text"] for k, c in self.outputs if k == "stream" and c["name"] == name)

    def kinds(self):
        return [k for k, _ in self.outputs if k != "execute_input"]

    def result(self):
        results = [c for k, c in self.outputs if k == "execute_result"]
        return results[-1]["data"] if results else None

    def error(self):
        errors = [c for k, c in self.outputs if k == "error"]
        return errors[-1] if errors else None


def request(client, channel, kind, content):
    """Sends `kind` on shell or control and returns the reply's content."""
    message = client.session.msg(kind, content)
    getattr(client, f"{channel}_channel").send(message)
    getter = client.get_shell_msg if channel == "shell" else client.get_control_msg
    while True:
        reply = getter(timeout=TIMEOUT)
        if reply["parent_header"].get("msg_id") == message["header"]["msg_id"]:
            return reply["content"]


def start():
    manager = jupyter_client.KernelManager(kernel_name=KERNEL)
    log = open(KERNEL_LOG, "w")
    started = time.perf_counter()
    manager.start_kernel(stdout=log, stderr=log)
    client = manager.client()
    client.start_channels()
    client.wait_for_ready(timeout=TIMEOUT)
    return manager, client, time.perf_counter() - started


def main():
    manager, client, seconds = start()
    print(f"kernel ready in {seconds * 1000:.0f} ms")
    try:
        checks(manager, client)
    finally:
        if manager.is_alive():
            manager.shutdown_kernel(now=True)
        client.stop_channels()


def checks(manager, client):
    info = request(client, "shell", "kernel_info_request", {})
    check(info["protocol_version"] == "5.3", "kernel_info: protocol 5.3", info)
    check(info["language_info"]["name"] == "arrsh", "kernel_info: the language is arrsh", info)
    check(info["language_info"]["file_extension"] == ".arr", "kernel_info: scripts end in .arr")

    cell = Cell(client, "x = arange(6.0)\nprint(x * 2)\nreshape(x, [2, 3])")
    check(cell.reply["status"] == "ok", "a cell runs", cell.reply)
    check(cell.stream("stdout") == "[ 0.  2.  4.  6.  8. 10.]\n", "print is a stdout stream", cell.outputs)
    result = cell.result()
    check(result["text/plain"] == "array([[0., 1., 2.],\n       [3., 4., 5.]])", "the last value is the result")
    check("<td>5.</td>" in result["text/html"] and "2×3 float64 on cpu" in result["text/html"],
          "a 2-d array's result has an HTML table", result)
    check(cell.kinds() == ["stream", "execute_result"], "outputs come in the order they were made", cell.kinds())
    check(cell.reply["execution_count"] == 1, "the first cell is counted 1", cell.reply)

    cell = Cell(client, "1\n2")
    check(cell.kinds() == ["display_data", "execute_result"], "an earlier value is shown, the last is the result")
    check(cell.result()["text/plain"] == "2", "the cell's result is its last value", cell.outputs)

    cell = Cell(client, "print(5)\nquiet_value = 7\nquiet_value", silent=True)
    check(cell.outputs == [] and cell.reply["status"] == "ok", "a silent cell publishes nothing", cell.outputs)
    cell = Cell(client, "quiet_value")
    check(cell.result()["text/plain"] == "7" and cell.reply["execution_count"] == 3,
          "a silent cell runs, uncounted", cell.reply)

    cell = Cell(client, "x = 99\nfloor(x) + undefined_name")
    error = cell.error()
    check(cell.reply["status"] == "error" and error is not None, "an error is reported", cell.outputs)
    check(error["ename"] == "name error", "the error's name is arr's kind", error)
    check(error["traceback"][0].startswith("<cell 4>:2:12: error: "), "the traceback names cell, line and column",
          error["traceback"])
    check(error["traceback"][-1].strip() == "^" * len("undefined_name"), "a caret marks the place", error)
    cell = Cell(client, "x[5]")
    check(cell.result()["text/plain"] == "5.0", "a failed cell leaves every variable as it was", cell.outputs)
    cell = Cell(client, "x[4]\nundefined_name")
    check(cell.kinds() == ["display_data", "error"], "a failed cell's earlier value is shown, not its result",
          cell.outputs)

    cell = Cell(client, ":time on\nsum(x)\n:time off")
    check("time " in cell.stream("stderr") and "kernels 0" in cell.stream("stderr"),
          ":time reports go to stderr", cell.outputs)
    cell = Cell(client, ":vars")
    tables = [c["data"] for k, c in cell.outputs if k == "display_data"]
    check(tables and "<table" in tables[0].get("text/html", ""), ":vars is an HTML table", cell.outputs)
    check("x" in tables[0]["text/plain"], ":vars' text lists the variables", tables)
    cell = Cell(client, ":device")
    tables = [c["data"] for k, c in cell.outputs if k == "display_data"]
    check(tables and "<table" in tables[0].get("text/html", ""), ":device is an HTML table", cell.outputs)
    with open(PROFILED, "w") as script:
        script.write("a = ones(1000)\nb = sum(a * 2)\n")
    cell = Cell(client, f":profile {PROFILED}")
    tables = [c["data"] for k, c in cell.outputs if k == "display_data"]
    check(tables and "<table" in tables[0].get("text/html", "") and "per-line profile" in tables[0]["text/plain"],
          ":profile's table is HTML", cell.outputs)
    cell = Cell(client, ":bench sum(x)")
    check(cell.reply["status"] == "ok" and ("median" in cell.stream("stderr") or cell.outputs),
          ":bench runs in a cell", cell.outputs)

    cell = Cell(client, "for i in range(10000) { print(i) }")
    printed = cell.stream("stdout")
    check(printed == "".join(f"{i}\n" for i in range(10000)), "10,000 printed lines arrive, none lost",
          printed[-200:])
    streams = [c for k, c in cell.outputs if k == "stream"]
    check(len(streams) < 100, f"printed lines are batched ({len(streams)} stream messages)")

    reply = request(client, "shell", "complete_request", {"code": "y = linalg.in", "cursor_pos": 13})
    check("linalg.inv" in reply["matches"] and reply["cursor_start"] == 4, "completion after linalg.", reply)
    reply = request(client, "shell", "complete_request", {"code": "ara", "cursor_pos": 3})
    check("arange" in reply["matches"], "completion of a built-in's name", reply)
    reply = request(client, "shell", "complete_request", {"code": ":ti", "cursor_pos": 3})
    check(":time" in reply["matches"], "completion of a command", reply)

    reply = request(client, "shell", "inspect_request", {"code": "sum(x", "cursor_pos": 4, "detail_level": 0})
    check(reply["found"] and "sum(" in reply["data"]["text/plain"], "inspection shows a built-in's help", reply)
    reply = request(client, "shell", "inspect_request", {"code": "nothing_here", "cursor_pos": 3})
    check(not reply["found"], "inspection of an unknown name finds nothing", reply)

    for code, status in [("for i in range(3) {", "incomplete"), ("x = 1", "complete"), ("x = = 1", "invalid")]:
        reply = request(client, "shell", "is_complete_request", {"code": code})
        check(reply["status"] == status, f"is_complete: `{code}` is {status}", reply)

    reply = request(client, "shell", "comm_info_request", {})
    check(reply["status"] == "ok" and reply["comms"] == {}, "comm_info: no comms", reply)

    loops = {"signal": "n = 0\nwhile true { n += 1 }", "message": "n = 0\nwhile true { n += 1 }",
             "signal, in :bench": ":bench for i in range(200000) { n = i }"}
    for how, code in loops.items():
        cell = Cell(client, code, wait=False)
        time.sleep(0.5)
        if how.startswith("signal"):
            manager.interrupt_kernel()
        else:
            reply = request(client, "control", "interrupt_request", {})
            check(reply["status"] == "ok", "interrupt_request is answered on control", reply)
        cell.wait()
        check(cell.reply["status"] == "error" and cell.error()["ename"] == "interrupted",
              f"an interrupt ({how}) stops a running loop", cell.outputs)
        cell = Cell(client, "x[1] + 1")
        check(cell.result() is not None and cell.result()["text/plain"] == "2.0",
              f"the kernel answers after the interrupt ({how}), its variables kept", cell.outputs)

    forged = Session(key=b"not the key", session=client.session.session)
    forged.send(client.shell_channel.socket, forged.msg("execute_request", {
        "code": "forged = 1", "silent": False, "store_history": True, "user_expressions": {},
        "allow_stdin": False, "stop_on_error": True}))
    time.sleep(0.5)
    cell = Cell(client, "forged")
    check(cell.error() is not None and cell.error()["ename"] == "name error",
          "a message with a wrong signature is never run", cell.outputs)
    with open(KERNEL_LOG) as log:
        logged = log.read()
    check("signature is wrong" in logged, "the dropped message is logged", logged)

    manager.restart_kernel()
    client.wait_for_ready(timeout=TIMEOUT)
    cell = Cell(client, "x")
    check(cell.error() is not None and cell.error()["ename"] == "name error", "a restart starts a fresh session",
          cell.outputs)
    cell = Cell(client, "1 + 1")
    check(cell.result()["text/plain"] == "2" and cell.reply["execution_count"] == 2,
          "the restarted kernel counts from 1 again", cell.reply)

    manager.shutdown_kernel(now=False)
    check(not manager.is_alive(), "shutdown ends the kernel")

    manager, client, _ = start()
    try:
        cell = Cell(client, ":quit")
        check(cell.reply["payload"] == [{"source": "ask_exit", "keepkernel": False}],
              ":quit asks the front end to exit", cell.reply)
        for _ in range(50):
            if not manager.is_alive():
                break
            time.sleep(0.1)
        check(not manager.is_alive(), ":quit in a cell ends the kernel")
    finally:
        if manager.is_alive():
            manager.shutdown_kernel(now=True)
        client.stop_channels()


main()
