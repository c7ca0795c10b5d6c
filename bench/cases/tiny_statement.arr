# title: y = x * 5 + 1 on a tiny f64 array, time per statement (statements per repetition, one sync at the end: dispatch, kernel cache lookup and launch)
# sizes: n=1 statements=1000 | n=100 statements=1000
# quick: n=100 statements=100
# gpu-sizes: n=1 statements=1000 | n=1000 statements=1000
# gpu-quick: n=1000 statements=100
# reps: 7
# rounds: 7
# gpu-rounds: 1
# target: 1.0
x = rand(n)
y = x * 5 + 1  # compiles its kernel before the first repetition
sync()
for r in range(reps) {
    t = clock()
    for i in range(statements) {
        y = x * 5 + 1
        # clock() observes y, so each statement runs (queued, not waited for); unobserved, the
        # statements would fuse and only the last y, the one still referenced, would be computed.
        c = clock()
    }
    sync()
    print("@time", (clock() - t) / statements)
}
