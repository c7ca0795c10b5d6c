# title: a @ b, f32 n×n
# devices: gpu
# sizes: n=5000 | n=10000
# quick: n=200
# reps: 5
# target: 1.05
a = astype(rand([n, n]), f32)
b = astype(rand([n, n]), f32)
for r in range(reps) {
    t = clock()
    c = a @ b
    sync()
    print("@time", clock() - t)
}
