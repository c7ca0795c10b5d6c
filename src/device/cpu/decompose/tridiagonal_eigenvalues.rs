//! The eigenvalues of a symmetric tridiagonal matrix alone, by LAPACK's `dsterf`: implicit QL
//! iterations in the root-free variant of Pal, Walker and Kahan, which works with the squares
//! of the off-diagonal and needs no square root a rotation. faer's QR iteration builds a Givens
//! rotation (with a hypotenuse) per step: on the 16-core host it took 40 ms of `eigvalsh` 1000²,
//! and on the 2-core machine about twice the time of LAPACK's `dsterf` (profiled, one thread).

/// Iterations allowed per eigenvalue, as LAPACK.
const MAX_ITERATIONS: usize = 30;

/// Overwrites `d` (the diagonal) with the eigenvalues in ascending order; `e` (the off-diagonal,
/// at least `d.len() - 1` long) is destroyed. False when some eigenvalue did not converge within
/// `MAX_ITERATIONS · n` iterations.
pub fn tridiagonal_eigenvalues(d: &mut [f64], e: &mut [f64]) -> bool {
    let n = d.len();
    if !d
        .iter()
        .chain(&e[..n.saturating_sub(1)])
        .all(|x| x.is_finite())
    {
        return false;
    }
    let eps = f64::EPSILON / 2.0;
    let eps2 = eps * eps;
    let safe_min = f64::MIN_POSITIVE;
    let scaled_max = (1.0 / safe_min).sqrt() / 3.0;
    let scaled_min = safe_min.sqrt() / eps2;
    let max_iterations = MAX_ITERATIONS * n;
    let mut iterations = 0;
    let mut first = 0;
    while first < n {
        if first > 0 {
            e[first - 1] = 0.0;
        }
        // The block `first ..= last` ends at the first negligible off-diagonal element.
        let mut last = n - 1;
        for m in first..n - 1 {
            if e[m].abs() <= d[m].abs().sqrt() * d[m + 1].abs().sqrt() * eps {
                e[m] = 0.0;
                last = m;
                break;
            }
        }
        let block = first..last + 1;
        first = last + 1;
        if block.len() == 1 {
            continue;
        }
        let norm = d[block.clone()]
            .iter()
            .chain(&e[block.start..block.end - 1])
            .fold(0.0f64, |m, x| m.max(x.abs()));
        if norm == 0.0 {
            continue;
        }
        let scale = if norm > scaled_max {
            scaled_max / norm
        } else if norm < scaled_min {
            scaled_min / norm
        } else {
            1.0
        };
        if scale != 1.0 {
            d[block.clone()].iter_mut().for_each(|x| *x *= scale);
            e[block.start..block.end - 1]
                .iter_mut()
                .for_each(|x| *x *= scale);
        }
        e[block.start..block.end - 1]
            .iter_mut()
            .for_each(|x| *x *= *x);
        // As LAPACK, iterate from the end of the block with the smaller diagonal element (graded
        // matrices converge from there): QL from the top, or QR from the bottom, which is QL on
        // the block reversed. The eigenvalues are sorted at the end.
        let reversed = d[block.end - 1].abs() < d[block.start].abs();
        if reversed {
            d[block.clone()].reverse();
            e[block.start..block.end - 1].reverse();
        }
        let converged = ql(d, e, block.clone(), &mut iterations, max_iterations, eps2);
        if scale != 1.0 {
            d[block.clone()].iter_mut().for_each(|x| *x /= scale);
        }
        if !converged {
            return false;
        }
    }
    d.sort_by(f64::total_cmp);
    true
}

/// QL iterations on `block` (`e` holds the squares of its off-diagonal), from its top.
fn ql(
    d: &mut [f64],
    e: &mut [f64],
    block: std::ops::Range<usize>,
    iterations: &mut usize,
    max_iterations: usize,
    eps2: f64,
) -> bool {
    let (mut l, end) = (block.start, block.end - 1);
    while l <= end {
        let m = (l..end)
            .find(|&m| e[m].abs() <= eps2 * (d[m] * d[m + 1]).abs())
            .unwrap_or(end);
        if m < end {
            e[m] = 0.0;
        }
        if m == l {
            l += 1;
            continue;
        }
        if m == l + 1 {
            (d[l], d[l + 1]) = eigenvalues_2x2(d[l], e[l].sqrt(), d[l + 1]);
            e[l] = 0.0;
            l += 2;
            continue;
        }
        if *iterations == max_iterations {
            return false;
        }
        *iterations += 1;
        let p = d[l];
        let root = e[l].sqrt();
        let sigma = p - root / shift_denominator((d[l + 1] - p) / (2.0 * root));
        let (mut c, mut s) = (1.0, 0.0);
        let mut gamma = d[m] - sigma;
        let mut p = gamma * gamma;
        for i in (l..m).rev() {
            let bb = e[i];
            let r = p + bb;
            if i != m - 1 {
                e[i + 1] = s * r;
            }
            let old_c = c;
            c = p / r;
            s = bb / r;
            let old_gamma = gamma;
            let alpha = d[i];
            gamma = c * (alpha - sigma) - s * old_gamma;
            d[i + 1] = old_gamma + (alpha - gamma);
            p = if c != 0.0 {
                gamma * gamma / c
            } else {
                old_c * bb
            };
        }
        e[l] = s * p;
        d[l] = sigma + gamma;
    }
    true
}

/// Wilkinson's shift is `p - root / (σ + sign(σ)·√(σ² + 1))`; this is the denominator.
fn shift_denominator(sigma: f64) -> f64 {
    let r = sigma.hypot(1.0);
    sigma + if sigma >= 0.0 { r } else { -r }
}

/// LAPACK's `dlae2`: the eigenvalues of `[[a, b], [b, c]]`, the larger in absolute value first.
fn eigenvalues_2x2(a: f64, b: f64, c: f64) -> (f64, f64) {
    let sum = a + c;
    let difference = (a - c).abs();
    let twice_b = (b + b).abs();
    let (larger, smaller) = if a.abs() > c.abs() { (a, c) } else { (c, a) };
    let root = if difference > twice_b {
        difference * (1.0 + (twice_b / difference).powi(2)).sqrt()
    } else if difference < twice_b {
        twice_b * (1.0 + (difference / twice_b).powi(2)).sqrt()
    } else {
        twice_b * std::f64::consts::SQRT_2
    };
    if sum == 0.0 {
        return (0.5 * root, -0.5 * root);
    }
    let first = 0.5 * if sum < 0.0 { sum - root } else { sum + root };
    (first, (larger / first) * smaller - (b / first) * b)
}
