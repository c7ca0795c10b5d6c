# Names may start with a keyword: only the whole word is the keyword (section 1).
ifx = 1
fnord = 2
whiled = 3
format = 4
notes = 5
andy = 6
oregon = 7
truest = 8
nonesuch = 9
falsey = 10
print(ifx + fnord + whiled + format + notes + andy + oregon + truest + nonesuch + falsey)
returned = 11
breaks = 12
continued = 13
print(returned, breaks, continued)
fn f() {
    return_value = 14
    return return_value
}
print(f())
for breakpoint in range(2) { print("breakpoint", breakpoint) }
