# title: s = sum(x * y), f64 (a host number; the product inside the reduction's pass)
# sizes: n=1e7 | n=1e8
# quick: n=1e5
# reps: 7
# target: 1.0
# gpu-sizes: n=1e8 | n=1e9
# gpu-quick: n=1e6
# gpu-target: 0.6
# gpu-bytes: 16*n
# gpu-bandwidth-of: device_copy
# gpu-bandwidth-target: 0.85
x = rand(n)
y = rand(n)
sync()
for r in range(reps) {
    t = clock()
    s = sum(x * y)
    sync()
    print("@time", clock() - t)
}
