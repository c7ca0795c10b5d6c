//! NumPy's decompositions and solvers (numpy.linalg, the array API standard's linalg
//! extension) on arrays: stacks of matrices (..., M, N) with NumPy's batching and broadcasting,
//! its dtypes (bools and integers computed in f64, float16 refused, f32 and complex kept), its
//! errors, and the shapes of its tuple results. The cpu runs faer (`device::cpu::decompose`),
//! the gpu cuSOLVER and cuBLAS (`gpu_decompositions`).

use super::ops::device_mismatch;
use super::shape::{broadcast_to, reshape};
use super::Array;
use crate::base::element::{c128, c64};
use crate::base::layout::{broadcast_shapes, shape_text, Layout};
use crate::base::{DType, Scalar};
use crate::device::cpu::decompose::{self, Field, Order, Stack};
use crate::device::cpu::CpuElement;
use crate::device::{Buffer, Device};
use crate::error::{linalg_error, shape_error, type_error, Result};
use crate::plan::Storage;

/// Runs `$body` with `$T` the Rust type of a dtype faer decomposes.
macro_rules! with_field {
    ($dtype:expr, $T:ident => $body:expr) => {
        match $dtype {
            DType::F32 => {
                type $T = f32;
                $body
            }
            DType::C64 => {
                type $T = c64;
                $body
            }
            DType::C128 => {
                type $T = c128;
                $body
            }
            _ => {
                type $T = f64;
                $body
            }
        }
    };
}

/// The dtype linalg computes in for inputs of these dtypes: NumPy's (bools and integers as f64;
/// f32, f64, c64, c128 as promoted); float16 is refused, as NumPy refuses it.
pub fn compute_dtype(dtypes: &[DType]) -> Result<DType> {
    if let Some(d) = dtypes.iter().find(|d| **d == DType::F16) {
        return Err(type_error(format!(
            "array type {} is unsupported in linalg",
            d.numpy_name()
        )));
    }
    let promoted = dtypes.iter().fold(DType::Bool, |acc, d| acc.promote(*d));
    Ok(match promoted {
        DType::F32 | DType::F64 | DType::C64 | DType::C128 => promoted,
        _ => DType::F64,
    })
}

/// NumPy's check that `a` is a stack of matrices (at least two dimensions).
pub fn check_stacked(a: &Array) -> Result<()> {
    if a.ndim() < 2 {
        return Err(linalg_error(format!(
            "{}-dimensional array given. Array must be at least two-dimensional",
            a.ndim()
        )));
    }
    Ok(())
}

/// NumPy's check that `a` is a stack of square matrices.
pub fn check_square(a: &Array) -> Result<()> {
    check_stacked(a)?;
    let n = a.ndim();
    if a.shape()[n - 1] != a.shape()[n - 2] {
        return Err(linalg_error(
            "Last 2 dimensions of the array must be square",
        ));
    }
    Ok(())
}

/// The leading (batch) axes and the matrix shape of a stack.
pub fn split_shape(a: &Array) -> (&[usize], usize, usize) {
    let n = a.ndim();
    (&a.shape()[..n - 2], a.shape()[n - 2], a.shape()[n - 1])
}

pub(super) fn with_tail(batch: &[usize], tail: &[usize]) -> Vec<usize> {
    batch.iter().chain(tail).copied().collect()
}

fn dims(shape: &[usize]) -> Vec<i64> {
    shape.iter().map(|&n| n as i64).collect()
}

/// `x` as `dtype` (itself when it already is).
fn typed(x: &Array, dtype: DType) -> Result<Array> {
    if x.dtype() == dtype {
        Ok(x.clone())
    } else {
        x.astype(dtype)
    }
}

pub(super) fn zeros(shape: &[usize], dtype: DType, device: Device) -> Result<Array> {
    Array::full(shape, Scalar::Int(0), dtype, device)
}

/// Identity matrices of `n`, one per batch element.
pub fn identity(batch: &[usize], n: usize, dtype: DType, device: Device) -> Result<Array> {
    let out = zeros(&with_tail(batch, &[n, n]), dtype, device)?;
    let diagonal = super::shape::diagonal(&out, 0, -2, -1)?;
    super::ops::assign(&diagonal, super::ops::Operand::Scalar(Scalar::Int(1)))?;
    Ok(out)
}

/// The layout of a stack of rows × cols matrices stored one after another, each in C order or
/// (`column_major`) column-major.
pub fn stack_layout(batch: &[usize], rows: usize, cols: usize, column_major: bool) -> Layout {
    let shape = with_tail(batch, &[rows, cols]);
    let mut layout = Layout::contiguous(&shape);
    if column_major {
        let n = shape.len();
        layout.strides[n - 2] = 1;
        layout.strides[n - 1] = rows.max(1) as isize;
    }
    layout
}

/// A view of the first `rows` × `cols` elements of each matrix of a stack.
pub fn leading_block(a: &Array, rows: usize, cols: usize) -> Array {
    let mut layout = a.layout().clone();
    let n = layout.shape.len();
    layout.shape[n - 2] = rows;
    layout.shape[n - 1] = cols;
    a.with_layout(layout)
}

/// A cpu array over a stack the cpu decomposition wrote.
fn stack_array<T: CpuElement>(batch: &[usize], stack: Stack<T>) -> Array {
    let layout = stack_layout(batch, stack.rows, stack.cols, stack.order == Order::Columns);
    Array::new(Storage::Ready(Buffer::Cpu(T::wrap(stack.data))), layout)
}

/// `f` of the 2-d views of a cpu stack in `T`.
fn on_matrices<T: Field, R>(
    a: &Array,
    f: impl FnOnce(&[ndarray::ArrayView2<'_, T>]) -> Result<R>,
) -> Result<R> {
    a.with_view::<T, _>(|v| f(&decompose::matrices(v)))?
}

/// `inv(a)`: the inverse of each square matrix (LinAlgError for a singular one).
pub fn inv(a: &Array) -> Result<Array> {
    check_square(a)?;
    let dtype = compute_dtype(&[a.dtype()])?;
    if a.size() == 0 {
        return zeros(a.shape(), dtype, a.device());
    }
    if a.device() == Device::Gpu {
        return super::gpu_decompositions::inv(a, dtype);
    }
    let batch = split_shape(a).0.to_vec();
    with_field!(dtype, T => {
        let stack = on_matrices::<T, _>(&typed(a, dtype)?, |m| decompose::inverse(m))?;
        Ok(stack_array(&batch, stack))
    })
}

/// `solve(a, b)`: x with a @ x = b for square a (..., M, M); b is (M,) — one vector for every
/// matrix, NumPy 2's rule — or a stack (..., M, K) whose leading axes broadcast with a's.
pub fn solve(a: &Array, b: &Array) -> Result<Array> {
    if a.device() != b.device() {
        return Err(device_mismatch(a, b));
    }
    check_square(a)?;
    let (a_batch, m, _) = split_shape(a);
    let vector = b.ndim() == 1;
    let b_matrix = if vector {
        reshape(b, &[-1, 1])?
    } else {
        b.clone()
    };
    if b_matrix.ndim() < 2 || b_matrix.shape()[b_matrix.ndim() - 2] != m {
        return Err(shape_error(format!(
            "solve: a of shape {} and b of shape {} do not match (b needs {m} rows{})",
            shape_text(a.shape()),
            shape_text(b.shape()),
            if vector {
                ""
            } else {
                ", as its next-to-last axis"
            }
        )));
    }
    let (b_batch, _, k) = split_shape(&b_matrix);
    let batch = broadcast_shapes(a_batch, b_batch)?;
    let a_full = broadcast_to(a, &with_tail(&batch, &[m, m]))?;
    let b_full = broadcast_to(&b_matrix, &with_tail(&batch, &[m, k]))?;
    let dtype = compute_dtype(&[a.dtype(), b.dtype()])?;
    let x = if a_full.size() == 0 || b_full.size() == 0 {
        zeros(b_full.shape(), dtype, a.device())?
    } else if a.device() == Device::Gpu {
        super::gpu_decompositions::solve(&a_full, &b_full, dtype)?
    } else {
        with_field!(dtype, T => {
            let (a_typed, b_typed) = (typed(&a_full, dtype)?, typed(&b_full, dtype)?);
            let stack = on_matrices::<T, _>(&a_typed, |am| {
                on_matrices::<T, _>(&b_typed, |bm| decompose::solve(am, bm))
            })?;
            stack_array(&batch, stack)
        })
    };
    if vector {
        return reshape(&x, &dims(&with_tail(&batch, &[m])));
    }
    Ok(x)
}

/// `slogdet(a)`: (sign, log|det|) of each square matrix; (0, -inf) for a singular one. sign
/// has the computing dtype (complex of unit modulus for complex matrices), log|det| its real one.
pub fn slogdet(a: &Array) -> Result<(Array, Array)> {
    check_square(a)?;
    let dtype = compute_dtype(&[a.dtype()])?;
    let (batch, n, _) = split_shape(a);
    let batch = batch.to_vec();
    if n == 0 || a.size() == 0 {
        let ones = Array::full(&batch, Scalar::Int(1), dtype, a.device())?;
        return Ok((ones, zeros(&batch, dtype.real(), a.device())?));
    }
    if a.device() == Device::Gpu {
        return super::gpu_decompositions::slogdet(a, dtype);
    }
    with_field!(dtype, T => {
        let (sign, log) = on_matrices::<T, _>(&typed(a, dtype)?, |m| decompose::slogdet(m))?;
        Ok((Array::from_vec(sign, batch.clone()), Array::from_vec(log, batch)))
    })
}

/// `det(a)` = sign · exp(log|det|), as NumPy computes it.
pub fn det(a: &Array) -> Result<Array> {
    use crate::plan::table::Op;
    let (sign, log) = slogdet(a)?;
    super::ops::binary(Op::Multiply, &sign, &super::ops::unary(Op::Exp, &log)?)
}

/// `cholesky(a, upper=)`: L with a = L Lᴴ from a's lower triangle, or U = Lᴴ from its upper
/// one (LinAlgError when a matrix is not positive definite).
pub fn cholesky(a: &Array, upper: bool) -> Result<Array> {
    check_square(a)?;
    let dtype = compute_dtype(&[a.dtype()])?;
    if a.size() == 0 {
        return zeros(a.shape(), dtype, a.device());
    }
    if a.device() == Device::Gpu {
        return super::gpu_decompositions::cholesky(a, dtype, upper);
    }
    let batch = split_shape(a).0.to_vec();
    with_field!(dtype, T => {
        let stack = on_matrices::<T, _>(&typed(a, dtype)?, |m| decompose::cholesky(m, upper))?;
        Ok(stack_array(&batch, stack))
    })
}

/// `qr`'s modes: `reduced` (Q M×K, R K×N, K = min(M, N)), `complete` (Q M×M, R M×N), `r`
/// (R alone, K×N).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum QrMode {
    Reduced,
    Complete,
    R,
}

impl QrMode {
    pub fn from_name(name: &str) -> Result<QrMode> {
        match name {
            "reduced" => Ok(QrMode::Reduced),
            "complete" => Ok(QrMode::Complete),
            "r" => Ok(QrMode::R),
            other => Err(crate::error::value_error(format!(
                "Unrecognized mode '{other}' (qr takes \"reduced\", \"complete\" or \"r\")"
            ))),
        }
    }
}

/// `qr(a, mode=)`: Q (None for mode "r") and R of each matrix.
pub fn qr(a: &Array, mode: QrMode) -> Result<(Option<Array>, Array)> {
    check_stacked(a)?;
    let dtype = compute_dtype(&[a.dtype()])?;
    let (batch, m, n) = split_shape(a);
    let batch = batch.to_vec();
    let complete = mode == QrMode::Complete;
    let want_q = mode != QrMode::R;
    let k = m.min(n);
    if a.size() == 0 {
        let r_rows = if complete { m } else { k };
        let q = match (want_q, complete) {
            (false, _) => None,
            (true, true) => Some(identity(&batch, m, dtype, a.device())?),
            (true, false) => Some(zeros(&with_tail(&batch, &[m, k]), dtype, a.device())?),
        };
        return Ok((
            q,
            zeros(&with_tail(&batch, &[r_rows, n]), dtype, a.device())?,
        ));
    }
    if a.device() == Device::Gpu {
        return super::gpu_decompositions::qr(a, dtype, complete, want_q);
    }
    with_field!(dtype, T => {
        let (q, r) = on_matrices::<T, _>(&typed(a, dtype)?, |x| Ok(decompose::qr(x, complete, want_q)))?;
        Ok((q.map(|q| stack_array(&batch, q)), stack_array(&batch, r)))
    })
}

/// The results of `svd`: U and Vh only when asked for.
pub struct Svd {
    pub u: Option<Array>,
    pub s: Array,
    pub vh: Option<Array>,
}

/// `svd(a, full_matrices=, compute_uv=)`: a = U @ diag(S) @ Vh, singular values descending.
pub fn svd(a: &Array, full_matrices: bool, compute_uv: bool) -> Result<Svd> {
    check_stacked(a)?;
    let dtype = compute_dtype(&[a.dtype()])?;
    let (batch, m, n) = split_shape(a);
    let batch = batch.to_vec();
    let vectors = compute_uv.then_some(full_matrices);
    let k = m.min(n);
    if a.size() == 0 {
        let s = zeros(&with_tail(&batch, &[k]), dtype.real(), a.device())?;
        let (u, vh) = match vectors {
            None => (None, None),
            Some(true) => (
                Some(identity(&batch, m, dtype, a.device())?),
                Some(identity(&batch, n, dtype, a.device())?),
            ),
            Some(false) => (
                Some(zeros(&with_tail(&batch, &[m, k]), dtype, a.device())?),
                Some(zeros(&with_tail(&batch, &[k, n]), dtype, a.device())?),
            ),
        };
        return Ok(Svd { u, s, vh });
    }
    if a.device() == Device::Gpu {
        return super::gpu_decompositions::svd(a, dtype, vectors);
    }
    with_field!(dtype, T => {
        let (s, factors) = on_matrices::<T, _>(&typed(a, dtype)?, |x| decompose::svd(x, vectors))?;
        let s = Array::from_vec(s, with_tail(&batch, &[k]));
        let (u, vh) = match factors {
            Some((u, vh)) => (Some(stack_array(&batch, u)), Some(stack_array(&batch, vh))),
            None => (None, None),
        };
        Ok(Svd { u, s, vh })
    })
}

/// `eigh(a, UPLO=)`: eigenvalues (ascending, real) and with `vectors` the eigenvectors (as
/// columns) of each Hermitian matrix, read from its lower triangle (or its upper one).
pub fn eigh(a: &Array, lower: bool, vectors: bool) -> Result<(Array, Option<Array>)> {
    check_square(a)?;
    let dtype = compute_dtype(&[a.dtype()])?;
    let (batch, n, _) = split_shape(a);
    let batch = batch.to_vec();
    if a.size() == 0 {
        let w = zeros(&with_tail(&batch, &[n]), dtype.real(), a.device())?;
        let v = vectors
            .then(|| zeros(a.shape(), dtype, a.device()))
            .transpose()?;
        return Ok((w, v));
    }
    if a.device() == Device::Gpu {
        return super::gpu_decompositions::eigh(a, dtype, lower, vectors);
    }
    with_field!(dtype, T => {
        let (w, v) = on_matrices::<T, _>(&typed(a, dtype)?, |x| decompose::eigh(x, lower, vectors))?;
        Ok((Array::from_vec(w, with_tail(&batch, &[n])), v.map(|v| stack_array(&batch, v))))
    })
}

/// `eig(a)`: eigenvalues and with `vectors` right eigenvectors (unit columns) of each square
/// matrix. Always complex, as NumPy 2.5's (earlier versions gave real results for a real input
/// whose eigenvalues were all real).
pub fn eig(a: &Array, vectors: bool) -> Result<(Array, Option<Array>)> {
    check_square(a)?;
    let dtype = compute_dtype(&[a.dtype()])?;
    let (batch, n, _) = split_shape(a);
    let batch = batch.to_vec();
    if a.size() == 0 {
        let w = zeros(&with_tail(&batch, &[n]), dtype, a.device())?;
        let v = vectors
            .then(|| zeros(a.shape(), dtype, a.device()))
            .transpose()?;
        return Ok((w, v));
    }
    if a.device() == Device::Gpu {
        return super::gpu_decompositions::eig(a, dtype, vectors);
    }
    let (w, v) = with_field!(dtype, T => {
        let (w, v) = on_matrices::<T, _>(&typed(a, dtype)?, |x| decompose::eig(x, vectors))?;
        (Array::from_vec(w, with_tail(&batch, &[n])), v.map(|v| stack_array(&batch, v)))
    });
    Ok((w, v))
}
