# title: a @ b, f64 n×n
# sizes: n=200 reps=200 | n=500 threads=1 reps=30 | n=2000 threads=1 | n=500 reps=60 | n=1000 reps=20 | n=2000 | n=3000
# quick: n=200
# reps: 5
# rounds: 3
# gpu-rounds: 1
# target: 1.1
# gpu-sizes: n=5000 | n=10000
# gpu-target: 1.05
a = rand([n, n])
b = rand([n, n])
for r in range(reps) {
    t = clock()
    c = a @ b
    sync()
    print("@time", clock() - t)
}
