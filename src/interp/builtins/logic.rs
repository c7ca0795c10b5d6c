//! Logic (NumPy's `_logic`): truth over axes and comparisons of whole arrays. The whole-array
//! answers are host bools (from the gpu, one counted device→host copy).

use super::manipulation::ints_arg;
use super::{array_arg, builtin, flag_arg, reduced, Args, Builtin};
use crate::array::ops::{binary, unary};
use crate::array::reduce::{self, Statistic};
use crate::array::Array;
use crate::error::Result;
use crate::interp::value::Value;
use crate::interp::Interpreter;
use crate::plan::reduce::Reduction;
use crate::plan::table::Op;

pub fn builtins() -> Vec<Builtin> {
    vec![
        builtin!(
            "all",
            ["x", "axis=", "keepdims="],
            "True if every element is true (non-zero), or over axes.",
            "all([1, 1, 0])",
            |i, a| truth(i, &a, Reduction::All)
        ),
        builtin!(
            "any",
            ["x", "axis=", "keepdims="],
            "True if any element is true (non-zero), or over axes.",
            "any([[0, 0], [0, 1]], axis=0)",
            |i, a| truth(i, &a, Reduction::Any)
        ),
        builtin!(
            "allclose",
            ["a", "b", "rtol=", "atol=", "equal_nan="],
            "True when isclose(a, b) holds everywhere (rtol 1e-05, atol 1e-08).",
            "allclose([1.0, 2.0], [1.0, 2.0000001])",
            |i, a| {
                let close = super::math::isclose(i, a)?;
                let close = array_arg(i, &close)?;
                every(&close)
            }
        ),
        builtin!(
            "array_equal",
            ["a1", "a2", "equal_nan="],
            "True when both have one shape and equal elements (NaNs equal with equal_nan=true).",
            "array_equal([1, 2], [1, 2])",
            |i, a| {
                let (x, y) = (array_arg(i, a.required(0))?, array_arg(i, a.required(1))?);
                if x.shape() != y.shape() {
                    return Ok(Value::Bool(false));
                }
                let equal_nan = flag_arg(&a, 2, false)?;
                every(&equal(&x, &y, equal_nan)?)
            }
        ),
        builtin!(
            "array_equiv",
            ["a1", "a2"],
            "True when the arrays broadcast together and are equal everywhere.",
            "array_equiv([1, 2], [[1, 2], [1, 2]])",
            |i, a| {
                let (x, y) = (array_arg(i, a.required(0))?, array_arg(i, a.required(1))?);
                if crate::base::layout::broadcast_shapes(x.shape(), y.shape()).is_err() {
                    return Ok(Value::Bool(false));
                }
                every(&equal(&x, &y, false)?)
            }
        ),
    ]
}

fn truth(interp: &mut Interpreter, args: &Args, r: Reduction) -> Result<Value> {
    let x = array_arg(interp, args.required(0))?;
    let axes = args.get(1).map(|v| ints_arg(v, "axis")).transpose()?;
    let keepdims = flag_arg(args, 2, false)?;
    let result = reduce::reduce_axes(Statistic::Reduce(r), &x, axes.as_deref(), keepdims, 0.0)?;
    reduced(result, axes.is_none() && !keepdims)
}

fn equal(x: &Array, y: &Array, equal_nan: bool) -> Result<Array> {
    let same = binary(Op::Equal, x, y)?;
    if !equal_nan || !(x.dtype().is_inexact() || y.dtype().is_inexact()) {
        return Ok(same);
    }
    let both_nan = binary(Op::LogicalAnd, &unary(Op::Isnan, x)?, &unary(Op::Isnan, y)?)?;
    binary(Op::LogicalOr, &same, &both_nan)
}

fn every(mask: &Array) -> Result<Value> {
    let all = reduce::reduce_all(Reduction::All, mask)?;
    Ok(Value::Bool(!all.is_zero()))
}
