# baseline: CuPy (cuSOLVER getrf + getrs)
import time

import cupy as cp

a = cp.random.rand(n, n) + cp.eye(n) * n
b = cp.random.rand(n)
cp.cuda.Device().synchronize()
for _ in range(reps):
    t = time.perf_counter()
    x = cp.linalg.solve(a, b)
    cp.cuda.Device().synchronize()
    print("@time", time.perf_counter() - t)
