# Host ints are 64-bit and overflow is an error, never a wrap.
big = 9223372036854775807
print(big - 1, big * 1.0)
fn grow(n) { return n * 2 }
print(grow(2 ** 61))
print(grow(2 ** 62))
