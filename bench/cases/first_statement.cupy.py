# baseline: CuPy: cp.ones(n), then x * 5 + 1 (three kernels compiled), in a fresh process with its CUDA context made before the clock starts
import time

import cupy as cp

# One timing per process (reps is 1): a second repetition would find the kernels compiled.
# arrsh --device gpu makes its CUDA context at start-up; CuPy makes its own lazily, so it is
# made here, before the clock starts (cudaDeviceSynchronize creates the primary context).
cp.cuda.Device().synchronize()
t = time.perf_counter()
x = cp.ones(n)
y = x * 5 + 1
cp.cuda.Device().synchronize()
print("@time", time.perf_counter() - t)
