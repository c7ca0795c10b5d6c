# Comparisons on arrays are elementwise and give bool arrays; == and != also compare dtypes, devices and strings.
x = arange(5)
print(x == 2, x != 2, x < 2, x <= 2, x > 2, x >= 2)
print(x == x, x < x * 1.5, (x > 1).dtype)
y = [4, 3, 2, 1, 0]
print(x < y, y >= x)
m = reshape(arange(6), [2, 3])
print(m > [1, 1, 4])
print(m == [[0], [4]])
f = [0.5, 1.0, 0.0 / 0.0]
print(f == f, f != f, f > 0.7)
b = [true, false]
print(b == true, b == [true, true], b > false)
print(astype([1, 2], f32) == [1.0, 2.5])
print(1 < 2, 2.5 >= 2.5, 3 == 3.0, 1 != 1.0, true == 1, false < true)
print("abc" == "abc", "abc" != "abd", "a" < "b", "B" < "a", "abc" < "abd", "" == "")
print(f32 == f32, f32 == f64, f32 != i64, x.dtype == i64, (x * 1.0).dtype == f64)
print(cpu == cpu, cpu != gpu, x.device == cpu)
print(none == none, none != 0, "1" == 1, cpu == "cpu")
