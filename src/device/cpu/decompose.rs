//! Dense matrix decompositions on the cpu with faer, over ndarray views of stacks of matrices
//! (real symmetric eigenproblems reduce to tridiagonal form in `tridiagonal` instead).
//! faer reads any strides, so an input is copied only where a factorisation works in place. A
//! C-ordered matrix is the column-major storage of its transpose, which the LU functions use:
//! Aᵀ = P⁻¹LU solves A x = b through its transpose, and inv(Aᵀ) stored column-major is inv(A) in
//! C order, so neither transposes anything. Results are whole stacks in one vector, each matrix
//! in C order or column-major (`Order`), whichever the factorisation wrote; the caller lays them
//! out with matching strides. The matrices of a stack of small ones run one per thread; a large
//! one runs alone on all threads inside faer.

use faer::dyn_stack::{MemBuffer, MemStack};
use faer::linalg::evd::{ComputeEigenvectors, EvdError};
use faer::linalg::lu::partial_pivoting::{
    factor as lu_factor, inverse as lu_inverse, solve as lu_solve,
};
use faer::linalg::solvers::{Llt, Qr};
use faer::linalg::svd::ComputeSvdVectors;
use faer::traits::math_utils::{
    abs, abs2, conj, from_real, imag, mul, mul_real, neg, one, real, zero,
};
use faer::traits::{ComplexField, RealField};
use faer::{Conj, MatMut, MatRef, Par, Side};
use ndarray::{ArrayView2, ArrayViewD, Axis, Ix2};
use num_complex::Complex;
use num_traits::Float;
use rayon::prelude::*;

use super::{threads, CpuElement};

mod tridiagonal;
mod tridiagonal_divide_conquer;
mod tridiagonal_eigenvalues;
use crate::error::{linalg_error, Result};

/// The element types faer decomposes: f32, f64, c64, c128.
pub trait Field: CpuElement + ComplexField<Real: CpuElement + Float + RealField> {
    /// The complex type of the same precision (itself for the complex types).
    type Complex: Field<Real = Self::Real>;
    /// faer's complex number as that type (the same type, named through `Field`).
    fn complex(z: Complex<Self::Real>) -> Self::Complex;
    /// Eigenvalues (ascending) of the Hermitian matrix whose lower triangle `lower` holds, and
    /// with `vectors` its eigenvectors as columns (column-major): for real matrices through the
    /// blocked reduction of `tridiagonal`, for complex ones through faer's.
    fn hermitian_evd(
        lower: MatRef<'_, Self>,
        vectors: bool,
        par: Par,
    ) -> std::result::Result<(Vec<Self::Real>, Vec<Self>), EvdError>;
}

macro_rules! fields {
    ($($t:ty => $complex:ty, $evd:path),*) => {$(
        impl Field for $t {
            type Complex = $complex;
            fn complex(z: $complex) -> $complex {
                z
            }
            fn hermitian_evd(
                lower: MatRef<'_, $t>,
                vectors: bool,
                par: Par,
            ) -> std::result::Result<(Vec<Self::Real>, Vec<$t>), EvdError> {
                $evd(lower, vectors, par)
            }
        }
    )*};
}
fields!(
    f32 => Complex<f32>, tridiagonal::symmetric_evd,
    f64 => Complex<f64>, tridiagonal::symmetric_evd,
    Complex<f32> => Complex<f32>, faer_hermitian_evd,
    Complex<f64> => Complex<f64>, faer_hermitian_evd
);

/// How each matrix of a `Stack` is stored.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Order {
    /// C order: rows one after another.
    Rows,
    /// Column-major (Fortran) order.
    Columns,
}

/// Matrices of one shape, one after another.
#[derive(Debug)]
pub struct Stack<T> {
    pub data: Vec<T>,
    pub rows: usize,
    pub cols: usize,
    pub order: Order,
}

/// Values (eigen- or singular) of each matrix one after another, and, when asked for, vectors.
pub type Spectrum<R, V> = (Vec<R>, Option<V>);

/// U and Vh of a singular value decomposition.
pub type Factors<T> = (Stack<T>, Stack<T>);

/// A stack's matrices up to this many elements are small: one thread each.
const SMALL: usize = 96 * 96;

/// The 2-d views of the last two axes, in C order of the leading ones.
pub fn matrices<T>(view: ArrayViewD<'_, T>) -> Vec<ArrayView2<'_, T>> {
    let mut out = Vec::new();
    collect_matrices(view, &mut out);
    out
}

fn collect_matrices<'a, T>(view: ArrayViewD<'a, T>, out: &mut Vec<ArrayView2<'a, T>>) {
    if view.ndim() == 2 {
        out.push(view.into_dimensionality::<Ix2>().expect("2-d"));
        return;
    }
    for i in 0..view.shape()[0] {
        collect_matrices(view.clone().index_axis_move(Axis(0), i), out);
    }
}

/// faer's view of an ndarray matrix: the same elements and strides, nothing copied.
fn faer_ref<'a, T>(m: ArrayView2<'a, T>) -> MatRef<'a, T> {
    let strides = m.strides();
    // SAFETY: the pointer, shape and strides are those of a live ndarray view of 'a.
    unsafe { MatRef::from_raw_parts(m.as_ptr(), m.nrows(), m.ncols(), strides[0], strides[1]) }
}

fn columns_mut<T>(data: &mut [T], rows: usize, cols: usize) -> MatMut<'_, T> {
    MatMut::from_column_major_slice_mut(data, rows, cols)
}

/// The elements of `m` in C order (the column-major storage of its transpose).
fn row_major_copy<T: Copy>(m: ArrayView2<'_, T>) -> Vec<T> {
    match m.as_slice() {
        Some(s) => s.to_vec(),
        None => m.iter().copied().collect(),
    }
}

/// `m` copied column-major.
fn column_major_copy<T: Field>(m: MatRef<'_, T>) -> Vec<T> {
    let mut out = vec![zero::<T>(); m.nrows() * m.ncols()];
    columns_mut(&mut out, m.nrows(), m.ncols()).copy_from(m);
    out
}

/// The most threads faer uses inside one large decomposition. On the 16-core host, solve 2000²,
/// inv 1000² and eigh 1000² ran 1.05–1.5× faster on 8 threads than on 16 over three runs (the
/// panel steps between the parallel updates do not scale, and more threads add synchronisation).
const LARGE_THREADS: usize = 8;

/// `f` of every item (a matrix, or a pair of them), with the parallelism faer should use inside
/// each: the items of a stack of small matrices (`elements` each) one per thread, others one at a
/// time on up to `LARGE_THREADS` threads.
fn each<I: Sync, R: Send>(
    items: &[I],
    elements: usize,
    f: impl Fn(&I, Par) -> Result<R> + Sync,
) -> Result<Vec<R>> {
    if items.len() > 1 && elements <= SMALL {
        threads::install(|| items.par_iter().map(|m| f(m, Par::Seq)).collect())
    } else {
        threads::install_at_most(LARGE_THREADS, || {
            items.iter().map(|m| f(m, Par::rayon(0))).collect()
        })
    }
}

fn elements<T>(mats: &[ArrayView2<'_, T>]) -> usize {
    mats.first().map_or(0, |m| m.len())
}

/// The matrices' parts as one stack.
fn join<T: Clone>(parts: Vec<Vec<T>>, rows: usize, cols: usize, order: Order) -> Stack<T> {
    let data = match parts.len() {
        1 => parts.into_iter().next().expect("one"),
        _ => parts.concat(),
    };
    Stack {
        data,
        rows,
        cols,
        order,
    }
}

/// An LU factorisation with partial pivoting of a matrix's transpose, stored column-major.
struct TransposeLu<T> {
    lu: Vec<T>,
    n: usize,
    forward: Vec<usize>,
    backward: Vec<usize>,
    transpositions: usize,
}

impl<T: Field> TransposeLu<T> {
    fn new(a: ArrayView2<'_, T>, par: Par) -> TransposeLu<T> {
        let n = a.nrows();
        let mut lu = row_major_copy(a);
        let (mut forward, mut backward) = (vec![0usize; n], vec![0usize; n]);
        let mut mem = MemBuffer::new(lu_factor::lu_in_place_scratch::<usize, T>(
            n,
            n,
            par,
            Default::default(),
        ));
        let (info, _) = lu_factor::lu_in_place(
            columns_mut(&mut lu, n, n),
            &mut forward,
            &mut backward,
            par,
            MemStack::new(&mut mem),
            Default::default(),
        );
        TransposeLu {
            lu,
            n,
            forward,
            backward,
            transpositions: info.transposition_count,
        }
    }

    fn factors(&self) -> MatRef<'_, T> {
        MatRef::from_column_major_slice(&self.lu, self.n, self.n)
    }

    fn permutation(&self) -> faer::perm::PermRef<'_, usize> {
        faer::perm::PermRef::new_checked(&self.forward, &self.backward, self.n)
    }

    /// LAPACK's test: a pivot that is exactly zero.
    fn singular(&self) -> bool {
        (0..self.n).any(|i| self.lu[i * self.n + i] == zero::<T>())
    }

    fn nonsingular(self) -> Result<TransposeLu<T>> {
        if self.singular() {
            return Err(linalg_error("Singular matrix"));
        }
        Ok(self)
    }
}

/// `x` with `a x = b` for each pair (a n×n, b n×k): column-major n×k results.
pub fn solve<T: Field>(a: &[ArrayView2<'_, T>], b: &[ArrayView2<'_, T>]) -> Result<Stack<T>> {
    let (n, k) = b.first().map_or((0, 0), |m| m.dim());
    let pairs: Vec<(ArrayView2<T>, ArrayView2<T>)> =
        a.iter().cloned().zip(b.iter().cloned()).collect();
    let parts = each(&pairs, n * n, |&(a, b), par| {
        let lu = TransposeLu::new(a, par).nonsingular()?;
        let mut x = column_major_copy(faer_ref(b));
        let mut mem = MemBuffer::new(lu_solve::solve_transpose_in_place_scratch::<usize, T>(
            n, k, par,
        ));
        // The factors are of Aᵀ, so A x = b is their transposed system.
        lu_solve::solve_transpose_in_place_with_conj(
            lu.factors(),
            lu.factors(),
            lu.permutation(),
            Conj::No,
            columns_mut(&mut x, n, k),
            par,
            MemStack::new(&mut mem),
        );
        Ok(x)
    })?;
    Ok(join(parts, n, k, Order::Columns))
}

/// The inverse of each matrix, in C order.
pub fn inverse<T: Field>(a: &[ArrayView2<'_, T>]) -> Result<Stack<T>> {
    let n = a.first().map_or(0, |m| m.nrows());
    let parts = each(a, elements(a), |&m, par| {
        let lu = TransposeLu::new(m, par).nonsingular()?;
        // inv(Aᵀ) column-major is inv(A) in C order.
        let mut out = vec![zero::<T>(); n * n];
        let mut mem = MemBuffer::new(lu_inverse::inverse_scratch::<usize, T>(n, par));
        lu_inverse::inverse(
            columns_mut(&mut out, n, n),
            lu.factors(),
            lu.factors(),
            lu.permutation(),
            par,
            MemStack::new(&mut mem),
        );
        Ok(out)
    })?;
    Ok(join(parts, n, n, Order::Rows))
}

/// (sign, log|det|) of each matrix: sign is ±1 (a unit complex number for complex matrices),
/// or (0, -inf) for a singular one, as NumPy's `slogdet`.
pub fn slogdet<T: Field>(a: &[ArrayView2<'_, T>]) -> Result<(Vec<T>, Vec<T::Real>)> {
    let parts = each(a, elements(a), |&m, par| {
        let lu = TransposeLu::new(m, par);
        if lu.singular() {
            return Ok((zero::<T>(), <T::Real as Float>::neg_infinity()));
        }
        let mut sign = one::<T>();
        if lu.transpositions % 2 == 1 {
            sign = neg(&sign);
        }
        let mut log = zero::<T::Real>();
        for i in 0..lu.n {
            let u = lu.lu[i * lu.n + i];
            let size = abs(&u);
            sign = mul(&sign, &mul_real(&u, &size.recip()));
            log += size.ln();
        }
        Ok((sign, log))
    })?;
    Ok(parts.into_iter().unzip())
}

/// The Cholesky factor of each matrix: lower L with A = L Lᴴ read from A's lower triangle, or
/// (`upper`) U = Lᴴ read from its upper triangle, as NumPy's `cholesky(upper=)`.
pub fn cholesky<T: Field>(a: &[ArrayView2<'_, T>], upper: bool) -> Result<Stack<T>> {
    let n = a.first().map_or(0, |m| m.nrows());
    let parts = each(a, elements(a), |&m, _| {
        let side = if upper { Side::Upper } else { Side::Lower };
        let llt = Llt::new(faer_ref(m), side)
            .map_err(|_| linalg_error("Matrix is not positive definite"))?;
        let mut l = column_major_copy(llt.L());
        if upper {
            // L column-major read in C order is Lᵀ; conjugated, Lᴴ.
            l.iter_mut().for_each(|x| *x = conj(x));
        }
        Ok(l)
    })?;
    let order = if upper { Order::Rows } else { Order::Columns };
    Ok(join(parts, n, n, order))
}

/// Q and R of each matrix (m×n, k = min(m, n)): `complete` gives Q m×m and R m×n, else Q m×k
/// and R k×n; without `want_q`, R alone. Both column-major.
pub fn qr<T: Field>(
    a: &[ArrayView2<'_, T>],
    complete: bool,
    want_q: bool,
) -> (Option<Stack<T>>, Stack<T>) {
    let (m, n) = a.first().map_or((0, 0), |x| x.dim());
    let k = m.min(n);
    let (q_cols, r_rows) = if complete { (m, m) } else { (k, k) };
    let parts = each(a, elements(a), |&x, _| {
        let qr = Qr::new(faer_ref(x));
        let mut r = vec![zero::<T>(); r_rows * n];
        columns_mut(&mut r, r_rows, n)
            .get_mut(..k, ..)
            .copy_from(qr.thin_R());
        let q = want_q.then(|| {
            let q = if complete {
                qr.compute_Q()
            } else {
                qr.compute_thin_Q()
            };
            column_major_copy(q.as_ref())
        });
        Ok((q, r))
    })
    .expect("QR does not fail");
    let (qs, rs): (Vec<Option<Vec<T>>>, Vec<Vec<T>>) = parts.into_iter().unzip();
    let q = want_q.then(|| {
        join(
            qs.into_iter().flatten().collect(),
            m,
            q_cols,
            Order::Columns,
        )
    });
    (q, join(rs, r_rows, n, Order::Columns))
}

/// Singular values (descending) of each matrix, and with `vectors` = Some(full) the factors U
/// (column-major, m×m or m×k) and Vh (C order, n×n or k×n) of A = U diag(S) Vh.
pub fn svd<T: Field>(
    a: &[ArrayView2<'_, T>],
    vectors: Option<bool>,
) -> Result<Spectrum<T::Real, Factors<T>>> {
    let (m, n) = a.first().map_or((0, 0), |x| x.dim());
    let k = m.min(n);
    let (u_cols, v_cols, how) = match vectors {
        Some(true) => (m, n, ComputeSvdVectors::Full),
        Some(false) => (k, k, ComputeSvdVectors::Thin),
        None => (0, 0, ComputeSvdVectors::No),
    };
    let parts = each(a, elements(a), |&x, par| {
        let mut s = vec![zero::<T>(); k];
        let mut u = vec![zero::<T>(); m * u_cols];
        let mut v = vec![zero::<T>(); n * v_cols];
        let want = vectors.is_some();
        let mut mem = MemBuffer::new(faer::linalg::svd::svd_scratch::<T>(
            m,
            n,
            how,
            how,
            par,
            Default::default(),
        ));
        faer::linalg::svd::svd(
            faer_ref(x),
            faer::diag::DiagMut::from_slice_mut(&mut s),
            want.then(|| columns_mut(&mut u, m, u_cols)),
            want.then(|| columns_mut(&mut v, n, v_cols)),
            par,
            MemStack::new(&mut mem),
            Default::default(),
        )
        .map_err(|_| linalg_error("SVD did not converge"))?;
        // V column-major read in C order is Vᵀ; conjugated, Vh.
        v.iter_mut().for_each(|x| *x = conj(x));
        Ok((s.iter().map(real).collect::<Vec<T::Real>>(), u, v))
    })?;
    let mut values = Vec::with_capacity(k * parts.len());
    let (mut us, mut vs) = (Vec::new(), Vec::new());
    for (s, u, v) in parts {
        values.extend(s);
        us.push(u);
        vs.push(v);
    }
    let factors = vectors.map(|_| {
        (
            join(us, m, u_cols, Order::Columns),
            join(vs, v_cols, n, Order::Rows),
        )
    });
    Ok((values, factors))
}

/// Eigenvalues (ascending) of each Hermitian matrix, read from its lower triangle (or its upper
/// one), and with `vectors` the eigenvectors as columns (column-major).
pub fn eigh<T: Field>(
    a: &[ArrayView2<'_, T>],
    lower: bool,
    vectors: bool,
) -> Result<Spectrum<T::Real, Stack<T>>> {
    let n = a.first().map_or(0, |x| x.nrows());
    let parts = each(a, elements(a), |&x, par| {
        // The lower triangle of Aᵀ is the upper one of A: its Hermitian matrix is conj(A)'s,
        // with the same eigenvalues and conjugated eigenvectors.
        let source = if lower { faer_ref(x) } else { faer_ref(x.t()) };
        // LAPACK ignores the imaginary parts of a Hermitian matrix's diagonal; faer would not.
        let real_diagonal = (!T::IS_REAL
            && (0..n).any(|i| imag(&source[(i, i)]) != zero::<T::Real>()))
        .then(|| {
            let mut copy = column_major_copy(source);
            for i in 0..n {
                copy[i * n + i] = from_real(&real(&copy[i * n + i]));
            }
            copy
        });
        let source = real_diagonal
            .as_deref()
            .map_or(source, |c| MatRef::from_column_major_slice(c, n, n));
        let (w, mut u) = T::hermitian_evd(source, vectors, par)
            .map_err(|_| linalg_error("Eigenvalues did not converge"))?;
        if !lower {
            u.iter_mut().for_each(|x| *x = conj(x));
        }
        Ok((w, u))
    })?;
    let mut values = Vec::with_capacity(n * parts.len());
    let mut us = Vec::new();
    for (w, u) in parts {
        values.extend(w);
        us.push(u);
    }
    Ok((values, vectors.then(|| join(us, n, n, Order::Columns))))
}

/// faer's eigendecomposition of a Hermitian matrix (see `Field::hermitian_evd`).
fn faer_hermitian_evd<T: Field>(
    lower: MatRef<'_, T>,
    vectors: bool,
    par: Par,
) -> std::result::Result<(Vec<T::Real>, Vec<T>), EvdError> {
    let n = lower.nrows();
    let how = if vectors {
        ComputeEigenvectors::Yes
    } else {
        ComputeEigenvectors::No
    };
    let mut w = vec![zero::<T>(); n];
    let mut u = vec![zero::<T>(); if vectors { n * n } else { 0 }];
    let mut mem = MemBuffer::new(faer::linalg::evd::self_adjoint_evd_scratch::<T>(
        n,
        how,
        par,
        Default::default(),
    ));
    faer::linalg::evd::self_adjoint_evd(
        lower,
        faer::diag::DiagMut::from_slice_mut(&mut w),
        vectors.then(|| columns_mut(&mut u, n, n)),
        par,
        MemStack::new(&mut mem),
        Default::default(),
    )?;
    Ok((w.iter().map(real).collect(), u))
}

/// Eigenvalues of each square matrix, complex, and with `vectors` the right eigenvectors as
/// columns of unit length (column-major).
pub fn eig<T: Field>(
    a: &[ArrayView2<'_, T>],
    vectors: bool,
) -> Result<Spectrum<T::Complex, Stack<T::Complex>>> {
    let n = a.first().map_or(0, |x| x.nrows());
    let failed = |_| linalg_error("Eigenvalues did not converge");
    let parts = each(a, elements(a), |&x, _| {
        let m = faer_ref(x);
        if !vectors {
            let w = m.eigenvalues().map_err(failed)?;
            return Ok((
                w.into_iter().map(T::complex).collect::<Vec<_>>(),
                Vec::new(),
            ));
        }
        let e = m.eigen().map_err(failed)?;
        let w = e
            .S()
            .column_vector()
            .iter()
            .copied()
            .map(T::complex)
            .collect();
        let mut u: Vec<T::Complex> = vec![zero(); n * n];
        for (j, column) in u.chunks_mut(n.max(1)).enumerate().take(n) {
            for (i, x) in column.iter_mut().enumerate() {
                *x = T::complex(e.U()[(i, j)]);
            }
            let squares = column
                .iter()
                .map(abs2)
                .fold(zero::<T::Real>(), |s, x| s + x);
            if squares > zero::<T::Real>() {
                let scale = squares.sqrt().recip();
                column.iter_mut().for_each(|x| *x = mul_real(x, &scale));
            }
        }
        Ok((w, u))
    })?;
    let mut values = Vec::with_capacity(n * parts.len());
    let mut us = Vec::new();
    for (w, u) in parts {
        values.extend(w);
        us.push(u);
    }
    Ok((values, vectors.then(|| join(us, n, n, Order::Columns))))
}
