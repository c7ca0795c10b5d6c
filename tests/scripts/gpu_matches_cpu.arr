# needs: gpu
# args: --scalar allow
# Every operation on the gpu gives the cpu's result: exactly for integers, bools, copies and
# indexing; within 1e-12 relative for f64 reductions and maths, 1e-5 for f32 (LANGUAGE.md §5).
seed(7)
fn close(a, b, tol) {
    if a.shape != b.shape { return false }
    if a.size == 0 { return true }
    d = max(abs(to(a, cpu) - to(b, cpu)))
    s = max(abs(to(b, cpu)))
    return d <= tol * maximum(s, 1e-300)
}
fn same(a, b) { return a.shape == b.shape and a.dtype == b.dtype and all(to(a, cpu) == to(b, cpu)) }
fn rel(a, b) { return abs(a - b) <= 1e-12 * abs(b) }

c = randn([301, 257], device=cpu)
g = to(c, gpu)
ci = randint(-50, 50, [301, 257], device=cpu)
gi = to(ci, gpu)
c32 = astype(c, f32)
g32 = to(c32, gpu)

# reductions, all elements: one host number each
for r in [sum, mean, std, var, min, max, prod] {
    assert(rel(r(g[:20, :20]), r(c[:20, :20])), "f64 reduction")
}
assert(rel(sum(g), sum(c)) and rel(mean(g), mean(c)) and rel(std(g), std(c)) and rel(var(g), var(c)))
assert(argmax(g) == argmax(c) and argmin(g) == argmin(c) and max(g) == max(c) and min(g) == min(c))
assert(sum(gi) == sum(ci) and prod(gi[0, :5]) == prod(ci[0, :5]) and max(gi) == max(ci))
assert(any(g > 3) == any(c > 3) and all(g < 100) == all(c < 100))
assert(abs(sum(g32) - sum(c32)) <= 1e-5 * abs(sum(c32)) + 1e-3, "f32 sum")
print("full reductions ok")

# along an axis, including the long-axis path (one block per output)
for axis in [0, 1] {
    assert(close(sum(g, axis=axis), sum(c, axis=axis), 1e-12))
    assert(close(mean(g, axis=axis), mean(c, axis=axis), 1e-12))
    assert(close(std(g, axis=axis), std(c, axis=axis), 1e-12))
    assert(same(argmax(g, axis=axis), to(argmax(c, axis=axis), gpu)))
    assert(same(min(gi, axis=axis), to(min(ci, axis=axis), gpu)))
    assert(same(cumsum(gi, axis), to(cumsum(ci, axis), gpu)))
    assert(close(cumsum(g, axis), cumsum(c, axis), 1e-12))
}
long = reshape(arange(3 * 5000) * 0.5, [3, 5000])
assert(close(sum(to(long, gpu), axis=1), sum(long, axis=1), 1e-12))
assert(close(cumsum(to(ravel(c), gpu)), cumsum(ravel(c)), 1e-12))
print("axis reductions ok")

# elementwise: arithmetic, promotion, broadcasting, maths, comparisons
row = c[0]
assert(close(g * 2.5 + g / 3 - g ** 2, c * 2.5 + c / 3 - c ** 2, 1e-12))
assert(close(g + to(row, gpu), c + row, 1e-15) and close(g % 0.7, c % 0.7, 1e-12))
assert(same(gi * 3 - gi % 7, to(ci * 3 - ci % 7, gpu)) and same(gi ** 2, to(ci ** 2, gpu)))
assert(same(gi / 4, to(ci / 4, gpu)) and same(gi > 0, to(ci > 0, gpu)))
for f in [abs, sqrt, exp, log, sin, cos, tan, tanh, floor, ceil, round, sign] {
    assert(close(f(abs(g) + 0.5), f(abs(c) + 0.5), 1e-12))
}
assert(close(exp(g32), exp(c32), 1e-5) and (g32 * 2).dtype == f32)
assert(same(maximum(g, 0.0), to(maximum(c, 0.0), gpu)) and same(clip(g, -1, 1), to(clip(c, -1, 1), gpu)))
assert(same(where(g > 0, g, 0.0), to(where(c > 0, c, 0.0), gpu)))
assert(same(isnan(g / 0.0), to(isnan(c / 0.0), gpu)) and same((g > 0) == false, to((c > 0) == false, gpu)))
print("elementwise ok")

# views, copies and stores
assert(same(g[::3, 1:-1:2], to(c[::3, 1:-1:2], gpu)) and same(g.T[5], to(c.T[5], gpu)))
assert(same(g[::-1] * 1, to(c[::-1] * 1, gpu)) and same(astype(g, i64), to(astype(c, i64), gpu)))
h = g * 1
h[1:4, ::2] = 0
h.T[0] = 7
h[h > 2] = 2
k = c * 1
k[1:4, ::2] = 0
k.T[0] = 7
k[k > 2] = 2
assert(same(h, to(k, gpu)))
assert(same(g[g > 1], to(c[c > 1], gpu)) and same(gi[[3, 0, -1]], to(ci[[3, 0, -1]], gpu)))
v = zeros(5, device=gpu)
v[[1, 3]] = [10, 30]
v[[0]] = 5
assert(same(v, array([5.0, 10, 0, 30, 0], device=gpu)))
w = ones([4, 3], device=gpu)
w[array([true, false, true, false], device=gpu)] = [1, 2, 3]
assert(same(w, array([[1.0, 2, 3], [1, 1, 1], [1, 2, 3], [1, 1, 1]], device=gpu)))
assert(same(concatenate([g[:2], g[5:7]], axis=0), to(concatenate([c[:2], c[5:7]], axis=0), gpu)))
assert(same(stack([gi[0], gi[1]], axis=1), to(stack([ci[0], ci[1]], axis=1), gpu)))
assert(same(reshape(g.T, [-1]), to(reshape(c.T, [-1]), gpu)))
print("indexing ok")

# linear algebra and images
a = randn([130, 70], device=cpu)
b = randn([70, 90], device=cpu)
assert(close(to(a, gpu) @ to(b, gpu), a @ b, 1e-12) and close(to(a, gpu).T @ to(a, gpu), a.T @ a, 1e-12))
assert(close(to(a[0], gpu) @ to(b, gpu), a[0] @ b, 1e-12) and close(to(a, gpu) @ to(b[:, 0], gpu), a @ b[:, 0], 1e-12))
assert(rel(float(to(a[0], gpu) @ to(a[1], gpu)), float(a[0] @ a[1])) and close(outer(to(a[0], gpu), to(b[0], gpu)), outer(a[0], b[0]), 1e-15))
assert(same(to(ci[:20, :30], gpu) @ to(ci[:30, :10], gpu), to(ci[:20, :30] @ ci[:30, :10], gpu)))
assert(close(astype(to(a, gpu), f32) @ astype(to(b, gpu), f32), astype(a, f32) @ astype(b, f32), 1e-5))
kernel = array([[1.0, 2, 1], [0, 0, 0], [-1, -2, -1]], device=cpu)
assert(close(conv2d(g, to(kernel, gpu)), conv2d(c, kernel), 1e-12))
assert(close(conv2d(g32, to(astype(kernel, f32), gpu)), conv2d(c32, astype(kernel, f32)), 1e-5))
print("linear algebra ok")

# random numbers: the right range and moments, and the same numbers after the same seed
seed(3)
u = rand(1000000)
n = randn(1000001)
i = randint(5, 9, 1000)
assert(min(u) >= 0 and max(u) < 1 and abs(mean(u) - 0.5) < 0.01 and abs(std(n) - 1) < 0.01)
assert(min(i) == 5 and max(i) == 8 and i.dtype == i64 and u.device == gpu)
seed(3)
assert(same(rand(1000000), u) and same(randn(1000001), n))
print("random ok")
