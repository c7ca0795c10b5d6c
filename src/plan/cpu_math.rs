//! The cpu's function for every row of the table and every dtype it has a loop for, with
//! NumPy's semantics: integers wrap; integer division by a zero element gives 0; float floor
//! division and modulo follow `npy_divmod` (so `-1.5 % 0.5` is `+0.0`); maximum and minimum let
//! NaN win; complex numbers divide by Smith's method and compare real part first, as NumPy's
//! loops do; float16 computes in float32 and rounds each result, as NumPy's half loops do.
//!
//! `plan::cpu` turns these into loops over chunks: `Op` is a constant there, so each `match`
//! below folds away and the loops vectorize.

use super::table::Op;
use crate::base::element::{c128, c64, f16, Element};

fn unsupported(op: Op) -> ! {
    unreachable!("{op:?} has no loop for this dtype (dtype resolution prevents this)")
}

/// The elementwise functions of one element type.
pub trait Math: Element {
    fn binary(op: Op, a: Self, b: Self) -> Self;
    fn compare(op: Op, a: Self, b: Self) -> bool;
    fn unary(op: Op, a: Self) -> Self;
    fn predicate(op: Op, a: Self) -> bool;
    fn truthy(self) -> bool;

    #[inline(always)]
    fn clip(x: Self, low: Self, high: Self) -> Self {
        Self::binary(Op::Minimum, Self::binary(Op::Maximum, x, low), high)
    }
}

/// `absolute`, `real` and `imag` of a complex number, which give its float type.
pub trait ComplexMath: Element {
    type Part: Element;
    fn part(op: Op, z: Self) -> Self::Part;
}

#[inline(always)]
fn logical(op: Op, a: bool, b: bool) -> bool {
    match op {
        Op::LogicalAnd => a && b,
        Op::LogicalOr => a || b,
        Op::LogicalXor => a != b,
        other => unsupported(other),
    }
}

macro_rules! comparisons {
    ($op:expr, $a:expr, $b:expr) => {
        match $op {
            Op::Equal => $a == $b,
            Op::NotEqual => $a != $b,
            Op::Less => $a < $b,
            Op::LessEqual => $a <= $b,
            Op::Greater => $a > $b,
            Op::GreaterEqual => $a >= $b,
            other => logical(other, Math::truthy($a), Math::truthy($b)),
        }
    };
}

impl Math for bool {
    #[inline(always)]
    fn binary(op: Op, a: bool, b: bool) -> bool {
        match op {
            Op::Add | Op::Maximum | Op::Fmax | Op::BitwiseOr => a | b,
            Op::Multiply | Op::Minimum | Op::Fmin | Op::BitwiseAnd => a & b,
            Op::BitwiseXor => a ^ b,
            other => unsupported(other),
        }
    }
    #[inline(always)]
    fn compare(op: Op, a: bool, b: bool) -> bool {
        comparisons!(op, a, b)
    }
    #[inline(always)]
    fn unary(op: Op, a: bool) -> bool {
        match op {
            Op::Absolute | Op::Floor | Op::Ceil | Op::Trunc => a,
            Op::Invert => !a,
            other => unsupported(other),
        }
    }
    #[inline(always)]
    fn predicate(op: Op, a: bool) -> bool {
        match op {
            Op::Isnan | Op::Isinf => false,
            Op::Isfinite => true,
            Op::LogicalNot => !a,
            other => unsupported(other),
        }
    }
    #[inline(always)]
    fn truthy(self) -> bool {
        self
    }
}

macro_rules! integer_math {
    ($($t:ty, $signed:expr);*) => { $(
        impl Math for $t {
            #[inline(always)]
            fn binary(op: Op, a: $t, b: $t) -> $t {
                const BITS: u64 = <$t>::BITS as u64;
                match op {
                    Op::Add => a.wrapping_add(b),
                    Op::Subtract => a.wrapping_sub(b),
                    Op::Multiply => a.wrapping_mul(b),
                    Op::FloorDivide => {
                        if b == 0 {
                            return 0;
                        }
                        let q = a.wrapping_div(b);
                        #[allow(unused_comparisons)]
                        let adjust = a.wrapping_rem(b) != 0 && ((a < 0) != (b < 0));
                        if adjust { q - 1 } else { q }
                    }
                    Op::Remainder => {
                        if b == 0 {
                            return 0;
                        }
                        let r = a.wrapping_rem(b);
                        #[allow(unused_comparisons)]
                        let adjust = r != 0 && ((r < 0) != (b < 0));
                        if adjust { r.wrapping_add(b) } else { r }
                    }
                    Op::Fmod => if b == 0 { 0 } else { a.wrapping_rem(b) },
                    Op::Power => integer_power(a, b),
                    Op::Maximum | Op::Fmax => if a > b { a } else { b },
                    Op::Minimum | Op::Fmin => if a < b { a } else { b },
                    Op::BitwiseAnd => a & b,
                    Op::BitwiseOr => a | b,
                    Op::BitwiseXor => a ^ b,
                    // A negative shift is a huge unsigned one, as NumPy's `(size_t)b` makes it.
                    Op::LeftShift => if (b as u64) < BITS { a << b } else { 0 },
                    Op::RightShift => {
                        if (b as u64) < BITS {
                            a >> b
                        } else {
                            #[allow(unused_comparisons)]
                            let negative = a < 0;
                            if negative { !0 } else { 0 }
                        }
                    }
                    other => unsupported(other),
                }
            }
            #[inline(always)]
            fn compare(op: Op, a: $t, b: $t) -> bool {
                comparisons!(op, a, b)
            }
            #[inline(always)]
            fn unary(op: Op, a: $t) -> $t {
                match op {
                    Op::Negative => a.wrapping_neg(),
                    Op::Positive | Op::Conjugate | Op::Floor | Op::Ceil | Op::Trunc => a,
                    #[allow(unused_comparisons)]
                    Op::Absolute => if a < 0 { a.wrapping_neg() } else { a },
                    #[allow(unused_comparisons)]
                    Op::Sign => if a > 0 { 1 } else if a < 0 { (0 as $t).wrapping_sub(1) } else { 0 },
                    Op::Square => a.wrapping_mul(a),
                    Op::Reciprocal => if a == 0 { 0 } else { (1 as $t).wrapping_div(a) },
                    Op::Invert => !a,
                    other => unsupported(other),
                }
            }
            #[inline(always)]
            fn predicate(op: Op, a: $t) -> bool {
                match op {
                    Op::Isnan | Op::Isinf => false,
                    Op::Isfinite => true,
                    Op::LogicalNot => a == 0,
                    other => unsupported(other),
                }
            }
            #[inline(always)]
            fn truthy(self) -> bool {
                self != 0
            }
        }
    )* };
}
integer_math!(i8, true; u8, false; i16, true; u16, false; i32, true; u32, false; i64, true; u64, false);

/// `a ** b` for integers, wrapping. A negative exponent gives what CuPy gives (NumPy refuses it,
/// and arrsh checks that before the loop runs on the cpu).
#[inline(always)]
fn integer_power<T>(a: T, b: T) -> T
where
    T: Copy + PartialOrd + Default + IntOps,
{
    if b < T::default() {
        return T::negative_power(a, b);
    }
    let (mut result, mut base, mut e) = (T::one(), a, b);
    while e > T::default() {
        if e.odd() {
            result = result.wrapping_mul_(base);
        }
        base = base.wrapping_mul_(base);
        e = e.half();
    }
    result
}

trait IntOps: Sized {
    fn one() -> Self;
    fn odd(self) -> bool;
    fn half(self) -> Self;
    fn wrapping_mul_(self, other: Self) -> Self;
    fn negative_power(a: Self, b: Self) -> Self;
}

macro_rules! int_ops {
    ($($t:ty),*) => { $(
        impl IntOps for $t {
            #[inline(always)]
            fn one() -> $t { 1 }
            #[inline(always)]
            fn odd(self) -> bool { self & 1 == 1 }
            #[inline(always)]
            fn half(self) -> $t { self >> 1 }
            #[inline(always)]
            fn wrapping_mul_(self, other: $t) -> $t { self.wrapping_mul(other) }
            #[inline(always)]
            #[allow(unused_comparisons)]
            fn negative_power(a: $t, b: $t) -> $t {
                if a == 1 {
                    1
                } else if a == (0 as $t).wrapping_sub(1) && a < 0 {
                    if b & 1 == 1 { a } else { 1 }
                } else {
                    0
                }
            }
        }
    )* };
}
int_ops!(i8, u8, i16, u16, i32, u32, i64, u64);

/// NumPy's `npy_divmod`: the floor quotient and the modulo with the divisor's sign.
#[inline(always)]
fn divmod<F: num_traits::Float>(a: F, b: F) -> (F, F) {
    let zero = F::zero();
    let m = a % b;
    if b == zero {
        return (a / b, m);
    }
    let mut div = (a - m) / b;
    let mut m = m;
    if m != zero {
        if (b < zero) != (m < zero) {
            m = m + b;
            div = div - F::one();
        }
    } else {
        m = zero.copysign(b);
    }
    let floor_div = if div != zero {
        let f = div.floor();
        if div - f > F::from(0.5).unwrap() {
            f + F::one()
        } else {
            f
        }
    } else {
        zero.copysign(a / b)
    };
    (floor_div, m)
}

macro_rules! float_math {
    ($($t:ident),*) => { $(
        impl Math for $t {
            #[inline(always)]
            fn binary(op: Op, a: $t, b: $t) -> $t {
                match op {
                    Op::Add => a + b,
                    Op::Subtract => a - b,
                    Op::Multiply => a * b,
                    Op::Divide => a / b,
                    Op::FloorDivide => divmod(a, b).0,
                    Op::Remainder => if b == 0.0 { a % b } else { divmod(a, b).1 },
                    Op::Fmod => a % b,
                    Op::Power | Op::FloatPower => a.powf(b),
                    Op::Maximum => if a > b || a.is_nan() { a } else { b },
                    Op::Minimum => if a < b || a.is_nan() { a } else { b },
                    Op::Fmax => if a.is_nan() || (!b.is_nan() && b > a) { b } else { a },
                    Op::Fmin => if a.is_nan() || (!b.is_nan() && b < a) { b } else { a },
                    Op::Arctan2 => a.atan2(b),
                    Op::Hypot => a.hypot(b),
                    Op::Copysign => a.copysign(b),
                    Op::Logaddexp => {
                        if a == b {
                            return a + std::$t::consts::LN_2;
                        }
                        let d = a - b;
                        if d > 0.0 { a + (-d).exp().ln_1p() } else if d <= 0.0 { b + d.exp().ln_1p() } else { d }
                    }
                    Op::Logaddexp2 => {
                        if a == b {
                            return a + 1.0;
                        }
                        let d = a - b;
                        let log2_1p = |x: $t| std::$t::consts::LOG2_E * x.ln_1p();
                        if d > 0.0 { a + log2_1p((-d).exp2()) } else if d <= 0.0 { b + log2_1p(d.exp2()) } else { d }
                    }
                    Op::Heaviside => {
                        if a < 0.0 { 0.0 } else if a > 0.0 { 1.0 } else if a == 0.0 { b } else { a }
                    }
                    Op::Nextafter => {
                        if a.is_nan() || b.is_nan() {
                            a + b
                        } else if a == b {
                            b
                        } else if b > a {
                            a.next_up()
                        } else {
                            a.next_down()
                        }
                    }
                    other => unsupported(other),
                }
            }
            #[inline(always)]
            fn compare(op: Op, a: $t, b: $t) -> bool {
                comparisons!(op, a, b)
            }
            #[inline(always)]
            fn unary(op: Op, a: $t) -> $t {
                match op {
                    Op::Negative => -a,
                    Op::Positive | Op::Conjugate => a,
                    Op::Absolute => a.abs(),
                    Op::Sign => if a > 0.0 { 1.0 } else if a < 0.0 { -1.0 } else if a == 0.0 { 0.0 } else { a },
                    Op::Square => a * a,
                    Op::Reciprocal => 1.0 / a,
                    Op::Sqrt => a.sqrt(),
                    Op::Cbrt => a.cbrt(),
                    Op::Exp => a.exp(),
                    Op::Exp2 => a.exp2(),
                    Op::Expm1 => a.exp_m1(),
                    Op::Log => a.ln(),
                    Op::Log2 => a.log2(),
                    Op::Log10 => a.log10(),
                    Op::Log1p => a.ln_1p(),
                    Op::Sin => a.sin(),
                    Op::Cos => a.cos(),
                    Op::Tan => a.tan(),
                    Op::Arcsin => a.asin(),
                    Op::Arccos => a.acos(),
                    Op::Arctan => a.atan(),
                    Op::Sinh => a.sinh(),
                    Op::Cosh => a.cosh(),
                    Op::Tanh => a.tanh(),
                    Op::Arcsinh => a.asinh(),
                    Op::Arccosh => a.acosh(),
                    Op::Arctanh => a.atanh(),
                    Op::Floor => a.floor(),
                    Op::Ceil => a.ceil(),
                    Op::Trunc => a.trunc(),
                    Op::Rint => a.round_ties_even(),
                    Op::Deg2rad => a * (std::$t::consts::PI / 180.0),
                    Op::Rad2deg => a * (180.0 / std::$t::consts::PI),
                    Op::Spacing => {
                        if a.is_infinite() {
                            $t::NAN
                        } else if a.is_sign_negative() {
                            a.next_down() - a
                        } else {
                            a.next_up() - a
                        }
                    }
                    other => unsupported(other),
                }
            }
            #[inline(always)]
            fn predicate(op: Op, a: $t) -> bool {
                match op {
                    Op::Isnan => a.is_nan(),
                    Op::Isinf => a.is_infinite(),
                    Op::Isfinite => a.is_finite(),
                    Op::Signbit => a.is_sign_negative(),
                    Op::LogicalNot => a == 0.0,
                    other => unsupported(other),
                }
            }
            #[inline(always)]
            fn truthy(self) -> bool {
                self != 0.0
            }
        }
    )* };
}
float_math!(f32, f64);

/// float16 steps (`nextafter`, `spacing`) in its own ulps, on the bits.
fn half_step(a: f16, up: bool) -> f16 {
    let bits = a.to_bits();
    if a.is_nan() {
        return a;
    }
    if bits & 0x7fff == 0 {
        return f16::from_bits(if up { 0x0001 } else { 0x8001 });
    }
    let away = up != a.is_sign_negative();
    f16::from_bits(if away { bits + 1 } else { bits - 1 })
}

impl Math for f16 {
    #[inline(always)]
    fn binary(op: Op, a: f16, b: f16) -> f16 {
        match op {
            Op::Nextafter => {
                if a.is_nan() || b.is_nan() {
                    f16::NAN
                } else if a == b {
                    b
                } else {
                    half_step(a, b > a)
                }
            }
            _ => f16::from_f32(f32::binary(op, a.to_f32(), b.to_f32())),
        }
    }
    #[inline(always)]
    fn compare(op: Op, a: f16, b: f16) -> bool {
        f32::compare(op, a.to_f32(), b.to_f32())
    }
    #[inline(always)]
    fn unary(op: Op, a: f16) -> f16 {
        match op {
            Op::Negative => -a,
            Op::Positive | Op::Conjugate => a,
            Op::Spacing if a.is_infinite() => f16::NAN,
            // NumPy's half spacing is the gap above a positive value and, for a negative one,
            // the (positive) gap toward zero.
            Op::Spacing => f16::from_f32(half_step(a, true).to_f32() - a.to_f32()),
            Op::Absolute => f16::from_bits(a.to_bits() & 0x7fff),
            _ => f16::from_f32(f32::unary(op, a.to_f32())),
        }
    }
    #[inline(always)]
    fn predicate(op: Op, a: f16) -> bool {
        match op {
            Op::Signbit => a.is_sign_negative(),
            _ => f32::predicate(op, a.to_f32()),
        }
    }
    #[inline(always)]
    fn truthy(self) -> bool {
        self.to_f32() != 0.0
    }
}

macro_rules! complex_math {
    ($($t:ident, $f:ident);*) => { $(
        impl Math for $t {
            #[inline(always)]
            fn binary(op: Op, a: $t, b: $t) -> $t {
                match op {
                    Op::Add => a + b,
                    Op::Subtract => a - b,
                    Op::Multiply => $t::new(a.re * b.re - a.im * b.im, a.re * b.im + a.im * b.re),
                    Op::Divide => complex_divide(a, b),
                    Op::Power | Op::FloatPower => complex_power(a, b),
                    Op::Maximum => if complex_ge(a, b) || a.re.is_nan() || a.im.is_nan() { a } else { b },
                    Op::Minimum => if complex_le(a, b) || a.re.is_nan() || a.im.is_nan() { a } else { b },
                    Op::Fmax => if b.re.is_nan() || b.im.is_nan() || complex_ge(a, b) { a } else { b },
                    Op::Fmin => if b.re.is_nan() || b.im.is_nan() || complex_le(a, b) { a } else { b },
                    other => unsupported(other),
                }
            }
            #[inline(always)]
            fn compare(op: Op, a: $t, b: $t) -> bool {
                let real_ordered = |real: fn($f, $f) -> bool, imag: fn($f, $f) -> bool| {
                    (real(a.re, b.re) && !a.im.is_nan() && !b.im.is_nan()) || (a.re == b.re && imag(a.im, b.im))
                };
                match op {
                    Op::Equal => a.re == b.re && a.im == b.im,
                    Op::NotEqual => a.re != b.re || a.im != b.im,
                    Op::Less => real_ordered(|x, y| x < y, |x, y| x < y),
                    Op::LessEqual => real_ordered(|x, y| x < y, |x, y| x <= y),
                    Op::Greater => real_ordered(|x, y| x > y, |x, y| x > y),
                    Op::GreaterEqual => real_ordered(|x, y| x > y, |x, y| x >= y),
                    other => logical(other, a.truthy(), b.truthy()),
                }
            }
            #[inline(always)]
            fn unary(op: Op, z: $t) -> $t {
                if is_transcendental(op) {
                    return transcendental::<$t>(op, z);
                }
                match op {
                    Op::Negative => -z,
                    Op::Positive => z,
                    Op::Conjugate => z.conj(),
                    Op::Square => Self::binary(Op::Multiply, z, z),
                    Op::Reciprocal => complex_divide($t::new(1.0, 0.0), z),
                    Op::Sign => {
                        let r = z.re.hypot(z.im);
                        if r == 0.0 {
                            $t::new(0.0, 0.0)
                        } else if r.is_nan() {
                            $t::new($f::NAN, $f::NAN)
                        } else if r.is_infinite() {
                            let unit = |x: $f| if x.is_infinite() { x.signum() } else { 0.0 * x.signum() };
                            let (re, im) = (unit(z.re), unit(z.im));
                            let n = re.hypot(im);
                            $t::new(re / n, im / n)
                        } else {
                            $t::new(z.re / r, z.im / r)
                        }
                    }
                    Op::Rint => $t::new(z.re.round_ties_even(), z.im.round_ties_even()),
                    other => unsupported(other),
                }
            }
            #[inline(always)]
            fn predicate(op: Op, z: $t) -> bool {
                match op {
                    Op::Isnan => z.re.is_nan() || z.im.is_nan(),
                    Op::Isinf => z.re.is_infinite() || z.im.is_infinite(),
                    Op::Isfinite => z.re.is_finite() && z.im.is_finite(),
                    Op::LogicalNot => !z.truthy(),
                    other => unsupported(other),
                }
            }
            #[inline(always)]
            fn truthy(self) -> bool {
                self.re != 0.0 || self.im != 0.0
            }
        }

        impl ComplexMath for $t {
            type Part = $f;
            #[inline(always)]
            fn part(op: Op, z: $t) -> $f {
                match op {
                    Op::Absolute => scaled_hypot(z.re, z.im),
                    Op::Real => z.re,
                    Op::Imag => z.im,
                    other => unsupported(other),
                }
            }
        }
    )* };
}
complex_math!(c64, f32; c128, f64);

/// The complex functions computed in c128 (and, for c64, rounded back).
fn is_transcendental(op: Op) -> bool {
    matches!(
        op,
        Op::Sqrt
            | Op::Exp
            | Op::Exp2
            | Op::Expm1
            | Op::Log
            | Op::Log2
            | Op::Log10
            | Op::Log1p
            | Op::Sin
            | Op::Cos
            | Op::Tan
            | Op::Arcsin
            | Op::Arccos
            | Op::Arctan
            | Op::Sinh
            | Op::Cosh
            | Op::Tanh
            | Op::Arcsinh
            | Op::Arccosh
            | Op::Arctanh
    )
}

/// A transcendental function of a complex number, in c128: the formulas of num-complex, with
/// C99's branch cuts on the real axis beyond ±1 (the sign of a zero imaginary part picks the
/// side), as NumPy's.
#[inline(always)]
fn transcendental<T: Element + crate::base::element::CastFrom<c128>>(op: Op, z: T) -> T
where
    c128: crate::base::element::CastFrom<T>,
{
    use std::f64::consts::{FRAC_PI_2, LN_10, LN_2, PI};
    let z: c128 = crate::base::element::cast(z);
    let beyond_one = z.im == 0.0 && z.re.abs() > 1.0;
    let w = match op {
        Op::Arcsin if beyond_one => {
            c128::new(FRAC_PI_2.copysign(z.re), z.re.abs().acosh().copysign(z.im))
        }
        Op::Arccos if beyond_one => c128::new(
            if z.re > 0.0 { 0.0 } else { PI },
            -z.re.abs().acosh().copysign(z.im),
        ),
        Op::Arctanh if beyond_one => c128::new((1.0 / z.re).atanh(), FRAC_PI_2.copysign(z.im)),
        Op::Sqrt => z.sqrt(),
        Op::Exp => z.exp(),
        Op::Exp2 => (z * LN_2).exp(),
        Op::Expm1 => {
            let half = (z.im / 2.0).sin();
            c128::new(
                z.re.exp_m1() * z.im.cos() - 2.0 * half * half,
                z.re.exp() * z.im.sin(),
            )
        }
        Op::Log => z.ln(),
        Op::Log2 => z.ln() / LN_2,
        Op::Log10 => z.ln() / LN_10,
        Op::Log1p => {
            let x = z.re + 1.0;
            c128::new(x.hypot(z.im).ln(), z.im.atan2(x))
        }
        Op::Sin => z.sin(),
        Op::Cos => z.cos(),
        Op::Tan => z.tan(),
        Op::Arcsin => z.asin(),
        Op::Arccos => z.acos(),
        Op::Arctan => z.atan(),
        Op::Sinh => z.sinh(),
        Op::Cosh => z.cosh(),
        Op::Tanh => z.tanh(),
        Op::Arcsinh => z.asinh(),
        Op::Arccosh => z.acosh(),
        Op::Arctanh => z.atanh(),
        other => unsupported(other),
    };
    crate::base::element::cast(w)
}

fn complex_ge<F: num_traits::Float>(
    a: num_complex::Complex<F>,
    b: num_complex::Complex<F>,
) -> bool {
    (a.re > b.re && !a.im.is_nan() && !b.im.is_nan()) || (a.re == b.re && a.im >= b.im)
}

fn complex_le<F: num_traits::Float>(
    a: num_complex::Complex<F>,
    b: num_complex::Complex<F>,
) -> bool {
    (a.re < b.re && !a.im.is_nan() && !b.im.is_nan()) || (a.re == b.re && a.im <= b.im)
}

/// NumPy's complex division (Smith's method, scaled by the larger part of the divisor).
#[inline(always)]
fn complex_divide<F: num_traits::Float>(
    a: num_complex::Complex<F>,
    b: num_complex::Complex<F>,
) -> num_complex::Complex<F> {
    let (re_abs, im_abs) = (b.re.abs(), b.im.abs());
    if re_abs >= im_abs {
        if re_abs == F::zero() && im_abs == F::zero() {
            return num_complex::Complex::new(a.re / re_abs, a.im / re_abs);
        }
        let ratio = b.im / b.re;
        let scale = F::one() / (b.re + b.im * ratio);
        num_complex::Complex::new((a.re + a.im * ratio) * scale, (a.im - a.re * ratio) * scale)
    } else {
        let ratio = b.re / b.im;
        let scale = F::one() / (b.im + b.re * ratio);
        num_complex::Complex::new((a.re * ratio + a.im) * scale, (a.im * ratio - a.re) * scale)
    }
}

/// NumPy's `npy_cpow`: exact repeated multiplication for small integer exponents.
fn complex_power<F: num_traits::Float>(
    a: num_complex::Complex<F>,
    b: num_complex::Complex<F>,
) -> num_complex::Complex<F> {
    use num_complex::Complex;
    let zero = F::zero();
    let one = Complex::new(F::one(), zero);
    let multiply = |x: Complex<F>, y: Complex<F>| {
        Complex::new(x.re * y.re - x.im * y.im, x.re * y.im + x.im * y.re)
    };
    if b.re == zero && b.im == zero {
        return one;
    }
    if a.re == zero && a.im == zero {
        return if b.re > zero {
            Complex::new(zero, zero)
        } else {
            Complex::new(F::nan(), F::nan())
        };
    }
    if b.im == zero && b.re == b.re.trunc() && b.re.abs() < F::from(100.0).unwrap() {
        let n = b.re.to_i64().unwrap_or(0);
        match n {
            1 => return a,
            2 => return multiply(a, a),
            3 => return multiply(a, multiply(a, a)),
            _ => {
                let (mut result, mut power, mut e) = (one, a, n.unsigned_abs());
                loop {
                    if e & 1 == 1 {
                        result = multiply(result, power);
                    }
                    e >>= 1;
                    if e == 0 {
                        break;
                    }
                    power = multiply(power, power);
                }
                return if n < 0 {
                    complex_divide(one, result)
                } else {
                    result
                };
            }
        }
    }
    (b * a.ln()).exp()
}

/// `|x + iy|` as NumPy's SIMD loops compute it: the larger part times `sqrt(1 + r²)`, `r` the
/// ratio of the smaller to the larger (no overflow or underflow in between), within 2 ulp of the
/// exact value, branch-free so that it vectorises; C99's special cases (an infinite part gives
/// infinity, even beside a NaN).
#[inline(always)]
fn scaled_hypot<F: num_traits::Float>(x: F, y: F) -> F {
    let (a, b) = (x.abs(), y.abs());
    let (big, small) = (a.max(b), a.min(b));
    let r = small / big;
    let h = big * (F::one() + r * r).sqrt();
    if big == F::zero() {
        F::zero()
    } else if big.is_infinite() {
        F::infinity()
    } else if x.is_nan() || y.is_nan() {
        F::nan()
    } else {
        h
    }
}

#[cfg(test)]
mod tests;
