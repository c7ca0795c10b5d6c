# Lesson 2 — the fix for lesson 1: move the arrays once, then loop on the cpu.
#
# random_strings.arr read a gpu array one element at a time: `lens[i]` and `nums[count]` were each a
# device→host copy of 8 bytes, about 50 000 of them for 5000 lines. A copy costs the same fixed
# price (a synchronization and a DMA round trip, some microseconds) whether it moves 8 bytes or
# 800 000, so the fix is to pay that price twice instead of 50 000 times: `to(nums, cpu)` moves the
# whole array in one device→host copy, and the loop then reads host memory, as numpy did.
#
# The gpu still makes the random numbers (that part was never slow); only the reading moves. Compare:
#
#     arrsh --device gpu --profile scripts/random_strings.arr
#     arrsh --device gpu --profile scripts/random_strings_fixed.arr
#
# The second profile has two D→H copies in all (the two `to(…, cpu)` lines, 40 KB and 800 KB at full
# size) and none in the loop. The loop itself is now the cost, as it was for numpy: a Python-style
# loop over 50 000 characters is interpreter work on the host, whichever device made the numbers.
# (The lesson of the documents' answer: the gpu helps when it gets a lot of work per transfer; this
# program gives it almost none, so the best it can do is not get in the way.)

size = 5000   # ci: 50
upper = 20

# Rounds a time in seconds to the microsecond, for printing.
fn secs(t) { return round(t * 1e6) / 1e6 }

# The same seed and draws as random_strings.arr, so the same strings on the same device.
seed(5)
chars = "0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
lens = randint(0, upper, size)
nums = randint(0, 62, size * upper)
print("random numbers made on", nums.device)

count = 0
lines = 0
sync()
start = clock()
:time on
# The fix: one counted device→host copy of each whole array (on the cpu, to(x, cpu) is x itself:
# there is nothing to move).
lens_host = to(lens, cpu)
nums_host = to(nums, cpu)
for i in range(size) {
    line = ""
    # Host memory: no copy, no synchronization.
    for j in range(lens_host[i]) {
        line = line + chars[nums_host[count]]
        count += 1
    }
    if i < 3 {
        print(line)
    }
    lines += 1
}
:time off
sync()
elapsed = clock() - start

print("------------------------")
print("It took this many seconds:", secs(elapsed))
print("There were", lines, "many data generations.")
print(lines, "lines,", count, "characters, read from", nums_host.device)
# On the gpu the two `to` lines report D→H 1 each (size × 8 and size × upper × 8 bytes) and the loop's
# `:time` line D→H 0.
