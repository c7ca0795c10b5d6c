//! Matrix products with cuBLAS. cuBLAS is column-major; a row-major C = A·B is computed as the
//! column-major Cᵀ = Bᵀ·Aᵀ, which reads the same memory with no transposition.

use cudarc::cublas::{result as cublas, sys};

use super::driver::Gpu;
use crate::base::DType;
use crate::error::{device_error, Result};

/// One row-major operand: its device address and whether its rows are stored as columns
/// (a transposed view, `x.T`), with the leading dimension cuBLAS wants.
pub struct MatrixArg {
    pub pointer: u64,
    pub transposed: bool,
    pub leading: usize,
}

impl Gpu {
    pub(super) fn blas_handle(&self) -> Result<sys::cublasHandle_t> {
        if let Some(h) = self.blas.get() {
            return Ok(h);
        }
        // SAFETY: only tries to open the library.
        if !unsafe { sys::is_culib_present() } {
            return Err(device_error("no cuBLAS: libcublas.so not found"));
        }
        let handle = cublas::create_handle()
            .map_err(|e| device_error(format!("cuBLAS failed to start: {e:?}")))?;
        // SAFETY: a new handle, set to the stream every other operation uses.
        unsafe { cublas::set_stream(handle, self.stream as _) }
            .map_err(|e| device_error(format!("cuBLAS: {e:?}")))?;
        self.blas.set(Some(handle));
        Ok(handle)
    }

    /// out (m×n, row-major, contiguous) = a (m×k) · b (k×n), in f64 or f32.
    #[allow(clippy::too_many_arguments)]
    pub fn gemm(
        &self,
        dtype: DType,
        m: usize,
        n: usize,
        k: usize,
        a: &MatrixArg,
        b: &MatrixArg,
        out: u64,
    ) -> Result<()> {
        let handle = self.blas_handle()?;
        let op = |t: bool| {
            if t {
                sys::cublasOperation_t::CUBLAS_OP_T
            } else {
                sys::cublasOperation_t::CUBLAS_OP_N
            }
        };
        let too_big = [m, n, k, a.leading, b.leading]
            .iter()
            .any(|&d| d > i32::MAX as usize);
        if too_big {
            return Err(device_error(
                "matmul: a dimension is too large for cuBLAS (over 2³¹)",
            ));
        }
        self.note_launch(m * n);
        let (m, n, k) = (m as i32, n as i32, k as i32);
        let (lda, ldb, ldc) = (a.leading.max(1) as i32, b.leading.max(1) as i32, n.max(1));
        // SAFETY: the pointers address matrices of the given shapes and leading dimensions,
        // allocated on this context; alpha and beta are host values.
        let result = unsafe {
            match dtype {
                DType::F32 => cublas::sgemm(
                    handle,
                    op(b.transposed),
                    op(a.transposed),
                    n,
                    m,
                    k,
                    &1.0f32,
                    b.pointer as *const f32,
                    ldb,
                    a.pointer as *const f32,
                    lda,
                    &0.0f32,
                    out as *mut f32,
                    ldc,
                ),
                _ => cublas::dgemm(
                    handle,
                    op(b.transposed),
                    op(a.transposed),
                    n,
                    m,
                    k,
                    &1.0f64,
                    b.pointer as *const f64,
                    ldb,
                    a.pointer as *const f64,
                    lda,
                    &0.0f64,
                    out as *mut f64,
                    ldc,
                ),
            }
        };
        result.map_err(|e| device_error(format!("cuBLAS gemm failed: {e:?}")))
    }
}
