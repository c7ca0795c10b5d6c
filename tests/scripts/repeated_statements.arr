# A statement run again (in a loop, or another statement of the same form) reuses what its
# first run planned: dtype resolution, constants, the cpu's program or the gpu's kernel. Each run
# must still use its own buffers, constants, dtypes and aliasing.
x = arange(6.0)
for i in range(3) {
    y = x * 5 + 1
    x = x + i
    print(y)
}
# The same form with other constants: 2 and 2.0 are different operands, and so are 0.0 and -0.0.
a = arange(1.0, 4.0)
for c in [2, 2.0, 0.0, -0.0, 0.0, 3] {
    print(1 / (a * c))
}
# Other dtypes through the same statement.
for d in ["int32", "float32", "uint8", "int64", "float16"] {
    b = arange(4).astype(d)
    z = b * 3 + 1
    print(z, z.dtype)
}
# Views: other layouts of the same buffer.
m = reshape(arange(12.0), [3, 4])
for v in [m[0], m[1], m[:, 0][:3], m[2, ::-1]] {
    print(v * 2 - 1)
}
# A value and an in-place write in one pass, then the same forms with the roles swapped.
p = arange(5.0)
for i in range(3) {
    s = p * 3
    p += 1
    c = clock()
    print(s, p)
}
q = arange(5.0)
for i in range(2) {
    q *= 3
    t = q + 1
    c = clock()
    print(q, t)
}
# In place through a view that overlaps what is read.
r = arange(6.0)
for i in range(2) {
    r[1:] += r[:-1]
    print(r)
}
