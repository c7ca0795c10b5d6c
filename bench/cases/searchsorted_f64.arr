# title: searchsorted(a, v): 1e7 values in 1e6 sorted f64
# sizes: n=1e7
# quick: n=1e5
# reps: 5
# target: 1.2
# gpu-sizes: n=1e7
# gpu-quick: n=1e5
# gpu-target: 1.2
a = sort(rand(1000000)); v = rand(n)
sync()
for r in range(reps) {
    t = clock()
    p = searchsorted(a, v)
    sync()
    print("@time", clock() - t)
}
