// Helpers of the gpu's linear algebra around cuSOLVER and cuBLAS (`src/array/gpu_decompositions.rs`):
// the device arrays of matrix addresses that batched routines take, zeroing a triangle of each
// matrix of a stack, (sign, log|det|) from LU factors, and the complex eigenvectors of a real
// matrix from LAPACK's packing. Matrices are column-major unless a kernel says otherwise.

typedef long long i64;

#define GRID_STRIDE(i, n)                                                                          \
    for (i64 i = (i64)blockIdx.x * blockDim.x + threadIdx.x; i < (n); i += (i64)blockDim.x * gridDim.x)

struct __align__(8) c64 { float re, im; };
struct __align__(16) c128 { double re, im; };
struct __align__(16) Bytes16 { unsigned long long a, b; };

// out[k] = base + k * step (bytes): the addresses of the matrices of a contiguous stack.
extern "C" __global__ void matrix_pointers(unsigned long long *out, unsigned long long base,
                                           unsigned long long step, i64 count) {
    GRID_STRIDE(k, count) out[k] = base + (unsigned long long)k * step;
}

// Zeroes, in each rows × cols matrix of a stack, the elements strictly below the diagonal
// (lower != 0) or strictly above it; element (b, i, j) is at b*bs + i*rs + j*cs.
template <typename T>
__device__ void zero_triangle(T *a, i64 batch, i64 rows, i64 cols, i64 bs, i64 rs, i64 cs,
                              int lower) {
    i64 per = rows * cols;
    GRID_STRIDE(e, batch * per) {
        i64 b = e / per, r = e - b * per, i = r / cols, j = r - i * cols;
        if (lower ? j < i : j > i) a[b * bs + i * rs + j * cs] = T{};
    }
}

#define ZERO_TRIANGLE(T, NAME)                                                                     \
    extern "C" __global__ void NAME(T *a, i64 batch, i64 rows, i64 cols, i64 bs, i64 rs, i64 cs,   \
                                    int lower) {                                                   \
        zero_triangle<T>(a, batch, rows, cols, bs, rs, cs, lower);                                  \
    }
ZERO_TRIANGLE(unsigned int, zero_triangle_4)
ZERO_TRIANGLE(unsigned long long, zero_triangle_8)
ZERO_TRIANGLE(Bytes16, zero_triangle_16)

// -inf as R (NVRTC has no math headers, so no INFINITY).
template <typename R> __device__ R minus_infinity() { return -(R)__int_as_float(0x7f800000); }

// (sign, log|det|) of each n×n matrix from its LU factors (n*n apart) and 1-based pivots (n
// apart), as NumPy's slogdet: a zero pivot gives (0, -inf).
template <typename R, typename P>
__device__ void slogdet_real(const R *lu, const P *pivots, i64 n, i64 batch, R *sign, R *logabs) {
    GRID_STRIDE(b, batch) {
        const R *m = lu + b * n * n;
        const P *p = pivots + b * n;
        R s = 1, l = 0;
        bool singular = false;
        for (i64 i = 0; i < n; ++i) {
            R u = m[i * n + i];
            singular = singular || u == 0;
            if (u < 0) s = -s;
            if ((i64)p[i] != i + 1) s = -s;
            l += log(fabs(u));
        }
        sign[b] = singular ? (R)0 : s;
        logabs[b] = singular ? minus_infinity<R>() : l;
    }
}

template <typename C, typename R, typename P>
__device__ void slogdet_complex(const C *lu, const P *pivots, i64 n, i64 batch, C *sign, R *logabs) {
    GRID_STRIDE(b, batch) {
        const C *m = lu + b * n * n;
        const P *p = pivots + b * n;
        R sre = 1, sim = 0, l = 0;
        bool singular = false;
        for (i64 i = 0; i < n; ++i) {
            C u = m[i * n + i];
            R size = hypot(u.re, u.im);
            singular = singular || size == 0;
            if (size != 0) {
                R ure = u.re / size, uim = u.im / size;
                R re = sre * ure - sim * uim;
                sim = sre * uim + sim * ure;
                sre = re;
            }
            if ((i64)p[i] != i + 1) {
                sre = -sre;
                sim = -sim;
            }
            l += log(size);
        }
        C s;
        s.re = singular ? (R)0 : sre;
        s.im = singular ? (R)0 : sim;
        sign[b] = s;
        logabs[b] = singular ? minus_infinity<R>() : l;
    }
}

#define SLOGDET_REAL(R, P, NAME)                                                                   \
    extern "C" __global__ void NAME(const R *lu, const P *pivots, i64 n, i64 batch, R *sign,       \
                                    R *logabs) {                                                   \
        slogdet_real<R, P>(lu, pivots, n, batch, sign, logabs);                                    \
    }
#define SLOGDET_COMPLEX(C, R, P, NAME)                                                             \
    extern "C" __global__ void NAME(const C *lu, const P *pivots, i64 n, i64 batch, C *sign,       \
                                    R *logabs) {                                                   \
        slogdet_complex<C, R, P>(lu, pivots, n, batch, sign, logabs);                              \
    }
SLOGDET_REAL(float, int, slogdet_f32_i32)
SLOGDET_REAL(double, int, slogdet_f64_i32)
SLOGDET_REAL(float, i64, slogdet_f32_i64)
SLOGDET_REAL(double, i64, slogdet_f64_i64)
SLOGDET_COMPLEX(c64, float, int, slogdet_c64_i32)
SLOGDET_COMPLEX(c128, double, int, slogdet_c128_i32)
SLOGDET_COMPLEX(c64, float, i64, slogdet_c64_i64)
SLOGDET_COMPLEX(c128, double, i64, slogdet_c128_i64)

// The complex eigenvectors of real matrices from geev's real vr (n*n apart) and eigenvalues w
// (n apart), by LAPACK's packing: a pair w[j], w[j+1] = conj(w[j]) with im(w[j]) > 0 has
// v[j] = vr[:, j] + i vr[:, j+1] and v[j+1] = vr[:, j] - i vr[:, j+1].
template <typename C, typename R>
__device__ void unpack_eigenvectors(const C *w, const R *vr, C *out, i64 n, i64 batch) {
    i64 per = n * n;
    GRID_STRIDE(e, batch * per) {
        i64 b = e / per, r = e - b * per, j = r / n, i = r - j * n;
        const R *v = vr + b * per;
        R im = w[b * n + j].im;
        C z;
        if (im > 0) {
            z.re = v[j * n + i];
            z.im = v[(j + 1) * n + i];
        } else if (im < 0) {
            z.re = v[(j - 1) * n + i];
            z.im = -v[j * n + i];
        } else {
            z.re = v[j * n + i];
            z.im = 0;
        }
        out[e] = z;
    }
}

#define EIG_REAL(C, R, SUFFIX)                                                                     \
    extern "C" __global__ void unpack_eigenvectors_##SUFFIX(const C *w, const R *vr, C *out,       \
                                                            i64 n, i64 batch) {                    \
        unpack_eigenvectors<C, R>(w, vr, out, n, batch);                                           \
    }
EIG_REAL(c64, float, f32)
EIG_REAL(c128, double, f64)
