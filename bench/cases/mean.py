# baseline: NumPy
import time

import numpy as np

x = np.random.rand(n)
for _ in range(reps):
    t = time.perf_counter()
    m = np.mean(x)
    print("@time", time.perf_counter() - t)
