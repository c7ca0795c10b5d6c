//! The gpu side of `decompositions`: cuSOLVER and cuBLAS (`device::gpu::solver`) on working
//! copies, with the helpers of `kernels/linalg.cu`. The callers have checked shapes and chosen
//! the dtype. cuSOLVER is column-major, and a C-ordered matrix is its transpose column-major:
//! the LU of Aᵀ gives det(A), solves A x = b with the transposed solve (`getrs` with `T`) and
//! inverts A into C order (inv(Aᵀ)ᵀ); the Cholesky and eigen solvers read the other triangle of
//! Aᵀ; the SVD of Aᵀ gives A's factors swapped. Only QR, a wide SVD and `eig` copy A transposed.
//!
//! Each call makes one working copy (one kernel) that the library overwrites; stacks of small
//! matrices go to the batched routines (one launch for the stack), others one call per matrix.
//! Where a matrix can be singular, not positive definite or not converge, the status words of
//! the whole call are read back once (one counted device→host copy) to raise NumPy's error, as
//! CuPy does; determinants and QR read nothing back.

use super::decompositions::{identity, leading_block, split_shape, stack_layout, with_tail, zeros};
use super::shape::matrix_transpose;
use super::Array;
use crate::base::DType;
use crate::device::gpu::solver::{Fill, Strided, Vectors};
use crate::device::gpu::{gpu, Gpu, GpuBuffer};
use crate::device::{Buffer, Device};
use crate::error::{device_error, linalg_error, Result};
use crate::kernel_args;
use crate::plan::table::Op;

/// Stacks of matrices up to this order go to the batched routines.
const BATCHED: usize = 32;

/// The device address of an array's first element, once its elements are computed.
fn pointer(a: &Array) -> Result<u64> {
    let buffer = a.buffer()?;
    let g = buffer
        .gpu()
        .expect("gpu_decompositions is only called with gpu arrays");
    Ok(g.element_pointer(a.layout().offset))
}

/// A fresh C-ordered copy of `a` as `dtype` (each matrix transposed when `transpose`, so that it
/// is column-major): what a factorisation overwrites. One kernel, computed now.
fn working(a: &Array, dtype: DType, transpose: bool) -> Result<(Array, u64)> {
    let source = if transpose {
        matrix_transpose(a)?
    } else {
        a.clone()
    };
    let copy = source.astype(dtype)?;
    let at = pointer(&copy)?;
    Ok((copy, at))
}

/// A new uninitialised C-ordered gpu array.
fn empty(shape: &[usize], dtype: DType) -> Result<(Array, u64)> {
    let size = crate::base::layout::shape_size(shape)?;
    let array = Array::from_buffer(Buffer::alloc(Device::Gpu, size, dtype)?, shape);
    let at = pointer(&array)?;
    Ok((array, at))
}

fn scratch(g: &'static Gpu, len: usize, dtype: DType) -> Result<GpuBuffer> {
    g.alloc(len.max(1), dtype)
}

/// The device array of the addresses of a contiguous stack's `count` matrices, `step` bytes
/// apart (one kernel).
fn matrix_pointers(g: &'static Gpu, base: u64, step: usize, count: usize) -> Result<GpuBuffer> {
    let out = scratch(g, count, DType::U64)?;
    let (to, step, n) = (out.device_pointer(), step as u64, count as i64);
    g.launch_over(
        "linalg",
        "matrix_pointers",
        count,
        &mut kernel_args![to, base, step, n],
    )?;
    Ok(out)
}

/// Status words (`info`) of a call on the device, one per matrix and stage.
struct Status {
    buffer: GpuBuffer,
    len: usize,
}

impl Status {
    fn new(g: &'static Gpu, len: usize) -> Result<Status> {
        Ok(Status {
            buffer: scratch(g, len, DType::I32)?,
            len,
        })
    }

    fn slots(&self, first: usize) -> Strided {
        Strided::new(self.buffer.device_pointer() + 4 * first as u64, 4)
    }

    fn base(&self) -> u64 {
        self.buffer.device_pointer()
    }

    /// The words, read back in one counted device→host copy.
    fn read(&self) -> Result<Vec<i32>> {
        self.buffer.gpu().copy_to_host::<i32>(self.base(), self.len)
    }

    /// NumPy's `failure` when a word of the first `count` is positive.
    fn check(words: &[i32], count: usize, failure: &str) -> Result<()> {
        let words = &words[..count.min(words.len())];
        if let Some(w) = words.iter().find(|&&w| w < 0) {
            return Err(device_error(format!(
                "cuSOLVER: argument {} is invalid",
                -w
            )));
        }
        if words.iter().any(|&w| w > 0) {
            return Err(linalg_error(failure));
        }
        Ok(())
    }

    fn read_and_check(&self, failure: &str) -> Result<()> {
        Status::check(&self.read()?, self.len, failure)
    }
}

/// The stack's leading shape, matrix count and matrix shape.
fn stack_of(a: &Array) -> (Vec<usize>, usize, usize, usize) {
    let (batch, m, n) = split_shape(a);
    (batch.to_vec(), batch.iter().product(), m, n)
}

fn conj(x: &Array) -> Result<Array> {
    if x.dtype().is_complex() {
        super::ops::unary(Op::Conjugate, x)
    } else {
        Ok(x.clone())
    }
}

/// Zeroes the strictly lower (or upper) triangle of each C-ordered rows × cols matrix of `a`.
fn zero_triangle(a: &Array, rows: usize, cols: usize, lower: bool) -> Result<()> {
    let g = gpu()?;
    let at = pointer(a)?;
    let count = a.size() / (rows * cols).max(1);
    let (batch, r, c) = (count as i64, rows as i64, cols as i64);
    let (bs, rs, cs, low) = (r * c, c, 1i64, lower as i32);
    let name = format!("zero_triangle_{}", a.dtype().size());
    g.launch_over(
        "linalg",
        &name,
        a.size(),
        &mut kernel_args![at, batch, r, c, bs, rs, cs, low],
    )
}

fn kernel_suffix(dtype: DType) -> &'static str {
    match dtype {
        DType::F32 => "f32",
        DType::C64 => "c64",
        DType::C128 => "c128",
        _ => "f64",
    }
}

/// `inv`: cuBLAS's batched LU and inverse for stacks of small matrices; else cuSOLVER's LU of
/// Aᵀ solved against the identity, which gives inv(Aᵀ) column-major: inv(A) in C order.
pub fn inv(a: &Array, dtype: DType) -> Result<Array> {
    let g = gpu()?;
    let (batch, count, n, _) = stack_of(a);
    let step = n * n * dtype.size();
    let (_work, at) = working(a, dtype, false)?;
    if count > 1 && n <= BATCHED {
        let (out, to) = empty(a.shape(), dtype)?;
        let sources = matrix_pointers(g, at, step, count)?;
        let targets = matrix_pointers(g, to, step, count)?;
        let pivots = scratch(g, n * count, DType::I32)?;
        let status = Status::new(g, count)?;
        let (s, p) = (sources.device_pointer(), pivots.device_pointer());
        g.getrf_batched(dtype, n, count, s, p, status.base())?;
        g.getri_batched(
            dtype,
            n,
            count,
            s,
            p,
            targets.device_pointer(),
            status.base(),
        )?;
        status.read_and_check("Singular matrix")?;
        return Ok(out);
    }
    let out = identity(&batch, n, dtype, Device::Gpu)?;
    let to = pointer(&out)?;
    let pivots = scratch(g, n * count, DType::I64)?;
    let status = Status::new(g, 2 * count)?;
    let pivots = Strided::new(pivots.device_pointer(), n * 8);
    let (lu, x) = (Strided::new(at, step), Strided::new(to, step));
    g.getrf(dtype, n, count, lu, pivots, status.slots(0))?;
    g.getrs(
        dtype,
        false,
        n,
        n,
        count,
        lu,
        pivots,
        x,
        status.slots(count),
    )?;
    status.read_and_check("Singular matrix")?;
    Ok(out)
}

/// `solve` of a (..., m, m) against b (..., m, k) (leading axes already broadcast): the LU of
/// Aᵀ, then the transposed solve on b's columns; x is column-major per matrix.
pub fn solve(a: &Array, b: &Array, dtype: DType) -> Result<Array> {
    let g = gpu()?;
    let (batch, count, n, _) = stack_of(a);
    let k = b.shape()[b.ndim() - 1];
    let (step, b_step) = (n * n * dtype.size(), n * k * dtype.size());
    let (_work, at) = working(a, dtype, false)?;
    let (x, xt) = working(b, dtype, true)?;
    if count > 1 && n <= BATCHED {
        let sources = matrix_pointers(g, at, step, count)?;
        let columns = matrix_pointers(g, xt, b_step, count)?;
        let pivots = scratch(g, n * count, DType::I32)?;
        let status = Status::new(g, count)?;
        let (s, p) = (sources.device_pointer(), pivots.device_pointer());
        g.getrf_batched(dtype, n, count, s, p, status.base())?;
        g.getrs_batched(dtype, true, n, k, count, s, p, columns.device_pointer())?;
        status.read_and_check("Singular matrix")?;
    } else {
        let pivots = scratch(g, n * count, DType::I64)?;
        let status = Status::new(g, 2 * count)?;
        let pivots = Strided::new(pivots.device_pointer(), n * 8);
        let lu = Strided::new(at, step);
        g.getrf(dtype, n, count, lu, pivots, status.slots(0))?;
        g.getrs(
            dtype,
            true,
            n,
            k,
            count,
            lu,
            pivots,
            Strided::new(xt, b_step),
            status.slots(count),
        )?;
        status.read_and_check("Singular matrix")?;
    }
    Ok(x.with_layout(stack_layout(&batch, n, k, true)))
}

/// `slogdet`: the LU of Aᵀ (det(Aᵀ) = det(A)) and one kernel that reads its diagonal and
/// pivots; a zero pivot gives (0, -inf), so nothing is read back.
pub fn slogdet(a: &Array, dtype: DType) -> Result<(Array, Array)> {
    let g = gpu()?;
    let (batch, count, n, _) = stack_of(a);
    let step = n * n * dtype.size();
    let (_work, at) = working(a, dtype, false)?;
    let (sign, sign_at) = empty(&batch, dtype)?;
    let (log, log_at) = empty(&batch, dtype.real())?;
    let status = Status::new(g, count)?;
    let (pivots, width) = if count > 1 && n <= BATCHED {
        let pivots = scratch(g, n * count, DType::I32)?;
        let sources = matrix_pointers(g, at, step, count)?;
        g.getrf_batched(
            dtype,
            n,
            count,
            sources.device_pointer(),
            pivots.device_pointer(),
            status.base(),
        )?;
        (pivots, "i32")
    } else {
        let pivots = scratch(g, n * count, DType::I64)?;
        let strided = Strided::new(pivots.device_pointer(), n * 8);
        g.getrf(
            dtype,
            n,
            count,
            Strided::new(at, step),
            strided,
            status.slots(0),
        )?;
        (pivots, "i64")
    };
    let (p, n64, c64) = (pivots.device_pointer(), n as i64, count as i64);
    let name = format!("slogdet_{}_{width}", kernel_suffix(dtype));
    g.launch_over(
        "linalg",
        &name,
        count,
        &mut kernel_args![at, p, n64, c64, sign_at, log_at],
    )?;
    Ok((sign, log))
}

/// `cholesky`: `potrf` of Aᵀ on the triangle that is A's lower one (or its upper one), whose
/// factor, read in C order, is L (or U); the other triangle is then zeroed.
pub fn cholesky(a: &Array, dtype: DType, upper: bool) -> Result<Array> {
    let g = gpu()?;
    let (_, count, n, _) = stack_of(a);
    let step = n * n * dtype.size();
    let (work, at) = working(a, dtype, false)?;
    let fill = if upper { Fill::Lower } else { Fill::Upper };
    let status = Status::new(g, count)?;
    if count > 1 && n <= BATCHED {
        let matrices = matrix_pointers(g, at, step, count)?;
        g.potrf_batched(
            dtype,
            fill,
            n,
            count,
            matrices.device_pointer(),
            status.base(),
        )?;
    } else {
        g.potrf(
            dtype,
            fill,
            n,
            count,
            Strided::new(at, step),
            status.slots(0),
        )?;
    }
    zero_triangle(&work, n, n, upper)?;
    status.read_and_check("Matrix is not positive definite")?;
    Ok(work)
}

/// `qr`: `geqrf` of each matrix column-major; R is the upper triangle of the first rows (a
/// copy), Q the reflectors expanded in place by `orgqr` (into a wider copy for a complete Q of
/// a tall matrix).
pub fn qr(a: &Array, dtype: DType, complete: bool, want_q: bool) -> Result<(Option<Array>, Array)> {
    let g = gpu()?;
    let (batch, count, m, n) = stack_of(a);
    let k = m.min(n);
    let size = dtype.size();
    let (work, at) = working(a, dtype, true)?;
    let tau = scratch(g, k * count, dtype)?;
    let status = Status::new(g, 2 * count)?;
    let taus = Strided::new(tau.device_pointer(), k * size);
    g.geqrf(
        dtype,
        m,
        n,
        count,
        Strided::new(at, m * n * size),
        taus,
        status.slots(0),
    )?;
    let factored = work.with_layout(stack_layout(&batch, m, n, true));
    let r_rows = if complete { m } else { k };
    let r = leading_block(&factored, r_rows, n).copy()?;
    zero_triangle(&r, r_rows, n, true)?;
    if !want_q {
        return Ok((None, r));
    }
    let q_cols = if complete { m } else { k };
    let q = if q_cols <= n {
        let matrices = Strided::new(at, m * n * size);
        g.orgqr(
            dtype,
            m,
            q_cols,
            q_cols,
            count,
            matrices,
            taus,
            status.slots(count),
        )?;
        leading_block(&factored, m, q_cols)
    } else {
        // A complete Q of a tall matrix: the reflectors in the first n columns of an m×m copy.
        let wide = zeros(&with_tail(&batch, &[m, m]), dtype, Device::Gpu)?;
        let wide = wide.with_layout(stack_layout(&batch, m, m, true));
        let first = leading_block(&wide, m, n);
        super::ops::assign(&first, super::ops::Operand::Array(&factored))?;
        let matrices = Strided::new(pointer(&wide)?, m * m * size);
        g.orgqr(dtype, m, m, k, count, matrices, taus, status.slots(count))?;
        wide
    };
    Ok((Some(q), r))
}

/// `svd`. A stack of small matrices goes to `gesvdjBatched` on Aᵀ (= conj(V) S Uᵀ, so U is the
/// conjugated V and Vh the transposed U of Aᵀ). One matrix at a time, `gesvd` (which needs
/// rows ≥ columns) runs on Aᵀ when A is wide or square, whose Vᴴ and U read in C order are A's
/// U and Vh, and on A itself (copied column-major) when A is tall.
pub fn svd(a: &Array, dtype: DType, vectors: Option<bool>) -> Result<super::decompositions::Svd> {
    use super::decompositions::Svd;
    let g = gpu()?;
    let (batch, count, m, n) = stack_of(a);
    let k = m.min(n);
    let (size, real) = (dtype.size(), dtype.real());
    let (s, s_at) = empty(&with_tail(&batch, &[k]), real)?;
    let status = Status::new(g, count)?;
    let failure = "SVD did not converge";
    if count > 1 && m <= BATCHED && n <= BATCHED {
        let (_work, at) = working(a, dtype, false)?;
        let (u_t, u_at) = empty(&with_tail(&batch, &[n, n]), dtype)?;
        let (v_t, v_at) = empty(&with_tail(&batch, &[m, m]), dtype)?;
        g.gesvdj_batched(
            dtype,
            vectors.is_some(),
            n,
            m,
            count,
            at,
            s_at,
            u_at,
            v_at,
            status.base(),
        )?;
        status.read_and_check(failure)?;
        let Some(full) = vectors else {
            return Ok(Svd {
                u: None,
                s,
                vh: None,
            });
        };
        let u = conj(&v_t.with_layout(stack_layout(&batch, m, m, true)))?;
        let (u, vh) = if full {
            (u, u_t)
        } else {
            (leading_block(&u, m, k), leading_block(&u_t, k, n))
        };
        return Ok(Svd {
            u: Some(u),
            s,
            vh: Some(vh),
        });
    }
    let job = match vectors {
        None => Vectors::None,
        Some(true) => Vectors::All,
        Some(false) => Vectors::Thin,
    };
    let singular = Strided::new(s_at, k * real.size());
    if m <= n {
        // gesvd of Aᵀ (n×m): its U (n×n or n×m) in C order is Vh, its Vᴴ (m×m) is U.
        let (_work, at) = working(a, dtype, false)?;
        let u_cols = if job == Vectors::All { n } else { m };
        let (vh, vh_at) = empty(&with_tail(&batch, &[u_cols, n]), dtype)?;
        let (u, u_at) = empty(&with_tail(&batch, &[m, m]), dtype)?;
        let (ut, vt) = (
            Strided::new(vh_at, n * u_cols * size),
            Strided::new(u_at, m * m * size),
        );
        g.gesvd(
            dtype,
            job,
            n,
            m,
            count,
            Strided::new(at, m * n * size),
            singular,
            ut,
            vt,
            status.slots(0),
        )?;
        status.read_and_check(failure)?;
        let factors = vectors.map(|_| (u, vh));
        return Ok(Svd {
            u: factors.as_ref().map(|f| f.0.clone()),
            s,
            vh: factors.map(|f| f.1),
        });
    }
    // gesvd of A (m×n, column-major): U (m×m or m×n) and Vᴴ (n×n), both column-major.
    let (_work, at) = working(a, dtype, true)?;
    let u_cols = if job == Vectors::All { m } else { n };
    let (u, u_at) = empty(&with_tail(&batch, &[u_cols, m]), dtype)?;
    let (vh, vh_at) = empty(&with_tail(&batch, &[n, n]), dtype)?;
    let (ut, vt) = (
        Strided::new(u_at, m * u_cols * size),
        Strided::new(vh_at, n * n * size),
    );
    g.gesvd(
        dtype,
        job,
        m,
        n,
        count,
        Strided::new(at, m * n * size),
        singular,
        ut,
        vt,
        status.slots(0),
    )?;
    status.read_and_check(failure)?;
    if vectors.is_none() {
        return Ok(Svd {
            u: None,
            s,
            vh: None,
        });
    }
    let u = u.with_layout(stack_layout(&batch, m, u_cols, true));
    let vh = vh.with_layout(stack_layout(&batch, n, n, true));
    Ok(Svd {
        u: Some(u),
        s,
        vh: Some(vh),
    })
}

/// `eigh`: `syevd` (or, for a stack of small matrices, `syevjBatched`) of Aᵀ reading the
/// triangle that is A's lower (or upper) one. Its Hermitian matrix is conj(A)'s: the same
/// eigenvalues, conjugated eigenvectors, which overwrite the copy column-major.
pub fn eigh(a: &Array, dtype: DType, lower: bool, vectors: bool) -> Result<(Array, Option<Array>)> {
    let g = gpu()?;
    let (batch, count, n, _) = stack_of(a);
    let (work, at) = working(a, dtype, false)?;
    let (w, w_at) = empty(&with_tail(&batch, &[n]), dtype.real())?;
    let fill = if lower { Fill::Upper } else { Fill::Lower };
    let status = Status::new(g, count)?;
    if count > 1 && n <= BATCHED {
        g.syevj_batched(dtype, vectors, fill, n, count, at, w_at, status.base())?;
    } else {
        let (matrices, values) = (
            Strided::new(at, n * n * dtype.size()),
            Strided::new(w_at, n * dtype.real().size()),
        );
        g.syevd(
            dtype,
            vectors,
            fill,
            n,
            count,
            matrices,
            values,
            status.slots(0),
        )?;
    }
    status.read_and_check("Eigenvalues did not converge")?;
    if !vectors {
        return Ok((w, None));
    }
    let v = conj(&work.with_layout(stack_layout(&batch, n, n, true)))?;
    Ok((w, Some(v)))
}

/// `eig`: `geev` of each matrix copied column-major; complex results, as NumPy 2.5's. For a real
/// dtype the eigenvectors come in LAPACK's packing, unpacked by a kernel.
pub fn eig(a: &Array, dtype: DType, vectors: bool) -> Result<(Array, Option<Array>)> {
    let g = gpu()?;
    let (batch, count, n, _) = stack_of(a);
    let (size, complex) = (dtype.size(), dtype.complex_of());
    let (_work, at) = working(a, dtype, true)?;
    let (w, w_at) = empty(&with_tail(&batch, &[n]), complex)?;
    let (vr, vr_at) = empty(&with_tail(&batch, &[if vectors { n } else { 1 }, n]), dtype)?;
    let status = Status::new(g, count)?;
    let (matrices, values) = (
        Strided::new(at, n * n * size),
        Strided::new(w_at, n * complex.size()),
    );
    g.geev(
        dtype,
        vectors,
        n,
        count,
        matrices,
        values,
        Strided::new(vr_at, n * n * size),
        status.slots(0),
    )?;
    let columns = |x: Array| x.with_layout(stack_layout(&batch, n, n, true));
    if dtype.is_complex() {
        status.read_and_check("Eigenvalues did not converge")?;
        return Ok((w, vectors.then(|| columns(vr))));
    }
    let suffix = kernel_suffix(dtype);
    let v = if vectors {
        let (v, v_at) = empty(&with_tail(&batch, &[n, n]), complex)?;
        let (n64, c64) = (n as i64, count as i64);
        g.launch_over(
            "linalg",
            &format!("unpack_eigenvectors_{suffix}"),
            count * n * n,
            &mut kernel_args![w_at, vr_at, v_at, n64, c64],
        )?;
        Some(columns(v))
    } else {
        None
    };
    status.read_and_check("Eigenvalues did not converge")?;
    Ok((w, v))
}
