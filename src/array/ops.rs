//! Elementwise operations with NumPy's rules: any row of the table (`crate::plan::table`)
//! applied to arrays and host scalars with broadcasting, NumPy 2's dtype resolution, in-place
//! forms that compute in the promoted dtype and cast back (`same_kind`), and NumPy's errors.
//! The work itself is a plan, deferred and fused with its neighbours.

use super::Array;
use crate::base::dtype::Casting;
use crate::base::layout::{broadcast_shapes, shape_text, Dims};
use crate::base::{human_bytes, DType, Scalar};
use crate::device::Device;
use crate::error::{device_error, shape_error, type_error, Error, ErrorKind, Result};
use crate::plan::resolve::{self, Arg, Signature};
use crate::plan::table::{self, ElementwiseOp, Op};
use crate::plan::{self, Expr};

/// An operation's operands in one form or another, kept off the heap (a row has at most three
/// inputs).
type Args<T> = smallvec::SmallVec<[T; 3]>;

/// One input of an elementwise operation.
#[derive(Clone, Copy)]
pub enum Operand<'a> {
    Array(&'a Array),
    Scalar(Scalar),
}

impl Operand<'_> {
    fn arg(&self) -> Arg {
        match self {
            Operand::Array(a) => Arg::Array(a.dtype()),
            Operand::Scalar(s) => Arg::Weak(*s),
        }
    }

    fn shape(&self) -> &[usize] {
        match self {
            Operand::Array(a) => a.shape(),
            Operand::Scalar(_) => &[],
        }
    }
}

pub fn device_mismatch(a: &Array, b: &Array) -> Error {
    let (on_gpu, on_cpu) = if a.device() == Device::Gpu {
        (a, b)
    } else {
        (b, a)
    };
    device_error(format!(
        "operands are on different devices: one is on {}, one on {} — move one with to(x, {}) (copies {} host→device)",
        on_gpu.device(),
        on_cpu.device(),
        on_gpu.device(),
        human_bytes(on_cpu.nbytes() as f64)
    ))
}

/// The device the arrays among `operands` share (`None` when there are only scalars).
fn common_device(operands: &[Operand]) -> Result<Option<Device>> {
    let mut first: Option<&Array> = None;
    for o in operands {
        if let Operand::Array(a) = o {
            match first {
                None => first = Some(a),
                Some(f) if f.device() != a.device() => return Err(device_mismatch(f, a)),
                Some(_) => {}
            }
        }
    }
    Ok(first.map(Array::device))
}

fn broadcast_all(operands: &[Operand]) -> Result<Dims> {
    let mut shapes = operands
        .iter()
        .map(Operand::shape)
        .filter(|s| !s.is_empty());
    let first = shapes.next().unwrap_or_default();
    if shapes.all(|s| s == first) {
        // The common case, told without building shapes.
        return Ok(Dims::from_slice(first));
    }
    let mut shape = Dims::new();
    for o in operands {
        if shape.is_empty() {
            shape = o.shape().into();
        } else if o.shape() != &shape[..] && !o.shape().is_empty() {
            shape = broadcast_shapes(&shape, o.shape())?.into();
        }
    }
    Ok(shape)
}

pub fn zero_division(row: &ElementwiseOp) -> Error {
    let what = if matches!(row.op, Op::Remainder | Op::Fmod) {
        "modulo"
    } else {
        "division"
    };
    Error::new(ErrorKind::ZeroDivision, format!("integer {what} by zero"))
}

/// arrsh's checks before the loops: integer division by a host zero is an error (as in
/// Python), and so are negative integer powers, as NumPy's are — read from an exponent array on
/// the cpu; on the gpu that read would cost a transfer, so the kernels give CuPy's values.
fn check_values(row: &ElementwiseOp, operands: &[Operand]) -> Result<()> {
    let integer = operands.iter().all(|o| match o {
        Operand::Array(a) => !a.dtype().is_inexact(),
        Operand::Scalar(s) => !s.dtype().is_inexact(),
    });
    if !integer || operands.len() != 2 {
        return Ok(());
    }
    let divides = matches!(
        row.op,
        Op::Divide | Op::FloorDivide | Op::Remainder | Op::Fmod
    );
    match operands[1] {
        Operand::Scalar(s) if divides && s.is_zero() => Err(zero_division(row)),
        Operand::Scalar(s) if row.op == Op::Power && s.is_negative() => Err(negative_power()),
        Operand::Array(e)
            if row.op == Op::Power && e.device() == Device::Cpu && e.dtype().is_signed() =>
        {
            let smallest = super::reduce::reduce_all(crate::plan::reduce::Reduction::Min, e);
            match smallest {
                Ok(s) if s.is_negative() => Err(negative_power()),
                _ => Ok(()),
            }
        }
        _ => Ok(()),
    }
}

fn negative_power() -> Error {
    Error::new(
        ErrorKind::Value,
        "Integers to negative integer powers are not allowed.",
    )
}

/// The expressions of `operands` over `shape`, each cast to its loop dtype. `target` is an
/// in-place output, which the first operand reads.
fn inputs(
    sig: &Signature,
    operands: &[Operand],
    shape: &[usize],
    target: Option<&Array>,
) -> Result<Args<Expr>> {
    let arrays: Args<plan::Operand> = operands
        .iter()
        .filter_map(|o| match o {
            Operand::Array(a) => Some(a.operand()),
            Operand::Scalar(_) => None,
        })
        .collect();
    let target_operand = target.map(Array::operand);
    let mut array_exprs = plan::inputs(shape, &arrays, target_operand.as_ref())?.into_iter();
    Ok(operands
        .iter()
        .zip(&sig.inputs)
        .map(|(o, &dtype)| match o {
            Operand::Array(_) => array_exprs.next().expect("one per array").cast(dtype),
            Operand::Scalar(s) => Expr::scalar(*s, dtype),
        })
        .collect())
}

/// `row` applied to the operands: a new array, or a host scalar's 0-d array when all operands
/// are scalars (computed at once, never deferred).
pub fn apply(row: &ElementwiseOp, operands: &[Operand]) -> Result<Array> {
    let device = common_device(operands)?;
    let args: Args<Arg> = operands.iter().map(Operand::arg).collect();
    let sig = resolve::resolve(row, &args)?;
    check_values(row, operands)?;
    let shape = broadcast_all(operands)?;
    let exprs = inputs(&sig, operands, &shape, None)?;
    let expr = Expr::apply_args(row.op, exprs, sig.output);
    match device {
        Some(d) => Array::planned(d, &shape, expr),
        None => {
            let value = plan::compute_scalar(expr.clone())?;
            Array::full(&[], value, expr.dtype(), Device::Cpu)
        }
    }
}

/// `row` of host scalars only: the host value (`sqrt(2.0)`, `1 // 0.5`).
pub fn apply_scalars(row: &ElementwiseOp, values: &[Scalar]) -> Result<Scalar> {
    let operands: Vec<Operand> = values.iter().map(|&s| Operand::Scalar(s)).collect();
    let args: Args<Arg> = operands.iter().map(Operand::arg).collect();
    let sig = resolve::resolve(row, &args)?;
    check_values(row, &operands)?;
    let exprs = inputs(&sig, &operands, &[], None)?;
    plan::compute_scalar(Expr::apply_args(row.op, exprs, sig.output))
}

/// `target op= value` in place (NumPy's `x *= 5`): computed in the promoted dtype, then cast to
/// the target's, which must be a `same_kind` cast (`i64 *= 2.5` is refused, as NumPy does).
pub fn apply_in_place(row: &ElementwiseOp, target: &Array, others: &[Operand]) -> Result<()> {
    let mut operands = vec![Operand::Array(target)];
    operands.extend_from_slice(others);
    common_device(&operands)?;
    let args: Args<Arg> = operands.iter().map(Operand::arg).collect();
    let sig = resolve::resolve(row, &args)?;
    check_same_kind(row, sig.output, target.dtype())?;
    check_values(row, &operands)?;
    let shape = broadcast_all(&operands)?;
    if shape[..] != *target.shape() {
        return Err(shape_error(format!(
            "non-broadcastable output operand with shape {} doesn't match the broadcast shape {}",
            shape_text(target.shape()),
            shape_text(&shape)
        )));
    }
    let exprs = inputs(&sig, &operands, &shape, Some(target))?;
    let expr = Expr::apply_args(row.op, exprs, sig.output).cast(target.dtype());
    plan::write(&target.operand(), expr)
}

/// NumPy's rule for an in-place result: it may only be cast to the array's dtype within its kind
/// or up the kinds (`same_kind`).
pub fn check_same_kind(row: &ElementwiseOp, result: DType, target: DType) -> Result<()> {
    if result.can_cast(target, Casting::SameKind) {
        return Ok(());
    }
    let spelled = match row.symbol {
        Some(s) => format!("x {s}= y"),
        None => format!("{} into x", row.name),
    };
    let plain = match row.symbol {
        Some(s) => format!("x = x {s} y"),
        None => format!("x = {}(x, y)", row.name),
    };
    Err(type_error(format!(
        "cannot do {spelled} in place: the result is {result} but the array is {target}, and in place NumPy casts only within a kind or up the kinds (same_kind); use {plain}"
    )))
}

/// Stores `value` (broadcast, converted to the target's dtype) into every element of `target`.
pub fn assign(target: &Array, value: Operand) -> Result<()> {
    common_device(&[Operand::Array(target), value])?;
    if let Operand::Array(v) = value {
        let fits = broadcast_shapes(v.shape(), target.shape()).is_ok_and(|s| s == target.shape());
        if !fits {
            return Err(shape_error(format!(
                "could not broadcast input array from shape {} into shape {}",
                shape_text(v.shape()),
                shape_text(target.shape())
            )));
        }
    }
    let expr = match value {
        Operand::Scalar(s) => Expr::scalar(s, target.dtype()),
        Operand::Array(v) => {
            plan::input(target.shape(), &v.operand(), Some(&target.operand()))?.cast(target.dtype())
        }
    };
    plan::write(&target.operand(), expr)
}

/// `real(x)`: a view for real arrays, as NumPy's `x.real` is.
pub fn real(x: &Array) -> Result<Array> {
    if !x.dtype().is_complex() {
        return Ok(x.clone());
    }
    apply(crate::plan::table::row(Op::Real), &[Operand::Array(x)])
}

/// `imag(x)`: zeros of x's dtype for real arrays.
pub fn imag(x: &Array) -> Result<Array> {
    if !x.dtype().is_complex() {
        return Array::full(x.shape(), Scalar::Int(0), x.dtype(), x.device());
    }
    apply(crate::plan::table::row(Op::Imag), &[Operand::Array(x)])
}

/// The dtype an elementwise row gives for these operands (for `result_type`-like questions).
pub fn result_dtype(row: &ElementwiseOp, operands: &[Operand]) -> Result<DType> {
    let args: Args<Arg> = operands.iter().map(Operand::arg).collect();
    Ok(resolve::resolve(row, &args)?.output)
}

/// `op(a)` for a row of the table, as a plan (shorthand for the array functions built of rows).
pub fn unary(op: Op, a: &Array) -> Result<Array> {
    apply(table::row(op), &[Operand::Array(a)])
}

/// `op(a, b)` for two arrays.
pub fn binary(op: Op, a: &Array, b: &Array) -> Result<Array> {
    apply(table::row(op), &[Operand::Array(a), Operand::Array(b)])
}

/// `op(a, s)` for an array and a host scalar (a weak scalar, as NumPy's Python numbers are).
pub fn with_scalar(op: Op, a: &Array, s: Scalar) -> Result<Array> {
    apply(table::row(op), &[Operand::Array(a), Operand::Scalar(s)])
}

/// `where(condition, x, y)` for three arrays.
pub fn choose(condition: &Array, x: &Array, y: &Array) -> Result<Array> {
    apply(
        table::row(Op::Where),
        &[
            Operand::Array(condition),
            Operand::Array(x),
            Operand::Array(y),
        ],
    )
}
