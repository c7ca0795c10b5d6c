//! The cpu's worker threads: how many there are (`:threads`, `--threads`), and
//! the pool every parallel loop of the cpu runs in.
//!
//! rayon's global pool, one thread a core, serves by default. A smaller or
//! larger count is a pool of its own, which `install` enters: rayon cannot
//! resize its global pool, and the interpreter cannot move to a pool's thread
//! (its state is not `Send`), so each parallel loop enters the pool itself.
//! The setting is the process's, as OpenBLAS's thread count is NumPy's.
//! Where the threads run is `pinning`'s.

mod pinning;

use pinning::Placement;
pub use pinning::{cores, placed};
use rayon::{ThreadPool, ThreadPoolBuilder};
use std::cell::Cell;
use std::sync::{Arc, Mutex, OnceLock, PoisonError};

/// The pool set by `set`, or `None` for rayon's global one.
static POOL: Mutex<Option<Arc<ThreadPool>>> = Mutex::new(None);

/// A pool of `--threads N` that the interpreter's thread is one of (`set_with_this_thread`), kept
/// for the process: a thread cannot leave a pool, nor join another.
static JOINED: OnceLock<Arc<ThreadPool>> = OnceLock::new();

/// Sets the worker threads: `Some(n)` (n ≥ 1), or `None` for one a core.
pub fn set(count: Option<usize>) -> Result<(), String> {
    let wanted = match count {
        Some(0) => return Err("the thread count must be at least 1".to_string()),
        Some(n) => n,
        None => global_count(),
    };
    let pool = match JOINED.get() {
        Some(joined) if joined.current_num_threads() == wanted => Some(joined.clone()),
        None if wanted == global_count() => None,
        // A thread in a pool runs its parallel loops there: once the interpreter's thread has
        // joined one, the global pool is not reachable from it, so any other count is a pool of
        // its own.
        _ => Some(Arc::new(pool("arrsh-cpu", wanted, false)?)),
    };
    *POOL.lock().unwrap_or_else(PoisonError::into_inner) = pool;
    Ok(())
}

/// `set(Some(count))` for `--threads`, before any parallel loop, with the calling thread (the
/// interpreter's) one of the `count` when they are not one a core (those are the global pool's,
/// `join_global_pool_from_this_thread`). With `--threads 1`, work then runs on the interpreter's
/// thread instead of being handed to a worker and back: on 2 cores a 200² f64 product took 300 µs
/// against 326–346 µs, a 500² f32 one 2.33–2.43 ms against 2.42–2.47 ms.
/// Only this thread may begin work in that pool, or it would wait for this thread's next loop.
pub fn set_with_this_thread(count: usize) -> Result<(), String> {
    if count == 0 || count == global_count() || JOINED.get().is_some() {
        return set(Some(count));
    }
    match pool("arrsh-cpu", count, true) {
        // `set` never leaves `POOL` empty from now on, so the global pool is never joined.
        Ok(joined) => {
            let joined = JOINED.get_or_init(|| Arc::new(joined)).clone();
            *POOL.lock().unwrap_or_else(PoisonError::into_inner) = Some(joined);
            Ok(())
        }
        // Already in a pool: one of its own, as `:threads` makes.
        Err(_) => set(Some(count)),
    }
}

/// How many worker threads parallel loops use.
pub fn count() -> usize {
    current().map_or_else(global_count, |pool| pool.current_num_threads())
}

/// How many threads a parallel loop gets, asked of the pool it runs in (for `:threads`; `count`
/// is the same without entering a pool).
pub fn in_use() -> usize {
    install(rayon::current_num_threads)
}

/// The threads of rayon's global pool (one a core, unless `RAYON_NUM_THREADS` says otherwise),
/// by rayon's own rule, without starting the pool.
/// Found once: the cores available read cgroup files, too slow for every matrix product.
fn global_count() -> usize {
    static COUNT: OnceLock<usize> = OnceLock::new();
    *COUNT.get_or_init(|| {
        let variable = |name: &str| -> Option<usize> { std::env::var(name).ok()?.parse().ok() };
        match variable("RAYON_NUM_THREADS") {
            Some(n @ 1..) => n,
            Some(0) => cores(),
            _ => variable("RAYON_RS_NUM_CPUS")
                .filter(|&n| n > 0)
                .unwrap_or_else(cores),
        }
        .min(rayon::max_num_threads())
    })
}

thread_local! {
    /// Whether this thread joins the global pool when it first runs a parallel loop there.
    static JOINS: Cell<bool> = const { Cell::new(false) };
}

/// Makes the calling thread, the interpreter's, one of the global pool's threads (rayon then starts
/// one fewer) when it first runs a parallel loop there: its loops then start on it at once, their
/// parts waiting where idle workers take them, where a loop begun outside the pool is handed to a
/// sleeping worker while the caller sleeps until woken at its end, two wake-ups a loop. On 2
/// cores, a 200² f64 product took 186 µs against 198 µs. Not at once: a script that runs no
/// parallel loop starts no threads. Only this thread should then begin work in the global pool,
/// as the binary's interpreter does: it runs pool work only while it waits for its own, so another
/// thread's `rayon::broadcast` would wait for it. With one thread, nothing changes: the pool would
/// be this thread alone, and no other could run its work.
pub fn join_global_pool_from_this_thread() {
    JOINS.set(true);
}

/// Starts rayon's global pool at the first parallel loop there, its threads placed
/// (`Placement`), the calling thread one of them if it asked (`join_global_pool_from_this_thread`).
fn start_global_pool() {
    static STARTED: OnceLock<()> = OnceLock::new();
    STARTED.get_or_init(|| {
        let threads = global_count();
        let joins = JOINS.replace(false) && threads >= 2;
        let (builder, placement) = placed_builder(threads, joins);
        // Fails only if the pool already started, which leaves the loops as they were.
        if builder.build_global().is_ok() && joins {
            placement.join();
        }
    });
}

/// Runs `op` in the workers' pool, so that its parallel loops use the set count.
pub fn install<R: Send>(op: impl FnOnce() -> R + Send) -> R {
    match current() {
        Some(pool) => pool.install(op),
        None => {
            start_global_pool();
            op()
        }
    }
}

/// Runs `op` in a pool of at most `most` threads: the workers' pool when it has no more, else a
/// pool of `most` kept for the purpose (or the workers' pool if it cannot start). For work that
/// measured slower on more threads than `most`.
pub fn install_at_most<R: Send>(most: usize, op: impl FnOnce() -> R + Send) -> R {
    static CAPPED: Mutex<Option<(usize, Arc<ThreadPool>)>> = Mutex::new(None);
    if count() <= most {
        return install(op);
    }
    let capped = {
        let mut capped = CAPPED.lock().unwrap_or_else(PoisonError::into_inner);
        match &*capped {
            Some((n, pool)) if *n == most => Some(pool.clone()),
            _ => pool("arrsh-cpu-capped", most, false).ok().map(|pool| {
                let pool = Arc::new(pool);
                *capped = Some((most, pool.clone()));
                pool
            }),
        }
    };
    match capped {
        Some(pool) => pool.install(op),
        None => install(op),
    }
}

/// A pool of `threads` threads named `name-k`, the calling thread one of them when `with_this_thread`.
fn pool(name: &'static str, threads: usize, with_this_thread: bool) -> Result<ThreadPool, String> {
    let (builder, placement) = placed_builder(threads, with_this_thread);
    let pool = builder
        .thread_name(move |k| format!("{name}-{k}"))
        .build()
        .map_err(|e| format!("cannot start {threads} threads: {e}"))?;
    if with_this_thread {
        placement.join();
    }
    Ok(pool)
}

/// A pool of `threads` whose workers place themselves (`Placement`), the calling thread one of
/// them when `with_this_thread` (which, once the pool is built, `Placement::join` places).
fn placed_builder(threads: usize, with_this_thread: bool) -> (ThreadPoolBuilder, Placement) {
    let placement = Placement::of_pool(threads);
    let builder = ThreadPoolBuilder::new()
        .num_threads(threads)
        .start_handler(move |index| placement.start_worker(index));
    let builder = if with_this_thread {
        builder.use_current_thread()
    } else {
        builder
    };
    (builder, placement)
}

fn current() -> Option<Arc<ThreadPool>> {
    POOL.lock().unwrap_or_else(PoisonError::into_inner).clone()
}

#[cfg(test)]
mod tests {
    #[test]
    fn the_global_count_is_rayons() {
        assert_eq!(super::global_count(), rayon::current_num_threads());
    }

    #[test]
    fn capped_work_runs_on_at_most_its_threads() {
        let most = super::count().saturating_sub(1).max(1);
        let threads = super::install_at_most(most, rayon::current_num_threads);
        assert_eq!(threads, most.min(super::count()));
        let all = super::install_at_most(super::count(), rayon::current_num_threads);
        assert_eq!(all, super::count());
    }
}
