# title: random.normal(0, 1, n), f64
# sizes: n=1e6 | n=1e7
# quick: n=1e5
# reps: 5
# target: 1.0
# gpu-sizes: n=1e9
# gpu-quick: n=1e6
# gpu-target: 1.05
seed(0)
for r in range(reps) {
    t = clock()
    x = random.normal(0, 1, n)
    sync()
    print("@time", clock() - t)
}
