# title: x = ones(n), f64 (a new array filled: allocation and fill kernel)
# devices: gpu
# sizes: n=1e9
# quick: n=1e6
# reps: 7
# target: 1.0
# bytes: 8*n
# bandwidth-of: device_copy
# bandwidth-target: 0.85
for r in range(reps) {
    t = clock()
    x = ones(n)
    sync()
    print("@time", clock() - t)
}
