//! Elementwise arithmetic, comparisons and maths with NumPy's broadcasting and promotion.

use super::dtype::DType;
use super::layout::{broadcast_shapes, shape_text};
use super::{on_gpu, Array, Scalar};
use crate::device::cpu::{self, CpuElement};
use crate::device::Device;
use crate::error::{device_error, type_error, Error, ErrorKind, Result};
use crate::syntax::ast::BinOp;
use crate::with_dtype4;

/// One side of an elementwise operation.
#[derive(Clone, Copy)]
pub enum Operand<'a> {
    Array(&'a Array),
    Scalar(Scalar),
}

/// NumPy 2's result type: arrays are strong, host scalars weak (they only lift bool→int→float kind).
pub fn result_dtype(a: &Operand, b: &Operand) -> DType {
    match (a, b) {
        (Operand::Array(x), Operand::Array(y)) => x.dtype().promote(y.dtype()),
        (Operand::Array(x), Operand::Scalar(s)) | (Operand::Scalar(s), Operand::Array(x)) => {
            weak_promote(x.dtype(), *s)
        }
        (Operand::Scalar(x), Operand::Scalar(y)) => x.dtype().promote(y.dtype()),
    }
}

fn weak_promote(array: DType, scalar: Scalar) -> DType {
    match (array, scalar) {
        (DType::Bool, Scalar::Int(_)) => DType::I64,
        (DType::Bool | DType::I64, Scalar::Float(_)) => DType::F64,
        (d, _) => d,
    }
}

/// Arithmetic of one element type, with NumPy's semantics (integers wrap, `%` takes the divisor's sign).
pub trait Arith: CpuElement {
    fn add(a: Self, b: Self) -> Self;
    fn sub(a: Self, b: Self) -> Self;
    fn mul(a: Self, b: Self) -> Self;
    fn rem(a: Self, b: Self) -> Self;
    fn pow(a: Self, b: Self) -> Self;
}

macro_rules! float_arith {
    ($t:ty) => {
        impl Arith for $t {
            fn add(a: Self, b: Self) -> Self {
                a + b
            }
            fn sub(a: Self, b: Self) -> Self {
                a - b
            }
            fn mul(a: Self, b: Self) -> Self {
                a * b
            }
            fn rem(a: Self, b: Self) -> Self {
                let r = a % b;
                if r != 0.0 && (r < 0.0) != (b < 0.0) {
                    r + b
                } else {
                    r
                }
            }
            fn pow(a: Self, b: Self) -> Self {
                a.powf(b)
            }
        }
    };
}
float_arith!(f64);
float_arith!(f32);

impl Arith for i64 {
    fn add(a: Self, b: Self) -> Self {
        a.wrapping_add(b)
    }
    fn sub(a: Self, b: Self) -> Self {
        a.wrapping_sub(b)
    }
    fn mul(a: Self, b: Self) -> Self {
        a.wrapping_mul(b)
    }
    fn rem(a: Self, b: Self) -> Self {
        if b == 0 {
            return 0;
        }
        let r = a.wrapping_rem(b);
        if r != 0 && (r < 0) != (b < 0) {
            r + b
        } else {
            r
        }
    }
    fn pow(a: Self, b: Self) -> Self {
        a.wrapping_pow(b.clamp(0, u32::MAX as i64) as u32)
    }
}

/// Floats for `/` and the maths functions.
pub trait FloatArith: Arith + num_traits::Float {}
impl FloatArith for f64 {}
impl FloatArith for f32 {}

fn check_same_device(a: &Operand, b: &Operand) -> Result<()> {
    if let (Operand::Array(x), Operand::Array(y)) = (a, b) {
        if x.device() != y.device() {
            return Err(device_mismatch(x, y));
        }
    }
    Ok(())
}

pub fn device_mismatch(a: &Array, b: &Array) -> Error {
    let (on_gpu, on_cpu) = if a.device() == crate::device::Device::Gpu {
        (a, b)
    } else {
        (b, a)
    };
    device_error(format!(
        "operands are on different devices: one is on {}, one on {} — move one with to(x, {}) (copies {} host→device)",
        on_gpu.device(),
        on_cpu.device(),
        on_gpu.device(),
        super::human_bytes(on_cpu.nbytes() as f64)
    ))
}

/// Applies `f` elementwise to both operands converted to `T`, broadcasting them.
fn zip_operands<T: CpuElement, U: CpuElement>(
    a: Operand,
    b: Operand,
    f: impl Fn(T, T) -> U + Sync + Send,
) -> Result<Array> {
    Ok(match (a, b) {
        (Operand::Array(x), Operand::Scalar(s)) => {
            let s: T = s.cast();
            Array::from_ndarray(x.with_view_as::<T, _>(|v| cpu::map(v, |e| f(e, s))))
        }
        (Operand::Scalar(s), Operand::Array(y)) => {
            let s: T = s.cast();
            Array::from_ndarray(y.with_view_as::<T, _>(|v| cpu::map(v, |e| f(s, e))))
        }
        (Operand::Array(x), Operand::Array(y)) => {
            let shape = broadcast_shapes(x.shape(), y.shape())?;
            super::check_allocation(super::shape_size(&shape)?, U::DTYPE)?;
            let xb = x.with_layout(x.layout().broadcast_to(&shape)?);
            let yb = y.with_layout(y.layout().broadcast_to(&shape)?);
            Array::from_ndarray(
                xb.with_view_as::<T, _>(|xv| {
                    yb.with_view_as::<T, _>(|yv| cpu::zip_map(xv, yv, &f))
                }),
            )
        }
        (Operand::Scalar(x), Operand::Scalar(y)) => {
            Array::from_vec(vec![f(x.cast(), y.cast())], vec![])
        }
    })
}

fn contains_zero(operand: &Operand) -> bool {
    match operand {
        Operand::Scalar(s) => s.as_f64() == 0.0,
        Operand::Array(a) => a.with_view_as::<i64, _>(|v| v.iter().any(|&x| x == 0)),
    }
}

/// `a op b` computed into `temporary`'s own buffer when that is allowed: `temporary` is an
/// unshared intermediate (say `x * 5` in `x * 5 + 1`) whose dtype and shape the result keeps.
/// Returns false, having done nothing, when a new array is needed.
pub fn binary_into_temporary(
    op: BinOp,
    temporary: &Array,
    other: Operand,
    temporary_is_lhs: bool,
) -> Result<bool> {
    let commutes = matches!(op, BinOp::Add | BinOp::Mul);
    if !matches!(op, BinOp::Add | BinOp::Sub | BinOp::Mul | BinOp::Div)
        || !(temporary_is_lhs || commutes)
        || !temporary.is_sole_owner()
        || !temporary.layout().is_contiguous()
    {
        return Ok(false);
    }
    let this = Operand::Array(temporary);
    let dtype = match op {
        BinOp::Div => result_dtype(&this, &other).to_float(),
        _ => result_dtype(&this, &other),
    };
    let fits = match other {
        Operand::Array(o) => {
            o.device() == temporary.device()
                && broadcast_shapes(o.shape(), temporary.shape())
                    .is_ok_and(|s| s == temporary.shape())
        }
        Operand::Scalar(_) => true,
    };
    if dtype != temporary.dtype() || dtype == DType::Bool || !fits {
        return Ok(false);
    }
    binary_in_place(op, temporary, other)?;
    Ok(true)
}

/// `a op b` elementwise (not `@`, which is `linalg::matmul`).
pub fn binary(op: BinOp, a: Operand, b: Operand) -> Result<Array> {
    check_same_device(&a, &b)?;
    let dtype = result_dtype(&a, &b);
    if on_gpu::involved(&[&a, &b]) {
        return binary_on_gpu(op, dtype, a, b);
    }
    if op.is_comparison() {
        return with_dtype4!(dtype, T => compare::<T>(op, a, b));
    }
    match (op, dtype) {
        (BinOp::Div, _) => {
            if dtype == DType::I64 && contains_zero(&b) {
                return Err(zero_division(op));
            }
            match dtype.to_float() {
                DType::F32 => zip_operands::<f32, f32>(a, b, |x, y| x / y),
                _ => zip_operands::<f64, f64>(a, b, |x, y| x / y),
            }
        }
        (BinOp::Add, DType::Bool) => zip_operands::<bool, bool>(a, b, |x, y| x | y),
        (BinOp::Mul, DType::Bool) => zip_operands::<bool, bool>(a, b, |x, y| x & y),
        (BinOp::Sub, DType::Bool) => Err(bool_subtraction()),
        (_, DType::Bool) => binary(op, Operand::Array(&to_i64(a)?), b),
        (BinOp::Mod, DType::I64) if contains_zero(&b) => Err(zero_division(op)),
        (BinOp::Pow, DType::I64) if has_negative(&b) => Err(Error::new(
            ErrorKind::Value,
            "integers to negative integer powers are not allowed",
        )),
        (_, DType::F64) => arith::<f64>(op, a, b),
        (_, DType::F32) => arith::<f32>(op, a, b),
        (_, DType::I64) => arith::<i64>(op, a, b),
    }
}

/// The gpu half of `binary`: the same dtype rules and errors, with the checks that would need a
/// device→host copy (an integer array divisor containing zero) left to the kernels, which give
/// NumPy's values (0) as CuPy does.
fn binary_on_gpu(op: BinOp, dtype: DType, a: Operand, b: Operand) -> Result<Array> {
    let scalar_zero = matches!(b, Operand::Scalar(s) if s.as_f64() == 0.0);
    let scalar_negative = matches!(b, Operand::Scalar(s) if s.as_f64() < 0.0);
    let (compute, out) = match (op, dtype) {
        _ if op.is_comparison() => (dtype, DType::Bool),
        (BinOp::Div, DType::I64 | DType::Bool) if scalar_zero => return Err(zero_division(op)),
        (BinOp::Div, _) => (dtype.to_float(), dtype.to_float()),
        (BinOp::Add | BinOp::Mul, DType::Bool) => (DType::Bool, DType::Bool),
        (BinOp::Sub, DType::Bool) => return Err(bool_subtraction()),
        (BinOp::Mod, DType::I64 | DType::Bool) if scalar_zero => return Err(zero_division(op)),
        (BinOp::Pow, DType::I64 | DType::Bool) if scalar_negative => {
            return Err(Error::new(
                ErrorKind::Value,
                "integers to negative integer powers are not allowed",
            ))
        }
        (_, DType::Bool) => (DType::I64, DType::I64),
        _ => (dtype, dtype),
    };
    on_gpu::binary(op, compute, out, a, b)
}

fn bool_subtraction() -> Error {
    type_error(
        "subtraction is not supported for bool arrays; use x != y (exclusive or) or astype(x, i64)",
    )
}

fn to_i64(operand: Operand) -> Result<Array> {
    match operand {
        Operand::Array(a) => a.astype(DType::I64),
        Operand::Scalar(s) => Ok(Array::from_vec(vec![s.cast::<i64>()], vec![])),
    }
}

fn has_negative(operand: &Operand) -> bool {
    match operand {
        Operand::Scalar(s) => s.as_f64() < 0.0,
        Operand::Array(a) => a.with_view_as::<i64, _>(|v| v.iter().any(|&x| x < 0)),
    }
}

pub fn zero_division(op: BinOp) -> Error {
    let what = if op == BinOp::Mod {
        "modulo"
    } else {
        "division"
    };
    Error::new(ErrorKind::ZeroDivision, format!("integer {what} by zero"))
}

fn arith<T: Arith>(op: BinOp, a: Operand, b: Operand) -> Result<Array> {
    match op {
        BinOp::Add => zip_operands::<T, T>(a, b, T::add),
        BinOp::Sub => zip_operands::<T, T>(a, b, T::sub),
        BinOp::Mul => zip_operands::<T, T>(a, b, T::mul),
        BinOp::Mod => zip_operands::<T, T>(a, b, T::rem),
        BinOp::Pow => zip_operands::<T, T>(a, b, T::pow),
        other => unreachable!("{other:?} is not elementwise arithmetic"),
    }
}

fn compare<T: CpuElement>(op: BinOp, a: Operand, b: Operand) -> Result<Array> {
    match op {
        BinOp::Eq => zip_operands::<T, bool>(a, b, |x, y| x == y),
        BinOp::Ne => zip_operands::<T, bool>(a, b, |x, y| x != y),
        BinOp::Lt => zip_operands::<T, bool>(a, b, |x, y| x < y),
        BinOp::Le => zip_operands::<T, bool>(a, b, |x, y| x <= y),
        BinOp::Gt => zip_operands::<T, bool>(a, b, |x, y| x > y),
        BinOp::Ge => zip_operands::<T, bool>(a, b, |x, y| x >= y),
        other => unreachable!("{other:?} is not a comparison"),
    }
}

/// `target op= value` in place (NumPy's `x *= 5`): the result must keep the target's dtype.
pub fn binary_in_place(op: BinOp, target: &Array, value: Operand) -> Result<()> {
    check_same_device(&Operand::Array(target), &value)?;
    let dtype = target.dtype();
    let wanted = match op {
        BinOp::Div => result_dtype(&Operand::Array(target), &value).to_float(),
        _ => result_dtype(&Operand::Array(target), &value),
    };
    let same_kind = wanted <= dtype || (wanted.is_float() && dtype.is_float());
    if !same_kind || (dtype == DType::Bool && !matches!(op, BinOp::Add | BinOp::Mul)) {
        return Err(type_error(format!(
            "cannot do {}= in place: the result would be {wanted} but the array is {dtype} (use x = x {} y)",
            op.symbol(),
            op.symbol()
        )));
    }
    if let Operand::Array(v) = value {
        // `x *= x` reads each element before writing it; only other overlaps need a copy.
        if v.shares_buffer(target) && v.layout() != target.layout() {
            return binary_in_place(op, target, Operand::Array(&v.copy()?));
        }
        broadcast_shapes(v.shape(), target.shape())
            .ok()
            .filter(|s| s == target.shape())
            .ok_or_else(|| {
                crate::error::shape_error(format!(
                    "non-broadcastable operand with shape {} doesn't match the broadcast shape {}",
                    shape_text(v.shape()),
                    shape_text(target.shape())
                ))
            })?;
    }
    if target.device() == Device::Gpu {
        return on_gpu::binary_in_place(op, target, value);
    }
    match (op, dtype) {
        (BinOp::Add, DType::Bool) => assign_with::<bool>(target, value, |x, y| x | y),
        (BinOp::Mul, DType::Bool) => assign_with::<bool>(target, value, |x, y| x & y),
        (BinOp::Div, DType::F32) => assign_with::<f32>(target, value, |x, y| x / y),
        (BinOp::Div, _) => assign_with::<f64>(target, value, |x, y| x / y),
        (_, DType::F64) => assign_arith::<f64>(op, target, value),
        (_, DType::F32) => assign_arith::<f32>(op, target, value),
        (_, _) => assign_arith::<i64>(op, target, value),
    }
}

fn assign_arith<T: Arith>(op: BinOp, target: &Array, value: Operand) -> Result<()> {
    match op {
        BinOp::Add => assign_with::<T>(target, value, T::add),
        BinOp::Sub => assign_with::<T>(target, value, T::sub),
        BinOp::Mul => assign_with::<T>(target, value, T::mul),
        other => unreachable!("no in-place {other:?}"),
    }
}

fn assign_with<T: CpuElement>(
    target: &Array,
    value: Operand,
    f: impl Fn(T, T) -> T + Sync + Send,
) -> Result<()> {
    match value {
        Operand::Scalar(s) => {
            let s: T = s.cast();
            target.with_view_mut::<T, _>(|t| cpu::map_assign(t, |x| f(x, s)));
        }
        Operand::Array(v) if v.shares_buffer(target) && v.layout() == target.layout() => {
            // `x *= x`: each element with itself, through the one (writable) view.
            target.with_view_mut::<T, _>(|t| cpu::map_assign(t, |x| f(x, x)));
        }
        Operand::Array(v) => {
            let v = v.with_layout(v.layout().broadcast_to(target.shape())?);
            v.with_view_as::<T, _>(|vv| {
                target.with_view_mut::<T, _>(|t| cpu::zip_assign(t, vv, &f))
            });
        }
    }
    Ok(())
}

/// Stores `value` (broadcast, converted to the target's dtype) into every element of `target`.
pub fn assign(target: &Array, value: Operand) -> Result<()> {
    check_same_device(&Operand::Array(target), &value)?;
    if let Operand::Array(v) = value {
        if v.shares_buffer(target) && v.layout() == target.layout() {
            return Ok(());
        }
        if v.shares_buffer(target) {
            return assign(target, Operand::Array(&v.copy()?));
        }
    }
    if target.device() == Device::Gpu {
        return on_gpu::assign(target, value);
    }
    with_dtype4!(target.dtype(), T => assign_with::<T>(target, value, |_, y| y))
}

/// The maths functions of LANGUAGE.md §6 that map one element to one element.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum UnaryFn {
    Neg,
    Abs,
    Sqrt,
    Exp,
    Log,
    Log2,
    Log10,
    Sin,
    Cos,
    Tan,
    Tanh,
    Floor,
    Ceil,
    Round,
    Sign,
    IsNan,
    IsInf,
    Not,
}

pub fn unary(f: UnaryFn, a: &Array) -> Result<Array> {
    let dtype = a.dtype();
    if a.device() == Device::Gpu {
        return unary_on_gpu(f, a);
    }
    match f {
        UnaryFn::Not => Ok(Array::from_ndarray(
            a.with_view_as::<bool, _>(|v| cpu::map(v, |x| !x)),
        )),
        UnaryFn::IsNan | UnaryFn::IsInf if !dtype.is_float() => {
            Array::full(a.shape(), Scalar::Bool(false), DType::Bool, a.device())
        }
        UnaryFn::IsNan => float_pred(a, |x: f64| x.is_nan()),
        UnaryFn::IsInf => float_pred(a, |x: f64| x.is_infinite()),
        UnaryFn::Floor | UnaryFn::Ceil | UnaryFn::Round if !dtype.is_float() => a.copy(),
        UnaryFn::Neg if dtype == DType::Bool => Err(type_error(
            "the unary - is not supported for bool arrays; use not(x)",
        )),
        UnaryFn::Neg | UnaryFn::Abs | UnaryFn::Sign
            if dtype == DType::I64 || dtype == DType::Bool =>
        {
            let op: fn(i64) -> i64 = match f {
                UnaryFn::Neg => |x| x.wrapping_neg(),
                UnaryFn::Abs => |x| x.wrapping_abs(),
                _ => |x| x.signum(),
            };
            let out = Array::from_ndarray(a.with_view_as::<i64, _>(|v| cpu::map(v, op)));
            if dtype == DType::Bool && f == UnaryFn::Abs {
                out.astype(DType::Bool)
            } else {
                Ok(out)
            }
        }
        _ => match dtype.to_float() {
            DType::F32 => {
                Ok(Array::from_ndarray(a.with_view_as::<f32, _>(|v| {
                    cpu::map(v, float_fn::<f32>(f))
                })))
            }
            _ => {
                Ok(Array::from_ndarray(a.with_view_as::<f64, _>(|v| {
                    cpu::map(v, float_fn::<f64>(f))
                })))
            }
        },
    }
}

fn unary_code(f: UnaryFn) -> i32 {
    use crate::device::gpu::abi::unary as code;
    match f {
        UnaryFn::Neg => code::NEG,
        UnaryFn::Abs => code::ABS,
        UnaryFn::Sqrt => code::SQRT,
        UnaryFn::Exp => code::EXP,
        UnaryFn::Log => code::LOG,
        UnaryFn::Log2 => code::LOG2,
        UnaryFn::Log10 => code::LOG10,
        UnaryFn::Sin => code::SIN,
        UnaryFn::Cos => code::COS,
        UnaryFn::Tan => code::TAN,
        UnaryFn::Tanh => code::TANH,
        UnaryFn::Floor => code::FLOOR,
        UnaryFn::Ceil => code::CEIL,
        UnaryFn::Round => code::ROUND,
        UnaryFn::Sign => code::SIGN,
        UnaryFn::IsNan => code::ISNAN,
        UnaryFn::IsInf => code::ISINF,
        UnaryFn::Not => code::NOT,
    }
}

/// The gpu half of `unary`, with the same result dtypes.
fn unary_on_gpu(f: UnaryFn, a: &Array) -> Result<Array> {
    let dtype = a.dtype();
    let code = unary_code(f);
    match f {
        UnaryFn::Not => on_gpu::unary(code, DType::Bool, DType::Bool, a),
        UnaryFn::IsNan | UnaryFn::IsInf if !dtype.is_float() => {
            Array::full(a.shape(), Scalar::Bool(false), DType::Bool, a.device())
        }
        UnaryFn::IsNan | UnaryFn::IsInf => on_gpu::unary(code, dtype, DType::Bool, a),
        UnaryFn::Floor | UnaryFn::Ceil | UnaryFn::Round if !dtype.is_float() => a.copy(),
        UnaryFn::Neg if dtype == DType::Bool => Err(type_error(
            "the unary - is not supported for bool arrays; use not(x)",
        )),
        UnaryFn::Abs if dtype == DType::Bool => a.copy(),
        UnaryFn::Neg | UnaryFn::Abs | UnaryFn::Sign if !dtype.is_float() => {
            on_gpu::unary(code, DType::I64, DType::I64, a)
        }
        _ => on_gpu::unary(code, dtype.to_float(), dtype.to_float(), a),
    }
}

fn float_pred(a: &Array, p: fn(f64) -> bool) -> Result<Array> {
    Ok(Array::from_ndarray(
        a.with_view_as::<f64, _>(|v| cpu::map(v, p)),
    ))
}

fn float_fn<T: FloatArith>(f: UnaryFn) -> fn(T) -> T {
    match f {
        UnaryFn::Neg => |x: T| -x,
        UnaryFn::Abs => |x: T| x.abs(),
        UnaryFn::Sqrt => |x: T| x.sqrt(),
        UnaryFn::Exp => |x: T| x.exp(),
        UnaryFn::Log => |x: T| x.ln(),
        UnaryFn::Log2 => |x: T| x.log2(),
        UnaryFn::Log10 => |x: T| x.log10(),
        UnaryFn::Sin => |x: T| x.sin(),
        UnaryFn::Cos => |x: T| x.cos(),
        UnaryFn::Tan => |x: T| x.tan(),
        UnaryFn::Tanh => |x: T| x.tanh(),
        UnaryFn::Floor => |x: T| x.floor(),
        UnaryFn::Ceil => |x: T| x.ceil(),
        UnaryFn::Round => round_half_even,
        UnaryFn::Sign => |x: T| {
            if x.is_nan() || x == T::zero() {
                x
            } else {
                x.signum()
            }
        },
        UnaryFn::IsNan | UnaryFn::IsInf | UnaryFn::Not => unreachable!("predicates return bool"),
    }
}

/// NumPy rounds halves to even: round(2.5) == 2.
pub fn round_half_even<T: num_traits::Float>(x: T) -> T {
    let r = x.round();
    if (x - x.trunc()).abs() == T::from(0.5).unwrap() {
        (x / T::from(2.0).unwrap()).round() * T::from(2.0).unwrap()
    } else {
        r
    }
}

/// `where(cond, a, b)`: elements of `a` where `cond`, else of `b`, all broadcast together.
pub fn where_(cond: &Array, a: Operand, b: Operand) -> Result<Array> {
    check_same_device(&Operand::Array(cond), &a)?;
    check_same_device(&Operand::Array(cond), &b)?;
    check_same_device(&a, &b)?;
    let dtype = result_dtype(&a, &b);
    let shape_of = |o: &Operand| match o {
        Operand::Array(x) => x.shape().to_vec(),
        Operand::Scalar(_) => vec![],
    };
    let shape = broadcast_shapes(
        &broadcast_shapes(cond.shape(), &shape_of(&a))?,
        &shape_of(&b),
    )?;
    if cond.device() == Device::Gpu {
        return on_gpu::where_(cond, a, b, dtype, &shape);
    }
    let expand = |o: Operand| -> Result<Array> {
        match o {
            Operand::Array(x) => x
                .with_layout(x.layout().broadcast_to(&shape)?)
                .astype(dtype),
            Operand::Scalar(s) => Array::full(&shape, s, dtype, cond.device()),
        }
    };
    let (a, b) = (expand(a)?, expand(b)?);
    let cond = cond.with_layout(cond.layout().broadcast_to(&shape)?);
    with_dtype4!(dtype, T => {
        let chosen = cond.with_view_as::<bool, _>(|c| {
            a.with_view::<T, _>(|av| b.with_view::<T, _>(|bv| {
                ndarray::Zip::from(&c).and(&av).and(&bv).map_collect(|&c, &x, &y| if c { x } else { y })
            }))
        });
        Ok(Array::from_ndarray(chosen))
    })
}

/// `maximum`/`minimum`: NumPy's, where a NaN on either side wins.
pub fn extremum(a: Operand, b: Operand, is_max: bool) -> Result<Array> {
    check_same_device(&a, &b)?;
    let dtype = result_dtype(&a, &b);
    if on_gpu::involved(&[&a, &b]) {
        return on_gpu::extremum(dtype, a, b, is_max);
    }
    with_dtype4!(dtype, T => zip_operands::<T, T>(a, b, move |x, y| {
        #[allow(clippy::eq_op)]
        let (x_nan, y_nan) = (x != x, y != y);
        let wanted = if is_max { std::cmp::Ordering::Greater } else { std::cmp::Ordering::Less };
        let x_wins = x.partial_cmp(&y) == Some(wanted);
        if x_nan || (!y_nan && x_wins) {
            x
        } else {
            y
        }
    }))
}
