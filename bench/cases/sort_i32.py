# baseline: NumPy
import time

import numpy as np

rng = np.random.default_rng(0)
x = rng.integers(0, 2000000000, n).astype(np.int32)
for _ in range(reps):
    t = time.perf_counter()
    y = np.sort(x)
    print("@time", time.perf_counter() - t)
