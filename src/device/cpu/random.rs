//! The session's seedable random number generator.
//!
//! A master PCG64 (the same XSL-RR 128/64 generator as NumPy's default
//! `PCG64` bit generator, though seeded differently, so the numbers are not
//! NumPy's) hands each fill call one 64-bit key. The output is cut into
//! fixed-size chunks, and chunk `c` is filled by its own PCG64 seeded from
//! `(key, c)`. Chunks are filled in parallel, yet the numbers depend only on the
//! seed, the sequence of calls and their lengths, never on the thread count.
//! (Like any chunked scheme, one fill of `2n` is not two fills of `n`.)

use std::collections::hash_map::RandomState;
use std::hash::BuildHasher;
use std::time::SystemTime;

use rand::rngs::SysRng;
use rand::{Rng as _, RngExt as _, SeedableRng};
use rand_distr::{Binomial, Distribution, Exp1, Poisson, StandardNormal};
use rand_pcg::Pcg64;
use rayon::prelude::*;

use super::threads;

/// Elements per independently seeded chunk. Part of the stream definition:
/// changing it changes the numbers a seed produces.
const CHUNK_LEN: usize = 1 << 16;

/// 2⁻⁵³ and 2⁻²⁴: one unit in the last place of a float in [0, 1).
const F64_UNIT: f64 = 1.0 / (1u64 << 53) as f64;
const F32_UNIT: f32 = 1.0 / (1u32 << 24) as f32;

/// A distribution's parameter: one value for every element, or one per element.
#[derive(Clone, Copy, Debug)]
pub enum Param<'a, T> {
    All(T),
    Each(&'a [T]),
}

impl<T: Copy> Param<'_, T> {
    fn at(&self, i: usize) -> T {
        match self {
            Param::All(v) => *v,
            Param::Each(values) => values[i],
        }
    }
}

#[derive(Clone, Debug)]
pub struct Rng {
    master: Pcg64,
}

impl Rng {
    /// A generator seeded from the operating system's entropy source.
    pub fn new_from_entropy() -> Self {
        let master = Pcg64::try_from_rng(&mut SysRng).unwrap_or_else(|_| {
            // No OS entropy (very unusual): std's per-process random hash keys
            // mixed with the clock are still unpredictable enough for arrays.
            Pcg64::seed_from_u64(RandomState::new().hash_one(SystemTime::now()))
        });
        Rng { master }
    }

    /// A generator whose whole stream is determined by `seed`.
    pub fn from_seed(seed: u64) -> Self {
        Rng {
            master: Pcg64::seed_from_u64(seed),
        }
    }

    /// Restarts this generator from `seed` (the language's `seed(n)`).
    pub fn seed(&mut self, seed: u64) {
        *self = Self::from_seed(seed);
    }

    /// Uniform floats in `[0, 1)`, with 53 random bits each.
    pub fn fill_uniform_f64(&mut self, out: &mut [f64]) {
        self.fill_chunks(out, |rng, _, chunk| {
            for x in chunk {
                *x = (rng.next_u64() >> 11) as f64 * F64_UNIT;
            }
        });
    }

    /// Uniform floats in `[0, 1)`, with 24 random bits each (two per 64-bit draw).
    pub fn fill_uniform_f32(&mut self, out: &mut [f32]) {
        self.fill_chunks(out, |rng, _, chunk| {
            let mut pairs = chunk.chunks_exact_mut(2);
            for pair in &mut pairs {
                let bits = rng.next_u64();
                pair[0] = (bits >> 40) as f32 * F32_UNIT;
                pair[1] = ((bits >> 8) & 0xff_ffff) as f32 * F32_UNIT;
            }
            for x in pairs.into_remainder() {
                *x = (rng.next_u64() >> 40) as f32 * F32_UNIT;
            }
        });
    }

    /// Standard normal samples (mean 0, variance 1), by the ziggurat method.
    pub fn fill_normal_f64(&mut self, out: &mut [f64]) {
        self.fill_chunks(out, |rng, _, chunk| {
            for x in chunk {
                *x = rng.sample(StandardNormal);
            }
        });
    }

    /// Standard normal samples in single precision.
    pub fn fill_normal_f32(&mut self, out: &mut [f32]) {
        self.fill_chunks(out, |rng, _, chunk| {
            for x in chunk {
                *x = rng.sample::<f32, _>(StandardNormal);
            }
        });
    }

    /// Uniform integers in `[low, high)`, without modulo bias; errors when `high <= low`.
    pub fn fill_randint(&mut self, out: &mut [i64], low: i64, high: i64) -> Result<(), String> {
        if high <= low {
            return Err("low >= high".to_string());
        }
        self.fill_integers(out, Param::All(low), Param::All(high - 1));
        Ok(())
    }

    /// Uniform integers in `[low, high]`, both included, without modulo bias; the caller has
    /// checked that `low <= high` for every element.
    pub fn fill_integers(&mut self, out: &mut [i64], low: Param<i64>, high: Param<i64>) {
        self.fill_each(out, |rng, i| {
            let (low, high) = (low.at(i), high.at(i));
            low.wrapping_add(bounded(rng, high.wrapping_sub(low) as u64) as i64)
        });
    }

    /// Normal samples of mean `loc` and standard deviation `scale`: `loc + scale * z`.
    pub fn fill_normal(&mut self, out: &mut [f64], loc: f64, scale: f64) {
        self.fill_chunks(out, |rng, _, chunk| {
            for x in chunk {
                *x = loc + scale * rng.sample::<f64, _>(StandardNormal);
            }
        });
    }

    /// Uniform floats in `[low, low + span)`: `low + span * u`.
    pub fn fill_uniform(&mut self, out: &mut [f64], low: f64, span: f64) {
        self.fill_chunks(out, |rng, _, chunk| {
            for x in chunk {
                *x = low + span * ((rng.next_u64() >> 11) as f64 * F64_UNIT);
            }
        });
    }

    /// Exponential samples of mean `scale`, by the ziggurat method.
    pub fn fill_exponential(&mut self, out: &mut [f64], scale: f64) {
        self.fill_chunks(out, |rng, _, chunk| {
            for x in chunk {
                *x = scale * rng.sample::<f64, _>(Exp1);
            }
        });
    }

    /// Poisson counts; the caller has checked each `lam` is in `[0, 1.844e19]`.
    pub fn fill_poisson(&mut self, out: &mut [i64], lam: Param<f64>) {
        let common = match lam {
            Param::All(lam) => Some(Poisson::new(lam).ok()),
            Param::Each(_) => None,
        };
        self.fill_each(out, |rng, i| {
            // `Poisson::new` refuses lam = 0, whose count is always 0.
            let distribution = common.unwrap_or_else(|| Poisson::new(lam.at(i)).ok());
            distribution.map_or(0, |d| d.sample(rng) as i64)
        });
    }

    /// Binomial counts of `n` trials of probability `p`; the caller has checked `n >= 0` and
    /// `0 <= p <= 1` for each element.
    pub fn fill_binomial(&mut self, out: &mut [i64], n: Param<i64>, p: Param<f64>) {
        let common = match (n, p) {
            (Param::All(n), Param::All(p)) => Some(Binomial::new(n as u64, p).ok()),
            _ => None,
        };
        self.fill_each(out, |rng, i| {
            let distribution =
                common.unwrap_or_else(|| Binomial::new(n.at(i) as u64, p.at(i)).ok());
            distribution.map_or(0, |d| d.sample(rng) as i64)
        });
    }

    /// A random permutation of `0..n` (Fisher–Yates), from one stream.
    pub fn permutation(&mut self, n: usize) -> Vec<i64> {
        let mut order: Vec<i64> = (0..n as i64).collect();
        let mut rng = chunk_rng(self.master.next_u64(), 0);
        for i in (1..n).rev() {
            let j = bounded(&mut rng, i as u64) as usize;
            order.swap(i, j);
        }
        order
    }

    /// Fills `out` element by element, `sample` given the generator and the element's index.
    fn fill_each<T: Send>(
        &mut self,
        out: &mut [T],
        sample: impl Fn(&mut Pcg64, usize) -> T + Sync,
    ) {
        self.fill_chunks(out, |rng, start, chunk| {
            for (k, x) in chunk.iter_mut().enumerate() {
                *x = sample(rng, start + k);
            }
        });
    }

    /// Fills `out` chunk by chunk, each chunk from its own generator keyed by
    /// this call's key and the chunk's index; `fill` is given the chunk's first index.
    fn fill_chunks<T: Send>(
        &mut self,
        out: &mut [T],
        fill: impl Fn(&mut Pcg64, usize, &mut [T]) + Sync,
    ) {
        let key = self.master.next_u64();
        let fill_chunk = |(index, chunk): (usize, &mut [T])| {
            let mut rng = chunk_rng(key, index as u64);
            fill(&mut rng, index * CHUNK_LEN, chunk);
        };
        if out.len() <= CHUNK_LEN {
            out.chunks_mut(CHUNK_LEN).enumerate().for_each(fill_chunk);
        } else {
            threads::install(|| {
                out.par_chunks_mut(CHUNK_LEN)
                    .enumerate()
                    .for_each(fill_chunk)
            });
        }
    }
}

/// Uniform in `[0, span]` (`span = u64::MAX`: every u64) by Lemire's method: `x·range / 2^64`
/// is uniform once the low halves below `2^64 mod range` (the over-represented ones) are
/// rejected; the threshold's division is needed only when the low half is below `range`.
fn bounded(rng: &mut Pcg64, span: u64) -> u64 {
    let Some(range) = span.checked_add(1) else {
        return rng.next_u64();
    };
    let mut product = u128::from(rng.next_u64()) * u128::from(range);
    if (product as u64) < range {
        let threshold = range.wrapping_neg() % range;
        while (product as u64) < threshold {
            product = u128::from(rng.next_u64()) * u128::from(range);
        }
    }
    (product >> 64) as u64
}

/// The generator for chunk `index` of the fill keyed by `key`.
fn chunk_rng(key: u64, index: u64) -> Pcg64 {
    // Adding an odd constant times the index keeps seeds distinct for distinct
    // chunks; splitmix64's finaliser (a bijection) spreads them over all bits.
    let mut z = key.wrapping_add(index.wrapping_mul(0x9e37_79b9_7f4a_7c15));
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    Pcg64::seed_from_u64(z ^ (z >> 31))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn mean_and_variance(values: impl Iterator<Item = f64> + Clone) -> (f64, f64) {
        let n = values.clone().count() as f64;
        let mean = values.clone().sum::<f64>() / n;
        let var = values.map(|v| (v - mean) * (v - mean)).sum::<f64>() / n;
        (mean, var)
    }

    #[test]
    fn same_seed_same_numbers() {
        let mut a = Rng::from_seed(42);
        let mut b = Rng::from_seed(42);
        let (mut x, mut y) = (vec![0.0; 200_000], vec![0.0; 200_000]);
        a.fill_uniform_f64(&mut x);
        b.fill_uniform_f64(&mut y);
        assert_eq!(x, y);
        let (mut i, mut j) = (vec![0i64; 1000], vec![0i64; 1000]);
        a.fill_randint(&mut i, -5, 5).unwrap();
        b.fill_randint(&mut j, -5, 5).unwrap();
        assert_eq!(i, j);

        // Reseeding restarts the stream; later calls continue it.
        a.seed(42);
        let mut again = vec![0.0; 200_000];
        a.fill_uniform_f64(&mut again);
        assert_eq!(again, x);
        a.fill_uniform_f64(&mut again);
        assert_ne!(again, x);

        let mut other = Rng::from_seed(43);
        other.fill_uniform_f64(&mut again);
        assert_ne!(again, x);
    }

    #[test]
    fn numbers_do_not_depend_on_thread_count() {
        let fill_all = || {
            let mut rng = Rng::from_seed(7);
            let mut u = vec![0.0f64; 300_001];
            let mut n = vec![0.0f32; 300_001];
            let mut k = vec![0i64; 300_001];
            rng.fill_uniform_f64(&mut u);
            rng.fill_normal_f32(&mut n);
            rng.fill_randint(&mut k, 0, 1000).unwrap();
            let lam: Vec<f64> = (0..300_001).map(|i| (i % 50) as f64).collect();
            let (mut counts, mut trials) = (vec![0i64; 300_001], vec![0i64; 300_001]);
            rng.fill_poisson(&mut counts, Param::Each(&lam));
            let p: Vec<f64> = lam.iter().map(|l| l / 50.0).collect();
            rng.fill_binomial(&mut trials, Param::All(40), Param::Each(&p));
            (u, n, k, counts, trials)
        };
        let one_thread = rayon::ThreadPoolBuilder::new()
            .num_threads(1)
            .build()
            .unwrap()
            .install(fill_all);
        let three_threads = rayon::ThreadPoolBuilder::new()
            .num_threads(3)
            .build()
            .unwrap()
            .install(fill_all);
        assert!(one_thread == three_threads);
    }

    #[test]
    fn uniform_statistics() {
        let mut rng = Rng::from_seed(1);
        let mut x = vec![0.0f64; 1_000_000];
        rng.fill_uniform_f64(&mut x);
        assert!(x.iter().all(|&v| (0.0..1.0).contains(&v)));
        let (mean, var) = mean_and_variance(x.iter().copied());
        assert!((mean - 0.5).abs() < 0.002, "mean {mean}");
        assert!((var - 1.0 / 12.0).abs() < 0.001, "variance {var}");

        let mut y = vec![0.0f32; 1_000_001];
        rng.fill_uniform_f32(&mut y);
        assert!(y.iter().all(|&v| (0.0..1.0).contains(&v)));
        let (mean, var) = mean_and_variance(y.iter().map(|&v| f64::from(v)));
        assert!((mean - 0.5).abs() < 0.002, "mean {mean}");
        assert!((var - 1.0 / 12.0).abs() < 0.001, "variance {var}");
        // Both halves of each 64-bit draw are used and independent.
        let (even, odd): (Vec<f64>, Vec<f64>) = y
            .chunks_exact(2)
            .map(|p| (f64::from(p[0]) - 0.5, f64::from(p[1]) - 0.5))
            .unzip();
        let correlation: f64 =
            even.iter().zip(&odd).map(|(a, b)| a * b).sum::<f64>() / even.len() as f64 * 12.0;
        assert!(correlation.abs() < 0.01, "correlation {correlation}");
    }

    #[test]
    fn normal_statistics() {
        let mut rng = Rng::from_seed(2);
        let mut x = vec![0.0f64; 1_000_000];
        rng.fill_normal_f64(&mut x);
        let (mean, var) = mean_and_variance(x.iter().copied());
        assert!(mean.abs() < 0.005, "mean {mean}");
        assert!((var - 1.0).abs() < 0.01, "variance {var}");
        let within_one_sigma = x.iter().filter(|v| v.abs() < 1.0).count() as f64 / 1e6;
        assert!(
            (within_one_sigma - 0.6827).abs() < 0.003,
            "{within_one_sigma}"
        );

        let mut y = vec![0.0f32; 1_000_000];
        rng.fill_normal_f32(&mut y);
        let (mean, var) = mean_and_variance(y.iter().map(|&v| f64::from(v)));
        assert!(mean.abs() < 0.005, "mean {mean}");
        assert!((var - 1.0).abs() < 0.01, "variance {var}");
    }

    #[test]
    fn randint_range_and_uniformity() {
        let mut rng = Rng::from_seed(3);
        let mut x = vec![0i64; 700_000];
        rng.fill_randint(&mut x, -3, 4).unwrap();
        let mut counts = [0usize; 7];
        for &v in &x {
            assert!((-3..4).contains(&v));
            counts[(v + 3) as usize] += 1;
        }
        for count in counts {
            assert!((count as f64 - 100_000.0).abs() < 1_500.0, "{counts:?}");
        }

        rng.fill_randint(&mut x, 9, 10).unwrap();
        assert!(x.iter().all(|&v| v == 9));

        // The widest range there is: [i64::MIN, i64::MAX).
        rng.fill_randint(&mut x, i64::MIN, i64::MAX).unwrap();
        let negative = x.iter().filter(|&&v| v < 0).count() as f64 / x.len() as f64;
        assert!((negative - 0.5).abs() < 0.005, "{negative}");
        assert!(x.iter().all(|&v| v != i64::MAX));
    }

    #[test]
    fn permutations_and_closed_ranges() {
        let mut rng = Rng::from_seed(8);
        let identity: Vec<i64> = (0..1000).collect();
        let mut order = rng.permutation(1000);
        assert_ne!(order, identity);
        order.sort_unstable();
        assert_eq!(order, identity);

        // Every i64, both ends included.
        let mut x = vec![0i64; 100_000];
        rng.fill_integers(&mut x, Param::All(i64::MIN), Param::All(i64::MAX));
        let negative = x.iter().filter(|&&v| v < 0).count() as f64 / x.len() as f64;
        assert!((negative - 0.5).abs() < 0.01, "{negative}");

        // A bound per element: [0, 0] and [10, 12] in turn.
        let lows: Vec<i64> = (0..100_000)
            .map(|i| if i % 2 == 0 { 0 } else { 10 })
            .collect();
        let highs: Vec<i64> = lows.iter().map(|&l| if l == 0 { 0 } else { 12 }).collect();
        rng.fill_integers(&mut x, Param::Each(&lows), Param::Each(&highs));
        assert!(x.iter().step_by(2).all(|&v| v == 0));
        assert!(x.iter().skip(1).step_by(2).all(|&v| (10..=12).contains(&v)));
        assert!(x.contains(&12));
    }

    #[test]
    fn randint_rejects_empty_range() {
        let mut rng = Rng::from_seed(4);
        let mut x = vec![0i64; 4];
        let err = rng.fill_randint(&mut x, 5, 5).unwrap_err();
        assert_eq!(err, "low >= high");
        assert!(rng.fill_randint(&mut x, 1, -1).is_err());
        assert_eq!(x, vec![0; 4]);
    }

    #[test]
    fn entropy_seeded_generators_differ() {
        let mut a = Rng::new_from_entropy();
        let mut b = Rng::new_from_entropy();
        let (mut x, mut y) = (vec![0.0; 8], vec![0.0; 8]);
        a.fill_uniform_f64(&mut x);
        b.fill_uniform_f64(&mut y);
        assert_ne!(x, y);
    }

    #[test]
    fn empty_fills_are_fine() {
        let mut rng = Rng::from_seed(5);
        rng.fill_uniform_f64(&mut []);
        rng.fill_normal_f32(&mut []);
        rng.fill_randint(&mut [], 0, 1).unwrap();
    }
}
