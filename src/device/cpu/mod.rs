//! The cpu device: arrays in host memory, computed with ndarray (rayon for large arrays).
//! Buffers are shared (`Rc<RefCell<…>>`) so that slices are views that write through.

pub mod conv;
pub mod linalg;
pub mod npy;
pub mod random;
pub mod retain;
pub mod sum;

use std::cell::RefCell;
use std::rc::Rc;

use ndarray::{ArrayD, ArrayViewD, ArrayViewMutD, IxDyn, ShapeBuilder, Zip};

use crate::array::dtype::{DType, Element};
use crate::array::format::FormatData;
use crate::array::layout::Layout;

/// Arrays at least this large are processed by all cores.
pub const PARALLEL_THRESHOLD: usize = 1 << 15;

pub type Buffer<T> = Rc<RefCell<Vec<T>>>;

#[derive(Clone, Debug)]
pub enum CpuBuffer {
    F64(Buffer<f64>),
    F32(Buffer<f32>),
    I64(Buffer<i64>),
    Bool(Buffer<bool>),
}

impl CpuBuffer {
    pub fn dtype(&self) -> DType {
        match self {
            CpuBuffer::F64(_) => DType::F64,
            CpuBuffer::F32(_) => DType::F32,
            CpuBuffer::I64(_) => DType::I64,
            CpuBuffer::Bool(_) => DType::Bool,
        }
    }

    pub fn strong_count(&self) -> usize {
        match self {
            CpuBuffer::F64(b) => Rc::strong_count(b),
            CpuBuffer::F32(b) => Rc::strong_count(b),
            CpuBuffer::I64(b) => Rc::strong_count(b),
            CpuBuffer::Bool(b) => Rc::strong_count(b),
        }
    }

    pub fn same_buffer(&self, other: &CpuBuffer) -> bool {
        match (self, other) {
            (CpuBuffer::F64(a), CpuBuffer::F64(b)) => Rc::ptr_eq(a, b),
            (CpuBuffer::F32(a), CpuBuffer::F32(b)) => Rc::ptr_eq(a, b),
            (CpuBuffer::I64(a), CpuBuffer::I64(b)) => Rc::ptr_eq(a, b),
            (CpuBuffer::Bool(a), CpuBuffer::Bool(b)) => Rc::ptr_eq(a, b),
            _ => false,
        }
    }
}

/// An element type the cpu device stores: ties a Rust type to its arm of `CpuBuffer`.
pub trait CpuElement: Element {
    fn buffer(buffer: &CpuBuffer) -> Option<&Buffer<Self>>;
    fn wrap(data: Vec<Self>) -> CpuBuffer;
    fn format_data(view: ArrayViewD<'_, Self>) -> FormatData<'_>;
}

macro_rules! cpu_element {
    ($t:ty, $arm:ident) => {
        impl CpuElement for $t {
            fn buffer(buffer: &CpuBuffer) -> Option<&Buffer<Self>> {
                match buffer {
                    CpuBuffer::$arm(b) => Some(b),
                    _ => None,
                }
            }
            fn wrap(data: Vec<Self>) -> CpuBuffer {
                CpuBuffer::$arm(Rc::new(RefCell::new(data)))
            }
            fn format_data(view: ArrayViewD<'_, Self>) -> FormatData<'_> {
                FormatData::$arm(view)
            }
        }
    };
}

cpu_element!(f64, F64);
cpu_element!(f32, F32);
cpu_element!(i64, I64);
cpu_element!(bool, Bool);

/// Runs `$body` with the type alias `$T` bound to the Rust type of `$dtype`.
#[macro_export]
macro_rules! with_dtype4 {
    ($dtype:expr, $T:ident => $body:expr) => {
        match $dtype {
            $crate::array::dtype::DType::F64 => {
                type $T = f64;
                $body
            }
            $crate::array::dtype::DType::F32 => {
                type $T = f32;
                $body
            }
            $crate::array::dtype::DType::I64 => {
                type $T = i64;
                $body
            }
            $crate::array::dtype::DType::Bool => {
                type $T = bool;
                $body
            }
        }
    };
}

/// The shape and strides of `layout` over `data`, as ndarray understands them: a slice starting
/// at the lowest address the layout touches, and strides that may be negative.
fn view_parts(layout: &Layout) -> (usize, ndarray::StrideShape<IxDyn>) {
    if layout.size() == 0 {
        let zeros = vec![0usize; layout.ndim()];
        return (0, IxDyn(&layout.shape).strides(IxDyn(&zeros)));
    }
    let low = layout.lowest_offset();
    let strides: Vec<usize> = layout.strides.iter().map(|&s| s as usize).collect();
    (low, IxDyn(&layout.shape).strides(IxDyn(&strides)))
}

pub fn view<'a, T>(data: &'a [T], layout: &Layout) -> ArrayViewD<'a, T> {
    let (low, shape) = view_parts(layout);
    ArrayViewD::from_shape(shape, &data[low.min(data.len())..])
        .expect("array layouts always lie inside their buffer")
}

pub fn view_mut<'a, T>(data: &'a mut [T], layout: &Layout) -> ArrayViewMutD<'a, T> {
    let (low, shape) = view_parts(layout);
    let len = data.len();
    ArrayViewMutD::from_shape(shape, &mut data[low.min(len)..])
        .expect("writable layouts lie inside their buffer and do not overlap themselves")
}

/// Elements per parallel task: large enough to amortise scheduling, small enough to balance.
const CHUNK: usize = 1 << 16;

/// An empty vector with room for `len` elements. Large buffers ask the kernel for huge pages
/// (as NumPy does): first-touch page faults otherwise cost more than the arithmetic.
pub fn vec_with_capacity<T>(len: usize) -> Vec<T> {
    let v: Vec<T> = Vec::with_capacity(len);
    advise_huge_pages(&v);
    v
}

/// `vec_with_capacity`, or `None` when the allocator refuses (instead of aborting).
pub fn try_vec_with_capacity<T>(len: usize) -> Option<Vec<T>> {
    let mut v: Vec<T> = Vec::new();
    v.try_reserve_exact(len).ok()?;
    advise_huge_pages(&v);
    Some(v)
}

fn advise_huge_pages<T>(v: &Vec<T>) {
    let bytes = v.capacity() * std::mem::size_of::<T>();
    const HUGE_PAGE: usize = 2 << 20;
    if bytes >= 2 * HUGE_PAGE {
        let start = (v.as_ptr() as usize).next_multiple_of(HUGE_PAGE);
        let end = (v.as_ptr() as usize + bytes) / HUGE_PAGE * HUGE_PAGE;
        if end > start {
            // SAFETY: the range lies inside this vector's allocation; madvise only changes how
            // the kernel backs it and fails harmlessly where huge pages are unavailable.
            unsafe {
                libc::madvise(start as *mut libc::c_void, end - start, libc::MADV_HUGEPAGE);
            }
        }
    }
}

/// A vector of `len` elements, element `i` being `f(i)`, computed on all cores when large.
/// `f` gets a chunk's first index and the chunk to fill.
fn build_vec<U: Send + Sync>(
    len: usize,
    fill: impl Fn(usize, &mut [std::mem::MaybeUninit<U>]) + Sync + Send,
) -> Vec<U> {
    use rayon::prelude::*;
    let mut out = vec_with_capacity::<U>(len);
    let spare = &mut out.spare_capacity_mut()[..len];
    if len >= PARALLEL_THRESHOLD {
        spare
            .par_chunks_mut(CHUNK)
            .enumerate()
            .for_each(|(k, chunk)| fill(k * CHUNK, chunk));
    } else {
        fill(0, spare);
    }
    // SAFETY: `fill` wrote every element of the first `len` slots (each caller writes its whole chunk).
    unsafe { out.set_len(len) };
    out
}

/// `len` copies of `value` (a fill).
pub fn filled_vec<T: Copy + Send + Sync>(len: usize, value: T) -> Vec<T> {
    build_vec(len, |_, chunk| {
        for o in chunk {
            o.write(value);
        }
    })
}

/// Elementwise map into a new standard-layout array, on all cores for large inputs.
pub fn map<T: Copy + Send + Sync, U: Copy + Send + Sync>(
    input: ArrayViewD<T>,
    f: impl Fn(T) -> U + Sync + Send,
) -> ArrayD<U> {
    if let Some(src) = input.as_slice() {
        let data = build_vec(src.len(), |start, chunk| {
            for (o, &x) in chunk.iter_mut().zip(&src[start..]) {
                o.write(f(x));
            }
        });
        return ArrayD::from_shape_vec(input.raw_dim(), data).expect("same element count");
    }
    if input.len() >= PARALLEL_THRESHOLD {
        Zip::from(&input).par_map_collect(|&x| f(x))
    } else {
        input.map(|&x| f(x))
    }
}

/// Elementwise combination of two arrays of one shape.
pub fn zip_map<T: Copy + Send + Sync, U: Copy + Send + Sync, V: Copy + Send + Sync>(
    a: ArrayViewD<T>,
    b: ArrayViewD<U>,
    f: impl Fn(T, U) -> V + Sync + Send,
) -> ArrayD<V> {
    if let (Some(x), Some(y)) = (a.as_slice(), b.as_slice()) {
        let data = build_vec(x.len(), |start, chunk| {
            for ((o, &p), &q) in chunk.iter_mut().zip(&x[start..]).zip(&y[start..]) {
                o.write(f(p, q));
            }
        });
        return ArrayD::from_shape_vec(a.raw_dim(), data).expect("same element count");
    }
    let zip = Zip::from(&a).and(&b);
    if a.len() >= PARALLEL_THRESHOLD {
        zip.par_map_collect(|&x, &y| f(x, y))
    } else {
        zip.map_collect(|&x, &y| f(x, y))
    }
}

/// `a[i] = f(a[i], b[i])` in place.
pub fn zip_assign<T: Copy + Send + Sync, U: Copy + Send + Sync>(
    mut a: ArrayViewMutD<T>,
    b: ArrayViewD<U>,
    f: impl Fn(T, U) -> T + Sync + Send,
) {
    let zip = Zip::from(&mut a).and(&b);
    if b.len() >= PARALLEL_THRESHOLD {
        zip.par_for_each(|x, &y| *x = f(*x, y));
    } else {
        zip.for_each(|x, &y| *x = f(*x, y));
    }
}

/// `a[i] = f(a[i])` in place.
pub fn map_assign<T: Copy + Send + Sync>(
    mut a: ArrayViewMutD<T>,
    f: impl Fn(T) -> T + Sync + Send,
) {
    use rayon::prelude::*;
    let len = a.len();
    match a.as_slice_mut() {
        Some(slice) if len >= PARALLEL_THRESHOLD => slice.par_chunks_mut(CHUNK).for_each(|chunk| {
            for x in chunk {
                *x = f(*x);
            }
        }),
        Some(slice) => slice.iter_mut().for_each(|x| *x = f(*x)),
        None if len >= PARALLEL_THRESHOLD => a.par_map_inplace(|x| *x = f(*x)),
        None => a.map_inplace(|x| *x = f(*x)),
    }
}

/// The elements of `view` in C order, converted to `U`.
pub fn to_vec_as<T: Element, U: Element>(view: ArrayViewD<T>) -> Vec<U> {
    into_c_order_vec(map(view, convert::<T, U>))
}

/// The elements of an owned array in C order (ndarray may have kept a transposed input's order).
pub fn into_c_order_vec<T: Copy>(array: ArrayD<T>) -> Vec<T> {
    if array.is_standard_layout() {
        let (data, offset) = array.into_raw_vec_and_offset();
        match offset {
            Some(0) | None => data,
            Some(start) => data[start..].to_vec(),
        }
    } else {
        array.iter().copied().collect()
    }
}

/// NumPy's `astype` conversion of one element.
pub fn convert<T: Element, U: Element>(x: T) -> U {
    match U::DTYPE {
        DType::Bool => U::from_bool(x.to_bool()),
        DType::I64 => match T::DTYPE {
            DType::I64 | DType::Bool => U::from_i64(x.to_i64()),
            _ => U::from_f64(x.to_f64()),
        },
        _ => match T::DTYPE {
            DType::I64 => U::from_i64(x.to_i64()),
            _ => U::from_f64(x.to_f64()),
        },
    }
}
