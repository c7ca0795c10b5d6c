# baseline: NumPy (two ufunc calls per statement: x * 5 into a temporary, then + 1)
import time

import numpy as np

x = np.random.rand(n)
for _ in range(reps):
    t = time.perf_counter()
    for _ in range(statements):
        y = x * 5 + 1
    print("@time", (time.perf_counter() - t) / statements)
