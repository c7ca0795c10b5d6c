"""Print, as JSON, which NumPy and BLAS the benchmark's NumPy processes use.

run.py runs this in the same environment as the NumPy case scripts, so the OpenBLAS
kernel it reports is the one that ran the benchmarks.
"""
import contextlib
import ctypes
import io
import json

import numpy


def build_blas():
    """The BLAS NumPy was built against, from numpy.show_config()."""
    blas = numpy.show_config(mode="dicts")["Build Dependencies"]["blas"]
    return {
        "name": f"{blas.get('name', '?')} {blas.get('version', '')}".strip(),
        "config": blas.get("openblas configuration", ""),
    }


def show_runtime_text():
    """numpy.show_runtime() output (SIMD extensions; BLAS threads with threadpoolctl)."""
    if not hasattr(numpy, "show_runtime"):
        return "numpy.show_runtime() is not available in this NumPy"
    buffer = io.StringIO()
    with contextlib.redirect_stdout(buffer):
        numpy.show_runtime()
    return buffer.getvalue().strip()


def runtime_blas():
    """The BLAS kernel and threads in use now: threadpoolctl if installed, else OpenBLAS via ctypes."""
    try:
        from threadpoolctl import threadpool_info
    except ImportError:
        return openblas_runtime_via_ctypes()
    blas = [lib for lib in threadpool_info() if lib.get("user_api") == "blas"]
    if not blas:
        return "threadpoolctl found no BLAS library"
    return "; ".join(
        f"{lib['internal_api']} {lib.get('version')}, kernel {lib.get('architecture')}, "
        f"{lib['num_threads']} threads (threadpoolctl)"
        for lib in blas
    )


def loaded_openblas_path():
    """Path of the OpenBLAS shared library this process has loaded (Linux), or None."""
    try:
        with open("/proc/self/maps") as maps:
            paths = {line.split()[-1] for line in maps if "openblas" in line.lower()}
    except OSError:
        return None
    return min(paths) if paths else None


def openblas_function(library, name, restype):
    """OpenBLAS exports name with a scipy_ prefix and 64_ suffix in NumPy wheels; try each spelling."""
    for spelling in (f"scipy_{name}64_", f"scipy_{name}", f"{name}64_", name):
        if hasattr(library, spelling):
            function = getattr(library, spelling)
            function.restype = restype
            return function
    return None


def openblas_runtime_via_ctypes():
    path = loaded_openblas_path()
    if path is None:
        return "unknown (no threadpoolctl, and no OpenBLAS library found in /proc/self/maps)"
    library = ctypes.CDLL(path)
    corename = openblas_function(library, "openblas_get_corename", ctypes.c_char_p)
    threads = openblas_function(library, "openblas_get_num_threads", ctypes.c_int)
    if corename is None or threads is None:
        return f"unknown ({path} exports no openblas_get_corename)"
    return f"OpenBLAS kernel {corename().decode()}, {threads()} threads (ctypes)"


print(json.dumps({
    "numpy_version": numpy.__version__,
    "build_blas": build_blas(),
    "runtime_blas": runtime_blas(),
    "show_runtime": show_runtime_text(),
}))
