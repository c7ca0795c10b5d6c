# fn definitions: defaults, keyword arguments, recursion, return with and without a value,
# anonymous functions whose last expression is their value.
fn area(w, h=2, scale=1) { return w * h * scale }
print(area(3), area(3, 4), area(3, scale=10), area(h=5, w=2), area(1, 2, 3))
fn fib(n) { if n < 2 { return n } return fib(n - 1) + fib(n - 2) }
print(fib(15))
fn fact(n) {
    if n <= 1 {
        return 1
    }
    return n * fact(n - 1)
}
print(fact(20))
fn depth(n) { if n == 0 { return 0 } return 1 + depth(n - 1) }
print(depth(900))
fn early(x) {
    if x > 0 { return }
    print("not positive")
}
print(early(1))
print(early(-1))
fn no_return(x) { y = x * 2 }
print(no_return(3))
double = fn(x) { x * 2 }
print(double(21), double(arange(3)))
print(fn(a, b) { a - b }(10, 4))
poly = fn(x) {
    y = x * x
    y + 1
}
print(poly(3))
early_exit = fn(x) { if x { return "yes" } "no" }
print(early_exit(true), early_exit(false))
ends_with_stmt = fn() { z = 1 }
print(ends_with_stmt())
# functions are values
fn apply(f, x) { return f(x) }
print(apply(double, 5), apply(sqrt, 16.0), apply(fn(v) { v + 1 }, 1))
fns = [double, poly]
for f in [double, poly] { print(f(2)) }
# defaults are evaluated when the fn is defined
base = 10
fn with_default(x=base) { return x }
base = 20
print(with_default(), with_default(1))
# a function that returns an array computed from its arguments
fn normalize(v) { return (v - mean(v)) / std(v) }
print(normalize([1.0, 2.0, 3.0]))
