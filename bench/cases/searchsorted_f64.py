# baseline: NumPy
import time

import numpy as np

rng = np.random.default_rng(0)
a = np.sort(rng.random(1000000)); v = rng.random(n)
for _ in range(reps):
    t = time.perf_counter()
    p = np.searchsorted(a, v)
    print("@time", time.perf_counter() - t)
