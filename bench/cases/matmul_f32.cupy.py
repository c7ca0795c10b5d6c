# baseline: CuPy (cuBLAS sgemm; TF32 only if CUPY_TF32=1)
import time

import cupy as cp

a = cp.random.rand(n, n).astype(cp.float32)
b = cp.random.rand(n, n).astype(cp.float32)
cp.cuda.Device().synchronize()
for _ in range(reps):
    t = time.perf_counter()
    c = a @ b
    cp.cuda.Device().synchronize()
    print("@time", time.perf_counter() - t)
