//! The CUDA context of this thread: created on first use (so cpu-only sessions never pay for it),
//! with the libraries probed first, because cudarc panics when a library it loads is missing.
//! All work goes to the legacy default stream, so a plain `cuMemcpyDtoH` is ordered after every
//! kernel queued before it. An error that destroys the context's state (a kernel that faults)
//! marks it lost, and its buffers are never touched again. The next use resets the device and
//! makes a fresh context, whose `generation` is one more, where the driver allows it; today's
//! drivers keep such an error for the life of the process, and then the gpu stays unavailable.

use std::cell::{Cell, OnceCell, RefCell};
use std::ffi::c_void;

use cudarc::driver::{result as cu, sys};

use crate::error::{device_error, Error, Result};

/// One GPU context and what this process made on it. Leaked on creation: it lives as long as the
/// thread, and every buffer holds a `&'static Gpu` to free itself (or, once it is lost, not to).
pub struct Gpu {
    /// 0 for the thread's first context, one more for each made after a loss.
    pub generation: u32,
    device: sys::CUdevice,
    lost: Cell<bool>,
    pub name: String,
    pub compute_capability: (i32, i32),
    pub multiprocessors: u32,
    pub total_memory: usize,
    pub driver_version: i32,
    pub(super) stream: sys::CUstream,
    pub(super) pool: sys::CUmemoryPool,
    pub(super) modules: RefCell<Option<super::modules::Modules>>,
    pub(super) blas: Cell<Option<cudarc::cublas::sys::cublasHandle_t>>,
    pub(super) rng: Cell<Option<cudarc::curand::sys::curandGenerator_t>>,
    pub(super) fft: RefCell<super::fft::FftPlans>,
    /// cuSOLVER's handle and parameters object, made on first use.
    pub(super) solver: Cell<
        Option<(
            cudarc::cusolver::sys::cusolverDnHandle_t,
            cudarc::cusolver::sys::cusolverDnParams_t,
        )>,
    >,
    pub(super) staging: RefCell<Option<super::memory::Staging>>,
    pub(super) scratch: Cell<*mut u8>,
    pub(super) events: (sys::CUevent, sys::CUevent),
}

/// Device-time measurement: armed by `begin_measure` (even before the gpu is first used),
/// started by the first work queued after it.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Measure {
    Off,
    Armed,
    Started,
}

thread_local! {
    /// The context in use (perhaps lost, until the next `gpu()` replaces it).
    static CURRENT: Cell<Option<&'static Gpu>> = const { Cell::new(None) };
    /// Why there is no gpu, when the first attempt found none (not retried).
    static UNAVAILABLE: OnceCell<Error> = const { OnceCell::new() };
    static MEASURE: Cell<Measure> = const { Cell::new(Measure::Off) };
}

/// Starts measuring device time: from the first gpu work queued from now on.
pub fn begin_measure() {
    MEASURE.with(|m| m.set(Measure::Armed));
}

/// Ends a measurement begun with `begin_measure`: the device time from the first work queued
/// since then until all of it finished (waiting for it). Zero when no gpu work was queued.
pub fn end_measure() -> f64 {
    let running = MEASURE.with(|m| m.replace(Measure::Off)) == Measure::Started;
    match running.then(started).flatten() {
        Some(gpu) => gpu.elapsed_since_start(),
        None => 0.0,
    }
}

/// The gpu of this thread, created on first call and, after its state was lost, made again if
/// CUDA allows it; an error says why there is none.
pub fn gpu() -> Result<&'static Gpu> {
    let current = CURRENT.get();
    if let Some(g) = current.filter(|g| !g.lost.get()) {
        return Ok(g);
    }
    if let Some(e) = UNAVAILABLE.with(|u| u.get().cloned()) {
        return Err(e);
    }
    let start = std::time::Instant::now();
    let made = match current {
        None => create_context(0),
        Some(lost) => lost
            .reset()
            .and_then(|()| create_context(lost.generation + 1))
            .and_then(|g| g.probe().map(|()| g))
            .map_err(|_| cannot_restart()),
    };
    crate::stats::record_setup(start.elapsed().as_secs_f64());
    match made {
        Ok(g) => {
            CURRENT.set(Some(g));
            Ok(g)
        }
        Err(e) => {
            // Neither a missing gpu nor one CUDA refuses to start again comes back by retrying.
            UNAVAILABLE.with(|u| u.set(e.clone()).ok());
            Err(e)
        }
    }
}

/// The driver keeps some faults for the life of the process: after one, every call, even making
/// a new context, fails with it.
fn cannot_restart() -> Error {
    device_error(
        "no gpu: its state was lost, and CUDA cannot start it again in this process; restart arrsh to use the gpu (cpu variables are kept)",
    )
}

/// The name of the gpu that `gpu()` would use, found without making a context (which costs
/// far more than asking the driver); an error says why there is none.
pub fn probe_name() -> Result<String> {
    thread_local! {
        static PROBED: OnceCell<Result<String>> = const { OnceCell::new() };
    }
    if let Some(e) = UNAVAILABLE.with(|u| u.get().cloned()) {
        return Err(e);
    }
    PROBED.with(|p| {
        p.get_or_init(|| {
            // The kernel driver's report names the gpu without loading CUDA's libraries or
            // starting it (a tenth of a second or more); CUDA is asked only where there is no
            // such report. A gpu named here that CUDA then cannot start is refused at first use.
            if let Some(name) = kernel_driver_gpu_name() {
                return Ok(name);
            }
            if let Some(library) = missing_library() {
                return Err(device_error(format!("no gpu: {library} not found")));
            }
            cu::init().map_err(|e| driver_error("no gpu: the CUDA driver failed to start", e))?;
            if cu::device::get_count().map_err(|e| driver_error("no gpu", e))? < 1 {
                return Err(device_error("no gpu: no CUDA device"));
            }
            let device = cu::device::get(0).map_err(|e| driver_error("no gpu", e))?;
            Ok(cu::device::get_name(device).unwrap_or_else(|_| "CUDA device".into()))
        })
        .clone()
    })
}

/// The first gpu's model in the NVIDIA kernel driver's report (`/proc/driver/nvidia/gpus`).
fn kernel_driver_gpu_name() -> Option<String> {
    let mut gpus: Vec<_> = std::fs::read_dir("/proc/driver/nvidia/gpus")
        .ok()?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .collect();
    gpus.sort();
    let report = std::fs::read_to_string(gpus.first()?.join("information")).ok()?;
    report
        .lines()
        .find_map(|l| l.strip_prefix("Model:"))
        .map(|m| m.trim().to_string())
}

/// The gpu if this thread has made one and its state is not lost (never makes one).
pub fn started() -> Option<&'static Gpu> {
    CURRENT.get().filter(|g| !g.lost.get())
}

/// How many of this thread's gpu contexts have lost their state: the generations below this
/// number are lost.
pub fn losses() -> u32 {
    CURRENT
        .get()
        .map_or(0, |g| g.generation + g.lost.get() as u32)
}

/// The name of a missing CUDA library, if one is.
fn missing_library() -> Option<&'static str> {
    // SAFETY: these only try to open the shared libraries.
    unsafe {
        if !sys::is_culib_present() {
            return Some("libcuda.so");
        }
        if !cudarc::nvrtc::sys::is_culib_present() {
            return Some("libnvrtc.so (NVRTC, which compiles arrsh's kernels)");
        }
    }
    None
}

pub(super) fn driver_error(what: &str, e: cu::DriverError) -> Error {
    use cudarc::driver::sys::CUresult as R;
    let text = e
        .error_string()
        .ok()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_else(|| format!("{:?}", e.0));
    // These leave the context unusable: CUDA answers every later call with the same error.
    let context_lost = matches!(
        e.0,
        R::CUDA_ERROR_ILLEGAL_ADDRESS
            | R::CUDA_ERROR_ASSERT
            | R::CUDA_ERROR_HARDWARE_STACK_ERROR
            | R::CUDA_ERROR_ILLEGAL_INSTRUCTION
            | R::CUDA_ERROR_MISALIGNED_ADDRESS
            | R::CUDA_ERROR_INVALID_ADDRESS_SPACE
            | R::CUDA_ERROR_INVALID_PC
            | R::CUDA_ERROR_LAUNCH_FAILED
    );
    if context_lost {
        if let Some(g) = CURRENT.get() {
            g.lost.set(true);
        }
        device_error(format!(
            "{what}: {text} — the gpu's state is lost: its arrays are gone (cpu variables are kept)"
        ))
    } else {
        device_error(format!("{what}: {text}"))
    }
}

fn create_context(generation: u32) -> std::result::Result<&'static Gpu, Error> {
    if let Some(library) = missing_library() {
        return Err(device_error(format!("no gpu: {library} not found")));
    }
    cu::init().map_err(|e| driver_error("no gpu: the CUDA driver failed to start", e))?;
    let count = cu::device::get_count().map_err(|e| driver_error("no gpu", e))?;
    if count < 1 {
        return Err(device_error("no gpu: no CUDA device"));
    }
    let device = cu::device::get(0).map_err(|e| driver_error("no gpu", e))?;
    // SAFETY: `device` is a valid ordinal; the primary context is retained for the process.
    unsafe {
        let context = cu::primary_ctx::retain(device)
            .map_err(|e| driver_error("no gpu: cannot create a CUDA context", e))?;
        cu::ctx::set_current(context).map_err(|e| driver_error("no gpu", e))?;
        let attribute = |a| cu::device::get_attribute(device, a).unwrap_or(0);
        let compute_capability = (
            attribute(sys::CUdevice_attribute::CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR),
            attribute(sys::CUdevice_attribute::CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR),
        );
        let multiprocessors =
            attribute(sys::CUdevice_attribute::CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT).max(1)
                as u32;
        let pool = cu::device::get_default_mem_pool(device)
            .map_err(|e| driver_error("no gpu: no stream-ordered memory pool", e))?;
        // Keep freed memory in the pool instead of returning it to the driver at each
        // synchronization, so small operations do not pay for cudaMalloc/cudaFree.
        let mut keep_all = u64::MAX;
        cu::mem_pool::set_attribute(
            pool,
            sys::CUmemPool_attribute::CU_MEMPOOL_ATTR_RELEASE_THRESHOLD,
            &mut keep_all as *mut u64 as *mut c_void,
        )
        .map_err(|e| driver_error("no gpu", e))?;
        let mut driver_version = 0;
        sys::cuDriverGetVersion(&mut driver_version);
        let event = || {
            cu::event::create(sys::CUevent_flags::CU_EVENT_DEFAULT)
                .map_err(|e| driver_error("no gpu", e))
        };
        let gpu = Gpu {
            generation,
            device,
            lost: Cell::new(false),
            name: cu::device::get_name(device).unwrap_or_else(|_| "CUDA device".into()),
            compute_capability,
            multiprocessors,
            total_memory: cu::device::total_mem(device).unwrap_or(0),
            driver_version,
            stream: std::ptr::null_mut(),
            pool,
            modules: RefCell::new(None),
            blas: Cell::new(None),
            rng: Cell::new(None),
            fft: RefCell::new(Default::default()),
            solver: Cell::new(None),
            staging: RefCell::new(None),
            scratch: Cell::new(std::ptr::null_mut()),
            events: (event()?, event()?),
        };
        Ok(Box::leak(Box::new(gpu)))
    }
}

impl Gpu {
    /// True once an error destroyed this context's state: its buffers and kernels are gone.
    pub fn is_lost(&self) -> bool {
        self.lost.get()
    }

    /// Destroys this lost context and everything made in it, so that a fresh one can be made.
    fn reset(&self) -> Result<()> {
        // SAFETY: the primary context was retained by `create_context`; nothing made in it is
        // used again (buffers and kernels check their context's generation).
        unsafe {
            let _ = cu::primary_ctx::release(self.device);
            sys::cuDevicePrimaryCtxReset_v2(self.device)
                .result()
                .map_err(|e| driver_error("cannot reset the gpu after its state was lost", e))
        }
    }

    /// Fails when the driver still answers with an old fault: a context made after one can
    /// allocate, copy and load modules, and fail only at its first kernel.
    fn probe(&'static self) -> Result<()> {
        let buffer = self.alloc(64, crate::base::DType::U8)?;
        // SAFETY: 64 bytes of a live allocation of this context, on its stream.
        let filled = unsafe { cu::memset_d8_async(buffer.device_pointer(), 0, 64, self.stream) };
        self.check("the fresh gpu context cannot run work", filled)?;
        self.probe_kernels()?;
        self.synchronize()
    }

    /// Waits for all queued work. Counted as one synchronization.
    pub fn synchronize(&self) -> Result<()> {
        crate::stats::record_sync();
        // SAFETY: the legacy stream of this thread's current context.
        unsafe { cu::stream::synchronize(self.stream) }
            .map_err(|e| driver_error("the gpu failed while finishing queued work", e))
    }

    /// Free and total device memory, in bytes.
    pub fn memory_info(&self) -> (usize, usize) {
        cu::mem_get_info().unwrap_or((0, self.total_memory))
    }

    /// Called before queuing work: starts the device-time span if a measurement is armed.
    pub(super) fn note_work(&self) {
        if MEASURE.with(Cell::get) == Measure::Armed {
            // SAFETY: the event was created on this context.
            if unsafe { cu::event::record(self.events.0, self.stream) }.is_ok() {
                MEASURE.with(|m| m.set(Measure::Started));
            }
        }
    }

    /// A kernel over `elements` elements is about to be queued: counted, and noted for device time.
    pub(super) fn note_launch(&self, elements: usize) {
        self.note_work();
        crate::stats::record_kernel(elements as u64);
    }

    /// Seconds from the start event to now, once the queued work has finished.
    fn elapsed_since_start(&self) -> f64 {
        // SAFETY: both events belong to this context; the first was recorded.
        unsafe {
            if cu::event::record(self.events.1, self.stream).is_err()
                || cu::event::synchronize(self.events.1).is_err()
            {
                return 0.0;
            }
            cu::event::elapsed(self.events.0, self.events.1)
                .map(|ms| ms as f64 / 1e3)
                .unwrap_or(0.0)
        }
    }

    /// The error a failed launch or library call leaves, with the device's own text.
    pub(super) fn check(
        &self,
        what: &str,
        result: std::result::Result<(), cu::DriverError>,
    ) -> Result<()> {
        result.map_err(|e| driver_error(what, e))
    }

    /// The compute capability as NVRTC's architecture name, e.g. `sm_90`.
    pub fn arch(&self) -> String {
        format!(
            "sm_{}{}",
            self.compute_capability.0, self.compute_capability.1
        )
    }

    /// CUDA's version text for a version number such as 13000.
    pub fn version_text(version: i32) -> String {
        format!("{}.{}", version / 1000, (version % 1000) / 10)
    }
}
