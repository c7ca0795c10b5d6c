# min and max of a bool array are bools (NumPy gives np.True_ / np.False_), printed as host bools.
b = [true, false, true]
print(min(b), max(b), max([false, false]), min([true]))
if max(b) == true { print("max is true") }
print(str(max(b)) + "!")
