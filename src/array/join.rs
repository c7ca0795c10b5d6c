//! Joining, repeating and splitting arrays: copies made by plans on the arrays' device (each
//! piece is an assignment into a slice of the result), and splits, which are views.

use super::ops::{self, Operand};
use super::reduce::normalize_axis;
use super::shape::{at_least, expand_dims, ravel, reshape};
use super::Array;
use crate::base::layout::{shape_text, AxisIndex, Layout};
use crate::base::{DType, Scalar};
use crate::error::{shape_error, value_error, Result};

fn check_joinable(arrays: &[Array]) -> Result<()> {
    let first = arrays
        .first()
        .ok_or_else(|| value_error("need at least one array to concatenate"))?;
    for other in &arrays[1..] {
        if other.device() != first.device() {
            return Err(ops::device_mismatch(first, other));
        }
    }
    Ok(())
}

/// A new uninitialised C-ordered array on `like`'s device.
fn empty_like(like: &Array, shape: &[usize], dtype: DType) -> Result<Array> {
    let size = crate::base::layout::shape_size(shape)?;
    Ok(Array::from_buffer(
        crate::device::Buffer::alloc(like.device(), size, dtype)?,
        shape,
    ))
}

/// The part `start..start + len` of `out` along `axis` (a view).
pub(super) fn part(out: &Array, axis: usize, start: usize, len: usize) -> Array {
    let mut layout = out.layout().clone();
    if len > 0 {
        layout.offset = (layout.offset as isize + start as isize * layout.strides[axis]) as usize;
    }
    layout.shape[axis] = len;
    out.with_layout(layout)
}

/// Joins arrays along an existing axis; with `None`, their flattened elements.
pub fn concatenate(arrays: &[Array], axis: Option<i64>) -> Result<Array> {
    check_joinable(arrays)?;
    let Some(axis) = axis else {
        let flat: Vec<Array> = arrays.iter().map(ravel).collect::<Result<_>>()?;
        return concatenate(&flat, Some(0));
    };
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
        .reduce(DType::promote)
        .expect("at least one array");
    let mut shape = arrays[0].shape().to_vec();
    shape[axis] = arrays.iter().map(|a| a.shape()[axis]).sum();
    let out = empty_like(&arrays[0], &shape, dtype)?;
    let mut start = 0;
    for piece in arrays {
        let len = piece.shape()[axis];
        ops::assign(&part(&out, axis, start, len), Operand::Array(piece))?;
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
        .map(|a| expand_dims(a, &[axis as i64]))
        .collect::<Result<_>>()?;
    concatenate(&expanded, Some(axis as i64))
}

/// NumPy's `hstack` (`h`), `vstack` (`v`), `dstack` (`d`) and `column_stack` (`c`).
pub fn stack_along(arrays: &[Array], how: char) -> Result<Array> {
    let (least, axis) = match how {
        'h' if arrays.iter().all(|a| a.ndim() <= 1) => (1, 0),
        'h' => (1, 1),
        'v' => (2, 0),
        'd' => (3, 2),
        _ => (2, 1),
    };
    let shaped: Vec<Array> = arrays
        .iter()
        .map(|a| match (how, a.ndim()) {
            ('c', 0 | 1) => reshape(a, &[-1, 1]),
            _ => at_least(a, least),
        })
        .collect::<Result<_>>()?;
    concatenate(&shaped, Some(axis))
}

/// `a` repeated `reps` times along each axis (NumPy's `tile`).
pub fn tile(a: &Array, reps: &[usize]) -> Result<Array> {
    let ndim = a.ndim().max(reps.len());
    let mut shape: Vec<usize> = vec![1; ndim - a.ndim()];
    shape.extend_from_slice(a.shape());
    let mut reps_full = vec![1; ndim - reps.len()];
    reps_full.extend_from_slice(reps);
    // Interleave (rep, n) pairs: a broadcast view of shape (r0, n0, r1, n1, ...), then merged.
    let base = reshape(a, &shape.iter().map(|&n| n as i64).collect::<Vec<_>>())?;
    let spread_axes: Vec<i64> = (0..ndim).map(|d| 2 * d as i64).collect();
    let spread = expand_dims(&base, &spread_axes)?;
    let wide: Vec<usize> = (0..ndim).flat_map(|d| [reps_full[d], shape[d]]).collect();
    let view = spread.with_layout(spread.layout().broadcast_to(&wide)?);
    let merged: Vec<i64> = (0..ndim)
        .map(|d| (reps_full[d] * shape[d]) as i64)
        .collect();
    reshape(&view.copy()?, &merged)
}

/// Each element repeated `count` times along `axis` (flattened when `None`).
pub fn repeat(a: &Array, count: usize, axis: Option<i64>) -> Result<Array> {
    let (a, axis) = match axis {
        None => (ravel(a)?, 0),
        Some(axis) => (a.clone(), normalize_axis(axis, a.ndim())?),
    };
    let spread = expand_dims(&a, &[axis as i64 + 1])?;
    let mut wide = spread.shape().to_vec();
    wide[axis + 1] = count;
    let view = spread.with_layout(spread.layout().broadcast_to(&wide)?);
    let mut merged: Vec<i64> = a.shape().iter().map(|&n| n as i64).collect();
    merged[axis] *= count as i64;
    reshape(&view.copy()?, &merged)
}

/// Each element along `axis` repeated its own number of times (`counts`, host integers): the
/// positions are made on the host, so on the gpu this is one counted host→device copy.
pub fn repeat_each(a: &Array, counts: &[usize], axis: Option<i64>) -> Result<Array> {
    let (a, axis) = match axis {
        None => (ravel(a)?, 0),
        Some(axis) => (a.clone(), normalize_axis(axis, a.ndim())?),
    };
    let len = a.shape()[axis];
    if counts.len() != len {
        return Err(value_error(format!(
            "operands could not be broadcast together with shape ({len},) (repeats has {})",
            counts.len()
        )));
    }
    let positions: Vec<i64> = counts
        .iter()
        .enumerate()
        .flat_map(|(i, &n)| std::iter::repeat_n(i as i64, n))
        .collect();
    let n = positions.len();
    let index = Array::from_vec(positions, vec![n]).to_device(a.device())?;
    super::index::take(&a, &index, Some(axis as i64))
}

/// The elements shifted by `shift` places along `axis` (the flattened array when `None`), those
/// that fall off one end coming back at the other.
pub fn roll(a: &Array, shift: i64, axis: Option<i64>) -> Result<Array> {
    let Some(axis) = axis else {
        let flat = roll(&ravel(a)?, shift, Some(0))?;
        return reshape(
            &flat,
            &a.shape().iter().map(|&n| n as i64).collect::<Vec<_>>(),
        );
    };
    let axis = normalize_axis(axis, a.ndim())?;
    let n = a.shape()[axis];
    if n == 0 {
        return a.copy();
    }
    let k = shift.rem_euclid(n as i64) as usize;
    let out = empty_like(a, a.shape(), a.dtype())?;
    ops::assign(
        &part(&out, axis, k, n - k),
        Operand::Array(&part(a, axis, 0, n - k)),
    )?;
    ops::assign(
        &part(&out, axis, 0, k),
        Operand::Array(&part(a, axis, n - k, k)),
    )?;
    Ok(out)
}

/// NumPy's `pad` modes.
#[derive(Clone, Copy, PartialEq)]
pub enum PadMode {
    Constant(Scalar),
    Edge,
    Reflect,
    Wrap,
}

/// `a` with `widths[d] = (before, after)` elements added on each side of each axis.
pub fn pad(a: &Array, widths: &[(usize, usize)], mode: PadMode) -> Result<Array> {
    let mut shape = a.shape().to_vec();
    for (d, &(before, after)) in widths.iter().enumerate() {
        shape[d] += before + after;
    }
    let out = empty_like(a, &shape, a.dtype())?;
    let mut center = out.layout().clone();
    for (d, &(before, _)) in widths.iter().enumerate() {
        center.offset += before * center.strides[d] as usize;
        center.shape[d] = a.shape()[d];
    }
    ops::assign(&out.with_layout(center), Operand::Array(a))?;
    // Axis by axis, fill the sides from the part of `out` already filled.
    for (d, &(before, after)) in widths.iter().enumerate() {
        let n = a.shape()[d];
        let filled = |l: &Layout| {
            let mut l = l.clone();
            for (e, &(b, _)) in widths.iter().enumerate().skip(d + 1) {
                l.offset += b * l.strides[e] as usize;
                l.shape[e] = a.shape()[e];
            }
            l
        };
        let whole = out.with_layout(filled(out.layout()));
        for (side_start, side_len, left) in [(0, before, true), (before + n, after, false)] {
            if side_len == 0 {
                continue;
            }
            let target = part(&whole, d, side_start, side_len);
            match mode {
                PadMode::Constant(value) => ops::assign(&target, Operand::Scalar(value))?,
                _ if n == 0 => {
                    return Err(value_error(
                        "can't extend an empty axis unless mode is constant",
                    ))
                }
                PadMode::Edge => {
                    let edge = part(&whole, d, if left { before } else { before + n - 1 }, 1);
                    ops::assign(&target, Operand::Array(&edge))?
                }
                PadMode::Wrap | PadMode::Reflect => {
                    let period = if mode == PadMode::Wrap {
                        n
                    } else {
                        n.saturating_sub(1)
                    };
                    if side_len > period || period == 0 {
                        return Err(value_error(format!(
                            "pad width {side_len} is wider than the axis allows for this mode ({period})"
                        )));
                    }
                    let source = match (mode, left) {
                        (PadMode::Wrap, true) => part(&whole, d, before + n - side_len, side_len),
                        (PadMode::Wrap, false) => part(&whole, d, before, side_len),
                        (_, true) => super::shape::flip(
                            &part(&whole, d, before + 1, side_len),
                            Some(&[d as i64]),
                        )?,
                        (_, false) => super::shape::flip(
                            &part(&whole, d, before + n - 1 - side_len, side_len),
                            Some(&[d as i64]),
                        )?,
                    };
                    ops::assign(&target, Operand::Array(&source))?
                }
            }
        }
    }
    Ok(out)
}

/// Views of `a` cut along `axis` at `cuts` (positions, clamped as slices are).
pub fn split_at(a: &Array, cuts: &[i64], axis: i64) -> Result<Vec<Array>> {
    let axis = normalize_axis(axis, a.ndim())?;
    let n = a.shape()[axis] as i64;
    let mut bounds = vec![0i64];
    bounds.extend(
        cuts.iter()
            .map(|&c| if c < 0 { (c + n).max(0) } else { c.min(n) }),
    );
    bounds.push(n);
    bounds
        .windows(2)
        .map(|w| {
            let (start, stop) = (w[0] as usize, (w[1].max(w[0])) as usize);
            Ok(part(a, axis, start.min(n as usize), stop - start.min(stop)))
        })
        .collect()
}

/// `sections` views of (nearly, unless `equal`) equal length along `axis`: NumPy's `split` and
/// `array_split` with a number of sections.
pub fn split_even(a: &Array, sections: usize, axis: i64, equal: bool) -> Result<Vec<Array>> {
    if sections == 0 {
        return Err(value_error("number sections must be larger than 0."));
    }
    let d = normalize_axis(axis, a.ndim())?;
    let n = a.shape()[d];
    if equal && !n.is_multiple_of(sections) {
        return Err(value_error(
            "array split does not result in an equal division",
        ));
    }
    let handles = sections as u128 * std::mem::size_of::<Array>() as u128;
    crate::device::host::check_memory(handles, || format!("{sections} sub-arrays"))?;
    let (each, extra) = (n / sections, n % sections);
    let mut cuts = Vec::with_capacity(sections);
    let mut at = 0;
    for k in 0..sections - 1 {
        at += each + usize::from(k < extra);
        cuts.push(at as i64);
    }
    split_at(a, &cuts, axis)
}

/// The sub-arrays along `axis`, views (the standard's `unstack`).
pub fn unstack(a: &Array, axis: i64) -> Result<Vec<Array>> {
    let d = normalize_axis(axis, a.ndim())?;
    (0..a.shape()[d])
        .map(|i| {
            let mut subs = vec![
                AxisIndex::Range {
                    start: None,
                    stop: None,
                    step: None
                };
                d
            ];
            subs.push(AxisIndex::At(i as i64));
            Ok(a.with_layout(a.layout().index(&subs)?))
        })
        .collect()
}
