//! Host memory for both devices: vectors that ask for huge pages, and the check that refuses an
//! allocation the machine cannot hold before it is tried (so it is an error, not an abort).

use std::sync::atomic::{AtomicU64, Ordering};

use crate::base::human_bytes;
use crate::error::{memory_error, Result};

/// An empty vector with room for `len` elements. Large buffers ask the kernel for huge pages
/// (as NumPy does): first-touch page faults otherwise cost more than the arithmetic, and the
/// misses of a small-page TLB slow the matrix products.
pub fn vec_with_capacity<T>(len: usize) -> Vec<T> {
    let v: Vec<T> = Vec::with_capacity(len);
    advise_huge_pages(&v);
    v
}

/// `vec_with_capacity`, or `None` when the allocator refuses (instead of aborting).
pub fn try_vec_with_capacity<T>(len: usize) -> Option<Vec<T>> {
    let mut v: Vec<T> = Vec::new();
    v.try_reserve_exact(len).ok()?;
    advise_huge_pages(&v);
    Some(v)
}

/// Asks for huge pages for the whole 2 MiB pages inside `v`'s allocation. From one page, not
/// NumPy's 4 MiB: a 1000² f32 array (4 MB) then has one, and one-thread 1000² f32 products on a
/// 2-core Intel Xeon took 0.98× the time they took on small pages (medians of 34 processes, 15.23
/// ms against 15.55), the slowest process 15.97 ms against 18.24 (5 over 16 ms before, none after).
fn advise_huge_pages<T>(v: &Vec<T>) {
    let bytes = v.capacity() * std::mem::size_of::<T>();
    const HUGE_PAGE: usize = 2 << 20;
    let start = (v.as_ptr() as usize).next_multiple_of(HUGE_PAGE);
    let end = (v.as_ptr() as usize + bytes) / HUGE_PAGE * HUGE_PAGE;
    if end > start {
        // SAFETY: the range lies inside this vector's allocation; madvise only changes how
        // the kernel backs it and fails harmlessly where huge pages are unavailable.
        unsafe {
            libc::madvise(start as *mut libc::c_void, end - start, libc::MADV_HUGEPAGE);
        }
    }
}

/// What one allocation may take, in bytes; 0 means the machine's physical memory.
static MEMORY_LIMIT: AtomicU64 = AtomicU64::new(0);

/// Caps what one array or string may take (the fuzz targets keep their inputs small this way).
pub fn set_memory_limit(bytes: u64) {
    MEMORY_LIMIT.store(bytes, Ordering::Relaxed);
}

/// Refuses `bytes` of host memory for `what` (named in the message, made only for a refusal)
/// when the machine cannot hold them. Large requests are held against the memory available
/// now: Linux grants more than it has and the out-of-memory killer ends the process later, when
/// the pages are touched.
pub fn check_memory(bytes: u128, what: impl FnOnce() -> String) -> Result<()> {
    const CHECK_AVAILABLE_FROM: u128 = 64 << 20;
    let refuse = |reason: String| {
        Err(memory_error(format!(
            "cannot allocate {} for {}: {reason}",
            human_bytes(bytes as f64),
            what()
        )))
    };
    let limit = MEMORY_LIMIT.load(Ordering::Relaxed);
    if limit != 0 && bytes > limit as u128 {
        return refuse(format!("the limit is {}", human_bytes(limit as f64)));
    }
    // Small requests (every string concatenation in a loop) cost nothing here.
    if bytes < CHECK_AVAILABLE_FROM {
        return Ok(());
    }
    let physical = physical_memory_bytes();
    if bytes > physical as u128 {
        return refuse(format!(
            "the machine has {} of memory",
            human_bytes(physical as f64)
        ));
    }
    if let Some(available) = available_memory_bytes() {
        if bytes > available as u128 {
            return refuse(format!(
                "{} of the machine's {} is available",
                human_bytes(available as f64),
                human_bytes(physical as f64)
            ));
        }
    }
    Ok(())
}

fn physical_memory_bytes() -> u64 {
    static PHYSICAL: std::sync::OnceLock<u64> = std::sync::OnceLock::new();
    *PHYSICAL.get_or_init(|| {
        // SAFETY: sysconf only reads system configuration.
        let (pages, page_size) = unsafe {
            (
                libc::sysconf(libc::_SC_PHYS_PAGES),
                libc::sysconf(libc::_SC_PAGESIZE),
            )
        };
        if pages > 0 && page_size > 0 {
            pages as u64 * page_size as u64
        } else {
            1 << 46
        }
    })
}

/// The kernel's estimate of memory a new allocation can use, plus freed blocks this process
/// keeps for reuse.
fn available_memory_bytes() -> Option<u64> {
    let meminfo = std::fs::read_to_string("/proc/meminfo").ok()?;
    let line = meminfo.lines().find(|l| l.starts_with("MemAvailable:"))?;
    let kib: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kib * 1024 + super::cpu::retain::kept_bytes() as u64)
}
