//! Making arrays: fills, ranges, identity matrices, arrays from lists, random numbers.

use super::{
    builtin, count_arg, device_arg, device_or_default, dtype_arg, optional_dtype, scalar_arg,
    shape_arg, Args, Builtin,
};
use crate::array::ops::{binary, with_scalar};
use crate::array::{self, Array};
use crate::base::{DType, Scalar};
use crate::device::Device;
use crate::error::{value_error, Result};
use crate::interp::convert;
use crate::interp::host_ops::range_len;
use crate::interp::value::Value;
use crate::interp::Interpreter;

pub fn builtins() -> Vec<Builtin> {
    vec![
        builtin!(
            "zeros",
            ["shape", "dtype=", "device="],
            "An array of zeros (a fill kernel, not a transfer).",
            "zeros([2, 3])",
            |i, a| fill(i, &a, Scalar::Int(0), 1)
        ),
        builtin!(
            "ones",
            ["shape", "dtype=", "device="],
            "An array of ones.",
            "ones(1e6, device=cpu)",
            |i, a| fill(i, &a, Scalar::Int(1), 1)
        ),
        builtin!(
            "empty",
            ["shape", "dtype=", "device="],
            "An array whose contents do not matter (arrsh fills it with zeros).",
            "empty(10)",
            |i, a| fill(i, &a, Scalar::Int(0), 1)
        ),
        builtin!(
            "full",
            ["shape", "fill_value", "dtype=", "device="],
            "An array filled with one value (its dtype by default that of the value).",
            "full([2, 2], 7)",
            |i, a| {
                let value = scalar_arg(a.required(1))?;
                match a.required(1) {
                    // A 0-d array keeps its dtype, as NumPy's scalars do.
                    Value::Array(x) if a.get(2).is_none() => {
                        let shape = shape_arg(a.required(0))?;
                        let device = device_or_default(i, &a, 3)?;
                        Array::full(&shape, value, x.dtype(), device).map(Value::array)
                    }
                    _ => fill(i, &a, value, 2),
                }
            }
        ),
        builtin!(
            "zeros_like",
            ["x", "dtype=", "device="],
            "Zeros with the shape, dtype and device of x.",
            "zeros_like(x)",
            |i, a| like(i, &a, Scalar::Int(0))
        ),
        builtin!(
            "ones_like",
            ["x", "dtype=", "device="],
            "Ones with the shape, dtype and device of x.",
            "ones_like(x)",
            |i, a| like(i, &a, Scalar::Int(1))
        ),
        builtin!(
            "arange",
            ["start", "stop=", "step=", "dtype=", "device="],
            "Evenly spaced values in [start, stop) (NumPy's arange).",
            "arange(0, 10, 2)",
            arange
        ),
        builtin!(
            "linspace",
            ["start", "stop", "num=", "endpoint=", "dtype=", "device="],
            "num evenly spaced values from start to stop (num defaults to 50; stop left out with endpoint=false).",
            "linspace(0, 1, 5)",
            linspace
        ),
        builtin!(
            "logspace",
            ["start", "stop", "num=", "endpoint=", "base=", "dtype=", "device="],
            "base ** linspace(start, stop, num): num values evenly spaced on a log scale (base 10 by default).",
            "logspace(0, 3, 4)",
            logspace
        ),
        builtin!(
            "eye",
            ["n", "m=", "k=", "dtype=", "device="],
            "An n×m matrix (m = n by default) with ones on diagonal k (0: the main one) and zeros elsewhere.",
            "eye(3, 4, k=1)",
            eye
        ),
        builtin!(
            "identity",
            ["n", "dtype=", "device="],
            "The n×n identity matrix.",
            "identity(3)",
            |i, a| {
                let n = count_arg(a.required(0), "n")?;
                let dtype = optional_dtype(&a, 1)?.unwrap_or(DType::F64);
                let device = device_or_default(i, &a, 2)?;
                eye_matrix(n, n, 0, dtype, device).map(Value::array)
            }
        ),
        builtin!(
            "empty_like",
            ["x", "dtype=", "device="],
            "An array with the shape, dtype and device of x whose contents do not matter (arrsh fills it with zeros).",
            "empty_like(x)",
            |i, a| like(i, &a, Scalar::Int(0))
        ),
        builtin!(
            "full_like",
            ["x", "fill_value", "dtype=", "device="],
            "An array with the shape, dtype and device of x, filled with one value.",
            "full_like(x, 7)",
            |i, a| {
                let x = super::array_arg(i, a.required(0))?;
                let value = scalar_arg(a.required(1))?;
                let dtype = optional_dtype(&a, 2)?.unwrap_or(x.dtype());
                let device = a.get(3).map(device_arg).transpose()?.unwrap_or(x.device());
                Array::full(x.shape(), value, dtype, device).map(Value::array)
            }
        ),
        builtin!(
            "asarray",
            ["values", "dtype=", "device=", "copy="],
            "An array from a list, or x itself when it already has the dtype and device asked for (copy=true copies).",
            "asarray([1, 2, 3], dtype=f32)",
            |i, a| {
                let device = a.get(2).map(device_arg).transpose()?;
                let mut x = match a.required(0) {
                    Value::Array(x) => x.to_device(device.unwrap_or(x.device()))?,
                    values => convert::to_array(i, values, device)?,
                };
                if let Some(d) = a.get(1) {
                    let d = dtype_arg(d)?;
                    if d != x.dtype() {
                        x = x.astype(d)?;
                    }
                }
                if super::flag_arg(&a, 3, false)? {
                    x = x.copy()?;
                }
                Ok(Value::array(x))
            }
        ),
        builtin!(
            "copy",
            ["x"],
            "A copy of x (C-ordered, same dtype and device).",
            "copy([1, 2])",
            |i, a| super::array_arg(i, a.required(0))?.copy().map(Value::array)
        ),
        builtin!(
            "from_dlpack",
            ["x"],
            "x itself: the standard's exchange of arrays between libraries (arrays here already share one).",
            "from_dlpack(x)",
            |i, a| super::array_arg(i, a.required(0)).map(Value::array)
        ),
        builtin!(
            "meshgrid",
            ["*arrays", "indexing="],
            "Coordinate matrices from 1-d coordinate arrays (a tuple); indexing \"xy\" (default: the first two axes swapped) or \"ij\".",
            "meshgrid([1, 2, 3], [4, 5])[0]",
            meshgrid
        ),
        builtin!(
            "tril",
            ["x", "k="],
            "x with the elements above diagonal k set to zero (of each matrix of the last two axes).",
            "tril(ones([3, 3]))",
            |i, a| triangle(i, &a, true)
        ),
        builtin!(
            "triu",
            ["x", "k="],
            "x with the elements below diagonal k set to zero.",
            "triu(ones([3, 3]), k=1)",
            |i, a| triangle(i, &a, false)
        ),
        builtin!(
            "diag",
            ["v", "k="],
            "The diagonal k of a 2-d array (a copy), or a 2-d array with the 1-d v on diagonal k.",
            "diag([1, 2, 3])",
            |i, a| {
                let v = super::array_arg(i, a.required(0))?;
                let k = a.get(1).map(|v| count_arg(v, "k")).transpose()?.unwrap_or(0);
                diag(&v, k).map(Value::array)
            }
        ),
        builtin!(
            "diagflat",
            ["v", "k="],
            "A 2-d array with the flattened v on diagonal k.",
            "diagflat([[1, 2], [3, 4]])",
            |i, a| {
                let v = array::shape::ravel(&super::array_arg(i, a.required(0))?)?;
                let k = a.get(1).map(|v| count_arg(v, "k")).transpose()?.unwrap_or(0);
                diag(&v, k).map(Value::array)
            }
        ),
        builtin!(
            "array",
            ["values", "dtype=", "device="],
            "An array from a list (or a copy of an array) on a device.",
            "array([[1, 2], [3, 4]], dtype=f32)",
            |i, a| {
                let device = a.get(2).map(device_arg).transpose()?;
                let mut x = match (a.required(0), device) {
                    // A copy, as NumPy's array(x) is: never a view of x.
                    (Value::Array(x), device) => {
                        x.to_device(device.unwrap_or(x.device()))?.copy()?
                    }
                    (values, device) => convert::to_array(i, values, device)?,
                };
                if let Some(d) = a.get(1) {
                    x = x.astype(dtype_arg(d)?)?;
                }
                Ok(Value::array(x))
            }
        ),
    ]
}

/// The default dtype of a fill value (`full(3, 7)` is int64, `zeros(3)` float64).
fn fill_dtype(args: &Args, value: Scalar) -> DType {
    match value {
        _ if args.name != "full" => DType::F64,
        other => other.dtype(),
    }
}

fn fill(interp: &mut Interpreter, args: &Args, value: Scalar, dtype_at: usize) -> Result<Value> {
    let shape = shape_arg(args.required(0))?;
    let dtype = optional_dtype(args, dtype_at)?.unwrap_or(fill_dtype(args, value));
    let device = device_or_default(interp, args, dtype_at + 1)?;
    Array::full(&shape, value, dtype, device).map(Value::array)
}

fn like(interp: &mut Interpreter, args: &Args, value: Scalar) -> Result<Value> {
    let x = super::array_arg(interp, args.required(0))?;
    let dtype = optional_dtype(args, 1)?.unwrap_or(x.dtype());
    let device = args
        .get(2)
        .map(device_arg)
        .transpose()?
        .unwrap_or(x.device());
    Array::full(x.shape(), value, dtype, device).map(Value::array)
}

fn arange(interp: &mut Interpreter, args: Args) -> Result<Value> {
    let a = scalar_arg(args.required(0))?;
    let (start, stop, step) = match (args.get(1), args.get(2)) {
        (None, _) => (Scalar::Int(0), a, Scalar::Int(1)),
        (Some(b), None) => (a, scalar_arg(b)?, Scalar::Int(1)),
        (Some(b), Some(s)) => (a, scalar_arg(b)?, scalar_arg(s)?),
    };
    let device = device_or_default(interp, &args, 4)?;
    let floats = [start, stop, step]
        .iter()
        .any(|s| matches!(s, Scalar::Float(_) | Scalar::Complex(..)));
    let dtype = optional_dtype(&args, 3)?.unwrap_or(if floats { DType::F64 } else { DType::I64 });
    let (s0, s1, st) = (start.as_f64(), stop.as_f64(), step.as_f64());
    if st == 0.0 {
        return Err(value_error("arange: step cannot be zero"));
    }
    let n = ((s1 - s0) / st).ceil().max(0.0);
    if !n.is_finite() {
        return Err(value_error("arange: the range has no end"));
    }
    let n = n as usize;
    crate::device::check_allocation(Device::Cpu, n, DType::F64)?;
    let host = if !floats {
        let (s0, st) = (start.cast::<i64>(), step.cast::<i64>());
        let n = range_len(s0, stop.cast::<i64>(), st) as usize;
        Array::from_vec(
            (0..n as i64)
                .map(|i| s0.wrapping_add(i.wrapping_mul(st)))
                .collect(),
            vec![n],
        )
    } else {
        Array::from_vec(
            (0..n).map(|i| s0 + i as f64 * st).collect::<Vec<f64>>(),
            vec![n],
        )
    };
    let host = if host.dtype() == dtype {
        host
    } else {
        host.astype(dtype)?
    };
    host.to_device(device).map(Value::array)
}

fn linspace(interp: &mut Interpreter, args: Args) -> Result<Value> {
    let (values, dtype, device) = spaced(interp, &args)?;
    let values = if dtype == DType::F64 {
        values
    } else {
        values.astype(dtype)?
    };
    values.to_device(device).map(Value::array)
}

/// NumPy's linspace on the host: start + i * step, the last value `stop` exactly (with the
/// endpoint); and the dtype and device asked for (at `dtype_at`, then the next parameter).
fn spaced(interp: &mut Interpreter, args: &Args) -> Result<(Array, DType, Device)> {
    let a = scalar_arg(args.required(0))?.as_f64();
    let b = scalar_arg(args.required(1))?.as_f64();
    let n = args
        .get(2)
        .map(|v| count_arg(v, "num"))
        .transpose()?
        .unwrap_or(50);
    let n = usize::try_from(n).map_err(|_| value_error("linspace: num must be non-negative"))?;
    let endpoint = super::flag_arg(args, 3, true)?;
    let dtype_at = if args.name == "logspace" { 5 } else { 4 };
    let dtype = optional_dtype(args, dtype_at)?.unwrap_or(DType::F64);
    let device = device_or_default(interp, args, dtype_at + 1)?;
    crate::device::check_allocation(Device::Cpu, n, DType::F64)?;
    let div = if endpoint { n.saturating_sub(1) } else { n };
    let step = if div > 0 { (b - a) / div as f64 } else { 0.0 };
    let mut data: Vec<f64> = (0..n).map(|i| i as f64 * step + a).collect();
    if endpoint && n > 1 {
        data[n - 1] = b;
    }
    Ok((Array::from_vec(data, vec![n]), dtype, device))
}

fn logspace(interp: &mut Interpreter, args: Args) -> Result<Value> {
    let (exponents, dtype, device) = spaced(interp, &args)?;
    let base = args
        .get(4)
        .map(scalar_arg)
        .transpose()?
        .unwrap_or(Scalar::Float(10.0));
    let base = Array::full(&[], base, DType::F64, Device::Cpu)?;
    let values = binary(crate::plan::table::Op::Power, &base, &exponents)?;
    values.astype(dtype)?.to_device(device).map(Value::array)
}

fn eye(interp: &mut Interpreter, args: Args) -> Result<Value> {
    let n = count_arg(args.required(0), "n")?;
    let m = args
        .get(1)
        .map(|v| count_arg(v, "m"))
        .transpose()?
        .unwrap_or(n);
    let k = args
        .get(2)
        .map(|v| count_arg(v, "k"))
        .transpose()?
        .unwrap_or(0);
    let dtype = optional_dtype(&args, 3)?.unwrap_or(DType::F64);
    let device = device_or_default(interp, &args, 4)?;
    eye_matrix(n, m, k, dtype, device).map(Value::array)
}

/// An n×m matrix of zeros with ones on diagonal k: a fill, then a fill of the diagonal's view.
fn eye_matrix(n: i64, m: i64, k: i64, dtype: DType, device: Device) -> Result<Array> {
    let (n, m) = (
        usize::try_from(n).map_err(|_| value_error("negative dimensions are not allowed"))?,
        usize::try_from(m).map_err(|_| value_error("negative dimensions are not allowed"))?,
    );
    let out = Array::full(&[n, m], Scalar::Int(0), dtype, device)?;
    let diagonal = array::shape::diagonal(&out, k, 0, 1)?;
    array::ops::assign(&diagonal, array::ops::Operand::Scalar(Scalar::Int(1)))?;
    Ok(out)
}

/// A 2-d array with `v` on diagonal k (1-d v), or diagonal k of `v` (2-d v), as NumPy's `diag`.
fn diag(v: &Array, k: i64) -> Result<Array> {
    match v.ndim() {
        1 => {
            let n = v.size() + k.unsigned_abs() as usize;
            let out = Array::full(&[n, n], Scalar::Int(0), v.dtype(), v.device())?;
            let diagonal = array::shape::diagonal(&out, k, 0, 1)?;
            array::ops::assign(&diagonal, array::ops::Operand::Array(v))?;
            Ok(out)
        }
        2 => array::shape::diagonal(v, k, 0, 1)?.copy(),
        _ => Err(value_error("Input must be 1- or 2-d.")),
    }
}

/// `tril`/`triu`: a where over the matrix with the mask col - row <= k (or >= k), the row and
/// column numbers made on the host (on the gpu, two small counted host→device copies).
fn triangle(interp: &mut Interpreter, args: &Args, lower: bool) -> Result<Value> {
    use crate::plan::table::Op;
    let x = super::array_arg(interp, args.required(0))?;
    if x.ndim() < 2 {
        return Err(value_error(format!(
            "{} needs an array of at least 2 dimensions",
            args.name
        )));
    }
    let k = args
        .get(1)
        .map(|v| count_arg(v, "k"))
        .transpose()?
        .unwrap_or(0);
    let (rows, cols) = (x.shape()[x.ndim() - 2], x.shape()[x.ndim() - 1]);
    let numbers = |n: usize, shape: Vec<usize>| {
        Array::from_vec((0..n as i64).collect::<Vec<i64>>(), shape).to_device(x.device())
    };
    let row = numbers(rows, vec![rows, 1])?;
    let col = numbers(cols, vec![1, cols])?;
    let offset = binary(Op::Subtract, &col, &row)?;
    let keep = with_scalar(
        if lower {
            Op::LessEqual
        } else {
            Op::GreaterEqual
        },
        &offset,
        Scalar::Int(k),
    )?;
    let zero = Array::full(&[], Scalar::Int(0), x.dtype(), x.device())?;
    array::ops::choose(&keep, &x, &zero)?
        .astype(x.dtype())
        .map(Value::array)
}

fn meshgrid(interp: &mut Interpreter, args: Args) -> Result<Value> {
    let xy = match args.get(1) {
        None => true,
        Some(Value::Str(s)) if &**s == "xy" => true,
        Some(Value::Str(s)) if &**s == "ij" => false,
        Some(other) => {
            return Err(value_error(format!(
                "Valid values for `indexing` are 'xy' and 'ij', not {}",
                other.describe()
            )))
        }
    };
    let vectors: Vec<Array> = args
        .rest
        .iter()
        .map(|v| super::array_arg(interp, v).and_then(|a| array::shape::ravel(&a)))
        .collect::<Result<_>>()?;
    let mut shape: Vec<usize> = vectors.iter().map(|v| v.size()).collect();
    if xy && shape.len() > 1 {
        shape.swap(0, 1);
    }
    let grids: Vec<Array> = vectors
        .iter()
        .enumerate()
        .map(|(i, v)| {
            let axis = match (xy, i) {
                (true, 0) if shape.len() > 1 => 1,
                (true, 1) => 0,
                _ => i,
            };
            let mut along = vec![1i64; shape.len()];
            along[axis] = -1;
            let line = array::shape::reshape(v, &along)?;
            array::shape::broadcast_to(&line, &shape)?.copy()
        })
        .collect::<Result<_>>()?;
    Ok(super::manipulation::tuple_of(grids))
}
