# title: x = ones(n); y = x * 5 + 1 as a fresh process's first gpu statements (empty kernel caches: compile + launch)
# devices: gpu
# sizes: n=1000
# quick: n=1000
# reps: 1
# rounds: 5
# fresh-cache: yes
# target: 1.0
# One timing per process (reps is 1): a second repetition would find the kernels compiled.
# arrsh --device gpu makes its CUDA context at start-up, before this line runs.
t = clock()
x = ones(n)
y = x * 5 + 1
sync()
print("@time", clock() - t)
