# baseline: NumPy (BLAS dgemm)
import time

import numpy as np

a = np.random.rand(n, n)
b = np.random.rand(n, n)
for _ in range(reps):
    t = time.perf_counter()
    c = a @ b
    print("@time", time.perf_counter() - t)
