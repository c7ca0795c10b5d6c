# baseline: NumPy
import time

import numpy as np

dtypes = [np.float64, np.float32, np.float16, np.int32, np.uint8, np.complex128]
x = (np.random.rand(n) * 100).astype(dtypes[d])
y = (np.random.rand(n) * 100).astype(dtypes[d])
for _ in range(reps):
    t = time.perf_counter()
    z = x + y
    print("@time", time.perf_counter() - t)
