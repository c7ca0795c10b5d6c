# baseline: NumPy
import time

import numpy as np

rng = np.random.default_rng(0)
x = rng.integers(0, 1000000, n)
for _ in range(reps):
    t = time.perf_counter()
    y = np.unique(x)
    print("@time", time.perf_counter() - t)
