# title: linalg.eigh(a), f64 n×n symmetric, eigenvalues and eigenvectors
# sizes: n=500 | n=1000
# quick: n=100
# reps: 3
# target: 1.5
# gpu-sizes: n=4000
# gpu-quick: n=200
# gpu-target: 1.10
x = rand([n, n])
a = x + x.T
sync()
for r in range(reps) {
    t = clock()
    w, v = linalg.eigh(a)
    sync()
    print("@time", clock() - t)
}
