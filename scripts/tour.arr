# A short tour of arr on the session's default device (cpu unless you pass --device gpu).
x = arange(10.0)
print("x          =", x)
print("x * 2 + 1  =", x * 2 + 1)
print("sum, mean  =", sum(x), mean(x))
m = reshape(arange(6), [2, 3])
print("m.T @ m    =")
print(m.T @ m)
evens = x[x % 2 == 0]
print("evens      =", evens)
v = x[2:5]          # a view: writing through it changes x
v[0] = -1
print("x after    =", x)
fn norm(a) { return sqrt(sum(a * a)) }
print("norm(x)    =", norm(x))
print("device     =", x.device, "dtype =", x.dtype)
