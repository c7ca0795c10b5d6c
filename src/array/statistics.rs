//! Order statistics, NaN-ignoring reductions, histograms, differences and moments: built of
//! sorting, reductions, gathers and elementwise plans, so each runs on the array's device.

use super::index::take_along_axis;
use super::join::{concatenate, part};
use super::ops::{binary, choose, unary, with_scalar};
use super::reduce::{self, normalize_axis, reduce_axes, Statistic};
use super::shape::{expand_dims, moveaxis, ravel, reshape};
use super::{linalg, sort, Array};
use crate::base::layout::AxisIndex;
use crate::base::{DType, Scalar};
use crate::error::{value_error, Result};
use crate::plan::reduce::Reduction;
use crate::plan::table::Op;

pub(super) fn full_like(a: &Array, value: Scalar, dtype: DType) -> Result<Array> {
    Array::full(a.shape(), value, dtype, a.device())
}

/// The float dtype order statistics of `dtype` are computed in (NumPy's: f64 for integers).
pub(super) fn float_of(dtype: DType) -> DType {
    if dtype.is_inexact() {
        dtype
    } else {
        DType::F64
    }
}

/// `a` as floats along `axis` (flattened when `None`) with that axis last.
fn rows_last(a: &Array, axis: Option<i64>) -> Result<Array> {
    let a = a.astype(float_of(a.dtype()))?;
    match axis {
        None => ravel(&a),
        Some(axis) => {
            let d = normalize_axis(axis, a.ndim())?;
            moveaxis(&a, &[d as i64], &[a.ndim() as i64 - 1])
        }
    }
}

/// `a` along `axis` (flattened when `None`) with that axis last, and sorted.
fn sorted_last(a: &Array, axis: Option<i64>) -> Result<Array> {
    sort::sort(&rows_last(a, axis)?, Some(-1), false, false)
}

/// Element `k` of the last axis of every row (a view).
pub(super) fn at_last(a: &Array, k: usize) -> Result<Array> {
    let mut subs = vec![
        AxisIndex::Range {
            start: None,
            stop: None,
            step: None
        };
        a.ndim() - 1
    ];
    subs.push(AxisIndex::At(k as i64));
    Ok(a.with_layout(a.layout().index(&subs)?))
}

/// NaN for each row (last axis) of `rows`, none of which has elements: NumPy's median of nothing
/// (with a warning there), of the dtype a median of them would have.
fn nan_of_rows(rows: &Array) -> Result<Array> {
    let dtype = with_scalar(Op::Divide, rows, Scalar::Float(2.0))?.dtype();
    let shape = &rows.shape()[..rows.ndim().saturating_sub(1)];
    Array::full(shape, Scalar::Float(f64::NAN), dtype, rows.device())
}

/// NumPy's `_lerp`: a + (b - a) t, computed from b's side when t >= 1/2.
fn lerp(a: &Array, b: &Array, t: f64) -> Result<Array> {
    let diff = binary(Op::Subtract, b, a)?;
    if t >= 0.5 {
        binary(
            Op::Subtract,
            b,
            &with_scalar(Op::Multiply, &diff, Scalar::Float(1.0 - t))?,
        )
    } else {
        binary(
            Op::Add,
            a,
            &with_scalar(Op::Multiply, &diff, Scalar::Float(t))?,
        )
    }
}

/// Quantiles `q` (each in [0, 1]) with the linear method, over `axis` (all elements when
/// `None`): one array per q, each of the reduced shape. A row holding NaN gives NaN.
pub fn quantiles(a: &Array, q: &[f64], axis: Option<i64>, median: bool) -> Result<Vec<Array>> {
    if let Some(bad) = q.iter().find(|q| !(0.0..=1.0).contains(*q)) {
        return Err(value_error(format!(
            "quantiles must be in the range [0, 1], not {bad}"
        )));
    }
    let rows = rows_last(a, axis)?;
    let n = *rows.shape().last().unwrap_or(&1);
    if n == 0 && median {
        return Ok(vec![nan_of_rows(&rows)?]);
    }
    if n == 0 {
        return Err(value_error("cannot take a quantile of an empty array"));
    }
    // The two ranks each q interpolates between.
    let ranks: Vec<(usize, usize, f64)> = q
        .iter()
        .map(|&q| {
            let position = q * (n - 1) as f64;
            let low = position.floor() as usize;
            let high = if median { n / 2 } else { (low + 1).min(n - 1) };
            (low, high, position - low as f64)
        })
        .collect();
    // The elements of those ranks: selected on the cpu, read from a sorted copy on the gpu.
    let wanted: Vec<usize> = ranks.iter().flat_map(|&(l, h, _)| [l, h]).collect();
    let picked: Vec<Array> = match rows.device() {
        crate::device::Device::Cpu => sort::select_rows(&rows.contiguous()?, &wanted)?,
        crate::device::Device::Gpu => {
            let sorted = sort::sort(&rows, Some(-1), false, false)?;
            wanted
                .iter()
                .map(|&k| at_last(&sorted, k))
                .collect::<Result<_>>()?
        }
    };
    let any_nan = |x: &Array| {
        reduce_axes(
            Statistic::Reduce(Reduction::Any),
            &unary(Op::Isnan, x)?,
            Some(&[-1]),
            false,
            0.0,
        )
    };
    let has_nan = any_nan(&rows)?;
    ranks
        .iter()
        .enumerate()
        .map(|(i, &(low, high, t))| {
            let (a, b) = (&picked[2 * i], &picked[2 * i + 1]);
            let value = if median && low != high {
                with_scalar(Op::Divide, &binary(Op::Add, a, b)?, Scalar::Float(2.0))?
            } else {
                lerp(a, b, t)?
            };
            let nan = full_like(&value, Scalar::Float(f64::NAN), value.dtype())?;
            choose(&has_nan, &nan, &value)
        })
        .collect()
}

/// `a` with NaN replaced by `value` (integers have none: `a` itself).
fn nan_replaced(a: &Array, value: f64) -> Result<Array> {
    if !a.dtype().is_inexact() {
        return Ok(a.clone());
    }
    let filler = full_like(a, Scalar::Float(value), a.dtype())?;
    choose(&unary(Op::Isnan, a)?, &filler, a)
}

fn count_of(mask: &Array, axes: Option<&[i64]>, keepdims: bool) -> Result<Array> {
    reduce_axes(Statistic::Reduce(Reduction::Sum), mask, axes, keepdims, 0.0)
}

/// The NaN-ignoring statistics (`nansum` ... `nanargmax`), over `axes` (all when `None`).
pub fn nan_statistic(
    name: &str,
    a: &Array,
    axes: Option<&[i64]>,
    keepdims: bool,
    ddof: f64,
) -> Result<Array> {
    let inexact = a.dtype().is_inexact();
    let sum = |x: &Array, keep| reduce_axes(Statistic::Reduce(Reduction::Sum), x, axes, keep, 0.0);
    match name {
        "nansum" => sum(&nan_replaced(a, 0.0)?, keepdims),
        "nanprod" => reduce_axes(
            Statistic::Reduce(Reduction::Prod),
            &nan_replaced(a, 1.0)?,
            axes,
            keepdims,
            0.0,
        ),
        "nanmean" | "nanvar" | "nanstd" => {
            let valid = unary(Op::LogicalNot, &unary(Op::Isnan, a)?)?;
            let total = sum(&nan_replaced(a, 0.0)?, true)?;
            let count = count_of(&valid, axes, true)?;
            let mean = binary(Op::Divide, &total, &count)?;
            let mean = if inexact {
                mean.astype(a.dtype())?
            } else {
                mean
            };
            let result = if name == "nanmean" {
                mean
            } else {
                let deviation = binary(Op::Subtract, a, &mean)?;
                let squares = if a.dtype().is_complex() {
                    super::ops::real(&binary(
                        Op::Multiply,
                        &deviation,
                        &unary(Op::Conjugate, &deviation)?,
                    )?)?
                } else {
                    binary(Op::Multiply, &deviation, &deviation)?
                };
                let squares = nan_replaced(&squares, 0.0)?;
                let spread = binary(
                    Op::Divide,
                    &sum(&squares, true)?,
                    &with_scalar(
                        Op::Maximum,
                        &with_scalar(Op::Subtract, &count, Scalar::Float(ddof))?,
                        Scalar::Float(0.0),
                    )?,
                )?;
                let spread = spread.astype(float_of(squares.dtype()))?;
                if name == "nanstd" {
                    unary(Op::Sqrt, &spread)?
                } else {
                    spread
                }
            };
            squeeze_unless(result, a, axes, keepdims)
        }
        "nanmax" | "nanmin" | "nanargmax" | "nanargmin" => {
            let max = name.contains("max");
            let r = match (max, name.contains("arg")) {
                (true, false) => Reduction::Max,
                (false, false) => Reduction::Min,
                (true, true) => Reduction::ArgMax,
                (false, true) => Reduction::ArgMin,
            };
            let filled = nan_replaced(
                a,
                if max {
                    f64::NEG_INFINITY
                } else {
                    f64::INFINITY
                },
            )?;
            let result = reduce_axes(Statistic::Reduce(r), &filled, axes, keepdims, 0.0)?;
            if !inexact {
                return Ok(result);
            }
            let all_nan = reduce_axes(
                Statistic::Reduce(Reduction::All),
                &unary(Op::Isnan, a)?,
                axes,
                keepdims,
                0.0,
            )?;
            if name.contains("arg") {
                if reduce::reduce_all(Reduction::Any, &all_nan)?.is_zero() {
                    return Ok(result);
                }
                return Err(value_error("All-NaN slice encountered"));
            }
            let nan = full_like(&result, Scalar::Float(f64::NAN), result.dtype())?;
            choose(&all_nan, &nan, &result)
        }
        _ => unreachable!("the nan statistics are named above"),
    }
}

/// A result computed with kept axes, without them unless `keepdims`.
fn squeeze_unless(result: Array, a: &Array, axes: Option<&[i64]>, keepdims: bool) -> Result<Array> {
    if keepdims {
        return Ok(result);
    }
    let kept: Vec<usize> = match axes {
        None => vec![],
        Some(axes) => {
            let axes = super::shape::normalize_axes(axes, a.ndim())?;
            (0..a.ndim())
                .filter(|d| !axes.contains(d))
                .map(|d| a.shape()[d])
                .collect()
        }
    };
    reshape(&result, &kept.iter().map(|&n| n as i64).collect::<Vec<_>>())
}

/// The median ignoring NaN: each row's own count of numbers picks its middle elements.
pub fn nanmedian(a: &Array, axis: Option<i64>) -> Result<Array> {
    let sorted = sorted_last(a, axis)?;
    if sorted.shape().last() == Some(&0) {
        return nan_of_rows(&sorted);
    }
    let valid = unary(Op::LogicalNot, &unary(Op::Isnan, &sorted)?)?;
    let count = count_of(&valid, Some(&[-1]), true)?;
    let last = Scalar::Int(sorted.shape().last().copied().unwrap_or(1).max(1) as i64 - 1);
    let low = with_scalar(
        Op::FloorDivide,
        &with_scalar(Op::Subtract, &count, Scalar::Int(1))?,
        Scalar::Int(2),
    )?;
    let low = with_scalar(Op::Maximum, &low, Scalar::Int(0))?;
    let high = with_scalar(
        Op::Minimum,
        &with_scalar(Op::FloorDivide, &count, Scalar::Int(2))?,
        last,
    )?;
    let pick = |at: &Array| take_along_axis(&sorted, at, -1);
    let middle = with_scalar(
        Op::Divide,
        &binary(Op::Add, &pick(&low)?, &pick(&high)?)?,
        Scalar::Float(2.0),
    )?;
    let empty = with_scalar(Op::Equal, &count, Scalar::Int(0))?;
    let nan = full_like(&middle, Scalar::Float(f64::NAN), middle.dtype())?;
    let result = choose(&empty, &nan, &middle)?;
    let shape: Vec<i64> = result.shape()[..result.ndim() - 1]
        .iter()
        .map(|&n| n as i64)
        .collect();
    reshape(&result, &shape)
}

/// The weighted mean over `axis` (weights of `a`'s shape, or 1-d along the axis).
pub fn average(a: &Array, weights: &Array, axis: Option<i64>) -> Result<Array> {
    let weights = match axis {
        Some(axis) if weights.ndim() == 1 && a.ndim() > 1 => {
            let d = normalize_axis(axis, a.ndim())?;
            let mut shape = vec![1i64; a.ndim()];
            shape[d] = -1;
            reshape(weights, &shape)?
        }
        _ => weights.clone(),
    };
    let axes = axis.map(|d| vec![d]);
    let sum = |x: &Array| {
        reduce_axes(
            Statistic::Reduce(Reduction::Sum),
            x,
            axes.as_deref(),
            false,
            0.0,
        )
    };
    let total = sum(&super::shape::broadcast_to(&weights, a.shape())?)?;
    let zero_total = reduce::reduce_all(
        Reduction::Any,
        &super::ops::with_scalar(Op::Equal, &total, Scalar::Float(0.0))?,
    )?;
    if zero_total.as_f64() != 0.0 {
        return Err(value_error(
            "ZeroDivisionError: Weights sum to zero, can't be normalized",
        ));
    }
    binary(
        Op::Divide,
        &sum(&binary(Op::Multiply, a, &weights)?)?,
        &total,
    )
}

/// The `n`-th differences along `axis`, with `prepend`/`append` joined first.
pub fn diff(
    a: &Array,
    n: usize,
    axis: i64,
    prepend: Option<&Array>,
    append: Option<&Array>,
) -> Result<Array> {
    let d = normalize_axis(axis, a.ndim())?;
    let mut parts: Vec<Array> = Vec::new();
    let widen = |x: &Array| -> Result<Array> {
        let mut shape = a.shape().to_vec();
        shape[d] = if x.ndim() == 0 {
            1
        } else {
            x.shape()[d.min(x.ndim() - 1)]
        };
        if x.ndim() == 0 {
            super::shape::broadcast_to(x, &shape)
        } else {
            Ok(x.clone())
        }
    };
    if let Some(p) = prepend {
        parts.push(widen(p)?);
    }
    parts.push(a.clone());
    if let Some(p) = append {
        parts.push(widen(p)?);
    }
    let mut x = if parts.len() > 1 {
        concatenate(&parts, Some(d as i64))?
    } else {
        a.clone()
    };
    for _ in 0..n {
        let len = x.shape()[d];
        if len == 0 {
            // Differences of an empty axis are that axis again (NumPy goes on for all `n`).
            break;
        }
        let shorter = len - 1;
        let (later, earlier) = (part(&x, d, 1, shorter), part(&x, d, 0, shorter));
        let op = if x.dtype() == DType::Bool {
            Op::NotEqual
        } else {
            Op::Subtract
        };
        x = binary(op, &later, &earlier)?;
    }
    Ok(x)
}

/// The gradient along `axis` by central differences inside and one-sided ones at the edges,
/// with sample spacing `h`.
pub fn gradient(a: &Array, axis: usize, h: f64) -> Result<Array> {
    let n = a.shape()[axis];
    if n < 2 {
        return Err(value_error(
            "Shape of array too small to calculate a numerical gradient, at least (edge_order + 1) elements are required.",
        ));
    }
    let a = a.astype(float_of(a.dtype()))?;
    let cut = |start: usize, len: usize| part(&a, axis, start, len);
    let scale = |x: Array, by: f64| with_scalar(Op::Divide, &x, Scalar::Float(by));
    let first = scale(binary(Op::Subtract, &cut(1, 1), &cut(0, 1))?, h)?;
    let last = scale(binary(Op::Subtract, &cut(n - 1, 1), &cut(n - 2, 1))?, h)?;
    let inner = scale(
        binary(Op::Subtract, &cut(2, n - 2), &cut(0, n - 2))?,
        2.0 * h,
    )?;
    concatenate(&[first, inner, last], Some(axis as i64))
}

/// The covariance matrix of the rows (variables) of `x`, `ddof` degrees of freedom removed.
pub fn cov(x: &Array, ddof: f64) -> Result<Array> {
    let x = x.astype(float_of(x.dtype()).promote(DType::F64))?;
    let observations = x.shape()[1] as f64;
    let mean = reduce_axes(Statistic::Mean, &x, Some(&[1]), true, 0.0)?;
    let centred = binary(Op::Subtract, &x, &mean)?.contiguous()?;
    let conj = unary(Op::Conjugate, &centred)?;
    let product = linalg::matmul(&centred, &super::shape::transpose(&conj))?;
    let c = with_scalar(
        Op::Divide,
        &product,
        Scalar::Float((observations - ddof).max(0.0)),
    )?;
    if x.shape()[0] == 1 {
        return reshape(&c, &[]);
    }
    Ok(c)
}

/// Pearson's correlation coefficients of the rows of `x`.
pub fn corrcoef(x: &Array) -> Result<Array> {
    let c = cov(x, 1.0)?;
    if c.ndim() == 0 {
        return binary(Op::Divide, &c, &c);
    }
    let d = super::shape::diagonal(&c, 0, 0, 1)?;
    let s = unary(Op::Sqrt, &d)?;
    let scaled = binary(Op::Divide, &c, &expand_dims(&s, &[1])?)?;
    let scaled = binary(Op::Divide, &scaled, &expand_dims(&s, &[0])?)?;
    if scaled.dtype().is_complex() {
        return Ok(scaled);
    }
    super::ops::apply(
        crate::plan::table::row(Op::Clip),
        &[
            super::ops::Operand::Array(&scaled),
            super::ops::Operand::Scalar(Scalar::Float(-1.0)),
            super::ops::Operand::Scalar(Scalar::Float(1.0)),
        ],
    )
}

/// The integral of `y` along `axis` by the trapezoidal rule, samples at `x` or `dx` apart.
pub fn trapezoid(y: &Array, x: Option<&Array>, dx: f64, axis: i64) -> Result<Array> {
    let d = normalize_axis(axis, y.ndim())?;
    let n = y.shape()[d];
    let shorter = n.saturating_sub(1);
    let pairs = binary(
        Op::Add,
        &part(y, d, 1.min(n), shorter),
        &part(y, d, 0, shorter),
    )?;
    let weighted = match x {
        Some(x) => {
            let steps = diff(x, 1, -1, None, None)?;
            let steps = if x.ndim() == 1 && y.ndim() > 1 {
                let mut shape = vec![1i64; y.ndim()];
                shape[d] = -1;
                reshape(&steps, &shape)?
            } else {
                steps
            };
            binary(Op::Multiply, &steps, &pairs)?
        }
        None => with_scalar(Op::Multiply, &pairs, Scalar::Float(dx))?,
    };
    let halves = with_scalar(Op::Divide, &weighted, Scalar::Float(2.0))?;
    reduce_axes(
        Statistic::Reduce(Reduction::Sum),
        &halves,
        Some(&[d as i64]),
        false,
        0.0,
    )
}

/// The discrete linear convolution of two 1-d arrays (`mode` full, same or valid): a sum of
/// shifted copies of the longer one, fused into one pass per 16 terms.
pub fn convolve(a: &Array, v: &Array, mode: &str) -> Result<Array> {
    if a.ndim() > 1 || v.ndim() > 1 {
        return Err(value_error(
            "convolve takes 1-d arrays: object too deep for desired array",
        ));
    }
    let (a, v) = (ravel(a)?, ravel(v)?);
    if a.size() == 0 || v.size() == 0 {
        return Err(value_error("v cannot be empty"));
    }
    let (long, short) = if v.size() > a.size() {
        (v.clone(), a.clone())
    } else {
        (a.clone(), v.clone())
    };
    let (n, m) = (long.size(), short.size());
    let dtype = long.dtype().promote(short.dtype());
    let full = n + m - 1;
    let padded = super::join::pad(
        &long.astype(dtype)?,
        &[(m - 1, m - 1)],
        super::join::PadMode::Constant(Scalar::Int(0)),
    )?;
    let mut total = Array::full(&[full], Scalar::Int(0), dtype, long.device())?;
    let short = short.astype(dtype)?;
    for k in 0..m {
        // out[i] += short[k] * long[i - k], i.e. padded[i - k + m - 1].
        let start = m - 1 - k;
        let window = padded.with_layout(padded.layout().index(&[AxisIndex::Range {
            start: Some(start as i64),
            stop: Some((start + full) as i64),
            step: None,
        }])?);
        let weight = short.with_layout(short.layout().index(&[AxisIndex::Range {
            start: Some(k as i64),
            stop: Some(k as i64 + 1),
            step: None,
        }])?);
        total = binary(Op::Add, &total, &binary(Op::Multiply, &window, &weight)?)?;
        if k % 16 == 15 {
            // Run what is deferred, so no kernel grows past 16 terms.
            total = Array::from_buffer(total.buffer()?, &[full]);
        }
    }
    let (start, len) = match mode {
        "full" => (0, full),
        "same" => ((full - n.max(m)) / 2, n.max(m)),
        "valid" => (m - 1, n - m + 1),
        other => {
            return Err(value_error(format!(
                "mode must be \"full\", \"same\" or \"valid\", not \"{other}\""
            )))
        }
    };
    Ok(total.with_layout(total.layout().index(&[AxisIndex::Range {
        start: Some(start as i64),
        stop: Some((start + len) as i64),
        step: None,
    }])?))
}
