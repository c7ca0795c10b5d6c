# More than 1000 elements: NumPy summarises with `...`, three items at each edge.
print(arange(1000))
print(arange(1001))
print(arange(2000) * 0.5)
print(reshape(arange(2000), [2, 1000]))
print(reshape(arange(3000), [1000, 3]))
print(reshape(arange(2048), [8, 16, 16]))
print(astype(arange(1500), f32) / 3)
print(arange(1001) % 2 == 0)
