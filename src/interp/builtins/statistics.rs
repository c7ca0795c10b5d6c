//! Statistics (NumPy's `_statistics`, CuPy's `_statistics`): reductions over all elements, an
//! axis or several (`axis=` an int or a list, `keepdims=`, `dtype=`, `ddof=`/`correction=`),
//! running sums and products. A full reduction without `keepdims` is a host scalar (from the
//! gpu, one counted device→host copy); otherwise an array on the same device.

use super::manipulation::ints_arg;
use super::{
    array_arg, axis_arg, builtin, count_arg, flag_arg, float_arg, optional_dtype, reduced, Args,
    Builtin,
};
use crate::array::reduce::{self, Statistic};
use crate::array::{histogram, statistics, Array};
use crate::error::{type_error, value_error, Result};
use crate::interp::value::Value;
use crate::interp::Interpreter;
use crate::plan::reduce::Reduction;

/// `sum`-like: x, axis, dtype, keepdims.
macro_rules! reduction {
    ($name:literal, $statistic:expr, $doc:literal, $example:literal) => {
        builtin!(
            $name,
            ["x", "axis=", "dtype=", "keepdims="],
            $doc,
            $example,
            |i, a| {
                statistic(
                    i,
                    &a,
                    $statistic,
                    Keywords {
                        dtype: Some(2),
                        keepdims: 3,
                        ddof: None,
                    },
                )
            }
        )
    };
}

/// `min`-like: x, axis, keepdims.
macro_rules! extreme {
    ($name:literal, $statistic:expr, $doc:literal, $example:literal) => {
        builtin!(
            $name,
            ["x", "axis=", "keepdims="],
            $doc,
            $example,
            |i, a| {
                statistic(
                    i,
                    &a,
                    $statistic,
                    Keywords {
                        dtype: None,
                        keepdims: 2,
                        ddof: None,
                    },
                )
            }
        )
    };
}

/// `var`-like: x, axis, dtype, ddof, keepdims, correction.
macro_rules! spread {
    ($name:literal, $statistic:expr, $doc:literal, $example:literal) => {
        builtin!(
            $name,
            ["x", "axis=", "dtype=", "ddof=", "keepdims=", "correction="],
            $doc,
            $example,
            |i, a| statistic(
                i,
                &a,
                $statistic,
                Keywords {
                    dtype: Some(2),
                    keepdims: 4,
                    ddof: Some(3)
                }
            )
        )
    };
}

macro_rules! nan_reduction {
    ($name:literal, $doc:literal) => {
        builtin!(
            $name,
            ["x", "axis=", "keepdims="],
            $doc,
            concat!($name, "([1.0, nan, 3.0])"),
            |i, a| { nan_statistic(i, &a, None, 2) }
        )
    };
}

pub fn builtins() -> Vec<Builtin> {
    use Reduction::*;
    vec![
        reduction!(
            "sum",
            Statistic::Reduce(Sum),
            "Sum of the elements (a host scalar), or over axes (an array).",
            "sum(ones([2, 3]), axis=0)"
        ),
        reduction!(
            "prod",
            Statistic::Reduce(Prod),
            "Product of the elements, or over axes.",
            "prod([1, 2, 3, 4])"
        ),
        reduction!(
            "mean",
            Statistic::Mean,
            "Arithmetic mean, or over axes (integers average as float64).",
            "mean([[1, 2], [3, 4]], axis=[0, 1])"
        ),
        spread!(
            "std",
            Statistic::Std,
            "Standard deviation (ddof=, the standard's correction=, 0 unless given), or over axes.",
            "std([1, 2, 3, 4])"
        ),
        spread!(
            "var",
            Statistic::Var,
            "Variance (ddof=, the standard's correction=, 0 unless given), or over axes.",
            "var([1, 2, 3, 4], ddof=1)"
        ),
        extreme!(
            "min",
            Statistic::Reduce(Min),
            "Smallest element, or over axes (NaN wins). Also named amin.",
            "min([3, 1, 2])"
        ),
        extreme!(
            "max",
            Statistic::Reduce(Max),
            "Largest element, or over axes (NaN wins). Also named amax.",
            "max([[1, 5], [7, 2]], axis=1)"
        ),
        extreme!(
            "amin",
            Statistic::Reduce(Min),
            "NumPy's other name for min.",
            "amin([3, 1, 2])"
        ),
        extreme!(
            "amax",
            Statistic::Reduce(Max),
            "NumPy's other name for max.",
            "amax([3, 1, 2])"
        ),
        builtin!(
            "cumsum",
            ["x", "axis=", "dtype="],
            "Running sums; without an axis, over the flattened array.",
            "cumsum([1, 2, 3])",
            |i, a| running(i, &a, false, false)
        ),
        builtin!(
            "cumprod",
            ["x", "axis=", "dtype="],
            "Running products; without an axis, over the flattened array.",
            "cumprod([1, 2, 3])",
            |i, a| running(i, &a, true, false)
        ),
        builtin!(
            "cumulative_sum",
            ["x", "axis=", "dtype=", "include_initial="],
            "The standard's running sum: include_initial=true starts with a 0.",
            "cumulative_sum([1, 2, 3], include_initial=true)",
            |i, a| running(i, &a, false, true)
        ),
    ]
}

/// Where a reduction's optional keywords are among its parameters.
struct Keywords {
    dtype: Option<usize>,
    keepdims: usize,
    ddof: Option<usize>,
}

/// `axis=` as none, one axis or several.
fn axes_arg(args: &Args, i: usize) -> Result<Option<Vec<i64>>> {
    args.get(i).map(|v| ints_arg(v, "axis")).transpose()
}

fn statistic(interp: &mut Interpreter, args: &Args, s: Statistic, k: Keywords) -> Result<Value> {
    let mut x = array_arg(interp, args.required(0))?;
    let dtype = k
        .dtype
        .map(|i| optional_dtype(args, i))
        .transpose()?
        .flatten();
    if let Some(d) = dtype.filter(|d| d.is_inexact()) {
        x = x.astype(d)?;
    }
    let ddof = match k.ddof.map(|i| (args.get(i), args.get(i + 2))) {
        Some((Some(_), Some(_))) => {
            return Err(type_error("ddof and correction mean the same: give one"))
        }
        Some((Some(v), None)) => float_arg(v, "ddof")?,
        Some((None, Some(v))) => float_arg(v, "correction")?,
        _ => 0.0,
    };
    let keepdims = flag_arg(args, k.keepdims, false)?;
    let axes = axes_arg(args, 1)?;
    let result = match (&axes, keepdims) {
        (None, false) => {
            let scalar = reduce::reduce_all_array(s, &x, ddof)?;
            let scalar = match dtype {
                Some(d) if d != scalar.dtype() => scalar.astype(d)?,
                _ => scalar,
            };
            return Ok(Value::from_scalar(scalar.item()?));
        }
        _ => reduce::reduce_axes(s, &x, axes.as_deref(), keepdims, ddof)?,
    };
    match dtype {
        Some(d) if d != result.dtype() => result.astype(d).map(Value::array),
        _ => Ok(Value::array(result)),
    }
}

fn running(interp: &mut Interpreter, args: &Args, product: bool, initial: bool) -> Result<Value> {
    let mut x = array_arg(interp, args.required(0))?;
    let dtype = optional_dtype(args, 2)?;
    if let Some(d) = dtype {
        x = x.astype(d)?;
    }
    let axis = axis_arg(args, 1)?;
    if initial && axis.is_none() && x.ndim() > 1 {
        return Err(type_error(
            "cumulative_sum needs axis= for an array of more than one dimension",
        ));
    }
    let mut result = reduce::scan(&x, axis, product)?;
    if let Some(d) = dtype.filter(|&d| d != result.dtype()) {
        result = result.astype(d)?;
    }
    if initial && flag_arg(args, 3, false)? {
        let d = match axis {
            Some(a) => crate::array::reduce::normalize_axis(a, result.ndim())?,
            None => 0,
        };
        let mut shape = result.shape().to_vec();
        shape[d] = 1;
        let zero = Array::full(
            &shape,
            crate::base::Scalar::Int(0),
            result.dtype(),
            result.device(),
        )?;
        result = crate::array::join::concatenate(&[zero, result], Some(d as i64))?;
    }
    Ok(Value::array(result))
}

/// The order statistics, NaN-ignoring reductions, histograms and differences.
pub fn more_builtins() -> Vec<Builtin> {
    vec![
        builtin!(
            "median",
            ["x", "axis=", "keepdims="],
            "The middle value (the mean of the two middle ones for an even count), or along an axis; NaN if a NaN is present.",
            "median([3, 1, 4, 2])",
            |i, a| order_statistic(i, &a, Quantile::Median)
        ),
        builtin!(
            "quantile",
            ["x", "q", "axis=", "method=", "keepdims="],
            "The q-th quantile(s), q in [0, 1], by linear interpolation between the sorted elements.",
            "quantile([1, 2, 3, 4], 0.25)",
            |i, a| order_statistic(i, &a, Quantile::Fraction)
        ),
        builtin!(
            "percentile",
            ["x", "q", "axis=", "method=", "keepdims="],
            "The q-th percentile(s), q in [0, 100] (quantile of q / 100).",
            "percentile([1, 2, 3, 4], [25, 50])",
            |i, a| order_statistic(i, &a, Quantile::Percent)
        ),
        builtin!(
            "nanmedian",
            ["x", "axis="],
            "The median of the elements that are not NaN.",
            "nanmedian([1.0, nan, 3.0])",
            |i, a| {
                let x = array_arg(i, a.required(0))?;
                let result = statistics::nanmedian(&x, axis_arg(&a, 1)?)?;
                reduced(result, a.get(1).is_none())
            }
        ),
        nan_reduction!("nansum", "Sum treating NaN as zero."),
        nan_reduction!("nanprod", "Product treating NaN as one."),
        nan_reduction!("nanmean", "Mean of the elements that are not NaN."),
        nan_reduction!("nanmax", "Largest element ignoring NaN (NaN for an all-NaN slice)."),
        nan_reduction!("nanmin", "Smallest element ignoring NaN (NaN for an all-NaN slice)."),
        nan_reduction!("nanargmax", "Position of the largest element ignoring NaN."),
        nan_reduction!("nanargmin", "Position of the smallest element ignoring NaN."),
        builtin!(
            "nanvar",
            ["x", "axis=", "ddof=", "keepdims="],
            "Variance of the elements that are not NaN.",
            "nanvar([1.0, nan, 3.0])",
            |i, a| nan_statistic(i, &a, Some(2), 3)
        ),
        builtin!(
            "nanstd",
            ["x", "axis=", "ddof=", "keepdims="],
            "Standard deviation of the elements that are not NaN.",
            "nanstd([1.0, nan, 3.0])",
            |i, a| nan_statistic(i, &a, Some(2), 3)
        ),
        builtin!(
            "average",
            ["x", "axis=", "weights="],
            "The mean, or the weighted mean sum(x * w) / sum(w), over all elements or an axis.",
            "average([1, 2, 3], weights=[3, 1, 0])",
            |i, a| {
                let x = array_arg(i, a.required(0))?;
                let axis = axis_arg(&a, 1)?;
                let result = match a.get(2) {
                    None => reduce::reduce_axes(Statistic::Mean, &x, axis.map(|d| vec![d]).as_deref(), false, 0.0)?,
                    Some(w) => statistics::average(&x, &array_arg(i, w)?, axis)?,
                };
                reduced(result, axis.is_none())
            }
        ),
        builtin!(
            "ptp",
            ["x", "axis=", "keepdims="],
            "The range max - min, over all elements or axes.",
            "ptp([[4, 9], [2, 1]], axis=1)",
            |i, a| {
                let x = array_arg(i, a.required(0))?;
                let axes = axes_arg(&a, 1)?;
                let keepdims = flag_arg(&a, 2, false)?;
                let extreme = |r| reduce::reduce_axes(Statistic::Reduce(r), &x, axes.as_deref(), keepdims, 0.0);
                let range = crate::array::ops::binary(crate::plan::table::Op::Subtract, &extreme(Reduction::Max)?, &extreme(Reduction::Min)?)?;
                reduced(range, axes.is_none() && !keepdims)
            }
        ),
        builtin!(
            "bincount",
            ["x", "weights=", "minlength="],
            "How often each non-negative integer occurs in x (or the sum of its weights).",
            "bincount([0, 1, 1, 3])",
            |i, a| {
                let x = array_arg(i, a.required(0))?;
                let weights = a.get(1).map(|w| array_arg(i, w)).transpose()?;
                let minlength = a.get(2).map(|v| count_arg(v, "minlength")).transpose()?.unwrap_or(0);
                let minlength = usize::try_from(minlength).map_err(|_| value_error("'minlength' must not be negative"))?;
                histogram::bincount(&x, weights.as_ref(), minlength).map(Value::array)
            }
        ),
        builtin!(
            "histogram",
            ["x", "bins=", "range=", "density=", "weights="],
            "Counts of x in bins (10 equal ones over the data's range by default, a count, or edges): a tuple (counts, edges).",
            "histogram([1, 2, 2, 3], bins=3)",
            |i, a| {
                let x = array_arg(i, a.required(0))?;
                let bins = bins_arg(i, &a)?;
                let weights = a.get(4).map(|w| array_arg(i, w)).transpose()?;
                let (counts, edges) = histogram::histogram(&x, &bins, weights.as_ref(), flag_arg(&a, 3, false)?)?;
                Ok(super::manipulation::tuple_of(vec![counts, edges]))
            }
        ),
        builtin!(
            "histogram_bin_edges",
            ["x", "bins=", "range="],
            "The bin edges histogram would use.",
            "histogram_bin_edges([1, 2, 3], bins=2)",
            |i, a| {
                let x = array_arg(i, a.required(0))?;
                let bins = bins_arg(i, &a)?;
                let dtype = if x.dtype().is_inexact() { x.dtype() } else { crate::base::DType::F64 };
                histogram::bin_edges(&x.astype(dtype)?, &bins)?.astype(dtype).map(Value::array)
            }
        ),
        builtin!(
            "digitize",
            ["x", "bins", "right="],
            "The index of the bin of each value for monotonic bins (bins[i-1] <= x < bins[i]).",
            "digitize([0.5, 1.5, 3.0], [0, 1, 2])",
            |i, a| {
                let x = super::array_arg_on(i, a.required(0), true)?;
                let bins = array_arg(i, a.required(1))?;
                histogram::digitize(&x, &bins, flag_arg(&a, 2, false)?).map(Value::array)
            }
        ),
        builtin!(
            "diff",
            ["x", "n=", "axis=", "prepend=", "append="],
            "The n-th differences along an axis (the last by default).",
            "diff([1, 4, 9, 16])",
            |i, a| {
                let x = array_arg(i, a.required(0))?;
                let n = a.get(1).map(|v| count_arg(v, "n")).transpose()?.unwrap_or(1);
                let n = usize::try_from(n).map_err(|_| value_error(format!("order must be non-negative but got {n}")))?;
                let axis = axis_arg(&a, 2)?.unwrap_or(-1);
                let prepend = a.get(3).map(|v| super::array_arg_on(i, v, true)).transpose()?;
                let append = a.get(4).map(|v| super::array_arg_on(i, v, true)).transpose()?;
                statistics::diff(&x, n, axis, prepend.as_ref(), append.as_ref()).map(Value::array)
            }
        ),
        builtin!(
            "ediff1d",
            ["x", "to_end=", "to_begin="],
            "The differences of the flattened array, with to_begin and to_end joined around them.",
            "ediff1d([1, 2, 4], to_begin=0)",
            |i, a| {
                let x = crate::array::shape::ravel(&array_arg(i, a.required(0))?)?;
                let steps = statistics::diff(&x, 1, 0, None, None)?;
                let mut parts = Vec::new();
                if let Some(b) = a.get(2) {
                    parts.push(crate::array::shape::ravel(&super::array_arg_on(i, b, true)?)?.astype(steps.dtype())?);
                }
                parts.push(steps);
                if let Some(e) = a.get(1) {
                    parts.push(crate::array::shape::ravel(&super::array_arg_on(i, e, true)?)?.astype(parts[0].dtype())?);
                }
                crate::array::join::concatenate(&parts, Some(0)).map(Value::array)
            }
        ),
        builtin!(
            "gradient",
            ["f", "spacing=", "axis="],
            "The gradient by central differences inside and one-sided ones at the edges (a tuple, one per axis, for an n-d array).",
            "gradient([1, 4, 9, 16])",
            |i, a| {
                let f = array_arg(i, a.required(0))?;
                let h = a.get(1).map(|v| float_arg(v, "spacing")).transpose()?.unwrap_or(1.0);
                let axes: Vec<usize> = match axes_arg(&a, 2)? {
                    Some(axes) => crate::array::shape::normalize_axes(&axes, f.ndim())?,
                    None => (0..f.ndim()).collect(),
                };
                let parts: Vec<Array> = axes.iter().map(|&d| statistics::gradient(&f, d, h)).collect::<Result<_>>()?;
                match parts.len() {
                    1 => Ok(Value::array(parts.into_iter().next().expect("one"))),
                    _ => Ok(super::manipulation::tuple_of(parts)),
                }
            }
        ),
        builtin!(
            "cov",
            ["m", "y=", "rowvar=", "bias=", "ddof="],
            "The covariance matrix of the rows (variables) of m, with y's rows added; rowvar=false for columns.",
            "cov([[0, 1, 2], [2, 1, 0]])",
            |i, a| {
                let (x, ddof) = variables(i, &a)?;
                let ddof = match a.get(4) {
                    Some(v) => float_arg(v, "ddof")?,
                    None if flag_arg(&a, 3, false)? => 0.0,
                    None => ddof,
                };
                let c = statistics::cov(&x, ddof)?;
                reduced(c.clone(), c.ndim() == 0)
            }
        ),
        builtin!(
            "corrcoef",
            ["x", "y=", "rowvar="],
            "Pearson's correlation coefficients of the rows of x (with y's rows added).",
            "corrcoef([[0, 1, 2], [2, 1, 0]])",
            |i, a| {
                let (x, _) = variables(i, &a)?;
                let c = statistics::corrcoef(&x)?;
                reduced(c.clone(), c.ndim() == 0)
            }
        ),
        builtin!(
            "trapezoid",
            ["y", "x=", "dx=", "axis="],
            "The integral of y along an axis by the trapezoidal rule (samples at x, or dx apart).",
            "trapezoid([1, 2, 3])",
            |i, a| {
                let y = array_arg(i, a.required(0))?;
                let x = a.get(1).map(|v| array_arg(i, v)).transpose()?;
                let dx = a.get(2).map(|v| float_arg(v, "dx")).transpose()?.unwrap_or(1.0);
                let axis = axis_arg(&a, 3)?.unwrap_or(-1);
                let result = statistics::trapezoid(&y, x.as_ref(), dx, axis)?;
                reduced(result.clone(), result.ndim() == 0)
            }
        ),
        builtin!(
            "convolve",
            ["a", "v", "mode="],
            "The discrete linear convolution of two 1-d arrays (mode \"full\", \"same\" or \"valid\").",
            "convolve([1, 2, 3], [0, 1, 0.5])",
            |i, a| {
                let x = array_arg(i, a.required(0))?;
                let v = array_arg(i, a.required(1))?;
                let mode = match a.get(2) {
                    None => "full".to_string(),
                    Some(Value::Str(s)) => s.to_string(),
                    Some(other) => return Err(type_error(format!("mode must be a string, not {}", other.describe()))),
                };
                statistics::convolve(&x, &v, &mode).map(Value::array)
            }
        ),
    ]
}

/// What a quantile built-in's `q` means.
#[derive(Clone, Copy, PartialEq)]
enum Quantile {
    Median,
    Fraction,
    Percent,
}

fn order_statistic(interp: &mut Interpreter, args: &Args, kind: Quantile) -> Result<Value> {
    let x = array_arg(interp, args.required(0))?;
    let (q, q_is_array, axis_at) = match kind {
        Quantile::Median => (vec![0.5], false, 1),
        _ => {
            let q_value = args.required(1);
            let q = crate::interp::convert::to_array(
                interp,
                q_value,
                Some(crate::device::Device::Cpu),
            )?;
            let scale = if kind == Quantile::Percent {
                100.0
            } else {
                1.0
            };
            let fractions: Vec<f64> = q.to_vec::<f64>()?.iter().map(|v| v / scale).collect();
            if let Some(Value::Str(m)) = args.get(3) {
                if &**m != "linear" {
                    return Err(value_error(format!(
                        "method \"{m}\" is not supported (linear)"
                    )));
                }
            }
            (fractions, q.ndim() > 0, 2)
        }
    };
    let axis = axis_arg(args, axis_at)?;
    let keepdims = flag_arg(
        args,
        axis_at + if kind == Quantile::Median { 1 } else { 2 },
        false,
    )?;
    let mut parts = statistics::quantiles(&x, &q, axis, kind == Quantile::Median)?;
    if keepdims {
        let reduced = axis
            .map(|a| crate::array::reduce::normalize_axis(a, x.ndim()))
            .transpose()?;
        let kept: Vec<i64> = (0..x.ndim())
            .map(|d| match reduced {
                Some(r) if r != d => x.shape()[d] as i64,
                _ => 1,
            })
            .collect();
        parts = parts
            .iter()
            .map(|p| crate::array::shape::reshape(p, &kept))
            .collect::<Result<_>>()?;
    }
    if q_is_array {
        return crate::array::join::stack(&parts, 0).map(Value::array);
    }
    let one = parts.into_iter().next().expect("one quantile");
    reduced(one, axis.is_none() && !keepdims)
}

fn nan_statistic(
    interp: &mut Interpreter,
    args: &Args,
    ddof_at: Option<usize>,
    keep_at: usize,
) -> Result<Value> {
    let x = array_arg(interp, args.required(0))?;
    let axes = axes_arg(args, 1)?;
    let keepdims = flag_arg(args, keep_at, false)?;
    let ddof = ddof_at
        .and_then(|i| args.get(i))
        .map(|v| float_arg(v, "ddof"))
        .transpose()?
        .unwrap_or(0.0);
    let result = statistics::nan_statistic(args.name, &x, axes.as_deref(), keepdims, ddof)?;
    reduced(result, axes.is_none() && !keepdims)
}

pub(super) fn bins_arg(interp: &mut Interpreter, args: &Args) -> Result<histogram::Bins> {
    let range = match args.get(2) {
        None => None,
        Some(r) => {
            let r = crate::interp::convert::to_array(interp, r, Some(crate::device::Device::Cpu))?
                .to_vec::<f64>()?;
            match r.as_slice() {
                [low, high] => Some((*low, *high)),
                _ => return Err(value_error("range must be [low, high]")),
            }
        }
    };
    Ok(match args.get(1) {
        None => histogram::Bins::Count(10, range),
        Some(v @ (Value::List(_) | Value::Tuple(_) | Value::Array(_))) => {
            let edges = array_arg(interp, v)?;
            if edges.ndim() != 1 || edges.size() < 2 {
                return Err(value_error(
                    "`bins` must be 1d, when an array, with at least two edges",
                ));
            }
            histogram::Bins::Edges(edges)
        }
        Some(n) => {
            let n = usize::try_from(count_arg(n, "bins")?)
                .map_err(|_| value_error("`bins` must be positive, when an integer"))?;
            histogram::Bins::Count(n, range)
        }
    })
}

/// cov/corrcoef's variables as the rows of one 2-d array (y's rows after x's), and NumPy's
/// default ddof (1).
fn variables(interp: &mut Interpreter, args: &Args) -> Result<(Array, f64)> {
    let rowvar = flag_arg(args, 2, true)?;
    let shaped = |a: Array| -> Result<Array> {
        let a = crate::array::shape::at_least(&a, 2)?;
        if a.ndim() > 2 {
            return Err(value_error("m has more than 2 dimensions"));
        }
        Ok(if rowvar {
            a
        } else {
            crate::array::shape::transpose(&a)
        })
    };
    let mut x = shaped(array_arg(interp, args.required(0))?)?;
    if let Some(y) = args.get(1) {
        let y = shaped(array_arg(interp, y)?)?;
        x = crate::array::join::concatenate(&[x, y], Some(0))?;
    }
    Ok((x, 1.0))
}
