# baseline: NumPy
import time

import numpy as np

a = np.random.rand(n)
b = np.random.rand(n)
for _ in range(reps):
    t = time.perf_counter()
    z = np.sqrt(a*a + b*b) * np.sin(a) + 1
    print("@time", time.perf_counter() - t)
