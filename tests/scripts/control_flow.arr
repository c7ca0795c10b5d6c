# if / else if / else, while, for over range, 1-d arrays, strings and list literals, break and continue.
fn classify(n) {
    if n < 0 {
        return "negative"
    } else if n == 0 {
        return "zero"
    } else if n < 10 {
        return "small"
    } else {
        return "large"
    }
}
print(classify(-5), classify(0), classify(3), classify(42))
if 1 { print("int 1 is true") }
if 0.0 { print("unreachable") } else { print("0.0 is false") }
if sum([1, 2]) == 3 { print("a host scalar from a reduction") }
if reshape([true], []) { print("a one-element array is fine") }
# else on the next line
if false {
    print("no")
}
else {
    print("else on its own line")
}
i = 0
total = 0
while i < 10 {
    i += 1
    if i % 2 == 0 { continue }
    if i > 7 { break }
    total += i
}
print(i, total)
for k in range(3) { print("range", k) }
for k in range(10, 0, -4) { print("down", k) }
for k in range(2, 5) { print("from 2", k) }
for k in range(0) { print("never") }
for v in arange(3) * 1.5 { print("f64 element", v) }
for v in arange(3) { print("i64 element", v + 1) }
for v in [true, false] { print("bool element", v) }
for v in reshape(arange(4), [2, 2]) { print("row", v) }
for ch in "héllo" { print(ch) }
for item in [1, "two", 3.5, none] { print("item", item) }
# break leaves only the inner loop
for a in range(3) {
    for b in range(3) {
        if b > a { break }
        print(a, b)
    }
}
# the loop variable keeps its last value
for last in range(4) { }
print("last", last)
# nested while with continue
n = 0
count = 0
while n < 5 {
    n += 1
    m = 0
    while m < n {
        m += 1
        if m == 2 { continue }
        count += 1
    }
}
print("count", count)
