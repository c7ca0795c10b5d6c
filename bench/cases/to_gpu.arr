# title: y = to(x, gpu), f64 host→device copy (n=1e8 is 800 MB)
# devices: gpu
# sizes: n=1e8
# quick: n=1e6
# reps: 7
# target: 1.0
# bytes: 8*n
# bandwidth-of: pinned_h2d
# bandwidth-target: 0.8
x = rand(n, device=cpu)
for r in range(reps) {
    t = clock()
    y = to(x, gpu)
    sync()
    print("@time", clock() - t)
}
