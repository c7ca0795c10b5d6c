//! Dense solvers on the gpu: cuSOLVER (its 64-bit API for LU, Cholesky, QR, SVD and the
//! symmetric and general eigenproblems; the typed API for the Householder Q and the batched
//! Cholesky and Jacobi solvers) and cuBLAS's batched LU for stacks of small matrices. Everything
//! is column-major: the array layer decides what each pointer holds (a C-ordered matrix is its
//! transpose column-major). Each library call counts as one kernel; workspaces come from the
//! memory pool, one per call of these functions, however many matrices it factors. Status words
//! (`info`) stay on the device: the caller reads them back once.

use std::ffi::c_void;

use cudarc::cusolver::sys;

use super::driver::Gpu;
use super::memory::GpuBuffer;
use crate::base::DType;
use crate::error::{device_error, Result};

/// `count` blocks of device memory `step` bytes apart, from `base`: one matrix (or vector) of a
/// stack each.
#[derive(Clone, Copy, Debug)]
pub struct Strided {
    pub base: u64,
    pub step: u64,
}

impl Strided {
    pub fn new(base: u64, step: usize) -> Strided {
        Strided {
            base,
            step: step as u64,
        }
    }

    pub fn at(&self, k: usize) -> u64 {
        self.base + k as u64 * self.step
    }

    fn ptr(&self, k: usize) -> *mut c_void {
        self.at(k) as *mut c_void
    }
}

/// Which triangle of a symmetric matrix a call reads.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Fill {
    Lower,
    Upper,
}

impl Fill {
    fn mode(self) -> sys::cublasFillMode_t {
        match self {
            Fill::Lower => sys::cublasFillMode_t::CUBLAS_FILL_MODE_LOWER,
            Fill::Upper => sys::cublasFillMode_t::CUBLAS_FILL_MODE_UPPER,
        }
    }
}

/// Which singular vectors `gesvd` computes: all, the first min(m, n), or none.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Vectors {
    All,
    Thin,
    None,
}

impl Vectors {
    fn job(self) -> std::ffi::c_schar {
        (match self {
            Vectors::All => b'A',
            Vectors::Thin => b'S',
            Vectors::None => b'N',
        }) as std::ffi::c_schar
    }
}

fn data_type(dtype: DType) -> sys::cudaDataType {
    use sys::cudaDataType::*;
    match dtype {
        DType::F32 => CUDA_R_32F,
        DType::C64 => CUDA_C_32F,
        DType::C128 => CUDA_C_64F,
        _ => CUDA_R_64F,
    }
}

/// The type of singular values and of a Hermitian matrix's eigenvalues.
fn real_type(dtype: DType) -> sys::cudaDataType {
    data_type(dtype.real())
}

fn eig_mode(vectors: bool) -> sys::cusolverEigMode_t {
    if vectors {
        sys::cusolverEigMode_t::CUSOLVER_EIG_MODE_VECTOR
    } else {
        sys::cusolverEigMode_t::CUSOLVER_EIG_MODE_NOVECTOR
    }
}

fn status(what: &str, s: sys::cusolverStatus_t) -> Result<()> {
    s.result()
        .map_err(|e| device_error(format!("cuSOLVER {what} failed: {e:?}")))
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

/// A call's scratch: device bytes from the pool (one counted allocation), host bytes if asked.
struct Workspace {
    device: GpuBuffer,
    device_bytes: usize,
    host: Vec<u8>,
}

impl Workspace {
    fn device_ptr(&self) -> *mut c_void {
        self.device.device_pointer() as *mut c_void
    }

    fn host_ptr(&mut self) -> *mut c_void {
        self.host.as_mut_ptr() as *mut c_void
    }
}

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

impl Gpu {
    /// The cuSOLVER handle (on the stream every other operation uses) and its parameters object.
    fn solver(&self) -> Result<(sys::cusolverDnHandle_t, sys::cusolverDnParams_t)> {
        if let Some(pair) = self.solver.get() {
            return Ok(pair);
        }
        // SAFETY: only tries to open the library.
        if !unsafe { sys::is_culib_present() } {
            return Err(device_error("no cuSOLVER: libcusolver.so not found"));
        }
        let failed = |e| device_error(format!("cuSOLVER failed to start: {e:?}"));
        let handle = cudarc::cusolver::result::dn_create().map_err(failed)?;
        // SAFETY: a new handle, set to this context's stream.
        unsafe { cudarc::cusolver::result::dn_set_stream(handle, self.stream as _) }
            .map_err(failed)?;
        let params = cudarc::cusolver::result::dn_create_params().map_err(failed)?;
        self.solver.set(Some((handle, params)));
        Ok((handle, params))
    }

    fn workspace(&'static self, device_bytes: usize, host_bytes: usize) -> Result<Workspace> {
        Ok(Workspace {
            device: self.alloc(device_bytes.max(1), DType::U8)?,
            device_bytes,
            host: vec![0u8; host_bytes],
        })
    }

    /// LU with partial pivoting (`getrf`) of `count` n×n matrices (leading dimension n), in
    /// place; pivots are i64.
    pub fn getrf(
        &'static self,
        dtype: DType,
        n: usize,
        count: usize,
        a: Strided,
        pivots: Strided,
        info: Strided,
    ) -> Result<()> {
        let (h, p) = self.solver()?;
        let (t, n64) = (data_type(dtype), n as i64);
        let (mut dev, mut host) = (0usize, 0usize);
        // SAFETY (here and below): the pointers address live device buffers of the sizes the
        // arguments describe; the workspaces are at least as large as cuSOLVER asked.
        unsafe {
            status(
                "getrf",
                sys::cusolverDnXgetrf_bufferSize(
                    h,
                    p,
                    n64,
                    n64,
                    t,
                    a.ptr(0),
                    n64.max(1),
                    t,
                    &mut dev,
                    &mut host,
                ),
            )?
        };
        let mut ws = self.workspace(dev, host)?;
        for k in 0..count {
            self.note_launch(n * n);
            unsafe {
                status(
                    "getrf",
                    sys::cusolverDnXgetrf(
                        h,
                        p,
                        n64,
                        n64,
                        t,
                        a.ptr(k),
                        n64.max(1),
                        pivots.at(k) as *mut i64,
                        t,
                        ws.device_ptr(),
                        ws.device_bytes,
                        ws.host_ptr(),
                        host,
                        info.at(k) as *mut i32,
                    ),
                )?
            };
        }
        Ok(())
    }

    /// Solves with `getrf`'s factors (`getrs`): A x = b, or Aᵀ x = b when `transpose`; each b
    /// is n×nrhs (leading dimension n), overwritten by x.
    #[allow(clippy::too_many_arguments)]
    pub fn getrs(
        &self,
        dtype: DType,
        transpose: bool,
        n: usize,
        nrhs: usize,
        count: usize,
        a: Strided,
        pivots: Strided,
        b: Strided,
        info: Strided,
    ) -> Result<()> {
        let (h, p) = self.solver()?;
        let (t, n64) = (data_type(dtype), n as i64);
        let op = if transpose {
            sys::cublasOperation_t::CUBLAS_OP_T
        } else {
            sys::cublasOperation_t::CUBLAS_OP_N
        };
        for k in 0..count {
            self.note_launch(n * nrhs);
            unsafe {
                status(
                    "getrs",
                    sys::cusolverDnXgetrs(
                        h,
                        p,
                        op,
                        n64,
                        nrhs as i64,
                        t,
                        a.ptr(k),
                        n64.max(1),
                        pivots.at(k) as *const i64,
                        t,
                        b.ptr(k),
                        n64.max(1),
                        info.at(k) as *mut i32,
                    ),
                )?
            };
        }
        Ok(())
    }

    /// Cholesky (`potrf`) of `count` n×n matrices in place, reading and writing `fill`.
    pub fn potrf(
        &'static self,
        dtype: DType,
        fill: Fill,
        n: usize,
        count: usize,
        a: Strided,
        info: Strided,
    ) -> Result<()> {
        let (h, p) = self.solver()?;
        let (t, n64) = (data_type(dtype), n as i64);
        let (mut dev, mut host) = (0usize, 0usize);
        unsafe {
            status(
                "potrf",
                sys::cusolverDnXpotrf_bufferSize(
                    h,
                    p,
                    fill.mode(),
                    n64,
                    t,
                    a.ptr(0),
                    n64.max(1),
                    t,
                    &mut dev,
                    &mut host,
                ),
            )?
        };
        let mut ws = self.workspace(dev, host)?;
        for k in 0..count {
            self.note_launch(n * n);
            unsafe {
                status(
                    "potrf",
                    sys::cusolverDnXpotrf(
                        h,
                        p,
                        fill.mode(),
                        n64,
                        t,
                        a.ptr(k),
                        n64.max(1),
                        t,
                        ws.device_ptr(),
                        ws.device_bytes,
                        ws.host_ptr(),
                        host,
                        info.at(k) as *mut i32,
                    ),
                )?
            };
        }
        Ok(())
    }

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

    /// Householder QR (`geqrf`) of `count` m×n matrices (leading dimension m) in place, with
    /// min(m, n) scalar factors each in `tau`.
    #[allow(clippy::too_many_arguments)]
    pub fn geqrf(
        &'static self,
        dtype: DType,
        m: usize,
        n: usize,
        count: usize,
        a: Strided,
        tau: Strided,
        info: Strided,
    ) -> Result<()> {
        let (h, p) = self.solver()?;
        let t = data_type(dtype);
        let (m64, n64) = (m as i64, n as i64);
        let (mut dev, mut host) = (0usize, 0usize);
        unsafe {
            status(
                "geqrf",
                sys::cusolverDnXgeqrf_bufferSize(
                    h,
                    p,
                    m64,
                    n64,
                    t,
                    a.ptr(0),
                    m64.max(1),
                    t,
                    tau.ptr(0),
                    t,
                    &mut dev,
                    &mut host,
                ),
            )?
        };
        let mut ws = self.workspace(dev, host)?;
        for k in 0..count {
            self.note_launch(m * n);
            unsafe {
                status(
                    "geqrf",
                    sys::cusolverDnXgeqrf(
                        h,
                        p,
                        m64,
                        n64,
                        t,
                        a.ptr(k),
                        m64.max(1),
                        t,
                        tau.ptr(k),
                        t,
                        ws.device_ptr(),
                        ws.device_bytes,
                        ws.host_ptr(),
                        host,
                        info.at(k) as *mut i32,
                    ),
                )?
            };
        }
        Ok(())
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

    /// The SVD (`gesvd`) of `count` m×n matrices with m ≥ n (leading dimension m), destroying
    /// them: singular values in `s`, U (m×m or m×n, leading dimension m) and Vᴴ (n×n).
    #[allow(clippy::too_many_arguments)]
    pub fn gesvd(
        &'static self,
        dtype: DType,
        vectors: Vectors,
        m: usize,
        n: usize,
        count: usize,
        a: Strided,
        s: Strided,
        u: Strided,
        vt: Strided,
        info: Strided,
    ) -> Result<()> {
        let (h, p) = self.solver()?;
        let (t, r) = (data_type(dtype), real_type(dtype));
        let (m64, n64) = (m as i64, n as i64);
        let job = vectors.job();
        let (mut dev, mut host) = (0usize, 0usize);
        unsafe {
            status(
                "gesvd",
                sys::cusolverDnXgesvd_bufferSize(
                    h,
                    p,
                    job,
                    job,
                    m64,
                    n64,
                    t,
                    a.ptr(0),
                    m64.max(1),
                    r,
                    s.ptr(0),
                    t,
                    u.ptr(0),
                    m64.max(1),
                    t,
                    vt.ptr(0),
                    n64.max(1),
                    t,
                    &mut dev,
                    &mut host,
                ),
            )?
        };
        let mut ws = self.workspace(dev, host)?;
        for k in 0..count {
            self.note_launch(m * n);
            unsafe {
                status(
                    "gesvd",
                    sys::cusolverDnXgesvd(
                        h,
                        p,
                        job,
                        job,
                        m64,
                        n64,
                        t,
                        a.ptr(k),
                        m64.max(1),
                        r,
                        s.ptr(k),
                        t,
                        u.ptr(k),
                        m64.max(1),
                        t,
                        vt.ptr(k),
                        n64.max(1),
                        t,
                        ws.device_ptr(),
                        ws.device_bytes,
                        ws.host_ptr(),
                        host,
                        info.at(k) as *mut i32,
                    ),
                )?
            };
        }
        Ok(())
    }

    /// Eigenvalues (ascending, in `w`) and with `vectors` eigenvectors (over `a`) of `count`
    /// Hermitian n×n matrices read from `fill` (`syevd`/`heevd`).
    #[allow(clippy::too_many_arguments)]
    pub fn syevd(
        &'static self,
        dtype: DType,
        vectors: bool,
        fill: Fill,
        n: usize,
        count: usize,
        a: Strided,
        w: Strided,
        info: Strided,
    ) -> Result<()> {
        let (h, p) = self.solver()?;
        let (t, r, n64) = (data_type(dtype), real_type(dtype), n as i64);
        let (mut dev, mut host) = (0usize, 0usize);
        unsafe {
            status(
                "syevd",
                sys::cusolverDnXsyevd_bufferSize(
                    h,
                    p,
                    eig_mode(vectors),
                    fill.mode(),
                    n64,
                    t,
                    a.ptr(0),
                    n64.max(1),
                    r,
                    w.ptr(0),
                    t,
                    &mut dev,
                    &mut host,
                ),
            )?
        };
        let mut ws = self.workspace(dev, host)?;
        for k in 0..count {
            self.note_launch(n * n);
            unsafe {
                status(
                    "syevd",
                    sys::cusolverDnXsyevd(
                        h,
                        p,
                        eig_mode(vectors),
                        fill.mode(),
                        n64,
                        t,
                        a.ptr(k),
                        n64.max(1),
                        r,
                        w.ptr(k),
                        t,
                        ws.device_ptr(),
                        ws.device_bytes,
                        ws.host_ptr(),
                        host,
                        info.at(k) as *mut i32,
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

    /// Eigenvalues (complex, in `w`) and with `vectors` right eigenvectors (`vr`, leading
    /// dimension n) of `count` general n×n matrices, destroying them (`geev`). For a real
    /// dtype, `vr` is real with LAPACK's packing of complex pairs (two columns, re and im).
    #[allow(clippy::too_many_arguments)]
    pub fn geev(
        &'static self,
        dtype: DType,
        vectors: bool,
        n: usize,
        count: usize,
        a: Strided,
        w: Strided,
        vr: Strided,
        info: Strided,
    ) -> Result<()> {
        let (h, p) = self.solver()?;
        // SAFETY: looks a symbol up; cuSOLVER before CUDA 12.6 lacks it, and cudarc would panic.
        let present = unsafe {
            sys::culib()
                .get::<unsafe extern "C" fn()>(b"cusolverDnXgeev\0")
                .is_ok()
        };
        if !present {
            return Err(device_error(
                "eig on the gpu needs cuSOLVER's geev (CUDA 12.6 or later)",
            ));
        }
        let t = data_type(dtype);
        let wt = data_type(dtype.complex_of());
        let n64 = n as i64;
        let (right, none) = (eig_mode(vectors), eig_mode(false));
        let vr_ptr = |k: usize| {
            if vectors {
                vr.ptr(k)
            } else {
                std::ptr::null_mut()
            }
        };
        let (mut dev, mut host) = (0usize, 0usize);
        unsafe {
            status(
                "geev",
                sys::cusolverDnXgeev_bufferSize(
                    h,
                    p,
                    none,
                    right,
                    n64,
                    t,
                    a.ptr(0),
                    n64.max(1),
                    wt,
                    w.ptr(0),
                    t,
                    std::ptr::null(),
                    1,
                    t,
                    vr_ptr(0),
                    n64.max(1),
                    t,
                    &mut dev,
                    &mut host,
                ),
            )?
        };
        let mut ws = self.workspace(dev, host)?;
        for k in 0..count {
            self.note_launch(n * n);
            unsafe {
                status(
                    "geev",
                    sys::cusolverDnXgeev(
                        h,
                        p,
                        none,
                        right,
                        n64,
                        t,
                        a.ptr(k),
                        n64.max(1),
                        wt,
                        w.ptr(k),
                        t,
                        std::ptr::null_mut(),
                        1,
                        t,
                        vr_ptr(k),
                        n64.max(1),
                        t,
                        ws.device_ptr(),
                        ws.device_bytes,
                        ws.host_ptr(),
                        host,
                        info.at(k) as *mut i32,
                    ),
                )?
            };
        }
        Ok(())
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
