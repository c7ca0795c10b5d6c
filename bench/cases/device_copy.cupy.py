# baseline: CuPy: cudaMemcpyAsync device→device (y.data.copy_from_device_async)
import time

import cupy as cp

x = cp.random.rand(n)
y = cp.empty(n)
cp.cuda.Device().synchronize()
for _ in range(reps):
    t = time.perf_counter()
    y.data.copy_from_device_async(x.data, x.nbytes)
    cp.cuda.Device().synchronize()
    print("@time", time.perf_counter() - t)
