# In-place operators never change an array's dtype (NumPy's same_kind casting rule).
x = arange(3)
x *= 2
print(x)
x += 1.5
