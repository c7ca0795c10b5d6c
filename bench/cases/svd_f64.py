# baseline: NumPy (LAPACK gesdd)
import time

import numpy as np

a = np.random.rand(n, n)
for _ in range(reps):
    t = time.perf_counter()
    u, s, vh = np.linalg.svd(a)
    print("@time", time.perf_counter() - t)
