//! Host work: printing, conversions, ranges, assertions, files, and the devices and the clock.

use std::rc::Rc;
use std::sync::LazyLock;
use std::time::Instant;

use super::{
    array_arg, builtin, count_arg, device_arg, device_or_default, dtype_arg, scalar_arg, Args,
    Builtin,
};
use crate::array::Array;
use crate::base::Scalar;
use crate::device::cpu::npy::{self, ArrayVisitor, NpyView};
use crate::device::Device;
use crate::error::{type_error, value_error, Error, ErrorKind, Result};
use crate::interp::convert;
use crate::interp::host_ops::range_len;
use crate::interp::value::Value;
use crate::interp::Interpreter;
use crate::with_dtype;

pub fn builtins() -> Vec<Builtin> {
    vec![
        builtin!(
            "astype",
            ["x", "dtype"],
            "A copy of x converted to dtype.",
            "astype([1.7, -1.7], i64)",
            |i, a| {
                let x = array_arg(i, a.required(0))?;
                x.astype(dtype_arg(a.required(1))?).map(Value::array)
            }
        ),
        builtin!(
            "int",
            ["x"],
            "An int from a number, a str or a one-element array (truncates).",
            "int(3.9)",
            |_, a| int_of(a.required(0))
        ),
        builtin!(
            "float",
            ["x"],
            "A float from a number, a str or a one-element array.",
            "float(\"2.5\")",
            |_, a| float_of(a.required(0))
        ),
        builtin!(
            "complex",
            ["real", "imag="],
            "A complex number from its parts.",
            "complex(1, 2)",
            |_, a| {
                let re = scalar_arg(a.required(0))?.as_complex();
                let im = a
                    .get(1)
                    .map(scalar_arg)
                    .transpose()?
                    .map_or(0.0, |s| s.as_f64());
                Ok(Value::Complex(re.re, re.im + im))
            }
        ),
        builtin!(
            "str",
            ["x"],
            "The text print would show for x.",
            "str([1, 2])",
            |_, a| Ok(Value::Str(a.required(0).to_display()?.into()))
        ),
        builtin!(
            "print",
            ["*values"],
            "Prints values separated by spaces (arrays as NumPy's str).",
            "print(\"x =\", [1, 2])",
            print
        ),
        builtin!(
            "range",
            ["start", "stop=", "step="],
            "Integers from start (default 0) up to stop, by step.",
            "for i in range(3) { print(i) }",
            range
        ),
        builtin!(
            "len",
            ["x"],
            "Length of a str, list, range or an array's first axis.",
            "len(\"abc\")",
            len
        ),
        builtin!(
            "assert",
            ["cond", "message="],
            "Stops with an error when cond is false.",
            "assert(sum(ones(3)) == 3, \"ones\")",
            assert
        ),
        builtin!(
            "save",
            ["path", "x"],
            "Writes x to a NumPy .npy file.",
            "save(\"x.npy\", arange(5))",
            save
        ),
        builtin!(
            "load",
            ["path", "device="],
            "Reads a NumPy .npy file.",
            "load(\"x.npy\", device=cpu)",
            load
        ),
    ]
}

pub fn device_builtins() -> Vec<Builtin> {
    vec![
        builtin!("to", ["x", "device"], "A copy of x on device: one counted transfer of x.nbytes.", "to(x, gpu)", to),
        builtin!("to_device", ["x", "device"], "The standard's name for to (x.to_device(gpu)).", "x.to_device(gpu)", to),
        builtin!("sync", [], "Runs deferred work and waits until the device has finished all queued work.", "sync()", |_, _| {
            crate::plan::flush()?;
            crate::device::synchronize()?;
            Ok(Value::None)
        }),
        builtin!("clock", [], "Host wall-clock seconds. It does not wait for the gpu: time gpu work with sync() or :time.", "t = clock(); x *= 5; sync(); print(clock() - t)", |_, _| {
            // Deferred work is started (on the gpu: queued, not waited for), so that a timer
            // measures what eager code would.
            crate::plan::flush()?;
            Ok(Value::Float(START.elapsed().as_secs_f64()))
        }),
        builtin!("devices", [], "The devices this session can use.", "devices()", |_, _| {
            let mut list = vec![Value::Device(Device::Cpu)];
            if crate::device::gpu::availability().is_ok() {
                list.push(Value::Device(Device::Gpu));
            }
            Ok(Value::List(Rc::new(list)))
        }),
    ]
}

static START: LazyLock<Instant> = LazyLock::new(Instant::now);

/// Starts the clock that `clock()` reads, so the first call does not pay for it.
pub fn start_clock() {
    LazyLock::force(&START);
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
    let text: Vec<String> = args
        .rest
        .iter()
        .map(Value::to_display)
        .collect::<Result<_>>()?;
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

/// `int(x)`: truncates floats; a one-element array is read to the host.
pub fn int_of(value: &Value) -> Result<Value> {
    match value {
        Value::Int(i) => Ok(Value::Int(*i)),
        Value::Bool(b) => Ok(Value::Int(*b as i64)),
        Value::Float(f) => float_to_int(*f),
        Value::Complex(..) => Err(type_error("int() of a complex number")),
        Value::Str(s) => s
            .trim()
            .replace('_', "")
            .parse()
            .map(Value::Int)
            .map_err(|_| value_error(format!("invalid literal for int(): \"{s}\""))),
        Value::Array(a) => match a.item()? {
            Scalar::Float(f) => float_to_int(f),
            Scalar::Complex(..) => Err(type_error("int() of a complex number")),
            Scalar::UInt(u) => Err(Error::new(
                ErrorKind::Overflow,
                format!("{u} does not fit in an int (arr's ints are 64-bit)"),
            )),
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

/// `float(x)`.
pub fn float_of(value: &Value) -> Result<Value> {
    match value {
        Value::Str(s) => match s.trim() {
            "inf" | "+inf" => Ok(Value::Float(f64::INFINITY)),
            "-inf" => Ok(Value::Float(f64::NEG_INFINITY)),
            "nan" => Ok(Value::Float(f64::NAN)),
            t => t
                .parse()
                .map(Value::Float)
                .map_err(|_| value_error(format!("could not convert string to float: \"{s}\""))),
        },
        Value::Complex(..) => Err(type_error("float() of a complex number")),
        Value::Array(a) => match a.item()? {
            Scalar::Complex(..) => Err(type_error("float() of a complex number")),
            s => Ok(Value::Float(s.as_f64())),
        },
        other => Ok(Value::Float(scalar_arg(other)?.as_f64())),
    }
}

fn assert(_: &mut Interpreter, args: Args) -> Result<Value> {
    if convert::truth(args.required(0))? {
        return Ok(Value::None);
    }
    let message = match args.get(1) {
        Some(m) => m.to_display()?,
        None => "assertion failed".into(),
    };
    Err(Error::new(ErrorKind::Assertion, message))
}

pub(super) fn path_arg(v: &Value) -> Result<std::path::PathBuf> {
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
    with_dtype!(x.dtype(), T => x.with_view::<T, _>(|v| npy::save(&path, NpyView::from(v)))?)
        .map_err(crate::error::io_error)?;
    Ok(Value::None)
}

struct ToArray;

impl ArrayVisitor for ToArray {
    type Output = Array;
    fn visit<T: crate::device::cpu::CpuElement>(self, array: ndarray::ArrayD<T>) -> Array {
        Array::from_ndarray(array)
    }
}

fn load(interp: &mut Interpreter, args: Args) -> Result<Value> {
    let path = path_arg(args.required(0))?;
    let device = device_or_default(interp, &args, 1)?;
    let host = npy::load(&path)
        .map_err(crate::error::io_error)?
        .visit(ToArray);
    host.to_device(device).map(Value::array)
}
