# Text charts: what plot, scatter, hist, bar and imshow print in a terminal (no file=, no front end).
plot([0, 1, 4, 9, 16, 9, 4, 1, 0], title="up and down")
plot(arange(5), [[0, 4], [1, 3], [2, 2], [3, 1], [4, 0]], label=["rise", "fall"])
plot([[1, 2, 3], [2, 3, 1], [3, 1, 2]])
scatter([1, 10, 100, 1000], [1, 2, 3, 4], logx=true, label="steps")
plot([1, 10, 100, nan, 10000], logy=true, title="a gap where the value is missing")
hist([1, 2, 2, 3, 3, 3, 4, 4, 4, 4], bins=4, title="counts")
hist([0.5, 1.5, 1.5], bins=[0, 1, 2, 4])
bar([3, 5, 2], labels=["cpu", "gpu", "disk"], title="bars")
imshow(reshape(arange(64), [4, 16]), title="a ramp, black to white")
imshow(u8(reshape(arange(96) * 2, [4, 8, 3])), title="colours from integers in [0, 255]")
imshow(array([[[1.0, 1, 1], [0, 0, 0]], [[1, 1, 1], [0, 0, 0]], [[0, 0, 0], [1, 1, 1]], [[0, 0, 0], [1, 1, 1]]]), title="from floats in [0, 1]")
# Each returns none.
print(bar([1]))
