# title: fft.fft(x), c128 random, n points
# sizes: n=1048576 | n=4194304
# quick: n=65536
# reps: 7
# target: 1.0
# gpu-sizes: n=16777216
# gpu-quick: n=1048576
# gpu-target: 1.05
x = rand(n) + rand(n) * 1j
y = fft.fft(x)
sync()
for r in range(reps) {
    t = clock()
    y = fft.fft(x)
    sync()
    print("@time", clock() - t)
}
