# title: device→host cudaMemcpy of n f64 into pinned memory: the PCIe reference of to_cpu (no arrsh side)
# devices: gpu
# sizes: n=1e8
# quick: n=1e6
# reps: 7
# bytes: 8*n
# baseline: CuPy: cudaMemcpy into pinned host memory (cupyx.empty_pinned), allocated once
import time

import cupy as cp
import cupyx
import numpy as np

x = cp.random.rand(n)
host = cupyx.empty_pinned(n, dtype=np.float64)
runtime = cp.cuda.runtime
cp.cuda.Device().synchronize()
for _ in range(reps):
    t = time.perf_counter()
    runtime.memcpy(host.ctypes.data, x.data.ptr, x.nbytes, runtime.memcpyDeviceToHost)
    cp.cuda.Device().synchronize()
    print("@time", time.perf_counter() - t)
