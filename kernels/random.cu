// Random numbers that cuRAND's host API has no generator for (`src/array/random.rs` launches
// them): uniform floats on [0, 1) (cuRAND's are on (0, 1]) scaled to [low, high), exponential,
// integers on [low, high] without modulo bias, Poisson and binomial counts with a parameter per
// element. Element i of a call draws from its own Philox4x32-10 stream (Salmon et al., SC 2011):
// the key is the session's seed (mixed), the counter (i, call, draw), so the numbers depend on the
// seed, the sequence of calls and each call's size, never on the grid.

typedef long long i64;
typedef unsigned long long u64;
typedef unsigned int u32;

#define GRID_STRIDE(i, n)                                                                          \
    for (i64 i = (i64)blockIdx.x * blockDim.x + threadIdx.x; i < (n); i += (i64)blockDim.x * gridDim.x)

// 2^-53 and 2^-24: one unit in the last place of a double and a float in [0, 1).
#define DOUBLE_UNIT (1.0 / 9007199254740992.0)
#define FLOAT_UNIT (1.0f / 16777216.0f)

// ---- the generator ----

__device__ __forceinline__ uint4 philox_round(uint4 c, uint2 k) {
    u32 hi0 = __umulhi(0xD2511F53u, c.x), lo0 = 0xD2511F53u * c.x;
    u32 hi1 = __umulhi(0xCD9E8D57u, c.z), lo1 = 0xCD9E8D57u * c.z;
    return make_uint4(hi1 ^ c.y ^ k.x, lo1, hi0 ^ c.w ^ k.y, lo0);
}

__device__ __forceinline__ uint4 philox(uint4 c, uint2 k) {
    c = philox_round(c, k);
    for (int r = 1; r < 10; ++r) {
        k.x += 0x9E3779B9u;
        k.y += 0xBB67AE85u;
        c = philox_round(c, k);
    }
    return c;
}

// The stream of one element: 32-bit words, four per Philox block.
struct Stream {
    uint4 counter;
    uint2 key;
    uint4 block;
    int left;

    __device__ Stream(u64 key64, u64 call, i64 element) {
        key = make_uint2((u32)key64, (u32)(key64 >> 32));
        counter = make_uint4((u32)element, (u32)((u64)element >> 32), (u32)call, 0u);
        left = 0;
    }

    __device__ __forceinline__ u32 next32() {
        if (left == 0) {
            block = philox(counter, key);
            counter.w += 1;
            left = 4;
        }
        switch (--left) {
        case 3: return block.x;
        case 2: return block.y;
        case 1: return block.z;
        default: return block.w;
        }
    }

    __device__ __forceinline__ u64 next64() {
        u64 hi = next32();
        return (hi << 32) | next32();
    }

    // Uniform on [0, 1): 53 random bits.
    __device__ __forceinline__ double unit() { return (double)(next64() >> 11) * DOUBLE_UNIT; }
};

template <class T> __device__ __forceinline__ T unit_of(Stream &s);
template <> __device__ __forceinline__ double unit_of<double>(Stream &s) { return s.unit(); }
template <> __device__ __forceinline__ float unit_of<float>(Stream &s) {
    return (float)(s.next32() >> 8) * FLOAT_UNIT;
}

// ---- floats ----

// low + span * u, u uniform on [0, 1).
template <class T> __device__ void uniform(T *out, i64 n, T low, T span, u64 key, u64 call) {
    GRID_STRIDE(i, n) {
        Stream s(key, call, i);
        out[i] = low + span * unit_of<T>(s);
    }
}

extern "C" __global__ void uniform_f64(double *out, i64 n, double low, double span, u64 key, u64 call) {
    uniform(out, n, low, span, key, call);
}
extern "C" __global__ void uniform_f32(float *out, i64 n, float low, float span, u64 key, u64 call) {
    uniform(out, n, low, span, key, call);
}

// -scale * log1p(-u): exponential with mean `scale` (u < 1, so the log is finite).
extern "C" __global__ void exponential(double *out, i64 n, double scale, u64 key, u64 call) {
    GRID_STRIDE(i, n) {
        Stream s(key, call, i);
        out[i] = -scale * log1p(-s.unit());
    }
}

// ---- integers ----

// Uniform on [0, span] (span = 2^64 - 1 is every u64), by Lemire's multiply-and-reject: the
// threshold's division is computed only in the rare case that might reject.
__device__ u64 bounded(Stream &s, u64 span) {
    if (span == ~0ull) return s.next64();
    u64 range = span + 1;
    if (range <= 0xffffffffull) {
        u32 r = (u32)range;
        u64 m = (u64)s.next32() * r;
        if ((u32)m < r) {
            u32 threshold = (0u - r) % r;
            while ((u32)m < threshold) m = (u64)s.next32() * r;
        }
        return m >> 32;
    }
    u64 x = s.next64();
    if (x * range < range) {
        u64 threshold = (0ull - range) % range;
        while (x * range < threshold) x = s.next64();
    }
    return __umul64hi(x, range);
}

// Integers on [low, high], both included; `lows`/`highs` (contiguous, n each), when given, hold
// a bound per element. The caller has checked low <= high.
extern "C" __global__ void integers(i64 *out, i64 n, i64 low, i64 high, const i64 *lows, const i64 *highs,
                                    u64 key, u64 call) {
    GRID_STRIDE(i, n) {
        i64 lo = lows ? lows[i] : low, hi = highs ? highs[i] : high;
        Stream s(key, call, i);
        out[i] = (i64)((u64)lo + bounded(s, (u64)hi - (u64)lo));
    }
}

// ---- counts ----

// Poisson, as NumPy's: multiplication of uniforms below 10, else Hörmann's transformed
// rejection with squeeze (PTRS, 1993).
__device__ i64 poisson_sample(Stream &s, double lam) {
    if (lam == 0) return 0;
    if (lam < 10) {
        double limit = exp(-lam), product = s.unit();
        i64 k = 0;
        while (product > limit) {
            k += 1;
            product *= s.unit();
        }
        return k;
    }
    double slam = sqrt(lam), loglam = log(lam);
    double b = 0.931 + 2.53 * slam, a = -0.059 + 0.02483 * b;
    double invalpha = 1.1239 + 1.1328 / (b - 3.4), vr = 0.9277 - 3.6224 / (b - 2);
    for (;;) {
        double u = s.unit() - 0.5, v = s.unit();
        double us = 0.5 - fabs(u);
        double k = floor((2 * a / us + b) * u + lam + 0.43);
        if (us >= 0.07 && v <= vr) return (i64)k;
        if (k < 0 || (us < 0.013 && v > us)) continue;
        if (log(v) + log(invalpha) - log(a / (us * us) + b) <= -lam + k * loglam - lgamma(k + 1)) return (i64)k;
    }
}

// Binomial with p <= 1/2 and n p <= 30, by inversion (NumPy's).
__device__ i64 binomial_inversion(Stream &s, i64 n, double p) {
    double q = 1 - p, qn = exp(n * log(q)), np = n * p;
    double bound = fmin((double)n, np + 10 * sqrt(np * q + 1));
    i64 k = 0;
    double px = qn, u = s.unit();
    while (u > px) {
        k += 1;
        if (k > bound) {
            k = 0;
            px = qn;
            u = s.unit();
        } else {
            u -= px;
            px = ((n - k + 1) * p * px) / (k * q);
        }
    }
    return k;
}

// Binomial with p <= 1/2 and n p > 30: Hörmann's transformed rejection with squeeze (BTRS, 1993).
__device__ i64 binomial_btrs(Stream &s, i64 n, double p) {
    double q = 1 - p, spq = sqrt(n * p * q);
    double b = 1.15 + 2.53 * spq, a = -0.0873 + 0.0248 * b + 0.01 * p, c = n * p + 0.5;
    double alpha = (2.83 + 5.1 / b) * spq, vr = 0.92 - 4.2 / b, lpq = log(p / q);
    double m = floor((n + 1) * p), h = lgamma(m + 1) + lgamma(n - m + 1);
    for (;;) {
        double u = s.unit() - 0.5, v = s.unit();
        double us = 0.5 - fabs(u);
        double k = floor((2 * a / us + b) * u + c);
        if (k < 0 || k > n) continue;
        if (us >= 0.07 && v <= vr) return (i64)k;
        if (log(v * alpha / (a / (us * us) + b)) <= h - lgamma(k + 1) - lgamma(n - k + 1) + (k - m) * lpq)
            return (i64)k;
    }
}

__device__ i64 binomial_sample(Stream &s, i64 n, double p) {
    if (n == 0 || p == 0) return 0;
    if (p == 1) return n;
    double low = p <= 0.5 ? p : 1 - p;
    i64 k = n * low <= 30 ? binomial_inversion(s, n, low) : binomial_btrs(s, n, low);
    return p <= 0.5 ? k : n - k;
}

// Counts with one parameter for all (`lam`) or one per element (`lams`, contiguous, when given).
extern "C" __global__ void poisson(i64 *out, i64 n, double lam, const double *lams, u64 key, u64 call) {
    GRID_STRIDE(i, n) {
        Stream s(key, call, i);
        out[i] = poisson_sample(s, lams ? lams[i] : lam);
    }
}

extern "C" __global__ void binomial(i64 *out, i64 n, i64 trials, const i64 *trials_each, double p,
                                    const double *p_each, u64 key, u64 call) {
    GRID_STRIDE(i, n) {
        Stream s(key, call, i);
        out[i] = binomial_sample(s, trials_each ? trials_each[i] : trials, p_each ? p_each[i] : p);
    }
}
