# title: mean(x), f64
# sizes: n=1e8
# quick: n=1e5
# reps: 7
# target: 1.0
x = rand(n)
for r in range(reps) {
    t = clock()
    m = mean(x)
    sync()
    print("@time", clock() - t)
}
