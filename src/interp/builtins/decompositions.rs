//! The `linalg` namespace (NumPy's numpy.linalg and the array API standard's linalg extension):
//! decompositions, solvers, norms and the functions built of them, on stacks of matrices
//! (..., M, N) on either device (see `array::decompositions`, `array::matrix_functions`).
//! Functions with several results return a tuple (`w, v = linalg.eigh(a)`); a result with no
//! axes left is a host number, as the reductions' are.

use super::manipulation::{ints_arg, tuple_of};
use super::{
    array_arg, arrays_arg, builtin, count_arg, flag_arg, float_arg, reduced, Args, Builtin,
};
use crate::array::decompositions::{self as dec, QrMode};
use crate::array::matrix_functions::{self as mf, NormOrder};
use crate::error::{type_error, value_error, Result};
use crate::interp::value::Value;

pub fn builtins() -> Vec<Builtin> {
    vec![
        builtin!(
            "linalg.cholesky",
            ["x", "upper="],
            "The Cholesky factor of each Hermitian positive-definite matrix: lower L with x = L @ L.mT.conj() (read from x's lower triangle), or with upper=true U = L.mT.conj() (from its upper one).",
            "linalg.cholesky([[4.0, 2.0], [2.0, 3.0]])",
            |i, a| {
                let x = array_arg(i, a.required(0))?;
                dec::cholesky(&x, flag_arg(&a, 1, false)?).map(Value::array)
            }
        ),
        builtin!(
            "linalg.det",
            ["x"],
            "The determinant of each square matrix (from its LU factorisation).",
            "linalg.det([[1.0, 2.0], [3.0, 4.0]])",
            |i, a| reduced(dec::det(&array_arg(i, a.required(0))?)?, true)
        ),
        builtin!(
            "linalg.diagonal",
            ["x", "offset="],
            "The diagonal `offset` (above the main one for offset > 0) of each matrix of the last two axes: a view.",
            "linalg.diagonal([[1, 2], [3, 4]])",
            |i, a| {
                let x = array_arg(i, a.required(0))?;
                let offset = a.get(1).map(|v| count_arg(v, "offset")).transpose()?.unwrap_or(0);
                crate::array::shape::diagonal(&x, offset, -2, -1).map(Value::array)
            }
        ),
        builtin!(
            "linalg.trace",
            ["x", "offset=", "dtype="],
            "The sum along diagonal `offset` of each matrix of the last two axes (the standard's trace; the main namespace's takes axes 0 and 1).",
            "linalg.trace(stack([eye(2), ones([2, 2])]))",
            |i, a| {
                let x = array_arg(i, a.required(0))?;
                let offset = a.get(1).map(|v| count_arg(v, "offset")).transpose()?.unwrap_or(0);
                let sum = crate::array::contract::trace(&x, offset, -2, -1)?;
                let sum = match super::optional_dtype(&a, 2)? {
                    Some(d) => sum.astype(d)?,
                    None => sum,
                };
                super::reduced(sum, true)
            }
        ),
        builtin!(
            "linalg.eig",
            ["a"],
            "(eigenvalues, eigenvectors) of each square matrix: a @ v[:, i] = w[i] * v[:, i], unit columns; always complex, as NumPy 2.5's.",
            "linalg.eig([[2.0, 0.0], [0.0, 3.0]])",
            |i, a| {
                let (w, v) = dec::eig(&array_arg(i, a.required(0))?, true)?;
                Ok(tuple_of(vec![w, v.expect("asked for")]))
            }
        ),
        builtin!(
            "linalg.eigh",
            ["a", "UPLO="],
            "(eigenvalues ascending, eigenvectors as columns) of each Hermitian matrix, read from its lower triangle (UPLO=\"U\": the upper one).",
            "linalg.eigh([[2.0, 1.0], [1.0, 2.0]])",
            |i, a| {
                let lower = uplo(&a, 1)?;
                let (w, v) = dec::eigh(&array_arg(i, a.required(0))?, lower, true)?;
                Ok(tuple_of(vec![w, v.expect("asked for")]))
            }
        ),
        builtin!(
            "linalg.eigvals",
            ["a"],
            "The eigenvalues of each square matrix, always complex as NumPy 2.5's.",
            "linalg.eigvals([[0.0, 1.0], [-1.0, 0.0]])",
            |i, a| Ok(Value::array(dec::eig(&array_arg(i, a.required(0))?, false)?.0))
        ),
        builtin!(
            "linalg.eigvalsh",
            ["a", "UPLO="],
            "The eigenvalues (ascending, real) of each Hermitian matrix, from its lower triangle (or UPLO=\"U\" its upper one).",
            "linalg.eigvalsh([[2.0, 1.0], [1.0, 2.0]])",
            |i, a| {
                let lower = uplo(&a, 1)?;
                Ok(Value::array(dec::eigh(&array_arg(i, a.required(0))?, lower, false)?.0))
            }
        ),
        builtin!(
            "linalg.inv",
            ["a"],
            "The inverse of each square matrix (LinAlgError: Singular matrix when there is none).",
            "linalg.inv([[1.0, 2.0], [3.0, 4.0]])",
            |i, a| dec::inv(&array_arg(i, a.required(0))?).map(Value::array)
        ),
        builtin!(
            "linalg.lstsq",
            ["a", "b", "rcond="],
            "(x, residuals, rank, s): the least-squares solution of a @ x = b for 2-d a (the least-norm one when a is rank deficient), the residuals' squared norms (empty unless a has full column rank and more rows), a's rank and singular values; singular values up to rcond × the largest count as zero.",
            "linalg.lstsq([[1.0, 0.0], [1.0, 1.0], [1.0, 2.0]], [1.0, 2.0, 2.0])[0]",
            |i, a| {
                let (x, b) = (array_arg(i, a.required(0))?, array_arg(i, a.required(1))?);
                let rcond = a.get(2).map(|v| float_arg(v, "rcond")).transpose()?;
                let r = mf::lstsq(&x, &b, rcond)?;
                Ok(Value::Tuple(std::rc::Rc::new(vec![
                    Value::array(r.x),
                    Value::array(r.residuals),
                    Value::Int(r.rank),
                    Value::array(r.s),
                ])))
            }
        ),
        builtin!(
            "linalg.matrix_norm",
            ["x", "keepdims=", "ord="],
            "The norm of each matrix of the last two axes: ord \"fro\" (default), \"nuc\", 1, -1, 2, -2, inf, -inf as NumPy's norm.",
            "linalg.matrix_norm([[1.0, 2.0], [3.0, 4.0]], ord=1)",
            |i, a| {
                let x = array_arg(i, a.required(0))?;
                let ord = match a.get(2) {
                    None => NormOrder::Frobenius,
                    Some(v) => norm_order(v)?,
                };
                let keepdims = flag_arg(&a, 1, false)?;
                dec::check_stacked(&x)?;
                reduced(mf::matrix_norm(&x, -2, -1, keepdims, ord)?, !keepdims)
            }
        ),
        builtin!(
            "linalg.matrix_power",
            ["a", "n"],
            "a @ a @ … (n factors) for each square matrix, by repeated squaring: the identity for n = 0, powers of the inverse for n < 0.",
            "linalg.matrix_power([[1, 1], [0, 1]], 3)",
            |i, a| {
                let x = array_arg(i, a.required(0))?;
                let n = match a.required(1) {
                    Value::Int(n) => *n,
                    other => return Err(type_error(format!("exponent must be an integer, not {}", other.describe()))),
                };
                mf::matrix_power(&x, n).map(Value::array)
            }
        ),
        builtin!(
            "linalg.matrix_rank",
            ["A", "tol=", "hermitian=", "rtol="],
            "The rank of each matrix: its singular values above tol, or above rtol (default max(M, N) × eps) × the largest; for 0-d and 1-d A, 1 unless all zero.",
            "linalg.matrix_rank([[1.0, 2.0], [2.0, 4.0]])",
            |i, a| {
                let x = array_arg(i, a.required(0))?;
                let tol = a.get(1).map(|v| float_arg(v, "tol")).transpose()?;
                flag_arg(&a, 2, false)?;
                let rtol = a.get(3).map(|v| float_arg(v, "rtol")).transpose()?;
                reduced(mf::matrix_rank(&x, tol, rtol)?, true)
            }
        ),
        builtin!(
            "linalg.multi_dot",
            ["arrays"],
            "The product of a list of matrices, multiplied in the cheapest order; the first may be a 1-d row and the last a 1-d column.",
            "linalg.multi_dot([ones([2, 3]), ones([3, 4]), ones([4, 2])])",
            |i, a| {
                let arrays = arrays_arg(i, a.required(0))?;
                reduced(mf::multi_dot(&arrays)?, true)
            }
        ),
        builtin!(
            "linalg.norm",
            ["x", "ord=", "axis=", "keepdims="],
            "NumPy's norm: of the flattened x by default (2-norm), of vectors along one axis (ord a number, inf, -inf, 0) or of matrices over two axes (ord \"fro\", \"nuc\", 1, -1, 2, -2, inf, -inf).",
            "linalg.norm([[1.0, 2.0], [3.0, 4.0]], ord=\"fro\")",
            |i, a| {
                let x = array_arg(i, a.required(0))?;
                let ord = a.get(1).map(norm_order).transpose()?.unwrap_or(NormOrder::Default);
                let axis = a.get(2).map(|v| ints_arg(v, "axis")).transpose()?;
                let keepdims = flag_arg(&a, 3, false)?;
                reduced(mf::norm(&x, ord, axis.as_deref(), keepdims)?, !keepdims)
            }
        ),
        builtin!(
            "linalg.pinv",
            ["a", "rcond=", "hermitian=", "rtol="],
            "The Moore–Penrose pseudo-inverse of each matrix, from its SVD: singular values up to rcond (or rtol; default 1e-15) × the largest count as zero.",
            "linalg.pinv([[1.0, 2.0], [2.0, 4.0]])",
            |i, a| {
                let x = array_arg(i, a.required(0))?;
                let rcond = a.get(1).map(|v| float_arg(v, "rcond")).transpose()?;
                flag_arg(&a, 2, false)?;
                let rtol = a.get(3).map(|v| float_arg(v, "rtol")).transpose()?;
                if rcond.is_some() && rtol.is_some() {
                    return Err(value_error("`rtol` and `rcond` can't be both set."));
                }
                mf::pinv(&x, rcond.or(rtol).unwrap_or(1e-15)).map(Value::array)
            }
        ),
        builtin!(
            "linalg.qr",
            ["a", "mode="],
            "(Q, R) with a = Q @ R, Q's columns orthonormal and R upper triangular: mode \"reduced\" (default: Q M×K, R K×N, K = min(M, N)), \"complete\" (Q M×M, R M×N) or \"r\" (R alone).",
            "linalg.qr([[1.0, 2.0], [3.0, 4.0]])",
            |i, a| {
                let x = array_arg(i, a.required(0))?;
                let mode = match a.get(1) {
                    None => QrMode::Reduced,
                    Some(Value::Str(s)) => QrMode::from_name(s)?,
                    Some(other) => return Err(type_error(format!("qr's mode is a string, not {}", other.describe()))),
                };
                match dec::qr(&x, mode)? {
                    (Some(q), r) => Ok(tuple_of(vec![q, r])),
                    (None, r) => Ok(Value::array(r)),
                }
            }
        ),
        builtin!(
            "linalg.slogdet",
            ["a"],
            "(sign, logabsdet) of each square matrix's determinant (det = sign · exp(logabsdet), without overflow); (0, -inf) for a singular one.",
            "linalg.slogdet([[1.0, 2.0], [3.0, 4.0]])",
            |i, a| {
                let (sign, log) = dec::slogdet(&array_arg(i, a.required(0))?)?;
                Ok(Value::Tuple(std::rc::Rc::new(vec![reduced(sign, true)?, reduced(log, true)?])))
            }
        ),
        builtin!(
            "linalg.solve",
            ["a", "b"],
            "x with a @ x = b for each square matrix a: b is one vector (M,) for all of them, or a stack (..., M, K) broadcast with a's.",
            "linalg.solve([[3.0, 1.0], [1.0, 2.0]], [9.0, 8.0])",
            |i, a| {
                let (x, b) = (array_arg(i, a.required(0))?, array_arg(i, a.required(1))?);
                dec::solve(&x, &b).map(Value::array)
            }
        ),
        builtin!(
            "linalg.svd",
            ["a", "full_matrices=", "compute_uv=", "hermitian="],
            "(U, S, Vh) with a = U @ diag(S) @ Vh, singular values descending; full_matrices=false gives U M×K and Vh K×N (K = min(M, N)); compute_uv=false S alone.",
            "linalg.svd([[3.0, 0.0], [0.0, -2.0]])[1]",
            |i, a| {
                let x = array_arg(i, a.required(0))?;
                let (full, uv) = (flag_arg(&a, 1, true)?, flag_arg(&a, 2, true)?);
                flag_arg(&a, 3, false)?;
                let svd = dec::svd(&x, full, uv)?;
                match (svd.u, svd.vh) {
                    (Some(u), Some(vh)) => Ok(tuple_of(vec![u, svd.s, vh])),
                    _ => Ok(Value::array(svd.s)),
                }
            }
        ),
        builtin!(
            "linalg.svdvals",
            ["x"],
            "The singular values of each matrix, descending.",
            "linalg.svdvals([[3.0, 0.0], [0.0, -2.0]])",
            |i, a| Ok(Value::array(dec::svd(&array_arg(i, a.required(0))?, false, false)?.s))
        ),
        builtin!(
            "linalg.vector_norm",
            ["x", "axis=", "keepdims=", "ord="],
            "The norm of vectors along `axis` (an int, a list of axes taken as one vector, or every axis by default): ord 2 (default), 1, inf, -inf, 0 (the count of nonzeros) or any p.",
            "linalg.vector_norm([3.0, 4.0])",
            |i, a| {
                let x = array_arg(i, a.required(0))?;
                let axis = a.get(1).map(|v| ints_arg(v, "axis")).transpose()?;
                let keepdims = flag_arg(&a, 2, false)?;
                let ord = match a.get(3) {
                    None => 2.0,
                    Some(v) => match norm_order(v)? {
                        NormOrder::Number(p) => p,
                        _ => return Err(value_error("vector_norm's ord is a number (or inf, -inf)")),
                    },
                };
                let whole = axis.is_none() || axis.as_ref().is_some_and(|a| a.len() == x.ndim());
                reduced(mf::vector_norm(&x, axis.as_deref(), keepdims, ord)?, whole && !keepdims)
            }
        ),
        builtin!(
            "linalg.cond",
            ["x", "p="],
            "The condition number of each matrix: from its singular values (p none, 2, -2) or norm(x, p) × norm(inv(x), p) for p \"fro\", \"nuc\", 1, -1, inf, -inf; inf for a singular matrix.",
            "linalg.cond([[1.0, 0.0], [0.0, 2.0]])",
            |i, a| {
                let x = array_arg(i, a.required(0))?;
                let p = a.get(1).map(norm_order).transpose()?.unwrap_or(NormOrder::Default);
                reduced(mf::cond(&x, p)?, true)
            }
        ),
    ]
}

/// `UPLO=`: "L" (the default) reads the lower triangle, "U" the upper one.
fn uplo(args: &Args, i: usize) -> Result<bool> {
    match args.get(i) {
        None => Ok(true),
        Some(Value::Str(s)) if &**s == "L" => Ok(true),
        Some(Value::Str(s)) if &**s == "U" => Ok(false),
        Some(other) => Err(value_error(format!(
            "UPLO argument must be 'L' or 'U', not {}",
            other.describe()
        ))),
    }
}

/// A norm's `ord=`: a number (inf and -inf included), "fro" or "nuc".
fn norm_order(v: &Value) -> Result<NormOrder> {
    match v {
        Value::Str(s) if &**s == "fro" || &**s == "f" => Ok(NormOrder::Frobenius),
        Value::Str(s) if &**s == "nuc" => Ok(NormOrder::Nuclear),
        Value::Str(s) => Err(value_error(format!("Invalid norm order '{s}'"))),
        other => Ok(NormOrder::Number(float_arg(other, "ord")?)),
    }
}
