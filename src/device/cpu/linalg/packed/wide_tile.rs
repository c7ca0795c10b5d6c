//! The tile kernel for cpus with AVX-512 (wide tiles), written with intrinsics, and the choice
//! of how many registers wide a tile at the right edge of `b` is.
//!
//! A tile is `WIDE_MR` rows of `c` in pairs: each accumulator holds two rows' values, as
//! OpenBLAS's SkylakeX kernels hold them. A step loads each register of `b` twice, its even
//! columns doubled and its odd ones, and broadcasts a pair of rows of `a` from one load, so its
//! 24 multiply-adds take 10 loads, where 8 rows × 3 registers took 11 and a plain 12 × 2 tile
//! 14, and `b` streams 128 bytes a step where 8 × 3 streamed 192. The rows of a pair are
//! taken apart once, when the tile is stored.

#[cfg(target_arch = "x86_64")]
use super::{
    TileShape, A_HEAD_LINES, B_AHEAD_STEPS, CACHE_LINE, UNROLLED_STEPS, WIDE_MR, WIDE_VECTORS,
};
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
    /// slab), prefetching the rows of `next_tile` meanwhile, the lines of `tile.a_ahead` into
    /// L2, with `STREAM_B` the B panel's values `B_AHEAD_STEPS` steps ahead (a panel that
    /// streams from L2), and as it ends the first `A_HEAD_LINES` cache lines of `a` into L1.
    /// With `B_IN_PLACE`, `b` is not a packed panel but `b` itself, its steps
    /// `b_stride` values apart, of which only the tile's `tile.cols` columns are read. A panel
    /// at the right edge of `b` with fewer columns than `WIDE_VECTORS` registers hold takes one
    /// register: 500 f32 columns are 15 panels of 32 and one of 20, and a whole panel there
    /// would spend multiply-adds on padding.
    ///
    /// # Safety
    /// The cpu has AVX-512F; `a` holds `depth · WIDE_MR` values, `b` holds `depth` rows of
    /// `WIDE_VECTORS` registers and, packed, one value more (`panel_slots` keeps it: the odd
    /// columns of a register are loaded from one value on) or, with `B_IN_PLACE`,
    /// `depth` rows of `tile.cols` values `b_stride` apart; `c` holds `tile.rows` rows of
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

/// `$even(at)` and `$odd(at)` load a register of packed `b` with its even or odd columns
/// doubled; `$even_of(values)` and `$odd_of(values)` do it from `values`, the register's
/// columns of `b` in place (masked to the tile's); `$pair(at)`
/// broadcasts a pair of rows' values of `a`; `$index` makes a `$permutex2var` index.
#[cfg(target_arch = "x86_64")]
macro_rules! wide_tile_kernel {
    ($t:ty, $lanes:literal, $zero:ident, $load:ident, $store:ident, $maskz_load:ident,
     $mask_store:ident, $add:ident, $fmadd:ident, $permutex2var:ident, $index:ident,
     $even:expr, $odd:expr, $even_of:expr, $odd_of:expr, $pair:expr) => {
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
                const PAIRS: usize = WIDE_MR / 2;
                let stride = if B_IN_PLACE { b_stride } else { ROW };
                // How many lanes of each register hold the tile's columns, and their mask (for
                // loads of `b` in place and the stores of `c`).
                let valid_lanes = |v: usize| tile.cols.saturating_sub(v * $lanes).min($lanes);
                let masks: [_; VECTORS] =
                    std::array::from_fn(|v| ((1u32 << valid_lanes(v)) - 1) as _);
                // acc[pair of rows][register][even or odd columns]
                let mut acc = [[[$zero(); 2]; VECTORS]; PAIRS];
                // SAFETY (for the whole closure): the caller's bounds.
                let mut multiply_add = |step: usize| unsafe {
                    if STREAM_B {
                        let ahead = b.wrapping_add((step + B_AHEAD_STEPS) * stride);
                        if B_IN_PLACE {
                            // The row may start inside a cache line: three lines, not two.
                            for line in [0, $lanes, ROW - 1] {
                                _mm_prefetch::<_MM_HINT_T0>(ahead.wrapping_add(line).cast());
                            }
                        } else {
                            for v in 0..WIDE_VECTORS {
                                _mm_prefetch::<_MM_HINT_T0>(ahead.wrapping_add(v * $lanes).cast());
                            }
                        }
                    }
                    let b_row = b.add(step * stride);
                    let b_values: [[_; 2]; VECTORS] = std::array::from_fn(|v| {
                        let at = b_row.add(v * $lanes);
                        if B_IN_PLACE {
                            let values = $maskz_load(masks[v], at);
                            [$even_of(values), $odd_of(values)]
                        } else {
                            [$even(at), $odd(at)]
                        }
                    });
                    for (pair, acc_pair) in acc.iter_mut().enumerate() {
                        let a_values = $pair(a.add(step * WIDE_MR + 2 * pair));
                        for (sums, b_parts) in acc_pair.iter_mut().zip(&b_values) {
                            for (sum, &b_part) in sums.iter_mut().zip(b_parts) {
                                *sum = $fmadd(b_part, a_values, *sum);
                            }
                        }
                    }
                };
                // The first steps ask for the next tile: a row of it is three cache lines at most.
                let first_steps = depth.min(WIDE_MR);
                for step in 0..first_steps {
                    let row = next_tile.wrapping_add(step * tile.ldc);
                    for line in [0, $lanes, ROW - 1] {
                        _mm_prefetch::<_MM_HINT_T0>(row.wrapping_add(line).cast());
                    }
                    multiply_add(step);
                }
                // The rest `UNROLLED_STEPS` at a time.
                let mut step = first_steps;
                let mut ahead_line = 0;
                while step + UNROLLED_STEPS <= depth {
                    if ahead_line < tile.a_ahead.count {
                        let line = tile.a_ahead.start.wrapping_add(ahead_line * CACHE_LINE);
                        _mm_prefetch::<_MM_HINT_T1>(line.cast());
                        ahead_line += 1;
                    }
                    for offset in 0..UNROLLED_STEPS {
                        multiply_add(step + offset);
                    }
                    step += UNROLLED_STEPS;
                }
                for line in 0..A_HEAD_LINES {
                    let line = a.cast::<u8>().wrapping_add(line * CACHE_LINE);
                    _mm_prefetch::<_MM_HINT_T0>(line.cast());
                }
                for step in step..depth {
                    multiply_add(step);
                }
                // Column `j` of a pair's upper row is lane `j` of the even accumulator (`j`
                // even) or lane `j - 1` of the odd one; of its lower row, lane `j + 1` of the
                // even one or lane `j` of the odd one.
                let upper_row = $index(|j| if j % 2 == 0 { j } else { $lanes + j - 1 });
                let lower_row = $index(|j| if j % 2 == 0 { j + 1 } else { $lanes + j });
                // SAFETY: the caller's bounds; a masked load or store touches only its lanes.
                unsafe {
                    for (pair, acc_pair) in acc.iter().enumerate() {
                        for (half, index) in [upper_row, lower_row].into_iter().enumerate() {
                            let r = 2 * pair + half;
                            if r >= tile.rows {
                                break;
                            }
                            let row = c.add(r * tile.ldc);
                            for (v, sums) in acc_pair.iter().enumerate() {
                                let sum = $permutex2var(sums[0], index, sums[1]);
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
        }
    };
}

/// A `permutex2var` index of f64 lanes.
#[cfg(target_arch = "x86_64")]
fn f64_index(lane: impl Fn(usize) -> usize) -> std::arch::x86_64::__m512i {
    let lanes: [i64; 8] = std::array::from_fn(|j| lane(j) as i64);
    // SAFETY: an unaligned load of the array's 64 bytes.
    unsafe { std::arch::x86_64::_mm512_loadu_si512(lanes.as_ptr().cast()) }
}

/// A `permutex2var` index of f32 lanes.
#[cfg(target_arch = "x86_64")]
fn f32_index(lane: impl Fn(usize) -> usize) -> std::arch::x86_64::__m512i {
    let lanes: [i32; 16] = std::array::from_fn(|j| lane(j) as i32);
    // SAFETY: an unaligned load of the array's 64 bytes.
    unsafe { std::arch::x86_64::_mm512_loadu_si512(lanes.as_ptr().cast()) }
}

/// A register of `at`'s 16 values with the even ones doubled (or, with `ODD`, the odd ones), in
/// one instruction that loads: the compiler would load once and shuffle twice, and shuffles take
/// the port of half the multiply-adds (2000² f32 on one thread took 1.08–1.10× the time of 8 × 3
/// tiles that way, 0.99× this way).
///
/// # Safety
/// The cpu has AVX-512F; `at` holds 16 values.
#[cfg(target_arch = "x86_64")]
#[inline]
#[target_feature(enable = "avx512f")]
unsafe fn duplicated_f32<const ODD: bool>(at: *const f32) -> std::arch::x86_64::__m512 {
    let values;
    // SAFETY: the caller's.
    unsafe {
        if ODD {
            std::arch::asm!("vmovshdup {0}, [{1}]", out(zmm_reg) values, in(reg) at,
                options(pure, readonly, nostack, preserves_flags));
        } else {
            std::arch::asm!("vmovsldup {0}, [{1}]", out(zmm_reg) values, in(reg) at,
                options(pure, readonly, nostack, preserves_flags));
        }
    }
    values
}

#[cfg(target_arch = "x86_64")]
wide_tile_kernel!(
    f64,
    8,
    _mm512_setzero_pd,
    _mm512_loadu_pd,
    _mm512_storeu_pd,
    _mm512_maskz_loadu_pd,
    _mm512_mask_storeu_pd,
    _mm512_add_pd,
    _mm512_fmadd_pd,
    _mm512_permutex2var_pd,
    f64_index,
    |at: *const f64| _mm512_movedup_pd(_mm512_loadu_pd(at)),
    |at: *const f64| _mm512_movedup_pd(_mm512_loadu_pd(at.add(1))),
    |values| _mm512_movedup_pd(values),
    |values| _mm512_permute_pd::<0xFF>(values),
    |at: *const f64| _mm512_castps_pd(_mm512_broadcast_f32x4(_mm_loadu_ps(at.cast())))
);
#[cfg(target_arch = "x86_64")]
wide_tile_kernel!(
    f32,
    16,
    _mm512_setzero_ps,
    _mm512_loadu_ps,
    _mm512_storeu_ps,
    _mm512_maskz_loadu_ps,
    _mm512_mask_storeu_ps,
    _mm512_add_ps,
    _mm512_fmadd_ps,
    _mm512_permutex2var_ps,
    f32_index,
    |at: *const f32| duplicated_f32::<false>(at),
    |at: *const f32| duplicated_f32::<true>(at),
    |values| _mm512_moveldup_ps(values),
    |values| _mm512_movehdup_ps(values),
    |at: *const f32| _mm512_castpd_ps(_mm512_set1_pd(std::ptr::read_unaligned(at.cast::<f64>())))
);

/// Other cpus have no wide tiles.
#[cfg(not(target_arch = "x86_64"))]
pub trait WideTile {}
#[cfg(not(target_arch = "x86_64"))]
impl WideTile for f64 {}
#[cfg(not(target_arch = "x86_64"))]
impl WideTile for f32 {}
