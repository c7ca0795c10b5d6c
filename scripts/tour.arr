# A tour of arrsh: NumPy's arrays, and what each line costs where it runs. The tour runs on the gpu
# when this machine has one, else on the cpu: the same script, the same results, other costs.
#
#     arrsh --profile scripts/tour.arr      # the README's first command: the tour, then per-line costs

if len(devices()) == 2 {
    :device gpu
}
print("new arrays are made on the", zeros(1).device)

# NumPy's names, dtypes, broadcasting, indexing.
x = arange(10.0)
print("x * 2 + 1     =", x * 2 + 1)
m = reshape(arange(6), [2, 3])
print("m.T @ m       =", m.T @ m)
print("m[:, [0, 2]]  =", m[:, [0, 2]])
values, counts = unique([3, 1, 2, 1, 3, 3], return_counts=true)
print("unique, counts:", values, counts)
print("sort, median  :", sort([3.5, -1.0, 2.0]), median([3.5, -1.0, 2.0]))

# :time prints, after each statement, its time (the device waited for), what was copied between
# host and device, and how many kernels ran: here four operations and the sum in one pass.
n = 1000000   # ci: 10000
a = rand(n)
:time on
total = sum(sqrt(a * a + 1) * 2)
:time off
print("sum > 0:", total > 0)

# The documents' trap: a loop that reads a gpu array one element at a time makes one device→host
# copy per element (on the cpu it makes none). The fix is one operation on the whole slice.
:scalar allow
:time on
s = 0.0
for i in range(100) { s += a[i] }
s = sum(a[:100])
:time off
print("the loop and the fix agree:", abs(s - sum(a[:100])) < 1e-9)
