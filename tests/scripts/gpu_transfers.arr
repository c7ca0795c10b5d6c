# needs: gpu
# args: --scalar allow
# Exact transfer and kernel counts on the gpu (LANGUAGE.md §5), one :time line per statement.
# The documents' loop over known data makes one device→host copy per line (lens[i]) and one per
# character (nums[count]): 3 lines and 5 characters here, so 8 copies of 8 bytes.
:time on
chars = "abcdefghij"
lens = array([3, 0, 2])
nums = array([1, 2, 3, 4, 5])
count = 0
for i in range(3) { line = ""; for j in range(lens[i]) { line = line + chars[nums[count]]; count += 1 }; print(line) }
x = ones(1000)
x *= 5
y = x * 5 + 1
s = sum(x)
print(s)
h = to(x, cpu)
g = to(h, gpu)
x[3] = 7
print(x[3], x[2])
x[:] = 0
m = max(y)
print(m, y.device)
