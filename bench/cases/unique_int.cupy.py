# baseline: CuPy
import time

import cupy as cp

x = cp.random.randint(0, 1000000, n)
cp.cuda.Device().synchronize()
for _ in range(reps):
    t = time.perf_counter()
    y = cp.unique(x)
    cp.cuda.Device().synchronize()
    print("@time", time.perf_counter() - t)
