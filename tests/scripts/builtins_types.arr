# astype(x, dtype), int(x), float(x), bool(x), str(x).
x = [1.7, -1.7, 2.5, -0.5, 0.0]
print(astype(x, i64), astype(x, bool), astype(x, f32), astype(x, f32).dtype)
print(astype([0, 1, 2], bool), astype([true, false], i64), astype([true, false], f64), astype([3, -4], f32))
print(astype(arange(3), i64), astype([1e10, 1e-10], f32), astype(astype([0.1], f32), f64))
print(astype(x, "f32").dtype, astype(x, "int64").dtype, astype([1, 0], "bool"))
print(int(3.9), int(-3.9), int(7), int("42"), int(" -5 "), int(true), int(false), int(reshape([9.5], [])))
print(float(3), float("2.5"), float(" 1e3 "), float("nan"), float("-inf"), float(false), float(reshape([7], [])))
print(bool(0), bool(1), bool(-2), bool(0.0), bool(0.5), bool("x"), bool(""), bool(reshape([0], [])))
print(str(12), str(2.5), str(1e100), str(true), str(none), str("s"), str(arange(3)), str(reshape(arange(4) * 0.5, [2, 2])))
print(str(1) + str(2), len(str(123456)), str(f32), str(cpu))
print(int(sum([1.5, 1.5])), float(sum([1, 2])), int(max([2.9, 1.0])))
