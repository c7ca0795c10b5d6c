# baseline: NumPy
import time

import numpy as np

rng = np.random.default_rng(0)
for _ in range(reps):
    t = time.perf_counter()
    x = rng.normal(0, 1, n)
    print("@time", time.perf_counter() - t)
