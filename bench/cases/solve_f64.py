# baseline: NumPy (LAPACK gesv)
import time

import numpy as np

a = np.random.rand(n, n) + np.eye(n) * n
b = np.random.rand(n)
for _ in range(reps):
    t = time.perf_counter()
    x = np.linalg.solve(a, b)
    print("@time", time.perf_counter() - t)
