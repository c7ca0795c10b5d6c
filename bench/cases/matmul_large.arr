# title: a @ b, f64 n×n, large (all threads)
# devices: cpu
# sizes: n=10000
# quick: n=300
# reps: 2
# target: 1.1
a = rand([n, n])
b = rand([n, n])
for r in range(reps) {
    t = clock()
    c = a @ b
    sync()
    print("@time", clock() - t)
}
