#!/usr/bin/env python3
"""Run each benchmark case in arrsh and in NumPy (or CuPy) side by side; report medians and ratios.

    python3 bench/run.py [--quick] [--only NAME...] [--arrsh PATH] [--device cpu|gpu]

The protocol (size prelude on stdin, "@time <seconds>" lines on stdout) and how to add a case
are described in bench/README.md. Python 3.11 standard library only; NumPy (and CuPy for
--device gpu) is needed by the cases, not by this file.
"""
import argparse
import datetime
import json
import os
import platform
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field, replace
from pathlib import Path

from case_headers import BASELINE_SUFFIX, DEVICES, Case, Variant, discover_cases, read_header

BENCH_DIR = Path(__file__).resolve().parent
REPO_ROOT = BENCH_DIR.parent
DEFAULT_ARRSH = REPO_ROOT / "target" / "release" / "arrsh"

TIME_MARKER = "@time"
QUICK_REPS = 3
STARTUP_RUNS = 20
QUICK_STARTUP_RUNS = 5
STARTUP_TARGET_S = 0.030
SCRIPT_TIMEOUT_S = 600
QUICK_SCRIPT_TIMEOUT_S = 30
# A gpu smoke run may compile kernels (NVRTC, CuPy's kernel cache) on a fresh machine.
QUICK_GPU_SCRIPT_TIMEOUT_S = 120
STARTUP_TIMEOUT_S = 10
# The variables that set the thread count of NumPy's BLAS (OpenBLAS, or MKL through OpenMP).
BLAS_THREAD_VARIABLES = ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS")
# Set on some machines to keep OpenBLAS safe; removed (both together) for the NumPy processes only.
OPENBLAS_SAFETY_VARS = ("OPENBLAS_CORETYPE", "OPENBLAS_L2_SIZE")
BASELINE_MODULE = {"cpu": "numpy", "gpu": "cupy"}
RESULTS_FILE = {"cpu": BENCH_DIR / "RESULTS.md", "gpu": BENCH_DIR / "RESULTS-gpu.md"}
# With 'fresh-cache: yes', each case process gets new empty directories in these variables:
# arrsh's compiled-kernel cache, CuPy's, and the CUDA driver's JIT cache (used only for PTX).
KERNEL_CACHE_VARIABLES = ("ARRSH_KERNEL_CACHE", "CUPY_CACHE_DIR", "CUDA_CACHE_PATH")
REFERENCE_ONLY = "n/a (reference)"  # the arrsh cell of a case that has no .arr side


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
    """The environment for the NumPy/CuPy processes: ours without the OpenBLAS safety variables,
    and ARRSH_BIN, for a baseline that is arrsh itself (einsum_matmul's is arrsh's own @)."""
    env = {name: value for name, value in os.environ.items() if name not in OPENBLAS_SAFETY_VARS}
    env.setdefault("ARRSH_BIN", str(DEFAULT_ARRSH))
    return env


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

    def reps(self, case: Case, variant: Variant) -> int:
        # A size may set its own (`n=500 reps=40`: a short computation timed more often). A case
        # of fewer repetitions (one timing per fresh process) keeps its number.
        reps = variant.params.get("reps", case.reps)
        return min(QUICK_REPS, reps) if self.quick else reps

    def rounds(self, case: Case) -> int:
        return 1 if self.quick else case.rounds

    @property
    def script_timeout(self) -> int:
        if not self.quick:
            return SCRIPT_TIMEOUT_S
        return QUICK_GPU_SCRIPT_TIMEOUT_S if self.device == "gpu" else QUICK_SCRIPT_TIMEOUT_S

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


def add_round(total: Measurement, round_: Measurement) -> None:
    """Adds one process's times to total, or its failure."""
    total.times.extend(round_.times)
    total.failure = round_.failure


def run_process(case: Case, command: list[str], source: str, reps: int, env: dict, timeout: int) -> Measurement:
    """One case process; for a fresh-cache case, with new empty kernel-cache directories, removed
    afterwards."""
    if not case.fresh_cache:
        return run_case_script(command, source, reps, env, timeout)
    caches = Path(tempfile.mkdtemp(prefix=f"arrsh-bench-{case.name}-"))
    try:
        for variable in KERNEL_CACHE_VARIABLES:
            directory = caches / variable.lower()
            directory.mkdir()
            env = {**env, variable: str(directory)}
        return run_case_script(command, source, reps, env, timeout)
    finally:
        shutil.rmtree(caches, ignore_errors=True)


def measure_case(case: Case, variant: Variant, plan: Plan, arrsh: Arrsh, baseline_unusable: str) -> CaseResult:
    reps = plan.reps(case, variant)
    prelude = variant.prelude(reps)
    baseline_path = case.baseline_path(plan.device)
    arrsh_time, baseline_time = Measurement(), Measurement()
    if case.arr_path is None:
        arrsh_time.skipped = REFERENCE_ONLY
    elif arrsh.unusable:
        arrsh_time.skipped = "unavailable"
    if baseline_unusable:
        baseline_time.skipped = "unavailable"
    # Rounds alternate the two sides, so that both meet the same busy and quiet spells of a
    # shared machine; each side's median is over the repetitions of all its rounds.
    # A size parameter named threads sets the cpu's worker threads on both sides (0: one a core).
    threads = variant.params.get("threads", 0)
    thread_flags = ["--threads", str(threads)] if threads else []
    thread_env = {name: str(threads) for name in BLAS_THREAD_VARIABLES} if threads else {}
    for _ in range(plan.rounds(case)):
        if not (arrsh_time.skipped or arrsh_time.failure):
            add_round(arrsh_time, run_process(case, arrsh.command(*thread_flags, "-"),
                                              prelude + case.arr_path.read_text(),
                                              reps, dict(os.environ), plan.script_timeout))
        if not (baseline_time.skipped or baseline_time.failure):
            add_round(baseline_time, run_process(case, [sys.executable, "-"], prelude + baseline_path.read_text(),
                                                 reps, {**numpy_env(), **thread_env}, plan.script_timeout))
    baseline_label = read_header(baseline_path).get("baseline", baseline_path.name)
    return CaseResult(case, variant, baseline_label, arrsh_time, baseline_time)


def measure_startup(plan: Plan, arrsh: Arrsh, baseline_unusable: str) -> list[StartupResult]:
    runs = plan.startup_runs
    module = BASELINE_MODULE[plan.device]
    arrsh_command = arrsh.command("-e", "1")
    if arrsh.unusable:
        arrsh_time = Measurement(skipped="unavailable")
    else:
        arrsh_time = time_command(arrsh_command, runs, dict(os.environ))
    python = [sys.executable, "-c"]
    if baseline_unusable:
        import_time = Measurement(skipped="unavailable")
    else:
        import_time = time_command([*python, f"import {module}"], runs, numpy_env())
    return [
        # With --device gpu the process creates a CUDA context at start: no target, for context.
        StartupResult(" ".join(["arrsh", *arrsh_command[1:-1], "'1'"]), arrsh_time,
                      STARTUP_TARGET_S if plan.device == "cpu" else None),
        StartupResult("python3 -c '1'", time_command([*python, "1"], runs, numpy_env()), None),
        StartupResult(f"python3 -c 'import {module}'", import_time, None),
    ]


def numpy_info() -> dict:
    """NumPy version and BLAS, as bench/numpy_info.py reports them from inside a NumPy process."""
    proc = subprocess.run([sys.executable, str(BENCH_DIR / "numpy_info.py")], capture_output=True,
                          text=True, env=numpy_env(), timeout=SCRIPT_TIMEOUT_S)
    if proc.returncode != 0:
        return {"error": last_line(proc.stderr)}
    return json.loads(proc.stdout)


def cupy_info() -> dict:
    """The GPU and CuPy the gpu baselines use, from bench/cupy_info.py; {'error': why} when CuPy
    cannot run (not installed, no GPU): then every CuPy cell says unavailable."""
    try:
        proc = subprocess.run([sys.executable, str(BENCH_DIR / "cupy_info.py")], capture_output=True,
                              text=True, env=numpy_env(), timeout=SCRIPT_TIMEOUT_S)
    except (OSError, subprocess.TimeoutExpired) as error:
        return {"error": str(error)}
    if proc.returncode != 0:
        return {"error": last_line(proc.stderr)}
    try:
        return json.loads(proc.stdout)
    except ValueError:
        return {"error": f"cupy_info.py printed {last_line(proc.stdout)!r}"}


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


def format_bytes(count: float) -> str:
    for unit, size in (("GB", 1e9), ("MB", 1e6), ("kB", 1e3)):
        if count >= size:
            return f"{count / size:.3g} {unit}"
    return f"{count:.0f} B"


def format_bandwidth(bytes_per_second: float | None) -> str:
    return "—" if bytes_per_second is None else f"{bytes_per_second / 1e9:.4g} GB/s"


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


def repo_relative(path: Path) -> str:
    """A path inside the repository as the repository names it; others by their file name."""
    try:
        return str(Path(path).resolve().relative_to(REPO_ROOT.resolve()))
    except ValueError:
        return Path(path).name


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


def gpu_text(gpu: dict) -> str:
    if "error" in gpu:
        return f"unavailable to CuPy: {gpu['error']}"
    text = f"{gpu['name']} (compute capability {gpu['compute_capability']}, {gpu['memory_gib']:.1f} GiB"
    if gpu.get("peak_bandwidth_gbs"):
        text += f", peak memory bandwidth {gpu['peak_bandwidth_gbs']:.0f} GB/s from its clock and bus width"
    return text + f"); {gpu['count']} device(s) visible, the benchmarks use device 0"


def cupy_text(gpu: dict) -> str:
    if "error" in gpu:
        return "unavailable"
    tf32 = os.environ.get("CUPY_TF32")
    return (f"{gpu['cupy_version']}, CUDA runtime {gpu['runtime_version']}, driver {gpu['driver_version']}; "
            f"CUPY_TF32 {'=' + tf32 if tf32 is not None else 'not set (f32 matmul without TF32)'}")


def machine_section(started: datetime.datetime, load: tuple[float, ...], arrsh: Arrsh, info: dict,
                    gpu: dict | None) -> list[str]:
    arrsh_text = f"unavailable: {arrsh.unusable}" if arrsh.unusable else f"{arrsh.version()} ({repo_relative(arrsh.path)})"
    gpu_lines = [] if gpu is None else [f"- GPU: {gpu_text(gpu)}", f"- CuPy: {cupy_text(gpu)}"]
    return [
        "## Machine",
        "",
        f"- Date: {started:%Y-%m-%d %H:%M} UTC",
        f"- CPU: {cpu_model()}, {os.cpu_count()} logical cores ({usable_cores()} usable by this process)",
        f"- Memory: {memory_text()}",
        *gpu_lines,
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


def case_target(result: CaseResult) -> tuple[str, str]:
    """The target and met cells: the ratio target, the target-seconds one, or both (met when both are)."""
    arrsh_s, baseline_s = result.arrsh.median, result.baseline.median
    max_ratio, max_seconds = result.case.max_ratio, result.case.max_seconds
    targets, verdicts = [], []
    if max_ratio is not None:
        targets.append(target_text(max_ratio))
        both = arrsh_s is not None and baseline_s is not None
        verdicts.append(met_text(arrsh_s / baseline_s if both else None, max_ratio))
    if max_seconds is not None:
        targets.append(f"≤ {format_seconds(max_seconds)}")
        verdicts.append(met_text(arrsh_s, max_seconds))
    if not targets:
        return "—", "—"
    if "—" in verdicts:
        met = "—"
    else:
        met = "yes" if all(verdict == "yes" for verdict in verdicts) else "**no**"
    return "; ".join(targets), met


def case_row(result: CaseResult) -> list[str]:
    arrsh_s, baseline_s = result.arrsh.median, result.baseline.median
    both = arrsh_s is not None and baseline_s is not None
    target, met = case_target(result)
    return [
        f"`{result.case.name}`",
        result.case.title,
        result.variant.label,
        describe(result.arrsh),
        result.baseline_label,
        describe(result.baseline),
        ratio_text(arrsh_s, baseline_s) if both else "—",
        target,
        met,
    ]


def cases_section(results: list[CaseResult], plan: Plan, without_variant: list[str]) -> list[str]:
    lines = [f"## Cases (device {plan.device})"]
    if results:
        lines += [
            "",
            "Each time is the median of the repetitions timed inside one process (data made first, untimed);",
            "for a case with `rounds` in its header, of the repetitions of that many processes per side,",
            "arrsh and baseline alternating.",
            *(["A case with `fresh-cache: yes` gives every process new, empty kernel-cache directories "
               f"({', '.join(f'`{name}`' for name in KERNEL_CACHE_VARIABLES)})."]
              if any(result.case.fresh_cache for result in results) else []),
            "ratio = arrsh median / baseline median: below 1 means arrsh is faster.",
            "",
            *markdown_table(["case", "computation", "size", "arrsh", "baseline", "baseline time", "ratio",
                             "target", "met"], [case_row(result) for result in results]),
        ]
    if without_variant:
        lines += ["", f"No {plan.device} variant ({BASELINE_SUFFIX[plan.device]} file) yet: "
                  + ", ".join(f"`{name}`" for name in without_variant)]
    return lines


def bandwidth(result: CaseResult, measurement: Measurement) -> float | None:
    """Bytes moved per repetition / median time, or None."""
    moved = result.case.bytes_for(result.variant)
    return None if moved is None or not measurement.median else moved / measurement.median


def reference_for(result: CaseResult, results: list[CaseResult]) -> CaseResult | None:
    """The run of result's bandwidth-of case with the same sizes; else the one of its runs whose
    baseline bandwidth is highest (the strictest reference)."""
    runs = [other for other in results if other.case.name == result.case.bandwidth_of]
    same_size = [other for other in runs if other.variant.params == result.variant.params]
    if same_size:
        return same_size[0]
    measured = [other for other in runs if bandwidth(other, other.baseline) is not None]
    return max(measured, key=lambda other: bandwidth(other, other.baseline), default=None)


def bandwidth_row(result: CaseResult, results: list[CaseResult]) -> list[str]:
    arrsh_bw, baseline_bw = bandwidth(result, result.arrsh), bandwidth(result, result.baseline)
    row = [f"`{result.case.name}`", result.variant.label, format_bytes(result.case.bytes_for(result.variant)),
           format_bandwidth(arrsh_bw), format_bandwidth(baseline_bw)]
    if result.case.bandwidth_of is None:
        return row + ["—"] * 5
    reference = reference_for(result, results)
    reference_bw = None if reference is None else bandwidth(reference, reference.baseline)
    fraction = arrsh_bw / reference_bw if arrsh_bw and reference_bw else None
    target = result.case.bandwidth_target
    reference_text = (f"`{result.case.bandwidth_of}` (not run)" if reference is None else
                      f"`{reference.case.name}` {reference.variant.label}, baseline")
    return row + [
        reference_text,
        format_bandwidth(reference_bw),
        "—" if fraction is None else f"{fraction:.0%}",
        f"≥ {target:.0%}",
        "—" if fraction is None else ("yes" if fraction >= target else "**no**"),
    ]


def bandwidth_section(results: list[CaseResult]) -> list[str]:
    """Effective bandwidths of the cases with a 'bytes' header, against their bandwidth-of reference."""
    rows = [bandwidth_row(result, results) for result in results if result.case.bytes_moved is not None]
    if not rows:
        return []
    return [
        "## Bandwidth",
        "",
        "bandwidth = bytes read + written per repetition (the case's `bytes` header) / median time. "
        "The reference is the **baseline** side of the named case at the same size, measured in this run; "
        "arrsh / reference is arrsh's bandwidth as a fraction of it.",
        "",
        *markdown_table(["case", "size", "bytes moved", "arrsh", "baseline", "reference", "reference bandwidth",
                         "arrsh / reference", "target", "met"], rows),
    ]


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
    parser.add_argument("--results", type=Path, metavar="FILE",
                        help="where a full run writes its report (default bench/RESULTS.md, RESULTS-gpu.md with --device gpu)")
    return parser.parse_args()


def run_cases(cases: list[Case], plan: Plan, arrsh: Arrsh, baseline_unusable: str) -> list[CaseResult]:
    results = []
    for case in cases:
        for variant in plan.variants(case):
            log(f"{case.name} {variant.label} ...")
            result = measure_case(case, variant, plan, arrsh, baseline_unusable)
            log(f"    arrsh {describe(result.arrsh)}; baseline {describe(result.baseline)}")
            results.append(result)
    return results


def write_results(report: str, plan: Plan, complete_run: bool, results_file: Path) -> None:
    if complete_run:
        results_file.write_text(report)
        log(f"wrote {results_file}")
    else:
        baseline = "" if plan.device == "cpu" else f" and a usable {BASELINE_MODULE[plan.device]}"
        log(f"{results_file.name} not written: only a full run (no --quick, no --only) with a usable arrsh"
            f"{baseline} writes it")


def choose_cases(cases: list[Case], only: list[str] | None, device: str) -> list[Case]:
    """The cases to run on device: those selected (all without --only) that run there, and the
    reference cases that their bandwidth-of lines name."""
    runs_here = {case.name: case for case in cases if device in case.devices}
    for name in only or []:
        case = next((case for case in cases if case.name == name), None)
        if case is not None and name not in runs_here:
            log(f"{name}: runs only on {', '.join(sorted(case.devices)) or 'no device'}, not on {device}")
    selected = set(runs_here) if only is None else set(only) & set(runs_here)
    references = {runs_here[name].bandwidth_of for name in selected if runs_here[name].bandwidth_of}
    for name in sorted(references - selected):
        log(f"{name}: also run, as the bandwidth reference of another selected case")
    return [case for name, case in runs_here.items() if name in selected | references]


def main() -> int:
    cases_by_device = {device: discover_cases(device) for device in DEVICES}  # every header checked
    args = parse_args([case.name for case in cases_by_device["cpu"]])
    plan = Plan(args.quick, args.device)
    cases = cases_by_device[plan.device]
    started = datetime.datetime.now(datetime.timezone.utc)
    load = os.getloadavg()
    arrsh = probe_arrsh(args.arrsh.resolve(), plan.device)
    os.environ["ARRSH_BIN"] = str(args.arrsh.resolve())
    if arrsh.unusable:
        log(f"arrsh unavailable: {arrsh.unusable}")
    info = numpy_info()
    gpu = cupy_info() if plan.device == "gpu" else None
    baseline_unusable = f"{BASELINE_MODULE[plan.device]}: {gpu['error']}" if gpu and "error" in gpu else ""
    if baseline_unusable:
        log(f"baseline unavailable: {baseline_unusable}")
    sections = [machine_section(started, load, arrsh, info, gpu)]
    measurements = []

    if args.only is None or "startup" in args.only:
        startup = measure_startup(plan, arrsh, baseline_unusable)
        sections.append(startup_section(startup, plan.startup_runs))
        measurements += [result.measurement for result in startup]

    chosen = choose_cases(cases, args.only, plan.device)
    if chosen:
        runnable = [case for case in chosen if case.baseline_path(plan.device).exists()]
        results = run_cases(runnable, plan, arrsh, baseline_unusable)
        without_variant = [case.name for case in chosen if case not in runnable]
        sections.append(cases_section(results, plan, without_variant))
        if bandwidth := bandwidth_section(results):
            sections.append(bandwidth)
        measurements += [m for result in results for m in (result.arrsh, result.baseline)]

    sections.append(show_runtime_section(info))
    report = render_report(sections, plan)
    print(report)
    complete_run = not (args.quick or args.only or arrsh.unusable or baseline_unusable)
    write_results(report, plan, complete_run, args.results or RESULTS_FILE[plan.device])
    return 1 if any(measurement.failure for measurement in measurements) else 0


if __name__ == "__main__":
    sys.exit(main())
