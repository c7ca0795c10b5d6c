//! Sets (NumPy's `unique` and the `*1d` functions, the standard's `unique_*`): built of sorting,
//! comparisons of neighbours, masks and gathers, so they run on either device. On the gpu the
//! number of distinct values is the one count read to the host (8 bytes, as CuPy reads it).

use super::index::{self, take};
use super::join::concatenate;
use super::ops::{binary, unary, with_scalar};
use super::shape::{moveaxis, ravel, reshape};
use super::sort::{argsort, searchsorted, sort};
use super::{reduce, search, Array};
use crate::base::layout::AxisIndex;
use crate::base::{DType, Scalar};
use crate::error::Result;
use crate::plan::table::Op;

/// What `unique` returns besides the values.
#[derive(Default)]
pub struct Unique {
    pub values: Option<Array>,
    pub index: Option<Array>,
    pub inverse: Option<Array>,
    pub counts: Option<Array>,
}

/// Which of `unique`'s extra results are wanted.
#[derive(Clone, Copy, Default)]
pub struct Wanted {
    pub index: bool,
    pub inverse: bool,
    pub counts: bool,
    /// NaNs as one value (NumPy's `unique`) or each its own (the standard's `unique_*`).
    pub equal_nan: bool,
}

fn slice(a: &Array, start: Option<i64>, stop: Option<i64>) -> Result<Array> {
    let layout = a.layout().index(&[AxisIndex::Range {
        start,
        stop,
        step: None,
    }])?;
    Ok(a.with_layout(layout))
}

/// True where a sorted 1-d array starts a new value (its first element always does).
fn run_starts(sorted: &Array, equal_nan: bool) -> Result<Array> {
    let (later, earlier) = (
        slice(sorted, Some(1), None)?,
        slice(sorted, None, Some(-1))?,
    );
    let mut differs = binary(Op::NotEqual, &later, &earlier)?;
    if equal_nan && sorted.dtype().is_inexact() {
        let both_nan = binary(
            Op::LogicalAnd,
            &unary(Op::Isnan, &later)?,
            &unary(Op::Isnan, &earlier)?,
        )?;
        differs = binary(Op::LogicalAnd, &differs, &unary(Op::LogicalNot, &both_nan)?)?;
    }
    let first = Array::full(
        &[1.min(sorted.size())],
        Scalar::Bool(true),
        DType::Bool,
        sorted.device(),
    )?;
    concatenate(&[first, differs], Some(0))
}

/// Each element's place among the distinct values: the running count of `starts` (over the
/// sorted elements) minus one, stored back through the sorting `order`.
fn inverse(starts: &Array, order: &Array) -> Result<Array> {
    let rank = with_scalar(
        Op::Subtract,
        &reduce::scan(starts, Some(0), false)?,
        Scalar::Int(1),
    )?;
    let inverse = Array::full(&[order.size()], Scalar::Int(0), DType::I64, order.device())?;
    index::set(
        &inverse,
        &[index::Subscript::Array(order.clone())],
        super::ops::Operand::Array(&rank),
    )?;
    Ok(inverse)
}

/// How many elements each distinct value has: the gaps between the first positions and `n`.
fn counts(first: Array, n: usize) -> Result<Array> {
    let end = Array::full(&[1], Scalar::Int(n as i64), DType::I64, first.device())?;
    let bounds = concatenate(&[first, end], Some(0))?;
    binary(
        Op::Subtract,
        &slice(&bounds, Some(1), None)?,
        &slice(&bounds, None, Some(-1))?,
    )
}

/// The distinct elements of the flattened array, sorted, and what else is wanted.
pub fn unique(a: &Array, wanted: Wanted) -> Result<Unique> {
    let flat = ravel(a)?;
    let n = flat.size();
    let needs_order = wanted.index || wanted.inverse;
    let (sorted, order) = if needs_order {
        let order = argsort(&flat, Some(0), false)?;
        (take(&flat, &order, Some(0))?, Some(order))
    } else {
        (sort(&flat, Some(0), false, false)?, None)
    };
    let starts = run_starts(&sorted, wanted.equal_nan)?;
    let [first] = <[Array; 1]>::try_from(search::nonzero(&starts)?).expect("1-d");
    let mut out = Unique {
        values: Some(take(&sorted, &first, Some(0))?),
        ..Unique::default()
    };
    if let (true, Some(order)) = (wanted.index, &order) {
        out.index = Some(take(order, &first, Some(0))?);
    }
    if let (true, Some(order)) = (wanted.inverse, &order) {
        let shape: Vec<i64> = a.shape().iter().map(|&d| d as i64).collect();
        out.inverse = Some(reshape(&inverse(&starts, order)?, &shape)?);
    }
    if wanted.counts {
        out.counts = Some(counts(first, n)?);
    }
    Ok(out)
}

/// `unique` along an axis: the distinct sub-arrays, in lexicographic order.
pub fn unique_rows(a: &Array, axis: i64, wanted: Wanted) -> Result<Unique> {
    let d = reduce::normalize_axis(axis, a.ndim())?;
    let front = moveaxis(a, &[d as i64], &[0])?;
    let rows = front.shape()[0] as i64;
    let matrix = reshape(&front, &[rows, -1])?;
    let columns = matrix.shape()[1];
    // Stable sorts by each column, the last one first: lexicographic order of the rows.
    let mut order = Array::from_vec((0..rows).collect::<Vec<i64>>(), vec![rows as usize])
        .to_device(a.device())?;
    for c in (0..columns).rev() {
        let column = matrix.with_layout(matrix.layout().index(&[
            AxisIndex::Range {
                start: None,
                stop: None,
                step: None,
            },
            AxisIndex::At(c as i64),
        ])?);
        let keys = take(&column, &order, Some(0))?;
        order = take(&order, &argsort(&keys, Some(0), false)?, Some(0))?;
    }
    let sorted = take(&matrix, &order, Some(0))?;
    let starts = if rows == 0 {
        Array::full(&[0], Scalar::Bool(true), DType::Bool, a.device())?
    } else {
        let differs = binary(
            Op::NotEqual,
            &slice(&sorted, Some(1), None)?,
            &slice(&sorted, None, Some(-1))?,
        )?;
        let any = reduce::reduce_axes(
            reduce::Statistic::Reduce(crate::plan::reduce::Reduction::Any),
            &differs,
            Some(&[1]),
            false,
            0.0,
        )?;
        let first = Array::full(&[1], Scalar::Bool(true), DType::Bool, a.device())?;
        concatenate(&[first, any], Some(0))?
    };
    let [first] = <[Array; 1]>::try_from(search::nonzero(&starts)?).expect("1-d");
    let picked = take(&sorted, &first, Some(0))?;
    let mut shape: Vec<i64> = front.shape().iter().map(|&n| n as i64).collect();
    shape[0] = picked.shape()[0] as i64;
    let values = moveaxis(&reshape(&picked, &shape)?, &[0], &[d as i64])?;
    let mut out = Unique {
        values: Some(values),
        ..Unique::default()
    };
    if wanted.index {
        out.index = Some(take(&order, &first, Some(0))?);
    }
    if wanted.inverse {
        out.inverse = Some(inverse(&starts, &order)?);
    }
    if wanted.counts {
        out.counts = Some(counts(first, rows as usize)?);
    }
    Ok(out)
}

/// True where an element of `elements` is among `tests` (NumPy's `isin`).
pub fn isin(elements: &Array, tests: &Array, invert: bool) -> Result<Array> {
    let dtype = elements.dtype().promote(tests.dtype());
    let tests = sort(&ravel(tests)?, Some(0), false, false)?.astype(dtype)?;
    let found = if tests.size() == 0 {
        Array::full(
            elements.shape(),
            Scalar::Bool(false),
            DType::Bool,
            elements.device(),
        )?
    } else {
        let wanted = elements.astype(dtype)?;
        let at = searchsorted(&tests, &wanted, false)?;
        let last = Scalar::Int(tests.size() as i64 - 1);
        let at = with_scalar(Op::Minimum, &at, last)?;
        binary(Op::Equal, &take(&tests, &at, Some(0))?, &wanted)?
    };
    if invert {
        unary(Op::LogicalNot, &found)
    } else {
        Ok(found)
    }
}

fn values_of(a: &Array) -> Result<Array> {
    let wanted = Wanted {
        equal_nan: true,
        ..Wanted::default()
    };
    Ok(unique(a, wanted)?.values.expect("values"))
}

/// The sorted distinct values in both arrays.
pub fn intersect1d(a: &Array, b: &Array) -> Result<Array> {
    let both = concatenate(&[values_of(a)?, values_of(b)?], Some(0))?;
    let sorted = sort(&both, Some(0), false, false)?;
    if sorted.size() < 2 {
        return slice(&sorted, Some(0), Some(0));
    }
    let earlier = slice(&sorted, None, Some(-1))?;
    let twice = binary(Op::Equal, &slice(&sorted, Some(1), None)?, &earlier)?;
    match index::get(&earlier, &[index::Subscript::Array(twice)])? {
        index::Selection::Array(x) => Ok(x),
        index::Selection::Scalar(_) => unreachable!("a mask selects an array"),
    }
}

/// The sorted distinct values in either array.
pub fn union1d(a: &Array, b: &Array) -> Result<Array> {
    values_of(&concatenate(&[ravel(a)?, ravel(b)?], Some(0))?)
}

/// The sorted distinct values of `a` that are not in `b`.
pub fn setdiff1d(a: &Array, b: &Array) -> Result<Array> {
    let values = values_of(a)?;
    let keep = isin(&values, b, true)?;
    match index::get(&values, &[index::Subscript::Array(keep)])? {
        index::Selection::Array(x) => Ok(x),
        index::Selection::Scalar(_) => unreachable!("a mask selects an array"),
    }
}
