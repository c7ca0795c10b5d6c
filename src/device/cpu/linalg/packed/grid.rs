//! Products on many threads as a grid of tasks (x86-64 cpus with AVX-512): blocks of `c` about as
//! tall as they are wide, `TASKS_A_THREAD` for each thread, whose panels of `a` and `b` are
//! packed on demand. Within a task, as in `streamed`, an A panel stays in L1 while the task's B
//! panels stream past it from L2. A row block a thread would read all of `b` and be one long
//! task; a grid task reads a part of each, and idle threads take tasks from busy ones, which on a
//! shared machine is where a product loses its time.
//!
//! Each thread has a share of the tasks, a run of the rows' blocks of `c`, which it takes in
//! turn (its panels of `a` can then stay in its L2) before taking what is left of the others'.
//! Along a row the tasks start at a column block of their own, so that at any time the threads
//! read different panels of `b` instead of all asking the thread that packed one for it at once.

use super::on_demand::{OnDemand, PackPanels};
use super::streamed::block_bytes;
use super::{
    blocks_of, pack_a_panels, pack_b_panels, quarter_of_cache_bytes, wide_tile_fitted, wide_tiles,
    AheadLines, SharedResult, TileShape,
};
use crate::base::interrupt::Stop;
use crate::device::cpu::linalg::{Float, Panels};
use ndarray::{s, ArrayView2};
use std::mem::MaybeUninit;
use std::ops::Range;
use std::sync::atomic::{AtomicUsize, Ordering};

/// Tasks a thread. Each task reads its rows of `a` and its columns of `b` from L3, so larger
/// tasks read less; more tasks let threads that finish early take more. On three starts of the
/// 16-core host (8 and 16 threads, 700² to 5000², f32 and f64, 7–11 rounds), 16 a thread took
/// 0.85–1.02× the time of the build before (median 0.95), whose tasks of 4 × 4 tiles read both
/// operands again for every 32 × 96 values of `c` (f64), and whose row blocks, from 16 panels a
/// thread, every one read all of `b`; 8 and 32 a thread were within 3% of 16 in most products.
const TASKS_A_THREAD: usize = 16;

/// `c = a · b` in tasks of `task_panels` tiles of `c`, each taking its tiles through every slab
/// of `depth_block` (`grid_slab_depth`'s) in order (the first sets them, the others add), with
/// the panels of `a` and `b` they need packed on demand; in a slab, its columns a block of
/// `streamed`'s at a time, and for each its A panels in turn, each along the block's B panels.
/// Operands whose packed panels would take more than a quarter of the last-level cache go
/// through the grid a part of their depth at a time (`part_depth`), so that the panels that
/// tasks share stay in that cache.
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

/// The grid's slabs' depth: `depth_block`, or half of it where a slab of `depth_block` would
/// take more than a quarter of the last-level cache; `None` where neither fits.
fn grid_depth<T, const MR: usize, const NR: usize>(
    m: usize,
    n: usize,
    depth_block: usize,
) -> Option<usize> {
    [depth_block, depth_block / 2]
        .into_iter()
        .find(|&depth| slab_bytes::<T, MR, NR>(m, n, depth) <= quarter_of_cache_bytes())
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
            let pack_a: &PackPanels<T, MR> =
                &|depths, indices, panels| pack_a_panels(a.slice(s![.., depths]), indices, panels);
            let pack_b: &PackPanels<T, NR> =
                &|depths, indices, panels| pack_b_panels(b.slice(s![depths, ..]), indices, panels);
            let a_panels = OnDemand::new(a_buffer, k, depth_block, row_panels, pack_a);
            let b_panels = OnDemand::new(b_buffer, k, depth_block, col_panels, pack_b);
            let out = SharedResult(c.as_mut_ptr().cast::<T>());
            let task_list = staggered_tasks(row_panels, col_panels, tasks);
            in_shares(&task_list, |(rows, cols)| {
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
                                    a_ahead: AheadLines::NONE,
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

/// A task's row panels and column panels.
type Task = (Range<usize>, Range<usize>);

/// The tasks of `row_panels` × `col_panels` tiles, row block after row block, each row's
/// starting at the column block of the row's index (and going round).
fn staggered_tasks(row_panels: usize, col_panels: usize, tasks: &Tasks) -> Vec<Task> {
    let col_blocks: Vec<_> = blocks_of(0..col_panels, tasks.cols).collect();
    blocks_of(0..row_panels, tasks.rows)
        .enumerate()
        .flat_map(|(row_block, rows)| {
            let col_blocks = &col_blocks;
            (0..col_blocks.len()).map(move |j| {
                let cols = col_blocks[(row_block + j) % col_blocks.len()].clone();
                (rows.clone(), cols)
            })
        })
        .collect()
}

/// Runs `task` for every one of `tasks` on the pool's threads: each its share, a run of
/// `tasks`, in order, then the others' shares in turn from the next thread's, taking from each
/// what its thread has not yet taken. On three starts of the 16-core host (8 and 16 threads, 700²
/// to 5000², 33 products of 5–7 rounds) shares and staggered columns took 0.83–1.02× the time of
/// rayon's parallel loop over the tasks in order (median 0.95); that loop with staggered columns
/// alone was level with it (0.96–1.02×). `rayon::broadcast` also wakes every thread at once,
/// where a parallel loop wakes them one by one as its parts are split.
fn in_shares<T: Sync>(tasks: &[T], task: impl Fn(&T) + Sync) {
    /// A share's next task, on a cache line of its own: its thread takes from it at each task.
    #[repr(align(128))]
    struct Cursor(AtomicUsize);
    let threads = rayon::current_num_threads();
    let share =
        |thread: usize| thread * tasks.len() / threads..(thread + 1) * tasks.len() / threads;
    let cursors: Vec<Cursor> = (0..threads)
        .map(|thread| Cursor(AtomicUsize::new(share(thread).start)))
        .collect();
    rayon::broadcast(|context| {
        for step in 0..threads {
            let owner = (context.index() + step) % threads;
            let end = share(owner).end;
            loop {
                let next = cursors[owner].0.fetch_add(1, Ordering::Relaxed);
                if next >= end {
                    break;
                }
                task(&tasks[next]);
            }
        }
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

/// The thread counts and rows a thread of the grid's products (`grid_slab_depth`): 5 panels of
/// the 8-row tiles they were measured with.
pub(super) const FROM_THREADS: usize = 8;
pub(super) const FROM_ROWS_A_THREAD: usize = 40;

/// Whether `m` rows in panels of `mr` give each of `threads` threads the grid's rows or more.
pub(super) fn rows_for_grid(m: usize, mr: usize, threads: usize) -> bool {
    m.div_ceil(mr) * mr >= FROM_ROWS_A_THREAD * threads
}

/// The depth of the grid's slabs (`grid_depth`) when a product on `threads` threads takes the
/// grid, else `None`: it does with wide tiles, on 8 threads or more, with 40 rows a thread
/// or more, and with a slab of `a`'s and `b`'s panels in a quarter of the last-level cache. On
/// the 16-core host (the median of 180 products, 30 at 2000², three runs) the grid of tasks of
/// 4 × 4 tiles took 0.84–1.03× the time of row blocks at 700², 1000² and 2000², f32 and f64
/// (median 0.95), but 0.99–1.17× at 500² (4 panels a thread); on 2 cores it measured level with
/// row blocks, so fewer than 8 threads keep them.
pub(super) fn grid_slab_depth<T: Float, const MR: usize, const NR: usize>(
    m: usize,
    n: usize,
    depth_block: usize,
    threads: usize,
) -> Option<usize> {
    let suits =
        wide_tiles::<T, MR, NR>() && threads >= FROM_THREADS && rows_for_grid(m, MR, threads);
    if !suits {
        return None;
    }
    grid_depth::<T, MR, NR>(m, n, depth_block)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::device::cpu::linalg::packed::tests::{seven_threads, small_integer_product};
    use crate::device::cpu::linalg::packed::{cpu_supported, wide_vectors, GRID_DEPTH, WIDE_MR};
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
            let got = product::<f64, 16>(&a, &b, &tasks(3, 5, 3), part_depth);
            assert_eq!(got, want, "parts of {part_depth}");
            let got = product::<f32, 32>(&a32, &b32, &tasks(2, 3, 2), part_depth);
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
            grid_in_parts::<f64, WIDE_MR, 16>(a.view(), b.view(), &mut c, 192, &stop, &tasks, 192)
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

    /// Every task runs once, on more threads than cores, with shares of unequal lengths.
    #[test]
    fn every_task_runs_once() {
        for count in [0, 1, 6, 7, 50, 223] {
            let runs: Vec<AtomicUsize> = (0..count).map(|_| AtomicUsize::new(0)).collect();
            let tasks: Vec<usize> = (0..count).collect();
            seven_threads().install(|| {
                in_shares(&tasks, |&task| {
                    runs[task].fetch_add(1, Ordering::Relaxed);
                })
            });
            assert!(
                runs.iter().all(|r| r.load(Ordering::Relaxed) == 1),
                "{count} tasks"
            );
        }
    }

    /// Each row's tasks cover its columns once, from the column block of the row's index.
    #[test]
    fn rows_start_at_staggered_columns() {
        let tasks = Tasks {
            rows: 8,
            cols: 3,
            block_panels: 3,
        };
        // 125 row panels in 16 blocks, 42 column panels in 14.
        let list = staggered_tasks(125, 42, &tasks);
        assert_eq!(list.len(), 16 * 14);
        for (row_block, row) in list.chunks(14).enumerate() {
            assert!(row.iter().all(|(rows, _)| rows.start == row_block * 8));
            assert_eq!(row[0].1.start, row_block % 14 * 3);
            let mut starts: Vec<usize> = row.iter().map(|(_, cols)| cols.start).collect();
            starts.sort();
            assert_eq!(starts, (0..14).map(|j| j * 3).collect::<Vec<_>>());
        }
    }

    /// Slabs of `GRID_DEPTH`, or of half of it where such a slab would not fit a quarter of the
    /// last-level cache, or none.
    #[test]
    fn slabs_are_as_deep_as_the_cache_allows() {
        let depth = GRID_DEPTH;
        let depth_for = |n| grid_depth::<f64, WIDE_MR, 16>(n, n, depth);
        assert_eq!(depth_for(1000), Some(depth));
        let quarter = quarter_of_cache_bytes();
        // The largest square operands whose slab of `depth` fits, and the next ones.
        let fits = |depth: usize| (quarter / (2 * depth * 8)) / 24 * 24;
        assert_eq!(depth_for(fits(depth)), Some(depth));
        assert_eq!(depth_for(fits(depth) + 24), Some(depth / 2));
        assert_eq!(depth_for(fits(depth / 2) + 24), None);
    }

    /// Parts of the depth are whole slabs, at least one however large the operands.
    #[test]
    fn parts_are_whole_slabs() {
        assert_eq!(
            part_depth::<f64, WIDE_MR, 16>(10_000_000, 10_000_000, 192),
            192
        );
        assert_eq!(part_depth::<f32, WIDE_MR, 32>(1000, 1000, 192) % 192, 0);
    }
}
