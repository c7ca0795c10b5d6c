// Reductions and running sums over generated values: the generated kernels (`src/plan/cuda.rs`)
// compute each element's value and hand it to these templates, so `sum(x * y)` is one pass.
// R is the reduction (the codes of `src/plan/reduce.rs`), A the accumulator's register type.
// An accumulator is a value and, for arg reductions and min/max, the index it came from; an
// index of -1 means "no element yet".

enum Reduce { R_SUM, R_PROD, R_MIN, R_MAX, R_ARGMIN, R_ARGMAX, R_ANY, R_ALL };

template <class A> struct Acc {
    A v;
    long long i;
};

template <int R, class A> __device__ __forceinline__ Acc<A> identity() {
    Acc<A> r;
    r.i = -1;
    r.v = (R == R_PROD || R == R_ALL) ? cvt<A>(true) : cvt<A>(false);
    return r;
}

template <int R, class A> __device__ __forceinline__ Acc<A> lift(A v, long long i) {
    Acc<A> r;
    r.v = v;
    r.i = i;
    return r;
}

template <class T> __device__ __forceinline__ bool is_nan_value(T x) { return op_isnan(x); }

// Combines two partial results; NaN wins for min/max and the arg reductions, ties keep the lower
// index so the first extreme is reported, as NumPy does.
template <int R, class A> __device__ __forceinline__ Acc<A> combine(Acc<A> x, Acc<A> y) {
    switch (R) {
    case R_SUM: x.v = op_add(x.v, y.v); return x;
    case R_PROD: x.v = op_multiply(x.v, y.v); return x;
    case R_ANY: x.v = cvt<A>(truthy(x.v) || truthy(y.v)); return x;
    case R_ALL: x.v = cvt<A>(truthy(x.v) && truthy(y.v)); return x;
    default: {
        if (y.i < 0) return x;
        if (x.i < 0) return y;
        bool x_nan = is_nan_value(x.v), y_nan = is_nan_value(y.v);
        if (x_nan || y_nan) {
            if (x_nan && y_nan) return x.i <= y.i ? x : y;
            return x_nan ? x : y;
        }
        bool want_max = (R == R_MAX || R == R_ARGMAX);
        if (op_equal(x.v, y.v)) return x.i <= y.i ? x : y;
        bool y_better = want_max ? op_greater(y.v, x.v) : op_less(y.v, x.v);
        return y_better ? y : x;
    }
    }
}

__device__ __forceinline__ bool shuffle(bool x, int d) { return __shfl_down_sync(0xffffffff, (int)x, d); }
__device__ __forceinline__ i8 shuffle(i8 x, int d) { return __shfl_down_sync(0xffffffff, (int)x, d); }
__device__ __forceinline__ u8 shuffle(u8 x, int d) { return __shfl_down_sync(0xffffffff, (int)x, d); }
__device__ __forceinline__ i16 shuffle(i16 x, int d) { return __shfl_down_sync(0xffffffff, (int)x, d); }
__device__ __forceinline__ u16 shuffle(u16 x, int d) { return __shfl_down_sync(0xffffffff, (int)x, d); }
__device__ __forceinline__ i32 shuffle(i32 x, int d) { return __shfl_down_sync(0xffffffff, x, d); }
__device__ __forceinline__ u32 shuffle(u32 x, int d) { return __shfl_down_sync(0xffffffff, x, d); }
__device__ __forceinline__ i64 shuffle(i64 x, int d) { return __shfl_down_sync(0xffffffff, x, d); }
__device__ __forceinline__ u64 shuffle(u64 x, int d) { return __shfl_down_sync(0xffffffff, x, d); }
__device__ __forceinline__ float shuffle(float x, int d) { return __shfl_down_sync(0xffffffff, x, d); }
__device__ __forceinline__ double shuffle(double x, int d) { return __shfl_down_sync(0xffffffff, x, d); }
__device__ __forceinline__ c64 shuffle(c64 x, int d) {
    c64 r;
    r.re = __shfl_down_sync(0xffffffff, x.re, d);
    r.im = __shfl_down_sync(0xffffffff, x.im, d);
    return r;
}
__device__ __forceinline__ c128 shuffle(c128 x, int d) {
    c128 r;
    r.re = __shfl_down_sync(0xffffffff, x.re, d);
    r.im = __shfl_down_sync(0xffffffff, x.im, d);
    return r;
}

template <class A> __device__ __forceinline__ Acc<A> shuffle_acc(Acc<A> x, int d) {
    Acc<A> r;
    r.v = shuffle(x.v, d);
    r.i = __shfl_down_sync(0xffffffff, x.i, d);
    return r;
}

// Reduces one value per thread to thread 0 of the block (blockDim.x a multiple of 32, ≤ 1024).
template <int R, class A> __device__ Acc<A> block_reduce(Acc<A> x) {
    __shared__ Acc<A> warps[32];
    for (int d = 16; d > 0; d >>= 1) x = combine<R, A>(x, shuffle_acc(x, d));
    int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
    if (lane == 0) warps[warp] = x;
    __syncthreads();
    int nwarps = blockDim.x >> 5;
    x = (threadIdx.x < nwarps) ? warps[threadIdx.x] : identity<R, A>();
    if (warp == 0)
        for (int d = 16; d > 0; d >>= 1) x = combine<R, A>(x, shuffle_acc(x, d));
    return x;
}

// The accumulated value divided by `divisor` (when it is not 0) in the accumulator's type, as
// NumPy's mean divides its sum.
template <class A> __device__ __forceinline__ A divided(A v, double divisor) { return divisor == 0 ? v : (A)(v / (A)divisor); }
__device__ __forceinline__ c64 divided(c64 v, double divisor) {
    if (divisor == 0) return v;
    c64 r; r.re = v.re / (float)divisor; r.im = v.im / (float)divisor; return r;
}
__device__ __forceinline__ c128 divided(c128 v, double divisor) {
    if (divisor == 0) return v;
    c128 r; r.re = v.re / divisor; r.im = v.im / divisor; return r;
}

// The second stage of a full reduction: one block combines the partials and stores the result.
template <int R, class A, class Store>
__device__ void finish_reduction(const Acc<A> *partials, long long count, Store out, double divisor) {
    Acc<A> acc = identity<R, A>();
    for (long long k = threadIdx.x; k < count; k += blockDim.x) acc = combine<R, A>(acc, partials[k]);
    acc = block_reduce<R, A>(acc);
    if (threadIdx.x == 0) {
        if (R == R_ARGMIN || R == R_ARGMAX) out.index(acc.i < 0 ? 0 : acc.i);
        else out.value(divided(acc.v, divisor));
    }
}
