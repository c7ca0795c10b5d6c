# x[mask] with a bool array of the same shape, x[idx] with an i64 array: 1-d results, copies.
x = arange(10) * 1.5
print(x[x > 6], x[x < 0], x[(x > 3) == (x < 9)])
mask = [true, false, true, false, true, false, true, false, true, false]
print(x[mask])
m = reshape(arange(12), [3, 4])
print(m[m % 5 == 0], m[m > 100].shape, m[m >= 0].shape)
idx = [9, 0, 0, -1, 3]
print(x[idx], x[[2]], x[[-2, -3]])
print(arange(5)[[4, 3, 2, 1, 0]])
print(m[[2, 0]])
sel = arange(3) * 2
print(x[sel], x[sel].dtype, m[0][[3, 1]])
print(sum(x[x > 5]), len(x[x > 5]))
b = [true, false, true]
print(b, b[[2, 1]], b[b])
f = astype([0.5, 1.5, 2.5], f32)
print(f[f > 1], f[[0, 0]], f[[0, 0]].dtype)
