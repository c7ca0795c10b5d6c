# needs: gpu
# Exact copy and kernel counts of NumPy's array functions on the gpu, one :time line per statement:
# no transfer at all where the size of the result is known (sorting, searching, gathers, scans, views,
# contractions), one 8-byte device→host count where it depends on the data (masks with other
# subscripts, nonzero, unique), as CuPy does; a histogram over the data's range reads each block's
# extremes back (one block here: 16 bytes) and sends its edges.
x = arange(12.0) * 7 % 5
m = reshape(x, [3, 4])
# Once untimed, so that every kernel is compiled and loaded before the timed run.
s = sort(x)
o = argsort(x, descending=true)
p = searchsorted(s, x)
t = take_along_axis(m, argsort(m, axis=1), 1)
c = cumsum(x)
q = m[[0, 2], [1, 3]]
r = m[:, [3, 0]]
v = m[none, ..., 1]
k = nonzero(m > 2)
u = unique(x)
w = m[m[:, 0] > 1, 1:]
e = einsum("ij,kj->ik", m, m)
h = bincount(astype(x, i64))
d = diff(m, axis=0)
f = flip(moveaxis(m, 0, 1))
g = histogram(x, bins=5)[0]
sync()
:time on
s = sort(x)
o = argsort(x, descending=true)
p = searchsorted(s, x)
t = take_along_axis(m, argsort(m, axis=1), 1)
c = cumsum(x)
q = m[[0, 2], [1, 3]]
r = m[:, [3, 0]]
v = m[none, ..., 1]
k = nonzero(m > 2)
u = unique(x)
w = m[m[:, 0] > 1, 1:]
e = einsum("ij,kj->ik", m, m)
h = bincount(astype(x, i64))
d = diff(m, axis=0)
f = flip(moveaxis(m, 0, 1))
g = histogram(x, bins=5)[0]
sync()
:time off
print(s, o, p)
print(t, c, q, r, v.shape, k[1], u, w, e[0], h, d[1], f[0], g)
