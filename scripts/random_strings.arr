# Lesson 1 — the documents' trap: why was numpy faster than cupy?
#
# Source: a question (in Chinese, "为什么numpy的执行时间比cupy快？") whose author built 5000 lines of up
# to 20 random characters, with the random numbers made by numpy in one version and by cupy in the
# other. numpy took 0.032 s, cupy 0.484 s: the gpu version was 15 times SLOWER.
#
# This script is that loop, written as LANGUAGE.md §8 writes it: the random numbers are made on the
# session's default device, and the loop reads them back one element at a time. Run it on the gpu with
# the per-line profile to see where the time goes:
#
#     arrsh --device gpu --profile scripts/random_strings.arr
#
# The profile's table shows the inner line (`line = line + chars[nums[count]]`) hit once per
# character, each hit one device→host copy of 8 bytes, and the `for j in range(lens[i])` line one more
# copy per line: about 50 000 tiny copies, each a full round trip to the gpu (wait for the device,
# a DMA transfer, wait again) to move 8 bytes. The only work the gpu does is `randint`: two kernels of
# a few microseconds. The rest is the cpu waiting for copies. (The scalar guard warns once, at the
# first such read, on stderr; `--scalar error` turns those reads into errors.)
#
# On the cpu (`arrsh scripts/random_strings.arr`) the same loop makes no copies at all: `nums[count]`
# reads host memory. The fix is random_strings_fixed.arr.

size = 5000   # ci: 50
upper = 20

# Rounds a time in seconds to the microsecond, for printing.
fn secs(t) { return round(t * 1e6) / 1e6 }

# The same strings every run on one device (the cpu and the gpu draw different numbers).
seed(5)
chars = "0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"

# Two arrays on the default device, as the documents' cp.random.randint made them on the gpu:
# the length of each line (0 … upper-1), and enough character numbers for the longest lines.
lens = randint(0, upper, size)
nums = randint(0, 62, size * upper)
print("random numbers made on", nums.device)

count = 0
lines = 0
# Honest timing: sync() so that nothing queued earlier is counted, and again before the clock is read.
sync()
start = clock()
# :time reports the loop (one top-level statement) on stderr, with its transfer counts.
:time on
for i in range(size) {
    line = ""
    # On the gpu, lens[i] is one device→host copy per line…
    for j in range(lens[i]) {
        # …and nums[count] one device→host copy per character.
        line = line + chars[nums[count]]
        count += 1
    }
    # The documents printed every line; 3 are enough to see what they look like.
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
print(lines, "lines,", count, "characters, read from", nums.device)
# On the gpu, the `:time` line's D→H count is lines + characters (one copy per lens[i], one per
# nums[count]); on the cpu it is 0.
