# title: einsum("ij,jk->ik", a, b), f64 n×n, against arrsh's own a @ b
# sizes: n=1000 | n=2000
# quick: n=200
# reps: 5
# target: 1.1
# gpu-sizes: n=5000
# gpu-quick: n=500
# gpu-target: 1.1
a = rand([n, n])
b = rand([n, n])
c = einsum("ij,jk->ik", a, b)
sync()
for r in range(reps) {
    t = clock()
    c = einsum("ij,jk->ik", a, b)
    sync()
    print("@time", clock() - t)
}
