//! Searching and counting (NumPy's `_searching`, `_counting`): positions of extremes, of true
//! elements, of insertion points. Where the result's size depends on the data (`nonzero`,
//! `argwhere`, `flatnonzero`), the gpu reads one count to the host (8 bytes, as CuPy does).

use super::manipulation::{ints_arg, tuple_of};
use super::{array_arg, builtin, flag_arg, reduced, Args, Builtin};
use crate::array::reduce::{self, Statistic};
use crate::array::{join, search, shape, sort, Array};
use crate::base::DType;
use crate::error::{value_error, Result};
use crate::interp::value::Value;
use crate::interp::Interpreter;
use crate::plan::reduce::Reduction;

pub fn builtins() -> Vec<Builtin> {
    vec![
        builtin!(
            "argmax",
            ["x", "axis=", "keepdims="],
            "Position of the largest element (of the flattened array), or along an axis; the first one wins ties, NaN wins.",
            "argmax([3, 1, 2])",
            |i, a| arg_extreme(i, &a, Reduction::ArgMax)
        ),
        builtin!(
            "argmin",
            ["x", "axis=", "keepdims="],
            "Position of the smallest element (of the flattened array), or along an axis.",
            "argmin([3, 1, 2])",
            |i, a| arg_extreme(i, &a, Reduction::ArgMin)
        ),
        builtin!(
            "nonzero",
            ["x"],
            "The positions of the non-zero elements: a tuple of one i64 array per axis.",
            "nonzero([[1, 0], [0, 2]])",
            |i, a| search::nonzero(&array_arg(i, a.required(0))?).map(tuple_of)
        ),
        builtin!(
            "argwhere",
            ["x"],
            "The positions of the non-zero elements, one row per element.",
            "argwhere([[1, 0], [0, 2]])",
            |i, a| {
                let x = array_arg(i, a.required(0))?;
                let columns = search::nonzero(&x)?;
                if x.ndim() == 0 {
                    let n = columns[0].size();
                    return Array::full(&[n, 0], crate::base::Scalar::Int(0), DType::I64, x.device())
                        .map(Value::array);
                }
                join::stack(&columns, 1).map(Value::array)
            }
        ),
        builtin!(
            "flatnonzero",
            ["x"],
            "The positions of the non-zero elements of the flattened array.",
            "flatnonzero([0, 3, 0, 4])",
            |i, a| {
                let x = shape::ravel(&array_arg(i, a.required(0))?)?;
                Ok(Value::array(search::nonzero(&x)?.remove(0)))
            }
        ),
        builtin!(
            "count_nonzero",
            ["x", "axis=", "keepdims="],
            "How many elements are non-zero, or along axes.",
            "count_nonzero([[1, 0], [3, 4]], axis=0)",
            |i, a| {
                let x = array_arg(i, a.required(0))?.astype(DType::Bool)?;
                let axes = a.get(1).map(|v| ints_arg(v, "axis")).transpose()?;
                let keepdims = flag_arg(&a, 2, false)?;
                let counted = reduce::reduce_axes(
                    Statistic::Reduce(Reduction::Sum),
                    &x,
                    axes.as_deref(),
                    keepdims,
                    0.0,
                )?;
                reduced(counted, axes.is_none() && !keepdims)
            }
        ),
        builtin!(
            "searchsorted",
            ["a", "v", "side=", "sorter="],
            "Where each of v would go in the ascending 1-d a to keep it sorted: before equal elements (side=\"left\") or after (\"right\").",
            "searchsorted([1, 2, 4], [2, 3])",
            searchsorted
        ),
    ]
}

fn arg_extreme(interp: &mut Interpreter, args: &Args, r: Reduction) -> Result<Value> {
    let x = array_arg(interp, args.required(0))?;
    let axis = args
        .get(1)
        .map(|v| super::count_arg(v, "axis"))
        .transpose()?;
    let keepdims = flag_arg(args, 2, false)?;
    let axes = axis.map(|a| vec![a]);
    let result = reduce::reduce_axes(Statistic::Reduce(r), &x, axes.as_deref(), keepdims, 0.0)?;
    reduced(result, axis.is_none() && !keepdims)
}

fn searchsorted(interp: &mut Interpreter, args: Args) -> Result<Value> {
    let mut sorted = array_arg(interp, args.required(0))?;
    if sorted.ndim() != 1 {
        return Err(value_error("searchsorted needs a 1-d array to search"));
    }
    let scalar = !super::is_array_input(args.required(1));
    let values = super::array_arg_on(interp, args.required(1), true)?;
    if values.device() != sorted.device() {
        return Err(crate::array::ops::device_mismatch(&sorted, &values));
    }
    let right = match args.get(2) {
        None => false,
        Some(Value::Str(s)) if &**s == "left" => false,
        Some(Value::Str(s)) if &**s == "right" => true,
        Some(other) => {
            return Err(value_error(format!(
                "side must be \"left\" or \"right\", not {}",
                other.describe()
            )))
        }
    };
    if let Some(order) = args.get(3) {
        let order = array_arg(interp, order)?;
        if order.ndim() != 1 || order.size() != sorted.size() {
            return Err(value_error(format!(
                "sorter must be a 1-d array of a's size ({}), not of shape {:?}",
                sorted.size(),
                order.shape()
            )));
        }
        sorted = crate::array::index::take(&sorted, &order, Some(0))?;
    }
    let dtype = sorted.dtype().promote(values.dtype());
    let found = sort::searchsorted(&sorted.astype(dtype)?, &values.astype(dtype)?, right)?;
    if scalar {
        return Ok(Value::from_scalar(found.item()?));
    }
    Ok(Value::array(found))
}
