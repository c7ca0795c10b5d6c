# baseline: CuPy's ElementwiseKernel
import time

import cupy as cp

rotate = cp.ElementwiseKernel(
    "T z, float32 t", "T w", "w = exp(z * complex<float>(0, t)) + conj(z) / abs(z + T(1))", "rotate"
)
z = (cp.random.rand(n) * (1 + 2j)).astype(cp.complex64)
w = rotate(z, 0.25)
cp.cuda.Device().synchronize()
for _ in range(reps):
    s = time.perf_counter()
    w = rotate(z, 0.25)
    cp.cuda.Device().synchronize()
    print("@time", time.perf_counter() - s)
