//! The elementwise functions: one built-in per row of the plan's table of operations (and one
//! per alias), plus NumPy's functions made of several rows (`round`, `nan_to_num`, `isclose`),
//! which fuse into one pass like any other chain of rows.

use super::{builtin, count_arg, float_arg, is_array_input, operand_arg, Args, Builtin};
use crate::array::ops::{self, Operand};
use crate::array::Array;
use crate::base::Scalar;
use crate::error::{overflow_error, Result};
use crate::interp::convert::OwnedOperand;
use crate::interp::value::Value;
use crate::interp::Interpreter;
use crate::plan::table::{self, ElementwiseOp, Op};

const UNARY: &[&str] = &["x"];
const BINARY: &[&str] = &["x1", "x2"];
const WHERE: &[&str] = &["condition", "x=", "y="];
const CLIP: &[&str] = &["a", "a_min", "a_max"];

pub fn builtins() -> Vec<Builtin> {
    let mut list: Vec<Builtin> = table::OPS
        .iter()
        .flat_map(|row| {
            std::iter::once(row.name)
                .chain(row.aliases.iter().copied())
                .map(move |name| (name, row))
        })
        .map(|(name, row)| Builtin {
            name,
            params: match (row.op, row.nin) {
                (Op::Where, _) => WHERE,
                (Op::Clip, _) => CLIP,
                (_, 1) => UNARY,
                _ => BINARY,
            },
            doc: row.doc,
            example: row.example,
            area: "",
            op: Some(row),
            run: elementwise,
        })
        .collect();
    list.extend([
        builtin!("round", ["x", "decimals="], "x rounded to `decimals` digits (default 0), halves to even, as NumPy's round.", "round([0.5, 1.5, 2.567], decimals=1)", round),
        builtin!("nan_to_num", ["x", "nan=", "posinf=", "neginf="], "x with NaN replaced by 0 (or `nan=`) and infinities by the largest finite values (or `posinf=`, `neginf=`).", "nan_to_num([nan, inf, -inf, 1.0])", nan_to_num),
        builtin!("isclose", ["a", "b", "rtol=", "atol=", "equal_nan="], "True where |a - b| <= atol + rtol * |b| (rtol 1e-05, atol 1e-08).", "isclose([1.0, 1.1], 1.0000001)", isclose),
    ]);
    list
}

/// One row of the table applied to the arguments; host scalars in, a host scalar out.
fn elementwise(interp: &mut Interpreter, args: Args) -> Result<Value> {
    let row = args.op.expect("elementwise built-ins have a row");
    if row.op == Op::Where {
        match (args.get(1), args.get(2)) {
            (None, None) => {
                let condition = super::array_arg(interp, args.required(0))?;
                let positions = crate::array::search::nonzero(&condition)?;
                return Ok(super::manipulation::tuple_of(positions));
            }
            (Some(_), Some(_)) => {}
            (_, given) => {
                let missing = if given.is_some() { "x" } else { "y" };
                return Err(crate::error::type_error(format!(
                    "where(condition, x, y) is missing the argument `{missing}` (give both x and y, or neither)"
                )));
            }
        }
    }
    let inputs: Vec<&Value> = (0..row.nin).map(|i| args.required(i)).collect();
    let any_array = inputs.iter().any(|v| is_array_input(v));
    if !any_array {
        let scalars: Vec<Scalar> = inputs
            .iter()
            .map(|v| super::scalar_arg(v))
            .collect::<Result<_>>()?;
        return host_scalar(row, &scalars);
    }
    let owned: Vec<OwnedOperand> = inputs
        .iter()
        .map(|v| operand_arg(interp, v))
        .collect::<Result<_>>()?;
    let operands: Vec<Operand> = owned.iter().map(OwnedOperand::as_operand).collect();
    let result = match (row.op, operands.as_slice()) {
        (Op::Real, [Operand::Array(a)]) => ops::real(a)?,
        (Op::Imag, [Operand::Array(a)]) => ops::imag(a)?,
        _ => ops::apply(row, &operands)?,
    };
    Ok(Value::array(result))
}

fn host_scalar(row: &ElementwiseOp, scalars: &[Scalar]) -> Result<Value> {
    match (row.op, scalars) {
        (Op::Absolute, [Scalar::Int(i)]) => {
            return i.checked_abs().map(Value::Int).ok_or_else(|| {
                overflow_error(format!("integer overflow: abs({i}) does not fit in an int"))
            })
        }
        (Op::Real, [s]) if !matches!(s, Scalar::Complex(..)) => return Ok(Value::from_scalar(*s)),
        (Op::Imag, [s]) if !matches!(s, Scalar::Complex(..)) => {
            return Ok(Value::from_scalar(ops::apply_scalars(
                table::row(Op::Multiply),
                &[*s, Scalar::Int(0)],
            )?))
        }
        _ => {}
    }
    Ok(Value::from_scalar(ops::apply_scalars(row, scalars)?))
}

fn unary(op: Op, x: &Array) -> Result<Array> {
    ops::apply(table::row(op), &[Operand::Array(x)])
}

fn binary(op: Op, a: Operand, b: Operand) -> Result<Array> {
    ops::apply(table::row(op), &[a, b])
}

/// NumPy's `round`/`around`: `rint(x * 10**d) / 10**d` (and `rint(x / 10**-d) * 10**-d` for
/// negative d); integers stay integers.
fn round(interp: &mut Interpreter, args: Args) -> Result<Value> {
    let input = args.required(0);
    let decimals = args
        .get(1)
        .map(|v| count_arg(v, "decimals"))
        .transpose()?
        .unwrap_or(0);
    let x = super::array_arg_on(interp, input, is_array_input(input))?;
    let rounded = if x.dtype().is_integer() || x.dtype().is_bool() {
        if decimals >= 0 {
            x.clone()
        } else {
            let power = Scalar::Float(10f64.powi(decimals.unsigned_abs() as i32));
            let scaled = binary(Op::Divide, Operand::Array(&x), Operand::Scalar(power))?;
            let nearest = unary(Op::Rint, &scaled)?;
            binary(
                Op::Multiply,
                Operand::Array(&nearest),
                Operand::Scalar(power),
            )?
            .astype(x.dtype())?
        }
    } else if decimals == 0 {
        unary(Op::Rint, &x)?
    } else {
        let power = 10f64.powi(decimals.unsigned_abs() as i32);
        let (up, down) = if decimals > 0 {
            (Op::Multiply, Op::Divide)
        } else {
            (Op::Divide, Op::Multiply)
        };
        let scaled = binary(
            up,
            Operand::Array(&x),
            Operand::Scalar(Scalar::Float(power)),
        )?;
        let nearest = unary(Op::Rint, &scaled)?;
        binary(
            down,
            Operand::Array(&nearest),
            Operand::Scalar(Scalar::Float(power)),
        )?
    };
    super::array_or_scalar(is_array_input(input), rounded)
}

fn nan_to_num(interp: &mut Interpreter, args: Args) -> Result<Value> {
    let input = args.required(0);
    let x = super::array_arg_on(interp, input, is_array_input(input))?;
    let dtype = x.dtype();
    if !dtype.is_inexact() {
        return super::array_or_scalar(is_array_input(input), x);
    }
    let part = dtype.real();
    let largest = match part {
        crate::base::DType::F16 => 65504.0,
        crate::base::DType::F32 => f32::MAX as f64,
        _ => f64::MAX,
    };
    let pick = |i: usize, default: f64| -> Result<f64> {
        args.get(i)
            .map(|v| float_arg(v, "a replacement"))
            .transpose()
            .map(|v| v.unwrap_or(default))
    };
    let (nan, posinf, neginf) = (pick(1, 0.0)?, pick(2, largest)?, pick(3, -largest)?);
    let fix = |v: &Array| -> Result<Array> {
        let replace = |v: &Array, test: Array, value: f64| -> Result<Array> {
            ops::apply(
                table::row(Op::Where),
                &[
                    Operand::Array(&test),
                    Operand::Scalar(Scalar::Float(value)),
                    Operand::Array(v),
                ],
            )
        };
        let positive = binary(
            Op::Greater,
            Operand::Array(v),
            Operand::Scalar(Scalar::Int(0)),
        )?;
        let infinite = unary(Op::Isinf, v)?;
        let pos = binary(
            Op::LogicalAnd,
            Operand::Array(&infinite),
            Operand::Array(&positive),
        )?;
        let neg = binary(
            Op::LogicalAnd,
            Operand::Array(&infinite),
            Operand::Array(&unary(Op::LogicalNot, &positive)?),
        )?;
        let v = replace(v, unary(Op::Isnan, v)?, nan)?;
        let v = replace(&v, pos, posinf)?;
        replace(&v, neg, neginf)
    };
    let fixed = if dtype.is_complex() {
        let (re, im) = (fix(&ops::real(&x)?)?, fix(&ops::imag(&x)?)?);
        let i = Array::scalar(Scalar::Complex(0.0, 1.0), x.device())?.astype(dtype)?;
        let im = binary(Op::Multiply, Operand::Array(&im), Operand::Array(&i))?;
        binary(
            Op::Add,
            Operand::Array(&re.astype(dtype)?),
            Operand::Array(&im),
        )?
    } else {
        fix(&x)?.astype(dtype)?
    };
    super::array_or_scalar(is_array_input(input), fixed)
}

/// NumPy's `isclose`: `|a - b| <= atol + rtol·|b|` where both are finite, equality for
/// infinities, and NaN equal to NaN only with `equal_nan`.
pub(super) fn isclose(interp: &mut Interpreter, args: Args) -> Result<Value> {
    let (a_in, b_in) = (args.required(0), args.required(1));
    let any_array = is_array_input(a_in) || is_array_input(b_in);
    let a = super::array_arg_on(interp, a_in, any_array)?;
    let b = super::array_arg_on(interp, b_in, any_array)?;
    let rtol = args
        .get(2)
        .map(|v| float_arg(v, "rtol"))
        .transpose()?
        .unwrap_or(1e-5);
    let atol = args
        .get(3)
        .map(|v| float_arg(v, "atol"))
        .transpose()?
        .unwrap_or(1e-8);
    let equal_nan = args
        .get(4)
        .map(crate::interp::convert::truth)
        .transpose()?
        .unwrap_or(false);
    let (a, b) = (Operand::Array(&a), Operand::Array(&b));
    let difference = unary(Op::Absolute, &binary(Op::Subtract, a, b)?)?;
    let scale = unary(
        Op::Absolute,
        match b {
            Operand::Array(b) => b,
            Operand::Scalar(_) => unreachable!("arrays"),
        },
    )?;
    let tolerance = binary(
        Op::Add,
        Operand::Scalar(Scalar::Float(atol)),
        Operand::Array(&binary(
            Op::Multiply,
            Operand::Scalar(Scalar::Float(rtol)),
            Operand::Array(&scale),
        )?),
    )?;
    let within = binary(
        Op::LessEqual,
        Operand::Array(&difference),
        Operand::Array(&tolerance),
    )?;
    let finite = binary(
        Op::LogicalAnd,
        Operand::Array(&unary_op(Op::Isfinite, a)?),
        Operand::Array(&unary_op(Op::Isfinite, b)?),
    )?;
    let mut close = binary(
        Op::LogicalOr,
        Operand::Array(&binary(
            Op::LogicalAnd,
            Operand::Array(&within),
            Operand::Array(&finite),
        )?),
        Operand::Array(&binary(Op::Equal, a, b)?),
    )?;
    if equal_nan {
        let both_nan = binary(
            Op::LogicalAnd,
            Operand::Array(&unary_op(Op::Isnan, a)?),
            Operand::Array(&unary_op(Op::Isnan, b)?),
        )?;
        close = binary(
            Op::LogicalOr,
            Operand::Array(&close),
            Operand::Array(&both_nan),
        )?;
    }
    super::array_or_scalar(any_array, close)
}

fn unary_op(op: Op, x: Operand) -> Result<Array> {
    ops::apply(table::row(op), &[x])
}
