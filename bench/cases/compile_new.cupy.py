# baseline: CuPy: a new cp.ElementwiseKernel per repetition (the same r + 1 steps, a unique name), compiled at its first call
import time

import cupy as cp

x = cp.random.rand(n)
cp.cuda.Device().synchronize()
for r in range(reps):
    t = time.perf_counter()
    body = "double v = x;\n" + "".join(f"v = v * 1.5 + {j};\n" for j in range(r + 1)) + "y = v;\n"
    kernel = cp.ElementwiseKernel("float64 x", "float64 y", body, f"compile_new_{r}")
    y = kernel(x)
    cp.cuda.Device().synchronize()
    print("@time", time.perf_counter() - t)
