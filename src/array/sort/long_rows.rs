//! Sorting one long row of keys on every core: an in-place parallel radix sort (voracious's
//! peeka sort, an MSD radix sort that moves keys between regions of the row). A row too long
//! for that sort to be the wait of an interrupt is first split by its leading digit — one
//! counting pass, interruptible like the LSD sort's — and its buckets sorted side by side, an
//! interrupt seen between them.

use rayon::prelude::*;
use voracious_radix_sort::peeka_sort;

use super::{Shared, STOP_CHECK};
use crate::base::interrupt::Stop;
use crate::device::cpu::threads;

/// Rows up to this long are sorted in one call (a few tenths of a second on 2 cores at most).
const WHOLE: usize = 1 << 24;
/// Keys each thread moves between regions at a time (peeka sort's block).
const BLOCK: usize = 1 << 20;
/// Bits of the leading digit that splits a longer row.
const SPLIT_BITS: u32 = 8;

/// A word of keys (u32 for elements of up to 4 bytes, u64 for the rest).
pub(super) trait Word: Copy + Ord + Send + Sync + Default {
    fn differs(self, other: Self) -> u64;
    fn digit(self, shift: u32) -> usize;
    /// Sorts `keys` with all the session's threads.
    fn sort_all(keys: &mut [Self]);
}

macro_rules! word {
    ($($t:ty),*) => {$(
        impl Word for $t {
            fn differs(self, other: Self) -> u64 {
                (self ^ other) as u64
            }
            fn digit(self, shift: u32) -> usize {
                ((self >> shift) as usize) & ((1 << SPLIT_BITS) - 1)
            }
            fn sort_all(keys: &mut [Self]) {
                peeka_sort(keys, 8, BLOCK, threads::count());
            }
        }
    )*};
}
word!(u32, u64);

/// Whether a row of `n` keys is long enough for this sort: 2^18 keys a thread or more. The
/// sort starts threads of its own, and below that they cost more than they save (a million
/// keys: 14 ms on 16 cores against 8 ms for the LSD sort; on 2 cores 7.9 ms against 9.3).
pub(super) fn suits(n: usize) -> bool {
    n >= threads::count() << 18
}

/// Sorts `keys` in place; an interrupt leaves them in no order (the caller reports it).
pub(super) fn sort_words<W: Word>(keys: &mut [W]) {
    let mut spare = vec![W::default(); if keys.len() > WHOLE { keys.len() } else { 0 }];
    sort_slice(keys, &mut spare, &Stop::current(), WHOLE);
}

/// Sorts `keys` (`spare` as long), in one call when they are at most `whole`.
fn sort_slice<W: Word>(keys: &mut [W], spare: &mut [W], stop: &Stop, whole: usize) {
    if stop.requested() {
        return;
    }
    if keys.len() <= whole {
        threads::install(|| W::sort_all(keys));
        return;
    }
    // The leading digit where the keys differ: keys that share their top bits would all fall
    // in one bucket of a fixed digit.
    let first = keys[0];
    let differing = threads::install(|| {
        keys.par_chunks(STOP_CHECK)
            .map(|c| c.iter().fold(0, |d, &k| d | k.differs(first)))
            .reduce(|| 0, |a, b| a | b)
    });
    if differing == 0 || stop.requested() {
        return;
    }
    let top = 63 - differing.leading_zeros();
    let shift = top.saturating_sub(SPLIT_BITS - 1);
    let buckets = 1 << SPLIT_BITS;
    let pieces = threads::count();
    let piece = keys.len().div_ceil(pieces);
    let counts: Vec<Vec<usize>> = threads::install(|| {
        keys.par_chunks(piece)
            .map(|c| {
                let mut h = vec![0usize; buckets];
                for block in c.chunks(STOP_CHECK) {
                    if stop.requested() {
                        break;
                    }
                    block.iter().for_each(|k| h[k.digit(shift)] += 1);
                }
                h
            })
            .collect()
    });
    // Where each piece's keys of each digit go, and where each bucket starts.
    let mut starts = vec![vec![0usize; buckets]; counts.len()];
    let mut edges = Vec::with_capacity(buckets + 1);
    let mut total = 0;
    for d in 0..buckets {
        edges.push(total);
        for (s, h) in starts.iter_mut().zip(&counts) {
            s[d] = total;
            total += h[d];
        }
    }
    edges.push(total);
    let out = Shared(spare.as_mut_ptr());
    threads::install(|| {
        keys.par_chunks(piece)
            .zip(starts.into_par_iter())
            .for_each(|(c, mut places)| {
                for (i, &k) in c.iter().enumerate() {
                    if i % STOP_CHECK == 0 && stop.requested() {
                        return;
                    }
                    let d = k.digit(shift);
                    // SAFETY: `places[d]` is inside this piece's share of the positions.
                    unsafe { out.write(places[d], k) };
                    places[d] += 1;
                }
            })
    });
    if stop.requested() {
        return;
    }
    threads::install(|| {
        keys.par_chunks_mut(STOP_CHECK)
            .zip(spare.par_chunks(STOP_CHECK))
            .for_each(|(k, s)| k.copy_from_slice(s))
    });
    // Buckets that fit one call are sorted side by side, a thread each; longer ones (keys
    // crowded under one digit) are split again.
    let mut small: Vec<&mut [W]> = Vec::with_capacity(buckets);
    let (mut rest, mut rest_spare) = (keys, spare);
    for bucket in edges.windows(2) {
        let len = bucket[1] - bucket[0];
        let (this, after) = rest.split_at_mut(len);
        let (this_spare, after_spare) = rest_spare.split_at_mut(len);
        (rest, rest_spare) = (after, after_spare);
        if len > whole {
            sort_slice(this, this_spare, stop, whole);
        } else if len > 1 {
            small.push(this);
        }
    }
    threads::install(|| {
        small.into_par_iter().for_each(|b| {
            if !stop.requested() {
                b.sort_unstable();
            }
        })
    });
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Split rows give the order of the standard library's sort, whatever the keys' spread.
    #[test]
    fn split_rows_are_sorted() {
        let mut state = 0x2545_f491_4f6c_dd1d_u64;
        let mut next = move || {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state
        };
        let spreads: [&dyn Fn(u64) -> u64; 4] = [
            &|r| r,
            // Shared top bits, and a few keys far below: most fall under one leading digit.
            &|r| {
                if r % 100 == 0 {
                    r >> 40
                } else {
                    (1 << 63) | (r >> 20)
                }
            },
            &|r| r % 3,
            &|_| 7,
        ];
        for spread in spreads {
            let keys: Vec<u64> = (0..50_000).map(|_| spread(next())).collect();
            let mut sorted = keys.clone();
            let mut spare = vec![0; keys.len()];
            sort_slice(&mut sorted, &mut spare, &Stop::current(), 1000);
            let mut expected = keys.clone();
            expected.sort_unstable();
            assert_eq!(sorted, expected);
            let narrow: Vec<u32> = keys.iter().map(|&k| (k >> 32) as u32).collect();
            let mut sorted = narrow.clone();
            let mut spare = vec![0; narrow.len()];
            sort_slice(&mut sorted, &mut spare, &Stop::current(), 1000);
            let mut expected = narrow;
            expected.sort_unstable();
            assert_eq!(sorted, expected);
        }
    }
}
