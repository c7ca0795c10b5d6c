# baseline: CuPy (the documents' CuPy version of the loop: int() of each element is a device→host copy)
import time

import cupy as cp

upperBound = 20
dataSet = "0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
dataLength = cp.random.randint(0, high=upperBound, size=size, dtype='l')
randomNumber = cp.random.randint(0, high=62, size=upperBound * size, dtype='l')
cp.cuda.Device().synchronize()
for _ in range(reps):
    start_time = time.perf_counter()
    count = 0
    for i in range(size):
        lineData = ""
        for j in range(int(dataLength[i])):
            lineData = lineData + str(dataSet[int(randomNumber[count])])
            count = count + 1
        print(lineData)
    cp.cuda.Device().synchronize()
    print("@time", time.perf_counter() - start_time)
