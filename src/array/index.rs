//! `x[...]` and `x[...] = v` with NumPy's rules. Positions, slices, `none` and `...` make views;
//! index arrays (integer positions, bool masks) on any axes make an advanced selection: a strided
//! view of the indexed elements with the index arrays' broadcast axes added, plus one element
//! offset per combination of index values, computed by a plan on the array's device. Reads copy
//! the selection, stores write through it; both run on the array's device.

use super::ops::{self, Operand};
use super::{on_gpu, search, Array};
use crate::base::layout::{broadcast_shapes, normalize_index, shape_text, AxisIndex, Layout};
use crate::base::{DType, Scalar};
use crate::device::cpu::CpuElement;
use crate::device::{Buffer, Device};
use crate::error::{index_error, shape_error, value_error, Result};
use crate::plan::reduce::Reduction;
use crate::plan::table::{self, Op};
use crate::with_dtype;

/// One subscript as the interpreter evaluated it.
#[derive(Clone, Debug)]
pub enum Subscript {
    Basic(AxisIndex),
    Array(Array),
    /// `...`: as many `:` as the other subscripts leave axes.
    Ellipsis,
}

/// What an index reads: a host scalar when every axis got a position, else an array.
pub enum Selection {
    Scalar(Scalar),
    Array(Array),
}

/// `...` replaced by full slices; more subscripts than axes is an error.
fn expand_ellipsis(a: &Array, subscripts: &[Subscript]) -> Result<Vec<Subscript>> {
    let consumed: usize = subscripts
        .iter()
        .map(|s| match s {
            Subscript::Basic(AxisIndex::NewAxis) | Subscript::Ellipsis => 0,
            Subscript::Basic(_) => 1,
            Subscript::Array(ix) if ix.dtype() == DType::Bool => ix.ndim(),
            Subscript::Array(_) => 1,
        })
        .sum();
    if consumed > a.ndim() {
        return Err(index_error(format!(
            "too many indices for array: array is {}-dimensional, but {consumed} were indexed",
            a.ndim()
        )));
    }
    let ellipses = subscripts
        .iter()
        .filter(|s| matches!(s, Subscript::Ellipsis))
        .count();
    if ellipses > 1 {
        return Err(index_error(
            "an index can only have a single ellipsis (`...`)",
        ));
    }
    let full = Subscript::Basic(AxisIndex::Range {
        start: None,
        stop: None,
        step: None,
    });
    let mut out = Vec::with_capacity(subscripts.len() + a.ndim());
    for s in subscripts {
        match s {
            Subscript::Ellipsis => {
                out.extend(std::iter::repeat_n(full.clone(), a.ndim() - consumed))
            }
            other => out.push(other.clone()),
        }
    }
    Ok(out)
}

fn basic_indices(subscripts: &[Subscript]) -> Option<Vec<AxisIndex>> {
    subscripts
        .iter()
        .map(|s| match s {
            Subscript::Basic(b) => Some(*b),
            _ => None,
        })
        .collect()
}

/// The view a basic index (positions, slices, `none`, `...`) selects; `None` for index arrays.
pub fn basic_view(a: &Array, subscripts: &[Subscript]) -> Result<Option<Array>> {
    match basic_indices(&expand_ellipsis(a, subscripts)?) {
        Some(basic) => Ok(Some(a.with_layout(a.layout().index(&basic)?))),
        None => Ok(None),
    }
}

/// A bool mask over the leading axes as the only subscript: the gpu's compaction kernels do it
/// without computing positions.
fn mask_only(subscripts: &[Subscript]) -> Option<&Array> {
    let (first, rest) = subscripts.split_first()?;
    let all_full = rest.iter().all(|s| {
        matches!(
            s,
            Subscript::Basic(AxisIndex::Range {
                start: None,
                stop: None,
                step: None
            })
        )
    });
    match first {
        Subscript::Array(m) if m.dtype() == DType::Bool && m.ndim() > 0 && all_full => Some(m),
        _ => None,
    }
}

pub fn get(a: &Array, subscripts: &[Subscript]) -> Result<Selection> {
    let subscripts = expand_ellipsis(a, subscripts)?;
    if let Some(basic) = basic_indices(&subscripts) {
        let layout = a.layout().index(&basic)?;
        let all_positions =
            basic.len() == a.ndim() && basic.iter().all(|b| matches!(b, AxisIndex::At(_)));
        if all_positions {
            let view = a.with_layout(layout);
            return Ok(Selection::Scalar(view.element(&[])?));
        }
        return Ok(Selection::Array(a.with_layout(layout)));
    }
    let subscripts = on_device(a, subscripts)?;
    if a.device() == Device::Gpu {
        if let Some(mask) = mask_only(&subscripts) {
            check_mask_shape(a, mask, 0)?;
            return Ok(Selection::Array(on_gpu::masked(a, mask)?));
        }
    }
    let selection = AdvancedSelection::new(a, &subscripts)?;
    Ok(Selection::Array(selection.take(a)?))
}

/// `a[subscripts] = value`: `value` broadcast to the selection's shape (leading axes of length 1
/// dropped, as NumPy drops them) and converted to `a`'s dtype.
pub fn set(a: &Array, subscripts: &[Subscript], value: Operand) -> Result<()> {
    let subscripts = expand_ellipsis(a, subscripts)?;
    if let Operand::Array(v) = value {
        if v.device() != a.device() {
            return Err(ops::device_mismatch(a, v));
        }
    }
    if let Some(basic) = basic_indices(&subscripts) {
        let view = a.with_layout(a.layout().index(&basic)?);
        return match value {
            Operand::Array(v) => ops::assign(&view, Operand::Array(&fitted(v, view.shape())?)),
            scalar => ops::assign(&view, scalar),
        };
    }
    let subscripts = on_device(a, subscripts)?;
    if a.device() == Device::Gpu {
        if let Some(mask) = mask_only(&subscripts) {
            check_mask_shape(a, mask, 0)?;
            return on_gpu::set_masked(a, mask, value);
        }
    }
    let selection = AdvancedSelection::new(a, &subscripts)?;
    let values = selection_values(a, &selection.layout.shape, value)?;
    selection.put(a, &values)
}

/// `v` seen with `shape`'s number of axes or fewer (leading length-1 axes dropped), checked to
/// broadcast to `shape`.
fn fitted(v: &Array, shape: &[usize]) -> Result<Array> {
    let extra = v.ndim().saturating_sub(shape.len());
    let dropped = v.shape()[..extra].iter().all(|&n| n == 1);
    let fits = dropped && broadcast_shapes(&v.shape()[extra..], shape).is_ok_and(|s| s == shape);
    if !fits {
        return Err(shape_error(format!(
            "could not broadcast input array from shape {} into shape {}",
            shape_text(v.shape()),
            shape_text(shape)
        )));
    }
    let mut layout = v.layout().clone();
    layout.shape.drain(..extra);
    layout.strides.drain(..extra);
    Ok(v.with_layout(layout))
}

/// Index arrays on the indexed array's device, as bool (masks) or i64 (positions): an index made
/// elsewhere (a list literal under another default device) is copied there, one counted
/// transfer, as CuPy accepts NumPy indices.
fn on_device(a: &Array, subscripts: Vec<Subscript>) -> Result<Vec<Subscript>> {
    subscripts
        .into_iter()
        .map(|s| match s {
            // `x[true]`: read on the host, where the interpreter made it.
            Subscript::Array(ix) if ix.ndim() == 0 && ix.dtype() == DType::Bool => {
                Ok(Subscript::Array(ix))
            }
            Subscript::Array(ix) => {
                let ix = ix.to_device(a.device())?;
                Ok(Subscript::Array(match ix.dtype() {
                    DType::Bool | DType::I64 => ix,
                    d if d.is_integer() => ix.astype(DType::I64)?,
                    other => {
                        return Err(index_error(format!(
                            "arrays used as indices must be of integer or bool type, not {other}"
                        )))
                    }
                }))
            }
            other => Ok(other),
        })
        .collect()
}

fn check_mask_shape(a: &Array, mask: &Array, first_axis: usize) -> Result<()> {
    for (k, &n) in mask.shape().iter().enumerate() {
        let axis = first_axis + k;
        if a.shape().get(axis) != Some(&n) {
            return Err(index_error(format!(
                "boolean index did not match indexed array along axis {axis}; size of axis is {} but size of corresponding boolean axis is {n}",
                a.shape().get(axis).copied().unwrap_or(0)
            )));
        }
    }
    Ok(())
}

/// The elements an index with index arrays selects: `layout` is a view of the indexed buffer
/// with the index arrays' broadcast axes at stride 0 (`inner` elements after them), and element
/// `e` of the selection is at `layout`'s offset of `e` plus `offsets[(e / inner) % offsets.size()]`.
struct AdvancedSelection {
    layout: Layout,
    offsets: Array,
    inner: usize,
}

/// An advanced index on one axis of the indexed array.
struct AxisPositions {
    positions: Option<Array>,
    axis: usize,
    len: usize,
    stride: isize,
}

impl AdvancedSelection {
    fn new(a: &Array, subscripts: &[Subscript]) -> Result<AdvancedSelection> {
        let source = a.layout();
        let mut shape: Vec<usize> = Vec::new();
        let mut strides: Vec<isize> = Vec::new();
        let mut offset = source.offset as isize;
        // Each advanced entry: its place among the subscripts, how many view axes precede it,
        // its positions. Adjacent advanced entries keep their place, else their axes go first.
        let mut advanced: Vec<(usize, usize, AxisPositions)> = Vec::new();
        let mut axis = 0;
        let on_axis = |positions: Option<Array>, axis: usize| AxisPositions {
            positions,
            axis,
            len: source.shape[axis],
            stride: source.strides[axis],
        };
        for (entry, s) in subscripts.iter().enumerate() {
            match s {
                Subscript::Basic(AxisIndex::NewAxis) => {
                    shape.push(1);
                    strides.push(0);
                }
                Subscript::Basic(AxisIndex::At(i)) => {
                    let i = normalize_index(*i, source.shape[axis], axis)?;
                    offset += i as isize * source.strides[axis];
                    advanced.push((entry, shape.len(), on_axis(None, axis)));
                    axis += 1;
                }
                Subscript::Basic(AxisIndex::Range { start, stop, step }) => {
                    let (len, stride) = (source.shape[axis], source.strides[axis]);
                    let (first, step, count) =
                        crate::base::layout::slice_indices(len, *start, *stop, *step)?;
                    if count > 0 {
                        offset += first as isize * stride;
                    }
                    shape.push(count);
                    strides.push(stride * step as isize);
                    axis += 1;
                }
                Subscript::Array(mask) if mask.dtype() == DType::Bool && mask.ndim() == 0 => {
                    // `x[true]` adds an axis of length 1, `x[false]` one of length 0: positions
                    // on a new axis of length 1.
                    let chosen: Vec<i64> = if !mask.item()?.is_zero() {
                        vec![0]
                    } else {
                        vec![]
                    };
                    let n = chosen.len();
                    let positions = Array::from_vec(chosen, vec![n]).to_device(a.device())?;
                    let new_axis = AxisPositions {
                        positions: Some(positions),
                        axis,
                        len: 1,
                        stride: 0,
                    };
                    advanced.push((entry, shape.len(), new_axis));
                }
                Subscript::Array(mask) if mask.dtype() == DType::Bool => {
                    check_mask_shape(a, mask, axis)?;
                    for positions in search::nonzero(mask)? {
                        advanced.push((entry, shape.len(), on_axis(Some(positions), axis)));
                        axis += 1;
                    }
                }
                Subscript::Array(positions) => {
                    advanced.push((entry, shape.len(), on_axis(Some(positions.clone()), axis)));
                    axis += 1;
                }
                Subscript::Ellipsis => unreachable!("expanded before"),
            }
        }
        shape.extend_from_slice(&source.shape[axis..]);
        strides.extend_from_slice(&source.strides[axis..]);
        let adjacent = advanced.windows(2).all(|w| w[1].0 <= w[0].0 + 1);
        let place = match advanced.first() {
            Some((_, view_axes, _)) if adjacent => *view_axes,
            _ => 0,
        };
        let axes: Vec<AxisPositions> = advanced.into_iter().map(|(_, _, p)| p).collect();
        let offsets = positions_offsets(a, &axes)?;
        let inner: usize = shape[place..].iter().product();
        let b = offsets.shape().to_vec();
        shape.splice(place..place, b.iter().copied());
        strides.splice(place..place, std::iter::repeat_n(0, b.len()));
        Ok(AdvancedSelection {
            layout: Layout {
                shape: shape.as_slice().into(),
                strides: strides.as_slice().into(),
                offset: offset as usize,
            },
            offsets,
            inner: inner.max(1),
        })
    }

    /// A new array of the selected elements.
    fn take(&self, a: &Array) -> Result<Array> {
        crate::base::layout::shape_size(&self.layout.shape)?;
        crate::device::check_allocation(a.device(), self.layout.size(), a.dtype())?;
        match a.device() {
            Device::Gpu => on_gpu::take(a, &self.layout, &self.offsets, self.inner),
            Device::Cpu => {
                let offsets = self.offsets.to_vec::<i64>()?;
                let buffer = a.buffer()?;
                let cpu = buffer.cpu().expect("a cpu array");
                Ok(with_dtype!(a.dtype(), T => {
                    let data = T::buffer(cpu).expect("dtype matches its buffer").borrow();
                    let mut out = Vec::with_capacity(self.layout.size());
                    for_each_selected(&self.layout, &offsets, self.inner, |_, at| {
                        out.push(data[at])
                    });
                    Array::from_vec(out, self.layout.shape.to_vec())
                }))
            }
        }
    }

    /// Stores `values` (contiguous, the selection's shape and `a`'s dtype, not sharing `a`'s
    /// elements) into the selected elements.
    fn put(&self, a: &Array, values: &Array) -> Result<()> {
        if values.size() == 0 {
            return Ok(());
        }
        match a.device() {
            Device::Gpu => on_gpu::put(a, &self.layout, &self.offsets, self.inner, values),
            Device::Cpu => {
                let offsets = self.offsets.to_vec::<i64>()?;
                let buffer = a.buffer()?;
                let Buffer::Cpu(cpu) = &buffer else {
                    unreachable!("a cpu array")
                };
                with_dtype!(a.dtype(), T => {
                    let source: Vec<T> = values.to_vec::<T>()?;
                    let mut data = T::buffer(cpu).expect("dtype matches its buffer").borrow_mut();
                    for_each_selected(&self.layout, &offsets, self.inner, |e, at| {
                        data[at] = source[e]
                    });
                });
                Ok(())
            }
        }
    }
}

/// The element offset each combination of index values adds, as an i64 array of the index
/// arrays' broadcast shape: positions made non-negative and times their axis's stride, summed.
/// On the cpu a position out of range is an error; on the gpu positions wrap around their axis,
/// as CuPy's do (checking would cost a device→host copy).
fn positions_offsets(a: &Array, advanced: &[AxisPositions]) -> Result<Array> {
    let mut total: Option<Array> = None;
    let device = a.device();
    for p in advanced {
        let Some(positions) = &p.positions else {
            continue;
        };
        let axis = p.axis;
        if p.len == 0 && positions.size() > 0 {
            return Err(index_error(format!(
                "index out of range: axis {axis} of the array is empty"
            )));
        }
        let n = Scalar::Int(p.len as i64);
        let wrapped = match device {
            Device::Gpu => ops::apply(
                table::row(Op::Remainder),
                &[Operand::Array(positions), Operand::Scalar(n)],
            )?,
            Device::Cpu => {
                check_in_range(positions, p.len, axis)?;
                let negative = ops::apply(
                    table::row(Op::Less),
                    &[Operand::Array(positions), Operand::Scalar(Scalar::Int(0))],
                )?;
                let shifted = ops::apply(
                    table::row(Op::Add),
                    &[Operand::Array(positions), Operand::Scalar(n)],
                )?;
                ops::apply(
                    table::row(Op::Where),
                    &[
                        Operand::Array(&negative),
                        Operand::Array(&shifted),
                        Operand::Array(positions),
                    ],
                )?
            }
        };
        let term = ops::apply(
            table::row(Op::Multiply),
            &[
                Operand::Array(&wrapped),
                Operand::Scalar(Scalar::Int(p.stride as i64)),
            ],
        )?;
        total = Some(match total {
            None => term,
            Some(sum) => ops::apply(
                table::row(Op::Add),
                &[Operand::Array(&sum), Operand::Array(&term)],
            )?,
        });
    }
    let total = total.expect("an advanced selection has an index array");
    match total.dtype() {
        DType::I64 => Ok(total),
        _ => total.astype(DType::I64),
    }
}

/// NumPy's error for the first position outside `-len..len` (cpu arrays only: a free read).
fn check_in_range(positions: &Array, len: usize, axis: usize) -> Result<()> {
    if positions.size() == 0 {
        return Ok(());
    }
    let low = super::reduce::reduce_all(Reduction::Min, positions)?.cast::<i64>();
    let high = super::reduce::reduce_all(Reduction::Max, positions)?.cast::<i64>();
    for i in [low, high] {
        normalize_index(i, len, axis)?;
    }
    Ok(())
}

/// Calls `f(e, offset)` for every element `e` (C order) of an advanced selection on the cpu.
fn for_each_selected(
    layout: &Layout,
    offsets: &[i64],
    inner: usize,
    mut f: impl FnMut(usize, usize),
) {
    let shape = &layout.shape;
    let size = layout.size();
    if size == 0 {
        return;
    }
    let mut index = vec![0usize; shape.len()];
    let mut at = layout.offset as isize;
    for e in 0..size {
        let b = (e / inner) % offsets.len();
        f(e, (at + offsets[b] as isize) as usize);
        for d in (0..shape.len()).rev() {
            index[d] += 1;
            at += layout.strides[d];
            if index[d] < shape[d] {
                break;
            }
            at -= layout.strides[d] * shape[d] as isize;
            index[d] = 0;
        }
    }
}

fn full_slice() -> Subscript {
    Subscript::Basic(AxisIndex::Range {
        start: None,
        stop: None,
        step: None,
    })
}

/// The elements at `index` along `axis` (of the flattened array when `None`): NumPy's `take`.
pub fn take(a: &Array, index: &Array, axis: Option<i64>) -> Result<Array> {
    let (a, axis) = match axis {
        None => (super::shape::ravel(a)?, 0),
        Some(axis) => (a.clone(), super::reduce::normalize_axis(axis, a.ndim())?),
    };
    let mut subscripts = vec![full_slice(); axis];
    subscripts.push(Subscript::Array(index.clone()));
    match get(&a, &subscripts)? {
        Selection::Array(x) => Ok(x),
        Selection::Scalar(_) => unreachable!("an index array selects an array"),
    }
}

/// The selection `take_along_axis` and `put_along_axis` make: `index` (broadcast against `a`
/// on the other axes) picks one position along `axis` for each element.
fn along_axis(a: &Array, index: &Array, axis: i64) -> Result<AdvancedSelection> {
    let axis = super::reduce::normalize_axis(axis, a.ndim())?;
    if index.ndim() != a.ndim() {
        return Err(value_error(format!(
            "`indices` and `arr` must have the same number of dimensions ({} and {})",
            index.ndim(),
            a.ndim()
        )));
    }
    let [Subscript::Array(index)] = &on_device(a, vec![Subscript::Array(index.clone())])?[..]
    else {
        unreachable!("one subscript in, one out")
    };
    if index.dtype() == DType::Bool {
        return Err(index_error("`indices` must be an integer array"));
    }
    let mut base = a.shape().to_vec();
    base[axis] = index.shape()[axis];
    let shape = broadcast_shapes(&base, index.shape())?;
    let source = a.layout();
    let positions = AxisPositions {
        positions: Some(index.with_layout(index.layout().broadcast_to(&shape)?)),
        axis,
        len: source.shape[axis],
        stride: source.strides[axis],
    };
    let offsets = positions_offsets(a, &[positions])?;
    let mut spread = a.with_layout(source.clone());
    let mut layout = spread.layout().clone();
    layout.shape[axis] = 1;
    layout.strides[axis] = 0;
    spread = spread.with_layout(layout.broadcast_to(&shape)?);
    Ok(AdvancedSelection {
        layout: spread.layout().clone(),
        offsets: offsets.contiguous()?,
        inner: 1,
    })
}

pub fn take_along_axis(a: &Array, index: &Array, axis: i64) -> Result<Array> {
    along_axis(a, index, axis)?.take(a)
}

/// `values` (broadcast to the selection) stored at `index` along `axis`.
pub fn put_along_axis(a: &Array, index: &Array, values: Operand, axis: i64) -> Result<()> {
    let selection = along_axis(a, index, axis)?;
    let values = selection_values(a, &selection.layout.shape, values)?;
    selection.put(a, &values)
}

/// `values` as the contiguous, `a`-typed array of `shape` a store through a selection writes.
fn selection_values(a: &Array, shape: &[usize], value: Operand) -> Result<Array> {
    Ok(match value {
        Operand::Scalar(s) => Array::full(shape, s, a.dtype(), a.device())?,
        Operand::Array(v) => {
            if v.device() != a.device() {
                return Err(ops::device_mismatch(a, v));
            }
            let v = fitted(v, shape)?;
            let v = v.with_layout(v.layout().broadcast_to(shape)?);
            if v.shares_buffer(a) || v.dtype() != a.dtype() || !v.layout().is_contiguous() {
                v.astype(a.dtype())?
            } else {
                v
            }
        }
    })
}

/// NumPy's `put`: `values` (broadcast to `index`'s shape) stored at positions of the flattened
/// array; `a` keeps its layout (the positions are turned into one index per axis).
pub fn put(a: &Array, index: &Array, values: Operand) -> Result<()> {
    let index = match index.dtype() {
        DType::I64 => index.to_device(a.device())?,
        d if d.is_integer() => index.to_device(a.device())?.astype(DType::I64)?,
        other => {
            return Err(index_error(format!(
                "indices must be integers, not {other}"
            )))
        }
    };
    let size = Scalar::Int(a.size() as i64);
    if a.device() == Device::Cpu {
        check_in_range(&index, a.size(), 0)?;
    }
    // Non-negative flat positions, then each axis's coordinate of them.
    let flat = ops::apply(
        table::row(Op::Remainder),
        &[Operand::Array(&index), Operand::Scalar(size)],
    )?;
    let mut subscripts = Vec::with_capacity(a.ndim());
    let mut step = 1i64;
    for &n in a.shape().iter().rev() {
        let scaled = ops::apply(
            table::row(Op::FloorDivide),
            &[Operand::Array(&flat), Operand::Scalar(Scalar::Int(step))],
        )?;
        let coordinate = ops::apply(
            table::row(Op::Remainder),
            &[
                Operand::Array(&scaled),
                Operand::Scalar(Scalar::Int(n.max(1) as i64)),
            ],
        )?;
        subscripts.push(Subscript::Array(coordinate));
        step *= n.max(1) as i64;
    }
    subscripts.reverse();
    set(a, &subscripts, values)
}
