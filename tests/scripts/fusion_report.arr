# Fusion, seen from the user's side: deferred statements, the :time notes, :explain and :fuse off.
x = arange(8.0)
:time on
x *= 5
x *= x
x += x
print(x)
:time off
:explain y = sqrt(x) * 2 + 1
:explain s = sum(x * x)
:fuse off
:time on
x *= 5
x *= x
print(x[0])
:time off
:fuse on
a = astype(arange(6), i32)
:explain b = (a + 1.5) // 2
print(b, b.dtype)
