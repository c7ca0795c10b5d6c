// Shared by every kernel module (prepended to each .cu file before NVRTC compiles it).
//
// An operand is a typed view of device memory: element offset and strides (in elements, possibly
// negative or zero) over the iteration shape, or an immediate host scalar that travelled as a kernel
// argument. Its element type is a runtime code, so one kernel per computation type serves every mix
// of input types; the switch on it is uniform across a warp and costs no memory traffic.
//
// The structs match `src/device/gpu/abi.rs` field for field.

#define MAX_DIMS 16

enum DType { DT_BOOL = 0, DT_I64 = 1, DT_F32 = 2, DT_F64 = 3 };
enum Mode { CONTIGUOUS = 0, STRIDED = 1, IMMEDIATE = 2 };

struct Shape {
    long long dims[MAX_DIMS];
    long long size;
    int ndim;
};

struct Operand {
    void *ptr;
    long long offset;
    long long strides[MAX_DIMS];
    double fvalue;
    long long ivalue;
    int dtype;
    int mode;
};

// Element offset of flat (C-order) position i of the iteration shape.
__device__ __forceinline__ long long offset_of(const Operand &op, const Shape &shape, long long i) {
    if (op.mode == CONTIGUOUS) return op.offset + i;
    if (op.mode == IMMEDIATE) return 0;
    long long off = op.offset;
    for (int d = shape.ndim - 1; d >= 0; --d) {
        long long n = shape.dims[d];
        long long c = i % n;
        i /= n;
        off += c * op.strides[d];
    }
    return off;
}

template <typename C> __device__ __forceinline__ C convert_bool(bool v) { return v ? (C)1 : (C)0; }

template <typename C> __device__ __forceinline__ C load(const Operand &op, long long off) {
    if (op.mode == IMMEDIATE) {
        if (op.dtype == DT_F32 || op.dtype == DT_F64) return (C)op.fvalue;
        return (C)op.ivalue;
    }
    switch (op.dtype) {
    case DT_BOOL: return convert_bool<C>(((const bool *)op.ptr)[off]);
    case DT_I64: return (C)((const long long *)op.ptr)[off];
    case DT_F32: return (C)((const float *)op.ptr)[off];
    default: return (C)((const double *)op.ptr)[off];
    }
}

template <typename C> __device__ __forceinline__ void store(const Operand &op, long long off, C v) {
    switch (op.dtype) {
    case DT_BOOL: ((bool *)op.ptr)[off] = (v != (C)0); break;
    case DT_I64: ((long long *)op.ptr)[off] = (long long)v; break;
    case DT_F32: ((float *)op.ptr)[off] = (float)v; break;
    default: ((double *)op.ptr)[off] = (double)v; break;
    }
}

#define GRID_STRIDE(i, n)                                                                          \
    for (long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x; i < (n);                 \
         i += (long long)blockDim.x * gridDim.x)

template <typename T> __device__ __forceinline__ bool is_nan(T x) { return x != x; }
