# :time prints one line per top-level statement on stderr: times vary (masked), counts are exact.
x = ones(1000)
:time on
y = x * 2
print(sum(y))
:time off
z = y + 1
