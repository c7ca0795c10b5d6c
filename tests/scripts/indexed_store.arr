# Indexed stores: x[i] = v, x[slices] = v with broadcasting, x[mask] = v, x[idx] = v.
x = zeros(5)
x[0] = 1
x[-1] = 9
x[1:3] = 7
print(x)
x[::2] = [10, 20, 30]
print(x)
x[:] = 0
print(x)
m = zeros([3, 4], dtype=i64)
m[1] = 5
m[:, 0] = [1, 2, 3]
m[0:2, 1:3] = [[10, 11], [12, 13]]
m[2, 3] = -1
m[2, 1:] = [7, 8, 9][::-1]
print(m)
m[:, 2] = m[:, 1]
print(m)
m[1:, :] = [100, 200, 300, 400]     # a row broadcast over two rows
print(m)
m[:, 1:3] = [[-1], [-2], [-3]]       # a column broadcast over two columns
print(m)
# an int value stored into a float array, a float into an int array (truncated as NumPy does)
f = zeros(3)
f[1] = 2
i = zeros(3, dtype=i64)
i[0] = 2.9
i[1] = -2.9
i[2] = true
print(f, i)
# boolean mask and integer gather on the left
a = arange(10)
a[a % 3 == 0] = -1
print(a)
a[[1, 2, 4]] = 0
print(a)
a[[5, 6]] = [50, 60]
print(a)
a[a > 100] = 1                       # an all-false mask changes nothing
print(a)
# stores through a view land in the base
b = reshape(arange(6), [2, 3])
row = b[1]
row[0] = 99
col = b[:, 2]
col[:] = [-7, -8]
print(b)
# 3-d
c = zeros([2, 2, 2], dtype=i64)
c[1, 0] = [5, 6]
c[0, :, 1] = 3
print(c)
