# title: x *= 5, f64 (in place)
# sizes: n=1e7 | n=1e8
# quick: n=1e5
# reps: 7
# target: 1.0
x = rand(n)
for r in range(reps) {
    t = clock()
    x *= 5
    sync()
    print("@time", clock() - t)
}
