//! Making arrays: fills, ranges, identity matrices, arrays from lists, random numbers.

use super::{
    builtin, count_arg, device_arg, device_or_default, dtype_arg, optional_dtype, scalar_arg,
    shape_arg, Args, Builtin,
};
use crate::array::{self, Array};
use crate::base::{DType, Scalar};
use crate::device::Device;
use crate::error::{type_error, value_error, Result};
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
                fill(i, &a, value, 2)
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
            ["start", "stop", "num=", "dtype=", "device="],
            "num evenly spaced values from start to stop, both included (num defaults to 50).",
            "linspace(0, 1, 5)",
            linspace
        ),
        builtin!(
            "eye",
            ["n", "dtype=", "device="],
            "The n×n identity matrix.",
            "eye(3)",
            eye
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
        builtin!(
            "rand",
            ["shape", "dtype=", "device="],
            "Uniform random floats in [0, 1).",
            "rand([3, 3])",
            |i, a| random(i, &a, false)
        ),
        builtin!(
            "randn",
            ["shape", "dtype=", "device="],
            "Standard normal random floats.",
            "randn(5)",
            |i, a| random(i, &a, true)
        ),
        builtin!(
            "randint",
            ["low", "high", "shape=", "device="],
            "Random i64 values in [low, high); without a shape, one host int.",
            "randint(0, 62, 100)",
            randint
        ),
        builtin!(
            "seed",
            ["n"],
            "Seeds the session's random generator: the same seed gives the same numbers.",
            "seed(42)",
            |i, a| {
                let n = count_arg(a.required(0), "seed")?;
                i.rng.seed(n as u64);
                crate::device::gpu::random::seed(n as u64)?;
                Ok(Value::None)
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

fn random(interp: &mut Interpreter, args: &Args, normal: bool) -> Result<Value> {
    let shape = shape_arg(args.required(0))?;
    let dtype = optional_dtype(args, 1)?.unwrap_or(DType::F64);
    let device = device_or_default(interp, args, 2)?;
    if !matches!(dtype, DType::F32 | DType::F64) {
        return Err(type_error(format!(
            "random floats need dtype f64 or f32, not {dtype}"
        )));
    }
    if device == Device::Gpu {
        return array::on_gpu::random(&shape, dtype, normal).map(Value::array);
    }
    let size = crate::base::layout::shape_size(&shape)?;
    crate::device::check_allocation(Device::Cpu, size, dtype)?;
    let host = match dtype {
        DType::F32 => {
            let mut data = vec![0f32; size];
            if normal {
                interp.rng.fill_normal_f32(&mut data);
            } else {
                interp.rng.fill_uniform_f32(&mut data);
            }
            Array::from_vec(data, shape)
        }
        _ => {
            let mut data = vec![0f64; size];
            if normal {
                interp.rng.fill_normal_f64(&mut data);
            } else {
                interp.rng.fill_uniform_f64(&mut data);
            }
            Array::from_vec(data, shape)
        }
    };
    Ok(Value::array(host))
}

fn randint(interp: &mut Interpreter, args: Args) -> Result<Value> {
    let low = count_arg(args.required(0), "low")?;
    let high = count_arg(args.required(1), "high")?;
    let device = device_or_default(interp, &args, 3)?;
    let (shape, scalar) = match args.get(2) {
        Some(s) => (shape_arg(s)?, false),
        None => (vec![], true),
    };
    if device == Device::Gpu && !scalar {
        if high <= low {
            return Err(value_error(format!(
                "randint: low >= high (low = {low}, high = {high})"
            )));
        }
        return array::on_gpu::randint(&shape, low, high).map(Value::array);
    }
    let size = crate::base::layout::shape_size(&shape)?;
    crate::device::check_allocation(Device::Cpu, size, DType::I64)?;
    let mut data = vec![0i64; size];
    interp
        .rng
        .fill_randint(&mut data, low, high)
        .map_err(value_error)?;
    if scalar {
        return Ok(Value::Int(data[0]));
    }
    Array::from_vec(data, shape)
        .to_device(device)
        .map(Value::array)
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
    let a = scalar_arg(args.required(0))?.as_f64();
    let b = scalar_arg(args.required(1))?.as_f64();
    let n = args
        .get(2)
        .map(|v| count_arg(v, "num"))
        .transpose()?
        .unwrap_or(50);
    let n = usize::try_from(n).map_err(|_| value_error("linspace: num must be non-negative"))?;
    let dtype = optional_dtype(&args, 3)?.unwrap_or(DType::F64);
    let device = device_or_default(interp, &args, 4)?;
    crate::device::check_allocation(Device::Cpu, n, DType::F64)?;
    let step = if n > 1 { (b - a) / (n - 1) as f64 } else { 0.0 };
    let mut data: Vec<f64> = (0..n).map(|i| a + i as f64 * step).collect();
    if n > 1 {
        data[n - 1] = b;
    }
    let host = Array::from_vec(data, vec![n]);
    let host = if dtype == DType::F64 {
        host
    } else {
        host.astype(dtype)?
    };
    host.to_device(device).map(Value::array)
}

fn eye(interp: &mut Interpreter, args: Args) -> Result<Value> {
    let n = usize::try_from(count_arg(args.required(0), "n")?)
        .map_err(|_| value_error("eye: n must be non-negative"))?;
    let dtype = optional_dtype(&args, 1)?.unwrap_or(DType::F64);
    let device = device_or_default(interp, &args, 2)?;
    let size = crate::base::layout::shape_size(&[n, n])?;
    crate::device::check_allocation(Device::Cpu, size, DType::F64)?;
    let mut data = vec![0.0f64; size];
    for i in 0..n {
        data[i * n + i] = 1.0;
    }
    let host = Array::from_vec(data, vec![n, n]);
    let host = if dtype == DType::F64 {
        host
    } else {
        host.astype(dtype)?
    };
    host.to_device(device).map(Value::array)
}
