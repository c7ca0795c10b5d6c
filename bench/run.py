#!/usr/bin/env python3
"""Run each benchmark case in arrsh and in NumPy (or CuPy) side by side; report medians and ratios.

    python3 bench/run.py [--quick] [--only NAME...] [--arrsh PATH] [--device cpu|gpu]

The protocol (size prelude on stdin, "@time <seconds>" lines on stdout) and how to add a case
are described in bench/README.md. Python 3.11 standard library only; NumPy is needed by the
cases, not by this file.
"""
import argparse
import datetime
import json
import os
import platform
import re
import statistics
import subprocess
import sys
import time
from dataclasses import dataclass, field, replace
from pathlib import Path

BENCH_DIR = Path(__file__).resolve().parent
CASES_DIR = BENCH_DIR / "cases"
REPO_ROOT = BENCH_DIR.parent
DEFAULT_ARRSH = REPO_ROOT / "target" / "release" / "arrsh"

TIME_MARKER = "@time"
DEFAULT_REPS = 7
QUICK_REPS = 3
STARTUP_RUNS = 20
QUICK_STARTUP_RUNS = 5
STARTUP_TARGET_S = 0.030
SCRIPT_TIMEOUT_S = 600
QUICK_SCRIPT_TIMEOUT_S = 30
STARTUP_TIMEOUT_S = 10
# Set on some machines to keep OpenBLAS safe; removed (both together) for the NumPy processes only.
OPENBLAS_SAFETY_VARS = ("OPENBLAS_CORETYPE", "OPENBLAS_L2_SIZE")
BASELINE_SUFFIX = {"cpu": ".py", "gpu": ".cupy.py"}
BASELINE_MODULE = {"cpu": "numpy", "gpu": "cupy"}
RESULTS_FILE = {"cpu": BENCH_DIR / "RESULTS.md", "gpu": BENCH_DIR / "RESULTS-gpu.md"}
HEADER_LINE = re.compile(r"#\s*(\w+):\s*(.*?)\s*$")


# ---------------------------------------------------------------- cases


@dataclass(frozen=True)
class Variant:
    label: str  # as written in the case header, e.g. "n=1e7"
    params: dict[str, int]

    def prelude(self, reps: int) -> str:
        """One line, valid in arr and in Python, that binds the size parameters and reps."""
        bindings = [f"{name} = {value}" for name, value in self.params.items()]
        return "; ".join(bindings + [f"reps = {reps}"]) + "\n"


@dataclass(frozen=True)
class Case:
    name: str
    title: str
    variants: tuple[Variant, ...]
    quick_variant: Variant
    reps: int
    max_ratio: float  # target: arrsh time / baseline time must be at most this
    arr_path: Path

    def baseline_path(self, device: str) -> Path:
        return CASES_DIR / f"{self.name}{BASELINE_SUFFIX[device]}"


def read_header(path: Path) -> dict[str, str]:
    """The '# key: value' lines at the top of a case file."""
    header = {}
    for line in path.read_text().splitlines():
        if not line.startswith("#"):
            break
        match = HEADER_LINE.match(line)
        if match:
            header[match[1]] = match[2]
    return header


def parse_whole_number(text: str) -> int:
    number = float(text.replace("_", ""))
    if not number.is_integer():
        raise ValueError(f"{text!r} is not a whole number")
    return int(number)


def parse_variant(text: str) -> Variant:
    """'n=1e7 m=3' -> Variant('n=1e7 m=3', {'n': 10000000, 'm': 3})."""
    pairs = (item.split("=", 1) for item in text.split())
    return Variant(text, {name: parse_whole_number(value) for name, value in pairs})


def load_case(arr_path: Path) -> Case:
    header = read_header(arr_path)
    missing = {"title", "sizes", "quick", "target"} - header.keys()
    if missing:
        raise ValueError(f"{arr_path}: header lacks {', '.join(sorted(missing))}")
    return Case(
        name=arr_path.stem,
        title=header["title"],
        variants=tuple(parse_variant(text.strip()) for text in header["sizes"].split("|")),
        quick_variant=parse_variant(header["quick"]),
        reps=int(header.get("reps", DEFAULT_REPS)),
        max_ratio=float(header["target"]),
        arr_path=arr_path,
    )


def discover_cases() -> list[Case]:
    return [load_case(path) for path in sorted(CASES_DIR.glob("*.arr"))]


# ---------------------------------------------------------------- measuring


@dataclass
class Measurement:
    times: list[float] = field(default_factory=list)
    failure: str = ""  # the run went wrong: counts towards a non-zero exit status
    skipped: str = ""  # not run, e.g. arrsh unavailable

    @property
    def median(self) -> float | None:
        return statistics.median(self.times) if self.times else None


def last_line(text: str) -> str:
    lines = [line.strip() for line in text.splitlines() if line.strip()]
    return lines[-1][:160] if lines else "(no output)"


def parse_times(stdout: str) -> list[float]:
    """Seconds from the '@time <seconds>' lines; every other line is the case's own output."""
    return [float(line.split()[1]) for line in stdout.splitlines() if line.startswith(TIME_MARKER + " ")]


def run_case_script(command: list[str], source: str, reps: int, env: dict, timeout: int) -> Measurement:
    """Feed source to command on stdin; expect exactly reps timing lines on stdout."""
    try:
        proc = subprocess.run(command, input=source, capture_output=True, text=True,
                              env=env, timeout=timeout, cwd=REPO_ROOT)
    except subprocess.TimeoutExpired:
        return Measurement(failure=f"timed out after {timeout} s")
    except OSError as error:
        return Measurement(failure=f"cannot run {command[0]}: {error}")
    if proc.returncode != 0:
        return Measurement(failure=f"exit {proc.returncode}: {last_line(proc.stderr)}")
    try:
        times = parse_times(proc.stdout)
    except (IndexError, ValueError) as error:
        return Measurement(failure=f"bad {TIME_MARKER} line: {error}")
    if len(times) != reps:
        return Measurement(failure=f"printed {len(times)} {TIME_MARKER} lines, expected {reps}")
    return Measurement(times)


def time_command(command: list[str], runs: int, env: dict) -> Measurement:
    """Wall time of whole process runs (after one untimed warm-up run)."""
    times = []
    for run in range(runs + 1):
        start = time.perf_counter()
        try:
            proc = subprocess.run(command, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                                  stderr=subprocess.PIPE, env=env, timeout=STARTUP_TIMEOUT_S)
        except (OSError, subprocess.TimeoutExpired) as error:
            return Measurement(failure=str(error))
        elapsed = time.perf_counter() - start
        if proc.returncode != 0:
            return Measurement(failure=f"exit {proc.returncode}: {last_line(proc.stderr.decode())}")
        if run > 0:
            times.append(elapsed)
    return Measurement(times)


def numpy_env() -> dict:
    """The environment for the NumPy/CuPy processes: ours without the OpenBLAS safety variables."""
    return {name: value for name, value in os.environ.items() if name not in OPENBLAS_SAFETY_VARS}


# ---------------------------------------------------------------- arrsh


@dataclass(frozen=True)
class Arrsh:
    path: Path
    device: str
    unusable: str  # why arrsh cannot be run; empty when it can

    def command(self, *args: str) -> list[str]:
        device_flags = ["--device", self.device] if self.device != "cpu" else []
        return [str(self.path), *device_flags, *args]

    def version(self) -> str:
        try:
            proc = subprocess.run(self.command("--version"), capture_output=True, text=True,
                                  timeout=STARTUP_TIMEOUT_S)
        except (OSError, subprocess.TimeoutExpired):
            return "unknown"
        return proc.stdout.strip() if proc.returncode == 0 and proc.stdout.strip() else "unknown"


def probe_arrsh(path: Path, device: str) -> Arrsh:
    """An Arrsh that can run scripts, or one whose `unusable` says why it cannot."""
    arrsh = Arrsh(path, device, "")
    return replace(arrsh, unusable=why_unusable(arrsh))


def why_unusable(arrsh: Arrsh) -> str:
    if not arrsh.path.is_file():
        return f"not built: {arrsh.path} is missing (cargo build --release)"
    try:
        proc = subprocess.run(arrsh.command("-e", "print(1)"), capture_output=True, text=True,
                              timeout=STARTUP_TIMEOUT_S)
    except (OSError, subprocess.TimeoutExpired) as error:
        return f"cannot run {arrsh.path}: {error}"
    if proc.returncode != 0 or proc.stdout.strip() != "1":
        detail = last_line(proc.stderr) if proc.stderr.strip() else f"stdout {proc.stdout.strip()!r}"
        return f"`arrsh -e 'print(1)'` did not print 1 (exit {proc.returncode}, {detail})"
    return ""


# ---------------------------------------------------------------- running


@dataclass(frozen=True)
class Plan:
    quick: bool
    device: str

    def variants(self, case: Case) -> tuple[Variant, ...]:
        return (case.quick_variant,) if self.quick else case.variants

    def reps(self, case: Case) -> int:
        return QUICK_REPS if self.quick else case.reps

    @property
    def script_timeout(self) -> int:
        return QUICK_SCRIPT_TIMEOUT_S if self.quick else SCRIPT_TIMEOUT_S

    @property
    def startup_runs(self) -> int:
        return QUICK_STARTUP_RUNS if self.quick else STARTUP_RUNS


@dataclass
class CaseResult:
    case: Case
    variant: Variant
    baseline_label: str
    arrsh: Measurement
    baseline: Measurement


@dataclass
class StartupResult:
    command: str
    measurement: Measurement
    target_s: float | None


def measure_case(case: Case, variant: Variant, plan: Plan, arrsh: Arrsh) -> CaseResult:
    reps = plan.reps(case)
    prelude = variant.prelude(reps)
    baseline_path = case.baseline_path(plan.device)
    if arrsh.unusable:
        arrsh_time = Measurement(skipped="unavailable")
    else:
        arrsh_time = run_case_script(arrsh.command("-"), prelude + case.arr_path.read_text(),
                                     reps, dict(os.environ), plan.script_timeout)
    baseline_time = run_case_script([sys.executable, "-"], prelude + baseline_path.read_text(),
                                    reps, numpy_env(), plan.script_timeout)
    baseline_label = read_header(baseline_path).get("baseline", baseline_path.name)
    return CaseResult(case, variant, baseline_label, arrsh_time, baseline_time)


def measure_startup(plan: Plan, arrsh: Arrsh) -> list[StartupResult]:
    runs = plan.startup_runs
    module = BASELINE_MODULE[plan.device]
    arrsh_command = arrsh.command("-e", "1")
    if arrsh.unusable:
        arrsh_time = Measurement(skipped="unavailable")
    else:
        arrsh_time = time_command(arrsh_command, runs, dict(os.environ))
    python = [sys.executable, "-c"]
    return [
        StartupResult(" ".join(["arrsh", *arrsh_command[1:-1], "'1'"]), arrsh_time, STARTUP_TARGET_S),
        StartupResult("python3 -c '1'", time_command([*python, "1"], runs, numpy_env()), None),
        StartupResult(f"python3 -c 'import {module}'",
                      time_command([*python, f"import {module}"], runs, numpy_env()), None),
    ]


def numpy_info() -> dict:
    """NumPy version and BLAS, as bench/numpy_info.py reports them from inside a NumPy process."""
    proc = subprocess.run([sys.executable, str(BENCH_DIR / "numpy_info.py")], capture_output=True,
                          text=True, env=numpy_env(), timeout=SCRIPT_TIMEOUT_S)
    if proc.returncode != 0:
        return {"error": last_line(proc.stderr)}
    return json.loads(proc.stdout)


def log(message: str) -> None:
    print(message, file=sys.stderr, flush=True)


def describe(measurement: Measurement) -> str:
    if measurement.median is not None:
        return format_seconds(measurement.median)
    return measurement.skipped or f"FAILED ({measurement.failure})"


# ---------------------------------------------------------------- report


def format_seconds(seconds: float) -> str:
    if seconds >= 1:
        return f"{seconds:.2f} s"
    if seconds >= 1e-3:
        return f"{seconds * 1e3:.3g} ms"
    return f"{seconds * 1e6:.3g} µs"


def ratio_text(arrsh_s: float, baseline_s: float) -> str:
    ratio = arrsh_s / baseline_s
    verdict = f"arrsh {1 / ratio:.3g}× faster" if ratio <= 1 else f"arrsh {ratio:.3g}× slower"
    return f"{ratio:.3g} ({verdict})"


def target_text(max_ratio: float) -> str:
    if max_ratio == 1:
        meaning = "no slower"
    elif max_ratio < 1:
        meaning = f"≥ {1 / max_ratio:g}× faster"
    else:
        meaning = f"within {max_ratio:g}×"
    return f"≤ {max_ratio:g} ({meaning})"


def met_text(value: float | None, limit: float) -> str:
    return "—" if value is None else ("yes" if value <= limit else "**no**")


def markdown_table(headers: list[str], rows: list[list[str]]) -> list[str]:
    lines = ["| " + " | ".join(headers) + " |", "|" + "---|" * len(headers)]
    return lines + ["| " + " | ".join(cell.replace("|", "\\|") for cell in row) + " |" for row in rows]


def cpu_model() -> str:
    try:
        with open("/proc/cpuinfo") as cpuinfo:
            for line in cpuinfo:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or "unknown"


def memory_text() -> str:
    try:
        with open("/proc/meminfo") as meminfo:
            for line in meminfo:
                if line.startswith("MemTotal:"):
                    return f"{int(line.split()[1]) / 2**20:.1f} GiB"
    except OSError:
        pass
    return "unknown"


def usable_cores() -> int:
    return len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()


def load_text(load: tuple[float, ...]) -> str:
    text = ", ".join(f"{value:.2f}" for value in load)
    if load[0] > usable_cores():
        text += " — **busier than its cores: expect noisy times**"
    return text


def git_revision() -> str:
    try:
        proc = subprocess.run(["git", "-C", str(REPO_ROOT), "describe", "--always", "--dirty"],
                              capture_output=True, text=True, timeout=STARTUP_TIMEOUT_S)
    except (OSError, subprocess.TimeoutExpired):
        return "unknown"
    return proc.stdout.strip() if proc.returncode == 0 else "unknown (no commit)"


def openblas_env_text() -> str:
    present = [f"{name}={os.environ[name]}" for name in OPENBLAS_SAFETY_VARS if name in os.environ]
    if not present:
        return f"{' and '.join(OPENBLAS_SAFETY_VARS)} not set"
    return f"{', '.join(present)} set for the runner; both removed for the NumPy processes"


def build_blas_text(info: dict) -> str:
    blas = info.get("build_blas", {})
    name, config = blas.get("name", "?"), blas.get("config", "")
    return f"{name} — {config}" if config else name


def machine_section(started: datetime.datetime, load: tuple[float, ...], arrsh: Arrsh, info: dict) -> list[str]:
    arrsh_text = f"unavailable: {arrsh.unusable}" if arrsh.unusable else f"{arrsh.version()} ({arrsh.path})"
    return [
        "## Machine",
        "",
        f"- Date: {started:%Y-%m-%d %H:%M} UTC",
        f"- CPU: {cpu_model()}, {os.cpu_count()} logical cores ({usable_cores()} usable by this process)",
        f"- Memory: {memory_text()}",
        f"- OS: {platform.platform()}",
        f"- Load average at start (1, 5, 15 min): {load_text(load)}",
        f"- Python {platform.python_version()}, NumPy {info.get('numpy_version', info.get('error', '?'))}",
        f"- NumPy's BLAS (build): {build_blas_text(info)}",
        f"- NumPy's BLAS (run time): {info.get('runtime_blas', '?')}",
        f"- Environment: {openblas_env_text()}",
        f"- arrsh: {arrsh_text}; source revision {git_revision()}",
    ]


def startup_section(results: list[StartupResult], runs: int) -> list[str]:
    rows = [
        [f"`{result.command}`", describe(result.measurement),
         "—" if result.target_s is None else f"< {format_seconds(result.target_s)}",
         "—" if result.target_s is None else met_text(result.measurement.median, result.target_s)]
        for result in results
    ]
    return ["## Start-up", "", f"Wall time of the whole process, median of {runs} runs after one warm-up run.", "",
            *markdown_table(["command", "median", "target", "met"], rows)]


def case_row(result: CaseResult) -> list[str]:
    arrsh_s, baseline_s = result.arrsh.median, result.baseline.median
    both = arrsh_s is not None and baseline_s is not None
    return [
        f"`{result.case.name}`",
        result.case.title,
        result.variant.label,
        describe(result.arrsh),
        result.baseline_label,
        describe(result.baseline),
        ratio_text(arrsh_s, baseline_s) if both else "—",
        target_text(result.case.max_ratio),
        met_text(arrsh_s / baseline_s if both else None, result.case.max_ratio),
    ]


def cases_section(results: list[CaseResult], plan: Plan, without_variant: list[str]) -> list[str]:
    lines = [f"## Cases (device {plan.device})"]
    if results:
        lines += [
            "",
            "Each time is the median of the repetitions timed inside one process (data made first, untimed).",
            "ratio = arrsh median / baseline median: below 1 means arrsh is faster.",
            "",
            *markdown_table(["case", "computation", "size", "arrsh", "baseline", "baseline time", "ratio",
                             "target", "met"], [case_row(result) for result in results]),
        ]
    if without_variant:
        lines += ["", f"No {plan.device} variant ({BASELINE_SUFFIX[plan.device]} file) yet: "
                  + ", ".join(f"`{name}`" for name in without_variant)]
    return lines


def show_runtime_section(info: dict) -> list[str]:
    return ["<details><summary>numpy.show_runtime() in the NumPy processes' environment</summary>", "",
            "```", info.get("show_runtime", info.get("error", "?")), "```", "", "</details>"]


def render_report(sections: list[list[str]], plan: Plan) -> str:
    title = "# arrsh benchmark results" + (" (--quick: small sizes, not for comparison)" if plan.quick else "")
    intro = f"Written by `python3 bench/run.py{' --device gpu' if plan.device == 'gpu' else ''}` " \
            "from the runs below; see README.md for the protocol."
    lines = [title, "", intro]
    for section in sections:
        lines += ["", *section]
    return "\n".join(lines) + "\n"


# ---------------------------------------------------------------- main


def parse_args(case_names: list[str]) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description="Benchmark arrsh against NumPy (cpu) or CuPy (gpu).")
    parser.add_argument("--quick", action="store_true", help="small sizes, few repeats (CI smoke test)")
    parser.add_argument("--only", nargs="+", metavar="NAME", choices=["startup", *case_names],
                        help="run only these cases ('startup' for the start-up times)")
    parser.add_argument("--arrsh", type=Path, default=DEFAULT_ARRSH, help=f"arrsh binary (default {DEFAULT_ARRSH})")
    parser.add_argument("--device", choices=["cpu", "gpu"], default="cpu")
    return parser.parse_args()


def run_cases(cases: list[Case], plan: Plan, arrsh: Arrsh) -> list[CaseResult]:
    results = []
    for case in cases:
        for variant in plan.variants(case):
            log(f"{case.name} {variant.label} ...")
            result = measure_case(case, variant, plan, arrsh)
            log(f"    arrsh {describe(result.arrsh)}; baseline {describe(result.baseline)}")
            results.append(result)
    return results


def write_results(report: str, plan: Plan, complete_run: bool) -> None:
    results_file = RESULTS_FILE[plan.device]
    if complete_run:
        results_file.write_text(report)
        log(f"wrote {results_file}")
    else:
        log(f"{results_file.name} not written: only a full run (no --quick, no --only) with a usable arrsh writes it")


def main() -> int:
    cases = discover_cases()
    args = parse_args([case.name for case in cases])
    plan = Plan(args.quick, args.device)
    selected = set(args.only or ["startup", *(case.name for case in cases)])
    started = datetime.datetime.now(datetime.timezone.utc)
    load = os.getloadavg()
    arrsh = probe_arrsh(args.arrsh.resolve(), plan.device)
    if arrsh.unusable:
        log(f"arrsh unavailable: {arrsh.unusable}")
    info = numpy_info()
    sections = [machine_section(started, load, arrsh, info)]
    measurements = []

    if "startup" in selected:
        startup = measure_startup(plan, arrsh)
        sections.append(startup_section(startup, plan.startup_runs))
        measurements += [result.measurement for result in startup]

    chosen = [case for case in cases if case.name in selected]
    if chosen:
        runnable = [case for case in chosen if case.baseline_path(plan.device).exists()]
        results = run_cases(runnable, plan, arrsh)
        without_variant = [case.name for case in chosen if case not in runnable]
        sections.append(cases_section(results, plan, without_variant))
        measurements += [m for result in results for m in (result.arrsh, result.baseline)]

    sections.append(show_runtime_section(info))
    report = render_report(sections, plan)
    print(report)
    write_results(report, plan, complete_run=not (args.quick or args.only or arrsh.unusable))
    return 1 if any(measurement.failure for measurement in measurements) else 0


if __name__ == "__main__":
    sys.exit(main())
