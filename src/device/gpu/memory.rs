//! Device buffers from the stream-ordered memory pool, and the copies between host and device.
//! Every allocation and copy is counted here, where it happens.

use std::ffi::c_void;
use std::rc::Rc;
use std::time::Instant;

use cudarc::driver::{result as cu, sys};
use rayon::prelude::*;

use super::driver::{driver_error, Gpu};
use crate::base::{human_bytes, DType};
use crate::error::{memory_error, Result};
use crate::stats;

/// Elements of one dtype in device memory. Clones share the allocation (views of one array).
#[derive(Clone, Debug)]
pub struct GpuBuffer(Rc<Allocation>);

#[derive(Debug)]
struct Allocation {
    pointer: sys::CUdeviceptr,
    len: usize,
    dtype: DType,
    gpu: &'static Gpu,
}

impl Drop for Allocation {
    fn drop(&mut self) {
        // A lost context's memory went with it (and its addresses may be reused by a new one).
        if self.pointer != 0 && !self.gpu.is_lost() {
            // SAFETY: allocated from this stream's pool; freed in stream order, so kernels
            // still queued on it finish first.
            let _ = unsafe { cu::free_async(self.pointer, self.gpu.stream) };
        }
    }
}

impl std::fmt::Debug for Gpu {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Gpu({})", self.name)
    }
}

impl GpuBuffer {
    pub fn dtype(&self) -> DType {
        self.0.dtype
    }

    /// Elements the buffer holds (its array may view fewer).
    pub fn elements(&self) -> usize {
        self.0.len
    }

    pub fn gpu(&self) -> &'static Gpu {
        self.0.gpu
    }

    pub fn device_pointer(&self) -> u64 {
        self.0.pointer
    }

    /// Address of element `offset`.
    pub fn element_pointer(&self, offset: usize) -> u64 {
        self.0.pointer + (offset * self.0.dtype.size()) as u64
    }

    /// The generation of the context these elements were lost with, if it lost its state.
    pub fn lost_generation(&self) -> Option<u32> {
        self.0.gpu.is_lost().then_some(self.0.gpu.generation)
    }

    pub fn strong_count(&self) -> usize {
        Rc::strong_count(&self.0)
    }

    pub fn same_buffer(&self, other: &GpuBuffer) -> bool {
        Rc::ptr_eq(&self.0, &other.0)
    }
}

/// Copies above this size go through pinned staging buffers, in chunks of this size.
const STAGING_CHUNK: usize = 32 << 20;

/// Two page-locked host buffers: the host fills (or drains) one while the DMA engine copies the
/// other, so large copies run at pinned-memory speed instead of the driver's pageable path.
pub struct Staging {
    buffers: [*mut u8; 2],
    done: [sys::CUevent; 2],
}

impl Gpu {
    /// A new uninitialised buffer of `len` elements; counted as one device allocation.
    pub fn alloc(&'static self, len: usize, dtype: DType) -> Result<GpuBuffer> {
        let bytes = len * dtype.size();
        let pointer = if bytes == 0 {
            0
        } else {
            self.note_work();
            self.alloc_bytes(bytes)?
        };
        stats::record_allocation(bytes as u64);
        Ok(GpuBuffer(Rc::new(Allocation {
            pointer,
            len,
            dtype,
            gpu: self,
        })))
    }

    /// Bytes of the memory pool that buffers use now (not what the pool keeps for reuse).
    pub fn pool_used_bytes(&self) -> Result<u64> {
        let mut used: u64 = 0;
        // SAFETY: the pool belongs to this context, and this attribute is a 64-bit count.
        unsafe {
            cu::mem_pool::get_attribute(
                self.pool,
                sys::CUmemPool_attribute::CU_MEMPOOL_ATTR_USED_MEM_CURRENT,
                std::ptr::from_mut(&mut used).cast(),
            )
        }
        .map_err(|e| driver_error("cannot read the gpu memory pool's use", e))?;
        Ok(used)
    }

    fn alloc_bytes(&self, bytes: usize) -> Result<sys::CUdeviceptr> {
        // SAFETY: the pool and stream belong to this context.
        let first = unsafe { cu::mem_pool::alloc_async(self.pool, bytes, self.stream) };
        match first {
            Ok(p) => Ok(p),
            Err(e) if e.0 == sys::CUresult::CUDA_ERROR_OUT_OF_MEMORY => {
                // Memory the pool keeps for reuse may be what is missing: give it back, retry.
                self.synchronize()?;
                // SAFETY: as above.
                unsafe {
                    let _ = cu::mem_pool::trim_to(self.pool, 0);
                    cu::mem_pool::alloc_async(self.pool, bytes, self.stream)
                }
                .map_err(|_| {
                    let (free, total) = self.memory_info();
                    memory_error(format!(
                        "cannot allocate {} on the gpu: {} free of {}",
                        human_bytes(bytes as f64),
                        human_bytes(free as f64),
                        human_bytes(total as f64)
                    ))
                })
            }
            Err(e) => Err(driver_error("gpu allocation failed", e)),
        }
    }

    /// A new buffer holding `data`: one counted host→device transfer.
    pub fn upload<T: Copy + Send + Sync>(
        &'static self,
        data: &[T],
        dtype: DType,
    ) -> Result<GpuBuffer> {
        let buffer = self.alloc(data.len(), dtype)?;
        self.copy_to_device(buffer.device_pointer(), data)?;
        Ok(buffer)
    }

    /// Copies `data` to device memory at `pointer`: one counted host→device transfer.
    pub fn copy_to_device<T: Copy + Send + Sync>(&self, pointer: u64, data: &[T]) -> Result<()> {
        let bytes = std::mem::size_of_val(data);
        if bytes == 0 {
            return Ok(());
        }
        self.note_work();
        let start = Instant::now();
        // SAFETY: `pointer` has room for `bytes` (the caller allocated it so); the host side is
        // read before each call returns or, for staging, before its event completes.
        let host = data.as_ptr() as *const u8;
        let copied = if bytes <= STAGING_CHUNK {
            unsafe { sys::cuMemcpyHtoD_v2(pointer, host as *const c_void, bytes).result() }
        } else {
            self.staged_to_device(pointer, host, bytes)
        };
        self.check("host→device copy failed", copied)?;
        stats::record_host_to_device(bytes as u64, start.elapsed().as_secs_f64());
        Ok(())
    }

    /// Copies `bytes` between two device buffers with the copy engine (counted as one kernel:
    /// device work, no transfer).
    pub fn copy_on_device(&self, to: u64, from: u64, bytes: usize) -> Result<()> {
        if bytes == 0 {
            return Ok(());
        }
        self.note_launch(bytes / 8);
        // SAFETY: both ranges are `bytes` long inside live allocations of this context.
        let copied = unsafe { cu::memcpy_dtod_async(to, from, bytes, self.stream) };
        self.check("device copy failed", copied)
    }

    /// Copies `len` elements at `pointer` into a new host vector: one counted, synchronizing
    /// device→host transfer.
    pub fn copy_to_host<T: Copy + Send + Sync>(&self, pointer: u64, len: usize) -> Result<Vec<T>> {
        // Not zeroed first: the copy faults the pages in (huge pages, on all cores).
        let mut out: Vec<T> = crate::device::host::vec_with_capacity(len);
        let bytes = len * std::mem::size_of::<T>();
        if bytes == 0 {
            return Ok(out);
        }
        self.note_work();
        let start = Instant::now();
        let host = out.as_mut_ptr() as *mut u8;
        // SAFETY: `out` has room for `bytes`; the legacy stream orders the copy after all queued
        // kernels, and the call returns when the data is on the host.
        let copied = if bytes <= 64 {
            unsafe { self.small_to_host(host, pointer, bytes) }
        } else if bytes <= STAGING_CHUNK {
            unsafe { sys::cuMemcpyDtoH_v2(host as *mut c_void, pointer, bytes).result() }
        } else {
            self.staged_to_host(host, pointer, bytes)
        };
        self.check("device→host copy failed", copied)?;
        // SAFETY: the copy wrote all `len` elements.
        unsafe { out.set_len(len) };
        stats::record_device_to_host(bytes as u64, start.elapsed().as_secs_f64());
        stats::record_sync();
        Ok(out)
    }

    /// A read of a few bytes through a page-locked scratch buffer: the cheapest copy there is.
    unsafe fn small_to_host(
        &self,
        host: *mut u8,
        pointer: u64,
        bytes: usize,
    ) -> std::result::Result<(), cu::DriverError> {
        if self.scratch.get().is_null() {
            self.scratch.set(cu::malloc_host(64, 0)? as *mut u8);
        }
        let scratch = self.scratch.get();
        sys::cuMemcpyDtoH_v2(scratch as *mut c_void, pointer, bytes).result()?;
        std::ptr::copy_nonoverlapping(scratch, host, bytes);
        Ok(())
    }

    fn with_staging<R>(
        &self,
        f: impl FnOnce(&Staging) -> std::result::Result<R, cu::DriverError>,
    ) -> std::result::Result<R, cu::DriverError> {
        let mut staging = self.staging.borrow_mut();
        if staging.is_none() {
            // SAFETY: page-locked host allocations and events of this context, kept for the process.
            unsafe {
                let buffers = [
                    cu::malloc_host(STAGING_CHUNK, 0)? as *mut u8,
                    cu::malloc_host(STAGING_CHUNK, 0)? as *mut u8,
                ];
                let event = || cu::event::create(sys::CUevent_flags::CU_EVENT_DISABLE_TIMING);
                *staging = Some(Staging {
                    buffers,
                    done: [event()?, event()?],
                });
            }
        }
        f(staging.as_ref().expect("made above"))
    }

    fn staged_to_device(
        &self,
        pointer: u64,
        host: *const u8,
        bytes: usize,
    ) -> std::result::Result<(), cu::DriverError> {
        self.with_staging(|staging| {
            for (k, start) in (0..bytes).step_by(STAGING_CHUNK).enumerate() {
                let len = STAGING_CHUNK.min(bytes - start);
                let slot = k % 2;
                // SAFETY: the slot's previous copy has finished (its event), so the host may
                // overwrite it; both ranges are `len` bytes long.
                unsafe {
                    if k >= 2 {
                        cu::event::synchronize(staging.done[slot])?;
                    }
                    parallel_copy(host.add(start), staging.buffers[slot], len);
                    sys::cuMemcpyHtoDAsync_v2(
                        pointer + start as u64,
                        staging.buffers[slot] as *const c_void,
                        len,
                        self.stream,
                    )
                    .result()?;
                    cu::event::record(staging.done[slot], self.stream)?;
                }
            }
            // SAFETY: waits for the last copies before the host buffer may change.
            unsafe { cu::stream::synchronize(self.stream) }
        })
    }

    fn staged_to_host(
        &self,
        host: *mut u8,
        pointer: u64,
        bytes: usize,
    ) -> std::result::Result<(), cu::DriverError> {
        self.with_staging(|staging| {
            let chunks: Vec<usize> = (0..bytes).step_by(STAGING_CHUNK).collect();
            let enqueue = |k: usize| -> std::result::Result<(), cu::DriverError> {
                let start = chunks[k];
                let len = STAGING_CHUNK.min(bytes - start);
                // SAFETY: the slot was drained by the host before being queued again.
                unsafe {
                    sys::cuMemcpyDtoHAsync_v2(
                        staging.buffers[k % 2] as *mut c_void,
                        pointer + start as u64,
                        len,
                        self.stream,
                    )
                    .result()?;
                    cu::event::record(staging.done[k % 2], self.stream)
                }
            };
            enqueue(0)?;
            for k in 0..chunks.len() {
                if k + 1 < chunks.len() {
                    enqueue(k + 1)?;
                }
                let start = chunks[k];
                let len = STAGING_CHUNK.min(bytes - start);
                // SAFETY: the chunk's copy has finished once its event has.
                unsafe {
                    cu::event::synchronize(staging.done[k % 2])?;
                    parallel_copy(staging.buffers[k % 2], host.add(start), len);
                }
            }
            Ok(())
        })
    }
}

/// memcpy on all the worker threads (all cores by default): one core cannot keep up with the DMA
/// engine.
///
/// # Safety
/// Both ranges must be valid for `len` bytes and not overlap (`to` may be uninitialised).
unsafe fn parallel_copy(from: *const u8, to: *mut u8, len: usize) {
    // 128 pieces per staging chunk balance the cores well: on the H200's 16-core host, 800 MB
    // copies reach 93% of pinned bandwidth each way, against 77–86% with 1 MB pieces.
    const PIECE: usize = 256 << 10;
    let (from, to) = (from as usize, to as usize);
    crate::device::cpu::threads::install(|| {
        (0..len.div_ceil(PIECE)).into_par_iter().for_each(|k| {
            let start = k * PIECE;
            let n = PIECE.min(len - start);
            // SAFETY: piece k lies inside both ranges; pieces do not overlap.
            unsafe {
                std::ptr::copy_nonoverlapping(
                    (from + start) as *const u8,
                    (to + start) as *mut u8,
                    n,
                )
            };
        })
    });
}
