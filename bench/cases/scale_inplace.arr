# title: x *= 5, f64 (in place)
# sizes: n=1e7 | n=1e8
# quick: n=1e5
# reps: 7
# target: 1.0
# gpu-sizes: n=1e8 | n=1e9
# gpu-quick: n=1e6
# gpu-bytes: 16*n
# gpu-bandwidth-of: device_copy
# gpu-bandwidth-target: 0.85
x = rand(n)
for r in range(reps) {
    t = clock()
    x *= 5
    sync()
    print("@time", clock() - t)
}
