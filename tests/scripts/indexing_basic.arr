# Indexing as NumPy: integers (negative from the end), slices with steps, several axes.
x = arange(10) * 10
print(x[0], x[3], x[-1], x[-10])
print(x[2:5], x[:3], x[7:], x[:], x[-3:], x[:-7])
print(x[::2], x[1::3], x[::-1], x[8:2:-2], x[-1:-4:-1], x[::-3])
print(x[5:2], x[100:], x[-100:2], x[2:100:4])
m = reshape(arange(12), [3, 4])
print(m[1], m[-1], m[1, 2], m[-1, -1], m[2][3])
print(m[:, 0], m[:, -1], m[1, :], m[0:2, 1:3])
print(m[::2, ::3], m[::-1], m[:, ::-1], m[1:, :-1])
print(m[1:2], m[1:2].shape, m[:, 1:2].shape, m[1].shape, m[:, 1].shape)
c = reshape(arange(24), [2, 3, 4])
print(c[1], c[0, 1], c[1, 2, 3], c[:, 1, :], c[:, :, 0], c[-1, ::2, 1:3])
print(c[1, :, 2:].shape, c[:, 0].shape, c[0][1][2])
# an index may be any int-valued expression, including an element of another array
i = [2, 0, 1]
print(x[i[0]], m[i[2], i[0]], x[len(x) - 1], x[sum([1, 1])])
s = "hello"
print(s[0], s[-1], s[1] + s[4])
