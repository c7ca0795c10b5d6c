//! Shape, strides (in elements, possibly negative or zero) and offset of an array over its buffer.
//! Slicing, transposing and broadcasting only make new layouts; no element moves.

use crate::error::{index_error, memory_error, shape_error, Result};

/// NumPy's limit on dimensions; it also bounds how deep a nested list literal may go.
pub const MAX_NDIM: usize = 64;

/// The element count of a shape a user asked for: at most `MAX_NDIM` dimensions and a count
/// that memory can address.
pub fn shape_size(shape: &[usize]) -> Result<usize> {
    if shape.len() > MAX_NDIM {
        return Err(shape_error(format!(
            "arrays have at most {MAX_NDIM} dimensions, this one would have {}",
            shape.len()
        )));
    }
    // As NumPy does, the nonzero dimensions must multiply without overflow even when another is
    // zero: products of parts of the shape (rows, strides) must fit too.
    let nonzero = shape
        .iter()
        .try_fold(1usize, |acc, &n| acc.checked_mul(n.max(1)))
        .filter(|&size| size <= isize::MAX as usize)
        .ok_or_else(|| memory_error("array is too big: its element count overflows"))?;
    Ok(if shape.contains(&0) { 0 } else { nonzero })
}

/// Axis lengths and strides are kept inline up to four axes: layouts are made and cloned for
/// every operation, and most arrays have few axes.
pub type Dims = smallvec::SmallVec<[usize; 4]>;
pub type Strides = smallvec::SmallVec<[isize; 4]>;

#[derive(Debug, Eq)]
pub struct Layout {
    pub shape: Dims,
    pub strides: Strides,
    pub offset: usize,
}

impl PartialEq for Layout {
    /// Compared axis by axis: layouts have few axes, fewer than a call to `memcmp` is worth.
    fn eq(&self, other: &Layout) -> bool {
        fn same<T: PartialEq>(a: &[T], b: &[T]) -> bool {
            a.len() == b.len() && a.iter().zip(b).all(|(x, y)| x == y)
        }
        self.offset == other.offset
            && same(&self.shape, &other.shape)
            && same(&self.strides, &other.strides)
    }
}

impl Clone for Layout {
    /// Copies the axes as slices: the derived clone goes element by element, and layouts are
    /// cloned several times for every operation.
    fn clone(&self) -> Layout {
        Layout {
            shape: Dims::from_slice(&self.shape),
            strides: Strides::from_slice(&self.strides),
            offset: self.offset,
        }
    }
}

impl Layout {
    /// C-order layout of a fresh buffer.
    pub fn contiguous(shape: &[usize]) -> Layout {
        if let [n] = shape {
            // The common case, without the loop over axes.
            return Layout {
                shape: smallvec::smallvec![*n],
                strides: smallvec::smallvec![1],
                offset: 0,
            };
        }
        let mut strides = Strides::from_elem(0, shape.len());
        let mut step = 1isize;
        for (stride, &n) in strides.iter_mut().zip(shape).rev() {
            *stride = step;
            step *= n.max(1) as isize;
        }
        Layout {
            shape: Dims::from_slice(shape),
            strides,
            offset: 0,
        }
    }

    pub fn size(&self) -> usize {
        self.shape.iter().product()
    }

    pub fn ndim(&self) -> usize {
        self.shape.len()
    }

    /// C-ordered with no gaps (from `offset` on); strides of length-1 axes do not matter.
    pub fn is_contiguous(&self) -> bool {
        let mut expected = 1isize;
        for (&n, &s) in self.shape.iter().zip(&self.strides).rev() {
            if n != 1 && s != expected {
                return false;
            }
            expected *= n as isize;
        }
        true
    }

    /// The smallest buffer offset this layout reads.
    pub fn lowest_offset(&self) -> usize {
        if self.size() == 0 {
            return self.offset;
        }
        let low: isize = self
            .shape
            .iter()
            .zip(&self.strides)
            .filter(|(_, &s)| s < 0)
            .map(|(&n, &s)| s * (n as isize - 1))
            .sum();
        (self.offset as isize + low) as usize
    }

    /// Buffer offset of one element.
    pub fn element_offset(&self, index: &[usize]) -> usize {
        let delta: isize = index
            .iter()
            .zip(&self.strides)
            .map(|(&i, &s)| i as isize * s)
            .sum();
        (self.offset as isize + delta) as usize
    }

    pub fn transposed(&self) -> Layout {
        Layout {
            shape: self.shape.iter().rev().copied().collect(),
            strides: self.strides.iter().rev().copied().collect(),
            offset: self.offset,
        }
    }

    /// This layout seen with `shape` by NumPy's broadcasting rules (stride 0 on stretched axes).
    pub fn broadcast_to(&self, shape: &[usize]) -> Result<Layout> {
        if *self.shape == *shape {
            return Ok(self.clone());
        }
        let extra = shape.len().checked_sub(self.ndim()).ok_or_else(|| {
            shape_error(format!(
                "cannot broadcast shape {} to {}",
                shape_text(&self.shape),
                shape_text(shape)
            ))
        })?;
        let mut strides = Strides::from_elem(0, shape.len());
        for (axis, (&n, &s)) in self.shape.iter().zip(&self.strides).enumerate() {
            let target = shape[axis + extra];
            strides[axis + extra] = if n == target {
                s
            } else if n == 1 {
                0
            } else {
                return Err(shape_error(format!(
                    "cannot broadcast shape {} to {}",
                    shape_text(&self.shape),
                    shape_text(shape)
                )));
            };
        }
        Ok(Layout {
            shape: shape.into(),
            strides,
            offset: self.offset,
        })
    }
}

/// The common shape of two operands (NumPy broadcasting).
pub fn broadcast_shapes(a: &[usize], b: &[usize]) -> Result<Vec<usize>> {
    let n = a.len().max(b.len());
    let mut out = vec![0; n];
    for i in 0..n {
        let x = if i + a.len() >= n {
            a[i + a.len() - n]
        } else {
            1
        };
        let y = if i + b.len() >= n {
            b[i + b.len() - n]
        } else {
            1
        };
        out[i] = match (x, y) {
            (x, y) if x == y => x,
            (1, y) => y,
            (x, 1) => x,
            _ => {
                return Err(shape_error(format!(
                    "operands could not be broadcast together with shapes {} {}",
                    shape_text(a),
                    shape_text(b)
                )))
            }
        };
    }
    Ok(out)
}

/// Python's tuple spelling of a shape: `(3,)`, `(2, 3)`, `()`.
pub fn shape_text(shape: &[usize]) -> String {
    match shape {
        [n] => format!("({n},)"),
        _ => format!(
            "({})",
            shape
                .iter()
                .map(|n| n.to_string())
                .collect::<Vec<_>>()
                .join(", ")
        ),
    }
}

/// One resolved subscript of a basic index.
#[derive(Clone, Copy, Debug)]
pub enum AxisIndex {
    /// A single position (the axis disappears); may be negative, checked against the length.
    At(i64),
    /// `start:stop:step` with Python's optional parts.
    Range {
        start: Option<i64>,
        stop: Option<i64>,
        step: Option<i64>,
    },
    /// `none` (`newaxis`): a new axis of length 1, consuming none of the array's.
    NewAxis,
}

/// Python's `slice.indices`: the first index, the step and the number of elements.
pub fn slice_indices(
    len: usize,
    start: Option<i64>,
    stop: Option<i64>,
    step: Option<i64>,
) -> Result<(i64, i64, usize)> {
    let step = step.unwrap_or(1);
    if step == 0 {
        return Err(crate::error::value_error("slice step cannot be zero"));
    }
    let len = len as i64;
    let clamp = |v: i64, lo: i64, hi: i64| v.max(lo).min(hi);
    let norm = |v: i64| if v < 0 { v + len } else { v };
    let (start, stop) = if step > 0 {
        (
            start.map_or(0, |s| clamp(norm(s), 0, len)),
            stop.map_or(len, |s| clamp(norm(s), 0, len)),
        )
    } else {
        (
            start.map_or(len - 1, |s| clamp(norm(s), -1, len - 1)),
            stop.map_or(-1, |s| clamp(norm(s), -1, len - 1)),
        )
    };
    let count = if step > 0 {
        ((stop - start).max(0) + step - 1) / step
    } else {
        ((start - stop).max(0) + (-step) - 1) / (-step)
    };
    Ok((start, step, count as usize))
}

/// A position on an axis of length `len`, negative counting from the end; out of range is an error.
pub fn normalize_index(index: i64, len: usize, axis: usize) -> Result<usize> {
    let n = len as i64;
    let i = if index < 0 { index + n } else { index };
    if i < 0 || i >= n {
        return Err(index_error(format!(
            "index {index} is out of bounds for axis {axis} with size {len}"
        )));
    }
    Ok(i as usize)
}

impl Layout {
    /// The view selected by a basic index (positions and slices; missing trailing axes are `:`).
    pub fn index(&self, subscripts: &[AxisIndex]) -> Result<Layout> {
        let consumed = subscripts
            .iter()
            .filter(|s| !matches!(s, AxisIndex::NewAxis))
            .count();
        if consumed > self.ndim() {
            return Err(index_error(format!(
                "too many indices for array: array is {}-dimensional, but {} were indexed",
                self.ndim(),
                consumed
            )));
        }
        let mut out = Layout {
            shape: Dims::new(),
            strides: Strides::new(),
            offset: self.offset,
        };
        let mut offset = self.offset as isize;
        let mut axis = 0;
        for subscript in subscripts {
            if let AxisIndex::NewAxis = subscript {
                out.shape.push(1);
                out.strides.push(0);
                continue;
            }
            let (len, stride) = (self.shape[axis], self.strides[axis]);
            match subscript {
                AxisIndex::At(i) => {
                    offset += normalize_index(*i, len, axis)? as isize * stride;
                }
                AxisIndex::Range { start, stop, step } => {
                    let (first, step, count) = slice_indices(len, *start, *stop, *step)?;
                    if count > 0 {
                        offset += first as isize * stride;
                    }
                    out.shape.push(count);
                    out.strides.push(stride * step as isize);
                }
                AxisIndex::NewAxis => unreachable!("handled above"),
            }
            axis += 1;
        }
        out.shape.extend_from_slice(&self.shape[axis..]);
        out.strides.extend_from_slice(&self.strides[axis..]);
        out.offset = offset as usize;
        Ok(out)
    }
}

/// Merges neighbouring axes that every layout walks as one (row-major order kept), so kernels
/// over views do less index arithmetic: a contiguous slice of a matrix becomes one flat axis.
pub fn collapse(shape: &[usize], layouts: &mut [&mut Layout]) -> Dims {
    if !shape.is_empty() && layouts.iter().all(|l| l.is_contiguous()) {
        // The common case, told without building the merged strides axis by axis.
        let size: usize = shape.iter().product();
        for l in layouts.iter_mut() {
            l.shape = Dims::from_slice(&[size]);
            l.strides = Strides::from_slice(&[1]);
        }
        return Dims::from_slice(&[size]);
    }
    let mut merged = Dims::new();
    let mut strides: smallvec::SmallVec<[Strides; 4]> =
        smallvec::smallvec![Strides::new(); layouts.len()];
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
        l.shape = Dims::from_slice(&merged);
        l.strides = s;
    }
    merged
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn slices_follow_python() {
        assert_eq!(slice_indices(5, None, None, Some(-1)).unwrap(), (4, -1, 5));
        assert_eq!(slice_indices(5, Some(1), Some(3), None).unwrap(), (1, 1, 2));
        assert_eq!(slice_indices(5, Some(-2), None, None).unwrap(), (3, 1, 2));
        assert_eq!(slice_indices(5, Some(10), None, None).unwrap(), (5, 1, 0));
        assert_eq!(slice_indices(5, None, None, Some(2)).unwrap(), (0, 2, 3));
    }

    #[test]
    fn contiguous_layouts_collapse_to_one_axis() {
        let mut a = Layout::contiguous(&[2, 3, 4]);
        let mut b = Layout::contiguous(&[2, 3, 4]);
        b.offset = 7;
        assert_eq!(*collapse(&[2, 3, 4], &mut [&mut a, &mut b]), [24]);
        assert_eq!((&*b.shape, &*b.strides, b.offset), (&[24][..], &[1][..], 7));
        // A transposed operand keeps the axes it walks differently.
        let mut c = Layout::contiguous(&[2, 3, 4]);
        let mut t = Layout::contiguous(&[4, 3, 2]).transposed();
        assert_eq!(*collapse(&[2, 3, 4], &mut [&mut c, &mut t]), [2, 3, 4]);
        assert_eq!(*t.strides, [1, 2, 6]);
        // A broadcast operand merges only the axes it reads alike.
        let mut d = Layout::contiguous(&[2, 3, 4]);
        let mut r = Layout::contiguous(&[4]).broadcast_to(&[2, 3, 4]).unwrap();
        assert_eq!(*collapse(&[2, 3, 4], &mut [&mut d, &mut r]), [6, 4]);
        assert_eq!(*r.strides, [0, 1]);
    }

    #[test]
    fn broadcasting_stretches_ones() {
        assert_eq!(broadcast_shapes(&[3, 1], &[4]).unwrap(), vec![3, 4]);
        assert!(broadcast_shapes(&[3], &[4]).is_err());
        let l = Layout::contiguous(&[3, 1])
            .broadcast_to(&[2, 3, 4])
            .unwrap();
        assert_eq!(*l.strides, [0, 1, 0]);
    }

    #[test]
    fn reversed_slice_starts_at_the_end() {
        let l = Layout::contiguous(&[5])
            .index(&[AxisIndex::Range {
                start: None,
                stop: None,
                step: Some(-1),
            }])
            .unwrap();
        assert_eq!((l.offset, l.strides[0], l.lowest_offset()), (4, -1, 0));
    }
}
