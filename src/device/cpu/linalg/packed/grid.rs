//! Products on many threads as a grid of tasks (x86-64 cpus with AVX-512): blocks of `c` about as
//! tall as they are wide, `TASKS_A_THREAD` for each thread, whose panels of `a` and `b` are
//! packed on demand. Within a task, as in `streamed`, an A panel stays in L1 while the task's B
//! panels stream past it from L2. A row block a thread would read all of `b` and be one long
//! task; a grid task reads a part of each, and idle threads take tasks from busy ones, which on a
//! shared machine is where a product loses its time.

use super::on_demand::{OnDemand, PackPanel};
use super::streamed::block_bytes;
use super::{
    blocks_of, pack_a_panel, pack_b_panel, quarter_of_cache_bytes, wide_tile_fitted, wide_tiles,
    SharedResult, TileShape,
};
use crate::base::interrupt::Stop;
use crate::device::cpu::linalg::{Float, Panels};
use ndarray::{s, ArrayView2};
use rayon::prelude::*;
use std::mem::MaybeUninit;

/// Tasks a thread. Each task reads its rows of `a` and its columns of `b` from L3, so larger
/// tasks read less; more tasks let threads that finish early take more. On three starts of the
/// 16-core host (8 and 16 threads, 700² to 5000², f32 and f64, 7–11 rounds), 16 a thread took
/// 0.85–1.02× the time of the build before (median 0.95), whose tasks of 4 × 4 tiles read both
/// operands again for every 32 × 96 values of `c` (f64), and whose row blocks, from 16 panels a
/// thread, every one read all of `b`; 8 and 32 a thread were within 3% of 16 in most products.
const TASKS_A_THREAD: usize = 16;

/// `c = a · b` in tasks of `task_panels` tiles of `c`, each taking its tiles through every slab
/// in order (the first sets them, the others add), with the panels of `a` and `b` they need
/// packed on demand; in a slab, its columns a block of `streamed`'s at a time, and for each its
/// A panels in turn, each along the block's B panels. Operands whose packed panels would take
/// more than a quarter of the last-level cache go through the grid a part of their depth at a
/// time (`part_depth`), so that the panels that tasks share stay in that cache.
pub(super) fn grid<T: Float, const MR: usize, const NR: usize>(
    a: ArrayView2<T>,
    b: ArrayView2<T>,
    c: &mut [MaybeUninit<T>],
    depth_block: usize,
    stop: &Stop,
) {
    let (m, n) = (a.nrows(), b.ncols());
    let (rows, cols) = task_panels(m, n, MR, NR, rayon::current_num_threads());
    let tasks = Tasks {
        rows,
        cols,
        block_panels: (block_bytes() / (depth_block * NR * size_of::<T>())).max(1),
    };
    let part_depth = part_depth::<T, MR, NR>(m, n, depth_block);
    grid_in_parts::<T, MR, NR>(a, b, c, depth_block, stop, &tasks, part_depth);
}

/// `grid` in `tasks`, through parts of `part_depth` in turn.
fn grid_in_parts<T: Float, const MR: usize, const NR: usize>(
    a: ArrayView2<T>,
    b: ArrayView2<T>,
    c: &mut [MaybeUninit<T>],
    depth_block: usize,
    stop: &Stop,
    tasks: &Tasks,
    part_depth: usize,
) {
    for part in blocks_of(0..a.ncols(), part_depth) {
        if stop.requested() {
            return;
        }
        let first_part = part.start == 0;
        let (a, b) = (a.slice(s![.., part.clone()]), b.slice(s![part, ..]));
        grid_in_tasks::<T, MR, NR>(a, b, c, depth_block, stop, tasks, first_part);
    }
}

/// A grid's tasks: their row panels and column panels, and the column panels of a block.
struct Tasks {
    rows: usize,
    cols: usize,
    block_panels: usize,
}

/// The deepest part of `a`'s columns and `b`'s rows, in whole slabs of `depth_block`, whose
/// packed panels take at most a quarter of the last-level cache (at least one slab).
fn part_depth<T, const MR: usize, const NR: usize>(
    m: usize,
    n: usize,
    depth_block: usize,
) -> usize {
    let slab_bytes = slab_bytes::<T, MR, NR>(m, n, depth_block);
    (quarter_of_cache_bytes() / slab_bytes.max(1)).max(1) * depth_block
}

/// The bytes of one slab of `a`'s and `b`'s panels.
fn slab_bytes<T, const MR: usize, const NR: usize>(
    m: usize,
    n: usize,
    depth_block: usize,
) -> usize {
    (m.div_ceil(MR) * MR + n.div_ceil(NR) * NR)
        .saturating_mul(depth_block)
        .saturating_mul(size_of::<T>())
}

/// `grid` in `tasks`, for `a`'s columns and `b`'s rows of one part of the depth: the first
/// part's first slab sets `c`.
fn grid_in_tasks<T: Float, const MR: usize, const NR: usize>(
    a: ArrayView2<T>,
    b: ArrayView2<T>,
    c: &mut [MaybeUninit<T>],
    depth_block: usize,
    stop: &Stop,
    tasks: &Tasks,
    first_part: bool,
) {
    let ((m, k), (_, n)) = (a.dim(), b.dim());
    let (row_panels, col_panels) = (m.div_ceil(MR), n.div_ceil(NR));
    T::with_panel_buffer(Panels::B, |b_buffer| {
        T::with_panel_buffer(Panels::A, |a_buffer| {
            let pack_a: &PackPanel<T, MR> =
                &|depths, index, panel| pack_a_panel(a.slice(s![.., depths]), index, panel);
            let pack_b: &PackPanel<T, NR> =
                &|depths, index, panel| pack_b_panel(b.slice(s![depths, ..]), index, panel);
            let a_panels = OnDemand::new(a_buffer, k, depth_block, row_panels, pack_a);
            let b_panels = OnDemand::new(b_buffer, k, depth_block, col_panels, pack_b);
            let out = SharedResult(c.as_mut_ptr().cast::<T>());
            let task_list: Vec<_> = blocks_of(0..row_panels, tasks.rows)
                .flat_map(|rows| {
                    blocks_of(0..col_panels, tasks.cols).map(move |cols| (rows.clone(), cols))
                })
                .collect();
            task_list.into_par_iter().for_each(|(rows, cols)| {
                let out = &out;
                for depth0 in (0..k).step_by(depth_block) {
                    if stop.requested() {
                        return;
                    }
                    let depth = depth_block.min(k - depth0);
                    let a_slab = a_panels.ready(depth0, rows.clone());
                    let b_slab = b_panels.ready(depth0, cols.clone());
                    for block in blocks_of(cols.clone(), tasks.block_panels) {
                        for i in rows.clone() {
                            let a_panel = a_slab.wrapping_add(i * depth * MR);
                            for j in block.clone() {
                                let tile = TileShape {
                                    ldc: n,
                                    rows: MR.min(m - i * MR),
                                    cols: NR.min(n - j * NR),
                                    first: first_part && depth0 == 0,
                                };
                                // Along the row of tiles, then to the start of the next.
                                let (next_i, next_j) = if j + 1 < block.end {
                                    (i, j + 1)
                                } else {
                                    (i + 1, block.start)
                                };
                                let next_tile = out.0.wrapping_add(next_i * MR * n + next_j * NR);
                                // SAFETY: `grid` runs only with wide tiles (AVX-512F found); the
                                // panels are packed and hold `depth` steps; the tile lies inside
                                // `c`, and tasks write disjoint tiles.
                                unsafe {
                                    wide_tile_fitted::<T, true, false>(
                                        a_panel,
                                        b_slab.wrapping_add(j * depth * NR),
                                        NR,
                                        depth,
                                        out.0.add(i * MR * n + j * NR),
                                        tile,
                                        next_tile,
                                    )
                                };
                            }
                        }
                    }
                }
            });
        })
    });
}

/// A task's row panels and column panels: about `TASKS_A_THREAD` tasks for each of `threads`,
/// each about as many rows as columns of `c`.
fn task_panels(m: usize, n: usize, mr: usize, nr: usize, threads: usize) -> (usize, usize) {
    let tasks = threads.saturating_mul(TASKS_A_THREAD).max(1);
    let side = (m.saturating_mul(n) / tasks).isqrt();
    let panels =
        |side: usize, width: usize, most: usize| ((side + width / 2) / width).clamp(1, most);
    (
        panels(side, mr, m.div_ceil(mr)),
        panels(side, nr, n.div_ceil(nr)),
    )
}

/// The thread counts and row panels a thread of the grid's products (`grid_suits`).
pub(super) const FROM_THREADS: usize = 8;
pub(super) const FROM_PANELS_A_THREAD: usize = 5;

/// Whether a product on `threads` threads takes the grid: with wide tiles, on 8 threads or
/// more, with 5 row panels a thread or more, and with a slab of `a`'s and `b`'s panels in a
/// quarter of the last-level cache. On the 16-core host (the median of 180 products, 30 at
/// 2000², three runs) the grid of tasks of 4 × 4 tiles took 0.84–1.03× the time of row blocks
/// at 700², 1000² and 2000², f32 and f64 (median 0.95), but 0.99–1.17× at 500² (4 panels a
/// thread); on 2 cores it measured level with row blocks, so fewer than 8 threads keep them.
pub(super) fn grid_suits<T: Float, const MR: usize, const NR: usize>(
    m: usize,
    n: usize,
    depth_block: usize,
    threads: usize,
) -> bool {
    wide_tiles::<T, MR, NR>()
        && threads >= FROM_THREADS
        && m.div_ceil(MR) >= FROM_PANELS_A_THREAD * threads
        && slab_bytes::<T, MR, NR>(m, n, depth_block) <= quarter_of_cache_bytes()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::device::cpu::linalg::packed::tests::{seven_threads, small_integer_product};
    use crate::device::cpu::linalg::packed::{cpu_supported, wide_vectors, WIDE_MR};
    use ndarray::Array2;

    /// `a · b` through `grid_in_parts` on a pool of 7 threads.
    fn product<T: Float, const NR: usize>(
        a: &Array2<T>,
        b: &Array2<T>,
        tasks: &Tasks,
        part_depth: usize,
    ) -> Array2<T> {
        let (m, n) = (a.nrows(), b.ncols());
        let mut c = vec![MaybeUninit::<T>::uninit(); m * n];
        let (a, b, stop) = (a.view(), b.view(), Stop::current());
        seven_threads().install(|| {
            grid_in_parts::<T, WIDE_MR, NR>(a, b, &mut c, 192, &stop, tasks, part_depth)
        });
        // SAFETY: `grid_in_parts` writes every element when not interrupted, and nothing
        // interrupts it.
        let c = c.into_iter().map(|v| unsafe { v.assume_init() }).collect();
        Array2::from_shape_vec((m, n), c).unwrap()
    }

    /// Tasks whose columns take two blocks, the last ones ragged, through parts of the depth
    /// (the last one shallower) on more threads than cores: exact, f64 and f32.
    #[test]
    fn tasks_of_several_blocks_and_parts_are_exact() {
        if !(cpu_supported() && wide_vectors()) {
            eprintln!("skipped: the cpu has no AVX-512");
            return;
        }
        let (m, k, n) = (203, 500, 390);
        let (a, b, want) = small_integer_product(m, k, n);
        let (a32, b32) = (a.mapv(|v| v as f32), b.mapv(|v| v as f32));
        let tasks = |rows, cols, block_panels| Tasks {
            rows,
            cols,
            block_panels,
        };
        for part_depth in [192, 384, k] {
            let got = product::<f64, 24>(&a, &b, &tasks(3, 5, 3), part_depth);
            assert_eq!(got, want, "parts of {part_depth}");
            let got = product::<f32, 48>(&a32, &b32, &tasks(2, 3, 2), part_depth);
            assert_eq!(got, want.mapv(|v| v as f32), "parts of {part_depth}");
        }
    }

    /// With the interrupt already asked for, the grid writes no tile of any part.
    #[test]
    fn an_interrupt_stops_every_part() {
        if !(cpu_supported() && wide_vectors()) {
            eprintln!("skipped: the cpu has no AVX-512");
            return;
        }
        let (a, b, _) = small_integer_product(203, 500, 390);
        let flag = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(true));
        crate::base::interrupt::set_current(&flag);
        let stop = Stop::current();
        let tasks = Tasks {
            rows: 3,
            cols: 5,
            block_panels: 3,
        };
        let mut c = vec![MaybeUninit::new(f64::NAN); 203 * 390];
        seven_threads().install(|| {
            grid_in_parts::<f64, WIDE_MR, 24>(a.view(), b.view(), &mut c, 192, &stop, &tasks, 192)
        });
        // SAFETY: every element was initialized (NaN) above.
        assert!(c.iter().all(|v| unsafe { v.assume_init() }.is_nan()));
    }

    /// About `TASKS_A_THREAD` tasks a thread, as tall as wide, never empty nor past the matrix.
    #[test]
    fn tasks_are_about_square() {
        // 16 threads at 1000² f64: 256 tasks of about 62 × 62 values, 8 panels of 8 rows and 3
        // of 24 columns.
        assert_eq!(task_panels(1000, 1000, 8, 24, 16), (8, 3));
        assert_eq!(task_panels(2000, 2000, 8, 48, 16), (16, 3));
        // A wide product: tasks of at most every row.
        assert_eq!(task_panels(40, 100_000, 8, 24, 8), (5, 7));
        assert_eq!(task_panels(10, 10, 8, 24, 16), (1, 1));
    }

    /// Parts of the depth are whole slabs, at least one however large the operands.
    #[test]
    fn parts_are_whole_slabs() {
        assert_eq!(part_depth::<f64, 8, 24>(10_000_000, 10_000_000, 192), 192);
        assert_eq!(part_depth::<f32, 8, 48>(1000, 1000, 192) % 192, 0);
    }
}
