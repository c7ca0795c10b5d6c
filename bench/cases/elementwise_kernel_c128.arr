# title: a user's elementwise_kernel over complex128: z = a * x + y with a complex scalar a, against CuPy's ElementwiseKernel of the same snippet
# devices: gpu
# sizes: n=1e7 | n=5e7
# quick: n=1e6
# reps: 10
# target: 1.05
axpy = elementwise_kernel("T x, T y, T a", "T z", "z = a * x + y", "axpy")
x = astype(rand(n), c128) * (1 - 2j)
y = astype(rand(n), c128) * 3j
z = axpy(x, y, 0.5 + 1j)
sync()
for r in range(reps) {
    t = clock()
    z = axpy(x, y, 0.5 + 1j)
    sync()
    print("@time", clock() - t)
}
