//! The hand-written kernels' argument types, field for field as `kernels/index.cu` declares them.

use super::memory::GpuBuffer;
use crate::base::layout::Layout;
use crate::error::{shape_error, Result};

pub const MAX_DIMS: usize = 16;

#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct ShapeArg {
    pub dims: [i64; MAX_DIMS],
    pub size: i64,
    pub ndim: i32,
}

/// A strided view of device memory (`View`): element offset and strides in elements.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct ViewArg {
    pub ptr: u64,
    pub offset: i64,
    pub strides: [i64; MAX_DIMS],
}

impl ShapeArg {
    pub fn new(shape: &[usize]) -> Result<ShapeArg> {
        if shape.len() > MAX_DIMS {
            return Err(shape_error(format!(
                "gpu arrays have at most {MAX_DIMS} dimensions here, this one has {}",
                shape.len()
            )));
        }
        let mut dims = [1i64; MAX_DIMS];
        for (d, &n) in dims.iter_mut().zip(shape) {
            *d = n as i64;
        }
        Ok(ShapeArg {
            dims,
            size: shape.iter().product::<usize>() as i64,
            ndim: shape.len() as i32,
        })
    }
}

impl ViewArg {
    pub fn new(buffer: &GpuBuffer, layout: &Layout) -> ViewArg {
        let mut strides = [0i64; MAX_DIMS];
        for (s, &stride) in strides.iter_mut().zip(&layout.strides) {
            *s = stride as i64;
        }
        ViewArg {
            ptr: buffer.device_pointer(),
            offset: layout.offset as i64,
            strides,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn argument_structs_match_the_cuda_layout() {
        assert_eq!(std::mem::size_of::<ShapeArg>(), 8 * MAX_DIMS + 8 + 8);
        assert_eq!(std::mem::size_of::<ViewArg>(), 8 + 8 + 8 * MAX_DIMS);
    }
}
