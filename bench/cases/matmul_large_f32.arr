# title: a @ b, f32 n×n, large
# devices: cpu
# sizes: n=10000 | n=10000 threads=1
# quick: n=300
# reps: 2
# target: 1.1
a = astype(rand([n, n]), f32)
b = astype(rand([n, n]), f32)
for r in range(reps) {
    t = clock()
    c = a @ b
    sync()
    print("@time", clock() - t)
}
