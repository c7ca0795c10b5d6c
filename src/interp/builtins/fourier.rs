//! The `fft` namespace, as NumPy's numpy.fft: complex, real and Hermitian transforms in one, two
//! and n dimensions, the sample frequencies and the shifts.

use super::manipulation::ints_arg;
use super::{array_arg, builtin, count_arg, device_or_default, float_arg, Args, Builtin};
use crate::array::fft::{self, Norm};
use crate::array::Array;
use crate::error::{type_error, Result};
use crate::interp::value::Value;
use crate::interp::Interpreter;

/// A transform along one axis: `f(a, n, axis, norm)`.
type OneAxis = fn(&Array, Option<i64>, i64, Norm) -> Result<Array>;
/// A transform over several axes: `f(a, s, axes, norm)`.
type SeveralAxes = fn(&Array, Option<&[i64]>, Option<&[i64]>, Norm) -> Result<Array>;

pub fn builtins() -> Vec<Builtin> {
    vec![
        builtin!(
            "fft.fft",
            ["a", "n=", "axis=", "norm="],
            "The discrete Fourier transform along one axis (the last by default) of n points (the input cropped or zero-padded); norm= \"backward\" (the default: the inverse scales by 1/n), \"ortho\" or \"forward\".",
            "fft.fft([1, 0, -1, 0])",
            |i, a| one_axis(i, &a, |x, n, axis, norm| fft::fft(x, n, axis, norm, false))
        ),
        builtin!(
            "fft.ifft",
            ["a", "n=", "axis=", "norm="],
            "The inverse of fft along one axis: ifft(fft(x)) is x.",
            "fft.ifft([0, 2, 0, 2])",
            |i, a| one_axis(i, &a, |x, n, axis, norm| fft::fft(x, n, axis, norm, true))
        ),
        builtin!(
            "fft.fft2",
            ["a", "s=", "axes=", "norm="],
            "The 2-d transform over axes= (the last two by default), with s= points along each.",
            "fft.fft2(eye(2))",
            |i, a| several_axes(i, &a, Some(&[-2, -1]), |x, s, axes, norm| fft::fftn(x, s, axes, norm, false))
        ),
        builtin!(
            "fft.ifft2",
            ["a", "s=", "axes=", "norm="],
            "The inverse of fft2.",
            "fft.ifft2(fft.fft2(eye(2)))",
            |i, a| several_axes(i, &a, Some(&[-2, -1]), |x, s, axes, norm| fft::fftn(x, s, axes, norm, true))
        ),
        builtin!(
            "fft.fftn",
            ["a", "s=", "axes=", "norm="],
            "The n-d transform over axes= (all axes, or the last len(s)), with s= points along each (-1: the axis's length).",
            "fft.fftn(ones([2, 2, 2]))",
            |i, a| several_axes(i, &a, None, |x, s, axes, norm| fft::fftn(x, s, axes, norm, false))
        ),
        builtin!(
            "fft.ifftn",
            ["a", "s=", "axes=", "norm="],
            "The inverse of fftn.",
            "fft.ifftn(fft.fftn(ones([2, 2])))",
            |i, a| several_axes(i, &a, None, |x, s, axes, norm| fft::fftn(x, s, axes, norm, true))
        ),
        builtin!(
            "fft.rfft",
            ["a", "n=", "axis=", "norm="],
            "The transform of real input along one axis: its n // 2 + 1 non-negative frequencies.",
            "fft.rfft([1, 2, 3, 4])",
            |i, a| one_axis(i, &a, fft::rfft)
        ),
        builtin!(
            "fft.irfft",
            ["a", "n=", "axis=", "norm="],
            "The inverse of rfft: n real values (2 (m - 1) by default) from m non-negative frequencies.",
            "fft.irfft(fft.rfft([1, 2, 3, 4]))",
            |i, a| one_axis(i, &a, fft::irfft)
        ),
        builtin!(
            "fft.rfft2",
            ["a", "s=", "axes=", "norm="],
            "The 2-d transform of real input: rfft along the last of axes= (the last two by default), fft along the other.",
            "fft.rfft2(eye(4)).shape",
            |i, a| several_axes(i, &a, Some(&[-2, -1]), fft::rfftn)
        ),
        builtin!(
            "fft.irfft2",
            ["a", "s=", "axes=", "norm="],
            "The inverse of rfft2 (s= gives the real output's shape).",
            "fft.irfft2(fft.rfft2(eye(4)))",
            |i, a| several_axes(i, &a, Some(&[-2, -1]), fft::irfftn)
        ),
        builtin!(
            "fft.rfftn",
            ["a", "s=", "axes=", "norm="],
            "The n-d transform of real input: rfft along the last of axes=, fft along the others.",
            "fft.rfftn(ones([2, 2, 4])).shape",
            |i, a| several_axes(i, &a, None, fft::rfftn)
        ),
        builtin!(
            "fft.irfftn",
            ["a", "s=", "axes=", "norm="],
            "The inverse of rfftn (s= gives the real output's shape).",
            "fft.irfftn(fft.rfftn(ones([2, 4])))",
            |i, a| several_axes(i, &a, None, fft::irfftn)
        ),
        builtin!(
            "fft.hfft",
            ["a", "n=", "axis=", "norm="],
            "The transform of a Hermitian-symmetric signal given by its first half: n real values (2 (m - 1) by default).",
            "fft.hfft([1, 2, 3])",
            |i, a| one_axis(i, &a, fft::hfft)
        ),
        builtin!(
            "fft.ihfft",
            ["a", "n=", "axis=", "norm="],
            "The inverse of hfft: the n // 2 + 1 first values of the Hermitian signal whose transform is the real input.",
            "fft.ihfft([1, 2, 3, 4])",
            |i, a| one_axis(i, &a, fft::ihfft)
        ),
        builtin!(
            "fft.fftfreq",
            ["n", "d=", "device="],
            "The sample frequencies of an n-point transform with sample spacing d (1 by default): [0, 1, ..., -2, -1] / (d n).",
            "fft.fftfreq(8, 0.1)",
            |i, a| frequencies(i, &a, fft::fftfreq)
        ),
        builtin!(
            "fft.rfftfreq",
            ["n", "d=", "device="],
            "The sample frequencies of rfft's result: [0, 1, ..., n // 2] / (d n).",
            "fft.rfftfreq(8, 0.1)",
            |i, a| frequencies(i, &a, fft::rfftfreq)
        ),
        builtin!(
            "fft.fftshift",
            ["x", "axes="],
            "The zero frequency moved to the centre: a roll by n // 2 along each of axes= (all by default).",
            "fft.fftshift(fft.fftfreq(6))",
            |i, a| shift(i, &a, false)
        ),
        builtin!(
            "fft.ifftshift",
            ["x", "axes="],
            "The inverse of fftshift: a roll by -(n // 2) along each of axes=.",
            "fft.ifftshift(fft.fftshift(arange(5)))",
            |i, a| shift(i, &a, true)
        ),
    ]
}

/// `norm=` at `i`: "backward" when not given.
fn norm_arg(args: &Args, i: usize) -> Result<Norm> {
    match args.get(i) {
        None => Ok(Norm::Backward),
        Some(Value::Str(s)) => Norm::from_name(s),
        Some(other) => Err(type_error(format!(
            "norm must be \"backward\", \"ortho\" or \"forward\", not {}",
            other.describe()
        ))),
    }
}

/// `f(a, n=, axis=, norm=)`, axis -1 by default.
fn one_axis(interp: &mut Interpreter, args: &Args, f: OneAxis) -> Result<Value> {
    let x = array_arg(interp, args.required(0))?;
    let n = args.get(1).map(|v| count_arg(v, "n")).transpose()?;
    let axis = args
        .get(2)
        .map(|v| count_arg(v, "axis"))
        .transpose()?
        .unwrap_or(-1);
    f(&x, n, axis, norm_arg(args, 3)?).map(Value::array)
}

/// `f(a, s=, axes=, norm=)`, with `default_axes` when axes= is not given.
fn several_axes(
    interp: &mut Interpreter,
    args: &Args,
    default_axes: Option<&[i64]>,
    f: SeveralAxes,
) -> Result<Value> {
    let x = array_arg(interp, args.required(0))?;
    let s = args.get(1).map(|v| ints_arg(v, "a length")).transpose()?;
    let axes = args.get(2).map(|v| ints_arg(v, "an axis")).transpose()?;
    let axes = axes.as_deref().or(default_axes);
    f(&x, s.as_deref(), axes, norm_arg(args, 3)?).map(Value::array)
}

/// `f(n, d=, device=)`.
fn frequencies(
    interp: &mut Interpreter,
    args: &Args,
    f: fn(i64, f64, crate::device::Device) -> Result<Array>,
) -> Result<Value> {
    let n = count_arg(args.required(0), "n")?;
    let d = args
        .get(1)
        .map(|v| float_arg(v, "d"))
        .transpose()?
        .unwrap_or(1.0);
    let device = device_or_default(interp, args, 2)?;
    f(n, d, device).map(Value::array)
}

fn shift(interp: &mut Interpreter, args: &Args, inverse: bool) -> Result<Value> {
    let x = array_arg(interp, args.required(0))?;
    let axes = args.get(1).map(|v| ints_arg(v, "an axis")).transpose()?;
    fft::fftshift(&x, axes.as_deref(), inverse).map(Value::array)
}
