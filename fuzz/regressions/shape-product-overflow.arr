print(reshape(arange(0), [4611686018427387904, 4]))
