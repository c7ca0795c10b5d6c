//! Fourier transforms with cuFFT. A plan is made once per transform and layout
//! (`cufftMakePlanMany64`: up to three axes, a batch, strides and distances) and kept on the `Gpu`,
//! as CuPy keeps its plans, set to the stream every other operation uses. Plans are made without
//! a work area of their own: they share one buffer from the memory pool, grown to the largest
//! any plan has needed (they never run at once: one stream). An execution counts as one kernel.

use std::ffi::c_void;

use cudarc::cufft::{result as cufft, sys};

use super::driver::Gpu;
use super::memory::GpuBuffer;
use crate::base::DType;
use crate::error::{device_error, Result};

/// Plans kept at most; the least recently used goes first.
const KEPT_PLANS: usize = 32;

/// What a transform reads and writes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum FftKind {
    /// Complex to complex.
    Complex,
    /// Real to complex: the last transformed axis keeps `n / 2 + 1` frequencies.
    RealToComplex,
    /// Complex to real: the inverse of `RealToComplex`.
    ComplexToReal,
}

/// How the signals lie in memory, in cuFFT's advanced layout: element `x` of signal `b` is at
/// `b * distance + ((x0 * embed[1] + x1) * embed[2] + x2) * stride` (for three axes).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Signals {
    pub embed: Vec<i64>,
    pub stride: i64,
    pub distance: i64,
}

/// One batched transform: the logical lengths of its axes (for real transforms, the real
/// side's), how many signals, and where they lie.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct FftLayout {
    pub lengths: Vec<i64>,
    pub batch: i64,
    pub input: Signals,
    pub output: Signals,
}

#[derive(Clone, Debug, PartialEq, Eq, Hash)]
struct PlanKey {
    kind: sys::cufftType,
    layout: FftLayout,
}

struct Plan {
    key: PlanKey,
    handle: sys::cufftHandle,
    work_bytes: usize,
    last_used: u64,
}

/// The plans this process made and the work area they share.
#[derive(Default)]
pub struct FftPlans {
    plans: Vec<Plan>,
    work: Option<GpuBuffer>,
    clock: u64,
}

fn cufft_error(what: &str, e: cufft::CufftError) -> crate::error::Error {
    device_error(format!("cuFFT {what} failed: {:?}", e.0))
}

/// cuFFT's type for a transform of `kind` on elements of precision `real` (f32 or f64).
fn cufft_type(kind: FftKind, real: DType) -> sys::cufftType {
    use sys::cufftType::*;
    match (kind, real == DType::F64) {
        (FftKind::Complex, false) => CUFFT_C2C,
        (FftKind::Complex, true) => CUFFT_Z2Z,
        (FftKind::RealToComplex, false) => CUFFT_R2C,
        (FftKind::RealToComplex, true) => CUFFT_D2Z,
        (FftKind::ComplexToReal, false) => CUFFT_C2R,
        (FftKind::ComplexToReal, true) => CUFFT_Z2D,
    }
}

impl Gpu {
    /// Runs one transform of `kind` in precision `real` (f32 or f64) from `input` to `output`
    /// (device addresses of buffers that hold `layout`'s signals; distinct). `inverse` picks
    /// the direction of complex transforms (real ones have one each). Unnormalised, as cuFFT is.
    pub fn fft(
        &'static self,
        kind: FftKind,
        real: DType,
        layout: &FftLayout,
        input: u64,
        output: u64,
        inverse: bool,
    ) -> Result<()> {
        if layout.batch == 0 || layout.lengths.contains(&0) {
            return Ok(());
        }
        let transform = cufft_type(kind, real);
        let key = PlanKey {
            kind: transform,
            layout: layout.clone(),
        };
        let (handle, work_bytes) = self.fft_plan(key)?;
        let work = self.fft_work_area(work_bytes)?;
        let elements = layout.batch as usize * layout.lengths.iter().product::<i64>() as usize;
        self.note_launch(elements);
        let direction = if inverse { 1 } else { -1 };
        // SAFETY: the plan was made for these layouts and the caller's buffers hold them; the
        // work area is at least the plan's size and no other plan runs meanwhile (one stream).
        unsafe {
            if work_bytes > 0 {
                cufft::set_work_area(handle, work as *mut c_void)
                    .map_err(|e| cufft_error("setting the work area", e))?;
            }
            let (i, o) = (input as *mut c_void, output as *mut c_void);
            match transform {
                sys::cufftType::CUFFT_C2C => cufft::exec_c2c(handle, i as _, o as _, direction),
                sys::cufftType::CUFFT_Z2Z => cufft::exec_z2z(handle, i as _, o as _, direction),
                sys::cufftType::CUFFT_R2C => cufft::exec_r2c(handle, i as _, o as _),
                sys::cufftType::CUFFT_D2Z => cufft::exec_d2z(handle, i as _, o as _),
                sys::cufftType::CUFFT_C2R => cufft::exec_c2r(handle, i as _, o as _),
                sys::cufftType::CUFFT_Z2D => cufft::exec_z2d(handle, i as _, o as _),
            }
        }
        .map_err(|e| cufft_error("execution", e))
    }

    /// The cached plan for `key`, or a new one (evicting the least recently used past
    /// `KEPT_PLANS`), with its work area's size.
    fn fft_plan(&'static self, key: PlanKey) -> Result<(sys::cufftHandle, usize)> {
        let mut plans = self.fft.borrow_mut();
        plans.clock += 1;
        let now = plans.clock;
        if let Some(plan) = plans.plans.iter_mut().find(|p| p.key == key) {
            plan.last_used = now;
            return Ok((plan.handle, plan.work_bytes));
        }
        // SAFETY: only tries to open the library.
        if !unsafe { sys::is_culib_present() } {
            return Err(device_error("no cuFFT: libcufft.so not found"));
        }
        if plans.plans.len() >= KEPT_PLANS {
            let oldest = (0..plans.plans.len())
                .min_by_key(|&i| plans.plans[i].last_used)
                .expect("not empty");
            let old = plans.plans.swap_remove(oldest);
            // SAFETY: a plan of this context, no longer referenced; cuFFT finishes its work first.
            unsafe { cufft::destroy(old.handle) }
                .map_err(|e| cufft_error("destroying a plan", e))?;
        }
        let (handle, work_bytes) = make_plan(&key, self.stream as _)?;
        plans.plans.push(Plan {
            key,
            handle,
            work_bytes,
            last_used: now,
        });
        Ok((handle, work_bytes))
    }

    /// The shared work area's address, grown to at least `bytes`.
    fn fft_work_area(&'static self, bytes: usize) -> Result<u64> {
        let mut plans = self.fft.borrow_mut();
        let enough = plans.work.as_ref().is_some_and(|w| w.elements() >= bytes);
        if !enough && bytes > 0 {
            // Freed in stream order: a transform still queued with the old area finishes first.
            plans.work = None;
            plans.work = Some(self.alloc(bytes, DType::U8)?);
        }
        Ok(plans.work.as_ref().map_or(0, GpuBuffer::device_pointer))
    }
}

/// A new plan for `key` on `stream`, without a work area of its own, and the work area's size.
fn make_plan(key: &PlanKey, stream: sys::cudaStream_t) -> Result<(sys::cufftHandle, usize)> {
    let handle = cufft::create().map_err(|e| cufft_error("plan creation", e))?;
    let layout = &key.layout;
    let mut lengths = layout.lengths.clone();
    let mut input_embed = layout.input.embed.clone();
    let mut output_embed = layout.output.embed.clone();
    // SAFETY: a new handle; the arrays are `lengths.len()` long and live across the call.
    let made = unsafe {
        cufft::set_auto_allocation(handle, false).and_then(|()| {
            cufft::make_plan_many64(
                handle,
                lengths.len() as i32,
                lengths.as_mut_ptr(),
                input_embed.as_mut_ptr(),
                layout.input.stride,
                layout.input.distance,
                output_embed.as_mut_ptr(),
                layout.output.stride,
                layout.output.distance,
                key.kind,
                layout.batch,
            )
        })
    }
    .and_then(|work| {
        // SAFETY: the plan made above, set to the stream every other operation uses.
        unsafe { cufft::set_stream(handle, stream) }.map(|()| work)
    });
    match made {
        Ok(work) => Ok((handle, work)),
        Err(e) => {
            // SAFETY: the handle made above, unused.
            let _ = unsafe { cufft::destroy(handle) };
            Err(cufft_error(
                &format!(
                    "planning a {:?} transform of {:?}",
                    key.kind, layout.lengths
                ),
                e,
            ))
        }
    }
}
