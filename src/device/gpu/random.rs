//! Random numbers with cuRAND (Philox), reproducible under `seed(n)`, and the streams of the
//! hand-written random kernels (`kernels/random.cu`), keyed by the same seed.

use std::cell::Cell;

use cudarc::curand::{result as curand, sys};

use super::driver::Gpu;
use super::memory::GpuBuffer;
use crate::base::DType;
use crate::error::{device_error, Result};

thread_local! {
    /// The seed `seed(n)` asked for, applied when the generator is made (it may not exist yet).
    static SEED: Cell<Option<u64>> = const { Cell::new(None) };
    /// How many hand-written random kernels have run since the seed was set.
    static KERNEL_CALLS: Cell<u64> = const { Cell::new(0) };
}

/// `seed(n)`: the gpu's next random numbers repeat those after any earlier `seed(n)`.
pub fn seed(seed: u64) -> Result<()> {
    SEED.with(|s| s.set(Some(seed)));
    KERNEL_CALLS.with(|c| c.set(0));
    match super::started() {
        Some(gpu) => gpu.reseed(seed),
        None => Ok(()),
    }
}

fn curand_error(e: curand::CurandError) -> crate::error::Error {
    device_error(format!("cuRAND failed: {e:?}"))
}

impl Gpu {
    fn generator(&self) -> Result<sys::curandGenerator_t> {
        if let Some(g) = self.rng.get() {
            return Ok(g);
        }
        // SAFETY: only tries to open the library.
        if !unsafe { sys::is_culib_present() } {
            return Err(device_error("no cuRAND: libcurand.so not found"));
        }
        let generator =
            curand::create_generator_kind(sys::curandRngType_t::CURAND_RNG_PSEUDO_PHILOX4_32_10)
                .map_err(curand_error)?;
        // SAFETY: a new generator, set to the stream every other operation uses.
        unsafe {
            curand::set_stream(generator, self.stream as _).map_err(curand_error)?;
            let seed = SEED.with(Cell::get).unwrap_or_else(entropy_seed);
            curand::set_seed(generator, seed).map_err(curand_error)?;
        }
        self.rng.set(Some(generator));
        Ok(generator)
    }

    fn reseed(&self, seed: u64) -> Result<()> {
        if let Some(g) = self.rng.get() {
            // SAFETY: a live generator of this context.
            unsafe {
                curand::set_seed(g, seed).map_err(curand_error)?;
                curand::set_offset(g, 0).map_err(curand_error)?;
            }
        }
        Ok(())
    }

    /// Fills a buffer of f64 or f32 (of even length) with normal numbers of mean `loc` and
    /// standard deviation `scale`.
    pub fn fill_normal(&self, buffer: &GpuBuffer, loc: f64, scale: f64) -> Result<()> {
        let generator = self.generator()?;
        let n = buffer.elements();
        if n == 0 {
            return Ok(());
        }
        self.note_launch(n);
        let pointer = buffer.device_pointer();
        // SAFETY: the buffer holds `n` elements of its dtype. cuRAND's normal generators want an
        // even count: callers allocate one spare element for an odd shape.
        unsafe {
            match buffer.dtype() {
                DType::F32 => curand::generate::normal_f32(
                    generator,
                    pointer as *mut f32,
                    n,
                    loc as f32,
                    scale as f32,
                ),
                _ => curand::generate::normal_f64(generator, pointer as *mut f64, n, loc, scale),
            }
            .map_err(curand_error)
        }
    }
}

/// The key and call number of the next hand-written random kernel: its elements draw from
/// Philox streams counted by (element, call, draw) under this key. The key is the seed mixed
/// (splitmix64's finaliser), so that it is not the key cuRAND's Philox uses for the same seed.
pub fn kernel_stream() -> (u64, u64) {
    let seed = SEED.with(|s| {
        let seed = s.get().unwrap_or_else(entropy_seed);
        s.set(Some(seed));
        seed
    });
    let call = KERNEL_CALLS.with(|c| c.replace(c.get() + 1));
    let mut z = seed ^ 0x6a09_e667_f3bc_c909;
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    (z ^ (z >> 31), call)
}

fn entropy_seed() -> u64 {
    let time = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_nanos() as u64)
        .unwrap_or(0);
    time ^ ((std::process::id() as u64) << 32)
}
