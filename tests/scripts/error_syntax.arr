# A syntax error anywhere stops the script before anything runs.
print("not printed: the whole file is parsed first")
x = [1, 2, 3]
y = x +* 2
print(y)
