# needs: gpu
# args: --scalar allow
# The hints under :time name the gpu trap they see: the first kernel of a process pays one-time
# set-up (loading the compiled kernels), and a loop that reads a gpu array one element at a time
# spends its time in 8-byte device→host copies.
:time on
x = ones(1000)
y = x * 5
nums = randint(0, 62, 200)
s = 0
for i in range(200) { s += nums[i] }
:time off
print(s >= 0, y[0])
