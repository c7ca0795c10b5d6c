# baseline: CuPy (two kernel launches per statement: x * 5 into a temporary, then + 1)
import time

import cupy as cp

x = cp.random.rand(n)
y = x * 5 + 1  # compiles the two kernels before the first repetition
cp.cuda.Device().synchronize()
for _ in range(reps):
    t = time.perf_counter()
    for _ in range(statements):
        y = x * 5 + 1
    cp.cuda.Device().synchronize()
    print("@time", (time.perf_counter() - t) / statements)
