# An array of more than one element in a condition is ambiguous.
x = arange(3)
if x[1] > 0 { print("one element is fine") }
if any(x > 1) { print("any() is fine") }
while x > 1 {
    print("never")
}
