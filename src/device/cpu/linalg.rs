//! Matrix products on the cpu: `matmul`, `dot`, matrix·vector and vector·matrix.
//!
//! Float matrix products on x86-64 cpus with AVX2 and FMA (every x86 server
//! since 2013) use a packed, cache-blocked kernel in the style of BLIS/GotoBLAS:
//! blocks of `b` and `a` are copied into contiguous panels (so any strides,
//! transposes and negative steps are read in place, with no full copy) and a
//! 6×8 (f64) or 6×16 (f32) register tile is updated by fused multiply-adds
//! (12×16 or 12×32, the rows in pairs, on cpus with AVX-512, with the panels'
//! roles swapped).
//! Row blocks of the result are computed in parallel with rayon. The result is
//! not zero-filled first (the first slab of depth writes it), and the packing
//! buffers stay with each thread between products, so a product touches no
//! fresh memory but its result. The `gemm` crate covers everything else: other
//! cpus and small or skinny shapes, where its gemv-like paths beat padding a
//! panel. (This kernel was ~1.3× faster than `gemm` at 1000–3000² on a 2-core
//! AMD EPYC; `bench/RESULTS.md` compares it with OpenBLAS.)
//!
//! `i64` products, which have no BLAS, use a plain row-parallel loop with
//! wrapping arithmetic (NumPy's integer overflow behaviour).
//!
//! Dot products use pairwise summation over blocks of eight independent
//! accumulators: the error grows like `O(log n)` instead of `O(n)`, and the
//! summation tree depends only on the length, so results do not change with
//! the number of threads.

use ndarray::{Array1, Array2, ArrayView1, ArrayView2, ArrayViewMut1, Axis, LinalgScalar};
use rayon::prelude::*;
use std::cell::RefCell;

use super::threads;
use crate::base::element::Element;

/// What a product stopped by an interrupt fails with (the interpreter says "interrupted").
const INTERRUPTED: &str = "matmul: interrupted";

/// Below this many multiply-adds (`m·n·k`) threads cost more than they save.
const PARALLEL_GEMM_MIN_WORK: usize = 48 * 48 * 256;
/// Dot products of at most this many elements are summed in one block.
const DOT_LEAF_LEN: usize = 256;
/// Dot products of at least this many elements split their halves across threads.
const PARALLEL_DOT_MIN_LEN: usize = 1 << 16;
/// Matrix·vector products with at least this many elements use several threads.
const PARALLEL_MATVEC_MIN_WORK: usize = 1 << 15;

/// An element type with matrix products: `f64`, `f32` and `i64`.
pub trait LinalgElement: Element + LinalgScalar {
    /// `a · b` in standard layout, for `a.cols == b.rows > 0` and a nonempty result.
    /// Errors when the result cannot be allocated.
    fn product(a: ArrayView2<'_, Self>, b: ArrayView2<'_, Self>) -> Result<Array2<Self>, String>;

    /// `x + y`, wrapping on integer overflow like NumPy.
    fn add_wrapping(x: Self, y: Self) -> Self;

    /// `x · y`, wrapping on integer overflow like NumPy.
    fn mul_wrapping(x: Self, y: Self) -> Self;
}

/// A floating-point element type: `f64` or `f32`.
pub trait Float: LinalgElement + WideTile + InterleaveRows {
    /// `self · a + b` with one rounding.
    fn mul_add(self, a: Self, b: Self) -> Self;

    /// Runs `f` with this thread's buffer for packed panels of `a` or `b`.
    fn with_panel_buffer<R>(panels: Panels, f: impl FnOnce(&mut Vec<Self>) -> R) -> R;
}

/// Which operand a packing buffer holds.
#[derive(Clone, Copy)]
pub enum Panels {
    A,
    B,
}

/// Packing buffers are kept by each thread from one product to the next: fresh
/// memory costs a page fault per 4 KiB, which at n = 1000 was a tenth of the time.
macro_rules! kept_panel_buffers {
    ($t:ty) => {
        fn with_panel_buffer<R>(panels: Panels, f: impl FnOnce(&mut Vec<$t>) -> R) -> R {
            thread_local! {
                static BUFFERS: [RefCell<Vec<$t>>; 2] =
                    const { [RefCell::new(Vec::new()), RefCell::new(Vec::new())] };
            }
            BUFFERS.with(|buffers| match buffers[panels as usize].try_borrow_mut() {
                Ok(mut buffer) => f(&mut buffer),
                // A product inside a product on the same thread: a buffer of its own.
                Err(_) => f(&mut Vec::new()),
            })
        }
    };
}

impl Float for f64 {
    fn mul_add(self, a: f64, b: f64) -> f64 {
        f64::mul_add(self, a, b)
    }
    kept_panel_buffers!(f64);
}

impl Float for f32 {
    fn mul_add(self, a: f32, b: f32) -> f32 {
        f32::mul_add(self, a, b)
    }
    kept_panel_buffers!(f32);
}

impl LinalgElement for f64 {
    fn product(a: ArrayView2<'_, f64>, b: ArrayView2<'_, f64>) -> Result<Array2<f64>, String> {
        // Tiles of 12 × two 512-bit registers with AVX-512 (`GRID_DEPTH` for the grid;
        // `streamed` picks its own), else 6 × two 256-bit ones, whose B panel (16 KiB at depth
        // 256) and streaming A panel fit together in a 32 KiB L1.
        if packed::wide_vectors() {
            float_product::<f64, { packed::WIDE_MR }, 16>(a, b, packed::GRID_DEPTH)
        } else {
            float_product::<f64, 6, 8>(a, b, 256)
        }
    }
    fn add_wrapping(x: f64, y: f64) -> f64 {
        x + y
    }
    fn mul_wrapping(x: f64, y: f64) -> f64 {
        x * y
    }
}

impl LinalgElement for f32 {
    fn product(a: ArrayView2<'_, f32>, b: ArrayView2<'_, f32>) -> Result<Array2<f32>, String> {
        if packed::wide_vectors() {
            float_product::<f32, { packed::WIDE_MR }, 32>(a, b, packed::GRID_DEPTH)
        } else {
            float_product::<f32, 6, 16>(a, b, 256)
        }
    }
    fn add_wrapping(x: f32, y: f32) -> f32 {
        x + y
    }
    fn mul_wrapping(x: f32, y: f32) -> f32 {
        x * y
    }
}

impl LinalgElement for i64 {
    fn product(a: ArrayView2<'_, i64>, b: ArrayView2<'_, i64>) -> Result<Array2<i64>, String> {
        let mut out = zeros_2d(a.nrows(), b.ncols())?;
        loop_matmul_into(a, b, &mut out);
        Ok(out)
    }
    fn add_wrapping(x: i64, y: i64) -> i64 {
        x.wrapping_add(y)
    }
    fn mul_wrapping(x: i64, y: i64) -> i64 {
        x.wrapping_mul(y)
    }
}

/// The matrix product `a @ b` of an `(m, k)` and a `(k, n)` matrix.
///
/// Any strides are accepted (transposes, slices, negative steps) without copying.
/// Errors when the inner dimensions differ or the result cannot be allocated.
pub fn matmul<T: LinalgElement>(a: ArrayView2<T>, b: ArrayView2<T>) -> Result<Array2<T>, String> {
    let ((m, k), (k2, n)) = (a.dim(), b.dim());
    if k != k2 {
        return Err(format!(
            "matmul: shapes ({m}, {k}) and ({k2}, {n}) not aligned: {k} (dim 1) != {k2} (dim 0)"
        ));
    }
    if m == 0 || n == 0 || k == 0 {
        return zeros_2d(m, n);
    }
    T::product(a, b)
}

/// The matrix·vector product `a @ x` of an `(m, k)` matrix and a length-`k` vector.
pub fn matvec<T: LinalgElement>(a: ArrayView2<T>, x: ArrayView1<T>) -> Result<Array1<T>, String> {
    let (m, k) = a.dim();
    if k != x.len() {
        return Err(format!(
            "matmul: shapes ({m}, {k}) and ({},) not aligned: {k} (dim 1) != {} (dim 0)",
            x.len(),
            x.len()
        ));
    }
    let mut out = zeros_1d(m)?;
    if m == 0 || k == 0 {
        return Ok(out);
    }
    let rows_contiguous = a.strides()[1] == 1 || k == 1;
    if rows_contiguous {
        let x = x.as_standard_layout();
        let x = x.as_slice().unwrap_or_default();
        row_dots_into(a, x, out.view_mut());
    } else {
        // Column-major and other strided layouts: gemm reads them in place.
        let product = T::product(a, x.insert_axis(Axis(1)))?;
        out.assign(&product.column(0));
    }
    Ok(out)
}

/// The vector·matrix product `x @ b` of a length-`k` vector and a `(k, n)` matrix.
pub fn vecmat<T: LinalgElement>(x: ArrayView1<T>, b: ArrayView2<T>) -> Result<Array1<T>, String> {
    let (k, n) = b.dim();
    if x.len() != k {
        return Err(format!(
            "matmul: shapes ({},) and ({k}, {n}) not aligned: {} (dim 0) != {k} (dim 0)",
            x.len(),
            x.len()
        ));
    }
    matvec(b.reversed_axes(), x)
}

/// The inner product of two vectors of equal length, summed pairwise.
pub fn dot<T: LinalgElement>(a: ArrayView1<T>, b: ArrayView1<T>) -> Result<T, String> {
    if a.len() != b.len() {
        return Err(format!(
            "dot: shapes ({},) and ({},) not aligned: {} (dim 0) != {} (dim 0)",
            a.len(),
            b.len(),
            a.len(),
            b.len()
        ));
    }
    let a = a.as_standard_layout();
    let b = b.as_standard_layout();
    match (a.as_slice(), b.as_slice()) {
        (Some(a), Some(b)) => Ok(pairwise_dot(a, b)),
        _ => Err("dot: internal error: standard-layout vector is not contiguous".to_string()),
    }
}

fn zeros_2d<T: LinalgElement>(rows: usize, cols: usize) -> Result<Array2<T>, String> {
    let mut data = result_vec(rows, cols)?;
    data.resize(rows * cols, T::zero());
    Array2::from_shape_vec((rows, cols), data).map_err(|e| format!("matmul: {e}"))
}

/// An empty vector with room for a `rows × cols` result.
fn result_vec<T>(rows: usize, cols: usize) -> Result<Vec<T>, String> {
    let len = rows
        .checked_mul(cols)
        .ok_or_else(|| format!("matmul: result shape ({rows}, {cols}) is too large"))?;
    crate::device::host::try_vec_with_capacity(len)
        .ok_or_else(|| format!("matmul: cannot allocate the ({rows}, {cols}) result"))
}

fn zeros_1d<T: LinalgElement>(len: usize) -> Result<Array1<T>, String> {
    zeroed_vec(len)
        .map(Array1::from_vec)
        .ok_or_else(|| format!("matmul: cannot allocate the ({len},) result"))
}

/// A vector of `len` zeros, or `None` when the allocator refuses (instead of aborting).
fn zeroed_vec<T: LinalgScalar>(len: usize) -> Option<Vec<T>> {
    let mut data = crate::device::host::try_vec_with_capacity(len)?;
    data.resize(len, T::zero());
    Some(data)
}

/// `a · b` for floats: the packed kernel where it applies, else `gemm`.
fn float_product<T: Float, const MR: usize, const NR: usize>(
    a: ArrayView2<T>,
    b: ArrayView2<T>,
    depth_block: usize,
) -> Result<Array2<T>, String> {
    let ((m, k), (_, n)) = (a.dim(), b.dim());
    let large_enough = m >= MR && n >= NR && k >= 16;
    if large_enough && packed::cpu_supported() {
        let mut data = result_vec(m, n)?;
        let done =
            packed::matmul::<T, MR, NR>(a, b, &mut data.spare_capacity_mut()[..m * n], depth_block);
        if !done {
            return Err(INTERRUPTED.to_string());
        }
        // SAFETY: `packed::matmul` writes every element of the result when not interrupted.
        unsafe { data.set_len(m * n) };
        return Array2::from_shape_vec((m, n), data).map_err(|e| format!("matmul: {e}"));
    }
    let mut out = zeros_2d(m, n)?;
    gemm_into(a, b, &mut out);
    // BLAS accumulates into +0, so a product of zeros is +0, never -0; gemm may not.
    out.mapv_inplace(|x| x + T::zero());
    Ok(out)
}

mod packed;
pub use packed::{InterleaveRows, WideTile};

/// `out = a · b` through `gemm`, reading both operands in place through their strides.
fn gemm_into<T: Float>(a: ArrayView2<T>, b: ArrayView2<T>, out: &mut Array2<T>) {
    let ((m, k), (_, n)) = (a.dim(), b.dim());
    debug_assert_eq!(out.dim(), (m, n));
    let threads = threads::count();
    let parallelism =
        if threads == 1 || m.saturating_mul(n).saturating_mul(k) < PARALLEL_GEMM_MIN_WORK {
            gemm::Parallelism::None
        } else {
            gemm::Parallelism::Rayon(threads)
        };
    let (a_rs, a_cs) = (a.strides()[0], a.strides()[1]);
    let (b_rs, b_cs) = (b.strides()[0], b.strides()[1]);
    let (dst_rs, dst_cs) = (out.strides()[0], out.strides()[1]);
    // SAFETY: each pointer addresses element [0, 0] of a live view, and every
    // element `ptr + i·rs + j·cs` that gemm reads or writes (i < rows, j < cols of
    // that operand, as given by m, n, k) lies inside the same view, because those
    // are exactly the view's own shape and strides. `out` is a fresh owned array
    // borrowed mutably, so it aliases neither input. `T` is f32 or f64 (the only
    // callers), which gemm supports; it dispatches on the type id. With
    // `read_dst = false` gemm computes dst := 1·(a·b) and ignores alpha.
    unsafe {
        gemm::gemm(
            m,
            n,
            k,
            out.as_mut_ptr(),
            dst_cs,
            dst_rs,
            false,
            a.as_ptr(),
            a_cs,
            a_rs,
            b.as_ptr(),
            b_cs,
            b_rs,
            T::zero(),
            T::one(),
            false,
            false,
            false,
            parallelism,
        );
    }
}

/// `out = a · b` by rows: `out[i, :] += a[i, p] · b[p, :]`, so the inner loop runs
/// along contiguous rows and vectorises.
fn loop_matmul_into<T: LinalgElement>(a: ArrayView2<T>, b: ArrayView2<T>, out: &mut Array2<T>) {
    let a = a.as_standard_layout();
    let b = b.as_standard_layout();
    let work = a.len().saturating_mul(b.ncols());
    let accumulate_row = |(a_row, mut out_row): (ArrayView1<T>, ArrayViewMut1<T>)| {
        let Some(out_row) = out_row.as_slice_mut() else {
            return;
        };
        for (&a_ip, b_row) in a_row.iter().zip(b.rows()) {
            for (o, &b_pj) in out_row.iter_mut().zip(b_row.iter()) {
                *o = T::add_wrapping(*o, T::mul_wrapping(a_ip, b_pj));
            }
        }
    };
    let rows = a.rows().into_iter().zip(out.rows_mut());
    if work < PARALLEL_GEMM_MIN_WORK {
        rows.for_each(accumulate_row);
    } else {
        let rows = rows.collect::<Vec<_>>();
        threads::install(|| rows.into_par_iter().for_each(accumulate_row));
    }
}

/// `out[i] = a[i, :] · x` for a matrix whose rows are contiguous.
fn row_dots_into<T: LinalgElement>(a: ArrayView2<T>, x: &[T], mut out: ArrayViewMut1<T>) {
    let row_dot = |(o, row): (&mut T, ArrayView1<T>)| {
        *o = match row.as_slice() {
            Some(row) => pairwise_dot(row, x),
            None => pairwise_dot(&row.to_vec(), x),
        };
    };
    let Some(out) = out.as_slice_mut() else {
        return;
    };
    if a.len() < PARALLEL_MATVEC_MIN_WORK {
        out.iter_mut().zip(a.rows()).for_each(row_dot);
    } else {
        let rows: Vec<ArrayView1<T>> = a.rows().into_iter().collect();
        threads::install(|| out.par_iter_mut().zip(rows).for_each(row_dot));
    }
}

/// Pairwise sum of `a[i]·b[i]`: halves are summed separately (in parallel when large)
/// down to blocks of `DOT_LEAF_LEN`. Split points depend only on the length.
fn pairwise_dot<T: LinalgElement>(a: &[T], b: &[T]) -> T {
    let len = a.len().min(b.len());
    if len <= DOT_LEAF_LEN {
        return block_dot(&a[..len], &b[..len]);
    }
    let mid = (len / DOT_LEAF_LEN).div_ceil(2) * DOT_LEAF_LEN;
    let (a_lo, a_hi) = a[..len].split_at(mid);
    let (b_lo, b_hi) = b[..len].split_at(mid);
    let (lo, hi) = if len >= PARALLEL_DOT_MIN_LEN {
        threads::install(|| rayon::join(|| pairwise_dot(a_lo, b_lo), || pairwise_dot(a_hi, b_hi)))
    } else {
        (pairwise_dot(a_lo, b_lo), pairwise_dot(a_hi, b_hi))
    };
    T::add_wrapping(lo, hi)
}

/// Eight independent accumulators: they break the add latency chain and map onto
/// SIMD lanes, and they already make the sum partly pairwise.
fn block_dot<T: LinalgElement>(a: &[T], b: &[T]) -> T {
    const LANES: usize = 8;
    let mut acc = [T::zero(); LANES];
    let a_chunks = a.chunks_exact(LANES);
    let b_chunks = b.chunks_exact(LANES);
    let (a_tail, b_tail) = (a_chunks.remainder(), b_chunks.remainder());
    for (x, y) in a_chunks.zip(b_chunks) {
        for lane in 0..LANES {
            acc[lane] = T::add_wrapping(acc[lane], T::mul_wrapping(x[lane], y[lane]));
        }
    }
    for (lane, (&x, &y)) in a_tail.iter().zip(b_tail).enumerate() {
        acc[lane] = T::add_wrapping(acc[lane], T::mul_wrapping(x, y));
    }
    let quads = [
        T::add_wrapping(acc[0], acc[1]),
        T::add_wrapping(acc[2], acc[3]),
        T::add_wrapping(acc[4], acc[5]),
        T::add_wrapping(acc[6], acc[7]),
    ];
    T::add_wrapping(
        T::add_wrapping(quads[0], quads[1]),
        T::add_wrapping(quads[2], quads[3]),
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use ndarray::{array, s, Array};

    /// Textbook triple loop in f64, the reference for every layout test.
    fn naive_matmul(a: ArrayView2<f64>, b: ArrayView2<f64>) -> Array2<f64> {
        let (m, k) = a.dim();
        let n = b.ncols();
        Array2::from_shape_fn((m, n), |(i, j)| (0..k).map(|p| a[[i, p]] * b[[p, j]]).sum())
    }

    fn test_matrix(rows: usize, cols: usize, seed: u64) -> Array2<f64> {
        // Small integers keep every product exact, so comparisons can be tight.
        Array2::from_shape_fn((rows, cols), |(i, j)| {
            let h = (i as u64 * 31 + j as u64 * 17 + seed * 7919) % 23;
            h as f64 - 11.0
        })
    }

    fn assert_close(got: &Array2<f64>, want: &Array2<f64>, tol: f64) {
        assert_eq!(got.dim(), want.dim());
        for (g, w) in got.iter().zip(want.iter()) {
            assert!((g - w).abs() <= tol * (1.0 + w.abs()), "{g} vs {w}");
        }
    }

    #[test]
    fn small_matmul_values() {
        let a = array![[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]];
        let b = array![[7.0, 8.0], [9.0, 10.0], [11.0, 12.0]];
        let c = matmul(a.view(), b.view()).unwrap();
        assert_eq!(c, array![[58.0, 64.0], [139.0, 154.0]]);
    }

    #[test]
    fn f32_matmul_values() {
        let a = array![[1.0f32, 2.0], [3.0, 4.0]];
        let b = array![[5.0f32, 6.0], [7.0, 8.0]];
        let c = matmul(a.view(), b.view()).unwrap();
        assert_eq!(c, array![[19.0f32, 22.0], [43.0, 50.0]]);
    }

    #[test]
    fn i64_matmul_values_and_wrapping() {
        let a = array![[1i64, 2, 3], [4, 5, 6]];
        let b = array![[7i64, 8], [9, 10], [11, 12]];
        assert_eq!(
            matmul(a.view(), b.view()).unwrap(),
            array![[58i64, 64], [139, 154]]
        );
        let big = array![[i64::MAX, 1]];
        let col = array![[2i64], [3]];
        // NumPy wraps: (2**63 - 1) * 2 + 3 == 1 (mod 2**64).
        assert_eq!(matmul(big.view(), col.view()).unwrap(), array![[1i64]]);
    }

    #[test]
    fn large_i64_matmul_matches_float() {
        let a = test_matrix(70, 90, 1);
        let b = test_matrix(90, 110, 2);
        let ai = a.mapv(|v| v as i64);
        let bi = b.mapv(|v| v as i64);
        let c = matmul(ai.t(), ai.view()).unwrap();
        let want = naive_matmul(a.t(), a.view()).mapv(|v| v as i64);
        assert_eq!(c, want);
        let c = matmul(ai.view(), bi.view()).unwrap();
        assert_eq!(c, naive_matmul(a.view(), b.view()).mapv(|v| v as i64));
    }

    #[test]
    fn strided_views_match_naive() {
        let a = test_matrix(130, 170, 3);
        let b = test_matrix(170, 150, 4);
        let cases: Vec<(ArrayView2<f64>, ArrayView2<f64>)> = vec![
            (a.view(), b.view()),
            (b.t(), a.t()),
            (a.slice(s![..;2, ..]), b.view()),
            (a.slice(s![.., ..;-1]), b.slice(s![..;-1, ..])),
            (a.slice(s![5..100;3, 1..;2]), b.slice(s![1..;2, 7..90])),
        ];
        for (x, y) in cases {
            let got = matmul(x, y).unwrap();
            assert_close(&got, &naive_matmul(x, y), 0.0);
        }
    }

    #[test]
    fn parallel_size_matches_naive() {
        let a = test_matrix(257, 300, 5);
        let b = test_matrix(300, 263, 6);
        assert_close(
            &matmul(a.view(), b.view()).unwrap(),
            &naive_matmul(a.view(), b.view()),
            0.0,
        );
        let a32 = a.mapv(|v| v as f32);
        let b32 = b.mapv(|v| v as f32);
        let got = matmul(a32.t(), b32.slice(s![..257, ..])).unwrap();
        let want = naive_matmul(a.t(), b.slice(s![..257, ..]));
        assert_close(&got.mapv(f64::from), &want, 0.0);
    }

    #[test]
    fn blocking_edges_match_naive() {
        // Depth beyond one packed slab (192 or 512), columns beyond one block
        // (2048), and ragged tiles at every edge.
        let a = test_matrix(71, 1100, 10);
        let b = test_matrix(1100, 2060, 11);
        // Packing buffers are kept between products: a larger product first
        // leaves its values where the next one's padding goes.
        let huge = Array2::from_elem((80, 1100), 1e300);
        matmul(huge.view(), huge.t()).unwrap();
        matmul(huge.mapv(|v| v as f32).view(), huge.mapv(|v| v as f32).t()).unwrap();
        let want = naive_matmul(a.view(), b.view());
        assert_close(&matmul(a.view(), b.view()).unwrap(), &want, 0.0);
        let got32 = matmul(a.mapv(|v| v as f32).view(), b.mapv(|v| v as f32).view()).unwrap();
        assert_close(&got32.mapv(f64::from), &want, 0.0);
    }

    #[test]
    fn every_edge_width_matches_naive() {
        // A full panel of columns and then every width of an edge panel, which a narrower
        // register tile with masked loads and stores computes (f32 panels are 48 columns on
        // AVX-512 cpus, f64 panels 24), over a full row panel and a ragged one.
        let a = test_matrix(13, 40, 14);
        for n in 49..=96 {
            let b = test_matrix(40, n, 15);
            let want = naive_matmul(a.view(), b.view());
            assert_close(&matmul(a.view(), b.view()).unwrap(), &want, 0.0);
            let got32 = matmul(a.mapv(|v| v as f32).view(), b.mapv(|v| v as f32).view()).unwrap();
            assert_close(&got32.mapv(f64::from), &want, 0.0);
        }
    }

    #[test]
    fn products_of_signed_zeros_are_positive_zero() {
        // 3 × 3 goes through `gemm`, 64 × 64 through the packed kernel.
        for n in [3, 64] {
            let a = Array2::from_elem((n, n), -0.0_f64);
            let b = Array2::from_elem((n, n), 1.0);
            let c = matmul(a.view(), b.view()).unwrap();
            assert!(
                c.iter().all(|x: &f64| *x == 0.0 && x.is_sign_positive()),
                "n = {n}"
            );
        }
    }

    #[test]
    fn skinny_shapes_match_naive() {
        // Too small for a register tile in one dimension: handled by `gemm`.
        for (m, k, n) in [(5, 40, 30), (30, 40, 7), (30, 3, 30), (1, 1, 1), (6, 16, 8)] {
            let a = test_matrix(m, k, 12);
            let b = test_matrix(k, n, 13);
            let got = matmul(a.view(), b.view()).unwrap();
            assert_close(&got, &naive_matmul(a.view(), b.view()), 0.0);
        }
    }

    #[test]
    fn empty_and_mismatched_shapes() {
        let a = Array2::<f64>::zeros((3, 0));
        let b = Array2::<f64>::zeros((0, 4));
        assert_eq!(
            matmul(a.view(), b.view()).unwrap(),
            Array2::<f64>::zeros((3, 4))
        );
        let c = Array2::<f64>::zeros((0, 5));
        let d = Array2::<f64>::zeros((5, 2));
        assert_eq!(matmul(c.view(), d.view()).unwrap().dim(), (0, 2));
        let err = matmul(a.view(), d.view()).unwrap_err();
        assert!(err.contains("not aligned"), "{err}");
        let x = Array1::<f64>::zeros(3);
        assert!(matvec(d.view(), x.view()).is_err());
        assert!(vecmat(x.view(), c.view()).is_err());
        assert!(dot(x.view(), Array1::zeros(4).view()).is_err());
    }

    #[test]
    fn matvec_and_vecmat_values() {
        let a = array![[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]];
        let x = array![1.0, 0.5, -1.0];
        assert_eq!(matvec(a.view(), x.view()).unwrap(), array![-1.0, 0.5]);
        assert_eq!(
            matvec(a.t(), array![1.0, -1.0].view()).unwrap(),
            array![-3.0, -3.0, -3.0]
        );
        assert_eq!(
            vecmat(array![1.0, -1.0].view(), a.view()).unwrap(),
            array![-3.0, -3.0, -3.0]
        );
        let ai = array![[1i64, 2], [3, 4]];
        assert_eq!(
            matvec(ai.t(), array![1i64, 1].view()).unwrap(),
            array![4i64, 6]
        );
    }

    #[test]
    fn large_matvec_matches_naive() {
        let a = test_matrix(600, 700, 8);
        let x = test_matrix(700, 1, 9);
        let want = naive_matmul(a.view(), x.view()).column(0).to_owned();
        assert_eq!(matvec(a.view(), x.column(0)).unwrap(), want);
        let want_t = naive_matmul(a.t(), a.slice(s![.., 3..4]))
            .column(0)
            .to_owned();
        assert_eq!(matvec(a.t(), a.column(3)).unwrap(), want_t);
    }

    #[test]
    fn dot_values() {
        let a = array![1.0, 2.0, 3.0];
        let b = array![4.0, -5.0, 6.0];
        assert_eq!(dot(a.view(), b.view()).unwrap(), 12.0);
        assert_eq!(dot(a.slice(s![..;-1]), b.view()).unwrap(), 8.0);
        let empty = Array1::<f32>::zeros(0);
        assert_eq!(dot(empty.view(), empty.view()).unwrap(), 0.0);
        let n = 1_000_003i64;
        let ints = Array::range(0.0, n as f64, 1.0).mapv(|v| v as i64);
        let ones = Array1::<i64>::ones(n as usize);
        assert_eq!(dot(ints.view(), ones.view()).unwrap(), n * (n - 1) / 2);
    }

    #[test]
    fn dot_is_accurate_for_long_f32_sums() {
        // 10^7 copies of 0.1f32: a running f32 sum drifts by about 10%; pairwise stays
        // within a few ulps of the exact product.
        let n = 10_000_000;
        let tenths = Array1::from_elem(n, 0.1f32);
        let ones = Array1::from_elem(n, 1.0f32);
        let got = f64::from(dot(tenths.view(), ones.view()).unwrap());
        let exact = f64::from(0.1f32) * n as f64;
        assert!((got - exact).abs() / exact < 1e-6, "{got} vs {exact}");
    }
}
