# title: linalg.svd(a), f64 n×n, U, S and Vh
# sizes: n=500 | n=1000
# quick: n=100
# reps: 3
# target: 1.5
# gpu-sizes: n=2000
# gpu-quick: n=200
# gpu-target: 1.10
a = rand([n, n])
sync()
for r in range(reps) {
    t = clock()
    u, s, vh = linalg.svd(a)
    sync()
    print("@time", clock() - t)
}
