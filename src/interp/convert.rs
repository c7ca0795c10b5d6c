//! Conversions between interpreter values and what the array layer takes: operands, arrays from
//! literals, truth values, indices, attributes.

use std::rc::Rc;

use crate::array::ops::Operand;
use crate::array::Array;
use crate::base::{DType, Scalar};
use crate::device::Device;
use crate::error::{type_error, value_error, Result};

use super::value::Value;
use super::Interpreter;

/// An operand that owns its array, for the time of one operation.
pub enum OwnedOperand {
    Array(Rc<Array>),
    Scalar(Scalar),
}

impl OwnedOperand {
    pub fn as_operand(&self) -> Operand<'_> {
        match self {
            OwnedOperand::Array(a) => Operand::Array(a),
            OwnedOperand::Scalar(s) => Operand::Scalar(*s),
        }
    }
}

pub fn operand(interp: &mut Interpreter, value: &Value) -> Result<OwnedOperand> {
    match value {
        Value::Array(a) => Ok(OwnedOperand::Array(a.clone())),
        Value::List(_) | Value::Tuple(_) => {
            Ok(OwnedOperand::Array(Rc::new(to_array(interp, value, None)?)))
        }
        other => other.as_scalar().map(OwnedOperand::Scalar).ok_or_else(|| {
            type_error(format!(
                "expected a number or an array, got {}",
                other.a_kind()
            ))
        }),
    }
}

/// An array from any array-like value; lists and scalars are made on `device` (default: the session's).
pub fn to_array(interp: &mut Interpreter, value: &Value, asked: Option<Device>) -> Result<Array> {
    let device = asked.unwrap_or(interp.default_device);
    match value {
        Value::Array(a) => Ok((**a).clone()),
        Value::List(items) | Value::Tuple(items) => {
            if items.iter().any(|v| matches!(v, Value::Array(_))) {
                // Rows that are arrays stay where they are, unless a device is asked for.
                let stacked = stack_arrays(items)?;
                return match asked {
                    Some(d) => stacked.to_device(d),
                    None => Ok(stacked),
                };
            }
            let (shape, data, dtype) = nested_numbers(items)?;
            let host = host_array(&data, shape, dtype);
            host.to_device(device)
        }
        other => match other.as_scalar() {
            Some(s) => Array::scalar(s, device),
            None => Err(type_error(format!(
                "expected an array, got {}",
                other.a_kind()
            ))),
        },
    }
}

fn stack_arrays(items: &[Value]) -> Result<Array> {
    let arrays = items
        .iter()
        .map(|v| match v {
            Value::Array(a) => Ok((**a).clone()),
            other => Err(type_error(format!(
                "a list mixing arrays and {} cannot become an array",
                other.a_kind()
            ))),
        })
        .collect::<Result<Vec<_>>>()?;
    crate::array::join::stack(&arrays, 0)
}

fn host_array(data: &[Scalar], shape: Vec<usize>, dtype: DType) -> Array {
    crate::with_dtype!(dtype, T => Array::from_vec(data.iter().map(|s| s.cast::<T>()).collect(), shape))
}

/// Shape, elements (C order) and dtype of a nested list of numbers.
fn nested_numbers(items: &[Value]) -> Result<(Vec<usize>, Vec<Scalar>, DType)> {
    let mut data = Vec::new();
    let mut dtype = DType::Bool;
    let mut shape: Option<Vec<usize>> = None;
    let mut saw_float = false;
    let mut saw_int = false;
    let mut saw_complex = false;
    for item in items {
        let (item_shape, item_data) = match item {
            Value::List(inner) | Value::Tuple(inner) => {
                let (s, d, t) = nested_numbers(inner)?;
                dtype = dtype.promote(t);
                (s, d)
            }
            other => {
                let s = other.as_scalar().ok_or_else(|| {
                    type_error(format!(
                        "an array literal holds numbers and bools, not {}",
                        other.a_kind()
                    ))
                })?;
                match s {
                    Scalar::Complex(..) => saw_complex = true,
                    Scalar::Float(_) => saw_float = true,
                    Scalar::Int(_) | Scalar::UInt(_) => saw_int = true,
                    Scalar::Bool(_) => {}
                }
                (vec![], vec![s])
            }
        };
        match &shape {
            None => shape = Some(item_shape),
            Some(s) if *s != item_shape => {
                return Err(value_error(
                    "the list has an inhomogeneous shape: every row needs the same length",
                ))
            }
            _ => {}
        }
        data.extend(item_data);
    }
    if saw_complex {
        dtype = dtype.promote(DType::C128);
    } else if saw_float {
        dtype = dtype.promote(DType::F64);
    } else if saw_int {
        dtype = dtype.promote(DType::I64);
    }
    if items.is_empty() {
        dtype = DType::F64;
    }
    let mut full_shape = vec![items.len()];
    full_shape.extend(shape.unwrap_or_default());
    crate::base::layout::shape_size(&full_shape)?;
    Ok((full_shape, data, dtype))
}

/// The array a list of numbers (or of arrays) stands for, made on the cpu; `None` when the
/// list holds anything else. A list literal passed to a function prints as this array.
pub fn list_as_host_array(items: &[Value]) -> Option<Array> {
    if items.iter().any(|v| matches!(v, Value::Array(_))) {
        return stack_arrays(items).ok();
    }
    let (shape, data, dtype) = nested_numbers(items).ok()?;
    Some(host_array(&data, shape, dtype))
}

/// `[ ... ]` in an expression: an array on the default device when it holds numbers (or arrays,
/// which are stacked), else a host list.
pub fn list_literal(interp: &mut Interpreter, values: Vec<Value>) -> Result<Value> {
    fn numeric(v: &Value) -> bool {
        match v {
            Value::List(items) => items.iter().all(numeric),
            Value::Array(_) => true,
            other => other.as_scalar().is_some(),
        }
    }
    if values.iter().all(numeric) {
        let list = Value::List(Rc::new(values));
        return Ok(Value::array(to_array(interp, &list, None)?));
    }
    Ok(Value::List(Rc::new(values)))
}

/// The value of an `if`/`while` condition or an operand of `and`/`or`/`not`: a host bool or
/// number, or an array of one element.
pub fn condition(value: &Value) -> Result<bool> {
    match value {
        Value::Bool(_) | Value::Int(_) | Value::Float(_) | Value::Complex(..) | Value::Array(_) => {
            truth(value)
        }
        other => Err(type_error(format!(
            "a condition needs a bool or a number, not {}",
            other.a_kind()
        ))),
    }
}

/// Python's truth of any value (`bool(x)`).
pub fn truth(value: &Value) -> Result<bool> {
    Ok(match value {
        Value::Bool(b) => *b,
        Value::Int(i) => *i != 0,
        Value::Float(f) => *f != 0.0,
        Value::Complex(re, im) => *re != 0.0 || *im != 0.0,
        Value::None => false,
        Value::Str(s) => !s.is_empty(),
        Value::List(items) | Value::Tuple(items) => !items.is_empty(),
        Value::Array(a) => {
            if a.size() != 1 {
                return Err(value_error(format!(
                    "the truth value of an array with {} elements is ambiguous; use any() or all()",
                    a.size()
                )));
            }
            !a.item()?.is_zero()
        }
        _ => true,
    })
}

/// An integer index: an int or a bool; floats are refused, as NumPy refuses them.
pub fn index_int(value: &Value) -> Result<i64> {
    match value {
        Value::Int(i) => Ok(*i),
        Value::Bool(b) => Ok(*b as i64),
        Value::Array(a) if a.ndim() == 0 && (a.dtype().is_integer() || a.dtype().is_bool()) => {
            match a.item()? {
                Scalar::Int(i) => Ok(i),
                Scalar::Bool(b) => Ok(b as i64),
                _ => Err(type_error("index out of the range of a 64-bit int")),
            }
        }
        other => Err(type_error(format!(
            "indices must be integers, not {}",
            other.a_kind()
        ))),
    }
}

/// `.shape .dtype .device .ndim .size .nbytes .T`
pub fn attribute(value: &Value, name: &str) -> Result<Value> {
    if let Value::Record(r) = value {
        return r
            .fields
            .iter()
            .find(|(field, _)| *field == name)
            .map(|(_, v)| v.clone())
            .ok_or_else(|| {
                let names: Vec<&str> = r.fields.iter().map(|(f, _)| *f).collect();
                type_error(format!(
                    "{} has no attribute `{name}` (attributes: {})",
                    r.kind,
                    names.join(" ")
                ))
            });
    }
    if let Value::Namespace(ns) = value {
        return ns.member(name).map(Value::Builtin).ok_or_else(|| {
            type_error(format!(
                "{} has no member `{name}` (:help {} lists them)",
                ns.name, ns.name
            ))
        });
    }
    let Value::Array(a) = value else {
        return Err(type_error(format!(
            "{} has no attribute `{name}`",
            value.a_kind()
        )));
    };
    Ok(match name {
        "shape" => Value::Tuple(Rc::new(a.shape().iter().map(|&n| Value::Int(n as i64)).collect())),
        "dtype" => Value::DType(a.dtype()),
        "device" => Value::Device(a.device()),
        "ndim" => Value::Int(a.ndim() as i64),
        "size" => Value::Int(a.size() as i64),
        "nbytes" => Value::Int(a.nbytes() as i64),
        "T" => Value::array(crate::array::shape::transpose(a)),
        "mT" => Value::array(crate::array::shape::matrix_transpose(a)?),
        "real" => Value::array(crate::array::ops::real(a)?),
        "imag" => Value::array(crate::array::ops::imag(a)?),
        _ => {
            return Err(type_error(format!(
                "an array has no attribute `{name}` (attributes: shape dtype device ndim size nbytes T mT real imag)"
            )))
        }
    })
}
