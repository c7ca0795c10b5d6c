//! A global allocator that keeps a few large freed blocks for reuse. The operating system hands
//! out fresh memory as unmapped pages, and touching each one costs a fault and a zeroing: for a
//! new 800 MB array that is tens of milliseconds, more than copying 800 MB from the gpu. Array
//! code frees and allocates same-sized large buffers over and over (temporaries, copies back
//! from the device), so a freed block of the same size is handed back instead, already mapped.

use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::Mutex;

/// Blocks at least this large are kept when freed. (With 64 MiB, the 32 MB results of repeated
/// 2000² products came back from glibc as fresh memory, a tenth of each product's time in faults.)
const LARGE: usize = 4 << 20;
/// At most this many blocks, and this many bytes, are kept.
const SLOTS: usize = 4;
const MAX_KEPT_BYTES: usize = 4 << 30;

pub struct RetainLarge;

struct Kept {
    blocks: [(usize, usize, usize); SLOTS],
    bytes: usize,
}

static KEPT: Mutex<Kept> = Mutex::new(Kept {
    blocks: [(0, 0, 0); SLOTS],
    bytes: 0,
});

/// Bytes held in kept blocks: free for this process, though the operating system counts them used.
pub fn kept_bytes() -> usize {
    KEPT.lock().map_or(0, |kept| kept.bytes)
}

fn take(layout: Layout) -> Option<*mut u8> {
    let mut kept = KEPT.lock().ok()?;
    let slot = kept
        .blocks
        .iter()
        .position(|&(p, size, align)| p != 0 && size == layout.size() && align == layout.align())?;
    let (pointer, size, _) = kept.blocks[slot];
    kept.blocks[slot] = (0, 0, 0);
    kept.bytes -= size;
    Some(pointer as *mut u8)
}

fn keep(pointer: *mut u8, layout: Layout) -> bool {
    let Ok(mut kept) = KEPT.lock() else {
        return false;
    };
    if kept.bytes + layout.size() > MAX_KEPT_BYTES {
        return false;
    }
    let Some(slot) = kept.blocks.iter().position(|&(p, _, _)| p == 0) else {
        return false;
    };
    kept.blocks[slot] = (pointer as usize, layout.size(), layout.align());
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
        if layout.size() >= LARGE && keep(pointer, layout) {
            return;
        }
        System.dealloc(pointer, layout)
    }
}
