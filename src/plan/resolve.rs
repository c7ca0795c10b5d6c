//! NumPy 2's dtype resolution for one row of the table: which loop runs for the operands given,
//! so which dtype each operand is cast to and which dtype comes out. Weak host scalars follow
//! NEP 50 (`u8_array + 1` is u8; `u8_array + 300` is an error).

use std::cell::RefCell;

use rustc_hash::FxHashMap;

use super::table::{ElementwiseOp, Rule};
use crate::base::dtype::{self, Casting, DType};
use crate::base::few::Few;
use crate::base::Scalar;
use crate::error::{overflow_error, type_error, Result};

/// What an operand brings to resolution.
#[derive(Clone, Copy, Debug)]
pub enum Arg {
    Array(DType),
    Weak(Scalar),
}

/// The dtypes of a row's inputs (at most three), a plain value: resolution runs for every
/// operation a statement makes.
pub type Dtypes = Few<DType>;

/// The loop chosen: the dtype each input is computed in, and the output dtype.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Signature {
    pub inputs: Dtypes,
    pub output: DType,
}

/// The loops of a row, as dtypes (parsed from the table once).
pub fn loops(row: &ElementwiseOp) -> impl Iterator<Item = Signature> + '_ {
    signatures(row).iter().copied()
}

fn signatures(row: &ElementwiseOp) -> &'static [Signature] {
    static PARSED: std::sync::LazyLock<Vec<Vec<Signature>>> = std::sync::LazyLock::new(|| {
        let mut all: Vec<Vec<Signature>> = Vec::new();
        for row in super::table::OPS {
            let index = row.op as usize;
            if all.len() <= index {
                all.resize(index + 1, Vec::new());
            }
            all[index] = row.loops.split_whitespace().map(parse).collect();
        }
        all
    });
    &PARSED[row.op as usize]
}

fn parse(sig: &str) -> Signature {
    let (ins, out) = sig.split_once("->").expect("rows are checked by a test");
    let dtype = |c| DType::from_char(c).expect("rows are checked by a test");
    Signature {
        inputs: ins.chars().map(dtype).collect(),
        output: dtype(out.chars().next().expect("one output")),
    }
}

/// The dtype each operand has for the loop search: arrays their own, weak scalars the one NEP 50
/// gives them next to the arrays (their default when there are no arrays).
pub fn operand_dtypes(row: &ElementwiseOp, args: &[Arg]) -> Result<Dtypes> {
    let considered = if row.rule == Rule::Where {
        &args[1..]
    } else {
        args
    };
    let strong = considered
        .iter()
        .filter_map(|a| match a {
            Arg::Array(d) => Some(*d),
            Arg::Weak(_) => None,
        })
        .reduce(DType::promote);
    let comparison = row.loops.ends_with("->?") && row.nin == 2;
    args.iter()
        .enumerate()
        .map(|(i, arg)| match *arg {
            Arg::Array(d) => Ok(d),
            Arg::Weak(s) if row.rule == Rule::Where && i == 0 => Ok(s.dtype()),
            Arg::Weak(s) => {
                let Some(strong) = strong else {
                    return Ok(s.dtype());
                };
                let d = dtype::with_weak(strong, s.weak_kind());
                if !s.out_of_range_for(d) {
                    return Ok(d);
                }
                // NumPy compares an out-of-range Python int exactly instead of refusing it.
                if comparison {
                    return Ok(s.dtype());
                }
                Err(overflow_error(format!(
                    "Python integer {} out of bounds for {}",
                    scalar_text(s),
                    d.numpy_name()
                )))
            }
        })
        .collect()
}

fn scalar_text(s: Scalar) -> String {
    match s {
        Scalar::Int(i) => i.to_string(),
        Scalar::UInt(u) => u.to_string(),
        other => format!("{other:?}"),
    }
}

/// The loop NumPy runs for these operands.
pub fn resolve(row: &ElementwiseOp, args: &[Arg]) -> Result<Signature> {
    let Some(key) = resolved_key(row, args) else {
        return resolve_anew(row, args);
    };
    let slot = (key.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 58) as usize;
    if let Some((kept, sig)) = RESOLVED.with(|r| r.borrow()[slot]) {
        if kept == key {
            return Ok(sig);
        }
    }
    let sig = resolve_anew(row, args)?;
    RESOLVED.with(|r| r.borrow_mut()[slot] = Some((key, sig)));
    Ok(sig)
}

/// The row and what resolution reads of the operands as one number, when that is all it reads:
/// arrays' dtypes and weak scalars' kinds, unless a weak integer meets an integer array, where
/// NEP 50 also asks whether the value fits.
fn resolved_key(row: &ElementwiseOp, args: &[Arg]) -> Option<u64> {
    let weak_integer = |a: &Arg| matches!(a, Arg::Weak(Scalar::Int(_) | Scalar::UInt(_)));
    let integer_array = |a: &Arg| matches!(a, Arg::Array(d) if !d.is_inexact());
    if args.iter().any(weak_integer) && args.iter().any(integer_array) {
        return None;
    }
    let class = |a: &Arg| match a {
        Arg::Array(d) => *d as u64 + 1,
        Arg::Weak(s) => {
            32 + match s {
                Scalar::Bool(_) => 0,
                Scalar::Int(_) => 1,
                Scalar::UInt(_) => 2,
                Scalar::Float(_) => 3,
                Scalar::Complex(..) => 4,
            }
        }
    };
    let start = row_key(row, args.len());
    Some(args.iter().fold(start, |key, a| (key << 8) | class(a)))
}

fn resolve_anew(row: &ElementwiseOp, args: &[Arg]) -> Result<Signature> {
    let dtypes = operand_dtypes(row, args)?;
    if let Some((refused, message)) = row.refuses {
        if dtypes.iter().all(|&d| d == refused) {
            return Err(type_error(message));
        }
    }
    match row.rule {
        Rule::Where => {
            let common = dtypes[1].promote(dtypes[2]);
            return Ok(Signature {
                inputs: Few::from_iter([DType::Bool, common, common]),
                output: common,
            });
        }
        Rule::TrueDivide if dtypes.iter().all(|d| !d.is_inexact()) => {
            return Ok(Signature {
                inputs: dtypes.iter().map(|_| DType::F64).collect(),
                output: DType::F64,
            });
        }
        Rule::Uniform => {
            return signatures(row)
                .iter()
                .find(|sig| sig.inputs[..] == dtypes[..])
                .copied()
                .ok_or_else(|| no_loop(row, &dtypes, true));
        }
        _ => {}
    }
    if row.loops.is_empty() {
        let common = dtypes
            .iter()
            .copied()
            .reduce(DType::promote)
            .expect("rows have inputs");
        return Ok(Signature {
            inputs: dtypes.iter().map(|_| common).collect(),
            output: common,
        });
    }
    search(row, &dtypes).ok_or_else(|| no_loop(row, &dtypes, false))
}

thread_local! {
    /// Loops found, by row and operand dtypes: as NumPy's dispatch cache, so that a statement
    /// run again does not search the row's loops again.
    static FOUND: RefCell<FxHashMap<u64, Signature>> = RefCell::new(FxHashMap::default());
    /// Resolutions made lately, by `resolved_key` (one per slot of its hash): a statement run
    /// again skips the NEP 50 rules and the loop search too.
    static RESOLVED: RefCell<[Option<(u64, Signature)>; 64]> = const { RefCell::new([None; 64]) };
}

/// The row and operand dtypes as one number: a key that is cheap to hash.
fn search_key(row: &ElementwiseOp, dtypes: &Dtypes) -> u64 {
    let start = row_key(row, dtypes.len());
    dtypes
        .iter()
        .fold(start, |key, &d| (key << 8) | (d as u64 + 1))
}

/// The row and its operand count: the start of a key, so that keys of different counts differ.
fn row_key(row: &ElementwiseOp, operands: usize) -> u64 {
    ((row.op as u64) << 2) | operands as u64
}

/// The first of the row's loops that every operand casts to safely (NumPy's linear search).
fn search(row: &ElementwiseOp, dtypes: &Dtypes) -> Option<Signature> {
    let key = search_key(row, dtypes);
    if let Some(sig) = FOUND.with(|f| f.borrow().get(&key).copied()) {
        return Some(sig);
    }
    let sig = signatures(row)
        .iter()
        .find(|sig| {
            sig.inputs
                .iter()
                .zip(dtypes)
                .all(|(&want, &have)| have.can_cast(want, Casting::Safe))
        })
        .copied()?;
    FOUND.with(|f| f.borrow_mut().insert(key, sig));
    Some(sig)
}

fn no_loop(row: &ElementwiseOp, dtypes: &[DType], uniform: bool) -> crate::error::Error {
    let names: Vec<&str> = dtypes.iter().map(|d| d.name()).collect();
    if uniform {
        return type_error(format!(
            "ufunc '{}' has no loop for {} (it keeps its input's dtype)",
            row.name,
            names.join(", ")
        ));
    }
    type_error(format!(
        "ufunc '{}' not supported for the input types ({}), and the inputs could not be safely coerced to any supported types according to the casting rule 'safe'",
        row.name,
        names.join(", ")
    ))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::plan::table::find;
    use DType::*;

    fn out(name: &str, args: &[Arg]) -> DType {
        resolve(find(name).unwrap(), args).unwrap().output
    }

    #[test]
    fn numpy_picks_these_loops() {
        let a = Arg::Array;
        assert_eq!(out("sqrt", &[a(I64)]), F64);
        assert_eq!(out("sqrt", &[a(I8)]), F16);
        assert_eq!(out("sqrt", &[a(Bool)]), F16);
        assert_eq!(out("divide", &[a(I8), a(I8)]), F64);
        assert_eq!(out("divide", &[a(F16), a(I8)]), F16);
        assert_eq!(out("add", &[a(I8), a(U8)]), I16);
        assert_eq!(out("add", &[a(I64), a(U64)]), F64);
        assert_eq!(out("less", &[a(I64), a(U64)]), Bool);
        assert_eq!(out("square", &[a(Bool)]), I8);
        assert_eq!(out("absolute", &[a(C128)]), F64);
        assert_eq!(out("left_shift", &[a(Bool), a(Bool)]), I8);
        assert_eq!(
            resolve(find("less").unwrap(), &[a(I64), a(U64)])
                .unwrap()
                .inputs[..],
            [I64, U64]
        );
    }

    #[test]
    fn weak_scalars_follow_nep_50() {
        let a = Arg::Array;
        let w = Arg::Weak;
        assert_eq!(out("add", &[a(U8), w(Scalar::Int(1))]), U8);
        assert_eq!(out("multiply", &[a(F32), w(Scalar::Float(2.5))]), F32);
        assert_eq!(out("multiply", &[a(I64), w(Scalar::Float(2.5))]), F64);
        assert_eq!(out("add", &[a(F32), w(Scalar::Complex(0.0, 1.0))]), C64);
        assert_eq!(out("less", &[a(U8), w(Scalar::Int(300))]), Bool);
        assert!(resolve(find("add").unwrap(), &[a(U8), w(Scalar::Int(300))]).is_err());
        assert!(resolve(find("add").unwrap(), &[a(U8), w(Scalar::Int(-1))]).is_err());
    }

    #[test]
    fn a_remembered_resolution_is_the_one_made_anew() {
        let (a, w) = (Arg::Array, Arg::Weak);
        let cases: [&[Arg]; 6] = [
            &[a(F32), w(Scalar::Float(2.5))],
            &[a(F32), w(Scalar::Int(3))],
            &[a(I8), a(U8)],
            &[a(Bool), w(Scalar::Bool(true))],
            &[w(Scalar::UInt(u64::MAX)), w(Scalar::Float(1.0))],
            &[a(F16), w(Scalar::Complex(0.0, 1.0))],
        ];
        for args in cases {
            let row = find("add").unwrap();
            let first = resolve(row, args).unwrap();
            assert_eq!(resolve(row, args).unwrap(), first);
            assert_eq!(resolve_anew(row, args).unwrap(), first);
        }
        // Keys of different operand counts differ: `3 + 4j` is complex, `abs(3 + 4j)` is not.
        let weak = w(Scalar::Complex(3.0, 4.0));
        assert_eq!(out("add", &[weak, weak]), C128);
        assert_eq!(out("absolute", &[weak]), F64);
        // A weak integer next to an integer array is checked each time, whatever came before.
        assert_eq!(out("add", &[a(U8), w(Scalar::Int(1))]), U8);
        assert!(resolve(find("add").unwrap(), &[a(U8), w(Scalar::Int(300))]).is_err());
        assert!(resolve(find("add").unwrap(), &[a(Bool), w(Scalar::UInt(u64::MAX))]).is_err());
    }

    #[test]
    fn refusals_are_numpys() {
        let a = Arg::Array;
        assert!(resolve(find("subtract").unwrap(), &[a(Bool), a(Bool)]).is_err());
        assert!(resolve(find("negative").unwrap(), &[a(Bool)]).is_err());
        assert!(resolve(find("positive").unwrap(), &[a(Bool)]).is_err());
        assert!(resolve(find("invert").unwrap(), &[a(F64)]).is_err());
        assert_eq!(out("negative", &[a(U8)]), U8);
    }
}
