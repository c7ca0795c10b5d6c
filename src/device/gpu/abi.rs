//! The kernels' argument types and op codes, field for field as `kernels/common.cuh` and the
//! `.cu` files declare them.

use super::memory::GpuBuffer;
use crate::array::dtype::DType;
use crate::array::layout::Layout;
use crate::array::Scalar;
use crate::error::{shape_error, Result};

pub const MAX_DIMS: usize = 16;

#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct ShapeArg {
    pub dims: [i64; MAX_DIMS],
    pub size: i64,
    pub ndim: i32,
}

#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct OperandArg {
    pub ptr: u64,
    pub offset: i64,
    pub strides: [i64; MAX_DIMS],
    pub fvalue: f64,
    pub ivalue: i64,
    pub dtype: i32,
    pub mode: i32,
}

const CONTIGUOUS: i32 = 0;
const STRIDED: i32 = 1;
const IMMEDIATE: i32 = 2;

pub fn dtype_code(dtype: DType) -> i32 {
    match dtype {
        DType::Bool => 0,
        DType::I64 => 1,
        DType::F32 => 2,
        DType::F64 => 3,
    }
}

/// The kernel name suffix of a computation type.
pub fn suffix(dtype: DType) -> &'static str {
    match dtype {
        DType::Bool => "bool",
        DType::I64 => "i64",
        DType::F32 => "f32",
        DType::F64 => "f64",
    }
}

impl ShapeArg {
    pub fn new(shape: &[usize]) -> Result<ShapeArg> {
        if shape.len() > MAX_DIMS {
            return Err(shape_error(format!(
                "gpu arrays have at most {MAX_DIMS} dimensions, this one has {}",
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

impl OperandArg {
    /// An array operand over an iteration shape its layout already has (broadcast beforehand).
    pub fn array(buffer: &GpuBuffer, layout: &Layout) -> OperandArg {
        let mut strides = [0i64; MAX_DIMS];
        for (s, &stride) in strides.iter_mut().zip(&layout.strides) {
            *s = stride as i64;
        }
        OperandArg {
            ptr: buffer.device_pointer(),
            offset: layout.offset as i64,
            strides,
            fvalue: 0.0,
            ivalue: 0,
            dtype: dtype_code(buffer.dtype()),
            mode: if layout.is_contiguous() {
                CONTIGUOUS
            } else {
                STRIDED
            },
        }
    }

    /// A host scalar travelling as a kernel argument.
    pub fn immediate(value: Scalar) -> OperandArg {
        let (fvalue, ivalue, dtype) = match value {
            Scalar::Bool(b) => (b as i64 as f64, b as i64, DType::Bool),
            Scalar::Int(i) => (i as f64, i, DType::I64),
            Scalar::Float(f) => (f, f as i64, DType::F64),
        };
        OperandArg {
            ptr: 0,
            offset: 0,
            strides: [0; MAX_DIMS],
            fvalue,
            ivalue,
            dtype: dtype_code(dtype),
            mode: IMMEDIATE,
        }
    }
}

/// Merges neighbouring axes that every layout walks as one (row-major order kept), so kernels
/// over views do less index arithmetic: a contiguous slice of a matrix becomes one flat axis.
pub fn collapse(shape: &[usize], layouts: &mut [&mut Layout]) -> Vec<usize> {
    let mut merged: Vec<usize> = Vec::with_capacity(shape.len());
    let mut strides: Vec<Vec<isize>> = vec![Vec::with_capacity(shape.len()); layouts.len()];
    for (axis, &n) in shape.iter().enumerate() {
        if n == 1 && !shape.is_empty() && axis > 0 {
            continue;
        }
        let joinable = merged.last().is_some_and(|_| {
            layouts.iter().zip(&strides).all(|(l, s)| {
                let previous = *s.last().expect("same length as merged");
                previous == l.strides[axis] * n as isize
            })
        });
        if joinable {
            *merged.last_mut().expect("checked") *= n;
            for (l, s) in layouts.iter().zip(strides.iter_mut()) {
                *s.last_mut().expect("checked") = l.strides[axis];
            }
        } else {
            merged.push(n);
            for (l, s) in layouts.iter().zip(strides.iter_mut()) {
                s.push(l.strides[axis]);
            }
        }
    }
    for (l, s) in layouts.iter_mut().zip(strides) {
        l.shape = merged.clone();
        l.strides = s;
    }
    merged
}

pub mod binary {
    pub const ADD: i32 = 0;
    pub const SUB: i32 = 1;
    pub const MUL: i32 = 2;
    pub const DIV: i32 = 3;
    pub const MOD: i32 = 4;
    pub const POW: i32 = 5;
    pub const MAX: i32 = 6;
    pub const MIN: i32 = 7;
    pub const EQ: i32 = 8;
    pub const NE: i32 = 9;
    pub const LT: i32 = 10;
    pub const LE: i32 = 11;
    pub const GT: i32 = 12;
    pub const GE: i32 = 13;
    pub const OR: i32 = 14;
    pub const AND: i32 = 15;
    pub const SECOND: i32 = 16;
}

pub mod unary {
    pub const NEG: i32 = 0;
    pub const ABS: i32 = 1;
    pub const SQRT: i32 = 2;
    pub const EXP: i32 = 3;
    pub const LOG: i32 = 4;
    pub const LOG2: i32 = 5;
    pub const LOG10: i32 = 6;
    pub const SIN: i32 = 7;
    pub const COS: i32 = 8;
    pub const TAN: i32 = 9;
    pub const TANH: i32 = 10;
    pub const FLOOR: i32 = 11;
    pub const CEIL: i32 = 12;
    pub const ROUND: i32 = 13;
    pub const SIGN: i32 = 14;
    pub const ISNAN: i32 = 15;
    pub const ISINF: i32 = 16;
    pub const NOT: i32 = 17;
}

pub mod reduce {
    pub const SUM: i32 = 0;
    pub const PROD: i32 = 1;
    pub const MIN: i32 = 2;
    pub const MAX: i32 = 3;
    pub const ARGMIN: i32 = 4;
    pub const ARGMAX: i32 = 5;
    pub const ANY: i32 = 6;
    pub const ALL: i32 = 7;
    pub const SQUARED_DEVIATION: i32 = 8;

    pub const FINISH_NONE: i32 = 0;
    pub const FINISH_DIVIDE: i32 = 1;
    pub const FINISH_SQRT_DIVIDE: i32 = 2;
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn argument_structs_match_the_cuda_layout() {
        assert_eq!(std::mem::size_of::<ShapeArg>(), 8 * MAX_DIMS + 8 + 8);
        assert_eq!(
            std::mem::size_of::<OperandArg>(),
            8 + 8 + 8 * MAX_DIMS + 8 + 8 + 4 + 4
        );
    }

    #[test]
    fn collapse_merges_contiguous_axes() {
        let mut a = Layout::contiguous(&[4, 5, 6]);
        let shape = collapse(&[4, 5, 6], &mut [&mut a]);
        assert_eq!(shape, vec![120]);
        assert_eq!(a.strides, vec![1]);

        // A column slice x[:, 1:3] of a 4×5 matrix cannot merge its two axes.
        let mut view = Layout {
            shape: vec![4, 2],
            strides: vec![5, 1],
            offset: 1,
        };
        let shape = collapse(&[4, 2], &mut [&mut view]);
        assert_eq!(shape, vec![4, 2]);

        // A broadcast row (stride 0) next to a contiguous output.
        let mut out = Layout::contiguous(&[3, 4]);
        let mut row = Layout {
            shape: vec![3, 4],
            strides: vec![0, 1],
            offset: 0,
        };
        let shape = collapse(&[3, 4], &mut [&mut out, &mut row]);
        assert_eq!(shape, vec![3, 4]);
    }
}
