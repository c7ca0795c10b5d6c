//! NumPy's pairwise summation (8 accumulators in blocks of 128, halves recursively), so that
//! sums match NumPy's to the last bit on contiguous data; large halves run on separate cores.

const BLOCK: usize = 128;
const PARALLEL_BELOW: usize = 1 << 16;

/// `sum(x)` the way NumPy's add.reduce does it: the first element, plus the pairwise sum of the rest.
pub fn numpy_sum(values: &[f64]) -> f64 {
    match values.split_first() {
        None => 0.0,
        Some((first, rest)) => first + pairwise_sum(rest),
    }
}

pub fn pairwise_sum(a: &[f64]) -> f64 {
    let n = a.len();
    if n < 8 {
        let mut res = 0.0;
        for &x in a {
            res += x;
        }
        res
    } else if n <= BLOCK {
        let mut r = [0.0f64; 8];
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
        if n >= PARALLEL_BELOW {
            let (l, r) = rayon::join(|| pairwise_sum(left), || pairwise_sum(right));
            l + r
        } else {
            pairwise_sum(left) + pairwise_sum(right)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sums_exactly_representable_values() {
        let v: Vec<f64> = (0..100_000).map(|i| i as f64).collect();
        assert_eq!(numpy_sum(&v), 4_999_950_000.0);
        assert_eq!(numpy_sum(&[]), 0.0);
        assert_eq!(numpy_sum(&[0.5]), 0.5);
    }

    #[test]
    fn is_more_accurate_than_a_running_sum() {
        let v = vec![0.1f64; 1_000_000];
        let naive: f64 = v.iter().sum();
        let pairwise = numpy_sum(&v);
        assert!((pairwise - 100_000.0).abs() < (naive - 100_000.0).abs());
    }
}
