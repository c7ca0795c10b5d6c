//! The eigenvalues and eigenvectors of a symmetric tridiagonal matrix by Cuppen's divide and
//! conquer, as LAPACK's `dstedc` (`dlaed0` to `dlaed4`): the matrix is torn in two by a rank-one
//! change, each half is solved (the halves in parallel), and the halves' eigendecompositions are
//! merged by solving the secular equation of the rank-one update. faer's solver does the same but
//! finds a merge's roots, its recomputed update vector and its eigenvectors one after another, so
//! on many threads its top merges ran alone. Here every root, every component and every vector is
//! independent work spread over the threads.
//!
//! Blocks of at most `LEAF` rows are solved by faer's QR iteration. The work is done in f64 for
//! both real types.

use faer::diag::{DiagMut, DiagRef};
use faer::dyn_stack::{MemBuffer, MemStack};
use faer::linalg::evd::{self, ComputeEigenvectors, EvdError};
use faer::linalg::matmul::matmul;
use faer::reborrow::{Reborrow, ReborrowMut};
use faer::{Accum, MatMut, Par};
use rayon::prelude::*;

/// Blocks of at most this many rows are solved by faer's QR iteration.
const LEAF: usize = 64;

/// Merges of fewer rows run on one thread: spreading them costs more than it saves.
const PARALLEL_MERGE: usize = 96;

/// Iterations a root of the secular equation may take (LAPACK allows 30; the bisection that
/// guards each step halves the bracket at worst).
const MAX_ITERATIONS: usize = 64;

/// LAPACK's `dlamch('E')`: the unit roundoff.
const EPS: f64 = f64::EPSILON / 2.0;

/// Overwrites `d` (the diagonal, length n) with the eigenvalues in ascending order and `u`
/// (column-major n × n) with the eigenvectors as columns; `e` is the off-diagonal (n − 1).
pub fn tridiagonal_evd(d: &mut [f64], e: &[f64], u: &mut [f64], par: Par) -> Result<(), EvdError> {
    let n = d.len();
    let mut u = MatMut::from_column_major_slice_mut(u, n, n);
    if n == 0 {
        return Ok(());
    }
    let e = &e[..n - 1];
    if !d.iter().chain(e).all(|x| x.is_finite()) {
        // As NumPy (LAPACK's dsyevd): NaN in, NaN out.
        d.fill(f64::NAN);
        u.fill(f64::NAN);
        return Ok(());
    }
    // As LAPACK, the matrix is scaled to norm 1 (the tolerances are absolute).
    let norm = d.iter().chain(e).fold(0.0f64, |m, x| m.max(x.abs()));
    if norm == 0.0 {
        u.fill(0.0);
        u.diagonal_mut().fill(1.0);
        return Ok(());
    }
    d.iter_mut().for_each(|x| *x /= norm);
    let mut e: Vec<f64> = e.iter().map(|x| x / norm).collect();
    let mut work = vec![0.0; 2 * n * n];
    let (vectors, products) = work.split_at_mut(n * n);
    let result = solve(
        d,
        &mut e,
        u.rb_mut(),
        MatMut::from_column_major_slice_mut(vectors, n, n),
        MatMut::from_column_major_slice_mut(products, n, n),
        par != Par::Seq,
    );
    d.iter_mut().for_each(|x| *x *= norm);
    result
}

/// Solves the block (`d`, `e`) into `q`; `v` and `products` are its share of the workspace.
fn solve(
    d: &mut [f64],
    e: &mut [f64],
    mut q: MatMut<'_, f64>,
    mut v: MatMut<'_, f64>,
    mut products: MatMut<'_, f64>,
    parallel: bool,
) -> Result<(), EvdError> {
    let n = d.len();
    if n <= LEAF {
        return leaf(d, e, q);
    }
    let m = n / 2;
    let rho = e[m - 1];
    d[m - 1] -= rho.abs();
    d[m] -= rho.abs();
    {
        let (d0, d1) = d.split_at_mut(m);
        let (e0, e1) = e.split_at_mut(m - 1);
        let e1 = &mut e1[1..];
        let (q0, _, _, q1) = q.rb_mut().split_at_mut(m, m);
        let (v0, _, _, v1) = v.rb_mut().split_at_mut(m, m);
        let (p0, _, _, p1) = products.rb_mut().split_at_mut(m, m);
        let (r0, r1) = if parallel {
            rayon::join(
                || solve(d0, e0, q0, v0, p0, true),
                || solve(d1, e1, q1, v1, p1, true),
            )
        } else {
            (
                solve(d0, e0, q0, v0, p0, false),
                solve(d1, e1, q1, v1, p1, false),
            )
        };
        r0?;
        r1?;
    }
    merge(d, q, v, products, m, rho, parallel && n >= PARALLEL_MERGE)
}

/// A small block by faer's QR iteration.
fn leaf(d: &mut [f64], e: &[f64], q: MatMut<'_, f64>) -> Result<(), EvdError> {
    let n = d.len();
    let diagonal = d.to_vec();
    let mut subdiagonal = e.to_vec();
    subdiagonal.resize(n, 0.0);
    let mut mem = MemBuffer::new(evd::self_adjoint_evd_scratch::<f64>(
        n,
        ComputeEigenvectors::Yes,
        Par::Seq,
        Default::default(),
    ));
    evd::tridiagonal_self_adjoint_evd(
        DiagRef::from_slice(&diagonal),
        DiagRef::from_slice(&subdiagonal),
        DiagMut::from_slice_mut(d),
        Some(q),
        Par::Seq,
        MemStack::new(&mut mem),
        Default::default(),
    )
}

/// A Givens rotation of two coordinates of the sorted basis made during deflation.
struct Rotation {
    first: usize,
    second: usize,
    c: f64,
    s: f64,
}

/// The eigendecomposition of `diag(Q1, Q2) (diag(d) + rho' z zᵀ) diag(Q1, Q2)ᵀ` from the halves'
/// (`d[..m]`, `Q1 = q[..m, ..m]`) and (`d[m..]`, `Q2 = q[m.., m..]`), as `dlaed1`–`dlaed3`.
fn merge(
    d: &mut [f64],
    mut q: MatMut<'_, f64>,
    mut v: MatMut<'_, f64>,
    mut products: MatMut<'_, f64>,
    m: usize,
    rho: f64,
    parallel: bool,
) -> Result<(), EvdError> {
    let n = d.len();
    let sign = if rho < 0.0 { -1.0 } else { 1.0 };
    let half = std::f64::consts::FRAC_1_SQRT_2;
    // z: the last row of Q1 and the first of Q2 (signed as rho), normalized.
    let z = |i: usize| {
        if i < m {
            q[(m - 1, i)] * half
        } else {
            sign * q[(m, i)] * half
        }
    };
    let rho = 2.0 * rho.abs();

    // The sorted basis: `order[k]` is the row of `diag(Q1, Q2)`'s basis at sorted position k.
    let order = merged_order(&d[..m], &d[m..], m);
    let mut ds: Vec<f64> = order.iter().map(|&i| d[i]).collect();
    let mut zs: Vec<f64> = order.iter().map(|&i| z(i)).collect();
    let dmax = ds.iter().fold(0.0f64, |a, x| a.max(x.abs()));
    let zmax = zs.iter().fold(0.0f64, |a, x| a.max(x.abs()));
    let tol = 8.0 * EPS * dmax.max(zmax);

    // Deflation (`dlaed2`): a tiny z component leaves its eigenpair as it is, and two nearly
    // equal d's are rotated so that one of their z components vanishes.
    let mut kept: Vec<usize> = Vec::with_capacity(n);
    let mut deflated: Vec<usize> = Vec::new();
    let mut rotations = Vec::new();
    let mut previous: Option<usize> = None;
    for k in 0..n {
        if rho * zs[k].abs() <= tol {
            deflated.push(k);
            continue;
        }
        if let Some(p) = previous {
            let r = zs[p].hypot(zs[k]);
            let (c, s) = (zs[k] / r, -zs[p] / r);
            let t = ds[k] - ds[p];
            if (t * c * s).abs() <= tol {
                zs[k] = r;
                zs[p] = 0.0;
                let (dp, dk) = (ds[p], ds[k]);
                ds[p] = dp * c * c + dk * s * s;
                ds[k] = dp * s * s + dk * c * c;
                rotations.push(Rotation {
                    first: p,
                    second: k,
                    c,
                    s,
                });
                deflated.push(p);
            } else {
                kept.push(p);
            }
        }
        previous = Some(k);
    }
    kept.extend(previous);

    let dk: Vec<f64> = kept.iter().map(|&k| ds[k]).collect();
    let zk: Vec<f64> = kept.iter().map(|&k| zs[k]).collect();
    let (roots, vectors) = rank_one_eigenpairs(&dk, &zk, rho, parallel)?;

    // Every eigenvalue with where its vector comes from, in ascending order.
    enum Source {
        Root(usize),
        Deflated(usize),
    }
    deflated.sort_by(|&a, &b| ds[a].total_cmp(&ds[b]));
    let mut columns = Vec::with_capacity(n);
    let (mut r, mut f) = (0, 0);
    while columns.len() < n {
        let take_root = f == deflated.len()
            || (r < roots.len() && roots[r].total_cmp(&ds[deflated[f]]).is_le());
        if take_root {
            columns.push((roots[r], Source::Root(r)));
            r += 1;
        } else {
            columns.push((ds[deflated[f]], Source::Deflated(deflated[f])));
            f += 1;
        }
    }

    // Column c of v is the eigenvector in the basis of diag(Q1, Q2): the sorted basis's row k is
    // row `order[k]`, and the deflation's rotations are undone, the last first.
    let kcount = kept.len();
    let fill = |c: usize, mut column: faer::ColMut<'_, f64>| {
        column.fill(0.0);
        match columns[c].1 {
            Source::Root(j) => {
                for (&k, &x) in kept.iter().zip(&vectors[j * kcount..(j + 1) * kcount]) {
                    column[order[k]] = x;
                }
            }
            Source::Deflated(k) => column[order[k]] = 1.0,
        }
        for rotation in rotations.iter().rev() {
            let (first, second) = (order[rotation.first], order[rotation.second]);
            let (a, b) = (column[first], column[second]);
            column[first] = rotation.c * a - rotation.s * b;
            column[second] = rotation.s * a + rotation.c * b;
        }
    };
    if parallel {
        v.rb_mut()
            .par_col_chunks_mut(1)
            .enumerate()
            .for_each(|(c, mut chunk)| fill(c, chunk.rb_mut().col_mut(0)));
    } else {
        for c in 0..n {
            fill(c, v.rb_mut().col_mut(c));
        }
    }

    let par = if parallel { Par::rayon(0) } else { Par::Seq };
    {
        let (q1, _, _, q2) = q.rb().split_at(m, m);
        let (v_top, v_bottom) = v.rb().split_at_row(m);
        let (top, bottom) = products.rb_mut().split_at_row_mut(m);
        matmul(top, Accum::Replace, q1, v_top, 1.0, par);
        matmul(bottom, Accum::Replace, q2, v_bottom, 1.0, par);
    }
    q.copy_from(products.rb());
    for (x, (value, _)) in d.iter_mut().zip(&columns) {
        *x = *value;
    }
    Ok(())
}

/// The order of the rows of two ascending halves merged into one ascending sequence.
fn merged_order(first: &[f64], second: &[f64], offset: usize) -> Vec<usize> {
    let mut order = Vec::with_capacity(first.len() + second.len());
    let (mut i, mut j) = (0, 0);
    while i < first.len() || j < second.len() {
        if j == second.len() || (i < first.len() && first[i] <= second[j]) {
            order.push(i);
            i += 1;
        } else {
            order.push(offset + j);
            j += 1;
        }
    }
    order
}

/// The eigenvalues (ascending) and normalized eigenvectors (column-major k × k) of
/// `diag(d) + rho z zᵀ`, with `d` strictly ascending, every `z` component non-zero, `rho > 0`.
/// The vectors are built from z recomputed from the roots (Gu and Eisenstat, as `dlaed3`), so they
/// are orthogonal to working precision even where the roots cluster.
fn rank_one_eigenpairs(
    d: &[f64],
    z: &[f64],
    rho: f64,
    parallel: bool,
) -> Result<(Vec<f64>, Vec<f64>), EvdError> {
    let k = d.len();
    match k {
        0 => return Ok((Vec::new(), Vec::new())),
        1 => return Ok((vec![d[0] + rho * z[0] * z[0]], vec![1.0])),
        _ => {}
    }
    // Column j of `delta` holds d_i − λ_j, computed from the pole nearer λ_j.
    let mut delta = vec![0.0; k * k];
    let root = |(j, column): (usize, &mut [f64])| secular_root(d, z, rho, j, column);
    let roots: Option<Vec<f64>> = if parallel {
        delta.par_chunks_mut(k).enumerate().map(root).collect()
    } else {
        delta.chunks_mut(k).enumerate().map(root).collect()
    };
    let roots = roots.ok_or(EvdError::NoConvergence)?;

    // ẑ_i² = −(d_i − λ_i) ∏_{j≠i} (d_i − λ_j) / (d_i − d_j); each factor is near 1 in size.
    let recomputed_z = |rows: std::ops::Range<usize>, out: &mut [f64]| {
        for (w, i) in out.iter_mut().zip(rows.clone()) {
            *w = delta[i * k + i];
        }
        for j in 0..k {
            let column = &delta[j * k..(j + 1) * k];
            for (w, i) in out.iter_mut().zip(rows.clone()) {
                if i != j {
                    *w *= column[i] / (d[i] - d[j]);
                }
            }
        }
        for (w, i) in out.iter_mut().zip(rows) {
            *w = w.abs().sqrt().copysign(z[i]);
        }
    };
    let mut zhat = vec![0.0; k];
    const ROWS: usize = 64;
    if parallel {
        zhat.par_chunks_mut(ROWS)
            .enumerate()
            .for_each(|(b, out)| recomputed_z(b * ROWS..b * ROWS + out.len(), out));
    } else {
        recomputed_z(0..k, &mut zhat);
    }

    let vector = |column: &mut [f64]| {
        for (x, zi) in column.iter_mut().zip(&zhat) {
            *x = zi / *x;
        }
        let norm = column.iter().map(|x| x * x).sum::<f64>().sqrt();
        column.iter_mut().for_each(|x| *x /= norm);
    };
    if parallel {
        delta.par_chunks_mut(k).for_each(vector);
    } else {
        delta.chunks_mut(k).for_each(vector);
    }
    Ok((roots, delta))
}

/// Root `i` (0-based) of the secular equation `1/rho + Σ z_j² / (d_j − λ) = 0`, as LAPACK's
/// `dlaed4` finds it: from the nearer of its two poles, by the "middle way" of R.-C. Li (each
/// step solves a model with the two nearest poles exact), every step kept inside a shrinking
/// bracket. `delta` receives `d_j − λ`; `None` if it did not converge.
fn secular_root(d: &[f64], z: &[f64], rho: f64, i: usize, delta: &mut [f64]) -> Option<f64> {
    #[cfg(target_arch = "x86_64")]
    if is_x86_feature_detected!("avx2") {
        // SAFETY: the cpu has AVX2.
        return unsafe { secular_root_avx2(d, z, rho, i, delta) };
    }
    secular_root_with(d, z, rho, i, delta)
}

/// # Safety
/// Only where the cpu has AVX2 (its divisions then go four at a time).
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
unsafe fn secular_root_avx2(
    d: &[f64],
    z: &[f64],
    rho: f64,
    i: usize,
    delta: &mut [f64],
) -> Option<f64> {
    secular_root_with(d, z, rho, i, delta)
}

#[inline(always)]
fn secular_root_with(d: &[f64], z: &[f64], rho: f64, i: usize, delta: &mut [f64]) -> Option<f64> {
    let k = d.len();
    if i == k - 1 {
        return last_secular_root(d, z, rho, delta);
    }
    let rho_inverse = 1.0 / rho;
    let (zi, zn) = (z[i] * z[i], z[i + 1] * z[i + 1]);
    let gap = d[i + 1] - d[i];
    let middle = gap / 2.0;
    // The function at the middle of the interval, its two nearest poles apart.
    for (x, dj) in delta.iter_mut().zip(d) {
        *x = (dj - d[i]) - middle;
    }
    let rest: f64 = (0..k)
        .filter(|&j| j != i && j != i + 1)
        .map(|j| z[j] * z[j] / delta[j])
        .sum::<f64>()
        + rho_inverse;
    let at_middle = rest + zi / delta[i] + zn / delta[i + 1];
    // The root's nearer pole is the origin; the first guess solves the two-pole model there.
    let (origin, mut tau, mut low, mut high);
    if at_middle > 0.0 {
        origin = i;
        let a = rest * gap + zi + zn;
        let b = zi * gap;
        let root = (a * a - 4.0 * b * rest).abs().sqrt();
        tau = if a > 0.0 {
            2.0 * b / (a + root)
        } else {
            (a - root) / (2.0 * rest)
        };
        (low, high) = (0.0, middle);
    } else {
        origin = i + 1;
        let a = rest * gap - zi - zn;
        let b = zn * gap;
        let root = (a * a + 4.0 * b * rest).abs().sqrt();
        tau = if a < 0.0 {
            2.0 * b / (a - root)
        } else {
            -(a + root) / (2.0 * rest)
        };
        (low, high) = (-middle, 0.0);
    }
    if !(tau > low && tau < high) {
        tau = (low + high) / 2.0;
    }
    for (x, dj) in delta.iter_mut().zip(d) {
        *x = (dj - d[origin]) - tau;
    }
    let mut switched = false;
    let mut previous_w = f64::NAN;
    for iteration in 0..MAX_ITERATIONS {
        // ψ over the poles below the origin, φ over those above, and a bound on the rounding.
        let (psi, dpsi, below) = pole_sums(&z[..origin], &delta[..origin], origin as f64, -1.0);
        let (phi, dphi, above) = pole_sums(&z[origin + 1..], &delta[origin + 1..], 1.0, 1.0);
        let error = below + above;
        let t = z[origin] / delta[origin];
        let dw = dpsi + dphi + t * t;
        let own = z[origin] * t;
        let w = rho_inverse + phi + psi + own;
        let error =
            8.0 * (phi - psi) + error + 2.0 * rho_inverse + 3.0 * own.abs() + tau.abs() * dw;
        if w.abs() <= EPS * error {
            return Some(d[origin] + tau);
        }
        if iteration > 0 && w * previous_w > 0.0 && w.abs() > previous_w.abs() / 10.0 {
            switched = !switched;
        }
        if w <= 0.0 {
            low = low.max(tau);
        } else {
            high = high.min(tau);
        }
        let (da, db) = (delta[i], delta[i + 1]);
        let c = if switched {
            let (dpsi, dphi) = if origin == i {
                (dpsi + t * t, dphi)
            } else {
                (dpsi, dphi + t * t)
            };
            w - da * dpsi - db * dphi
        } else if origin == i {
            w - db * dw - (d[i] - d[i + 1]) * (z[i] / da).powi(2)
        } else {
            w - da * dw - (d[i + 1] - d[i]) * (z[i + 1] / db).powi(2)
        };
        let mut a = (da + db) * w - da * db * dw;
        let b = da * db * w;
        let mut eta = if c == 0.0 {
            if a == 0.0 {
                a = if switched {
                    da * da * dpsi + db * db * dphi
                } else if origin == i {
                    zi + db * db * (dpsi + dphi)
                } else {
                    zn + da * da * (dpsi + dphi)
                };
            }
            b / a
        } else if a <= 0.0 {
            (a - (a * a - 4.0 * b * c).abs().sqrt()) / (2.0 * c)
        } else {
            2.0 * b / (a + (a * a - 4.0 * b * c).abs().sqrt())
        };
        eta = guarded_step(eta, w, dw, tau, low, high);
        if eta == 0.0 {
            return Some(d[origin] + tau);
        }
        delta.iter_mut().for_each(|x| *x -= eta);
        tau += eta;
        previous_w = w;
    }
    None
}

/// The largest root, above `d[k − 1]` and at most `rho·‖z‖²` beyond it.
#[inline(always)]
fn last_secular_root(d: &[f64], z: &[f64], rho: f64, delta: &mut [f64]) -> Option<f64> {
    let k = d.len();
    let (l, p) = (k - 1, k - 2);
    let rho_inverse = 1.0 / rho;
    let norm2: f64 = z.iter().map(|x| x * x).sum();
    let middle = rho / 2.0;
    for (x, dj) in delta.iter_mut().zip(d) {
        *x = (dj - d[l]) - middle;
    }
    let rest = (0..p).map(|j| z[j] * z[j] / delta[j]).sum::<f64>() + rho_inverse;
    let at_middle = rest + z[p] * z[p] / delta[p] + z[l] * z[l] / delta[l];
    let gap = d[l] - d[p];
    let model = || {
        let a = -rest * gap + z[p] * z[p] + z[l] * z[l];
        let b = z[l] * z[l] * gap;
        let root = (a * a + 4.0 * b * rest).sqrt();
        if a < 0.0 {
            2.0 * b / (root - a)
        } else {
            (a + root) / (2.0 * rest)
        }
    };
    let (mut tau, mut low, mut high);
    if at_middle <= 0.0 {
        let beyond = z[p] * z[p] / (gap + rho) + z[l] * z[l] / rho;
        tau = if rest <= beyond { rho } else { model() };
        (low, high) = (middle, rho * norm2.max(1.0) * (1.0 + 4.0 * EPS));
    } else {
        tau = model();
        (low, high) = (0.0, middle);
    }
    if !(tau > low && tau <= high) {
        tau = (low + high) / 2.0;
    }
    for (x, dj) in delta.iter_mut().zip(d) {
        *x = (dj - d[l]) - tau;
    }
    for _ in 0..MAX_ITERATIONS {
        let (psi, dpsi, error) = pole_sums(&z[..l], &delta[..l], l as f64, -1.0);
        let t = z[l] / delta[l];
        let phi = z[l] * t;
        let dphi = t * t;
        let error = 8.0 * (-phi - psi) + error - phi + rho_inverse + tau.abs() * (dpsi + dphi);
        let w = rho_inverse + phi + psi;
        if w.abs() <= EPS * error {
            return Some(d[l] + tau);
        }
        if w <= 0.0 {
            low = low.max(tau);
        } else {
            high = high.min(tau);
        }
        let (da, db) = (delta[p], delta[l]);
        let c = (w - da * dpsi - db * dphi).abs();
        let a = (da + db) * w - da * db * (dpsi + dphi);
        let b = da * db * w;
        let eta = if c == 0.0 {
            -w / (dpsi + dphi)
        } else if a >= 0.0 {
            (a + (a * a - 4.0 * b * c).abs().sqrt()) / (2.0 * c)
        } else {
            2.0 * b / (a - (a * a - 4.0 * b * c).abs().sqrt())
        };
        let eta = guarded_step(eta, w, dpsi + dphi, tau, low, high);
        if eta == 0.0 {
            return Some(d[l] + tau);
        }
        delta.iter_mut().for_each(|x| *x -= eta);
        tau += eta;
    }
    None
}

/// `Σ z_j²/δ_j`, `Σ (z_j/δ_j)²` and LAPACK's rounding bound over a run of poles on one side of the
/// origin. LAPACK adds up the partial sums of the first; a term is in as many of them as it is far
/// from the origin (`distance` for the first pole, changing by `step`), and the terms of one side
/// share a sign, so the bound is `|Σ distance_j · z_j²/δ_j|`. Summed in lanes, the divisions
/// vectorize (a running partial sum would chain every term to the one before).
#[inline(always)]
fn pole_sums(z: &[f64], delta: &[f64], distance: f64, step: f64) -> (f64, f64, f64) {
    const LANES: usize = 8;
    let mut value = [0.0; LANES];
    let mut derivative = [0.0; LANES];
    let mut bound = [0.0; LANES];
    let offsets: [f64; LANES] = std::array::from_fn(|l| step * l as f64);
    let mut first = distance;
    let (z_chunks, delta_chunks) = (z.chunks_exact(LANES), delta.chunks_exact(LANES));
    let (z_rest, delta_rest) = (z_chunks.remainder(), delta_chunks.remainder());
    for (zc, dc) in z_chunks.zip(delta_chunks) {
        for l in 0..LANES {
            let t = zc[l] / dc[l];
            let term = zc[l] * t;
            value[l] += term;
            derivative[l] += t * t;
            bound[l] += term * (first + offsets[l]);
        }
        first += step * LANES as f64;
    }
    for (l, (zj, dj)) in z_rest.iter().zip(delta_rest).enumerate() {
        let t = zj / dj;
        value[l] += zj * t;
        derivative[l] += t * t;
        bound[l] += zj * t * (first + offsets[l]);
    }
    let total = |lanes: [f64; LANES]| lanes.iter().sum::<f64>();
    (total(value), total(derivative), total(bound).abs())
}

/// The step `eta` from `tau`, turned into a Newton step if it goes the wrong way (the function
/// increases, so a negative `w` needs a positive step) and into a bisection of the bracket if it
/// leaves it.
fn guarded_step(eta: f64, w: f64, dw: f64, tau: f64, low: f64, high: f64) -> f64 {
    let eta = if w * eta >= 0.0 || !eta.is_finite() {
        -w / dw
    } else {
        eta
    };
    let next = tau + eta;
    if next > high || next < low || !next.is_finite() {
        if w < 0.0 {
            (high - tau) / 2.0
        } else {
            (low - tau) / 2.0
        }
    } else {
        eta
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// T·U = U·Λ, UᵀU = I and ascending eigenvalues, to `tolerance` relative to ‖T‖.
    fn check(d: &[f64], e: &[f64], par: Par) {
        let n = d.len();
        let mut values = d.to_vec();
        let mut u = vec![0.0; n * n];
        tridiagonal_evd(&mut values, e, &mut u, par).expect("converges");
        let norm = d.iter().chain(e).fold(1e-300f64, |m, x| m.max(x.abs()));
        let tolerance = 1e-13 * n as f64;
        assert!(values.windows(2).all(|w| w[0] <= w[1]), "ascending");
        for j in 0..n {
            let col = &u[j * n..(j + 1) * n];
            for i in 0..n {
                let mut t = d[i] * col[i];
                if i > 0 {
                    t += e[i - 1] * col[i - 1];
                }
                if i + 1 < n {
                    t += e[i] * col[i + 1];
                }
                let residual = (t - values[j] * col[i]).abs() / norm;
                assert!(
                    residual < tolerance,
                    "n={n} residual {residual} at ({i}, {j})"
                );
            }
            for k in 0..=j {
                let other = &u[k * n..(k + 1) * n];
                let dot: f64 = col.iter().zip(other).map(|(a, b)| a * b).sum();
                let expected = if k == j { 1.0 } else { 0.0 };
                assert!(
                    (dot - expected).abs() < tolerance,
                    "n={n} uᵀu ({j}, {k}) = {dot}"
                );
            }
        }
    }

    fn random(n: usize, seed: u64) -> Vec<f64> {
        let mut state = seed;
        (0..n)
            .map(|_| {
                state = state
                    .wrapping_mul(6364136223846793005)
                    .wrapping_add(1442695040888963407);
                (state >> 11) as f64 / (1u64 << 53) as f64 - 0.5
            })
            .collect()
    }

    #[test]
    fn random_tridiagonal_matrices_on_one_thread_and_a_team() {
        let team = rayon::ThreadPoolBuilder::new()
            .num_threads(3)
            .build()
            .unwrap();
        for n in [1, 2, 3, 64, 65, 130, 400] {
            let (d, e) = (random(n, 1), random(n.saturating_sub(1), 2));
            check(&d, &e, Par::Seq);
            team.install(|| check(&d, &e, Par::rayon(0)));
        }
    }

    #[test]
    fn matrices_that_deflate_on_one_thread_and_a_team() {
        let n = 300;
        // Wilkinson's matrix: pairs of nearly equal eigenvalues.
        let wilkinson: Vec<f64> = (0..n).map(|i| (i as f64 - (n / 2) as f64).abs()).collect();
        // Equal diagonal entries and a few couplings: many equal eigenvalues.
        let few: Vec<f64> = (0..n - 1)
            .map(|i| if i % 50 == 0 { 1.0 } else { 0.0 })
            .collect();
        let graded: Vec<f64> = (0..n).map(|i| 10f64.powi(-(i as i32) / 20)).collect();
        let cases = [
            (wilkinson, vec![1.0; n - 1]),
            (vec![2.0; n], few),
            // The identity plus a tiny off-diagonal, a graded matrix, and zero.
            (vec![1.0; n], vec![1e-20; n - 1]),
            (graded.clone(), graded[1..].to_vec()),
            (vec![0.0; n], vec![0.0; n - 1]),
        ];
        let team = rayon::ThreadPoolBuilder::new()
            .num_threads(3)
            .build()
            .unwrap();
        for (d, e) in &cases {
            check(d, e, Par::Seq);
            team.install(|| check(d, e, Par::rayon(0)));
        }
    }

    #[test]
    fn nan_in_nan_out() {
        let mut d = vec![1.0, f64::NAN, 2.0];
        let mut u = vec![0.0; 9];
        tridiagonal_evd(&mut d, &[1.0, 1.0], &mut u, Par::Seq).expect("no error, as NumPy");
        assert!(d.iter().chain(&u).all(|x| x.is_nan()));
    }
}
