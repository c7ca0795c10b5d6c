//! `Array`: a layout over elements on one device. This layer knows NumPy's rules
//! (broadcasting, dtype resolution, indexing, reductions, printing) and expresses elementwise
//! work as plans (`crate::plan`), which the devices run.

pub mod calibrate;
pub mod contract;
pub mod decompositions;
pub mod fft;
pub mod format;
pub mod gpu_decompositions;
pub mod gpu_fft;
pub mod gpu_sort;
pub mod histogram;
pub mod index;
pub mod join;
pub mod linalg;
pub mod matrix_functions;
pub mod on_gpu;
pub mod ops;
pub mod random;
pub mod reduce;
pub mod search;
pub mod sets;
pub mod shape;
pub mod sort;
pub mod statistics;
pub mod user_kernels;

use ndarray::{ArrayD, ArrayViewD, ArrayViewMutD};

use crate::base::element::Element;
use crate::base::layout::{shape_size, Layout};
use crate::base::{DType, Scalar};
use crate::device::cpu::{self, CpuBuffer, CpuElement};
use crate::device::{Buffer, Device};
use crate::error::{value_error, Result};
use crate::plan::{self, Expr, Storage};
use crate::with_dtype;

/// An n-d array. Cloning shares the elements: clones and slices are views of the same elements.
#[derive(Clone, Debug)]
pub struct Array {
    layout: Layout,
    storage: Storage,
    /// Placed on its device by the user (`device=`, `to()`), so `device=auto` never moves it.
    placed: bool,
}

impl Array {
    pub fn new(storage: Storage, layout: Layout) -> Array {
        Array {
            layout,
            storage,
            placed: false,
        }
    }

    /// A cpu array owning `data` laid out in C order with `shape`.
    pub fn from_vec<T: CpuElement>(data: Vec<T>, shape: Vec<usize>) -> Array {
        debug_assert_eq!(data.len(), shape.iter().product::<usize>());
        Array {
            layout: Layout::contiguous(&shape),
            storage: Storage::Ready(Buffer::Cpu(T::wrap(data))),
            placed: false,
        }
    }

    pub fn from_ndarray<T: CpuElement>(array: ArrayD<T>) -> Array {
        let shape = array.shape().to_vec();
        Array::from_vec(cpu::into_c_order_vec(array), shape)
    }

    /// An array over all of `buffer`, C-ordered with `shape`.
    pub fn from_buffer(buffer: Buffer, shape: &[usize]) -> Array {
        Array {
            layout: Layout::contiguous(shape),
            storage: Storage::Ready(buffer),
            placed: false,
        }
    }

    /// A new array of `shape` whose elements a plan computes.
    pub fn planned(device: Device, shape: &[usize], expr: Expr) -> Result<Array> {
        Ok(Array {
            layout: Layout::contiguous(shape),
            storage: plan::value(device, shape, expr)?,
            placed: false,
        })
    }

    /// An array of `shape` filled with `value`, as `full` does: a fill, not a transfer.
    pub fn full(shape: &[usize], value: Scalar, dtype: DType, device: Device) -> Result<Array> {
        shape_size(shape)?;
        Array::planned(device, shape, Expr::scalar(value, dtype))
    }

    pub fn scalar(value: Scalar, device: Device) -> Result<Array> {
        Array::full(&[], value, value.dtype(), device)
    }

    pub fn layout(&self) -> &Layout {
        &self.layout
    }

    /// Where the elements are, for building plans (which run deferred work as needed).
    pub fn storage(&self) -> &Storage {
        &self.storage
    }

    /// This array as a plan operand.
    pub fn operand(&self) -> plan::Operand<'_> {
        plan::Operand {
            storage: &self.storage,
            layout: &self.layout,
        }
    }

    /// The buffer of the elements, with any deferred work they take part in done first: what
    /// every access other than a plan goes through.
    pub fn buffer(&self) -> Result<Buffer> {
        plan::ready(&self.storage)
    }

    /// The same elements seen through another layout.
    pub fn with_layout(&self, layout: Layout) -> Array {
        Array {
            layout,
            storage: self.storage.clone(),
            placed: self.placed,
        }
    }

    /// Whether the user chose its device (`device=`, `to()`): `device=auto` leaves it there.
    pub fn placed_by_user(&self) -> bool {
        self.placed
    }

    pub fn mark_placed_by_user(&mut self) {
        self.placed = true;
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
        self.storage.dtype()
    }

    pub fn device(&self) -> Device {
        self.storage.device()
    }

    /// True when both arrays see one set of elements (a write through one may change the other).
    pub fn shares_buffer(&self, other: &Array) -> bool {
        self.storage.same(&other.storage)
    }

    /// This array's elements on the host: itself on the cpu; for a gpu array, a counted copy.
    fn on_host(&self) -> Result<Array> {
        match self.device() {
            Device::Cpu => Ok(self.clone()),
            Device::Gpu => self.to_device(Device::Cpu),
        }
    }

    /// Runs `f` on an ndarray view of the elements as `T`, which must be this array's element
    /// type (a gpu array is copied to the host first, one counted transfer).
    pub fn with_view<T: CpuElement, R>(&self, f: impl FnOnce(ArrayViewD<T>) -> R) -> Result<R> {
        let host = self.on_host()?;
        let buffer = host.buffer()?;
        let cpu = buffer.cpu().expect("on the host");
        let data = T::buffer(cpu)
            .expect("with_view is called with the array's own dtype")
            .borrow();
        Ok(f(cpu::view(&data, &host.layout)))
    }

    /// Runs `f` on a writable view of a cpu array; `T` must be this array's element type.
    pub fn with_view_mut<T: CpuElement, R>(
        &self,
        f: impl FnOnce(ArrayViewMutD<T>) -> R,
    ) -> Result<R> {
        let buffer = self.buffer()?;
        let cpu = buffer.cpu().expect("with_view_mut is for cpu arrays");
        let mut data = T::buffer(cpu)
            .expect("with_view_mut is called with the array's own dtype")
            .borrow_mut();
        Ok(f(cpu::view_mut(&mut data, &self.layout)))
    }

    /// The elements in C order as `T` (converted as `astype` converts; from a gpu array, one
    /// counted device→host copy).
    pub fn to_vec<T: CpuElement>(&self) -> Result<Vec<T>> {
        let typed = if self.dtype() == T::DTYPE && self.layout.is_contiguous() {
            self.clone()
        } else {
            self.astype(T::DTYPE)?
        };
        typed.with_view::<T, _>(|v| v.iter().copied().collect())
    }

    /// A copy converted to `dtype` (NumPy's `astype`), on the same device.
    pub fn astype(&self, dtype: DType) -> Result<Array> {
        let leaf = plan::input(self.shape(), &self.operand(), None)?;
        Array::planned(self.device(), self.shape(), leaf.cast(dtype))
    }

    /// A fresh C-ordered copy on the same device.
    pub fn copy(&self) -> Result<Array> {
        self.astype(self.dtype())
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
        match self.buffer()? {
            Buffer::Cpu(b) => Ok(with_dtype!(self.dtype(), T => {
                let data = T::buffer(&b).expect("dtype matches its buffer");
                let value = data.borrow()[offset];
                value.to_scalar()
            })),
            Buffer::Gpu(g) => on_gpu::element(&g, offset),
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

    /// This array with C-ordered elements: itself when it already is, else a copy.
    pub fn contiguous(&self) -> Result<Array> {
        if self.layout.is_contiguous() {
            Ok(self.clone())
        } else {
            self.copy()
        }
    }
}

/// The cpu buffer of an element type, for code that builds host arrays.
pub fn cpu_data<T: CpuElement>(buffer: &CpuBuffer) -> &cpu::Buffer<T> {
    T::buffer(buffer).expect("the buffer holds T")
}

/// A host scalar of element type `T` (for callers generic over element types).
pub fn scalar_of<T: Element>(x: T) -> Scalar {
    x.to_scalar()
}
