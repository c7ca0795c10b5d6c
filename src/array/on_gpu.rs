//! The array operations of this layer that the gpu does with hand-written kernels or libraries
//! rather than plans: copies between host and device, indexing by index arrays and masks,
//! matrix products (cuBLAS), the image filter, histograms. The callers have
//! checked shapes and chosen dtypes. Copies between host and device happen only in `upload`,
//! `download` and `element`, each counted by `device::gpu::memory`.

use super::ops::Operand;
use super::Array;
use crate::base::layout::{shape_size, Layout};
use crate::base::{DType, Scalar};
use crate::device::gpu::abi::{ShapeArg, ViewArg};
use crate::device::gpu::blas::MatrixArg;
use crate::device::gpu::{gpu, GpuBuffer};
use crate::device::{Buffer, Device};
use crate::error::{shape_error, Result};
use crate::kernel_args;
use crate::plan::table::{self, Op};
use crate::with_dtype;

fn gpu_buffer(a: &Array) -> Result<GpuBuffer> {
    Ok(a.buffer()?
        .gpu()
        .expect("on_gpu is only called with gpu arrays")
        .clone())
}

/// The device address of a contiguous array's first element.
pub(super) fn pointer(a: &Array) -> Result<u64> {
    Ok(gpu_buffer(a)?.element_pointer(a.layout().offset))
}

/// A new, uninitialised C-ordered gpu array.
pub(super) fn empty(shape: &[usize], dtype: DType) -> Result<Array> {
    let size = shape_size(shape)?;
    Ok(Array::from_buffer(
        Buffer::alloc(Device::Gpu, size, dtype)?,
        shape,
    ))
}

/// A copy of a cpu array on the gpu: one counted host→device transfer.
pub fn upload(a: &Array) -> Result<Array> {
    let g = gpu()?;
    crate::device::check_allocation(Device::Gpu, a.size(), a.dtype())?;
    let contiguous = a.contiguous()?;
    let buffer = with_dtype!(a.dtype(), T => contiguous.with_view::<T, _>(|v| {
        let data = v.to_slice().expect("contiguous");
        g.upload(data, a.dtype())
    })??);
    Ok(Array::from_buffer(Buffer::Gpu(buffer), a.shape()))
}

/// A copy of a gpu array on the cpu: one counted device→host transfer.
pub fn download(a: &Array) -> Result<Array> {
    crate::device::check_allocation(Device::Cpu, a.size(), a.dtype())?;
    let contiguous = a.contiguous()?;
    let g = gpu()?;
    let start = pointer(&contiguous)?;
    Ok(with_dtype!(a.dtype(), T => Array::from_vec(
        g.copy_to_host::<T>(start, a.size())?,
        a.shape().to_vec()
    )))
}

/// One element at buffer offset `offset`, read to the host.
pub fn element(b: &GpuBuffer, offset: usize) -> Result<Scalar> {
    let at = b.element_pointer(offset);
    let g = b.gpu();
    Ok(with_dtype!(b.dtype(), T => crate::base::Element::to_scalar(g.copy_to_host::<T>(at, 1)?[0])))
}

/// `x[i, j] = v` with every index given: one counted host→device transfer of one element.
pub fn store_element(target: &Array, value: Scalar) -> Result<()> {
    let b = gpu_buffer(target)?;
    let at = b.element_pointer(target.layout().offset);
    with_dtype!(target.dtype(), T => b.gpu().copy_to_device(at, &[value.cast::<T>()]))
}

// ---- indexing ----

/// A contiguous copy of `a` as `dtype`, unless it already is one.
fn contiguous_as(a: &Array, dtype: DType) -> Result<Array> {
    if a.dtype() == dtype && a.layout().is_contiguous() {
        Ok(a.clone())
    } else {
        a.astype(dtype)
    }
}

/// The kernel suffix for elements of `dtype`: index kernels move bytes, one version per size.
fn size_suffix(dtype: DType) -> usize {
    dtype.size()
}

fn view_arg(a: &Array) -> Result<ViewArg> {
    Ok(ViewArg::new(&gpu_buffer(a)?, a.layout()))
}

/// The elements of an advanced selection (see `index::AdvancedSelection`): `layout` views
/// `a`'s buffer with the index axes at stride 0, `offsets` (i64, contiguous) adds each index
/// combination's offset.
pub fn take(a: &Array, layout: &Layout, offsets: &Array, inner: usize) -> Result<Array> {
    let out = empty(&layout.shape, a.dtype())?;
    if out.size() == 0 {
        return Ok(out);
    }
    launch_selection("take", a, layout, offsets, inner, &out).map(|()| out)
}

/// Stores `values` (contiguous, the selection's shape and `a`'s dtype) into an advanced
/// selection of `a`.
pub fn put(
    a: &Array,
    layout: &Layout,
    offsets: &Array,
    inner: usize,
    values: &Array,
) -> Result<()> {
    launch_selection("put", a, layout, offsets, inner, values)
}

fn launch_selection(
    family: &str,
    a: &Array,
    layout: &Layout,
    offsets: &Array,
    inner: usize,
    other: &Array,
) -> Result<()> {
    let offsets = contiguous_as(offsets, DType::I64)?;
    let g = gpu()?;
    let shape_arg = ShapeArg::new(&layout.shape)?;
    let view = ViewArg::new(&gpu_buffer(a)?, layout);
    let offsets_pointer = pointer(&offsets)?;
    let (inner, bsize) = (inner as i64, offsets.size().max(1) as i64);
    let other_pointer = pointer(other)?;
    g.launch_over(
        "index",
        &format!("{family}_{}", size_suffix(a.dtype())),
        layout.size(),
        &mut kernel_args![
            shape_arg,
            view,
            offsets_pointer,
            inner,
            bsize,
            other_pointer
        ],
    )
}

/// The coordinates of the true elements of a bool array, one i64 array per axis: the count is
/// read to the host (one counted device→host copy) to size the result.
pub fn nonzero(mask: &Array) -> Result<Vec<Array>> {
    let (flat, ends, count) = mask_ends(mask)?;
    let ndim = mask.ndim().max(1);
    let out = empty(&[ndim, count], DType::I64)?;
    if count > 0 {
        let g = gpu()?;
        let shape = if mask.ndim() == 0 {
            vec![1]
        } else {
            mask.shape().to_vec()
        };
        let shape_arg = ShapeArg::new(&shape)?;
        let (mask_pointer, ends_pointer) = (pointer(&flat)?, pointer(&ends)?);
        let (count, out_pointer) = (count as i64, pointer(&out)?);
        g.launch_over(
            "index",
            "positions",
            flat.size(),
            &mut kernel_args![shape_arg, mask_pointer, ends_pointer, count, out_pointer],
        )?;
    }
    (0..ndim)
        .map(|d| {
            let row = out
                .layout()
                .index(&[crate::base::layout::AxisIndex::At(d as i64)])?;
            Ok(out.with_layout(row))
        })
        .collect()
}

/// The flat mask and the running count of its selected rows (`ends`), and how many it selects:
/// the count is read to the host (one counted device→host copy) to size the result.
fn mask_ends(mask: &Array) -> Result<(Array, Array, usize)> {
    let flat = contiguous_as(&super::shape::ravel(mask)?, DType::Bool)?;
    let ends = super::reduce::scan(&flat, Some(0), false)?;
    let count = match ends.size() {
        0 => 0,
        n => ends.element(&[n - 1])?.cast::<i64>() as usize,
    };
    Ok((flat, ends, count))
}

/// `a[mask]`: the rows (over the mask's axes) where the mask is true.
pub fn masked(a: &Array, mask: &Array) -> Result<Array> {
    let (flat, ends, count) = mask_ends(mask)?;
    let row: usize = a.shape()[mask.ndim()..].iter().product();
    let mut shape = vec![count];
    shape.extend_from_slice(&a.shape()[mask.ndim()..]);
    let out = empty(&shape, a.dtype())?;
    if out.size() == 0 {
        return Ok(out);
    }
    launch_mask_kernel("compact", a, &flat, &ends, row, &out)?;
    Ok(out)
}

fn launch_mask_kernel(
    family: &str,
    a: &Array,
    flat_mask: &Array,
    ends: &Array,
    row: usize,
    other: &Array,
) -> Result<()> {
    let g = gpu()?;
    let shape_arg = ShapeArg::new(a.shape())?;
    let array_arg = view_arg(a)?;
    let mask_pointer = pointer(flat_mask)?;
    let ends_pointer = pointer(ends)?;
    let row = row as i64;
    let other_pointer = pointer(other)?;
    g.launch_over(
        "index",
        &format!("{family}_{}", size_suffix(a.dtype())),
        a.size(),
        &mut kernel_args![
            shape_arg,
            array_arg,
            mask_pointer,
            ends_pointer,
            row,
            other_pointer
        ],
    )
}

/// `a[mask] = value`. A scalar, or an array that broadcasts over the selected rows, is a
/// `where` in place (no transfer); an array with one row per selected row is scattered, which
/// needs the count of selected rows on the host.
pub fn set_masked(a: &Array, mask: &Array, value: Operand) -> Result<()> {
    let k = mask.ndim();
    let row_shape = &a.shape()[k..];
    let row: usize = row_shape.iter().product();
    let mut spread = mask.layout().clone();
    spread.shape = a.shape().into();
    spread.strides.extend(std::iter::repeat_n(0, a.ndim() - k));
    let cond = mask.with_layout(spread);
    // A one-element array becomes a 0-d array and one row's worth a row: both broadcast.
    let shaped = match value {
        Operand::Array(v) if v.size() == 1 => Some(super::shape::reshape(v, &[])?),
        Operand::Array(v) if v.size() == row => Some(super::shape::reshape(
            v,
            &row_shape.iter().map(|&n| n as i64).collect::<Vec<_>>(),
        )?),
        _ => None,
    };
    let broadcast = match (value, &shaped) {
        (Operand::Scalar(_), _) => Some(value),
        (_, Some(v)) => Some(Operand::Array(v)),
        _ => None,
    };
    if let Some(value) = broadcast {
        let chosen = super::ops::apply(
            table::row(Op::Where),
            &[Operand::Array(&cond), value, Operand::Array(a)],
        )?;
        return super::ops::assign(a, Operand::Array(&chosen.astype(a.dtype())?));
    }
    let Operand::Array(v) = value else {
        unreachable!("scalars broadcast")
    };
    let (flat, ends, count) = mask_ends(mask)?;
    if v.size() != count * row {
        return Err(shape_error(format!(
            "cannot assign {} values to the {} elements selected",
            v.size(),
            count * row
        )));
    }
    let values = contiguous_as(v, a.dtype())?;
    launch_mask_kernel("expand", a, &flat, &ends, row, &values)
}

// ---- linear algebra and images ----

/// A matrix operand for cuBLAS: C-ordered or a transposed view of a C-ordered matrix, else a
/// contiguous copy.
fn matrix_arg(m: &Array, dtype: DType) -> Result<(Array, MatrixArg)> {
    let m = if m.dtype() == dtype {
        m.clone()
    } else {
        m.astype(dtype)?
    };
    let (rows, cols) = (m.shape()[0], m.shape()[1]);
    let strides = &m.layout().strides;
    if (strides[1] == 1 || cols == 1) && (strides[0] == cols as isize || rows == 1) {
        let arg = MatrixArg {
            pointer: pointer(&m)?,
            transposed: false,
            leading: cols,
        };
        return Ok((m, arg));
    }
    if (strides[0] == 1 || rows == 1) && (strides[1] == rows as isize || cols == 1) {
        let arg = MatrixArg {
            pointer: pointer(&m)?,
            transposed: true,
            leading: rows,
        };
        return Ok((m, arg));
    }
    let copy = m.copy()?;
    let arg = MatrixArg {
        pointer: pointer(&copy)?,
        transposed: false,
        leading: cols,
    };
    Ok((copy, arg))
}

/// `a @ b` for 1-d and 2-d operands whose inner sizes agree (checked by the caller), into a new
/// array of shape `shape`, computed in `dtype` (f64, f32 or i64).
pub fn matmul(a: &Array, b: &Array, dtype: DType, shape: &[usize]) -> Result<Array> {
    let as_matrix = |x: &Array, column: bool| -> Result<Array> {
        match (x.ndim(), column) {
            (2, _) => Ok(x.clone()),
            (_, false) => super::shape::reshape(x, &[1, -1]),
            (_, true) => super::shape::reshape(x, &[-1, 1]),
        }
    };
    let (a2, b2) = (as_matrix(a, false)?, as_matrix(b, true)?);
    let (m, k, n) = (a2.shape()[0], a2.shape()[1], b2.shape()[1]);
    if k == 0 || m * n == 0 {
        return Array::full(shape, Scalar::Int(0), dtype, Device::Gpu);
    }
    let out = empty(shape, dtype)?;
    let out_pointer = pointer(&out)?;
    let g = gpu()?;
    if dtype == DType::I64 {
        let (a2, b2) = (contiguous_as(&a2, dtype)?, contiguous_as(&b2, dtype)?);
        let (a_pointer, b_pointer) = (pointer(&a2)?, pointer(&b2)?);
        let (m, k, n) = (m as i64, k as i64, n as i64);
        g.launch_over(
            "conv",
            "matmul_i64",
            (m * n) as usize,
            &mut kernel_args![out_pointer, a_pointer, b_pointer, m, k, n],
        )?;
        return Ok(out);
    }
    let (_a_kept, a_arg) = matrix_arg(&a2, dtype)?;
    let (_b_kept, b_arg) = matrix_arg(&b2, dtype)?;
    g.gemm(dtype, m, n, k, &a_arg, &b_arg, out_pointer)?;
    Ok(out)
}

/// `conv2d` of a 2-d image with a 2-d kernel, in `dtype` (f32 or f64).
pub fn conv2d(image: &Array, kernel: &Array, dtype: DType) -> Result<Array> {
    let (height, width) = (image.shape()[0], image.shape()[1]);
    if image.size() == 0 || kernel.size() == 0 {
        return Array::full(image.shape(), Scalar::Int(0), dtype, Device::Gpu);
    }
    let image = contiguous_as(image, dtype)?;
    let kernel = contiguous_as(kernel, dtype)?;
    let out = empty(image.shape(), dtype)?;
    let g = gpu()?;
    let (out_pointer, image_pointer, kernel_pointer) =
        (pointer(&out)?, pointer(&image)?, pointer(&kernel)?);
    let (h, w) = (height as i64, width as i64);
    let (kh, kw) = (kernel.shape()[0] as i32, kernel.shape()[1] as i32);
    let grid = (width.div_ceil(32) as u32, height.div_ceil(8) as u32, 1);
    let name = if dtype == DType::F32 {
        "conv2d_f32"
    } else {
        "conv2d_f64"
    };
    g.launch(
        "conv",
        name,
        height * width,
        grid,
        (32, 8, 1),
        &mut kernel_args![out_pointer, image_pointer, kernel_pointer, h, w, kh, kw],
    )?;
    Ok(out)
}

/// Counts of a contiguous f64 or f32 array over equal bins (`edges`, of its dtype, one more
/// than the bins), in one pass: `first` and `span` as NumPy computes them, in the dtype.
pub fn histogram_uniform(values: &Array, edges: &Array, first: f64, span: f64) -> Result<Array> {
    let bins = edges.size() - 1;
    let counts = Array::full(&[bins], Scalar::Int(0), DType::I64, Device::Gpu)?;
    let values = contiguous_as(values, values.dtype())?;
    let edges = contiguous_as(edges, values.dtype())?;
    let g = gpu()?;
    let (x, n) = (pointer(&values)?, values.size() as i64);
    let (e, b, out) = (pointer(&edges)?, bins as i64, pointer(&counts)?);
    let (grid, block) = ((g.multiprocessors * 8, 1, 1), (256, 1, 1));
    match values.dtype() {
        DType::F32 => {
            let (first, span) = (first as f32, span as f32);
            let args = &mut kernel_args![x, n, e, b, first, span, out];
            g.launch(
                "histogram",
                "histogram_uniform_f32",
                values.size(),
                grid,
                block,
                args,
            )?
        }
        _ => {
            let args = &mut kernel_args![x, n, e, b, first, span, out];
            g.launch(
                "histogram",
                "histogram_uniform_f64",
                values.size(),
                grid,
                block,
                args,
            )?
        }
    }
    Ok(counts)
}

/// The smallest and largest value of a non-empty f64 or f32 array (NaN for both if it holds
/// one), in one pass: a kernel, then one counted device→host copy of each block's pair.
pub fn extrema(values: &Array) -> Result<(f64, f64)> {
    let values = contiguous_as(values, values.dtype())?;
    let g = gpu()?;
    let blocks = (g.multiprocessors as usize * 8)
        .min(values.size().div_ceil(1024))
        .max(1);
    let partials = empty(&[2 * blocks], values.dtype())?;
    let (x, n, out) = (pointer(&values)?, values.size() as i64, pointer(&partials)?);
    let name = match values.dtype() {
        DType::F32 => "extrema_f32",
        _ => "extrema_f64",
    };
    let (grid, block) = ((blocks as u32, 1, 1), (256, 1, 1));
    g.launch(
        "histogram",
        name,
        values.size(),
        grid,
        block,
        &mut kernel_args![x, n, out],
    )?;
    let pairs = download(&partials)?.to_vec::<f64>()?;
    let nan = pairs.iter().any(|v| v.is_nan());
    let (low, high) = pairs
        .chunks_exact(2)
        .fold((f64::MAX, f64::MIN), |(low, high), pair| {
            (low.min(pair[0]), high.max(pair[1]))
        });
    Ok(if nan {
        (f64::NAN, f64::NAN)
    } else {
        (low, high)
    })
}
