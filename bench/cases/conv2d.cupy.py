# baseline: CuPy: cupyx.scipy.signal.correlate2d(img, k, mode="same") (zero padding, as arr's conv2d)
import time

import cupy as cp

try:
    from cupyx.scipy.signal import correlate2d

    def conv2d_same(image, kernel):
        return correlate2d(image, kernel, mode="same")
except ImportError as error:
    # The same numbers for odd kernel sides: ndimage's correlate centres the kernel on the pixel.
    from cupyx.scipy import ndimage

    print("cupyx.scipy.signal unavailable (", error, "); using cupyx.scipy.ndimage.correlate")

    def conv2d_same(image, kernel):
        return ndimage.correlate(image, kernel, mode="constant", cval=0.0)

img = cp.random.rand(n, n)
k = cp.random.rand(3, 3)
cp.cuda.Device().synchronize()
for _ in range(reps):
    t = time.perf_counter()
    out = conv2d_same(img, k)
    cp.cuda.Device().synchronize()
    print("@time", time.perf_counter() - t)
