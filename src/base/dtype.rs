//! The element types of NumPy 2 that arrsh has, and NumPy's rules between them: promotion
//! (`result_type`), casting (`can_cast`), and how weak host scalars join an operation (NEP 50).

use std::fmt;

/// In NumPy's type-character order (`? b B h H i I q Q e f d F D`), which is also the order in
/// which an operation's loops are searched.
/// The default is NumPy's default dtype, `float64`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum DType {
    Bool,
    I8,
    U8,
    I16,
    U16,
    I32,
    U32,
    I64,
    U64,
    F16,
    F32,
    #[default]
    F64,
    C64,
    C128,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Kind {
    Bool,
    Unsigned,
    Signed,
    Float,
    Complex,
}

/// How strict a conversion must be (NumPy's `casting=`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Casting {
    /// Every value survives (`int8 → int16`, `int64 → float64` by NumPy's convention).
    Safe,
    /// Safe, or within a kind or up the kinds (`float64 → float32`, `int64 → float32`).
    SameKind,
    Unsafe,
}

pub const ALL: [DType; 14] = [
    DType::Bool,
    DType::I8,
    DType::U8,
    DType::I16,
    DType::U16,
    DType::I32,
    DType::U32,
    DType::I64,
    DType::U64,
    DType::F16,
    DType::F32,
    DType::F64,
    DType::C64,
    DType::C128,
];

impl DType {
    /// arr's spelling, which is also the name of the dtype value (`f64`, `u8`, `c128`).
    pub fn name(self) -> &'static str {
        match self {
            DType::Bool => "bool",
            DType::I8 => "i8",
            DType::U8 => "u8",
            DType::I16 => "i16",
            DType::U16 => "u16",
            DType::I32 => "i32",
            DType::U32 => "u32",
            DType::I64 => "i64",
            DType::U64 => "u64",
            DType::F16 => "f16",
            DType::F32 => "f32",
            DType::F64 => "f64",
            DType::C64 => "c64",
            DType::C128 => "c128",
        }
    }

    /// NumPy's spelling, used in `dtype=` reprs.
    pub fn numpy_name(self) -> &'static str {
        match self {
            DType::Bool => "bool",
            DType::I8 => "int8",
            DType::U8 => "uint8",
            DType::I16 => "int16",
            DType::U16 => "uint16",
            DType::I32 => "int32",
            DType::U32 => "uint32",
            DType::I64 => "int64",
            DType::U64 => "uint64",
            DType::F16 => "float16",
            DType::F32 => "float32",
            DType::F64 => "float64",
            DType::C64 => "complex64",
            DType::C128 => "complex128",
        }
    }

    /// NumPy's type character (`np.dtype(...).char`, the letters of `ufunc.types`).
    pub fn char(self) -> char {
        match self {
            DType::Bool => '?',
            DType::I8 => 'b',
            DType::U8 => 'B',
            DType::I16 => 'h',
            DType::U16 => 'H',
            DType::I32 => 'i',
            DType::U32 => 'I',
            DType::I64 => 'q',
            DType::U64 => 'Q',
            DType::F16 => 'e',
            DType::F32 => 'f',
            DType::F64 => 'd',
            DType::C64 => 'F',
            DType::C128 => 'D',
        }
    }

    pub fn from_char(c: char) -> Option<DType> {
        let found = ALL.iter().copied().find(|d| d.char() == c);
        // NumPy's `l`/`L` (C long) are the 64-bit integers on the platforms arrsh runs on.
        found.or(match c {
            'l' => Some(DType::I64),
            'L' => Some(DType::U64),
            _ => None,
        })
    }

    /// A dtype by any of the names NumPy and arr users write (`f64`, `float64`, `float`, `double`).
    pub fn from_name(name: &str) -> Option<DType> {
        let found = ALL
            .iter()
            .copied()
            .find(|d| d.name() == name || d.numpy_name() == name);
        found.or(match name {
            "float" | "double" => Some(DType::F64),
            "int" | "long" | "intp" => Some(DType::I64),
            "uint" | "uintp" => Some(DType::U64),
            "half" => Some(DType::F16),
            "single" => Some(DType::F32),
            "complex" | "cdouble" => Some(DType::C128),
            "csingle" => Some(DType::C64),
            "bool_" => Some(DType::Bool),
            "byte" => Some(DType::I8),
            "ubyte" => Some(DType::U8),
            "short" => Some(DType::I16),
            "ushort" => Some(DType::U16),
            "intc" => Some(DType::I32),
            "uintc" => Some(DType::U32),
            _ => None,
        })
    }

    /// Bytes per element.
    pub fn size(self) -> usize {
        match self {
            DType::Bool | DType::I8 | DType::U8 => 1,
            DType::I16 | DType::U16 | DType::F16 => 2,
            DType::I32 | DType::U32 | DType::F32 => 4,
            DType::I64 | DType::U64 | DType::F64 | DType::C64 => 8,
            DType::C128 => 16,
        }
    }

    pub fn kind(self) -> Kind {
        match self {
            DType::Bool => Kind::Bool,
            DType::U8 | DType::U16 | DType::U32 | DType::U64 => Kind::Unsigned,
            DType::I8 | DType::I16 | DType::I32 | DType::I64 => Kind::Signed,
            DType::F16 | DType::F32 | DType::F64 => Kind::Float,
            DType::C64 | DType::C128 => Kind::Complex,
        }
    }

    pub fn is_bool(self) -> bool {
        self == DType::Bool
    }

    pub fn is_integer(self) -> bool {
        matches!(self.kind(), Kind::Signed | Kind::Unsigned)
    }

    pub fn is_signed(self) -> bool {
        self.kind() == Kind::Signed
    }

    pub fn is_float(self) -> bool {
        self.kind() == Kind::Float
    }

    pub fn is_complex(self) -> bool {
        self.kind() == Kind::Complex
    }

    /// Floats and complex numbers (what `/` gives, what `inexact` means in NumPy).
    pub fn is_inexact(self) -> bool {
        self.is_float() || self.is_complex()
    }

    /// The float type of a complex type's parts (itself for the others).
    pub fn real(self) -> DType {
        match self {
            DType::C64 => DType::F32,
            DType::C128 => DType::F64,
            other => other,
        }
    }

    /// The complex type whose parts are this float type (`f16` parts widen to `f32`).
    pub fn complex_of(self) -> DType {
        match self {
            DType::F64 | DType::C128 => DType::C128,
            DType::F16 | DType::F32 | DType::C64 => DType::C64,
            _ => DType::C128,
        }
    }

    /// Bits of an integer or float type's value (the parts' bits for complex).
    pub fn bits(self) -> u32 {
        (self.real().size() * 8) as u32
    }

    /// NumPy's `can_cast(self, to, casting)` for two dtypes.
    pub fn can_cast(self, to: DType, casting: Casting) -> bool {
        match casting {
            Casting::Unsafe => true,
            Casting::Safe => safe_cast(self, to),
            Casting::SameKind => safe_cast(self, to) || same_kind(self, to),
        }
    }

    /// NumPy 2's `result_type` of two dtypes: the smallest type both cast to safely, found by
    /// NumPy's promotion table (so `int64` with `uint64` gives `float64`).
    pub fn promote(self, other: DType) -> DType {
        if self == other {
            return self;
        }
        if safe_cast(self, other) {
            return other;
        }
        if safe_cast(other, self) {
            return self;
        }
        ALL.iter()
            .copied()
            .find(|&d| safe_cast(self, d) && safe_cast(other, d))
            .unwrap_or(DType::C128)
    }
}

/// Integers an integer type holds (as i128, so that every bound fits).
pub fn integer_range(dtype: DType) -> (i128, i128) {
    let bits = dtype.bits();
    if dtype.is_signed() {
        (-(1i128 << (bits - 1)), (1i128 << (bits - 1)) - 1)
    } else {
        (0, (1i128 << bits) - 1)
    }
}

/// Bits of a float type's significand, which bound the integers it holds exactly.
fn significand_bits(dtype: DType) -> u32 {
    match dtype.real() {
        DType::F16 => 11,
        DType::F32 => 24,
        _ => 53,
    }
}

fn safe_cast(from: DType, to: DType) -> bool {
    if from == to || from == DType::Bool {
        return true;
    }
    match (from.kind(), to.kind()) {
        (_, Kind::Bool) => false,
        (Kind::Unsigned, Kind::Unsigned) | (Kind::Signed, Kind::Signed) => from.size() <= to.size(),
        (Kind::Unsigned, Kind::Signed) => from.size() < to.size(),
        (Kind::Signed, Kind::Unsigned) => false,
        // NumPy calls int64 → float64 safe, though not every int64 survives it.
        (Kind::Signed | Kind::Unsigned, Kind::Float | Kind::Complex) => {
            to.real() == DType::F64 || from.bits() < significand_bits(to)
        }
        (Kind::Float, Kind::Float) => from.size() <= to.size(),
        (Kind::Float, Kind::Complex) | (Kind::Complex, Kind::Complex) => {
            from.real().size() <= to.real().size()
        }
        _ => false,
    }
}

/// NumPy's kind order for `same_kind`: a cast may go down within a kind and up the kinds.
fn same_kind(from: DType, to: DType) -> bool {
    let rank = |k: Kind| match k {
        Kind::Bool => 0,
        Kind::Unsigned => 1,
        Kind::Signed => 2,
        Kind::Float => 3,
        Kind::Complex => 4,
    };
    rank(from.kind()) <= rank(to.kind()) && !(from.is_signed() && to.kind() == Kind::Unsigned)
}

/// The kind of a weak host scalar: Python's `bool`, `int`, `float` or `complex`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum WeakKind {
    Bool,
    Int,
    Float,
    Complex,
}

impl WeakKind {
    /// The dtype a weak scalar of this kind has on its own (`np.asarray(2.5)` is float64).
    pub fn default_dtype(self) -> DType {
        match self {
            WeakKind::Bool => DType::Bool,
            WeakKind::Int => DType::I64,
            WeakKind::Float => DType::F64,
            WeakKind::Complex => DType::C128,
        }
    }
}

/// NEP 50: the dtype that weak host scalars of kind `weak` take next to arrays whose common type is
/// `strong`. A scalar of a kind the arrays already have takes their type (`u8_array + 1` stays
/// u8, `f32_array * 2.5` f32); a higher kind takes its default type, except that a complex scalar
/// keeps the arrays' float precision (`f32_array + 1j` is complex64).
pub fn with_weak(strong: DType, weak: WeakKind) -> DType {
    let covered = match weak {
        WeakKind::Bool => true,
        WeakKind::Int => strong.kind() != Kind::Bool,
        WeakKind::Float => strong.is_inexact(),
        WeakKind::Complex => strong.is_complex(),
    };
    if covered {
        return strong;
    }
    match weak {
        WeakKind::Complex if strong.is_float() => strong.complex_of(),
        _ => weak.default_dtype(),
    }
}

impl fmt::Display for DType {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn promotion_follows_numpy_2() {
        use DType::*;
        let cases = [
            (I8, U8, I16),
            (I16, U16, I32),
            (I32, U32, I64),
            (I64, U64, F64),
            (U8, I16, I16),
            (I64, F32, F64),
            (I16, F16, F32),
            (I8, F16, F16),
            (U8, C64, C64),
            (I32, C64, C128),
            (F64, C64, C128),
            (F16, C64, C64),
            (Bool, I8, I8),
            (U32, I8, I64),
        ];
        for (a, b, want) in cases {
            assert_eq!(a.promote(b), want, "{a} {b}");
            assert_eq!(b.promote(a), want, "{b} {a}");
        }
    }

    #[test]
    fn weak_scalars_keep_the_array_type() {
        use DType::*;
        assert_eq!(with_weak(U8, WeakKind::Int), U8);
        assert_eq!(with_weak(F32, WeakKind::Float), F32);
        assert_eq!(with_weak(I8, WeakKind::Float), F64);
        assert_eq!(with_weak(F32, WeakKind::Complex), C64);
        assert_eq!(with_weak(F16, WeakKind::Complex), C64);
        assert_eq!(with_weak(I32, WeakKind::Complex), C128);
        assert_eq!(with_weak(Bool, WeakKind::Int), I64);
    }

    #[test]
    fn casting_rules() {
        use DType::*;
        assert!(I64.can_cast(F64, Casting::Safe));
        assert!(!I64.can_cast(F32, Casting::Safe));
        assert!(I64.can_cast(F32, Casting::SameKind));
        assert!(F64.can_cast(F32, Casting::SameKind));
        assert!(!F64.can_cast(I64, Casting::SameKind));
        assert!(!I8.can_cast(U8, Casting::SameKind));
        assert!(U8.can_cast(I8, Casting::SameKind));
        assert!(!C64.can_cast(F64, Casting::SameKind));
    }
}
