# baseline: CuPy (one kernel per operation)
import time

import cupy as cp

a = cp.random.rand(n)
b = cp.random.rand(n)
cp.cuda.Device().synchronize()
for _ in range(reps):
    t = time.perf_counter()
    z = cp.sqrt(a*a + b*b) * cp.sin(a) + 1
    cp.cuda.Device().synchronize()
    print("@time", time.perf_counter() - t)
