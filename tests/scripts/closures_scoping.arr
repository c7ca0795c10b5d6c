# Closures and Python scoping: assignment in a function makes a local; functions read globals;
# inner functions capture the enclosing function's variables.
fn make_adder(n) { return fn(x) { x + n } }
add3 = make_adder(3)
add10 = make_adder(10)
print(add3(1), add10(1), add3(add10(0)))
fn make_counter() {
    counts = zeros(1, dtype=i64)
    fn tick() {
        counts[0] += 1        # an indexed store does not make `counts` local
        return counts[0]
    }
    return tick
}
c1 = make_counter()
c2 = make_counter()
print(c1(), c1(), c1(), c2())
# a nested fn that recurses on itself through the enclosing scope
fn sum_to(n) {
    fn go(k, acc) {
        if k == 0 { return acc }
        return go(k - 1, acc + k)
    }
    return go(n, 0)
}
print(sum_to(100))
# globals are read inside functions, and see later rebinding
g = 1
fn read_g() { return g * 100 }
print(read_g())
g = 2
print(read_g())
# assignment inside a function makes a local: the global is untouched
fn shadow() {
    g = 50
    return g
}
print(shadow(), g)
# block variables belong to the function (no block scope)
fn block_vars(flag) {
    if flag { inner = "set in if" } else { inner = "set in else" }
    for i in range(3) { last = i }
    return inner + " " + str(last) + " " + str(i)
}
print(block_vars(true), "/", block_vars(false))
# top-level blocks assign globals
if true { made_in_if = 7 }
print(made_in_if)
# closures capture variables, not values
fn late_binding() {
    k = 1
    f = fn() { k * 10 }
    k = 2
    return f()
}
print(late_binding())
# parameters shadow globals
x = "global x"
fn takes_x(x) { return x }
print(takes_x("param x"), x)
# a closure over a loop variable sees its final value
fn last_of_loop() {
    fs = 0
    for i in range(3) { fs = fn() { i } }
    return fs()
}
print(last_of_loop())
# functions defined inside functions are not global
fn outer() { fn hidden() { return 1 } return hidden() }
print(outer())
