// The complex and float16 types of kernels the user writes, named as CuPy's headers name them
// (`complex<double>`, `complex<float>`, `float16`), after elementwise.cuh: their arithmetic and
// functions are the engine's `op_*`, so a user kernel computes as arr's own operations do (but
// for complex<float>'s transcendental functions, below).
// Default construction gives zero; `__shared__` arrays of them are fine (see the reductions).

// The real types, and what a float16 with each computes to: float16 with an integer or bool (as
// NumPy's `h * 2`), else the wider float.
struct float16;
template <class T> struct real_with_half {};
#define REAL_WITH_HALF(T, R) template <> struct real_with_half<T> { typedef R type; };
REAL_WITH_HALF(bool, float16) REAL_WITH_HALF(i8, float16) REAL_WITH_HALF(u8, float16)
REAL_WITH_HALF(i16, float16) REAL_WITH_HALF(u16, float16) REAL_WITH_HALF(i32, float16)
REAL_WITH_HALF(u32, float16) REAL_WITH_HALF(i64, float16) REAL_WITH_HALF(u64, float16)
REAL_WITH_HALF(long, float16) REAL_WITH_HALF(unsigned long, float16)
REAL_WITH_HALF(float16, float16) REAL_WITH_HALF(float, float) REAL_WITH_HALF(double, double)
#undef REAL_WITH_HALF

// float16: stored as its 16 bits, computed in float and rounded after each operation, as
// NumPy's half loops (and arr's) compute.
struct float16 {
    u16 bits;
    __device__ float16() : bits(0) {}
    __device__ float16(float value) : bits(f2h(value)) {}
    __device__ float16(double value) : bits(d2h(value)) {}
    // Integers and bool go through float, as arr's casts do.
    template <class I, class = typename real_with_half<I>::type>
    __device__ float16(I value) : bits(f2h((float)value)) {}
    __device__ operator float() const { return h2f(bits); }

    friend __device__ float16 operator+(float16 a, float16 b) { return float(a) + float(b); }
    friend __device__ float16 operator-(float16 a, float16 b) { return float(a) - float(b); }
    friend __device__ float16 operator*(float16 a, float16 b) { return float(a) * float(b); }
    friend __device__ float16 operator/(float16 a, float16 b) { return float(a) / float(b); }
    friend __device__ bool operator==(float16 a, float16 b) { return float(a) == float(b); }
    friend __device__ bool operator!=(float16 a, float16 b) { return float(a) != float(b); }
    friend __device__ bool operator<(float16 a, float16 b) { return float(a) < float(b); }
    friend __device__ bool operator<=(float16 a, float16 b) { return float(a) <= float(b); }
    friend __device__ bool operator>(float16 a, float16 b) { return float(a) > float(b); }
    friend __device__ bool operator>=(float16 a, float16 b) { return float(a) >= float(b); }
    friend __device__ float16 operator-(float16 a) { float16 h; h.bits = a.bits ^ 0x8000; return h; }
    friend __device__ float16 operator+(float16 a) { return a; }
    __device__ float16& operator+=(float16 b) { return *this = *this + b; }
    __device__ float16& operator-=(float16 b) { return *this = *this - b; }
    __device__ float16& operator*=(float16 b) { return *this = *this * b; }
    __device__ float16& operator/=(float16 b) { return *this = *this / b; }
};

// A float16 with another real type (comparisons are exact, in double): without these, `h * 2.0`
// would match both float16's operator and the built-in one, and not compile.
#define FLOAT16_WITH(OP, RESULT, R)                                                                \
    template <class T, class = typename real_with_half<T>::type>                                   \
    __device__ RESULT operator OP(float16 a, T b) { return (R)(float)a OP (R)b; }                  \
    template <class T, class = typename real_with_half<T>::type>                                   \
    __device__ RESULT operator OP(T a, float16 b) { return (R)a OP (R)(float)b; }
#define FLOAT16_ARITHMETIC(OP) FLOAT16_WITH(OP, typename real_with_half<T>::type, typename real_with_half<T>::type)
#define FLOAT16_COMPARISON(OP) FLOAT16_WITH(OP, bool, double)
FLOAT16_ARITHMETIC(+) FLOAT16_ARITHMETIC(-) FLOAT16_ARITHMETIC(*) FLOAT16_ARITHMETIC(/)
FLOAT16_COMPARISON(==) FLOAT16_COMPARISON(!=) FLOAT16_COMPARISON(<) FLOAT16_COMPARISON(<=)
FLOAT16_COMPARISON(>) FLOAT16_COMPARISON(>=)
#undef FLOAT16_ARITHMETIC
#undef FLOAT16_COMPARISON
#undef FLOAT16_WITH

template <class F> struct complex_register;
template <> struct complex_register<float> { typedef c64 type; };
template <> struct complex_register<double> { typedef c128 type; };

template <class F> struct alignas(2 * sizeof(F)) complex {
    typedef typename complex_register<F>::type reg;
    F re, im;
    __device__ complex() : re(0), im(0) {}
    __device__ complex(F real_part, F imag_part = 0) : re(real_part), im(imag_part) {}
    // Integers, bool and float16 become the real part; the other precision converts.
    template <class U, class = typename real_with_half<U>::type>
    __device__ complex(const U& real_part) : re((F)real_part), im(0) {}
    template <class G> __device__ complex(const complex<G>& z) : re((F)z.re), im((F)z.im) {}
    __device__ complex(reg z) : re(z.re), im(z.im) {}
    __device__ reg r() const { return make_complex(re, im); }
    __device__ F real() const { return re; }
    __device__ F imag() const { return im; }
    __device__ void real(F value) { re = value; }
    __device__ void imag(F value) { im = value; }

    friend __device__ complex operator+(const complex& a, const complex& b) { return op_add(a.r(), b.r()); }
    friend __device__ complex operator-(const complex& a, const complex& b) { return op_subtract(a.r(), b.r()); }
    friend __device__ complex operator*(const complex& a, const complex& b) { return op_multiply(a.r(), b.r()); }
    friend __device__ complex operator/(const complex& a, const complex& b) { return op_divide(a.r(), b.r()); }
    friend __device__ bool operator==(const complex& a, const complex& b) { return op_equal(a.r(), b.r()); }
    friend __device__ bool operator!=(const complex& a, const complex& b) { return op_not_equal(a.r(), b.r()); }
    friend __device__ complex operator-(const complex& a) { return op_negative(a.r()); }
    friend __device__ complex operator+(const complex& a) { return a; }
    __device__ complex& operator+=(const complex& b) { return *this = *this + b; }
    __device__ complex& operator-=(const complex& b) { return *this = *this - b; }
    __device__ complex& operator*=(const complex& b) { return *this = *this * b; }
    __device__ complex& operator/=(const complex& b) { return *this = *this / b; }

  private:
    static __device__ reg make_complex(float a, float b) { return make_c64(a, b); }
    static __device__ reg make_complex(double a, double b) { return make_c128(a, b); }
};

template <class F> __device__ F real(const complex<F>& z) { return z.re; }
template <class F> __device__ F imag(const complex<F>& z) { return z.im; }
template <class F> __device__ F abs(const complex<F>& z) { return op_absolute(z.r()); }
template <class F> __device__ F arg(const complex<F>& z) { return atan2(z.im, z.re); }
template <class F> __device__ F norm(const complex<F>& z) { return z.re * z.re + z.im * z.im; }
template <class F> __device__ complex<F> conj(const complex<F>& z) { return op_conjugate(z.r()); }
template <class F> __device__ complex<F> polar(F radius, F angle = 0) { return complex<F>(radius * cos(angle), radius * sin(angle)); }
template <class F> __device__ complex<F> pow(const complex<F>& a, const complex<F>& b) { return op_power(a.r(), b.r()); }
template <class F, class U> __device__ complex<F> pow(const complex<F>& a, const U& b) { return pow(a, complex<F>(b)); }
template <class F, class U> __device__ complex<F> pow(const U& a, const complex<F>& b) { return pow(complex<F>(a), b); }
// complex<float>'s transcendental functions compute in float, as CuPy's complex<float> does: a
// user kernel has no cpu side to agree with, and arr's own c64 functions (computed in c128 and
// rounded, for that agreement) took a user kernel of complex64 math to 1.35-1.6x CuPy's time.
// The inverse functions with branch cuts on the real axis keep arr's (C99's cuts).
#define USER_COMPLEX_FUNCTION(NAME, FLOAT_FORMULA, OP)                                             \
    __device__ __forceinline__ c64 user_##NAME(c64 z) { return FLOAT_FORMULA(z); }                 \
    __device__ __forceinline__ c128 user_##NAME(c128 z) { return op_##OP(z); }                     \
    template <class F> __device__ complex<F> NAME(const complex<F>& z) { return user_##NAME(z.r()); }
// exp takes one sincosf for both parts (sinf and cosf each reduce the angle): measured 1.15x
// faster on a kernel of complex64 math. Special values take the general formula.
__device__ __forceinline__ c64 t_exp_sincos(c64 z) {
    if (!isfinite(z.re) || !isfinite(z.im)) return t_exp(z);
    float s, c;
    sincosf(z.im, &s, &c);
    const float e = expf(z.re);
    return make_c64(e * c, e * s);
}
USER_COMPLEX_FUNCTION(exp, t_exp_sincos, exp) USER_COMPLEX_FUNCTION(log, t_log, log)
USER_COMPLEX_FUNCTION(log10, t_log10, log10) USER_COMPLEX_FUNCTION(sqrt, t_sqrt, sqrt)
USER_COMPLEX_FUNCTION(sin, t_sin, sin) USER_COMPLEX_FUNCTION(cos, t_cos, cos)
USER_COMPLEX_FUNCTION(tan, t_tan, tan) USER_COMPLEX_FUNCTION(sinh, t_sinh, sinh)
USER_COMPLEX_FUNCTION(cosh, t_cosh, cosh) USER_COMPLEX_FUNCTION(tanh, t_tanh, tanh)
USER_COMPLEX_FUNCTION(atan, t_arctan, arctan) USER_COMPLEX_FUNCTION(asinh, t_arcsinh, arcsinh)
USER_COMPLEX_FUNCTION(acosh, t_arccosh, arccosh) USER_COMPLEX_FUNCTION(asin, op_arcsin, arcsin)
USER_COMPLEX_FUNCTION(acos, op_arccos, arccos) USER_COMPLEX_FUNCTION(atanh, op_arctanh, arctanh)
#undef USER_COMPLEX_FUNCTION
// complex<float> divided by a real divides each part, as CuPy's (thrust's) complex<float> does;
// arr's division promotes the divisor to complex, as NumPy's (Smith's method: a reciprocal and six
// more operations), which measured 1.2x slower on a kernel of complex64 math. A double divisor
// keeps arr's division: CuPy's would compute in double.
template <class F, class U> struct divided_in_parts {};
template <class U> struct divided_in_parts<float, U> : real_with_half<U> {};
template <> struct divided_in_parts<float, double> {};
template <class F, class U, class = typename divided_in_parts<F, U>::type>
__device__ complex<F> operator/(const complex<F>& a, const U& b) {
    const F d = (F)b;
    return complex<F>(a.re / d, a.im / d);
}
