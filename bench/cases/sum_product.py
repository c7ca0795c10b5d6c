# baseline: NumPy: float((x * y).sum())
import time

import numpy as np

x = np.random.rand(n)
y = np.random.rand(n)
for _ in range(reps):
    t = time.perf_counter()
    s = float((x * y).sum())
    print("@time", time.perf_counter() - t)
