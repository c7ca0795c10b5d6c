# Host and array arithmetic: `/` always gives a float, `%` takes the sign of the divisor (Python/NumPy),
# float division by zero follows IEEE, ** on ints stays int.
print(7 / 2, 6 / 3, -7 / 2, 1 / 3, 7.0 / 2)
print(7 % 3, -7 % 3, 7 % -3, -7 % -3, 7.5 % 2, -7.5 % 2, 7.5 % -2, 0 % 5)
print(2 ** 10, 2 ** 0, (-2) ** 3, 2 ** 0.5, 4 ** -1, 2.0 ** 3, 0 ** 0)
print(1.0 / 0, -1.0 / 0, 0.0 / 0, 1 / 0.0, 5.0 % 0)
print(3 + 0.5, 3 * 1.0, 10 - 2.5, true + true, true * 3, false - 1, 1.5 * true)
print(0.1 + 0.2, 1e308 * 10, -1e308 * 10, 2.0 ** 1024)
x = [-7, -3, 0, 3, 7]
print(x % 3, x % -3, x / 2, x * x, x - 10, 10 - x)
y = [-7.5, -0.5, 0.5, 7.5]
print(y % 2, y % -2, y / 4, -y)
print(arange(5) ** 2, 2 ** arange(5), arange(4) ** 0.5, arange(1, 4) ** arange(3))
print(ones(3) / 0, -ones(2) / 0, zeros(2) / 0, [1.0, -1.0, 0.0] / [0.0, 0.0, 0.0])
print(astype([1, 2], f32) / 0)
print(arange(6) % 4, reshape(arange(6), [2, 3]) % [2, 3, 4])
print(abs(-5), abs(-2.5), -(3), -(-2.0))
big = 2 ** 62
print(big, big + (big - 1), -big - big)
print(9007199254740993 + 0.0, 10 ** 18, 3 * 10 ** 18)
