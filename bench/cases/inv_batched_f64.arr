# title: linalg.inv(a), f64 stack of b matrices n×n (cuBLAS batched LU)
# devices: gpu
# sizes: b=10000 n=8
# quick: b=1000 n=8
# reps: 7
# target: 1.10
a = rand([b, n, n]) + eye(n) * n
sync()
for r in range(reps) {
    t = clock()
    x = linalg.inv(a)
    sync()
    print("@time", clock() - t)
}
