// conv2d: 2-d "same" correlation with zero padding, the kernel's anchor at ((kh-1)/2, (kw-1)/2),
// as `src/device/cpu/conv.rs` defines it. One thread per output pixel; the kernel weights are
// read through the read-only cache, the image tile neighbours hit L1/L2.

#define CONV_KERNEL(T, NAME)                                                                       \
    extern "C" __global__ void NAME(T *out, const T *__restrict__ image,                           \
                                    const T *__restrict__ weights, long long height,               \
                                    long long width, int kh, int kw) {                             \
        long long j = (long long)blockIdx.x * blockDim.x + threadIdx.x;                            \
        long long i = (long long)blockIdx.y * blockDim.y + threadIdx.y;                            \
        if (i >= height || j >= width) return;                                                     \
        int ra = (kh - 1) / 2, ca = (kw - 1) / 2;                                                  \
        T acc = (T)0;                                                                              \
        for (int p = 0; p < kh; ++p) {                                                             \
            long long si = i + p - ra;                                                             \
            bool row_inside = si >= 0 && si < height;                                              \
            for (int q = 0; q < kw; ++q) {                                                         \
                long long sj = j + q - ca;                                                         \
                T x = (row_inside && sj >= 0 && sj < width) ? image[si * width + sj] : (T)0;       \
                acc += __ldg(&weights[p * kw + q]) * x;                                            \
            }                                                                                      \
        }                                                                                          \
        out[i * width + j] = acc;                                                                  \
    }

CONV_KERNEL(float, conv2d_f32)
CONV_KERNEL(double, conv2d_f64)

// Integer matrix product (cuBLAS has none): out[m×n] = a[m×k] · b[k×n], all contiguous, wrapping.
#define GRID_STRIDE(i, n)                                                                          \
    for (long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x; i < (n);                 \
         i += (long long)blockDim.x * gridDim.x)

extern "C" __global__ void matmul_i64(long long *out, const long long *a, const long long *b,
                                      long long m, long long k, long long n) {
    GRID_STRIDE(e, m * n) {
        long long r = e / n, c = e - r * n;
        unsigned long long acc = 0;
        for (long long t = 0; t < k; ++t)
            acc += (unsigned long long)a[r * k + t] * (unsigned long long)b[t * n + c];
        out[e] = (long long)acc;
    }
}
