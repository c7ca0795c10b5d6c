# title: host→device cudaMemcpy of n f64 from pinned memory: the PCIe reference of to_gpu (no arrsh side)
# devices: gpu
# sizes: n=1e8
# quick: n=1e6
# reps: 7
# bytes: 8*n
# baseline: CuPy: cudaMemcpy from pinned host memory (cupyx.empty_pinned) into an existing array
import time

import cupy as cp
import cupyx
import numpy as np

host = cupyx.empty_pinned(n, dtype=np.float64)
host[:] = np.random.rand(n)
y = cp.empty(n)
runtime = cp.cuda.runtime
cp.cuda.Device().synchronize()
for _ in range(reps):
    t = time.perf_counter()
    runtime.memcpy(y.data.ptr, host.ctypes.data, host.nbytes, runtime.memcpyHostToDevice)
    cp.cuda.Device().synchronize()
    print("@time", time.perf_counter() - t)
