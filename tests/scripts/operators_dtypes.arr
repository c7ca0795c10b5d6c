# NumPy 2's operators on every kind of dtype: floor division, powers, bitwise ops and shifts (also in
# place), complex literals and functions, float16, unsigned against signed, chained comparisons.
a = astype(arange(-4, 4), i16)
b = astype(arange(1, 9), u8)
print(a // 3, a % 3, -a, +a, ~a, a & 5, a | 2, a ^ 7, b << 2, b >> 1)
a //= 2
a **= 2
a %= 5
a &= 3
a |= 8
a ^= 1
a <<= 1
a >>= 1
print(a, a.dtype)
z = 1 + 2j
print(z * 2j, abs(3 + 4j), (2 + 0j) ** 0.5)
print(0 < 1 < 2, 1 < 2 > 3, 7 // -2, -7 % 3, 2 ** -1, 1 << 62)
c = astype(arange(4), c64) * (1 - 1j)
print(c.real, c.imag, conj(c), sqrt(c), c.dtype)
f = astype(linspace(-1, 1, 5), f16)
print(f, f.dtype, exp(f), f // 0.3, isnan(f / 0))
u = astype(arange(3), u64) - 1
print(u, u < astype(arange(3), i64), u + 1.5, u.dtype)
:explain y = sqrt(astype(arange(4.0), f32)) * 2 + 1
:explain y = where(f > 0, f, 0)
:fuse off
y = f * 2 + 1
:fuse on
:fuse
print(pi, e, inf, -inf, nan, 1e308 * 10)
