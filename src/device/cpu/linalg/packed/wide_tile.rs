//! The tile kernel for cpus with AVX-512 (wide tiles), written with intrinsics, and the choice
//! of how many registers wide a tile at the right edge of `b` is.

#[cfg(target_arch = "x86_64")]
use super::{TileShape, B_AHEAD_STEPS, UNROLLED_STEPS, WIDE_MR, WIDE_VECTORS};
#[cfg(target_arch = "x86_64")]
use crate::device::cpu::linalg::Float;

/// `WideTile::wide_tile` with as many registers as `tile.cols` needs.
///
/// # Safety
/// As `WideTile::wide_tile`, with `tile.cols` at most `WIDE_VECTORS` registers wide.
#[cfg(target_arch = "x86_64")]
pub(super) unsafe fn wide_tile_fitted<T: Float, const STREAM_B: bool, const B_IN_PLACE: bool>(
    a: *const T,
    b: *const T,
    b_stride: usize,
    depth: usize,
    c: *mut T,
    tile: TileShape,
    next_tile: *const T,
) {
    let kernel = match (tile.cols * std::mem::size_of::<T>()).div_ceil(64) {
        1 => T::wide_tile::<1, STREAM_B, B_IN_PLACE>,
        2 => T::wide_tile::<2, STREAM_B, B_IN_PLACE>,
        _ => T::wide_tile::<WIDE_VECTORS, STREAM_B, B_IN_PLACE>,
    };
    // SAFETY: the caller's.
    unsafe { kernel(a, b, b_stride, depth, c, tile, next_tile) }
}

/// The tile kernel for cpus with AVX-512, written with intrinsics: the
/// compiler's vectorisation of `micro_kernel` spilled accumulators for some
/// tile heights and left 5–10% on the table for the others.
#[cfg(target_arch = "x86_64")]
pub trait WideTile: Sized {
    /// `c += a · b` for one tile of `WIDE_MR` rows of `VECTORS` registers (`=` in the first
    /// slab), prefetching the rows of `next_tile` meanwhile, and with `STREAM_B` the B panel's
    /// values `B_AHEAD_STEPS` steps ahead (a panel that streams from L2). With `B_IN_PLACE`,
    /// `b` is not a packed panel but `b` itself, its steps `b_stride` values apart, of which only
    /// the tile's `tile.cols` columns are read. A panel at the right
    /// edge of `b` with fewer columns than `WIDE_VECTORS` registers hold takes fewer registers:
    /// 500 f32 columns are 10 panels of 48 and one of 20, which as a whole panel had spent 5% of
    /// the product's multiply-adds on padding (500² f32 ran at 0.92× the speed of 480² and 528²).
    ///
    /// # Safety
    /// The cpu has AVX-512F; `a` holds `depth · WIDE_MR` values, `b` holds
    /// `depth` rows of `WIDE_VECTORS` registers (with `B_IN_PLACE`, of `tile.cols` values
    /// `b_stride` apart), `c` holds `tile.rows` rows of
    /// `tile.cols` values at stride `tile.ldc` (initialized unless `tile.first`), and
    /// `tile.cols` fits in `VECTORS` registers.
    unsafe fn wide_tile<const VECTORS: usize, const STREAM_B: bool, const B_IN_PLACE: bool>(
        a: *const Self,
        b: *const Self,
        b_stride: usize,
        depth: usize,
        c: *mut Self,
        tile: TileShape,
        next_tile: *const Self,
    );
}

#[cfg(target_arch = "x86_64")]
macro_rules! wide_tile_kernel {
    ($t:ty, $lanes:literal, $zero:ident, $set1:ident, $load:ident, $store:ident, $maskz_load:ident,
     $mask_store:ident, $add:ident, $fmadd:ident) => {
        impl WideTile for $t {
            #[target_feature(enable = "avx512f")]
            unsafe fn wide_tile<
                const VECTORS: usize,
                const STREAM_B: bool,
                const B_IN_PLACE: bool,
            >(
                a: *const $t,
                b: *const $t,
                b_stride: usize,
                depth: usize,
                c: *mut $t,
                tile: TileShape,
                next_tile: *const $t,
            ) {
                use std::arch::x86_64::*;
                const ROW: usize = WIDE_VECTORS * $lanes;
                let stride = if B_IN_PLACE { b_stride } else { ROW };
                // How many lanes of each register hold the tile's columns, and their mask (for
                // loads of `b` in place and the stores of `c`).
                let valid_lanes = |v: usize| tile.cols.saturating_sub(v * $lanes).min($lanes);
                let masks: [_; VECTORS] =
                    std::array::from_fn(|v| ((1u32 << valid_lanes(v)) - 1) as _);
                let mut acc = [[$zero(); VECTORS]; WIDE_MR];
                // SAFETY (for the whole closure): the caller's bounds.
                let mut multiply_add = |step: usize| unsafe {
                    if STREAM_B {
                        let ahead = b.wrapping_add((step + B_AHEAD_STEPS) * stride);
                        if B_IN_PLACE {
                            // The row may start inside a cache line: four lines, not three.
                            for line in [0, $lanes, 2 * $lanes, ROW - 1] {
                                _mm_prefetch::<_MM_HINT_T0>(ahead.wrapping_add(line).cast());
                            }
                        } else {
                            for v in 0..WIDE_VECTORS {
                                _mm_prefetch::<_MM_HINT_T0>(ahead.wrapping_add(v * $lanes).cast());
                            }
                        }
                    }
                    let b_row = b.add(step * stride);
                    let b_values: [_; VECTORS] = std::array::from_fn(|v| {
                        if B_IN_PLACE {
                            $maskz_load(masks[v], b_row.add(v * $lanes))
                        } else {
                            $load(b_row.add(v * $lanes))
                        }
                    });
                    for (r, acc_row) in acc.iter_mut().enumerate() {
                        let a_value = $set1(*a.add(step * WIDE_MR + r));
                        for (sum, &b_value) in acc_row.iter_mut().zip(&b_values) {
                            *sum = $fmadd(a_value, b_value, *sum);
                        }
                    }
                };
                // The first steps ask for the next tile: a row of it is four cache lines at most.
                let first_steps = depth.min(WIDE_MR);
                for step in 0..first_steps {
                    let row = next_tile.wrapping_add(step * tile.ldc);
                    for line in [0, $lanes, 2 * $lanes, ROW - 1] {
                        _mm_prefetch::<_MM_HINT_T0>(row.wrapping_add(line).cast());
                    }
                    multiply_add(step);
                }
                // The rest `UNROLLED_STEPS` at a time.
                let mut step = first_steps;
                while step + UNROLLED_STEPS <= depth {
                    for offset in 0..UNROLLED_STEPS {
                        multiply_add(step + offset);
                    }
                    step += UNROLLED_STEPS;
                }
                for step in step..depth {
                    multiply_add(step);
                }
                // SAFETY: the caller's bounds; a masked load or store touches only its lanes.
                unsafe {
                    for (r, acc_row) in acc.iter().enumerate().take(tile.rows) {
                        let row = c.add(r * tile.ldc);
                        for (v, &sum) in acc_row.iter().enumerate() {
                            let at = row.wrapping_add(v * $lanes);
                            let valid = valid_lanes(v);
                            if valid == $lanes {
                                let total = if tile.first {
                                    sum
                                } else {
                                    $add(sum, $load(at))
                                };
                                $store(at, total);
                            } else if valid > 0 {
                                // Only the lanes of columns inside the matrix.
                                let mask = masks[v];
                                let total = if tile.first {
                                    sum
                                } else {
                                    $add(sum, $maskz_load(mask, at))
                                };
                                $mask_store(at, mask, total);
                            }
                        }
                    }
                }
            }
        }
    };
}

#[cfg(target_arch = "x86_64")]
wide_tile_kernel!(
    f64,
    8,
    _mm512_setzero_pd,
    _mm512_set1_pd,
    _mm512_loadu_pd,
    _mm512_storeu_pd,
    _mm512_maskz_loadu_pd,
    _mm512_mask_storeu_pd,
    _mm512_add_pd,
    _mm512_fmadd_pd
);
#[cfg(target_arch = "x86_64")]
wide_tile_kernel!(
    f32,
    16,
    _mm512_setzero_ps,
    _mm512_set1_ps,
    _mm512_loadu_ps,
    _mm512_storeu_ps,
    _mm512_maskz_loadu_ps,
    _mm512_mask_storeu_ps,
    _mm512_add_ps,
    _mm512_fmadd_ps
);

/// Other cpus have no wide tiles.
#[cfg(not(target_arch = "x86_64"))]
pub trait WideTile {}
#[cfg(not(target_arch = "x86_64"))]
impl WideTile for f64 {}
#[cfg(not(target_arch = "x86_64"))]
impl WideTile for f32 {}
