# baseline: NumPy (BLAS sgemm)
import time

import numpy as np

a = np.random.rand(n, n).astype(np.float32)
b = np.random.rand(n, n).astype(np.float32)
for _ in range(reps):
    t = time.perf_counter()
    c = a @ b
    print("@time", time.perf_counter() - t)
