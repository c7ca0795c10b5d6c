// Advanced indexing: gathers and stores of whole rows (positions along the first axis) chosen by an
// i64 index array or a bool mask. `shape` is the full shape of the indexed array, `row` the number
// of elements per row; flat position r * row + c of the array is row r, column c.

// Positions wrap around the axis (as CuPy's do), so a bad index never reads outside the array.
__device__ __forceinline__ long long wrap_row(long long r, long long rows) {
    r %= rows;
    return r < 0 ? r + rows : r;
}

// out (contiguous, count × row) = a[index] for an index array of `count` positions.
#define GATHER_KERNEL(C, NAME)                                                                     \
    extern "C" __global__ void NAME(Shape shape, Operand a, const long long *index,                \
                                    long long count, long long row, Operand out) {                 \
        long long rows = shape.dims[0];                                                            \
        GRID_STRIDE(e, count * row) {                                                              \
            long long k = e / row, c = e - k * row;                                                \
            long long r = wrap_row(index[k], rows);                                                \
            C v = load<C>(a, offset_of(a, shape, r * row + c));                                    \
            store<C>(out, out.offset + e, v);                                                      \
        }                                                                                          \
    }

GATHER_KERNEL(bool, gather_bool)
GATHER_KERNEL(long long, gather_i64)
GATHER_KERNEL(float, gather_f32)
GATHER_KERNEL(double, gather_f64)

// a[index] = values: values is contiguous (count × row), already of a's dtype.
#define SCATTER_KERNEL(C, NAME)                                                                    \
    extern "C" __global__ void NAME(Shape shape, Operand a, const long long *index,                \
                                    long long count, long long row, Operand values) {              \
        long long rows = shape.dims[0];                                                            \
        GRID_STRIDE(e, count * row) {                                                              \
            long long k = e / row, c = e - k * row;                                                \
            long long r = wrap_row(index[k], rows);                                                \
            store<C>(a, offset_of(a, shape, r * row + c), load<C>(values, values.offset + e));     \
        }                                                                                          \
    }

SCATTER_KERNEL(bool, scatter_bool)
SCATTER_KERNEL(long long, scatter_i64)
SCATTER_KERNEL(float, scatter_f32)
SCATTER_KERNEL(double, scatter_f64)

// Mask compaction: `ends` is the inclusive running count of the (contiguous) mask over rows, so
// a selected row r goes to output row ends[r] - 1.
#define COMPACT_KERNEL(C, NAME)                                                                    \
    extern "C" __global__ void NAME(Shape shape, Operand a, const bool *mask,                      \
                                    const long long *ends, long long row, Operand out) {           \
        GRID_STRIDE(e, shape.size) {                                                               \
            long long r = e / row, c = e - r * row;                                                \
            if (mask[r]) {                                                                         \
                C v = load<C>(a, offset_of(a, shape, e));                                          \
                store<C>(out, out.offset + (ends[r] - 1) * row + c, v);                            \
            }                                                                                      \
        }                                                                                          \
    }

COMPACT_KERNEL(bool, compact_bool)
COMPACT_KERNEL(long long, compact_i64)
COMPACT_KERNEL(float, compact_f32)
COMPACT_KERNEL(double, compact_f64)

// a[mask] = values, values contiguous with one row per selected row, of a's dtype.
#define EXPAND_KERNEL(C, NAME)                                                                     \
    extern "C" __global__ void NAME(Shape shape, Operand a, const bool *mask,                      \
                                    const long long *ends, long long row, Operand values) {        \
        GRID_STRIDE(e, shape.size) {                                                               \
            long long r = e / row, c = e - r * row;                                                \
            if (mask[r]) {                                                                         \
                C v = load<C>(values, values.offset + (ends[r] - 1) * row + c);                    \
                store<C>(a, offset_of(a, shape, e), v);                                            \
            }                                                                                      \
        }                                                                                          \
    }

EXPAND_KERNEL(bool, expand_bool)
EXPAND_KERNEL(long long, expand_i64)
EXPAND_KERNEL(float, expand_f32)
EXPAND_KERNEL(double, expand_f64)
