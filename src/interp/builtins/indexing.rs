//! Indexing functions (NumPy's `_indexing`): the same selections as `x[...]`, by name.

use super::{array_arg, axis_arg, builtin, operand_arg, Builtin};
use crate::array::index;
use crate::interp::value::Value;

pub fn builtins() -> Vec<Builtin> {
    vec![
        builtin!(
            "take",
            ["x", "indices", "axis="],
            "The elements at `indices` along an axis (of the flattened array without one).",
            "take([4, 3, 5, 7], [0, 3])",
            |i, a| {
                let x = array_arg(i, a.required(0))?;
                let at = array_arg(i, a.required(1))?;
                index::take(&x, &at, axis_arg(&a, 2)?).map(Value::array)
            }
        ),
        builtin!(
            "take_along_axis",
            ["x", "indices", "axis"],
            "For each position of `indices` (as argsort gives), the element of x it names along the axis.",
            "take_along_axis([[10, 30, 20]], [[0, 2, 1]], 1)",
            |i, a| {
                let x = array_arg(i, a.required(0))?;
                let at = array_arg(i, a.required(1))?;
                let axis = super::count_arg(a.required(2), "axis")?;
                index::take_along_axis(&x, &at, axis).map(Value::array)
            }
        ),
        builtin!(
            "put",
            ["x", "indices", "values"],
            "Stores values (broadcast) at positions of the flattened x, in place.",
            "put(x, [0, 2], [-1, -2])",
            |i, a| {
                let x = super::in_place_arg(a.required(0), "put")?;
                let at = array_arg(i, a.required(1))?;
                let values = operand_arg(i, a.required(2))?;
                index::put(&x, &at, values.as_operand())?;
                Ok(Value::None)
            }
        ),
        builtin!(
            "put_along_axis",
            ["x", "indices", "values", "axis"],
            "Stores values at the positions `indices` names along the axis, in place.",
            "put_along_axis(x, [[0], [1]], 0, 1)",
            |i, a| {
                let x = super::in_place_arg(a.required(0), "put_along_axis")?;
                let at = array_arg(i, a.required(1))?;
                let values = operand_arg(i, a.required(2))?;
                let axis = super::count_arg(a.required(3), "axis")?;
                index::put_along_axis(&x, &at, values.as_operand(), axis)?;
                Ok(Value::None)
            }
        ),
    ]
}
