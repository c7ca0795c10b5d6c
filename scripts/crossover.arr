# Lesson 6 — the crossover: below what size is the cpu faster?
#
# Source: an article whose table of speedups by array size (lost with its image) came with this
# summary: "from 10 million data points the speed jumps; beyond 100 million the speedup is very
# large. Below 10 million, numpy is actually faster."
#
# Why there is a crossover at all: every gpu operation pays a fixed price before any element is
# touched (a kernel launch, a few microseconds; a device→host copy and a wait when the result is a
# host value, as `sum` is), and the cpu pays almost nothing for a small array that sits in its cache.
# The gpu's advantage grows with the work: roughly memory bandwidth (several TB/s against tens of
# GB/s) for elementwise work and reductions, and arithmetic rate for the matrix product, which does
# n³ work on n² data and so crosses over at a much smaller n.
#
# `:sweep for n in SIZES { BODY }` runs BODY for each n on the cpu and on the gpu (the default device
# switched for it), timed as `:bench` times a statement, and prints a table (n · cpu · gpu · speedup
# · faster), the crossover size and a chart. Each BODY is timed whole, so the arrays it makes are
# part of its time: `ones(n)` is one fill (a kernel on the gpu, as cheap as `x *= 5`), `rand(n)` one
# cuRAND call. Without a gpu, :sweep runs the cpu column and says why the gpu column is empty.
#
#     arrsh --device gpu scripts/crossover.arr
#
# A shell command is one line, so each sweep is one line; SIZES is an arr expression (here a
# variable holding a list of sizes).

sizes = [1e3, 1e4, 1e5, 1e6, 1e7, 1e8]   # ci: [1e2, 1e3]
mat_sizes = [64, 128, 256, 512, 1024, 2048]   # ci: [16, 32]

# 1. An elementwise expression, x * 5 + 1: make n ones, then a new array from them (on the gpu,
#    one fill and two kernels; the temporary of x * 5 is reused for + 1).
print("--- x = ones(n); y = x * 5 + 1")
:sweep for n in sizes { x = ones(n); y = x * 5 + 1 }

# 2. A full reduction: the result is a host scalar, so on the gpu each run ends with one
#    device→host copy of 8 bytes and a wait; at small n that fixed cost is all there is.
print("--- x = rand(n); s = sum(x)")
:sweep for n in sizes { x = rand(n); s = sum(x) }

# 3. The matrix product of an n×n matrix with itself (2·n³ operations on n² numbers).
print("--- a = rand([n, n]); c = a @ a")
:sweep for n in mat_sizes { a = rand([n, n]); c = a @ a }
