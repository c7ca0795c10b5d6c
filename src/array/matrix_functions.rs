//! numpy.linalg's functions that are built of the decompositions and array operations, on
//! either device, with NumPy's rules: the norms (`norm`, `vector_norm`, `matrix_norm`),
//! `matrix_power`, `multi_dot`, `cross`, `pinv`, `matrix_rank`, `cond` and `lstsq`.

use super::decompositions::{self as dec, check_square, check_stacked, compute_dtype, split_shape};
use super::ops::{binary, unary, with_scalar, Operand};
use super::reduce::{normalize_axis, reduce_axes, Statistic};
use super::shape::{matrix_transpose, moveaxis, normalize_axes, reshape};
use super::Array;
use crate::base::layout::{shape_text, AxisIndex};
use crate::base::{DType, Scalar};
use crate::error::{linalg_error, value_error, Result};
use crate::plan::reduce::Reduction;
use crate::plan::table::{self, Op};

fn dims(shape: &[usize]) -> Vec<i64> {
    shape.iter().map(|&n| n as i64).collect()
}

fn reduce(r: Reduction, a: &Array, axes: &[usize], keepdims: bool) -> Result<Array> {
    let axes: Vec<i64> = axes.iter().map(|&d| d as i64).collect();
    reduce_axes(Statistic::Reduce(r), a, Some(&axes), keepdims, 0.0)
}

/// `a @ b` for stacks of matrices, their leading axes broadcast (plain `matmul` for 2-d ones).
pub fn matmul_stacks(a: &Array, b: &Array) -> Result<Array> {
    if a.ndim() <= 2 && b.ndim() <= 2 {
        return super::linalg::matmul(a, b);
    }
    super::contract::einsum("...ij,...jk->...ik", &[a.clone(), b.clone()])
}

/// A norm's order: NumPy's `ord=` (None, a number, inf, "fro", "nuc").
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum NormOrder {
    Default,
    Frobenius,
    Nuclear,
    Number(f64),
}

impl NormOrder {
    fn text(self) -> String {
        match self {
            NormOrder::Default => "None".into(),
            NormOrder::Frobenius => "fro".into(),
            NormOrder::Nuclear => "nuc".into(),
            NormOrder::Number(p) => crate::array::format::float_repr(p),
        }
    }
}

/// The input of a norm: inexact (bools and integers as f64, as NumPy's `norm` converts them).
fn inexact(x: &Array) -> Result<Array> {
    if x.dtype().is_inexact() {
        Ok(x.clone())
    } else {
        x.astype(DType::F64)
    }
}

/// |x|² elementwise, in x's real dtype: re² + im² for complex numbers, as NumPy's
/// `(x.conj() * x).real`.
fn squared_modulus(x: &Array) -> Result<Array> {
    let product = binary(Op::Multiply, &unary(Op::Conjugate, x)?, x)?;
    super::ops::real(&product)
}

/// `vector_norm(x, axis=, keepdims=, ord=)` over `axes` (every axis when None), which NumPy
/// treats as one flattened vector.
pub fn vector_norm(x: &Array, axes: Option<&[i64]>, keepdims: bool, ord: f64) -> Result<Array> {
    let x = inexact(x)?;
    let axes: Vec<usize> = match axes {
        None => (0..x.ndim()).collect(),
        Some(axes) => normalize_axes(axes, x.ndim())?,
    };
    let abs = unary(Op::Absolute, &x)?;
    let sum = |a: &Array| reduce(Reduction::Sum, a, &axes, keepdims);
    if ord == f64::INFINITY {
        return reduce_or_zero(Reduction::Max, &abs, &axes, keepdims);
    }
    if ord == f64::NEG_INFINITY {
        return reduce(Reduction::Min, &abs, &axes, keepdims);
    }
    if ord == 0.0 {
        let nonzero = with_scalar(Op::NotEqual, &x, Scalar::Int(0))?.astype(abs.dtype())?;
        return sum(&nonzero);
    }
    if ord == 1.0 {
        return sum(&abs);
    }
    if ord == 2.0 {
        return unary(Op::Sqrt, &sum(&squared_modulus(&x)?)?);
    }
    let powered = with_scalar(Op::Power, &abs, Scalar::Float(ord))?;
    with_scalar(Op::Power, &sum(&powered)?, Scalar::Float(1.0 / ord))
}

/// A max over axes with NumPy's `initial=0`: 0 for an empty selection instead of an error.
fn reduce_or_zero(r: Reduction, a: &Array, axes: &[usize], keepdims: bool) -> Result<Array> {
    if axes.iter().any(|&d| a.shape()[d] == 0) {
        let mut shape = a.shape().to_vec();
        for &d in axes.iter().rev() {
            if keepdims {
                shape[d] = 1;
            } else {
                shape.remove(d);
            }
        }
        return dec::zeros(&shape, a.dtype(), a.device());
    }
    reduce(r, a, axes, keepdims)
}

/// The matrix norm over the axes (`row`, `col`) of x, NumPy's table of orders.
pub fn matrix_norm(x: &Array, row: i64, col: i64, keepdims: bool, ord: NormOrder) -> Result<Array> {
    let x = inexact(x)?;
    let (r, c) = (
        normalize_axis(row, x.ndim())?,
        normalize_axis(col, x.ndim())?,
    );
    if r == c {
        return Err(value_error("Duplicate axes given."));
    }
    let abs = || unary(Op::Absolute, &x);
    // After summing over one axis, the other's position among those left.
    let after = |kept: usize, removed: usize| if kept > removed { kept - 1 } else { kept };
    let reduced = match ord {
        NormOrder::Default | NormOrder::Frobenius => unary(
            Op::Sqrt,
            &reduce(Reduction::Sum, &squared_modulus(&x)?, &[r, c], false)?,
        )?,
        NormOrder::Nuclear => singular_value_norm(&x, r, c, Reduction::Sum)?,
        NormOrder::Number(2.0) => singular_value_norm(&x, r, c, Reduction::Max)?,
        NormOrder::Number(-2.0) => singular_value_norm(&x, r, c, Reduction::Min)?,
        NormOrder::Number(p) if p == 1.0 || p == -1.0 => {
            let sums = reduce(Reduction::Sum, &abs()?, &[r], false)?;
            let pick = if p > 0.0 {
                Reduction::Max
            } else {
                Reduction::Min
            };
            reduce_or_zero(pick, &sums, &[after(c, r)], false)?
        }
        NormOrder::Number(p) if p.is_infinite() => {
            let sums = reduce(Reduction::Sum, &abs()?, &[c], false)?;
            let pick = if p > 0.0 {
                Reduction::Max
            } else {
                Reduction::Min
            };
            reduce_or_zero(pick, &sums, &[after(r, c)], false)?
        }
        _ => return Err(value_error("Invalid norm order for matrices.")),
    };
    if !keepdims {
        return Ok(reduced);
    }
    let mut shape = x.shape().to_vec();
    shape[r] = 1;
    shape[c] = 1;
    reshape(&reduced, &dims(&shape))
}

/// The largest, smallest or summed singular values of the matrices over axes (r, c).
fn singular_value_norm(x: &Array, r: usize, c: usize, pick: Reduction) -> Result<Array> {
    let n = x.ndim() as i64;
    let moved = moveaxis(x, &[r as i64, c as i64], &[n - 2, n - 1])?;
    let s = dec::svd(&moved, false, false)?.s;
    let last = s.ndim() - 1;
    match pick {
        Reduction::Max | Reduction::Sum => reduce_or_zero(pick, &s, &[last], false),
        _ => reduce(pick, &s, &[last], false),
    }
}

/// NumPy's `norm(x, ord=, axis=, keepdims=)`: a vector norm over one axis, a matrix norm over
/// two, and without `axis` the 2-norm of the flattened array (or, with `ord`, the vector or
/// matrix norm of a 1-d or 2-d x).
pub fn norm(x: &Array, ord: NormOrder, axis: Option<&[i64]>, keepdims: bool) -> Result<Array> {
    let axes: Vec<i64> = match axis {
        Some(axes) => axes.to_vec(),
        None if ord == NormOrder::Default => {
            return vector_norm(x, None, keepdims, 2.0);
        }
        None if x.ndim() == 1 || x.ndim() == 2 => (0..x.ndim() as i64).collect(),
        None => return Err(value_error("Improper number of dimensions to norm.")),
    };
    match axes.as_slice() {
        [axis] => {
            let p = match ord {
                NormOrder::Default => 2.0,
                NormOrder::Number(p) => p,
                other => {
                    return Err(value_error(format!(
                        "Invalid norm order '{}' for vectors",
                        other.text()
                    )))
                }
            };
            vector_norm(x, Some(&[*axis]), keepdims, p)
        }
        [row, col] => matrix_norm(x, *row, *col, keepdims, ord),
        _ => Err(value_error("Improper number of dimensions to norm.")),
    }
}

/// `matrix_power(a, n)`: a @ a @ … (n factors) by repeated squaring; the identity for n = 0,
/// powers of the inverse for n < 0.
pub fn matrix_power(a: &Array, n: i64) -> Result<Array> {
    check_square(a)?;
    let m = split_shape(a).1;
    if n == 0 {
        let eye = dec::identity(&[], m, a.dtype(), a.device())?;
        return super::shape::broadcast_to(&eye, a.shape())?.copy();
    }
    let base = if n < 0 { dec::inv(a)? } else { a.clone() };
    let mut exponent = n.unsigned_abs();
    let mut square = base;
    let mut result: Option<Array> = None;
    loop {
        if exponent & 1 == 1 {
            result = Some(match result {
                None => square.clone(),
                Some(r) => matmul_stacks(&r, &square)?,
            });
        }
        exponent >>= 1;
        if exponent == 0 {
            break;
        }
        square = matmul_stacks(&square, &square)?;
    }
    let result = result.expect("n is not zero");
    if result.shares_buffer(a) {
        return result.copy();
    }
    Ok(result)
}

/// `multi_dot(arrays)`: the product of a chain of matrices in the cheapest order (NumPy's
/// dynamic programme over the multiplications); a first 1-d array is a row, a last a column.
pub fn multi_dot(arrays: &[Array]) -> Result<Array> {
    if arrays.len() < 2 {
        return Err(value_error("Expecting at least two arrays."));
    }
    let (first_vector, last_vector) = (arrays[0].ndim() == 1, arrays[arrays.len() - 1].ndim() == 1);
    let mut chain = arrays.to_vec();
    if first_vector {
        chain[0] = reshape(&chain[0], &[1, -1])?;
    }
    let last = chain.len() - 1;
    if last_vector {
        chain[last] = reshape(&chain[last], &[-1, 1])?;
    }
    for x in &chain {
        if x.ndim() != 2 {
            return Err(linalg_error(format!(
                "{}-dimensional array given. Array must be two-dimensional",
                x.ndim()
            )));
        }
    }
    let order = chain_order(&chain);
    let product = multiply_in_order(&chain, &order, 0, last)?;
    match (first_vector, last_vector) {
        (true, true) => reshape(&product, &[]),
        (true, false) => reshape(&product, &[-1]),
        (false, true) => reshape(&product, &[-1]),
        (false, false) => Ok(product),
    }
}

/// split[i][j]: where the cheapest product of chain[i..=j] splits.
fn chain_order(chain: &[Array]) -> Vec<Vec<usize>> {
    let n = chain.len();
    let mut p: Vec<u128> = chain.iter().map(|x| x.shape()[0] as u128).collect();
    p.push(chain[n - 1].shape()[1] as u128);
    let mut cost = vec![vec![0u128; n]; n];
    let mut split = vec![vec![0usize; n]; n];
    for length in 1..n {
        for i in 0..n - length {
            let j = i + length;
            cost[i][j] = u128::MAX;
            for k in i..j {
                let c = cost[i][k] + cost[k + 1][j] + p[i] * p[k + 1] * p[j + 1];
                if c < cost[i][j] {
                    cost[i][j] = c;
                    split[i][j] = k;
                }
            }
        }
    }
    split
}

fn multiply_in_order(chain: &[Array], split: &[Vec<usize>], i: usize, j: usize) -> Result<Array> {
    if i == j {
        return Ok(chain[i].clone());
    }
    let k = split[i][j];
    super::linalg::matmul(
        &multiply_in_order(chain, split, i, k)?,
        &multiply_in_order(chain, split, k + 1, j)?,
    )
}

/// `cross(a, b, axisa=, axisb=, axisc=)`: cross products of 3-vectors, the other axes broadcast
/// (2-vectors are refused, as NumPy 2.5 refuses them).
pub fn cross(a: &Array, b: &Array, axis_a: i64, axis_b: i64, axis_c: i64) -> Result<Array> {
    let move_last = |x: &Array, axis: i64| -> Result<Array> {
        let d = normalize_axis(axis, x.ndim().max(1))?;
        moveaxis(x, &[d as i64], &[x.ndim() as i64 - 1])
    };
    let (a, b) = (move_last(a, axis_a)?, move_last(b, axis_b)?);
    let (la, lb) = (a.shape()[a.ndim() - 1], b.shape()[b.ndim() - 1]);
    if la != 3 || lb != 3 {
        return Err(value_error(format!(
            "Both input arrays must be (arrays of) 3-dimensional vectors, but they are {la} and {lb} dimensional instead."
        )));
    }
    let part = |x: &Array, i: i64| -> Result<Array> {
        let mut index = vec![
            AxisIndex::Range {
                start: None,
                stop: None,
                step: None
            };
            x.ndim() - 1
        ];
        index.push(AxisIndex::At(i));
        Ok(x.with_layout(x.layout().index(&index)?))
    };
    let term = |x: &Array, i, y: &Array, j| binary(Op::Multiply, &part(x, i)?, &part(y, j)?);
    let x = binary(Op::Subtract, &term(&a, 1, &b, 2)?, &term(&a, 2, &b, 1)?)?;
    let y = binary(Op::Subtract, &term(&a, 2, &b, 0)?, &term(&a, 0, &b, 2)?)?;
    let z = binary(Op::Subtract, &term(&a, 0, &b, 1)?, &term(&a, 1, &b, 0)?)?;
    let shape = crate::base::layout::broadcast_shapes(x.shape(), z.shape())?;
    let parts: Vec<Array> = [x, y, z]
        .iter()
        .map(|p| super::shape::broadcast_to(p, &shape))
        .collect::<Result<_>>()?;
    let stacked = super::join::stack(&parts, -1)?;
    let c = normalize_axis(axis_c, stacked.ndim())?;
    moveaxis(&stacked, &[stacked.ndim() as i64 - 1], &[c as i64])
}

/// The cutoff below which singular values count as zero: `rtol` (NumPy's `rcond`) times the
/// largest singular value of each matrix, as an array that broadcasts against `s`.
fn cutoff(s: &Array, rtol: f64) -> Result<Array> {
    let last = s.ndim() - 1;
    let largest = reduce_or_zero(Reduction::Max, s, &[last], true)?;
    with_scalar(Op::Multiply, &largest, Scalar::Float(rtol))
}

fn machine_epsilon(dtype: DType) -> f64 {
    match dtype.real() {
        DType::F32 => f32::EPSILON as f64,
        _ => f64::EPSILON,
    }
}

/// `pinv(a, rcond=)`: the pseudo-inverse of each matrix from its SVD, singular values at most
/// rcond × the largest dropped (NumPy's default rcond 1e-15).
pub fn pinv(a: &Array, rcond: f64) -> Result<Array> {
    check_stacked(a)?;
    let (batch, m, n) = split_shape(a);
    let dtype = compute_dtype(&[a.dtype()])?;
    if m == 0 || n == 0 || a.size() == 0 {
        return dec::zeros(&dec::with_tail(batch, &[n, m]), dtype, a.device());
    }
    // As NumPy: the SVD of conj(a) = U S Vh gives pinv(a) = Vhᵀ S⁻¹ Uᵀ, with no conjugation.
    let svd = dec::svd(&unary(Op::Conjugate, a)?, false, true)?;
    let (u, vh) = (svd.u.expect("asked for"), svd.vh.expect("asked for"));
    let inverse = inverted_values(&svd.s, &cutoff(&svd.s, rcond)?)?;
    let scaled = binary(
        Op::Multiply,
        &expand_last(&inverse)?,
        &matrix_transpose(&u)?,
    )?;
    matmul_stacks(&matrix_transpose(&vh)?, &scaled)
}

/// 1/s where s > cutoff, else 0.
fn inverted_values(s: &Array, cutoff: &Array) -> Result<Array> {
    let large = binary(Op::Greater, s, cutoff)?;
    let one = Operand::Scalar(Scalar::Float(1.0));
    let reciprocal = super::ops::apply(table::row(Op::Divide), &[one, Operand::Array(s)])?;
    let zero = dec::zeros(&[], s.dtype(), s.device())?;
    super::ops::choose(&large, &reciprocal, &zero)
}

/// x with a new last axis of length 1.
fn expand_last(x: &Array) -> Result<Array> {
    let mut shape = dims(x.shape());
    shape.push(1);
    reshape(x, &shape)
}

/// `matrix_rank(A, tol=, rtol=)`: how many singular values of each matrix exceed `tol`, or
/// rtol (default max(M, N)·eps) × the largest; for fewer than two dimensions, 1 unless all zero.
pub fn matrix_rank(a: &Array, tol: Option<f64>, rtol: Option<f64>) -> Result<Array> {
    if rtol.is_some() && tol.is_some() {
        return Err(value_error("`tol` and `rtol` can't be both set."));
    }
    if a.ndim() < 2 {
        let any = reduce_axes(
            Statistic::Reduce(Reduction::Any),
            &with_scalar(Op::NotEqual, a, Scalar::Int(0))?,
            None,
            false,
            0.0,
        )?;
        return any.astype(DType::I64);
    }
    let s = dec::svd(a, false, false)?.s;
    let (_, m, n) = split_shape(a);
    let threshold = match tol {
        Some(t) => Array::full(&[], Scalar::Float(t), s.dtype(), s.device())?,
        None => {
            let rtol = rtol.unwrap_or(m.max(n) as f64 * machine_epsilon(s.dtype()));
            cutoff(&s, rtol)?
        }
    };
    let above = binary(Op::Greater, &s, &threshold)?;
    let last = s.ndim() - 1;
    reduce(Reduction::Sum, &above.astype(DType::I64)?, &[last], false)
}

/// `cond(x, p=)`: the condition number of each matrix, from its singular values (p None, 2,
/// -2) or as norm(x, p) · norm(inv(x), p); a singular matrix's is inf (a NaN where x has none).
pub fn cond(x: &Array, p: NormOrder) -> Result<Array> {
    check_stacked(x)?;
    let (_, m, n) = split_shape(x);
    if m == 0 || n == 0 {
        return Err(linalg_error("cond is not defined on empty arrays"));
    }
    let r = match p {
        _ if [
            NormOrder::Default,
            NormOrder::Number(2.0),
            NormOrder::Number(-2.0),
        ]
        .contains(&p) =>
        {
            let s = dec::svd(x, false, false)?.s;
            let k = s.shape()[s.ndim() - 1] as i64;
            let first = singular_value(&s, 0)?;
            let last = singular_value(&s, k - 1)?;
            if p == NormOrder::Number(-2.0) {
                binary(Op::Divide, &last, &first)?
            } else {
                binary(Op::Divide, &first, &last)?
            }
        }
        _ => {
            check_square(x)?;
            let dtype = compute_dtype(&[x.dtype()])?;
            match dec::inv(x) {
                Ok(inverse) => binary(
                    Op::Multiply,
                    &matrix_norm(x, -2, -1, false, p)?,
                    &matrix_norm(&inverse, -2, -1, false, p)?,
                )?,
                Err(e) if e.kind == crate::error::ErrorKind::LinAlg => {
                    let batch = split_shape(x).0.to_vec();
                    Array::full(
                        &batch,
                        Scalar::Float(f64::INFINITY),
                        dtype.real(),
                        x.device(),
                    )?
                }
                Err(e) => return Err(e),
            }
        }
    };
    let nan = unary(Op::Isnan, &r)?;
    let input_nan = reduce(
        Reduction::Any,
        &unary(Op::Isnan, &inexact(x)?)?,
        &[x.ndim() - 2, x.ndim() - 1],
        false,
    )?;
    let replace = binary(Op::LogicalAnd, &nan, &unary(Op::LogicalNot, &input_nan)?)?;
    let infinity = Array::full(&[], Scalar::Float(f64::INFINITY), r.dtype(), r.device())?;
    super::ops::choose(&replace, &infinity, &r)
}

/// s[..., i] (a view).
fn singular_value(s: &Array, i: i64) -> Result<Array> {
    let mut index = vec![
        AxisIndex::Range {
            start: None,
            stop: None,
            step: None
        };
        s.ndim() - 1
    ];
    index.push(AxisIndex::At(i));
    Ok(s.with_layout(s.layout().index(&index)?))
}

/// The results of `lstsq`.
pub struct LeastSquares {
    pub x: Array,
    pub residuals: Array,
    pub rank: i64,
    pub s: Array,
}

/// `lstsq(a, b, rcond=)`: the x minimising ‖b - a x‖ (the least-norm one when a is rank
/// deficient), from the SVD of a, singular values at most rcond × the largest (default
/// eps · max(M, N)) counting as zero; the residuals' squared norms when a has full column rank
/// and more rows than columns, else an empty array.
pub fn lstsq(a: &Array, b: &Array, rcond: Option<f64>) -> Result<LeastSquares> {
    if a.device() != b.device() {
        return Err(super::ops::device_mismatch(a, b));
    }
    let vector = b.ndim() == 1;
    let b2 = if vector {
        reshape(b, &[-1, 1])?
    } else {
        b.clone()
    };
    for x in [a, &b2] {
        if x.ndim() != 2 {
            return Err(linalg_error(format!(
                "{}-dimensional array given. Array must be two-dimensional",
                x.ndim()
            )));
        }
    }
    let (m, n) = (a.shape()[0], a.shape()[1]);
    if b2.shape()[0] != m {
        return Err(linalg_error(format!(
            "Incompatible dimensions: a is {} and b {}",
            shape_text(a.shape()),
            shape_text(b.shape())
        )));
    }
    let dtype = compute_dtype(&[a.dtype(), b.dtype()])?;
    let real = dtype.real();
    let k = b2.shape()[1];
    let rcond = rcond.unwrap_or(machine_epsilon(dtype) * m.max(n) as f64);
    let (a, b2) = (a.astype(dtype)?, b2.astype(dtype)?);
    let svd = dec::svd(&a, false, true)?;
    let (u, vh, s) = (svd.u.expect("asked for"), svd.vh.expect("asked for"), svd.s);
    let rank = if s.size() == 0 {
        0
    } else {
        let threshold = with_scalar(Op::Multiply, &singular_value(&s, 0)?, Scalar::Float(rcond))?;
        let above = binary(Op::Greater, &s, &threshold)?;
        super::reduce::reduce_all(Reduction::Sum, &above.astype(DType::I64)?)?.cast::<i64>()
    };
    let x = if s.size() == 0 {
        dec::zeros(&[n, k], dtype, a.device())?
    } else {
        let threshold = with_scalar(Op::Multiply, &singular_value(&s, 0)?, Scalar::Float(rcond))?;
        let inverse = inverted_values(&s, &threshold)?.astype(dtype)?;
        let projected = super::linalg::matmul(&adjoint(&u)?, &b2)?;
        let scaled = binary(Op::Multiply, &expand_last(&inverse)?, &projected)?;
        super::linalg::matmul(&adjoint(&vh)?, &scaled)?
    };
    let residuals = if rank as usize == n && m > n {
        let error = binary(Op::Subtract, &b2, &super::linalg::matmul(&a, &x)?)?;
        reduce(Reduction::Sum, &squared_modulus(&error)?, &[0], false)?
    } else {
        dec::zeros(&[0], real, a.device())?
    };
    let x = if vector { reshape(&x, &[-1])? } else { x };
    Ok(LeastSquares {
        x,
        residuals,
        rank,
        s,
    })
}

fn adjoint(x: &Array) -> Result<Array> {
    matrix_transpose(&unary(Op::Conjugate, x)?)
}
