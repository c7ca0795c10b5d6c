// Sorting along the last axis, argsort, searchsorted and bincount (`src/array/gpu_sort.rs`
// launches them).
//
// Sorting is an LSD radix sort over order-preserving unsigned keys, 8 bits (one digit) per pass,
// one kernel per pass in the "onesweep" style (Adinets & Merrill, 2022): a histogram kernel first
// counts every pass's digits in one read of the input and turns the counts into each digit's
// global start; then each pass kernel takes tiles in launch order (a ticket), ranks its tile's
// keys stably by digit (warp-striped loads; a warp finds the lanes that share a digit through bit masks
// in shared memory), publishes its digit
// counts and finds the counts of all earlier tiles by decoupled look-back, and scatters through
// shared memory so that the stores of a digit's run are contiguous. Argsort moves (key, i64
// position) pairs. Rows of an n-d array are sorted together: after the key passes, stable passes
// over the digits of the row (position / row length) order the result by (row, key).
//
// Keys: unsigned as they are; signed with the sign bit flipped; floats with the sign bit flipped
// for positives and all bits for negatives, NaN last; complex lexicographic (real, then imaginary)
// in NumPy's extended order (R + Rj, R + nanj, nan + Rj, nan + nanj), as two words. Descending
// inverts every bit of the key, which keeps equal keys in their order and puts NaN first.
// "Canonical" keys (argsort, searchsorted) make -0.0 and 0.0 one key and every NaN one key, so a
// stable order is NumPy's; a sort of values keeps the keys one-to-one, so its output has the very
// bits of the input (-0.0 sorts just before 0.0; a NaN with the sign bit set comes out positive).
//
// The argument structs match `src/array/gpu_sort.rs` field for field.

typedef long long i64;
typedef unsigned long long u64;
typedef unsigned int u32;
typedef unsigned short u16;
typedef unsigned char u8;

#define GRID_STRIDE(i, n)                                                                          \
    for (i64 i = (i64)blockIdx.x * blockDim.x + threadIdx.x; i < (n); i += (i64)blockDim.x * gridDim.x)

#define FULL_MASK 0xffffffffu
#define DIGITS 256

// Two-word keys (complex): `hi` is the more significant word. Read from memory, a complex
// element is {real bits, imaginary bits}, which `encode` turns into a key.
struct __align__(8) W32 {
    u32 lo, hi;
};
struct __align__(16) W64 {
    u64 lo, hi;
};

// ---- keys ----

enum { KIND_UNSIGNED = 0, KIND_SIGNED = 1, KIND_FLOAT = 2, KIND_COMPLEX = 3 };
enum { FLAG_DESCENDING = 1, FLAG_CANONICAL = 2 };

// The sign bit and the bits of +inf for the float of each width (u8 has no float).
template <class K> struct Bits {};
template <> struct Bits<u8> {
    static constexpr u8 SIGN = 0x80, INF = 0xff;
};
template <> struct Bits<u16> {
    static constexpr u16 SIGN = 0x8000, INF = 0x7c00;
};
template <> struct Bits<u32> {
    static constexpr u32 SIGN = 0x80000000u, INF = 0x7f800000u;
};
template <> struct Bits<u64> {
    static constexpr u64 SIGN = 0x8000000000000000ull, INF = 0x7ff0000000000000ull;
};

template <class K> __device__ __forceinline__ bool nan_bits(K b) {
    return (K)(b & (K)~Bits<K>::SIGN) > Bits<K>::INF;
}

template <class K> __device__ __forceinline__ K float_key(K b, bool canonical) {
    const K sign = Bits<K>::SIGN;
    const K magnitude = (K)(b & (K)~sign);
    if (magnitude > Bits<K>::INF) return canonical ? (K)~(K)0 : (K)(magnitude | sign);
    if (canonical && magnitude == 0) return sign;
    return (b & sign) ? (K)~b : (K)(b | sign);
}

template <class K> __device__ __forceinline__ K encode(K b, int kind, int flags) {
    K k = b;
    if (kind == KIND_SIGNED) k = (K)(b ^ Bits<K>::SIGN);
    else if (kind == KIND_FLOAT) k = float_key(b, (flags & FLAG_CANONICAL) != 0);
    return (flags & FLAG_DESCENDING) ? (K)~k : k;
}

// Complex keys are always canonical (complex values are sorted through argsort).
template <class W, class C> __device__ __forceinline__ W complex_key(W raw, int flags) {
    const C re = raw.lo, im = raw.hi, top = (C)~(C)0;
    const bool re_nan = nan_bits(re), im_nan = nan_bits(im);
    W k;
    if (!re_nan && !im_nan) {
        k.hi = float_key(re, true);
        k.lo = float_key(im, true);
    } else if (!re_nan) {
        k.hi = top - 2;
        k.lo = float_key(re, true);
    } else if (!im_nan) {
        k.hi = top - 1;
        k.lo = float_key(im, true);
    } else {
        k.hi = top;
        k.lo = top;
    }
    if (flags & FLAG_DESCENDING) {
        k.hi = ~k.hi;
        k.lo = ~k.lo;
    }
    return k;
}
__device__ __forceinline__ W32 encode(W32 raw, int, int flags) { return complex_key<W32, u32>(raw, flags); }
__device__ __forceinline__ W64 encode(W64 raw, int, int flags) { return complex_key<W64, u64>(raw, flags); }

// The inverse of a one-to-one `encode` (real kinds).
template <class K> __device__ __forceinline__ K decode(K k, int kind, int flags) {
    if (flags & FLAG_DESCENDING) k = (K)~k;
    if (kind == KIND_SIGNED) return (K)(k ^ Bits<K>::SIGN);
    if (kind == KIND_FLOAT) return (k & Bits<K>::SIGN) ? (K)(k ^ Bits<K>::SIGN) : (K)~k;
    return k;
}
__device__ __forceinline__ W32 decode(W32 k, int, int) { return k; }
__device__ __forceinline__ W64 decode(W64 k, int, int) { return k; }

template <class K> __device__ __forceinline__ u32 digit_of(K k, int shift) {
    return (u32)(k >> shift) & 255u;
}
__device__ __forceinline__ u32 digit_of(W32 k, int shift) {
    return shift < 32 ? (k.lo >> shift) & 255u : (k.hi >> (shift - 32)) & 255u;
}
__device__ __forceinline__ u32 digit_of(W64 k, int shift) {
    return (u32)(shift < 64 ? k.lo >> shift : k.hi >> (shift - 64)) & 255u;
}

template <class K> __device__ __forceinline__ bool key_less(K a, K b) { return a < b; }
__device__ __forceinline__ bool key_less(W32 a, W32 b) { return a.hi < b.hi || (a.hi == b.hi && a.lo < b.lo); }
__device__ __forceinline__ bool key_less(W64 a, W64 b) { return a.hi < b.hi || (a.hi == b.hi && a.lo < b.lo); }

// p / len for 0 <= p < 2^52, through a double and one correction (no 64-bit division).
__device__ __forceinline__ i64 row_of(i64 p, i64 len, double inverse_len) {
    i64 r = (i64)((double)p * inverse_len);
    if (r * len > p) --r;
    else if ((r + 1) * len <= p) ++r;
    return r;
}

// ---- radix sort ----

// Threads of a pass kernel over key-value pairs (those over keys alone are set per key width
// below).
#define PAIR_THREADS 512
// Look-back words read at once: the walk back over earlier tiles waits for memory once per
// group of them, not once per tile.
#define LOOKBACK 4
#define HIST_BLOCK 256
#define HIST_ITEMS 4

// Look-back words: a flag in the top two bits, the pass in the next six, a count below. Every pass
// uses one array (zeroed by the histogram kernel): a word left by an earlier pass has another pass
// number, so it reads as not yet written.
#define AGGREGATE (1ull << 62)
#define INCLUSIVE (1ull << 63)
#define PASS_SHIFT 56
#define PASS_MASK (63ull << PASS_SHIFT)
#define COUNT_MASK ((1ull << PASS_SHIFT) - 1)

enum { IN_RAW = 0, IN_ENCODE = 1, IN_INDEX = 2 };
enum { OUT_NONE = 0, OUT_RAW = 1, OUT_DECODE = 2, OUT_COLUMN = 3 };

// One pass. The ranked stream (`r_*`) holds the words whose digit orders this pass: keys, or the
// i64 flat positions in the row passes of argsort. Pair kernels also move an i64 value stream.
struct PassArgs {
    const void *r_in;
    void *r_out;        // OUT_NONE: not stored
    const i64 *v_in;    // IN_INDEX: the values are the flat positions, generated here
    i64 *v_out;
    const u64 *offsets; // this pass's 256 digit starts (from the histogram kernel)
    u64 *status;        // look-back words, tiles × 256
    u64 *ticket;        // this pass's tile counter
    i64 n;
    i64 len;            // row length
    double inverse_len;
    int pass;           // the pass number, in the look-back words
    int shift;          // the digit's lowest bit
    int row_digit;      // 1: the digit is of the row of a ranked position, not of a key
    int r_in_mode, r_out_mode, v_in_mode, v_out_mode;
    int kind, flags;
};

template <class R> __device__ __forceinline__ u32 pass_digit(R k, const PassArgs &a) {
    return digit_of(k, a.shift);
}
__device__ __forceinline__ u32 pass_digit(u64 k, const PassArgs &a) {
    if (a.row_digit) return (u32)((u64)row_of((i64)k, a.len, a.inverse_len) >> a.shift) & 255u;
    return digit_of(k, a.shift);
}

__device__ __forceinline__ i64 column_of(i64 p, const PassArgs &a) {
    return p - row_of(p, a.len, a.inverse_len) * a.len;
}
template <class R> __device__ __forceinline__ R stored(R k, const PassArgs &a) {
    return a.r_out_mode == OUT_DECODE ? decode(k, a.kind, a.flags) : k;
}
__device__ __forceinline__ u64 stored(u64 k, const PassArgs &a) {
    if (a.r_out_mode == OUT_COLUMN) return (u64)column_of((i64)k, a);
    return a.r_out_mode == OUT_DECODE ? decode(k, a.kind, a.flags) : k;
}

// Exclusive sum over the first 256 threads' `x` (the others pass 0); every thread of the block
// calls it.
__device__ __forceinline__ u32 exclusive_scan_digits(u32 x, u32 *sums) {
    const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
    u32 inclusive = x;
#pragma unroll
    for (int o = 1; o < 32; o <<= 1) {
        const u32 y = __shfl_up_sync(FULL_MASK, inclusive, o);
        if (lane >= o) inclusive += y;
    }
    if (lane == 31 && warp < DIGITS / 32) sums[warp] = inclusive;
    __syncthreads();
    u32 base = 0;
    for (int w = 0; w < warp && w < DIGITS / 32; ++w) base += sums[w];
    return base + inclusive - x;
}

// One onesweep pass over tiles of BLOCK × ITEMS items.
template <class R, bool PAIRS, int ITEMS, int BLOCK> __device__ __forceinline__ void radix_pass(const PassArgs &a) {
    constexpr int WARPS = BLOCK / 32, PADDED_WARPS = WARPS + 1;
    constexpr int TILE = BLOCK * ITEMS;
    constexpr int MOVED = (PAIRS && sizeof(R) < 8) ? 8 : (int)sizeof(R);
    constexpr int EXCHANGE = TILE * MOVED;
    constexpr int COUNTERS = DIGITS * PADDED_WARPS * 4;
    constexpr int MASKS = WARPS * DIGITS * 4;
    constexpr int BYTES = EXCHANGE > COUNTERS + MASKS ? EXCHANGE : COUNTERS + MASKS;
    static_assert(TILE <= 0xffff, "tile ranks are 16 bits");
    // The per-(digit, warp) counters and each warp's lane masks of the ranking, then the tile in
    // digit order (keys, then values): one buffer.
    __shared__ __align__(16) u8 s_raw[BYTES];
    __shared__ i64 s_base[DIGITS];
    __shared__ u32 s_sums[WARPS];
    __shared__ i64 s_tile;

    volatile u32 *counts = (volatile u32 *)s_raw;
    const int t = threadIdx.x, lane = t & 31, warp = t >> 5;
    u32 *masks = (u32 *)(s_raw + COUNTERS) + warp * DIGITS;

    if (t == 0) s_tile = (i64)atomicAdd(a.ticket, 1ull);
    for (int c = t; c < DIGITS * PADDED_WARPS; c += BLOCK) counts[c] = 0;
    for (int c = lane; c < DIGITS; c += 32) masks[c] = 0;
    __syncthreads();
    const i64 tile = s_tile, start = tile * TILE;
    if (start >= a.n) return;
    const int valid = a.n - start < TILE ? (int)(a.n - start) : TILE;
    const u64 pass = (u64)a.pass << PASS_SHIFT;

    // Warp-striped: item i of lane l is tile position warp × ITEMS × 32 + i × 32 + l, so the
    // order (warp, item, lane) is the input order.
    const int first = warp * ITEMS * 32 + lane;
    const R *r_in = (const R *)a.r_in;
    R key[ITEMS];
#pragma unroll
    for (int i = 0; i < ITEMS; ++i) {
        const int p = first + i * 32;
        R k = R();
        if (p < valid) {
            k = r_in[start + p];
            if (a.r_in_mode == IN_ENCODE) k = encode(k, a.kind, a.flags);
        }
        key[i] = k;
    }

    // Stable ranks within the warp: peers with one digit are numbered by lane, items in order.
    // Each lane sets its bit in its digit's mask, so the mask names the peers (1.45× faster over
    // a whole i32 sort on the H200 than `__match_any_sync`); the lowest peer counts them and
    // clears the mask. Positions past the end take the last digit, so they rank after every real
    // item. rank = digit << 16 | position.
    const u32 lower = (1u << lane) - 1;
    u32 rank[ITEMS];
#pragma unroll
    for (int i = 0; i < ITEMS; ++i) {
        const u32 d = first + i * 32 < valid ? pass_digit(key[i], a) : DIGITS - 1;
        atomicOr(&masks[d], 1u << lane);
        __syncwarp();
        const u32 peers = ((volatile u32 *)masks)[d];
        volatile u32 *c = counts + d * PADDED_WARPS + warp;
        const u32 old = *c;
        __syncwarp();
        const u32 before = __popc(peers & lower);
        if (before == 0) {
            *c = old + __popc(peers);
            masks[d] = 0;
        }
        __syncwarp();
        rank[i] = d << 16 | (old + before);
    }
    __syncthreads();

    // Thread d: digit d's count in the tile, and each warp's start within the digit, then the
    // digit's start in the tile.
    u32 count = 0;
    if (t < DIGITS) {
#pragma unroll
        for (int w = 0; w < WARPS; ++w) {
            const u32 c = counts[t * PADDED_WARPS + w];
            counts[t * PADDED_WARPS + w] = count;
            count += c;
        }
    }
    const u32 prefix = exclusive_scan_digits(count, s_sums);
    if (t < DIGITS) {
#pragma unroll
        for (int w = 0; w < WARPS; ++w) counts[t * PADDED_WARPS + w] += prefix;
        *(volatile u64 *)&a.status[tile * DIGITS + t] = (tile == 0 ? INCLUSIVE : AGGREGATE) | pass | count;
    }
    __syncthreads();
#pragma unroll
    for (int i = 0; i < ITEMS; ++i) {
        const u32 d = rank[i] >> 16;
        rank[i] = d << 16 | (counts[d * PADDED_WARPS + warp] + (rank[i] & 0xffff));
    }
    __syncthreads(); // the counters are read: the exchange overwrites them

    R *keys_x = (R *)s_raw;
#pragma unroll
    for (int i = 0; i < ITEMS; ++i) {
        if (first + i * 32 < valid) keys_x[rank[i] & 0xffff] = key[i];
    }

    // Look-back: the counts of digit d in all earlier tiles, LOOKBACK tiles at a time.
    if (t < DIGITS) {
        u64 earlier = 0;
        if (tile > 0) {
            const volatile u64 *status = a.status;
            bool found = false;
            for (i64 p = tile - 1; p >= 0 && !found; p -= LOOKBACK) {
                u64 s[LOOKBACK];
#pragma unroll
                for (int k = 0; k < LOOKBACK; ++k) s[k] = p - k >= 0 ? status[(p - k) * DIGITS + t] : INCLUSIVE | pass;
#pragma unroll
                for (int k = 0; k < LOOKBACK; ++k) {
                    if (found) break;
                    while ((s[k] & PASS_MASK) != pass || !(s[k] & (AGGREGATE | INCLUSIVE)))
                        s[k] = status[(p - k) * DIGITS + t];
                    earlier += s[k] & COUNT_MASK;
                    found = (s[k] & INCLUSIVE) != 0;
                }
            }
            *(volatile u64 *)&a.status[tile * DIGITS + t] = INCLUSIVE | pass | (earlier + count);
        }
        s_base[t] = (i64)(a.offsets[t] + earlier) - (i64)prefix;
    }
    __syncthreads();

    // Tile position p (digit d) goes to s_base[d] + p: a digit's run is stored contiguously. The
    // digit is computed again from the key (cheaper than keeping it in shared memory).
    u8 digit[ITEMS];
#pragma unroll
    for (int j = 0; j < ITEMS; ++j) {
        const int p = j * BLOCK + t;
        digit[j] = p < valid ? (u8)pass_digit(keys_x[p], a) : 0;
    }
    if (a.r_out_mode != OUT_NONE) {
        R *r_out = (R *)a.r_out;
#pragma unroll
        for (int j = 0; j < ITEMS; ++j) {
            const int p = j * BLOCK + t;
            if (p < valid) r_out[s_base[digit[j]] + p] = stored(keys_x[p], a);
        }
    }
    if (PAIRS) {
        i64 value[ITEMS];
#pragma unroll
        for (int i = 0; i < ITEMS; ++i) {
            const int p = first + i * 32;
            value[i] = 0;
            if (p < valid) value[i] = a.v_in_mode == IN_INDEX ? start + p : a.v_in[start + p];
        }
        __syncthreads(); // the keys are stored: the values take their place
        i64 *values_x = (i64 *)s_raw;
#pragma unroll
        for (int i = 0; i < ITEMS; ++i)
            if (first + i * 32 < valid) values_x[rank[i] & 0xffff] = value[i];
        __syncthreads();
#pragma unroll
        for (int j = 0; j < ITEMS; ++j) {
            const int p = j * BLOCK + t;
            if (p < valid) {
                const i64 v = values_x[p];
                a.v_out[s_base[digit[j]] + p] = a.v_out_mode == OUT_COLUMN ? column_of(v, a) : v;
            }
        }
    }
}

struct HistogramArgs {
    const void *in;
    u64 *counts;     // passes × 256 counts, left as each digit's exclusive start
    u64 *done;       // blocks finished
    u64 *status;     // the passes' look-back words, zeroed here
    i64 status_words;
    i64 n;
    i64 len;
    i64 rows;
    int row_passes;
    int kind, flags;
};

// Rows r < rows whose digit q (bits 8q..8q+7 of r) is v.
__device__ __forceinline__ u64 rows_with_digit(u64 rows, int q, u32 v) {
    const int s = 8 * q;
    const u64 run = 1ull << s;  // consecutive rows that share a digit
    const u64 runs = rows >> s; // complete runs; run k has digit k & 255
    u64 c = (runs >> 8) * run + ((runs & 255) > v ? run : 0);
    if ((runs & 255) == v) c += rows & (run - 1);
    return c;
}

__device__ __forceinline__ u64 exclusive_scan_256(u64 x, u64 *sums) {
    const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
    u64 inclusive = x;
#pragma unroll
    for (int o = 1; o < 32; o <<= 1) {
        const u64 y = __shfl_up_sync(FULL_MASK, inclusive, o);
        if (lane >= o) inclusive += y;
    }
    if (lane == 31) sums[warp] = inclusive;
    __syncthreads();
    u64 base = 0;
    for (int w = 0; w < warp; ++w) base += sums[w];
    __syncthreads();
    return base + inclusive - x;
}

// The digit counts of every key pass, in one read of the input; the last block to finish turns
// them (and the row passes' counts, known from the shape) into each digit's start.
template <class K> __device__ __forceinline__ void radix_histogram(const HistogramArgs &a) {
    constexpr int PASSES = sizeof(K);
    constexpr int PARTS = 32 / PASSES; // copies, by lane, against conflicts on one counter
    __shared__ u32 s_hist[PASSES * DIGITS * PARTS];
    __shared__ u64 s_sums[HIST_BLOCK / 32];
    __shared__ int s_last;
    const int t = threadIdx.x, lane = t & 31, warp = t >> 5;
    for (int c = t; c < PASSES * DIGITS * PARTS; c += HIST_BLOCK) s_hist[c] = 0;
    GRID_STRIDE(i, a.status_words) a.status[i] = 0;
    __syncthreads();

    // Each warp takes HIST_ITEMS × 32 consecutive elements at a time (loads first, for more
    // loads in flight).
    const K *in = (const K *)a.in;
    const i64 step = (i64)gridDim.x * (HIST_BLOCK / 32) * HIST_ITEMS * 32;
    for (i64 base = ((i64)blockIdx.x * (HIST_BLOCK / 32) + warp) * HIST_ITEMS * 32; base < a.n; base += step) {
        K key[HIST_ITEMS];
#pragma unroll
        for (int u = 0; u < HIST_ITEMS; ++u) {
            const i64 i = base + u * 32 + lane;
            key[u] = K();
            if (i < a.n) key[u] = in[i];
        }
#pragma unroll
        for (int u = 0; u < HIST_ITEMS; ++u) {
            const bool ok = base + u * 32 + lane < a.n;
            const K k = encode(key[u], a.kind, a.flags);
            const u32 present = __ballot_sync(FULL_MASK, ok);
#pragma unroll
            for (int p = 0; p < PASSES; ++p) {
                const u32 d = digit_of(k, 8 * p);
                const u32 d0 = __shfl_sync(FULL_MASK, d, 0);
                if (__all_sync(FULL_MASK, !ok || d == d0)) {
                    if (lane == 0 && present) atomicAdd(&s_hist[(p * DIGITS + d0) * PARTS], (u32)__popc(present));
                } else if (ok) {
                    atomicAdd(&s_hist[(p * DIGITS + d) * PARTS + lane % PARTS], 1u);
                }
            }
        }
    }
    __syncthreads();
    for (int b = t; b < PASSES * DIGITS; b += HIST_BLOCK) {
        u32 sum = 0;
#pragma unroll
        for (int q = 0; q < PARTS; ++q) sum += s_hist[b * PARTS + q];
        if (sum) atomicAdd(&a.counts[b], (u64)sum);
    }
    __threadfence();
    __syncthreads();
    if (t == 0) s_last = atomicAdd(a.done, 1ull) == (u64)gridDim.x - 1;
    __syncthreads();
    if (!s_last) return;
    __threadfence();
    for (int p = 0; p < PASSES + a.row_passes; ++p) {
        const u64 c = p < PASSES ? ((volatile u64 *)a.counts)[p * DIGITS + t]
                                 : rows_with_digit((u64)a.rows, p - PASSES, t) * (u64)a.len;
        a.counts[p * DIGITS + t] = exclusive_scan_256(c, s_sums);
    }
}

extern "C" __global__ void sort_zero(u64 *p, i64 n) {
    GRID_STRIDE(i, n) p[i] = 0;
}

// Rows sorted by an argsort: out[i] = a[row start of i + order[i]].
template <class T> __device__ __forceinline__ void take_along_rows(const T *a, const i64 *order, i64 n, i64 len, T *out) {
    GRID_STRIDE(i, n) out[i] = a[i - i % len + order[i]];
}

// NumPy's searchsorted on canonical keys: side left is the first i with !(sorted[i] < v), right
// the first i with v < sorted[i].
template <class K>
__device__ __forceinline__ void searchsorted(const K *__restrict__ sorted, i64 n, const K *__restrict__ values, i64 m,
                                             int right, int kind, i64 *__restrict__ out) {
    GRID_STRIDE(i, m) {
        const K v = encode(values[i], kind, FLAG_CANONICAL);
        i64 lo = 0, hi = n;
        while (lo < hi) {
            const i64 mid = (lo + hi) >> 1;
            const K s = encode(sorted[mid], kind, FLAG_CANONICAL);
            if (right ? !key_less(v, s) : key_less(s, v)) lo = mid + 1;
            else hi = mid;
        }
        out[i] = lo;
    }
}

#define RADIX_PAIRS(K, NAME, ITEMS)                                                                 \
    extern "C" __global__ void __launch_bounds__(PAIR_THREADS, 2) radix_pairs_##NAME(PassArgs a) {      \
        radix_pass<K, true, ITEMS, PAIR_THREADS>(a);                                               \
    }                                                                                              \
    extern "C" __global__ void __launch_bounds__(HIST_BLOCK) radix_histogram_##NAME(HistogramArgs a) { \
        radix_histogram<K>(a);                                                                     \
    }                                                                                              \
    extern "C" __global__ void searchsorted_##NAME(const K *s, i64 n, const K *v, i64 m, int right, int kind, i64 *out) { \
        searchsorted<K>(s, n, v, m, right, kind, out);                                             \
    }                                                                                              \
    extern "C" __global__ void take_along_rows_##NAME(const K *a, const i64 *order, i64 n, i64 len, K *out) { \
        take_along_rows<K>(a, order, n, len, out);                                                 \
    }

#define RADIX_KEYS(K, NAME, THREADS, ITEMS, BLOCKS_AN_SM)                                        \
    extern "C" __global__ void __launch_bounds__(THREADS, BLOCKS_AN_SM) radix_pass_##NAME(PassArgs a) { \
        radix_pass<K, false, ITEMS, THREADS>(a);                                                   \
    }

// Tiles of keys alone: words of up to 4 bytes in 512 threads × 16 items (more warps an SM to
// wait on memory: 1e8 i32 in 4.2 ms on the H200, 4.8 ms in 256 × 32), 8 bytes in 256 × 16 (1e8
// f64 in 8.7 ms, 10.1 ms in 512 × 8); pairs 8 items (4 for 16-byte keys). `tile` in
// gpu_sort.rs says the same.
RADIX_KEYS(u8, u8, 512, 16, 2)
RADIX_KEYS(u16, u16, 512, 16, 2)
RADIX_KEYS(u32, u32, 512, 16, 2)
RADIX_KEYS(u64, u64, 256, 16, 4)
RADIX_PAIRS(u8, u8, 8)
RADIX_PAIRS(u16, u16, 8)
RADIX_PAIRS(u32, u32, 8)
RADIX_PAIRS(u64, u64, 8)
RADIX_PAIRS(W32, w32, 8)
RADIX_PAIRS(W64, w64, 4)

// ---- bincount ----

// Bins that a block counts in shared memory before adding them to the result.
#define SHARED_BINS 4096

extern "C" __global__ void bincount_shared(const i64 *x, i64 n, i64 length, u64 *out) {
    __shared__ u32 s_bins[SHARED_BINS];
    const int lane = threadIdx.x & 31;
    for (int b = threadIdx.x; b < length; b += blockDim.x) s_bins[b] = 0;
    __syncthreads();
    const i64 stride = (i64)gridDim.x * blockDim.x;
    for (i64 base = (i64)blockIdx.x * blockDim.x + (threadIdx.x & ~31); base < n; base += stride) {
        const i64 i = base + lane;
        const u64 b = i < n ? (u64)x[i] : ~0ull;
        const u64 b0 = __shfl_sync(FULL_MASK, b, 0);
        if (__all_sync(FULL_MASK, b == b0)) {
            if (lane == 0 && b0 < (u64)length) atomicAdd(&s_bins[b0], 32u);
        } else if (b < (u64)length) {
            atomicAdd(&s_bins[b], 1u);
        }
    }
    __syncthreads();
    for (int b = threadIdx.x; b < length; b += blockDim.x)
        if (s_bins[b]) atomicAdd(&out[b], (u64)s_bins[b]);
}

extern "C" __global__ void bincount_global(const i64 *x, i64 n, i64 length, u64 *out) {
    GRID_STRIDE(i, n) {
        const u64 b = (u64)x[i];
        if (b < (u64)length) atomicAdd(&out[b], 1ull);
    }
}

extern "C" __global__ void bincount_weights_shared(const i64 *x, const double *w, i64 n, i64 length, double *out) {
    __shared__ double s_bins[SHARED_BINS];
    const int lane = threadIdx.x & 31;
    for (int b = threadIdx.x; b < length; b += blockDim.x) s_bins[b] = 0.0;
    __syncthreads();
    const i64 stride = (i64)gridDim.x * blockDim.x;
    for (i64 base = (i64)blockIdx.x * blockDim.x + (threadIdx.x & ~31); base < n; base += stride) {
        const i64 i = base + lane;
        const u64 b = i < n ? (u64)x[i] : ~0ull;
        const double v = i < n ? w[i] : 0.0;
        const u64 b0 = __shfl_sync(FULL_MASK, b, 0);
        if (__all_sync(FULL_MASK, b == b0)) {
            double sum = v;
#pragma unroll
            for (int o = 16; o > 0; o >>= 1) sum += __shfl_xor_sync(FULL_MASK, sum, o);
            if (lane == 0 && b0 < (u64)length) atomicAdd(&s_bins[b0], sum);
        } else if (b < (u64)length) {
            atomicAdd(&s_bins[b], v);
        }
    }
    __syncthreads();
    for (int b = threadIdx.x; b < length; b += blockDim.x)
        if (s_bins[b] != 0.0) atomicAdd(&out[b], s_bins[b]);
}

extern "C" __global__ void bincount_weights_global(const i64 *x, const double *w, i64 n, i64 length, double *out) {
    GRID_STRIDE(i, n) {
        const u64 b = (u64)x[i];
        if (b < (u64)length) atomicAdd(&out[b], w[i]);
    }
}
