//! Searching and counting: where the true (non-zero) elements are.

use super::{on_gpu, Array};
use crate::base::DType;
use crate::device::Device;
use crate::error::Result;

/// The coordinates of the non-zero elements, one i64 array per axis (a 0-d array counts as
/// 1-d), in C order: NumPy's `nonzero`. On the gpu the count is one counted device→host copy.
pub fn nonzero(a: &Array) -> Result<Vec<Array>> {
    let mask = match a.dtype() {
        DType::Bool => a.clone(),
        _ => a.astype(DType::Bool)?,
    };
    if a.device() == Device::Gpu {
        return on_gpu::nonzero(&mask);
    }
    let shape: Vec<usize> = if a.ndim() == 0 {
        vec![1]
    } else {
        a.shape().to_vec()
    };
    let flags = mask.to_vec::<bool>()?;
    let mut coordinates: Vec<Vec<i64>> = vec![Vec::new(); shape.len()];
    let mut index = vec![0usize; shape.len()];
    for keep in flags {
        if keep {
            for (c, &i) in coordinates.iter_mut().zip(&index) {
                c.push(i as i64);
            }
        }
        for d in (0..shape.len()).rev() {
            index[d] += 1;
            if index[d] < shape[d] {
                break;
            }
            index[d] = 0;
        }
    }
    Ok(coordinates
        .into_iter()
        .map(|c| {
            let n = c.len();
            Array::from_vec(c, vec![n])
        })
        .collect())
}
