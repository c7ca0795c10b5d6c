//! Sets (NumPy's `unique` and `*1d`, the standard's `unique_*`; CuPy's `_manipulation/add_remove`
//! and `_logic/truth`): sorted distinct values and membership, on either device (see `array::sets`).

use super::manipulation::tuple_of;
use super::{array_arg, builtin, count_arg, flag_arg, Args, Builtin};
use crate::array::sets::{self, Unique, Wanted};
use crate::array::Array;
use crate::error::Result;
use crate::interp::value::Value;
use crate::interp::Interpreter;

pub fn builtins() -> Vec<Builtin> {
    vec![
        builtin!(
            "unique",
            ["x", "return_index=", "return_inverse=", "return_counts=", "axis=", "equal_nan="],
            "The sorted distinct elements (NaNs as one unless equal_nan=false); with return_index, return_inverse, return_counts a tuple adding first positions, each element's place among the values, and counts.",
            "unique([3, 1, 3, 2], return_counts=true)",
            |i, a| {
                let wanted = Wanted {
                    index: flag_arg(&a, 1, false)?,
                    inverse: flag_arg(&a, 2, false)?,
                    counts: flag_arg(&a, 3, false)?,
                    equal_nan: flag_arg(&a, 5, true)?,
                };
                let found = find(i, &a, wanted, 4)?;
                let extra = wanted.index || wanted.inverse || wanted.counts;
                let parts: Vec<Array> = [found.values, found.index, found.inverse, found.counts]
                    .into_iter()
                    .flatten()
                    .collect();
                match extra {
                    false => Ok(Value::array(parts.into_iter().next().expect("values"))),
                    true => Ok(tuple_of(parts)),
                }
            }
        ),
        builtin!(
            "unique_values",
            ["x"],
            "The sorted distinct elements (each NaN its own, as the standard says).",
            "unique_values([3, 1, 3])",
            |i, a| {
                let found = find(i, &a, Wanted::default(), usize::MAX)?;
                Ok(Value::array(found.values.expect("values")))
            }
        ),
        builtin!(
            "unique_counts",
            ["x"],
            "(values, counts) of the distinct elements.",
            "unique_counts([3, 1, 3])",
            |i, a| standard(i, &a, Wanted { counts: true, ..Wanted::default() })
        ),
        builtin!(
            "unique_inverse",
            ["x"],
            "(values, inverse_indices): the distinct elements and each element's place among them (x's shape).",
            "unique_inverse([3, 1, 3])",
            |i, a| standard(i, &a, Wanted { inverse: true, ..Wanted::default() })
        ),
        builtin!(
            "unique_all",
            ["x"],
            "(values, indices, inverse_indices, counts) of the distinct elements.",
            "unique_all([3, 1, 3])",
            |i, a| {
                let all = Wanted { index: true, inverse: true, counts: true, equal_nan: false };
                standard(i, &a, all)
            }
        ),
        builtin!(
            "isin",
            ["element", "test_elements", "invert="],
            "True where an element of `element` is among `test_elements` (false there with invert=true).",
            "isin([1, 2, 3], [2, 5])",
            |i, a| {
                let x = array_arg(i, a.required(0))?;
                let tests = array_arg(i, a.required(1))?;
                sets::isin(&x, &tests, flag_arg(&a, 2, false)?).map(Value::array)
            }
        ),
        builtin!(
            "intersect1d",
            ["ar1", "ar2"],
            "The sorted distinct values in both arrays.",
            "intersect1d([1, 3, 4, 3], [3, 1, 2, 1])",
            |i, a| {
                let (x, y) = (array_arg(i, a.required(0))?, array_arg(i, a.required(1))?);
                sets::intersect1d(&x, &y).map(Value::array)
            }
        ),
        builtin!(
            "union1d",
            ["ar1", "ar2"],
            "The sorted distinct values in either array.",
            "union1d([-1, 0, 1], [-2, 0, 2])",
            |i, a| {
                let (x, y) = (array_arg(i, a.required(0))?, array_arg(i, a.required(1))?);
                sets::union1d(&x, &y).map(Value::array)
            }
        ),
        builtin!(
            "setdiff1d",
            ["ar1", "ar2"],
            "The sorted distinct values of ar1 that are not in ar2.",
            "setdiff1d([1, 2, 3, 2, 4, 1], [3, 4, 5, 6])",
            |i, a| {
                let (x, y) = (array_arg(i, a.required(0))?, array_arg(i, a.required(1))?);
                sets::setdiff1d(&x, &y).map(Value::array)
            }
        ),
    ]
}

/// `unique` of the flattened array, or along `axis=` when the built-in has it (at `axis_at`).
fn find(interp: &mut Interpreter, args: &Args, wanted: Wanted, axis_at: usize) -> Result<Unique> {
    let x = array_arg(interp, args.required(0))?;
    match args.get(axis_at) {
        None => sets::unique(&x, wanted),
        Some(axis) => sets::unique_rows(&x, count_arg(axis, "axis")?, wanted),
    }
}

/// The standard's `unique_*`: a tuple of what is wanted, NaNs distinct.
fn standard(interp: &mut Interpreter, args: &Args, wanted: Wanted) -> Result<Value> {
    let found = find(interp, args, wanted, usize::MAX)?;
    let parts: Vec<Array> = [found.values, found.index, found.inverse, found.counts]
        .into_iter()
        .flatten()
        .collect();
    Ok(tuple_of(parts))
}
