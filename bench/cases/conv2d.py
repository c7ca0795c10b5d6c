# baseline: NumPy: sum of 9 shifted slices × weights on a zero-padded copy (np.pad timed too)
import time

import numpy as np


def conv2d_same(image, kernel):
    """2-d "same" correlation with zero padding (odd kernel sides), as arr's conv2d."""
    rows, cols = image.shape
    kh, kw = kernel.shape
    padded = np.pad(image, ((kh // 2,), (kw // 2,)))
    out = np.zeros_like(image)
    for i in range(kh):
        for j in range(kw):
            out += kernel[i, j] * padded[i:i + rows, j:j + cols]
    return out


img = np.random.rand(n, n)
k = np.random.rand(3, 3)
for _ in range(reps):
    t = time.perf_counter()
    out = conv2d_same(img, k)
    print("@time", time.perf_counter() - t)
