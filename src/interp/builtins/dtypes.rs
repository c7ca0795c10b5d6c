//! Data types (the standard's data type functions): limits of the number types, casting and
//! promotion questions, answered on the host.

use std::rc::Rc;

use super::{builtin, dtype_arg, Args, Builtin};
use crate::array::format::{float16_repr, float32_repr, float_repr};
use crate::array::Array;
use crate::base::dtype::{integer_range, with_weak, Casting};
use crate::base::{DType, Scalar};
use crate::device::Device;
use crate::error::{type_error, value_error, Result};
use crate::interp::value::{Record, Value};
use half::f16;

pub fn builtins() -> Vec<Builtin> {
    vec![
        builtin!(
            "finfo",
            ["dtype"],
            "The limits of a float dtype: .bits .eps .max .min .tiny .smallest_normal .resolution .precision .dtype.",
            "finfo(f32).eps",
            |_, a| finfo(dtype_of(a.required(0))?)
        ),
        builtin!(
            "iinfo",
            ["dtype"],
            "The limits of an integer dtype: .bits .min .max .dtype.",
            "iinfo(i8).max",
            |_, a| iinfo(dtype_of(a.required(0))?)
        ),
        builtin!(
            "can_cast",
            ["from_", "to", "casting="],
            "True when values of dtype from_ convert to dtype to under the rule (\"safe\" by default, \"same_kind\", \"unsafe\", \"no\").",
            "can_cast(i32, f64)",
            |_, a| {
                let (from, to) = (dtype_of(a.required(0))?, dtype_of(a.required(1))?);
                let rule = match a.get(2) {
                    None => "safe".to_string(),
                    Some(Value::Str(s)) => s.to_string(),
                    Some(other) => return Err(type_error(format!("casting must be a string, not {}", other.describe()))),
                };
                Ok(Value::Bool(match rule.as_str() {
                    "no" | "equiv" => from == to,
                    "safe" => from.can_cast(to, Casting::Safe),
                    "same_kind" => from.can_cast(to, Casting::SameKind),
                    "unsafe" => true,
                    other => return Err(value_error(format!("casting must be one of 'no', 'equiv', 'safe', 'same_kind', or 'unsafe', not '{other}'"))),
                }))
            }
        ),
        builtin!(
            "isdtype",
            ["dtype", "kind"],
            "True when the dtype is of the kind: a dtype, \"bool\", \"signed integer\", \"unsigned integer\", \"integral\", \"real floating\", \"complex floating\", \"numeric\", or a list of these.",
            "isdtype(f32, \"real floating\")",
            |_, a| {
                let dtype = dtype_of(a.required(0))?;
                is_kind(dtype, a.required(1)).map(Value::Bool)
            }
        ),
        builtin!(
            "result_type",
            ["*arrays_and_dtypes"],
            "The dtype NumPy's promotion gives for the arrays, dtypes and numbers together.",
            "result_type(i8, f32)",
            result_type
        ),
    ]
}

/// A dtype, or an array's dtype.
fn dtype_of(v: &Value) -> Result<DType> {
    match v {
        Value::Array(a) => Ok(a.dtype()),
        other => dtype_arg(other),
    }
}

fn record(kind: &'static str, repr: String, fields: Vec<(&'static str, Value)>) -> Value {
    Value::Record(Rc::new(Record { kind, repr, fields }))
}

/// A value of `dtype` as NumPy would give it: a host float for float64, else a 0-d array.
fn typed(x: f64, dtype: DType) -> Result<Value> {
    match dtype {
        DType::F64 => Ok(Value::Float(x)),
        d => Ok(Value::array(Array::full(
            &[],
            Scalar::Float(x),
            d,
            Device::Cpu,
        )?)),
    }
}

fn finfo(dtype: DType) -> Result<Value> {
    let real = dtype.real();
    let (bits, eps, max, tiny, precision): (u32, f64, f64, f64, i32) = match real {
        DType::F16 => (
            16,
            f16::EPSILON.to_f64(),
            f16::MAX.to_f64(),
            f16::MIN_POSITIVE.to_f64(),
            3,
        ),
        DType::F32 => (
            32,
            f32::EPSILON as f64,
            f32::MAX as f64,
            f32::MIN_POSITIVE as f64,
            6,
        ),
        DType::F64 => (64, f64::EPSILON, f64::MAX, f64::MIN_POSITIVE, 15),
        other => return Err(value_error(format!("data type {other} not inexact"))),
    };
    let resolution = 10f64.powi(-precision);
    let text = |x: f64| match real {
        DType::F16 => format!("{:.5e}", x).replace("e", "e+0"),
        DType::F32 => float32_repr(x as f32),
        _ => float_repr(x),
    };
    let resolution_text = match real {
        DType::F16 => float16_repr(f16::from_f64(resolution)),
        DType::F32 => float32_repr(resolution as f32),
        _ => float_repr(resolution),
    };
    let repr = format!(
        "finfo(resolution={resolution_text}, min=-{}, max={}, dtype={})",
        text(max),
        text(max),
        real.numpy_name()
    );
    Ok(record(
        "finfo",
        repr,
        vec![
            ("bits", Value::Int(bits as i64)),
            ("eps", typed(eps, real)?),
            ("max", typed(max, real)?),
            ("min", typed(-max, real)?),
            ("tiny", typed(tiny, real)?),
            ("smallest_normal", typed(tiny, real)?),
            ("resolution", typed(resolution, real)?),
            ("precision", Value::Int(precision as i64)),
            ("dtype", Value::DType(real)),
        ],
    ))
}

fn iinfo(dtype: DType) -> Result<Value> {
    if !dtype.is_integer() {
        return Err(value_error(format!(
            "Invalid integer data type '{}'.",
            dtype.char()
        )));
    }
    let (low, high) = integer_range(dtype);
    let int = |x: i128| match i64::try_from(x) {
        Ok(i) => Value::Int(i),
        Err(_) => Value::from_scalar(Scalar::UInt(x as u64)),
    };
    let repr = format!("iinfo(min={low}, max={high}, dtype={})", dtype.numpy_name());
    Ok(record(
        "iinfo",
        repr,
        vec![
            ("bits", Value::Int(dtype.bits() as i64)),
            ("min", int(low)),
            ("max", int(high)),
            ("dtype", Value::DType(dtype)),
        ],
    ))
}

fn is_kind(dtype: DType, kind: &Value) -> Result<bool> {
    Ok(match kind {
        Value::DType(d) => dtype == *d,
        Value::List(items) | Value::Tuple(items) => {
            for k in items.iter() {
                if is_kind(dtype, k)? {
                    return Ok(true);
                }
            }
            false
        }
        Value::Str(s) => match &**s {
            "bool" => dtype == DType::Bool,
            "signed integer" => dtype.is_integer() && dtype.is_signed(),
            "unsigned integer" => dtype.is_integer() && !dtype.is_signed(),
            "integral" => dtype.is_integer(),
            "real floating" => dtype.is_float(),
            "complex floating" => dtype.is_complex(),
            "numeric" => dtype != DType::Bool,
            other => return Err(value_error(format!("kind argument must be a dtype or one of 'bool', 'signed integer', 'unsigned integer', 'integral', 'real floating', 'complex floating', 'numeric', not '{other}'"))),
        },
        other => return Err(type_error(format!("kind must be a dtype, a string or a list of them, not {}", other.describe()))),
    })
}

fn result_type(_: &mut crate::interp::Interpreter, args: Args) -> Result<Value> {
    let mut strong: Option<DType> = None;
    let mut weak = Vec::new();
    for v in &args.rest {
        match v {
            Value::Array(a) => strong = Some(strong.map_or(a.dtype(), |s| s.promote(a.dtype()))),
            Value::DType(d) => strong = Some(strong.map_or(*d, |s| s.promote(*d))),
            other => match other.as_scalar() {
                Some(s) => weak.push(s.weak_kind()),
                None => {
                    return Err(type_error(format!(
                        "result_type takes arrays, dtypes and numbers, not {}",
                        other.a_kind()
                    )))
                }
            },
        }
    }
    let dtype = match strong {
        Some(s) => weak.into_iter().fold(s, with_weak),
        None => match weak.into_iter().max() {
            Some(k) => k.default_dtype(),
            None => return Err(value_error("at least one array or dtype is required")),
        },
    };
    Ok(Value::DType(dtype))
}
