# title: linalg.solve(a, b), f64 n×n, b a vector
# sizes: n=1000 | n=2000
# quick: n=200
# reps: 5
# target: 1.25
# gpu-sizes: n=8000
# gpu-quick: n=500
# gpu-target: 1.05
a = rand([n, n]) + eye(n) * n
b = rand(n)
sync()
for r in range(reps) {
    t = clock()
    x = linalg.solve(a, b)
    sync()
    print("@time", clock() - t)
}
