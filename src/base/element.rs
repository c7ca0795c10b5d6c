//! The Rust type of each dtype, and NumPy's `astype` conversion between any two of them:
//! integers wrap, floats to integers truncate toward zero (NaN and out-of-range values saturate,
//! where C leaves them undefined), complex to real keeps the real part, anything to bool is
//! "not zero".

use std::fmt;

pub use half::f16;
pub use num_complex::{Complex32 as c64, Complex64 as c128};

use super::dtype::DType;
use super::scalar::Scalar;

/// A Rust type that can be an array element.
pub trait Element: Copy + Send + Sync + PartialEq + Default + fmt::Debug + 'static {
    const DTYPE: DType;
    /// NumPy's conversion of a host scalar (`full(3, 2.5, dtype=i8)`).
    fn from_scalar(s: Scalar) -> Self;
    /// The host value of one element (a u64 above i64's range is `Scalar::UInt`).
    fn to_scalar(self) -> Scalar;
}

/// `x as U` with NumPy's semantics, for every pair of element types.
pub trait CastFrom<T> {
    fn cast_from(x: T) -> Self;
}

/// NumPy's `astype` conversion of one element.
#[inline(always)]
pub fn cast<T, U: CastFrom<T>>(x: T) -> U {
    U::cast_from(x)
}

macro_rules! prim_to_prim {
    ($($from:ty),*) => { $( prim_to_prim!(@to $from; i8, u8, i16, u16, i32, u32, i64, u64, f32, f64); )* };
    (@to $from:ty; $($to:ty),*) => { $(
        impl CastFrom<$from> for $to {
            #[inline(always)]
            fn cast_from(x: $from) -> $to { x as $to }
        }
    )* };
}
prim_to_prim!(i8, u8, i16, u16, i32, u32, i64, u64, f32, f64);

macro_rules! with_prims {
    ($($t:ty),*) => { $(
        impl CastFrom<bool> for $t {
            #[inline(always)]
            fn cast_from(x: bool) -> $t { x as u8 as $t }
        }
        impl CastFrom<$t> for bool {
            #[inline(always)]
            #[allow(clippy::float_cmp)]
            fn cast_from(x: $t) -> bool { x != 0 as $t }
        }
        impl CastFrom<f16> for $t {
            #[inline(always)]
            fn cast_from(x: f16) -> $t { f32::from(x) as $t }
        }
        impl CastFrom<c64> for $t {
            #[inline(always)]
            fn cast_from(x: c64) -> $t { x.re as $t }
        }
        impl CastFrom<c128> for $t {
            #[inline(always)]
            fn cast_from(x: c128) -> $t { x.re as $t }
        }
        impl CastFrom<$t> for c64 {
            #[inline(always)]
            fn cast_from(x: $t) -> c64 { c64::new(x as f32, 0.0) }
        }
        impl CastFrom<$t> for c128 {
            #[inline(always)]
            fn cast_from(x: $t) -> c128 { c128::new(x as f64, 0.0) }
        }
    )* };
}
with_prims!(i8, u8, i16, u16, i32, u32, i64, u64, f32, f64);

macro_rules! ints_to_half {
    ($($t:ty),*) => { $(
        impl CastFrom<$t> for f16 {
            // Integers that f16 holds exactly are exact in f32, so one rounding happens.
            #[inline(always)]
            fn cast_from(x: $t) -> f16 { f16::from_f32(x as f32) }
        }
    )* };
}
ints_to_half!(i8, u8, i16, u16, i32, u32, i64, u64);

impl CastFrom<f32> for f16 {
    #[inline(always)]
    fn cast_from(x: f32) -> f16 {
        f16::from_f32(x)
    }
}
impl CastFrom<f64> for f16 {
    #[inline(always)]
    fn cast_from(x: f64) -> f16 {
        f16::from_f64(x)
    }
}

macro_rules! identity {
    ($($t:ty),*) => { $(
        impl CastFrom<$t> for $t {
            #[inline(always)]
            fn cast_from(x: $t) -> $t { x }
        }
    )* };
}
identity!(bool, f16, c64, c128);

impl CastFrom<bool> for f16 {
    fn cast_from(x: bool) -> f16 {
        if x {
            f16::ONE
        } else {
            f16::ZERO
        }
    }
}
impl CastFrom<f16> for bool {
    fn cast_from(x: f16) -> bool {
        f32::from(x) != 0.0
    }
}
impl CastFrom<bool> for c64 {
    fn cast_from(x: bool) -> c64 {
        c64::new(x as u8 as f32, 0.0)
    }
}
impl CastFrom<bool> for c128 {
    fn cast_from(x: bool) -> c128 {
        c128::new(x as u8 as f64, 0.0)
    }
}
impl CastFrom<c64> for bool {
    fn cast_from(x: c64) -> bool {
        x.re != 0.0 || x.im != 0.0
    }
}
impl CastFrom<c128> for bool {
    fn cast_from(x: c128) -> bool {
        x.re != 0.0 || x.im != 0.0
    }
}
impl CastFrom<f16> for c64 {
    fn cast_from(x: f16) -> c64 {
        c64::new(f32::from(x), 0.0)
    }
}
impl CastFrom<f16> for c128 {
    fn cast_from(x: f16) -> c128 {
        c128::new(f64::from(x), 0.0)
    }
}
impl CastFrom<c64> for f16 {
    fn cast_from(x: c64) -> f16 {
        f16::from_f32(x.re)
    }
}
impl CastFrom<c128> for f16 {
    fn cast_from(x: c128) -> f16 {
        f16::from_f64(x.re)
    }
}
impl CastFrom<c64> for c128 {
    fn cast_from(x: c64) -> c128 {
        c128::new(x.re as f64, x.im as f64)
    }
}
impl CastFrom<c128> for c64 {
    fn cast_from(x: c128) -> c64 {
        c64::new(x.re as f32, x.im as f32)
    }
}

/// Every conversion an element type needs, as one bound.
pub trait Castable:
    Element
    + CastFrom<bool>
    + CastFrom<i8>
    + CastFrom<u8>
    + CastFrom<i16>
    + CastFrom<u16>
    + CastFrom<i32>
    + CastFrom<u32>
    + CastFrom<i64>
    + CastFrom<u64>
    + CastFrom<f16>
    + CastFrom<f32>
    + CastFrom<f64>
    + CastFrom<c64>
    + CastFrom<c128>
{
}

macro_rules! element {
    ($t:ty, $dtype:ident, $to_scalar:expr) => {
        impl Element for $t {
            const DTYPE: DType = DType::$dtype;
            #[inline]
            fn from_scalar(s: Scalar) -> Self {
                match s {
                    Scalar::Bool(b) => cast(b),
                    Scalar::Int(i) => cast(i),
                    Scalar::UInt(u) => cast(u),
                    Scalar::Float(f) => cast(f),
                    Scalar::Complex(re, im) => cast(c128::new(re, im)),
                }
            }
            #[inline]
            fn to_scalar(self) -> Scalar {
                let to: fn($t) -> Scalar = $to_scalar;
                to(self)
            }
        }
        impl Castable for $t {}
    };
}

element!(bool, Bool, Scalar::Bool);
element!(i8, I8, |x| Scalar::Int(x as i64));
element!(u8, U8, |x| Scalar::Int(x as i64));
element!(i16, I16, |x| Scalar::Int(x as i64));
element!(u16, U16, |x| Scalar::Int(x as i64));
element!(i32, I32, |x| Scalar::Int(x as i64));
element!(u32, U32, |x| Scalar::Int(x as i64));
element!(i64, I64, Scalar::Int);
element!(u64, U64, |x| match i64::try_from(x) {
    Ok(i) => Scalar::Int(i),
    Err(_) => Scalar::UInt(x),
});
element!(f16, F16, |x| Scalar::Float(f64::from(x)));
element!(f32, F32, |x| Scalar::Float(x as f64));
element!(f64, F64, Scalar::Float);
element!(c64, C64, |x| Scalar::Complex(x.re as f64, x.im as f64));
element!(c128, C128, |x| Scalar::Complex(x.re, x.im));

/// Runs `$body` with the type alias `$T` bound to the Rust type of `$dtype`.
#[macro_export]
macro_rules! with_dtype {
    ($dtype:expr, $T:ident => $body:expr) => {
        match $dtype {
            $crate::base::dtype::DType::Bool => {
                type $T = bool;
                $body
            }
            $crate::base::dtype::DType::I8 => {
                type $T = i8;
                $body
            }
            $crate::base::dtype::DType::U8 => {
                type $T = u8;
                $body
            }
            $crate::base::dtype::DType::I16 => {
                type $T = i16;
                $body
            }
            $crate::base::dtype::DType::U16 => {
                type $T = u16;
                $body
            }
            $crate::base::dtype::DType::I32 => {
                type $T = i32;
                $body
            }
            $crate::base::dtype::DType::U32 => {
                type $T = u32;
                $body
            }
            $crate::base::dtype::DType::I64 => {
                type $T = i64;
                $body
            }
            $crate::base::dtype::DType::U64 => {
                type $T = u64;
                $body
            }
            $crate::base::dtype::DType::F16 => {
                type $T = $crate::base::element::f16;
                $body
            }
            $crate::base::dtype::DType::F32 => {
                type $T = f32;
                $body
            }
            $crate::base::dtype::DType::F64 => {
                type $T = f64;
                $body
            }
            $crate::base::dtype::DType::C64 => {
                type $T = $crate::base::element::c64;
                $body
            }
            $crate::base::dtype::DType::C128 => {
                type $T = $crate::base::element::c128;
                $body
            }
        }
    };
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn conversions_follow_numpy() {
        assert_eq!(cast::<f64, i64>(-2.9), -2);
        assert_eq!(cast::<i64, u8>(300), 44);
        assert_eq!(cast::<i64, i8>(-129), 127);
        assert!(cast::<f64, bool>(0.5));
        assert!(!cast::<c128, bool>(c128::new(0.0, 0.0)));
        assert_eq!(cast::<c128, f64>(c128::new(1.5, 2.0)), 1.5);
        assert_eq!(cast::<f64, f16>(65520.0), f16::INFINITY);
        assert_eq!(cast::<u64, f32>(u64::MAX), 1.8446744e19);
        assert_eq!(u64::MAX.to_scalar(), Scalar::UInt(u64::MAX));
    }
}
