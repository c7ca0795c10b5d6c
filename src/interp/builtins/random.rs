//! Random numbers: the flat `rand randn randint seed` (NumPy's legacy functions, shared into the
//! namespace as `random.rand` ...) and the `random` namespace's members, NumPy's Generator
//! methods (`random.normal` ...). The session's seeded generator on the cpu, cuRAND and the
//! kernels of `kernels/random.cu` on the gpu: reproducible per seed and device, not NumPy's
//! streams. Without `size`, one host number, as NumPy returns.

use std::rc::Rc;

use super::{builtin, count_arg, device_arg, flag_arg, optional_dtype, shape_arg, Args, Builtin};
use crate::array::random::{self as draws, Param, Population, Source};
use crate::array::Array;
use crate::base::{DType, Scalar};
use crate::device::Device;
use crate::error::{type_error, Result};
use crate::interp::convert;
use crate::interp::value::Value;
use crate::interp::Interpreter;

/// The `random` namespace's own members (`random.normal` ...); `seed rand randn randint` are
/// shared with the main namespace.
pub fn namespace_builtins() -> Vec<Builtin> {
    vec![
        builtin!(
            "random.random",
            ["size=", "dtype=", "device="],
            "Uniform floats in [0, 1) (dtype f64 or f32); without a size, one host float. Reproducible per seed and device, not NumPy's stream.",
            "random.random([2, 3])",
            |i, a| {
                let dtype = optional_dtype(&a, 1)?.unwrap_or(DType::F64);
                let device = device_of(i, &a, 2, &[])?;
                let size = size_arg(&a, 0)?;
                let shape = size.clone().unwrap_or_default();
                let out = with_source(i, device, |s| draws::random(s, &shape, dtype))?;
                result(out, &size)
            }
        ),
        builtin!(
            "random.integers",
            ["low", "high=", "size=", "dtype=", "endpoint=", "device="],
            "Uniform integers in [low, high) ([low, high] with endpoint=true; [0, low) without a high), i64 unless dtype= names another integer dtype, without modulo bias; low and high may be arrays, broadcast.",
            "random.integers(0, 10, 5)",
            |i, a| {
                let dtype = optional_dtype(&a, 3)?.unwrap_or(DType::I64);
                let closed = flag_arg(&a, 4, false)?;
                integers(i, &a, [0, 1, 2, 5], dtype, closed)
            }
        ),
        builtin!(
            "random.uniform",
            ["low=", "high=", "size=", "device="],
            "Uniform f64 in [low, high) (default [0, 1)): low + (high - low) * u; low and high may be arrays, broadcast.",
            "random.uniform(-1, 1, 4)",
            |i, a| {
                let device = device_of(i, &a, 3, &[0, 1])?;
                let low = float_param(i, a.get(0), 0.0, device, "low")?;
                let high = float_param(i, a.get(1), 1.0, device, "high")?;
                let size = size_arg(&a, 2)?;
                let out =
                    with_source(i, device, |s| draws::uniform(s, size.as_deref(), &low, &high))?;
                result(out, &size)
            }
        ),
        builtin!(
            "random.normal",
            ["loc=", "scale=", "size=", "device="],
            "Normal f64 of mean loc and standard deviation scale (default 0 and 1); loc and scale may be arrays, broadcast. cuRAND on the gpu.",
            "random.normal(10, 2, [2, 2])",
            |i, a| {
                let device = device_of(i, &a, 3, &[0, 1])?;
                let loc = float_param(i, a.get(0), 0.0, device, "loc")?;
                let scale = float_param(i, a.get(1), 1.0, device, "scale")?;
                let size = size_arg(&a, 2)?;
                let out =
                    with_source(i, device, |s| draws::normal(s, size.as_deref(), &loc, &scale))?;
                result(out, &size)
            }
        ),
        builtin!(
            "random.standard_normal",
            ["size=", "dtype=", "device="],
            "Standard normal floats (mean 0, variance 1; dtype f64 or f32).",
            "random.standard_normal(5, dtype=f32)",
            |i, a| {
                let dtype = optional_dtype(&a, 1)?.unwrap_or(DType::F64);
                let device = device_of(i, &a, 2, &[])?;
                let size = size_arg(&a, 0)?;
                let shape = size.clone().unwrap_or_default();
                let out = with_source(i, device, |s| draws::standard_normal(s, &shape, dtype))?;
                result(out, &size)
            }
        ),
        builtin!(
            "random.exponential",
            ["scale=", "size=", "device="],
            "Exponential f64 of mean scale (default 1); scale may be an array, broadcast.",
            "random.exponential(2.0, 3)",
            |i, a| {
                let device = device_of(i, &a, 2, &[0])?;
                let scale = float_param(i, a.get(0), 1.0, device, "scale")?;
                let size = size_arg(&a, 1)?;
                let out = with_source(i, device, |s| draws::exponential(s, size.as_deref(), &scale))?;
                result(out, &size)
            }
        ),
        builtin!(
            "random.poisson",
            ["lam=", "size=", "device="],
            "Poisson counts (i64) of mean lam (default 1); lam may be an array, broadcast.",
            "random.poisson(4.5, 5)",
            |i, a| {
                let device = device_of(i, &a, 2, &[0])?;
                let lam = float_param(i, a.get(0), 1.0, device, "lam")?;
                let size = size_arg(&a, 1)?;
                let out = with_source(i, device, |s| draws::poisson(s, size.as_deref(), &lam))?;
                result(out, &size)
            }
        ),
        builtin!(
            "random.binomial",
            ["n", "p", "size=", "device="],
            "Binomial counts (i64): successes in n trials of probability p; n and p may be arrays, broadcast.",
            "random.binomial(10, 0.3, 5)",
            |i, a| {
                let device = device_of(i, &a, 3, &[0, 1])?;
                let n = int_param(i, a.required(0), device, "n")?;
                let p = float_param(i, Some(a.required(1)), 0.0, device, "p")?;
                let size = size_arg(&a, 2)?;
                let out = with_source(i, device, |s| draws::binomial(s, size.as_deref(), &n, &p))?;
                result(out, &size)
            }
        ),
        builtin!(
            "random.choice",
            ["a", "size=", "replace=", "p=", "device="],
            "Picks from a (an int n: 0..n; an array: its rows), with replacement unless replace=false, uniformly or with the probabilities p; without a size, one pick.",
            "random.choice(5, 3, replace=false)",
            choice
        ),
        builtin!(
            "random.permutation",
            ["x", "device="],
            "0..x in a random order (an int x), or a copy of the array x with its rows (first axis) in a random order.",
            "random.permutation(5)",
            |i, a| {
                let x = a.required(0).clone();
                match &x {
                    Value::Int(_) | Value::Bool(_) => {
                        let n = count_arg(&x, "x")?;
                        let device = device_of(i, &a, 1, &[])?;
                        with_source(i, device, |s| draws::permutation_of(s, n)).map(Value::array)
                    }
                    _ => {
                        let device = device_of(i, &a, 1, &[0])?;
                        let x = convert::to_array(i, &x, Some(device))?;
                        with_source(i, device, |s| draws::permutation(s, &x)).map(Value::array)
                    }
                }
            }
        ),
        builtin!(
            "random.shuffle",
            ["x"],
            "Puts the rows (first axis) of the array x in a random order, in place, on its device.",
            "x = arange(5); random.shuffle(x)",
            |i, a| {
                let x = super::in_place_arg(a.required(0), "shuffle")?;
                with_source(i, x.device(), |s| draws::shuffle(s, &x))?;
                Ok(Value::None)
            }
        ),
    ]
}

pub fn builtins() -> Vec<Builtin> {
    vec![
        builtin!(
            "rand",
            ["*shape", "dtype=", "device="],
            "Uniform random floats in [0, 1): rand(3, 4) or rand([3, 4]); without dimensions, one host float.",
            "rand(3, 3)",
            |i, a| legacy_floats(i, &a, draws::random)
        ),
        builtin!(
            "randn",
            ["*shape", "dtype=", "device="],
            "Standard normal random floats: randn(2, 3) or randn([2, 3]); without dimensions, one host float.",
            "randn(5)",
            |i, a| legacy_floats(i, &a, draws::standard_normal)
        ),
        builtin!(
            "randint",
            ["low", "high=", "size=", "dtype=", "device="],
            "Random integers in [low, high) ([0, low) without a high), i64 unless dtype= says otherwise; without a size, one host int.",
            "randint(0, 62, 100)",
            |i, a| {
                let dtype = optional_dtype(&a, 3)?.unwrap_or(DType::I64);
                integers(i, &a, [0, 1, 2, 4], dtype, false)
            }
        ),
        builtin!(
            "seed",
            ["seed"],
            "Seeds the session's random generators (cpu and gpu): the same seed gives the same numbers on the same device.",
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

/// `rand` and `randn`: NumPy's `rand(d0, d1, ...)` or arr's `rand(shape)`, with `dtype=`.
fn legacy_floats(
    interp: &mut Interpreter,
    args: &Args,
    draw: fn(&mut Source, &[usize], DType) -> Result<Array>,
) -> Result<Value> {
    let size = match args.rest.as_slice() {
        [] => None,
        [one] => Some(shape_arg(one)?),
        many => Some(shape_arg(&Value::Tuple(Rc::new(many.to_vec())))?),
    };
    let dtype = optional_dtype(args, 1)?.unwrap_or(DType::F64);
    let device = device_of(interp, args, 2, &[])?;
    let shape = size.clone().unwrap_or_default();
    let out = with_source(interp, device, |s| draw(s, &shape, dtype))?;
    result(out, &size)
}

/// `integers` and `randint`; `at` holds the positions of low, high, size and device.
fn integers(
    interp: &mut Interpreter,
    args: &Args,
    at: [usize; 4],
    dtype: DType,
    closed: bool,
) -> Result<Value> {
    let [low_at, high_at, size_at, device_at] = at;
    let device = device_of(interp, args, device_at, &[low_at, high_at])?;
    let first = int_param(interp, args.required(low_at), device, "low")?;
    let (low, high) = match args.get(high_at) {
        Some(v) => (first, int_param(interp, v, device, "high")?),
        None => (Param::Number(Scalar::Int(0)), first),
    };
    let size = size_arg(args, size_at)?;
    let out = with_source(interp, device, |s| {
        draws::integers(s, size.as_deref(), &low, &high, closed, dtype)
    })?;
    result(out, &size)
}

fn choice(interp: &mut Interpreter, args: Args) -> Result<Value> {
    let device = device_of(interp, &args, 4, &[0, 3])?;
    let population = match args.required(0) {
        v @ (Value::Int(_) | Value::Bool(_)) => Population::Count(count_arg(v, "a")?),
        Value::Array(x) if x.ndim() == 0 && !x.dtype().is_inexact() => {
            Population::Count(x.item()?.cast::<i64>())
        }
        v => Population::Rows(convert::to_array(interp, v, Some(device))?),
    };
    let size = size_arg(&args, 1)?;
    let replace = flag_arg(&args, 2, true)?;
    let p = args
        .get(3)
        .map(|v| convert::to_array(interp, v, Some(device)))
        .transpose()?;
    let out = with_source(interp, device, |s| {
        draws::choice(s, &population, size.as_deref(), replace, p.as_ref())
    })?;
    result(out, &size)
}

/// Runs `draw` with the session's generators, making numbers on `device`.
fn with_source<R>(
    interp: &mut Interpreter,
    device: Device,
    draw: impl FnOnce(&mut Source) -> Result<R>,
) -> Result<R> {
    draw(&mut Source {
        rng: &mut interp.rng,
        device,
    })
}

/// The device the numbers are made on: `device=` when given, else that of the first array
/// among the arguments at `params`, else the session's default.
fn device_of(interp: &Interpreter, args: &Args, at: usize, params: &[usize]) -> Result<Device> {
    if let Some(d) = args.get(at) {
        return device_arg(d);
    }
    let array_device = params.iter().find_map(|&p| match args.get(p) {
        Some(Value::Array(a)) => Some(a.device()),
        _ => None,
    });
    Ok(array_device.unwrap_or(interp.default_device))
}

/// `size=`: an int or a shape; `None` when not given.
fn size_arg(args: &Args, at: usize) -> Result<Option<Vec<usize>>> {
    args.get(at).map(shape_arg).transpose()
}

/// The result: without a size, a 0-d result is a host number, as NumPy returns.
fn result(out: Array, size: &Option<Vec<usize>>) -> Result<Value> {
    if size.is_none() && out.ndim() == 0 {
        return Ok(Value::from_scalar(out.item()?));
    }
    Ok(Value::array(out))
}

/// A real parameter (`default` when not given): a host number, or an array (a list is made on
/// `device`).
fn float_param(
    interp: &mut Interpreter,
    value: Option<&Value>,
    default: f64,
    device: Device,
    what: &str,
) -> Result<Param> {
    let Some(value) = value else {
        return Ok(Param::Number(Scalar::Float(default)));
    };
    let param = match value.as_scalar() {
        Some(s) => Param::Number(s),
        None => Param::Array(convert::to_array(interp, value, Some(device))?),
    };
    let complex = match &param {
        Param::Number(s) => matches!(s, Scalar::Complex(..)),
        Param::Array(a) => a.dtype().is_complex(),
    };
    if complex {
        return Err(type_error(format!("{what} must be real, not complex")));
    }
    Ok(param)
}

/// An integer parameter: a host number (a float is truncated, as NumPy's `int()` does), or an
/// array of integers (floats are truncated).
fn int_param(interp: &mut Interpreter, value: &Value, device: Device, what: &str) -> Result<Param> {
    match float_param(interp, Some(value), 0.0, device, what)? {
        Param::Number(Scalar::Float(f)) => {
            count_arg(&Value::Float(f.trunc()), what).map(|n| Param::Number(Scalar::Int(n)))
        }
        Param::Number(s) => Ok(Param::Number(Scalar::Int(s.cast::<i64>()))),
        Param::Array(a) if a.dtype().is_inexact() => Ok(Param::Array(a.astype(DType::I64)?)),
        array => Ok(array),
    }
}
