//! The cpu's loops: one monomorphised function per operation and dtype, from a chunk of each
//! argument to a chunk of the result (`cpu_math` has the element functions), and the tables that
//! pick the loop a node runs.

use super::cpu::Loop;
use super::cpu_math::{ComplexMath, Math};
use super::table::Op;
use crate::base::element::{c128, c64, cast, Element};
use crate::base::DType;
use crate::with_dtype;

const fn op_of(code: u8) -> Op {
    // SAFETY: only called with `Op::X as u8` constants.
    unsafe { std::mem::transmute::<u8, Op>(code) }
}

/// Elements per block of `map`: all of a block's inputs are read before any of its outputs is
/// written, so an output may be one of the inputs (in place, element for element: `x *= 5`
/// computes into `x`), and the block's fixed length lets the compiler vectorise it.
const BLOCK: usize = 16;

/// `out[i] = f(i)` for `i < n`, where `f` reads element `i` of the inputs.
///
/// # Safety
/// `out` has room for `n` elements of `O`; `f(i)` reads only element `i` of memory that is
/// either not `out` or exactly `out`.
#[inline(always)]
unsafe fn map<O>(n: usize, out: *mut u8, f: impl Fn(usize) -> O) {
    let out = out as *mut O;
    let mut start = 0;
    while start + BLOCK <= n {
        let mut block = [const { std::mem::MaybeUninit::<O>::uninit() }; BLOCK];
        for (k, slot) in block.iter_mut().enumerate() {
            slot.write(f(start + k));
        }
        std::ptr::copy_nonoverlapping(block.as_ptr() as *const O, out.add(start), BLOCK);
        start += BLOCK;
    }
    for i in start..n {
        out.add(i).write(f(i));
    }
}

// The loops below name their operation `op_of(OP)` inside the closure, a constant there, so
// that the closure shrinks to the operation's own instructions and is inlined into `map`.

/// Element `i` of a loop input of type `T`.
///
/// # Safety
/// `input` points at more than `i` elements of `T`.
#[inline(always)]
unsafe fn at<T: Copy>(input: *const u8, i: usize) -> T {
    (input as *const T).add(i).read()
}

unsafe fn map2<T: Math, const OP: u8>(n: usize, ins: &[*const u8], out: *mut u8) {
    let (a, b) = (ins[0], ins[1]);
    map(n, out, |i| T::binary(op_of(OP), at(a, i), at(b, i)));
}

unsafe fn compare2<T: Math, const OP: u8>(n: usize, ins: &[*const u8], out: *mut u8) {
    let (a, b) = (ins[0], ins[1]);
    map(n, out, |i| T::compare(op_of(OP), at(a, i), at(b, i)));
}

unsafe fn map1<T: Math, const OP: u8>(n: usize, ins: &[*const u8], out: *mut u8) {
    let a = ins[0];
    map(n, out, |i| T::unary(op_of(OP), at(a, i)));
}

unsafe fn test1<T: Math, const OP: u8>(n: usize, ins: &[*const u8], out: *mut u8) {
    let a = ins[0];
    map(n, out, |i| T::predicate(op_of(OP), at(a, i)));
}

unsafe fn part1<T: ComplexMath, const OP: u8>(n: usize, ins: &[*const u8], out: *mut u8) {
    let a = ins[0];
    map(n, out, |i| T::part(op_of(OP), at(a, i)));
}

unsafe fn choose<T: Copy>(n: usize, ins: &[*const u8], out: *mut u8) {
    let (c, a, b) = (ins[0], ins[1], ins[2]);
    map(n, out, |i| {
        if at::<bool>(c, i) {
            at::<T>(a, i)
        } else {
            at::<T>(b, i)
        }
    });
}

unsafe fn clip<T: Math>(n: usize, ins: &[*const u8], out: *mut u8) {
    let (x, low, high) = (ins[0], ins[1], ins[2]);
    map(n, out, |i| T::clip(at(x, i), at(low, i), at(high, i)));
}

/// `int64 < uint64` and friends, compared exactly (NumPy's `qQ->?` loops).
unsafe fn compare_mixed<A: Element + Into<i128>, B: Element + Into<i128>, const OP: u8>(
    n: usize,
    ins: &[*const u8],
    out: *mut u8,
) {
    let (a, b) = (ins[0], ins[1]);
    map(n, out, |i| {
        let (x, y): (i128, i128) = (at::<A>(a, i).into(), at::<B>(b, i).into());
        i128_compare(op_of(OP), x, y)
    });
}

#[inline(always)]
fn i128_compare(op: Op, a: i128, b: i128) -> bool {
    match op {
        Op::Equal => a == b,
        Op::NotEqual => a != b,
        Op::Less => a < b,
        Op::LessEqual => a <= b,
        Op::Greater => a > b,
        Op::GreaterEqual => a >= b,
        Op::LogicalAnd => a != 0 && b != 0,
        Op::LogicalOr => a != 0 || b != 0,
        _ => (a != 0) != (b != 0),
    }
}

unsafe fn cast_run<T: Copy, U: crate::base::element::CastFrom<T>>(
    n: usize,
    ins: &[*const u8],
    out: *mut u8,
) {
    let a = ins[0];
    map(n, out, |i| cast::<T, U>(at(a, i)));
}

pub(super) fn cast_loop(from: DType, to: DType) -> Loop {
    with_dtype!(from, T => with_dtype!(to, U => cast_run::<T, U> as Loop))
}

macro_rules! pick {
    ($op:expr, $wrapper:ident, $T:ty, [$($name:ident),* $(,)?]) => {
        match $op {
            $(Op::$name => $wrapper::<$T, { Op::$name as u8 }> as Loop,)*
            other => unreachable!("{other:?} is not in this family"),
        }
    };
}

fn binary_loop<T: Math>(op: Op) -> Loop {
    pick!(
        op,
        map2,
        T,
        [
            Add,
            Subtract,
            Multiply,
            Divide,
            FloorDivide,
            Remainder,
            Fmod,
            Power,
            FloatPower,
            Maximum,
            Minimum,
            Fmax,
            Fmin,
            Arctan2,
            Hypot,
            Copysign,
            Logaddexp,
            Logaddexp2,
            Heaviside,
            Nextafter,
            BitwiseAnd,
            BitwiseOr,
            BitwiseXor,
            LeftShift,
            RightShift,
        ]
    )
}

fn compare_loop<T: Math>(op: Op) -> Loop {
    pick!(
        op,
        compare2,
        T,
        [
            Equal,
            NotEqual,
            Less,
            LessEqual,
            Greater,
            GreaterEqual,
            LogicalAnd,
            LogicalOr,
            LogicalXor,
        ]
    )
}

fn unary_loop<T: Math>(op: Op) -> Loop {
    pick!(
        op,
        map1,
        T,
        [
            Negative, Positive, Absolute, Sign, Square, Reciprocal, Conjugate, Sqrt, Cbrt, Exp,
            Exp2, Expm1, Log, Log2, Log10, Log1p, Sin, Cos, Tan, Arcsin, Arccos, Arctan, Sinh,
            Cosh, Tanh, Arcsinh, Arccosh, Arctanh, Floor, Ceil, Trunc, Rint, Deg2rad, Rad2deg,
            Invert, Spacing,
        ]
    )
}

fn predicate_loop<T: Math>(op: Op) -> Loop {
    pick!(op, test1, T, [Isnan, Isinf, Isfinite, Signbit, LogicalNot])
}

fn part_loop<T: ComplexMath>(op: Op) -> Loop {
    pick!(op, part1, T, [Absolute, Real, Imag])
}

fn mixed_compare<const OP: u8>(a: DType, b: DType) -> Loop {
    match (a, b) {
        (DType::I64, DType::U64) => compare_mixed::<i64, u64, OP>,
        (DType::U64, DType::I64) => compare_mixed::<u64, i64, OP>,
        other => unreachable!("no mixed comparison for {other:?}"),
    }
}

/// The loop a node of `op` runs, for arguments of `inputs` dtypes giving `output`.
pub(super) fn op_loop(op: Op, inputs: &[DType], output: DType) -> Loop {
    let t = inputs[0];
    match op {
        Op::Equal
        | Op::NotEqual
        | Op::Less
        | Op::LessEqual
        | Op::Greater
        | Op::GreaterEqual
        | Op::LogicalAnd
        | Op::LogicalOr
        | Op::LogicalXor => {
            if inputs[1] != t {
                return match op {
                    Op::Equal => mixed_compare::<{ Op::Equal as u8 }>(t, inputs[1]),
                    Op::NotEqual => mixed_compare::<{ Op::NotEqual as u8 }>(t, inputs[1]),
                    Op::Less => mixed_compare::<{ Op::Less as u8 }>(t, inputs[1]),
                    Op::LessEqual => mixed_compare::<{ Op::LessEqual as u8 }>(t, inputs[1]),
                    Op::Greater => mixed_compare::<{ Op::Greater as u8 }>(t, inputs[1]),
                    _ => mixed_compare::<{ Op::GreaterEqual as u8 }>(t, inputs[1]),
                };
            }
            with_dtype!(t, T => compare_loop::<T>(op))
        }
        Op::Isnan | Op::Isinf | Op::Isfinite | Op::Signbit | Op::LogicalNot => {
            with_dtype!(t, T => predicate_loop::<T>(op))
        }
        Op::Absolute | Op::Real | Op::Imag if t.is_complex() => match t {
            DType::C64 => part_loop::<c64>(op),
            _ => part_loop::<c128>(op),
        },
        Op::Where => with_dtype!(output, T => choose::<T> as Loop),
        Op::Clip => with_dtype!(t, T => clip::<T> as Loop),
        _ if inputs.len() == 2 => with_dtype!(t, T => binary_loop::<T>(op)),
        _ => with_dtype!(t, T => unary_loop::<T>(op)),
    }
}
