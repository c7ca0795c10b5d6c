//! Reductions and running sums, with NumPy's dtypes: a full reduction is a host scalar (from the
//! gpu, one counted device→host copy), one along an axis an array on the same device.

use super::{array_arg, axis_arg, builtin, float_arg, Args, Builtin};
use crate::array::reduce::{self, Statistic};
use crate::error::Result;
use crate::interp::value::Value;
use crate::interp::Interpreter;
use crate::plan::reduce::Reduction;

macro_rules! reduction {
    ($name:literal, $statistic:expr, $doc:literal, $example:literal) => {
        builtin!($name, ["x", "axis="], $doc, $example, |i, a| statistic(
            i, &a, $statistic
        ))
    };
}

macro_rules! spread {
    ($name:literal, $statistic:expr, $doc:literal, $example:literal) => {
        builtin!($name, ["x", "axis=", "ddof="], $doc, $example, |i, a| {
            statistic(i, &a, $statistic)
        })
    };
}

pub fn builtins() -> Vec<Builtin> {
    use Reduction::*;
    vec![
        reduction!(
            "sum",
            Statistic::Reduce(Sum),
            "Sum of the elements (a host scalar), or along an axis (an array).",
            "sum(ones([2, 3]), axis=0)"
        ),
        reduction!(
            "prod",
            Statistic::Reduce(Prod),
            "Product of the elements, or along an axis.",
            "prod([1, 2, 3, 4])"
        ),
        reduction!(
            "mean",
            Statistic::Mean,
            "Arithmetic mean, or along an axis (integers average as float64).",
            "mean([1, 2, 3, 4])"
        ),
        spread!(
            "std",
            Statistic::Std,
            "Standard deviation (ddof=0 unless given), or along an axis.",
            "std([1, 2, 3, 4])"
        ),
        spread!(
            "var",
            Statistic::Var,
            "Variance (ddof=0 unless given), or along an axis.",
            "var([1, 2, 3, 4], ddof=1)"
        ),
        reduction!(
            "min",
            Statistic::Reduce(Min),
            "Smallest element, or along an axis (NaN wins).",
            "min([3, 1, 2])"
        ),
        reduction!(
            "max",
            Statistic::Reduce(Max),
            "Largest element, or along an axis (NaN wins).",
            "max([[1, 5], [7, 2]], axis=1)"
        ),
        reduction!(
            "argmin",
            Statistic::Reduce(ArgMin),
            "Position of the smallest element (flattened), or along an axis.",
            "argmin([3, 1, 2])"
        ),
        reduction!(
            "argmax",
            Statistic::Reduce(ArgMax),
            "Position of the largest element (flattened), or along an axis.",
            "argmax([3, 1, 2])"
        ),
        reduction!(
            "any",
            Statistic::Reduce(Any),
            "True if any element is true (non-zero), or along an axis.",
            "any([0, 0, 1])"
        ),
        reduction!(
            "all",
            Statistic::Reduce(All),
            "True if every element is true (non-zero), or along an axis.",
            "all([1, 1, 0])"
        ),
        builtin!(
            "cumsum",
            ["x", "axis="],
            "Running sums; without an axis, over the flattened array.",
            "cumsum([1, 2, 3])",
            |i, a| {
                let x = array_arg(i, a.required(0))?;
                reduce::cumsum(&x, axis_arg(&a, 1)?).map(Value::array)
            }
        ),
    ]
}

fn statistic(interp: &mut Interpreter, args: &Args, s: Statistic) -> Result<Value> {
    let x = array_arg(interp, args.required(0))?;
    let ddof = args
        .get(2)
        .map(|v| float_arg(v, "ddof"))
        .transpose()?
        .unwrap_or(0.0);
    match axis_arg(args, 1)? {
        None => reduce::statistic_all(s, &x, ddof).map(Value::from_scalar),
        Some(axis) => reduce::reduce_axis(s, &x, axis, ddof).map(Value::array),
    }
}
