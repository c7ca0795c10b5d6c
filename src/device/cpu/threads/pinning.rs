//! Where the pools' threads run. A pool with a thread for every cpu the process may use pins
//! each worker to one of them, and the thread that joined it (the interpreter's) to the one left
//! while it runs a matrix product there (`placed`).
//!
//! Left to the system, the interpreter's thread and a woken worker shared one core while the
//! other sat idle, on a 2-core virtual machine for tens of milliseconds at a time: in
//! `bench/matmul_rounds.py --alternate`, 500² f32 products on both threads took 1.1 ms each (one
//! thread's time) instead of 0.57 ms in 30–40 of 40 products of some turns, and products of 500²
//! to 2000² took 1.0–1.9× NumPy's time against 0.96–1.02× pinned. Pinning the workers alone left
//! the interpreter's thread free to join one on its core. That thread is pinned only while a
//! product runs (3.4 µs there to pin and free it): pinned for good, two processes side by side
//! whose pools had started on the same cpu ran their serial work on that one cpu, each at half
//! speed. A pool of fewer threads than cpus is left free, so that several such processes spread
//! out; its threads, started by a pinned worker, would otherwise begin pinned with it.

use std::cell::Cell;
use std::sync::OnceLock;

thread_local! {
    /// The cpu this thread, thread 0 of a pinned pool it joined, runs on within `placed`.
    static HOME: Cell<Option<usize>> = const { Cell::new(None) };
}

/// The cores the process may use, as std counts them (its cpus, or fewer where a cgroup's quota
/// says so), found before any of its threads was pinned to one.
pub fn cores() -> usize {
    static CORES: OnceLock<usize> = OnceLock::new();
    *CORES.get_or_init(|| std::thread::available_parallelism().map_or(1, |n| n.get()))
}

/// Runs `op` with the calling thread on its cpu when it joined a pinned pool (`Placement::join`),
/// and free to run anywhere again after.
pub fn placed<R>(op: impl FnOnce() -> R) -> R {
    let Some(cpu) = HOME.get() else {
        return op();
    };
    struct Free;
    impl Drop for Free {
        fn drop(&mut self) {
            run_on(process_cpus());
        }
    }
    run_on(&[cpu]);
    let _free = Free;
    op()
}

/// Where a pool's threads run: thread `i` of a pool with a thread for every cpu, on cpu
/// `first + i` of the process's (round), the first the one its starting thread was on, so that
/// processes whose interpreters run on different cpus keep them there.
#[derive(Clone, Copy)]
pub(super) struct Placement {
    threads: usize,
    first: usize,
}

impl Placement {
    /// For a pool of `threads` that the calling thread is about to start.
    pub(super) fn of_pool(threads: usize) -> Self {
        // Counted now, while the calling thread may still run on every cpu.
        cores();
        let cpus = process_cpus();
        let first = current_cpu()
            .and_then(|on| cpus.iter().position(|&cpu| cpu == on))
            .unwrap_or(0);
        Self { threads, first }
    }

    fn cpu(self, index: usize) -> Option<usize> {
        let cpus = process_cpus();
        let pinned = self.threads >= 2 && self.threads >= cpus.len() && !cpus.is_empty();
        pinned.then(|| cpus[(self.first + index) % cpus.len()])
    }

    /// Places the calling thread, worker `index` of the pool: on its cpu, or free on all.
    pub(super) fn start_worker(self, index: usize) {
        match self.cpu(index) {
            Some(cpu) => run_on(&[cpu]),
            None => run_on(process_cpus()),
        }
    }

    /// Makes the calling thread, the pool's thread 0, run on its cpu within `placed`.
    pub(super) fn join(self) {
        HOME.set(self.cpu(0));
    }
}

/// The cpus the process may use, as they were when a pool first asked (before any thread was
/// pinned).
fn process_cpus() -> &'static [usize] {
    static CPUS: OnceLock<Vec<usize>> = OnceLock::new();
    CPUS.get_or_init(thread_cpus)
}

/// The cpus the calling thread may run on; none where the system does not say.
#[cfg(target_os = "linux")]
fn thread_cpus() -> Vec<usize> {
    // SAFETY: a zeroed `cpu_set_t` is an empty set, which the call fills.
    unsafe {
        let mut set: libc::cpu_set_t = std::mem::zeroed();
        if libc::sched_getaffinity(0, size_of::<libc::cpu_set_t>(), &mut set) != 0 {
            return Vec::new();
        }
        (0..libc::CPU_SETSIZE as usize)
            .filter(|&cpu| libc::CPU_ISSET(cpu, &set))
            .collect()
    }
}

/// Lets the calling thread run only on `cpus` (unless there are none).
#[cfg(target_os = "linux")]
fn run_on(cpus: &[usize]) {
    if cpus.is_empty() {
        return;
    }
    // SAFETY: a zeroed `cpu_set_t` is an empty set; the call only reads it.
    unsafe {
        let mut set: libc::cpu_set_t = std::mem::zeroed();
        for &cpu in cpus {
            libc::CPU_SET(cpu, &mut set);
        }
        libc::sched_setaffinity(0, size_of::<libc::cpu_set_t>(), &set);
    }
}

/// The cpu the calling thread runs on.
#[cfg(target_os = "linux")]
fn current_cpu() -> Option<usize> {
    // SAFETY: no arguments; -1 where the system does not say.
    usize::try_from(unsafe { libc::sched_getcpu() }).ok()
}

#[cfg(not(target_os = "linux"))]
fn thread_cpus() -> Vec<usize> {
    Vec::new()
}

#[cfg(not(target_os = "linux"))]
fn run_on(_cpus: &[usize]) {}

#[cfg(not(target_os = "linux"))]
fn current_cpu() -> Option<usize> {
    None
}

#[cfg(all(test, target_os = "linux"))]
mod tests {
    use super::*;

    /// A pool of `threads`, named as a test's, the calling thread one of them when `join`.
    fn pool(threads: usize, join: bool) -> rayon::ThreadPool {
        super::super::pool("test", threads, join).expect("a pool")
    }

    /// A pool of a thread for each cpu pins one worker to each, and the cores still count all
    /// of them; a pool of fewer threads, even one started by a pinned worker, runs on all.
    #[test]
    fn a_pool_of_every_cpu_pins_a_worker_to_each() {
        let cpus = process_cpus().to_vec();
        assert!(!cpus.is_empty());
        let whole = pool(cpus.len().max(2), false);
        let mut placed = whole.broadcast(|_| thread_cpus());
        assert!(placed.iter().all(|on| on.len() == 1), "{placed:?}");
        placed.sort();
        placed.dedup();
        assert_eq!(placed.concat(), cpus);
        let counted = cores();
        let fewer = whole.install(|| {
            assert_eq!(cores(), counted);
            pool(1, false)
        });
        assert_eq!(fewer.install(thread_cpus), cpus);
    }

    /// The thread that joins a pinned pool runs on the cpu its workers leave it within
    /// `placed`, and anywhere outside; with a pool of one thread, anywhere in both.
    #[test]
    fn the_joining_thread_is_pinned_only_while_placed() {
        let cpus = process_cpus().to_vec();
        std::thread::spawn(move || {
            let whole = pool(cpus.len().max(2), true);
            let workers: Vec<usize> = whole
                .broadcast(|context| (context.index(), thread_cpus()))
                .into_iter()
                .filter(|(index, _)| *index > 0)
                .flat_map(|(_, on)| on)
                .collect();
            let inside = placed(thread_cpus);
            assert_eq!(inside.len(), 1);
            if cpus.len() >= 2 {
                assert!(!workers.contains(&inside[0]), "{workers:?} {inside:?}");
            }
            assert_eq!(thread_cpus(), cpus);
        })
        .join()
        .expect("the pinned pool's thread");
        std::thread::spawn(move || {
            let _one = pool(1, true);
            assert_eq!(placed(thread_cpus), process_cpus());
        })
        .join()
        .expect("the one-thread pool's thread");
    }
}
