//! The devices an array can live on. `cpu` computes with ndarray and rayon; `gpu` is the CUDA
//! device. Every host↔device copy and kernel launch is counted in `crate::stats` where it happens.

pub mod cpu;
pub mod gpu;

use std::fmt;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Device {
    Cpu,
    Gpu,
}

impl Device {
    pub fn name(self) -> &'static str {
        match self {
            Device::Cpu => "cpu",
            Device::Gpu => "gpu",
        }
    }
}

impl fmt::Display for Device {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Waits until every device has finished the work queued so far (the cpu never queues any).
/// An error here is a failure of earlier gpu work (a kernel fault), reported when it surfaces.
pub fn synchronize() -> crate::error::Result<()> {
    gpu::synchronize()
}
