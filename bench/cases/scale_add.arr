# title: y = x * 5 + 1, f64 (a new array y; x unchanged)
# sizes: n=1e6 reps=50 | n=1e7 | n=1e8
# quick: n=1e5
# reps: 7
# target: 0.5
# gpu-sizes: n=1e8 | n=1e9
# gpu-quick: n=1e6
# gpu-target: 0.6
# gpu-bytes: 16*n
# gpu-bandwidth-of: device_copy
# gpu-bandwidth-target: 0.85
x = rand(n)
sync()
for r in range(reps) {
    t = clock()
    y = x * 5 + 1
    sync()
    print("@time", clock() - t)
}
