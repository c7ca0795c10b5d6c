# baseline: a bare 8-byte cudaMemcpy device→host (cp.cuda.runtime.memcpy into a 1-element NumPy array), per read
import time

import cupy as cp
import numpy as np

x = cp.random.rand(n)
host = np.empty(1)  # pageable, as a host scalar is
host_ptr, base = host.ctypes.data, x.data.ptr
memcpy, device_to_host = cp.cuda.runtime.memcpy, cp.cuda.runtime.memcpyDeviceToHost
cp.cuda.Device().synchronize()
for _ in range(reps):
    t = time.perf_counter()
    for i in range(reads):
        memcpy(host_ptr, base + 8 * i, 8, device_to_host)
    cp.cuda.Device().synchronize()
    print("@time", (time.perf_counter() - t) / reads)
