//! Matrix products and the image filter, with NumPy's shape rules.

use ndarray::{Ix1, Ix2};

use super::ops::{self, device_mismatch, Operand};
use super::Array;
use crate::base::interrupt::Stop;
use crate::base::layout::shape_text;
use crate::base::DType;
use crate::device::cpu::linalg::{self as cpu_linalg, LinalgElement};
use crate::device::cpu::{self, conv};
use crate::error::{shape_error, type_error, Error, ErrorKind, Result};
use crate::plan::table::{self, Op};

fn check_devices(a: &Array, b: &Array) -> Result<()> {
    if a.device() != b.device() {
        return Err(device_mismatch(a, b));
    }
    Ok(())
}

/// `a @ b`: 1-d·1-d (a 0-d array), 2-d·2-d, 2-d·1-d and 1-d·2-d, in NumPy's result dtype:
/// integers and bools multiply in int64 (wrapping, so any narrower width wraps the same), float16
/// in float32, complex numbers as four real products.
pub fn matmul(a: &Array, b: &Array) -> Result<Array> {
    check_devices(a, b)?;
    let dtype = a.dtype().promote(b.dtype());
    let compute = match dtype {
        DType::F64 | DType::F32 => dtype,
        DType::F16 => DType::F32,
        DType::C64 | DType::C128 => return complex_matmul(a, b, dtype),
        _ => DType::I64,
    };
    let product = match compute {
        DType::F64 => matmul_typed::<f64>(a, b)?,
        DType::F32 => matmul_typed::<f32>(a, b)?,
        _ => matmul_typed::<i64>(a, b)?,
    };
    if product.dtype() == dtype {
        Ok(product)
    } else {
        product.astype(dtype)
    }
}

/// `(ar + i·ai)(br + i·bi) = (ar·br − ai·bi) + i(ar·bi + ai·br)`.
fn complex_matmul(a: &Array, b: &Array, dtype: DType) -> Result<Array> {
    let part = dtype.real();
    let split = |x: &Array| -> Result<(Array, Array)> {
        let z = x.astype(dtype)?;
        Ok((ops::real(&z)?.astype(part)?, ops::imag(&z)?.astype(part)?))
    };
    let ((ar, ai), (br, bi)) = (split(a)?, split(b)?);
    let (rr, ii) = (matmul(&ar, &br)?, matmul(&ai, &bi)?);
    let (ri, ir) = (matmul(&ar, &bi)?, matmul(&ai, &br)?);
    let binary = |op: Op, x: &Array, y: &Array| {
        ops::apply(table::row(op), &[Operand::Array(x), Operand::Array(y)])
    };
    let re = binary(Op::Subtract, &rr, &ii)?;
    let im = binary(Op::Add, &ri, &ir)?;
    let i = Array::scalar(crate::base::Scalar::Complex(0.0, 1.0), a.device())?.astype(dtype)?;
    let im = binary(Op::Multiply, &im, &i)?;
    binary(Op::Add, &re.astype(dtype)?, &im)
}

fn mismatch(a: &Array, b: &Array) -> crate::error::Error {
    shape_error(format!(
        "matmul: shapes {} and {} are not aligned",
        shape_text(a.shape()),
        shape_text(b.shape())
    ))
}

/// The shape of `a @ b` for 1-d and 2-d operands, or why they do not multiply.
fn product_shape(a: &Array, b: &Array) -> Result<Vec<usize>> {
    let inner = |x: &Array, rows: bool| match (x.ndim(), rows) {
        (1, _) => Ok(x.shape()[0]),
        (2, true) => Ok(x.shape()[1]),
        (2, false) => Ok(x.shape()[0]),
        _ => Err(type_error(format!(
            "matmul takes 1-d and 2-d arrays, not {} and {}",
            shape_text(a.shape()),
            shape_text(b.shape())
        ))),
    };
    if inner(a, true)? != inner(b, false)? {
        return Err(mismatch(a, b));
    }
    let mut shape = Vec::new();
    if a.ndim() == 2 {
        shape.push(a.shape()[0]);
    }
    if b.ndim() == 2 {
        shape.push(b.shape()[1]);
    }
    Ok(shape)
}

fn matmul_typed<T: LinalgElement + cpu::CpuElement>(a: &Array, b: &Array) -> Result<Array> {
    if a.device() == crate::device::Device::Gpu {
        return super::on_gpu::matmul(a, b, T::DTYPE, &product_shape(a, b)?);
    }
    let fail = |_| mismatch(a, b);
    let rows = if a.ndim() == 2 { a.shape()[0] } else { 1 };
    let columns = if b.ndim() == 2 { b.shape()[1] } else { 1 };
    crate::device::check_allocation(
        crate::device::Device::Cpu,
        crate::base::layout::shape_size(&[rows, columns])?,
        T::DTYPE,
    )?;
    let (a, b) = (typed::<T>(a)?, typed::<T>(b)?);
    a.with_view::<T, _>(|av| {
        b.with_view::<T, _>(|bv| match (av.ndim(), bv.ndim()) {
            (1, 1) => {
                let x = av.into_dimensionality::<Ix1>().unwrap();
                let y = bv.into_dimensionality::<Ix1>().unwrap();
                let d = cpu_linalg::dot(x, y).map_err(fail)?;
                Ok(Array::from_vec(vec![d + T::zero()], vec![]))
            }
            (2, 2) => {
                let m = cpu_linalg::matmul(
                    av.into_dimensionality::<Ix2>().unwrap(),
                    bv.into_dimensionality::<Ix2>().unwrap(),
                )
                .map_err(fail)?;
                Ok(Array::from_ndarray(m.into_dyn()))
            }
            (2, 1) => {
                let v = cpu_linalg::matvec(
                    av.into_dimensionality::<Ix2>().unwrap(),
                    bv.into_dimensionality::<Ix1>().unwrap(),
                )
                .map_err(fail)?;
                Ok(Array::from_ndarray(plus_zero(v.into_dyn())))
            }
            (1, 2) => {
                let v = cpu_linalg::vecmat(
                    av.into_dimensionality::<Ix1>().unwrap(),
                    bv.into_dimensionality::<Ix2>().unwrap(),
                )
                .map_err(fail)?;
                Ok(Array::from_ndarray(plus_zero(v.into_dyn())))
            }
            _ => Err(type_error(format!(
                "matmul takes 1-d and 2-d arrays, not {} and {}",
                shape_text(a.shape()),
                shape_text(b.shape())
            ))),
        })
    })??
}

/// `x` as element type `T` (itself when it already is).
fn typed<T: cpu::CpuElement>(x: &Array) -> Result<Array> {
    if x.dtype() == T::DTYPE {
        Ok(x.clone())
    } else {
        x.astype(T::DTYPE)
    }
}

/// BLAS accumulates into +0, so a product of zeros is +0, never -0; ours does the same
/// (`cpu_linalg::matmul` already does for matrices).
fn plus_zero<T: LinalgElement>(mut m: ndarray::ArrayD<T>) -> ndarray::ArrayD<T> {
    m.mapv_inplace(|x| x + T::zero());
    m
}

/// `outer(a, b)[i, j] = a[i] * b[j]` over the flattened inputs.
pub fn outer(a: &Array, b: &Array) -> Result<Array> {
    check_devices(a, b)?;
    let column = super::shape::reshape(a, &[-1, 1])?;
    let row = super::shape::reshape(b, &[1, -1])?;
    ops::apply(
        table::row(Op::Multiply),
        &[Operand::Array(&column), Operand::Array(&row)],
    )
}

/// 2-d "same" correlation with zero padding (the documents' image filter).
pub fn conv2d(image: &Array, kernel: &Array) -> Result<Array> {
    check_devices(image, kernel)?;
    if image.ndim() != 2 || kernel.ndim() != 2 {
        return Err(shape_error(format!(
            "conv2d takes a 2-d image and a 2-d kernel, not {} and {}",
            shape_text(image.shape()),
            shape_text(kernel.shape())
        )));
    }
    let dtype = match image.dtype().promote(kernel.dtype()) {
        DType::F32 | DType::F16 => DType::F32,
        DType::C64 | DType::C128 => {
            return Err(type_error("conv2d takes real arrays, not complex ones"))
        }
        _ => DType::F64,
    };
    match (image.device(), dtype) {
        (crate::device::Device::Gpu, _) => super::on_gpu::conv2d(image, kernel, dtype),
        (_, DType::F32) => conv2d_typed::<f32>(image, kernel),
        _ => conv2d_typed::<f64>(image, kernel),
    }
}

fn conv2d_typed<T: cpu_linalg::Float + cpu::CpuElement>(
    image: &Array,
    kernel: &Array,
) -> Result<Array> {
    let (image, kernel) = (typed::<T>(image)?, typed::<T>(kernel)?);
    let out = image.with_view::<T, _>(|i| {
        kernel.with_view::<T, _>(|k| {
            conv::conv2d(
                i.into_dimensionality::<Ix2>().expect("2-d"),
                k.into_dimensionality::<Ix2>().expect("2-d"),
            )
        })
    })??;
    if Stop::current().requested() {
        return Err(Error::new(ErrorKind::Interrupted, "interrupted"));
    }
    Ok(Array::from_ndarray(out.into_dyn()))
}
