# baseline: CPython + NumPy (the documents' original loop)
import time

import numpy as np

upperBound = 20
dataSet = "0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
dataLength = np.random.randint(0, high=upperBound, size=size, dtype='l')
randomNumber = np.random.randint(0, high=62, size=size * upperBound, dtype='l')
for _ in range(reps):
    start_time = time.perf_counter()
    count = 0
    for i in range(size):
        lineData = ""
        for j in range(dataLength[i]):
            lineData = lineData + dataSet[randomNumber[count]]
            count = count + 1
        print(lineData)
    print("@time", time.perf_counter() - start_time)
