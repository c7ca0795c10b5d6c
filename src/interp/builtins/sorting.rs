//! Sorting (NumPy's `sort`, `argsort`, `partition`, `lexsort`; the standard's `descending=` and
//! `stable=`): a radix sort on either device (see `array::sort`).

use super::{array_arg, arrays_arg, builtin, count_arg, flag_arg, Args, Builtin};
use crate::array::{index, sort, Array};
use crate::error::{type_error, value_error, Result};
use crate::interp::value::Value;
use crate::interp::Interpreter;

pub fn builtins() -> Vec<Builtin> {
    vec![
        builtin!(
            "sort",
            ["x", "axis=", "kind=", "descending=", "stable="],
            "A sorted copy along an axis (the last by default; axis=none sorts the flattened array), NaN last; descending=true reverses the order.",
            "sort([3, 1, 2])",
            |i, a| {
                let (x, axis, descending, stable) = sort_args(i, &a)?;
                sort::sort(&x, axis, descending, stable).map(Value::array)
            }
        ),
        builtin!(
            "argsort",
            ["x", "axis=", "kind=", "descending=", "stable="],
            "The positions that sort x along an axis (always a stable sort).",
            "argsort([3, 1, 2])",
            |i, a| {
                let (x, axis, descending, _) = sort_args(i, &a)?;
                sort::argsort(&x, axis, descending).map(Value::array)
            }
        ),
        builtin!(
            "partition",
            ["x", "kth", "axis="],
            "x rearranged so that element kth is where sorting would put it, smaller ones before, larger after (arrsh sorts fully).",
            "partition([3, 4, 1, 2], 1)",
            |i, a| {
                let (x, axis) = partition_args(i, &a)?;
                sort::sort(&x, axis, false, false).map(Value::array)
            }
        ),
        builtin!(
            "argpartition",
            ["x", "kth", "axis="],
            "The positions that partition x at kth (arrsh's are those of a full stable sort).",
            "argpartition([3, 4, 1, 2], 1)",
            |i, a| {
                let (x, axis) = partition_args(i, &a)?;
                sort::argsort(&x, axis, false).map(Value::array)
            }
        ),
        builtin!(
            "lexsort",
            ["keys", "axis="],
            "The positions that sort by several keys, the last key first (a stable sort per key).",
            "lexsort([[1, 2, 1], [0, 0, 1]])",
            |i, a| {
                let keys = arrays_arg(i, a.required(0))?;
                let axis = a.get(1).map(|v| count_arg(v, "axis")).transpose()?.unwrap_or(-1);
                lexsort(&keys, axis).map(Value::array)
            }
        ),
    ]
}

fn sort_args(interp: &mut Interpreter, args: &Args) -> Result<(Array, Option<i64>, bool, bool)> {
    let x = array_arg(interp, args.required(0))?;
    let axis = match args.values.get(1) {
        Some(Some(Value::None)) => None,
        _ => Some(
            args.get(1)
                .map(|v| count_arg(v, "axis"))
                .transpose()?
                .unwrap_or(-1),
        ),
    };
    let kind_stable = match args.get(2) {
        None => false,
        Some(Value::Str(k)) if matches!(&**k, "quicksort" | "heapsort") => false,
        Some(Value::Str(k)) if matches!(&**k, "stable" | "mergesort") => true,
        Some(other) => {
            return Err(value_error(format!(
                "sort kind must be one of 'quicksort', 'heapsort', 'stable', 'mergesort', not {}",
                other.describe()
            )))
        }
    };
    let descending = flag_arg(args, 3, false)?;
    let stable = kind_stable || flag_arg(args, 4, false)?;
    if x.ndim() == 0 && axis.is_some() {
        return Err(type_error("sort of a 0-d array needs axis=none"));
    }
    Ok((x, axis, descending, stable))
}

fn partition_args(interp: &mut Interpreter, args: &Args) -> Result<(Array, Option<i64>)> {
    let x = array_arg(interp, args.required(0))?;
    let axis = match args.values.get(2) {
        Some(Some(Value::None)) => None,
        _ => Some(
            args.get(2)
                .map(|v| count_arg(v, "axis"))
                .transpose()?
                .unwrap_or(-1),
        ),
    };
    let len = match axis {
        None => x.size(),
        Some(a) => x.shape()[crate::array::reduce::normalize_axis(a, x.ndim())?],
    };
    for k in super::manipulation::ints_arg(args.required(1), "kth")? {
        let n = len as i64;
        if k < -n || k >= n {
            return Err(value_error(format!("kth(={k}) out of bounds ({len})")));
        }
    }
    Ok((x, axis))
}

/// Stable sorts by each key in turn, the last key deciding first.
fn lexsort(keys: &[Array], axis: i64) -> Result<Array> {
    let Some((first, rest)) = keys.split_first() else {
        return Err(type_error("need at least one key to sort by"));
    };
    if rest.iter().any(|k| k.shape() != first.shape()) {
        return Err(value_error("all keys need to be the same shape"));
    }
    let mut order = sort::argsort(first, Some(axis), false)?;
    for key in rest {
        let reordered = index::take_along_axis(key, &order, axis)?;
        let by_key = sort::argsort(&reordered, Some(axis), false)?;
        order = index::take_along_axis(&order, &by_key, axis)?;
    }
    Ok(order)
}
