# Integer division by zero is an error; float division follows IEEE.
print(1.0 / 0, 1 / 2)
n = 0
print(10 / n)
