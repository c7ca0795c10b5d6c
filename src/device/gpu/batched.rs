//! The gpu's routines that take a whole stack of matrices in one call — cuBLAS's batched LU,
//! inverse and solve, cuSOLVER's batched Cholesky and Jacobi eigen- and singular value solvers —
//! and cuSOLVER's typed `orgqr`. Pointer arguments address device arrays (of matrices, or of
//! the matrices' addresses for the cuBLAS and Cholesky ones); each call counts as one kernel.

use cudarc::cusolver::sys;

use super::driver::Gpu;
use super::solver::{eig_mode, status, Fill, Strided};
use crate::base::DType;
use crate::error::{device_error, Result};

/// One of cuSOLVER's typed routines by dtype: `S D C Z` names the f32, f64, c64 and c128 ones;
/// pointer arguments are written `p as _` so that each arm casts them to its own types.
macro_rules! typed {
    ($dtype:expr, $s:ident, $d:ident, $c:ident, $z:ident, ($($arg:expr),* $(,)?)) => {
        match $dtype {
            DType::F32 => sys::$s($($arg),*),
            DType::C64 => sys::$c($($arg),*),
            DType::C128 => sys::$z($($arg),*),
            _ => sys::$d($($arg),*),
        }
    };
}

fn blas_status(what: &str, s: cudarc::cublas::sys::cublasStatus_t) -> Result<()> {
    s.result()
        .map_err(|e| device_error(format!("cuBLAS {what} failed: {e:?}")))
}

fn int(n: usize, what: &str) -> Result<i32> {
    i32::try_from(n).map_err(|_| {
        device_error(format!(
            "{what}: a dimension is too large for cuSOLVER's batched routines"
        ))
    })
}

impl Gpu {
    /// Cholesky of a stack in one call (`potrfBatched`): `pointers` is a device array of the
    /// matrices' addresses, `info` one int per matrix.
    pub fn potrf_batched(
        &self,
        dtype: DType,
        fill: Fill,
        n: usize,
        count: usize,
        pointers: u64,
        info: u64,
    ) -> Result<()> {
        let (h, _) = self.solver()?;
        let (n32, batch) = (int(n, "cholesky")?, int(count, "cholesky")?);
        self.note_launch(n * n * count);
        unsafe {
            status(
                "potrfBatched",
                typed!(
                    dtype,
                    cusolverDnSpotrfBatched,
                    cusolverDnDpotrfBatched,
                    cusolverDnCpotrfBatched,
                    cusolverDnZpotrfBatched,
                    (
                        h,
                        fill.mode(),
                        n32,
                        pointers as _,
                        n32.max(1),
                        info as _,
                        batch
                    )
                ),
            )
        }
    }

    /// The m×n Q of `geqrf`'s first k reflectors (`orgqr`/`ungqr`), in place (leading
    /// dimension m).
    #[allow(clippy::too_many_arguments)]
    pub fn orgqr(
        &'static self,
        dtype: DType,
        m: usize,
        n: usize,
        k: usize,
        count: usize,
        a: Strided,
        tau: Strided,
        info: Strided,
    ) -> Result<()> {
        let (h, _) = self.solver()?;
        let (m32, n32, k32) = (int(m, "qr")?, int(n, "qr")?, int(k, "qr")?);
        let lda = m32.max(1);
        let mut lwork = 0i32;
        unsafe {
            status(
                "orgqr",
                typed!(
                    dtype,
                    cusolverDnSorgqr_bufferSize,
                    cusolverDnDorgqr_bufferSize,
                    cusolverDnCungqr_bufferSize,
                    cusolverDnZungqr_bufferSize,
                    (
                        h,
                        m32,
                        n32,
                        k32,
                        a.at(0) as _,
                        lda,
                        tau.at(0) as _,
                        &mut lwork
                    )
                ),
            )?
        };
        let ws = self.workspace(lwork.max(0) as usize * dtype.size(), 0)?;
        let work = ws.device.device_pointer();
        for j in 0..count {
            self.note_launch(m * n);
            unsafe {
                status(
                    "orgqr",
                    typed!(
                        dtype,
                        cusolverDnSorgqr,
                        cusolverDnDorgqr,
                        cusolverDnCungqr,
                        cusolverDnZungqr,
                        (
                            h,
                            m32,
                            n32,
                            k32,
                            a.at(j) as _,
                            lda,
                            tau.at(j) as _,
                            work as _,
                            lwork,
                            info.at(j) as _
                        )
                    ),
                )?
            };
        }
        Ok(())
    }

    /// `syevd` of a contiguous stack of small matrices (n ≤ 32) in one call, by Jacobi
    /// rotations (`syevjBatched`/`heevjBatched`), eigenvalues ascending.
    #[allow(clippy::too_many_arguments)]
    pub fn syevj_batched(
        &'static self,
        dtype: DType,
        vectors: bool,
        fill: Fill,
        n: usize,
        count: usize,
        a: u64,
        w: u64,
        info: u64,
    ) -> Result<()> {
        let (h, _) = self.solver()?;
        let (n32, batch) = (int(n, "eigh")?, int(count, "eigh")?);
        let mut params: sys::syevjInfo_t = std::ptr::null_mut();
        unsafe { status("syevjBatched", sys::cusolverDnCreateSyevjInfo(&mut params))? };
        let result = (|| {
            unsafe { status("syevjBatched", sys::cusolverDnXsyevjSetSortEig(params, 1))? };
            let mut lwork = 0i32;
            let (mode, uplo) = (eig_mode(vectors), fill.mode());
            unsafe {
                status(
                    "syevjBatched",
                    typed!(
                        dtype,
                        cusolverDnSsyevjBatched_bufferSize,
                        cusolverDnDsyevjBatched_bufferSize,
                        cusolverDnCheevjBatched_bufferSize,
                        cusolverDnZheevjBatched_bufferSize,
                        (
                            h,
                            mode,
                            uplo,
                            n32,
                            a as _,
                            n32.max(1),
                            w as _,
                            &mut lwork,
                            params,
                            batch
                        )
                    ),
                )?
            };
            let ws = self.workspace(lwork.max(0) as usize * dtype.size(), 0)?;
            let work = ws.device.device_pointer();
            self.note_launch(n * n * count);
            unsafe {
                status(
                    "syevjBatched",
                    typed!(
                        dtype,
                        cusolverDnSsyevjBatched,
                        cusolverDnDsyevjBatched,
                        cusolverDnCheevjBatched,
                        cusolverDnZheevjBatched,
                        (
                            h,
                            mode,
                            uplo,
                            n32,
                            a as _,
                            n32.max(1),
                            w as _,
                            work as _,
                            lwork,
                            info as _,
                            params,
                            batch
                        )
                    ),
                )
            }
        })();
        unsafe { sys::cusolverDnDestroySyevjInfo(params) };
        result
    }

    /// The SVD of a contiguous stack of small m×n matrices (m, n ≤ 32; leading dimension m) in
    /// one call, by Jacobi rotations (`gesvdjBatched`): singular values descending, U m×m and
    /// V (not Vᴴ) n×n.
    #[allow(clippy::too_many_arguments)]
    pub fn gesvdj_batched(
        &'static self,
        dtype: DType,
        vectors: bool,
        m: usize,
        n: usize,
        count: usize,
        a: u64,
        s: u64,
        u: u64,
        v: u64,
        info: u64,
    ) -> Result<()> {
        let (h, _) = self.solver()?;
        let (m32, n32, batch) = (int(m, "svd")?, int(n, "svd")?, int(count, "svd")?);
        let mut params: sys::gesvdjInfo_t = std::ptr::null_mut();
        unsafe {
            status(
                "gesvdjBatched",
                sys::cusolverDnCreateGesvdjInfo(&mut params),
            )?
        };
        let result = (|| {
            unsafe { status("gesvdjBatched", sys::cusolverDnXgesvdjSetSortEig(params, 1))? };
            let mut lwork = 0i32;
            let mode = eig_mode(vectors);
            unsafe {
                status(
                    "gesvdjBatched",
                    typed!(
                        dtype,
                        cusolverDnSgesvdjBatched_bufferSize,
                        cusolverDnDgesvdjBatched_bufferSize,
                        cusolverDnCgesvdjBatched_bufferSize,
                        cusolverDnZgesvdjBatched_bufferSize,
                        (
                            h,
                            mode,
                            m32,
                            n32,
                            a as _,
                            m32.max(1),
                            s as _,
                            u as _,
                            m32.max(1),
                            v as _,
                            n32.max(1),
                            &mut lwork,
                            params,
                            batch
                        )
                    ),
                )?
            };
            let ws = self.workspace(lwork.max(0) as usize * dtype.size(), 0)?;
            let work = ws.device.device_pointer();
            self.note_launch(m * n * count);
            unsafe {
                status(
                    "gesvdjBatched",
                    typed!(
                        dtype,
                        cusolverDnSgesvdjBatched,
                        cusolverDnDgesvdjBatched,
                        cusolverDnCgesvdjBatched,
                        cusolverDnZgesvdjBatched,
                        (
                            h,
                            mode,
                            m32,
                            n32,
                            a as _,
                            m32.max(1),
                            s as _,
                            u as _,
                            m32.max(1),
                            v as _,
                            n32.max(1),
                            work as _,
                            lwork,
                            info as _,
                            params,
                            batch
                        )
                    ),
                )
            }
        })();
        unsafe { sys::cusolverDnDestroyGesvdjInfo(params) };
        result
    }

    /// cuBLAS's batched LU of `count` n×n matrices whose addresses are the device array
    /// `pointers`: i32 pivots (n per matrix), one info int per matrix.
    pub fn getrf_batched(
        &self,
        dtype: DType,
        n: usize,
        count: usize,
        pointers: u64,
        pivots: u64,
        info: u64,
    ) -> Result<()> {
        use cudarc::cublas::sys as blas;
        let h = self.blas_handle()?;
        let (n32, batch) = (int(n, "lu")?, int(count, "lu")?);
        self.note_launch(n * n * count);
        unsafe {
            blas_status(
                "getrfBatched",
                match dtype {
                    DType::F32 => blas::cublasSgetrfBatched(
                        h,
                        n32,
                        pointers as _,
                        n32.max(1),
                        pivots as _,
                        info as _,
                        batch,
                    ),
                    DType::C64 => blas::cublasCgetrfBatched(
                        h,
                        n32,
                        pointers as _,
                        n32.max(1),
                        pivots as _,
                        info as _,
                        batch,
                    ),
                    DType::C128 => blas::cublasZgetrfBatched(
                        h,
                        n32,
                        pointers as _,
                        n32.max(1),
                        pivots as _,
                        info as _,
                        batch,
                    ),
                    _ => blas::cublasDgetrfBatched(
                        h,
                        n32,
                        pointers as _,
                        n32.max(1),
                        pivots as _,
                        info as _,
                        batch,
                    ),
                },
            )
        }
    }

    /// cuBLAS's batched inverse from `getrf_batched`'s factors, into the matrices at `out`.
    #[allow(clippy::too_many_arguments)]
    pub fn getri_batched(
        &self,
        dtype: DType,
        n: usize,
        count: usize,
        pointers: u64,
        pivots: u64,
        out: u64,
        info: u64,
    ) -> Result<()> {
        use cudarc::cublas::sys as blas;
        let h = self.blas_handle()?;
        let (n32, batch) = (int(n, "inv")?, int(count, "inv")?);
        self.note_launch(n * n * count);
        unsafe {
            blas_status(
                "getriBatched",
                match dtype {
                    DType::F32 => blas::cublasSgetriBatched(
                        h,
                        n32,
                        pointers as _,
                        n32.max(1),
                        pivots as _,
                        out as _,
                        n32.max(1),
                        info as _,
                        batch,
                    ),
                    DType::C64 => blas::cublasCgetriBatched(
                        h,
                        n32,
                        pointers as _,
                        n32.max(1),
                        pivots as _,
                        out as _,
                        n32.max(1),
                        info as _,
                        batch,
                    ),
                    DType::C128 => blas::cublasZgetriBatched(
                        h,
                        n32,
                        pointers as _,
                        n32.max(1),
                        pivots as _,
                        out as _,
                        n32.max(1),
                        info as _,
                        batch,
                    ),
                    _ => blas::cublasDgetriBatched(
                        h,
                        n32,
                        pointers as _,
                        n32.max(1),
                        pivots as _,
                        out as _,
                        n32.max(1),
                        info as _,
                        batch,
                    ),
                },
            )
        }
    }

    /// cuBLAS's batched solve from `getrf_batched`'s factors: A x = b (or Aᵀ x = b), each b
    /// n×nrhs at the addresses in `rhs`, overwritten by x.
    #[allow(clippy::too_many_arguments)]
    pub fn getrs_batched(
        &self,
        dtype: DType,
        transpose: bool,
        n: usize,
        nrhs: usize,
        count: usize,
        pointers: u64,
        pivots: u64,
        rhs: u64,
    ) -> Result<()> {
        use cudarc::cublas::sys as blas;
        let h = self.blas_handle()?;
        let (n32, k32, batch) = (int(n, "solve")?, int(nrhs, "solve")?, int(count, "solve")?);
        let op = if transpose {
            blas::cublasOperation_t::CUBLAS_OP_T
        } else {
            blas::cublasOperation_t::CUBLAS_OP_N
        };
        // Only argument errors land here (on the host); the factors' singularity is getrf's.
        let mut info = 0i32;
        self.note_launch(n * nrhs * count);
        unsafe {
            blas_status(
                "getrsBatched",
                match dtype {
                    DType::F32 => blas::cublasSgetrsBatched(
                        h,
                        op,
                        n32,
                        k32,
                        pointers as _,
                        n32.max(1),
                        pivots as _,
                        rhs as _,
                        n32.max(1),
                        &mut info,
                        batch,
                    ),
                    DType::C64 => blas::cublasCgetrsBatched(
                        h,
                        op,
                        n32,
                        k32,
                        pointers as _,
                        n32.max(1),
                        pivots as _,
                        rhs as _,
                        n32.max(1),
                        &mut info,
                        batch,
                    ),
                    DType::C128 => blas::cublasZgetrsBatched(
                        h,
                        op,
                        n32,
                        k32,
                        pointers as _,
                        n32.max(1),
                        pivots as _,
                        rhs as _,
                        n32.max(1),
                        &mut info,
                        batch,
                    ),
                    _ => blas::cublasDgetrsBatched(
                        h,
                        op,
                        n32,
                        k32,
                        pointers as _,
                        n32.max(1),
                        pivots as _,
                        rhs as _,
                        n32.max(1),
                        &mut info,
                        batch,
                    ),
                },
            )?
        };
        if info != 0 {
            return Err(device_error(format!(
                "cuBLAS getrsBatched: argument {} is invalid",
                -info
            )));
        }
        Ok(())
    }
}
