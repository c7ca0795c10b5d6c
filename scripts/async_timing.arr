# Lesson 5 — the "714×" illusion: timing gpu work without waiting for it.
#
# Source: an article that made a 1000×1000×1000 array of ones (a billion f64, 8 GB) with numpy and
# with cupy and timed three steps the usual way, `s = time.time(); STEP; print(time.time() - s)`:
#
#     np.ones((1000, 1000, 1000))           numpy 1.68 s     cupy 0.16 s       "10.5× faster"
#     x *= 5                                numpy 0.507 s    cupy 0.000710 s   "714.1× faster"
#     x *= 5; x *= x; x += x                numpy 1.49 s     cupy 0.0922 s     "16.16× faster"
#
# The 714× is an illusion. A gpu statement returns as soon as its kernel is QUEUED on the device, not
# when it has finished: the host's clock stopped while the gpu was still multiplying a billion
# numbers. `x *= 5` reads and writes 8 GB; no memory moves that in 0.7 ms (it would take 23 TB/s).
# What the timer measured was the cost of launching one kernel.
#
# Here each step is timed both ways in the same run: `unsynced` reads the clock right after the step,
# as the article did; `synced` calls sync() first, which waits for the device to finish all queued
# work, then reads the clock again. On the cpu a statement returns when its work is done, so both
# agree. On the gpu, `unsynced` is the time to queue the work, `synced` the time to do it.
#
# A second lesson rides along: step 3's three statements run as one pass over memory (arrsh fuses
# elementwise statements nothing observes in between), and step 4 runs them again with `:fuse off`,
# three passes as NumPy and CuPy make, so the two figures stand side by side:
#
#     arrsh --device gpu scripts/async_timing.arr
#
# (Not with --profile: it synchronizes after every statement, which hides the illusion. In the shell,
# `:time on` then `x *= 5` shows it for one statement: "an unsynced timer would have shown …".)
#
# n³ elements: 8 GB at n = 1000. The gpu half needs 8 GB of device memory, the cpu half 8 GB of RAM.

n = 1000   # ci: 50

# A time in seconds as text with a unit (2 decimals), and a ratio to one decimal, for printing.
fn fmt(t) {
    if t >= 1 { return str(round(t * 100) / 100) + " s" }
    if t >= 1e-3 { return str(round(t * 1e5) / 100) + " ms" }
    return str(round(t * 1e8) / 100) + " µs"
}
fn times(r) { return str(round(r * 10) / 10) + "×" }
fn show(dev, step, unsynced, synced) {
    print(str(dev) + ":", step, "  unsynced", fmt(unsynced), "  synced", fmt(synced), "  synced/unsynced", times(synced / unsynced))
}

has_gpu = len(devices()) == 2
print("x: [" + str(n) + ", " + str(n) + ", " + str(n) + "] f64,", n * n * n, "elements,", n * n * n * 8 / 1e9, "GB")

for dev in devices() {
    print("--- on", dev)
    # Warm-up: the first gpu statement creates the CUDA context, and the first use of each kernel
    # compiles it (or loads it from the disk cache). Each step runs once on a tiny array first, so
    # the timings below are the steps' own.
    w = ones([2, 2, 2], device=dev)
    w *= 5
    sync()
    w *= 5
    w *= w
    w += w
    sync()
    :fuse off
    w *= 5
    w *= w
    w += w
    sync()
    :fuse on

    # Step 1: make the array.
    sync()
    t = clock()
    x = ones([n, n, n], device=dev)
    unsynced = clock() - t
    sync()
    synced = clock() - t
    show(dev, "x = ones([n, n, n])      ", unsynced, synced)
    if dev == cpu {
        cpu1 = synced
    } else {
        gpu1u = unsynced
        gpu1 = synced
    }

    # Step 2: multiply in place, one kernel on the gpu.
    sync()
    t = clock()
    x *= 5
    unsynced = clock() - t
    sync()
    synced = clock() - t
    show(dev, "x *= 5                   ", unsynced, synced)
    if dev == cpu {
        cpu2 = synced
    } else {
        gpu2u = unsynced
        gpu2 = synced
    }

    # Step 3: the three operations. Nothing reads x between them, so arrsh defers them and runs
    # them as one kernel (one pass over memory) when the clock is read.
    sync()
    t = clock()
    x *= 5
    x *= x
    x += x
    unsynced = clock() - t
    sync()
    synced = clock() - t
    show(dev, "x *= 5; x *= x; x += x   ", unsynced, synced)
    if dev == cpu {
        cpu3 = synced
        print("on the cpu a statement returns when its work is done: both timers agree")
    } else {
        gpu3u = unsynced
        gpu3 = synced
        print("on the gpu a statement returns when its kernel is queued: the unsynced timer saw the launch")
    }
    # Every element went 1 → 5 (step 2) → 25 → 625 → 1250 (step 3). Two reductions check it (on the
    # gpu, two device→host copies of 8 bytes, after the timing).
    print("check: min(x) =", min(x), "max(x) =", max(x))

    # Step 4: the same three operations with fusion off, as NumPy and CuPy run them: three
    # passes, each reading and writing all of x.
    :fuse off
    sync()
    t = clock()
    x *= 5
    x *= x
    x += x
    unsynced = clock() - t
    sync()
    synced = clock() - t
    :fuse on
    show(dev, "the same, :fuse off      ", unsynced, synced)
    if dev == cpu {
        cpu4 = synced
    } else {
        gpu4 = synced
    }
    x = none
}

print("--- fusion: the three operations as one pass (step 3) against three (step 4), both synced")
print("cpu:", times(cpu4 / cpu3), "faster fused")
if has_gpu {
    print("gpu:", times(gpu4 / gpu3), "faster fused")
}

if has_gpu {
    print("--- the article's comparison (cpu synced / gpu unsynced) against the real one (cpu / gpu, both synced)")
    print("ones:             ", times(cpu1 / gpu1u), "claimed,", times(cpu1 / gpu1), "real   (the article: 10.5×)")
    print("x *= 5:           ", times(cpu2 / gpu2u), "claimed,", times(cpu2 / gpu2), "real   (the article: 714.1×)")
    print("three operations: ", times(cpu3 / gpu3u), "claimed,", times(cpu3 / gpu3), "real   (the article: 16.16×)")
} else {
    print("gpu half skipped: no usable gpu (see :device)")
}
