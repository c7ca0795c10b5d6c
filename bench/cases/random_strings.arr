# title: the documents' random-string loop (lines discarded)
# sizes: size=5000
# quick: size=500
# reps: 7
# target: 0.5
# gpu-title: the documents' random-string loop, random numbers made on the gpu and read back one by one (lines discarded)
chars = "0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
lens = randint(0, 20, size)
nums = randint(0, 62, size * 20)
for r in range(reps) {
    t = clock()
    count = 0
    for i in range(size) {
        line = ""
        for j in range(lens[i]) {
            line = line + chars[nums[count]]
            count += 1
        }
        print(line)
    }
    print("@time", clock() - t)
}
