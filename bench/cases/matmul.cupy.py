# baseline: CuPy (cuBLAS dgemm)
import time

import cupy as cp

a = cp.random.rand(n, n)
b = cp.random.rand(n, n)
cp.cuda.Device().synchronize()
for _ in range(reps):
    t = time.perf_counter()
    c = a @ b
    cp.cuda.Device().synchronize()
    print("@time", time.perf_counter() - t)
