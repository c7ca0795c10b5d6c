# title: x *= 5; x *= x; x += x, f64 (the documents' three ops, in place)
# devices: gpu
# sizes: n=1e8 | n=1e9
# quick: n=1e6
# reps: 7
# target: 0.4
# bytes: 3*16*n
# bandwidth-of: device_copy
# bandwidth-target: 0.85
x = rand(n)
for r in range(reps) {
    t = clock()
    x *= 5
    x *= x
    x += x
    sync()
    print("@time", clock() - t)
}
