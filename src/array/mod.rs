//! `Array`: a dtype, a layout and storage on one device. This layer knows NumPy's rules
//! (broadcasting, promotion, indexing, printing) and hands the element work to `crate::device`.

pub mod dtype;
pub mod format;
pub mod index;
pub use crate::base::layout;
pub mod linalg;
pub mod on_gpu;
pub mod ops;
pub mod reduce;
pub mod shape;

use std::sync::atomic::{AtomicU64, Ordering};

use ndarray::{ArrayD, ArrayViewD, ArrayViewMutD};

use crate::device::cpu::{self, CpuBuffer, CpuElement};
use crate::device::gpu::GpuBuffer;
use crate::device::Device;
use crate::error::{memory_error, shape_error, value_error, Result};
use crate::with_dtype4;
use dtype::{DType, Element};
use layout::Layout;

/// A host scalar: what a full reduction or an element read returns, and what travels to kernels
/// as an argument. Host scalars are "weak" in promotion: `f32_array * 2.5` stays f32.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Scalar {
    Bool(bool),
    Int(i64),
    Float(f64),
}

impl Scalar {
    pub fn of<T: Element>(x: T) -> Scalar {
        match T::DTYPE {
            DType::Bool => Scalar::Bool(x.to_bool()),
            DType::I64 => Scalar::Int(x.to_i64()),
            _ => Scalar::Float(x.to_f64()),
        }
    }

    pub fn cast<T: Element>(self) -> T {
        match self {
            Scalar::Bool(b) => T::from_bool(b),
            Scalar::Int(i) => T::from_i64(i),
            Scalar::Float(f) => T::from_f64(f),
        }
    }

    pub fn as_f64(self) -> f64 {
        self.cast()
    }

    /// The dtype an array made from this scalar alone gets.
    pub fn dtype(self) -> DType {
        match self {
            Scalar::Bool(_) => DType::Bool,
            Scalar::Int(_) => DType::I64,
            Scalar::Float(_) => DType::F64,
        }
    }
}

#[derive(Clone, Debug)]
pub enum Storage {
    Cpu(CpuBuffer),
    Gpu(GpuBuffer),
}

/// An n-d array. Cloning shares the buffer: clones and slices are views of the same elements.
#[derive(Clone, Debug)]
pub struct Array {
    layout: Layout,
    storage: Storage,
}

/// What one allocation may take, in bytes; 0 means the machine's physical memory.
static MEMORY_LIMIT: AtomicU64 = AtomicU64::new(0);

/// Caps what one array or string may take (the fuzz targets keep their inputs small this way).
pub fn set_memory_limit(bytes: u64) {
    MEMORY_LIMIT.store(bytes, Ordering::Relaxed);
}

/// Refuses allocations the machine cannot hold before trying, so they are errors, not aborts.
pub fn check_allocation(elements: usize, dtype: DType) -> Result<()> {
    check_memory(elements as u128 * dtype.size() as u128, || {
        format!("an array of {elements} {dtype} elements")
    })
}

/// The same refusal for `bytes` of anything (`what` names it in the message, made only for a
/// refusal). Large requests are
/// held against the memory available now: Linux grants more than it has and the kernel's
/// out-of-memory killer ends the process later, when the pages are touched.
pub fn check_memory(bytes: u128, what: impl FnOnce() -> String) -> Result<()> {
    const CHECK_AVAILABLE_FROM: u128 = 64 << 20;
    let refuse = |reason: String| {
        Err(memory_error(format!(
            "cannot allocate {} for {}: {reason}",
            human_bytes(bytes as f64),
            what()
        )))
    };
    let limit = MEMORY_LIMIT.load(Ordering::Relaxed);
    if limit != 0 && bytes > limit as u128 {
        return refuse(format!("the limit is {}", human_bytes(limit as f64)));
    }
    // Small requests (every string concatenation in a loop) cost nothing here.
    if bytes < CHECK_AVAILABLE_FROM {
        return Ok(());
    }
    let physical = physical_memory_bytes();
    if bytes > physical as u128 {
        return refuse(format!(
            "the machine has {} of memory",
            human_bytes(physical as f64)
        ));
    }
    if let Some(available) = available_memory_bytes() {
        if bytes > available as u128 {
            return refuse(format!(
                "{} of the machine's {} is available",
                human_bytes(available as f64),
                human_bytes(physical as f64)
            ));
        }
    }
    Ok(())
}

fn physical_memory_bytes() -> u64 {
    static PHYSICAL: std::sync::OnceLock<u64> = std::sync::OnceLock::new();
    *PHYSICAL.get_or_init(|| {
        // SAFETY: sysconf only reads system configuration.
        let (pages, page_size) = unsafe {
            (
                libc::sysconf(libc::_SC_PHYS_PAGES),
                libc::sysconf(libc::_SC_PAGESIZE),
            )
        };
        if pages > 0 && page_size > 0 {
            pages as u64 * page_size as u64
        } else {
            1 << 46
        }
    })
}

/// The kernel's estimate of memory a new allocation can use, plus freed blocks this process
/// keeps for reuse.
fn available_memory_bytes() -> Option<u64> {
    let meminfo = std::fs::read_to_string("/proc/meminfo").ok()?;
    let line = meminfo.lines().find(|l| l.starts_with("MemAvailable:"))?;
    let kib: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kib * 1024 + cpu::retain::kept_bytes() as u64)
}

pub fn human_bytes(bytes: f64) -> String {
    const UNITS: [&str; 5] = ["B", "KB", "MB", "GB", "TB"];
    let mut value = bytes;
    let mut unit = 0;
    while value >= 1000.0 && unit < UNITS.len() - 1 {
        value /= 1000.0;
        unit += 1;
    }
    if unit == 0 {
        format!("{} B", bytes as u64)
    } else {
        format!("{value:.1} {}", UNITS[unit])
    }
}

/// NumPy's limit on dimensions; it also bounds how deep a nested list literal may go.
pub const MAX_NDIM: usize = 64;

/// The element count of a shape a user asked for: at most `MAX_NDIM` dimensions and a count
/// that memory can address.
pub fn shape_size(shape: &[usize]) -> Result<usize> {
    if shape.len() > MAX_NDIM {
        return Err(shape_error(format!(
            "arrays have at most {MAX_NDIM} dimensions, this one would have {}",
            shape.len()
        )));
    }
    // As NumPy does, the nonzero dimensions must multiply without overflow even when another is
    // zero: products of parts of the shape (rows, strides) must fit too.
    let nonzero = shape
        .iter()
        .try_fold(1usize, |acc, &n| acc.checked_mul(n.max(1)))
        .filter(|&size| size <= isize::MAX as usize)
        .ok_or_else(|| memory_error("array is too big: its element count overflows"))?;
    Ok(if shape.contains(&0) { 0 } else { nonzero })
}

impl Array {
    /// A cpu array owning `data` laid out in C order with `shape`.
    pub fn from_vec<T: CpuElement>(data: Vec<T>, shape: Vec<usize>) -> Array {
        debug_assert_eq!(data.len(), shape.iter().product::<usize>());
        Array {
            layout: Layout::contiguous(&shape),
            storage: Storage::Cpu(T::wrap(data)),
        }
    }

    pub fn from_ndarray<T: CpuElement>(array: ArrayD<T>) -> Array {
        let shape = array.shape().to_vec();
        Array::from_vec(cpu::into_c_order_vec(array), shape)
    }

    /// An array of `shape` filled with `value`, as `full` does: a fill, not a transfer.
    pub fn full(shape: &[usize], value: Scalar, dtype: DType, device: Device) -> Result<Array> {
        let size = shape_size(shape)?;
        match device {
            Device::Cpu => {
                check_allocation(size, dtype)?;
                Ok(with_dtype4!(dtype, T => Array::from_vec(
                    cpu::filled_vec(size, value.cast::<T>()),
                    shape.to_vec()
                )))
            }
            Device::Gpu => on_gpu::full(shape, value, dtype),
        }
    }

    /// A gpu array over all of `buffer`, C-ordered with `shape`.
    pub fn from_gpu(buffer: GpuBuffer, shape: &[usize]) -> Array {
        Array {
            layout: Layout::contiguous(shape),
            storage: Storage::Gpu(buffer),
        }
    }

    pub fn gpu_buffer(&self) -> Option<&GpuBuffer> {
        match &self.storage {
            Storage::Gpu(g) => Some(g),
            Storage::Cpu(_) => None,
        }
    }

    pub fn scalar(value: Scalar, device: Device) -> Result<Array> {
        Array::full(&[], value, value.dtype(), device)
    }

    pub fn layout(&self) -> &Layout {
        &self.layout
    }

    pub fn storage(&self) -> &Storage {
        &self.storage
    }

    /// The same elements seen through another layout of this buffer.
    pub fn with_layout(&self, layout: Layout) -> Array {
        Array {
            layout,
            storage: self.storage.clone(),
        }
    }

    pub fn shape(&self) -> &[usize] {
        &self.layout.shape
    }

    pub fn ndim(&self) -> usize {
        self.layout.ndim()
    }

    pub fn size(&self) -> usize {
        self.layout.size()
    }

    pub fn nbytes(&self) -> usize {
        self.size() * self.dtype().size()
    }

    pub fn dtype(&self) -> DType {
        match &self.storage {
            Storage::Cpu(b) => b.dtype(),
            Storage::Gpu(g) => g.dtype(),
        }
    }

    pub fn device(&self) -> Device {
        match &self.storage {
            Storage::Cpu(_) => Device::Cpu,
            Storage::Gpu(_) => Device::Gpu,
        }
    }

    /// True when both arrays read one buffer (so an in-place write to one may change the other).
    pub fn shares_buffer(&self, other: &Array) -> bool {
        match (&self.storage, &other.storage) {
            (Storage::Cpu(a), Storage::Cpu(b)) => a.same_buffer(b),
            (Storage::Gpu(a), Storage::Gpu(b)) => a.same_buffer(b),
            _ => false,
        }
    }

    /// True when nothing else can see these elements: no variable, view or clone shares the
    /// buffer, so an operation may overwrite it (NumPy's temporary elision).
    pub fn is_sole_owner(&self) -> bool {
        match &self.storage {
            Storage::Cpu(b) => b.strong_count() == 1,
            Storage::Gpu(g) => g.strong_count() == 1,
        }
    }

    /// This array's elements on the host: itself on the cpu; for a gpu array, a counted copy
    /// (every gpu operation has its own kernel path, so only host reads such as printing and
    /// saving come here).
    fn on_host(&self) -> std::borrow::Cow<'_, Array> {
        match &self.storage {
            Storage::Cpu(_) => std::borrow::Cow::Borrowed(self),
            Storage::Gpu(_) => std::borrow::Cow::Owned(
                self.to_device(Device::Cpu)
                    .unwrap_or_else(|e| panic!("the gpu failed while copying to the host: {e}")),
            ),
        }
    }

    fn cpu_buffer(&self) -> &CpuBuffer {
        match &self.storage {
            Storage::Cpu(b) => b,
            Storage::Gpu(_) => unreachable!("gpu arrays are read through on_host"),
        }
    }

    /// Runs `f` on an ndarray view of the elements; `T` must be this array's element type.
    pub fn with_view<T: CpuElement, R>(&self, f: impl FnOnce(ArrayViewD<T>) -> R) -> R {
        let host = self.on_host();
        let buffer =
            T::buffer(host.cpu_buffer()).expect("with_view is called with the array's own dtype");
        let data = buffer.borrow();
        f(cpu::view(&data, &host.layout))
    }

    /// Runs `f` on a writable view of a cpu array; `T` must be this array's element type.
    pub fn with_view_mut<T: CpuElement, R>(&self, f: impl FnOnce(ArrayViewMutD<T>) -> R) -> R {
        let buffer = T::buffer(self.cpu_buffer())
            .expect("with_view_mut is called with the array's own dtype");
        let mut data = buffer.borrow_mut();
        f(cpu::view_mut(&mut data, &self.layout))
    }

    /// Runs `f` on the elements as `T`: a view when the dtype matches, else a converted copy.
    pub fn with_view_as<T: CpuElement, R>(&self, f: impl FnOnce(ArrayViewD<T>) -> R) -> R {
        if self.dtype() == T::DTYPE {
            return self.with_view(f);
        }
        let converted: ArrayD<T> = with_dtype4!(self.dtype(), S => self.with_view::<S, _>(|v| cpu::map(v, cpu::convert::<S, T>)));
        f(converted.view())
    }

    /// The elements in C order as `T` (from a gpu array: one counted device→host copy).
    pub fn to_vec<T: CpuElement>(&self) -> Vec<T> {
        with_dtype4!(self.dtype(), S => self.with_view::<S, _>(|v| cpu::to_vec_as::<S, T>(v)))
    }

    pub fn astype(&self, dtype: DType) -> Result<Array> {
        if self.device() == Device::Gpu {
            return on_gpu::converted(self, dtype);
        }
        check_allocation(self.size(), dtype)?;
        Ok(with_dtype4!(dtype, T => Array::from_vec(self.to_vec::<T>(), self.shape().to_vec())))
    }

    /// A fresh C-ordered copy on the same device.
    pub fn copy(&self) -> Result<Array> {
        if self.device() == Device::Gpu {
            return on_gpu::converted(self, self.dtype());
        }
        Ok(
            with_dtype4!(self.dtype(), T => Array::from_vec(self.to_vec::<T>(), self.shape().to_vec())),
        )
    }

    /// The single element of a size-1 array, read to the host.
    pub fn item(&self) -> Result<Scalar> {
        if self.size() != 1 {
            return Err(value_error(format!(
                "only size-1 arrays can be converted to a scalar (this one has {} elements)",
                self.size()
            )));
        }
        let index = vec![0; self.ndim()];
        self.element(&index)
    }

    /// One element (indices already checked), read to the host: from a gpu array, one counted
    /// device→host copy of its bytes.
    pub fn element(&self, index: &[usize]) -> Result<Scalar> {
        let offset = self.layout.element_offset(index);
        match &self.storage {
            Storage::Cpu(b) => Ok(with_dtype4!(self.dtype(), T => {
                let buffer = T::buffer(b).expect("dtype matches its buffer");
                let value = buffer.borrow()[offset];
                Scalar::of(value)
            })),
            Storage::Gpu(g) => on_gpu::element(g, offset),
        }
    }

    /// A copy on `device`: one counted transfer when the device changes.
    pub fn to_device(&self, device: Device) -> Result<Array> {
        match (self.device(), device) {
            (Device::Cpu, Device::Cpu) | (Device::Gpu, Device::Gpu) => Ok(self.clone()),
            (Device::Cpu, Device::Gpu) => on_gpu::upload(self),
            (Device::Gpu, Device::Cpu) => on_gpu::download(self),
        }
    }
}
