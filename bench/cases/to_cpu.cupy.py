# baseline: CuPy: cp.asnumpy(x) into a new pageable NumPy array (cudaMemcpy to pageable memory)
import time

import cupy as cp

x = cp.random.rand(n)
cp.cuda.Device().synchronize()
for _ in range(reps):
    t = time.perf_counter()
    y = cp.asnumpy(x)
    cp.cuda.Device().synchronize()
    print("@time", time.perf_counter() - t)
