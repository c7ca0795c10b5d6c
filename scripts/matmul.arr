# Lesson 3 — where the gpu really wins: the matrix product.
#
# Source: two articles. One made a 5000×5000 random matrix and squared it, 5 times in a row, with
# numpy and with cupy (its numbers for cupy were lost); the other multiplied two 10000×10000 random
# matrices: numpy about 12 s, cupy about 1.2 s, "10×".
#
# This script does both, on every device this session can use (the cpu always; the gpu when there
# is one), and prints each time and the real ratio:
#
#     arrsh scripts/matmul.arr                    # cpu half; the gpu half when a gpu is usable
#     arrsh --profile scripts/matmul.arr          # plus the per-line table: note H→D 0 and D→H 0
#
# What decides it: the product of two n×n matrices is 2·n³ floating-point operations on 3·n² numbers.
# At n = 10000 that is 2·10¹² operations on 2.4 GB: each number is used n times, so neither memory nor
# transfers matter and the device's arithmetic rate does. On the cpu that is a BLAS-class kernel on all
# cores (in f64, some tens of GFLOP/s for a few cores, up to about a TFLOP/s for a large server); on
# the gpu it is cuBLAS (tens of TFLOP/s in f64 on a data-centre gpu). And nothing crosses the bus:
# `rand` makes the matrices on the device that multiplies them, so with --profile the H→D and D→H
# columns stay 0.
#
# Honest timing: gpu work is queued and the statement returns at once, so every time below is read
# after sync(). The first call of cuRAND and cuBLAS loads the libraries and makes their handles (a
# fraction of a second, once): a small warm-up product on each device keeps that out of the numbers.
# (The documents' timers included it.)

n = 5000   # ci: 64
reps = 5
big = 10000   # ci: 128

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
# Billions of floating-point operations per second for a product of two k×k matrices in t seconds.
fn gflops(k, t) { return round(2.0 * k * k * k / t / 1e7) / 100 }

has_gpu = len(devices()) == 2
cpu_reps = 0.0
gpu_reps = 0.0
cpu_big = 0.0
gpu_big = 0.0

# Warm-up: libraries loaded, handles made, memory pools primed.
for dev in devices() {
    w = rand([64, 64], device=dev)
    w = w @ w
    sync()
}

print("--- part 1: x = rand([" + str(n) + ", " + str(n) + "]); x = x @ x,", reps, "times")
for dev in devices() {
    sync()
    start = clock()
    for i in range(reps) {
        x = rand([n, n], device=dev)
        x = x @ x
        sync()
        # Like the documents' "single @ …" lines: the time since the start, after each round.
        print(str(dev) + " round " + str(i + 1) + ":", fmt(clock() - start), "since the start")
    }
    total = clock() - start
    print(str(dev) + " total:", fmt(total), "for", reps, "rounds")
    if dev == cpu {
        cpu_reps = total
    } else {
        gpu_reps = total
    }
}
x = none

print("--- part 2: c = a @ b with two " + str(big) + "×" + str(big) + " random matrices")
for dev in devices() {
    a = rand([big, big], device=dev)
    b = rand([big, big], device=dev)
    sync()
    start = clock()
    c = a @ b
    sync()
    t = clock() - start
    print(str(dev) + ":", fmt(t) + ",", gflops(big, t), "GFLOP/s")
    if dev == cpu {
        cpu_big = t
    } else {
        gpu_big = t
    }
}
a = none
b = none
c = none

print("--- the ratio (the documents: 12 s vs 1.2 s, 10×)")
if has_gpu {
    print("part 1: cpu", fmt(cpu_reps) + ", gpu", fmt(gpu_reps) + ":", faster(cpu_reps, gpu_reps))
    print("part 2: cpu", fmt(cpu_big) + ", gpu", fmt(gpu_big) + ":", faster(cpu_big, gpu_big))
} else {
    print("cpu: part 1", fmt(cpu_reps) + ", part 2", fmt(cpu_big))
    print("gpu half skipped: no usable gpu (see :device)")
}
