//! Linear algebra of the main namespace: matrix products, contractions (`tensordot`,
//! `einsum` ...), and the image filter.

use super::manipulation::ints_arg;
use super::{array_arg, builtin, count_arg, two_arrays, Args, Builtin};
use crate::array::{self, contract};
use crate::error::{type_error, Result};
use crate::interp::value::Value;
use crate::interp::Interpreter;

pub fn builtins() -> Vec<Builtin> {
    vec![
        builtin!(
            "matmul",
            ["a", "b"],
            "Matrix product (also a @ b): BLAS-class on the cpu, cuBLAS on the gpu.",
            "matmul(eye(2), [[1, 2], [3, 4]])",
            |i, a| {
                let (x, y) = two_arrays(i, &a)?;
                array::linalg::matmul(&x, &y).map(Value::array)
            }
        ),
        builtin!(
            "dot",
            ["a", "b"],
            "Dot product of 1-d arrays; matrix product otherwise.",
            "dot([1, 2, 3], [4, 5, 6])",
            |i, a| {
                let (x, y) = two_arrays(i, &a)?;
                array::linalg::matmul(&x, &y).map(Value::array)
            }
        ),
        builtin!(
            "outer",
            ["a", "b"],
            "Outer product: out[i, j] = a[i] * b[j].",
            "outer([1, 2], [3, 4, 5])",
            |i, a| {
                let (x, y) = two_arrays(i, &a)?;
                array::linalg::outer(&x, &y).map(Value::array)
            }
        ),
        builtin!(
            "tensordot",
            ["a", "b", "axes="],
            "The sum of products over the last `axes` axes of a and the first of b (2 by default), or over the axis lists [[a's], [b's]].",
            "tensordot(ones([2, 3, 4]), ones([3, 4, 5])).shape",
            tensordot
        ),
        builtin!(
            "einsum",
            ["subscripts", "*operands"],
            "Einstein summation: \"ij,jk->ik\" (explicit or implicit output, ... for broadcast axes, repeated letters for diagonals); contractions are matrix products.",
            "einsum(\"ij,jk->ik\", eye(2), [[1, 2], [3, 4]])",
            |i, a| {
                let Value::Str(subscripts) = a.required(0) else {
                    return Err(type_error("einsum's first argument is the subscripts string"));
                };
                let subscripts = subscripts.clone();
                let operands: Vec<_> = a.rest.iter().map(|v| array_arg(i, v)).collect::<Result<_>>()?;
                scalar_if_0d(contract::einsum(&subscripts, &operands)?)
            }
        ),
        builtin!(
            "inner",
            ["a", "b"],
            "The sum of products over the last axes of a and b.",
            "inner([1, 2, 3], [0, 1, 0])",
            |i, a| {
                let (x, y) = two_arrays(i, &a)?;
                scalar_if_0d(contract::inner(&x, &y)?)
            }
        ),
        builtin!(
            "vecdot",
            ["x1", "x2", "axis="],
            "The dot product of vectors along an axis (the last by default), conjugating x1; the other axes broadcast.",
            "vecdot([[1, 2], [3, 4]], [1, 1])",
            |i, a| {
                let (x, y) = two_arrays(i, &a)?;
                let axis = a.get(2).map(|v| count_arg(v, "axis")).transpose()?.unwrap_or(-1);
                scalar_if_0d(contract::vecdot(&x, &y, axis)?)
            }
        ),
        builtin!(
            "kron",
            ["a", "b"],
            "The Kronecker product: blocks a[i, j] * b.",
            "kron(eye(2), [[1, 2], [3, 4]])",
            |i, a| {
                let (x, y) = two_arrays(i, &a)?;
                contract::kron(&x, &y).map(Value::array)
            }
        ),
        builtin!(
            "trace",
            ["x", "offset=", "axis1=", "axis2="],
            "The sum along diagonal `offset` of the axes axis1, axis2 (0 and 1 by default).",
            "trace(eye(3))",
            |i, a| {
                let x = array_arg(i, a.required(0))?;
                let (offset, axis1, axis2) = diagonal_args(&a)?;
                scalar_if_0d(contract::trace(&x, offset, axis1, axis2)?)
            }
        ),
        builtin!(
            "diagonal",
            ["a", "offset=", "axis1=", "axis2="],
            "The diagonal `offset` (above the main one for offset > 0) of the axes axis1, axis2 (0 and 1 by default), as the last axis: a view.",
            "diagonal(reshape(arange(9), [3, 3]), offset=1)",
            |i, a| {
                let x = array_arg(i, a.required(0))?;
                let (offset, axis1, axis2) = diagonal_args(&a)?;
                array::shape::diagonal(&x, offset, axis1, axis2).map(Value::array)
            }
        ),
        builtin!(
            "cross",
            ["a", "b", "axisa=", "axisb=", "axisc=", "axis="],
            "Cross products of 3-vectors along the last axis (or axisa of a, axisb of b, the result's along axisc; axis= sets all three), the other axes broadcast (2-vectors are refused, as NumPy 2.5 refuses them).",
            "cross([1, 0, 0], [0, 1, 0])",
            |i, a| {
                let (x, y) = two_arrays(i, &a)?;
                let axis = |k: usize| a.get(k).map(|v| count_arg(v, "an axis")).transpose();
                let all = axis(5)?;
                let pick = |k: usize| axis(k).map(|v| v.or(all).unwrap_or(-1));
                let product = crate::array::matrix_functions::cross(&x, &y, pick(2)?, pick(3)?, pick(4)?)?;
                scalar_if_0d(product)
            }
        ),
        builtin!(
            "conv2d",
            ["image", "kernel"],
            "2-d \"same\" correlation with zero padding (an image filter).",
            "conv2d(rand([64, 64]), ones([3, 3]) / 9)",
            |i, a| {
                let (x, k) = two_arrays(i, &a)?;
                array::linalg::conv2d(&x, &k).map(Value::array)
            }
        ),
    ]
}

/// A contraction to no axes is a host scalar, as NumPy's are.
fn scalar_if_0d(x: array::Array) -> Result<Value> {
    super::reduced(x, true)
}

fn tensordot(interp: &mut Interpreter, args: Args) -> Result<Value> {
    let (a, b) = two_arrays(interp, &args)?;
    let (left, right): (Vec<i64>, Vec<i64>) = match args.get(2) {
        None | Some(Value::Int(_) | Value::Float(_)) => {
            let n = args
                .get(2)
                .map(|v| count_arg(v, "axes"))
                .transpose()?
                .unwrap_or(2);
            let n = n.max(0) as usize;
            if n > a.ndim() || n > b.ndim() {
                return Err(crate::error::value_error(
                    "tensordot: axes exceeds the arrays' dimensions",
                ));
            }
            (
                (a.ndim() - n..a.ndim()).map(|d| d as i64).collect(),
                (0..n).map(|d| d as i64).collect(),
            )
        }
        Some(Value::List(pair) | Value::Tuple(pair)) if pair.len() == 2 => (
            ints_arg(&pair[0], "an axis")?,
            ints_arg(&pair[1], "an axis")?,
        ),
        Some(Value::Array(pair)) if pair.ndim() == 2 && pair.shape()[0] == 2 => {
            let values = pair.to_vec::<i64>()?;
            let half = values.len() / 2;
            (values[..half].to_vec(), values[half..].to_vec())
        }
        Some(other) => {
            return Err(type_error(format!(
                "tensordot's axes is a count or [[a's axes], [b's axes]], not {}",
                other.describe()
            )))
        }
    };
    scalar_if_0d(contract::tensordot(&a, &b, &left, &right)?)
}

/// `offset=`, `axis1=` and `axis2=` of `trace` and `diagonal` (0, 0 and 1 unless given).
fn diagonal_args(a: &Args) -> Result<(i64, i64, i64)> {
    let get = |k: usize, what: &str, default: i64| {
        a.get(k)
            .map(|v| count_arg(v, what))
            .transpose()
            .map(|v| v.unwrap_or(default))
    };
    Ok((
        get(1, "offset", 0)?,
        get(2, "an axis", 0)?,
        get(3, "an axis", 1)?,
    ))
}
