# baseline: NumPy
import time

import numpy as np

x = np.random.rand(n)
for _ in range(reps):
    t = time.perf_counter()
    y = x * 5 + 1
    print("@time", time.perf_counter() - t)
