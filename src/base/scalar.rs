//! A host scalar: what a full reduction or an element read returns, and what travels to kernels
//! as an argument. Host scalars are "weak" in promotion (NEP 50): `f32_array * 2.5` stays f32.

use super::dtype::{DType, WeakKind};
use super::element::{c128, Element};

#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Scalar {
    Bool(bool),
    Int(i64),
    /// A uint64 element above i64's range (Python's ints are unbounded; arr's host ints are not).
    UInt(u64),
    Float(f64),
    Complex(f64, f64),
}

impl Scalar {
    pub fn of<T: Element>(x: T) -> Scalar {
        x.to_scalar()
    }

    /// NumPy's conversion of this value to element type `T`.
    pub fn cast<T: Element>(self) -> T {
        T::from_scalar(self)
    }

    pub fn as_f64(self) -> f64 {
        self.cast()
    }

    pub fn as_complex(self) -> c128 {
        self.cast()
    }

    /// Python's kind of this value, for promotion.
    pub fn weak_kind(self) -> WeakKind {
        match self {
            Scalar::Bool(_) => WeakKind::Bool,
            Scalar::Int(_) | Scalar::UInt(_) => WeakKind::Int,
            Scalar::Float(_) => WeakKind::Float,
            Scalar::Complex(..) => WeakKind::Complex,
        }
    }

    /// The dtype an array made from this scalar alone gets.
    pub fn dtype(self) -> DType {
        match self {
            Scalar::UInt(_) => DType::U64,
            other => other.weak_kind().default_dtype(),
        }
    }

    /// The same value, bit for bit (`0.0` and `-0.0` differ, a NaN is itself).
    pub fn identical(&self, other: &Scalar) -> bool {
        self.bits() == other.bits()
    }

    /// A hash of the value's bits and `dtype`, for small caches of constants.
    pub fn bits_hash(&self, dtype: DType) -> u64 {
        let (kind, a, b) = self.bits();
        let mixed = (a ^ b.rotate_left(29) ^ kind.rotate_left(53)).wrapping_add(dtype as u64);
        mixed.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 32
    }

    fn bits(&self) -> (u64, u64, u64) {
        match *self {
            Scalar::Bool(v) => (0, u64::from(v), 0),
            Scalar::Int(v) => (1, v as u64, 0),
            Scalar::UInt(v) => (2, v, 0),
            Scalar::Float(v) => (3, v.to_bits(), 0),
            Scalar::Complex(re, im) => (4, re.to_bits(), im.to_bits()),
        }
    }

    /// True for an integer (or bool) value that `dtype` cannot hold: NEP 50 refuses
    /// `u8_array + 300` rather than wrapping the 300.
    pub fn out_of_range_for(self, dtype: DType) -> bool {
        let value: i128 = match self {
            Scalar::Int(i) => i as i128,
            Scalar::UInt(u) => u as i128,
            _ => return false,
        };
        if !dtype.is_integer() {
            return false;
        }
        let (low, high) = super::dtype::integer_range(dtype);
        value < low || value > high
    }

    pub fn is_zero(self) -> bool {
        match self {
            Scalar::Bool(b) => !b,
            Scalar::Int(i) => i == 0,
            Scalar::UInt(u) => u == 0,
            Scalar::Float(f) => f == 0.0,
            Scalar::Complex(re, im) => re == 0.0 && im == 0.0,
        }
    }

    pub fn is_negative(self) -> bool {
        match self {
            Scalar::Int(i) => i < 0,
            Scalar::Float(f) => f < 0.0,
            _ => false,
        }
    }
}
