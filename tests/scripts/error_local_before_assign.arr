# Assignment anywhere in a function makes the name local (Python scoping), so reading it first is an error.
total = 10
fn bump() {
    total = total + 1
    return total
}
print("start")
bump()
