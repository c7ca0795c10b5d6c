//! Reductions (`sum`, `mean`, `argmax` …) over all elements or along one axis, and `cumsum`.

use ndarray::{ArrayViewD, Axis};

use super::dtype::DType;
use super::{Array, Scalar};
use crate::device::cpu::sum::numpy_sum;
use crate::device::Device;
use crate::error::{value_error, Result};
use crate::with_dtype4;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Reduction {
    Sum,
    Prod,
    Mean,
    Std,
    Var,
    Min,
    Max,
    ArgMin,
    ArgMax,
    Any,
    All,
}

impl Reduction {
    pub fn name(self) -> &'static str {
        match self {
            Reduction::Sum => "sum",
            Reduction::Prod => "prod",
            Reduction::Mean => "mean",
            Reduction::Std => "std",
            Reduction::Var => "var",
            Reduction::Min => "min",
            Reduction::Max => "max",
            Reduction::ArgMin => "argmin",
            Reduction::ArgMax => "argmax",
            Reduction::Any => "any",
            Reduction::All => "all",
        }
    }

    /// The dtype of the result for an input of `dtype` (NumPy's).
    pub fn result_dtype(self, dtype: DType) -> DType {
        match self {
            Reduction::Sum | Reduction::Prod => match dtype {
                DType::Bool | DType::I64 => DType::I64,
                d => d,
            },
            Reduction::Mean | Reduction::Std | Reduction::Var => dtype.to_float(),
            Reduction::Min | Reduction::Max => dtype,
            Reduction::ArgMin | Reduction::ArgMax => DType::I64,
            Reduction::Any | Reduction::All => DType::Bool,
        }
    }
}

/// Reduces one lane (all elements, or one line along an axis).
fn reduce_lane(
    r: Reduction,
    dtype: DType,
    lane: ArrayViewD<f64>,
    ints: Option<ArrayViewD<i64>>,
) -> Result<Scalar> {
    let n = lane.len();
    let empty_error = || {
        value_error(format!(
            "zero-size array to reduction operation {} which has no identity",
            r.name()
        ))
    };
    let values = || -> Vec<f64> { lane.iter().copied().collect() };
    let out = match r {
        Reduction::Sum => match &ints {
            Some(v) => Scalar::Int(v.iter().fold(0i64, |a, &b| a.wrapping_add(b))),
            None => Scalar::Float(match lane.as_slice() {
                Some(s) => numpy_sum(s),
                None => numpy_sum(&values()),
            }),
        },
        Reduction::Prod => match &ints {
            Some(v) => Scalar::Int(v.iter().fold(1i64, |a, &b| a.wrapping_mul(b))),
            None => Scalar::Float(lane.iter().product()),
        },
        Reduction::Mean | Reduction::Var | Reduction::Std => {
            let sum = match lane.as_slice() {
                Some(s) => numpy_sum(s),
                None => numpy_sum(&values()),
            };
            let mean = sum / n as f64;
            if r == Reduction::Mean {
                Scalar::Float(mean)
            } else {
                let squares: Vec<f64> = lane.iter().map(|&x| (x - mean) * (x - mean)).collect();
                let var = numpy_sum(&squares) / n as f64;
                Scalar::Float(if r == Reduction::Std { var.sqrt() } else { var })
            }
        }
        Reduction::Min | Reduction::Max => {
            if n == 0 {
                return Err(empty_error());
            }
            if let Some(v) = &ints {
                let it = v.iter().copied();
                Scalar::Int(
                    if r == Reduction::Min {
                        it.min()
                    } else {
                        it.max()
                    }
                    .unwrap(),
                )
            } else {
                let pick = |a: f64, b: f64| {
                    if a.is_nan() || b.is_nan() {
                        f64::NAN
                    } else if (r == Reduction::Min) == (b < a) {
                        b
                    } else {
                        a
                    }
                };
                Scalar::Float(lane.iter().copied().reduce(pick).unwrap())
            }
        }
        Reduction::ArgMin | Reduction::ArgMax => {
            if n == 0 {
                return Err(value_error(format!(
                    "attempt to get {} of an empty sequence",
                    r.name()
                )));
            }
            let better = |candidate: f64, best: f64| {
                if best.is_nan() {
                    false
                } else if candidate.is_nan() {
                    true
                } else if r == Reduction::ArgMin {
                    candidate < best
                } else {
                    candidate > best
                }
            };
            let index = match &ints {
                Some(v) => {
                    let mut best = 0;
                    let mut best_value = v.iter().next().copied().unwrap_or(0);
                    for (i, &x) in v.iter().enumerate() {
                        if (r == Reduction::ArgMin && x < best_value)
                            || (r == Reduction::ArgMax && x > best_value)
                        {
                            best = i;
                            best_value = x;
                        }
                    }
                    best
                }
                None => {
                    let mut best = 0;
                    let mut best_value = f64::NAN;
                    for (i, &x) in lane.iter().enumerate() {
                        if i == 0 || better(x, best_value) {
                            best = i;
                            best_value = x;
                        }
                    }
                    best
                }
            };
            Scalar::Int(index as i64)
        }
        Reduction::Any => Scalar::Bool(lane.iter().any(|&x| x != 0.0)),
        Reduction::All => Scalar::Bool(lane.iter().all(|&x| x != 0.0)),
    };
    let dtype = r.result_dtype(dtype);
    Ok(match (dtype, out) {
        (DType::F32, Scalar::Float(f)) => Scalar::Float(f as f32 as f64),
        (DType::Bool, Scalar::Float(f)) => Scalar::Bool(f != 0.0),
        (DType::I64, Scalar::Float(f)) => Scalar::Int(f as i64),
        (DType::Bool, Scalar::Int(i)) => Scalar::Bool(i != 0),
        (_, s) => s,
    })
}

fn is_integer(dtype: DType) -> bool {
    matches!(dtype, DType::I64 | DType::Bool)
}

/// A full reduction to a host scalar.
pub fn reduce_all(r: Reduction, a: &Array) -> Result<Scalar> {
    let dtype = a.dtype();
    if a.device() == Device::Gpu && a.size() > 0 {
        // Reduced on the device; the one value comes back in one counted copy.
        return super::on_gpu::reduce_all(r, a, r.result_dtype(dtype))?.element(&[]);
    }
    if a.device() == Device::Gpu {
        return reduce_all(r, &a.to_device(Device::Cpu)?);
    }
    if is_integer(dtype) {
        let ints = a.to_vec::<i64>();
        let floats: Vec<f64> = ints.iter().map(|&x| x as f64).collect();
        return reduce_lane(r, dtype, flat(&floats), Some(flat(&ints)));
    }
    if dtype == DType::F64 && a.layout().is_contiguous() {
        return a.with_view::<f64, _>(|v| reduce_lane(r, dtype, v, None));
    }
    reduce_lane(r, dtype, flat(&a.to_vec::<f64>()), None)
}

fn flat<T>(values: &[T]) -> ArrayViewD<'_, T> {
    ndarray::ArrayView1::from(values).into_dyn()
}

/// Resolves a possibly negative axis against `ndim`.
pub fn normalize_axis(axis: i64, ndim: usize) -> Result<usize> {
    let n = ndim as i64;
    let a = if axis < 0 { axis + n } else { axis };
    if a < 0 || a >= n {
        return Err(crate::error::Error::new(
            crate::error::ErrorKind::Index,
            format!("axis {axis} is out of bounds for array of dimension {ndim}"),
        ));
    }
    Ok(a as usize)
}

/// A reduction along one axis: an array on the same device with that axis removed.
pub fn reduce_axis(r: Reduction, a: &Array, axis: i64) -> Result<Array> {
    let axis = Axis(normalize_axis(axis, a.ndim())?);
    let dtype = a.dtype();
    if a.device() == Device::Gpu {
        let lanes_empty = a.shape()[axis.index()] == 0;
        if lanes_empty
            && a.size() == 0
            && !matches!(
                r,
                Reduction::Sum | Reduction::Prod | Reduction::Any | Reduction::All
            )
        {
            // The cpu path gives the error (or NaN) NumPy gives for empty lanes; no data moves.
            return reduce_axis(r, &a.to_device(Device::Cpu)?, axis.index() as i64)?
                .to_device(Device::Gpu);
        }
        return super::on_gpu::reduce_axis(r, a, axis.index(), r.result_dtype(dtype));
    }
    let out_dtype = r.result_dtype(dtype);
    let integer = is_integer(dtype);
    let results: Result<Vec<Scalar>> = a.with_view_as::<f64, _>(|floats| {
        let ints = integer.then(|| a.to_vec::<i64>());
        let int_view = ints
            .as_ref()
            .map(|v| ndarray::ArrayViewD::from_shape(a.shape(), &v[..]).expect("same shape"));
        floats
            .lanes(axis)
            .into_iter()
            .enumerate()
            .map(|(i, lane)| {
                let int_lane = int_view
                    .as_ref()
                    .map(|iv| iv.lanes(axis).into_iter().nth(i).unwrap().into_dyn());
                reduce_lane(r, dtype, lane.into_dyn(), int_lane)
            })
            .collect()
    });
    let results = results?;
    let mut shape = a.shape().to_vec();
    shape.remove(axis.index());
    Ok(with_dtype4!(out_dtype, T => Array::from_vec(
        results.iter().map(|s| s.cast::<T>()).collect(),
        shape
    )))
}

/// Running sums; without an axis, over the flattened array (NumPy's `cumsum`).
pub fn cumsum(a: &Array, axis: Option<i64>) -> Result<Array> {
    let (a, axis) = match axis {
        Some(ax) => (a.clone(), normalize_axis(ax, a.ndim())?),
        None => (super::shape::ravel(a)?, 0),
    };
    if a.device() == Device::Gpu {
        return super::on_gpu::cumsum(&a, axis, Reduction::Sum.result_dtype(a.dtype()));
    }
    match Reduction::Sum.result_dtype(a.dtype()) {
        DType::F64 => Ok(running_sum::<f64>(&a, axis)),
        DType::F32 => Ok(running_sum::<f32>(&a, axis)),
        _ => Ok(running_sum::<i64>(&a, axis)),
    }
}

fn running_sum<T: super::ops::Arith>(a: &Array, axis: usize) -> Array {
    let mut out = a.with_view_as::<T, _>(|v| v.to_owned());
    out.accumulate_axis_inplace(Axis(axis), |&prev, cur| *cur = T::add(prev, *cur));
    Array::from_ndarray(out)
}
