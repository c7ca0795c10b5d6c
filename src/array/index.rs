//! `x[...]` and `x[...] = v`: basic indices make views; a bool mask or an i64 index array
//! (one advanced index, the only subscript) makes a copy when read and writes through when stored.

use super::ops::{self, Operand};
use super::{on_gpu, Array};
use crate::base::layout::{normalize_index, shape_text, AxisIndex};
use crate::base::{DType, Scalar};
use crate::device::cpu::CpuElement;
use crate::device::Device;
use crate::error::{index_error, Result};
use crate::with_dtype;

/// One subscript as the interpreter evaluated it.
#[derive(Clone, Debug)]
pub enum Subscript {
    Basic(AxisIndex),
    Array(Array),
}

/// What an index reads: a host scalar when every axis got a position, else an array.
pub enum Selection {
    Scalar(Scalar),
    Array(Array),
}

fn basic_indices(subscripts: &[Subscript]) -> Option<Vec<AxisIndex>> {
    subscripts
        .iter()
        .map(|s| match s {
            Subscript::Basic(b) => Some(*b),
            Subscript::Array(_) => None,
        })
        .collect()
}

fn single_advanced(subscripts: &[Subscript]) -> Result<&Array> {
    match subscripts {
        [Subscript::Array(index)] => Ok(index),
        _ => Err(index_error(
            "an index array (bool mask or i64 positions) must be the only subscript",
        )),
    }
}

/// The view a basic index (positions and slices only) selects; `None` for index arrays.
pub fn basic_view(a: &Array, subscripts: &[Subscript]) -> Result<Option<Array>> {
    match basic_indices(subscripts) {
        Some(basic) => Ok(Some(a.with_layout(a.layout().index(&basic)?))),
        None => Ok(None),
    }
}

pub fn get(a: &Array, subscripts: &[Subscript]) -> Result<Selection> {
    if let Some(basic) = basic_indices(subscripts) {
        let layout = a.layout().index(&basic)?;
        let all_positions =
            basic.len() == a.ndim() && basic.iter().all(|b| matches!(b, AxisIndex::At(_)));
        if all_positions {
            let view = a.with_layout(layout);
            return Ok(Selection::Scalar(view.element(&[])?));
        }
        return Ok(Selection::Array(a.with_layout(layout)));
    }
    let index = &index_array(a, single_advanced(subscripts)?)?;
    Ok(Selection::Array(match index.dtype() {
        DType::Bool => masked(a, index)?,
        _ => gathered(a, index)?,
    }))
}

/// The index array on the indexed array's device, as bool (a mask) or i64 (positions): an
/// index made elsewhere (a list literal under another default device) is copied there, one
/// counted transfer, as CuPy accepts NumPy indices.
fn index_array(a: &Array, index: &Array) -> Result<Array> {
    let index = index.to_device(a.device())?;
    match index.dtype() {
        DType::Bool | DType::I64 => Ok(index),
        d if d.is_integer() => index.astype(DType::I64),
        other => Err(index_error(format!(
            "arrays used as indices must be of integer or bool type, not {other}"
        ))),
    }
}

fn check_mask_shape(a: &Array, mask: &Array) -> Result<()> {
    let k = mask.ndim();
    if k == 0 || k > a.ndim() || mask.shape() != &a.shape()[..k] {
        return Err(index_error(format!(
            "boolean index did not match indexed array: array is {}, mask is {}",
            shape_text(a.shape()),
            shape_text(mask.shape())
        )));
    }
    Ok(())
}

/// Positions (in C order) of the elements a mask selects, checked against the array's shape.
fn mask_positions(a: &Array, mask: &Array) -> Result<(Vec<usize>, usize)> {
    check_mask_shape(a, mask)?;
    let chosen: Vec<usize> = mask
        .to_vec::<bool>()?
        .iter()
        .enumerate()
        .filter(|(_, &keep)| keep)
        .map(|(i, _)| i)
        .collect();
    Ok((chosen, a.shape()[mask.ndim()..].iter().product()))
}

/// Element positions (C order) of each gathered row, with negative indices resolved.
fn gather_rows(a: &Array, index: &Array) -> Result<Vec<usize>> {
    if a.ndim() == 0 {
        return Err(index_error("a 0-d array cannot be indexed with an array"));
    }
    let len = a.shape()[0];
    index
        .to_vec::<i64>()?
        .into_iter()
        .map(|i| normalize_index(i, len, 0))
        .collect()
}

fn take_rows<T: CpuElement>(
    a: &Array,
    rows: &[usize],
    row_size: usize,
    shape: Vec<usize>,
) -> Result<Array> {
    let flat = a.contiguous()?;
    let data = flat.with_view::<T, _>(|v| {
        let slice = v.to_slice().expect("contiguous");
        let mut out = Vec::with_capacity(rows.len() * row_size);
        for &r in rows {
            out.extend_from_slice(&slice[r * row_size..(r + 1) * row_size]);
        }
        out
    })?;
    Ok(Array::from_vec(data, shape))
}

fn masked(a: &Array, mask: &Array) -> Result<Array> {
    if a.device() == Device::Gpu {
        check_mask_shape(a, mask)?;
        return on_gpu::masked(a, mask);
    }
    let (rows, row_size) = mask_positions(a, mask)?;
    let mut shape = vec![rows.len()];
    shape.extend_from_slice(&a.shape()[mask.ndim()..]);
    with_dtype!(a.dtype(), T => take_rows::<T>(a, &rows, row_size, shape))
}

fn gathered(a: &Array, index: &Array) -> Result<Array> {
    if a.device() == Device::Gpu {
        return on_gpu::gather(a, index);
    }
    let rows = gather_rows(a, index)?;
    let row_size = a.shape()[1..].iter().product();
    let mut shape = index.shape().to_vec();
    shape.extend_from_slice(&a.shape()[1..]);
    with_dtype!(a.dtype(), T => take_rows::<T>(a, &rows, row_size, shape))
}

/// `a[subscripts] = value`, broadcasting `value` and converting it to `a`'s dtype.
pub fn set(a: &Array, subscripts: &[Subscript], value: Operand) -> Result<()> {
    if let Some(basic) = basic_indices(subscripts) {
        let view = a.with_layout(a.layout().index(&basic)?);
        if let Operand::Array(v) = value {
            let fits = crate::base::layout::broadcast_shapes(v.shape(), view.shape())
                .map(|s| s == view.shape())
                .unwrap_or(false);
            if !fits {
                return Err(crate::error::shape_error(format!(
                    "could not broadcast input array from shape {} into shape {}",
                    shape_text(v.shape()),
                    shape_text(view.shape())
                )));
            }
        }
        return ops::assign(&view, value);
    }
    let index = &index_array(a, single_advanced(subscripts)?)?;
    if a.device() == Device::Gpu {
        return set_on_gpu(a, index, value);
    }
    let (rows, row_size) = match index.dtype() {
        DType::Bool => mask_positions(a, index)?,
        _ => (gather_rows(a, index)?, a.shape()[1..].iter().product()),
    };
    let values: Array = match value {
        Operand::Scalar(s) => Array::full(&[rows.len() * row_size], s, a.dtype(), a.device())?,
        Operand::Array(v) => {
            let wanted = [rows.len() * row_size];
            if v.size() == 1 {
                Array::full(&wanted, v.item()?, a.dtype(), a.device())?
            } else if v.size() == wanted[0] {
                super::shape::ravel(v)?
            } else if row_size > 0 && v.size() == row_size {
                let row = super::shape::ravel(v)?;
                let tiled: Vec<Array> = (0..rows.len()).map(|_| row.clone()).collect();
                match tiled.is_empty() {
                    true => Array::full(&[0], Scalar::Int(0), a.dtype(), a.device())?,
                    false => super::shape::concatenate(&tiled, 0)?,
                }
            } else {
                return Err(crate::error::shape_error(format!(
                    "cannot assign {} values to the {} elements selected",
                    v.size(),
                    wanted[0]
                )));
            }
        }
    };
    if !a.layout().is_contiguous() {
        return Err(index_error(
            "assignment through an index array needs a contiguous array; copy it first",
        ));
    }
    with_dtype!(a.dtype(), T => {
        let source: Vec<T> = values.to_vec::<T>()?;
        a.with_view_mut::<T, _>(|mut target| {
            let slice = target.as_slice_mut().expect("contiguous");
            for (k, &r) in rows.iter().enumerate() {
                slice[r * row_size..(r + 1) * row_size].copy_from_slice(&source[k * row_size..(k + 1) * row_size]);
            }
        })?;
    });
    Ok(())
}

/// `a[index] = value` for a gpu array and an index array, with the cpu path's shape rules.
fn set_on_gpu(a: &Array, index: &Array, value: Operand) -> Result<()> {
    if let Operand::Array(v) = value {
        if v.device() != a.device() {
            return Err(ops::device_mismatch(a, v));
        }
    }
    match index.dtype() {
        DType::Bool => {
            check_mask_shape(a, index)?;
            on_gpu::set_masked(a, index, value)
        }
        _ => {
            if a.ndim() == 0 {
                return Err(index_error("a 0-d array cannot be indexed with an array"));
            }
            let row_shape = &a.shape()[1..];
            let row_size: usize = row_shape.iter().product();
            let wanted = index.size() * row_size;
            let mut shape = index.shape().to_vec();
            shape.extend_from_slice(row_shape);
            let values = match value {
                Operand::Scalar(s) => Array::full(&[wanted], s, a.dtype(), a.device())?,
                Operand::Array(v)
                    if v.size() == 1 || (v.size() == row_size && v.size() != wanted) =>
                {
                    let v = if v.size() == 1 {
                        super::shape::reshape(v, &[])?
                    } else {
                        super::shape::reshape(
                            v,
                            &row_shape.iter().map(|&n| n as i64).collect::<Vec<_>>(),
                        )?
                    };
                    v.with_layout(v.layout().broadcast_to(&shape)?)
                        .astype(a.dtype())?
                }
                Operand::Array(v) if v.size() == wanted => v.astype(a.dtype())?,
                Operand::Array(v) => {
                    return Err(crate::error::shape_error(format!(
                        "cannot assign {} values to the {} elements selected",
                        v.size(),
                        wanted
                    )))
                }
            };
            on_gpu::scatter(a, index, &values)
        }
    }
}
