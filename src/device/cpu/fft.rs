//! Discrete Fourier transforms on the cpu with rustfft, as passes over C-ordered buffers: each
//! pass transforms every lane along one axis (the middle axis of `[outer, len, inner]`). Lanes
//! along the last axis are contiguous rows, handed to rustfft in groups; lanes along another axis
//! are gathered a block at a time into rows (16 neighbouring lanes read together, so every cache
//! line read is used), transformed, and scattered back. Groups and blocks run on all cores.
//!
//! Real transforms of even length `n` are complex transforms of length `n / 2` (the even and odd
//! samples as real and imaginary parts) with a pass of twiddles that separates the two halves;
//! odd lengths use the complex transform of length `n`. Plans and twiddles are made once per
//! length and kept for the session.

use std::cell::RefCell;
use std::collections::HashMap;
use std::sync::Arc;

use ndarray::{ArrayView2, ArrayView3, ArrayViewMut2, ArrayViewMut3, Axis};
use num_complex::Complex;
use rayon::prelude::*;
use rustfft::{Fft, FftDirection, FftNum, FftPlanner};

use super::threads;
use crate::base::interrupt::Stop;

/// Lanes gathered into rows together when the axis is not the last.
const BLOCK: usize = 16;
/// Elements a task transforms when the lanes are contiguous rows.
const TASK_ELEMENTS: usize = 1 << 15;

/// A float rustfft transforms, with the session's plans for it.
pub trait FftFloat: FftNum + num_traits::Float + num_traits::NumAssign + Default {
    fn with_plans<R>(f: impl FnOnce(&mut Plans<Self>) -> R) -> R;
}

macro_rules! fft_float {
    ($t:ty, $cell:ident) => {
        thread_local! {
            static $cell: RefCell<Plans<$t>> = RefCell::new(Plans::new());
        }
        impl FftFloat for $t {
            fn with_plans<R>(f: impl FnOnce(&mut Plans<Self>) -> R) -> R {
                $cell.with(|p| f(&mut p.borrow_mut()))
            }
        }
    };
}

fft_float!(f32, PLANS_F32);
fft_float!(f64, PLANS_F64);

/// rustfft's planner (which keeps every plan it made) and the real transforms' twiddles.
pub struct Plans<T: FftNum> {
    planner: FftPlanner<T>,
    twiddles: HashMap<usize, Arc<[Complex<T>]>>,
}

impl<T: FftFloat> Plans<T> {
    fn new() -> Plans<T> {
        Plans {
            planner: FftPlanner::new(),
            twiddles: HashMap::new(),
        }
    }

    fn complex(&mut self, n: usize, inverse: bool) -> Arc<dyn Fft<T>> {
        let direction = if inverse {
            FftDirection::Inverse
        } else {
            FftDirection::Forward
        };
        self.planner.plan_fft(n, direction)
    }

    fn real(&mut self, n: usize, inverse: bool) -> RealFft<T> {
        let even = n.is_multiple_of(2);
        let fft = self.complex(if even { n / 2 } else { n }, inverse);
        let twiddles = if even {
            self.twiddles
                .entry(n)
                .or_insert_with(|| {
                    (0..n / 2)
                        .map(|k| {
                            let angle = -2.0 * std::f64::consts::PI * k as f64 / n as f64;
                            Complex::new(float(angle.cos()), float(angle.sin()))
                        })
                        .collect()
                })
                .clone()
        } else {
            Arc::from(Vec::new())
        };
        RealFft { n, fft, twiddles }
    }
}

fn float<T: FftFloat>(x: f64) -> T {
    T::from(x).expect("every f64 converts to a float")
}

/// A task's buffers, grown as needed and kept across the lanes it transforms.
struct Work<T> {
    rows: Vec<Complex<T>>,
    scratch: Vec<Complex<T>>,
}

impl<T> Default for Work<T> {
    fn default() -> Self {
        Work {
            rows: Vec::new(),
            scratch: Vec::new(),
        }
    }
}

/// The first `len` elements of `v`, grown to hold them: not initialised, as a transform's rows
/// and scratch space are written before they are read.
fn sized<C: Copy>(v: &mut Vec<C>, len: usize) -> &mut [C] {
    if v.len() < len {
        *v = crate::device::host::vec_with_capacity(len);
        // SAFETY: `C` is a float or a complex of floats, for which any bits are a value; every
        // caller writes the elements before it reads them.
        unsafe { v.set_len(len) };
    }
    &mut v[..len]
}

/// `[outer, len, inner]` for lanes along `axis` of a C-ordered `shape`.
fn lanes(shape: &[usize], axis: usize) -> (usize, usize) {
    let inner = shape[axis + 1..].iter().product();
    (shape[axis], inner)
}

/// Runs `work(rows_in, rows_out)` over every lane along the middle axis of `src`
/// (`[outer, src_len, inner]`) into `dst` (`[outer, dst_len, inner]`): rows of lanes, `src_len`
/// and `dst_len` elements each.
fn between<A, B, S, F>(
    src: &[A],
    src_len: usize,
    dst: &mut [B],
    dst_len: usize,
    inner: usize,
    work: F,
) where
    A: Copy + Default + Send + Sync,
    B: Copy + Default + Send + Sync,
    S: Default + Send,
    F: Fn(&mut S, &[A], &mut [B]) + Sync,
{
    if dst.is_empty() || src.is_empty() {
        return;
    }
    // Every task checks for an interrupt first, and skips its lanes after one.
    let stop = Stop::current();
    let work = |s: &mut S, a: &[A], b: &mut [B]| {
        if !stop.requested() {
            work(s, a, b)
        }
    };
    if inner == 1 {
        let rows = (TASK_ELEMENTS / src_len.max(dst_len)).max(1);
        threads::install(|| {
            src.par_chunks(rows * src_len)
                .zip(dst.par_chunks_mut(rows * dst_len))
                .for_each_init(S::default, |s, (a, b)| work(s, a, b))
        });
        return;
    }
    touch_pages(dst, &stop);
    let outer = src.len() / (src_len * inner);
    let src = ArrayView3::from_shape((outer, src_len, inner), src).expect("sizes agree");
    let dst = ArrayViewMut3::from_shape((outer, dst_len, inner), dst).expect("sizes agree");
    let sources: Vec<ArrayView2<A>> = src
        .into_outer_iter()
        .flat_map(|m| m.into_axis_chunks_iter(Axis(1), BLOCK))
        .collect();
    let targets: Vec<ArrayViewMut2<B>> = dst
        .into_outer_iter_mut()
        .flat_map(|m| m.into_axis_chunks_iter_mut(Axis(1), BLOCK))
        .collect();
    threads::install(|| {
        sources.into_par_iter().zip(targets).for_each_init(
            || (S::default(), Vec::new(), Vec::new()),
            |(s, rows_in, rows_out), (from, mut to)| {
                // Not even gathered and scattered: after an interrupt stopped `touch_pages`,
                // scattering would fault in the rest of a fresh `dst` (0.7 s for 512 MiB).
                if stop.requested() {
                    return;
                }
                let width = from.ncols();
                gather(&from, sized(rows_in, width * src_len));
                let rows_out = sized(rows_out, width * dst_len);
                work(s, &rows_in[..width * src_len], rows_out);
                scatter(rows_out, &mut to);
            },
        )
    });
}

/// Writes one element of each page of `dst`, a block at a time in parallel, until an interrupt.
/// A task of lanes across rows writes a few elements of every row, so the first one would fault
/// in all of a fresh `dst` on its own: at 0.3 GB/s, as a virtual machine clears pages its host
/// has taken back, 2 s for 512 MiB that no interrupt could cut short.
fn touch_pages<B: Copy + Default + Send>(dst: &mut [B], stop: &Stop) {
    const PAGE_BYTES: usize = 4096;
    const BLOCK_BYTES: usize = 1 << 20;
    let size = std::mem::size_of::<B>().max(1);
    let per_page = (PAGE_BYTES / size).max(1);
    threads::install(|| {
        dst.par_chunks_mut((BLOCK_BYTES / size).max(1))
            .for_each(|block| {
                if !stop.requested() {
                    block
                        .iter_mut()
                        .step_by(per_page)
                        .for_each(|x| *x = B::default());
                }
            })
    });
}

/// Runs `work(rows)` in place over every lane along the middle axis of `data`
/// (`[outer, len, inner]`).
fn in_place<A, S, F>(data: &mut [A], len: usize, inner: usize, work: F)
where
    A: Copy + Default + Send + Sync,
    S: Default + Send,
    F: Fn(&mut S, &mut [A]) + Sync,
{
    if data.is_empty() {
        return;
    }
    let stop = Stop::current();
    let work = |s: &mut S, rows: &mut [A]| {
        if !stop.requested() {
            work(s, rows)
        }
    };
    if inner == 1 {
        let rows = (TASK_ELEMENTS / len).max(1);
        threads::install(|| {
            data.par_chunks_mut(rows * len)
                .for_each_init(S::default, |s, rows| work(s, rows))
        });
        return;
    }
    let outer = data.len() / (len * inner);
    let data = ArrayViewMut3::from_shape((outer, len, inner), data).expect("sizes agree");
    let blocks: Vec<ArrayViewMut2<A>> = data
        .into_outer_iter_mut()
        .flat_map(|m| m.into_axis_chunks_iter_mut(Axis(1), BLOCK))
        .collect();
    threads::install(|| {
        blocks.into_par_iter().for_each_init(
            || (S::default(), Vec::new()),
            |(s, rows), mut block| {
                if stop.requested() {
                    return;
                }
                let rows = sized(rows, block.len());
                gather(&block.view(), rows);
                work(s, rows);
                scatter(rows, &mut block);
            },
        )
    });
}

/// Lane `b` of a `[len, width]` block into row `b` of `rows`.
fn gather<A: Copy>(block: &ArrayView2<A>, rows: &mut [A]) {
    let len = block.nrows();
    for (i, line) in block.outer_iter().enumerate() {
        for (b, &x) in line.iter().enumerate() {
            rows[b * len + i] = x;
        }
    }
}

/// Row `b` of `rows` back into lane `b` of a `[len, width]` block.
fn scatter<A: Copy>(rows: &[A], block: &mut ArrayViewMut2<A>) {
    let len = block.nrows();
    for (i, mut line) in block.outer_iter_mut().enumerate() {
        for (b, x) in line.iter_mut().enumerate() {
            *x = rows[b * len + i];
        }
    }
}

fn scale_all<C: std::ops::MulAssign<T> + Copy, T: FftFloat>(values: &mut [C], scale: T) {
    if scale != T::one() {
        values.iter_mut().for_each(|v| *v *= scale);
    }
}

/// Complex transforms along each of `axes` (distinct; the first is done first) of a C-ordered
/// `shape`: from `src` into `dst` when `src` is given, else in place in `dst`. The results are
/// multiplied by `scale`.
pub fn c2c<T: FftFloat>(
    src: Option<&[Complex<T>]>,
    dst: &mut [Complex<T>],
    shape: &[usize],
    axes: &[usize],
    inverse: bool,
    scale: T,
) {
    for (k, &axis) in axes.iter().enumerate() {
        let (len, inner) = lanes(shape, axis);
        let fft = T::with_plans(|p| p.complex(len, inverse));
        let factor = if k + 1 == axes.len() { scale } else { T::one() };
        match src.filter(|_| k == 0) {
            Some(src) => between(src, len, dst, len, inner, |w: &mut Work<T>, a, b| {
                let scratch = sized(&mut w.scratch, fft.get_immutable_scratch_len());
                fft.process_immutable_with_scratch(a, b, scratch);
                scale_all(b, factor);
            }),
            None => in_place(dst, len, inner, |w: &mut Work<T>, rows| {
                let scratch = sized(&mut w.scratch, fft.get_inplace_scratch_len());
                fft.process_with_scratch(rows, scratch);
                scale_all(rows, factor);
            }),
        }
    }
}

/// The real-to-complex transform along `axis` of a C-ordered real `shape` (length `n`): the
/// `n / 2 + 1` non-negative frequencies into `dst`, multiplied by `scale`.
pub fn r2c<T: FftFloat>(src: &[T], shape: &[usize], axis: usize, dst: &mut [Complex<T>], scale: T) {
    let (n, inner) = lanes(shape, axis);
    let plan = T::with_plans(|p| p.real(n, false));
    between(src, n, dst, n / 2 + 1, inner, |w: &mut Work<T>, a, b| {
        plan.forward(a, b, w);
        scale_all(b, scale);
    });
}

/// The complex-to-real transform along `axis` of a C-ordered complex `shape` (whose length there
/// is `n / 2 + 1`): `n` real values into `dst`, multiplied by `scale`. As NumPy, the imaginary
/// parts of the zero frequency (and for even `n` of the last) are ignored.
pub fn c2r<T: FftFloat>(
    src: &[Complex<T>],
    shape: &[usize],
    axis: usize,
    n: usize,
    dst: &mut [T],
    scale: T,
) {
    let (half, inner) = lanes(shape, axis);
    debug_assert_eq!(half, n / 2 + 1);
    let plan = T::with_plans(|p| p.real(n, true));
    between(src, half, dst, n, inner, |w: &mut Work<T>, a, b| {
        plan.inverse(a, b, w);
        scale_all(b, scale);
    });
}

/// A real transform of length `n`: a complex one of `n / 2` and the twiddles `e^{-2πik/n}`,
/// k < n / 2, for even `n`; the complex one of length `n` for odd `n`.
struct RealFft<T: FftNum> {
    n: usize,
    fft: Arc<dyn Fft<T>>,
    twiddles: Arc<[Complex<T>]>,
}

impl<T: FftFloat> RealFft<T> {
    /// Rows of `n` reals in `src` to rows of `n / 2 + 1` frequencies in `dst`.
    fn forward(&self, src: &[T], dst: &mut [Complex<T>], w: &mut Work<T>) {
        let n = self.n;
        let rows = src.len() / n;
        if n % 2 == 1 {
            let z = sized(&mut w.rows, rows * n);
            for (z, &x) in z.iter_mut().zip(src) {
                *z = Complex::new(x, T::zero());
            }
            self.fft
                .process_with_scratch(z, sized(&mut w.scratch, self.fft.get_inplace_scratch_len()));
            for (z, out) in z.chunks_exact(n).zip(dst.chunks_exact_mut(n / 2 + 1)) {
                out.copy_from_slice(&z[..n / 2 + 1]);
            }
            return;
        }
        let m = n / 2;
        let z = sized(&mut w.rows, rows * m);
        for (z, pair) in z.iter_mut().zip(src.chunks_exact(2)) {
            *z = Complex::new(pair[0], pair[1]);
        }
        self.fft
            .process_with_scratch(z, sized(&mut w.scratch, self.fft.get_inplace_scratch_len()));
        let half = float::<T>(0.5);
        for (z, out) in z.chunks_exact(m).zip(dst.chunks_exact_mut(m + 1)) {
            // The zero and last frequencies are real: exactly, as NumPy's.
            out[0] = Complex::new(z[0].re + z[0].im, T::zero());
            out[m] = Complex::new(z[0].re - z[0].im, T::zero());
            for k in 1..m {
                let a = z[k];
                let b = z[m - k].conj();
                let even = (a + b) * half;
                let odd = (a - b) * Complex::new(T::zero(), -half);
                out[k] = even + self.twiddles[k] * odd;
            }
        }
    }

    /// Rows of `n / 2 + 1` frequencies in `src` to rows of `n` reals in `dst` (unnormalised).
    fn inverse(&self, src: &[Complex<T>], dst: &mut [T], w: &mut Work<T>) {
        let n = self.n;
        let half = n / 2 + 1;
        let rows = src.len() / half;
        let real = |x: Complex<T>| Complex::new(x.re, T::zero());
        if n % 2 == 1 {
            let z = sized(&mut w.rows, rows * n);
            for (z, x) in z.chunks_exact_mut(n).zip(src.chunks_exact(half)) {
                z[0] = real(x[0]);
                for k in 1..half {
                    z[k] = x[k];
                    z[n - k] = x[k].conj();
                }
            }
            self.fft
                .process_with_scratch(z, sized(&mut w.scratch, self.fft.get_inplace_scratch_len()));
            for (out, z) in dst.iter_mut().zip(z.iter()) {
                *out = z.re;
            }
            return;
        }
        let m = n / 2;
        let z = sized(&mut w.rows, rows * m);
        let i = Complex::new(T::zero(), T::one());
        for (z, x) in z.chunks_exact_mut(m).zip(src.chunks_exact(half)) {
            for (k, z) in z.iter_mut().enumerate() {
                let (a, b) = if k == 0 {
                    (real(x[0]), real(x[m]))
                } else {
                    (x[k], x[m - k].conj())
                };
                *z = (a + b) + i * self.twiddles[k].conj() * (a - b);
            }
        }
        self.fft
            .process_with_scratch(z, sized(&mut w.scratch, self.fft.get_inplace_scratch_len()));
        for (pair, z) in dst.chunks_exact_mut(2).zip(z.iter()) {
            pair[0] = z.re;
            pair[1] = z.im;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The textbook sum, for comparison.
    fn dft(x: &[Complex<f64>], inverse: bool) -> Vec<Complex<f64>> {
        let n = x.len();
        let sign = if inverse { 1.0 } else { -1.0 };
        (0..n)
            .map(|k| {
                x.iter()
                    .enumerate()
                    .map(|(j, &v)| {
                        let angle = sign * 2.0 * std::f64::consts::PI * (j * k) as f64 / n as f64;
                        v * Complex::new(angle.cos(), angle.sin())
                    })
                    .sum()
            })
            .collect()
    }

    fn close(a: &[Complex<f64>], b: &[Complex<f64>]) -> bool {
        a.len() == b.len() && a.iter().zip(b).all(|(x, y)| (x - y).norm() < 1e-9)
    }

    #[test]
    fn real_transforms_match_the_sum_for_odd_and_even_lengths() {
        for n in [1usize, 2, 3, 4, 5, 6, 7, 8, 9, 16, 30] {
            let x: Vec<f64> = (0..2 * n)
                .map(|j| ((j * 7 + 3) % 11) as f64 - 5.0)
                .collect();
            let mut spectrum = vec![Complex::default(); 2 * (n / 2 + 1)];
            r2c(&x, &[2, n], 1, &mut spectrum, 1.0);
            for row in 0..2 {
                let complex: Vec<_> = x[row * n..][..n]
                    .iter()
                    .map(|&v| Complex::new(v, 0.0))
                    .collect();
                let want = &dft(&complex, false)[..n / 2 + 1];
                assert!(
                    close(&spectrum[row * (n / 2 + 1)..][..n / 2 + 1], want),
                    "rfft n={n}"
                );
            }
            let mut back = vec![0.0; 2 * n];
            c2r(&spectrum, &[2, n / 2 + 1], 1, n, &mut back, 1.0 / n as f64);
            assert!(
                back.iter().zip(&x).all(|(a, b)| (a - b).abs() < 1e-9),
                "irfft n={n}"
            );
        }
    }

    #[test]
    fn transforms_along_a_first_axis_match_the_last() {
        let (rows, cols) = (5usize, 37usize);
        let x: Vec<Complex<f64>> = (0..rows * cols)
            .map(|j| Complex::new((j % 13) as f64, (j % 5) as f64))
            .collect();
        let mut along_rows = vec![Complex::default(); rows * cols];
        c2c(Some(&x), &mut along_rows, &[rows, cols], &[0], false, 1.0);
        for c in 0..cols {
            let column: Vec<_> = (0..rows).map(|r| x[r * cols + c]).collect();
            let got: Vec<_> = (0..rows).map(|r| along_rows[r * cols + c]).collect();
            assert!(close(&got, &dft(&column, false)));
        }
    }
}
