# baseline: CuPy (cuFFT, its plan cache)
import time

import cupy as cp

x = cp.random.rand(n) + cp.random.rand(n) * 1j
y = cp.fft.fft(x)
cp.cuda.Device().synchronize()
for _ in range(reps):
    t = time.perf_counter()
    y = cp.fft.fft(x)
    cp.cuda.Device().synchronize()
    print("@time", time.perf_counter() - t)
