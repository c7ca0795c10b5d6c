# Lesson 4 — the image filter: a 3×3 convolution of a 1024×1024 image.
#
# Source: an article that says filtering a 1024×1024 image took cupy 1/8 of numpy's time. It gave no
# code; this script does what it describes, on every device this session can use, and prints the
# real ratio:
#
#     arrsh scripts/conv2d.arr
#     arrsh --profile scripts/conv2d.arr          # per line: kernels, and the two copies of part 2
#
# A 3×3 filter does 9 multiply-adds per output pixel: 1024×1024×18 ≈ 19 million operations on 8 MB
# in and 8 MB out. That is little arithmetic per byte: on the gpu the filter is bound by memory
# bandwidth (16 MB at several TB/s: microseconds), on the cpu by how fast its few cores do the
# multiply-adds (milliseconds). A single filter is also short: on the gpu it can take less time than
# launching it, so the time per filter below is the mean of `reps` filters.
#
# Part 2 is the catch: if the image starts in host memory (read from a file, say) and the result
# must come back, the gpu also pays two copies of 8 MB over PCIe, which can cost more than the
# filter itself. The gpu pays off when the image stays on it for many operations.
#
# Honest timing: sync() before each clock() read. The first conv2d on the gpu compiles its kernel
# (NVRTC, a few seconds once, then cached on disk): the warm-up call keeps that out of the numbers.

size = 1024   # ci: 64
reps = 20   # ci: 3

# A time in seconds as text with a unit (2 decimals), and a ratio to one decimal, for printing.
fn fmt(t) {
    if t >= 1 { return str(round(t * 100) / 100) + " s" }
    if t >= 1e-3 { return str(round(t * 1e5) / 100) + " ms" }
    return str(round(t * 1e8) / 100) + " µs"
}
fn times(r) { return str(round(r * 10) / 10) + "×" }
# Which device was faster, and by how much.
fn faster(cpu_t, gpu_t) {
    if gpu_t < cpu_t { return "the gpu is " + times(cpu_t / gpu_t) + " faster" }
    return "the cpu is " + times(gpu_t / cpu_t) + " faster"
}

has_gpu = len(devices()) == 2
seed(1)
# The image is made once, on the host, so that both devices filter the same pixels.
image_host = rand([size, size], device=cpu)
kernel_host = array([[1.0, 2, 1], [2, 4, 2], [1, 2, 1]], device=cpu) / 16
print("image", image_host.shape, "kernel", kernel_host.shape, "(a 3×3 Gaussian blur),", reps, "filters per device")

cpu_filter = 0.0
gpu_filter = 0.0
gpu_round_trip = 0.0
cpu_result = none

for dev in devices() {
    # Part 1: the image already on the device (one copy, before the clock starts).
    image = to(image_host, dev)
    kernel = to(kernel_host, dev)
    out = conv2d(image, kernel)
    sync()
    start = clock()
    for r in range(reps) {
        out = conv2d(image, kernel)
    }
    sync()
    per = (clock() - start) / reps
    print(str(dev) + ": conv2d", fmt(per), "per filter; sum of the result", round(sum(out) * 100) / 100)
    if dev == cpu {
        cpu_filter = per
        cpu_result = to(out, cpu)
    } else {
        gpu_filter = per
        # Part 2: from host memory and back, one H→D and one D→H copy of 8 MB per filter.
        sync()
        start = clock()
        for r in range(reps) {
            back = to(conv2d(to(image_host, gpu), kernel), cpu)
        }
        gpu_round_trip = (clock() - start) / reps
        print("gpu: conv2d with the image copied in and the result copied out:", fmt(gpu_round_trip), "per filter")
        # The devices compute the same filter (to 1e-12, not to the bit: sums in another order).
        print("largest difference between the devices:", max(abs(back - cpu_result)))
    }
}

print("--- the ratio (the documents: the gpu took 1/8 of numpy's time)")
if has_gpu {
    print("filter only: cpu", fmt(cpu_filter) + ", gpu", fmt(gpu_filter) + ":", faster(cpu_filter, gpu_filter))
    print("with the copies: cpu", fmt(cpu_filter) + ", gpu", fmt(gpu_round_trip) + ":", faster(cpu_filter, gpu_round_trip))
} else {
    print("cpu: conv2d", fmt(cpu_filter), "per filter")
    print("gpu half skipped: no usable gpu (see :device)")
}

# What the filter does, on a corner of the image: before and after. imshow draws a text picture in
# a terminal (and an image in a notebook; file="corner.png" saves one).
imshow(image_host[:16, :48], title="a corner of the image")
imshow(cpu_result[:16, :48], title="the same corner after the 3×3 blur")
