# baseline: NumPy (pocketfft; float32 in, complex64 out)
import time

import numpy as np

rng = np.random.default_rng(0)
img = rng.random((n, n)).astype(np.float32)
f = np.fft.rfft2(img)
for _ in range(reps):
    t = time.perf_counter()
    f = np.fft.rfft2(img)
    print("@time", time.perf_counter() - t)
