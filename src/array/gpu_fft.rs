//! The gpu side of `fft`: a transform as cuFFT plans over a C-ordered array. Up to three
//! consecutive transformed axes are one plan, whose signals are the lanes over those axes,
//! batched over the axes after them (strided signals) or before them (contiguous ones); with axes
//! both before and after, the plan runs once per index of those before, or on a copy with the
//! run's axes moved last. A real-to-complex transform takes the axes just before its real axis
//! into its plan (`rfft2` of an image is one 2-d plan, as CuPy's); a complex-to-real one transforms
//! the other axes first and then its real axis alone, as NumPy does, so that its result is NumPy's
//! for any input (a multi-axis complex-to-real plan assumes a Hermitian-symmetric one).

use super::join::part;
use super::ops::{self, Operand};
use super::shape::moveaxis;
use super::Array;
use crate::base::Scalar;
use crate::device::gpu::fft::{FftKind, FftLayout, Signals};
use crate::error::Result;
use crate::plan::table::Op;

/// Axes before a plan's past which the plan is not run once per index of them, but on a copy
/// with its axes moved last.
const LOOPED_PLANS: usize = 8;

/// The transform of a C-ordered gpu `input` (already of the transform's dtype and size; `fresh`
/// when it is a copy of the caller's) along `axes` (distinct; the real axis last), `n` points
/// along the real axis, then the scale as one elementwise pass.
pub(super) fn transform(
    input: Array,
    fresh: bool,
    kind: FftKind,
    axes: &[usize],
    n: usize,
    inverse: bool,
    scale: f64,
) -> Result<Array> {
    let real_axis = axes[axes.len() - 1];
    let others = &axes[..axes.len() - 1];
    let out = match kind {
        FftKind::Complex => complex(&input, axes, inverse)?,
        FftKind::RealToComplex => {
            let mut run = vec![real_axis];
            while run.len() < 3 && run[0] > 0 && others.contains(&(run[0] - 1)) {
                run.insert(0, run[0] - 1);
            }
            let y = one_plan(&input, kind, &run, false, n)?;
            let rest: Vec<usize> = others
                .iter()
                .copied()
                .filter(|a| !run.contains(a))
                .collect();
            if rest.is_empty() {
                y
            } else {
                complex(&y, &rest, false)?
            }
        }
        FftKind::ComplexToReal => {
            // cuFFT's complex-to-real plans overwrite their input: it must be a copy.
            let y = if !others.is_empty() {
                complex(&input, others, true)?.contiguous()?
            } else if fresh {
                input
            } else {
                input.copy()?
            };
            drop_ignored_imaginary_parts(&y, real_axis, n)?;
            one_plan(&y, kind, &[real_axis], true, n)?
        }
    };
    if scale == 1.0 {
        Ok(out)
    } else {
        ops::with_scalar(Op::Multiply, &out, Scalar::Float(scale))
    }
}

/// Complex transforms along `axes`, consecutive axes together in plans of up to three, the last
/// axes first.
fn complex(x: &Array, axes: &[usize], inverse: bool) -> Result<Array> {
    let mut sorted = axes.to_vec();
    sorted.sort_unstable();
    let mut runs: Vec<Vec<usize>> = Vec::new();
    for &axis in sorted.iter().rev() {
        match runs.last_mut() {
            Some(run) if run.len() < 3 && run[0] == axis + 1 => run.insert(0, axis),
            _ => runs.push(vec![axis]),
        }
    }
    runs.iter().try_fold(x.clone(), |y, run| {
        one_plan(&y.contiguous()?, FftKind::Complex, run, inverse, 0)
    })
}

/// NumPy ignores the imaginary parts of the zero frequency and, for an even `n`, of the last;
/// cuFFT would read them: they are zeroed first (in `y`, a copy the caller owns).
fn drop_ignored_imaginary_parts(y: &Array, axis: usize, n: usize) -> Result<()> {
    let half = n / 2 + 1;
    let mut lanes = vec![0];
    if n.is_multiple_of(2) && half > 1 {
        lanes.push(half - 1);
    }
    for k in lanes {
        let lane = part(y, axis, k, 1);
        ops::assign(&lane, Operand::Array(&ops::real(&lane)?))?;
    }
    Ok(())
}

/// How one plan covers the consecutive axes `run` of a C-ordered array of `shape`: its layout,
/// how many times it runs, the elements between one run's input (output) and the next's, and the
/// result's shape. `None` when the run should be moved last first.
#[derive(Debug)]
struct Cover {
    layout: FftLayout,
    runs: usize,
    input_step: usize,
    output_step: usize,
    out_shape: Vec<usize>,
}

fn cover(shape: &[usize], kind: FftKind, run: &[usize], n: usize) -> Option<Cover> {
    let (first, end) = (run[0], run[run.len() - 1] + 1);
    let outer: usize = shape[..first].iter().product();
    let inner: usize = shape[end..].iter().product();
    if outer > LOOPED_PLANS && inner > 1 {
        return None;
    }
    let in_dims = shape[first..end].to_vec();
    let mut out_dims = in_dims.clone();
    let last = out_dims.len() - 1;
    let lengths = match kind {
        FftKind::Complex => in_dims.clone(),
        FftKind::RealToComplex => {
            out_dims[last] = in_dims[last] / 2 + 1;
            in_dims.clone()
        }
        FftKind::ComplexToReal => {
            out_dims[last] = n;
            out_dims.clone()
        }
    };
    let mut out_shape = shape.to_vec();
    out_shape[first..end].copy_from_slice(&out_dims);
    let (in_block, out_block) = (
        in_dims.iter().product::<usize>(),
        out_dims.iter().product::<usize>(),
    );
    let signals = |dims: &[usize], block: usize| Signals {
        embed: dims.iter().map(|&d| d as i64).collect(),
        stride: inner as i64,
        distance: if inner == 1 { block as i64 } else { 1 },
    };
    Some(Cover {
        layout: FftLayout {
            lengths: lengths.iter().map(|&d| d as i64).collect(),
            batch: if inner == 1 { outer } else { inner } as i64,
            input: signals(&in_dims, in_block),
            output: signals(&out_dims, out_block),
        },
        runs: if inner == 1 { 1 } else { outer },
        input_step: in_block * inner,
        output_step: out_block * inner,
        out_shape,
    })
}

/// One plan over the consecutive axes `run` of a C-ordered `x`, into a new array (or, when the
/// run is moved last first, a view of one with the axes back in place). `n` is a real
/// transform's length.
fn one_plan(x: &Array, kind: FftKind, run: &[usize], inverse: bool, n: usize) -> Result<Array> {
    let Some(cover) = cover(x.shape(), kind, run, n) else {
        let ndim = x.ndim();
        let from: Vec<i64> = run.iter().map(|&a| a as i64).collect();
        let last: Vec<usize> = (ndim - run.len()..ndim).collect();
        let to: Vec<i64> = last.iter().map(|&a| a as i64).collect();
        let moved = moveaxis(x, &from, &to)?.contiguous()?;
        let y = one_plan(&moved, kind, &last, inverse, n)?;
        return moveaxis(&y, &to, &from);
    };
    let out_dtype = match kind {
        FftKind::Complex => x.dtype(),
        FftKind::RealToComplex => x.dtype().complex_of(),
        FftKind::ComplexToReal => x.dtype().real(),
    };
    let out = super::on_gpu::empty(&cover.out_shape, out_dtype)?;
    if out.size() == 0 {
        return Ok(out);
    }
    let (source, target) = (super::on_gpu::pointer(x)?, super::on_gpu::pointer(&out)?);
    let g = crate::device::gpu::gpu()?;
    for k in 0..cover.runs {
        g.fft(
            kind,
            x.dtype().real(),
            &cover.layout,
            source + (k * cover.input_step * x.dtype().size()) as u64,
            target + (k * cover.output_step * out_dtype.size()) as u64,
            inverse,
        )?;
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    //! The plans' layouts, checked without a gpu: cuFFT's advanced layout as its documentation
    //! defines it, computed by the textbook sum, against the cpu's transforms.

    use super::*;
    use crate::device::cpu::fft as cpu_fft;
    use num_complex::Complex;

    type C = Complex<f64>;

    /// Every multi-index of `dims`, in C order.
    fn indices(dims: &[usize]) -> Vec<Vec<usize>> {
        dims.iter().fold(vec![vec![]], |all, &d| {
            all.iter()
                .flat_map(|i| {
                    (0..d).map(move |k| {
                        let mut i = i.clone();
                        i.push(k);
                        i
                    })
                })
                .collect()
        })
    }

    /// Where element `x` of a signal lies: `((x0 * embed[1] + x1) * embed[2] + x2) * stride`.
    fn offset(x: &[usize], s: &Signals) -> usize {
        let linear = x.iter().enumerate().fold(0, |acc, (d, &v)| {
            if d == 0 {
                v
            } else {
                acc * s.embed[d] as usize + v
            }
        });
        linear * s.stride as usize
    }

    /// One plan execution as cuFFT documents it (forward for complex transforms; a
    /// complex-to-real plan of one axis extends its half spectrum as a Hermitian one).
    fn emulate(kind: FftKind, l: &FftLayout, input: &[C], output: &mut [C]) {
        let lengths: Vec<usize> = l.lengths.iter().map(|&d| d as usize).collect();
        let half = |mut dims: Vec<usize>| {
            let last = dims.len() - 1;
            dims[last] = dims[last] / 2 + 1;
            dims
        };
        let out_dims = match kind {
            FftKind::RealToComplex => half(lengths.clone()),
            _ => lengths.clone(),
        };
        let sign = if kind == FftKind::ComplexToReal {
            1.0
        } else {
            -1.0
        };
        for b in 0..l.batch as usize {
            let read = |x: &[usize]| input[b * l.input.distance as usize + offset(x, &l.input)];
            let signal = |x: &[usize]| match kind {
                FftKind::ComplexToReal if x[0] > lengths[0] / 2 => {
                    read(&[lengths[0] - x[0]]).conj()
                }
                FftKind::RealToComplex => C::new(read(x).re, 0.0),
                _ => read(x),
            };
            for y in indices(&out_dims) {
                let mut sum = C::new(0.0, 0.0);
                for x in indices(&lengths) {
                    let turns: f64 = (0..lengths.len())
                        .map(|d| (x[d] * y[d]) as f64 / lengths[d] as f64)
                        .sum();
                    let angle = sign * 2.0 * std::f64::consts::PI * turns;
                    sum += signal(&x) * C::new(angle.cos(), angle.sin());
                }
                if kind == FftKind::ComplexToReal {
                    sum = C::new(sum.re, 0.0);
                }
                output[b * l.output.distance as usize + offset(&y, &l.output)] = sum;
            }
        }
    }

    /// The cpu's transform of `run` (as `transform` asks for it), into a complex buffer.
    fn on_cpu(input: &[C], shape: &[usize], kind: FftKind, run: &[usize], n: usize) -> Vec<C> {
        let mut descending = run.to_vec();
        descending.reverse();
        match kind {
            FftKind::Complex => {
                let mut out = vec![C::default(); input.len()];
                cpu_fft::c2c(Some(input), &mut out, shape, &descending, false, 1.0);
                out
            }
            FftKind::RealToComplex => {
                let real: Vec<f64> = input.iter().map(|z| z.re).collect();
                let last = run[run.len() - 1];
                let mut out_shape = shape.to_vec();
                out_shape[last] = shape[last] / 2 + 1;
                let mut out = vec![C::default(); out_shape.iter().product()];
                cpu_fft::r2c(&real, shape, last, &mut out, 1.0);
                cpu_fft::c2c(None, &mut out, &out_shape, &descending[1..], false, 1.0);
                out
            }
            FftKind::ComplexToReal => {
                let size = input.len() / shape[run[0]] * n;
                let mut out = vec![0.0; size];
                cpu_fft::c2r(input, shape, run[0], n, &mut out, 1.0);
                out.into_iter().map(|v| C::new(v, 0.0)).collect()
            }
        }
    }

    #[test]
    fn every_layout_covers_its_axes_as_the_cpu_transforms_them() {
        let cases: &[(&[usize], FftKind, &[usize], usize)] = &[
            (&[12], FftKind::Complex, &[0], 0),
            (&[3, 4, 5], FftKind::Complex, &[1, 2], 0),
            (&[4, 5, 6], FftKind::Complex, &[0], 0),
            (&[2, 3, 4, 5], FftKind::Complex, &[1, 2], 0),
            (&[2, 3, 4], FftKind::Complex, &[0, 1, 2], 0),
            (&[3, 8], FftKind::RealToComplex, &[1], 0),
            (&[6, 5], FftKind::RealToComplex, &[0, 1], 0),
            (&[5, 6, 3], FftKind::RealToComplex, &[0, 1], 0),
            (&[2, 7, 3], FftKind::RealToComplex, &[1], 0),
            (&[3, 5], FftKind::ComplexToReal, &[1], 8),
            (&[3, 4], FftKind::ComplexToReal, &[0], 5),
            (&[2, 4, 3], FftKind::ComplexToReal, &[1], 6),
        ];
        for &(shape, kind, run, n) in cases {
            let size: usize = shape.iter().product();
            let input: Vec<C> = (0..size)
                .map(|k| C::new(((k * 7) % 11) as f64 - 5.0, ((k * 3) % 7) as f64 - 3.0))
                .collect();
            let input: Vec<C> = match kind {
                FftKind::RealToComplex => input.iter().map(|z| C::new(z.re, 0.0)).collect(),
                // The caller zeroes what NumPy ignores (the zero and the last frequency's
                // imaginary parts along the real axis).
                FftKind::ComplexToReal => {
                    let (len, inner) =
                        (shape[run[0]], shape[run[0] + 1..].iter().product::<usize>());
                    let mut input = input;
                    for (k, z) in input.iter_mut().enumerate() {
                        let at = k / inner % len;
                        if at == 0 || (n.is_multiple_of(2) && at == len - 1) {
                            z.im = 0.0;
                        }
                    }
                    input
                }
                FftKind::Complex => input,
            };
            let cover = cover(shape, kind, run, n).expect("a plan covers these axes");
            let mut got = vec![C::default(); cover.out_shape.iter().product()];
            for k in 0..cover.runs {
                emulate(
                    kind,
                    &cover.layout,
                    &input[k * cover.input_step..],
                    &mut got[k * cover.output_step..],
                );
            }
            let want = on_cpu(&input, shape, kind, run, n);
            let close = got.len() == want.len()
                && got.iter().zip(&want).all(|(a, b)| (a - b).norm() < 1e-9);
            assert!(close, "{kind:?} over {run:?} of {shape:?}: {:?}", cover);
        }
    }

    #[test]
    fn a_run_between_many_outer_indices_is_moved_last_first() {
        assert!(cover(&[9, 4, 2], FftKind::Complex, &[1], 0).is_none());
        assert!(cover(&[8, 4, 2], FftKind::Complex, &[1], 0).is_some());
        assert!(cover(&[100, 4], FftKind::Complex, &[1], 0).is_some());
    }
}
