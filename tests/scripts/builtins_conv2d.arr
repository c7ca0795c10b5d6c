# conv2d(image, kernel): 2-d "same" correlation with zero padding (the output has the image's shape).
img = reshape(arange(16.0), [4, 4])
print(conv2d(img, [[0, 1, 0], [1, 1, 1], [0, 1, 0]]))
print(conv2d(img, ones([3, 3]) / 9))
print(conv2d(img, [[1.0]]), conv2d(img, [[2]]).shape)
# correlation, not convolution: the kernel is not flipped
print(conv2d(img, [[0, 0, 0], [0, 0, 1], [0, 0, 0]]))
print(conv2d(img, [[1, 2, 3]]))
print(conv2d(img, [[1], [0], [-1]]))
# even-sized kernels and kernels larger than the image
print(conv2d(reshape(arange(9.0), [3, 3]), ones([2, 2])))
print(conv2d(reshape(arange(6.0), [2, 3]), reshape(arange(25.0), [5, 5])))
# a Sobel edge filter on a step image
step = concatenate([zeros([5, 3]), ones([5, 3])], axis=1)
sobel = [[-1, 0, 1], [-2, 0, 2], [-1, 0, 1]]
print(conv2d(step, sobel))
f = astype(img, f32)
print(conv2d(f, astype(ones([3, 3]), f32)).dtype, conv2d(f, ones([3, 3])).dtype)
