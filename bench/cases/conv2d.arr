# title: conv2d(img, k), f64 n×n image, 3×3 kernel
# sizes: n=1024
# quick: n=128
# reps: 7
# target: 1.0
img = rand([n, n])
k = rand([3, 3])
for r in range(reps) {
    t = clock()
    out = conv2d(img, k)
    sync()
    print("@time", clock() - t)
}
