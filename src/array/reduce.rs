//! Reductions (`sum`, `mean`, `argmax` …) over all elements or along one axis, and `cumsum`,
//! with NumPy's dtypes: integer sums are int64 (uint64 for unsigned), means of integers are
//! float64 (float16 means add in float32), `std`/`var` of complex numbers are real. The input
//! may be any plan: `sum(x * y)` computes `x * y` inside the reduction's own pass.

use super::ops::{self, Operand};
use super::Array;
use crate::base::interrupt::Stop;
use crate::base::layout::{Layout, Strides};
use crate::base::{DType, Scalar};
use crate::device::cpu::threads;
use crate::device::Device;
use crate::error::{Error, ErrorKind, Result};
use crate::plan::cpu_math::Math;
use crate::plan::reduce::{self as plan_reduce, Reduction};
use crate::plan::table::{self, Op};
use crate::plan::{self, Expr};
use rayon::prelude::*;
use std::mem::MaybeUninit;

/// What a reduction built-in computes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Statistic {
    Reduce(Reduction),
    Mean,
    Var,
    Std,
}

impl Statistic {
    pub fn name(self) -> &'static str {
        match self {
            Statistic::Reduce(r) => r.name(),
            Statistic::Mean => "mean",
            Statistic::Var => "var",
            Statistic::Std => "std",
        }
    }
}

/// Resolves a possibly negative axis against `ndim`.
pub fn normalize_axis(axis: i64, ndim: usize) -> Result<usize> {
    let n = ndim as i64;
    let a = if axis < 0 { axis + n } else { axis };
    if a < 0 || a >= n {
        return Err(Error::new(
            ErrorKind::Index,
            format!("axis {axis} is out of bounds for array of dimension {ndim}"),
        ));
    }
    Ok(a as usize)
}

fn expr_of(a: &Array) -> Result<Expr> {
    plan::input(a.shape(), &a.operand(), None)
}

/// The dtype a mean adds in: float64 for integers, float32 for float16, else its own.
fn mean_accumulator(dtype: DType) -> DType {
    match dtype {
        DType::F16 => DType::F32,
        d if !d.is_inexact() => DType::F64,
        d => d,
    }
}

/// The dtype of a mean's result.
fn mean_dtype(dtype: DType) -> DType {
    match dtype {
        DType::F16 => DType::F16,
        d => mean_accumulator(d),
    }
}

/// A 0-d array of the statistic of all elements, on `a`'s device (no transfer).
pub fn reduce_all_array(s: Statistic, a: &Array, ddof: f64) -> Result<Array> {
    let n = a.size();
    let device = a.device();
    let expr = expr_of(a)?;
    let buffer = match s {
        Statistic::Reduce(r) => {
            let out = r.result_dtype(a.dtype());
            plan_reduce::reduce_all(r, &expr, a.shape(), device, None, out)?
        }
        Statistic::Mean => {
            let acc = mean_accumulator(a.dtype());
            plan_reduce::reduce_all(
                Reduction::Sum,
                &expr.cast(acc),
                a.shape(),
                device,
                Some(n as f64),
                mean_dtype(a.dtype()),
            )?
        }
        Statistic::Var | Statistic::Std => {
            let mean = reduce_all_array(Statistic::Mean, a, 0.0)?;
            let squares = squared_deviations(a, &mean)?;
            let count = (n as f64 - ddof).max(0.0);
            let out = mean_dtype(squares.dtype());
            let var = plan_reduce::reduce_all(
                Reduction::Sum,
                &expr_of(&squares)?.cast(mean_accumulator(squares.dtype())),
                a.shape(),
                device,
                Some(count),
                out,
            )?;
            let var = Array::from_buffer(var, &[]);
            if s == Statistic::Var {
                return Ok(var);
            }
            return ops::apply(table::row(Op::Sqrt), &[Operand::Array(&var)]);
        }
    };
    Ok(Array::from_buffer(buffer, &[]))
}

/// `|a - mean|²` (real for complex input), the values `var` sums, as a plan.
fn squared_deviations(a: &Array, mean: &Array) -> Result<Array> {
    let d = ops::apply(
        table::row(Op::Subtract),
        &[Operand::Array(a), Operand::Array(mean)],
    )?;
    if a.dtype().is_complex() {
        let conj = ops::apply(table::row(Op::Conjugate), &[Operand::Array(&d)])?;
        let product = ops::apply(
            table::row(Op::Multiply),
            &[Operand::Array(&d), Operand::Array(&conj)],
        )?;
        return ops::real(&product);
    }
    ops::apply(
        table::row(Op::Multiply),
        &[Operand::Array(&d), Operand::Array(&d)],
    )
}

/// A full reduction to a host scalar (from the gpu: one counted device→host copy).
pub fn reduce_all(r: Reduction, a: &Array) -> Result<Scalar> {
    statistic_all(Statistic::Reduce(r), a, 0.0)
}

pub fn statistic_all(s: Statistic, a: &Array, ddof: f64) -> Result<Scalar> {
    reduce_all_array(s, a, ddof)?.item()
}

/// A statistic along one axis: an array on the same device with that axis removed.
pub fn reduce_axis(s: Statistic, a: &Array, axis: i64, ddof: f64) -> Result<Array> {
    let axis = normalize_axis(axis, a.ndim())?;
    let lane = a.shape()[axis];
    let mut shape = a.shape().to_vec();
    shape.remove(axis);
    match s {
        Statistic::Reduce(r) => along(r, a, axis, None, r.result_dtype(a.dtype()), &shape),
        Statistic::Mean => {
            let acc = mean_accumulator(a.dtype());
            let converted = a.astype(acc)?;
            along(
                Reduction::Sum,
                &converted,
                axis,
                Some(lane as f64),
                mean_dtype(a.dtype()),
                &shape,
            )
        }
        Statistic::Var | Statistic::Std => {
            let mean = reduce_axis(Statistic::Mean, a, axis as i64, 0.0)?;
            let mut kept = mean.shape().to_vec();
            kept.insert(axis, 1);
            let mean =
                super::shape::reshape(&mean, &kept.iter().map(|&n| n as i64).collect::<Vec<_>>())?;
            let squares = squared_deviations(a, &mean)?;
            let count = (lane as f64 - ddof).max(0.0);
            let squares = squares.astype(mean_accumulator(squares.dtype()))?;
            let var = along(
                Reduction::Sum,
                &squares,
                axis,
                Some(count),
                mean_dtype(squares.dtype()),
                &shape,
            )?;
            if s == Statistic::Var {
                return Ok(var);
            }
            ops::apply(table::row(Op::Sqrt), &[Operand::Array(&var)])
        }
    }
}

fn along(
    r: Reduction,
    a: &Array,
    axis: usize,
    divide_by: Option<f64>,
    out: DType,
    shape: &[usize],
) -> Result<Array> {
    if a.shape()[axis] == 0 && r.needs_elements() {
        return Err(plan_reduce::empty_error(r));
    }
    if a.size() == 0 {
        let value = plan_reduce::empty_value(r, a.dtype(), divide_by);
        return Array::full(shape, value, out, a.device());
    }
    let buffer = match a.device() {
        Device::Gpu => {
            let expr = expr_of(a)?;
            crate::plan::cuda::reduce_axis(r, &expr, a.shape(), axis, divide_by, out)?
        }
        Device::Cpu => {
            let buffer = a.buffer()?;
            let reduced = plan_reduce::reduce_axis_cpu(r, &buffer, a.layout(), axis, divide_by)?;
            if reduced.dtype() == out {
                reduced
            } else {
                Array::from_buffer(reduced, shape).astype(out)?.buffer()?
            }
        }
    };
    Ok(Array::from_buffer(buffer, shape))
}

/// Running sums (or, with `product`, products); without an axis, over the flattened array
/// (NumPy's `cumsum` and `cumprod`), in the dtype the sum or product would have.
pub fn scan(a: &Array, axis: Option<i64>, product: bool) -> Result<Array> {
    let (a, axis) = match axis {
        Some(ax) => (a.clone(), normalize_axis(ax, a.ndim())?),
        None => (super::shape::ravel(a)?, 0),
    };
    let r = if product {
        Reduction::Prod
    } else {
        Reduction::Sum
    };
    let out = r.result_dtype(a.dtype());
    let accumulate = r.accumulator(a.dtype());
    match a.device() {
        Device::Gpu => {
            let expr = expr_of(&a)?;
            let buffer = crate::plan::cuda::scan(&expr, a.shape(), axis, accumulate, out, product)?;
            if a.ndim() <= 1 {
                return Ok(Array::from_buffer(buffer, a.shape()));
            }
            // The result was written with the scanned axis last: view it back.
            let mut permuted: Vec<usize> = (0..a.ndim()).filter(|&d| d != axis).collect();
            permuted.push(axis);
            let shape_last: Vec<usize> = permuted.iter().map(|&d| a.shape()[d]).collect();
            let contiguous = Layout::contiguous(&shape_last);
            let mut strides = Strides::from_elem(0, a.ndim());
            for (position, &d) in permuted.iter().enumerate() {
                strides[d] = contiguous.strides[position];
            }
            let layout = Layout {
                shape: a.shape().into(),
                strides,
                offset: 0,
            };
            Ok(Array::new(plan::Storage::Ready(buffer), layout))
        }
        Device::Cpu => scan_cpu(
            &a,
            axis,
            accumulate,
            out,
            if product { Op::Multiply } else { Op::Add },
        ),
    }
}

fn scan_cpu(a: &Array, axis: usize, accumulate: DType, out: DType, op: Op) -> Result<Array> {
    let converted = if a.dtype() == accumulate {
        a.clone()
    } else {
        a.astype(accumulate)?
    };
    let last = axis + 1 == a.ndim().max(1);
    let summed = crate::with_dtype!(accumulate, T => {
        converted.with_view::<T, _>(|v| -> Result<Array> {
            match (last, v.as_slice()) {
                // Rows along the last axis, read once and written once.
                (true, Some(data)) => {
                    let len = v.shape().last().copied().unwrap_or(1).max(1);
                    let scanned = match op {
                        Op::Add => scan_rows(data, len, |r: T, x| Math::binary(Op::Add, r, x)),
                        _ => scan_rows(data, len, |r: T, x| Math::binary(Op::Multiply, r, x)),
                    };
                    Ok(Array::from_vec(scanned?, v.shape().to_vec()))
                }
                _ => {
                    let mut owned = v.to_owned();
                    owned.accumulate_axis_inplace(ndarray::Axis(axis), |&prev, cur| {
                        *cur = Math::binary(op, prev, *cur)
                    });
                    Ok(Array::from_ndarray(owned))
                }
            }
        })??
    });
    if out == accumulate {
        Ok(summed)
    } else {
        summed.astype(out)
    }
}

/// The running `combine` of each row of `len` values of `data`, as NumPy's `accumulate`: one
/// value after another (a row's sums are those of a sequential loop, bit for bit). Rows run
/// side by side, and a long row in blocks, between which an interrupt is seen.
fn scan_rows<T: Copy + Send + Sync>(
    data: &[T],
    len: usize,
    combine: impl Fn(T, T) -> T + Sync,
) -> Result<Vec<T>> {
    /// Values per block: a millisecond or two of work.
    const BLOCK: usize = 1 << 20;
    let stop = Stop::current();
    let scan_row = |row: &[T], out: &mut [MaybeUninit<T>]| {
        let mut running = row[0];
        out[0].write(running);
        for (start, block) in row.chunks(BLOCK).enumerate() {
            if stop.requested() {
                return;
            }
            let skip = usize::from(start == 0);
            let out = &mut out[start * BLOCK..start * BLOCK + block.len()];
            for (o, &x) in out.iter_mut().zip(block).skip(skip) {
                running = combine(running, x);
                o.write(running);
            }
        }
    };
    let mut out = Vec::with_capacity(data.len());
    let spare = &mut out.spare_capacity_mut()[..data.len()];
    if data.len() >= BLOCK && data.len() > len {
        threads::install(|| {
            let rows_per_task = BLOCK.div_ceil(len);
            data.par_chunks(rows_per_task * len)
                .zip(spare.par_chunks_mut(rows_per_task * len))
                .for_each(|(rows, out)| {
                    for (row, out) in rows.chunks(len).zip(out.chunks_mut(len)) {
                        scan_row(row, out);
                    }
                })
        });
    } else {
        for (row, out) in data.chunks(len).zip(spare.chunks_mut(len)) {
            scan_row(row, out);
        }
    }
    if stop.requested() {
        return Err(Error::new(ErrorKind::Interrupted, "interrupted"));
    }
    // SAFETY: every row was scanned in full (no interrupt), writing each of its values.
    unsafe { out.set_len(data.len()) };
    Ok(out)
}

/// A statistic over `axes` (every axis when `None`) as an array on `a`'s device, the reduced
/// axes kept with length 1 when `keepdims`: NumPy's `axis=` (an int or several) and `keepdims=`.
pub fn reduce_axes(
    s: Statistic,
    a: &Array,
    axes: Option<&[i64]>,
    keepdims: bool,
    ddof: f64,
) -> Result<Array> {
    let ndim = a.ndim();
    let axes: Vec<usize> = match axes {
        None => (0..ndim).collect(),
        Some(axes) => super::shape::normalize_axes(axes, ndim)?,
    };
    let arg = matches!(s, Statistic::Reduce(Reduction::ArgMin | Reduction::ArgMax));
    let reduced = match axes.as_slice() {
        // All axes (also the one axis of a 1-d array): one full reduction, not lanes.
        _ if axes.len() == ndim => reduce_all_array(s, a, ddof)?,
        [axis] => reduce_axis(s, a, *axis as i64, ddof)?,
        _ if arg => {
            return Err(crate::error::type_error(
                "argmin/argmax take one axis or none",
            ))
        }
        _ => {
            // The reduced axes moved last and merged into one.
            let last: Vec<i64> = (ndim - axes.len()..ndim).map(|d| d as i64).collect();
            let source: Vec<i64> = axes.iter().map(|&d| d as i64).collect();
            let moved = super::shape::moveaxis(a, &source, &last)?;
            let mut merged: Vec<i64> = moved.shape()[..ndim - axes.len()]
                .iter()
                .map(|&n| n as i64)
                .collect();
            merged.push(axes.iter().map(|&d| a.shape()[d] as i64).product());
            let merged = super::shape::reshape(&moved, &merged)?;
            reduce_axis(s, &merged, -1, ddof)?
        }
    };
    if !keepdims {
        return Ok(reduced);
    }
    let kept: Vec<i64> = (0..ndim)
        .map(|d| {
            if axes.contains(&d) {
                1
            } else {
                a.shape()[d] as i64
            }
        })
        .collect();
    super::shape::reshape(&reduced, &kept)
}

#[cfg(test)]
mod tests {
    use super::scan_rows;

    /// Running sums as NumPy's loop computes them: each the previous one plus the next value.
    fn sequential(row: &[f64]) -> Vec<f64> {
        let mut running = 0.0;
        row.iter()
            .enumerate()
            .map(|(i, &x)| {
                running = if i == 0 { x } else { running + x };
                running
            })
            .collect()
    }

    fn values(n: usize) -> Vec<f64> {
        (0..n)
            .map(|i| ((i * 7919) % 1000) as f64 * 0.37 - 150.1)
            .collect()
    }

    #[test]
    fn a_long_row_is_scanned_in_blocks_as_one_loop() {
        let data = values(3 * (1 << 20) + 5);
        let scanned = scan_rows(&data, data.len(), |r, x| r + x).unwrap();
        assert_eq!(scanned, sequential(&data));
    }

    #[test]
    fn rows_scanned_side_by_side_are_each_one_loop() {
        let (rows, len) = (700, 3001);
        let data = values(rows * len);
        let scanned = scan_rows(&data, len, |r, x| r + x).unwrap();
        let expected: Vec<f64> = data.chunks(len).flat_map(sequential).collect();
        assert_eq!(scanned, expected);
    }
}
