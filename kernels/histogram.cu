// Histograms over equal bins in one pass, by NumPy's arithmetic: a value's bin is
// ((x - first) / span) * bins truncated, corrected by one against the bin edges (as
// numpy.histogram corrects within an ulp of an edge); values outside [first, last] and NaN are
// not counted. Counts gather in shared memory per block (bins <= 4096), then globally.

typedef long long i64;
typedef unsigned long long u64;

#define SHARED_BINS 4096

template <class T>
__device__ void histogram_uniform(const T *x, i64 n, const T *edges, i64 bins, T first, T span, u64 *counts) {
    __shared__ unsigned int local[SHARED_BINS];
    bool in_shared = bins <= SHARED_BINS;
    if (in_shared)
        for (i64 b = threadIdx.x; b < bins; b += blockDim.x) local[b] = 0;
    __syncthreads();
    T low = edges[0], high = edges[bins];
    for (i64 i = (i64)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += (i64)blockDim.x * gridDim.x) {
        T v = x[i];
        if (!(v >= low && v <= high)) continue;
        T scaled = ((v - first) / span) * (T)bins;
        i64 k = (i64)scaled;
        if (k >= bins) k = bins - 1;
        if (k < 0) k = 0;
        if (v < edges[k]) k -= 1;
        if (k != bins - 1 && v >= edges[k + 1]) k += 1;
        if (in_shared)
            atomicAdd(&local[k], 1u);
        else
            atomicAdd(&counts[k], 1ull);
    }
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
