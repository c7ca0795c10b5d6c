# A list literal is an array wherever it appears (LANGUAGE.md section 4), so print shows NumPy's str.
print([1, 2, 3])
print([1.0, 2])
print([true, false])
print([[1, 2], [3, 4]])
print(str([1, 2]))
print("x =", [0.5, 1.5])
x = [1, 2, 3]
print(x, [4, 5])
print([x, x])
y = [x, x]
print(y)
