//! Contractions of the main namespace: `tensordot`, `einsum`, `inner`, `vecdot`, `kron`,
//! `trace`. A contraction over shared axes is one matrix product (cuBLAS on the gpu) of the
//! operands permuted and merged to two dimensions; what is left (batch axes shared with the
//! output, broadcasting) is a broadcast product summed in one fused pass.

use super::linalg::matmul;
use super::ops::{binary, unary};
use super::reduce::{reduce_axes, Statistic};
use super::shape::{broadcast_to, diagonal, normalize_axes, permute, reshape};
use super::Array;
use crate::base::layout::Layout;
use crate::error::{shape_error, value_error, Result};
use crate::plan::reduce::Reduction;
use crate::plan::table::Op;

fn sum_over(a: &Array, axes: &[usize]) -> Result<Array> {
    if axes.is_empty() {
        return Ok(a.clone());
    }
    let axes: Vec<i64> = axes.iter().map(|&d| d as i64).collect();
    reduce_axes(
        Statistic::Reduce(Reduction::Sum),
        a,
        Some(&axes),
        false,
        0.0,
    )
}

fn dims(shape: &[usize]) -> Vec<i64> {
    shape.iter().map(|&n| n as i64).collect()
}

/// `tensordot`: the sum over `a_axes` of `a` against `b_axes` of `b`; the result has a's other
/// axes, then b's.
pub fn tensordot(a: &Array, b: &Array, a_axes: &[i64], b_axes: &[i64]) -> Result<Array> {
    if a_axes.len() != b_axes.len() {
        return Err(value_error(
            "shape-mismatch for sum: the axis lists differ in length",
        ));
    }
    let (sa, sb) = (
        normalize_axes(a_axes, a.ndim())?,
        normalize_axes(b_axes, b.ndim())?,
    );
    for (&i, &j) in sa.iter().zip(&sb) {
        if a.shape()[i] != b.shape()[j] {
            return Err(shape_error(format!(
                "shape-mismatch for sum: axis {i} of a has {} elements, axis {j} of b {}",
                a.shape()[i],
                b.shape()[j]
            )));
        }
    }
    let free_a: Vec<usize> = (0..a.ndim()).filter(|d| !sa.contains(d)).collect();
    let free_b: Vec<usize> = (0..b.ndim()).filter(|d| !sb.contains(d)).collect();
    let order_a: Vec<i64> = free_a.iter().chain(&sa).map(|&d| d as i64).collect();
    let order_b: Vec<i64> = sb.iter().chain(&free_b).map(|&d| d as i64).collect();
    let inner: usize = sa.iter().map(|&d| a.shape()[d]).product();
    let rows: usize = free_a.iter().map(|&d| a.shape()[d]).product();
    let cols: usize = free_b.iter().map(|&d| b.shape()[d]).product();
    let left = reshape(&permute(a, &order_a)?, &[rows as i64, inner as i64])?;
    let right = reshape(&permute(b, &order_b)?, &[inner as i64, cols as i64])?;
    let product = matmul(&left, &right)?;
    let shape: Vec<usize> = free_a
        .iter()
        .map(|&d| a.shape()[d])
        .chain(free_b.iter().map(|&d| b.shape()[d]))
        .collect();
    reshape(&product, &dims(&shape))
}

/// `vecdot`: sum(conj(x1) * x2) along `axis`, the other axes broadcast.
pub fn vecdot(x1: &Array, x2: &Array, axis: i64) -> Result<Array> {
    let left = if x1.dtype().is_complex() {
        unary(Op::Conjugate, x1)?
    } else {
        x1.clone()
    };
    let product = binary(Op::Multiply, &left, x2)?;
    let d = super::reduce::normalize_axis(axis, product.ndim())?;
    sum_over(&product, &[d])
}

/// `inner`: the sum over the last axes of both.
pub fn inner(a: &Array, b: &Array) -> Result<Array> {
    if a.ndim() == 0 || b.ndim() == 0 {
        return binary(Op::Multiply, a, b);
    }
    tensordot(a, b, &[-1], &[-1])
}

/// `kron`: the Kronecker product (block matrix of a's elements times b).
pub fn kron(a: &Array, b: &Array) -> Result<Array> {
    let n = a.ndim().max(b.ndim());
    let pad = |x: &Array| -> Result<Array> {
        let mut shape = vec![1i64; n - x.ndim()];
        shape.extend(dims(x.shape()));
        reshape(x, &shape)
    };
    let (a, b) = (pad(a)?, pad(b)?);
    // a as (a0, 1, a1, 1, ...), b as (1, b0, 1, b1, ...): their product merged pairwise.
    let spread = |x: &Array, first: bool| -> Result<Array> {
        let shape: Vec<i64> = x
            .shape()
            .iter()
            .flat_map(|&s| if first { [s as i64, 1] } else { [1, s as i64] })
            .collect();
        reshape(x, &shape)
    };
    let product = binary(Op::Multiply, &spread(&a, true)?, &spread(&b, false)?)?;
    let merged: Vec<i64> = (0..n)
        .map(|d| (a.shape()[d] * b.shape()[d]) as i64)
        .collect();
    reshape(&product.contiguous()?, &merged)
}

/// `trace`: the sum of diagonal `k` of the axes `axis1`, `axis2`.
pub fn trace(a: &Array, k: i64, axis1: i64, axis2: i64) -> Result<Array> {
    let d = diagonal(a, k, axis1, axis2)?;
    sum_over(&d, &[d.ndim() - 1])
}

/// One operand of an einsum: its array and one letter per axis.
struct Term {
    array: Array,
    letters: Vec<char>,
}

/// Subscripts with `...` replaced by capital letters for the broadcast axes; the output's
/// letters (given, or NumPy's implicit ones: the ellipsis, then letters used once, sorted).
fn parse(subscripts: &str, operands: &[Array]) -> Result<(Vec<Vec<char>>, Vec<char>)> {
    let text: String = subscripts.chars().filter(|c| !c.is_whitespace()).collect();
    let (inputs, output) = match text.split_once("->") {
        Some((i, o)) => (i.to_string(), Some(o.to_string())),
        None => (text.clone(), None),
    };
    let parts: Vec<&str> = inputs.split(',').collect();
    if parts.len() != operands.len() {
        return Err(value_error(format!(
            "einsum: {} operands for {} subscripts",
            operands.len(),
            parts.len()
        )));
    }
    let mut broadcast = 0;
    let mut terms = Vec::new();
    for (part, x) in parts.iter().zip(operands) {
        let named = part.replace("...", "").chars().count();
        if let Some(c) = part
            .replace("...", "")
            .chars()
            .find(|c| !c.is_ascii_lowercase())
        {
            return Err(value_error(format!(
                "einsum: invalid subscript '{c}' (use a-z)"
            )));
        }
        let extra = if part.contains("...") {
            x.ndim()
                .checked_sub(named)
                .ok_or_else(|| value_error("einsum: operand has fewer axes than subscripts"))?
        } else {
            0
        };
        broadcast = broadcast.max(extra);
        terms.push((part.to_string(), extra));
    }
    let ellipsis = |extra: usize| -> String {
        (0..extra)
            .map(|k| (b'A' + (broadcast - extra + k) as u8) as char)
            .collect()
    };
    let mut letters = Vec::new();
    for ((part, extra), x) in terms.iter().zip(operands) {
        let expanded: Vec<char> = part.replace("...", &ellipsis(*extra)).chars().collect();
        if expanded.len() != x.ndim() {
            return Err(value_error(format!(
                "einsum: operand has {} axes but its subscripts name {}",
                x.ndim(),
                expanded.len()
            )));
        }
        letters.push(expanded);
    }
    let output: Vec<char> = match output {
        Some(o) => o.replace("...", &ellipsis(broadcast)).chars().collect(),
        None => {
            let mut once: Vec<char> = ('a'..='z')
                .filter(|c| letters.iter().flatten().filter(|l| *l == c).count() == 1)
                .collect();
            let mut out: Vec<char> = ellipsis(broadcast).chars().collect();
            out.append(&mut once);
            out
        }
    };
    Ok((letters, output))
}

/// A term with each repeated letter taken once, along the diagonal of its axes (a view).
fn distinct(array: &Array, letters: &[char]) -> Result<Term> {
    let l = array.layout();
    let mut shape = Vec::new();
    let mut strides: Vec<isize> = Vec::new();
    let mut seen: Vec<char> = Vec::new();
    for (d, &c) in letters.iter().enumerate() {
        match seen.iter().position(|&s| s == c) {
            Some(k) => {
                if shape[k] != l.shape[d] {
                    return Err(shape_error(format!(
                        "einsum: axes of '{c}' differ in length"
                    )));
                }
                strides[k] += l.strides[d];
            }
            None => {
                seen.push(c);
                shape.push(l.shape[d]);
                strides.push(l.strides[d]);
            }
        }
    }
    let layout = Layout {
        shape: shape.as_slice().into(),
        strides: strides.as_slice().into(),
        offset: l.offset,
    };
    Ok(Term {
        array: array.with_layout(layout),
        letters: seen,
    })
}

/// `term` with its axes in the order of `order` (letters it lacks become axes of length 1).
fn aligned(term: &Term, order: &[char]) -> Result<Array> {
    let present: Vec<i64> = order
        .iter()
        .filter_map(|c| term.letters.iter().position(|l| l == c))
        .map(|d| d as i64)
        .collect();
    let moved = permute(&term.array, &present)?;
    let shape: Vec<i64> = order
        .iter()
        .map(|c| match term.letters.iter().position(|l| l == c) {
            Some(d) => term.array.shape()[d] as i64,
            None => 1,
        })
        .collect();
    reshape(&moved, &shape)
}

/// Two terms contracted over the letters they share that `keep` does not need.
fn contract(a: &Term, b: &Term, keep: &[char]) -> Result<Term> {
    let shared: Vec<char> = a
        .letters
        .iter()
        .filter(|c| b.letters.contains(c))
        .copied()
        .collect();
    let summed: Vec<char> = shared
        .iter()
        .filter(|c| !keep.contains(c))
        .copied()
        .collect();
    let batch: Vec<char> = shared
        .iter()
        .filter(|c| keep.contains(c))
        .copied()
        .collect();
    let only_a: Vec<char> = a
        .letters
        .iter()
        .filter(|c| !shared.contains(c))
        .copied()
        .collect();
    let only_b: Vec<char> = b
        .letters
        .iter()
        .filter(|c| !shared.contains(c))
        .copied()
        .collect();
    let size = |t: &Term, c: char| {
        t.array.shape()[t.letters.iter().position(|&l| l == c).expect("present")]
    };
    let same_sizes = summed.iter().all(|&c| size(a, c) == size(b, c));
    if batch.is_empty() && same_sizes {
        let index = |t: &Term, cs: &[char]| -> Vec<i64> {
            cs.iter()
                .map(|c| t.letters.iter().position(|l| l == c).expect("present") as i64)
                .collect()
        };
        let array = tensordot(&a.array, &b.array, &index(a, &summed), &index(b, &summed))?;
        let letters = only_a.iter().chain(&only_b).copied().collect();
        return Ok(Term { array, letters });
    }
    let order: Vec<char> = batch
        .iter()
        .chain(&only_a)
        .chain(&only_b)
        .chain(&summed)
        .copied()
        .collect();
    let product = binary(Op::Multiply, &aligned(a, &order)?, &aligned(b, &order)?)?;
    let kept = order.len() - summed.len();
    let array = sum_over(&product, &(kept..order.len()).collect::<Vec<_>>())?;
    Ok(Term {
        array,
        letters: order[..kept].to_vec(),
    })
}

/// Each letter of the subscripts names axes of one size (or 1, which broadcasts) in every operand
/// (within one operand, `distinct` says so).
fn check_sizes(subscripts: &str, letters: &[Vec<char>], operands: &[Array]) -> Result<()> {
    let mut sizes: Vec<(char, usize, usize)> = Vec::new();
    for (k, (x, letters)) in operands.iter().zip(letters).enumerate() {
        for (&c, &n) in letters.iter().zip(x.shape()) {
            if !subscripts.contains(c) || n == 1 {
                continue;
            }
            match sizes.iter().find(|(l, _, _)| *l == c) {
                Some(&(_, size, at)) if size != n && at != k => {
                    return Err(shape_error(format!(
                        "einsum: subscript '{c}' has size {size} in operand {at} and {n} in operand {k}"
                    )))
                }
                Some(_) => {}
                None => sizes.push((c, n, k)),
            }
        }
    }
    Ok(())
}

/// NumPy's `einsum` (explicit and implicit subscripts, `...`, repeated letters).
pub fn einsum(subscripts: &str, operands: &[Array]) -> Result<Array> {
    let (letters, output) = parse(subscripts, operands)?;
    check_sizes(subscripts, &letters, operands)?;
    let mut terms: Vec<Term> = operands
        .iter()
        .zip(&letters)
        .map(|(x, l)| distinct(x, l))
        .collect::<Result<_>>()?;
    // Letters only one term has, and the output lacks, are summed first.
    for k in 0..terms.len() {
        let lonely: Vec<usize> = (0..terms[k].letters.len())
            .filter(|&d| {
                let c = terms[k].letters[d];
                !output.contains(&c)
                    && terms
                        .iter()
                        .enumerate()
                        .all(|(j, t)| j == k || !t.letters.contains(&c))
            })
            .collect();
        if !lonely.is_empty() {
            let array = sum_over(&terms[k].array, &lonely)?;
            let letters = (0..terms[k].letters.len())
                .filter(|d| !lonely.contains(d))
                .map(|d| terms[k].letters[d])
                .collect();
            terms[k] = Term { array, letters };
        }
    }
    let mut result = terms.remove(0);
    while !terms.is_empty() {
        let next = terms.remove(0);
        let mut keep = output.clone();
        keep.extend(terms.iter().flat_map(|t| t.letters.iter().copied()));
        result = contract(&result, &next, &keep)?;
    }
    if let Some(c) = output.iter().find(|c| !result.letters.contains(c)) {
        return Err(value_error(format!(
            "einsum: output subscript '{c}' is not among the inputs"
        )));
    }
    let order: Vec<i64> = output
        .iter()
        .map(|c| result.letters.iter().position(|l| l == c).expect("checked") as i64)
        .collect();
    let shape: Vec<usize> = output
        .iter()
        .map(|c| result.array.shape()[result.letters.iter().position(|l| l == c).expect("checked")])
        .collect();
    broadcast_to(&permute(&result.array, &order)?, &shape)
}
