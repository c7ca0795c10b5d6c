//! The packed matrix product (x86-64 with AVX2 and FMA).
//!
//! With AVX-512 (wide tiles), `streamed` computes it: an A panel stays in L1 while B panels
//! stream past it from L2 (on 8 threads or more with at most 4 row panels a thread, read from
//! `b` itself, unpacked); on 8 threads or more a product of 5 row panels a thread or more whose
//! packed operands fit in a quarter of the last-level cache is cut into blocks of tiles instead
//! (`grid`). Both pack their panels on demand (`on_demand`).
//!
//! With AVX2 only, the loops, outermost first, are BLIS's: `NC` columns of `b`; a slab of depth,
//! for which the `depth × NC` block of `b` is packed (to stay in L3) as `NR`-column panels; row
//! blocks of `a` (in parallel), each packed (to stay in L2) as `MR`-row panels; then every B
//! panel, and for each every A panel, which updates one `MR × NR` tile of `c`. A B panel
//! (depth × `NR`) stays in L1 while the A panels stream past it from L2. A product on several
//! threads whose packed `b` takes at most a quarter of the last-level cache packs all of it
//! first, and each row block then goes through every slab: two parallel loops instead of two a
//! slab.
//!
//! A tile's multiply-adds need its part of `c` only at the end, so each tile
//! asks, during its first steps, for the rows of `c` that the next tile will
//! update: their cache misses overlap the work instead of stalling it.

use super::{Float, Panels, PARALLEL_GEMM_MIN_WORK};
#[cfg(target_arch = "x86_64")]
mod grid;
mod interleave;
#[cfg(target_arch = "x86_64")]
mod on_demand;
#[cfg(target_arch = "x86_64")]
mod streamed;
mod wide_tile;
use crate::base::interrupt::Stop;
use crate::device::cpu::threads;
use crate::device::host;
pub use interleave::InterleaveRows;
use ndarray::{s, ArrayView2};
use rayon::prelude::*;
use std::mem::MaybeUninit;
#[cfg(target_arch = "x86_64")]
use wide_tile::wide_tile_fitted;
pub use wide_tile::WideTile;

/// Panels start on a cache line.
const CACHE_LINE: usize = 64;

/// Columns of `b` per packed block (256 × 2048 f64 = 4 MiB, in L3).
const NC: usize = 2048;

/// Row panels of `a` per packed block (AVX2 tiles).
const A_BLOCK_PANELS: usize = 12;

/// With AVX2 tiles, a product packs all of a `b` that fits (`whole_b`) from this many threads,
/// where a slab at a time would wait for the slowest of many threads once a slab. On 2 threads
/// of a 2-core Intel Xeon using only AVX2, whose L3 Linux gives as 480 MiB, packing all of `b`
/// took 1.12× the time of a slab at a time at 2000² f64 and 1.09× f32.
const WHOLE_B_FROM_THREADS: usize = 8;

/// The tile on cpus with AVX-512: 12 rows × 2 512-bit registers, the rows in pairs
/// (`wide_tile`): 24 accumulators of the 32 vector registers, and each step's 6 broadcasts
/// and 4 loads feed 24 multiply-adds. On one thread of the 16-core host it took 0.75–0.99×
/// the time of 8 rows × 3 registers at 2000² and 3000² f64 (four comparisons on one noisy
/// start), level on 16 threads; on a 2-core Intel Xeon 0.96–1.04× (`bench/RESULTS.md`). (8 × 3
/// had measured ahead of 14 × 2, 6 × 4 and a plain 12 × 2 without pairs.)
pub(super) const WIDE_MR: usize = 12;
const WIDE_VECTORS: usize = 2;

/// How many steps ahead a tile asks for the B panel it streams (`streamed`).
const B_AHEAD_STEPS: usize = 8;

/// Cache lines at the start of its A panel that a wide tile asks L1 for as it ends: the next
/// tile of the row starts on the same panel, whose first lines the B panel streaming past may
/// have pushed out of L1 (OpenBLAS's SkylakeX kernels ask for their L1 panel's first lines there
/// too). On one thread of the 2-core AMD EPYC, in turns (paired ratios to NumPy's time, 7
/// rounds), 1000² f32 went from 1.036–1.040 to 1.023, 3000² f32 from 1.015–1.016 to 1.004,
/// 2000² f64 from 1.007–1.009 to 0.998, and 2000² f32 on both threads from 1.009 to 1.001;
/// 2000² f32 on one thread stayed at 1.013. On one (busy) start of the 16-core host it read level
/// with the build before it, inside the spread of two identical processes.
const A_HEAD_LINES: usize = 8;

/// Steps of a tile's loop unrolled: fewer counter and pointer updates, which compete with the
/// multiply-adds for their ports (AVX-512, one thread at 2000² f64: 1.06× NumPy's time before,
/// 1.01× after; AVX2 tiles on the same cpu, 2000² f64 on one and two threads: 1.14–1.15× before,
/// 1.04–1.06× after).
const UNROLLED_STEPS: usize = 4;

/// The depth of the grid's slabs with wide tiles (half of it where a slab would not fit a
/// quarter of the last-level cache): A panels of 36 KiB (f64) in L1 with the B panels they meet
/// (24 KiB with the 8-row tiles it was measured with).
/// On three starts of the 16-core host (8 and 16 threads, 700² to 3000², 22 products of 5–7
/// rounds), 384 took 0.92–1.06× the time of 192 (median 0.97), the most at 1000² and below.
pub(super) const GRID_DEPTH: usize = 384;

/// A tile row of `WIDE_VECTORS` 512-bit registers: the width when `wide_vectors()`.
const WIDE_TILE_ROW_BYTES: usize = WIDE_VECTORS * 64;

/// Whether tiles of `MR × NR` values of `T` are the wide ones (`WideTile::wide_tile`).
const fn wide_tiles<T, const MR: usize, const NR: usize>() -> bool {
    MR == WIDE_MR && NR * std::mem::size_of::<T>() == WIDE_TILE_ROW_BYTES
}

#[cfg(target_arch = "x86_64")]
pub(super) fn cpu_supported() -> bool {
    is_x86_feature_detected!("avx2") && is_x86_feature_detected!("fma")
}

#[cfg(not(target_arch = "x86_64"))]
pub(super) fn cpu_supported() -> bool {
    false
}

/// Whether the cpu also has 512-bit vectors (AVX-512F): tiles are then `WIDE_MR`
/// rows of `WIDE_VECTORS` 512-bit registers, computed by `WideTile::wide_tile`.
#[cfg(target_arch = "x86_64")]
pub(super) fn wide_vectors() -> bool {
    is_x86_feature_detected!("avx512f")
}

#[cfg(not(target_arch = "x86_64"))]
pub(super) fn wide_vectors() -> bool {
    false
}

/// `c = a · b` with `c` the row-major `(m, n)` result, which may start
/// uninitialized: the first slab of depth writes every element and later
/// slabs add to it. Only call it when `cpu_supported()`, and with `MR = WIDE_MR`
/// and tiles `WIDE_TILE_ROW_BYTES` wide only when `wide_vectors()`;
/// `depth_block` is the depth of a packed slab. False when an interrupt stopped it: then
/// `c` is partly written. A product large enough for several threads keeps the calling thread
/// on its own cpu while it runs (`threads::placed`).
pub(super) fn matmul<T: Float, const MR: usize, const NR: usize>(
    a: ArrayView2<T>,
    b: ArrayView2<T>,
    c: &mut [MaybeUninit<T>],
    depth_block: usize,
) -> bool {
    let stop = Stop::current();
    let enough_work = a
        .nrows()
        .saturating_mul(a.ncols())
        .saturating_mul(b.ncols())
        >= PARALLEL_GEMM_MIN_WORK;
    let mut multiply = || {
        threads::install(|| matmul_in_pool::<T, MR, NR>(a, b, c, depth_block, enough_work, &stop))
    };
    if enough_work {
        threads::placed(multiply);
    } else {
        multiply();
    }
    !stop.requested()
}

/// `matmul` in the workers' pool, on its threads when there is `enough_work` for them.
fn matmul_in_pool<T: Float, const MR: usize, const NR: usize>(
    a: ArrayView2<T>,
    b: ArrayView2<T>,
    c: &mut [MaybeUninit<T>],
    depth_block: usize,
    enough_work: bool,
    stop: &Stop,
) {
    let ((m, k), (_, n)) = (a.dim(), b.dim());
    let threads = rayon::current_num_threads();
    let parallel = threads > 1 && enough_work;
    #[cfg(target_arch = "x86_64")]
    if let Some(depth) = parallel
        .then(|| grid::grid_slab_depth::<T, MR, NR>(m, n, depth_block, threads))
        .flatten()
    {
        return grid::grid::<T, MR, NR>(a, b, c, depth, stop);
    }
    #[cfg(target_arch = "x86_64")]
    if wide_tiles::<T, MR, NR>() {
        return streamed::streamed::<T, MR, NR>(a, b, c, stop, if parallel { threads } else { 1 });
    }
    let row_blocks = row_blocks(m, MR, if parallel { threads } else { 1 }, A_BLOCK_PANELS);
    if parallel && threads >= WHOLE_B_FROM_THREADS && whole_b_fits::<T>(n.div_ceil(NR) * NR * k) {
        return whole_b::<T, MR, NR>(a, b, c, depth_block, stop, &row_blocks);
    }
    T::with_panel_buffer(Panels::B, |b_buffer| {
        for col0 in (0..n).step_by(NC) {
            let cols = NC.min(n - col0);
            for depth0 in (0..k).step_by(depth_block) {
                if stop.requested() {
                    return;
                }
                let depth = depth_block.min(k - depth0);
                let b_block = b.slice(s![depth0..depth0 + depth, col0..col0 + cols]);
                let slab = Slab {
                    a: a.slice(s![.., depth0..depth0 + depth]),
                    b_panels: pack_b::<T, NR>(b_block, b_buffer, parallel),
                    col0,
                    cols,
                    ldc: n,
                    first: depth0 == 0,
                };
                let blocks = split_rows(c, &row_blocks, n);
                // A block is at most 72 rows × 2048 columns × 256 steps (75 MFLOP): an
                // interrupt is seen within milliseconds.
                let multiply = |(row0, c_rows)| {
                    if !stop.requested() {
                        slab.multiply::<MR>(row0, c_rows)
                    }
                };
                if parallel {
                    blocks.into_par_iter().for_each(multiply);
                } else {
                    blocks.into_iter().for_each(multiply);
                }
            }
        }
    });
}

/// All of `b` packed at once (in parallel), then each row block's every slab (in parallel):
/// two parallel loops in all, where one per slab would wait for its slowest thread each time.
fn whole_b<T: Float, const MR: usize, const NR: usize>(
    a: ArrayView2<T>,
    b: ArrayView2<T>,
    c: &mut [MaybeUninit<T>],
    depth_block: usize,
    stop: &Stop,
    row_blocks: &[std::ops::Range<usize>],
) {
    let (k, n) = b.dim();
    let panels_per_slab = n.div_ceil(NR);
    T::with_panel_buffer(Panels::B, |b_buffer| {
        let all = pack_b_slabs::<T, NR>(b, b_buffer, depth_block, stop);
        split_rows(c, row_blocks, n)
            .into_par_iter()
            .for_each(|(row0, c_rows)| {
                for depth0 in (0..k).step_by(depth_block) {
                    if stop.requested() {
                        return;
                    }
                    let depth = depth_block.min(k - depth0);
                    let slab = Slab {
                        a: a.slice(s![.., depth0..depth0 + depth]),
                        b_panels: &all
                            [depth0 * panels_per_slab..(depth0 + depth) * panels_per_slab],
                        col0: 0,
                        cols: n,
                        ldc: n,
                        first: depth0 == 0,
                    };
                    slab.multiply::<MR>(row0, c_rows);
                }
            });
    });
}

/// All of `b` packed in parallel into `buffer`, each slab of `depth_block` in turn as `NR`-column
/// panels; panels still to pack when an interrupt comes are left as they were. (All of a `b` of a
/// quarter of the last-level cache is hundreds of megabytes on some machines.)
fn pack_b_slabs<'a, T: Float, const NR: usize>(
    b: ArrayView2<T>,
    buffer: &'a mut Vec<T>,
    depth_block: usize,
    stop: &Stop,
) -> &'a [[T; NR]] {
    let (k, n) = b.dim();
    let panels = n.div_ceil(NR);
    let all = panel_slots::<T, NR>(buffer, panels * k);
    panel_jobs(all, k, depth_block, panels)
        .into_par_iter()
        .for_each(|(depths, index, panel)| {
            if !stop.requested() {
                pack_b_panels(b.slice(s![depths, ..]), index..index + 1, panel);
            }
        });
    all
}

/// `all`, which holds each slab of depth's `panels` packed panels in turn, as one job per panel:
/// the slab's depths, the panel's index in it, and its slots.
fn panel_jobs<P>(
    all: &mut [P],
    k: usize,
    depth_block: usize,
    panels: usize,
) -> Vec<(std::ops::Range<usize>, usize, &mut [P])> {
    let mut jobs = Vec::with_capacity(k.div_ceil(depth_block) * panels);
    let mut rest = all;
    for depth0 in (0..k).step_by(depth_block) {
        let depth = depth_block.min(k - depth0);
        for index in 0..panels {
            let (panel, after) = rest.split_at_mut(depth);
            jobs.push((depth0..depth0 + depth, index, panel));
            rest = after;
        }
    }
    jobs
}

/// Whether `b`, packed as `values` values, takes at most a quarter of the last-level cache
/// (of 32 MiB where Linux does not say), so that it stays there while every row block reads
/// all of it. Then a product on several threads packs it whole (with AVX2 tiles, from
/// `WHOLE_B_FROM_THREADS` threads): with 16 threads, 0.7–0.8× the time of packing a slab at a
/// time at 1000², and 0.86–0.97× at 2000² and 3000² (f32 and f64, on a cpu with 300 MiB of L3).
/// On a 2-core cpu with 32 MiB of L3 that is 8 MiB, up to 1000² f64: at 2000² (32 MiB) it was
/// slower there.
fn whole_b_fits<T>(values: usize) -> bool {
    values.saturating_mul(std::mem::size_of::<T>()) <= quarter_of_cache_bytes()
}

/// A quarter of the last-level cache (of 32 MiB where Linux does not say).
fn quarter_of_cache_bytes() -> usize {
    const ASSUMED_CACHE_BYTES: usize = 32 << 20;
    crate::device::cpu::last_level_cache_bytes().unwrap_or(ASSUMED_CACHE_BYTES) / 4
}

/// `range` in blocks of at most `most` (the last one shorter).
#[cfg(target_arch = "x86_64")]
fn blocks_of(
    range: std::ops::Range<usize>,
    most: usize,
) -> impl Iterator<Item = std::ops::Range<usize>> {
    let end = range.end;
    range
        .step_by(most)
        .map(move |first| first..(first + most).min(end))
}

/// The row blocks of the row-major `c` (`n` columns), each with its first row.
fn split_rows<'c, T>(
    c: &'c mut [MaybeUninit<T>],
    row_blocks: &[std::ops::Range<usize>],
    n: usize,
) -> Vec<(usize, &'c mut [MaybeUninit<T>])> {
    let mut blocks = Vec::with_capacity(row_blocks.len());
    let mut rest = c;
    for rows in row_blocks {
        let (block, after) = rest.split_at_mut(rows.len() * n);
        blocks.push((rows.start, block));
        rest = after;
    }
    blocks
}

/// The rows of `a` (and `c`) in blocks of at most `most_panels` panels of `mr` rows (12 for
/// AVX2 tiles: 72 × 256 f64 = 144 KiB, in L2; for `streamed`, as many as keep a block's A slab
/// in L2), as many for each of `threads` threads, each within a panel of the
/// others: every slab ends when its slowest thread does, and blocks of whole panels that
/// differed by up to a block had cost 5–10% with 2 threads.
///
/// On 8 threads or more, one with 16 panels or more gets at least 4 blocks, so that threads that
/// finish early take blocks from slow ones: on a shared 16-core machine, equal blocks of one
/// product took from 1.1 to 2.0 ms, and 4 blocks a thread took 0.86–0.98× the time of one or two
/// at 2000² and 3000². Smaller blocks read `b` more often: at 1000² (8 panels a thread) two
/// blocks a thread took 1.1–1.3× the time of one. (On 2 cores of their own, 4 blocks a thread at
/// 400² and 500² took 1.0–1.05× the time of 3.)
fn row_blocks(
    m: usize,
    mr: usize,
    threads: usize,
    most_panels: usize,
) -> Vec<std::ops::Range<usize>> {
    const SHARED_FROM_THREADS: usize = 8;
    const SHARED_FROM_PANELS: usize = 16;
    const SHARED_BLOCKS: usize = 4;
    let panels = m.div_ceil(mr);
    let panels_per_thread = panels.div_ceil(threads);
    let mut per_thread = panels_per_thread.div_ceil(most_panels).max(1);
    if threads >= SHARED_FROM_THREADS && panels_per_thread >= SHARED_FROM_PANELS {
        per_thread = per_thread.max(SHARED_BLOCKS);
    }
    let blocks = (threads * per_thread).min(panels);
    (0..blocks)
        .map(|b| (b * panels / blocks * mr).min(m)..((b + 1) * panels / blocks * mr).min(m))
        .collect()
}

/// One slab of depth: all of `a`'s columns in it, the packed rows of `b`,
/// and the columns of `c` they update (set, for the first slab).
struct Slab<'a, T, const NR: usize> {
    a: ArrayView2<'a, T>,
    b_panels: &'a [[T; NR]],
    col0: usize,
    cols: usize,
    ldc: usize,
    first: bool,
}

impl<T: Float, const NR: usize> Slab<'_, T, NR> {
    /// `c_rows[:, col0..col0 + cols] += a[row0.., slab] · b[slab, col0..col0 + cols]`,
    /// where `c_rows` holds whole rows of `c` starting at row `row0`.
    fn multiply<const MR: usize>(&self, row0: usize, c_rows: &mut [MaybeUninit<T>]) {
        T::with_panel_buffer(Panels::A, |a_buffer| {
            let rows = c_rows.len() / self.ldc;
            let a_panels = pack_a::<T, MR>(self.a.slice(s![row0..row0 + rows, ..]), a_buffer);
            self.multiply_packed(a_panels, c_rows);
        });
    }

    fn multiply_packed<const MR: usize>(
        &self,
        a_panels: &[[T; MR]],
        c_rows: &mut [MaybeUninit<T>],
    ) {
        let rows = c_rows.len() / self.ldc;
        let depth = self.a.ncols();
        let offset =
            |tile_row0: usize, tile_col0: usize| tile_row0 * self.ldc + self.col0 + tile_col0;
        for (panel_col, b_panel) in self.b_panels.chunks_exact(depth).enumerate() {
            let tile_col0 = panel_col * NR;
            for (panel_row, a_panel) in a_panels.chunks_exact(depth).enumerate() {
                let tile_row0 = panel_row * MR;
                let tile = TileShape {
                    ldc: self.ldc,
                    rows: MR.min(rows - tile_row0),
                    cols: NR.min(self.cols - tile_col0),
                    first: self.first,
                    a_ahead: AheadLines::NONE,
                };
                let c_tile = &mut c_rows[offset(tile_row0, tile_col0)..];
                #[cfg(target_arch = "x86_64")]
                // SAFETY: `matmul` is only called when `cpu_supported()` has found AVX2 and FMA.
                unsafe {
                    micro_kernel_avx2_fma(a_panel, b_panel, c_tile, tile)
                };
                #[cfg(not(target_arch = "x86_64"))]
                micro_kernel(a_panel, b_panel, c_tile, tile);
            }
        }
    }
}

/// The result `c`'s elements, written by several threads at disjoint tiles.
#[cfg(target_arch = "x86_64")]
struct SharedResult<T>(*mut T);
// SAFETY: each thread writes only its own tiles of `c`, which outlives the threads.
#[cfg(target_arch = "x86_64")]
unsafe impl<T> Sync for SharedResult<T> {}

/// Where a register tile lands in `c`: the row stride, the valid rows and
/// columns (fewer than `MR × NR` at the matrix edges), whether the tile
/// is set (first slab) or added to, and the lines of a later A panel it asks for.
#[derive(Clone, Copy)]
pub struct TileShape {
    ldc: usize,
    rows: usize,
    cols: usize,
    first: bool,
    a_ahead: AheadLines,
}

/// Cache lines from `start` that a wide tile asks L2 for, one every `UNROLLED_STEPS` steps.
#[derive(Clone, Copy)]
pub struct AheadLines {
    start: *const u8,
    count: usize,
}

impl AheadLines {
    const NONE: Self = Self {
        start: std::ptr::null(),
        count: 0,
    };

    /// The share of `panel` (`values` long) that tile `tile` of a row of `tiles` asks for: the
    /// row's tiles ask for all of it between them.
    fn share_of<T>(panel: *const T, values: usize, tile: usize, tiles: usize) -> Self {
        let lines = (values * size_of::<T>()).div_ceil(CACHE_LINE);
        let share = lines.div_ceil(tiles.max(1));
        let first = (tile * share).min(lines);
        Self {
            start: panel.cast::<u8>().wrapping_add(first * CACHE_LINE),
            count: share.min(lines - first),
        }
    }
}

/// `micro_kernel` compiled for AVX2 and FMA, with the tile of `c` prefetched
/// first so that its cache misses overlap the multiply-adds.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2,fma")]
fn micro_kernel_avx2_fma<T: Float, const MR: usize, const NR: usize>(
    a_panel: &[[T; MR]],
    b_panel: &[[T; NR]],
    c_tile: &mut [MaybeUninit<T>],
    tile: TileShape,
) {
    prefetch_tile(c_tile, tile);
    micro_kernel(a_panel, b_panel, c_tile, tile);
}

/// Asks for the first and last element of each row of a tile of `c`.
#[cfg(target_arch = "x86_64")]
#[inline(always)]
fn prefetch_tile<T>(c_tile: &[MaybeUninit<T>], tile: TileShape) {
    use std::arch::x86_64::{_mm_prefetch, _MM_HINT_T0};
    for row in 0..tile.rows {
        let start = row * tile.ldc;
        for value in [c_tile.get(start), c_tile.get(start + tile.cols - 1)]
            .into_iter()
            .flatten()
        {
            // SAFETY: SSE is part of every x86-64 cpu; a prefetch never faults.
            unsafe { _mm_prefetch::<_MM_HINT_T0>(std::ptr::from_ref(value).cast()) };
        }
    }
}

/// `c_tile += a_panel · b_panel` for one `MR × NR` tile (`=` in the first slab).
///
/// Fixed trip counts and arrays let the compiler unroll this into a loop of
/// `UNROLLED_STEPS` times `MR` broadcasts, two loads and `2·MR` vector FMAs, with the
/// whole tile held in registers.
#[inline(always)]
fn micro_kernel<T: Float, const MR: usize, const NR: usize>(
    a_panel: &[[T; MR]],
    b_panel: &[[T; NR]],
    c_tile: &mut [MaybeUninit<T>],
    tile: TileShape,
) {
    let mut acc = [[T::zero(); NR]; MR];
    let mut step = |a_column: &[T; MR], b_row: &[T; NR]| {
        for (acc_row, &a_value) in acc.iter_mut().zip(a_column) {
            for (acc_value, &b_value) in acc_row.iter_mut().zip(b_row) {
                *acc_value = a_value.mul_add(b_value, *acc_value);
            }
        }
    };
    let (a_unrolled, a_rest) = a_panel.as_chunks::<UNROLLED_STEPS>();
    let (b_unrolled, b_rest) = b_panel[..a_panel.len()].as_chunks::<UNROLLED_STEPS>();
    for (a_steps, b_steps) in a_unrolled.iter().zip(b_unrolled) {
        for (a_column, b_row) in a_steps.iter().zip(b_steps) {
            step(a_column, b_row);
        }
    }
    for (a_column, b_row) in a_rest.iter().zip(b_rest) {
        step(a_column, b_row);
    }
    for (row, acc_row) in acc.iter().enumerate().take(tile.rows) {
        let start = row * tile.ldc;
        let c_row = &mut c_tile[start..start + tile.cols];
        for (c_value, &sum) in c_row.iter_mut().zip(acc_row) {
            let total = if tile.first {
                sum
            } else {
                // SAFETY: the first slab has written every element of `c`.
                sum + unsafe { c_value.assume_init() }
            };
            c_value.write(total);
        }
    }
}

/// Packs `a_block` into `buffer` as `MR`-row panels: panel `i` holds, for each
/// depth `p`, the `MR` values `a[i·MR .. i·MR + MR, p]`, zero-padded past the last row.
fn pack_a<'a, T: Float, const MR: usize>(
    a_block: ArrayView2<T>,
    buffer: &'a mut Vec<T>,
) -> &'a [[T; MR]] {
    let (rows, depth) = a_block.dim();
    let count = rows.div_ceil(MR);
    let panels = panel_slots(buffer, count * depth);
    pack_a_panels(a_block, 0..count, panels);
    panels
}

/// Packs the panels `indices` of `a_block` (panel `i` its rows `i·MR ..`) into `panels`, one
/// after another.
fn pack_a_panels<T: Float, const MR: usize>(
    a_block: ArrayView2<T>,
    indices: std::ops::Range<usize>,
    panels: &mut [[T; MR]],
) {
    let depth = a_block.ncols();
    for (index, panel) in indices.zip(panels.chunks_exact_mut(depth)) {
        pack_a_panel(a_block, index, panel);
    }
}

/// Packs panel `index` of `a_block` (its rows `index·MR ..`) into `panel`.
fn pack_a_panel<T: Float, const MR: usize>(
    a_block: ArrayView2<T>,
    index: usize,
    panel: &mut [[T; MR]],
) {
    let row0 = index * MR;
    let a_rows = a_block.slice(s![row0..(row0 + MR).min(a_block.nrows()), ..]);
    let rows: [Option<&[T]>; MR] = std::array::from_fn(|lane| {
        (lane < a_rows.nrows())
            .then(|| a_rows.row(lane).to_slice())
            .flatten()
    });
    if rows.iter().all(Option::is_some) {
        T::interleave_rows(&rows.map(Option::unwrap_or_default), panel);
        return;
    }
    for (lane, a_row) in a_rows.rows().into_iter().enumerate() {
        for (slot, &value) in panel.iter_mut().zip(a_row) {
            slot[lane] = value;
        }
    }
    for slot in panel.iter_mut() {
        slot[a_rows.nrows()..].fill(T::zero());
    }
}

/// The first `count` slots of `N` values in `buffer`, which grows to hold
/// them, starting at a 64-byte boundary: a large `Vec` from the system allocator
/// starts 16 bytes into a cache line, and then every 512-bit load of a B panel
/// spans two lines. They keep what the last product left there, so the packers
/// write every value, padding included: padded lanes are multiplied and then
/// dropped, and zeros there (not stale values, perhaps subnormal) cost nothing.
/// A buffer that must grow is made anew, asking for huge pages as arrays do. The buffer
/// holds a value past the last slot: the wide tile loads a B panel's odd columns from one
/// value on.
fn panel_slots<T: Float, const N: usize>(buffer: &mut Vec<T>, count: usize) -> &mut [[T; N]] {
    let most_skipped = CACHE_LINE / std::mem::size_of::<T>();
    let needed = count * N + most_skipped + 1;
    if buffer.len() < needed {
        if buffer.capacity() < needed {
            *buffer = host::vec_with_capacity(needed);
        }
        buffer.resize(needed, T::zero());
    }
    let skipped = buffer.as_ptr().align_offset(CACHE_LINE).min(most_skipped);
    &mut buffer[skipped..].as_chunks_mut::<N>().0[..count]
}

/// Packs `b_block` into `buffer` as `NR`-column panels: panel `j` holds, for each
/// depth `p`, the `NR` values `b[p, j·NR .. j·NR + NR]`, zero-padded past the last column.
fn pack_b<'a, T: Float, const NR: usize>(
    b_block: ArrayView2<T>,
    buffer: &'a mut Vec<T>,
    parallel: bool,
) -> &'a [[T; NR]] {
    let (depth, cols) = b_block.dim();
    let panels = panel_slots(buffer, cols.div_ceil(NR) * depth);
    let pack =
        |(index, panel): (usize, &mut [[T; NR]])| pack_b_panels(b_block, index..index + 1, panel);
    if parallel {
        panels.par_chunks_mut(depth).enumerate().for_each(pack);
    } else {
        panels.chunks_mut(depth).enumerate().for_each(pack);
    }
    panels
}

/// Packs the panels `indices` of `b_block` (panel `j` its columns `j·NR ..`) into `panels`, one
/// after another, reading each row of `b_block` once for all of them: the rows' values of several
/// panels lie together, where a panel at a time reads a few cache lines of each row in turn.
fn pack_b_panels<T: Float, const NR: usize>(
    b_block: ArrayView2<T>,
    indices: std::ops::Range<usize>,
    panels: &mut [[T; NR]],
) {
    let (depth, cols) = b_block.dim();
    for (step, b_row) in b_block.rows().into_iter().enumerate() {
        let contiguous = b_row.as_slice();
        for (index, panel) in indices.clone().zip(panels.chunks_exact_mut(depth)) {
            let col0 = index * NR;
            let width = NR.min(cols - col0);
            let slot = &mut panel[step];
            match contiguous {
                // A tile row's 64 or 128 bytes (AVX2 or wide tiles), moved inline: AVX2 moves
                // were no faster (memory, not instructions, bounds the packing).
                Some(row) if width == NR => slot.copy_from_slice(&row[col0..col0 + NR]),
                // The last, narrower panel: slicing a view of each row here took 1.4% of a 500²
                // f32 product on one thread.
                Some(row) => {
                    slot[..width].copy_from_slice(&row[col0..]);
                    slot[width..].fill(T::zero());
                }
                None => {
                    let values = b_row.slice(s![col0..col0 + width]);
                    for (value, &b_value) in slot.iter_mut().zip(values) {
                        *value = b_value;
                    }
                    slot[width..].fill(T::zero());
                }
            }
        }
    }
}

#[cfg(test)]
pub(super) mod tests;
