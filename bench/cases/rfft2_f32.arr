# title: fft.rfft2(img), f32 random n×n image
# sizes: n=1024 | n=2048
# quick: n=256
# reps: 7
# target: 1.0
# gpu-sizes: n=4096
# gpu-quick: n=1024
# gpu-target: 1.05
img = astype(rand([n, n]), f32)
f = fft.rfft2(img)
sync()
for r in range(reps) {
    t = clock()
    f = fft.rfft2(img)
    sync()
    print("@time", clock() - t)
}
