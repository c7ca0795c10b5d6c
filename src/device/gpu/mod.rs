//! The gpu device, through the CUDA driver API (cudarc, libraries loaded at run time): a context
//! made on first use (`driver`), pooled device memory and counted copies (`memory`), the kernels
//! of `kernels/*.cu` compiled by NVRTC and cached on disk (`modules`, argument layout in `abi`),
//! cuBLAS (`blas`), cuRAND (`random`), cuFFT (`fft`) and cuSOLVER (`solver`, `batched`). Nothing here panics when CUDA is missing: `gpu()`
//! returns an error that says why.

pub mod abi;
pub mod batched;
pub mod blas;
mod driver;
pub mod fft;
pub mod memory;
pub mod modules;
pub mod random;
pub mod solver;

pub use driver::{begin_measure, end_measure, gpu, losses, started, Gpu};
pub use memory::GpuBuffer;

use crate::error::Result;

/// `Ok` when the gpu can be used (creating its context), else why not.
pub fn availability() -> Result<()> {
    gpu().map(|_| ())
}

/// The gpu's name (`NVIDIA H200`), or why there is none, without starting it.
pub fn name() -> Result<String> {
    driver::probe_name()
}

/// What `:device` shows for the gpu: its properties, or why it is unavailable.
pub fn describe() -> String {
    match gpu() {
        Ok(g) => {
            let (free, total) = g.memory_info();
            let (nvrtc_major, nvrtc_minor) = modules::nvrtc_version();
            let driver = kernel_driver_version()
                .map(|v| format!("driver {v}, "))
                .unwrap_or_default();
            format!(
                "{}, compute capability {}.{}, {} multiprocessors, memory {} used of {}, {}CUDA {} (driver API), NVRTC {}.{}",
                g.name,
                g.compute_capability.0,
                g.compute_capability.1,
                g.multiprocessors,
                crate::base::human_bytes((total - free) as f64),
                crate::base::human_bytes(total as f64),
                driver,
                Gpu::version_text(g.driver_version),
                nvrtc_major,
                nvrtc_minor
            )
        }
        Err(e) => e.message.clone(),
    }
}

/// The NVIDIA kernel driver's version (`580.65.06`), from the kernel module's own report.
fn kernel_driver_version() -> Option<String> {
    let text = std::fs::read_to_string("/proc/driver/nvidia/version").ok()?;
    let line = text.lines().next()?;
    line.split_whitespace()
        .find(|w| w.chars().next().is_some_and(|c| c.is_ascii_digit()) && w.contains('.'))
        .map(str::to_string)
}

/// Bytes of device memory that live gpu buffers hold now (after queued work and frees have run),
/// or `None` if this session has not used the gpu.
pub fn memory_in_use() -> Result<Option<u64>> {
    match started() {
        Some(g) => {
            g.synchronize()?;
            g.pool_used_bytes().map(Some)
        }
        None => Ok(None),
    }
}

/// Waits for queued gpu work, if this session has used the gpu at all.
pub fn synchronize() -> Result<()> {
    match started() {
        Some(g) => g.synchronize(),
        None => Ok(()),
    }
}
