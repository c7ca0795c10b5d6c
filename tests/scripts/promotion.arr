# NumPy 2 promotion, reduced to the chain bool < i64 < f32 < f64 for arrays (so i64 with f32 is f32,
# where NumPy would say f64); host scalars are weak.
i = arange(3)
f = ones(3, dtype=f32)
d = ones(3)
b = arange(3) > 0
print((f * 2.5).dtype, f * 2.5)
print((f + 1).dtype, (f - true).dtype, (f / 2).dtype, (f ** 2).dtype, (f ** 0.5).dtype)
print((i * 2.5).dtype, i * 2.5)
print((i + 1).dtype, (i * true).dtype, (i / 1).dtype, i / 2, (i ** 2).dtype, (i % 2).dtype)
print((i + f).dtype, (i + d).dtype, (f + d).dtype, (f * d).dtype)
print((b + b).dtype, b + b, (b * b).dtype, (b + 1).dtype, b + 1, (b + 0.5).dtype, (b + f).dtype)
print((b * i).dtype, b * i, (b / 2).dtype, b / 2)
print((d + 1).dtype, (d * true).dtype)
# comparisons always give bool
print((f > 0.5).dtype, (i == 1.5).dtype, (b == b).dtype)
# elementwise functions of ints give floats; abs and sign keep ints
print(sqrt(i).dtype, exp(i).dtype, sqrt(f).dtype, abs(i).dtype, sign(i).dtype, abs(f).dtype)
print(floor(f).dtype, round(f).dtype, round(i).dtype, round(i))
# reductions: int sums stay int, means are floats
print(sum(i), mean(i), sum(b), mean(b), sum(f), max(i))
print(sum(i, axis=0), mean(reshape(i, [3, 1]), axis=1).dtype, sum(reshape(b, [1, 3]), axis=1), sum(reshape(f, [1, 3]), axis=0).dtype)
# f32 with a host int that is large stays f32
print((f * 100000).dtype, (f + 1e30).dtype)
# where, maximum, concatenate promote across their array arguments
print(where(b, i, f).dtype, where(b, i, 2.5).dtype, maximum(i, f).dtype, concatenate([i, d]).dtype, stack([b, i]).dtype)
