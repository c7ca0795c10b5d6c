# title: a @ b, f32 n×n
# sizes: n=500 threads=1 reps=30 | n=2000 threads=1 | n=500 reps=60 | n=1000 reps=20 | n=2000 | n=3000
# gpu-sizes: n=5000 | n=10000
# rounds: 3
# gpu-rounds: 1
# quick: n=200
# reps: 5
# target: 1.1
# gpu-target: 1.05
a = astype(rand([n, n]), f32)
b = astype(rand([n, n]), f32)
for r in range(reps) {
    t = clock()
    c = a @ b
    sync()
    print("@time", clock() - t)
}
