//! The array operations of this layer for gpu arrays: the same NumPy rules as the cpu paths
//! (the callers have already checked shapes and chosen dtypes), done by the kernels of
//! `kernels/*.cu`, cuBLAS and cuRAND. Copies between host and device happen only in `upload`,
//! `download`, `element` and `store_element`, each counted by `device::gpu::memory`.

use std::ffi::c_void;

use super::dtype::DType;
use super::layout::{broadcast_shapes, Layout};
use super::ops::Operand;
use super::reduce::Reduction;
use super::{check_allocation, shape_size, Array, Scalar};
use crate::device::gpu::abi::{self, collapse, suffix, OperandArg, ShapeArg};
use crate::device::gpu::blas::MatrixArg;
use crate::device::gpu::random::Distribution;
use crate::device::gpu::{gpu, Gpu, GpuBuffer};
use crate::device::Device;
use crate::error::{index_error, shape_error, value_error, Result};
use crate::kernel_args;
use crate::with_dtype4;

fn buffer(a: &Array) -> &GpuBuffer {
    a.gpu_buffer()
        .expect("on_gpu is only called with gpu arrays")
}

/// A new, uninitialised C-ordered gpu array.
fn empty(shape: &[usize], dtype: DType) -> Result<Array> {
    let size = shape_size(shape)?;
    let g = gpu()?;
    check_device_memory(g, size.saturating_mul(dtype.size()))?;
    Ok(Array::from_gpu(g.alloc(size, dtype)?, shape))
}

pub fn full(shape: &[usize], value: Scalar, dtype: DType) -> Result<Array> {
    let out = empty(shape, dtype)?;
    fill(&out, value)?;
    Ok(out)
}

/// Fills a contiguous gpu array with one value: a kernel, not a transfer.
fn fill(out: &Array, value: Scalar) -> Result<()> {
    let n = out.size() as i64;
    if n == 0 {
        return Ok(());
    }
    let g = gpu()?;
    let pointer = buffer(out).element_pointer(out.layout().offset);
    let name = format!("fill_{}", suffix(out.dtype()));
    with_dtype4!(out.dtype(), T => {
        let v: T = value.cast();
        g.launch_over(&name, n as usize, &mut kernel_args![pointer, v, n])
    })
}

/// A copy of a cpu array on the gpu: one counted host→device transfer.
pub fn upload(a: &Array) -> Result<Array> {
    let g = gpu()?;
    check_device_memory(g, a.nbytes())?;
    let contiguous = if a.layout().is_contiguous() {
        a.clone()
    } else {
        a.copy()?
    };
    let buffer = with_dtype4!(a.dtype(), T => contiguous.with_view::<T, _>(|v| {
        let data = v.to_slice().expect("contiguous");
        g.upload(data, a.dtype())
    }))?;
    Ok(Array::from_gpu(buffer, a.shape()))
}

/// A copy of a gpu array on the cpu: one counted device→host transfer.
pub fn download(a: &Array) -> Result<Array> {
    check_allocation(a.size(), a.dtype())?;
    let contiguous = if a.layout().is_contiguous() {
        a.clone()
    } else {
        converted(a, a.dtype())?
    };
    let g = gpu()?;
    let pointer = buffer(&contiguous).element_pointer(contiguous.layout().offset);
    Ok(with_dtype4!(a.dtype(), T => Array::from_vec(
        g.copy_to_host::<T>(pointer, a.size())?,
        a.shape().to_vec()
    )))
}

/// One element at buffer offset `offset`, read to the host.
pub fn element(b: &GpuBuffer, offset: usize) -> Result<Scalar> {
    let pointer = b.element_pointer(offset);
    let g = b.gpu();
    Ok(with_dtype4!(b.dtype(), T => Scalar::of(g.copy_to_host::<T>(pointer, 1)?[0])))
}

/// `x[i, j] = v` with every index given: one counted host→device transfer of one element.
fn store_element(target: &Array, value: Scalar) -> Result<()> {
    let b = buffer(target);
    let pointer = b.element_pointer(target.layout().offset);
    with_dtype4!(target.dtype(), T => b.gpu().copy_to_device(pointer, &[value.cast::<T>()]))
}

fn check_device_memory(g: &Gpu, bytes: usize) -> Result<()> {
    let total = g.total_memory;
    if total > 0 && bytes > total {
        return Err(crate::error::memory_error(format!(
            "cannot allocate {} on the gpu: it has {} of memory",
            super::human_bytes(bytes as f64),
            super::human_bytes(total as f64)
        )));
    }
    Ok(())
}

/// Launches an elementwise kernel `family_<compute>` over `shape`: arguments are the shape, the
/// output, each input broadcast to `shape`, then `extra` (an op code) if given.
fn elementwise(
    family: &str,
    compute: DType,
    out: &Array,
    inputs: &[Operand],
    op: Option<i32>,
) -> Result<()> {
    let shape = out.shape().to_vec();
    if out.size() == 0 {
        return Ok(());
    }
    let g = gpu()?;
    let mut layouts: Vec<Layout> = vec![out.layout().clone()];
    for input in inputs {
        if let Operand::Array(a) = input {
            layouts.push(a.layout().broadcast_to(&shape)?);
        }
    }
    let mut views: Vec<&mut Layout> = layouts.iter_mut().collect();
    let iteration = collapse(&shape, &mut views);
    let shape_arg = ShapeArg::new(&iteration)?;
    let mut arrays = layouts.iter();
    let out_arg = OperandArg::array(buffer(out), arrays.next().expect("the output's layout"));
    let mut args: Vec<OperandArg> = vec![out_arg];
    for input in inputs {
        args.push(match input {
            Operand::Array(a) => {
                OperandArg::array(buffer(a), arrays.next().expect("one per array"))
            }
            Operand::Scalar(s) => OperandArg::immediate(*s),
        });
    }
    let op = op.unwrap_or(0);
    let mut pointers: Vec<*mut c_void> = vec![&shape_arg as *const ShapeArg as *mut c_void];
    pointers.extend(args.iter().map(|a| a as *const OperandArg as *mut c_void));
    if family != "where" {
        pointers.push(&op as *const i32 as *mut c_void);
    }
    let name = format!("{family}_{}", suffix(compute));
    g.launch_over(&name, out.size(), &mut pointers)
}

/// `a` converted to `dtype` in a new C-ordered gpu array (also a plain copy, and `astype`).
pub fn converted(a: &Array, dtype: DType) -> Result<Array> {
    let out = empty(a.shape(), dtype)?;
    assign(&out, Operand::Array(a))?;
    Ok(out)
}

/// Stores `value` (broadcast, converted) into every element of the view `target`.
pub fn assign(target: &Array, value: Operand) -> Result<()> {
    match value {
        Operand::Scalar(s) if target.ndim() == 0 => store_element(target, s),
        Operand::Scalar(s) if target.layout().is_contiguous() => fill(target, s),
        _ => binary_into(
            target,
            abi::binary::SECOND,
            target.dtype(),
            Operand::Array(target),
            value,
        ),
    }
}

fn binary_code(op: crate::syntax::ast::BinOp, compute: DType) -> i32 {
    use crate::syntax::ast::BinOp;
    match (op, compute) {
        (BinOp::Add, DType::Bool) => abi::binary::OR,
        (BinOp::Mul, DType::Bool) => abi::binary::AND,
        (BinOp::Add, _) => abi::binary::ADD,
        (BinOp::Sub, _) => abi::binary::SUB,
        (BinOp::Mul, _) => abi::binary::MUL,
        (BinOp::Div, _) => abi::binary::DIV,
        (BinOp::Mod, _) => abi::binary::MOD,
        (BinOp::Pow, _) => abi::binary::POW,
        (BinOp::Eq, _) => abi::binary::EQ,
        (BinOp::Ne, _) => abi::binary::NE,
        (BinOp::Lt, _) => abi::binary::LT,
        (BinOp::Le, _) => abi::binary::LE,
        (BinOp::Gt, _) => abi::binary::GT,
        (BinOp::Ge, _) => abi::binary::GE,
        (BinOp::MatMul, _) => unreachable!("@ is linalg::matmul"),
    }
}

/// `a op b` into a new array: computed in `compute`, stored as `out_dtype`.
pub fn binary(
    op: crate::syntax::ast::BinOp,
    compute: DType,
    out_dtype: DType,
    a: Operand,
    b: Operand,
) -> Result<Array> {
    let shape = broadcast_shapes(&operand_shape(&a), &operand_shape(&b))?;
    let out = empty(&shape, out_dtype)?;
    binary_into(&out, binary_code(op, compute), compute, a, b)?;
    Ok(out)
}

/// `maximum`/`minimum`.
pub fn extremum(dtype: DType, a: Operand, b: Operand, is_max: bool) -> Result<Array> {
    let shape = broadcast_shapes(&operand_shape(&a), &operand_shape(&b))?;
    let out = empty(&shape, dtype)?;
    let code = if is_max {
        abi::binary::MAX
    } else {
        abi::binary::MIN
    };
    binary_into(&out, code, dtype, a, b)?;
    Ok(out)
}

/// `target op= value` in place, computed in the target's dtype (`/` in its float type).
pub fn binary_in_place(
    op: crate::syntax::ast::BinOp,
    target: &Array,
    value: Operand,
) -> Result<()> {
    let compute = target.dtype();
    binary_into(
        target,
        binary_code(op, compute),
        compute,
        Operand::Array(target),
        value,
    )
}

fn operand_shape(o: &Operand) -> Vec<usize> {
    match o {
        Operand::Array(a) => a.shape().to_vec(),
        Operand::Scalar(_) => vec![],
    }
}

/// `out = a op b`, with the dense kernel when every array is contiguous and of one dtype.
fn binary_into(out: &Array, code: i32, compute: DType, a: Operand, b: Operand) -> Result<()> {
    let dense_op = matches!(
        code,
        abi::binary::ADD
            | abi::binary::SUB
            | abi::binary::MUL
            | abi::binary::DIV
            | abi::binary::SECOND
    );
    let dense_array = |o: &Operand| match o {
        Operand::Array(x) => {
            x.dtype() == compute && x.layout().is_contiguous() && x.shape() == out.shape()
        }
        Operand::Scalar(_) => false,
    };
    let dense = dense_op
        && (compute != DType::Bool || code == abi::binary::SECOND)
        && out.dtype() == compute
        && out.layout().is_contiguous()
        && dense_array(&a)
        && (dense_array(&b) || matches!(b, Operand::Scalar(_)));
    if !dense {
        return elementwise("binary", compute, out, &[a, b], Some(code));
    }
    let n = out.size() as i64;
    if n == 0 {
        return Ok(());
    }
    let g = gpu()?;
    let pointer = |x: &Array| buffer(x).element_pointer(x.layout().offset);
    let out_pointer = pointer(out);
    let Operand::Array(a) = a else {
        unreachable!("checked dense")
    };
    let a_pointer = pointer(a);
    let (b_pointer, scalar) = match b {
        Operand::Array(x) => (pointer(x), Scalar::Int(0)),
        Operand::Scalar(s) => (0u64, s),
    };
    if code == abi::binary::SECOND && b_pointer != 0 {
        return g.copy_on_device(out_pointer, b_pointer, out.nbytes());
    }
    let name = format!("dense_{}", suffix(compute));
    with_dtype4!(compute, T => {
        let s: T = scalar.cast();
        g.launch_over(&name, n as usize, &mut kernel_args![out_pointer, a_pointer, b_pointer, s, n, code])
    })
}

/// A unary function: computed in `compute`, stored as `out_dtype`.
pub fn unary(code: i32, compute: DType, out_dtype: DType, a: &Array) -> Result<Array> {
    let out = empty(a.shape(), out_dtype)?;
    elementwise("unary", compute, &out, &[Operand::Array(a)], Some(code))?;
    Ok(out)
}

pub fn where_(
    cond: &Array,
    a: Operand,
    b: Operand,
    dtype: DType,
    shape: &[usize],
) -> Result<Array> {
    let out = empty(shape, dtype)?;
    elementwise("where", dtype, &out, &[Operand::Array(cond), a, b], None)?;
    Ok(out)
}

// ---- reductions ----

/// The type a reduction accumulates in for an input of `dtype`.
fn accumulator(r: Reduction, dtype: DType) -> DType {
    match r {
        Reduction::Mean | Reduction::Std | Reduction::Var => dtype.to_float(),
        Reduction::Any | Reduction::All => DType::I64,
        _ if dtype == DType::Bool => DType::I64,
        _ => dtype,
    }
}

fn reduce_code(r: Reduction) -> i32 {
    match r {
        Reduction::Sum | Reduction::Mean => abi::reduce::SUM,
        Reduction::Prod => abi::reduce::PROD,
        Reduction::Min => abi::reduce::MIN,
        Reduction::Max => abi::reduce::MAX,
        Reduction::ArgMin => abi::reduce::ARGMIN,
        Reduction::ArgMax => abi::reduce::ARGMAX,
        Reduction::Any => abi::reduce::ANY,
        Reduction::All => abi::reduce::ALL,
        Reduction::Std | Reduction::Var => abi::reduce::SQUARED_DEVIATION,
    }
}

fn finish_code(r: Reduction) -> i32 {
    match r {
        Reduction::Mean | Reduction::Var => abi::reduce::FINISH_DIVIDE,
        Reduction::Std => abi::reduce::FINISH_SQRT_DIVIDE,
        _ => abi::reduce::FINISH_NONE,
    }
}

/// Bytes of one `Acc<A>` partial result: a value and an index, 16 bytes for every A.
const PARTIAL_BYTES: usize = 16;

/// A full reduction into a 0-d gpu array of `out_dtype` (no transfer).
pub fn reduce_all(r: Reduction, a: &Array, out_dtype: DType) -> Result<Array> {
    let out = empty(&[], out_dtype)?;
    let acc = accumulator(r, a.dtype());
    let center = match r {
        Reduction::Std | Reduction::Var => Some(reduce_all(Reduction::Mean, a, acc)?),
        _ => None,
    };
    let g = gpu()?;
    let mut layout = a.layout().clone();
    let iteration = collapse(a.shape(), &mut [&mut layout]);
    let shape_arg = ShapeArg::new(&iteration)?;
    let input = OperandArg::array(buffer(a), &layout);
    let blocks = g.grid_for(a.size()).min(1024);
    let partials = g.alloc(blocks as usize * PARTIAL_BYTES / 8, DType::I64)?;
    let partials_pointer = partials.device_pointer();
    let center_pointer = center.as_ref().map_or(0, |c| buffer(c).device_pointer());
    let (code, finish) = (reduce_code(r), finish_code(r));
    let block = crate::device::gpu::modules::BLOCK;
    let plain_sum = code == abi::reduce::SUM && a.dtype() == acc && layout.is_contiguous();
    if plain_sum {
        let pointer = buffer(a).element_pointer(layout.offset);
        let n = a.size() as i64;
        g.launch(
            &format!("sum_dense_{}", suffix(acc)),
            a.size(),
            (blocks, 1, 1),
            (block, 1, 1),
            &mut kernel_args![pointer, n, partials_pointer],
        )?;
    } else {
        g.launch(
            &format!("reduce_partial_{}", suffix(acc)),
            a.size(),
            (blocks, 1, 1),
            (block, 1, 1),
            &mut kernel_args![shape_arg, input, code, partials_pointer, center_pointer],
        )?;
    }
    let count = blocks as i64;
    let divisor = a.size() as f64;
    let out_arg = OperandArg::array(buffer(&out), out.layout());
    g.launch(
        &format!("reduce_finish_{}", suffix(acc)),
        count as usize,
        (1, 1, 1),
        (1024, 1, 1),
        &mut kernel_args![partials_pointer, count, code, finish, divisor, out_arg],
    )?;
    Ok(out)
}

/// A reduction along `axis` into a new gpu array of `out_dtype`.
pub fn reduce_axis(r: Reduction, a: &Array, axis: usize, out_dtype: DType) -> Result<Array> {
    let mut shape = a.shape().to_vec();
    let axis_len = shape.remove(axis) as i64;
    let out = empty(&shape, out_dtype)?;
    if out.size() == 0 {
        return Ok(out);
    }
    let acc = accumulator(r, a.dtype());
    let center = match r {
        Reduction::Std | Reduction::Var => Some(reduce_axis(Reduction::Mean, a, axis, acc)?),
        _ => None,
    };
    let g = gpu()?;
    let mut strides = a.layout().strides.clone();
    let axis_stride = strides.remove(axis) as i64;
    let input_layout = Layout {
        shape: shape.clone(),
        strides,
        offset: a.layout().offset,
    };
    let shape_arg = ShapeArg::new(&shape)?;
    let input = OperandArg::array(buffer(a), &input_layout);
    let out_arg = OperandArg::array(buffer(&out), out.layout());
    let center_pointer = center.as_ref().map_or(0, |c| buffer(c).device_pointer());
    let (code, finish) = (reduce_code(r), finish_code(r));
    let divisor = axis_len as f64;
    let mut args = kernel_args![
        shape_arg,
        input,
        axis_len,
        axis_stride,
        code,
        finish,
        divisor,
        center_pointer,
        out_arg
    ];
    let few_long_lanes = axis_len >= 1024 && out.size() < g.multiprocessors as usize * 8;
    if few_long_lanes {
        g.launch(
            &format!("reduce_axis_blocks_{}", suffix(acc)),
            a.size(),
            (out.size() as u32, 1, 1),
            (256, 1, 1),
            &mut args,
        )
    } else {
        g.launch_over(
            &format!("reduce_axis_threads_{}", suffix(acc)),
            out.size(),
            &mut args,
        )
    }?;
    Ok(out)
}

/// Running sums along `axis` (a 1-d array's one axis is scanned with all of the gpu).
pub fn cumsum(a: &Array, axis: usize, dtype: DType) -> Result<Array> {
    let out = empty(a.shape(), dtype)?;
    if out.size() == 0 {
        return Ok(out);
    }
    let g = gpu()?;
    let name = suffix(dtype);
    if a.ndim() == 1 {
        const CHUNK: usize = 4096;
        let chunks = a.size().div_ceil(CHUNK);
        let shape_arg = ShapeArg::new(a.shape())?;
        let input = OperandArg::array(buffer(a), a.layout());
        let totals = g.alloc(chunks, dtype)?;
        let totals_pointer = totals.device_pointer();
        let count = chunks as i64;
        let out_arg = OperandArg::array(buffer(&out), out.layout());
        g.launch(
            &format!("scan_totals_{name}"),
            a.size(),
            (chunks as u32, 1, 1),
            (256, 1, 1),
            &mut kernel_args![shape_arg, input, totals_pointer],
        )?;
        g.launch(
            &format!("scan_offsets_{name}"),
            chunks,
            (1, 1, 1),
            (1024, 1, 1),
            &mut kernel_args![totals_pointer, count],
        )?;
        g.launch(
            &format!("scan_apply_{name}"),
            a.size(),
            (chunks as u32, 1, 1),
            (1024, 1, 1),
            &mut kernel_args![shape_arg, input, totals_pointer, out_arg],
        )?;
        return Ok(out);
    }
    let mut starts = a.shape().to_vec();
    starts[axis] = 1;
    let shape_arg = ShapeArg::new(&starts)?;
    let input = OperandArg::array(buffer(a), a.layout());
    let out_arg = OperandArg::array(buffer(&out), out.layout());
    let mut out_strided = out_arg;
    out_strided.mode = 1;
    let (axis_len, axis_stride) = (a.shape()[axis] as i64, a.layout().strides[axis] as i64);
    let out_axis_stride = out.layout().strides[axis] as i64;
    let mut input_strided = input;
    input_strided.mode = 1;
    let lines = starts.iter().product::<usize>();
    g.launch_over(
        &format!("scan_lines_{name}"),
        lines,
        &mut kernel_args![
            shape_arg,
            input_strided,
            axis_len,
            axis_stride,
            out_strided,
            out_axis_stride
        ],
    )?;
    Ok(out)
}

// ---- indexing ----

/// A contiguous i64 copy of an index array, unless it already is one.
fn contiguous_as(a: &Array, dtype: DType) -> Result<Array> {
    if a.dtype() == dtype && a.layout().is_contiguous() {
        Ok(a.clone())
    } else {
        converted(a, dtype)
    }
}

fn rows_of(a: &Array) -> Result<(usize, usize)> {
    if a.ndim() == 0 {
        return Err(index_error("a 0-d array cannot be indexed with an array"));
    }
    Ok((a.shape()[0], a.shape()[1..].iter().product()))
}

/// `a[index]` for an i64 index array: whole rows along the first axis. Positions wrap around
/// the axis, as CuPy's do: checking them would cost a device→host copy.
pub fn gather(a: &Array, index: &Array) -> Result<Array> {
    let (rows, row) = rows_of(a)?;
    let mut shape = index.shape().to_vec();
    shape.extend_from_slice(&a.shape()[1..]);
    let out = empty(&shape, a.dtype())?;
    if out.size() == 0 {
        return Ok(out);
    }
    if rows == 0 {
        return Err(index_error(
            "index out of range: the array's first axis is empty",
        ));
    }
    let index = contiguous_as(index, DType::I64)?;
    let g = gpu()?;
    let shape_arg = ShapeArg::new(a.shape())?;
    let input = OperandArg::array(buffer(a), a.layout());
    let index_pointer = buffer(&index).element_pointer(index.layout().offset);
    let (count, row) = (index.size() as i64, row as i64);
    let out_arg = OperandArg::array(buffer(&out), out.layout());
    g.launch_over(
        &format!("gather_{}", suffix(a.dtype())),
        out.size(),
        &mut kernel_args![shape_arg, input, index_pointer, count, row, out_arg],
    )?;
    Ok(out)
}

/// `a[index] = values` for an i64 index array; `values` is contiguous, of a's dtype, one row
/// per index.
pub fn scatter(a: &Array, index: &Array, values: &Array) -> Result<()> {
    let (rows, row) = rows_of(a)?;
    if values.size() == 0 {
        return Ok(());
    }
    if rows == 0 {
        return Err(index_error(
            "index out of range: the array's first axis is empty",
        ));
    }
    let index = contiguous_as(index, DType::I64)?;
    let values = contiguous_as(values, a.dtype())?;
    let g = gpu()?;
    let shape_arg = ShapeArg::new(a.shape())?;
    let target = OperandArg::array(buffer(a), a.layout());
    let index_pointer = buffer(&index).element_pointer(index.layout().offset);
    let (count, row) = (index.size() as i64, row as i64);
    let values_arg = OperandArg::array(buffer(&values), values.layout());
    g.launch_over(
        &format!("scatter_{}", suffix(a.dtype())),
        values.size(),
        &mut kernel_args![shape_arg, target, index_pointer, count, row, values_arg],
    )
}

/// The flat mask and the running count of its selected rows (`ends`), and how many it selects:
/// the count is read to the host (one counted device→host copy) to size the result.
fn mask_ends(mask: &Array) -> Result<(Array, Array, usize)> {
    let flat = contiguous_as(&super::shape::ravel(mask)?, DType::Bool)?;
    let ends = cumsum(&flat, 0, DType::I64)?;
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
    let array_arg = OperandArg::array(buffer(a), a.layout());
    let mask_pointer = buffer(flat_mask).element_pointer(flat_mask.layout().offset);
    let ends_pointer = buffer(ends).element_pointer(ends.layout().offset);
    let row = row as i64;
    let other_arg = OperandArg::array(buffer(other), other.layout());
    g.launch_over(
        &format!("{family}_{}", suffix(a.dtype())),
        a.size(),
        &mut kernel_args![
            shape_arg,
            array_arg,
            mask_pointer,
            ends_pointer,
            row,
            other_arg
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
    spread.shape = a.shape().to_vec();
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
        return elementwise(
            "where",
            a.dtype(),
            a,
            &[Operand::Array(&cond), value, Operand::Array(a)],
            None,
        );
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

// ---- shape ----

/// Joins arrays (same device, shapes checked) along `axis` into a new array of `dtype`.
pub fn concatenate(arrays: &[Array], axis: usize, dtype: DType) -> Result<Array> {
    let mut shape = arrays[0].shape().to_vec();
    shape[axis] = arrays.iter().map(|a| a.shape()[axis]).sum();
    let out = empty(&shape, dtype)?;
    let mut start = 0;
    for piece in arrays {
        let len = piece.shape()[axis];
        let mut layout = out.layout().clone();
        layout.offset += start * layout.strides[axis] as usize;
        layout.shape[axis] = len;
        assign(&out.with_layout(layout), Operand::Array(piece))?;
        start += len;
    }
    Ok(out)
}

// ---- linear algebra and images ----

/// A matrix operand for cuBLAS: C-ordered or a transposed view of a C-ordered matrix, else a
/// contiguous copy.
fn matrix_arg(m: &Array, dtype: DType) -> Result<(Array, MatrixArg)> {
    let m = if m.dtype() == dtype {
        m.clone()
    } else {
        converted(m, dtype)?
    };
    let (rows, cols) = (m.shape()[0], m.shape()[1]);
    let strides = &m.layout().strides;
    let pointer = |x: &Array| buffer(x).element_pointer(x.layout().offset);
    if (strides[1] == 1 || cols == 1) && (strides[0] == cols as isize || rows == 1) {
        let arg = MatrixArg {
            pointer: pointer(&m),
            transposed: false,
            leading: cols,
        };
        return Ok((m, arg));
    }
    if (strides[0] == 1 || rows == 1) && (strides[1] == rows as isize || cols == 1) {
        let arg = MatrixArg {
            pointer: pointer(&m),
            transposed: true,
            leading: rows,
        };
        return Ok((m, arg));
    }
    let copy = converted(&m, dtype)?;
    let arg = MatrixArg {
        pointer: pointer(&copy),
        transposed: false,
        leading: cols,
    };
    Ok((copy, arg))
}

/// `a @ b` for 1-d and 2-d operands whose inner sizes agree (checked by the caller), into a new
/// array of shape `shape`.
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
        return full(shape, Scalar::Int(0), dtype);
    }
    let out = empty(shape, dtype)?;
    let out_pointer = buffer(&out).device_pointer();
    let g = gpu()?;
    if dtype == DType::I64 {
        let (a2, b2) = (contiguous_as(&a2, dtype)?, contiguous_as(&b2, dtype)?);
        let pointer = |x: &Array| buffer(x).element_pointer(x.layout().offset);
        let (a_pointer, b_pointer) = (pointer(&a2), pointer(&b2));
        let (m, k, n) = (m as i64, k as i64, n as i64);
        g.launch_over(
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
        return full(image.shape(), Scalar::Int(0), dtype);
    }
    let image = contiguous_as(image, dtype)?;
    let kernel = contiguous_as(kernel, dtype)?;
    let out = empty(image.shape(), dtype)?;
    let g = gpu()?;
    let pointer = |x: &Array| buffer(x).element_pointer(x.layout().offset);
    let (out_pointer, image_pointer, kernel_pointer) =
        (pointer(&out), pointer(&image), pointer(&kernel));
    let (h, w) = (height as i64, width as i64);
    let (kh, kw) = (kernel.shape()[0] as i32, kernel.shape()[1] as i32);
    let grid = (width.div_ceil(32) as u32, height.div_ceil(8) as u32, 1);
    g.launch(
        &format!("conv2d_{}", suffix(dtype)),
        height * width,
        grid,
        (32, 8, 1),
        &mut kernel_args![out_pointer, image_pointer, kernel_pointer, h, w, kh, kw],
    )?;
    Ok(out)
}

// ---- random numbers ----

/// Uniform [0, 1) or standard normal floats of `dtype` (f64 or f32), made by cuRAND.
pub fn random(shape: &[usize], dtype: DType, normal: bool) -> Result<Array> {
    let size = shape_size(shape)?;
    let g = gpu()?;
    // cuRAND's normal generators fill an even count; an odd size gets one spare element.
    check_device_memory(g, size.saturating_mul(dtype.size()))?;
    let buffer = g.alloc(size + (normal && size % 2 == 1) as usize, dtype)?;
    let distribution = if normal {
        Distribution::Normal
    } else {
        Distribution::Uniform
    };
    g.fill_random(&buffer, distribution)?;
    let out = Array::from_gpu(buffer, shape);
    if !normal {
        // cuRAND draws from (0, 1]; NumPy's rand from [0, 1).
        binary_into(
            &out,
            abi::binary::SUB,
            dtype,
            Operand::Scalar(Scalar::Int(1)),
            Operand::Array(&out.clone()),
        )?;
    }
    Ok(out)
}

/// Integers in [low, high), made from cuRAND's uniform doubles.
pub fn randint(shape: &[usize], low: i64, high: i64) -> Result<Array> {
    if high <= low {
        return Err(value_error(format!(
            "randint: low ({low}) must be less than high ({high})"
        )));
    }
    let size = shape_size(shape)?;
    let g = gpu()?;
    check_device_memory(g, size.saturating_mul(16))?;
    let uniform = g.alloc(size, DType::F64)?;
    g.fill_random(&uniform, Distribution::Uniform)?;
    let out = empty(shape, DType::I64)?;
    if size > 0 {
        let (out_pointer, uniform_pointer) =
            (buffer(&out).device_pointer(), uniform.device_pointer());
        let span = high.wrapping_sub(low);
        let n = size as i64;
        g.launch_over(
            "randint_from_uniform",
            size,
            &mut kernel_args![out_pointer, uniform_pointer, low, span, n],
        )?;
    }
    Ok(out)
}

/// True when any operand lives on the gpu (the operation then runs there).
pub fn involved(operands: &[&Operand]) -> bool {
    operands
        .iter()
        .any(|o| matches!(o, Operand::Array(a) if a.device() == Device::Gpu))
}
