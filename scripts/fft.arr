# Lesson 7 — the Fourier transform: where the gpu starts to win, and an image filter done in
# frequency space.
#
#     arrsh scripts/fft.arr                 # the filter on the cpu; the sweep on both devices
#     arrsh --device gpu scripts/fft.arr    # the filter on the gpu
#
# Part 1. A transform of n points does about 5·n·log2(n) floating-point operations on 16·n bytes
# (c128) and reads them a few times: more work per byte than `x * 5 + 1`, less than a matrix
# product. On the cpu it is rustfft (one transform runs on one core; a batch of transforms runs on
# all of them); on the gpu one cuFFT call, which first pays a fixed price (the launch, a few
# microseconds) and then runs at close to the device's memory bandwidth. `:sweep` (see
# crossover.arr) times one `fft.fft` per size on each device, the input made inside the body (one
# fill, cheap next to the transform). Without a gpu it runs the cpu column and says why.

sizes = [256, 1024, 4096, 16384, 65536, 262144, 1048576, 4194304, 16777216, 67108864]   # ci: [16, 64]

print("--- x = full(n, 1 + 1j); y = fft.fft(x)")
:sweep for n in sizes { x = full(n, 1 + 1j); y = fft.fft(x) }

# Part 2. Filtering an image with a k×k kernel the direct way (conv2d) costs k² multiply-adds per
# pixel; in frequency space the cost does not depend on k: correlation with the kernel is a product
# of spectra. conv2d is a "same"-size correlation with zero padding, so the frequency-space version
#   1. pads: the image and the kernel to at least (H + k - 1) × (W + k - 1) zeros (s= of rfft2),
#      so that the transform's wrap-around never mixes the image's edges;
#   2. flips the kernel: a product of spectra is a convolution, and correlation is convolution
#      with the kernel reversed along both axes;
#   3. crops: the full convolution has H + k - 1 rows; conv2d's output starts k - 1 - (k - 1) // 2
#      rows (and columns) in.

size = 512   # ci: 48
kernel_sizes = [3, 9, 31]   # ci: [3, 5]
reps = 5   # ci: 2

fn fmt(t) {
    if t >= 1 { return str(round(t * 100) / 100) + " s" }
    if t >= 1e-3 { return str(round(t * 1e5) / 100) + " ms" }
    return str(round(t * 1e8) / 100) + " µs"
}

# conv2d(image, kernel), computed with real transforms.
fn fft_filter(image, kernel) {
    h, w = image.shape
    kh, kw = kernel.shape
    s = [h + kh - 1, w + kw - 1]
    spectrum = fft.rfft2(image, s=s) * fft.rfft2(flip(kernel), s=s)
    full_size = fft.irfft2(spectrum, s=s)
    top = kh - 1 - (kh - 1) // 2
    left = kw - 1 - (kw - 1) // 2
    return full_size[top:top + h, left:left + w]
}

# The seconds one call of f takes (the mean of `reps` calls, after a warm-up).
fn seconds(f, image, kernel) {
    out = f(image, kernel)
    sync()
    start = clock()
    for r in range(reps) {
        out = f(image, kernel)
    }
    sync()
    return (clock() - start) / reps
}

seed(7)
image = rand([size, size])
print("--- filtering a", image.shape, "image on the", image.device)
for k in kernel_sizes {
    kernel = rand([k, k]) / (k * k)
    direct = conv2d(image, kernel)
    in_frequency = fft_filter(image, kernel)
    # The same filter to rounding (sums in another order), not to the bit.
    agree = max(abs(in_frequency - direct)) < 1e-12 * max(abs(direct))
    print(str(k) + "×" + str(k) + " kernel: the two agree to 1e-12:", agree)
    print("  conv2d", fmt(seconds(conv2d, image, kernel)) + ", rfft2 · spectrum → irfft2", fmt(seconds(fft_filter, image, kernel)))
}
