# :vars lists the session's variables with kind, dtype, shape, device and bytes.
:vars
a = arange(6)
m = reshape(a * 0.5, [2, 3])
name = "arr"
n = 3
f = fn(v) { v + 1 }
:vars
:help sum
:scalar error
:scalar
:time
:time
