# baseline: CuPy: float(cp.sum(x)) (read back to the host, as arr's sum(x) returns a host number)
import time

import cupy as cp

x = cp.random.rand(n)
cp.cuda.Device().synchronize()
for _ in range(reps):
    t = time.perf_counter()
    s = float(cp.sum(x))
    cp.cuda.Device().synchronize()
    print("@time", time.perf_counter() - t)
