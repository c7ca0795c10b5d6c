# args: --profile
# devices: cpu
# --profile: a per-line table (hits exact, times masked) and a hint naming the costliest line.
nums = [3, 1, 4, 1, 5, 9, 2, 6]
total = 0
for i in range(len(nums)) {
    total += nums[i]
}
big = ones(2e6) * 3
print(total, big[0])
