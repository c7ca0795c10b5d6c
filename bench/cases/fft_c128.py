# baseline: NumPy (pocketfft)
import time

import numpy as np

rng = np.random.default_rng(0)
x = rng.random(n) + rng.random(n) * 1j
y = np.fft.fft(x)
for _ in range(reps):
    t = time.perf_counter()
    y = np.fft.fft(x)
    print("@time", time.perf_counter() - t)
