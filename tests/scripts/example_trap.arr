# The loop of LANGUAGE.md section 8 on the cpu, with fixed data in place of randint.
:device cpu
size = 6
chars = "0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
lens = [3, 0, 5, 1, 19, 2]
nums = arange(size * 20) * 7 % 62
count = 0
for i in range(size) {
    line = ""
    for j in range(lens[i]) {          # one D→H per i on a gpu
        line = line + chars[nums[count]]   # one D→H per character on a gpu
        count += 1
    }
    print(line)
}
print(count, sum(lens), len(chars))
