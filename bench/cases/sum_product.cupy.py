# baseline: CuPy: float((x * y).sum()) (the product into a temporary, its sum read back to the host)
import time

import cupy as cp

x = cp.random.rand(n)
y = cp.random.rand(n)
cp.cuda.Device().synchronize()
for _ in range(reps):
    t = time.perf_counter()
    s = float((x * y).sum())
    cp.cuda.Device().synchronize()
    print("@time", time.perf_counter() - t)
