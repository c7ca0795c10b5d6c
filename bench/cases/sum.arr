# title: sum(x), f64
# sizes: n=1e8
# quick: n=1e5
# reps: 7
# target: 1.0
# gpu-sizes: n=1e9
# gpu-quick: n=1e6
# gpu-bytes: 8*n
# gpu-bandwidth-of: device_copy
# gpu-bandwidth-target: 0.85
x = rand(n)
for r in range(reps) {
    t = clock()
    s = sum(x)
    sync()
    print("@time", clock() - t)
}
