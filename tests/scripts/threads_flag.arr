# args: --threads 1
# Parallel work (a product, a sort, a fused pass) on the interpreter's own thread (`--threads 1`: the
# pool it joins), then on pools of other sizes and back to it; the results are NumPy's.
a = reshape(arange(250000.0) % 7, [500, 500])
b = transpose(a)
fn work() {
    c = a @ b
    print(sum(c), sum(c[3]), sum(sort(ravel(a))[::1000]), sum(a * 2 + 1))
}
work()
:threads 3
work()
:threads 1
work()
:threads all
work()
:threads 1
work()
