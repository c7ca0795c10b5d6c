//! Sorting along an axis (`sort`, `argsort`, and what is built on them: `partition`, `unique`,
//! `median` ...). On the cpu: an LSD radix sort over order-preserving unsigned keys, rows in
//! parallel, and for the values of one long row an in-place parallel radix sort (`long_rows`);
//! on the gpu: the radix sort of `gpu_sort`. NumPy's order: NaN last, complex numbers
//! by real then imaginary part; `descending` keeps equal elements in their order (the array API
//! standard's rule) and puts NaN first.

use rayon::prelude::*;

use super::reduce::normalize_axis;
use super::shape::{moveaxis, ravel};
use super::{gpu_sort, Array};
use crate::base::element::{c128, c64};
use crate::base::interrupt::Stop;
use crate::base::DType;
use crate::device::cpu::{threads, CpuElement};
use crate::device::Device;
use crate::error::{Error, ErrorKind, Result};
use crate::with_dtype;
use half::f16;

/// An element type's order as unsigned integers: `key` makes equal values equal (±0, every
/// NaN) for stable orders; `bits` is one-to-one (for sorting values and reading them back).
trait SortKey: CpuElement {
    fn key(self) -> u64;
    fn bits(self) -> u64;
    fn from_bits(bits: u64) -> Self;
    /// How many low bytes of the keys differ.
    const BYTES: usize;
}

macro_rules! unsigned_key {
    ($($t:ty),*) => {$(
        impl SortKey for $t {
            const BYTES: usize = std::mem::size_of::<$t>();
            fn key(self) -> u64 { self as u64 }
            fn bits(self) -> u64 { self as u64 }
            fn from_bits(bits: u64) -> Self { bits as $t }
        }
    )*};
}
unsigned_key!(u8, u16, u32, u64);

macro_rules! signed_key {
    ($($t:ty => $u:ty),*) => {$(
        impl SortKey for $t {
            const BYTES: usize = std::mem::size_of::<$t>();
            fn key(self) -> u64 { ((self as $u) ^ (1 << (<$u>::BITS - 1))) as u64 }
            fn bits(self) -> u64 { self.key() }
            fn from_bits(bits: u64) -> Self { ((bits as $u) ^ (1 << (<$u>::BITS - 1))) as $t }
        }
    )*};
}
signed_key!(i8 => u8, i16 => u16, i32 => u32, i64 => u64);

impl SortKey for bool {
    const BYTES: usize = 1;
    fn key(self) -> u64 {
        self as u64
    }
    fn bits(self) -> u64 {
        self as u64
    }
    fn from_bits(bits: u64) -> Self {
        bits != 0
    }
}

/// Float bits as an order: negatives reversed below positives; NaN (whatever its sign) above +inf.
macro_rules! float_key {
    ($t:ty, $u:ty, $to:expr, $from:expr, $nan:expr, $zero:expr) => {
        impl SortKey for $t {
            const BYTES: usize = std::mem::size_of::<$u>();
            fn key(self) -> u64 {
                match self {
                    x if $nan(x) => <$u>::MAX as u64,
                    x if x == $zero => (1 as $u).rotate_right(1) as u64,
                    x => x.bits(),
                }
            }
            fn bits(self) -> u64 {
                let bits: $u = $to(self);
                let sign = (1 as $u).rotate_right(1);
                let bits = if $nan(self) { bits & !sign } else { bits };
                (if bits & sign != 0 { !bits } else { bits | sign }) as u64
            }
            fn from_bits(bits: u64) -> Self {
                let bits = bits as $u;
                let sign = (1 as $u).rotate_right(1);
                $from(if bits & sign != 0 {
                    bits & !sign
                } else {
                    !bits
                })
            }
        }
    };
}
float_key!(f64, u64, f64::to_bits, f64::from_bits, f64::is_nan, 0.0);
float_key!(f32, u32, f32::to_bits, f32::from_bits, f32::is_nan, 0.0);
float_key!(
    f16,
    u16,
    f16::to_bits,
    f16::from_bits,
    f16::is_nan,
    f16::ZERO
);

mod long_rows;

use long_rows::sort_words;

/// A pointer shared by the threads of one scatter, each writing its own positions.
#[derive(Clone, Copy)]
struct Shared<T>(*mut T);
// SAFETY: the threads of a scatter write disjoint positions (their own counted ranges).
unsafe impl<T> Send for Shared<T> {}
unsafe impl<T> Sync for Shared<T> {}

impl<T> Shared<T> {
    /// Writes position `i`.
    ///
    /// # Safety
    /// `i` is inside the buffer, and no other thread writes or reads it meanwhile.
    unsafe fn write(self, i: usize, value: T) {
        self.0.add(i).write(value);
    }
}

/// Bits of the key each pass sorts by.
const DIGIT: usize = 11;
const BUCKETS: usize = 1 << DIGIT;
const MASK: usize = BUCKETS - 1;

/// Keys between two checks for an interrupt.
const STOP_CHECK: usize = 1 << 16;

/// Rows this long and longer are sorted by all threads together.
const PARALLEL_SORT: usize = 1 << 16;

/// Sorts `keys` by their low `bytes` bytes, stably, moving `payload` with them: least
/// significant digit first, 11 bits per pass, passes where every key has the same digit skipped.
/// A long row is cut into one piece per thread: each counts its digits, and all scatter at
/// once into the places the counts give them.
fn radix_sort(keys: &mut Vec<u64>, payload: &mut Option<Vec<i64>>, bytes: usize) {
    let n = keys.len();
    if n < 2 {
        return;
    }
    if n < 64 {
        let mut order: Vec<usize> = (0..n).collect();
        order.sort_by_key(|&i| keys[i]);
        *keys = order.iter().map(|&i| keys[i]).collect();
        if let Some(p) = payload {
            *p = order.iter().map(|&i| p[i]).collect();
        }
        return;
    }
    // A pass over 1e9 keys takes a second or more: an interrupt is checked every 2^16 keys
    // (its caller reports it; the keys are then in no order).
    let stop = Stop::current();
    let pieces = if n >= PARALLEL_SORT {
        threads::count()
    } else {
        1
    };
    let piece = n.div_ceil(pieces);
    let histogram = |keys: &[u64], shift: usize| -> Vec<Vec<usize>> {
        let count = |c: &[u64]| {
            let mut h = vec![0usize; BUCKETS];
            for block in c.chunks(STOP_CHECK) {
                if stop.requested() {
                    break;
                }
                for &k in block {
                    h[((k >> shift) as usize) & MASK] += 1;
                }
            }
            h
        };
        match pieces {
            1 => vec![count(keys)],
            _ => threads::install(|| keys.par_chunks(piece).map(count).collect()),
        }
    };
    let mut spare_keys: Vec<u64> = Vec::with_capacity(n);
    let mut spare_payload: Option<Vec<i64>> = payload.as_ref().map(|_| Vec::with_capacity(n));
    for shift in (0..8 * bytes).step_by(DIGIT) {
        if stop.requested() {
            return;
        }
        let counts = histogram(keys, shift);
        let constant = (0..BUCKETS).any(|d| counts.iter().map(|h| h[d]).sum::<usize>() == n);
        if constant {
            continue;
        }
        // Where each piece's keys of each digit go: digits in order, pieces in order within one.
        let mut starts = vec![vec![0usize; BUCKETS]; counts.len()];
        let mut total = 0;
        for d in 0..BUCKETS {
            for (s, h) in starts.iter_mut().zip(&counts) {
                s[d] = total;
                total += h[d];
            }
        }
        let out_keys = Shared(spare_keys.as_mut_ptr());
        let out_payload = spare_payload.as_mut().map(|p| Shared(p.as_mut_ptr()));
        let scatter = |k: usize, mut places: Vec<usize>| {
            let range = k * piece..((k + 1) * piece).min(n);
            let (out_keys, out_payload) = (out_keys, out_payload);
            for i in range {
                if i % STOP_CHECK == 0 && stop.requested() {
                    return;
                }
                let key = keys[i];
                let d = ((key >> shift) as usize) & MASK;
                // SAFETY: `places[d]` is inside this piece's share of the n positions.
                unsafe {
                    *out_keys.0.add(places[d]) = key;
                    if let (Some(out), Some(p)) = (out_payload, payload.as_ref()) {
                        *out.0.add(places[d]) = p[i];
                    }
                }
                places[d] += 1;
            }
        };
        match pieces {
            1 => scatter(0, starts.swap_remove(0)),
            _ => threads::install(|| {
                starts
                    .into_par_iter()
                    .enumerate()
                    .for_each(|(k, s)| scatter(k, s))
            }),
        }
        // SAFETY: every one of the n positions was written by the scatter.
        unsafe {
            spare_keys.set_len(n);
            if let Some(p) = spare_payload.as_mut() {
                p.set_len(n);
            }
        }
        std::mem::swap(keys, &mut spare_keys);
        if let (Some(p), Some(sp)) = (payload.as_mut(), spare_payload.as_mut()) {
            std::mem::swap(p, sp);
        }
    }
}

/// Positions that sort a row of keys stably.
fn argsort_keys(mut keys: Vec<u64>, bytes: usize, descending: bool) -> Vec<i64> {
    if descending {
        keys.iter_mut().for_each(|k| *k = !*k);
    }
    let mut order = Some((0..keys.len() as i64).collect::<Vec<_>>());
    radix_sort(&mut keys, &mut order, bytes);
    order.expect("kept")
}

/// Complex keys: real part, then imaginary part (NaN last in each, as NumPy orders them).
fn complex_argsort<T: SortKey>(parts: &[(T, T)], descending: bool) -> Vec<i64> {
    let by_imag = argsort_keys(
        parts.iter().map(|p| p.1.key()).collect(),
        T::BYTES,
        descending,
    );
    let real: Vec<u64> = by_imag.iter().map(|&i| parts[i as usize].0.key()).collect();
    let by_real = argsort_keys(real, T::BYTES, descending);
    by_real.iter().map(|&i| by_imag[i as usize]).collect()
}

/// A row's sorting positions, for any element type.
trait RowSort: CpuElement {
    fn argsort_row(row: &[Self], descending: bool) -> Vec<i64>;
    /// The row sorted (any order of equal elements).
    fn sort_row(row: &[Self], descending: bool) -> Vec<Self>;
}

/// `f` of each element of `row`, on all threads for a long row, in blocks of `STOP_CHECK`
/// between which an interrupt is seen (an interrupted map gives nothing: the caller reports it).
/// The output is written once, never zeroed first: for a sort's keys that is a pass saved.
fn interruptible_map<T: Sync, U: Send + Copy>(row: &[T], f: impl Fn(&T) -> U + Sync) -> Vec<U> {
    let stop = Stop::current();
    let mut out: Vec<U> = Vec::with_capacity(row.len());
    let fill = |(out, row): (&mut [std::mem::MaybeUninit<U>], &[T])| {
        if !stop.requested() {
            out.iter_mut().zip(row).for_each(|(o, x)| {
                o.write(f(x));
            });
        }
    };
    let slots = &mut out.spare_capacity_mut()[..row.len()];
    if row.len() < PARALLEL_SORT {
        fill((slots, row));
    } else {
        threads::install(|| {
            slots
                .par_chunks_mut(STOP_CHECK)
                .zip(row.par_chunks(STOP_CHECK))
                .for_each(fill)
        });
    }
    // The flag stays raised until the statement ends, so a block that saw it is seen here.
    if stop.requested() {
        return Vec::new();
    }
    // SAFETY: every block was written (none saw an interrupt).
    unsafe { out.set_len(row.len()) };
    out
}

macro_rules! real_row_sort {
    ($($t:ty),*) => {$(
        impl RowSort for $t {
            fn argsort_row(row: &[Self], descending: bool) -> Vec<i64> {
                argsort_keys(interruptible_map(row, |x| x.key()), <$t>::BYTES, descending)
            }
            fn sort_row(row: &[Self], descending: bool) -> Vec<Self> {
                let flip = if descending { u64::MAX } else { 0 };
                let long = long_rows::suits(row.len());
                if long && <$t>::BYTES <= 4 {
                    let mut keys = interruptible_map(row, |x| (x.bits() ^ flip) as u32);
                    sort_words(&mut keys);
                    return read_back(&keys, |k| <$t as SortKey>::from_bits(k as u64 ^ flip));
                }
                let mut keys = interruptible_map(row, |x| x.bits() ^ flip);
                if long {
                    sort_words(&mut keys);
                } else {
                    radix_sort(&mut keys, &mut None, <$t>::BYTES);
                }
                read_back(&keys, |k| <$t as SortKey>::from_bits(k ^ flip))
            }
        }
    )*};
}

/// The values of sorted keys (none when the sort was interrupted: its caller reports it).
fn read_back<W: Sync + Copy, T: Send + Copy>(keys: &[W], f: impl Fn(W) -> T + Sync) -> Vec<T> {
    if Stop::current().requested() {
        return Vec::new();
    }
    interruptible_map(keys, |&k| f(k))
}
real_row_sort!(bool, i8, i16, i32, i64, u8, u16, u32, u64, f16, f32, f64);

macro_rules! complex_row_sort {
    ($($t:ty => $f:ty),*) => {$(
        impl RowSort for $t {
            fn argsort_row(row: &[Self], descending: bool) -> Vec<i64> {
                let parts: Vec<($f, $f)> = row.iter().map(|z| (z.re, z.im)).collect();
                complex_argsort(&parts, descending)
            }
            fn sort_row(row: &[Self], descending: bool) -> Vec<Self> {
                Self::argsort_row(row, descending).iter().map(|&i| row[i as usize]).collect()
            }
        }
    )*};
}
complex_row_sort!(c64 => f32, c128 => f64);

/// `a` with `axis` moved last, as a contiguous copy (or itself), and the axis.
fn rows_last(a: &Array, axis: Option<i64>) -> Result<(Array, Option<usize>)> {
    match axis {
        None => Ok((ravel(a)?.contiguous()?, None)),
        Some(_) if a.ndim() == 0 => Ok((a.contiguous()?, None)),
        Some(axis) => {
            let d = normalize_axis(axis, a.ndim())?;
            let last = a.ndim() as i64 - 1;
            Ok((moveaxis(a, &[d as i64], &[last])?.contiguous()?, Some(d)))
        }
    }
}

/// The result of a row-wise operation with the sorted axis put back where it was.
fn restore(result: Array, axis: Option<usize>) -> Result<Array> {
    match axis {
        Some(d) if result.ndim() > 0 => moveaxis(&result, &[result.ndim() as i64 - 1], &[d as i64]),
        _ => Ok(result),
    }
}

/// Runs `f` on every row (the last axis) of a contiguous cpu array, rows in parallel.
fn map_rows<T: CpuElement, U: Send>(
    a: &Array,
    f: impl Fn(&[T]) -> Vec<U> + Sync,
) -> Result<Vec<U>> {
    let len = a.shape().last().copied().unwrap_or(1).max(1);
    a.with_view::<T, _>(|v| {
        let data = v.to_slice().expect("contiguous");
        let stop = Stop::current();
        let rows = if data.len() <= len {
            f(data)
        } else {
            let rows: Vec<Vec<U>> = threads::install(|| {
                data.par_chunks(len)
                    .map(|row| if stop.requested() { Vec::new() } else { f(row) })
                    .collect()
            });
            rows.into_iter().flatten().collect()
        };
        if stop.requested() {
            return Err(Error::new(ErrorKind::Interrupted, "interrupted"));
        }
        Ok(rows)
    })?
}

/// NumPy's `sort` (`axis=None` sorts the flattened array).
pub fn sort(a: &Array, axis: Option<i64>, descending: bool, stable: bool) -> Result<Array> {
    let (rows, d) = rows_last(a, axis)?;
    let sorted = match rows.device() {
        Device::Gpu => gpu_sort::sort_last_axis(&rows, descending)?,
        Device::Cpu if stable && rows.dtype().is_inexact() => {
            let order = argsort_rows(&rows, descending)?;
            super::index::take_along_axis(&rows, &order, -1)?
        }
        Device::Cpu => with_dtype!(rows.dtype(), T => {
            let data = map_rows::<T, T>(&rows, |r| T::sort_row(r, descending))?;
            Array::from_vec(data, rows.shape().to_vec())
        }),
    };
    restore(sorted, d)
}

/// NumPy's `argsort`, always stable: i64 positions along the axis.
pub fn argsort(a: &Array, axis: Option<i64>, descending: bool) -> Result<Array> {
    let (rows, d) = rows_last(a, axis)?;
    let order = match rows.device() {
        Device::Gpu => gpu_sort::argsort_last_axis(&rows, descending)?,
        Device::Cpu => argsort_rows(&rows, descending)?,
    };
    restore(order, d)
}

fn argsort_rows(rows: &Array, descending: bool) -> Result<Array> {
    let data = with_dtype!(rows.dtype(), T => map_rows::<T, i64>(rows, |r| T::argsort_row(r, descending))?);
    Ok(Array::from_vec(data, rows.shape().to_vec()))
}

/// Runs `$body` with `$T` the element type of a real dtype, `$complex` for complex ones.
macro_rules! with_real_dtype {
    ($dtype:expr, $T:ident => $body:expr, complex => $complex:expr) => {
        match $dtype {
            DType::C64 | DType::C128 => $complex,
            DType::Bool => {
                type $T = bool;
                $body
            }
            DType::I8 => {
                type $T = i8;
                $body
            }
            DType::I16 => {
                type $T = i16;
                $body
            }
            DType::I32 => {
                type $T = i32;
                $body
            }
            DType::I64 => {
                type $T = i64;
                $body
            }
            DType::U8 => {
                type $T = u8;
                $body
            }
            DType::U16 => {
                type $T = u16;
                $body
            }
            DType::U32 => {
                type $T = u32;
                $body
            }
            DType::U64 => {
                type $T = u64;
                $body
            }
            DType::F16 => {
                type $T = f16;
                $body
            }
            DType::F32 => {
                type $T = f32;
                $body
            }
            DType::F64 => {
                type $T = f64;
                $body
            }
        }
    };
}

/// The order keys of a real array's elements (C order), equal for equal values.
fn order_keys(a: &Array) -> Result<Vec<u64>> {
    with_real_dtype!(a.dtype(), T => a.to_vec::<T>().map(|v| v.iter().map(|x| x.key()).collect()),
        complex => Err(crate::error::type_error("searching complex arrays is not supported")))
}

/// NumPy's `searchsorted`: for each of `values`, the position in the ascending 1-d `sorted`
/// where it would go (before equal elements, or after them with `right`). Both have one dtype.
pub fn searchsorted(sorted: &Array, values: &Array, right: bool) -> Result<Array> {
    if sorted.device() == Device::Gpu {
        return gpu_sort::searchsorted(sorted, values, right);
    }
    let keys = order_keys(sorted)?;
    let wanted = order_keys(values)?;
    let positions: Vec<i64> = threads::install(|| {
        wanted
            .par_iter()
            .map(|&v| match right {
                false => keys.partition_point(|&k| k < v) as i64,
                true => keys.partition_point(|&k| k <= v) as i64,
            })
            .collect()
    });
    Ok(Array::from_vec(positions, values.shape().to_vec()))
}

/// The `k`-th smallest element of each row (the last axis) of a contiguous cpu array of a real
/// dtype, for each k of `ranks` (NaN above everything): quickselect, no full sort.
pub fn select_rows(rows: &Array, ranks: &[usize]) -> Result<Vec<Array>> {
    let len = rows.shape().last().copied().unwrap_or(1).max(1);
    let shape = rows.shape()[..rows.ndim().saturating_sub(1)].to_vec();
    with_real_dtype!(rows.dtype(), T => {
        // Row by row, one element per rank.
        let picked: Vec<T> = map_rows::<T, T>(rows, |row| {
            let mut keys: Vec<u64> = row.iter().map(|x| x.bits()).collect();
            ranks
                .iter()
                .map(|&k| <T as SortKey>::from_bits(*keys.select_nth_unstable(k.min(len - 1)).1))
                .collect()
        })?;
        let count = picked.len() / ranks.len().max(1);
        Ok((0..ranks.len())
            .map(|r| {
                let values: Vec<T> = (0..count).map(|row| picked[row * ranks.len() + r]).collect();
                Array::from_vec(values, shape.clone())
            })
            .collect())
    },
    complex => Err(crate::error::type_error("complex numbers have no order statistics here")))
}
