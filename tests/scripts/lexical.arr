# Lexical rules (LANGUAGE.md section 1): comments, numbers, strings, separators.
x = 1_000_000   # a comment after a statement
print(x, x + 1)
print(42, 3.5, .5, 1e9, 2.5e-3, 1E3, 10., 1_0.2_5)
print("tab:\tquote:\"backslash:\\ newline:\nsecond line")
print("")
# newlines inside () and [] are ignored
y = [1,
     2,
     3]
print(y)
z = (1 +
     2 +
     3)
print(z)
print(max(
  [4, 9,
   2]
))
m = [[1, 2],
     [3, 4]]
print(m)
a = 1; b = 2; print(a + b)
# a statement ends at the `}` that closes its block: these are two statements
fn f(n) { if n < 2 { return n } return f(n - 1) + f(n - 2) }
print(f(10))
fn g(n) { if n > 0 { print("pos") } else { print("not pos") } print("after") }
g(1)
g(0)

# blank lines and comment-only lines are fine

    # indented comment
print(cpu, gpu, f64, f32, i64)
f32_value = 2   # a name that starts with a dtype name
in_x = 3; nonex = 4; ifx = 5; format = 6  # names that start with keywords
print(f32_value, in_x, nonex, ifx, format)
