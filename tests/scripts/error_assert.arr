# assert(cond, msg) fails with the message; without a message it says so.
x = linspace(0, 1, 5)
assert(len(x) == 5, "five points")
assert(x[0] == 0)
print("checks passed")
assert(sum(x) == 3, "sum is " + str(sum(x)))
