# Shapes that do not broadcast are an error naming both shapes.
a = ones([2, 3])
print(a + [1, 2, 3])
print(a + [[1], [2]])
b = a * ones([3, 2])
