//! Panels packed on demand: each by the first thread that needs it, while the threads that need
//! it too wait for it (a panel takes microseconds) or pack others.
//!
//! Packed first, in a parallel loop of their own, the panels kept every thread waiting at that
//! loop's end for the slowest: on both threads of the 2-core Xeon at 500² f32 the loop took
//! 0.20–0.28 ms of a 1.1 ms product, where one thread alone packed the same panels in 0.09 ms;
//! on 16 threads of the 16-core host, 0.59–0.75 ms of 1000² products of 2.2–3.5 ms, with some
//! threads woken 0.3 ms late. On demand, packing overlaps the products of the panels packed
//! before, and a thread that starts late finds its panels ready (there, 1000² f64 and f32 went
//! from 1.07× and 1.01× NumPy's time to 0.96× and 0.93×, seven rounds).

use super::panel_slots;
use crate::device::cpu::linalg::Float;
use std::marker::PhantomData;
use std::ops::Range;
use std::sync::atomic::{AtomicU8, Ordering};

const UNPACKED: u8 = 0;
const PACKING: u8 = 1;
const PACKED: u8 = 2;

/// The most panels a thread packs together, reading each row of their source once for all of
/// them (`PackPanels`): the values of a row of `b` in 4 panels of f64 are 12 cache lines side
/// by side, where a panel at a time reads 3 of each row and moves on to the next row. On the
/// 16-core host (300 MiB of L3), runs took 0.94–0.99× the time of a panel at a time at 2000² f64
/// on one thread (three runs; 0.93× at 3000²) and 0.96× at 1000² f64 on 16 threads (three runs);
/// 3000² f64 on 16 threads was 3–5% slower in three runs of four. Runs of a whole block (10
/// panels on one thread) took 0.94–1.07× the time of runs of 4 (one run).
const RUN_PANELS: usize = 4;

/// Packs the panels `indices` of a slab of the given depths into their slots, one panel's after
/// another's.
pub(super) type PackPanels<'p, T, const N: usize> =
    dyn Fn(Range<usize>, Range<usize>, &mut [[T; N]]) + Sync + 'p;

/// A matrix's panels of `N` values a step, laid out slab of depth after slab, and in each slab
/// panel after panel: the slab at depth `d0` (a multiple of `depth_block`) starts `d0 · panels`
/// slots into the buffer, and its panel `j` `j · slab depth` slots after that.
pub(super) struct OnDemand<'a, T, const N: usize> {
    slots: *mut [T; N],
    states: Vec<AtomicU8>,
    panels: usize,
    depth: usize,
    depth_block: usize,
    pack: &'a PackPanels<'a, T, N>,
    _buffer: PhantomData<&'a mut [[T; N]]>,
}

// SAFETY: a panel's slots are written only by the thread that claimed it, and read only once its
// state says packed (with acquire and release ordering between the two).
unsafe impl<T: Send + Sync, const N: usize> Sync for OnDemand<'_, T, N> {}

impl<'a, T: Float, const N: usize> OnDemand<'a, T, N> {
    /// `panels` panels of each slab of `depth_block` (the last one shallower) down `depth`,
    /// kept in `buffer`, none packed yet.
    pub(super) fn new(
        buffer: &'a mut Vec<T>,
        depth: usize,
        depth_block: usize,
        panels: usize,
        pack: &'a PackPanels<'a, T, N>,
    ) -> Self {
        let slots = panel_slots::<T, N>(buffer, panels * depth).as_mut_ptr();
        let states = (0..depth.div_ceil(depth_block) * panels)
            .map(|_| AtomicU8::new(UNPACKED))
            .collect();
        Self {
            slots,
            states,
            panels,
            depth,
            depth_block,
            pack,
            _buffer: PhantomData,
        }
    }

    /// The first value of the slab at depth `depth0`, once its panels `wanted` are packed: those
    /// no thread has taken are packed here, in runs of up to `RUN_PANELS` (`pack_run`), then the
    /// others are waited for.
    pub(super) fn ready(&self, depth0: usize, wanted: Range<usize>) -> *const T {
        let states = self.slab_states(depth0);
        let mut run: Option<usize> = None;
        for index in wanted.clone() {
            if let Some(first) = run.filter(|&first| index - first == RUN_PANELS) {
                self.pack_run(depth0, first..index);
                run = None;
            }
            let state = &states[index];
            let claimed = state.load(Ordering::Acquire) == UNPACKED
                && state
                    .compare_exchange(UNPACKED, PACKING, Ordering::Acquire, Ordering::Relaxed)
                    .is_ok();
            if claimed {
                run.get_or_insert(index);
            } else if let Some(first) = run.take() {
                self.pack_run(depth0, first..index);
            }
        }
        if let Some(first) = run {
            self.pack_run(depth0, first..wanted.end);
        }
        for index in wanted {
            let mut spins = 0u32;
            while states[index].load(Ordering::Acquire) != PACKED {
                // A packer that lost its core (a shared machine) gets it back sooner.
                if spins < 64 {
                    std::hint::spin_loop();
                } else {
                    std::thread::yield_now();
                }
                spins += 1;
            }
        }
        self.slots.wrapping_add(depth0 * self.panels).cast()
    }

    /// The states of the panels of the slab at `depth0`.
    fn slab_states(&self, depth0: usize) -> &[AtomicU8] {
        &self.states[depth0 / self.depth_block * self.panels..][..self.panels]
    }

    /// Packs the panels `run` of the slab at `depth0`, which this thread has claimed, together.
    fn pack_run(&self, depth0: usize, run: Range<usize>) {
        let depths = depth0..self.depth.min(depth0 + self.depth_block);
        let _packed = MarkPacked(&self.slab_states(depth0)[run.clone()]);
        // SAFETY: this thread alone claimed the panels, whose slots lie inside the buffer one
        // after another, and no thread reads them before they are marked packed.
        let panels = unsafe {
            std::slice::from_raw_parts_mut(
                self.slots
                    .add(depth0 * self.panels + run.start * depths.len()),
                run.len() * depths.len(),
            )
        };
        (self.pack)(depths, run, panels);
    }
}

/// Marks panels packed when their packer is done, or unwinds: the threads waiting for them
/// then go on to the unwinding instead of waiting for ever.
struct MarkPacked<'s>(&'s [AtomicU8]);

impl Drop for MarkPacked<'_> {
    fn drop(&mut self) {
        for state in self.0 {
            state.store(PACKED, Ordering::Release);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::device::cpu::linalg::packed::tests::seven_threads;
    use rayon::prelude::*;

    /// Seven threads asking for overlapping ranges of panels, slab by slab (the last one
    /// shallower), each panel packed exactly once, in runs of at most `RUN_PANELS`, and read
    /// whole.
    #[test]
    fn every_panel_is_packed_once_and_read_whole() {
        let (depth, depth_block, panels) = (70, 32, 13);
        let packs: Vec<std::sync::atomic::AtomicUsize> =
            (0..3 * panels).map(|_| 0.into()).collect();
        let pack = |depths: Range<usize>, indices: Range<usize>, slots: &mut [[f64; 2]]| {
            assert!((1..=RUN_PANELS).contains(&indices.len()));
            assert_eq!(slots.len(), indices.len() * depths.len());
            let slab = depths.start / depth_block;
            for (index, panel) in indices.zip(slots.chunks_exact_mut(depths.len())) {
                packs[slab * panels + index].fetch_add(1, Ordering::Relaxed);
                for (step, slot) in depths.clone().zip(panel.iter_mut()) {
                    *slot = [(step * 100 + index) as f64, -1.0];
                }
            }
        };
        let mut buffer = Vec::new();
        let on_demand = OnDemand::new(&mut buffer, depth, depth_block, panels, &pack);
        seven_threads().install(|| {
            (0..28).into_par_iter().for_each(|task| {
                for depth0 in (0..depth).step_by(depth_block) {
                    let slab_depth = depth_block.min(depth - depth0);
                    let wanted = task % 7..(task % 7 + 7).min(panels);
                    let slab = on_demand.ready(depth0, wanted.clone());
                    for index in wanted {
                        for step in 0..slab_depth {
                            // SAFETY: the panel was just made ready; the slot lies in the slab.
                            let value = unsafe { *slab.add((index * slab_depth + step) * 2) };
                            assert_eq!(value, ((depth0 + step) * 100 + index) as f64);
                        }
                    }
                }
            })
        });
        // Panels 0..13 of 3 slabs are all wanted by some task.
        assert!(packs.iter().all(|p| p.load(Ordering::Relaxed) == 1));
    }
}
