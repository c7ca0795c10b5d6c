//! Shapes: reshaping, transposing, joining.

use super::{array_arg, arrays_arg, axis_arg, builtin, count_arg, Builtin};
use crate::array;
use crate::error::Result;
use crate::interp::value::Value;

pub fn builtins() -> Vec<Builtin> {
    vec![
        builtin!(
            "reshape",
            ["x", "shape"],
            "The elements of x with a new shape (one dimension may be -1).",
            "reshape(arange(6), [2, 3])",
            |i, a| {
                let x = array_arg(i, a.required(0))?;
                let dims: Vec<i64> = match a.required(1) {
                    Value::List(items) | Value::Tuple(items) => items
                        .iter()
                        .map(|d| count_arg(d, "a dimension"))
                        .collect::<Result<_>>()?,
                    other => vec![count_arg(other, "a shape")?],
                };
                array::shape::reshape(&x, &dims).map(Value::array)
            }
        ),
        builtin!(
            "ravel",
            ["x"],
            "The elements of x as a 1-d array.",
            "ravel([[1, 2], [3, 4]])",
            |i, a| { array::shape::ravel(&array_arg(i, a.required(0))?).map(Value::array) }
        ),
        builtin!(
            "transpose",
            ["x"],
            "x with its axes reversed (a view; also x.T).",
            "transpose([[1, 2], [3, 4]])",
            |i, a| {
                Ok(Value::array(array::shape::transpose(&array_arg(
                    i,
                    a.required(0),
                )?)))
            }
        ),
        builtin!(
            "concatenate",
            ["arrays", "axis="],
            "Joins arrays along an existing axis.",
            "concatenate([ones(2), zeros(3)])",
            |i, a| {
                let arrays = arrays_arg(i, a.required(0))?;
                array::shape::concatenate(&arrays, axis_arg(&a, 1)?.unwrap_or(0)).map(Value::array)
            }
        ),
        builtin!(
            "stack",
            ["arrays", "axis="],
            "Joins arrays of one shape along a new axis.",
            "stack([ones(2), zeros(2)], axis=1)",
            |i, a| {
                let arrays = arrays_arg(i, a.required(0))?;
                array::shape::stack(&arrays, axis_arg(&a, 1)?.unwrap_or(0)).map(Value::array)
            }
        ),
    ]
}
