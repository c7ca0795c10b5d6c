//! NumPy's random distributions (the methods of numpy.random's Generator) on either device: the
//! result's shape from `size` or from the parameters' broadcast, NumPy's checks of the parameters
//! and its messages, and the draws — on the cpu from the session's generator
//! (`device::cpu::random`, large fills in parallel chunks), on the gpu from cuRAND (normal
//! numbers) and the kernels of `kernels/random.cu` (the rest). `choice`, `permutation` and
//! `shuffle` are built of those draws, sorts, running sums and gathers. The numbers depend only on
//! the seed, the sequence of calls and their sizes, per device; they are not NumPy's streams.

use super::ops::{self, Operand};
use super::Array;
use crate::base::dtype::integer_range;
use crate::base::layout::{broadcast_shapes, shape_size, shape_text, AxisIndex, Layout};
use crate::base::{DType, Scalar};
use crate::device::cpu::random::{Param as PerElement, Rng};
use crate::device::gpu::random::kernel_stream;
use crate::device::{Buffer, Device};
use crate::error::{device_error, type_error, value_error, Result};
use crate::kernel_args;
use crate::plan::reduce::Reduction;
use crate::plan::table::Op;
use crate::plan::Storage;

/// A distribution's parameter: a host number, or an array broadcast against the result.
pub enum Param {
    Number(Scalar),
    Array(Array),
}

impl Param {
    fn shape(&self) -> &[usize] {
        match self {
            Param::Number(_) => &[],
            Param::Array(a) => a.shape(),
        }
    }

    fn operand(&self) -> Operand<'_> {
        match self {
            Param::Number(s) => Operand::Scalar(*s),
            Param::Array(a) => Operand::Array(a),
        }
    }

    fn number(&self) -> Option<Scalar> {
        match self {
            Param::Number(s) => Some(*s),
            Param::Array(_) => None,
        }
    }

    /// Whether `x op bound` holds for every value (NaN fails every comparison): for an array,
    /// one reduction (from the gpu, a one-byte read).
    fn all(&self, op: Op, bound: Scalar) -> Result<bool> {
        holds(op, self, &Param::Number(bound), Reduction::All)
    }

    /// Whether `x op bound` holds for some value.
    fn any(&self, op: Op, bound: Scalar) -> Result<bool> {
        holds(op, self, &Param::Number(bound), Reduction::Any)
    }

    /// NumPy's test of a parameter that must not be negative: a set sign bit on a number that
    /// is not NaN (so -0.0 is refused, NaN passes).
    fn any_negative(&self) -> Result<bool> {
        match self {
            Param::Number(s) => Ok(s.as_f64().is_sign_negative() && !s.as_f64().is_nan()),
            Param::Array(a) if a.dtype().is_inexact() => {
                let signed = ops::unary(Op::Signbit, a)?;
                let number = ops::unary(Op::LogicalNot, &ops::unary(Op::Isnan, a)?)?;
                let negative = ops::binary(Op::LogicalAnd, &signed, &number)?;
                Ok(super::reduce::reduce_all(Reduction::Any, &negative)?.cast::<bool>())
            }
            Param::Array(_) => self.any(Op::Less, int(0)),
        }
    }

    /// NumPy's error for this parameter: it words a failing array slightly differently.
    fn refused(&self, message: &str, array_message: &str) -> crate::error::Error {
        value_error(match self {
            Param::Number(_) => message,
            Param::Array(_) => array_message,
        })
    }

    /// An array parameter's values for each element of `shape`, as `T`, on the host (none
    /// for a number, which `per_element` passes as it is).
    fn host_values<T: crate::device::cpu::CpuElement>(&self, shape: &[usize]) -> Result<Vec<T>> {
        match self {
            Param::Number(_) => Ok(Vec::new()),
            Param::Array(a) => super::shape::broadcast_to(a, shape)?.to_vec::<T>(),
        }
    }

    /// An array parameter's values for each element of `shape`, as a contiguous gpu array of
    /// `dtype` (none for a number, which the kernels take as it is).
    fn gpu_values(&self, shape: &[usize], dtype: DType) -> Result<Option<Array>> {
        match self {
            Param::Number(_) => Ok(None),
            Param::Array(a) => Ok(Some(super::shape::broadcast_to(a, shape)?.astype(dtype)?)),
        }
    }
}

/// `a op b` elementwise: a host number when both are numbers, else an array (a plan).
fn combine(op: Op, a: &Param, b: &Param) -> Result<Param> {
    match (a, b) {
        (Param::Number(x), Param::Number(y)) => {
            ops::apply_scalars(row(op), &[*x, *y]).map(Param::Number)
        }
        _ => ops::apply(row(op), &[a.operand(), b.operand()]).map(Param::Array),
    }
}

/// Whether `a op b` holds for every element (`Reduction::All`) or for some (`Any`).
fn holds(op: Op, a: &Param, b: &Param, reduction: Reduction) -> Result<bool> {
    match combine(op, a, b)? {
        Param::Number(s) => Ok(s.cast::<bool>()),
        Param::Array(x) => Ok(super::reduce::reduce_all(reduction, &x)?.cast::<bool>()),
    }
}

/// Where draws come from and where the result is made.
pub struct Source<'a> {
    pub rng: &'a mut Rng,
    pub device: Device,
}

/// The result's shape: `size` when given (every array parameter must broadcast to it, as NumPy
/// requires), else the parameters' broadcast shape. Array parameters must be on `device`.
fn result_shape(device: Device, size: Option<&[usize]>, params: &[&Param]) -> Result<Vec<usize>> {
    let mut shape = Vec::new();
    for p in params {
        if let Param::Array(a) = p {
            on_device(a, device)?;
        }
        shape = broadcast_shapes(&shape, p.shape())?;
    }
    let Some(size) = size else {
        return Ok(shape);
    };
    if broadcast_shapes(&shape, size).ok().as_deref() != Some(size) {
        return Err(value_error(format!(
            "Output size {} is not compatible with broadcast dimensions of inputs {}.",
            shape_text(size),
            shape_text(&shape)
        )));
    }
    Ok(size.to_vec())
}

/// An error unless `a` is on `device`, where the numbers are made.
fn on_device(a: &Array, device: Device) -> Result<()> {
    if a.device() == device {
        return Ok(());
    }
    Err(device_error(format!(
        "an input is on {} but the numbers are made on {device}: move it with to(x, {device})",
        a.device()
    )))
}

fn float(x: f64) -> Scalar {
    Scalar::Float(x)
}

fn int(x: i64) -> Scalar {
    Scalar::Int(x)
}

// ---- floats ----

fn float_dtype(dtype: DType, function: &str) -> Result<()> {
    match dtype {
        DType::F64 | DType::F32 => Ok(()),
        _ => Err(type_error(format!(
            "Unsupported dtype {dtype} for {function}"
        ))),
    }
}

/// Uniform floats on [0, 1) of `dtype` (f64 or f32): NumPy's `random` (and `rand`).
pub fn random(src: &mut Source, shape: &[usize], dtype: DType) -> Result<Array> {
    float_dtype(dtype, "random")?;
    match (src.device, dtype) {
        (Device::Gpu, _) => gpu_uniform(shape, dtype, 0.0, 1.0),
        (Device::Cpu, DType::F32) => cpu_fill(shape, |x| src.rng.fill_uniform_f32(x)),
        (Device::Cpu, _) => cpu_fill(shape, |x| src.rng.fill_uniform_f64(x)),
    }
}

/// Standard normal floats of `dtype` (f64 or f32): NumPy's `standard_normal` (and `randn`).
pub fn standard_normal(src: &mut Source, shape: &[usize], dtype: DType) -> Result<Array> {
    float_dtype(dtype, "standard_normal")?;
    match (src.device, dtype) {
        (Device::Gpu, _) => gpu_normal(shape, dtype, 0.0, 1.0),
        (Device::Cpu, DType::F32) => cpu_fill(shape, |x| src.rng.fill_normal_f32(x)),
        (Device::Cpu, _) => cpu_fill(shape, |x| src.rng.fill_normal_f64(x)),
    }
}

/// NumPy's `normal(loc, scale, size)`: f64, `loc + scale * z`.
pub fn normal(
    src: &mut Source,
    size: Option<&[usize]>,
    loc: &Param,
    scale: &Param,
) -> Result<Array> {
    let shape = result_shape(src.device, size, &[loc, scale])?;
    if scale.any_negative()? {
        return Err(value_error("scale < 0"));
    }
    if let (Some(loc), Some(scale)) = (loc.number(), scale.number()) {
        let (loc, scale) = (loc.as_f64(), scale.as_f64());
        return match src.device {
            Device::Gpu => gpu_normal(&shape, DType::F64, loc, scale),
            Device::Cpu => cpu_fill(&shape, |x| src.rng.fill_normal(x, loc, scale)),
        };
    }
    let z = standard_normal(src, &shape, DType::F64)?;
    let scaled = ops::apply(row(Op::Multiply), &[scale.operand(), Operand::Array(&z)])?;
    ops::apply(row(Op::Add), &[loc.operand(), Operand::Array(&scaled)])
}

/// NumPy's `uniform(low, high, size)`: f64 on [low, high), `low + (high - low) * u`.
pub fn uniform(
    src: &mut Source,
    size: Option<&[usize]>,
    low: &Param,
    high: &Param,
) -> Result<Array> {
    let shape = result_shape(src.device, size, &[low, high])?;
    let span = combine(Op::Subtract, high, low)?;
    if span.any(Op::Less, float(0.0))? {
        return Err(value_error("high - low < 0"));
    }
    if !span.all(Op::Less, float(f64::INFINITY))? {
        return Err(crate::error::Error::new(
            crate::error::ErrorKind::Overflow,
            "high - low range exceeds valid bounds",
        ));
    }
    if let (Some(low), Some(span)) = (low.number(), span.number()) {
        let (low, span) = (low.as_f64(), span.as_f64());
        return match src.device {
            Device::Gpu => gpu_uniform(&shape, DType::F64, low, span),
            Device::Cpu => cpu_fill(&shape, |x| src.rng.fill_uniform(x, low, span)),
        };
    }
    let u = random(src, &shape, DType::F64)?;
    let scaled = ops::apply(row(Op::Multiply), &[span.operand(), Operand::Array(&u)])?;
    ops::apply(row(Op::Add), &[low.operand(), Operand::Array(&scaled)])
}

/// NumPy's `exponential(scale, size)`: f64 of mean `scale`.
pub fn exponential(src: &mut Source, size: Option<&[usize]>, scale: &Param) -> Result<Array> {
    let shape = result_shape(src.device, size, &[scale])?;
    if scale.any_negative()? {
        return Err(value_error("scale < 0"));
    }
    let one = |src: &mut Source, shape: &[usize], scale: f64| match src.device {
        Device::Gpu => gpu_exponential(shape, scale),
        Device::Cpu => cpu_fill(shape, |x| src.rng.fill_exponential(x, scale)),
    };
    match scale.number() {
        Some(s) => one(src, &shape, s.as_f64()),
        None => {
            let e = one(src, &shape, 1.0)?;
            ops::apply(row(Op::Multiply), &[scale.operand(), Operand::Array(&e)])
        }
    }
}

fn row(op: Op) -> &'static crate::plan::table::ElementwiseOp {
    crate::plan::table::row(op)
}

// ---- counts ----

/// NumPy's largest Poisson mean: INT64_MAX - 10·sqrt(INT64_MAX).
const POISSON_LAM_MAX: f64 = 9.223372006484771e18;

/// NumPy's `poisson(lam, size)`: i64 counts.
pub fn poisson(src: &mut Source, size: Option<&[usize]>, lam: &Param) -> Result<Array> {
    let shape = result_shape(src.device, size, &[lam])?;
    if !lam.all(Op::GreaterEqual, float(0.0))? {
        return Err(lam.refused("lam < 0 or lam is NaN", "lam < 0 or lam contains NaNs"));
    }
    if lam.any(Op::Greater, float(POISSON_LAM_MAX))? {
        return Err(value_error("lam value too large"));
    }
    if src.device == Device::Gpu {
        let lams = lam.gpu_values(&shape, DType::F64)?;
        let (out, pointer) = gpu_empty(&shape, DType::I64)?;
        let (n, lam, lams) = (
            out.size() as i64,
            lam.number().map_or(0.0, Scalar::as_f64),
            optional_pointer(lams.as_ref())?,
        );
        let (key, call) = kernel_stream();
        launch(
            "poisson",
            &mut kernel_args![pointer, n, lam, lams, key, call],
            n,
        )?;
        return Ok(out);
    }
    let values = lam.host_values::<f64>(&shape)?;
    let lam = per_element(lam, &values, Scalar::as_f64);
    cpu_fill(&shape, |x| src.rng.fill_poisson(x, lam))
}

/// NumPy's `binomial(n, p, size)`: i64 counts of successes in `n` trials of probability `p`.
pub fn binomial(src: &mut Source, size: Option<&[usize]>, n: &Param, p: &Param) -> Result<Array> {
    let shape = result_shape(src.device, size, &[n, p])?;
    if n.any_negative()? {
        return Err(value_error("n < 0"));
    }
    if !(p.all(Op::GreaterEqual, float(0.0))? && p.all(Op::LessEqual, float(1.0))?) {
        return Err(p.refused(
            "p < 0, p > 1 or p is NaN",
            "p < 0, p > 1 or p contains NaNs",
        ));
    }
    if src.device == Device::Gpu {
        let trials_each = n.gpu_values(&shape, DType::I64)?;
        let p_each = p.gpu_values(&shape, DType::F64)?;
        let (out, pointer) = gpu_empty(&shape, DType::I64)?;
        let (count, trials, probability) = (
            out.size() as i64,
            n.number().map_or(0, |s| s.cast::<i64>()),
            p.number().map_or(0.0, Scalar::as_f64),
        );
        let (trials_each, p_each) = (
            optional_pointer(trials_each.as_ref())?,
            optional_pointer(p_each.as_ref())?,
        );
        let (key, call) = kernel_stream();
        launch(
            "binomial",
            &mut kernel_args![
                pointer,
                count,
                trials,
                trials_each,
                probability,
                p_each,
                key,
                call
            ],
            count,
        )?;
        return Ok(out);
    }
    let trials = n.host_values::<i64>(&shape)?;
    let probabilities = p.host_values::<f64>(&shape)?;
    let n = per_element(n, &trials, |s| s.cast::<i64>());
    let p = per_element(p, &probabilities, Scalar::as_f64);
    cpu_fill(&shape, |x| src.rng.fill_binomial(x, n, p))
}

/// A parameter as the cpu generator takes it: its number, or its values per element.
fn per_element<'a, T: Copy>(
    p: &Param,
    values: &'a [T],
    of: impl Fn(Scalar) -> T,
) -> PerElement<'a, T> {
    match p.number() {
        Some(s) => PerElement::All(of(s)),
        None => PerElement::Each(values),
    }
}

// ---- integers ----

/// NumPy's `integers(low, high, size, dtype, endpoint)`: integers of `dtype` on [low, high), or
/// [low, high] with `closed`, without modulo bias.
pub fn integers(
    src: &mut Source,
    size: Option<&[usize]>,
    low: &Param,
    high: &Param,
    closed: bool,
    dtype: DType,
) -> Result<Array> {
    if !(dtype.is_integer() || dtype == DType::Bool) {
        return Err(type_error(format!(
            "Unsupported dtype {dtype} for integers"
        )));
    }
    let shape = result_shape(src.device, size, &[low, high])?;
    // The highest value: high itself when closed, else high - 1.
    let top = match (closed, high) {
        (true, _) => match high {
            Param::Number(s) => Param::Number(*s),
            Param::Array(a) => Param::Array(a.astype(DType::I64)?),
        },
        (false, Param::Number(s)) => Param::Number(int(s.cast::<i64>().wrapping_sub(1))),
        (false, Param::Array(a)) => Param::Array(ops::with_scalar(
            Op::Subtract,
            &a.astype(DType::I64)?,
            int(1),
        )?),
    };
    let (least, greatest) = integer_range(dtype);
    if least > i64::MIN as i128 && low.any(Op::Less, int(least as i64))? {
        return Err(value_error(format!(
            "low is out of bounds for {}",
            dtype.numpy_name()
        )));
    }
    if greatest < i64::MAX as i128 && top.any(Op::Greater, int(greatest as i64))? {
        return Err(value_error(format!(
            "high is out of bounds for {}",
            dtype.numpy_name()
        )));
    }
    if !holds(Op::GreaterEqual, &top, low, Reduction::All)? {
        // As NumPy words it: a low of 0 is the one-argument form, integers(high).
        return Err(value_error(
            match (low.any(Op::NotEqual, int(0))?, closed) {
                (false, false) => "high <= 0",
                (false, true) => "high < 0",
                (true, false) => "low >= high",
                (true, true) => "low > high",
            },
        ));
    }
    let result = integers_between(src, &shape, low, &top)?;
    if dtype == DType::I64 {
        return Ok(result);
    }
    result.astype(dtype)
}

/// i64 integers on [low, top], both included (the caller has checked low <= top).
fn integers_between(src: &mut Source, shape: &[usize], low: &Param, top: &Param) -> Result<Array> {
    if src.device == Device::Gpu {
        let lows = low.gpu_values(shape, DType::I64)?;
        let tops = top.gpu_values(shape, DType::I64)?;
        return gpu_integers(
            shape,
            low.number().map_or(0, |s| s.cast::<i64>()),
            top.number().map_or(0, |s| s.cast::<i64>()),
            lows.as_ref(),
            tops.as_ref(),
        );
    }
    let lows = low.host_values::<i64>(shape)?;
    let tops = top.host_values::<i64>(shape)?;
    let low = per_element(low, &lows, |s| s.cast::<i64>());
    let top = per_element(top, &tops, |s| s.cast::<i64>());
    cpu_fill(shape, |x| src.rng.fill_integers(x, low, top))
}

// ---- choice, permutation, shuffle ----

/// What `choice` picks from: `0..n`, or the rows of an array (along its first axis).
pub enum Population {
    Count(i64),
    Rows(Array),
}

/// NumPy's `choice(a, size, replace, p)`: `size` picks (one, as a 0-d result, without a size)
/// with or without replacement, uniformly or with probabilities `p` (a 1-d array, one per row).
pub fn choice(
    src: &mut Source,
    population: &Population,
    size: Option<&[usize]>,
    replace: bool,
    p: Option<&Array>,
) -> Result<Array> {
    let shape = size.unwrap_or(&[]).to_vec();
    let picks = shape_size(&shape)?;
    if let Population::Rows(a) = population {
        on_device(a, src.device)?;
    }
    let rows = match population {
        Population::Count(n) => *n,
        Population::Rows(a) if a.ndim() == 0 => {
            return Err(value_error("a must be 1-dimensional or an integer"))
        }
        Population::Rows(a) => a.shape()[0] as i64,
    };
    if rows <= 0 && picks != 0 {
        return Err(value_error(match population {
            Population::Count(_) => "a must be a positive integer unless no samples are taken",
            Population::Rows(_) => "a cannot be empty unless no samples are taken",
        }));
    }
    let rows = rows.max(0) as usize;
    if let Some(p) = p {
        check_probabilities(src.device, p, rows)?;
    }
    if !replace && picks > rows {
        return Err(value_error(
            "Cannot take a larger sample than population when replace is False",
        ));
    }
    let index = match (replace, p) {
        (true, None) => integers_between(
            src,
            &shape,
            &Param::Number(int(0)),
            &Param::Number(int(rows as i64 - 1)),
        )?,
        (true, Some(p)) => {
            // NumPy's inversion: the running sum of p (scaled to end at 1) searched for uniforms.
            let cdf = super::reduce::scan(&p.astype(DType::F64)?, None, false)?;
            let last = cdf.with_layout(cdf.layout().index(&[AxisIndex::At(-1)])?);
            let cdf = ops::binary(Op::Divide, &cdf, &last)?;
            let u = random(src, &shape, DType::F64)?;
            super::sort::searchsorted(&cdf, &u, true)?
        }
        (false, None) => first(&permutation_indices(src, rows)?, &shape)?,
        (false, Some(p)) => {
            let nonzero = ops::with_scalar(Op::Greater, p, float(0.0))?;
            let count = super::reduce::reduce_all(Reduction::Sum, &nonzero)?.cast::<i64>();
            if (count as usize) < picks {
                return Err(value_error("Fewer non-zero entries in p than size"));
            }
            // Efraimidis and Spirakis: the smallest keys E/p (E exponential) are a sample
            // drawn one by one in proportion to p, without replacement.
            let e = exponential(src, Some(&[rows]), &Param::Number(float(1.0)))?;
            let keys = ops::binary(Op::Divide, &e, p)?;
            first(&super::sort::argsort(&keys, Some(0), false)?, &shape)?
        }
    };
    match population {
        Population::Count(_) => Ok(index),
        Population::Rows(a) => super::index::take(a, &index, Some(0)),
    }
}

/// NumPy's checks of `choice`'s probabilities: one per row, non-negative, summing to 1.
fn check_probabilities(device: Device, p: &Array, rows: usize) -> Result<()> {
    on_device(p, device)?;
    if p.ndim() != 1 {
        return Err(value_error("p must be 1-dimensional"));
    }
    if p.size() != rows {
        return Err(value_error("a and p must have same size"));
    }
    if p.dtype().is_complex() {
        return Err(type_error("p must be real numbers"));
    }
    // NumPy's tolerance: the square root of the probabilities' own epsilon (f64's for integers).
    let tolerance = match p.dtype() {
        DType::F16 => 2f64.powi(-10).sqrt(),
        DType::F32 => f64::from(f32::EPSILON).sqrt(),
        _ => f64::EPSILON.sqrt(),
    };
    let p = p.astype(DType::F64)?;
    let values = Param::Array(p.clone());
    // Only NaN fails `x >= -inf`.
    if !values.all(Op::GreaterEqual, float(f64::NEG_INFINITY))? {
        return Err(value_error("Probabilities contain NaN"));
    }
    if values.any(Op::Less, float(0.0))? {
        return Err(value_error("Probabilities are not non-negative"));
    }
    let total = super::reduce::reduce_all(Reduction::Sum, &p)?.as_f64();
    if (total - 1.0).abs() > tolerance {
        return Err(value_error(
            "Probabilities do not sum to 1. See Notes section of docstring for more information.",
        ));
    }
    Ok(())
}

/// The first elements of a 1-d array, as many as `shape` holds, in that shape.
fn first(order: &Array, shape: &[usize]) -> Result<Array> {
    let picks = shape_size(shape)?;
    let head = order.with_layout(order.layout().index(&[AxisIndex::Range {
        start: None,
        stop: Some(picks as i64),
        step: None,
    }])?);
    let dims: Vec<i64> = shape.iter().map(|&d| d as i64).collect();
    super::shape::reshape(&head, &dims)
}

/// A random order of `0..n` (i64): Fisher–Yates on the cpu; on the gpu, an argsort of random
/// 64-bit keys (the radix sort is stable, and equal keys are improbable: about n²/2⁶⁵).
fn permutation_indices(src: &mut Source, n: usize) -> Result<Array> {
    match src.device {
        Device::Cpu => Ok(Array::from_vec(src.rng.permutation(n), vec![n])),
        Device::Gpu => {
            let keys = gpu_integers(&[n], i64::MIN, i64::MAX, None, None)?;
            super::sort::argsort(&keys, Some(0), false)
        }
    }
}

/// NumPy's `permutation(n)`: `0..n` in a random order (empty for n <= 0).
pub fn permutation_of(src: &mut Source, n: i64) -> Result<Array> {
    let n = n.max(0) as usize;
    crate::device::check_allocation(src.device, n, DType::I64)?;
    permutation_indices(src, n)
}

/// NumPy's `permutation(x)`: a copy of `x` with its rows (first axis) in a random order.
pub fn permutation(src: &mut Source, x: &Array) -> Result<Array> {
    on_device(x, src.device)?;
    super::reduce::normalize_axis(0, x.ndim())?;
    let order = permutation_indices(src, x.shape()[0])?;
    super::index::take(x, &order, Some(0))
}

/// NumPy's `shuffle(x)`: `x`'s rows put in a random order, in place.
pub fn shuffle(src: &mut Source, x: &Array) -> Result<()> {
    let shuffled = permutation(src, x)?;
    ops::assign(x, Operand::Array(&shuffled))
}

// ---- the devices ----

/// A new cpu array of `shape` whose every element `fill` writes.
fn cpu_fill<T: crate::device::cpu::CpuElement>(
    shape: &[usize],
    fill: impl FnOnce(&mut [T]),
) -> Result<Array> {
    let buffer = Buffer::alloc(Device::Cpu, shape_size(shape)?, T::DTYPE)?;
    fill(&mut super::cpu_data::<T>(buffer.cpu().expect("made on the cpu")).borrow_mut());
    Ok(Array::from_buffer(buffer, shape))
}

/// A new, uninitialised gpu array and the address of its first element.
fn gpu_empty(shape: &[usize], dtype: DType) -> Result<(Array, u64)> {
    let buffer = Buffer::alloc(Device::Gpu, shape_size(shape)?, dtype)?;
    let pointer = buffer.gpu().expect("allocated on the gpu").device_pointer();
    Ok((Array::from_buffer(buffer, shape), pointer))
}

/// Launches kernel `name` of `kernels/random.cu` over `n` elements (none when there are none).
fn launch(name: &str, args: &mut [*mut std::ffi::c_void], n: i64) -> Result<()> {
    if n == 0 {
        return Ok(());
    }
    crate::device::gpu::gpu()?.launch_over("random", name, n as usize, args)
}

/// The device address of a contiguous gpu array's first element, or 0 (a kernel's "none").
fn optional_pointer(a: Option<&Array>) -> Result<u64> {
    let Some(a) = a else { return Ok(0) };
    let buffer = a.buffer()?;
    let gpu = buffer.gpu().expect("a gpu array");
    Ok(gpu.element_pointer(a.layout().offset))
}

/// Uniform floats of `dtype` (f64 or f32) on [low, low + span) from the `uniform_*` kernels.
fn gpu_uniform(shape: &[usize], dtype: DType, low: f64, span: f64) -> Result<Array> {
    let (out, pointer) = gpu_empty(shape, dtype)?;
    let (key, call) = kernel_stream();
    let n = out.size() as i64;
    match dtype {
        DType::F32 => {
            let (low, span) = (low as f32, span as f32);
            let args = &mut kernel_args![pointer, n, low, span, key, call];
            launch("uniform_f32", args, n)?
        }
        _ => launch(
            "uniform_f64",
            &mut kernel_args![pointer, n, low, span, key, call],
            n,
        )?,
    }
    Ok(out)
}

/// Exponential f64 of mean `scale` from the `exponential` kernel.
fn gpu_exponential(shape: &[usize], scale: f64) -> Result<Array> {
    let (out, pointer) = gpu_empty(shape, DType::F64)?;
    let (key, call) = kernel_stream();
    let n = out.size() as i64;
    launch(
        "exponential",
        &mut kernel_args![pointer, n, scale, key, call],
        n,
    )?;
    Ok(out)
}

/// Normal floats of `dtype` from cuRAND, whose generators fill an even count: an odd size gets
/// one spare element.
fn gpu_normal(shape: &[usize], dtype: DType, loc: f64, scale: f64) -> Result<Array> {
    let size = shape_size(shape)?;
    crate::device::check_allocation(Device::Gpu, size, dtype)?;
    let g = crate::device::gpu::gpu()?;
    let buffer = g.alloc(size + size % 2, dtype)?;
    g.fill_normal(&buffer, loc, scale)?;
    Ok(Array::new(
        Storage::Ready(Buffer::Gpu(buffer)),
        Layout::contiguous(shape),
    ))
}

/// i64 integers on [low, top] (or [lows[i], tops[i]] where those are given) from the
/// `integers` kernel.
fn gpu_integers(
    shape: &[usize],
    low: i64,
    top: i64,
    lows: Option<&Array>,
    tops: Option<&Array>,
) -> Result<Array> {
    let (out, pointer) = gpu_empty(shape, DType::I64)?;
    let (lows, tops) = (optional_pointer(lows)?, optional_pointer(tops)?);
    let (key, call) = kernel_stream();
    let n = out.size() as i64;
    launch(
        "integers",
        &mut kernel_args![pointer, n, low, top, lows, tops, key, call],
        n,
    )?;
    Ok(out)
}
