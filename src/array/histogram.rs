//! Histograms and bins (NumPy's `bincount`, `histogram`, `histogram_bin_edges`, `digitize`):
//! equal bins counted in one pass (a kernel of their own on the gpu), other bins through a binary
//! search and `bincount`.

use super::ops::{binary, choose, unary, with_scalar};
use super::reduce::{self, reduce_axes, Statistic};
use super::shape::ravel;
use super::statistics::{at_last, diff, float_of, full_like};
use super::{sort, Array};
use crate::base::layout::AxisIndex;
use crate::base::{DType, Scalar};
use crate::device::cpu::threads;
use crate::device::Device;
use crate::error::{value_error, Result};
use crate::plan::reduce::Reduction;
use crate::plan::table::Op;

/// NumPy's `bincount`: how often each non-negative integer occurs (or the sum of its
/// `weights`), `minlength` bins at least. The largest value is read to size the result (on the
/// gpu, one counted device→host copy, as CuPy reads it).
pub fn bincount(x: &Array, weights: Option<&Array>, minlength: usize) -> Result<Array> {
    if x.ndim() != 1 {
        return Err(value_error(
            "object too deep for desired array: bincount needs a 1-d array",
        ));
    }
    if !x.dtype().is_integer() && x.dtype() != DType::Bool {
        return Err(crate::error::type_error(format!(
            "Cannot cast array data from dtype('{}') to dtype('int64') according to the rule 'safe'",
            x.dtype().numpy_name()
        )));
    }
    let x = x.astype(DType::I64)?;
    let length = if x.size() == 0 {
        minlength
    } else {
        if x.device() == crate::device::Device::Cpu
            && reduce::reduce_all(Reduction::Min, &x)?.cast::<i64>() < 0
        {
            return Err(value_error(
                "'list' argument must have no negative elements",
            ));
        }
        let top = reduce::reduce_all(Reduction::Max, &x)?.cast::<i64>();
        ((top + 1).max(0) as usize).max(minlength)
    };
    if let Some(w) = weights {
        if w.shape() != x.shape() {
            return Err(value_error(
                "The weights and list don't have the same length.",
            ));
        }
    }
    let weights = weights.map(|w| w.astype(DType::F64)).transpose()?;
    crate::device::check_allocation(x.device(), length, DType::F64)?;
    match x.device() {
        crate::device::Device::Gpu => super::gpu_sort::bincount(&x, weights.as_ref(), length),
        crate::device::Device::Cpu => {
            let values = x.to_vec::<i64>()?;
            match weights {
                None => {
                    let mut counts = vec![0i64; length];
                    values.iter().for_each(|&v| counts[v as usize] += 1);
                    Ok(Array::from_vec(counts, vec![length]))
                }
                Some(w) => {
                    let mut sums = vec![0f64; length];
                    for (&v, w) in values.iter().zip(w.to_vec::<f64>()?) {
                        sums[v as usize] += w;
                    }
                    Ok(Array::from_vec(sums, vec![length]))
                }
            }
        }
    }
}

/// The bins of a histogram: `count` equal ones over `range` (the data's extremes when `None`;
/// on the gpu, read to the host as CuPy reads them), or given edges.
pub enum Bins {
    Count(usize, Option<(f64, f64)>),
    Edges(Array),
}

/// NumPy's bin edges for `bins` over `a`.
pub fn bin_edges(a: &Array, bins: &Bins) -> Result<Array> {
    match bins {
        Bins::Edges(edges) => {
            if edges.size() >= 2 {
                let steps = diff(edges, 1, -1, None, None)?;
                let falls = with_scalar(Op::Less, &steps, Scalar::Float(0.0))?;
                if reduce::reduce_all(Reduction::Any, &falls)?.as_f64() != 0.0 {
                    return Err(value_error(
                        "`bins` must increase monotonically, when an array",
                    ));
                }
            }
            Ok(edges.clone())
        }
        Bins::Count(count, range) => equal_edges(a, *count, *range)?.to_device(a.device()),
    }
}

/// `count` equal bins' edges over `range`, or over `a`'s extremes (read to the host: on the
/// gpu, as CuPy reads them; for floats both in one pass), as NumPy computes them.
fn equal_edges(a: &Array, count: usize, range: Option<(f64, f64)>) -> Result<Array> {
    if count == 0 {
        return Err(value_error("`bins` must be positive, when an integer"));
    }
    crate::device::check_allocation(Device::Cpu, count.saturating_add(1), DType::F64)?;
    let (mut low, mut high) = match range {
        Some(r) => r,
        None if a.size() == 0 => (0.0, 1.0),
        None if a.device() == Device::Gpu && matches!(a.dtype(), DType::F64 | DType::F32) => {
            super::on_gpu::extrema(a)?
        }
        None => (
            reduce::reduce_all(Reduction::Min, a)?.as_f64(),
            reduce::reduce_all(Reduction::Max, a)?.as_f64(),
        ),
    };
    if low > high {
        return Err(value_error(
            "max must be larger than min in range parameter.",
        ));
    }
    if !(low.is_finite() && high.is_finite()) {
        return Err(value_error(format!(
            "autodetected range of [{low}, {high}] is not finite"
        )));
    }
    if low == high {
        low -= 0.5;
        high += 0.5;
    }
    let step = (high - low) / count as f64;
    let mut edges: Vec<f64> = (0..=count).map(|i| low + i as f64 * step).collect();
    edges[count] = high;
    Ok(Array::from_vec(edges, vec![count + 1]))
}

/// NumPy's `histogram`: counts (or sums of `weights`) per bin, and the bin edges. Equal bins
/// place each value by arithmetic, corrected against the edges as NumPy corrects; given edges
/// by a binary search. The last bin includes its right edge; values outside are left out.
pub fn histogram(
    a: &Array,
    bins: &Bins,
    weights: Option<&Array>,
    density: bool,
) -> Result<(Array, Array)> {
    let a = ravel(a)?;
    let dtype = float_of(a.dtype());
    let values = a.astype(dtype)?;
    if let (Bins::Count(count, range), None, DType::F64 | DType::F32) = (bins, weights, dtype) {
        // The edges in the values' dtype, made on the host: `first` and `span` come from them.
        let ends = equal_edges(&values, *count, *range)?.astype(dtype)?;
        let edges = ends.to_device(values.device())?;
        let counts = uniform_counts(&values, &ends, &edges)?;
        return finish_histogram(counts, edges, density);
    }
    let edges = bin_edges(&values, bins)?.astype(dtype)?;
    let n = edges.size() - 1;
    let first = at_last(&edges, 0)?;
    let last = at_last(&edges, n)?;
    let index = match bins {
        Bins::Count(..) => {
            let span = binary(Op::Subtract, &last, &first)?;
            let fraction = binary(Op::Divide, &binary(Op::Subtract, &values, &first)?, &span)?;
            let scaled = with_scalar(Op::Multiply, &fraction, Scalar::Float(n as f64))?;
            let guess = with_scalar(
                Op::Minimum,
                &with_scalar(Op::Maximum, &unary(Op::Floor, &scaled)?, Scalar::Float(0.0))?,
                Scalar::Float((n - 1) as f64),
            )?;
            let guess = guess.astype(DType::I64)?;
            let below = binary(
                Op::Less,
                &values,
                &super::index::take(&edges, &guess, Some(0))?,
            )?;
            let guess = binary(Op::Subtract, &guess, &below.astype(DType::I64)?)?;
            let next = with_scalar(Op::Add, &guess, Scalar::Int(1))?;
            let above = binary(
                Op::GreaterEqual,
                &values,
                &super::index::take(&edges, &next, Some(0))?,
            )?;
            let not_last = with_scalar(Op::NotEqual, &guess, Scalar::Int(n as i64 - 1))?;
            let up = binary(Op::LogicalAnd, &above, &not_last)?;
            binary(Op::Add, &guess, &up.astype(DType::I64)?)?
        }
        Bins::Edges(_) => {
            let found = sort::searchsorted(&edges, &values, true)?;
            let found = with_scalar(Op::Subtract, &found, Scalar::Int(1))?;
            let at_end = binary(Op::Equal, &values, &last)?;
            let end = full_like(&found, Scalar::Int(n as i64 - 1), DType::I64)?;
            choose(&at_end, &end, &found)?
        }
    };
    // Values outside the edges (and NaN) go to an extra bin, dropped after counting.
    let inside = binary(
        Op::LogicalAnd,
        &binary(Op::GreaterEqual, &values, &first)?,
        &binary(Op::LessEqual, &values, &last)?,
    )?;
    let outside = full_like(&index, Scalar::Int(n as i64), DType::I64)?;
    let index = choose(&inside, &index, &outside)?;
    let counted = bincount(&index, weights.map(ravel).transpose()?.as_ref(), n + 1)?;
    let counts = counted.with_layout(counted.layout().index(&[AxisIndex::Range {
        start: Some(0),
        stop: Some(n as i64),
        step: None,
    }])?);
    let edges = match bins {
        Bins::Edges(given) => given.clone(),
        Bins::Count(..) => edges,
    };
    finish_histogram(counts, edges, density)
}

/// The counts, or with `density` each bin's share of them divided by its width.
fn finish_histogram(counts: Array, edges: Array, density: bool) -> Result<(Array, Array)> {
    if !density {
        return Ok((counts, edges));
    }
    let widths = diff(&edges, 1, 0, None, None)?.astype(DType::F64)?;
    let total = reduce_axes(Statistic::Reduce(Reduction::Sum), &counts, None, false, 0.0)?;
    let density = binary(Op::Divide, &binary(Op::Divide, &counts, &widths)?, &total)?;
    Ok((density, edges))
}

/// Counts over equal bins in one pass over the values (f64 or f32), with NumPy's arithmetic and
/// its correction against the edges (`ends` on the cpu, `edges` on the values' device); on the
/// gpu one kernel.
fn uniform_counts(values: &Array, ends: &Array, edges: &Array) -> Result<Array> {
    let bins = ends.size() - 1;
    let host = ends.to_vec::<f64>()?;
    let (first, span) = (host[0], host[bins] - host[0]);
    if values.device() == Device::Gpu {
        return super::on_gpu::histogram_uniform(values, edges, first, span);
    }
    use rayon::prelude::*;
    fn count<T: num_traits::Float + Into<f64> + Send + Sync>(
        x: &[T],
        edges: &[T],
        first: T,
        span: T,
    ) -> Vec<i64> {
        let bins = edges.len() - 1;
        let (low, high) = (edges[0], edges[bins]);
        threads::install(|| {
            x.par_chunks(1 << 16)
                .map(|chunk| {
                    let mut h = vec![0i64; bins];
                    for &v in chunk {
                        if !(v >= low && v <= high) {
                            continue;
                        }
                        let scale = T::from(bins).expect("a bin count is a float");
                        let scaled: f64 = ((v - first) / span * scale).into();
                        let mut k = (scaled as usize).min(bins - 1);
                        if v < edges[k] {
                            k = k.saturating_sub(1);
                        }
                        if k != bins - 1 && v >= edges[k + 1] {
                            k += 1;
                        }
                        h[k] += 1;
                    }
                    h
                })
                .reduce(
                    || vec![0i64; bins],
                    |mut a, b| {
                        a.iter_mut().zip(b).for_each(|(x, y)| *x += y);
                        a
                    },
                )
        })
    }
    let counts = match values.dtype() {
        DType::F32 => {
            let e = ends.to_vec::<f32>()?;
            values.contiguous()?.with_view::<f32, _>(|x| {
                let x = x.to_slice().expect("contiguous");
                count(x, &e, first as f32, span as f32)
            })?
        }
        _ => values.contiguous()?.with_view::<f64, _>(|x| {
            let x = x.to_slice().expect("contiguous");
            count(x, &host, first, span)
        })?,
    };
    Ok(Array::from_vec(counts, vec![bins]))
}

/// NumPy's `digitize`: the bin of each value for monotonic `bins` (increasing or decreasing).
pub fn digitize(x: &Array, bins: &Array, right: bool) -> Result<Array> {
    if bins.ndim() != 1 {
        return Err(value_error("bins must be a 1-d array"));
    }
    let dtype = x.dtype().promote(bins.dtype());
    let (x, bins) = (x.astype(dtype)?, bins.astype(dtype)?);
    let steps = diff(&bins, 1, 0, None, None)?;
    let increasing = bins.size() < 2
        || !reduce::reduce_all(
            Reduction::All,
            &with_scalar(Op::GreaterEqual, &steps, Scalar::Int(0))?,
        )?
        .is_zero();
    if increasing {
        return sort::searchsorted(&bins, &x, !right);
    }
    if reduce::reduce_all(
        Reduction::All,
        &with_scalar(Op::LessEqual, &steps, Scalar::Int(0))?,
    )?
    .is_zero()
    {
        return Err(value_error(
            "bins must be monotonically increasing or decreasing",
        ));
    }
    let reversed = super::shape::flip(&bins, None)?;
    let found = sort::searchsorted(&reversed, &x, right)?;
    let n = Scalar::Int(bins.size() as i64);
    let total = full_like(&found, n, DType::I64)?;
    binary(Op::Subtract, &total, &found)
}
