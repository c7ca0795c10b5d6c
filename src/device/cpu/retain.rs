//! A global allocator that keeps freed blocks for reuse, large ones and small ones.
//!
//! Large: the operating system hands out fresh memory as unmapped pages, and touching each one
//! costs a fault and a zeroing: for a new 800 MB array that is tens of milliseconds, more than
//! copying 800 MB from the gpu. Array code frees and allocates same-sized large buffers over and
//! over (temporaries, copies back from the device), so a freed block of the same size is handed
//! back instead, already mapped. A large request of another size first gives the oldest kept
//! blocks back, so that the system can hand out those pages rather than fresh ones.
//!
//! Small: a statement on a small array makes and drops a dozen small objects (plan nodes, pending
//! values, the result's buffer), and glibc's `malloc` and `free` took 170 instructions a pair, a
//! seventh of such a statement. Each thread keeps a short list of freed blocks per 16-byte size
//! class, and pops and pushes them in a few instructions.

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::UnsafeCell;
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

impl Kept {
    /// Moves the least recently freed kept blocks into `out`, one at a time while `more` says so
    /// and any are kept.
    fn give_up_oldest(&mut self, out: &mut [Block; SLOTS], more: impl Fn(&Kept) -> bool) {
        for slot in out.iter_mut() {
            if !more(self) {
                break;
            }
            let Some(oldest) = (0..SLOTS)
                .filter(|&i| self.blocks[i].pointer != 0)
                .min_by_key(|&i| self.blocks[i].freed_at)
            else {
                break;
            };
            *slot = std::mem::replace(&mut self.blocks[oldest], EMPTY);
            self.bytes -= slot.size;
        }
    }
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

/// A kept block of `layout`'s size and alignment; or, when none is kept, the oldest kept blocks
/// of at least as many bytes in all, moved into `given_back` for the caller to free outside the
/// lock before it asks the system for the block: the system then hands out the pages just freed.
/// (Fresh pages cost more: on a 2-core virtual machine, the first of two 10000² f32 products
/// after an 800 MB temporary was kept took 15.7–17.2 s against NumPy's 13.0–14.1 s, and
/// 13.0–14.5 s with kept blocks given back, the process's system time 3.2–4.7 s against
/// 9.4–13.3 s.)
fn take(layout: Layout, given_back: &mut [Block; SLOTS]) -> Option<*mut u8> {
    let mut kept = KEPT.lock().ok()?;
    let slot = kept.blocks.iter().position(|block| {
        block.pointer != 0 && block.size == layout.size() && block.align == layout.align()
    });
    let Some(slot) = slot else {
        let before = kept.bytes;
        kept.give_up_oldest(given_back, |kept| before - kept.bytes < layout.size());
        return None;
    };
    let block = std::mem::replace(&mut kept.blocks[slot], EMPTY);
    kept.bytes -= block.size;
    Some(block.pointer as *mut u8)
}

/// Frees blocks taken out of the kept ones (empty slots are skipped).
///
/// # Safety
/// Each block came from `System` with its size and alignment, and nothing uses it.
unsafe fn give_back(blocks: &[Block; SLOTS]) {
    for block in blocks.iter().filter(|block| block.pointer != 0) {
        let layout = Layout::from_size_align_unchecked(block.size, block.align);
        System.dealloc(block.pointer as *mut u8, layout);
    }
}

/// A kept block of `layout`'s size and alignment, or `None` once the oldest kept blocks are given
/// back (`take`).
///
/// # Safety
/// As `give_back`: kept blocks are in no one's use.
unsafe fn reuse(layout: Layout) -> Option<*mut u8> {
    let mut given_back = [EMPTY; SLOTS];
    let block = take(layout, &mut given_back);
    give_back(&given_back);
    block
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
    kept.give_up_oldest(evicted, |kept| {
        let full = kept.blocks.iter().all(|block| block.pointer != 0);
        full || kept.bytes + layout.size() > MAX_KEPT_BYTES
    });
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

/// Blocks of up to this many bytes, aligned to at most 16, are small: each is allocated with the
/// size of its 16-byte class, so any block of a class serves any request of the class.
const SMALL: usize = 256;
const SMALL_ALIGN: usize = 16;
const CLASSES: usize = SMALL / SMALL_ALIGN;
/// Freed blocks kept per class and thread.
const SMALL_KEPT: u8 = 32;

/// A thread's freed small blocks: a list per class, linked through the blocks' first word.
struct SmallBlocks {
    heads: [*mut u8; CLASSES],
    counts: [u8; CLASSES],
}

thread_local! {
    /// No destructor, so reaching it never allocates (this is the allocator).
    static SMALL_BLOCKS: UnsafeCell<SmallBlocks> = const {
        UnsafeCell::new(SmallBlocks { heads: [std::ptr::null_mut(); CLASSES], counts: [0; CLASSES] })
    };
    /// Gives a finished thread's kept blocks back (registered when the thread first frees one).
    static RETURN_AT_EXIT: ReturnAtExit = const { ReturnAtExit };
}

struct ReturnAtExit;

impl Drop for ReturnAtExit {
    fn drop(&mut self) {
        let _ = SMALL_BLOCKS.try_with(|blocks| {
            // SAFETY: only this thread reaches its lists, and nothing else runs on it meanwhile.
            let blocks = unsafe { &mut *blocks.get() };
            for class in 0..CLASSES {
                while let Some(block) = pop(blocks, class) {
                    // SAFETY: kept blocks came from `System` with their class's layout.
                    unsafe { System.dealloc(block, class_layout(class)) };
                }
            }
        });
    }
}

/// The class of a small layout.
#[inline]
fn small_class(layout: Layout) -> Option<usize> {
    (layout.size() <= SMALL && layout.align() <= SMALL_ALIGN)
        .then(|| layout.size().saturating_sub(1) / SMALL_ALIGN)
}

#[inline]
fn class_layout(class: usize) -> Layout {
    // SAFETY: a non-zero multiple of 16 with alignment 16.
    unsafe { Layout::from_size_align_unchecked((class + 1) * SMALL_ALIGN, SMALL_ALIGN) }
}

#[inline]
fn pop(blocks: &mut SmallBlocks, class: usize) -> Option<*mut u8> {
    let block = blocks.heads[class];
    if block.is_null() {
        return None;
    }
    // SAFETY: a kept block holds the next block's address in its first word.
    blocks.heads[class] = unsafe { (block as *mut *mut u8).read() };
    blocks.counts[class] -= 1;
    Some(block)
}

/// A kept block of `class`, or a new one from `System`.
#[inline]
fn take_small(class: usize) -> *mut u8 {
    let kept = SMALL_BLOCKS.try_with(|blocks| {
        // SAFETY: only this thread reaches its lists, and no call here re-enters the allocator.
        pop(unsafe { &mut *blocks.get() }, class)
    });
    match kept {
        Ok(Some(block)) => block,
        // SAFETY: a class layout has a non-zero size.
        _ => unsafe { System.alloc(class_layout(class)) },
    }
}

/// Keeps a freed block of `class` on this thread's list, or gives it back when the list is full
/// or the thread is ending (its blocks already given back: one kept now would be lost).
#[inline]
fn keep_small(block: *mut u8, class: usize) {
    let ending = RETURN_AT_EXIT.try_with(|_| ()).is_err();
    let kept = !ending
        && SMALL_BLOCKS
            .try_with(|blocks| {
                // SAFETY: as in `take_small`.
                let blocks = unsafe { &mut *blocks.get() };
                if blocks.counts[class] >= SMALL_KEPT {
                    return false;
                }
                // SAFETY: the block is at least 16 bytes, aligned to 16, and no longer in use.
                unsafe { (block as *mut *mut u8).write(blocks.heads[class]) };
                blocks.heads[class] = block;
                blocks.counts[class] += 1;
                true
            })
            .unwrap_or(false);
    if !kept {
        // SAFETY: the block came from `System` with its class's layout.
        unsafe { System.dealloc(block, class_layout(class)) };
    }
}

// SAFETY: every block comes from `System` and goes back to it, or is handed out again for a
// layout of exactly the size and alignment it was allocated with (large blocks) or for one of
// its size class (small blocks, allocated with the class's size and alignment).
unsafe impl GlobalAlloc for RetainLarge {
    #[inline]
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        if let Some(class) = small_class(layout) {
            return take_small(class);
        }
        if layout.size() >= LARGE {
            if let Some(p) = reuse(layout) {
                return p;
            }
        }
        System.alloc(layout)
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        if let Some(class) = small_class(layout) {
            let block = take_small(class);
            if !block.is_null() {
                std::ptr::write_bytes(block, 0, layout.size());
            }
            return block;
        }
        if layout.size() >= LARGE {
            if let Some(p) = reuse(layout) {
                std::ptr::write_bytes(p, 0, layout.size());
                return p;
            }
        }
        System.alloc_zeroed(layout)
    }

    #[inline]
    unsafe fn dealloc(&self, pointer: *mut u8, layout: Layout) {
        if let Some(class) = small_class(layout) {
            return keep_small(pointer, class);
        }
        if layout.size() < LARGE {
            return System.dealloc(pointer, layout);
        }
        let mut evicted = [EMPTY; SLOTS];
        if keep(pointer, layout, &mut evicted) {
            return give_back(&evicted);
        }
        System.dealloc(pointer, layout)
    }

    unsafe fn realloc(&self, pointer: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        let new_layout = Layout::from_size_align_unchecked(new_size, layout.align());
        let class = small_class(layout);
        if class.is_some() && class == small_class(new_layout) {
            return pointer;
        }
        let new = self.alloc(new_layout);
        if !new.is_null() {
            std::ptr::copy_nonoverlapping(pointer, new, layout.size().min(new_size));
            self.dealloc(pointer, layout);
        }
        new
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_most_recently_freed_blocks_are_kept_and_a_miss_gives_back_the_oldest() {
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
        // Kept: blocks of 2 to 5 × LARGE. A miss of 3 × LARGE + 1 gives back the two oldest.
        let mut given_back = [EMPTY; SLOTS];
        let missing = Layout::from_size_align(LARGE * 3 + 1, 64).expect("a layout");
        assert_eq!(take(missing, &mut given_back), None);
        let given: Vec<usize> = given_back.iter().map(|block| block.pointer).collect();
        assert_eq!(given, [pointers[1] as usize, pointers[2] as usize, 0, 0]);
        // SAFETY: the given-back blocks came from `System` and nothing uses them.
        unsafe { give_back(&given_back) };
        let mut given_back = [EMPTY; SLOTS];
        for (&pointer, &layout) in pointers.iter().zip(&layouts).skip(3) {
            assert_eq!(take(layout, &mut given_back), Some(pointer));
            // SAFETY: allocated above with this layout, and no longer kept.
            unsafe { System.dealloc(pointer, layout) };
        }
        assert_eq!(kept_bytes(), 0);
        assert!(given_back.iter().all(|block| block.pointer == 0));
    }

    #[test]
    fn a_freed_small_block_serves_any_size_of_its_class() {
        let allocator = RetainLarge;
        let small = |size| Layout::from_size_align(size, 8).expect("a layout");
        // SAFETY: each block is used within its layout and freed with the layout it was given.
        unsafe {
            let first = allocator.alloc(small(40));
            first.write_bytes(7, 40);
            allocator.dealloc(first, small(40));
            let again = allocator.alloc(small(48));
            assert_eq!(again, first, "a block of the 33–48 byte class comes back");
            again.write_bytes(7, 48);
            let grown = allocator.realloc(again, small(48), 34);
            assert_eq!(
                grown, again,
                "a reallocation within the class keeps the block"
            );
            allocator.dealloc(grown, small(34));
            let zeroed = allocator.alloc_zeroed(small(47));
            assert_eq!(zeroed, first);
            assert!(std::slice::from_raw_parts(zeroed, 47)
                .iter()
                .all(|&b| b == 0));
            let moved = allocator.realloc(zeroed, small(47), 300);
            assert_ne!(moved, zeroed, "past the small sizes, a new block");
            assert!(std::slice::from_raw_parts(moved, 47)
                .iter()
                .all(|&b| b == 0));
            allocator.dealloc(moved, small(300));
        }
    }

    #[test]
    fn a_thread_keeps_a_bounded_number_of_small_blocks() {
        let allocator = RetainLarge;
        let layout = Layout::from_size_align(16, 16).expect("a layout");
        // SAFETY: the blocks are freed once, with the layout they were allocated with.
        let kept = std::thread::spawn(move || unsafe {
            let blocks: Vec<usize> = (0..2 * SMALL_KEPT as usize)
                .map(|_| allocator.alloc(layout) as usize)
                .collect();
            for &block in &blocks {
                allocator.dealloc(block as *mut u8, layout);
            }
            SMALL_BLOCKS.with(|b| (*b.get()).counts[0])
        })
        .join()
        .expect("the thread");
        assert_eq!(kept, SMALL_KEPT);
    }
}
