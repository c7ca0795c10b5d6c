# title: unique(x), i64 in [0, 1e6)
# sizes: n=1e7
# quick: n=1e5
# reps: 5
# target: 1.0
# gpu-sizes: n=1e7
# gpu-quick: n=1e6
# gpu-target: 1.5
x = randint(0, 1000000, n)
sync()
for r in range(reps) {
    t = clock()
    y = unique(x)
    sync()
    print("@time", clock() - t)
}
