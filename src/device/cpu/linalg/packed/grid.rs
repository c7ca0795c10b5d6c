//! Small products on many threads as a grid of tasks (x86-64 cpus with AVX-512): tasks of a few
//! tiles of `c` each, whose panels of `a` and `b` are packed on demand. A row block a thread
//! would read all of `b` and be one long task; a grid task reads a part of each, and idle threads
//! take tasks from busy ones, which on a shared machine is where a product loses its time.

use super::on_demand::{OnDemand, PackPanel};
use super::{
    pack_a_panel, pack_b_panel, whole_b_fits, wide_tile_fitted, wide_tiles, SharedResult, TileShape,
};
use crate::base::interrupt::Stop;
use crate::device::cpu::linalg::{Float, Panels};
use ndarray::{s, ArrayView2};
use rayon::prelude::*;
use std::mem::MaybeUninit;

/// A grid task's tiles: 4 × 4 measured better than 8 × 4, 4 × 8 and 2 × 4 at 700² on the
/// 16-core host, and within 5% of the best at 1000².
const GRID_ROW_PANELS: usize = 4;
const GRID_COL_PANELS: usize = 4;

/// `c = a · b` in tasks of `GRID_ROW_PANELS × GRID_COL_PANELS` tiles of `c`, each taking its
/// tiles through every slab in order (the first sets them, the others add), with the panels of
/// `a` and `b` they need packed on demand.
pub(super) fn grid<T: Float, const MR: usize, const NR: usize>(
    a: ArrayView2<T>,
    b: ArrayView2<T>,
    c: &mut [MaybeUninit<T>],
    depth_block: usize,
    stop: &Stop,
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
            let tasks: Vec<_> = (0..row_panels)
                .step_by(GRID_ROW_PANELS)
                .flat_map(|r| {
                    (0..col_panels).step_by(GRID_COL_PANELS).map(move |j| {
                        let rows = r..(r + GRID_ROW_PANELS).min(row_panels);
                        (rows, j..(j + GRID_COL_PANELS).min(col_panels))
                    })
                })
                .collect();
            tasks.into_par_iter().for_each(|(rows, cols)| {
                let out = &out;
                for depth0 in (0..k).step_by(depth_block) {
                    if stop.requested() {
                        return;
                    }
                    let depth = depth_block.min(k - depth0);
                    let a_slab = a_panels.ready(depth0, rows.clone());
                    let b_slab = b_panels.ready(depth0, cols.clone());
                    for j in cols.clone() {
                        let b_panel = b_slab.wrapping_add(j * depth * NR);
                        for i in rows.clone() {
                            let a_panel = a_slab.wrapping_add(i * depth * MR);
                            let tile = TileShape {
                                ldc: n,
                                rows: MR.min(m - i * MR),
                                cols: NR.min(n - j * NR),
                                first: depth0 == 0,
                            };
                            // Down the task's column of tiles, then to the top of the next one.
                            let (next_i, next_j) = if i + 1 < rows.end {
                                (i + 1, j)
                            } else {
                                (rows.start, j + 1)
                            };
                            let next_tile = out.0.wrapping_add(next_i * MR * n + next_j * NR);
                            // SAFETY: `grid` runs only with wide tiles (AVX-512F found); the
                            // panels are packed and hold `depth` steps; the tile lies inside `c`,
                            // and tasks write disjoint tiles.
                            unsafe {
                                wide_tile_fitted::<T, false, false>(
                                    a_panel,
                                    b_panel,
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
            });
        })
    });
}

/// The thread counts and row panels a thread of the grid's products (`grid_suits`).
pub(super) const FROM_THREADS: usize = 8;
pub(super) const PANELS_A_THREAD: std::ops::Range<usize> = 5..16;

/// Whether a product on `threads` threads takes the grid: with wide tiles, on 8 threads or
/// more, with 5 to 15 row panels a thread (more give each thread several row blocks), and with
/// `a` and `b` packed together in a quarter of the last-level cache. On the 16-core host (the
/// median of 180 products, 30 at 2000², three runs) the grid took 0.84–1.03× the time of row
/// blocks at 700², 1000² and 2000², f32 and f64 (median 0.95), but 0.99–1.17× at 500² (4 panels
/// a thread); on 2 cores it measured level with row blocks, so fewer than 8 threads keep them.
pub(super) fn grid_suits<T: Float, const MR: usize, const NR: usize>(
    m: usize,
    k: usize,
    n: usize,
    threads: usize,
) -> bool {
    let packed = (n.div_ceil(NR) * NR + m.div_ceil(MR) * MR).saturating_mul(k);
    let panels = m.div_ceil(MR);
    wide_tiles::<T, MR, NR>()
        && threads >= FROM_THREADS
        && (PANELS_A_THREAD.start * threads..PANELS_A_THREAD.end * threads).contains(&panels)
        && whole_b_fits::<T>(packed)
}
