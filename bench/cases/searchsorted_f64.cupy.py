# baseline: CuPy
import time

import cupy as cp

a = cp.sort(cp.random.rand(1000000)); v = cp.random.rand(n)
cp.cuda.Device().synchronize()
for _ in range(reps):
    t = time.perf_counter()
    p = cp.searchsorted(a, v)
    cp.cuda.Device().synchronize()
    print("@time", time.perf_counter() - t)
