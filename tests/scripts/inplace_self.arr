# In-place operations whose operand is the target itself (the documents' `x *= x; x += x`), and
# overlapping views, which NumPy reads in full before it stores.
x = arange(4.0)
x *= x
print(x)
x += x
print(x)
y = x
x -= y
print(x)
z = arange(3)
z[:] = z
w = arange(5.0)
w[1:] += w[:4]
print(z, w)
h = to(w, cpu)
h[0] = 9
print(w[0], h[0])
