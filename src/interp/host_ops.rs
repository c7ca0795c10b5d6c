//! Operators on host values (ints, floats, complex numbers, bools, strings) with Python's
//! semantics — ints are 64-bit and an overflow is an error — and the hand-off to the array
//! layer's table of operations as soon as an array is involved.

use std::rc::Rc;
use std::sync::OnceLock;

use crate::array::ops::{self, Operand};
use crate::base::Scalar;
use crate::error::{overflow_error, type_error, value_error, Result};
use crate::plan::table;
use crate::syntax::ast::{BinOp, UnaryOp};

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
        (Value::Bool(a), Value::Bool(b)) if is_bitwise(op) => Ok(Value::Bool(match op {
            BinOp::BitAnd => a & b,
            BinOp::BitOr => a | b,
            _ => a ^ b,
        })),
        (Value::Bool(_), Value::Int(_) | Value::Float(_) | Value::Complex(..) | Value::Bool(_))
        | (Value::Int(_) | Value::Float(_) | Value::Complex(..), Value::Bool(_)) => {
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
        (Value::Complex(..), Value::Int(_) | Value::Float(_) | Value::Complex(..))
        | (Value::Int(_) | Value::Float(_), Value::Complex(..)) => complex_op(op, l, r),
        (Value::Int(_) | Value::Float(_), Value::Int(_) | Value::Float(_)) => float_op(op, l, r),
        (Value::Str(a), Value::Str(b)) => str_op(op, a, b),
        (Value::Str(s), Value::Int(n)) | (Value::Int(n), Value::Str(s)) if op == BinOp::Mul => {
            let times = (*n).max(0) as usize;
            crate::device::host::check_memory(s.len() as u128 * times as u128, || {
                "a string".into()
            })?;
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
            _ => Err(unsupported(op, l, r)),
        },
    }
}

fn unsupported(op: BinOp, l: &Value, r: &Value) -> crate::error::Error {
    type_error(format!(
        "unsupported operand types for {}: {} and {}",
        op.symbol(),
        l.kind(),
        r.kind()
    ))
}

fn is_bitwise(op: BinOp) -> bool {
    matches!(op, BinOp::BitAnd | BinOp::BitOr | BinOp::BitXor)
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
                        (Some(p), Some(q)) => p.as_complex() == q.as_complex(),
                        _ => same_value(x, y),
                    })
        }
        (Value::Function(a), Value::Function(b)) => Rc::ptr_eq(a, b),
        (Value::Builtin(a), Value::Builtin(b)) => std::ptr::eq(*a, *b),
        _ => false,
    }
}

/// The row of the table an operator spells (found once per operator: statements in a loop ask
/// again and again).
fn row_of(op: BinOp) -> &'static table::ElementwiseOp {
    const OPERATORS: usize = crate::syntax::ast::ALL_BINARY.len();
    static ROWS: [OnceLock<&'static table::ElementwiseOp>; OPERATORS] =
        [const { OnceLock::new() }; OPERATORS];
    ROWS[op as usize].get_or_init(|| table::by_symbol(op.symbol(), true))
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
    ops::apply(row_of(op), &[a.as_operand(), b.as_operand()]).map(Value::array)
}

fn int_op(op: BinOp, a: i64, b: i64) -> Result<Value> {
    let overflow = || overflow_error(format!("integer overflow in {a} {} {b}", op.symbol()));
    let zero = || {
        ops::zero_division(row_of(if op == BinOp::Mod {
            BinOp::Mod
        } else {
            BinOp::FloorDiv
        }))
    };
    Ok(match op {
        BinOp::Add => Value::Int(a.checked_add(b).ok_or_else(overflow)?),
        BinOp::Sub => Value::Int(a.checked_sub(b).ok_or_else(overflow)?),
        BinOp::Mul => Value::Int(a.checked_mul(b).ok_or_else(overflow)?),
        BinOp::Div => {
            if b == 0 {
                return Err(zero());
            }
            Value::Float(a as f64 / b as f64)
        }
        BinOp::FloorDiv | BinOp::Mod => {
            if b == 0 {
                return Err(zero());
            }
            if a == i64::MIN && b == -1 && op == BinOp::FloorDiv {
                return Err(overflow());
            }
            let row = row_of(op);
            let value = ops::apply_scalars(row, &[Scalar::Int(a), Scalar::Int(b)])?;
            Value::from_scalar(value)
        }
        BinOp::Pow if b < 0 => Value::Float((a as f64).powf(b as f64)),
        BinOp::Pow => Value::Int(
            u32::try_from(b)
                .ok()
                .and_then(|e| a.checked_pow(e))
                .ok_or_else(overflow)?,
        ),
        BinOp::BitAnd => Value::Int(a & b),
        BinOp::BitOr => Value::Int(a | b),
        BinOp::BitXor => Value::Int(a ^ b),
        BinOp::Shl | BinOp::Shr if b < 0 => return Err(value_error("negative shift count")),
        BinOp::Shl => {
            let shifted = if b >= 64 { 0 } else { a.wrapping_shl(b as u32) };
            if a != 0 && (b >= 64 || shifted >> b != a) {
                return Err(overflow());
            }
            Value::Int(shifted)
        }
        BinOp::Shr => Value::Int(if b >= 64 { a >> 63 } else { a >> b }),
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

/// Floats with at least one float operand: NumPy's float semantics (IEEE division, floor
/// division and modulo by `npy_divmod`), which are Python's except that a zero divisor gives
/// inf or NaN instead of an error.
fn float_op(op: BinOp, l: &Value, r: &Value) -> Result<Value> {
    let (a, b) = (
        l.as_scalar().expect("a number"),
        r.as_scalar().expect("a number"),
    );
    match op {
        BinOp::MatMul => Err(type_error("matmul needs arrays, not floats")),
        BinOp::BitAnd | BinOp::BitOr | BinOp::BitXor | BinOp::Shl | BinOp::Shr => {
            Err(unsupported(op, l, r))
        }
        _ => {
            let (a, b) = (Scalar::Float(a.as_f64()), Scalar::Float(b.as_f64()));
            Ok(Value::from_scalar(ops::apply_scalars(row_of(op), &[a, b])?))
        }
    }
}

fn complex_op(op: BinOp, l: &Value, r: &Value) -> Result<Value> {
    let (a, b) = (
        l.as_scalar().expect("a number"),
        r.as_scalar().expect("a number"),
    );
    let (a, b) = (a.as_complex(), b.as_complex());
    let (a, b) = (Scalar::Complex(a.re, a.im), Scalar::Complex(b.re, b.im));
    match op {
        BinOp::Add | BinOp::Sub | BinOp::Mul | BinOp::Div | BinOp::Pow | BinOp::Eq | BinOp::Ne => {
            Ok(Value::from_scalar(ops::apply_scalars(row_of(op), &[a, b])?))
        }
        BinOp::Lt | BinOp::Le | BinOp::Gt | BinOp::Ge => Err(type_error(format!(
            "'{}' is not supported between complex numbers",
            op.symbol()
        ))),
        _ => Err(unsupported(op, l, r)),
    }
}

fn str_op(op: BinOp, a: &Rc<str>, b: &Rc<str>) -> Result<Value> {
    Ok(match op {
        BinOp::Add => {
            crate::device::host::check_memory(a.len() as u128 + b.len() as u128, || {
                "a string".into()
            })?;
            let mut s = String::with_capacity(a.len() + b.len());
            s.push_str(a);
            s.push_str(b);
            Value::Str(s.into())
        }
        cmp if cmp.is_comparison() => Value::Bool(compare(cmp, a.cmp(b))),
        other => {
            return Err(type_error(format!(
                "unsupported operand types for {}: str and str",
                other.symbol()
            )))
        }
    })
}

/// `-x`, `+x`, `~x`.
pub fn unary(op: UnaryOp, v: &Value) -> Result<Value> {
    match (op, v) {
        (UnaryOp::Neg, Value::Int(i)) => i
            .checked_neg()
            .map(Value::Int)
            .ok_or_else(|| overflow_error("integer overflow in negation")),
        (UnaryOp::Neg, Value::Float(f)) => Ok(Value::Float(-f)),
        (UnaryOp::Neg, Value::Complex(re, im)) => Ok(Value::Complex(-re, -im)),
        (UnaryOp::Neg, Value::Bool(b)) => Ok(Value::Int(-(*b as i64))),
        (UnaryOp::Pos, Value::Bool(b)) => Ok(Value::Int(*b as i64)),
        (UnaryOp::Pos, Value::Int(_) | Value::Float(_) | Value::Complex(..)) => Ok(v.clone()),
        (UnaryOp::Invert, Value::Int(i)) => Ok(Value::Int(!i)),
        (UnaryOp::Invert, Value::Bool(b)) => Ok(Value::Int(!(*b as i64))),
        (_, Value::Array(a)) => {
            let row = table::by_symbol(op.symbol(), false);
            ops::apply(row, &[Operand::Array(a)]).map(Value::array)
        }
        (_, other) => Err(type_error(format!(
            "bad operand type for unary {}: {}",
            op.symbol(),
            other.kind()
        ))),
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
    let index = crate::base::layout::normalize_index(i, len, 0).map_err(|_| {
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

/// The `count` values `a, b = value` binds: the items of a tuple or list, or the sub-arrays of
/// an array along its first axis, with Python's messages when the counts differ.
pub fn unpack(value: &Value, count: usize) -> Result<Vec<Value>> {
    let items: Vec<Value> = match value {
        Value::List(items) | Value::Tuple(items) => items.to_vec(),
        Value::Array(a) if a.ndim() > 0 => {
            let len = a.shape()[0];
            if len != count {
                return Err(unpack_error(len, count));
            }
            return (0..len)
                .map(|i| {
                    let at = [crate::array::index::Subscript::Basic(
                        crate::base::layout::AxisIndex::At(i as i64),
                    )];
                    Ok(match crate::array::index::get(a, &at)? {
                        crate::array::index::Selection::Scalar(s) => Value::from_scalar(s),
                        crate::array::index::Selection::Array(x) => Value::array(x),
                    })
                })
                .collect();
        }
        other => {
            return Err(type_error(format!(
                "cannot unpack {}: only a tuple, a list or an array",
                other.a_kind()
            )))
        }
    };
    if items.len() != count {
        return Err(unpack_error(items.len(), count));
    }
    Ok(items)
}

fn unpack_error(got: usize, expected: usize) -> crate::error::Error {
    crate::error::value_error(if got > expected {
        format!("too many values to unpack (expected {expected}, got {got})")
    } else {
        format!("not enough values to unpack (expected {expected}, got {got})")
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::syntax::ast::UnaryOp;

    #[test]
    fn every_array_operator_has_a_row_of_the_table() {
        use BinOp::*;
        for op in [
            Add, Sub, Mul, Div, FloorDiv, Mod, Pow, BitAnd, BitOr, BitXor, Shl, Shr, Eq, Ne, Lt,
            Le, Gt, Ge,
        ] {
            assert_eq!(row_of(op).symbol, Some(op.symbol()));
        }
        for op in [UnaryOp::Neg, UnaryOp::Pos, UnaryOp::Invert] {
            assert_eq!(table::by_symbol(op.symbol(), false).nin, 1);
        }
    }
}
