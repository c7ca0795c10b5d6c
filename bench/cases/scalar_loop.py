# baseline: plain CPython (top-level loop, no NumPy)
import time

for _ in range(reps):
    t = time.perf_counter()
    s = 0.0
    for i in range(n):
        s += i * 0.5
    print("@time", time.perf_counter() - t)
