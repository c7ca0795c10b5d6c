# and / or / not: `not` binds looser than comparisons; and/or short-circuit and give an operand (as Python).
a = 1
b = 2
print(not a == b, not a == 1, not true, not false, not 0, not 2.5)
print(true and false, true or false, false or false, true and true)
print(a and b, 0 and b, a or b, 0 or b, 0.0 or 2.5, false or 0)
print(not a == b and a < b, not (a == b and a < b), a == 1 or b == 1 and false)
fn loud(name, value) {
    print("evaluated", name)
    return value
}
r = loud("left", false) and loud("right", true)
print(r)
r = loud("left", true) or loud("right", false)
print(r)
r = loud("left", true) and loud("right", 7)
print(r)
r = loud("left", 0) or loud("right", 3)
print(r)
x = arange(5)
if len(x) > 3 and x[3] == 3 { print("guarded index ok") }
if len(x) > 10 and x[10] == 0 { print("never") } else { print("short circuit skipped x[10]") }
if not any(x > 10) { print("no element above 10") }
if all(x >= 0) and sum(x) == 10 { print("reductions in conditions") }
