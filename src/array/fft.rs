//! NumPy's numpy.fft on arrays: the points and axes of a transform (`n=`, `s=`, `axes=` with
//! NumPy's defaults and errors), its dtypes (complex64 for f16, f32 and c64 inputs, complex128
//! for the others; f32 or f64 on the real side of real transforms), the cropping and zero-padding
//! of the input, the normalisation, and the dispatch: rustfft on the cpu (`device::cpu::fft`),
//! cuFFT plans on the gpu (`gpu_fft`). The sample frequencies and the shifts are built of
//! other array operations.

use num_complex::Complex;

use super::join::roll;
use super::ops::{self, Operand};
use super::reduce::normalize_axis;
use super::Array;
use crate::base::element::Element;
use crate::base::interrupt::Stop;
use crate::base::layout::shape_size;
use crate::base::{DType, Scalar};
use crate::device::cpu::fft::{self as cpu_fft, FftFloat};
use crate::device::cpu::{CpuBuffer, CpuElement};
use crate::device::gpu::fft::FftKind;
use crate::device::{Buffer, Device};
use crate::error::{index_error, type_error, value_error, Error, ErrorKind, Result};
use crate::plan::table::Op;

/// NumPy's `norm=`: which direction is scaled, by 1/n (or both by 1/√n).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Norm {
    Backward,
    Ortho,
    Forward,
}

impl Norm {
    pub fn from_name(name: &str) -> Result<Norm> {
        match name {
            "backward" => Ok(Norm::Backward),
            "ortho" => Ok(Norm::Ortho),
            "forward" => Ok(Norm::Forward),
            other => Err(value_error(format!(
                "Invalid norm value {other}; should be \"backward\",\"ortho\" or \"forward\"."
            ))),
        }
    }

    /// The same normalisation seen from the other direction (`hfft` is an inverse transform).
    fn swapped(self) -> Norm {
        match self {
            Norm::Backward => Norm::Forward,
            Norm::Ortho => Norm::Ortho,
            Norm::Forward => Norm::Backward,
        }
    }

    /// The factor of a transform over `points` points.
    fn factor(self, points: usize, inverse: bool) -> f64 {
        match (self, inverse) {
            (Norm::Ortho, _) => 1.0 / (points as f64).sqrt(),
            (Norm::Backward, true) | (Norm::Forward, false) => 1.0 / points as f64,
            _ => 1.0,
        }
    }
}

/// `fft`/`ifft`: along `axis`, `n` points.
pub fn fft(x: &Array, n: Option<i64>, axis: i64, norm: Norm, inverse: bool) -> Result<Array> {
    fftn(
        x,
        one_axis_points(n)?.as_ref().map(|s| &s[..]),
        Some(&[axis]),
        norm,
        inverse,
    )
}

/// A 1-d transform's `n=` as the `s=` of an n-d one, where -1 means "the axis's length": a
/// 1-d `n` must be a count of points.
fn one_axis_points(n: Option<i64>) -> Result<Option<[i64; 1]>> {
    match n {
        Some(n) if n < 1 => Err(value_error(format!(
            "Invalid number of FFT data points ({n}) specified."
        ))),
        _ => Ok(n.map(|n| [n])),
    }
}

/// `fftn`/`ifftn` (and `fft2`, whose caller gives the axes): over `axes` (all by default, or the
/// last `len(s)`), `s` points along each.
pub fn fftn(
    x: &Array,
    s: Option<&[i64]>,
    axes: Option<&[i64]>,
    norm: Norm,
    inverse: bool,
) -> Result<Array> {
    let (lengths, axes) = lengths_and_axes(x, s, axes, false)?;
    if axes.is_empty() {
        return Ok(x.clone());
    }
    transform(x, FftKind::Complex, &lengths, &axes, norm, inverse)
}

/// `rfft`: the `n / 2 + 1` non-negative frequencies of real input along `axis`.
pub fn rfft(x: &Array, n: Option<i64>, axis: i64, norm: Norm) -> Result<Array> {
    rfftn(
        x,
        one_axis_points(n)?.as_ref().map(|s| &s[..]),
        Some(&[axis]),
        norm,
    )
}

/// `rfftn`: a real transform along the last of `axes`, then complex ones along the others.
pub fn rfftn(x: &Array, s: Option<&[i64]>, axes: Option<&[i64]>, norm: Norm) -> Result<Array> {
    let (lengths, axes) = lengths_and_axes(x, s, axes, false)?;
    if axes.is_empty() {
        return Err(index_error("a real transform needs at least one axis"));
    }
    transform(x, FftKind::RealToComplex, &lengths, &axes, norm, false)
}

/// `irfft`: `n` real points (`2 (m - 1)` by default) from `m` non-negative frequencies.
pub fn irfft(x: &Array, n: Option<i64>, axis: i64, norm: Norm) -> Result<Array> {
    irfftn(
        x,
        one_axis_points(n)?.as_ref().map(|s| &s[..]),
        Some(&[axis]),
        norm,
    )
}

/// `irfftn`: inverse complex transforms along all but the last of `axes`, then a real one.
pub fn irfftn(x: &Array, s: Option<&[i64]>, axes: Option<&[i64]>, norm: Norm) -> Result<Array> {
    let (lengths, axes) = lengths_and_axes(x, s, axes, true)?;
    if axes.is_empty() {
        return Err(index_error("a real transform needs at least one axis"));
    }
    transform(x, FftKind::ComplexToReal, &lengths, &axes, norm, true)
}

/// `hfft`: the real transform of a Hermitian signal given by its first half.
pub fn hfft(x: &Array, n: Option<i64>, axis: i64, norm: Norm) -> Result<Array> {
    let conjugate = ops::unary(Op::Conjugate, x)?;
    irfft(&conjugate, n, axis, norm.swapped())
}

/// `ihfft`: the inverse of `hfft`.
pub fn ihfft(x: &Array, n: Option<i64>, axis: i64, norm: Norm) -> Result<Array> {
    ops::unary(Op::Conjugate, &rfft(x, n, axis, norm.swapped())?)
}

/// NumPy's points and axes of an n-d transform: `axes` as given (negative ones from the end,
/// repeats allowed), else the last `len(s)` axes, else all; `s` as given (-1: the axis's
/// length), else the axes' lengths, for an inverse real transform `2 (m - 1)` along the last.
fn lengths_and_axes(
    x: &Array,
    s: Option<&[i64]>,
    axes: Option<&[i64]>,
    inverse_real: bool,
) -> Result<(Vec<usize>, Vec<usize>)> {
    let ndim = x.ndim();
    let axes: Vec<usize> = match (axes, s) {
        (Some(axes), _) => axes
            .iter()
            .map(|&a| normalize_axis(a, ndim))
            .collect::<Result<_>>()?,
        (None, Some(s)) => (-(s.len() as i64)..0)
            .map(|a| normalize_axis(a, ndim))
            .collect::<Result<_>>()?,
        (None, None) => (0..ndim).collect(),
    };
    let lengths: Vec<i64> = match s {
        Some(s) if s.len() != axes.len() => {
            return Err(value_error("Shape and axes have different lengths."))
        }
        Some(s) => s
            .iter()
            .zip(&axes)
            .map(|(&n, &a)| if n == -1 { x.shape()[a] as i64 } else { n })
            .collect(),
        None => {
            let mut lengths: Vec<i64> = axes.iter().map(|&a| x.shape()[a] as i64).collect();
            if let Some(last) = lengths.last_mut().filter(|_| inverse_real) {
                *last = 2 * (*last - 1);
            }
            lengths
        }
    };
    let lengths = lengths
        .into_iter()
        .map(|n| {
            usize::try_from(n).ok().filter(|&n| n >= 1).ok_or_else(|| {
                value_error(format!(
                    "Invalid number of FFT data points ({n}) specified."
                ))
            })
        })
        .collect::<Result<_>>()?;
    Ok((lengths, axes))
}

/// A transform of `kind` with `lengths[i]` points along `axes[i]` (for real kinds the last axis
/// is the real one), normalised as `norm` says.
fn transform(
    x: &Array,
    kind: FftKind,
    lengths: &[usize],
    axes: &[usize],
    norm: Norm,
    inverse: bool,
) -> Result<Array> {
    if (1..axes.len()).any(|i| axes[..i].contains(&axes[i])) {
        return axis_by_axis(x, kind, lengths, axes, norm, inverse);
    }
    let (real_axis, n) = (axes[axes.len() - 1], lengths[lengths.len() - 1]);
    let dtype = match kind {
        FftKind::RealToComplex if x.dtype().is_complex() => {
            return Err(type_error(format!(
                "a real transform takes real input, not {}",
                x.dtype()
            )))
        }
        FftKind::RealToComplex => x.dtype().complex_of().real(),
        _ => x.dtype().complex_of(),
    };
    let mut shape = x.shape().to_vec();
    for (&axis, &len) in axes.iter().zip(lengths) {
        shape[axis] = len;
    }
    let mut out_shape = shape.clone();
    match kind {
        FftKind::RealToComplex => out_shape[real_axis] = n / 2 + 1,
        FftKind::ComplexToReal => shape[real_axis] = n / 2 + 1,
        FftKind::Complex => {}
    }
    let (input, fresh) = resized(x, &shape, dtype)?;
    let scale = norm.factor(shape_size(lengths)?, inverse);
    match x.device() {
        Device::Cpu if dtype.real() == DType::F32 => {
            on_cpu::<f32>(&input, kind, axes, &out_shape, inverse, scale)
        }
        Device::Cpu => on_cpu::<f64>(&input, kind, axes, &out_shape, inverse, scale),
        Device::Gpu => super::gpu_fft::transform(input, fresh, kind, axes, n, inverse, scale),
    }
}

/// NumPy's order of one-axis transforms, for axes that repeat: complex ones from the last axis
/// to the first; the real one first (forward) or last (inverse).
fn axis_by_axis(
    x: &Array,
    kind: FftKind,
    lengths: &[usize],
    axes: &[usize],
    norm: Norm,
    inverse: bool,
) -> Result<Array> {
    let step = |x: &Array, kind: FftKind, i: usize| {
        transform(x, kind, &lengths[i..=i], &axes[i..=i], norm, inverse)
    };
    let last = axes.len() - 1;
    match kind {
        FftKind::Complex => (0..=last)
            .rev()
            .try_fold(x.clone(), |y, i| step(&y, kind, i)),
        FftKind::RealToComplex => {
            (0..last).try_fold(step(x, kind, last)?, |y, i| step(&y, FftKind::Complex, i))
        }
        FftKind::ComplexToReal => {
            let y = (0..last).try_fold(x.clone(), |y, i| step(&y, FftKind::Complex, i))?;
            step(&y, kind, last)
        }
    }
}

/// `x` as a C-ordered array of `dtype` and `shape`: cropped, and zero-padded at the end of each
/// axis; and whether it is a new array (itself when it already is one).
fn resized(x: &Array, shape: &[usize], dtype: DType) -> Result<(Array, bool)> {
    if shape == x.shape() && x.dtype() == dtype && x.layout().is_contiguous() {
        return Ok((x.clone(), false));
    }
    let mut kept = x.layout().clone();
    for (have, &want) in kept.shape.iter_mut().zip(shape) {
        *have = (*have).min(want);
    }
    let kept = x.with_layout(kept);
    if kept.shape() == shape {
        return Ok((kept.astype(dtype)?, true));
    }
    let out = Array::from_buffer(Buffer::alloc(x.device(), shape_size(shape)?, dtype)?, shape);
    ops::assign(&out, Operand::Scalar(Scalar::Int(0)))?;
    let mut corner = out.layout().clone();
    corner.shape = kept.shape().into();
    ops::assign(&out.with_layout(corner), Operand::Array(&kept))?;
    Ok((out, true))
}

// ---- the cpu ----

/// The transform of a C-ordered `input` (already of the transform's dtype and size) with
/// rustfft, into a new array of `out_shape`: the last axis's pass first (contiguous rows), the
/// scale folded into the last pass.
fn on_cpu<T>(
    input: &Array,
    kind: FftKind,
    axes: &[usize],
    out_shape: &[usize],
    inverse: bool,
    scale: f64,
) -> Result<Array>
where
    T: FftFloat + CpuElement,
    Complex<T>: CpuElement,
{
    let scale = T::from(scale).expect("a float");
    let shape = input.shape().to_vec();
    let real_axis = axes[axes.len() - 1];
    let mut others = axes[..axes.len() - 1].to_vec();
    others.sort_unstable_by(|a, b| b.cmp(a));
    let out_dtype = match kind {
        FftKind::ComplexToReal => T::DTYPE,
        _ => Complex::<T>::DTYPE,
    };
    let size = shape_size(out_shape)?;
    crate::device::check_allocation(Device::Cpu, size, out_dtype)?;
    let buffer = CpuBuffer::uninit(out_dtype, size);
    match kind {
        FftKind::Complex => {
            let mut order = axes.to_vec();
            order.sort_unstable_by(|a, b| b.cmp(a));
            let mut out = super::cpu_data::<Complex<T>>(&buffer).borrow_mut();
            input.with_view::<Complex<T>, _>(|v| {
                cpu_fft::c2c(
                    Some(contiguous(&v)),
                    &mut out,
                    &shape,
                    &order,
                    inverse,
                    scale,
                )
            })?;
        }
        FftKind::RealToComplex => {
            let mut out = super::cpu_data::<Complex<T>>(&buffer).borrow_mut();
            let first = if others.is_empty() { scale } else { T::one() };
            input.with_view::<T, _>(|v| {
                cpu_fft::r2c(contiguous(&v), &shape, real_axis, &mut out, first)
            })?;
            cpu_fft::c2c(None, &mut out, out_shape, &others, false, scale);
        }
        FftKind::ComplexToReal => {
            let mut out = super::cpu_data::<T>(&buffer).borrow_mut();
            let n = out_shape[real_axis];
            if others.is_empty() {
                input.with_view::<Complex<T>, _>(|v| {
                    cpu_fft::c2r(contiguous(&v), &shape, real_axis, n, &mut out, scale)
                })?;
            } else {
                let between = CpuBuffer::uninit(Complex::<T>::DTYPE, input.size());
                let mut between = super::cpu_data::<Complex<T>>(&between).borrow_mut();
                input.with_view::<Complex<T>, _>(|v| {
                    cpu_fft::c2c(
                        Some(contiguous(&v)),
                        &mut between,
                        &shape,
                        &others,
                        true,
                        T::one(),
                    )
                })?;
                cpu_fft::c2r(&between, &shape, real_axis, n, &mut out, scale);
            }
        }
    }
    // The passes give up early on an interrupt, leaving the result unfinished.
    if Stop::current().requested() {
        return Err(Error::new(ErrorKind::Interrupted, "interrupted"));
    }
    Ok(Array::from_buffer(Buffer::Cpu(buffer), out_shape))
}

fn contiguous<'a, T>(v: &'a ndarray::ArrayViewD<'a, T>) -> &'a [T] {
    v.as_slice().expect("the transform's input is C-ordered")
}

// ---- frequencies and shifts ----

fn check_points(n: i64, d: f64) -> Result<f64> {
    if n < 0 {
        return Err(value_error("negative dimensions are not allowed"));
    }
    let denominator = n as f64 * d;
    if denominator == 0.0 {
        return Err(Error::new(
            ErrorKind::ZeroDivision,
            "float division by zero",
        ));
    }
    Ok(1.0 / denominator)
}

/// Integers times `step` (f64), as NumPy computes the frequencies: on `device`.
fn frequencies(values: Vec<i64>, step: f64, device: Device) -> Result<Array> {
    let n = values.len();
    let ints = Array::from_vec(values, vec![n]).to_device(device)?;
    ops::with_scalar(Op::Multiply, &ints, Scalar::Float(step))
}

/// `fftfreq(n, d)`: `[0, 1, ..., (n - 1) / 2, -(n / 2), ..., -1] / (d n)`.
pub fn fftfreq(n: i64, d: f64, device: Device) -> Result<Array> {
    let step = check_points(n, d)?;
    crate::device::check_allocation(Device::Cpu, n as usize, DType::I64)?;
    let positive = (n - 1) / 2 + 1;
    let values = (0..n)
        .map(|k| if k < positive { k } else { k - n })
        .collect();
    frequencies(values, step, device)
}

/// `rfftfreq(n, d)`: `[0, 1, ..., n / 2] / (d n)`.
pub fn rfftfreq(n: i64, d: f64, device: Device) -> Result<Array> {
    let step = check_points(n, d)?;
    crate::device::check_allocation(Device::Cpu, (n / 2 + 1) as usize, DType::I64)?;
    frequencies((0..n / 2 + 1).collect(), step, device)
}

/// `fftshift` (or, `inverse`, `ifftshift`): a roll by `n / 2` (`-(n / 2)`) along each of `axes`
/// (all by default).
pub fn fftshift(x: &Array, axes: Option<&[i64]>, inverse: bool) -> Result<Array> {
    let axes: Vec<usize> = match axes {
        Some(axes) => axes
            .iter()
            .map(|&a| normalize_axis(a, x.ndim()))
            .collect::<Result<_>>()?,
        None => (0..x.ndim()).collect(),
    };
    if axes.is_empty() {
        return x.copy();
    }
    axes.iter().try_fold(x.clone(), |y, &axis| {
        let half = (y.shape()[axis] / 2) as i64;
        roll(&y, if inverse { -half } else { half }, Some(axis as i64))
    })
}
