//! The eigendecomposition of a real symmetric matrix, with a blocked reduction to tridiagonal form.
//!
//! faer reduces one column at a time, and each column's step both updates the trailing matrix
//! (a rank-2 update) and multiplies it by a vector, so every multiply-add reads and writes the
//! trailing matrix. LAPACK's `dsytrd` (`dlatrd` for a panel) instead keeps the rank-2 updates of a
//! panel of `PANEL` columns aside: within the panel, the trailing matrix is only read (one
//! symmetric matrix·vector product a column, corrected for the panel's pending updates), and
//! after it the pending updates are one rank-2k update, a matrix product. The tridiagonal
//! matrix's eigenvectors come from `tridiagonal_divide_conquer` (LAPACK's `dstedc`) and faer's
//! blocked back-transformation; the eigenvalues alone from `tridiagonal_eigenvalues` (`dsterf`).
//!
//! The result is stored as faer's own reduction stores it (the reflectors' essential parts below
//! the subdiagonal, `T` on the diagonal and subdiagonal), so faer's back-transformation reads it.

use faer::diag::{DiagMut, DiagRef};
use faer::dyn_stack::{MemBuffer, MemStack};
use faer::linalg::evd::{self, ComputeEigenvectors, EvdError};
use faer::linalg::householder;
use faer::linalg::matmul::triangular::{self, BlockStructure};
use faer::reborrow::{Reborrow, ReborrowMut};
use faer::traits::math_utils::from_f64;
use faer::traits::RealField;
use faer::{Accum, ColMut, Conj, MatMut, MatRef, Par};
use std::sync::atomic::{AtomicUsize, Ordering};

use super::columns_mut;
use super::tridiagonal_divide_conquer::tridiagonal_evd;
use super::tridiagonal_eigenvalues::tridiagonal_eigenvalues;
use crate::device::cpu::linalg::Float;

/// Columns a panel reduces before the trailing matrix is updated (LAPACK's block size for dsytrd).
const PANEL: usize = 32;

/// Trailing matrices of at least this many columns split their matrix·vector product over threads.
const PARALLEL_COLUMNS: usize = 256;

/// How long a barrier spins before it yields its core (0.1–0.2 ms: a pause takes 40–140 cycles).
const SPINS_BEFORE_YIELDING: u32 = 1 << 12;

/// A real element type of the blocked reduction: `f64` or `f32`.
pub trait Real: Float + RealField + Send + Sync + Into<f64> {}
impl Real for f64 {}
impl Real for f32 {}

/// Eigenvalues (ascending) of the symmetric matrix whose lower triangle `source` holds, and with
/// `vectors` its eigenvectors as the columns of a column-major matrix.
pub fn symmetric_evd<T: Real>(
    source: MatRef<'_, T>,
    vectors: bool,
    par: Par,
) -> Result<(Vec<T>, Vec<T>), EvdError> {
    let n = source.nrows();
    let mut a = vec![T::zero(); n * n];
    columns_mut(&mut a, n, n).copy_from_triangular_lower(source);
    let taus = reduce(&mut a, n, par);
    let diagonal: Vec<T> = (0..n).map(|i| a[i * n + i]).collect();
    let subdiagonal: Vec<T> = (0..n)
        .map(|i| {
            if i + 1 < n {
                a[i * n + i + 1]
            } else {
                T::zero()
            }
        })
        .collect();
    let mut d: Vec<f64> = diagonal.iter().map(|&x| x.into()).collect();
    let mut e: Vec<f64> = subdiagonal.iter().map(|&x| x.into()).collect();
    if vectors {
        let mut vectors = vec![0.0; n * n];
        tridiagonal_evd(&mut d, &e[..n.saturating_sub(1)], &mut vectors, par)?;
        let values = d.into_iter().map(from_f64::<T>).collect();
        let mut u: Vec<T> = vectors.into_iter().map(from_f64::<T>).collect();
        back_transform(&a, &taus, &mut u, n, par);
        return Ok((values, u));
    }
    if tridiagonal_eigenvalues(&mut d, &mut e) {
        return Ok((d.into_iter().map(from_f64::<T>).collect(), Vec::new()));
    }
    let mut mem = MemBuffer::new(evd::self_adjoint_evd_scratch::<T>(
        n,
        ComputeEigenvectors::No,
        par,
        Default::default(),
    ));
    let mut values = vec![T::zero(); n];
    evd::tridiagonal_self_adjoint_evd(
        DiagRef::from_slice(&diagonal),
        DiagRef::from_slice(&subdiagonal),
        DiagMut::from_slice_mut(&mut values),
        None,
        par,
        MemStack::new(&mut mem),
        Default::default(),
    )?;
    Ok((values, Vec::new()))
}

/// Turns the eigenvectors `u` of the tridiagonal matrix into those of the matrix `reduce` left in
/// `a`, by its reflectors (with the blocked `T` factors faer's own reduction would have made).
fn back_transform<T: Real>(a: &[T], taus: &[T], u: &mut [T], n: usize, par: Par) {
    if n < 2 {
        return;
    }
    let reflectors = MatRef::from_column_major_slice(a, n, n).submatrix(1, 0, n - 1, n - 1);
    let block = faer::linalg::qr::no_pivoting::factor::recommended_block_size::<T>(n, n);
    let mut factor = vec![T::zero(); block * (n - 1)];
    let mut factor = columns_mut(&mut factor, block, n - 1);
    // As faer's own reduction ends: each block of reflectors' triangular factor, from the taus.
    let mut j = 0;
    while j < n - 1 {
        let b = block.min(n - 1 - j);
        let mut h = factor.rb_mut().submatrix_mut(0, j, b, b);
        for k in 0..b {
            h[(k, k)] = taus[j + k];
        }
        householder::upgrade_householder_factor(
            h,
            reflectors.submatrix(j, j, n - 1 - j, b),
            b,
            1,
            par,
        );
        j += b;
    }
    let mut mem = MemBuffer::new(
        householder::apply_block_householder_sequence_on_the_left_in_place_scratch::<T>(
            n - 1,
            block,
            n,
        ),
    );
    householder::apply_block_householder_sequence_on_the_left_in_place_with_conj(
        reflectors,
        factor.rb(),
        Conj::No,
        columns_mut(u, n, n).subrows_mut(1, n - 1),
        par,
        MemStack::new(&mut mem),
    );
}

/// Reduces the column-major `n × n` symmetric matrix in `a` (its lower triangle) to tridiagonal
/// form in place, as faer's `tridiag_in_place` stores it; returns the reflectors' faer taus
/// (`H = I - v vᵀ / tau`).
fn reduce<T: Real>(a: &mut [T], n: usize, par: Par) -> Vec<T> {
    let mut taus = vec![T::zero(); n.saturating_sub(1)];
    let mut w = vec![T::zero(); n * PANEL];
    let threads = match par {
        Par::Seq => 1,
        Par::Rayon(_) => rayon::current_num_threads(),
    };
    let mut parts = vec![T::zero(); n * threads];
    let mut blocks = Vec::with_capacity(n * 3 * PANEL);
    let mut start = 0;
    while start + 1 < n {
        let columns = PANEL.min(n - 1 - start);
        let mut betas = [T::zero(); PANEL];
        // Fewer columns than this take longer to share out than to multiply on one thread.
        let threads = if n - start >= PARALLEL_COLUMNS {
            threads
        } else {
            1
        };
        let barrier = SpinBarrier::new(threads);
        let team = PanelTeam {
            a: a.as_mut_ptr(),
            w: w.as_mut_ptr(),
            parts: parts.as_mut_ptr(),
            taus: taus.as_mut_ptr(),
            betas: betas.as_mut_ptr(),
            n,
            start,
            columns,
            threads,
            barrier: &barrier,
        };
        if threads == 1 {
            reduce_panel(&team, 0);
        } else {
            rayon::broadcast(|member| reduce_panel(&team, member.index()));
        }
        update_trailing(a, n, start, columns, &w, &mut blocks, par);
        for (i, beta) in betas.into_iter().take(columns).enumerate() {
            a[(start + i) * n + start + i + 1] = beta;
        }
        start += columns;
    }
    taus
}

/// What the threads reducing one panel share. Member 0 brings each column up to date, makes its
/// reflector and finishes its `w`, while the others wait at the barrier; then every member
/// multiplies its share of the trailing matrix's columns by the reflector, into its own part.
struct PanelTeam<'a, T> {
    /// The column-major `n × n` matrix.
    a: *mut T,
    /// `n × PANEL`, column-major: each reflector's `w` (LAPACK's W), by row of `a`.
    w: *mut T,
    /// `n × threads`: each member's part of the symmetric product.
    parts: *mut T,
    taus: *mut T,
    /// `PANEL`: the subdiagonal (β) of each column, whose place holds the reflector's implicit 1
    /// until the trailing update.
    betas: *mut T,
    n: usize,
    start: usize,
    columns: usize,
    threads: usize,
    barrier: &'a SpinBarrier,
}

// SAFETY: the members write disjoint memory between barriers (see `reduce_panel_with`).
unsafe impl<T: Send> Sync for PanelTeam<'_, T> {}

/// The kernel with two 256-bit registers of lanes: 8 for f64 and 16 for f32.
macro_rules! lanes {
    ($t:ty, $kernel:ident, $fma:expr) => {
        if std::mem::size_of::<$t>() == 8 {
            $kernel::<$t, $fma, 8>
        } else {
            $kernel::<$t, $fma, 16>
        }
    };
}

/// `dlatrd`: member `member` of `team` reduces the panel's columns, leaving the trailing matrix
/// (from column `start + columns`) to `update_trailing`.
fn reduce_panel<T: Real>(team: &PanelTeam<'_, T>, member: usize) {
    #[cfg(target_arch = "x86_64")]
    if fma_available() {
        // SAFETY: the cpu has the features the function is compiled for.
        return unsafe { reduce_panel_fma(team, member) };
    }
    reduce_panel_with::<T, false>(team, member)
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2,fma")]
fn reduce_panel_fma<T: Real>(team: &PanelTeam<'_, T>, member: usize) {
    reduce_panel_with::<T, true>(team, member)
}

#[inline(always)]
fn reduce_panel_with<T: Real, const FMA: bool>(team: &PanelTeam<'_, T>, member: usize) {
    let &PanelTeam {
        a,
        w,
        parts,
        n,
        start,
        threads,
        ..
    } = team;
    for i in 0..team.columns {
        let j = start + i;
        let m = n - j - 1;
        if member == 0 {
            // SAFETY: the others wait at the barrier; column j and the panel's earlier columns
            // are parts of `a`, and `w` of its own allocation.
            unsafe {
                let panel = std::slice::from_raw_parts(a.add(start * n), i * n);
                let column = std::slice::from_raw_parts_mut(a.add(j * n), n);
                let w = std::slice::from_raw_parts(w, i * n);
                let (beta, tau) = prepare_column::<T, FMA>(column, panel, w, j, n);
                *team.betas.add(i) = beta;
                *team.taus.add(j) = tau;
            }
        }
        team.barrier.wait();
        let columns = share(m, threads, member);
        // SAFETY: between the barriers every member only reads `a` and writes its own part.
        unsafe {
            let trailing = std::slice::from_raw_parts(a.add((j + 1) * n), m * n);
            let v = std::slice::from_raw_parts(a.add(j * n + j + 1), m);
            let part = std::slice::from_raw_parts_mut(parts.add(member * n), m);
            part[columns.start..].fill(T::zero());
            symmetric_columns::<T, FMA>()(trailing, n, j + 1, v, part, columns);
        }
        team.barrier.wait();
        if member == 0 {
            // SAFETY: the others wait at the next barrier (or have finished the panel).
            unsafe {
                let panel = std::slice::from_raw_parts(a.add(start * n), i * n);
                let v = std::slice::from_raw_parts(a.add(j * n + j + 1), m);
                let parts = std::slice::from_raw_parts(parts, threads * n);
                let (w_before, w_from_i) =
                    std::slice::from_raw_parts_mut(w, (i + 1) * n).split_at_mut(i * n);
                let y = &mut w_from_i[j + 1..n];
                y.fill(T::zero());
                for k in 0..threads {
                    let rows = share(m, threads, k).start..m;
                    for (y, &p) in y[rows.clone()].iter_mut().zip(&parts[k * n..][rows]) {
                        *y += p;
                    }
                }
                let tau = T::one() / *team.taus.add(j);
                finish_column::<T, FMA>(y, v, panel, w_before, j, n, tau);
            }
        }
    }
}

/// Member `member`'s columns of a trailing matrix of `m` columns: ranges of equal triangular
/// area, so member k starts at column m·(1 - √(1 - k/threads)).
fn share(m: usize, threads: usize, member: usize) -> std::ops::Range<usize> {
    let start = |k: usize| ((1.0 - (1.0 - k as f64 / threads as f64).sqrt()) * m as f64) as usize;
    start(member)..if member + 1 == threads {
        m
    } else {
        start(member + 1)
    }
}

/// Brings column `j` up to date with the panel's earlier reflectors (`panel` and their `w`), and
/// makes its reflector: returns its β and faer tau, and leaves the reflector's `v` below the
/// diagonal with its implicit 1 written.
#[inline(always)]
fn prepare_column<T: Real, const FMA: bool>(
    column: &mut [T],
    panel: &[T],
    w: &[T],
    j: usize,
    n: usize,
) -> (T, T) {
    for (v, wc) in panel.chunks_exact(n).zip(w.chunks_exact(n)) {
        let (v_j, w_j) = (v[j], wc[j]);
        multiply_add_into::<T, FMA>(&mut column[j..], &v[j..], -w_j);
        multiply_add_into::<T, FMA>(&mut column[j..], &wc[j..], -v_j);
    }
    let (head, tail) = column[j + 1..].split_first_mut().expect("j < n - 1");
    let info = householder::make_householder_in_place(head, ColMut::from_slice_mut(tail));
    let beta = *head;
    *head = T::one();
    (beta, info.tau)
}

/// Turns `y = A v` into the reflector's `w`: corrected for the panel's pending updates, scaled by
/// LAPACK's `tau` (zero when there was nothing to annihilate: faer's tau is then infinite), and
/// made orthogonal to `v` as `dlatrd` does.
#[inline(always)]
fn finish_column<T: Real, const FMA: bool>(
    y: &mut [T],
    v: &[T],
    panel: &[T],
    w: &[T],
    j: usize,
    n: usize,
    tau: T,
) {
    let rows = j + 1..n;
    let earlier = || panel.chunks_exact(n).zip(w.chunks_exact(n));
    let mut corrections = [(T::zero(), T::zero()); PANEL];
    for ((vc, wc), t) in earlier().zip(&mut corrections) {
        *t = (
            dot::<T, FMA>(&wc[rows.clone()], v),
            dot::<T, FMA>(&vc[rows.clone()], v),
        );
    }
    for ((vc, wc), &(t_w, t_v)) in earlier().zip(&corrections) {
        multiply_add_into::<T, FMA>(y, &vc[rows.clone()], -t_w);
        multiply_add_into::<T, FMA>(y, &wc[rows.clone()], -t_v);
    }
    let alpha = -(tau * tau * dot::<T, FMA>(y, v) / (T::one() + T::one()));
    y.iter_mut().for_each(|y| *y *= tau);
    multiply_add_into::<T, FMA>(y, v, alpha);
}

/// A barrier that spins, then yields: a panel's members meet twice a column, a few microseconds
/// apart, too often to sleep between.
struct SpinBarrier {
    threads: usize,
    arrived: AtomicUsize,
    generation: AtomicUsize,
}

impl SpinBarrier {
    fn new(threads: usize) -> Self {
        SpinBarrier {
            threads,
            arrived: AtomicUsize::new(0),
            generation: AtomicUsize::new(0),
        }
    }

    fn wait(&self) {
        let generation = self.generation.load(Ordering::Acquire);
        if self.arrived.fetch_add(1, Ordering::AcqRel) + 1 == self.threads {
            self.arrived.store(0, Ordering::Relaxed);
            self.generation.fetch_add(1, Ordering::Release);
            return;
        }
        let mut spins = 0u32;
        while self.generation.load(Ordering::Acquire) == generation {
            if spins < SPINS_BEFORE_YIELDING {
                std::hint::spin_loop();
                spins += 1;
            } else {
                std::thread::yield_now();
            }
        }
    }
}

#[cfg(target_arch = "x86_64")]
fn fma_available() -> bool {
    is_x86_feature_detected!("avx2") && is_x86_feature_detected!("fma")
}

/// The kernel type of `symmetric_columns_with`.
type SymmetricColumns<T> = unsafe fn(&[T], usize, usize, &[T], &mut [T], std::ops::Range<usize>);

/// `symmetric_columns_with` as a function called through a pointer: inlined into the panel's
/// loop (even when marked `inline(never)`) it lost its vectorization and ran at half the speed.
#[inline(always)]
fn symmetric_columns<T: Real, const FMA: bool>() -> SymmetricColumns<T> {
    #[cfg(target_arch = "x86_64")]
    if FMA {
        return std::hint::black_box(symmetric_columns_fma::<T> as SymmetricColumns<T>);
    }
    std::hint::black_box(symmetric_columns_plain::<T> as SymmetricColumns<T>)
}

/// # Safety
/// Only where the cpu has AVX2 and FMA.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2,fma")]
unsafe fn symmetric_columns_fma<T: Real>(
    trailing: &[T],
    n: usize,
    from: usize,
    v: &[T],
    y: &mut [T],
    columns: std::ops::Range<usize>,
) {
    lanes!(T, symmetric_columns_with, true)(trailing, n, from, v, y, columns)
}

/// # Safety
/// None needed: `unsafe` only to share `SymmetricColumns` with `symmetric_columns_fma`.
unsafe fn symmetric_columns_plain<T: Real>(
    trailing: &[T],
    n: usize,
    from: usize,
    v: &[T],
    y: &mut [T],
    columns: std::ops::Range<usize>,
) {
    lanes!(T, symmetric_columns_with, false)(trailing, n, from, v, y, columns)
}

/// Adds the `columns` of the symmetric product `A v` (see `reduce_panel_with`) into `y`: each
/// column's lower part gives its row's dot product and its share of the rows below, in one pass.
#[inline(always)]
fn symmetric_columns_with<T: Real, const FMA: bool, const LANES: usize>(
    trailing: &[T],
    n: usize,
    from: usize,
    v: &[T],
    y: &mut [T],
    columns: std::ops::Range<usize>,
) {
    for c in columns {
        let column = &trailing[c * n + from + c..(c + 1) * n];
        let (diagonal, below) = column.split_first().expect("a nonempty column");
        let (v_c, v_below) = (v[c], &v[c + 1..]);
        let (y_c, y_below) = y[c..].split_first_mut().expect("a nonempty column");
        let mut sums = [T::zero(); LANES];
        let whole = below.len() - below.len() % LANES;
        for ((x, vs), ys) in below[..whole]
            .chunks_exact(LANES)
            .zip(v_below[..whole].chunks_exact(LANES))
            .zip(y_below[..whole].chunks_exact_mut(LANES))
        {
            for k in 0..LANES {
                ys[k] = multiply_add::<T, FMA>(x[k], v_c, ys[k]);
                sums[k] = multiply_add::<T, FMA>(x[k], vs[k], sums[k]);
            }
        }
        let mut sum = sums.iter().fold(T::zero(), |acc, &s| acc + s);
        for r in whole..below.len() {
            y_below[r] = multiply_add::<T, FMA>(below[r], v_c, y_below[r]);
            sum = multiply_add::<T, FMA>(below[r], v_below[r], sum);
        }
        *y_c += *diagonal * v_c + sum;
    }
}

#[inline(always)]
fn multiply_add<T: Real, const FMA: bool>(x: T, s: T, acc: T) -> T {
    if FMA {
        x.mul_add(s, acc)
    } else {
        x * s + acc
    }
}

/// `y += s·x`.
#[inline(always)]
fn multiply_add_into<T: Real, const FMA: bool>(y: &mut [T], x: &[T], s: T) {
    for (y, &x) in y.iter_mut().zip(x) {
        *y = multiply_add::<T, FMA>(x, s, *y);
    }
}

#[inline(always)]
fn dot<T: Real, const FMA: bool>(x: &[T], y: &[T]) -> T {
    const LANES: usize = 8;
    let mut sums = [T::zero(); LANES];
    let whole = x.len() - x.len() % LANES;
    for (xs, ys) in x[..whole]
        .chunks_exact(LANES)
        .zip(y[..whole].chunks_exact(LANES))
    {
        for k in 0..LANES {
            sums[k] = multiply_add::<T, FMA>(xs[k], ys[k], sums[k]);
        }
    }
    let tail = x[whole..]
        .iter()
        .zip(&y[whole..])
        .fold(T::zero(), |acc, (&a, &b)| acc + a * b);
    sums.iter().fold(tail, |acc, &s| acc + s)
}

/// `dsyr2k`: the trailing matrix from column `start + columns` loses the panel's pending rank-2
/// updates, `V Wᵀ + W Vᵀ` (V: the panel's reflectors, W: their `w`), as one product `[V W]·[W V]ᵀ`
/// of its lower triangle.
fn update_trailing<T: Real>(
    a: &mut [T],
    n: usize,
    start: usize,
    columns: usize,
    w: &[T],
    blocks: &mut Vec<T>,
    par: Par,
) {
    let from = start + columns;
    let m = n - from;
    // [V W V]: its first two blocks are [V W], its last two [W V].
    blocks.resize(m * 3 * columns, T::zero());
    for c in 0..columns {
        let v = &a[(start + c) * n + from..(start + c + 1) * n];
        blocks[c * m..(c + 1) * m].copy_from_slice(v);
        blocks[(2 * columns + c) * m..(2 * columns + c + 1) * m].copy_from_slice(v);
        blocks[(columns + c) * m..(columns + c + 1) * m]
            .copy_from_slice(&w[c * n + from..(c + 1) * n]);
    }
    let blocks = MatRef::from_column_major_slice(blocks, m, 3 * columns);
    let trailing =
        MatMut::from_column_major_slice_with_stride_mut(&mut a[from * n + from..], m, m, n);
    triangular::matmul(
        trailing,
        BlockStructure::TriangularLower,
        Accum::Add,
        blocks.subcols(0, 2 * columns),
        BlockStructure::Rectangular,
        blocks.subcols(columns, 2 * columns).transpose(),
        BlockStructure::Rectangular,
        -T::one(),
        par,
    );
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A symmetric `n × n` matrix (column-major) of values in [-1, 1) from a fixed sequence.
    fn symmetric<T: Real>(n: usize) -> Vec<T> {
        let mut state = 0x2545_f491_4f6c_dd1d_u64;
        let mut a = vec![T::zero(); n * n];
        for c in 0..n {
            for r in c..n {
                state = state
                    .wrapping_mul(6_364_136_223_846_793_005)
                    .wrapping_add(1);
                let x = from_f64::<T>((state >> 11) as f64 / (1u64 << 52) as f64 - 1.0);
                a[c * n + r] = x;
                a[r * n + c] = x;
            }
        }
        a
    }

    /// Checks `A U = U Λ`, `Uᵀ U = I`, ascending eigenvalues, and the eigenvalues alone against
    /// faer's own (unblocked) eigensolver, each within `tolerance` times `n` and the spectral radius.
    fn check<T: Real + Into<f64>>(a: &[T], n: usize, par: Par, tolerance: f64) {
        let at = |m: &[T], r: usize, c: usize| -> f64 { m[c * n + r].into() };
        let matrix = MatRef::from_column_major_slice(a, n, n);
        let (values, u) = symmetric_evd(matrix, true, par).expect("converges");
        let norm = values.iter().fold(1.0f64, |m, &x| m.max(x.into().abs()));
        let bound = tolerance * n.max(1) as f64 * norm;
        for (k, &lambda) in values.iter().enumerate() {
            let lambda: f64 = lambda.into();
            for r in 0..n {
                let product: f64 = (0..n).map(|c| at(a, r, c) * at(&u, c, k)).sum();
                assert!(
                    (product - lambda * at(&u, r, k)).abs() <= bound,
                    "A u = λ u, n {n}"
                );
            }
            for l in 0..n {
                let inner: f64 = (0..n).map(|r| at(&u, r, k) * at(&u, r, l)).sum();
                let expected = if k == l { 1.0 } else { 0.0 };
                assert!((inner - expected).abs() <= bound, "uᵀu = I, n {n}");
            }
        }
        assert!(
            values.windows(2).all(|pair| pair[0] <= pair[1]),
            "ascending, n {n}"
        );
        let (alone, _) = symmetric_evd(matrix, false, par).expect("converges");
        let mut reference = vec![T::zero(); n];
        let mut mem = MemBuffer::new(evd::self_adjoint_evd_scratch::<T>(
            n,
            ComputeEigenvectors::No,
            par,
            Default::default(),
        ));
        evd::self_adjoint_evd(
            matrix,
            DiagMut::from_slice_mut(&mut reference),
            None,
            par,
            MemStack::new(&mut mem),
            Default::default(),
        )
        .expect("converges");
        for ((&x, &y), &z) in values.iter().zip(&alone).zip(&reference) {
            let (x, y, z): (f64, f64, f64) = (x.into(), y.into(), z.into());
            assert!(
                (x - z).abs() <= bound && (y - z).abs() <= bound,
                "eigenvalues, n {n}"
            );
        }
    }

    /// Every size on one thread and on a team of three (whose panels share the symmetric
    /// product from 256 trailing columns on), f64 and f32, with one panel, several, and a last one
    /// of a single column.
    #[test]
    fn blocked_reduction_gives_the_eigendecomposition_on_one_thread_and_a_team() {
        let team = rayon::ThreadPoolBuilder::new()
            .num_threads(3)
            .build()
            .expect("a pool");
        for n in [1, 2, 3, 33, 65, 300] {
            check::<f64>(&symmetric(n), n, Par::Seq, 1e-14);
            check::<f32>(&symmetric(n), n, Par::Seq, 1e-6);
            team.install(|| {
                check::<f64>(&symmetric(n), n, Par::rayon(0), 1e-14);
                check::<f32>(&symmetric(n), n, Par::rayon(0), 1e-6);
            });
        }
    }

    /// Columns already reduced (a diagonal matrix, a tridiagonal one, zeros) make reflectors with
    /// nothing to annihilate: faer's tau is infinite and LAPACK's zero.
    #[test]
    fn columns_with_nothing_to_annihilate() {
        let n = 300;
        let team = rayon::ThreadPoolBuilder::new()
            .num_threads(3)
            .build()
            .expect("a pool");
        let mut diagonal = vec![0.0f64; n * n];
        let mut tridiagonal = vec![0.0f64; n * n];
        for i in 0..n {
            diagonal[i * n + i] = (i % 7) as f64 - 3.0;
            tridiagonal[i * n + i] = 2.0;
            if i + 1 < n {
                tridiagonal[i * n + i + 1] = -1.0;
                tridiagonal[(i + 1) * n + i] = -1.0;
            }
        }
        for a in [diagonal, tridiagonal, vec![0.0; n * n]] {
            check::<f64>(&a, n, Par::Seq, 1e-14);
            team.install(|| check::<f64>(&a, n, Par::rayon(0), 1e-14));
        }
    }
}
