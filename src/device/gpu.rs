//! The gpu device. This build has no CUDA backend yet: `GpuBuffer` has no values, so every match
//! on a storage's gpu arm is statically empty, and asking for the gpu explains why it is missing.

use crate::error::{device_error, Result};

/// Device memory holding an array's elements. Uninhabited until the CUDA backend exists.
#[derive(Clone, Debug)]
pub enum GpuBuffer {}

/// Why the gpu cannot be used on this machine, or `Ok` once it can.
pub fn availability() -> Result<()> {
    let driver = ["libcuda.so.1", "libcuda.so"]
        .iter()
        .any(|name| unsafe { libloading::Library::new(*name) }.is_ok());
    if driver {
        Err(device_error(
            "no gpu: this arrsh build has no CUDA backend (the gpu device is not built yet)",
        ))
    } else {
        Err(device_error("no gpu: libcuda.so not found"))
    }
}

/// A short description for `:device`.
pub fn describe() -> String {
    match availability() {
        Ok(()) => "available".to_string(),
        Err(e) => e.message.clone(),
    }
}

/// Waits for queued gpu work; with no CUDA backend there is none.
pub fn synchronize() {}
