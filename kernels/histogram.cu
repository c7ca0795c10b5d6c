// Histograms over equal bins in one pass: a value's bin is (x - first) * (bins / span)
// truncated, corrected by one against the bin edges as numpy.histogram corrects its own guess,
// ((x - first) / span) * bins: a guess within one bin of the right one gives the same bin, so
// the counts are NumPy's. Values outside [first, last] and NaN are not counted. Counts gather in
// shared memory per block (bins <= 4096), then globally. The range NumPy takes from the data is
// one pass too: each block's smallest and largest value (NaN if it saw one), finished on the host.

typedef long long i64;
typedef unsigned long long u64;

#define SHARED_BINS 4096

// The bin of `v`, or -1 when it is outside [edges[0], edges[bins]] or NaN.
template <class T>
__device__ __forceinline__ i64 bin_of(T v, const T *edges, i64 bins, T low, T high, T first, T scale) {
    if (!(v >= low && v <= high)) return -1;
    T scaled = (v - first) * scale;
    i64 k = (i64)scaled;
    if (k >= bins) k = bins - 1;
    if (k < 0) k = 0;
    if (v < edges[k]) k -= 1;
    if (k != bins - 1 && v >= edges[k + 1]) k += 1;
    return k;
}

// Values read UNROLL at a time, so that more loads are in flight than one per thread.
#define UNROLL 4

// f(x[i]) for each i of this thread's grid-stride share of [0, n).
template <class T, class F>
__device__ __forceinline__ void for_each_value(const T *x, i64 n, F f) {
    const i64 stride = (i64)blockDim.x * gridDim.x;
    i64 i = (i64)blockIdx.x * blockDim.x + threadIdx.x;
    for (; i + (UNROLL - 1) * stride < n; i += UNROLL * stride) {
        T v[UNROLL];
#pragma unroll
        for (int u = 0; u < UNROLL; ++u) v[u] = x[i + u * stride];
#pragma unroll
        for (int u = 0; u < UNROLL; ++u) f(v[u]);
    }
    for (; i < n; i += stride) f(x[i]);
}

template <class T>
__device__ void histogram_uniform(const T *x, i64 n, const T *edges, i64 bins, T first, T span, u64 *counts) {
    __shared__ unsigned int local[SHARED_BINS];
    bool in_shared = bins <= SHARED_BINS;
    if (in_shared)
        for (i64 b = threadIdx.x; b < bins; b += blockDim.x) local[b] = 0;
    __syncthreads();
    const T low = edges[0], high = edges[bins], scale = (T)bins / span;
    auto count = [&](T v) {
        const i64 k = bin_of(v, edges, bins, low, high, first, scale);
        if (k < 0) return;
        if (in_shared)
            atomicAdd(&local[k], 1u);
        else
            atomicAdd(&counts[k], 1ull);
    };
    for_each_value(x, n, count);
    if (in_shared) {
        __syncthreads();
        for (i64 b = threadIdx.x; b < bins; b += blockDim.x)
            if (local[b]) atomicAdd(&counts[b], (u64)local[b]);
    }
}

extern "C" __global__ void histogram_uniform_f64(const double *x, i64 n, const double *edges, i64 bins, double first, double span, u64 *counts) {
    histogram_uniform<double>(x, n, edges, bins, first, span, counts);
}

extern "C" __global__ void histogram_uniform_f32(const float *x, i64 n, const float *edges, i64 bins, float first, float span, u64 *counts) {
    histogram_uniform<float>(x, n, edges, bins, first, span, counts);
}

// Each block's smallest and largest value of x, as partials[2 * block] and [2 * block + 1];
// both NaN when the block saw a NaN (NumPy's min and max propagate it).
template <class T>
__device__ void extrema(const T *x, i64 n, T *partials) {
    T low = x[0], high = x[0];
    bool nan = false;
    auto see = [&](T v) {
        nan |= v != v;
        low = v < low ? v : low;
        high = v > high ? v : high;
    };
    for_each_value(x, n, see);
    for (int d = 16; d > 0; d /= 2) {
        see(__shfl_down_sync(0xffffffff, low, d));
        see(__shfl_down_sync(0xffffffff, high, d));
    }
    nan = __any_sync(0xffffffff, nan);
    __shared__ T lows[32], highs[32];
    __shared__ bool nans[32];
    const int warp = threadIdx.x / 32, lane = threadIdx.x % 32, warps = blockDim.x / 32;
    if (lane == 0) {
        lows[warp] = low;
        highs[warp] = high;
        nans[warp] = nan;
    }
    __syncthreads();
    if (threadIdx.x == 0) {
        for (int w = 1; w < warps; ++w) {
            see(lows[w]);
            see(highs[w]);
            nan |= nans[w];
        }
        partials[2 * blockIdx.x] = nan ? (T)__int_as_float(0x7fc00000) : low;
        partials[2 * blockIdx.x + 1] = nan ? (T)__int_as_float(0x7fc00000) : high;
    }
}

extern "C" __global__ void extrema_f64(const double *x, i64 n, double *partials) {
    extrema<double>(x, n, partials);
}

extern "C" __global__ void extrema_f32(const float *x, i64 n, float *partials) {
    extrema<float>(x, n, partials);
}
