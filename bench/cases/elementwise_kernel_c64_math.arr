# title: a user's elementwise_kernel of complex64 math: w = exp(z * complex<float>(0, t)) + conj(z) / abs(z + 1), against CuPy's ElementwiseKernel of the same snippet
# devices: gpu
# sizes: n=1e7 | n=5e7
# quick: n=1e6
# reps: 10
# target: 1.05
rotate = elementwise_kernel("T z, float32 t", "T w", "w = exp(z * complex<float>(0, t)) + conj(z) / abs(z + T(1))", "rotate")
z = astype(rand(n) * (1 + 2j), c64)
w = rotate(z, 0.25)
sync()
for r in range(reps) {
    s = clock()
    w = rotate(z, 0.25)
    sync()
    print("@time", clock() - s)
}
