//! Shape functions: `reshape`, `ravel`, `transpose`, `concatenate`, `stack`.

use super::reduce::normalize_axis;
use super::Array;
use crate::base::layout::shape_text;
use crate::error::{shape_error, value_error, Result};

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
    let known = crate::base::layout::shape_size(&known_dims)?;
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
    if crate::base::layout::shape_size(&resolved)? != size {
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
    Ok(base.with_layout(crate::base::layout::Layout {
        offset: base.layout().offset,
        ..crate::base::layout::Layout::contiguous(&resolved)
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
    let dtype = arrays
        .iter()
        .map(|a| a.dtype())
        .reduce(crate::base::DType::promote)
        .expect("at least one array");
    let mut shape = arrays[0].shape().to_vec();
    shape[axis] = arrays.iter().map(|a| a.shape()[axis]).sum();
    let size = crate::base::layout::shape_size(&shape)?;
    let out = Array::from_buffer(
        crate::device::Buffer::alloc(arrays[0].device(), size, dtype)?,
        &shape,
    );
    let mut start = 0;
    for piece in arrays {
        let len = piece.shape()[axis];
        let mut layout = out.layout().clone();
        layout.offset += start * layout.strides[axis] as usize;
        layout.shape[axis] = len;
        super::ops::assign(&out.with_layout(layout), super::ops::Operand::Array(piece))?;
        start += len;
    }
    Ok(out)
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
