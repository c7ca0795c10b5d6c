use super::*;
use ndarray::Array2;

/// `a`, `b` and their product, of small integers: every product and sum is exact.
pub(super) fn small_integer_product(
    m: usize,
    k: usize,
    n: usize,
) -> (Array2<f64>, Array2<f64>, Array2<f64>) {
    let a = Array2::from_shape_fn((m, k), |(i, j)| ((i * 7 + j * 3) % 11) as f64 - 5.0);
    let b = Array2::from_shape_fn((k, n), |(i, j)| ((i * 5 + j) % 13) as f64 - 6.0);
    let want = a.dot(&b);
    (a, b, want)
}

/// More threads than the machines that run the tests have cores.
pub(super) fn seven_threads() -> rayon::ThreadPool {
    rayon::ThreadPoolBuilder::new()
        .num_threads(7)
        .build()
        .unwrap()
}

/// A row's tiles ask for every line of the panel once between them, in order, however many
/// tiles the row has (more than the panel has lines too).
#[test]
fn a_rows_tiles_share_the_next_panel() {
    let panel = [0.0f32; 12 * 341];
    let lines = (panel.len() * 4).div_ceil(CACHE_LINE);
    for tiles in [1, 5, 12, 16, lines, lines + 7] {
        let mut next = panel.as_ptr().cast::<u8>();
        for tile in 0..tiles {
            let ahead = AheadLines::share_of(panel.as_ptr(), panel.len(), tile, tiles);
            assert!(
                ahead.count == 0 || ahead.start == next,
                "{tiles} tiles, tile {tile}"
            );
            next = next.wrapping_add(ahead.count * CACHE_LINE);
        }
        assert_eq!(
            next,
            panel.as_ptr().cast::<u8>().wrapping_add(lines * CACHE_LINE)
        );
    }
}

/// Panels packed together hold what each would alone: `b`'s values of their columns, step
/// by step, the last panel's padding zero, from contiguous rows and from strided ones.
#[test]
fn panels_packed_together_hold_their_columns() {
    let b = Array2::from_shape_fn((5, 2 * 7 + 3), |(i, j)| (i * 100 + j) as f64);
    let every_other = Array2::from_shape_fn((5, 2 * 17), |(i, j)| (i * 100 + j / 2) as f64);
    for view in [b.view(), every_other.slice(s![.., ..;2])] {
        let mut slots = vec![[f64::NAN; 7]; 3 * 5];
        pack_b_panels(view, 0..3, &mut slots);
        for (index, panel) in slots.chunks_exact(5).enumerate() {
            for (step, slot) in panel.iter().enumerate() {
                for (lane, &value) in slot.iter().enumerate() {
                    let col = index * 7 + lane;
                    let want = if col < 17 {
                        (step * 100 + col) as f64
                    } else {
                        0.0
                    };
                    assert_eq!(value, want, "panel {index}, step {step}, lane {lane}");
                }
            }
        }
    }
}

/// Row blocks on more threads than cores, with all of a `b` of several slabs (of depths that
/// are not a multiple of `UNROLLED_STEPS`) and more than `NC` columns packed first: every
/// product is exact (small integers).
#[test]
fn whole_b_products_are_exact() {
    if !cpu_supported() {
        eprintln!("skipped: the cpu has no AVX2 and FMA");
        return;
    }
    let (m, k, n) = (203, 700, NC + 50);
    let (a, b, want) = small_integer_product(m, k, n);
    let pool = seven_threads();
    let blocks = row_blocks(m, 6, 7, A_BLOCK_PANELS);
    let mut c = vec![MaybeUninit::<f64>::uninit(); m * n];
    pool.install(|| {
        whole_b::<f64, 6, 8>(a.view(), b.view(), &mut c, 190, &Stop::current(), &blocks)
    });
    // SAFETY: `whole_b` writes every element when not interrupted, and nothing interrupts it.
    let got: Vec<f64> = c.into_iter().map(|v| unsafe { v.assume_init() }).collect();
    assert_eq!(Array2::from_shape_vec((m, n), got).unwrap(), want);
}

/// The grid (tasks of tiles, panels packed on demand) on more threads than cores,
/// with several slabs and ragged tiles at both edges: exact, f64 and f32.
#[cfg(target_arch = "x86_64")]
#[test]
fn grid_products_are_exact() {
    if !(cpu_supported() && wide_vectors()) {
        eprintln!("skipped: the cpu has no AVX-512");
        return;
    }
    let (m, k, n) = (203, 700, 250);
    let (a, b, want) = small_integer_product(m, k, n);
    let pool = seven_threads();
    let stop = Stop::current();
    let mut c = vec![MaybeUninit::<f64>::uninit(); m * n];
    pool.install(|| grid::grid::<f64, WIDE_MR, 16>(a.view(), b.view(), &mut c, 192, &stop));
    // SAFETY: `grid` writes every element when not interrupted, and nothing interrupts it.
    let got: Vec<f64> = c.into_iter().map(|v| unsafe { v.assume_init() }).collect();
    assert_eq!(Array2::from_shape_vec((m, n), got).unwrap(), want);
    let (a, b) = (a.mapv(|v| v as f32), b.mapv(|v| v as f32));
    let mut c = vec![MaybeUninit::<f32>::uninit(); m * n];
    pool.install(|| grid::grid::<f32, WIDE_MR, 32>(a.view(), b.view(), &mut c, 192, &stop));
    // SAFETY: as above.
    let got: Vec<f32> = c.into_iter().map(|v| unsafe { v.assume_init() }).collect();
    assert_eq!(
        Array2::from_shape_vec((m, n), got).unwrap(),
        want.mapv(|v| v as f32)
    );
}

#[cfg(target_arch = "x86_64")]
#[test]
fn the_grid_is_for_products_of_many_panels_a_thread_on_many_threads() {
    let suits =
        |m, threads| grid::grid_slab_depth::<f32, WIDE_MR, 32>(m, 600, 192, threads).is_some();
    // 8 threads: from 320 rows (40 a thread).
    assert!(suits(600, 8));
    assert!(suits(1100, 8));
    assert!(
        !suits(300, 8),
        "fewer than 40 rows a thread keep row blocks"
    );
    assert!(!suits(600, 2), "few threads keep row blocks");
    assert!(
        !suits(100_000_000, 8),
        "a slab past a quarter of the cache keeps row blocks"
    );
    // Only wide tiles.
    assert!(grid::grid_slab_depth::<f32, 6, 16>(600, 600, 192, 8).is_none());
}

#[test]
fn many_panels_a_thread_make_smaller_blocks() {
    // 16 threads, 2000 rows: 250 panels of 8, 16 a thread, in 4 blocks a thread.
    assert_eq!(row_blocks(2000, 8, 16, A_BLOCK_PANELS).len(), 64);
    // 1000 rows: 8 panels a thread, one block each.
    assert_eq!(row_blocks(1000, 8, 16, A_BLOCK_PANELS).len(), 16);
    // Fewer threads: blocks of at most 12 panels, however many.
    assert_eq!(row_blocks(200, 8, 1, A_BLOCK_PANELS).len(), 3);
    assert_eq!(row_blocks(500, 8, 2, A_BLOCK_PANELS).len(), 6);
    // No cap on the panels: one block a thread, or 4 on 16 threads at 2000².
    assert_eq!(row_blocks(3000, 8, 2, usize::MAX).len(), 2);
    assert_eq!(row_blocks(2000, 8, 16, usize::MAX).len(), 64);
    let blocks = row_blocks(2000, 8, 16, A_BLOCK_PANELS);
    assert_eq!(blocks.first().unwrap().start, 0);
    assert_eq!(blocks.last().unwrap().end, 2000);
    assert!(blocks.windows(2).all(|pair| pair[0].end == pair[1].start));
}
