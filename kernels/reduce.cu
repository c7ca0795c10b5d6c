// Reductions (all elements, or along one axis) and running sums. A accumulates: double for f64,
// float for f32, long long for integers and bools. Op codes match `src/device/gpu/abi.rs`.

enum ReduceOp { R_SUM, R_PROD, R_MIN, R_MAX, R_ARGMIN, R_ARGMAX, R_ANY, R_ALL, R_SQUARED_DEVIATION };

// What the final stage does with the accumulated value.
enum Finish { F_NONE, F_DIVIDE, F_SQRT_DIVIDE };

template <typename A> struct Acc {
    A v;
    long long i;
};

template <typename A> __device__ __forceinline__ Acc<A> identity(int op) {
    Acc<A> r;
    r.i = -1;
    switch (op) {
    case R_PROD: case R_ALL: r.v = (A)1; break;
    default: r.v = (A)0; break;
    }
    return r;
}

// Combines two partial results; for min/max/argmin/argmax an empty side has i == -1, NaN wins,
// and ties keep the lower index so the first extreme is reported, as NumPy does.
template <typename A> __device__ __forceinline__ Acc<A> combine(int op, Acc<A> x, Acc<A> y) {
    switch (op) {
    case R_SUM: case R_SQUARED_DEVIATION: x.v = x.v + y.v; return x;
    case R_PROD: x.v = x.v * y.v; return x;
    case R_ANY: x.v = (A)((x.v != (A)0) || (y.v != (A)0)); return x;
    case R_ALL: x.v = (A)((x.v != (A)0) && (y.v != (A)0)); return x;
    default: {
        if (y.i < 0) return x;
        if (x.i < 0) return y;
        bool x_nan = is_nan(x.v), y_nan = is_nan(y.v);
        if (x_nan || y_nan) {
            if (x_nan && y_nan) return x.i <= y.i ? x : y;
            return x_nan ? x : y;
        }
        bool want_max = (op == R_MAX || op == R_ARGMAX);
        if (x.v == y.v) return x.i <= y.i ? x : y;
        bool y_better = want_max ? (y.v > x.v) : (y.v < x.v);
        return y_better ? y : x;
    }
    }
}

template <typename A> __device__ __forceinline__ Acc<A> lift(int op, A x, long long i, A center) {
    Acc<A> r;
    r.i = i;
    if (op == R_SQUARED_DEVIATION) {
        A d = x - center;
        r.v = d * d;
    } else {
        r.v = x;
    }
    return r;
}

template <typename A> __device__ Acc<A> shuffle_down(Acc<A> x, int delta) {
    Acc<A> r;
    r.v = __shfl_down_sync(0xffffffff, x.v, delta);
    r.i = __shfl_down_sync(0xffffffff, x.i, delta);
    return r;
}

// Reduces one value per thread to thread 0 of the block (blockDim.x a multiple of 32, ≤ 1024).
template <typename A> __device__ Acc<A> block_reduce(int op, Acc<A> x) {
    __shared__ Acc<A> warps[32];
    for (int d = 16; d > 0; d >>= 1) x = combine(op, x, shuffle_down(x, d));
    int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
    if (lane == 0) warps[warp] = x;
    __syncthreads();
    int nwarps = blockDim.x >> 5;
    x = (threadIdx.x < nwarps) ? warps[threadIdx.x] : identity<A>(op);
    if (warp == 0)
        for (int d = 16; d > 0; d >>= 1) x = combine(op, x, shuffle_down(x, d));
    return x;
}

template <typename A> __device__ __forceinline__ A center_of(const A *center, long long k) {
    return center ? center[k] : (A)0;
}

// Writes one reduction's result: the index for arg ops, else the value after the finish step
// (mean: / divisor; std: sqrt(· / divisor)), in the output's dtype.
template <typename A>
__device__ __forceinline__ void store_result(const Operand &out, long long o, int op, int finish,
                                             double divisor, Acc<A> acc) {
    if (op == R_ARGMIN || op == R_ARGMAX) store<long long>(out, o, acc.i < 0 ? 0 : acc.i);
    else if (finish == F_DIVIDE) store<double>(out, o, (double)acc.v / divisor);
    else if (finish == F_SQRT_DIVIDE) store<double>(out, o, sqrt((double)acc.v / divisor));
    else store<A>(out, o, acc.v);
}

// Stage 1 of a full reduction: each block reduces a grid-strided share into partials[block].
#define REDUCE_PARTIAL(A, NAME)                                                                    \
    extern "C" __global__ void NAME(Shape shape, Operand in, int op, Acc<A> *partials,            \
                                    const A *center) {                                             \
        A c = center_of(center, 0);                                                                \
        Acc<A> acc = identity<A>(op);                                                              \
        GRID_STRIDE(i, shape.size) {                                                               \
            acc = combine(op, acc, lift(op, load<A>(in, offset_of(in, shape, i)), i, c));          \
        }                                                                                          \
        acc = block_reduce(op, acc);                                                               \
        if (threadIdx.x == 0) partials[blockIdx.x] = acc;                                          \
    }

REDUCE_PARTIAL(long long, reduce_partial_i64)
REDUCE_PARTIAL(float, reduce_partial_f32)
REDUCE_PARTIAL(double, reduce_partial_f64)

// Stage 1 of a plain sum of a contiguous array of the accumulator's own type: four independent
// running sums per thread keep four loads in flight.
#define SUM_DENSE(A, NAME)                                                                         \
    extern "C" __global__ void NAME(const A *x, long long n, Acc<A> *partials) {                  \
        long long stride = (long long)blockDim.x * gridDim.x;                                      \
        long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;                            \
        A s0 = 0, s1 = 0, s2 = 0, s3 = 0;                                                          \
        for (; i + 3 * stride < n; i += 4 * stride) {                                              \
            s0 += x[i];                                                                            \
            s1 += x[i + stride];                                                                   \
            s2 += x[i + 2 * stride];                                                               \
            s3 += x[i + 3 * stride];                                                               \
        }                                                                                          \
        for (; i < n; i += stride) s0 += x[i];                                                     \
        Acc<A> acc;                                                                                \
        acc.v = (s0 + s1) + (s2 + s3);                                                             \
        acc.i = 0;                                                                                 \
        acc = block_reduce(R_SUM, acc);                                                            \
        if (threadIdx.x == 0) partials[blockIdx.x] = acc;                                          \
    }

SUM_DENSE(long long, sum_dense_i64)
SUM_DENSE(float, sum_dense_f32)
SUM_DENSE(double, sum_dense_f64)

// Stage 2: one block combines the partials and writes the result.
#define REDUCE_FINISH(A, NAME)                                                                     \
    extern "C" __global__ void NAME(const Acc<A> *partials, long long count, int op, int finish,  \
                                    double divisor, Operand out) {                                 \
        Acc<A> acc = identity<A>(op);                                                              \
        for (long long k = threadIdx.x; k < count; k += blockDim.x)                                \
            acc = combine(op, acc, partials[k]);                                                   \
        acc = block_reduce(op, acc);                                                               \
        if (threadIdx.x == 0) store_result(out, out.offset, op, finish, divisor, acc);             \
    }

REDUCE_FINISH(long long, reduce_finish_i64)
REDUCE_FINISH(float, reduce_finish_f32)
REDUCE_FINISH(double, reduce_finish_f64)

// Along one axis, one thread per output element: `in` has the output's shape (its strides skip
// the reduced axis), and the reduced axis is walked with `axis_len` and `axis_stride`.
#define REDUCE_AXIS_THREADS(A, NAME)                                                               \
    extern "C" __global__ void NAME(Shape shape, Operand in, long long axis_len,                   \
                                    long long axis_stride, int op, int finish, double divisor,     \
                                    const A *center, Operand out) {                                \
        GRID_STRIDE(k, shape.size) {                                                               \
            long long base = offset_of(in, shape, k);                                              \
            A c = center_of(center, k);                                                            \
            Acc<A> acc = identity<A>(op);                                                          \
            for (long long j = 0; j < axis_len; ++j)                                               \
                acc = combine(op, acc, lift(op, load<A>(in, base + j * axis_stride), j, c));       \
            store_result(out, offset_of(out, shape, k), op, finish, divisor, acc);                 \
        }                                                                                          \
    }

REDUCE_AXIS_THREADS(long long, reduce_axis_threads_i64)
REDUCE_AXIS_THREADS(float, reduce_axis_threads_f32)
REDUCE_AXIS_THREADS(double, reduce_axis_threads_f64)

// Along one axis, one block per output element: for long axes and few outputs.
#define REDUCE_AXIS_BLOCKS(A, NAME)                                                                \
    extern "C" __global__ void NAME(Shape shape, Operand in, long long axis_len,                   \
                                    long long axis_stride, int op, int finish, double divisor,     \
                                    const A *center, Operand out) {                                \
        long long k = blockIdx.x;                                                                  \
        long long base = in.mode == IMMEDIATE ? 0 : offset_of(in, shape, k);                       \
        A c = center_of(center, k);                                                                \
        Acc<A> acc = identity<A>(op);                                                              \
        for (long long j = threadIdx.x; j < axis_len; j += blockDim.x)                             \
            acc = combine(op, acc, lift(op, load<A>(in, base + j * axis_stride), j, c));           \
        acc = block_reduce(op, acc);                                                               \
        if (threadIdx.x == 0) store_result(out, offset_of(out, shape, k), op, finish, divisor, acc); \
    }

REDUCE_AXIS_BLOCKS(long long, reduce_axis_blocks_i64)
REDUCE_AXIS_BLOCKS(float, reduce_axis_blocks_f32)
REDUCE_AXIS_BLOCKS(double, reduce_axis_blocks_f64)

// Running sums along lines: `shape` is the shape of the lines' starting points (the scanned axis
// has length 1 there); each thread walks one line. Output is contiguous with the input's shape.
#define SCAN_LINES(A, NAME)                                                                        \
    extern "C" __global__ void NAME(Shape shape, Operand in, long long axis_len,                   \
                                    long long axis_stride, Operand out, long long out_axis_stride) { \
        GRID_STRIDE(k, shape.size) {                                                               \
            long long src = offset_of(in, shape, k);                                               \
            long long dst = offset_of(out, shape, k);                                              \
            A running = (A)0;                                                                      \
            for (long long j = 0; j < axis_len; ++j) {                                             \
                running = running + load<A>(in, src + j * axis_stride);                            \
                store<A>(out, dst + j * out_axis_stride, running);                                 \
            }                                                                                      \
        }                                                                                          \
    }

SCAN_LINES(long long, scan_lines_i64)
SCAN_LINES(float, scan_lines_f32)
SCAN_LINES(double, scan_lines_f64)

// A flat running sum in three launches: block totals, a scan of the totals, then each block
// scans its chunk starting from the total of the chunks before it. CHUNK elements per block.
#define SCAN_CHUNK 4096

template <typename A> __device__ A block_inclusive_scan(A x, A *shared) {
    int t = threadIdx.x;
    shared[t] = x;
    __syncthreads();
    for (int d = 1; d < blockDim.x; d <<= 1) {
        A add = t >= d ? shared[t - d] : (A)0;
        __syncthreads();
        shared[t] += add;
        __syncthreads();
    }
    A r = shared[t];
    __syncthreads();
    return r;
}

#define SCAN_FLAT(A, SUFFIX)                                                                       \
    extern "C" __global__ void scan_totals_##SUFFIX(Shape shape, Operand in, A *totals) {         \
        long long start = (long long)blockIdx.x * SCAN_CHUNK;                                      \
        long long end = min(start + SCAN_CHUNK, shape.size);                                       \
        Acc<A> acc = identity<A>(R_SUM);                                                           \
        for (long long i = start + threadIdx.x; i < end; i += blockDim.x)                          \
            acc.v += load<A>(in, offset_of(in, shape, i));                                         \
        acc = block_reduce(R_SUM, acc);                                                            \
        if (threadIdx.x == 0) totals[blockIdx.x] = acc.v;                                          \
    }                                                                                              \
    extern "C" __global__ void scan_offsets_##SUFFIX(A *totals, long long count) {                \
        __shared__ A shared[1024];                                                                 \
        A carry = (A)0;                                                                            \
        for (long long base = 0; base < count; base += blockDim.x) {                               \
            long long k = base + threadIdx.x;                                                      \
            A x = k < count ? totals[k] : (A)0;                                                    \
            A inclusive = block_inclusive_scan(x, shared);                                         \
            A before = threadIdx.x > 0 ? shared[threadIdx.x - 1] : (A)0;                           \
            if (k < count) totals[k] = carry + before;                                             \
            __shared__ A last;                                                                     \
            if (threadIdx.x == blockDim.x - 1) last = inclusive;                                   \
            __syncthreads();                                                                       \
            carry += last;                                                                         \
            __syncthreads();                                                                       \
        }                                                                                          \
    }                                                                                              \
    extern "C" __global__ void scan_apply_##SUFFIX(Shape shape, Operand in, const A *offsets,     \
                                                   Operand out) {                                  \
        __shared__ A shared[1024];                                                                 \
        long long start = (long long)blockIdx.x * SCAN_CHUNK;                                      \
        long long end = min(start + SCAN_CHUNK, shape.size);                                       \
        A carry = offsets[blockIdx.x];                                                             \
        for (long long base = start; base < end; base += blockDim.x) {                             \
            long long i = base + threadIdx.x;                                                      \
            A x = i < end ? load<A>(in, offset_of(in, shape, i)) : (A)0;                           \
            A inclusive = block_inclusive_scan(x, shared);                                         \
            if (i < end) store<A>(out, out.offset + i, carry + inclusive);                         \
            __shared__ A last;                                                                     \
            if (threadIdx.x == blockDim.x - 1) last = inclusive;                                   \
            __syncthreads();                                                                       \
            carry += last;                                                                         \
            __syncthreads();                                                                       \
        }                                                                                          \
    }

SCAN_FLAT(long long, i64)
SCAN_FLAT(float, f32)
SCAN_FLAT(double, f64)
