# title: a kernel never seen before per repetition r: y = x, then r + 1 steps y = y * 1.5 + j, fused into one (compile + launch; empty kernel cache)
# devices: gpu
# sizes: n=1000
# quick: n=1000
# reps: 7
# fresh-cache: yes
# target-seconds: 0.15
x = rand(n)
sync()
for r in range(reps) {
    t = clock()
    # The scalars 1.5 and j are kernel parameters; the number of steps, 2 (r + 1) operations
    # in one kernel, makes each repetition's kernel new.
    y = x
    for j in range(r + 1) {
        y = y * 1.5 + j
    }
    sync()
    print("@time", clock() - t)
}
