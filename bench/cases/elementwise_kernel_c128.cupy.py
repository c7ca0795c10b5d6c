# baseline: CuPy's ElementwiseKernel
import time

import cupy as cp

axpy = cp.ElementwiseKernel("T x, T y, T a", "T z", "z = a * x + y", "axpy")
x = cp.random.rand(n).astype(cp.complex128) * (1 - 2j)
y = cp.random.rand(n).astype(cp.complex128) * 3j
z = axpy(x, y, 0.5 + 1j)
cp.cuda.Device().synchronize()
for _ in range(reps):
    t = time.perf_counter()
    z = axpy(x, y, 0.5 + 1j)
    cp.cuda.Device().synchronize()
    print("@time", time.perf_counter() - t)
