//! The devices an array can live on. `cpu` keeps elements in host memory; `gpu` is the CUDA
//! device. Every host↔device copy and kernel launch is counted in `crate::stats` where it happens.

pub mod cpu;
pub mod gpu;
pub mod host;

use std::fmt;

use crate::base::{human_bytes, DType};
use crate::error::{memory_error, Result};
pub use cpu::CpuBuffer;
pub use gpu::GpuBuffer;

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

/// Elements of one dtype on one device. Clones share the allocation (views of one array).
#[derive(Clone, Debug)]
pub enum Buffer {
    Cpu(CpuBuffer),
    Gpu(GpuBuffer),
}

impl Buffer {
    /// A new buffer of `len` elements whose contents are written before they are read.
    pub fn alloc(device: Device, len: usize, dtype: DType) -> Result<Buffer> {
        check_allocation(device, len, dtype)?;
        Ok(match device {
            Device::Cpu => Buffer::Cpu(CpuBuffer::uninit(dtype, len)),
            Device::Gpu => Buffer::Gpu(gpu::gpu()?.alloc(len, dtype)?),
        })
    }

    pub fn dtype(&self) -> DType {
        match self {
            Buffer::Cpu(b) => b.dtype(),
            Buffer::Gpu(b) => b.dtype(),
        }
    }

    pub fn device(&self) -> Device {
        match self {
            Buffer::Cpu(_) => Device::Cpu,
            Buffer::Gpu(_) => Device::Gpu,
        }
    }

    pub fn len(&self) -> usize {
        match self {
            Buffer::Cpu(b) => b.len(),
            Buffer::Gpu(b) => b.elements(),
        }
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    pub fn cpu(&self) -> Option<&CpuBuffer> {
        match self {
            Buffer::Cpu(b) => Some(b),
            Buffer::Gpu(_) => None,
        }
    }

    pub fn gpu(&self) -> Option<&GpuBuffer> {
        match self {
            Buffer::Gpu(b) => Some(b),
            Buffer::Cpu(_) => None,
        }
    }

    pub fn same_buffer(&self, other: &Buffer) -> bool {
        match (self, other) {
            (Buffer::Cpu(a), Buffer::Cpu(b)) => a.same_buffer(b),
            (Buffer::Gpu(a), Buffer::Gpu(b)) => a.same_buffer(b),
            _ => false,
        }
    }

    pub fn strong_count(&self) -> usize {
        match self {
            Buffer::Cpu(b) => b.strong_count(),
            Buffer::Gpu(b) => b.strong_count(),
        }
    }

    /// The generation of the gpu context these elements were lost with, if they were.
    pub fn lost_generation(&self) -> Option<u32> {
        match self {
            Buffer::Cpu(_) => None,
            Buffer::Gpu(b) => b.lost_generation(),
        }
    }
}

/// Refuses an array of `elements` of `dtype` that `device` cannot hold, before trying.
pub fn check_allocation(device: Device, elements: usize, dtype: DType) -> Result<()> {
    let bytes = elements as u128 * dtype.size() as u128;
    match device {
        Device::Cpu => {
            host::check_memory(bytes, || format!("an array of {elements} {dtype} elements"))
        }
        Device::Gpu => {
            let total = gpu::gpu()?.total_memory as u128;
            if total > 0 && bytes > total {
                return Err(memory_error(format!(
                    "cannot allocate {} on the gpu: it has {} of memory",
                    human_bytes(bytes as f64),
                    human_bytes(total as f64)
                )));
            }
            Ok(())
        }
    }
}

/// Waits until every device has finished the work queued so far (the cpu never queues any).
/// An error here is a failure of earlier gpu work (a kernel fault), reported when it surfaces.
pub fn synchronize() -> Result<()> {
    gpu::synchronize()
}
