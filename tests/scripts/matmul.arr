# `@` and matmul/dot/outer: 1-d·1-d is a dot product (a host scalar), 2-d·2-d, 2-d·1-d, 1-d·2-d.
a = [1, 2, 3]
b = [4, 5, 6]
print(a @ b, dot(a, b), matmul(a, b))
print([1.5, 2.0] @ [2.0, 4.0])
m = reshape(arange(6), [2, 3])
n = reshape(arange(6), [3, 2])
print(m @ n)
print(n @ m)
print(m @ a)
print([1, 1] @ m)
print(matmul(eye(3), reshape(arange(9.0), [3, 3])))
print(dot(m, n), (m @ n).dtype, (m @ astype(n, f32)).dtype, (m @ (n * 1.0)).dtype)
print(astype(m, f32) @ astype(n, f32))
print(outer([1, 2], [3, 4, 5]))
print(outer([1.5, -1.0], [2, 0]))
# the identity, a rotation, and a product with its transpose
r = [[0, -1], [1, 0]]
print(r @ [1, 0], r @ r @ r @ r)
print(m @ m.T, m.T @ m)
# chained products associate left
print(m @ n @ [1, -1])
x = reshape(arange(12.0), [3, 4]) / 10
y = reshape(arange(20.0), [4, 5]) - 7
print(x @ y)
