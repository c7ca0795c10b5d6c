# title: histogram(x, bins=100), f64 random
# sizes: n=1e7
# quick: n=1e5
# reps: 5
# target: 1.2
# gpu-sizes: n=1e8
# gpu-quick: n=1e6
# gpu-target: 1.2
x = rand(n)
sync()
for r in range(reps) {
    t = clock()
    h = histogram(x, bins=100)
    sync()
    print("@time", clock() - t)
}
