# baseline: CuPy (cuBLAS getrfBatched + getriBatched)
import time

import cupy as cp

a = cp.random.rand(b, n, n) + cp.eye(n) * n
cp.cuda.Device().synchronize()
for _ in range(reps):
    t = time.perf_counter()
    x = cp.linalg.inv(a)
    cp.cuda.Device().synchronize()
    print("@time", time.perf_counter() - t)
