//! Dense solvers on the gpu with cuSOLVER's 64-bit API: LU, Cholesky, QR, SVD and the symmetric
//! and general eigenproblems, one call per matrix of a stack (`batched` has the routines that
//! take a whole stack, and cuSOLVER's typed ones). Everything is column-major: the array layer
//! decides what each pointer holds (a C-ordered matrix is its transpose column-major). Each
//! library call counts as one kernel; workspaces come from the memory pool, one per call of these
//! functions however many matrices it factors. Status words (`info`) stay on the device: the
//! caller reads them back once.

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
    pub(super) fn mode(self) -> sys::cublasFillMode_t {
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

pub(super) fn eig_mode(vectors: bool) -> sys::cusolverEigMode_t {
    if vectors {
        sys::cusolverEigMode_t::CUSOLVER_EIG_MODE_VECTOR
    } else {
        sys::cusolverEigMode_t::CUSOLVER_EIG_MODE_NOVECTOR
    }
}

pub(super) fn status(what: &str, s: sys::cusolverStatus_t) -> Result<()> {
    s.result()
        .map_err(|e| device_error(format!("cuSOLVER {what} failed: {e:?}")))
}

/// A call's scratch: device bytes from the pool (one counted allocation), host bytes if asked.
pub(super) struct Workspace {
    pub(super) device: GpuBuffer,
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

impl Gpu {
    /// The cuSOLVER handle (on the stream every other operation uses) and its parameters object.
    pub(super) fn solver(&self) -> Result<(sys::cusolverDnHandle_t, sys::cusolverDnParams_t)> {
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

    pub(super) fn workspace(
        &'static self,
        device_bytes: usize,
        host_bytes: usize,
    ) -> Result<Workspace> {
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
}
