//! Manipulation (NumPy's "array manipulation routines", CuPy's `_manipulation`): shapes and
//! axes (views), joining, repeating, padding, splitting.

use super::{
    array_arg, arrays_arg, axis_arg, builtin, count_arg, scalar_arg, shape_arg, Args, Builtin,
};
use crate::array::join::{self, PadMode};
use crate::array::{shape, Array};
use crate::error::{type_error, value_error, Result};
use crate::interp::value::Value;
use crate::interp::Interpreter;

pub fn builtins() -> Vec<Builtin> {
    vec![
        builtin!(
            "reshape",
            ["x", "shape", "order="],
            "The elements of x with a new shape (one dimension may be -1); order=\"F\" reads and writes them column-major.",
            "reshape(arange(6), [2, 3])",
            |i, a| {
                let x = array_arg(i, a.required(0))?;
                let dims = match a.required(1) {
                    list @ (Value::List(_) | Value::Tuple(_) | Value::Array(_)) => {
                        ints_arg(list, "a dimension")?
                    }
                    n => vec![count_arg(n, "a shape")?],
                };
                reshape_ordered(&x, &dims, order_arg(&a, 2)?).map(Value::array)
            }
        ),
        builtin!(
            "ravel",
            ["x", "order="],
            "The elements of x as a 1-d array (a view when it can be).",
            "ravel([[1, 2], [3, 4]])",
            |i, a| {
                let x = array_arg(i, a.required(0))?;
                reshape_ordered(&x, &[-1], order_arg(&a, 1)?).map(Value::array)
            }
        ),
        builtin!(
            "transpose",
            ["x", "axes="],
            "x with its axes reversed, or in the order `axes` gives (a view; also x.T).",
            "transpose(ones([2, 3, 4]), [1, 0, 2]).shape",
            |i, a| {
                let x = array_arg(i, a.required(0))?;
                match a.get(1) {
                    None => Ok(Value::array(shape::transpose(&x))),
                    Some(axes) => shape::permute(&x, &ints_arg(axes, "an axis")?).map(Value::array),
                }
            }
        ),
        builtin!(
            "permute_dims",
            ["x", "axes"],
            "x with its axes in the order `axes` gives (a view): the standard's transpose.",
            "permute_dims(ones([2, 3]), [1, 0]).shape",
            |i, a| {
                let x = array_arg(i, a.required(0))?;
                shape::permute(&x, &ints_arg(a.required(1), "an axis")?).map(Value::array)
            }
        ),
        builtin!(
            "matrix_transpose",
            ["x"],
            "The last two axes swapped (a view; also x.mT).",
            "matrix_transpose(ones([5, 2, 3])).shape",
            |i, a| shape::matrix_transpose(&array_arg(i, a.required(0))?).map(Value::array)
        ),
        builtin!(
            "swapaxes",
            ["x", "axis1", "axis2"],
            "x with two axes exchanged (a view).",
            "swapaxes(ones([2, 3, 4]), 0, 2).shape",
            |i, a| {
                let x = array_arg(i, a.required(0))?;
                let (p, q) = (count_arg(a.required(1), "axis1")?, count_arg(a.required(2), "axis2")?);
                shape::swapaxes(&x, p, q).map(Value::array)
            }
        ),
        builtin!(
            "moveaxis",
            ["x", "source", "destination"],
            "x with the axes `source` moved to `destination`, the others in their order (a view).",
            "moveaxis(ones([2, 3, 4]), 0, -1).shape",
            |i, a| {
                let x = array_arg(i, a.required(0))?;
                let from = ints_arg(a.required(1), "an axis")?;
                let to = ints_arg(a.required(2), "an axis")?;
                shape::moveaxis(&x, &from, &to).map(Value::array)
            }
        ),
        builtin!(
            "expand_dims",
            ["x", "axis"],
            "x with new axes of length 1 at `axis` (an int or a list; a view).",
            "expand_dims([1, 2], 0).shape",
            |i, a| {
                let x = array_arg(i, a.required(0))?;
                shape::expand_dims(&x, &ints_arg(a.required(1), "an axis")?).map(Value::array)
            }
        ),
        builtin!(
            "squeeze",
            ["x", "axis="],
            "x without its axes of length 1 (or only those of `axis`; a view).",
            "squeeze(ones([1, 3, 1])).shape",
            |i, a| {
                let x = array_arg(i, a.required(0))?;
                let axes = a.get(1).map(|v| ints_arg(v, "an axis")).transpose()?;
                shape::squeeze(&x, axes.as_deref()).map(Value::array)
            }
        ),
        builtin!(
            "flip",
            ["x", "axis="],
            "The elements in reverse order along `axis` (an int or a list; all axes by default; a view).",
            "flip([1, 2, 3])",
            |i, a| {
                let x = array_arg(i, a.required(0))?;
                let axes = a.get(1).map(|v| ints_arg(v, "an axis")).transpose()?;
                shape::flip(&x, axes.as_deref()).map(Value::array)
            }
        ),
        builtin!(
            "fliplr",
            ["x"],
            "The columns (axis 1) in reverse order (a view).",
            "fliplr([[1, 2], [3, 4]])",
            |i, a| flip_axis(i, &a, 1)
        ),
        builtin!(
            "flipud",
            ["x"],
            "The rows (axis 0) in reverse order (a view).",
            "flipud([[1, 2], [3, 4]])",
            |i, a| flip_axis(i, &a, 0)
        ),
        builtin!(
            "broadcast_to",
            ["x", "shape"],
            "x seen with a broadcast shape (a view).",
            "broadcast_to([1, 2, 3], [2, 3])",
            |i, a| {
                let x = array_arg(i, a.required(0))?;
                shape::broadcast_to(&x, &shape_arg(a.required(1))?).map(Value::array)
            }
        ),
        builtin!(
            "broadcast_arrays",
            ["*arrays"],
            "The arrays seen with the shape they broadcast to together (a tuple of views).",
            "broadcast_arrays([1, 2], [[3], [4]])[0]",
            |i, a| {
                let arrays = rest_arrays(i, &a)?;
                shape::broadcast_arrays(&arrays).map(tuple_of)
            }
        ),
        builtin!(
            "atleast_1d",
            ["*arrays"],
            "Each array with at least one axis (a tuple when given several).",
            "atleast_1d(5)",
            |i, a| at_least(i, &a, 1)
        ),
        builtin!(
            "atleast_2d",
            ["*arrays"],
            "Each array with at least two axes (new ones in front).",
            "atleast_2d([1, 2]).shape",
            |i, a| at_least(i, &a, 2)
        ),
        builtin!(
            "atleast_3d",
            ["*arrays"],
            "Each array with at least three axes (a 1-d array becomes 1×n×1).",
            "atleast_3d([1, 2]).shape",
            |i, a| at_least(i, &a, 3)
        ),
        builtin!(
            "concatenate",
            ["arrays", "axis="],
            "Joins arrays along an existing axis (0 by default); axis=none joins them flattened. Also named concat.",
            "concatenate([ones(2), zeros(3)])",
            concatenate
        ),
        builtin!(
            "concat",
            ["arrays", "axis="],
            "The standard's name for concatenate.",
            "concat([[1, 2], [3]])",
            concatenate
        ),
        builtin!(
            "stack",
            ["arrays", "axis="],
            "Joins arrays of one shape along a new axis.",
            "stack([ones(2), zeros(2)], axis=1)",
            |i, a| {
                let arrays = arrays_arg(i, a.required(0))?;
                let axis = match a.values.get(1) {
                    Some(Some(Value::None)) => {
                        return Err(type_error("stack needs an integer axis, not none"))
                    }
                    _ => axis_arg(&a, 1)?.unwrap_or(0),
                };
                join::stack(&arrays, axis).map(Value::array)
            }
        ),
        builtin!(
            "hstack",
            ["arrays"],
            "Joins arrays column-wise (along axis 1; 1-d arrays end to end).",
            "hstack([[1, 2], [3]])",
            |i, a| stack_along(i, &a, 'h')
        ),
        builtin!(
            "vstack",
            ["arrays"],
            "Joins arrays row-wise (1-d arrays become rows).",
            "vstack([[1, 2], [3, 4]])",
            |i, a| stack_along(i, &a, 'v')
        ),
        builtin!(
            "dstack",
            ["arrays"],
            "Joins arrays along a third axis.",
            "dstack([[1, 2], [3, 4]]).shape",
            |i, a| stack_along(i, &a, 'd')
        ),
        builtin!(
            "column_stack",
            ["arrays"],
            "1-d arrays as the columns of a 2-d array (2-d arrays joined along axis 1).",
            "column_stack([[1, 2], [3, 4]])",
            |i, a| stack_along(i, &a, 'c')
        ),
        builtin!(
            "tile",
            ["x", "reps"],
            "x repeated `reps` times along each axis.",
            "tile([1, 2], 3)",
            |i, a| {
                let x = array_arg(i, a.required(0))?;
                let reps: Vec<usize> = shape_arg(a.required(1))?;
                join::tile(&x, &reps).map(Value::array)
            }
        ),
        builtin!(
            "repeat",
            ["x", "repeats", "axis="],
            "Each element repeated (a count, or one count per element along the axis); flattened without an axis.",
            "repeat([1, 2], 2)",
            |i, a| {
                let x = array_arg(i, a.required(0))?;
                let axis = axis_arg(&a, 2)?;
                match a.required(1) {
                    Value::List(_) | Value::Tuple(_) | Value::Array(_) => {
                        let counts = shape_arg(a.required(1))?;
                        match counts.as_slice() {
                            [n] => join::repeat(&x, *n, axis),
                            _ => join::repeat_each(&x, &counts, axis),
                        }
                    }
                    n => {
                        let n = usize::try_from(count_arg(n, "repeats")?)
                            .map_err(|_| value_error("repeats may not contain negative values"))?;
                        join::repeat(&x, n, axis)
                    }
                }
                .map(Value::array)
            }
        ),
        builtin!(
            "roll",
            ["x", "shift", "axis="],
            "The elements shifted along an axis (the flattened array without one), wrapping around; shift and axis may be lists.",
            "roll([1, 2, 3, 4], 1)",
            |i, a| {
                let mut x = array_arg(i, a.required(0))?;
                let shifts = ints_arg(a.required(1), "a shift")?;
                match a.get(2) {
                    None => {
                        let total: i64 = shifts.iter().sum();
                        join::roll(&x, total, None).map(Value::array)
                    }
                    Some(axes) => {
                        let axes = ints_arg(axes, "an axis")?;
                        let pairs: Vec<(i64, i64)> = match (shifts.len(), axes.len()) {
                            (1, _) => axes.iter().map(|&d| (shifts[0], d)).collect(),
                            (_, 1) => shifts.iter().map(|&s| (s, axes[0])).collect(),
                            (p, q) if p == q => shifts.into_iter().zip(axes).collect(),
                            _ => return Err(value_error("'shift' and 'axis' should be scalars or 1D sequences of the same length")),
                        };
                        for (s, d) in pairs {
                            x = join::roll(&x, s, Some(d))?;
                        }
                        Ok(Value::array(x))
                    }
                }
            }
        ),
        builtin!(
            "pad",
            ["x", "pad_width", "mode=", "constant_values="],
            "x with elements added before and after each axis: mode \"constant\" (constant_values, 0 by default), \"edge\", \"reflect\" or \"wrap\".",
            "pad([1, 2, 3], [1, 2], mode=\"edge\")",
            pad
        ),
        builtin!(
            "split",
            ["x", "indices_or_sections", "axis="],
            "Views of x cut into equal sections, or at the given positions, along an axis (a tuple).",
            "split(arange(6), 3)",
            |i, a| split(i, &a, true, None)
        ),
        builtin!(
            "array_split",
            ["x", "indices_or_sections", "axis="],
            "As split, but the sections may differ in length by one.",
            "array_split(arange(5), 2)",
            |i, a| split(i, &a, false, None)
        ),
        builtin!(
            "hsplit",
            ["x", "indices_or_sections"],
            "split along axis 1 (axis 0 for 1-d arrays).",
            "hsplit(ones([2, 4]), 2)[0].shape",
            |i, a| split(i, &a, true, Some('h'))
        ),
        builtin!(
            "vsplit",
            ["x", "indices_or_sections"],
            "split along axis 0.",
            "vsplit(ones([4, 2]), 2)[0].shape",
            |i, a| split(i, &a, true, Some('v'))
        ),
        builtin!(
            "unstack",
            ["x", "axis="],
            "The sub-arrays along an axis, as a tuple of views.",
            "unstack([[1, 2], [3, 4]])",
            |i, a| {
                let x = array_arg(i, a.required(0))?;
                join::unstack(&x, axis_arg(&a, 1)?.unwrap_or(0)).map(tuple_of)
            }
        ),
    ]
}

/// Several arrays as a tuple value.
pub(super) fn tuple_of(arrays: Vec<Array>) -> Value {
    Value::Tuple(std::rc::Rc::new(
        arrays.into_iter().map(Value::array).collect(),
    ))
}

/// An int or a list of ints (axes, shifts, dimensions).
pub(super) fn ints_arg(v: &Value, what: &str) -> Result<Vec<i64>> {
    match v {
        Value::List(items) | Value::Tuple(items) => {
            items.iter().map(|d| count_arg(d, what)).collect()
        }
        Value::Array(a) if a.ndim() == 1 => a.to_vec::<i64>(),
        other => Ok(vec![count_arg(other, what)?]),
    }
}

fn order_arg(args: &Args, i: usize) -> Result<bool> {
    match args.get(i) {
        None => Ok(false),
        Some(Value::Str(s)) if &**s == "C" => Ok(false),
        Some(Value::Str(s)) if &**s == "F" => Ok(true),
        Some(other) => Err(value_error(format!(
            "order must be \"C\" or \"F\", not {}",
            other.describe()
        ))),
    }
}

/// `reshape` in C order, or in Fortran order (`fortran`): the reversed axes reshaped.
fn reshape_ordered(x: &Array, dims: &[i64], fortran: bool) -> Result<Array> {
    if !fortran {
        return shape::reshape(x, dims);
    }
    let reversed: Vec<i64> = dims.iter().rev().copied().collect();
    Ok(shape::transpose(&shape::reshape(
        &shape::transpose(x),
        &reversed,
    )?))
}

fn flip_axis(interp: &mut Interpreter, args: &Args, axis: i64) -> Result<Value> {
    let x = array_arg(interp, args.required(0))?;
    if x.ndim() <= axis as usize {
        return Err(value_error(format!(
            "{} needs an array of at least {} dimensions",
            args.name,
            axis + 1
        )));
    }
    shape::flip(&x, Some(&[axis])).map(Value::array)
}

fn rest_arrays(interp: &mut Interpreter, args: &Args) -> Result<Vec<Array>> {
    args.rest.iter().map(|v| array_arg(interp, v)).collect()
}

fn at_least(interp: &mut Interpreter, args: &Args, n: usize) -> Result<Value> {
    let arrays: Vec<Array> = rest_arrays(interp, args)?
        .iter()
        .map(|a| shape::at_least(a, n))
        .collect::<Result<_>>()?;
    match arrays.len() {
        1 => Ok(Value::array(arrays.into_iter().next().expect("one"))),
        _ => Ok(tuple_of(arrays)),
    }
}

fn concatenate(interp: &mut Interpreter, args: Args) -> Result<Value> {
    let arrays = arrays_arg(interp, args.required(0))?;
    let axis = match args.values.get(1) {
        Some(Some(Value::None)) => None,
        _ => Some(axis_arg(&args, 1)?.unwrap_or(0)),
    };
    join::concatenate(&arrays, axis).map(Value::array)
}

fn stack_along(interp: &mut Interpreter, args: &Args, how: char) -> Result<Value> {
    let arrays = arrays_arg(interp, args.required(0))?;
    join::stack_along(&arrays, how).map(Value::array)
}

fn pad(interp: &mut Interpreter, args: Args) -> Result<Value> {
    let x = array_arg(interp, args.required(0))?;
    let mode_name = match args.get(2) {
        None => "constant".to_string(),
        Some(Value::Str(s)) => s.to_string(),
        Some(other) => {
            return Err(type_error(format!(
                "mode must be a string, not {}",
                other.describe()
            )))
        }
    };
    let mode = match mode_name.as_str() {
        "constant" => PadMode::Constant(
            args.get(3)
                .map(scalar_arg)
                .transpose()?
                .unwrap_or(crate::base::Scalar::Int(0)),
        ),
        "edge" => PadMode::Edge,
        "reflect" => PadMode::Reflect,
        "wrap" => PadMode::Wrap,
        other => {
            return Err(value_error(format!(
                "mode \"{other}\" is not supported (constant, edge, reflect, wrap)"
            )))
        }
    };
    if !matches!(mode, PadMode::Constant(_)) && args.get(3).is_some() {
        return Err(value_error(format!(
            "unsupported keyword arguments for mode '{mode_name}': constant_values"
        )));
    }
    let widths = pad_widths(interp, args.required(1), x.ndim())?;
    join::pad(&x, &widths, mode).map(Value::array)
}

/// `pad_width` as NumPy reads it: n, [before, after], or one [before, after] per axis.
fn pad_widths(interp: &mut Interpreter, v: &Value, ndim: usize) -> Result<Vec<(usize, usize)>> {
    let widths = crate::interp::convert::to_array(interp, v, Some(crate::device::Device::Cpu))?;
    if !widths.dtype().is_integer() {
        return Err(type_error("`pad_width` must be of integral type"));
    }
    let values = widths.to_vec::<i64>()?;
    if values.iter().any(|&w| w < 0) {
        return Err(value_error("index can't contain negative values"));
    }
    let values: Vec<usize> = values.into_iter().map(|w| w as usize).collect();
    let pairs: Vec<(usize, usize)> = match (widths.shape(), values.as_slice()) {
        ([] | [1] | [1, 1], [n]) => vec![(*n, *n); ndim],
        ([2] | [1, 2], [b, a]) => vec![(*b, *a); ndim],
        ([n, 2], _) if *n == ndim => values.chunks(2).map(|p| (p[0], p[1])).collect(),
        ([n, 1], _) if *n == ndim => values.iter().map(|&w| (w, w)).collect(),
        (shape, _) => {
            return Err(value_error(format!(
                "pad_width of shape {} does not fit an array of {ndim} axes",
                crate::base::layout::shape_text(shape)
            )))
        }
    };
    Ok(pairs)
}

fn split(interp: &mut Interpreter, args: &Args, equal: bool, which: Option<char>) -> Result<Value> {
    let x = array_arg(interp, args.required(0))?;
    let axis = match which {
        Some('h') if x.ndim() <= 1 => 0,
        Some('h') => 1,
        Some(_) => 0,
        None => axis_arg(args, 2)?.unwrap_or(0),
    };
    if x.ndim() == 0 || (which == Some('v') && x.ndim() < 2) {
        return Err(value_error("the array has too few dimensions to split"));
    }
    let parts = match args.required(1) {
        cuts @ (Value::List(_) | Value::Tuple(_) | Value::Array(_)) => {
            join::split_at(&x, &ints_arg(cuts, "a position")?, axis)?
        }
        n => {
            let n = usize::try_from(count_arg(n, "sections")?)
                .map_err(|_| value_error("number sections must be larger than 0."))?;
            join::split_even(&x, n, axis, equal)?
        }
    };
    Ok(tuple_of(parts))
}
