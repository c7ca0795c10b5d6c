# baseline: CuPy (one cuFFT 2-d real-to-complex plan, from its plan cache)
import time

import cupy as cp

img = cp.random.rand(n, n).astype(cp.float32)
f = cp.fft.rfft2(img)
cp.cuda.Device().synchronize()
for _ in range(reps):
    t = time.perf_counter()
    f = cp.fft.rfft2(img)
    cp.cuda.Device().synchronize()
    print("@time", time.perf_counter() - t)
