// Elementwise kernels: out[i] = f(a[i], b[i]) over a broadcast shape, computed in type C and stored
// in the output's dtype. The op codes match `src/device/gpu/abi.rs`.

enum BinaryOp {
    OP_ADD, OP_SUB, OP_MUL, OP_DIV, OP_MOD, OP_POW, OP_MAX, OP_MIN,
    OP_EQ, OP_NE, OP_LT, OP_LE, OP_GT, OP_GE, OP_OR, OP_AND, OP_SECOND
};

enum UnaryOp {
    U_NEG, U_ABS, U_SQRT, U_EXP, U_LOG, U_LOG2, U_LOG10, U_SIN, U_COS, U_TAN, U_TANH,
    U_FLOOR, U_CEIL, U_ROUND, U_SIGN, U_ISNAN, U_ISINF, U_NOT, U_IDENTITY
};

template <typename C> __device__ __forceinline__ C mod_op(C a, C b) {
    C r = fmod(a, b);
    if (r != (C)0 && ((r < (C)0) != (b < (C)0))) r += b;
    return r;
}
template <> __device__ __forceinline__ long long mod_op<long long>(long long a, long long b) {
    if (b == 0) return 0;
    if (b == -1) return 0;
    long long r = a % b;
    if (r != 0 && ((r < 0) != (b < 0))) r += b;
    return r;
}
template <> __device__ __forceinline__ bool mod_op<bool>(bool a, bool b) { return false; }

template <typename C> __device__ __forceinline__ C pow_op(C a, C b) { return pow(a, b); }
template <> __device__ __forceinline__ long long pow_op<long long>(long long a, long long b) {
    unsigned long long result = 1, base = (unsigned long long)a;
    if (b < 0) return 0;
    while (b > 0) {
        if (b & 1) result *= base;
        base *= base;
        b >>= 1;
    }
    return (long long)result;
}
template <> __device__ __forceinline__ bool pow_op<bool>(bool a, bool b) { return a || !b; }

template <typename C> __device__ __forceinline__ C max_op(C a, C b) {
    if (is_nan(a)) return a;
    if (is_nan(b)) return b;
    return a > b ? a : b;
}
template <typename C> __device__ __forceinline__ C min_op(C a, C b) {
    if (is_nan(a)) return a;
    if (is_nan(b)) return b;
    return a < b ? a : b;
}

// Wrapping integer arithmetic, as NumPy's int64 does (signed overflow is undefined in C++).
template <typename C> __device__ __forceinline__ C add_op(C a, C b) { return a + b; }
template <> __device__ __forceinline__ long long add_op<long long>(long long a, long long b) {
    return (long long)((unsigned long long)a + (unsigned long long)b);
}
template <> __device__ __forceinline__ bool add_op<bool>(bool a, bool b) { return a || b; }
template <typename C> __device__ __forceinline__ C sub_op(C a, C b) { return a - b; }
template <> __device__ __forceinline__ long long sub_op<long long>(long long a, long long b) {
    return (long long)((unsigned long long)a - (unsigned long long)b);
}
template <> __device__ __forceinline__ bool sub_op<bool>(bool a, bool b) { return a != b; }
template <typename C> __device__ __forceinline__ C mul_op(C a, C b) { return a * b; }
template <> __device__ __forceinline__ long long mul_op<long long>(long long a, long long b) {
    return (long long)((unsigned long long)a * (unsigned long long)b);
}
template <> __device__ __forceinline__ bool mul_op<bool>(bool a, bool b) { return a && b; }
template <typename C> __device__ __forceinline__ C div_op(C a, C b) { return a / b; }
template <> __device__ __forceinline__ long long div_op<long long>(long long a, long long b) {
    return b == 0 ? 0 : a / b;
}
template <> __device__ __forceinline__ bool div_op<bool>(bool a, bool b) { return a; }

// Returns the result as C, or (for comparisons) 0/1; `store` converts to the output dtype.
template <typename C> __device__ __forceinline__ C apply_binary(int op, C a, C b) {
    switch (op) {
    case OP_ADD: return add_op(a, b);
    case OP_SUB: return sub_op(a, b);
    case OP_MUL: return mul_op(a, b);
    case OP_DIV: return div_op(a, b);
    case OP_MOD: return mod_op(a, b);
    case OP_POW: return pow_op(a, b);
    case OP_MAX: return max_op(a, b);
    case OP_MIN: return min_op(a, b);
    case OP_EQ: return (C)(a == b);
    case OP_NE: return (C)(a != b);
    case OP_LT: return (C)(a < b);
    case OP_LE: return (C)(a <= b);
    case OP_GT: return (C)(a > b);
    case OP_GE: return (C)(a >= b);
    case OP_OR: return (C)((a != (C)0) || (b != (C)0));
    case OP_AND: return (C)((a != (C)0) && (b != (C)0));
    default: return b;
    }
}

// Comparisons must be stored as 0/1 even when C is a float and NaN is involved; apply_binary
// already yields exactly 0 or 1 for them.
#define BINARY_KERNEL(C, NAME)                                                                     \
    extern "C" __global__ void NAME(Shape shape, Operand out, Operand a, Operand b, int op) {     \
        GRID_STRIDE(i, shape.size) {                                                               \
            C x = load<C>(a, offset_of(a, shape, i));                                             \
            C y = load<C>(b, offset_of(b, shape, i));                                             \
            store<C>(out, offset_of(out, shape, i), apply_binary<C>(op, x, y));                   \
        }                                                                                          \
    }

BINARY_KERNEL(bool, binary_bool)
BINARY_KERNEL(long long, binary_i64)
BINARY_KERNEL(float, binary_f32)
BINARY_KERNEL(double, binary_f64)

// Same-dtype contiguous fast path for `out = a op b` with b an array or an immediate scalar:
// the hot loop of `x *= 5`, `x *= x` and `y[:] = x`, with no per-element dtype or layout
// switches. Each thread loads four elements before it stores any, so enough loads are in
// flight to saturate memory (out may be a itself: each element is read and written by one
// thread, read first).
template <typename C, typename F>
__device__ __forceinline__ void dense_loop(C *out, const C *a, const C *b, C scalar, long long n,
                                           F f) {
    long long stride = (long long)blockDim.x * gridDim.x;
    long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;
    for (; i + 3 * stride < n; i += 4 * stride) {
        C x0 = a[i], x1 = a[i + stride], x2 = a[i + 2 * stride], x3 = a[i + 3 * stride];
        C y0 = scalar, y1 = scalar, y2 = scalar, y3 = scalar;
        if (b) {
            y0 = b[i];
            y1 = b[i + stride];
            y2 = b[i + 2 * stride];
            y3 = b[i + 3 * stride];
        }
        out[i] = f(x0, y0);
        out[i + stride] = f(x1, y1);
        out[i + 2 * stride] = f(x2, y2);
        out[i + 3 * stride] = f(x3, y3);
    }
    for (; i < n; i += stride) out[i] = f(a[i], b ? b[i] : scalar);
}

template <typename C> struct AddF { __device__ C operator()(C x, C y) const { return add_op(x, y); } };
template <typename C> struct SubF { __device__ C operator()(C x, C y) const { return sub_op(x, y); } };
template <typename C> struct MulF { __device__ C operator()(C x, C y) const { return mul_op(x, y); } };
template <typename C> struct DivF { __device__ C operator()(C x, C y) const { return div_op(x, y); } };
template <typename C> struct SecondF { __device__ C operator()(C, C y) const { return y; } };

#define DENSE_KERNEL(C, NAME)                                                                      \
    extern "C" __global__ void NAME(C *out, const C *a, const C *b, C scalar, long long n,        \
                                    int op) {                                                      \
        switch (op) {                                                                              \
        case OP_ADD: dense_loop(out, a, b, scalar, n, AddF<C>()); break;                           \
        case OP_SUB: dense_loop(out, a, b, scalar, n, SubF<C>()); break;                           \
        case OP_MUL: dense_loop(out, a, b, scalar, n, MulF<C>()); break;                           \
        case OP_DIV: dense_loop(out, a, b, scalar, n, DivF<C>()); break;                           \
        default: dense_loop(out, a, b, scalar, n, SecondF<C>()); break;                            \
        }                                                                                          \
    }

DENSE_KERNEL(bool, dense_bool)
DENSE_KERNEL(long long, dense_i64)
DENSE_KERNEL(float, dense_f32)
DENSE_KERNEL(double, dense_f64)

// A constant fill of a contiguous buffer (`zeros`, `ones`, `full`).
#define FILL_KERNEL(C, NAME)                                                                       \
    extern "C" __global__ void NAME(C *out, C value, long long n) { GRID_STRIDE(i, n) out[i] = value; }

FILL_KERNEL(bool, fill_bool)
FILL_KERNEL(long long, fill_i64)
FILL_KERNEL(float, fill_f32)
FILL_KERNEL(double, fill_f64)

template <typename C> __device__ __forceinline__ C round_half_even(C x) { return rint(x); }

template <typename C> __device__ __forceinline__ C apply_unary(int op, C x) {
    switch (op) {
    case U_NEG: return -x;
    case U_ABS: return x < (C)0 ? -x : x;
    case U_SQRT: return sqrt(x);
    case U_EXP: return exp(x);
    case U_LOG: return log(x);
    case U_LOG2: return log2(x);
    case U_LOG10: return log10(x);
    case U_SIN: return sin(x);
    case U_COS: return cos(x);
    case U_TAN: return tan(x);
    case U_TANH: return tanh(x);
    case U_FLOOR: return floor(x);
    case U_CEIL: return ceil(x);
    case U_ROUND: return round_half_even(x);
    case U_SIGN: return (is_nan(x) || x == (C)0) ? x : (x > (C)0 ? (C)1 : (C)-1);
    case U_ISNAN: return (C)is_nan(x);
    case U_ISINF: return (C)(isinf(x) != 0);
    case U_NOT: return (C)(x == (C)0);
    default: return x;
    }
}

template <> __device__ __forceinline__ long long apply_unary<long long>(int op, long long x) {
    switch (op) {
    case U_NEG: return (long long)(0ULL - (unsigned long long)x);
    case U_ABS: return x < 0 ? (long long)(0ULL - (unsigned long long)x) : x;
    case U_SIGN: return (x > 0) - (x < 0);
    case U_NOT: return x == 0;
    default: return x;
    }
}

template <> __device__ __forceinline__ bool apply_unary<bool>(int op, bool x) {
    return op == U_NOT ? !x : x;
}

#define UNARY_KERNEL(C, NAME)                                                                      \
    extern "C" __global__ void NAME(Shape shape, Operand out, Operand a, int op) {                \
        GRID_STRIDE(i, shape.size) {                                                               \
            C x = load<C>(a, offset_of(a, shape, i));                                             \
            store<C>(out, offset_of(out, shape, i), apply_unary<C>(op, x));                       \
        }                                                                                          \
    }

UNARY_KERNEL(bool, unary_bool)
UNARY_KERNEL(long long, unary_i64)
UNARY_KERNEL(float, unary_f32)
UNARY_KERNEL(double, unary_f64)

#define WHERE_KERNEL(C, NAME)                                                                      \
    extern "C" __global__ void NAME(Shape shape, Operand out, Operand cond, Operand a, Operand b) { \
        GRID_STRIDE(i, shape.size) {                                                               \
            bool c = load<bool>(cond, offset_of(cond, shape, i));                                 \
            C v = c ? load<C>(a, offset_of(a, shape, i)) : load<C>(b, offset_of(b, shape, i));    \
            store<C>(out, offset_of(out, shape, i), v);                                            \
        }                                                                                          \
    }

WHERE_KERNEL(bool, where_bool)
WHERE_KERNEL(long long, where_i64)
WHERE_KERNEL(float, where_f32)
WHERE_KERNEL(double, where_f64)

// randint: maps cuRAND's uniform doubles in (0, 1] to integers in [low, low + span).
extern "C" __global__ void randint_from_uniform(long long *out, const double *uniform, long long low,
                                                long long span, long long n) {
    GRID_STRIDE(i, n) {
        long long k = (long long)((1.0 - uniform[i]) * (double)span);
        if (k >= span) k = span - 1;
        out[i] = low + k;
    }
}
