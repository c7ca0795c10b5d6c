//! Sorting along the last axis, argsort, searchsorted and bincount on the gpu, with the kernels of
//! `kernels/sort.cu`. Inputs are gpu arrays of any layout (copied to C order when they are not);
//! results are new C-ordered gpu arrays. Nothing here copies between host and device.
//!
//! Sorting is an LSD radix sort, one 8-bit digit of an order-preserving key per pass: a zeroing
//! kernel, a histogram kernel that counts every pass's digits in one read, then one onesweep
//! kernel per pass. A sort of one row of a real dtype moves keys only; argsort moves (key, flat
//! position) pairs and, for several rows, then sorts stably by the row's digits, so the result is
//! ordered by (row, key). Sorting several rows, or complex values, is an argsort and a gather.

use super::Array;
use crate::base::dtype::Kind;
use crate::base::{DType, Scalar};
use crate::device::gpu::gpu;
use crate::device::{Buffer, Device};
use crate::error::Result;
use crate::kernel_args;

const MODULE: &str = "sort";
const DIGITS: usize = 256;
/// Threads of the histogram kernel (`HIST_BLOCK` in sort.cu).
const HIST_BLOCK: u32 = 256;
/// Bins that bincount counts in shared memory (`SHARED_BINS`).
const SHARED_BINS: usize = 4096;

// Stream modes and key flags, as sort.cu numbers them.
const IN_RAW: i32 = 0;
const IN_ENCODE: i32 = 1;
const IN_INDEX: i32 = 2;
const OUT_NONE: i32 = 0;
const OUT_RAW: i32 = 1;
const OUT_DECODE: i32 = 2;
const OUT_COLUMN: i32 = 3;
const FLAG_DESCENDING: i32 = 1;
const FLAG_CANONICAL: i32 = 2;

/// `PassArgs` of sort.cu, field for field (C pads it to 120 bytes).
#[repr(C)]
#[derive(Clone, Copy, Debug, Default)]
struct PassArgs {
    r_in: u64,
    r_out: u64,
    v_in: u64,
    v_out: u64,
    offsets: u64,
    status: u64,
    ticket: u64,
    n: i64,
    len: i64,
    inverse_len: f64,
    pass: i32,
    shift: i32,
    row_digit: i32,
    r_in_mode: i32,
    r_out_mode: i32,
    v_in_mode: i32,
    v_out_mode: i32,
    kind: i32,
    flags: i32,
    padding: i32,
}

/// `HistogramArgs` of sort.cu, field for field (C pads it to 80 bytes).
#[repr(C)]
#[derive(Clone, Copy, Debug)]
struct HistogramArgs {
    input: u64,
    counts: u64,
    done: u64,
    status: u64,
    status_words: i64,
    n: i64,
    len: i64,
    rows: i64,
    row_passes: i32,
    kind: i32,
    flags: i32,
    padding: i32,
}

/// The device address of an array's first element (a gpu array).
fn pointer(a: &Array) -> Result<u64> {
    let buffer = a.buffer()?;
    let g = buffer.gpu().expect("gpu_sort is called with gpu arrays");
    Ok(g.element_pointer(a.layout().offset))
}

fn buffer_pointer(b: &Buffer) -> u64 {
    b.gpu().expect("a gpu buffer").device_pointer()
}

/// A new, uninitialised C-ordered gpu array.
fn empty(shape: &[usize], dtype: DType) -> Result<Array> {
    let size = shape.iter().product();
    Ok(Array::from_buffer(
        Buffer::alloc(Device::Gpu, size, dtype)?,
        shape,
    ))
}

/// A C-ordered copy of `a` as `dtype`, unless it already is one.
fn contiguous_as(a: &Array, dtype: DType) -> Result<Array> {
    if a.dtype() == dtype && a.layout().is_contiguous() {
        Ok(a.clone())
    } else {
        a.astype(dtype)
    }
}

/// The kernels' name for the key words of `dtype` (one word per element; complex two).
fn key_name(dtype: DType) -> &'static str {
    match (dtype.size(), dtype.is_complex()) {
        (1, _) => "u8",
        (2, _) => "u16",
        (4, _) => "u32",
        (8, false) => "u64",
        (8, true) => "w32",
        _ => "w64",
    }
}

/// How sort.cu turns an element into a key (`KIND_*`).
fn key_kind(dtype: DType) -> i32 {
    match dtype.kind() {
        Kind::Bool | Kind::Unsigned => 0,
        Kind::Signed => 1,
        Kind::Float => 2,
        Kind::Complex => 3,
    }
}

/// Threads and items per thread of a pass kernel whose ranked words have `bytes` bytes, with or
/// without an i64 value: sort.cu's `RADIX_KEYS` / `RADIX_PAIRS` lines.
fn tile(bytes: usize, pairs: bool) -> (u32, usize) {
    match (pairs, bytes) {
        (false, 0..=4) => (512, 16),
        (false, _) => (256, 16),
        (true, 0..=8) => (512, 8),
        (true, _) => (512, 4),
    }
}

fn tile_items((threads, items): (u32, usize)) -> usize {
    threads as usize * items
}

/// Passes over the digits of the row number, for `rows` rows.
fn row_passes(rows: usize) -> usize {
    if rows <= 1 {
        return 0;
    }
    let bits = 64 - (rows as u64 - 1).leading_zeros() as usize;
    bits.div_ceil(8)
}

/// The elements along the last axis (a 0-d array is one row of one).
fn row_length(a: &Array) -> usize {
    a.shape().last().copied().unwrap_or(1)
}

/// The radix sort of a C-ordered gpu array of `n` ≥ 1 elements in rows of `len`: its sorted
/// values (`argsort` false: one row of a real dtype), or each element's position in its row.
fn radix(input: &Array, len: usize, descending: bool, argsort: bool) -> Result<Array> {
    let g = gpu()?;
    let dtype = input.dtype();
    let n = input.size();
    let rows = n / len;
    let name = key_name(dtype);
    let key_passes = dtype.size();
    let row_passes = if argsort { row_passes(rows) } else { 0 };
    let passes = key_passes + row_passes;
    let key_shape = tile(dtype.size(), argsort);
    let row_shape = tile(8, false);
    let (key_tile, row_tile) = (tile_items(key_shape), tile_items(row_shape));
    let smallest_tile = if row_passes > 0 {
        key_tile.min(row_tile)
    } else {
        key_tile
    };
    let status_tiles = n.div_ceil(smallest_tile);
    let status_words = status_tiles * DIGITS;
    // Work words: each pass's digit counts (then starts), each pass's tile ticket, the
    // histogram's finished-block count; then the look-back words, which every pass uses.
    let small = passes * DIGITS + passes + 1;
    let work = Buffer::alloc(Device::Gpu, small + status_words, DType::U64)?;
    let word = |w: usize| buffer_pointer(&work) + 8 * w as u64;

    let out = empty(input.shape(), if argsort { DType::I64 } else { dtype })?;
    let out_pointer = pointer(&out)?;
    let input_pointer = pointer(input)?;
    // Keys go back and forth between two buffers; the last pass of a sort writes `out`. The
    // positions of an argsort likewise, with its last pass writing `out`.
    let key_temporaries = if argsort {
        key_passes.saturating_sub(1).min(2)
    } else {
        usize::from(key_passes > 1)
    };
    let key_buffers = (0..key_temporaries)
        .map(|_| Buffer::alloc(Device::Gpu, n, dtype))
        .collect::<Result<Vec<_>>>()?;
    let value_buffer = if argsort && passes > 1 {
        Some(Buffer::alloc(Device::Gpu, n, DType::I64)?)
    } else {
        None
    };
    let key_written_by = |pass: usize| -> u64 {
        if argsort {
            buffer_pointer(&key_buffers[pass % 2])
        } else if (key_passes - 1 - pass).is_multiple_of(2) {
            out_pointer
        } else {
            buffer_pointer(&key_buffers[0])
        }
    };
    let value_written_by = |pass: usize| -> u64 {
        match &value_buffer {
            Some(b) if !(passes - 1 - pass).is_multiple_of(2) => buffer_pointer(b),
            _ => out_pointer,
        }
    };

    let kind = key_kind(dtype);
    let mut flags = if descending { FLAG_DESCENDING } else { 0 };
    if argsort {
        flags |= FLAG_CANONICAL;
    }
    let (n64, len64) = (n as i64, len as i64);

    let (work_pointer, small64) = (word(0), small as i64);
    g.launch_over(
        MODULE,
        "sort_zero",
        small,
        &mut kernel_args![work_pointer, small64],
    )?;
    let histogram = HistogramArgs {
        input: input_pointer,
        counts: word(0),
        done: word(passes * DIGITS + passes),
        status: word(small),
        status_words: status_words as i64,
        n: n64,
        len: len64,
        rows: rows as i64,
        row_passes: row_passes as i32,
        kind,
        flags,
        padding: 0,
    };
    let blocks = n
        .div_ceil(4096)
        .clamp(1, g.multiprocessors as usize * 4)
        .max(n.div_ceil(1 << 30));
    g.launch(
        MODULE,
        &format!("radix_histogram_{name}"),
        n,
        (blocks as u32, 1, 1),
        (HIST_BLOCK, 1, 1),
        &mut kernel_args![histogram],
    )?;

    for pass in 0..passes {
        let last = pass == passes - 1;
        let mut args = PassArgs {
            offsets: word(pass * DIGITS),
            status: word(small),
            ticket: word(passes * DIGITS + pass),
            n: n64,
            len: len64,
            inverse_len: 1.0 / len as f64,
            pass: pass as i32,
            kind,
            flags,
            ..PassArgs::default()
        };
        let (kernel, shape) = if pass < key_passes {
            args.shift = 8 * pass as i32;
            (args.r_in, args.r_in_mode) = if pass == 0 {
                (input_pointer, IN_ENCODE)
            } else {
                (key_written_by(pass - 1), IN_RAW)
            };
            if argsort {
                (args.r_out, args.r_out_mode) = if pass + 1 < key_passes {
                    (key_written_by(pass), OUT_RAW)
                } else {
                    (0, OUT_NONE)
                };
                (args.v_in, args.v_in_mode) = if pass == 0 {
                    (0, IN_INDEX)
                } else {
                    (value_written_by(pass - 1), IN_RAW)
                };
                args.v_out = value_written_by(pass);
                args.v_out_mode = if last { OUT_COLUMN } else { OUT_RAW };
                (format!("radix_pairs_{name}"), key_shape)
            } else {
                args.r_out = key_written_by(pass);
                args.r_out_mode = if last { OUT_DECODE } else { OUT_RAW };
                (format!("radix_pass_{name}"), key_shape)
            }
        } else {
            // The positions are ranked by their row's digits.
            args.shift = 8 * (pass - key_passes) as i32;
            args.row_digit = 1;
            args.r_in = value_written_by(pass - 1);
            args.r_in_mode = IN_RAW;
            args.r_out = value_written_by(pass);
            args.r_out_mode = if last { OUT_COLUMN } else { OUT_RAW };
            ("radix_pass_u64".to_string(), row_shape)
        };
        g.launch(
            MODULE,
            &kernel,
            n,
            (n.div_ceil(tile_items(shape)) as u32, 1, 1),
            (shape.0, 1, 1),
            &mut kernel_args![args],
        )?;
    }
    Ok(out)
}

/// Each row's elements at the positions `order` (C-ordered, i64) gives: `a` sorted by an argsort.
fn take_along_rows(a: &Array, order: &Array, len: usize) -> Result<Array> {
    let out = empty(a.shape(), a.dtype())?;
    let (a_pointer, order_pointer, out_pointer) = (pointer(a)?, pointer(order)?, pointer(&out)?);
    let (n, len) = (a.size() as i64, len as i64);
    gpu()?.launch_over(
        MODULE,
        &format!("take_along_rows_{}", key_name(a.dtype())),
        a.size(),
        &mut kernel_args![a_pointer, order_pointer, n, len, out_pointer],
    )?;
    Ok(out)
}

fn argsort_contiguous(a: &Array, len: usize, descending: bool) -> Result<Array> {
    if len == 1 {
        return Array::full(a.shape(), Scalar::Int(0), DType::I64, Device::Gpu);
    }
    radix(a, len, descending, true)
}

/// Every row along the last axis sorted (NaN last; first when `descending`); same dtype and shape.
pub fn sort_last_axis(a: &Array, descending: bool) -> Result<Array> {
    let len = row_length(a);
    if a.size() == 0 {
        return empty(a.shape(), a.dtype());
    }
    if len == 1 {
        return a.copy();
    }
    let a = contiguous_as(a, a.dtype())?;
    if a.size() > len || a.dtype().is_complex() {
        let order = argsort_contiguous(&a, len, descending)?;
        return take_along_rows(&a, &order, len);
    }
    radix(&a, len, descending, false)
}

/// The i64 positions along the last axis that sort each row, stably (equal elements keep their
/// order, also when `descending`).
pub fn argsort_last_axis(a: &Array, descending: bool) -> Result<Array> {
    if a.size() == 0 {
        return empty(a.shape(), DType::I64);
    }
    let a = contiguous_as(a, a.dtype())?;
    argsort_contiguous(&a, row_length(&a), descending)
}

/// NumPy's `searchsorted(sorted, values, side)`: `sorted` is 1-d and ascending (NaN last), both
/// of one dtype; the i64 result has `values`' shape.
pub fn searchsorted(sorted: &Array, values: &Array, right: bool) -> Result<Array> {
    let out = empty(values.shape(), DType::I64)?;
    if values.size() == 0 {
        return Ok(out);
    }
    let dtype = sorted.dtype();
    let sorted = contiguous_as(sorted, dtype)?;
    let values = contiguous_as(values, dtype)?;
    let (s, v, o) = (pointer(&sorted)?, pointer(&values)?, pointer(&out)?);
    let (n, m) = (sorted.size() as i64, values.size() as i64);
    let (right, kind) = (i32::from(right), key_kind(dtype));
    gpu()?.launch_over(
        MODULE,
        &format!("searchsorted_{}", key_name(dtype)),
        values.size(),
        &mut kernel_args![s, n, v, m, right, kind, o],
    )?;
    Ok(out)
}

/// NumPy's `bincount`: `x` holds non-negative integers below `length` (checked by the caller);
/// the counts (i64), or the sums of `weights` (f64, `x`'s shape), of each value below `length`.
pub fn bincount(x: &Array, weights: Option<&Array>, length: usize) -> Result<Array> {
    let out = empty(
        &[length],
        if weights.is_some() {
            DType::F64
        } else {
            DType::I64
        },
    )?;
    if length == 0 {
        return Ok(out);
    }
    let g = gpu()?;
    let out_pointer = pointer(&out)?;
    let bins = length as i64;
    g.launch_over(
        MODULE,
        "sort_zero",
        length,
        &mut kernel_args![out_pointer, bins],
    )?;
    let n = x.size();
    if n == 0 {
        return Ok(out);
    }
    let x = contiguous_as(x, DType::I64)?;
    let x_pointer = pointer(&x)?;
    let count = n as i64;
    let weights = weights.map(|w| contiguous_as(w, DType::F64)).transpose()?;
    if length <= SHARED_BINS {
        let blocks = n
            .div_ceil(256 * 16)
            .clamp(1, g.multiprocessors as usize * 2) as u32;
        let (grid, block) = ((blocks, 1, 1), (256, 1, 1));
        match &weights {
            None => g.launch(
                MODULE,
                "bincount_shared",
                n,
                grid,
                block,
                &mut kernel_args![x_pointer, count, bins, out_pointer],
            )?,
            Some(w) => {
                let w_pointer = pointer(w)?;
                g.launch(
                    MODULE,
                    "bincount_weights_shared",
                    n,
                    grid,
                    block,
                    &mut kernel_args![x_pointer, w_pointer, count, bins, out_pointer],
                )?
            }
        }
    } else {
        match &weights {
            None => g.launch_over(
                MODULE,
                "bincount_global",
                n,
                &mut kernel_args![x_pointer, count, bins, out_pointer],
            )?,
            Some(w) => {
                let w_pointer = pointer(w)?;
                g.launch_over(
                    MODULE,
                    "bincount_weights_global",
                    n,
                    &mut kernel_args![x_pointer, w_pointer, count, bins, out_pointer],
                )?
            }
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::base::element::c128;
    use std::cmp::Ordering;

    #[test]
    fn argument_structs_match_the_cuda_layout() {
        assert_eq!(std::mem::size_of::<PassArgs>(), 120);
        assert_eq!(std::mem::size_of::<HistogramArgs>(), 80);
        assert_eq!(row_passes(1), 0);
        assert_eq!(row_passes(2), 1);
        assert_eq!(row_passes(256), 1);
        assert_eq!(row_passes(257), 2);
        assert_eq!(row_passes(65537), 3);
        assert_eq!(tile(4, false), (512, 16));
        assert_eq!(tile(8, false), (256, 16));
        assert_eq!(tile(4, true), (512, 8));
        assert_eq!(tile(16, true), (512, 4));
    }

    /// A host value in NumPy's sort order.
    #[derive(Clone, Copy, Debug)]
    enum Value {
        Int(i128),
        Float(f64),
        Complex(f64, f64),
    }

    fn float_order(a: f64, b: f64) -> Ordering {
        match (a.is_nan(), b.is_nan()) {
            (true, true) => Ordering::Equal,
            (true, false) => Ordering::Greater,
            (false, true) => Ordering::Less,
            _ => a.partial_cmp(&b).expect("not NaN"),
        }
    }

    /// NumPy's order: NaN last; complex R + Rj, R + nanj, nan + Rj, nan + nanj.
    fn order(a: &Value, b: &Value) -> Ordering {
        let class = |re: f64, im: f64| match (re.is_nan(), im.is_nan()) {
            (false, false) => 0,
            (false, true) => 1,
            (true, false) => 2,
            (true, true) => 3,
        };
        match (*a, *b) {
            (Value::Int(x), Value::Int(y)) => x.cmp(&y),
            (Value::Float(x), Value::Float(y)) => float_order(x, y),
            (Value::Complex(ar, ai), Value::Complex(br, bi)) => {
                let c = class(ar, ai);
                c.cmp(&class(br, bi)).then_with(|| match c {
                    0 => float_order(ar, br).then(float_order(ai, bi)),
                    1 => float_order(ar, br),
                    2 => float_order(ai, bi),
                    _ => Ordering::Equal,
                })
            }
            _ => unreachable!("one dtype"),
        }
    }

    fn values(a: &Array) -> Vec<Value> {
        let dtype = a.dtype();
        if dtype == DType::U64 {
            let v = a.to_vec::<u64>().unwrap();
            v.into_iter().map(|x| Value::Int(x as i128)).collect()
        } else if dtype.is_complex() {
            let v = a.to_vec::<c128>().unwrap();
            v.into_iter().map(|z| Value::Complex(z.re, z.im)).collect()
        } else if dtype.is_float() {
            let v = a.to_vec::<f64>().unwrap();
            v.into_iter().map(Value::Float).collect()
        } else {
            let v = a.to_vec::<i64>().unwrap();
            v.into_iter().map(|x| Value::Int(x as i128)).collect()
        }
    }

    struct Random(u64);
    impl Random {
        fn next(&mut self) -> u64 {
            // xorshift64*
            self.0 ^= self.0 >> 12;
            self.0 ^= self.0 << 25;
            self.0 ^= self.0 >> 27;
            self.0.wrapping_mul(0x2545f4914f6cdd1d)
        }
        fn float(&mut self) -> f64 {
            const SPECIAL: [f64; 12] = [
                0.0,
                -0.0,
                1.0,
                -1.0,
                2.5,
                f64::INFINITY,
                f64::NEG_INFINITY,
                f64::NAN,
                -f64::NAN,
                1e-3,
                -3.0,
                7.0,
            ];
            if self.next().is_multiple_of(2) {
                SPECIAL[(self.next() % 12) as usize]
            } else {
                (self.next() % 20000) as f64 / 7.0 - 1000.0
            }
        }
    }

    /// A cpu array of `dtype` with duplicates, both signs, NaN, -0.0 and infinities.
    fn random_array(dtype: DType, shape: &[usize], r: &mut Random) -> Array {
        let n: usize = shape.iter().product();
        let shape = shape.to_vec();
        match dtype {
            DType::Bool => {
                Array::from_vec((0..n).map(|_| r.next().is_multiple_of(2)).collect(), shape)
            }
            DType::U64 => Array::from_vec(
                (0..n)
                    .map(|_| match r.next() % 3 {
                        0 => r.next() % 5,
                        _ => r.next(),
                    })
                    .collect::<Vec<u64>>(),
                shape,
            ),
            d if d.is_complex() => Array::from_vec(
                (0..n)
                    .map(|_| c128::new(r.float(), r.float()))
                    .collect::<Vec<_>>(),
                shape,
            )
            .astype(d)
            .unwrap(),
            d if d.is_float() => Array::from_vec((0..n).map(|_| r.float()).collect(), shape)
                .astype(d)
                .unwrap(),
            d => Array::from_vec(
                (0..n)
                    .map(|_| match r.next() % 3 {
                        0 => (r.next() % 7) as i64 - 3,
                        _ => r.next() as i64,
                    })
                    .collect::<Vec<i64>>(),
                shape,
            )
            .astype(d)
            .unwrap(),
        }
    }

    /// A stable argsort of each row on the host.
    fn host_argsort(v: &[Value], len: usize, descending: bool) -> Vec<i64> {
        let mut out = Vec::with_capacity(v.len());
        for row in v.chunks(len) {
            let mut index: Vec<usize> = (0..len).collect();
            if descending {
                index.sort_by(|&i, &j| order(&row[j], &row[i]));
            } else {
                index.sort_by(|&i, &j| order(&row[i], &row[j]));
            }
            out.extend(index.into_iter().map(|i| i as i64));
        }
        out
    }

    #[test]
    fn gpu_sort_matches_the_cpu() {
        if crate::device::gpu::availability().is_err() {
            assert!(
                std::env::var_os("ARRSH_REQUIRE_GPU").is_none(),
                "gpu_sort_matches_the_cpu needs a gpu and ARRSH_REQUIRE_GPU is set"
            );
            println!("skipped: no gpu");
            return;
        }
        let mut r = Random(0x9e3779b97f4a7c15);
        let shapes: [&[usize]; 9] = [
            &[0],
            &[],
            &[1],
            &[5],
            &[1000],
            &[70000],
            &[3, 5000],
            &[600, 7],
            &[4, 1],
        ];
        for &dtype in &crate::base::dtype::ALL {
            for shape in shapes {
                let cpu = random_array(dtype, shape, &mut r);
                let host = values(&cpu);
                let on_gpu = cpu.to_device(Device::Gpu).unwrap();
                let len = shape.last().copied().unwrap_or(1);
                for descending in [false, true] {
                    let what = format!("{dtype} {shape:?} descending={descending}");
                    let expected = if host.is_empty() {
                        vec![]
                    } else {
                        host_argsort(&host, len, descending)
                    };
                    let positions = argsort_last_axis(&on_gpu, descending).unwrap();
                    assert_eq!(positions.dtype(), DType::I64, "{what}");
                    assert_eq!(positions.shape(), shape, "{what}");
                    let positions = positions.to_vec::<i64>().unwrap();
                    assert!(positions == expected, "argsort {what}");

                    let sorted = sort_last_axis(&on_gpu, descending).unwrap();
                    assert_eq!(sorted.dtype(), dtype, "{what}");
                    assert_eq!(sorted.shape(), shape, "{what}");
                    let sorted = values(&sorted);
                    for (i, (got, &p)) in sorted.iter().zip(&expected).enumerate() {
                        let want = host[i - i % len + p as usize];
                        assert_eq!(order(got, &want), Ordering::Equal, "sort {what} at {i}");
                    }
                }
            }
            // searchsorted: into a sorted 1-d array, values of another shape.
            let sorted_cpu = random_array(dtype, &[1000], &mut r);
            let sorted =
                sort_last_axis(&sorted_cpu.to_device(Device::Gpu).unwrap(), false).unwrap();
            let hs = values(&sorted);
            let probes = random_array(dtype, &[3, 700], &mut r);
            let hp = values(&probes);
            let probes = probes.to_device(Device::Gpu).unwrap();
            for right in [false, true] {
                let got = searchsorted(&sorted, &probes, right).unwrap();
                assert_eq!(got.shape(), &[3, 700]);
                let got = got.to_vec::<i64>().unwrap();
                for (g, v) in got.iter().zip(&hp) {
                    let want = if right {
                        hs.partition_point(|s| order(s, v) != Ordering::Greater)
                    } else {
                        hs.partition_point(|s| order(s, v) == Ordering::Less)
                    };
                    assert_eq!(*g, want as i64, "searchsorted {dtype} right={right}");
                }
            }
        }
        // bincount: a shared-memory and a global-atomics length, and a minlength past the values.
        for (n, range, length) in [
            (0, 5, 7),
            (1, 5, 5),
            (1000, 5, 7),
            (70000, 3, 3),
            (70000, 4096, 4096),
            (70000, 5000, 6000),
            (3, 1, 100_000),
        ] {
            let x: Vec<i64> = (0..n)
                .map(|_| match r.next() % 4 {
                    0 => 0,
                    _ => (r.next() % range) as i64,
                })
                .collect();
            let w: Vec<f64> = (0..n).map(|_| (r.next() % 1000) as f64 / 8.0).collect();
            let (mut counts, mut sums) = (vec![0i64; length], vec![0f64; length]);
            for (&b, &v) in x.iter().zip(&w) {
                counts[b as usize] += 1;
                sums[b as usize] += v;
            }
            let xg = Array::from_vec(x, vec![n]).to_device(Device::Gpu).unwrap();
            let wg = Array::from_vec(w, vec![n]).to_device(Device::Gpu).unwrap();
            let got = bincount(&xg, None, length).unwrap();
            assert_eq!(got.dtype(), DType::I64);
            assert_eq!(got.to_vec::<i64>().unwrap(), counts, "bincount n={n}");
            let got = bincount(&xg, Some(&wg), length).unwrap();
            assert_eq!(got.dtype(), DType::F64);
            // Multiples of 1/8 add exactly, in any order.
            assert_eq!(
                got.to_vec::<f64>().unwrap(),
                sums,
                "weighted bincount n={n}"
            );
        }
    }
}
