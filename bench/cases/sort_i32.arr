# title: sort(x), i32 random
# sizes: n=1e7
# quick: n=1e5
# reps: 5
# target: 1.0
# gpu-sizes: n=1e8
# gpu-quick: n=1e6
# gpu-target: 1.5
x = astype(randint(0, 2000000000, n), i32)
sync()
for r in range(reps) {
    t = clock()
    y = sort(x)
    sync()
    print("@time", clock() - t)
}
