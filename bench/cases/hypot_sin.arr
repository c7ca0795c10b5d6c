# title: z = sqrt(a*a + b*b) * sin(a) + 1, f64 (seven operations, one new array)
# sizes: n=1e7
# quick: n=1e5
# reps: 7
# target: 1.0
# gpu-sizes: n=1e8
# gpu-quick: n=1e6
# gpu-target: 1.0
# gpu-bytes: 24*n
# gpu-bandwidth-of: device_copy
# gpu-bandwidth-target: 0.85
a = rand(n)
b = rand(n)
sync()
for r in range(reps) {
    t = clock()
    z = sqrt(a*a + b*b) * sin(a) + 1
    sync()
    print("@time", clock() - t)
}
