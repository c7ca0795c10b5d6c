# baseline: NumPy (LAPACK gesv against the identity)
import time

import numpy as np

a = np.random.rand(n, n) + np.eye(n) * n
for _ in range(reps):
    t = time.perf_counter()
    x = np.linalg.inv(a)
    print("@time", time.perf_counter() - t)
