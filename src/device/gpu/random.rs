//! Random numbers with cuRAND (Philox), reproducible under `seed(n)`.

use std::cell::Cell;

use cudarc::curand::{result as curand, sys};

use super::driver::Gpu;
use super::memory::GpuBuffer;
use crate::base::DType;
use crate::error::{device_error, Result};

pub enum Distribution {
    Uniform,
    Normal,
}

thread_local! {
    /// The seed `seed(n)` asked for, applied when the generator is made (it may not exist yet).
    static SEED: Cell<Option<u64>> = const { Cell::new(None) };
}

/// `seed(n)`: the gpu's next random numbers repeat those after any earlier `seed(n)`.
pub fn seed(seed: u64) -> Result<()> {
    SEED.with(|s| s.set(Some(seed)));
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

    /// Fills a buffer of f64 or f32 with uniform (0, 1] or standard normal numbers (for normal
    /// numbers, the buffer's length must be even).
    pub fn fill_random(&self, buffer: &GpuBuffer, distribution: Distribution) -> Result<()> {
        let generator = self.generator()?;
        let n = buffer.elements();
        if n == 0 {
            return Ok(());
        }
        self.note_launch(n);
        let pointer = buffer.device_pointer();
        // SAFETY: the buffer holds `n` elements of its dtype. cuRAND's normal generators want an
        // even count: callers allocate one spare element for an odd shape (see `Array::random`).
        unsafe {
            match (buffer.dtype(), distribution) {
                (DType::F32, Distribution::Uniform) => {
                    curand::generate::uniform_f32(generator, pointer as *mut f32, n)
                }
                (_, Distribution::Uniform) => {
                    curand::generate::uniform_f64(generator, pointer as *mut f64, n)
                }
                (DType::F32, Distribution::Normal) => {
                    curand::generate::normal_f32(generator, pointer as *mut f32, n, 0.0, 1.0)
                }
                (_, Distribution::Normal) => {
                    curand::generate::normal_f64(generator, pointer as *mut f64, n, 0.0, 1.0)
                }
            }
            .map_err(curand_error)?;
        }
        Ok(())
    }
}

fn entropy_seed() -> u64 {
    let time = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_nanos() as u64)
        .unwrap_or(0);
    time ^ ((std::process::id() as u64) << 32)
}
