//! Random numbers (the flat `rand randn randint seed`): the session's seeded generator on the
//! cpu, cuRAND on the gpu; reproducible per seed and device.

use super::{builtin, count_arg, device_or_default, optional_dtype, shape_arg, Args, Builtin};
use crate::array::{self, Array};
use crate::base::DType;
use crate::device::Device;
use crate::error::{type_error, value_error, Result};
use crate::interp::value::Value;
use crate::interp::Interpreter;

/// The `random` namespace's own members (`random.normal` ...); `seed rand randn randint` are
/// shared with the main namespace.
pub fn namespace_builtins() -> Vec<Builtin> {
    vec![]
}

pub fn builtins() -> Vec<Builtin> {
    vec![
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
