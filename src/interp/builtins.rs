//! The built-in functions: one table (name, parameters, doc, example, implementation) that feeds
//! calls, `:help` and completion.

use std::rc::Rc;
use std::sync::LazyLock;
use std::time::Instant;

use crate::array::dtype::DType;
use crate::array::ops::{self, Operand, UnaryFn};
use crate::array::reduce::{self, Reduction};
use crate::array::{self, Array, Scalar};
use crate::device::cpu::npy::{self, NpyData, NpyView};
use crate::device::Device;
use crate::error::{type_error, value_error, Error, ErrorKind, Result};

use super::convert::{self, OwnedOperand};
use super::host_ops::range_len;
use super::value::Value;
use super::Interpreter;

pub struct Builtin {
    pub name: &'static str,
    /// Parameter names; `name=` is optional, `*name` takes the remaining positional arguments.
    pub params: &'static [&'static str],
    pub doc: &'static str,
    pub example: &'static str,
    pub run: fn(&mut Interpreter, Args) -> Result<Value>,
}

impl std::fmt::Debug for Builtin {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "<built-in fn {}>", self.name)
    }
}

impl Builtin {
    /// `zeros(shape, dtype=, device=)`
    pub fn signature(&self) -> String {
        format!("{}({})", self.name, self.params.join(", "))
    }
}

/// Arguments bound to a built-in's parameters.
pub struct Args {
    name: &'static str,
    values: Vec<Option<Value>>,
    rest: Vec<Value>,
}

impl Args {
    fn get(&self, i: usize) -> Option<&Value> {
        self.values
            .get(i)
            .and_then(|v| v.as_ref())
            .filter(|v| !matches!(v, Value::None))
    }

    fn required(&self, i: usize) -> &Value {
        self.values[i]
            .as_ref()
            .expect("bind checks required arguments")
    }
}

/// Matches call arguments to a built-in's parameters, with Python's rules and messages.
pub fn bind(
    b: &'static Builtin,
    positional: Vec<Value>,
    keywords: Vec<(Rc<str>, Value)>,
) -> Result<Args> {
    let variadic = b.params.iter().position(|p| p.starts_with('*'));
    let fixed = variadic.unwrap_or(b.params.len());
    let mut values: Vec<Option<Value>> = vec![None; fixed];
    let mut rest = Vec::new();
    for (i, v) in positional.into_iter().enumerate() {
        if i < fixed {
            values[i] = Some(v);
        } else if variadic.is_some() {
            rest.push(v);
        } else {
            return Err(type_error(format!(
                "{} takes at most {} arguments",
                b.signature(),
                fixed
            )));
        }
    }
    for (name, v) in keywords {
        let i = b.params[..fixed]
            .iter()
            .position(|p| p.trim_end_matches('=') == &*name)
            .ok_or_else(|| {
                type_error(format!(
                    "{} got an unexpected keyword argument `{name}`",
                    b.signature()
                ))
            })?;
        if values[i].is_some() {
            return Err(type_error(format!(
                "{} got multiple values for `{name}`",
                b.signature()
            )));
        }
        values[i] = Some(v);
    }
    for (i, p) in b.params[..fixed].iter().enumerate() {
        if values[i].is_none() && !p.ends_with('=') {
            return Err(type_error(format!(
                "{} is missing the argument `{p}`",
                b.signature()
            )));
        }
    }
    Ok(Args {
        name: b.name,
        values,
        rest,
    })
}

pub fn find(name: &str) -> Option<&'static Builtin> {
    BUILTINS.iter().find(|b| b.name == name)
}

pub fn all() -> &'static [Builtin] {
    BUILTINS
}

/// The value a global name has when no variable shadows it: a function, device or dtype.
pub fn lookup_value(name: &str) -> Option<Value> {
    match name {
        "cpu" => Some(Value::Device(Device::Cpu)),
        "gpu" => Some(Value::Device(Device::Gpu)),
        "f64" => Some(Value::DType(DType::F64)),
        "f32" => Some(Value::DType(DType::F32)),
        "i64" => Some(Value::DType(DType::I64)),
        "bool" => Some(Value::DType(DType::Bool)),
        _ => find(name).map(Value::Builtin),
    }
}

/// Names that are values rather than functions (for completion and `:help`).
pub const CONSTANTS: &[&str] = &["cpu", "gpu", "f64", "f32", "i64", "bool"];

/// A dtype called as a function: `f32(x)` converts an array (`astype`); a host value or a
/// 0-d array becomes a host scalar, as `np.float64(x)` does.
pub fn call_dtype(interp: &mut Interpreter, dtype: DType, positional: Vec<Value>) -> Result<Value> {
    let [value] = positional.as_slice() else {
        return Err(type_error(format!("{dtype}(x) takes one argument")));
    };
    if let Value::Array(a) = value {
        if a.ndim() > 0 {
            return a.astype(dtype).map(Value::array);
        }
    }
    let args = Args {
        name: dtype.name(),
        values: vec![Some(value.clone())],
        rest: Vec::new(),
    };
    match dtype {
        DType::Bool => convert::truth(value).map(Value::Bool),
        DType::I64 => to_int(interp, args),
        DType::F32 | DType::F64 => to_float(interp, args),
    }
}

// ---- argument conversions ----

fn array_arg(interp: &mut Interpreter, v: &Value) -> Result<Array> {
    convert::to_array(interp, v, None)
}

fn dtype_arg(v: &Value) -> Result<DType> {
    match v {
        Value::DType(d) => Ok(*d),
        Value::Str(s) => match &**s {
            "f64" | "float64" | "float" => Ok(DType::F64),
            "f32" | "float32" => Ok(DType::F32),
            "i64" | "int64" | "int" => Ok(DType::I64),
            "bool" => Ok(DType::Bool),
            other => Err(type_error(format!(
                "unknown dtype \"{other}\" (f64 f32 i64 bool)"
            ))),
        },
        other => Err(type_error(format!(
            "expected a dtype (f64 f32 i64 bool), got {}",
            other.a_kind()
        ))),
    }
}

fn device_arg(v: &Value) -> Result<Device> {
    match v {
        Value::Device(d) => Ok(*d),
        Value::Str(s) if &**s == "cpu" => Ok(Device::Cpu),
        Value::Str(s) if &**s == "gpu" => Ok(Device::Gpu),
        other => Err(type_error(format!(
            "expected a device (cpu or gpu), got {}",
            other.to_repr()
        ))),
    }
}

fn device_or_default(interp: &Interpreter, args: &Args, i: usize) -> Result<Device> {
    args.get(i)
        .map(device_arg)
        .unwrap_or(Ok(interp.default_device))
}

/// An int or a whole float (`ones(1e9)`) as a count.
fn count_arg(v: &Value, what: &str) -> Result<i64> {
    match v {
        Value::Int(i) => Ok(*i),
        Value::Bool(b) => Ok(*b as i64),
        Value::Float(f) if f.fract() == 0.0 && f.abs() < 9.2e18 => Ok(*f as i64),
        Value::Float(f) if f.fract() == 0.0 => Err(crate::error::memory_error(format!(
            "{what} {} is too large",
            crate::array::format::float_repr(*f)
        ))),
        Value::Array(a) if a.size() == 1 => match a.item()? {
            Scalar::Float(f) if f.fract() != 0.0 => Err(type_error(format!(
                "{what} must be a whole number, not {f}"
            ))),
            s => Ok(s.cast::<i64>()),
        },
        other => Err(type_error(format!(
            "{what} must be an integer, not {}",
            other.to_repr()
        ))),
    }
}

fn shape_arg(v: &Value) -> Result<Vec<usize>> {
    let dims: Vec<i64> = match v {
        Value::List(items) | Value::Tuple(items) => items
            .iter()
            .map(|d| count_arg(d, "a dimension"))
            .collect::<Result<_>>()?,
        Value::Array(a) if a.ndim() == 1 => a.to_vec::<i64>(),
        other => vec![count_arg(other, "a shape")?],
    };
    let shape = dims
        .into_iter()
        .map(|d| usize::try_from(d).map_err(|_| value_error("negative dimensions are not allowed")))
        .collect::<Result<Vec<_>>>()?;
    array::shape_size(&shape)?;
    Ok(shape)
}

fn axis_arg(args: &Args, i: usize) -> Result<Option<i64>> {
    args.get(i).map(|v| count_arg(v, "axis")).transpose()
}

fn scalar_arg(v: &Value) -> Result<Scalar> {
    v.as_scalar()
        .ok_or_else(|| type_error(format!("expected a number, got {}", v.a_kind())))
}

/// A host result for host input (`sqrt(2.0)` is a float), an array for array input.
fn scalar_or_array(input_was_array: bool, result: Array) -> Result<Value> {
    if input_was_array {
        Ok(Value::array(result))
    } else {
        Ok(Value::from_scalar(result.item()?))
    }
}

fn is_array_input(v: &Value) -> bool {
    matches!(v, Value::Array(_) | Value::List(_) | Value::Tuple(_))
}

// ---- implementations ----

fn fill_builtin(
    interp: &mut Interpreter,
    args: &Args,
    value: Scalar,
    dtype_at: usize,
) -> Result<Value> {
    let shape = shape_arg(args.required(0))?;
    let dtype = args
        .get(dtype_at)
        .map(dtype_arg)
        .transpose()?
        .unwrap_or(match value {
            Scalar::Int(_) if args.name == "full" => DType::I64,
            Scalar::Bool(_) if args.name == "full" => DType::Bool,
            _ => DType::F64,
        });
    let device = device_or_default(interp, args, dtype_at + 1)?;
    Array::full(&shape, value, dtype, device).map(Value::array)
}

fn like_builtin(interp: &mut Interpreter, args: &Args, value: Scalar) -> Result<Value> {
    let x = array_arg(interp, args.required(0))?;
    let dtype = args.get(1).map(dtype_arg).transpose()?.unwrap_or(x.dtype());
    let device = args
        .get(2)
        .map(device_arg)
        .transpose()?
        .unwrap_or(x.device());
    Array::full(x.shape(), value, dtype, device).map(Value::array)
}

fn unary_builtin(interp: &mut Interpreter, args: &Args, f: UnaryFn) -> Result<Value> {
    let input = args.required(0);
    if let (Value::Int(i), UnaryFn::Abs) = (input, f) {
        return i.checked_abs().map(Value::Int).ok_or_else(|| {
            crate::error::overflow_error(format!(
                "integer overflow: abs({i}) does not fit in an int"
            ))
        });
    }
    // Host numbers stay on the host: `sqrt(2)` is no device round trip.
    let x = match is_array_input(input) {
        true => array_arg(interp, input)?,
        false => convert::to_array(interp, input, Some(Device::Cpu))?,
    };
    scalar_or_array(is_array_input(input), ops::unary(f, &x)?)
}

fn reduce_builtin(interp: &mut Interpreter, args: &Args, r: Reduction) -> Result<Value> {
    let x = array_arg(interp, args.required(0))?;
    match axis_arg(args, 1)? {
        None => reduce::reduce_all(r, &x).map(Value::from_scalar),
        Some(axis) => reduce::reduce_axis(r, &x, axis).map(Value::array),
    }
}

fn operand_arg(interp: &mut Interpreter, v: &Value) -> Result<OwnedOperand> {
    convert::operand(interp, v)
}

fn extremum_builtin(interp: &mut Interpreter, args: &Args, is_max: bool) -> Result<Value> {
    let a = operand_arg(interp, args.required(0))?;
    let b = operand_arg(interp, args.required(1))?;
    let any_array = is_array_input(args.required(0)) || is_array_input(args.required(1));
    let result = ops::extremum(a.as_operand(), b.as_operand(), is_max)?;
    scalar_or_array(any_array, result)
}

fn arrays_arg(interp: &mut Interpreter, v: &Value) -> Result<Vec<Array>> {
    match v {
        Value::List(items) | Value::Tuple(items) => {
            items.iter().map(|x| array_arg(interp, x)).collect()
        }
        Value::Array(a) if a.ndim() > 0 => (0..a.shape()[0])
            .map(|i| {
                let layout = a
                    .layout()
                    .index(&[array::layout::AxisIndex::At(i as i64)])?;
                Ok(a.with_layout(layout))
            })
            .collect(),
        other => Err(type_error(format!(
            "expected a list of arrays, got {}",
            other.a_kind()
        ))),
    }
}

fn random_builtin(interp: &mut Interpreter, args: &Args, normal: bool) -> Result<Value> {
    let shape = shape_arg(args.required(0))?;
    let dtype = args
        .get(1)
        .map(dtype_arg)
        .transpose()?
        .unwrap_or(DType::F64);
    let device = device_or_default(interp, args, 2)?;
    if !dtype.is_float() {
        return Err(type_error(format!(
            "random floats need dtype f64 or f32, not {dtype}"
        )));
    }
    if device == Device::Gpu {
        return array::on_gpu::random(&shape, dtype, normal).map(Value::array);
    }
    let size = array::shape_size(&shape)?;
    array::check_allocation(size, dtype)?;
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
        DType::F64 => {
            let mut data = vec![0f64; size];
            if normal {
                interp.rng.fill_normal_f64(&mut data);
            } else {
                interp.rng.fill_uniform_f64(&mut data);
            }
            Array::from_vec(data, shape)
        }
        other => {
            return Err(type_error(format!(
                "random floats need dtype f64 or f32, not {other}"
            )))
        }
    };
    host.to_device(device).map(Value::array)
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
    let size = array::shape_size(&shape)?;
    array::check_allocation(size, DType::I64)?;
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
        .any(|s| matches!(s, Scalar::Float(_)));
    let dtype = args
        .get(3)
        .map(dtype_arg)
        .transpose()?
        .unwrap_or(if floats { DType::F64 } else { DType::I64 });
    let (s0, s1, st) = (start.as_f64(), stop.as_f64(), step.as_f64());
    if st == 0.0 {
        return Err(value_error("arange: step cannot be zero"));
    }
    let n = ((s1 - s0) / st).ceil().max(0.0);
    if !n.is_finite() {
        return Err(value_error("arange: the range has no end"));
    }
    let n = n as usize;
    array::check_allocation(n, dtype.max(DType::F64))?;
    let host = if dtype == DType::I64 && !floats {
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
        .astype(dtype)?
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
    let dtype = args
        .get(3)
        .map(dtype_arg)
        .transpose()?
        .unwrap_or(DType::F64);
    let device = device_or_default(interp, &args, 4)?;
    array::check_allocation(n, DType::F64)?;
    let step = if n > 1 { (b - a) / (n - 1) as f64 } else { 0.0 };
    let mut data: Vec<f64> = (0..n).map(|i| a + i as f64 * step).collect();
    if n > 1 {
        data[n - 1] = b;
    }
    Array::from_vec(data, vec![n])
        .astype(dtype)?
        .to_device(device)
        .map(Value::array)
}

fn eye(interp: &mut Interpreter, args: Args) -> Result<Value> {
    let n = usize::try_from(count_arg(args.required(0), "n")?)
        .map_err(|_| value_error("eye: n must be non-negative"))?;
    let dtype = args
        .get(1)
        .map(dtype_arg)
        .transpose()?
        .unwrap_or(DType::F64);
    let device = device_or_default(interp, &args, 2)?;
    let size = array::shape_size(&[n, n])?;
    array::check_allocation(size, DType::F64)?;
    let mut data = vec![0.0f64; size];
    for i in 0..n {
        data[i * n + i] = 1.0;
    }
    Array::from_vec(data, vec![n, n])
        .astype(dtype)?
        .to_device(device)
        .map(Value::array)
}

fn range(_: &mut Interpreter, args: Args) -> Result<Value> {
    let a = count_arg(args.required(0), "range")?;
    let (start, stop, step) = match (args.get(1), args.get(2)) {
        (None, _) => (0, a, 1),
        (Some(b), None) => (a, count_arg(b, "range")?, 1),
        (Some(b), Some(s)) => (a, count_arg(b, "range")?, count_arg(s, "range step")?),
    };
    if step == 0 {
        return Err(value_error("range() step must not be zero"));
    }
    Ok(Value::Range { start, stop, step })
}

fn print(interp: &mut Interpreter, args: Args) -> Result<Value> {
    let text: Vec<String> = args.rest.iter().map(Value::to_display).collect();
    let mut line = text.join(" ");
    line.push('\n');
    interp.write_out(&line);
    Ok(Value::None)
}

fn len(_: &mut Interpreter, args: Args) -> Result<Value> {
    let n = match args.required(0) {
        Value::Str(s) => s.chars().count(),
        Value::List(items) | Value::Tuple(items) => items.len(),
        Value::Range { start, stop, step } => usize::try_from(range_len(*start, *stop, *step))
            .ok()
            .filter(|&n| n <= i64::MAX as usize)
            .ok_or_else(|| {
                Error::new(
                    ErrorKind::Overflow,
                    "integer overflow: the range has more than 2**63 - 1 elements",
                )
            })?,
        Value::Array(a) if a.ndim() > 0 => a.shape()[0],
        Value::Array(_) => return Err(type_error("len() of a 0-d array")),
        other => return Err(type_error(format!("{} has no len()", other.a_kind()))),
    };
    Ok(Value::Int(n as i64))
}

fn to_int(_: &mut Interpreter, args: Args) -> Result<Value> {
    match args.required(0) {
        Value::Int(i) => Ok(Value::Int(*i)),
        Value::Bool(b) => Ok(Value::Int(*b as i64)),
        Value::Float(f) => float_to_int(*f),
        Value::Str(s) => s
            .trim()
            .replace('_', "")
            .parse()
            .map(Value::Int)
            .map_err(|_| value_error(format!("invalid literal for int(): \"{s}\""))),
        Value::Array(a) => match a.item()? {
            Scalar::Float(f) => float_to_int(f),
            s => Ok(Value::Int(s.cast())),
        },
        other => Err(type_error(format!("int() of {}", other.a_kind()))),
    }
}

fn float_to_int(f: f64) -> Result<Value> {
    if !f.is_finite() || f.abs() >= 9.223_372_036_854_776e18 {
        return Err(Error::new(
            ErrorKind::Overflow,
            format!(
                "cannot convert {} to an int",
                crate::array::format::float_repr(f)
            ),
        ));
    }
    Ok(Value::Int(f.trunc() as i64))
}

fn to_float(_: &mut Interpreter, args: Args) -> Result<Value> {
    match args.required(0) {
        Value::Str(s) => match s.trim() {
            "inf" | "+inf" => Ok(Value::Float(f64::INFINITY)),
            "-inf" => Ok(Value::Float(f64::NEG_INFINITY)),
            "nan" => Ok(Value::Float(f64::NAN)),
            t => t
                .parse()
                .map(Value::Float)
                .map_err(|_| value_error(format!("could not convert string to float: \"{s}\""))),
        },
        Value::Array(a) => Ok(Value::Float(a.item()?.as_f64())),
        other => Ok(Value::Float(scalar_arg(other)?.as_f64())),
    }
}

fn to_str(_: &mut Interpreter, args: Args) -> Result<Value> {
    Ok(Value::Str(args.required(0).to_display().into()))
}

fn astype(interp: &mut Interpreter, args: Args) -> Result<Value> {
    let x = array_arg(interp, args.required(0))?;
    x.astype(dtype_arg(args.required(1))?).map(Value::array)
}

fn to(interp: &mut Interpreter, args: Args) -> Result<Value> {
    let device = device_arg(args.required(1))?;
    let x = array_arg(interp, args.required(0))?;
    // Always a new array, as its help says: on the same device, a copy.
    if x.device() == device {
        return x.copy().map(Value::array);
    }
    x.to_device(device).map(Value::array)
}

static START: LazyLock<Instant> = LazyLock::new(Instant::now);

/// Starts the clock that `clock()` reads, so the first call does not pay for it.
pub fn start_clock() {
    LazyLock::force(&START);
}

fn clock(_: &mut Interpreter, _: Args) -> Result<Value> {
    Ok(Value::Float(START.elapsed().as_secs_f64()))
}

fn sync(_: &mut Interpreter, _: Args) -> Result<Value> {
    crate::device::synchronize()?;
    Ok(Value::None)
}

fn devices(_: &mut Interpreter, _: Args) -> Result<Value> {
    let mut list = vec![Value::Device(Device::Cpu)];
    if crate::device::gpu::availability().is_ok() {
        list.push(Value::Device(Device::Gpu));
    }
    Ok(Value::List(Rc::new(list)))
}

fn assert(_: &mut Interpreter, args: Args) -> Result<Value> {
    if convert::truth(args.required(0))? {
        return Ok(Value::None);
    }
    let message = args
        .get(1)
        .map(Value::to_display)
        .unwrap_or_else(|| "assertion failed".into());
    Err(Error::new(ErrorKind::Assertion, message))
}

fn path_arg(v: &Value) -> Result<std::path::PathBuf> {
    match v {
        Value::Str(s) => Ok(std::path::PathBuf::from(&**s)),
        other => Err(type_error(format!(
            "a file name must be a str, not {}",
            other.a_kind()
        ))),
    }
}

fn save(interp: &mut Interpreter, args: Args) -> Result<Value> {
    let path = path_arg(args.required(0))?;
    let x = array_arg(interp, args.required(1))?.to_device(Device::Cpu)?;
    let result = match x.dtype() {
        DType::F64 => x.with_view::<f64, _>(|v| npy::save(&path, NpyView::F64(v))),
        DType::F32 => x.with_view::<f32, _>(|v| npy::save(&path, NpyView::F32(v))),
        DType::I64 => x.with_view::<i64, _>(|v| npy::save(&path, NpyView::I64(v))),
        DType::Bool => x.with_view::<bool, _>(|v| npy::save(&path, NpyView::Bool(v))),
    };
    result.map_err(crate::error::io_error)?;
    Ok(Value::None)
}

fn load(interp: &mut Interpreter, args: Args) -> Result<Value> {
    let path = path_arg(args.required(0))?;
    let device = device_or_default(interp, &args, 1)?;
    let host = match npy::load(&path).map_err(crate::error::io_error)? {
        NpyData::F64(a) => Array::from_ndarray(a),
        NpyData::F32(a) => Array::from_ndarray(a),
        NpyData::I64(a) => Array::from_ndarray(a),
        NpyData::Bool(a) => Array::from_ndarray(a),
    };
    host.to_device(device).map(Value::array)
}

fn where_builtin(interp: &mut Interpreter, args: Args) -> Result<Value> {
    let cond = array_arg(interp, args.required(0))?;
    let a = operand_arg(interp, args.required(1))?;
    let b = operand_arg(interp, args.required(2))?;
    ops::where_(&cond, a.as_operand(), b.as_operand()).map(Value::array)
}

fn clip(interp: &mut Interpreter, args: Args) -> Result<Value> {
    let x = array_arg(interp, args.required(0))?;
    let lo = operand_arg(interp, args.required(1))?;
    let hi = operand_arg(interp, args.required(2))?;
    let low = ops::extremum(Operand::Array(&x), lo.as_operand(), true)?;
    let clipped = ops::extremum(Operand::Array(&low), hi.as_operand(), false)?;
    scalar_or_array(is_array_input(args.required(0)), clipped)
}

fn two_arrays(interp: &mut Interpreter, args: &Args) -> Result<(Array, Array)> {
    Ok((
        array_arg(interp, args.required(0))?,
        array_arg(interp, args.required(1))?,
    ))
}

fn product_value(result: Array) -> Result<Value> {
    Ok(Value::array(result))
}

macro_rules! builtin {
    ($name:literal, [$($param:literal),*], $doc:literal, $example:literal, $run:expr) => {
        Builtin { name: $name, params: &[$($param),*], doc: $doc, example: $example, run: $run }
    };
}

macro_rules! unary {
    ($name:literal, $f:ident, $doc:literal, $example:literal) => {
        builtin!($name, ["x"], $doc, $example, |i, a| unary_builtin(
            i,
            &a,
            UnaryFn::$f
        ))
    };
}

macro_rules! reduction {
    ($name:literal, $r:ident, $doc:literal, $example:literal) => {
        builtin!(
            $name,
            ["x", "axis="],
            $doc,
            $example,
            |i, a| reduce_builtin(i, &a, Reduction::$r)
        )
    };
}

static BUILTINS: &[Builtin] = &[
    builtin!("zeros", ["shape", "dtype=", "device="], "An array of zeros (a fill kernel, not a transfer).", "zeros([2, 3])", |i, a| fill_builtin(i, &a, Scalar::Float(0.0), 1)),
    builtin!("ones", ["shape", "dtype=", "device="], "An array of ones.", "ones(1e6, device=cpu)", |i, a| fill_builtin(i, &a, Scalar::Float(1.0), 1)),
    builtin!("empty", ["shape", "dtype=", "device="], "An array whose contents do not matter (arrsh fills it with zeros).", "empty(10)", |i, a| fill_builtin(i, &a, Scalar::Float(0.0), 1)),
    builtin!("full", ["shape", "value", "dtype=", "device="], "An array filled with one value.", "full([2, 2], 7)", |i, a| {
        let value = scalar_arg(a.required(1))?;
        fill_builtin(i, &a, value, 2)
    }),
    builtin!("zeros_like", ["x", "dtype=", "device="], "Zeros with the shape, dtype and device of x.", "zeros_like(x)", |i, a| like_builtin(i, &a, Scalar::Float(0.0))),
    builtin!("ones_like", ["x", "dtype=", "device="], "Ones with the shape, dtype and device of x.", "ones_like(x)", |i, a| like_builtin(i, &a, Scalar::Float(1.0))),
    builtin!("arange", ["start", "stop=", "step=", "dtype=", "device="], "Evenly spaced values in [start, stop) (NumPy's arange).", "arange(0, 10, 2)", arange),
    builtin!("linspace", ["start", "stop", "num=", "dtype=", "device="], "num evenly spaced values from start to stop, both included (num defaults to 50).", "linspace(0, 1, 5)", linspace),
    builtin!("eye", ["n", "dtype=", "device="], "The n×n identity matrix.", "eye(3)", eye),
    builtin!("array", ["values", "dtype=", "device="], "An array from a list (or a copy of an array) on a device.", "array([[1, 2], [3, 4]], dtype=f32)", |i, a| {
        let device = a.get(2).map(device_arg).transpose()?;
        let mut x = match (a.required(0), device) {
            // A copy, as NumPy's array(x) is: never a view of x.
            (Value::Array(x), device) => x.to_device(device.unwrap_or(x.device()))?.copy()?,
            (values, device) => convert::to_array(i, values, device)?,
        };
        if let Some(d) = a.get(1) {
            x = x.astype(dtype_arg(d)?)?;
        }
        Ok(Value::array(x))
    }),
    builtin!("rand", ["shape", "dtype=", "device="], "Uniform random floats in [0, 1).", "rand([3, 3])", |i, a| random_builtin(i, &a, false)),
    builtin!("randn", ["shape", "dtype=", "device="], "Standard normal random floats.", "randn(5)", |i, a| random_builtin(i, &a, true)),
    builtin!("randint", ["low", "high", "shape=", "device="], "Random i64 values in [low, high); without a shape, one host int.", "randint(0, 62, 100)", randint),
    builtin!("seed", ["n"], "Seeds the session's random generator: the same seed gives the same numbers.", "seed(42)", |i, a| {
        let n = count_arg(a.required(0), "seed")?;
        i.rng.seed(n as u64);
        crate::device::gpu::random::seed(n as u64)?;
        Ok(Value::None)
    }),
    unary!("abs", Abs, "Absolute value, elementwise.", "abs([-1, 2])"),
    unary!("sqrt", Sqrt, "Square root, elementwise.", "sqrt(2.0)"),
    unary!("exp", Exp, "e**x, elementwise.", "exp([0.0, 1.0])"),
    unary!("log", Log, "Natural logarithm, elementwise.", "log(exp(2.0))"),
    unary!("log2", Log2, "Base-2 logarithm, elementwise.", "log2(8)"),
    unary!("log10", Log10, "Base-10 logarithm, elementwise.", "log10(1000)"),
    unary!("sin", Sin, "Sine (radians), elementwise.", "sin(linspace(0, 3.14159, 5))"),
    unary!("cos", Cos, "Cosine (radians), elementwise.", "cos(0.0)"),
    unary!("tan", Tan, "Tangent (radians), elementwise.", "tan(0.5)"),
    unary!("tanh", Tanh, "Hyperbolic tangent, elementwise.", "tanh([-1.0, 0.0, 1.0])"),
    unary!("floor", Floor, "Largest whole number not above x, elementwise.", "floor([1.5, -1.5])"),
    unary!("ceil", Ceil, "Smallest whole number not below x, elementwise.", "ceil([1.5, -1.5])"),
    unary!("round", Round, "Nearest whole number, halves to even (NumPy's rule).", "round([0.5, 1.5, 2.5])"),
    unary!("sign", Sign, "-1, 0 or 1 by the sign of x, elementwise.", "sign([-3, 0, 5])"),
    unary!("isnan", IsNan, "True where x is NaN.", "isnan([1.0, 0.0 / 0.0])"),
    unary!("isinf", IsInf, "True where x is infinite.", "isinf([1.0, 1.0 / 0.0])"),
    builtin!("maximum", ["a", "b"], "The larger of a and b, elementwise (NaN wins).", "maximum([1, 5], [4, 2])", |i, a| extremum_builtin(i, &a, true)),
    builtin!("minimum", ["a", "b"], "The smaller of a and b, elementwise (NaN wins).", "minimum([1, 5], 3)", |i, a| extremum_builtin(i, &a, false)),
    builtin!("where", ["cond", "a", "b"], "Elements of a where cond is true, else of b.", "where(x > 0, x, 0)", where_builtin),
    builtin!("clip", ["x", "lo", "hi"], "x limited to [lo, hi], elementwise.", "clip(arange(10), 2, 7)", clip),
    reduction!("sum", Sum, "Sum of the elements (a host scalar), or along an axis (an array).", "sum(ones([2, 3]), axis=0)"),
    reduction!("prod", Prod, "Product of the elements, or along an axis.", "prod([1, 2, 3, 4])"),
    reduction!("mean", Mean, "Arithmetic mean, or along an axis.", "mean([1, 2, 3, 4])"),
    reduction!("std", Std, "Standard deviation (ddof=0), or along an axis.", "std([1, 2, 3, 4])"),
    reduction!("var", Var, "Variance (ddof=0), or along an axis.", "var([1, 2, 3, 4])"),
    reduction!("min", Min, "Smallest element, or along an axis.", "min([3, 1, 2])"),
    reduction!("max", Max, "Largest element, or along an axis.", "max([[1, 5], [7, 2]], axis=1)"),
    reduction!("argmin", ArgMin, "Position of the smallest element (flattened), or along an axis.", "argmin([3, 1, 2])"),
    reduction!("argmax", ArgMax, "Position of the largest element (flattened), or along an axis.", "argmax([3, 1, 2])"),
    reduction!("any", Any, "True if any element is true (non-zero), or along an axis.", "any([0, 0, 1])"),
    reduction!("all", All, "True if every element is true (non-zero), or along an axis.", "all([1, 1, 0])"),
    builtin!("cumsum", ["x", "axis="], "Running sums; without an axis, over the flattened array.", "cumsum([1, 2, 3])", |i, a| {
        let x = array_arg(i, a.required(0))?;
        reduce::cumsum(&x, axis_arg(&a, 1)?).map(Value::array)
    }),
    builtin!("reshape", ["x", "shape"], "The elements of x with a new shape (one dimension may be -1).", "reshape(arange(6), [2, 3])", |i, a| {
        let x = array_arg(i, a.required(0))?;
        let dims: Vec<i64> = match a.required(1) {
            Value::List(items) | Value::Tuple(items) => items.iter().map(|d| count_arg(d, "a dimension")).collect::<Result<_>>()?,
            other => vec![count_arg(other, "a shape")?],
        };
        array::shape::reshape(&x, &dims).map(Value::array)
    }),
    builtin!("ravel", ["x"], "The elements of x as a 1-d array.", "ravel([[1, 2], [3, 4]])", |i, a| {
        array::shape::ravel(&array_arg(i, a.required(0))?).map(Value::array)
    }),
    builtin!("transpose", ["x"], "x with its axes reversed (a view; also x.T).", "transpose([[1, 2], [3, 4]])", |i, a| {
        Ok(Value::array(array::shape::transpose(&array_arg(i, a.required(0))?)))
    }),
    builtin!("concatenate", ["arrays", "axis="], "Joins arrays along an existing axis.", "concatenate([ones(2), zeros(3)])", |i, a| {
        let arrays = arrays_arg(i, a.required(0))?;
        array::shape::concatenate(&arrays, axis_arg(&a, 1)?.unwrap_or(0)).map(Value::array)
    }),
    builtin!("stack", ["arrays", "axis="], "Joins arrays of one shape along a new axis.", "stack([ones(2), zeros(2)], axis=1)", |i, a| {
        let arrays = arrays_arg(i, a.required(0))?;
        array::shape::stack(&arrays, axis_arg(&a, 1)?.unwrap_or(0)).map(Value::array)
    }),
    builtin!("len", ["x"], "Length of a str, list, range or an array's first axis.", "len(\"abc\")", len),
    builtin!("matmul", ["a", "b"], "Matrix product (also a @ b): BLAS-class on the cpu.", "matmul(eye(2), [[1, 2], [3, 4]])", |i, a| {
        let (x, y) = two_arrays(i, &a)?;
        product_value(array::linalg::matmul(&x, &y)?)
    }),
    builtin!("dot", ["a", "b"], "Dot product of 1-d arrays; matrix product otherwise.", "dot([1, 2, 3], [4, 5, 6])", |i, a| {
        let (x, y) = two_arrays(i, &a)?;
        product_value(array::linalg::matmul(&x, &y)?)
    }),
    builtin!("outer", ["a", "b"], "Outer product: out[i, j] = a[i] * b[j].", "outer([1, 2], [3, 4, 5])", |i, a| {
        let (x, y) = two_arrays(i, &a)?;
        product_value(array::linalg::outer(&x, &y)?)
    }),
    builtin!("conv2d", ["image", "kernel"], "2-d \"same\" correlation with zero padding (an image filter).", "conv2d(rand([64, 64]), ones([3, 3]) / 9)", |i, a| {
        let (x, k) = two_arrays(i, &a)?;
        array::linalg::conv2d(&x, &k).map(Value::array)
    }),
    builtin!("astype", ["x", "dtype"], "A copy of x converted to dtype.", "astype([1.7, -1.7], i64)", astype),
    builtin!("int", ["x"], "An int from a number, a str or a one-element array (truncates).", "int(3.9)", to_int),
    builtin!("float", ["x"], "A float from a number, a str or a one-element array.", "float(\"2.5\")", to_float),
    builtin!("str", ["x"], "The text print would show for x.", "str([1, 2])", to_str),
    builtin!("to", ["x", "device"], "A copy of x on device: one counted transfer of x.nbytes.", "to(x, gpu)", to),
    builtin!("sync", [], "Waits until the device has finished all queued work.", "sync()", sync),
    builtin!("clock", [], "Host wall-clock seconds. It does not wait for the gpu: time gpu work with sync() or :time.", "t = clock(); x *= 5; sync(); print(clock() - t)", clock),
    builtin!("devices", [], "The devices this session can use.", "devices()", devices),
    builtin!("print", ["*values"], "Prints values separated by spaces (arrays as NumPy's str).", "print(\"x =\", [1, 2])", print),
    builtin!("range", ["start", "stop=", "step="], "Integers from start (default 0) up to stop, by step.", "for i in range(3) { print(i) }", range),
    builtin!("assert", ["cond", "message="], "Stops with an error when cond is false.", "assert(sum(ones(3)) == 3, \"ones\")", assert),
    builtin!("save", ["path", "x"], "Writes x to a NumPy .npy file.", "save(\"x.npy\", arange(5))", save),
    builtin!("load", ["path", "device="], "Reads a NumPy .npy file.", "load(\"x.npy\", device=cpu)", load),
];
