//! Shape functions: `reshape`, `ravel`, `transpose`, `concatenate`, `stack`.

use ndarray::Axis;

use super::layout::shape_text;
use super::reduce::normalize_axis;
use super::Array;
use crate::error::{shape_error, value_error, Result};
use crate::with_dtype4;

/// `reshape(x, shape)`; one dimension may be -1 (inferred). A view when the array is contiguous.
pub fn reshape(a: &Array, shape: &[i64]) -> Result<Array> {
    let size = a.size();
    let unknown = shape.iter().filter(|&&n| n == -1).count();
    if unknown > 1 || shape.iter().any(|&n| n < -1) {
        return Err(value_error(
            "can only specify one unknown dimension (-1), and no other negative sizes",
        ));
    }
    let known_dims: Vec<usize> = shape
        .iter()
        .filter(|&&n| n >= 0)
        .map(|&n| n as usize)
        .collect();
    let known = super::shape_size(&known_dims)?;
    if unknown == 1 && known == 0 {
        return Err(shape_error(format!(
            "cannot reshape array of size {size} into a shape with a zero dimension and a -1"
        )));
    }
    let resolved: Vec<usize> = shape
        .iter()
        .map(|&n| {
            if n == -1 {
                size.checked_div(known).unwrap_or(0)
            } else {
                n as usize
            }
        })
        .collect();
    if super::shape_size(&resolved)? != size {
        return Err(shape_error(format!(
            "cannot reshape array of size {size} into shape {}",
            shape_text(&resolved)
        )));
    }
    let base = if a.layout().is_contiguous() {
        a.clone()
    } else {
        a.copy()?
    };
    Ok(base.with_layout(super::layout::Layout {
        offset: base.layout().offset,
        ..super::layout::Layout::contiguous(&resolved)
    }))
}

pub fn ravel(a: &Array) -> Result<Array> {
    reshape(a, &[-1])
}

/// Reverses the axes: a view.
pub fn transpose(a: &Array) -> Array {
    a.with_layout(a.layout().transposed())
}

fn check_joinable(arrays: &[Array]) -> Result<()> {
    let first = arrays
        .first()
        .ok_or_else(|| value_error("need at least one array to join"))?;
    for other in &arrays[1..] {
        if other.device() != first.device() {
            return Err(super::ops::device_mismatch(first, other));
        }
    }
    Ok(())
}

/// Joins arrays along an existing axis.
pub fn concatenate(arrays: &[Array], axis: i64) -> Result<Array> {
    check_joinable(arrays)?;
    let ndim = arrays[0].ndim();
    if ndim == 0 {
        return Err(value_error(
            "zero-dimensional arrays cannot be concatenated",
        ));
    }
    let axis = normalize_axis(axis, ndim)?;
    for other in &arrays[1..] {
        let same = other.ndim() == ndim
            && other
                .shape()
                .iter()
                .enumerate()
                .all(|(i, &n)| i == axis || n == arrays[0].shape()[i]);
        if !same {
            return Err(shape_error(format!(
                "all the input array dimensions except for the concatenation axis must match exactly, but {} and {} differ",
                shape_text(arrays[0].shape()),
                shape_text(other.shape())
            )));
        }
    }
    let dtype = arrays.iter().map(|a| a.dtype()).max().unwrap();
    if arrays[0].device() == crate::device::Device::Gpu {
        return super::on_gpu::concatenate(arrays, axis, dtype);
    }
    with_dtype4!(dtype, T => {
        let owned: Vec<ndarray::ArrayD<T>> = arrays.iter().map(|a| a.with_view_as::<T, _>(|v| v.to_owned())).collect();
        let views: Vec<_> = owned.iter().map(|a| a.view()).collect();
        let joined = ndarray::concatenate(Axis(axis), &views).map_err(|e| shape_error(e.to_string()))?;
        Ok(Array::from_ndarray(joined))
    })
}

/// Joins arrays of one shape along a new axis.
pub fn stack(arrays: &[Array], axis: i64) -> Result<Array> {
    check_joinable(arrays)?;
    let shape = arrays[0].shape().to_vec();
    if let Some(other) = arrays.iter().find(|a| a.shape() != shape.as_slice()) {
        return Err(shape_error(format!(
            "all input arrays must have the same shape, but {} and {} differ",
            shape_text(&shape),
            shape_text(other.shape())
        )));
    }
    let axis = normalize_axis(axis, shape.len() + 1)?;
    let expanded: Vec<Array> = arrays
        .iter()
        .map(|a| {
            let mut new_shape: Vec<i64> = a.shape().iter().map(|&n| n as i64).collect();
            new_shape.insert(axis, 1);
            reshape(a, &new_shape)
        })
        .collect::<Result<_>>()?;
    concatenate(&expanded, axis as i64)
}
