# title: linalg.inv(a), f64 n×n
# sizes: n=1000 | n=2000
# quick: n=200
# reps: 5
# target: 1.25
# devices: cpu
a = rand([n, n]) + eye(n) * n
sync()
for r in range(reps) {
    t = clock()
    x = linalg.inv(a)
    sync()
    print("@time", clock() - t)
}
