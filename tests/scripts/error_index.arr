# An error stops the script with exit 1: the output so far, then file:line:col, the source line and a caret.
x = arange(5)
print("before", x[4])
fn get(a, i) {
    return a[i]
}
print(get(x, -5))
print(get(x, 5))
print("never printed")
