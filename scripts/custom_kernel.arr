# Lesson 9 — "a small snippet of C++": kernels you write yourself, and when you need one.
#
# Source: an article on CuPy: "where something is not supported, users can write their own code
# that uses CUDA and the gpu: only a small snippet of C++ is needed, and CuPy turns it into gpu code
# by itself, much as Cython does." That is CuPy's ElementwiseKernel; arrsh has it too:
#
#     k = elementwise_kernel("T x, T y", "T z", "z = (x - y) * (x - y)", "squared_diff")
#
# The first string names the inputs, the second the outputs; `T` is a type placeholder that the
# arguments bind (f64 arrays make T double). The third is the snippet: C++ run once per element, as
# CuPy runs it. arrsh writes the loop around it, NVRTC compiles it on the first call (cached on disk
# afterwards), and the call is one kernel.
#
# The lesson: for plain elementwise arithmetic, the snippet buys nothing over arr code. CuPy runs
# `(x - y) * (x - y)` as three kernels and two temporaries, so a custom kernel is three times less
# memory traffic there; arrsh fuses the arr expression into one kernel by itself. The snippet is for
# what no built-in says: here, a loop inside each element (a 20-term series), and a kernel you write
# whole with raw_kernel. `:fuse off` shows what an unfused expression costs.
#
#     arrsh --device gpu scripts/custom_kernel.arr
#
# On a machine without a gpu the kernels cannot run (their code is CUDA C): the script says so and
# shows the fused arr code, which `fuse(f)` also runs on the cpu.

n = 1e8   # ci: 1000
has_gpu = len(devices()) == 2

# The best of 5 timed runs of f (after one untimed), synchronized: the result is kept (an unobserved
# result would never be computed) and sync() waits for the gpu.
fn best(f) {
    d = f()
    sync()
    fastest = inf
    for r in range(5) {
        t = clock()
        d = f()
        sync()
        fastest = minimum(fastest, clock() - t)
    }
    return fastest
}
fn ms(t) { return str(round(t * 1e5) / 100) + " ms" }

x = rand(n)
y = rand(n)

print("--- the arr expression, fused: one pass over x and y")
:explain d = (x - y) * (x - y)
fused = best(fn() { return (x - y) * (x - y) })
print("--- the same with :fuse off: three passes and two temporaries, as NumPy and CuPy make")
:fuse off
unfused = best(fn() { return (x - y) * (x - y) })
:fuse on
print(str(x.device) + ": fused", ms(fused), "· unfused", ms(unfused))
# fuse(f) runs f's elementwise work as one kernel even with :fuse off (CuPy's cupy.fuse).
squared_diff_arr = fuse(fn(a, b) { return (a - b) * (a - b) })
:fuse off
:time on
d = squared_diff_arr(x, y)
:time off
:fuse on
print(max(abs(d - (x - y) * (x - y))))

if has_gpu {
    xg = to(x, gpu)
    yg = to(y, gpu)
    print("--- on the gpu: the arr expression fused (one kernel), then unfused (three)")
    gpu_fused = best(fn() { return (xg - yg) * (xg - yg) })
    :fuse off
    gpu_unfused = best(fn() { return (xg - yg) * (xg - yg) })
    :fuse on
    print("--- the snippet as a kernel of our own: one kernel, the same numbers")
    k = elementwise_kernel("T x, T y", "T z", "z = (x - y) * (x - y)", "squared_diff")
    print(max(abs(k(xg, yg) - (xg - yg) * (xg - yg))))
    gpu_kernel = best(fn() { return k(xg, yg) })
    print("gpu: fused", ms(gpu_fused), "· unfused", ms(gpu_unfused), "· elementwise_kernel", ms(gpu_kernel))
    print("--- what arrsh wrote around the snippet")
    :explain --source d = k(xg, yg)
    print("--- what needs a snippet: a loop inside each element (exp(x) by 20 terms of its series)")
    series = elementwise_kernel("T x", "T z", "T term = 1, sum = 1; for (int k = 1; k < 20; ++k) { term *= x / k; sum += term; } z = sum;", "exp_series")
    print(max(abs(series(xg) - exp(xg))) < 1e-12)
    print("--- and a whole kernel (raw_kernel): each thread doubles one element")
    twice = raw_kernel("extern \"C\" __global__ void twice(double* v, long long n) { long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x; if (i < n) v[i] *= 2; }", "twice")
    v = arange(8.0, device=gpu)
    twice(1, 32, [v, 8])
    print(v)
} else {
    print("no gpu: elementwise_kernel and raw_kernel need one (their code is CUDA C)")
}
