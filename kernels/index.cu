// Advanced indexing (NumPy's rules, prepared by `src/array/index.rs`): reads and stores of the
// elements an index selects, and the positions of a mask's true elements. A selection of shape
// `s` is a strided view of the indexed buffer (the axes of the broadcast index arrays have
// stride 0) plus, for each combination of index values, an element offset `off[b]` computed
// beforehand; the index axes are `bsize` long in total and `inner` elements lie after them.
// Elements are moved, never converted (the caller gives arrays of one dtype), so each kernel
// comes in one version per element size. The structs match `src/device/gpu/abi.rs` field for
// field. Masks alone keep their own kernels (`compact`, `expand`), which need no offsets.

#define MAX_DIMS 16
typedef long long i64;

struct Shape {
    i64 dims[MAX_DIMS];
    i64 size;
    int ndim;
};

// A strided view of device memory: element offset and strides in elements.
struct View {
    void *ptr;
    i64 offset;
    i64 strides[MAX_DIMS];
};

struct Bytes16 {
    unsigned long long a, b;
};

// Element offset of flat (C-order) position i of the shape.
__device__ __forceinline__ i64 offset_of(const View &v, const Shape &shape, i64 i) {
    i64 off = v.offset;
    for (int d = shape.ndim - 1; d >= 0; --d) {
        i64 n = shape.dims[d];
        i64 c = i % n;
        i /= n;
        off += c * v.strides[d];
    }
    return off;
}

#define GRID_STRIDE(i, n)                                                                          \
    for (i64 i = (i64)blockIdx.x * blockDim.x + threadIdx.x; i < (n); i += (i64)blockDim.x * gridDim.x)

// out (contiguous, shape s) = the selected elements.
template <class T>
__device__ void take(Shape s, View a, const i64 *off, i64 inner, i64 bsize, T *out) {
    GRID_STRIDE(e, s.size) {
        out[e] = ((const T *)a.ptr)[offset_of(a, s, e) + off[(e / inner) % bsize]];
    }
}

// The selected elements = values (contiguous, shape s, of a's dtype). A position chosen twice
// gets one of its values (which one is not defined, as in CuPy).
template <class T>
__device__ void put(Shape s, View a, const i64 *off, i64 inner, i64 bsize, const T *values) {
    GRID_STRIDE(e, s.size) {
        ((T *)a.ptr)[offset_of(a, s, e) + off[(e / inner) % bsize]] = values[e];
    }
}

// Mask compaction: `ends` is the inclusive running count of the (contiguous) mask over rows, so
// a selected row r goes to output row ends[r] - 1.
template <class T>
__device__ void compact(Shape shape, View a, const bool *mask, const i64 *ends, i64 row, T *out) {
    GRID_STRIDE(e, shape.size) {
        i64 r = e / row, c = e - r * row;
        if (mask[r]) out[(ends[r] - 1) * row + c] = ((const T *)a.ptr)[offset_of(a, shape, e)];
    }
}

// a[mask] = values, values contiguous with one row per selected row, of a's dtype.
template <class T>
__device__ void expand(Shape shape, View a, const bool *mask, const i64 *ends, i64 row, const T *values) {
    GRID_STRIDE(e, shape.size) {
        i64 r = e / row, c = e - r * row;
        if (mask[r]) ((T *)a.ptr)[offset_of(a, shape, e)] = values[(ends[r] - 1) * row + c];
    }
}

#define INDEX_KERNELS(T, SIZE)                                                                     \
    extern "C" __global__ void take_##SIZE(Shape s, View a, const i64 *off, i64 in, i64 b, T *out) { \
        take<T>(s, a, off, in, b, out);                                                            \
    }                                                                                              \
    extern "C" __global__ void put_##SIZE(Shape s, View a, const i64 *off, i64 in, i64 b, const T *v) { \
        put<T>(s, a, off, in, b, v);                                                               \
    }                                                                                              \
    extern "C" __global__ void compact_##SIZE(Shape s, View a, const bool *m, const i64 *e, i64 row, T *out) { \
        compact<T>(s, a, m, e, row, out);                                                          \
    }                                                                                              \
    extern "C" __global__ void expand_##SIZE(Shape s, View a, const bool *m, const i64 *e, i64 row, const T *v) { \
        expand<T>(s, a, m, e, row, v);                                                             \
    }

INDEX_KERNELS(unsigned char, 1)
INDEX_KERNELS(unsigned short, 2)
INDEX_KERNELS(unsigned int, 4)
INDEX_KERNELS(unsigned long long, 8)
INDEX_KERNELS(Bytes16, 16)

// The coordinates of a mask's true elements: `mask` and `ends` (its inclusive running count) are
// contiguous over shape s; coordinate d of the j-th true element goes to out[d * count + j].
extern "C" __global__ void positions(Shape s, const bool *mask, const i64 *ends, i64 count, i64 *out) {
    GRID_STRIDE(e, s.size) {
        if (!mask[e]) continue;
        i64 j = ends[e] - 1, rest = e;
        for (int d = s.ndim - 1; d >= 0; --d) {
            i64 n = s.dims[d];
            out[d * count + j] = rest % n;
            rest /= n;
        }
    }
}
