# title: scalar loop s += i * 0.5, top level
# sizes: n=1e6
# quick: n=1e4
# reps: 7
# target: 0.5
for r in range(reps) {
    t = clock()
    s = 0.0
    for i in range(n) { s += i * 0.5 }
    print("@time", clock() - t)
}
