# baseline: CuPy
import time

import cupy as cp
import numpy as np

dtypes = [np.float64, np.float32, np.float16, np.int32, np.uint8, np.complex128]
x = (cp.random.rand(n) * 100).astype(dtypes[d])
y = (cp.random.rand(n) * 100).astype(dtypes[d])
cp.cuda.Device().synchronize()
for _ in range(reps):
    t = time.perf_counter()
    z = x + y
    cp.cuda.Device().synchronize()
    print("@time", time.perf_counter() - t)
