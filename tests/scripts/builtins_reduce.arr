# Reductions: without axis= a host scalar, with axis= an array (negative axes count from the end).
x = reshape(arange(12.0), [3, 4])
print(sum(x), prod(x + 1), mean(x), std(x), var(x), min(x), max(x), argmin(x), argmax(x), any(x), all(x))
print(sum(x, axis=0), sum(x, axis=1), sum(x, axis=-1), sum(x, axis=-2))
print(prod(x + 1, axis=1), mean(x, axis=0), std(x, axis=1), var(x, axis=0))
print(min(x, axis=1), max(x, axis=0), argmin(x, axis=1), argmax(x, axis=0), any(x, axis=1), all(x, axis=0))
i = [3, -1, 4, 1, -5, 9, 2, 6]
print(sum(i), prod(i), mean(i), std(i), var(i), min(i), max(i), argmin(i), argmax(i))
b = [true, false, true, true]
print(sum(b), mean(b), any(b), all(b), argmin(b), argmax(b), prod(b), max(reshape(b, [2, 2]), axis=0))
# ties: argmax/argmin give the first position
print(argmax([1, 3, 3, 2]), argmin([2, 1, 1, 5]), argmax(reshape([5, 5, 1, 7, 7, 7], [2, 3]), axis=1))
# NaN wins min/max and argmax/argmin point at the first NaN
n = 0.0 / 0.0
print(max([1.0, n, 3.0]), min([n, 1.0]), argmax([1.0, n, 3.0, n]), argmin([3.0, 2.0, n]), sum([1.0, n]), mean([n, 1.0]))
print(max(reshape([1.0, n, 3.0, 4.0], [2, 2]), axis=1), argmax(reshape([1.0, n, 3.0, 4.0], [2, 2]), axis=0))
# all/any of empty arrays, sums of empty arrays
print(any(zeros(0)), all(zeros(0)), sum(zeros(0)), prod(zeros(0)))
# 3-d
c = reshape(arange(24), [2, 3, 4])
print(sum(c, axis=0), sum(c, axis=1), max(c, axis=2), mean(c, axis=-1))
# cumsum: flattened without an axis, along an axis with one
print(cumsum([1, 2, 3, 4]), cumsum(x), cumsum(x, 0), cumsum(x, axis=1), cumsum(c, axis=-1)[1])
print(cumsum([true, true, false]), cumsum(astype([0.5, 0.25], f32)), cumsum([1.5, n, 1.0]))
# std and var use ddof=0
print(std([2.0, 4.0, 4.0, 4.0, 5.0, 5.0, 7.0, 9.0]), var([1, 2, 3, 4]), std([5.0]), var(reshape(arange(6), [2, 3]), axis=1))
# a single-element reduction along an axis keeps the other axes
print(sum(reshape(arange(3), [3, 1]), axis=1), sum(reshape(arange(3), [1, 3]), axis=0).shape)
