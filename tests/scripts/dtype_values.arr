# f64 f32 i64 bool are dtype values (section 1): they print, compare and pass as arguments.
print(f64, f32, i64, bool)
b = astype([0, 1], bool)
print(b.dtype, b.dtype == bool, b.dtype != f64)
print(arange(3).dtype, ones(2).dtype, ones(2, dtype=f32).dtype, (arange(3) > 1).dtype)
d = bool
print(zeros(2, dtype=d), d == bool)
for t in [f64, f32, i64, bool] {
    print(t, ones(2, dtype=t), ones(2, dtype=t).dtype == t)
}
print(bool(1), bool(0))   # bool is also the conversion function
