//! Reductions over a plan's values: `sum(x * y)` evaluates `x * y` chunk by chunk inside the
//! reduction (one pass, no temporary), and `sum(t)` of a materialized array is the same code
//! over one leaf — so fused and unfused sums are the same sum. Float sums follow NumPy's
//! pairwise summation exactly (the first element, plus halves split at multiples of 8 down to
//! blocks of 128 summed by 8 accumulators); integer sums wrap.

use rayon::prelude::*;

use super::cpu::{self, Program};
use super::cpu_math::Math;
use super::expr::Expr;
use super::table::Op;
use crate::base::element::{c128, c64, cast, CastFrom, Element};
use crate::base::interrupt::Stop;
use crate::base::layout::Layout;
use crate::base::{DType, Scalar};
use crate::device::cpu::threads;
use crate::device::{Buffer, Device};
use crate::error::{value_error, Error, ErrorKind, Result};
use crate::with_dtype;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Reduction {
    Sum,
    Prod,
    Min,
    Max,
    ArgMin,
    ArgMax,
    Any,
    All,
}

impl Reduction {
    pub fn name(self) -> &'static str {
        match self {
            Reduction::Sum => "sum",
            Reduction::Prod => "prod",
            Reduction::Min => "min",
            Reduction::Max => "max",
            Reduction::ArgMin => "argmin",
            Reduction::ArgMax => "argmax",
            Reduction::Any => "any",
            Reduction::All => "all",
        }
    }

    /// NumPy's result dtype for an input of `dtype`.
    pub fn result_dtype(self, dtype: DType) -> DType {
        match self {
            Reduction::Sum | Reduction::Prod => match dtype {
                DType::Bool | DType::I8 | DType::I16 | DType::I32 | DType::I64 => DType::I64,
                DType::U8 | DType::U16 | DType::U32 | DType::U64 => DType::U64,
                d => d,
            },
            Reduction::Min | Reduction::Max => dtype,
            Reduction::ArgMin | Reduction::ArgMax => DType::I64,
            Reduction::Any | Reduction::All => DType::Bool,
        }
    }

    /// The dtype the values are reduced in: sums and products in their result dtype (float16
    /// adds in float32, as NumPy's does), extremes in the input's own, any/all as bools.
    pub fn accumulator(self, dtype: DType) -> DType {
        match self {
            Reduction::Sum | Reduction::Prod => match self.result_dtype(dtype) {
                DType::F16 => DType::F32,
                d => d,
            },
            Reduction::Min | Reduction::Max | Reduction::ArgMin | Reduction::ArgMax => dtype,
            Reduction::Any | Reduction::All => DType::Bool,
        }
    }

    /// What an empty input reduces to, for reductions that have an answer there.
    fn identity(self) -> Scalar {
        match self {
            Reduction::Prod => Scalar::Int(1),
            Reduction::All => Scalar::Bool(true),
            Reduction::Any => Scalar::Bool(false),
            _ => Scalar::Int(0),
        }
    }

    /// True when an empty input has no answer (`max([])`).
    pub fn needs_elements(self) -> bool {
        matches!(
            self,
            Reduction::Min | Reduction::Max | Reduction::ArgMin | Reduction::ArgMax
        )
    }
}

/// Elements of a sum are summed in one leaf of the pairwise tree up to this many.
const LEAF: usize = 8192;
/// Ranges at least this long have their halves summed on separate cores.
const PARALLEL_FROM: usize = 1 << 16;

/// Reduces all values of `expr` (over `shape`) to a 0-d buffer of `out` on `device`; with
/// `divide_by`, the result is the accumulated value divided by it (`mean`).
pub fn reduce_all(
    r: Reduction,
    expr: &Expr,
    shape: &[usize],
    device: Device,
    divide_by: Option<f64>,
    out: DType,
) -> Result<Buffer> {
    let size: usize = shape.iter().product();
    if size == 0 && r.needs_elements() {
        return Err(empty_error(r));
    }
    super::explain::record_reduction(device, shape, expr, r);
    let nodes = Expr::topological(&[expr]);
    let mut positions = super::expr::positions(&nodes);
    if !positions.contains(&super::current_position()) {
        positions.push(super::current_position());
        positions.sort_unstable();
    }
    super::record_pass(device, super::expr::operation_count(&nodes) + 1, positions);
    match device {
        Device::Gpu if size == 0 => {
            let value = empty_value(r, expr.dtype(), divide_by);
            let g = crate::device::gpu::gpu()?;
            let buffer = with_dtype!(out, T => g.upload(&[value.cast::<T>()], out))?;
            Ok(Buffer::Gpu(buffer))
        }
        Device::Gpu => super::cuda::reduce_all(r, expr, shape, divide_by, out),
        Device::Cpu => {
            let value = reduce_all_cpu(r, expr, shape)?;
            let value = finish(r, value, expr.dtype(), divide_by);
            let buffer = Buffer::alloc(Device::Cpu, 1, out)?;
            store_scalar(&buffer, value);
            Ok(buffer)
        }
    }
}

/// What a reduction of no elements of `input` gives (`sum` 0, `prod` 1, `mean` NaN), for the
/// reductions that have an identity.
pub fn empty_value(r: Reduction, input: DType, divide_by: Option<f64>) -> Scalar {
    finish(r, r.identity(), input, divide_by)
}

pub fn empty_error(r: Reduction) -> crate::error::Error {
    match r {
        Reduction::ArgMin | Reduction::ArgMax => {
            value_error(format!("attempt to get {} of an empty sequence", r.name()))
        }
        _ => value_error(format!(
            "zero-size array to reduction operation {} which has no identity",
            if r == Reduction::Max {
                "maximum"
            } else {
                "minimum"
            }
        )),
    }
}

/// The dtype of a reduction's result after an optional division (`mean` of ints is float64).
pub fn finished_dtype(r: Reduction, input: DType, divide_by: Option<f64>) -> DType {
    let d = r.result_dtype(input);
    match divide_by {
        Some(_) if !d.is_inexact() => DType::F64,
        _ => d,
    }
}

/// The accumulated value divided by `divide_by` in the accumulator's dtype, as NumPy's mean
/// does (`true_divide(sum, count)`), then converted to the result dtype.
fn finish(r: Reduction, value: Scalar, input: DType, divide_by: Option<f64>) -> Scalar {
    let Some(n) = divide_by else { return value };
    match r.accumulator(input) {
        DType::F32 => Scalar::Float((value.as_f64() as f32 / n as f32) as f64),
        DType::C64 => {
            let z: c64 = value.cast();
            let q = z / n as f32;
            Scalar::Complex(q.re as f64, q.im as f64)
        }
        DType::C128 => {
            let z: c128 = value.cast();
            Scalar::Complex(z.re / n, z.im / n)
        }
        _ => Scalar::Float(value.as_f64() / n),
    }
}

fn store_scalar(out: &Buffer, value: Scalar) {
    let cpu = out.cpu().expect("a cpu buffer");
    with_dtype!(out.dtype(), T => {
        // SAFETY: the buffer holds one element of T.
        unsafe { (cpu.raw_pointer() as *mut T).write(value.cast::<T>()) }
    })
}

fn reduce_all_cpu(r: Reduction, expr: &Expr, shape: &[usize]) -> Result<Scalar> {
    let converted = expr.clone().cast(r.accumulator(expr.dtype()));
    reduce_program(r, &Program::new(shape, &[&converted], &[]))
}

/// Reduces the values of a program's last node, already of the reduced dtype.
fn reduce_program(r: Reduction, program: &Program) -> Result<Scalar> {
    let value = reduce_values(r, program)?;
    // The passes see no more values after an interrupt: the value is unfinished.
    if Stop::current().requested() {
        return Err(Error::new(ErrorKind::Interrupted, "interrupted"));
    }
    Ok(value)
}

fn reduce_values(r: Reduction, program: &Program) -> Result<Scalar> {
    Ok(match r {
        Reduction::Sum => match program.value_dtype() {
            DType::F32 => Scalar::Float(float_sum::<f32>(program) as f64),
            DType::F64 => Scalar::Float(float_sum::<f64>(program)),
            DType::C64 => complex_scalar(complex_sum::<f32>(program)),
            DType::C128 => complex_scalar(complex_sum::<f64>(program)),
            DType::U64 => integer_fold::<u64>(program, u64::wrapping_add),
            _ => integer_fold::<i64>(program, i64::wrapping_add),
        },
        Reduction::Prod => with_dtype!(program.value_dtype(), A => product::<A>(program)),
        Reduction::Min | Reduction::Max => {
            with_dtype!(program.value_dtype(), T => extreme::<T>(program, r))
        }
        Reduction::ArgMin | Reduction::ArgMax => {
            with_dtype!(program.value_dtype(), T => Scalar::Int(arg_extreme::<T>(program, r) as i64))
        }
        Reduction::Any | Reduction::All => {
            let all = r == Reduction::All;
            let found = partials(program, |values: &[bool]| {
                if all {
                    values.iter().all(|&v| v)
                } else {
                    values.iter().any(|&v| v)
                }
            });
            Scalar::Bool(if all {
                found.into_iter().all(|b| b)
            } else {
                found.into_iter().any(|b| b)
            })
        }
    })
}

fn complex_scalar<F: Into<f64>>(z: num_complex::Complex<F>) -> Scalar {
    Scalar::Complex(z.re.into(), z.im.into())
}

/// Calls `f` on the values of `[start, end)` as one contiguous slice of T.
fn with_values<T: Element, R>(
    program: &Program,
    start: usize,
    end: usize,
    f: impl FnOnce(&[T]) -> R,
) -> R {
    if let Some(pointer) = program.values_in_place(start) {
        // SAFETY: the values are a contiguous run of a live buffer of T (`sum(x)` of an array
        // of the accumulator's dtype reads it where it is).
        return f(unsafe { std::slice::from_raw_parts(pointer as *const T, end - start) });
    }
    let mut values: Vec<T> = Vec::with_capacity(end - start);
    cpu::run_watching(program, start, end, |pointer, n| {
        // SAFETY: the watched node is of dtype T and holds n values.
        let chunk = unsafe { std::slice::from_raw_parts(pointer as *const T, n) };
        values.extend_from_slice(chunk);
    });
    f(&values)
}

/// One partial result per task, in order.
fn partials<T: Element, R: Send>(program: &Program, f: impl Fn(&[T]) -> R + Sync) -> Vec<R> {
    let size = program.len();
    let tasks = size.div_ceil(LEAF).max(1);
    // After an interrupt the remaining tasks see one value each (never none: min and max need
    // one), and the caller reports the interrupt instead of the result.
    let stop = Stop::current();
    let run = |t: usize| {
        let start = t * LEAF;
        let end = (start + if stop.requested() { 1 } else { LEAF }).min(size);
        with_values(program, start, end, |v: &[T]| f(v))
    };
    if size >= PARALLEL_FROM {
        threads::install(|| (0..tasks).into_par_iter().map(run).collect())
    } else {
        (0..tasks).map(run).collect()
    }
}

fn integer_fold<A: Element + Default + Send>(program: &Program, add: fn(A, A) -> A) -> Scalar {
    let chunk_sums = partials(program, |values: &[A]| {
        values.iter().fold(A::default(), |acc, &v| add(acc, v))
    });
    chunk_sums.into_iter().fold(A::default(), add).to_scalar()
}

fn product<A: Math + CastFrom<bool> + Send>(program: &Program) -> Scalar {
    let one: A = cast(true);
    let partial = partials(program, |values: &[A]| {
        values
            .iter()
            .fold(one, |acc, &v| A::binary(Op::Multiply, acc, v))
    });
    partial
        .into_iter()
        .fold(one, |acc, p| A::binary(Op::Multiply, acc, p))
        .to_scalar()
}

fn extreme<T: Math>(program: &Program, r: Reduction) -> Scalar {
    let op = if r == Reduction::Max {
        Op::Maximum
    } else {
        Op::Minimum
    };
    let partial = partials(program, |values: &[T]| {
        values[1..]
            .iter()
            .fold(values[0], |acc, &v| T::binary(op, acc, v))
    });
    let first = partial[0];
    partial[1..]
        .iter()
        .fold(first, |acc, &p| T::binary(op, acc, p))
        .to_scalar()
}

/// The first position of the extreme value; a NaN is the extreme, as in NumPy.
fn arg_extreme<T: Math>(program: &Program, r: Reduction) -> usize {
    let better = |candidate: T, best: T| -> bool {
        if is_nan(best) {
            return false;
        }
        if is_nan(candidate) {
            return true;
        }
        if r == Reduction::ArgMax {
            T::compare(Op::Greater, candidate, best)
        } else {
            T::compare(Op::Less, candidate, best)
        }
    };
    let partial = partials(program, |values: &[T]| {
        let mut best = 0;
        for (i, &v) in values.iter().enumerate().skip(1) {
            if better(v, values[best]) {
                best = i;
            }
        }
        (best, values[best])
    });
    let mut best = (partial[0].0, partial[0].1);
    for (k, &(i, v)) in partial.iter().enumerate().skip(1) {
        if better(v, best.1) {
            best = (k * LEAF + i, v);
        }
    }
    best.0
}

fn is_nan<T: Math>(x: T) -> bool {
    T::predicate(Op::Isnan, x)
}

/// Floats NumPy sums pairwise.
pub trait PairwiseFloat: Element + num_traits::Float + std::ops::AddAssign + Send + Sync {}
impl PairwiseFloat for f32 {}
impl PairwiseFloat for f64 {}

fn float_sum<F: PairwiseFloat>(program: &Program) -> F {
    let size = program.len();
    if size == 0 {
        return F::zero();
    }
    let first = with_values(program, 0, 1, |v: &[F]| v[0]);
    first
        + pairwise_range(
            size - 1,
            1,
            &|start, len| with_values(program, start, start + len, pairwise_sum::<F>),
            &Stop::current(),
        )
}

/// NumPy's pairwise tree over `len` values starting at `start`: below `LEAF` the values are
/// read and summed by `leaf`, which splits them the same way.
fn pairwise_range<S: Copy + Send + std::ops::Add<Output = S>>(
    len: usize,
    start: usize,
    leaf: &(dyn Fn(usize, usize) -> S + Sync),
    stop: &Stop,
) -> S {
    if len <= LEAF {
        return leaf(start, if stop.requested() { 0 } else { len });
    }
    let mut half = len / 2;
    half -= half % 8;
    if len >= PARALLEL_FROM {
        let (l, r) = threads::install(|| {
            rayon::join(
                || pairwise_range(half, start, leaf, stop),
                || pairwise_range(len - half, start + half, leaf, stop),
            )
        });
        l + r
    } else {
        pairwise_range(half, start, leaf, stop)
            + pairwise_range(len - half, start + half, leaf, stop)
    }
}

/// NumPy's `pairwise_sum` of a contiguous run.
pub fn pairwise_sum<F: PairwiseFloat>(a: &[F]) -> F {
    const BLOCK: usize = 128;
    let n = a.len();
    if n < 8 {
        let mut res = F::zero();
        for &x in a {
            res += x;
        }
        res
    } else if n <= BLOCK {
        let mut r = [F::zero(); 8];
        r.copy_from_slice(&a[..8]);
        let whole = n - n % 8;
        for chunk in a[8..whole].chunks_exact(8) {
            for j in 0..8 {
                r[j] += chunk[j];
            }
        }
        let mut res = ((r[0] + r[1]) + (r[2] + r[3])) + ((r[4] + r[5]) + (r[6] + r[7]));
        for &x in &a[whole..] {
            res += x;
        }
        res
    } else {
        let mut half = n / 2;
        half -= half % 8;
        let (left, right) = a.split_at(half);
        pairwise_sum(left) + pairwise_sum(right)
    }
}

fn complex_sum<F: PairwiseFloat>(program: &Program) -> num_complex::Complex<F>
where
    num_complex::Complex<F>: Element,
{
    type C<F> = num_complex::Complex<F>;
    let size = program.len();
    let read = |start: usize, end: usize| -> Vec<C<F>> {
        with_values(program, start, end, |v: &[C<F>]| v.to_vec())
    };
    if size == 0 {
        return C::new(F::zero(), F::zero());
    }
    let first = read(0, 1)[0];
    // NumPy counts a complex run in floats: the tree over n values is its tree over 2n floats.
    let leaf = |start: usize, len: usize| {
        let floats: Vec<F> = read(start, start + len)
            .iter()
            .flat_map(|z| [z.re, z.im])
            .collect();
        let (re, im) = pairwise_complex(&floats);
        Pair(re, im)
    };
    let rest = pairwise_range(size - 1, 1, &leaf, &Stop::current());
    C::new(first.re + rest.0, first.im + rest.1)
}

#[derive(Clone, Copy)]
struct Pair<F>(F, F);

impl<F: std::ops::Add<Output = F>> std::ops::Add for Pair<F> {
    type Output = Pair<F>;
    fn add(self, o: Pair<F>) -> Pair<F> {
        Pair(self.0 + o.0, self.1 + o.1)
    }
}

/// NumPy's complex `pairwise_sum` over interleaved (re, im) floats.
fn pairwise_complex<F: PairwiseFloat>(a: &[F]) -> (F, F) {
    const BLOCK: usize = 128;
    let n = a.len();
    if n < 8 {
        let (mut re, mut im) = (F::zero(), F::zero());
        for pair in a.chunks_exact(2) {
            re += pair[0];
            im += pair[1];
        }
        (re, im)
    } else if n <= BLOCK {
        let mut r = [F::zero(); 8];
        r.copy_from_slice(&a[..8]);
        let whole = n - n % 8;
        for chunk in a[8..whole].chunks_exact(8) {
            for j in 0..8 {
                r[j] += chunk[j];
            }
        }
        let mut re = (r[0] + r[2]) + (r[4] + r[6]);
        let mut im = (r[1] + r[3]) + (r[5] + r[7]);
        for pair in a[whole..].chunks_exact(2) {
            re += pair[0];
            im += pair[1];
        }
        (re, im)
    } else {
        let mut half = n / 2;
        half -= half % 8;
        let (left, right) = a.split_at(half);
        let (l, r) = (pairwise_complex(left), pairwise_complex(right));
        (l.0 + r.0, l.1 + r.1)
    }
}

/// A reduction along one axis of a materialized array: one result per lane, on the cpu.
pub fn reduce_axis_cpu(
    r: Reduction,
    buffer: &Buffer,
    layout: &Layout,
    axis: usize,
    divide_by: Option<f64>,
) -> Result<Buffer> {
    let mut out_shape = layout.shape.clone();
    let lane_len = out_shape.remove(axis);
    if lane_len == 0 && r.needs_elements() {
        return Err(empty_error(r));
    }
    let mut lane_layout = layout.clone();
    lane_layout.shape.remove(axis);
    let axis_stride = lane_layout.strides.remove(axis);
    let count: usize = out_shape.iter().product();
    let input = buffer.dtype();
    let out_dtype = finished_dtype(r, input, divide_by);
    let out = Buffer::alloc(Device::Cpu, count, out_dtype)?;
    let pointer = buffer.cpu().expect("a cpu buffer").raw_pointer() as usize;
    let reduced = r.accumulator(input);
    let values: Vec<Scalar> = threads::install(|| {
        (0..count)
            .into_par_iter()
            .map(|k| {
                let lane = Layout {
                    shape: smallvec::smallvec![lane_len],
                    strides: smallvec::smallvec![axis_stride],
                    offset: lane_start(&lane_layout, k),
                };
                let program = Program::single_leaf(pointer, lane, input, reduced);
                Ok(finish(r, reduce_program(r, &program)?, input, divide_by))
            })
            .collect::<Result<_>>()
    })?;
    let cpu = out.cpu().expect("cpu");
    with_dtype!(out_dtype, T => {
        // SAFETY: the buffer holds `count` elements of T.
        let slice = unsafe { std::slice::from_raw_parts_mut(cpu.raw_pointer() as *mut T, count) };
        for (o, v) in slice.iter_mut().zip(values) {
            *o = v.cast();
        }
    });
    Ok(out)
}

/// The buffer offset of lane `k` (in C order over the lanes' shape).
fn lane_start(layout: &Layout, k: usize) -> usize {
    let mut rest = k;
    let mut offset = layout.offset as isize;
    for d in (0..layout.shape.len()).rev() {
        let n = layout.shape[d];
        offset += (rest % n) as isize * layout.strides[d];
        rest /= n;
    }
    offset as usize
}
