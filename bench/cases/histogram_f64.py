# baseline: NumPy
import time

import numpy as np

rng = np.random.default_rng(0)
x = rng.random(n)
for _ in range(reps):
    t = time.perf_counter()
    h = np.histogram(x, bins=100)
    print("@time", time.perf_counter() - t)
