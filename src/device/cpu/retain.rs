//! A global allocator that keeps a few large freed blocks for reuse. The operating system hands
//! out fresh memory as unmapped pages, and touching each one costs a fault and a zeroing: for a
//! new 800 MB array that is tens of milliseconds, more than copying 800 MB from the gpu. Array
//! code frees and allocates same-sized large buffers over and over (temporaries, copies back
//! from the device), so a freed block of the same size is handed back instead, already mapped.

use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::Mutex;

/// Blocks at least this large are kept when freed. (With 64 MiB, the 32 MB results of repeated
/// 2000² products came back from glibc as fresh memory, a tenth of each product's time in faults;
/// with 4 MiB, the 2 MB results of 500² products took four products to stop faulting; glibc
/// maps blocks from 128 KiB afresh until its own threshold has grown.)
const LARGE: usize = 256 << 10;
/// At most this many blocks, and this many bytes, are kept: the most recently freed ones.
const SLOTS: usize = 4;
const MAX_KEPT_BYTES: usize = 4 << 30;

pub struct RetainLarge;

#[derive(Clone, Copy)]
struct Block {
    pointer: usize,
    size: usize,
    align: usize,
    freed_at: u64,
}

const EMPTY: Block = Block {
    pointer: 0,
    size: 0,
    align: 0,
    freed_at: 0,
};

struct Kept {
    blocks: [Block; SLOTS],
    bytes: usize,
    frees: u64,
}

static KEPT: Mutex<Kept> = Mutex::new(Kept {
    blocks: [EMPTY; SLOTS],
    bytes: 0,
    frees: 0,
});

/// Bytes held in kept blocks: free for this process, though the operating system counts them used.
pub fn kept_bytes() -> usize {
    KEPT.lock().map_or(0, |kept| kept.bytes)
}

fn take(layout: Layout) -> Option<*mut u8> {
    let mut kept = KEPT.lock().ok()?;
    let slot = kept.blocks.iter().position(|block| {
        block.pointer != 0 && block.size == layout.size() && block.align == layout.align()
    })?;
    let block = std::mem::replace(&mut kept.blocks[slot], EMPTY);
    kept.bytes -= block.size;
    Some(block.pointer as *mut u8)
}

/// Keeps a freed block, making room by giving up the oldest kept ones (into `evicted`, for the
/// caller to free outside the lock). False when it is not kept.
fn keep(pointer: *mut u8, layout: Layout, evicted: &mut [Block; SLOTS]) -> bool {
    if layout.size() > MAX_KEPT_BYTES {
        return false;
    }
    let Ok(mut kept) = KEPT.lock() else {
        return false;
    };
    for out in evicted.iter_mut() {
        let full = kept.blocks.iter().all(|block| block.pointer != 0);
        if !full && kept.bytes + layout.size() <= MAX_KEPT_BYTES {
            break;
        }
        let Some(oldest) = (0..SLOTS)
            .filter(|&i| kept.blocks[i].pointer != 0)
            .min_by_key(|&i| kept.blocks[i].freed_at)
        else {
            break;
        };
        *out = std::mem::replace(&mut kept.blocks[oldest], EMPTY);
        kept.bytes -= out.size;
    }
    let Some(slot) = kept.blocks.iter().position(|block| block.pointer == 0) else {
        return false;
    };
    kept.frees += 1;
    kept.blocks[slot] = Block {
        pointer: pointer as usize,
        size: layout.size(),
        align: layout.align(),
        freed_at: kept.frees,
    };
    kept.bytes += layout.size();
    true
}

// SAFETY: every block comes from `System` and goes back to it, or is handed out again for a
// layout of exactly the size and alignment it was allocated with.
unsafe impl GlobalAlloc for RetainLarge {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        if layout.size() >= LARGE {
            if let Some(p) = take(layout) {
                return p;
            }
        }
        System.alloc(layout)
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        if layout.size() >= LARGE {
            if let Some(p) = take(layout) {
                std::ptr::write_bytes(p, 0, layout.size());
                return p;
            }
        }
        System.alloc_zeroed(layout)
    }

    unsafe fn dealloc(&self, pointer: *mut u8, layout: Layout) {
        if layout.size() < LARGE {
            return System.dealloc(pointer, layout);
        }
        let mut evicted = [EMPTY; SLOTS];
        if keep(pointer, layout, &mut evicted) {
            for block in evicted.iter().filter(|block| block.pointer != 0) {
                let layout = Layout::from_size_align_unchecked(block.size, block.align);
                System.dealloc(block.pointer as *mut u8, layout);
            }
            return;
        }
        System.dealloc(pointer, layout)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_most_recently_freed_blocks_are_kept() {
        let layouts: Vec<Layout> = (1..=SLOTS + 1)
            .map(|i| Layout::from_size_align(LARGE * i, 64).expect("a layout"))
            .collect();
        // SAFETY: the layouts have non-zero sizes; each block goes back to `System` below.
        let pointers: Vec<*mut u8> = layouts
            .iter()
            .map(|&l| unsafe { System.alloc(l) })
            .collect();
        for (&pointer, &layout) in pointers.iter().zip(&layouts) {
            let mut evicted = [EMPTY; SLOTS];
            assert!(keep(pointer, layout, &mut evicted));
            for block in evicted.iter().filter(|block| block.pointer != 0) {
                assert_eq!(
                    block.pointer, pointers[0] as usize,
                    "only the oldest is given up"
                );
                // SAFETY: the first block, allocated above with its layout.
                unsafe { System.dealloc(pointers[0], layouts[0]) };
            }
        }
        assert_eq!(take(layouts[0]), None);
        for (&pointer, &layout) in pointers.iter().zip(&layouts).skip(1) {
            assert_eq!(take(layout), Some(pointer));
            // SAFETY: allocated above with this layout, and no longer kept.
            unsafe { System.dealloc(pointer, layout) };
        }
        assert_eq!(kept_bytes(), 0);
    }
}
