//! The one table of elementwise operations. Each row is a NumPy ufunc: its name and the array
//! API standard's aliases, the operator that spells it, its loops in NumPy's notation (the
//! dtype signatures it has, searched in order, as `numpy.<ufunc>.types` lists them), the rule
//! that resolves dtypes when NumPy's differs from the plain search, the device function that
//! computes it in the generated CUDA C (`kernels/elementwise.cuh`), and the cpu function
//! (`plan::cpu_math`, selected by `op`). Operators, built-ins, `:help`, completion, the reference
//! in `docs/` and the tests read this table.

/// What computes a row: the cpu side dispatches on it, the gpu side uses the row's `cuda` name.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[repr(u8)]
pub enum Op {
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
    Equal,
    NotEqual,
    Less,
    LessEqual,
    Greater,
    GreaterEqual,
    LogicalAnd,
    LogicalOr,
    LogicalXor,
    Negative,
    Positive,
    Absolute,
    Sign,
    Square,
    Reciprocal,
    Conjugate,
    Sqrt,
    Cbrt,
    Exp,
    Exp2,
    Expm1,
    Log,
    Log2,
    Log10,
    Log1p,
    Sin,
    Cos,
    Tan,
    Arcsin,
    Arccos,
    Arctan,
    Sinh,
    Cosh,
    Tanh,
    Arcsinh,
    Arccosh,
    Arctanh,
    Floor,
    Ceil,
    Trunc,
    Rint,
    Deg2rad,
    Rad2deg,
    Invert,
    Isnan,
    Isinf,
    Isfinite,
    Signbit,
    LogicalNot,
    Spacing,
    Real,
    Imag,
    Where,
    Clip,
}

/// How a row's dtypes are resolved, where NumPy departs from "promote, then take the first loop
/// the inputs cast to safely".
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Rule {
    Promote,
    /// `/` of integers and bools is float64, whatever their width (NumPy's true division).
    TrueDivide,
    /// The input's own dtype must have a loop (no upcasting): `negative`, `positive`.
    Uniform,
    /// `where(cond, a, b)`: the condition is read as bool, `a` and `b` promote together.
    Where,
}

pub struct ElementwiseOp {
    pub name: &'static str,
    pub aliases: &'static [&'static str],
    /// The operator that is this function (`+` is `add`), if any; unary ones are prefixes.
    pub symbol: Option<&'static str>,
    pub nin: usize,
    pub loops: &'static str,
    pub rule: Rule,
    /// A dtype this row refuses with its own message (NumPy's, for bool `-`).
    pub refuses: Option<(crate::base::DType, &'static str)>,
    pub op: Op,
    /// The overloaded device function of `kernels/elementwise.cuh` that computes it.
    pub cuda: &'static str,
    pub doc: &'static str,
    pub example: &'static str,
}

macro_rules! ints {
    () => {
        "bb->b BB->B hh->h HH->H ii->i II->I qq->q QQ->Q"
    };
}
const BOOL_NEGATIVE: &str = "The numpy boolean negative, the `-` operator, is not supported, use the `~` operator or the logical_not function instead.";
const BOOL_SUBTRACT: &str = "numpy boolean subtract, the `-` operator, is not supported, use the bitwise_xor, the `^` operator, or the logical_xor function instead.";

macro_rules! loops {
    ($($part:expr),* $(,)?) => { concat!($($part, " "),*) };
}

macro_rules! row {
    ($name:literal, [$($alias:literal),*], $symbol:expr, $nin:literal, $loops:expr, $rule:ident, $refuses:expr, $op:ident, $cuda:literal, $doc:literal, $example:literal) => {
        ElementwiseOp {
            name: $name,
            aliases: &[$($alias),*],
            symbol: $symbol,
            nin: $nin,
            loops: $loops,
            rule: Rule::$rule,
            refuses: $refuses,
            op: Op::$op,
            cuda: $cuda,
            doc: $doc,
            example: $example,
        }
    };
}

/// A binary row of the usual rule and loops, spelled short.
macro_rules! binary {
    ($name:literal, [$($alias:literal),*], $symbol:expr, $loops:expr, $op:ident, $cuda:literal, $doc:literal, $example:literal) => {
        row!($name, [$($alias),*], $symbol, 2, $loops, Promote, None, $op, $cuda, $doc, $example)
    };
}

macro_rules! unary {
    ($name:literal, [$($alias:literal),*], $loops:expr, $op:ident, $cuda:literal, $doc:literal, $example:literal) => {
        row!($name, [$($alias),*], None, 1, $loops, Promote, None, $op, $cuda, $doc, $example)
    };
}

macro_rules! floats {
    () => {
        "ee->e ff->f dd->d"
    };
}
macro_rules! inexact {
    () => {
        "ee->e ff->f dd->d FF->F DD->D"
    };
}
macro_rules! numbers {
    () => {
        loops!(ints!(), "ee->e ff->f dd->d FF->F DD->D")
    };
}
macro_rules! all_same {
    () => {
        loops!("??->?", numbers!())
    };
}
macro_rules! unary_ints {
    () => {
        "b->b B->B h->h H->H i->i I->I q->q Q->Q"
    };
}
macro_rules! unary_floats {
    () => {
        "e->e f->f d->d"
    };
}
macro_rules! unary_inexact {
    () => {
        "e->e f->f d->d F->F D->D"
    };
}
macro_rules! unary_numbers {
    () => {
        loops!(unary_ints!(), "e->e f->f d->d F->F D->D")
    };
}
macro_rules! unary_whole {
    () => {
        loops!("?->?", unary_ints!(), "e->e f->f d->d")
    };
}
macro_rules! to_bool {
    () => {
        "??->? bb->? BB->? hh->? HH->? ii->? II->? qq->? QQ->? qQ->? Qq->? ee->? ff->? dd->? FF->? DD->?"
    };
}
macro_rules! logical {
    () => {
        "??->? bb->? BB->? hh->? HH->? ii->? II->? qq->? QQ->? ee->? ff->? dd->? FF->? DD->?"
    };
}
macro_rules! predicate {
    () => {
        "?->? b->? B->? h->? H->? i->? I->? q->? Q->? e->? f->? d->? F->? D->?"
    };
}
macro_rules! bitwise {
    () => {
        loops!("??->?", ints!())
    };
}

pub static OPS: &[ElementwiseOp] = &[
    binary!("add", [], Some("+"), all_same!(), Add, "op_add", "a + b, elementwise (for bools: or).", "add([1, 2], 10)"),
    row!("subtract", [], Some("-"), 2, numbers!(), Promote, Some((crate::base::DType::Bool, BOOL_SUBTRACT)), Subtract, "op_subtract", "a - b, elementwise.", "subtract(10, [1, 2])"),
    binary!("multiply", [], Some("*"), all_same!(), Multiply, "op_multiply", "a * b, elementwise (for bools: and).", "multiply([1, 2], [3, 4])"),
    row!("divide", ["true_divide"], Some("/"), 2, inexact!(), TrueDivide, None, Divide, "op_divide", "a / b, elementwise: always a float (integers divide as float64).", "divide([1, 2], 4)"),
    binary!("floor_divide", [], Some("//"), loops!(ints!(), floats!()), FloorDivide, "op_floor_divide", "a // b: the quotient rounded toward minus infinity (integer division by a zero array element gives 0, as NumPy's).", "floor_divide([7, -7], 2)"),
    binary!("remainder", ["mod"], Some("%"), loops!(ints!(), floats!()), Remainder, "op_remainder", "a % b with the sign of b (Python's and NumPy's modulo).", "remainder([7, -7], 3)"),
    binary!("fmod", [], None, loops!(ints!(), floats!()), Fmod, "op_fmod", "The remainder of C division: the sign of a.", "fmod([7, -7], 3)"),
    binary!("power", ["pow"], Some("**"), numbers!(), Power, "op_power", "a ** b, elementwise (integers to negative integer powers are an error).", "power([2, 3], 2)"),
    binary!("float_power", [], None, "dd->d DD->D", FloatPower, "op_power", "a ** b computed in float64 (or complex128).", "float_power(2, [0.5, 3])"),
    binary!("maximum", [], None, all_same!(), Maximum, "op_maximum", "The larger of a and b, elementwise (NaN wins).", "maximum([1, 5], [4, 2])"),
    binary!("minimum", [], None, all_same!(), Minimum, "op_minimum", "The smaller of a and b, elementwise (NaN wins).", "minimum([1, 5], 3)"),
    binary!("fmax", [], None, all_same!(), Fmax, "op_fmax", "The larger of a and b, ignoring a NaN on one side.", "fmax([1.0, nan], [0.0, 2.0])"),
    binary!("fmin", [], None, all_same!(), Fmin, "op_fmin", "The smaller of a and b, ignoring a NaN on one side.", "fmin([1.0, nan], [0.0, 2.0])"),
    binary!("arctan2", ["atan2"], None, floats!(), Arctan2, "op_arctan2", "The angle of the point (b, a) in radians, in [-pi, pi].", "arctan2(1.0, [1.0, -1.0])"),
    binary!("hypot", [], None, floats!(), Hypot, "op_hypot", "sqrt(a**2 + b**2) without overflow.", "hypot(3, 4)"),
    binary!("copysign", [], None, floats!(), Copysign, "op_copysign", "The magnitude of a with the sign of b.", "copysign([1.0, 2.0], -1)"),
    binary!("logaddexp", [], None, floats!(), Logaddexp, "op_logaddexp", "log(exp(a) + exp(b)), without overflow.", "logaddexp(1000.0, 1000.0)"),
    binary!("logaddexp2", [], None, floats!(), Logaddexp2, "op_logaddexp2", "log2(2**a + 2**b), without overflow.", "logaddexp2(1.0, 1.0)"),
    binary!("heaviside", [], None, floats!(), Heaviside, "op_heaviside", "The step function: 0 below zero, 1 above, b at zero.", "heaviside([-1.0, 0.0, 2.0], 0.5)"),
    binary!("nextafter", [], None, floats!(), Nextafter, "op_nextafter", "The next float after a in the direction of b.", "nextafter(1.0, 2.0) - 1.0"),
    binary!("bitwise_and", [], Some("&"), bitwise!(), BitwiseAnd, "op_bitwise_and", "a & b, bit by bit (integers and bools).", "bitwise_and(12, [10, 6])"),
    binary!("bitwise_or", [], Some("|"), bitwise!(), BitwiseOr, "op_bitwise_or", "a | b, bit by bit (integers and bools).", "bitwise_or(12, [10, 6])"),
    binary!("bitwise_xor", [], Some("^"), bitwise!(), BitwiseXor, "op_bitwise_xor", "a ^ b, bit by bit (integers and bools).", "bitwise_xor(12, [10, 6])"),
    binary!("left_shift", ["bitwise_left_shift"], Some("<<"), ints!(), LeftShift, "op_left_shift", "a << b: bits shifted up (0 once b reaches the width).", "left_shift(1, [1, 4])"),
    binary!("right_shift", ["bitwise_right_shift"], Some(">>"), ints!(), RightShift, "op_right_shift", "a >> b: bits shifted down, keeping the sign.", "right_shift([-16, 16], 2)"),
    binary!("equal", [], Some("=="), to_bool!(), Equal, "op_equal", "a == b, elementwise (a bool array).", "equal([1, 2], [1, 3])"),
    binary!("not_equal", [], Some("!="), to_bool!(), NotEqual, "op_not_equal", "a != b, elementwise.", "not_equal([1, 2], 2)"),
    binary!("less", [], Some("<"), to_bool!(), Less, "op_less", "a < b, elementwise (complex numbers compare real part first).", "less([1, 2], 2)"),
    binary!("less_equal", [], Some("<="), to_bool!(), LessEqual, "op_less_equal", "a <= b, elementwise.", "less_equal([1, 2], 1)"),
    binary!("greater", [], Some(">"), to_bool!(), Greater, "op_greater", "a > b, elementwise.", "greater([1, 2], 1)"),
    binary!("greater_equal", [], Some(">="), to_bool!(), GreaterEqual, "op_greater_equal", "a >= b, elementwise.", "greater_equal([1, 2], 2)"),
    binary!("logical_and", [], None, logical!(), LogicalAnd, "op_logical_and", "a and b for each element (non-zero is true): a bool array.", "logical_and([1, 0], [1, 1])"),
    binary!("logical_or", [], None, logical!(), LogicalOr, "op_logical_or", "a or b for each element.", "logical_or([1, 0], [0, 0])"),
    binary!("logical_xor", [], None, logical!(), LogicalXor, "op_logical_xor", "Exactly one of a and b is true, for each element.", "logical_xor([1, 0], [1, 1])"),
    row!("negative", [], Some("-"), 1, unary_numbers!(), Uniform, Some((crate::base::DType::Bool, BOOL_NEGATIVE)), Negative, "op_negative", "-x, elementwise (unsigned integers wrap).", "negative([1, -2])"),
    row!("positive", [], Some("+"), 1, unary_numbers!(), Uniform, None, Positive, "op_positive", "+x: a copy of x.", "positive([1, -2])"),
    unary!("absolute", ["abs"], loops!("?->?", unary_ints!(), "e->e f->f d->d F->f D->d"), Absolute, "op_absolute", "|x|, elementwise (the modulus of a complex number, as a float).", "abs([-1.5, 2])"),
    row!("sign", [], None, 1, unary_numbers!(), Uniform, None, Sign, "op_sign", "-1, 0 or 1 by the sign of x (x / |x| for complex numbers).", "sign([-3, 0, 5])"),
    unary!("square", [], unary_numbers!(), Square, "op_square", "x * x, elementwise.", "square([2, -3])"),
    unary!("reciprocal", [], unary_numbers!(), Reciprocal, "op_reciprocal", "1 / x in x's own dtype (integers: integer division).", "reciprocal([2.0, 4.0])"),
    unary!("conjugate", ["conj"], unary_numbers!(), Conjugate, "op_conjugate", "The complex conjugate (a copy for real numbers).", "conj(1 + 2j)"),
    unary!("sqrt", [], unary_inexact!(), Sqrt, "op_sqrt", "Square root, elementwise (NaN below zero for real input).", "sqrt([4, 2])"),
    unary!("cbrt", [], unary_floats!(), Cbrt, "op_cbrt", "Cube root, elementwise.", "cbrt([27, -8])"),
    unary!("exp", [], unary_inexact!(), Exp, "op_exp", "e ** x, elementwise.", "exp([0.0, 1.0])"),
    unary!("exp2", [], unary_inexact!(), Exp2, "op_exp2", "2 ** x, elementwise.", "exp2([1, 10])"),
    unary!("expm1", [], unary_inexact!(), Expm1, "op_expm1", "exp(x) - 1, accurate for small x.", "expm1(1e-10)"),
    unary!("log", [], unary_inexact!(), Log, "op_log", "Natural logarithm, elementwise.", "log(exp(2.0))"),
    unary!("log2", [], unary_inexact!(), Log2, "op_log2", "Base-2 logarithm, elementwise.", "log2(8)"),
    unary!("log10", [], unary_inexact!(), Log10, "op_log10", "Base-10 logarithm, elementwise.", "log10(1000)"),
    unary!("log1p", [], unary_inexact!(), Log1p, "op_log1p", "log(1 + x), accurate for small x.", "log1p(1e-10)"),
    unary!("sin", [], unary_inexact!(), Sin, "op_sin", "Sine (radians), elementwise.", "sin(linspace(0, 3.14159, 5))"),
    unary!("cos", [], unary_inexact!(), Cos, "op_cos", "Cosine (radians), elementwise.", "cos(0.0)"),
    unary!("tan", [], unary_inexact!(), Tan, "op_tan", "Tangent (radians), elementwise.", "tan(0.5)"),
    unary!("arcsin", ["asin"], unary_inexact!(), Arcsin, "op_arcsin", "Inverse sine, in [-pi/2, pi/2].", "arcsin(1.0)"),
    unary!("arccos", ["acos"], unary_inexact!(), Arccos, "op_arccos", "Inverse cosine, in [0, pi].", "arccos(-1.0)"),
    unary!("arctan", ["atan"], unary_inexact!(), Arctan, "op_arctan", "Inverse tangent, in [-pi/2, pi/2].", "arctan(1.0)"),
    unary!("sinh", [], unary_inexact!(), Sinh, "op_sinh", "Hyperbolic sine, elementwise.", "sinh(1.0)"),
    unary!("cosh", [], unary_inexact!(), Cosh, "op_cosh", "Hyperbolic cosine, elementwise.", "cosh(1.0)"),
    unary!("tanh", [], unary_inexact!(), Tanh, "op_tanh", "Hyperbolic tangent, elementwise.", "tanh([-1.0, 0.0, 1.0])"),
    unary!("arcsinh", ["asinh"], unary_inexact!(), Arcsinh, "op_arcsinh", "Inverse hyperbolic sine.", "arcsinh(1.0)"),
    unary!("arccosh", ["acosh"], unary_inexact!(), Arccosh, "op_arccosh", "Inverse hyperbolic cosine.", "arccosh(2.0)"),
    unary!("arctanh", ["atanh"], unary_inexact!(), Arctanh, "op_arctanh", "Inverse hyperbolic tangent.", "arctanh(0.5)"),
    unary!("floor", [], unary_whole!(), Floor, "op_floor", "The largest whole number not above x (integers stay as they are).", "floor([1.5, -1.5])"),
    unary!("ceil", [], unary_whole!(), Ceil, "op_ceil", "The smallest whole number not below x.", "ceil([1.5, -1.5])"),
    unary!("trunc", [], unary_whole!(), Trunc, "op_trunc", "x rounded toward zero.", "trunc([1.5, -1.5])"),
    unary!("rint", [], unary_inexact!(), Rint, "op_rint", "The nearest whole number, halves to even.", "rint([0.5, 1.5, 2.5])"),
    unary!("deg2rad", ["radians"], unary_floats!(), Deg2rad, "op_deg2rad", "Degrees to radians.", "deg2rad(180)"),
    unary!("rad2deg", ["degrees"], unary_floats!(), Rad2deg, "op_rad2deg", "Radians to degrees.", "rad2deg(pi)"),
    row!("invert", ["bitwise_invert", "bitwise_not"], Some("~"), 1, loops!("?->?", unary_ints!()), Promote, None, Invert, "op_invert", "~x: every bit flipped (for bools: not).", "invert([0, 1, -1])"),
    unary!("isnan", [], predicate!(), Isnan, "op_isnan", "True where x is NaN.", "isnan([1.0, nan])"),
    unary!("isinf", [], predicate!(), Isinf, "op_isinf", "True where x is infinite.", "isinf([1.0, inf])"),
    unary!("isfinite", [], predicate!(), Isfinite, "op_isfinite", "True where x is neither infinite nor NaN.", "isfinite([1.0, inf, nan])"),
    unary!("signbit", [], "e->? f->? d->?", Signbit, "op_signbit", "True where the sign bit is set (also for -0.0).", "signbit([-0.0, 1.0])"),
    unary!("logical_not", [], predicate!(), LogicalNot, "op_logical_not", "not x for each element (zero is false): a bool array.", "logical_not([0, 2])"),
    unary!("spacing", [], unary_floats!(), Spacing, "op_spacing", "The distance from x to the next float away from zero.", "spacing(1.0)"),
    unary!("real", [], "F->f D->d", Real, "op_real", "The real part (x itself for real numbers; also x.real).", "real(1 + 2j)"),
    unary!("imag", [], "F->f D->d", Imag, "op_imag", "The imaginary part (zeros for real numbers; also x.imag).", "imag(1 + 2j)"),
    row!("where", [], None, 3, "", Where, None, Where, "op_where", "Elements of x where condition is true, else of y, all broadcast together.", "where([true, false], 1, 2)"),
    row!("clip", [], None, 3, "", Promote, None, Clip, "op_clip", "x limited to [lo, hi], elementwise (NaN stays NaN).", "clip(arange(10), 2, 7)"),
];

/// The row of a NumPy name or an alias.
pub fn find(name: &str) -> Option<&'static ElementwiseOp> {
    OPS.iter()
        .find(|row| row.name == name || row.aliases.contains(&name))
}

/// The row an operator spells: `binary` for `a + b`, else the prefix form (`-x`, `~x`).
pub fn by_symbol(symbol: &str, binary: bool) -> &'static ElementwiseOp {
    OPS.iter()
        .find(|row| row.symbol == Some(symbol) && (row.nin == 2) == binary)
        .unwrap_or_else(|| panic!("no elementwise operation is spelled {symbol}"))
}

pub fn row(op: Op) -> &'static ElementwiseOp {
    OPS.iter()
        .find(|row| row.op == op)
        .expect("every op has a row")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_op_has_one_row_and_loops_parse() {
        for row in OPS {
            assert_eq!(
                OPS.iter().filter(|r| r.op == row.op).count(),
                1,
                "{}",
                row.name
            );
            for sig in row.loops.split_whitespace() {
                let (ins, out) = sig.split_once("->").expect("in->out");
                assert_eq!(ins.len(), row.nin, "{}: {sig}", row.name);
                assert_eq!(out.len(), 1, "{}: {sig}", row.name);
                for c in ins.chars().chain(out.chars()) {
                    assert!(
                        crate::base::DType::from_char(c).is_some(),
                        "{}: {sig}",
                        row.name
                    );
                }
            }
        }
    }
}
