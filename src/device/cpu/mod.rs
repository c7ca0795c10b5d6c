//! The cpu device: arrays in host memory. Buffers are shared (`Rc<RefCell<…>>`) so that slices
//! are views that write through; elementwise work runs as plans (`crate::plan::cpu`), and the
//! rest with ndarray and rayon.

pub mod conv;
pub mod decompose;
pub mod fft;
pub mod linalg;
pub mod npy;
pub mod random;
pub mod retain;
pub mod threads;

use std::cell::RefCell;
use std::rc::Rc;

use ndarray::{ArrayD, ArrayViewD, ArrayViewMutD, IxDyn, ShapeBuilder};

use super::host::vec_with_capacity;
use crate::base::element::{c128, c64, f16, Element};
use crate::base::layout::Layout;
use crate::base::DType;

pub type Buffer<T> = Rc<RefCell<Vec<T>>>;

macro_rules! cpu_buffers {
    ($($arm:ident($t:ty)),* $(,)?) => {
        /// Elements of one dtype in host memory.
        #[derive(Clone, Debug)]
        pub enum CpuBuffer {
            $($arm(Buffer<$t>),)*
        }

        impl CpuBuffer {
            pub fn dtype(&self) -> DType {
                match self {
                    $(CpuBuffer::$arm(_) => DType::$arm,)*
                }
            }

            pub fn strong_count(&self) -> usize {
                match self {
                    $(CpuBuffer::$arm(b) => Rc::strong_count(b),)*
                }
            }

            /// The address of the allocation's bookkeeping: equal for clones of one buffer.
            pub fn id(&self) -> usize {
                match self {
                    $(CpuBuffer::$arm(b) => Rc::as_ptr(b) as *const u8 as usize,)*
                }
            }

            pub fn is_empty(&self) -> bool {
                self.len() == 0
            }

            pub fn len(&self) -> usize {
                match self {
                    // SAFETY: only the length is read; no borrow is held across this call.
                    $(CpuBuffer::$arm(b) => unsafe { (*b.as_ptr()).len() },)*
                }
            }

            /// The first element's address, for plans that read and write elements directly
            /// (no `RefCell` borrow: plans run while no borrow is held).
            pub fn raw_pointer(&self) -> *mut u8 {
                match self {
                    // SAFETY: see above; the vector is not resized while the pointer is used.
                    $(CpuBuffer::$arm(b) => unsafe { (*b.as_ptr()).as_mut_ptr() as *mut u8 },)*
                }
            }
        }

        $(
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
            }
        )*
    };
}

cpu_buffers!(
    Bool(bool),
    I8(i8),
    U8(u8),
    I16(i16),
    U16(u16),
    I32(i32),
    U32(u32),
    I64(i64),
    U64(u64),
    F16(f16),
    F32(f32),
    F64(f64),
    C64(c64),
    C128(c128),
);

impl CpuBuffer {
    pub fn same_buffer(&self, other: &CpuBuffer) -> bool {
        self.id() == other.id()
    }

    /// A buffer of `len` elements whose contents plans will write before anything reads.
    pub fn uninit(dtype: DType, len: usize) -> CpuBuffer {
        if dtype == DType::Bool {
            // bool has invalid bit patterns: zero it.
            return CpuBuffer::Bool(Rc::new(RefCell::new(vec![false; len])));
        }
        crate::with_dtype!(dtype, T => {
            let mut v: Vec<T> = vec_with_capacity(len);
            // SAFETY: numbers have no invalid bit patterns, and plans write every element
            // before it is read.
            unsafe { v.set_len(len) };
            T::wrap(v)
        })
    }
}

/// An element type the cpu device stores: ties a Rust type to its arm of `CpuBuffer`.
pub trait CpuElement: Element {
    fn buffer(buffer: &CpuBuffer) -> Option<&Buffer<Self>>;
    fn wrap(data: Vec<Self>) -> CpuBuffer;
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

/// The processor's name as the system reports it (its architecture when it does not).
pub fn model_name() -> String {
    if let Some(name) = brand_string() {
        return name;
    }
    std::fs::read_to_string("/proc/cpuinfo")
        .ok()
        .and_then(|info| {
            info.lines()
                .find(|l| l.starts_with("model name"))
                .and_then(|l| l.split(':').nth(1))
                .map(|m| m.trim().to_string())
        })
        .unwrap_or_else(|| std::env::consts::ARCH.to_string())
}

/// The processor's brand string from CPUID, the name `/proc/cpuinfo` shows, read without it:
/// the kernel builds that file by asking every core its clock, about 0.3 ms on 16 cores.
#[cfg(target_arch = "x86_64")]
fn brand_string() -> Option<String> {
    use std::arch::x86_64::__cpuid;
    const BRAND_LEAVES: [u32; 3] = [0x8000_0002, 0x8000_0003, 0x8000_0004];
    if __cpuid(0x8000_0000).eax < BRAND_LEAVES[2] {
        return None;
    }
    let bytes: Vec<u8> = BRAND_LEAVES
        .iter()
        .flat_map(|&leaf| {
            let r = __cpuid(leaf);
            [r.eax, r.ebx, r.ecx, r.edx]
        })
        .flat_map(u32::to_le_bytes)
        .take_while(|&b| b != 0)
        .collect();
    let name = String::from_utf8_lossy(&bytes).trim().to_string();
    (!name.is_empty()).then_some(name)
}

#[cfg(not(target_arch = "x86_64"))]
fn brand_string() -> Option<String> {
    None
}

/// The size in bytes of the cpu's last-level cache as Linux reports it (the largest cache of
/// cpu 0), or `None` where it does not. Read once.
pub fn last_level_cache_bytes() -> Option<usize> {
    static BYTES: std::sync::OnceLock<Option<usize>> = std::sync::OnceLock::new();
    *BYTES.get_or_init(|| caches().into_iter().map(|(_, bytes)| bytes).max())
}

/// The size in bytes of cpu 0's level-2 cache as Linux reports it, or `None`. Read once.
pub fn level_2_cache_bytes() -> Option<usize> {
    static BYTES: std::sync::OnceLock<Option<usize>> = std::sync::OnceLock::new();
    *BYTES.get_or_init(|| {
        caches()
            .into_iter()
            .find_map(|(level, bytes)| (level == 2).then_some(bytes))
    })
}

/// Cpu 0's caches as Linux lists them: each one's level and size in bytes.
fn caches() -> Vec<(u32, usize)> {
    let Ok(entries) = std::fs::read_dir("/sys/devices/system/cpu/cpu0/cache") else {
        return Vec::new();
    };
    entries
        .flatten()
        .filter_map(|entry| {
            let read = |name| std::fs::read_to_string(entry.path().join(name)).ok();
            let level = read("level")?.trim().parse().ok()?;
            Some((level, cache_size_bytes(read("size")?.trim())?))
        })
        .collect()
}

/// `"32768K"`, `"300M"` or a plain count of bytes.
fn cache_size_bytes(text: &str) -> Option<usize> {
    let (digits, unit) = match text.strip_suffix('K') {
        Some(digits) => (digits, 1 << 10),
        None => match text.strip_suffix('M') {
            Some(digits) => (digits, 1 << 20),
            None => (text, 1),
        },
    };
    digits.parse::<usize>().ok()?.checked_mul(unit)
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

#[cfg(test)]
mod tests {
    use super::cache_size_bytes;

    #[test]
    fn cache_sizes_read_as_linux_writes_them() {
        assert_eq!(cache_size_bytes("32768K"), Some(32 << 20));
        assert_eq!(cache_size_bytes("300M"), Some(300 << 20));
        assert_eq!(cache_size_bytes("1024"), Some(1024));
        assert_eq!(cache_size_bytes("large"), None);
    }
}
