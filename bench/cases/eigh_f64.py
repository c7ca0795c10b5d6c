# baseline: NumPy (LAPACK syevd)
import time

import numpy as np

x = np.random.rand(n, n)
a = x + x.T
for _ in range(reps):
    t = time.perf_counter()
    w, v = np.linalg.eigh(a)
    print("@time", time.perf_counter() - t)
