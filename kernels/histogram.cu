// Histograms over equal bins in one pass, by NumPy's arithmetic: a value's bin is
// ((x - first) / span) * bins truncated, corrected by one against the bin edges (as
// numpy.histogram corrects within an ulp of an edge); values outside [first, last] and NaN are
// not counted. Counts gather in shared memory per block (bins <= 4096), then globally.

typedef long long i64;
typedef unsigned long long u64;

#define SHARED_BINS 4096

// The bin of `v`, or -1 when it is outside [edges[0], edges[bins]] or NaN.
template <class T>
__device__ __forceinline__ i64 bin_of(T v, const T *edges, i64 bins, T low, T high, T first, T span) {
    if (!(v >= low && v <= high)) return -1;
    T scaled = ((v - first) / span) * (T)bins;
    i64 k = (i64)scaled;
    if (k >= bins) k = bins - 1;
    if (k < 0) k = 0;
    if (v < edges[k]) k -= 1;
    if (k != bins - 1 && v >= edges[k + 1]) k += 1;
    return k;
}

// Values read UNROLL at a time, so that more loads are in flight than one per thread.
#define UNROLL 4

template <class T>
__device__ void histogram_uniform(const T *x, i64 n, const T *edges, i64 bins, T first, T span, u64 *counts) {
    __shared__ unsigned int local[SHARED_BINS];
    bool in_shared = bins <= SHARED_BINS;
    if (in_shared)
        for (i64 b = threadIdx.x; b < bins; b += blockDim.x) local[b] = 0;
    __syncthreads();
    const T low = edges[0], high = edges[bins];
    auto count = [&](T v) {
        const i64 k = bin_of(v, edges, bins, low, high, first, span);
        if (k < 0) return;
        if (in_shared)
            atomicAdd(&local[k], 1u);
        else
            atomicAdd(&counts[k], 1ull);
    };
    const i64 stride = (i64)blockDim.x * gridDim.x;
    i64 i = (i64)blockIdx.x * blockDim.x + threadIdx.x;
    for (; i + (UNROLL - 1) * stride < n; i += UNROLL * stride) {
        T v[UNROLL];
#pragma unroll
        for (int u = 0; u < UNROLL; ++u) v[u] = x[i + u * stride];
#pragma unroll
        for (int u = 0; u < UNROLL; ++u) count(v[u]);
    }
    for (; i < n; i += stride) count(x[i]);
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
