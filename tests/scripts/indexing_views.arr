# Basic slices, rows, .T and reshape are views: writing through them changes the original.
# Mask and gather indexing make copies: writing to the result leaves the original alone.
x = arange(8)
s = x[2:6]
s[0] = 100
print(x)
e = x[::2]
e[:] = -1
print(x)
r = x[::-1]
r[0] = 77
print(x)
m = reshape(arange(6), [2, 3])
row = m[0]
row[1] = 50
col = m[:, 2]
col[1] = 60
print(m)
t = m.T
t[0, 1] = 30
print(m)
flat = reshape(m, [6])
flat[0] = -5
print(m)
sub = m[:, 1:]
sub *= 2
print(m)
# a view of a view
v = x[1:7][1:4]
v[1] = 999
print(x)
# mask and gather results are copies
g = x[[0, 1]]
g[0] = 12345
k = x[x > 50]
k[:] = 0
print(x, g, k)
# the base changing is seen by an existing view
y = ones(4)
w = y[1:3]
y[:] = 7
print(w)
# a copy made with arithmetic or astype is independent
z = x + 0
z[0] = -1
a = astype(x, i64)
a[1] = -1
print(x[0], x[1])
