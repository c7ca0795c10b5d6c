//! The product on cpus with AVX-512 (wide tiles), with the panels' roles as OpenBLAS's and BLIS's
//! kernels for AVX-512 Intel cpus have them: an A panel (the tile's rows, broadcast) stays in L1
//! while the B panels of a block of columns that fits in a quarter of L2 stream past it, each asked
//! for a few steps ahead. Each thread's block of `b` stays in its L2 through a whole block of
//! rows, where the other order (a B panel in L1, A panels from L2) read every B panel from L3 once per
//! 96 rows. On a 2-core Intel Xeon with 48 KiB of L1d and 2 MiB of L2, products on both threads
//! at 1000²–3000² took 0.90–0.99× NumPy's time (f64) and 0.97–1.01× (f32) in this order, against
//! 1.07–1.35× and 1.12–1.30× in the other; on one thread at 2000², 0.97–1.05× against 1.06–1.13×.
//!
//! Products with few rows a thread on many threads skip packing `b` and read it where it lies
//! (`reads_b_in_place`).

use super::on_demand::{OnDemand, PackPanels};
use super::{blocks_of, grid, row_blocks, whole_b_fits, SharedResult};
use super::{pack_a, pack_b_panels, wide_tile_fitted, AheadLines, TileShape};
use crate::base::interrupt::Stop;
use crate::device::cpu::linalg::{Float, Panels};
use ndarray::{s, ArrayView2};
use rayon::prelude::*;
use std::mem::MaybeUninit;
use std::ops::Range;

/// The most an A panel takes, in L1: it sets the deepest slab, 170 (f64) or 341 (f32) for panels
/// of 12 rows. Slabs share the depth evenly (500 f64 rows of `b` are three slabs of 167, not 170,
/// 170 and 160). With panels of 8 rows, f32 slabs of 512 instead of 384 (12 KiB panels) had taken
/// 0.742× NumPy's time against 0.839× on one thread of the 16-core host at 10000² (3 rounds), and
/// 0.88–1.00× against 0.88–1.16× on the 2-core Xeon, 500²–10000² on one and two threads. With 12
/// rows, panels of 24 KiB were no better than 16 KiB, there or here (`bench/RESULTS.md`).
const MOST_A_PANEL_BYTES: usize = 16 << 10;

/// A core's L2, or 2 MiB where Linux does not say.
fn level_2_bytes() -> usize {
    const ASSUMED_L2_BYTES: usize = 2 << 20;
    crate::device::cpu::level_2_cache_bytes().unwrap_or(ASSUMED_L2_BYTES)
}

/// A block of `b`'s columns takes at most a quarter of L2: with 2 MiB of L2, 512 KiB took
/// 0.92–0.98× the time of 1 MiB at 500² and 2000² (f32 and f64, one thread and two), and 256 KiB
/// or 1.5 MiB more.
pub(super) fn block_bytes() -> usize {
    level_2_bytes() / 4
}

/// `c = a · b` (`c` row-major, perhaps uninitialized), on `threads` threads.
pub(super) fn streamed<T: Float, const MR: usize, const NR: usize>(
    a: ArrayView2<T>,
    b: ArrayView2<T>,
    c: &mut [MaybeUninit<T>],
    stop: &Stop,
    threads: usize,
) {
    let (k, n) = b.dim();
    let b_read = if !whole_b_fits::<T>(n.div_ceil(NR) * NR * k) {
        BRead::Chunks
    } else if reads_b_in_place::<T, MR>(a.nrows(), b, threads) {
        BRead::InPlace
    } else {
        BRead::Whole
    };
    let parts = Parts {
        b_read,
        chunk_bytes: CHUNK_BYTES,
        a_block_bytes: level_2_bytes(),
    };
    streamed_in_parts::<T, MR, NR>(a, b, c, stop, threads, parts);
}

/// Whether the row blocks read `b` where it lies, unpacked (given that it fits in a quarter of
/// the last-level cache): on 8 threads or more with at most 4 row panels a thread (the products
/// below the grid's), and when `b`'s rows are contiguous. There every thread reads all of `b`
/// for little work, and packing it first was a large part of the product: traced on the 16-core
/// host at 500², the packing loop ended 84–322 µs into products of 342–942 µs. Reading `b` in
/// place took these products from 1.11–1.48× NumPy's time to 0.80–1.03× (300²–600², f32 and
/// f64, 16 threads, medians of 7 rounds). On 2 threads, with 32 row panels a thread, it took
/// 1.07–1.10× the time of packing.
fn reads_b_in_place<T, const MR: usize>(m: usize, b: ArrayView2<T>, threads: usize) -> bool {
    let rows_contiguous = b.strides()[1] == 1 && b.strides()[0] >= b.ncols() as isize;
    let below_the_grid = !grid::rows_for_grid(m, MR, threads);
    threads >= grid::FROM_THREADS && below_the_grid && rows_contiguous
}

/// How `b` is read.
#[derive(Clone, Copy, Debug)]
enum BRead {
    /// Packed whole.
    Whole,
    /// Packed a slab of a chunk of its columns at a time.
    Chunks,
    /// Where it lies, not packed (it then has contiguous rows).
    InPlace,
}

/// How the product is cut up.
struct Parts {
    b_read: BRead,
    /// The most a chunk of `b` takes packed.
    chunk_bytes: usize,
    /// The most a block of rows' packed A slab takes. L2, so that the slab stays in the caches
    /// while each block of columns reads it again: with one block of all its rows, one thread at
    /// 10000² (a 20 MB slab, and an 800 MB result streaming past it) took 1.06–1.15× the time of
    /// blocks of 2 MiB (f64) and 1.34–1.41× (f32); blocks of 1 to 4 MiB were within 2% of each
    /// other, 512 KiB 4–8% slower.
    a_block_bytes: usize,
}

/// A packed part of a `b` too large to pack whole takes at most this much: growing the packing
/// buffer touches fresh memory, which cannot be interrupted and on some machines costs 3 ms a
/// megabyte.
const CHUNK_BYTES: usize = 16 << 20;

/// `b` read in place, or packed whole, or else a slab of depth of a chunk of its columns at a
/// time; for each such part the row blocks (in parallel), each through the part's slabs: its A
/// panels packed, then each block of columns (its B panels packed on demand), and for each A
/// panel every B panel of the block.
fn streamed_in_parts<T: Float, const MR: usize, const NR: usize>(
    a: ArrayView2<T>,
    b: ArrayView2<T>,
    c: &mut [MaybeUninit<T>],
    stop: &Stop,
    threads: usize,
    parts: Parts,
) {
    let ((m, k), (_, n)) = (a.dim(), b.dim());
    let size = std::mem::size_of::<T>();
    let most_depth = MOST_A_PANEL_BYTES / (MR * size);
    let depth_block = k.div_ceil(k.div_ceil(most_depth));
    let col_panels = n.div_ceil(NR);
    let panel_bytes = depth_block * NR * size;
    let block_panels = (block_bytes() / panel_bytes).max(1);
    let (chunk_panels, part_depth) = match parts.b_read {
        BRead::Chunks => (
            (parts.chunk_bytes / panel_bytes).max(block_panels),
            depth_block,
        ),
        BRead::Whole | BRead::InPlace => (col_panels, k),
    };
    let a_block_panels = (parts.a_block_bytes / (MR * depth_block * size)).max(1);
    let row_blocks = row_blocks(m, MR, threads, a_block_panels);
    let out = SharedResult(c.as_mut_ptr().cast::<T>());
    // A row block through the slabs of `part`, whose panels of the columns `chunk` are
    // `panels`, packed on demand (or, with none, `b` itself): its A panels packed, then each
    // block of columns.
    let multiply_rows = |rows: &Range<usize>,
                         panels: Option<&OnDemand<T, NR>>,
                         chunk: Range<usize>,
                         part: Range<usize>| {
        let out = &out;
        T::with_panel_buffer(Panels::A, |a_buffer| {
            for depth0 in part.clone().step_by(depth_block) {
                let depth = depth_block.min(k - depth0);
                let a_block = a.slice(s![rows.clone(), depth0..depth0 + depth]);
                let a_panels = pack_a::<T, MR>(a_block, a_buffer);
                for block in blocks_of(chunk.clone(), block_panels) {
                    let b_panels = match panels {
                        Some(panels) => {
                            let in_chunk = block.start - chunk.start..block.end - chunk.start;
                            BPanels {
                                start: panels
                                    .ready(depth0 - part.start, in_chunk)
                                    .wrapping_sub(chunk.start * depth * NR),
                                panel_stride: depth * NR,
                                step_stride: NR,
                                in_place: false,
                            }
                        }
                        None => BPanels {
                            start: b.slice(s![depth0.., ..]).as_ptr(),
                            panel_stride: NR,
                            step_stride: b.strides()[0] as usize,
                            in_place: true,
                        },
                    };
                    let tiles = Tiles::<T, MR, NR> {
                        a_panels,
                        b_panels,
                        depth,
                        panels: block,
                        rows: rows.clone(),
                        n,
                        first: depth0 == 0,
                        stop,
                    };
                    // SAFETY: `out` is the `(m, n)` result, and each row block writes only
                    // its own rows.
                    if !unsafe { tiles.multiply(out.0) } {
                        return;
                    }
                }
            }
        });
    };
    if let BRead::InPlace = parts.b_read {
        row_blocks
            .par_iter()
            .for_each(|rows| multiply_rows(rows, None, 0..col_panels, 0..k));
        return;
    }
    T::with_panel_buffer(Panels::B, |b_buffer| {
        for chunk in blocks_of(0..col_panels, chunk_panels) {
            let chunk_b = b.slice(s![.., chunk.start * NR..n.min(chunk.end * NR)]);
            for part in blocks_of(0..k, part_depth) {
                let part_b = chunk_b.slice(s![part.clone(), ..]);
                let pack: &PackPanels<T, NR> = &|depths, indices, panels| {
                    pack_b_panels(part_b.slice(s![depths, ..]), indices, panels)
                };
                let panels = OnDemand::new(b_buffer, part.len(), depth_block, chunk.len(), pack);
                row_blocks.par_iter().for_each(|rows| {
                    multiply_rows(rows, Some(&panels), chunk.clone(), part.clone())
                });
                if stop.requested() {
                    return;
                }
            }
        }
    });
}

/// Where a slab's B panels are: panel `j` starts at `start + j · panel_stride`, and its steps
/// lie `step_stride` apart; packed, or `b` itself (`in_place`).
#[derive(Clone, Copy)]
struct BPanels<T> {
    start: *const T,
    panel_stride: usize,
    step_stride: usize,
    in_place: bool,
}

/// One row block's tiles in one slab of depth and one block of `b`'s panels (`panels`).
struct Tiles<'p, T, const MR: usize, const NR: usize> {
    a_panels: &'p [[T; MR]],
    b_panels: BPanels<T>,
    depth: usize,
    panels: Range<usize>,
    rows: Range<usize>,
    n: usize,
    first: bool,
    stop: &'p Stop,
}

impl<T: Float, const MR: usize, const NR: usize> Tiles<'_, T, MR, NR> {
    /// The tiles, a row of them at a time, unless an interrupt stops them (then false). A row
    /// of tiles is quick, but the first slab's also touches the row's fresh pages of `c`: a
    /// block of columns down all of a thread's rows reaches every huge page of its rows, which
    /// at 8000² took a second. The tiles of a row ask L2 for the next row's A panel between
    /// them (`AheadLines`): it comes from L3 (the block of B panels holds L2), and asked for a
    /// row ahead it is in L2 when its row starts. On one thread of the 2-core Xeon, in turns
    /// (paired ratios to NumPy's time), 2000² f32 went from 1.024 to 1.014, 3000² f64 from 1.013
    /// to 1.002, 500² f64 from 0.976 to 0.950; 500² and 5000² f32 and two threads at 2000² f64
    /// stayed level. On the 16-core host (one run) it read mixed: 3000² f64 0.931 → 0.913, 1000²
    /// f32 0.944 → 0.977, the rest within 1.2%.
    ///
    /// # Safety
    /// `c` is the row-major `(m, n)` result, and no other thread writes these rows meanwhile.
    unsafe fn multiply(&self, c: *mut T) -> bool {
        let n = self.n;
        let c_rows = c.wrapping_add(self.rows.start * n);
        let mut a_panels = self
            .a_panels
            .chunks_exact(self.depth)
            .enumerate()
            .peekable();
        while let Some((row, a_panel)) = a_panels.next() {
            if self.stop.requested() {
                return false;
            }
            let next_a_panel = a_panels.peek().map(|(_, panel)| panel.as_ptr().cast::<T>());
            for col in self.panels.clone() {
                let b_panel = self
                    .b_panels
                    .start
                    .wrapping_add(col * self.b_panels.panel_stride);
                let tile = TileShape {
                    ldc: n,
                    rows: MR.min(self.rows.len() - row * MR),
                    cols: NR.min(n - col * NR),
                    first: self.first,
                    a_ahead: next_a_panel.map_or(AheadLines::NONE, |panel| {
                        let tile = col - self.panels.start;
                        AheadLines::share_of(panel, self.depth * MR, tile, self.panels.len())
                    }),
                };
                // Along the row of tiles, then to the start of the next.
                let (next_row, next_col) = if col + 1 < self.panels.end {
                    (row, col + 1)
                } else {
                    (row + 1, self.panels.start)
                };
                let next_tile = c_rows.wrapping_add(next_row * MR * n + next_col * NR);
                let (a, c, b_stride) = (
                    a_panel.as_ptr().cast(),
                    c_rows.add(row * MR * n + col * NR),
                    self.b_panels.step_stride,
                );
                // SAFETY: only wide tiles come here (AVX-512F found); the panels hold `depth`
                // steps; the tile lies inside this row block of `c`.
                unsafe {
                    if self.b_panels.in_place {
                        wide_tile_fitted::<T, true, true>(
                            a, b_panel, b_stride, self.depth, c, tile, next_tile,
                        )
                    } else {
                        wide_tile_fitted::<T, true, false>(
                            a, b_panel, b_stride, self.depth, c, tile, next_tile,
                        )
                    }
                };
            }
        }
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::device::cpu::linalg::packed::tests::{seven_threads, small_integer_product};
    use crate::device::cpu::linalg::packed::{cpu_supported, wide_vectors, WIDE_MR};
    use ndarray::Array2;

    /// `a · b` through `streamed_in_parts` on `threads` threads of a pool of 7, with `b`
    /// packed whole, in chunks of two blocks of columns, or read in place, and a thread's rows
    /// in one block (L2 is larger than these A slabs) or in blocks of one panel.
    fn product<T: Float, const NR: usize>(
        a: &Array2<T>,
        b: &Array2<T>,
        threads: usize,
        read: BRead,
        one_panel_blocks: bool,
    ) -> Array2<T> {
        let (m, n) = (a.nrows(), b.ncols());
        let mut c = vec![MaybeUninit::<T>::uninit(); m * n];
        let parts = Parts {
            b_read: read,
            chunk_bytes: 2 * block_bytes(),
            a_block_bytes: if one_panel_blocks { 0 } else { level_2_bytes() },
        };
        let (a, b, stop) = (a.view(), b.view(), Stop::current());
        seven_threads()
            .install(|| streamed_in_parts::<T, WIDE_MR, NR>(a, b, &mut c, &stop, threads, parts));
        // SAFETY: the product writes every element when not interrupted, and nothing
        // interrupts it.
        let c = c.into_iter().map(|v| unsafe { v.assume_init() }).collect();
        Array2::from_shape_vec((m, n), c).unwrap()
    }

    /// `b` packed whole, in chunks a slab at a time, and read in place, with slabs of unequal
    /// depth and ragged tiles at both edges (read in place, the last columns' registers are
    /// partly outside `b`), on one thread and on more threads than cores, a thread's rows in one
    /// block and in many: exact, f64 and f32.
    #[test]
    fn streamed_products_are_exact() {
        if !(cpu_supported() && wide_vectors()) {
            eprintln!("skipped: the cpu has no AVX-512");
            return;
        }
        let (a, b, want) = small_integer_product(203, 1300, 2100);
        let (a32, b32) = (a.mapv(|v| v as f32), b.mapv(|v| v as f32));
        for threads in [1, 7] {
            for read in [BRead::Whole, BRead::Chunks, BRead::InPlace] {
                for one_panel_blocks in [false, true] {
                    let got = product::<f64, 16>(&a, &b, threads, read, one_panel_blocks);
                    assert_eq!(got, want, "{read:?} on {threads} threads");
                    let got = product::<f32, 32>(&a32, &b32, threads, read, one_panel_blocks);
                    assert_eq!(
                        got,
                        want.mapv(|v| v as f32),
                        "{read:?} on {threads} threads"
                    );
                }
            }
        }
    }

    /// `b` is read in place for products below the grid's on many threads, and only when its
    /// rows are contiguous.
    #[test]
    fn small_products_on_many_threads_read_b_in_place() {
        let b = Array2::<f32>::zeros((500, 500));
        assert!(reads_b_in_place::<f32, WIDE_MR>(500, b.view(), 16));
        assert!(!reads_b_in_place::<f32, WIDE_MR>(500, b.view(), 2));
        assert!(!reads_b_in_place::<f32, WIDE_MR>(1000, b.view(), 16));
        assert!(!reads_b_in_place::<f32, WIDE_MR>(500, b.t(), 16));
        assert!(!reads_b_in_place::<f32, WIDE_MR>(
            500,
            b.slice(s![.., ..;2]),
            16
        ));
    }
}
