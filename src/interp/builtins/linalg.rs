//! Matrix products and the image filter.

use super::{builtin, two_arrays, Builtin};
use crate::array;
use crate::interp::value::Value;

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
