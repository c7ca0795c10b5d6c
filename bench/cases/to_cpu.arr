# title: y = to(x, cpu), f64 device→host copy into a new host array (n=1e8 is 800 MB)
# devices: gpu
# sizes: n=1e8
# quick: n=1e6
# reps: 7
# target: 1.0
# bytes: 8*n
# bandwidth-of: pinned_d2h
# bandwidth-target: 0.8
x = rand(n, device=gpu)
for r in range(reps) {
    t = clock()
    y = to(x, cpu)
    sync()
    print("@time", clock() - t)
}
