# baseline: NumPy
import time

import numpy as np

rng = np.random.default_rng(0)
x = rng.random(n)
for _ in range(reps):
    t = time.perf_counter()
    y = np.cumsum(x)
    print("@time", time.perf_counter() - t)
