//! 2-d image filtering on the cpu.
//!
//! `conv2d` is a "same"-size cross-correlation with zero padding, equal to
//! `scipy.signal.correlate2d(image, kernel, mode="same")`:
//!
//! ```text
//! out[i, j] = Σ_{p, q} kernel[p, q] · image[i + p - (kh - 1) / 2, j + q - (kw - 1) / 2]
//! ```
//!
//! (integer division; pixels outside the image count as zero). For odd kernel
//! sizes the kernel's centre sits on the output pixel. For an even size the
//! anchor is the element just before the middle (`kh / 2 - 1`), which is how
//! `correlate2d` centres it; note that `scipy.signal.correlate(..., "same")`
//! anchors even kernels one element later (`kh / 2`), so the two scipy
//! functions disagree there.
//!
//! Each output row is the weighted sum of shifted rows of the image. Rows are
//! independent and computed in parallel; within a row each kernel tap is one
//! multiply-add over a contiguous run of columns, which the compiler vectorises.

use ndarray::{Array2, ArrayView2};
use rayon::prelude::*;

use super::linalg::Float;
use super::threads;
use crate::base::interrupt::Stop;

/// Below this many multiply-adds the image is filtered on one thread.
const PARALLEL_MIN_WORK: usize = 1 << 16;

/// 2-d "same" correlation of `image` with `kernel` (not flipped), zero-padded.
///
/// The output has the image's shape. Any strides are accepted. An empty kernel
/// gives zeros; a kernel larger than the image is fine.
pub fn conv2d<T: Float>(image: ArrayView2<T>, kernel: ArrayView2<T>) -> Array2<T> {
    let (height, width) = image.dim();
    let (kernel_height, kernel_width) = kernel.dim();
    if height == 0 || width == 0 || kernel.is_empty() {
        return Array2::zeros((height, width));
    }
    let image = image.as_standard_layout();
    let Some(pixels) = image.as_slice() else {
        return Array2::zeros((height, width));
    };
    let taps = Taps::new(kernel);

    let mut out = vec![T::zero(); height * width];
    // Rows after an interrupt are skipped; the caller reports it.
    let stop = Stop::current();
    let filter_row = |(row, out_row): (usize, &mut [T])| {
        if !stop.requested() {
            taps.apply_to_row(pixels, width, height, row, out_row)
        }
    };
    let work = out.len().saturating_mul(kernel_height * kernel_width);
    if work < PARALLEL_MIN_WORK {
        out.chunks_mut(width).enumerate().for_each(filter_row);
    } else {
        threads::install(|| out.par_chunks_mut(width).enumerate().for_each(filter_row));
    }
    Array2::from_shape_vec((height, width), out).unwrap_or_else(|_| Array2::zeros((height, width)))
}

/// The kernel in row-major order with its anchor, as the row filter needs it.
struct Taps<T> {
    weights: Vec<T>,
    rows: usize,
    cols: usize,
    row_anchor: usize,
    col_anchor: usize,
}

impl<T: Float> Taps<T> {
    fn new(kernel: ArrayView2<T>) -> Self {
        let (rows, cols) = kernel.dim();
        Taps {
            weights: kernel.iter().copied().collect(),
            rows,
            cols,
            row_anchor: (rows - 1) / 2,
            col_anchor: (cols - 1) / 2,
        }
    }

    /// Adds every tap's contribution to output row `row` (which starts zeroed).
    fn apply_to_row(
        &self,
        pixels: &[T],
        width: usize,
        height: usize,
        row: usize,
        out_row: &mut [T],
    ) {
        for kernel_row in 0..self.rows {
            // Source row = row + kernel_row - row_anchor, skipped when off the image.
            let Some(source) = (row + kernel_row).checked_sub(self.row_anchor) else {
                continue;
            };
            if source >= height {
                continue;
            }
            let source_row = &pixels[source * width..(source + 1) * width];
            let weights = &self.weights[kernel_row * self.cols..(kernel_row + 1) * self.cols];
            for (kernel_col, &weight) in weights.iter().enumerate() {
                // out[j] += weight · source_row[j + kernel_col - col_anchor], for the
                // columns j where that index is inside the row.
                let (out_cols, src_cols) = if kernel_col >= self.col_anchor {
                    let shift = kernel_col - self.col_anchor;
                    if shift >= width {
                        continue;
                    }
                    (&mut out_row[..width - shift], &source_row[shift..])
                } else {
                    let shift = self.col_anchor - kernel_col;
                    if shift >= width {
                        continue;
                    }
                    (&mut out_row[shift..], &source_row[..width - shift])
                };
                for (o, &x) in out_cols.iter_mut().zip(src_cols) {
                    *o = *o + weight * x;
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use ndarray::{array, s, Array2};

    /// Direct evaluation of the defining formula, in f64.
    fn reference(image: ArrayView2<f64>, kernel: ArrayView2<f64>) -> Array2<f64> {
        let (h, w) = image.dim();
        let (kh, kw) = kernel.dim();
        let (ah, aw) = ((kh as isize - 1) / 2, (kw as isize - 1) / 2);
        Array2::from_shape_fn((h, w), |(i, j)| {
            let mut sum = 0.0;
            for p in 0..kh {
                for q in 0..kw {
                    let r = i as isize + p as isize - ah;
                    let c = j as isize + q as isize - aw;
                    if r >= 0 && c >= 0 && (r as usize) < h && (c as usize) < w {
                        sum += kernel[[p, q]] * image[[r as usize, c as usize]];
                    }
                }
            }
            sum
        })
    }

    fn test_image(h: usize, w: usize) -> Array2<f64> {
        Array2::from_shape_fn((h, w), |(i, j)| ((i * 37 + j * 11) % 19) as f64 - 9.0)
    }

    #[test]
    fn matches_scipy_correlate2d_same_for_3x3() {
        // scipy.signal.correlate2d(np.arange(16.).reshape(4, 4),
        //                          [[0, 1, 0], [1, -4, 1], [0, 2, 0]], mode="same")
        let image = Array2::from_shape_fn((4, 4), |(i, j)| (i * 4 + j) as f64);
        let kernel = array![[0.0, 1.0, 0.0], [1.0, -4.0, 1.0], [0.0, 2.0, 0.0]];
        let want = array![
            [9.0, 8.0, 8.0, 4.0],
            [5.0, 9.0, 10.0, 3.0],
            [5.0, 13.0, 14.0, 3.0],
            [-27.0, -17.0, -18.0, -35.0]
        ];
        assert_eq!(conv2d(image.view(), kernel.view()), want);
    }

    #[test]
    fn kernel_larger_than_image_matches_scipy() {
        // scipy.signal.correlate2d(np.arange(12.).reshape(3, 4),
        //                          np.arange(30.).reshape(5, 6), mode="same")
        let image = Array2::from_shape_fn((3, 4), |(i, j)| (i * 4 + j) as f64);
        let kernel = Array2::from_shape_fn((5, 6), |(i, j)| (i * 6 + j) as f64);
        let want = array![
            [1626.0, 1560.0, 1494.0, 1176.0],
            [1230.0, 1164.0, 1098.0, 852.0],
            [834.0, 768.0, 702.0, 528.0]
        ];
        assert_eq!(conv2d(image.view(), kernel.view()), want);
    }

    #[test]
    fn even_kernel_uses_correlate2d_centering() {
        // scipy.signal.correlate2d(np.ones((4, 4)), np.ones((4, 4)), mode="same")
        let ones = Array2::<f64>::ones((4, 4));
        let want = array![
            [9.0, 12.0, 9.0, 6.0],
            [12.0, 16.0, 12.0, 8.0],
            [9.0, 12.0, 9.0, 6.0],
            [6.0, 8.0, 6.0, 4.0]
        ];
        assert_eq!(conv2d(ones.view(), ones.view()), want);
        // scipy.signal.correlate2d([[1, 2, 3, 4]], [[1, 2, 3, 4]], mode="same")
        let x = array![[1.0, 2.0, 3.0, 4.0]];
        assert_eq!(conv2d(x.view(), x.view()), array![[20.0, 30.0, 20.0, 11.0]]);
    }

    #[test]
    fn kernel_is_not_flipped() {
        let image = array![[0.0, 0.0, 0.0], [0.0, 1.0, 0.0], [0.0, 0.0, 0.0]];
        let kernel = array![[1.0, 2.0, 3.0], [4.0, 5.0, 6.0], [7.0, 8.0, 9.0]];
        // An impulse correlated with k gives k rotated by 180 degrees.
        let want = array![[9.0, 8.0, 7.0], [6.0, 5.0, 4.0], [3.0, 2.0, 1.0]];
        assert_eq!(conv2d(image.view(), kernel.view()), want);
    }

    #[test]
    fn many_shapes_match_reference() {
        let image = test_image(41, 57);
        for (kh, kw) in [
            (1, 1),
            (2, 3),
            (3, 3),
            (4, 2),
            (5, 7),
            (6, 6),
            (60, 3),
            (3, 80),
        ] {
            let kernel = Array2::from_shape_fn((kh, kw), |(p, q)| (p * 3 + q) as f64 * 0.5 - 2.0);
            let got = conv2d(image.view(), kernel.view());
            assert_eq!(
                got,
                reference(image.view(), kernel.view()),
                "kernel {kh}x{kw}"
            );
        }
    }

    #[test]
    fn strided_views_and_f32() {
        let image = test_image(300, 260);
        let kernel = array![[1.0, -2.0, 0.5], [0.25, 3.0, -1.0], [2.0, 0.0, 1.5]];
        let view = image.slice(s![..;-2, 3..;3]);
        let got = conv2d(view, kernel.t());
        assert_eq!(got, reference(view, kernel.t()));

        let image32 = image.mapv(|v| v as f32);
        let kernel32 = kernel.mapv(|v| v as f32);
        let got32 = conv2d(image32.view(), kernel32.view());
        let want = reference(image.view(), kernel.view());
        for (g, w) in got32.iter().zip(want.iter()) {
            assert!((f64::from(*g) - w).abs() < 1e-4, "{g} vs {w}");
        }
    }

    #[test]
    fn empty_inputs() {
        let image = test_image(5, 4);
        let no_kernel = Array2::<f64>::zeros((0, 3));
        assert_eq!(
            conv2d(image.view(), no_kernel.view()),
            Array2::<f64>::zeros((5, 4))
        );
        let no_image = Array2::<f64>::zeros((0, 7));
        let kernel = Array2::<f64>::ones((3, 3));
        assert_eq!(conv2d(no_image.view(), kernel.view()).dim(), (0, 7));
        let no_cols = Array2::<f64>::zeros((7, 0));
        assert_eq!(conv2d(no_cols.view(), kernel.view()).dim(), (7, 0));
    }
}
