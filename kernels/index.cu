// Advanced indexing: gathers and stores of whole rows (positions along the first axis) chosen by
// an i64 index array or a bool mask. Elements are moved, never converted (the caller gives arrays
// of one dtype), so each kernel comes in one version per element size. `shape` is the full shape
// of the indexed array, `row` the number of elements per row; flat position r * row + c of the
// array is row r, column c. The structs match `src/device/gpu/abi.rs` field for field.

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

// Positions wrap around the axis (as CuPy's do), so a bad index never reads outside the array.
__device__ __forceinline__ i64 wrap_row(i64 r, i64 rows) {
    r %= rows;
    return r < 0 ? r + rows : r;
}

// out (contiguous, count × row) = a[index] for an index array of `count` positions.
template <class T>
__device__ void gather(Shape shape, View a, const i64 *index, i64 count, i64 row, T *out) {
    i64 rows = shape.dims[0];
    GRID_STRIDE(e, count * row) {
        i64 k = e / row, c = e - k * row;
        i64 r = wrap_row(index[k], rows);
        out[e] = ((const T *)a.ptr)[offset_of(a, shape, r * row + c)];
    }
}

// a[index] = values: values is contiguous (count × row), of a's dtype.
template <class T>
__device__ void scatter(Shape shape, View a, const i64 *index, i64 count, i64 row, const T *values) {
    i64 rows = shape.dims[0];
    GRID_STRIDE(e, count * row) {
        i64 k = e / row, c = e - k * row;
        i64 r = wrap_row(index[k], rows);
        ((T *)a.ptr)[offset_of(a, shape, r * row + c)] = values[e];
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
    extern "C" __global__ void gather_##SIZE(Shape s, View a, const i64 *ix, i64 n, i64 row, T *out) { \
        gather<T>(s, a, ix, n, row, out);                                                          \
    }                                                                                              \
    extern "C" __global__ void scatter_##SIZE(Shape s, View a, const i64 *ix, i64 n, i64 row, const T *v) { \
        scatter<T>(s, a, ix, n, row, v);                                                           \
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
