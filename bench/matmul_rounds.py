#!/usr/bin/env python3
"""Compare cpu matrix products of arrsh builds or settings with NumPy's: in turn, side by side, or
taking turns.

    python3 bench/matmul_rounds.py [--rounds R] [--arrsh PATH] [--variant SPEC ...]
                                   [--together | --alternate TURNS [--same-cores] |
                                    --counters EVENTS] CASE ...

CASE is N:DTYPE:THREADS:REPS, e.g. 2000:f64:1:5 — an N×N product of f64 or f32 on THREADS
threads (arrsh's --threads, the BLAS thread variables for NumPy, as run.py sets them), timed
REPS times in one process after three untimed products (one, then a loop of two: the timed
loop's shape); REPS 0 times one product with none before it (the first product then pays for
fresh memory, as a user's first one does).

Each round runs a NumPy process and one arrsh process per variant, so that a machine whose
speed drifts (a shared host, a turbo that comes and goes) drifts for all of them alike; the
order turns by one each round, so that none is always first after the previous case or
round. Each process prints the median of its repetitions; the report gives, per case, the
median over rounds, each variant's ratio to NumPy's (below 1: arrsh is faster), and the
median of the rounds' own ratios (`paired`: each variant against the NumPy process of its
round, which follows a host whose speed changes from one round to the next more closely).
NumPy's processes run without OPENBLAS_CORETYPE and OPENBLAS_L2_SIZE, as run.py's do.

With --together, a round's processes run at the same time, each on THREADS cores of its own
(the cores turning by one process each round): all set up their operands, then all start their
products at once, so that a host whose clock moves from second to second gives them the same
clock. It needs as many cores as the processes' threads together.

With --alternate TURNS, a round's processes are placed so too and set up at once, then take
turns: process after process (the order turning by one each turn) times its REPS products, TURNS
times (on more than one thread, each turn 0.3 s after the last, once OpenBLAS's workers have
stopped spinning). No two products overlap, so none slows another down in the shared caches or
memory, and turns a second apart see nearly the same clock. Each turn is a sample; `paired` is
then the median of each variant's turn against NumPy's turn of the same round and turn. With
--same-cores as well, all of a round's processes share the same THREADS cores (the next ones each
round), so that a core slower than the others (a shared host's busy neighbour on it) slows
NumPy's turns and arrsh's alike; any number of processes then fits.

With --counters EVENTS (perf's event names, comma-separated), each process runs alone under
`perf stat` twice a round, whole and with its setup and warm-up only: the difference over REPS is
what one product counts (all of its threads), and the report gives each event's median over the
rounds, NumPy's and each variant's, with the variant's ratio to NumPy's. Events the machine
cannot count (a virtual machine without its hardware counters) say so.

A variant is LABEL or LABEL:KEY=VALUE,KEY=VALUE: environment settings for arrsh's process,
where the key `bin` names another arrsh binary instead. Without --variant, one variant,
`arrsh`, runs --arrsh as it is. Python 3.11 standard library and NumPy only.
"""
import argparse
import datetime
import os
import statistics
import subprocess
import sys
import tempfile
import textwrap
import time
from dataclasses import dataclass

from run import BLAS_THREAD_VARIABLES, DEFAULT_ARRSH, cpu_model, numpy_env

# Each script is its setup, then its timed products. Run together, a process says `ready` after
# its setup and waits: arrsh, read line by line as its shell does, for the timed part; NumPy's for
# a line on its standard input.
ARR_SETUP = """a = astype(rand([{n}, {n}]), {dtype})
b = astype(rand([{n}, {n}]), {dtype})
{arr_warm}
"""
# The warm-up is the timed loop's shape: read as shell input, a statement keeps the values it
# replaces until it ends (to restore them if it fails), so a loop of products holds three results
# at once, and only a warm-up that did too leaves the timed products memory already in use (fresh
# memory made the first timed statement's products up to 1.6 times slower on a virtual machine).
ARR_WARM = """c = a @ b
for r in range(2) {
    c = a @ b
}"""
ARR_TIMED = """ts = zeros([{reps}])
for r in range({reps}) {{
    t = clock()
    c = a @ b
    ts[r] = clock() - t
}}
print(median(ts))
"""

NUMPY_SETUP = """import numpy as np, statistics, sys, time
dtype = np.{numpy_dtype}
a = np.random.rand({n}, {n}).astype(dtype)
b = np.random.rand({n}, {n}).astype(dtype)
{numpy_warm}
"""
NUMPY_WARM = """c = a @ b
for r in range(2):
    c = a @ b"""
NUMPY_TIMED = """ts = []
for r in range({reps}):
    t = time.perf_counter()
    c = a @ b
    ts.append(time.perf_counter() - t)
print(statistics.median(ts), flush=True)
"""
READY = "ready"
# Taking turns on more than one thread, a turn starts this long after the last one ended:
# OpenBLAS's workers keep spinning after a product (2^28 cycles by default, about 0.1 s), and a
# turn that started at once shared the cores with them (on 16 threads of a 16-core host, 500² f32
# took 3.3 times NumPy's time right after NumPy's turn, 1.3 times after another arrsh's).
WORKERS_SPIN_SECONDS = 0.3

NUMPY_DTYPES = {"f64": "float64", "f32": "float32"}


@dataclass
class Case:
    n: int
    dtype: str
    threads: int
    reps: int

    @staticmethod
    def parse(text):
        n, dtype, threads, reps = text.split(":")
        if dtype not in NUMPY_DTYPES:
            raise argparse.ArgumentTypeError(f"{text}: the dtype is f64 or f32")
        return Case(int(n), dtype, int(threads), int(reps))

    def fields(self):
        arr_warm, numpy_warm = (ARR_WARM, NUMPY_WARM) if self.reps else ("", "")
        return dict(
            n=self.n,
            dtype=self.dtype,
            reps=max(self.reps, 1),
            arr_warm=arr_warm,
            numpy_warm=numpy_warm,
        )


@dataclass
class Variant:
    label: str
    binary: str
    env: dict

    @staticmethod
    def parse(text, default_binary):
        label, _, settings = text.partition(":")
        env = dict(kv.split("=", 1) for kv in settings.split(",") if kv)
        binary = env.pop("bin", default_binary)
        return Variant(label, binary, env)


def seconds_from(output, what):
    try:
        return float(output.stdout.strip().split()[-1])
    except (IndexError, ValueError):
        sys.exit(f"{what} printed no time:\n{output.stdout}{output.stderr}")


@dataclass
class Process:
    """One timed process: its command and environment, what it reads before its products (all
    of its script when run alone) and what it reads to start them when run together (once) or
    taking turns (each turn)."""

    what: str
    command: list
    env: dict
    first_input: str
    start_input: str = ""


def arrsh_process(case, variant, mode):
    fields = case.fields()
    setup, timed = ARR_SETUP.format(**fields), ARR_TIMED.format(**fields)
    what = f"arrsh ({variant.label})"
    command = [variant.binary, "--threads", str(case.threads)]
    env = {**os.environ, **variant.env}
    if mode == "alone":
        return Process(what, command + ["-"], env, setup + timed)
    if mode == "setup":
        return Process(what, command + ["-"], env, setup)
    return Process(what, command, env, setup + f'print("{READY}")\n', timed)


def numpy_process(case, mode):
    # Without the OpenBLAS safety variables, as run.py does: a machine whose environment sets
    # OPENBLAS_CORETYPE=Haswell would otherwise time NumPy on its AVX2 kernels.
    env = {**numpy_env(), **{name: str(case.threads) for name in BLAS_THREAD_VARIABLES}}
    fields = dict(numpy_dtype=NUMPY_DTYPES[case.dtype], **case.fields())
    setup, timed = NUMPY_SETUP.format(**fields), NUMPY_TIMED.format(**fields)
    ready = f'print("{READY}", flush=True)\n'
    if mode == "together":
        wait = ready + "sys.stdin.readline()\n"
        return Process("NumPy", [sys.executable, "-c", setup + wait + timed], env, "", "go\n")
    if mode == "alternate":
        script = setup + ready + "for line in sys.stdin:\n" + textwrap.indent(timed, "    ")
        return Process("NumPy", [sys.executable, "-c", script], env, "", "go\n")
    if mode == "setup":
        return Process("NumPy", [sys.executable, "-c", setup], env, "")
    return Process("NumPy", [sys.executable, "-c", setup + timed], env, "")


def case_processes(case, variants, mode):
    """NumPy's process for `case`, then each variant's."""
    return [numpy_process(case, mode)] + [arrsh_process(case, v, mode) for v in variants]


def turned(count, by):
    """Indices 0 … count-1, starting at `by` and wrapping round: each round or turn starts with
    the next process, so that none is always first."""
    return [(i + by) % count for i in range(count)]


def run_alone(p):
    """The process's time, run on its own."""
    output = subprocess.run(
        p.command, input=p.first_input, capture_output=True, text=True, env=p.env
    )
    return seconds_from(output, p.what)


def counts(p, events):
    """The counts of `events` in process `p` run on its own under `perf stat`, by event; `None`
    for an event perf could not count."""
    with tempfile.NamedTemporaryFile("r", suffix=".csv") as report:
        command = ["perf", "stat", "-x,", "-o", report.name, "-e", events, "--", *p.command]
        output = subprocess.run(
            command, input=p.first_input, capture_output=True, text=True, env=p.env
        )
        if output.returncode != 0:
            sys.exit(f"{p.what} under perf stat failed:\n{output.stdout}{output.stderr}")
        lines = report.read().splitlines()
    # A count's line: value,unit,event,…; the value is `<not supported>` or `<not counted>` where
    # perf could not count the event.
    rows = [line.split(",") for line in lines if line[:1].isdigit() or line.startswith("<")]
    return {row[2]: None if row[0].startswith("<") else float(row[0]) for row in rows}


def report_counters(case, variants, events, rounds):
    """Each event's count in one of `case`'s products, NumPy's and each variant's (medians over
    `rounds`), and the variants' ratios to NumPy's."""
    whole, setup = case_processes(case, variants, "alone"), case_processes(case, variants, "setup")
    reps = case.fields()["reps"]
    per_product = [[] for _ in whole]
    for r in range(rounds):
        for i in turned(len(whole), r):
            total, before = counts(whole[i], events), counts(setup[i], events)
            product = {}
            for event, n in total.items():
                b = before.get(event)
                product[event] = None if n is None or b is None else (n - b) / reps
            per_product[i].append(product)
    labels = ["NumPy"] + [v.label for v in variants]
    print(f"{case.n}² {case.dtype}, {case.threads} thread(s), counts a product:", flush=True)
    for event in per_product[0][0]:
        samples = [[c[event] for c in process] for process in per_product]
        if any(None in s for s in samples):
            print(f"  {event}: not counted here", flush=True)
            continue
        numpy, *others = (statistics.median(s) for s in samples)
        line = f"  {event}: NumPy {numpy:.4g}"
        for label, median in zip(labels[1:], others):
            ratio = f" ({median / numpy:.3f})" if numpy else ""
            line += f" | {label} {median:.4g}{ratio}"
        print(line, flush=True)


def start_ready(processes, core_sets):
    """The processes started, process i on the cores `core_sets[i]`, once all have set up."""
    started = [
        subprocess.Popen(
            p.command,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            env=p.env,
            preexec_fn=lambda cores=cores: os.sched_setaffinity(0, cores),
        )
        for p, cores in zip(processes, core_sets)
    ]
    for s, p in zip(started, processes):
        s.stdin.write(p.first_input)
        s.stdin.flush()
    for s, p in zip(started, processes):
        if s.stdout.readline().strip() != READY:
            s.kill()
            sys.exit(f"{p.what} did not get ready:\n{s.stderr.read()}")
    return started


def run_together(processes, core_sets):
    """Each process's time, all set up on their own cores and then started at once, so that
    their products run at the same time."""
    started = start_ready(processes, core_sets)
    for s, p in zip(started, processes):
        s.stdin.write(p.start_input)
        s.stdin.close()
    outputs = [(s.stdout.read(), s.stderr.read(), s.wait()) for s in started]
    return [
        seconds_from(subprocess.CompletedProcess(p.command, code, out, err), p.what)
        for p, (out, err, code) in zip(processes, outputs)
    ]


def run_alternate(processes, core_sets, turns, pause):
    """Each process's time in each of `turns` turns, all set up on their cores (process i on
    `core_sets[i]`) and then taking turns, one process at a time, the order turning by one each
    turn, each turn `pause` seconds after the last."""
    started = start_ready(processes, core_sets)
    count = len(processes)
    samples = [[] for _ in processes]
    for turn in range(turns):
        for i in turned(count, turn):
            time.sleep(pause)
            s, p = started[i], processes[i]
            s.stdin.write(p.start_input)
            s.stdin.flush()
            output = subprocess.CompletedProcess(p.command, 0, s.stdout.readline(), "")
            samples[i].append(seconds_from(output, p.what))
    for s in started:
        s.stdin.close()
        s.wait()
    return samples


def machine_line():
    load = ", ".join(f"{v:.2f}" for v in os.getloadavg())
    now = datetime.datetime.now(datetime.UTC).strftime("%Y-%m-%d %H:%M UTC")
    return f"{now}; {cpu_model()}, {os.cpu_count()} cores; load {load}"


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("cases", nargs="+", type=Case.parse, metavar="CASE")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--arrsh", default=str(DEFAULT_ARRSH))
    parser.add_argument("--variant", action="append", default=[], metavar="SPEC")
    modes = parser.add_mutually_exclusive_group()
    modes.add_argument("--together", action="store_const", dest="mode", const="together")
    modes.add_argument("--alternate", type=int, metavar="TURNS")
    modes.add_argument("--counters", metavar="EVENTS")
    parser.add_argument("--same-cores", action="store_true")
    args = parser.parse_args()
    if args.alternate is not None and args.alternate < 1:
        parser.error("--alternate: at least one turn")
    if args.same_cores and args.alternate is None:
        parser.error("--same-cores: only with --alternate")
    mode = "alternate" if args.alternate else args.mode or "alone"
    cores = sorted(os.sched_getaffinity(0))
    variants = [Variant.parse(v, args.arrsh) for v in args.variant or ["arrsh"]]
    print(machine_line(), flush=True)
    for case in args.cases:
        if args.counters:
            report_counters(case, variants, args.counters, args.rounds)
            continue
        # `processes[0]` times NumPy, `processes[1:]` the variants; `times[i]` holds process i's
        # samples (a round's median, or with --alternate each turn's), whatever the
        # round's order or cores.
        processes = case_processes(case, variants, mode)
        count = len(processes)
        times = [[] for _ in processes]
        needed = case.threads if args.same_cores else count * case.threads
        if mode != "alone" and needed > len(cores):
            sys.exit(f"--{mode}: {count} processes of {case.threads} thread(s) need {needed} cores")
        for r in range(args.rounds):
            if args.same_cores:
                shared = {cores[(r * case.threads + j) % len(cores)] for j in range(case.threads)}
                core_sets = [shared] * count
            else:
                # Each process on its own cores, which turn by one process each round.
                core_sets = [
                    set(cores[((i + r) % count) * case.threads :][: case.threads])
                    for i in range(count)
                ]
            if mode == "alternate":
                pause = WORKERS_SPIN_SECONDS if case.threads > 1 else 0
                round_samples = run_alternate(processes, core_sets, args.alternate, pause)
            elif mode == "together":
                round_samples = [[t] for t in run_together(processes, core_sets)]
            else:
                round_samples = [[] for _ in processes]
                for i in turned(count, r):
                    round_samples[i].append(run_alone(processes[i]))
            for process_times, samples in zip(times, round_samples):
                process_times.extend(samples)
        numpy_times, *variant_times = times
        numpy = statistics.median(numpy_times)
        line = f"{case.n}² {case.dtype}, {case.threads} thread(s): NumPy {numpy * 1e3:.2f} ms"
        for variant, rounds in zip(variants, variant_times):
            median = statistics.median(rounds)
            paired = statistics.median(t / n for t, n in zip(rounds, numpy_times))
            ratios = f"{median / numpy:.3f}, paired {paired:.3f}"
            line += f" | {variant.label} {median * 1e3:.2f} ms ({ratios})"
        print(line, flush=True)


if __name__ == "__main__":
    main()
