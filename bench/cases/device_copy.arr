# title: y[:] = x, f64 (device-to-device copy into an existing array; the bandwidth reference)
# devices: gpu
# sizes: n=1e8 | n=1e9
# quick: n=1e6
# reps: 7
# target: 1.0
# bytes: 16*n
# bandwidth-of: device_copy
# bandwidth-target: 0.85
x = rand(n)
y = empty(n)
for r in range(reps) {
    t = clock()
    y[:] = x
    sync()
    print("@time", clock() - t)
}
