// The device functions of the table of elementwise operations (`src/plan/table.rs`): one
// overloaded `op_<name>` per row, for every C type of the dtypes the row has loops for. The
// generated kernels (`src/plan/cuda.rs`) call them; their semantics are those of the cpu's
// functions (`src/plan/cpu_math.rs`), which are NumPy's: integers wrap, integer division by zero
// gives 0, float modulo follows npy_divmod, NaN wins in maximum/minimum, complex numbers divide
// by Smith's method and compare real part first.
//
// Register types: bool, the eight integer types, float, double, c64, c128. float16 elements are
// loaded into float and every float16 result is rounded to float16 (`rh`), as NumPy's half loops
// compute in float and round each result.

// NVRTC has no <math.h> macros.
#ifndef NAN
#define NAN __int_as_float(0x7fc00000)
#endif
#ifndef INFINITY
#define INFINITY __int_as_float(0x7f800000)
#endif

typedef signed char i8;
typedef unsigned char u8;
typedef short i16;
typedef unsigned short u16;
typedef int i32;
typedef unsigned int u32;
typedef long long i64;
typedef unsigned long long u64;

// Aligned as float2 and double2, so an element is one 8- or 16-byte load and store, not two.
struct __align__(8) c64 { float re, im; };
struct __align__(16) c128 { double re, im; };

// ---- float16 ----
__device__ __forceinline__ float h2f(u16 h) { float f; asm("cvt.f32.f16 %0, %1;" : "=f"(f) : "h"(h)); return f; }
__device__ __forceinline__ u16 f2h(float f) { u16 h; asm("cvt.rn.f16.f32 %0, %1;" : "=h"(h) : "f"(f)); return h; }
__device__ __forceinline__ u16 d2h(double d) { u16 h; asm("cvt.rn.f16.f64 %0, %1;" : "=h"(h) : "d"(d)); return h; }
__device__ __forceinline__ float rh(float x) { return h2f(f2h(x)); }

// ---- conversions (NumPy's astype; float to integer saturates, NaN gives 0) ----
template <class To, class From> struct Cvt { static __device__ __forceinline__ To go(From x) { return (To)x; } };
#define SATURATE(T, LO, HI)                                                                        \
    template <> struct Cvt<T, double> {                                                            \
        static __device__ __forceinline__ T go(double x) {                                         \
            return x != x ? (T)0 : x <= (double)(LO) ? (T)(LO) : x >= (double)(HI) ? (T)(HI) : (T)x; \
        }                                                                                          \
    };                                                                                             \
    template <> struct Cvt<T, float> {                                                             \
        static __device__ __forceinline__ T go(float x) { return Cvt<T, double>::go((double)x); } \
    };
SATURATE(i8, -128, 127)
SATURATE(u8, 0, 255)
SATURATE(i16, -32768, 32767)
SATURATE(u16, 0, 65535)
SATURATE(i32, -2147483648.0, 2147483647)
SATURATE(u32, 0, 4294967295.0)
template <> struct Cvt<i64, double> { static __device__ __forceinline__ i64 go(double x) { return x != x ? 0 : __double2ll_rz(x); } };
template <> struct Cvt<u64, double> { static __device__ __forceinline__ u64 go(double x) { return x != x ? 0 : __double2ull_rz(x); } };
template <> struct Cvt<i64, float> { static __device__ __forceinline__ i64 go(float x) { return x != x ? 0 : __float2ll_rz(x); } };
template <> struct Cvt<u64, float> { static __device__ __forceinline__ u64 go(float x) { return x != x ? 0 : __float2ull_rz(x); } };
#define TO_BOOL(T) template <> struct Cvt<bool, T> { static __device__ __forceinline__ bool go(T x) { return x != (T)0; } };
TO_BOOL(i8) TO_BOOL(u8) TO_BOOL(i16) TO_BOOL(u16) TO_BOOL(i32) TO_BOOL(u32) TO_BOOL(i64) TO_BOOL(u64) TO_BOOL(float) TO_BOOL(double)
#define COMPLEX_CVT(C, F)                                                                          \
    template <class From> struct Cvt<C, From> {                                                    \
        static __device__ __forceinline__ C go(From x) { C z; z.re = (F)x; z.im = 0; return z; }  \
    };                                                                                             \
    template <> struct Cvt<bool, C> { static __device__ __forceinline__ bool go(C z) { return z.re != 0 || z.im != 0; } };
COMPLEX_CVT(c64, float)
COMPLEX_CVT(c128, double)
template <> struct Cvt<c64, bool> { static __device__ __forceinline__ c64 go(bool x) { c64 z; z.re = x; z.im = 0; return z; } };
template <> struct Cvt<c128, bool> { static __device__ __forceinline__ c128 go(bool x) { c128 z; z.re = x; z.im = 0; return z; } };
template <> struct Cvt<c64, c128> { static __device__ __forceinline__ c64 go(c128 x) { c64 z; z.re = (float)x.re; z.im = (float)x.im; return z; } };
template <> struct Cvt<c128, c64> { static __device__ __forceinline__ c128 go(c64 x) { c128 z; z.re = x.re; z.im = x.im; return z; } };
template <> struct Cvt<c64, c64> { static __device__ __forceinline__ c64 go(c64 x) { return x; } };
template <> struct Cvt<c128, c128> { static __device__ __forceinline__ c128 go(c128 x) { return x; } };
#define FROM_COMPLEX(T)                                                                            \
    template <> struct Cvt<T, c64> { static __device__ __forceinline__ T go(c64 z) { return Cvt<T, float>::go(z.re); } }; \
    template <> struct Cvt<T, c128> { static __device__ __forceinline__ T go(c128 z) { return Cvt<T, double>::go(z.re); } };
FROM_COMPLEX(i8) FROM_COMPLEX(u8) FROM_COMPLEX(i16) FROM_COMPLEX(u16) FROM_COMPLEX(i32) FROM_COMPLEX(u32) FROM_COMPLEX(i64) FROM_COMPLEX(u64) FROM_COMPLEX(float) FROM_COMPLEX(double)
template <class To, class From> __device__ __forceinline__ To cvt(From x) { return Cvt<To, From>::go(x); }

// ---- integers ----
#define INTEGER_OPS(T, U, SIGNED)                                                                  \
    __device__ __forceinline__ T op_add(T a, T b) { return (T)((U)a + (U)b); }                    \
    __device__ __forceinline__ T op_subtract(T a, T b) { return (T)((U)a - (U)b); }               \
    __device__ __forceinline__ T op_multiply(T a, T b) { return (T)((U)a * (U)b); }               \
    __device__ __forceinline__ T op_floor_divide(T a, T b) {                                       \
        if (b == 0) return 0;                                                                      \
        if (SIGNED && b == (T)-1) return (T)((U)0 - (U)a);                                         \
        T q = a / b;                                                                               \
        return (a % b != 0 && ((a < 0) != (b < 0))) ? (T)(q - 1) : q;                              \
    }                                                                                              \
    __device__ __forceinline__ T op_remainder(T a, T b) {                                          \
        if (b == 0 || (SIGNED && b == (T)-1)) return 0;                                            \
        T r = a % b;                                                                               \
        return (r != 0 && ((r < 0) != (b < 0))) ? (T)(r + b) : r;                                  \
    }                                                                                              \
    __device__ __forceinline__ T op_fmod(T a, T b) {                                               \
        if (b == 0 || (SIGNED && b == (T)-1)) return 0;                                            \
        return a % b;                                                                              \
    }                                                                                              \
    __device__ __forceinline__ T op_power(T a, T b) {                                              \
        if (b < 0) return a == 1 ? 1 : (SIGNED && a == (T)-1) ? ((b & 1) ? a : (T)1) : (T)0;       \
        U result = 1, base = (U)a;                                                                 \
        while (b > 0) {                                                                            \
            if (b & 1) result = (U)(result * base);                                                \
            base = (U)(base * base);                                                               \
            b >>= 1;                                                                               \
        }                                                                                          \
        return (T)result;                                                                          \
    }                                                                                              \
    __device__ __forceinline__ T op_maximum(T a, T b) { return a > b ? a : b; }                   \
    __device__ __forceinline__ T op_minimum(T a, T b) { return a < b ? a : b; }                   \
    __device__ __forceinline__ T op_fmax(T a, T b) { return a > b ? a : b; }                      \
    __device__ __forceinline__ T op_fmin(T a, T b) { return a < b ? a : b; }                      \
    __device__ __forceinline__ T op_bitwise_and(T a, T b) { return a & b; }                       \
    __device__ __forceinline__ T op_bitwise_or(T a, T b) { return a | b; }                        \
    __device__ __forceinline__ T op_bitwise_xor(T a, T b) { return a ^ b; }                       \
    __device__ __forceinline__ T op_left_shift(T a, T b) {                                         \
        return (u64)(i64)b < sizeof(T) * 8 ? (T)((U)a << b) : (T)0;                               \
    }                                                                                              \
    __device__ __forceinline__ T op_right_shift(T a, T b) {                                        \
        return (u64)(i64)b < sizeof(T) * 8 ? (T)(a >> b) : (a < 0 ? (T)-1 : (T)0);                \
    }                                                                                              \
    __device__ __forceinline__ T op_negative(T a) { return (T)((U)0 - (U)a); }                    \
    __device__ __forceinline__ T op_positive(T a) { return a; }                                   \
    __device__ __forceinline__ T op_absolute(T a) { return a < 0 ? (T)((U)0 - (U)a) : a; }        \
    __device__ __forceinline__ T op_sign(T a) { return a > 0 ? (T)1 : a < 0 ? (T)-1 : (T)0; }     \
    __device__ __forceinline__ T op_square(T a) { return (T)((U)a * (U)a); }                      \
    __device__ __forceinline__ T op_reciprocal(T a) {                                              \
        return a == 0 ? (T)0 : (SIGNED && a == (T)-1) ? a : (T)(1 / a);                            \
    }                                                                                              \
    __device__ __forceinline__ T op_conjugate(T a) { return a; }                                  \
    __device__ __forceinline__ T op_floor(T a) { return a; }                                      \
    __device__ __forceinline__ T op_ceil(T a) { return a; }                                       \
    __device__ __forceinline__ T op_trunc(T a) { return a; }                                      \
    __device__ __forceinline__ T op_invert(T a) { return (T)~a; }                                 \
    __device__ __forceinline__ bool op_isnan(T) { return false; }                                 \
    __device__ __forceinline__ bool op_isinf(T) { return false; }                                 \
    __device__ __forceinline__ bool op_isfinite(T) { return true; }                               \
    __device__ __forceinline__ bool op_logical_not(T a) { return a == 0; }                        \
    __device__ __forceinline__ bool truthy(T a) { return a != 0; }
INTEGER_OPS(i8, u8, 1)
INTEGER_OPS(u8, u8, 0)
INTEGER_OPS(i16, u16, 1)
INTEGER_OPS(u16, u16, 0)
INTEGER_OPS(i32, u32, 1)
INTEGER_OPS(u32, u32, 0)
INTEGER_OPS(i64, u64, 1)
INTEGER_OPS(u64, u64, 0)

// ---- bool ----
__device__ __forceinline__ bool op_add(bool a, bool b) { return a || b; }
__device__ __forceinline__ bool op_multiply(bool a, bool b) { return a && b; }
__device__ __forceinline__ bool op_maximum(bool a, bool b) { return a || b; }
__device__ __forceinline__ bool op_minimum(bool a, bool b) { return a && b; }
__device__ __forceinline__ bool op_fmax(bool a, bool b) { return a || b; }
__device__ __forceinline__ bool op_fmin(bool a, bool b) { return a && b; }
__device__ __forceinline__ bool op_bitwise_and(bool a, bool b) { return a && b; }
__device__ __forceinline__ bool op_bitwise_or(bool a, bool b) { return a || b; }
__device__ __forceinline__ bool op_bitwise_xor(bool a, bool b) { return a != b; }
__device__ __forceinline__ bool op_absolute(bool a) { return a; }
__device__ __forceinline__ bool op_floor(bool a) { return a; }
__device__ __forceinline__ bool op_ceil(bool a) { return a; }
__device__ __forceinline__ bool op_trunc(bool a) { return a; }
__device__ __forceinline__ bool op_invert(bool a) { return !a; }
__device__ __forceinline__ bool op_isnan(bool) { return false; }
__device__ __forceinline__ bool op_isinf(bool) { return false; }
__device__ __forceinline__ bool op_isfinite(bool) { return true; }
__device__ __forceinline__ bool op_logical_not(bool a) { return !a; }
__device__ __forceinline__ bool truthy(bool a) { return a; }

// ---- floats (float also computes float16) ----
#define FLOAT_OPS(F, S, PI, LN2, LOG2E)                                                            \
    __device__ __forceinline__ F op_add(F a, F b) { return a + b; }                               \
    __device__ __forceinline__ F op_subtract(F a, F b) { return a - b; }                          \
    __device__ __forceinline__ F op_multiply(F a, F b) { return a * b; }                          \
    __device__ __forceinline__ F op_divide(F a, F b) { return a / b; }                            \
    __device__ __forceinline__ F divmod_quotient(F a, F b, F *mod) {                               \
        F m = fmod##S(a, b);                                                                       \
        if (b == 0) { *mod = m; return a / b; }                                                    \
        F div = (a - m) / b;                                                                       \
        if (m != 0) {                                                                              \
            if ((b < 0) != (m < 0)) { m += b; div -= 1; }                                          \
        } else {                                                                                   \
            m = copysign##S((F)0, b);                                                              \
        }                                                                                          \
        F q;                                                                                       \
        if (div != 0) { q = floor##S(div); if (div - q > (F)0.5) q += 1; }                         \
        else q = copysign##S((F)0, a / b);                                                         \
        *mod = m;                                                                                  \
        return q;                                                                                  \
    }                                                                                              \
    __device__ __forceinline__ F op_floor_divide(F a, F b) { F m; return divmod_quotient(a, b, &m); } \
    __device__ __forceinline__ F op_remainder(F a, F b) {                                          \
        if (b == 0) return fmod##S(a, b);                                                          \
        F m; divmod_quotient(a, b, &m); return m;                                                  \
    }                                                                                              \
    __device__ __forceinline__ F op_fmod(F a, F b) { return fmod##S(a, b); }                      \
    __device__ __forceinline__ F op_power(F a, F b) { return pow##S(a, b); }                      \
    __device__ __forceinline__ F op_maximum(F a, F b) { return (a > b || a != a) ? a : b; }       \
    __device__ __forceinline__ F op_minimum(F a, F b) { return (a < b || a != a) ? a : b; }       \
    __device__ __forceinline__ F op_fmax(F a, F b) { return (a != a || (b == b && b > a)) ? b : a; } \
    __device__ __forceinline__ F op_fmin(F a, F b) { return (a != a || (b == b && b < a)) ? b : a; } \
    __device__ __forceinline__ F op_arctan2(F a, F b) { return atan2##S(a, b); }                  \
    __device__ __forceinline__ F op_hypot(F a, F b) { return hypot##S(a, b); }                    \
    __device__ __forceinline__ F op_copysign(F a, F b) { return copysign##S(a, b); }              \
    __device__ __forceinline__ F op_logaddexp(F a, F b) {                                          \
        if (a == b) return a + (F)LN2;                                                             \
        F d = a - b;                                                                               \
        return d > 0 ? a + log1p##S(exp##S(-d)) : d <= 0 ? b + log1p##S(exp##S(d)) : d;           \
    }                                                                                              \
    __device__ __forceinline__ F op_logaddexp2(F a, F b) {                                         \
        if (a == b) return a + 1;                                                                  \
        F d = a - b;                                                                               \
        return d > 0 ? a + (F)LOG2E * log1p##S(exp2##S(-d))                                        \
               : d <= 0 ? b + (F)LOG2E * log1p##S(exp2##S(d)) : d;                                 \
    }                                                                                              \
    __device__ __forceinline__ F op_heaviside(F a, F b) { return a < 0 ? (F)0 : a > 0 ? (F)1 : a == 0 ? b : a; } \
    __device__ __forceinline__ F op_nextafter(F a, F b) { return nextafter##S(a, b); }            \
    __device__ __forceinline__ F op_negative(F a) { return -a; }                                  \
    __device__ __forceinline__ F op_positive(F a) { return a; }                                   \
    __device__ __forceinline__ F op_absolute(F a) { return fabs##S(a); }                          \
    __device__ __forceinline__ F op_sign(F a) { return a > 0 ? (F)1 : a < 0 ? (F)-1 : a == 0 ? (F)0 : a; } \
    __device__ __forceinline__ F op_square(F a) { return a * a; }                                 \
    __device__ __forceinline__ F op_reciprocal(F a) { return (F)1 / a; }                          \
    __device__ __forceinline__ F op_conjugate(F a) { return a; }                                  \
    __device__ __forceinline__ F op_sqrt(F a) { return sqrt##S(a); }                              \
    __device__ __forceinline__ F op_cbrt(F a) { return cbrt##S(a); }                              \
    __device__ __forceinline__ F op_exp(F a) { return exp##S(a); }                                \
    __device__ __forceinline__ F op_exp2(F a) { return exp2##S(a); }                              \
    __device__ __forceinline__ F op_expm1(F a) { return expm1##S(a); }                            \
    __device__ __forceinline__ F op_log(F a) { return log##S(a); }                                \
    __device__ __forceinline__ F op_log2(F a) { return log2##S(a); }                              \
    __device__ __forceinline__ F op_log10(F a) { return log10##S(a); }                            \
    __device__ __forceinline__ F op_log1p(F a) { return log1p##S(a); }                            \
    __device__ __forceinline__ F op_sin(F a) { return sin##S(a); }                                \
    __device__ __forceinline__ F op_cos(F a) { return cos##S(a); }                                \
    __device__ __forceinline__ F op_tan(F a) { return tan##S(a); }                                \
    __device__ __forceinline__ F op_arcsin(F a) { return asin##S(a); }                            \
    __device__ __forceinline__ F op_arccos(F a) { return acos##S(a); }                            \
    __device__ __forceinline__ F op_arctan(F a) { return atan##S(a); }                            \
    __device__ __forceinline__ F op_sinh(F a) { return sinh##S(a); }                              \
    __device__ __forceinline__ F op_cosh(F a) { return cosh##S(a); }                              \
    __device__ __forceinline__ F op_tanh(F a) { return tanh##S(a); }                              \
    __device__ __forceinline__ F op_arcsinh(F a) { return asinh##S(a); }                          \
    __device__ __forceinline__ F op_arccosh(F a) { return acosh##S(a); }                          \
    __device__ __forceinline__ F op_arctanh(F a) { return atanh##S(a); }                          \
    __device__ __forceinline__ F op_floor(F a) { return floor##S(a); }                            \
    __device__ __forceinline__ F op_ceil(F a) { return ceil##S(a); }                              \
    __device__ __forceinline__ F op_trunc(F a) { return trunc##S(a); }                            \
    __device__ __forceinline__ F op_rint(F a) { return rint##S(a); }                              \
    __device__ __forceinline__ F op_deg2rad(F a) { return a * ((F)PI / (F)180); }                \
    __device__ __forceinline__ F op_rad2deg(F a) { return a * ((F)180 / (F)PI); }                \
    __device__ __forceinline__ F op_spacing(F a) {                                                 \
        if (isinf(a)) return (F)NAN;                                                               \
        return nextafter##S(a, signbit(a) ? (F)-INFINITY : (F)INFINITY) - a;                      \
    }                                                                                              \
    __device__ __forceinline__ bool op_isnan(F a) { return a != a; }                              \
    __device__ __forceinline__ bool op_isinf(F a) { return isinf(a); }                            \
    __device__ __forceinline__ bool op_isfinite(F a) { return isfinite(a); }                      \
    __device__ __forceinline__ bool op_signbit(F a) { return signbit(a); }                        \
    __device__ __forceinline__ bool op_logical_not(F a) { return a == 0; }                        \
    __device__ __forceinline__ bool truthy(F a) { return a != 0; }
FLOAT_OPS(float, f, 3.14159265358979323846f, 0.693147180559945309417f, 1.44269504088896340736f)
FLOAT_OPS(double, , 3.14159265358979323846, 0.693147180559945309417, 1.44269504088896340736)

// float16 steps in its own ulps.
__device__ __forceinline__ float half_step(float a, bool up) {
    u16 bits = f2h(a);
    if (a != a) return a;
    if ((bits & 0x7fff) == 0) return h2f(up ? 0x0001 : 0x8001);
    bool away = up != ((bits & 0x8000) != 0);
    return h2f(away ? bits + 1 : bits - 1);
}
__device__ __forceinline__ float op_nextafter_half(float a, float b) {
    if (a != a || b != b) return NAN;
    if (a == b) return b;
    return half_step(a, b > a);
}
// NumPy's half spacing: the gap above a positive value, the (positive) gap toward zero below.
__device__ __forceinline__ float op_spacing_half(float a) {
    if (isinf(a)) return NAN;
    return half_step(a, true) - a;
}

// ---- comparisons and logic (every type; the mixed int64/uint64 ones compare exactly) ----
#define COMPARE_OPS(T)                                                                             \
    __device__ __forceinline__ bool op_equal(T a, T b) { return a == b; }                         \
    __device__ __forceinline__ bool op_not_equal(T a, T b) { return a != b; }                     \
    __device__ __forceinline__ bool op_less(T a, T b) { return a < b; }                           \
    __device__ __forceinline__ bool op_less_equal(T a, T b) { return a <= b; }                    \
    __device__ __forceinline__ bool op_greater(T a, T b) { return a > b; }                        \
    __device__ __forceinline__ bool op_greater_equal(T a, T b) { return a >= b; }
COMPARE_OPS(bool) COMPARE_OPS(i8) COMPARE_OPS(u8) COMPARE_OPS(i16) COMPARE_OPS(u16) COMPARE_OPS(i32)
COMPARE_OPS(u32) COMPARE_OPS(i64) COMPARE_OPS(u64) COMPARE_OPS(float) COMPARE_OPS(double)
__device__ __forceinline__ bool op_equal(i64 a, u64 b) { return a >= 0 && (u64)a == b; }
__device__ __forceinline__ bool op_not_equal(i64 a, u64 b) { return !op_equal(a, b); }
__device__ __forceinline__ bool op_less(i64 a, u64 b) { return a < 0 || (u64)a < b; }
__device__ __forceinline__ bool op_less_equal(i64 a, u64 b) { return a < 0 || (u64)a <= b; }
__device__ __forceinline__ bool op_greater(i64 a, u64 b) { return !op_less_equal(a, b); }
__device__ __forceinline__ bool op_greater_equal(i64 a, u64 b) { return !op_less(a, b); }
__device__ __forceinline__ bool op_equal(u64 a, i64 b) { return op_equal(b, a); }
__device__ __forceinline__ bool op_not_equal(u64 a, i64 b) { return op_not_equal(b, a); }
__device__ __forceinline__ bool op_less(u64 a, i64 b) { return op_greater(b, a); }
__device__ __forceinline__ bool op_less_equal(u64 a, i64 b) { return op_greater_equal(b, a); }
__device__ __forceinline__ bool op_greater(u64 a, i64 b) { return op_less(b, a); }
__device__ __forceinline__ bool op_greater_equal(u64 a, i64 b) { return op_less_equal(b, a); }
template <class A, class B> __device__ __forceinline__ bool op_logical_and(A a, B b) { return truthy(a) && truthy(b); }
template <class A, class B> __device__ __forceinline__ bool op_logical_or(A a, B b) { return truthy(a) || truthy(b); }
template <class A, class B> __device__ __forceinline__ bool op_logical_xor(A a, B b) { return truthy(a) != truthy(b); }

template <class T> __device__ __forceinline__ T op_where(bool c, T a, T b) { return c ? a : b; }
template <class T> __device__ __forceinline__ T op_clip(T x, T lo, T hi) { return op_minimum(op_maximum(x, lo), hi); }

// ---- complex numbers (the formulas of the num-complex crate the cpu uses) ----
#define COMPLEX_OPS(C, F, S, LN2, LN10)                                                            \
    __device__ __forceinline__ C make_##C(F re, F im) { C z; z.re = re; z.im = im; return z; }        \
    __device__ __forceinline__ C cmul(C a, C b) { return make_##C(a.re * b.re - a.im * b.im, a.re * b.im + a.im * b.re); } \
    /* num-complex's division, used inside its formulas (the operator uses Smith's method) */      \
    __device__ __forceinline__ C cdiv_plain(C a, C b) {                                            \
        F n = b.re * b.re + b.im * b.im;                                                           \
        return make_##C((a.re * b.re + a.im * b.im) / n, (a.im * b.re - a.re * b.im) / n);            \
    }                                                                                              \
    __device__ __forceinline__ C cadd(C a, C b) { return make_##C(a.re + b.re, a.im + b.im); }        \
    __device__ __forceinline__ C csub(C a, C b) { return make_##C(a.re - b.re, a.im - b.im); }        \
    __device__ __forceinline__ C cscale(C a, F s) { return make_##C(a.re / s, a.im / s); }            \
    __device__ __forceinline__ C op_add(C a, C b) { return cadd(a, b); }                           \
    __device__ __forceinline__ C op_subtract(C a, C b) { return csub(a, b); }                      \
    __device__ __forceinline__ C op_multiply(C a, C b) { return cmul(a, b); }                      \
    __device__ __forceinline__ C op_divide(C a, C b) {                                             \
        F ra = fabs##S(b.re), ia = fabs##S(b.im);                                                  \
        if (ra >= ia) {                                                                            \
            if (ra == 0 && ia == 0) return make_##C(a.re / ra, a.im / ra);                            \
            F rat = b.im / b.re, scl = (F)1 / (b.re + b.im * rat);                                 \
            return make_##C((a.re + a.im * rat) * scl, (a.im - a.re * rat) * scl);                    \
        }                                                                                          \
        F rat = b.re / b.im, scl = (F)1 / (b.im + b.re * rat);                                     \
        return make_##C((a.re * rat + a.im) * scl, (a.im * rat - a.re) * scl);                        \
    }                                                                                              \
    __device__ __forceinline__ F cabs(C z) { return hypot##S(z.re, z.im); }                       \
    __device__ __forceinline__ C cpolar(F r, F t) { return make_##C(r * cos##S(t), r * sin##S(t)); }   \
    __device__ __forceinline__ C cexp(C z) {                                                       \
        F re = z.re, im = z.im;                                                                    \
        if (isinf(re)) {                                                                           \
            if (re < 0) { if (!isfinite(im)) return make_##C(0, 0); }                                 \
            else if (im == 0 || !isfinite(im)) { if (isinf(im)) im = (F)NAN; return make_##C(re, im); } \
        } else if (re != re && im == 0) return z;                                                  \
        return cpolar(exp##S(re), im);                                                             \
    }                                                                                              \
    __device__ __forceinline__ C clog(C z) { return make_##C(log##S(cabs(z)), atan2##S(z.im, z.re)); } \
    __device__ __forceinline__ C csqrt(C z) {                                                      \
        if (z.im == 0) {                                                                           \
            if (!signbit(z.re)) return make_##C(sqrt##S(z.re), z.im);                                 \
            F im = sqrt##S(-z.re);                                                                 \
            return make_##C(0, signbit(z.im) ? -im : im);                                             \
        }                                                                                          \
        if (z.re == 0) {                                                                           \
            F x = sqrt##S(fabs##S(z.im) / 2);                                                      \
            return make_##C(x, signbit(z.im) ? -x : x);                                               \
        }                                                                                          \
        return cpolar(sqrt##S(cabs(z)), atan2##S(z.im, z.re) / 2);                                 \
    }                                                                                              \
    __device__ __forceinline__ C op_maximum(C a, C b) {                                            \
        bool ge = (a.re > b.re && a.im == a.im && b.im == b.im) || (a.re == b.re && a.im >= b.im); \
        return (ge || a.re != a.re || a.im != a.im) ? a : b;                                       \
    }                                                                                              \
    __device__ __forceinline__ C op_minimum(C a, C b) {                                            \
        bool le = (a.re < b.re && a.im == a.im && b.im == b.im) || (a.re == b.re && a.im <= b.im); \
        return (le || a.re != a.re || a.im != a.im) ? a : b;                                       \
    }                                                                                              \
    __device__ __forceinline__ C op_fmax(C a, C b) {                                               \
        bool ge = (a.re > b.re && a.im == a.im && b.im == b.im) || (a.re == b.re && a.im >= b.im); \
        return (b.re != b.re || b.im != b.im || ge) ? a : b;                                       \
    }                                                                                              \
    __device__ __forceinline__ C op_fmin(C a, C b) {                                               \
        bool le = (a.re < b.re && a.im == a.im && b.im == b.im) || (a.re == b.re && a.im <= b.im); \
        return (b.re != b.re || b.im != b.im || le) ? a : b;                                       \
    }                                                                                              \
    __device__ __forceinline__ bool op_equal(C a, C b) { return a.re == b.re && a.im == b.im; }    \
    __device__ __forceinline__ bool op_not_equal(C a, C b) { return a.re != b.re || a.im != b.im; } \
    __device__ __forceinline__ bool op_less(C a, C b) {                                            \
        return (a.re < b.re && a.im == a.im && b.im == b.im) || (a.re == b.re && a.im < b.im);     \
    }                                                                                              \
    __device__ __forceinline__ bool op_less_equal(C a, C b) {                                      \
        return (a.re < b.re && a.im == a.im && b.im == b.im) || (a.re == b.re && a.im <= b.im);    \
    }                                                                                              \
    __device__ __forceinline__ bool op_greater(C a, C b) {                                         \
        return (a.re > b.re && a.im == a.im && b.im == b.im) || (a.re == b.re && a.im > b.im);     \
    }                                                                                              \
    __device__ __forceinline__ bool op_greater_equal(C a, C b) {                                   \
        return (a.re > b.re && a.im == a.im && b.im == b.im) || (a.re == b.re && a.im >= b.im);    \
    }                                                                                              \
    __device__ __forceinline__ bool truthy(C z) { return z.re != 0 || z.im != 0; }                 \
    __device__ __forceinline__ C op_negative(C z) { return make_##C(-z.re, -z.im); }                  \
    __device__ __forceinline__ C op_positive(C z) { return z; }                                    \
    __device__ __forceinline__ C op_conjugate(C z) { return make_##C(z.re, -z.im); }                  \
    __device__ __forceinline__ C op_square(C z) { return cmul(z, z); }                             \
    __device__ __forceinline__ C op_reciprocal(C z) { return op_divide(make_##C(1, 0), z); }          \
    __device__ __forceinline__ C op_sign(C z) {                                                    \
        F r = cabs(z);                                                                             \
        if (r == 0) return make_##C(0, 0);                                                            \
        if (r != r) return make_##C((F)NAN, (F)NAN);                                                  \
        if (isinf(r)) {                                                                            \
            F re = isinf(z.re) ? copysign##S((F)1, z.re) : copysign##S((F)0, z.re);               \
            F im = isinf(z.im) ? copysign##S((F)1, z.im) : copysign##S((F)0, z.im);               \
            F n = hypot##S(re, im);                                                                \
            return make_##C(re / n, im / n);                                                          \
        }                                                                                          \
        return make_##C(z.re / r, z.im / r);                                                          \
    }                                                                                              \
    __device__ __forceinline__ C op_power(C a, C b) {                                              \
        if (b.re == 0 && b.im == 0) return make_##C(1, 0);                                            \
        if (a.re == 0 && a.im == 0)                                                                \
            return b.re > 0 ? make_##C(0, 0) : make_##C((F)NAN, (F)NAN);                  \
        if (b.im == 0 && b.re == trunc##S(b.re) && fabs##S(b.re) < 100) {                          \
            long long n = (long long)b.re;                                                         \
            if (n == 1) return a;                                                                  \
            if (n == 2) return cmul(a, a);                                                         \
            if (n == 3) return cmul(a, cmul(a, a));                                                \
            unsigned long long e = n < 0 ? -n : n;                                                 \
            C result = make_##C(1, 0), p = a;                                                         \
            while (true) {                                                                         \
                if (e & 1) result = cmul(result, p);                                               \
                e >>= 1;                                                                           \
                if (e == 0) break;                                                                 \
                p = cmul(p, p);                                                                    \
            }                                                                                      \
            return n < 0 ? op_divide(make_##C(1, 0), result) : result;                                \
        }                                                                                          \
        return cexp(cmul(b, clog(a)));                                                             \
    }                                                                                              \
    __device__ __forceinline__ C t_sqrt(C z) { return csqrt(z); }                                 \
    __device__ __forceinline__ C t_exp(C z) { return cexp(z); }                                   \
    __device__ __forceinline__ C t_exp2(C z) { return cexp(make_##C(z.re * (F)LN2, z.im * (F)LN2)); } \
    __device__ __forceinline__ C t_expm1(C z) {                                                   \
        F h = sin##S(z.im / 2);                                                                    \
        return make_##C(expm1##S(z.re) * cos##S(z.im) - 2 * h * h, exp##S(z.re) * sin##S(z.im));      \
    }                                                                                              \
    __device__ __forceinline__ C t_log(C z) { return clog(z); }                                   \
    __device__ __forceinline__ C t_log2(C z) { return cscale(clog(z), (F)LN2); }                  \
    __device__ __forceinline__ C t_log10(C z) { return cscale(clog(z), (F)LN10); }                \
    __device__ __forceinline__ C t_log1p(C z) {                                                   \
        F x = z.re + 1;                                                                            \
        return make_##C(log##S(hypot##S(x, z.im)), atan2##S(z.im, x));                                \
    }                                                                                              \
    __device__ __forceinline__ C t_sin(C z) { return make_##C(sin##S(z.re) * cosh##S(z.im), cos##S(z.re) * sinh##S(z.im)); } \
    __device__ __forceinline__ C t_cos(C z) { return make_##C(cos##S(z.re) * cosh##S(z.im), -sin##S(z.re) * sinh##S(z.im)); } \
    __device__ __forceinline__ C t_tan(C z) {                                                     \
        F a = z.re + z.re, b = z.im + z.im;                                                        \
        return cscale(make_##C(sin##S(a), sinh##S(b)), cos##S(a) + cosh##S(b));                       \
    }                                                                                              \
    __device__ __forceinline__ C t_sinh(C z) { return make_##C(sinh##S(z.re) * cos##S(z.im), cosh##S(z.re) * sin##S(z.im)); } \
    __device__ __forceinline__ C t_cosh(C z) { return make_##C(cosh##S(z.re) * cos##S(z.im), sinh##S(z.re) * sin##S(z.im)); } \
    __device__ __forceinline__ C t_tanh(C z) {                                                    \
        F a = z.re + z.re, b = z.im + z.im;                                                        \
        return cscale(make_##C(sinh##S(a), sin##S(b)), cosh##S(a) + cos##S(b));                       \
    }                                                                                              \
    __device__ __forceinline__ C t_arcsin(C z) {                                                  \
        C i = make_##C(0, 1), ni = make_##C(0, -1);                                                      \
        return cmul(ni, clog(cadd(csqrt(csub(make_##C(1, 0), cmul(z, z))), cmul(i, z))));            \
    }                                                                                              \
    __device__ __forceinline__ C t_arccos(C z) {                                                  \
        C i = make_##C(0, 1), ni = make_##C(0, -1);                                                      \
        return cmul(ni, clog(cadd(cmul(i, csqrt(csub(make_##C(1, 0), cmul(z, z)))), z)));            \
    }                                                                                              \
    __device__ __forceinline__ C t_arctan(C z) {                                                  \
        if (z.re == 0 && z.im == 1) return make_##C(0, (F)INFINITY);                                  \
        if (z.re == 0 && z.im == -1) return make_##C(0, -(F)INFINITY);                                \
        C i = make_##C(0, 1), one = make_##C(1, 0);                                                      \
        C iz = cmul(i, z);                                                                         \
        return cdiv_plain(csub(clog(cadd(one, iz)), clog(csub(one, iz))), make_##C(0, 2));            \
    }                                                                                              \
    __device__ __forceinline__ C t_arcsinh(C z) {                                                 \
        return clog(cadd(z, csqrt(cadd(make_##C(1, 0), cmul(z, z)))));                                \
    }                                                                                              \
    __device__ __forceinline__ C t_arccosh(C z) {                                                 \
        C one = make_##C(1, 0), two = make_##C(2, 0);                                                    \
        C l = clog(cadd(csqrt(cdiv_plain(cadd(z, one), two)), csqrt(cdiv_plain(csub(z, one), two)))); \
        return cmul(two, l);                                                                       \
    }                                                                                              \
    __device__ __forceinline__ C t_arctanh(C z) {                                                 \
        if (z.re == 1 && z.im == 0) return make_##C((F)INFINITY, 0);                                  \
        if (z.re == -1 && z.im == 0) return make_##C(-(F)INFINITY, 0);                                \
        C one = make_##C(1, 0);                                                                       \
        return cdiv_plain(csub(clog(cadd(one, z)), clog(csub(one, z))), make_##C(2, 0));              \
    }                                                                                              \
    __device__ __forceinline__ C op_rint(C z) { return make_##C(rint##S(z.re), rint##S(z.im)); }      \
    __device__ __forceinline__ bool op_isnan(C z) { return z.re != z.re || z.im != z.im; }         \
    __device__ __forceinline__ bool op_isinf(C z) { return isinf(z.re) || isinf(z.im); }           \
    __device__ __forceinline__ bool op_isfinite(C z) { return isfinite(z.re) && isfinite(z.im); }  \
    __device__ __forceinline__ bool op_logical_not(C z) { return !truthy(z); }                     \
    __device__ __forceinline__ F op_absolute(C z) { return cabs(z); }                              \
    __device__ __forceinline__ F op_real(C z) { return z.re; }                                     \
    __device__ __forceinline__ F op_imag(C z) { return z.im; }
COMPLEX_OPS(c64, float, f, 0.693147180559945309417f, 2.30258509299404568402f)
COMPLEX_OPS(c128, double, , 0.693147180559945309417, 2.30258509299404568402)

// The transcendental functions: c128 by the formulas above, with C99's branch cuts on the real
// axis (where the sign of a zero imaginary part picks the side); c64 computed in c128 and
// rounded, as the cpu does.
__device__ __forceinline__ bool real_beyond_one(c128 z) { return z.im == 0 && fabs(z.re) > 1; }
#define C128_SAME(NAME) __device__ __forceinline__ c128 op_##NAME(c128 z) { return t_##NAME(z); }
C128_SAME(sqrt) C128_SAME(exp) C128_SAME(exp2) C128_SAME(expm1) C128_SAME(log) C128_SAME(log2)
C128_SAME(log10) C128_SAME(log1p) C128_SAME(sin) C128_SAME(cos) C128_SAME(tan) C128_SAME(arctan)
C128_SAME(sinh) C128_SAME(cosh) C128_SAME(tanh) C128_SAME(arcsinh) C128_SAME(arccosh)
__device__ __forceinline__ c128 op_arcsin(c128 z) {
    if (!real_beyond_one(z)) return t_arcsin(z);
    return make_c128(copysign(1.57079632679489661923, z.re), copysign(acosh(fabs(z.re)), z.im));
}
__device__ __forceinline__ c128 op_arccos(c128 z) {
    if (!real_beyond_one(z)) return t_arccos(z);
    return make_c128(z.re > 0 ? 0.0 : 3.14159265358979323846, -copysign(acosh(fabs(z.re)), z.im));
}
__device__ __forceinline__ c128 op_arctanh(c128 z) {
    if (!real_beyond_one(z)) return t_arctanh(z);
    return make_c128(atanh(1 / z.re), copysign(1.57079632679489661923, z.im));
}
#define C64_WIDE(NAME) __device__ __forceinline__ c64 op_##NAME(c64 z) { return cvt<c64>(op_##NAME(cvt<c128>(z))); }
C64_WIDE(sqrt) C64_WIDE(exp) C64_WIDE(exp2) C64_WIDE(expm1) C64_WIDE(log) C64_WIDE(log2)
C64_WIDE(log10) C64_WIDE(log1p) C64_WIDE(sin) C64_WIDE(cos) C64_WIDE(tan) C64_WIDE(arcsin)
C64_WIDE(arccos) C64_WIDE(arctan) C64_WIDE(sinh) C64_WIDE(cosh) C64_WIDE(tanh) C64_WIDE(arcsinh)
C64_WIDE(arccosh) C64_WIDE(arctanh)
