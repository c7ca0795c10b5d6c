# title: a user's elementwise_kernel("T x, T y, T a", "T z", "z = a * x + y"), f64, against CuPy's ElementwiseKernel of the same snippet
# devices: gpu
# sizes: n=1e7 | n=1e8
# quick: n=1e6
# reps: 10
# target: 1.05
axpy = elementwise_kernel("T x, T y, T a", "T z", "z = a * x + y", "axpy")
x = rand(n)
y = rand(n)
z = axpy(x, y, 2.0)
sync()
for r in range(reps) {
    t = clock()
    z = axpy(x, y, 2.0)
    sync()
    print("@time", clock() - t)
}
