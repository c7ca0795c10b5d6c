# title: v = x[i], one f64 element of a gpu array read to the host (time per read, reads per repetition)
# devices: gpu
# sizes: n=1e6 reads=10000
# quick: n=1e4 reads=1000
# reps: 7
# target: 1.3
:scalar allow
x = rand(n)
for r in range(reps) {
    t = clock()
    for i in range(reads) {
        v = x[i]
    }
    sync()
    print("@time", (clock() - t) / reads)
}
