# baseline: CuPy
import time

import cupy as cp

cp.random.seed(0)
cp.cuda.Device().synchronize()
for _ in range(reps):
    t = time.perf_counter()
    x = cp.random.normal(0, 1, n)
    cp.cuda.Device().synchronize()
    print("@time", time.perf_counter() - t)
