# `+= -= *= /=` on arrays work in place (NumPy's x *= 5): every view of the buffer sees the change.
x = arange(6.0)
v = x[1:4]
t = reshape(x, [2, 3])
x += 1
print(x, v)
x -= 0.5
print(v)
x *= 2
print(t)
x /= 4
print(x, v)
v *= 10          # in place through the view: the original changes too
print(x)
t[1] /= 2
print(x)
y = x            # a second name for the same array
y += 100
print(x)
c = x.T          # transpose of a 1-d array is the same buffer
c -= 100
print(x)
# broadcasting on the right-hand side
m = ones([2, 3])
m += [1, 2, 3]
m *= [[2], [3]]
print(m)
# f32 stays f32 with a host float
f = ones(3, dtype=f32)
f *= 2.5
print(f, f.dtype)
# i64 with an int stays i64
i = arange(4)
i *= 3
i -= 1
i += true
print(i, i.dtype)
# on host numbers `+=` rebinds
n = 1
n += 2
n *= 2.5
print(n)
s = "ab"
s += "cd"
print(s)
