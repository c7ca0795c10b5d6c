//! Operators on host values (ints, floats, bools, strings), and the hand-off to the array layer
//! as soon as an array is involved.

use std::rc::Rc;

use crate::array::ops::{self, UnaryFn};
use crate::error::{overflow_error, type_error, Result};
use crate::syntax::ast::BinOp;

use super::convert::{self, OwnedOperand};
use super::value::Value;
use super::Interpreter;

/// Int and float arithmetic without the general dispatch: the interpreter's hot path.
#[inline(always)]
pub fn fast_numeric(op: BinOp, l: &Value, r: &Value) -> Option<Value> {
    let (a, b) = match (l, r) {
        (Value::Float(a), Value::Float(b)) => (*a, *b),
        (Value::Int(a), Value::Float(b)) => (*a as f64, *b),
        (Value::Float(a), Value::Int(b)) => (*a, *b as f64),
        (Value::Int(a), Value::Int(b)) => {
            return match op {
                BinOp::Add => a.checked_add(*b).map(Value::Int),
                BinOp::Sub => a.checked_sub(*b).map(Value::Int),
                BinOp::Mul => a.checked_mul(*b).map(Value::Int),
                BinOp::Lt => Some(Value::Bool(a < b)),
                BinOp::Le => Some(Value::Bool(a <= b)),
                BinOp::Gt => Some(Value::Bool(a > b)),
                BinOp::Ge => Some(Value::Bool(a >= b)),
                BinOp::Eq => Some(Value::Bool(a == b)),
                BinOp::Ne => Some(Value::Bool(a != b)),
                _ => None,
            }
        }
        _ => return None,
    };
    match op {
        BinOp::Add => Some(Value::Float(a + b)),
        BinOp::Sub => Some(Value::Float(a - b)),
        BinOp::Mul => Some(Value::Float(a * b)),
        BinOp::Div => Some(Value::Float(a / b)),
        _ => None,
    }
}

pub fn binary(interp: &mut Interpreter, op: BinOp, l: &Value, r: &Value) -> Result<Value> {
    match (l, r) {
        (Value::Int(a), Value::Int(b)) => int_op(op, *a, *b),
        (Value::Float(a), Value::Float(b)) => Ok(float_op(op, *a, *b)),
        (Value::Int(a), Value::Float(b)) => Ok(float_op(op, *a as f64, *b)),
        (Value::Float(a), Value::Int(b)) => Ok(float_op(op, *a, *b as f64)),
        (Value::Bool(_), Value::Int(_) | Value::Float(_) | Value::Bool(_))
        | (Value::Int(_) | Value::Float(_), Value::Bool(_)) => {
            if matches!(
                (op, l, r),
                (BinOp::Eq | BinOp::Ne, Value::Bool(_), Value::Bool(_))
            ) {
                return Ok(Value::Bool(
                    (l.as_scalar() == r.as_scalar()) == (op == BinOp::Eq),
                ));
            }
            binary(interp, op, &as_number(l), &as_number(r))
        }
        (Value::Str(a), Value::Str(b)) => str_op(op, a, b),
        (Value::Str(s), Value::Int(n)) | (Value::Int(n), Value::Str(s)) if op == BinOp::Mul => {
            let times = (*n).max(0) as usize;
            crate::array::check_memory(s.len() as u128 * times as u128, || "a string".into())?;
            Ok(Value::Str(s.repeat(times).into()))
        }
        (Value::Array(_) | Value::List(_), _) | (_, Value::Array(_) | Value::List(_))
            if is_array_like(l) && is_array_like(r) =>
        {
            array_op(interp, op, l, r)
        }
        _ => match op {
            BinOp::Eq => Ok(Value::Bool(same_value(l, r))),
            BinOp::Ne => Ok(Value::Bool(!same_value(l, r))),
            _ => Err(type_error(format!(
                "unsupported operand types for {}: {} and {}",
                op.symbol(),
                l.kind(),
                r.kind()
            ))),
        },
    }
}

fn is_array_like(v: &Value) -> bool {
    matches!(v, Value::Array(_) | Value::List(_)) || v.as_scalar().is_some()
}

fn as_number(v: &Value) -> Value {
    match v {
        Value::Bool(b) => Value::Int(*b as i64),
        other => other.clone(),
    }
}

/// `==` between host values that are not numbers: devices, dtypes, strings, none.
fn same_value(l: &Value, r: &Value) -> bool {
    match (l, r) {
        (Value::None, Value::None) => true,
        (Value::Device(a), Value::Device(b)) => a == b,
        (Value::DType(a), Value::DType(b)) => a == b,
        (Value::Str(a), Value::Str(b)) => a == b,
        (Value::Tuple(a), Value::Tuple(b)) | (Value::List(a), Value::List(b)) => {
            a.len() == b.len()
                && a.iter()
                    .zip(b.iter())
                    .all(|(x, y)| match (x.as_scalar(), y.as_scalar()) {
                        (Some(p), Some(q)) => p.as_f64() == q.as_f64(),
                        _ => same_value(x, y),
                    })
        }
        (Value::Function(a), Value::Function(b)) => Rc::ptr_eq(a, b),
        (Value::Builtin(a), Value::Builtin(b)) => std::ptr::eq(*a, *b),
        _ => false,
    }
}

fn array_op(interp: &mut Interpreter, op: BinOp, l: &Value, r: &Value) -> Result<Value> {
    let (a, b) = (convert::operand(interp, l)?, convert::operand(interp, r)?);
    if op == BinOp::MatMul {
        return match (&a, &b) {
            (OwnedOperand::Array(x), OwnedOperand::Array(y)) => {
                crate::array::linalg::matmul(x, y).map(Value::array)
            }
            _ => Err(type_error("matmul needs two arrays; for a scalar use *")),
        };
    }
    ops::binary(op, a.as_operand(), b.as_operand()).map(Value::array)
}

fn int_op(op: BinOp, a: i64, b: i64) -> Result<Value> {
    let overflow = || overflow_error(format!("integer overflow in {a} {} {b}", op.symbol()));
    Ok(match op {
        BinOp::Add => Value::Int(a.checked_add(b).ok_or_else(overflow)?),
        BinOp::Sub => Value::Int(a.checked_sub(b).ok_or_else(overflow)?),
        BinOp::Mul => Value::Int(a.checked_mul(b).ok_or_else(overflow)?),
        BinOp::Div => {
            if b == 0 {
                return Err(ops::zero_division(op));
            }
            Value::Float(a as f64 / b as f64)
        }
        BinOp::Mod => {
            if b == 0 {
                return Err(ops::zero_division(op));
            }
            Value::Int(<i64 as ops::Arith>::rem(a, b))
        }
        BinOp::Pow if b < 0 => Value::Float((a as f64).powf(b as f64)),
        BinOp::Pow => Value::Int(
            u32::try_from(b)
                .ok()
                .and_then(|e| a.checked_pow(e))
                .ok_or_else(overflow)?,
        ),
        BinOp::MatMul => return Err(type_error("matmul needs arrays, not ints")),
        cmp => Value::Bool(compare(cmp, a.cmp(&b))),
    })
}

fn compare(op: BinOp, ordering: std::cmp::Ordering) -> bool {
    use std::cmp::Ordering::*;
    match op {
        BinOp::Eq => ordering == Equal,
        BinOp::Ne => ordering != Equal,
        BinOp::Lt => ordering == Less,
        BinOp::Le => ordering != Greater,
        BinOp::Gt => ordering == Greater,
        BinOp::Ge => ordering != Less,
        _ => unreachable!("not a comparison"),
    }
}

fn float_op(op: BinOp, a: f64, b: f64) -> Value {
    match op {
        BinOp::Add => Value::Float(a + b),
        BinOp::Sub => Value::Float(a - b),
        BinOp::Mul => Value::Float(a * b),
        BinOp::Div => Value::Float(a / b),
        BinOp::Mod => Value::Float(<f64 as ops::Arith>::rem(a, b)),
        BinOp::Pow => Value::Float(a.powf(b)),
        BinOp::Eq => Value::Bool(a == b),
        BinOp::Ne => Value::Bool(a != b),
        BinOp::Lt => Value::Bool(a < b),
        BinOp::Le => Value::Bool(a <= b),
        BinOp::Gt => Value::Bool(a > b),
        BinOp::Ge => Value::Bool(a >= b),
        BinOp::MatMul => Value::Float(f64::NAN),
    }
}

fn str_op(op: BinOp, a: &Rc<str>, b: &Rc<str>) -> Result<Value> {
    Ok(match op {
        BinOp::Add => {
            crate::array::check_memory(a.len() as u128 + b.len() as u128, || "a string".into())?;
            let mut s = String::with_capacity(a.len() + b.len());
            s.push_str(a);
            s.push_str(b);
            Value::Str(s.into())
        }
        BinOp::Mul | BinOp::Sub | BinOp::Div | BinOp::Mod | BinOp::Pow | BinOp::MatMul => {
            return Err(type_error(format!(
                "unsupported operand types for {}: str and str",
                op.symbol()
            )))
        }
        cmp => Value::Bool(compare(cmp, a.cmp(b))),
    })
}

pub fn negate(v: &Value) -> Result<Value> {
    match v {
        Value::Int(i) => i
            .checked_neg()
            .map(Value::Int)
            .ok_or_else(|| overflow_error("integer overflow in negation")),
        Value::Float(f) => Ok(Value::Float(-f)),
        Value::Bool(b) => Ok(Value::Int(-(*b as i64))),
        Value::Array(a) => ops::unary(UnaryFn::Neg, a).map(Value::array),
        other => Err(type_error(format!("cannot negate {}", other.a_kind()))),
    }
}

thread_local! {
    /// One shared string per ASCII character, so `chars[i]` in a hot loop does not allocate.
    static ASCII_CHARS: Vec<Rc<str>> = (0u8..128).map(|b| Rc::from((b as char).to_string())).collect();
}

/// `s[i]`, `list[i]`, `shape[i]`, `range(...)[i]` with Python's negative indices.
pub fn index_sequence(container: &Value, i: i64) -> Result<Value> {
    let len = match container {
        Value::Str(s) if s.is_ascii() => s.len(),
        Value::Str(s) => s.chars().count(),
        Value::List(items) | Value::Tuple(items) => items.len(),
        Value::Range { start, stop, step } => {
            range_len(*start, *stop, *step).min(usize::MAX as u128) as usize
        }
        _ => unreachable!("index_sequence is called on sequences"),
    };
    let index = crate::array::layout::normalize_index(i, len, 0).map_err(|_| {
        crate::error::index_error(format!(
            "{} index {i} is out of range (length {len})",
            container.kind()
        ))
    })?;
    Ok(match container {
        Value::Str(s) if s.is_ascii() => {
            Value::Str(ASCII_CHARS.with(|chars| chars[s.as_bytes()[index] as usize].clone()))
        }
        Value::Str(s) => Value::Str(s.chars().nth(index).unwrap().to_string().into()),
        Value::List(items) | Value::Tuple(items) => items[index].clone(),
        Value::Range { start, step, .. } => {
            Value::Int(start.wrapping_add(step.wrapping_mul(index as i64)))
        }
        _ => unreachable!(),
    })
}

/// How many values `range(start, stop, step)` yields (it can exceed i64 for the widest ranges).
pub fn range_len(start: i64, stop: i64, step: i64) -> u128 {
    let (start, stop, step) = (start as i128, stop as i128, step as i128);
    if step > 0 && stop > start {
        ((stop - start + step - 1) / step) as u128
    } else if step < 0 && stop < start {
        ((start - stop - step - 1) / -step) as u128
    } else {
        0
    }
}
