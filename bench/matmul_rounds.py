#!/usr/bin/env python3
"""Compare cpu matrix products of arrsh builds or settings with NumPy's, in alternating processes.

    python3 bench/matmul_rounds.py [--rounds R] [--arrsh PATH] [--variant SPEC ...] CASE ...

CASE is N:DTYPE:THREADS:REPS, e.g. 2000:f64:1:5 — an N×N product of f64 or f32 on THREADS
threads (arrsh's --threads, the BLAS thread variables for NumPy, as run.py sets them), timed REPS times in one process
after one untimed product; REPS 0 times one product with none before it (the first product
then pays for fresh memory, as a user's first one does).

Each round runs a NumPy process and one arrsh process per variant, so that a machine whose
speed drifts (a shared host, a turbo that comes and goes) drifts for all of them alike; the
order turns by one each round, so that none is always first after the previous case or
round. Each process prints the median of its repetitions; the report gives, per case, the
median over rounds, each variant's ratio to NumPy's (below 1: arrsh is faster), and the
median of the rounds' own ratios (`paired`: each variant against the NumPy process of its
round, which follows a host whose speed changes from one round to the next more closely).
NumPy's processes run without OPENBLAS_CORETYPE and OPENBLAS_L2_SIZE, as run.py's do.

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
from dataclasses import dataclass

from run import BLAS_THREAD_VARIABLES, DEFAULT_ARRSH, cpu_model, numpy_env

ARR_SCRIPT = """a = astype(rand([{n}, {n}]), {dtype})
b = astype(rand([{n}, {n}]), {dtype})
{warm}
ts = zeros([{reps}])
for r in range({reps}) {{
    t = clock()
    c = a @ b
    ts[r] = clock() - t
}}
print(median(ts))
"""

NUMPY_SCRIPT = """import numpy as np, statistics, time
dtype = np.{numpy_dtype}
a = np.random.rand({n}, {n}).astype(dtype)
b = np.random.rand({n}, {n}).astype(dtype)
{warm}
ts = []
for r in range({reps}):
    t = time.perf_counter()
    c = a @ b
    ts.append(time.perf_counter() - t)
print(statistics.median(ts))
"""

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
        warm = "c = a @ b" if self.reps else ""
        return dict(n=self.n, dtype=self.dtype, reps=max(self.reps, 1), warm=warm)


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


def time_arrsh(case, variant):
    env = {**os.environ, **variant.env}
    command = [variant.binary, "--threads", str(case.threads), "-"]
    script = ARR_SCRIPT.format(**case.fields())
    output = subprocess.run(command, input=script, capture_output=True, text=True, env=env)
    return seconds_from(output, f"arrsh ({variant.label})")


def time_numpy(case):
    # Without the OpenBLAS safety variables, as run.py does: a machine whose environment sets
    # OPENBLAS_CORETYPE=Haswell would otherwise time NumPy on its AVX2 kernels.
    env = {**numpy_env(), **{name: str(case.threads) for name in BLAS_THREAD_VARIABLES}}
    script = NUMPY_SCRIPT.format(numpy_dtype=NUMPY_DTYPES[case.dtype], **case.fields())
    output = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, env=env
    )
    return seconds_from(output, "NumPy")


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
    args = parser.parse_args()
    variants = [Variant.parse(v, args.arrsh) for v in args.variant or ["arrsh"]]
    print(machine_line(), flush=True)
    for case in args.cases:
        # `runs[0]` times NumPy, `runs[1:]` the variants; `times[i]` holds run i's rounds, whatever
        # the round's order.
        runs = [lambda: time_numpy(case)] + [lambda v=v: time_arrsh(case, v) for v in variants]
        times = [[] for _ in runs]
        for r in range(args.rounds):
            for i in range(len(runs)):
                turned = (i + r) % len(runs)
                times[turned].append(runs[turned]())
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
