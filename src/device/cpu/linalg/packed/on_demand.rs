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

/// Packs panel `index` of a slab of the given depths into its slots.
pub(super) type PackPanel<'p, T, const N: usize> =
    dyn Fn(Range<usize>, usize, &mut [[T; N]]) + Sync + 'p;

/// A matrix's panels of `N` values a step, laid out slab of depth after slab, and in each slab
/// panel after panel: the slab at depth `d0` (a multiple of `depth_block`) starts `d0 · panels`
/// slots into the buffer, and its panel `j` `j · slab depth` slots after that.
pub(super) struct OnDemand<'a, T, const N: usize> {
    slots: *mut [T; N],
    states: Vec<AtomicU8>,
    panels: usize,
    depth: usize,
    depth_block: usize,
    pack: &'a PackPanel<'a, T, N>,
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
        pack: &'a PackPanel<'a, T, N>,
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
    /// no thread has taken are packed here, then the others are waited for.
    pub(super) fn ready(&self, depth0: usize, wanted: Range<usize>) -> *const T {
        let depths = depth0..self.depth.min(depth0 + self.depth_block);
        let slab_start = depth0 * self.panels;
        let states = &self.states[depth0 / self.depth_block * self.panels..][..self.panels];
        for index in wanted.clone() {
            let state = &states[index];
            let claimed = state.load(Ordering::Acquire) == UNPACKED
                && state
                    .compare_exchange(UNPACKED, PACKING, Ordering::Acquire, Ordering::Relaxed)
                    .is_ok();
            if claimed {
                let _packed = MarkPacked(state);
                // SAFETY: this thread alone claimed the panel, whose slots lie inside the
                // buffer, and no thread reads them before it is marked packed.
                let panel = unsafe {
                    std::slice::from_raw_parts_mut(
                        self.slots.add(slab_start + index * depths.len()),
                        depths.len(),
                    )
                };
                (self.pack)(depths.clone(), index, panel);
            }
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
        self.slots.wrapping_add(slab_start).cast()
    }
}

/// Marks a panel packed when its packer is done, or unwinds: the threads waiting for it then
/// go on to the unwinding instead of waiting for ever.
struct MarkPacked<'s>(&'s AtomicU8);

impl Drop for MarkPacked<'_> {
    fn drop(&mut self) {
        self.0.store(PACKED, Ordering::Release);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::device::cpu::linalg::packed::tests::seven_threads;
    use rayon::prelude::*;

    /// Seven threads asking for overlapping ranges of panels, slab by slab (the last one
    /// shallower), each panel packed exactly once and read whole.
    #[test]
    fn every_panel_is_packed_once_and_read_whole() {
        let (depth, depth_block, panels) = (70, 32, 9);
        let packs = std::sync::atomic::AtomicUsize::new(0);
        let pack = |depths: Range<usize>, index: usize, panel: &mut [[f64; 2]]| {
            packs.fetch_add(1, Ordering::Relaxed);
            for (step, slot) in depths.zip(panel.iter_mut()) {
                *slot = [(step * 100 + index) as f64, -1.0];
            }
        };
        let mut buffer = Vec::new();
        let on_demand = OnDemand::new(&mut buffer, depth, depth_block, panels, &pack);
        seven_threads().install(|| {
            (0..28).into_par_iter().for_each(|task| {
                for depth0 in (0..depth).step_by(depth_block) {
                    let slab_depth = depth_block.min(depth - depth0);
                    let wanted = task % 7..(task % 7 + 3).min(panels);
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
        // Panels 0..9 of 3 slabs are all wanted by some task.
        assert_eq!(packs.load(Ordering::Relaxed), 27);
    }
}
