# title: cumsum(x), f64
# sizes: n=1e7 | n=1e8
# quick: n=1e5
# reps: 5
# target: 1.0
# gpu-sizes: n=1e8 | n=1e9
# gpu-quick: n=1e6
# gpu-target: 1.1
x = rand(n)
sync()
for r in range(reps) {
    t = clock()
    y = cumsum(x)
    sync()
    print("@time", clock() - t)
}
