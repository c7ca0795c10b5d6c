//! Element types and NumPy's promotion order (`bool < i64 < f32 < f64`).

use std::fmt;

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum DType {
    Bool,
    I64,
    F32,
    F64,
}

impl DType {
    pub fn name(self) -> &'static str {
        match self {
            DType::Bool => "bool",
            DType::I64 => "i64",
            DType::F32 => "f32",
            DType::F64 => "f64",
        }
    }

    /// NumPy's spelling, used in `.npy` headers and `dtype=` reprs.
    pub fn numpy_name(self) -> &'static str {
        match self {
            DType::Bool => "bool",
            DType::I64 => "int64",
            DType::F32 => "float32",
            DType::F64 => "float64",
        }
    }

    pub fn size(self) -> usize {
        match self {
            DType::Bool => 1,
            DType::I64 | DType::F64 => 8,
            DType::F32 => 4,
        }
    }

    pub fn is_float(self) -> bool {
        matches!(self, DType::F32 | DType::F64)
    }

    /// The common type of two array dtypes.
    pub fn promote(self, other: DType) -> DType {
        self.max(other)
    }

    /// The smallest float type that holds this dtype's values (`/`, `sqrt`, `mean` ...).
    pub fn to_float(self) -> DType {
        match self {
            DType::F32 => DType::F32,
            _ => DType::F64,
        }
    }
}

impl fmt::Display for DType {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A Rust type that can be an array element. Conversions follow NumPy's `astype`
/// (float → int truncates toward zero; NaN and out-of-range values saturate).
pub trait Element: Copy + Send + Sync + PartialOrd + Default + fmt::Debug + 'static {
    const DTYPE: DType;
    fn from_f64(v: f64) -> Self;
    fn from_i64(v: i64) -> Self;
    fn from_bool(v: bool) -> Self;
    fn to_f64(self) -> f64;
    fn to_i64(self) -> i64;
    fn to_bool(self) -> bool;
}

impl Element for f64 {
    const DTYPE: DType = DType::F64;
    fn from_f64(v: f64) -> Self {
        v
    }
    fn from_i64(v: i64) -> Self {
        v as f64
    }
    fn from_bool(v: bool) -> Self {
        v as u8 as f64
    }
    fn to_f64(self) -> f64 {
        self
    }
    fn to_i64(self) -> i64 {
        self as i64
    }
    fn to_bool(self) -> bool {
        self != 0.0
    }
}

impl Element for f32 {
    const DTYPE: DType = DType::F32;
    fn from_f64(v: f64) -> Self {
        v as f32
    }
    fn from_i64(v: i64) -> Self {
        v as f32
    }
    fn from_bool(v: bool) -> Self {
        v as u8 as f32
    }
    fn to_f64(self) -> f64 {
        self as f64
    }
    fn to_i64(self) -> i64 {
        self as i64
    }
    fn to_bool(self) -> bool {
        self != 0.0
    }
}

impl Element for i64 {
    const DTYPE: DType = DType::I64;
    fn from_f64(v: f64) -> Self {
        v as i64
    }
    fn from_i64(v: i64) -> Self {
        v
    }
    fn from_bool(v: bool) -> Self {
        v as i64
    }
    fn to_f64(self) -> f64 {
        self as f64
    }
    fn to_i64(self) -> i64 {
        self
    }
    fn to_bool(self) -> bool {
        self != 0
    }
}

impl Element for bool {
    const DTYPE: DType = DType::Bool;
    fn from_f64(v: f64) -> Self {
        v != 0.0
    }
    fn from_i64(v: i64) -> Self {
        v != 0
    }
    fn from_bool(v: bool) -> Self {
        v
    }
    fn to_f64(self) -> f64 {
        self as u8 as f64
    }
    fn to_i64(self) -> i64 {
        self as i64
    }
    fn to_bool(self) -> bool {
        self
    }
}
