# baseline: CuPy: cp.asarray(x) from pageable NumPy memory (CuPy stages it through its pinned-memory pool)
import time

import cupy as cp
import numpy as np

x = np.random.rand(n)  # pageable host memory, as a NumPy user has it
cp.cuda.Device().synchronize()
for _ in range(reps):
    t = time.perf_counter()
    y = cp.asarray(x)
    cp.cuda.Device().synchronize()
    print("@time", time.perf_counter() - t)
