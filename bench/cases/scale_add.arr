# title: x = x * 5 + 1, f64 (new array)
# sizes: n=1e7 | n=1e8
# quick: n=1e5
# reps: 7
# target: 1.0
x = rand(n)
for r in range(reps) {
    t = clock()
    x = x * 5 + 1
    sync()
    print("@time", clock() - t)
}
