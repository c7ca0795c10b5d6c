//! Counters of what crosses between host and device: the one place every copy, launch,
//! allocation and synchronization is recorded, where it happens. On the cpu they stay zero.

use std::cell::Cell;
use std::ops::Sub;

#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Counters {
    pub h2d_count: u64,
    pub h2d_bytes: u64,
    pub h2d_seconds: f64,
    pub d2h_count: u64,
    pub d2h_bytes: u64,
    pub d2h_seconds: f64,
    pub kernels: u64,
    pub allocations: u64,
    pub allocated_bytes: u64,
    pub syncs: u64,
    /// Time the device spent executing work, measured with device events.
    pub device_seconds: f64,
    /// Elements the launched kernels covered (for "arrays too small for the gpu" hints).
    pub kernel_elements: u64,
    /// One-time gpu set-up paid here: context creation, kernel compilation and loading.
    pub setup_seconds: f64,
    /// Passes over memory that plans ran on the cpu (the gpu's are kernels).
    pub cpu_passes: u64,
}

impl Sub for Counters {
    type Output = Counters;
    fn sub(self, earlier: Counters) -> Counters {
        Counters {
            h2d_count: self.h2d_count - earlier.h2d_count,
            h2d_bytes: self.h2d_bytes - earlier.h2d_bytes,
            h2d_seconds: self.h2d_seconds - earlier.h2d_seconds,
            d2h_count: self.d2h_count - earlier.d2h_count,
            d2h_bytes: self.d2h_bytes - earlier.d2h_bytes,
            d2h_seconds: self.d2h_seconds - earlier.d2h_seconds,
            kernels: self.kernels - earlier.kernels,
            allocations: self.allocations - earlier.allocations,
            allocated_bytes: self.allocated_bytes - earlier.allocated_bytes,
            syncs: self.syncs - earlier.syncs,
            device_seconds: self.device_seconds - earlier.device_seconds,
            kernel_elements: self.kernel_elements - earlier.kernel_elements,
            setup_seconds: self.setup_seconds - earlier.setup_seconds,
            cpu_passes: self.cpu_passes - earlier.cpu_passes,
        }
    }
}

impl std::ops::AddAssign for Counters {
    fn add_assign(&mut self, other: Counters) {
        self.h2d_count += other.h2d_count;
        self.h2d_bytes += other.h2d_bytes;
        self.h2d_seconds += other.h2d_seconds;
        self.d2h_count += other.d2h_count;
        self.d2h_bytes += other.d2h_bytes;
        self.d2h_seconds += other.d2h_seconds;
        self.kernels += other.kernels;
        self.allocations += other.allocations;
        self.allocated_bytes += other.allocated_bytes;
        self.syncs += other.syncs;
        self.device_seconds += other.device_seconds;
        self.kernel_elements += other.kernel_elements;
        self.setup_seconds += other.setup_seconds;
        self.cpu_passes += other.cpu_passes;
    }
}

thread_local! {
    static SESSION: Cell<Counters> = Cell::new(Counters::default());
}

/// The session's totals so far; subtract two readings to get what happened in between.
pub fn session() -> Counters {
    SESSION.with(Cell::get)
}

pub fn reset() {
    SESSION.with(|c| c.set(Counters::default()));
}

fn update(change: impl FnOnce(&mut Counters)) {
    SESSION.with(|c| {
        let mut counters = c.get();
        change(&mut counters);
        c.set(counters);
    });
}

pub fn record_host_to_device(bytes: u64, seconds: f64) {
    update(|c| {
        c.h2d_count += 1;
        c.h2d_bytes += bytes;
        c.h2d_seconds += seconds;
    });
}

pub fn record_device_to_host(bytes: u64, seconds: f64) {
    update(|c| {
        c.d2h_count += 1;
        c.d2h_bytes += bytes;
        c.d2h_seconds += seconds;
    });
}

/// One kernel launch (or library call) over `elements` elements.
pub fn record_kernel(elements: u64) {
    update(|c| {
        c.kernels += 1;
        c.kernel_elements += elements;
    });
}

pub fn record_cpu_pass() {
    update(|c| c.cpu_passes += 1);
}

pub fn record_setup(seconds: f64) {
    update(|c| c.setup_seconds += seconds);
}

pub fn record_allocation(bytes: u64) {
    update(|c| {
        c.allocations += 1;
        c.allocated_bytes += bytes;
    });
}

pub fn record_sync() {
    update(|c| c.syncs += 1);
}

pub fn record_device_time(seconds: f64) {
    update(|c| c.device_seconds += seconds);
}
