//! Shape functions that are views (a new layout over the same elements, on either device):
//! reshaping, transposing, moving, adding and removing axes, flipping, broadcasting. Joining and
//! splitting are in `join`.

use super::reduce::normalize_axis;
use super::Array;
use crate::base::layout::{broadcast_shapes, shape_text, Layout};
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

/// Distinct axes of an `ndim`-dimensional array, negative ones counted from the end.
pub fn normalize_axes(axes: &[i64], ndim: usize) -> Result<Vec<usize>> {
    let mut out = Vec::with_capacity(axes.len());
    for &axis in axes {
        let a = normalize_axis(axis, ndim)?;
        if out.contains(&a) {
            return Err(value_error("repeated axis"));
        }
        out.push(a);
    }
    Ok(out)
}

/// The axes in the order `axes` gives (a permutation of all of them): NumPy's
/// `transpose(x, axes)`, the standard's `permute_dims`.
pub fn permute(a: &Array, axes: &[i64]) -> Result<Array> {
    let order = normalize_axes(axes, a.ndim())?;
    if order.len() != a.ndim() {
        return Err(value_error("axes don't match array"));
    }
    let l = a.layout();
    Ok(a.with_layout(Layout {
        shape: order.iter().map(|&d| l.shape[d]).collect(),
        strides: order.iter().map(|&d| l.strides[d]).collect(),
        offset: l.offset,
    }))
}

/// `moveaxis(x, source, destination)`: the other axes keep their order.
pub fn moveaxis(a: &Array, source: &[i64], destination: &[i64]) -> Result<Array> {
    if source.len() != destination.len() {
        return Err(value_error(
            "`source` and `destination` arguments must have the same number of elements",
        ));
    }
    let source = normalize_axes(source, a.ndim())?;
    let destination = normalize_axes(destination, a.ndim())?;
    let mut order: Vec<i64> = (0..a.ndim())
        .filter(|d| !source.contains(d))
        .map(|d| d as i64)
        .collect();
    let mut moves: Vec<(usize, usize)> = destination.into_iter().zip(source).collect();
    moves.sort();
    for (to, from) in moves {
        order.insert(to, from as i64);
    }
    permute(a, &order)
}

pub fn swapaxes(a: &Array, first: i64, second: i64) -> Result<Array> {
    let (i, j) = (
        normalize_axis(first, a.ndim())?,
        normalize_axis(second, a.ndim())?,
    );
    let mut order: Vec<i64> = (0..a.ndim() as i64).collect();
    order.swap(i, j);
    permute(a, &order)
}

/// The last two axes swapped (`x.mT`, the standard's `matrix_transpose`).
pub fn matrix_transpose(a: &Array) -> Result<Array> {
    if a.ndim() < 2 {
        return Err(value_error(format!(
            "matrix_transpose needs an array of at least 2 dimensions, not {}",
            a.ndim()
        )));
    }
    swapaxes(a, -1, -2)
}

/// New axes of length 1 at `axes` (positions in the result).
pub fn expand_dims(a: &Array, axes: &[i64]) -> Result<Array> {
    let ndim = a.ndim() + axes.len();
    let new = normalize_axes(axes, ndim)?;
    let l = a.layout();
    let mut layout = Layout {
        shape: Default::default(),
        strides: Default::default(),
        offset: l.offset,
    };
    let mut old = 0;
    for d in 0..ndim {
        if new.contains(&d) {
            layout.shape.push(1);
            layout.strides.push(0);
        } else {
            layout.shape.push(l.shape[old]);
            layout.strides.push(l.strides[old]);
            old += 1;
        }
    }
    Ok(a.with_layout(layout))
}

/// Axes of length 1 removed: those of `axes`, or all of them.
pub fn squeeze(a: &Array, axes: Option<&[i64]>) -> Result<Array> {
    let remove: Vec<usize> = match axes {
        Some(axes) => {
            let axes = normalize_axes(axes, a.ndim())?;
            if let Some(&d) = axes.iter().find(|&&d| a.shape()[d] != 1) {
                return Err(value_error(format!(
                    "cannot select an axis to squeeze out which has size not equal to one (axis {d} has size {})",
                    a.shape()[d]
                )));
            }
            axes
        }
        None => (0..a.ndim()).filter(|&d| a.shape()[d] == 1).collect(),
    };
    let l = a.layout();
    let keep: Vec<usize> = (0..a.ndim()).filter(|d| !remove.contains(d)).collect();
    Ok(a.with_layout(Layout {
        shape: keep.iter().map(|&d| l.shape[d]).collect(),
        strides: keep.iter().map(|&d| l.strides[d]).collect(),
        offset: l.offset,
    }))
}

/// The elements in reverse order along `axes` (all axes when `None`).
pub fn flip(a: &Array, axes: Option<&[i64]>) -> Result<Array> {
    let axes = match axes {
        Some(axes) => normalize_axes(axes, a.ndim())?,
        None => (0..a.ndim()).collect(),
    };
    let mut layout = a.layout().clone();
    for d in axes {
        let n = layout.shape[d];
        if n > 0 {
            layout.offset =
                (layout.offset as isize + (n as isize - 1) * layout.strides[d]) as usize;
        }
        layout.strides[d] = -layout.strides[d];
    }
    Ok(a.with_layout(layout))
}

/// `a` seen with `shape` by broadcasting (a read-only view in NumPy; here writes through it
/// reach the shared elements).
pub fn broadcast_to(a: &Array, shape: &[usize]) -> Result<Array> {
    Ok(a.with_layout(a.layout().broadcast_to(shape)?))
}

/// Every array seen with the shape they broadcast to together.
pub fn broadcast_arrays(arrays: &[Array]) -> Result<Vec<Array>> {
    let mut shape: Vec<usize> = Vec::new();
    for a in arrays {
        shape = broadcast_shapes(&shape, a.shape())?;
    }
    arrays.iter().map(|a| broadcast_to(a, &shape)).collect()
}

/// At least `n` axes (1, 2 or 3), added as NumPy's `atleast_1d/2d/3d` add them.
pub fn at_least(a: &Array, n: usize) -> Result<Array> {
    let axes: &[i64] = match (n, a.ndim()) {
        (_, d) if d >= n => return Ok(a.clone()),
        (1, _) => &[0],
        (2, 0) => &[0, 1],
        (2, _) => &[0],
        (3, 0) => &[0, 1, 2],
        (3, 1) => &[0, 2],
        (3, _) => &[2],
        _ => unreachable!("atleast_1d/2d/3d"),
    };
    expand_dims(a, axes)
}

/// The diagonal of the last two axes selected by `axis1` and `axis2`, offset `k` (above the main
/// diagonal for k > 0): a view, its axis last.
pub fn diagonal(a: &Array, k: i64, axis1: i64, axis2: i64) -> Result<Array> {
    if a.ndim() < 2 {
        return Err(value_error(
            "diag requires an array of at least two dimensions",
        ));
    }
    let (i, j) = (
        normalize_axis(axis1, a.ndim())?,
        normalize_axis(axis2, a.ndim())?,
    );
    if i == j {
        return Err(value_error("axis1 and axis2 cannot be the same"));
    }
    let l = a.layout();
    let (rows, cols) = (l.shape[i] as i64, l.shape[j] as i64);
    let (first_row, first_col) = if k >= 0 { (0, k) } else { (-k, 0) };
    let len = (rows - first_row).min(cols - first_col).max(0) as usize;
    let mut layout = Layout {
        shape: Default::default(),
        strides: Default::default(),
        offset: l.offset,
    };
    for d in (0..a.ndim()).filter(|&d| d != i && d != j) {
        layout.shape.push(l.shape[d]);
        layout.strides.push(l.strides[d]);
    }
    if len > 0 {
        layout.offset = (l.offset as isize
            + first_row as isize * l.strides[i]
            + first_col as isize * l.strides[j]) as usize;
    }
    layout.shape.push(len);
    layout.strides.push(l.strides[i] + l.strides[j]);
    Ok(a.with_layout(layout))
}
