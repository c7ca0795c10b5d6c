//! NumPy-compatible text for arrays of every dtype and Python-compatible text
//! for floats and complex numbers.
//!
//! A port of NumPy 2.x `arrayprint` with its default print options
//! (`precision=8`, `floatmode='maxprec'`, `suppress=False`, `linewidth=75`,
//! `threshold=1000`, `edgeitems=3`, `sign='-'`), including NumPy's Dragon4 digit
//! generator: when NumPy asks for more digits than the shortest round-trip ones
//! (to line up a column in exponent notation) it prints further digits of the
//! exact binary value, so no off-the-shelf shortest formatter can stand in for it.

use std::cmp::Ordering;
use std::fmt::Display;

use ndarray::{ArrayViewD, Axis};
use num_complex::Complex;

use crate::base::dtype::DType;
use crate::base::element::{c128, c64, f16};

/// Digits after the decimal point (positional) or after the first digit (scientific).
const PRECISION: u32 = 8;
const LINE_WIDTH: usize = 75;
/// Arrays with more elements than this are summarised with `...`.
const THRESHOLD: usize = 1000;
/// Elements kept at each end of a summarised axis.
const EDGE_ITEMS: usize = 3;
const REPR_PREFIX: &str = "array(";
const SUMMARY_INSERT: &str = "...";

/// A borrowed array of any element type, ready to be printed.
pub enum FormatData<'a> {
    Bool(ArrayViewD<'a, bool>),
    I8(ArrayViewD<'a, i8>),
    U8(ArrayViewD<'a, u8>),
    I16(ArrayViewD<'a, i16>),
    U16(ArrayViewD<'a, u16>),
    I32(ArrayViewD<'a, i32>),
    U32(ArrayViewD<'a, u32>),
    I64(ArrayViewD<'a, i64>),
    U64(ArrayViewD<'a, u64>),
    F16(ArrayViewD<'a, f16>),
    F32(ArrayViewD<'a, f32>),
    F64(ArrayViewD<'a, f64>),
    C64(ArrayViewD<'a, c64>),
    C128(ArrayViewD<'a, c128>),
}

/// Runs `$body` with `$view` bound to the view inside any arm of `FormatData`.
macro_rules! with_view {
    ($data:expr, $view:ident => $body:expr) => {
        match $data {
            FormatData::Bool($view) => $body,
            FormatData::I8($view) => $body,
            FormatData::U8($view) => $body,
            FormatData::I16($view) => $body,
            FormatData::U16($view) => $body,
            FormatData::I32($view) => $body,
            FormatData::U32($view) => $body,
            FormatData::I64($view) => $body,
            FormatData::U64($view) => $body,
            FormatData::F16($view) => $body,
            FormatData::F32($view) => $body,
            FormatData::F64($view) => $body,
            FormatData::C64($view) => $body,
            FormatData::C128($view) => $body,
        }
    };
}

/// An element type whose arrays can be wrapped in `FormatData`.
pub trait Formattable: Sized + Copy {
    fn format_data(view: ArrayViewD<'_, Self>) -> FormatData<'_>;
}

macro_rules! formattable {
    ($($t:ty => $arm:ident),* $(,)?) => { $(
        impl Formattable for $t {
            fn format_data(view: ArrayViewD<'_, Self>) -> FormatData<'_> {
                FormatData::$arm(view)
            }
        }
    )* };
}

formattable!(
    bool => Bool, i8 => I8, u8 => U8, i16 => I16, u16 => U16, i32 => I32, u32 => U32,
    i64 => I64, u64 => U64, f16 => F16, f32 => F32, f64 => F64, c64 => C64, c128 => C128,
);

/// NumPy's rule for a non-empty array's repr: `dtype=` is shown unless the dtype
/// is one that a plain literal produces (`float64`, `int64`, `bool`, `complex128`).
pub fn repr_shows_dtype(dtype: DType) -> bool {
    !matches!(dtype, DType::F64 | DType::I64 | DType::Bool | DType::C128)
}

/// Python's `repr` of a float: the shortest digits that round-trip, in exponent
/// form when the decimal exponent is below -4 or at least 16
/// (`0.1`, `3.0`, `1e-07`, `1.5e+16`, `inf`, `-inf`, `nan`).
pub fn float_repr(x: f64) -> String {
    // NumPy's float64 scalar rule below picks the same notation as CPython's
    // digit-based rule: no double outside [1e-4, 1e16) has shortest digits inside
    // it, nor the other way round.
    float_scalar_text(x)
}

/// NumPy's `str` of an `np.float32` scalar (also the body of its `repr`): the
/// shortest digits that round-trip in `f32`, positional for magnitudes in
/// `[1e-4, 1e6)` and zero, exponent form otherwise (`0.1`, `1e+06`, `1e-04`).
pub fn float32_repr(x: f32) -> String {
    float_scalar_text(x)
}

/// NumPy's `str` of an `np.float16` scalar: the shortest digits that round-trip
/// in `f16`, positional for magnitudes in `[1e-4, 1e3)` and zero, exponent form
/// otherwise (`0.1`, `999.0`, `1e+03`, `6.55e+04`, `6e-08`).
pub fn float16_repr(x: f16) -> String {
    float_scalar_text(x)
}

/// Python's `repr(complex(re, im))`, which NumPy's `complex128` scalars share:
/// `(1+2j)`, `(1-0j)`, `(nan+nanj)`, and the imaginary part alone when the real
/// part is `+0` (`2j`, `-0j`, `1e+16j`).
pub fn complex_repr(re: f64, im: f64) -> String {
    complex_scalar_text(Complex::new(re, im))
}

/// NumPy's `repr(arr)`, e.g. `array([1., 2., 3.])`.
///
/// `shape=(...)` is added here, exactly where NumPy adds it: for summarised
/// arrays (more than 1000 elements) and for empty arrays whose shape is not `(0,)`.
///
/// `suffix` holds the remaining keywords, joined by `", "`, and is placed after
/// `shape=`; empty means none. NumPy's rule for the dtype, which the caller must
/// follow, is: pass `dtype=<numpy name>` (`uint8`, `float16`, `complex64`, ...)
/// when [`repr_shows_dtype`] says so **or the array has no elements** (any
/// dtype, e.g. `array([], dtype=float64)`); otherwise leave it out. Non-NumPy
/// keywords such as `device=gpu` go after it: `"dtype=float32, device=gpu"`.
pub fn array_repr(data: &FormatData, suffix: &str) -> String {
    let (body, shape) = with_view!(data, view => (repr_body(view), view.shape()));
    let size: usize = shape.iter().product();

    let mut extras = Vec::new();
    if (size == 0 && shape != [0]) || size > THRESHOLD {
        extras.push(format!("shape={}", python_tuple(shape)));
    }
    if !suffix.is_empty() {
        extras.push(suffix.to_owned());
    }
    if extras.is_empty() {
        return format!("{REPR_PREFIX}{body})");
    }

    let head = format!("{REPR_PREFIX}{body},");
    let tail = format!("{})", extras.join(", "));
    let last_line_len = head.len() - head.rfind('\n').map_or(0, |newline| newline + 1);
    let spacer = if last_line_len + tail.len() + 1 > LINE_WIDTH {
        format!("\n{}", " ".repeat(REPR_PREFIX.len()))
    } else {
        " ".to_owned()
    };
    format!("{head}{spacer}{tail}")
}

/// NumPy's `str(arr)`, e.g. `[1. 2. 3.]`; a 0-d array prints as its scalar (`5.0`).
pub fn array_str(data: &FormatData) -> String {
    with_view!(data, view => str_text(view))
}

/// Each element's text in row-major order, formatted as NumPy formats them together (one
/// precision and notation for all), without the padding that aligns them in a column.
pub fn element_texts(data: &FormatData) -> Vec<String> {
    with_view!(data, view => {
        let all: Vec<_> = view.iter().copied().collect();
        let format = Printable::element_format(&all, false);
        all.iter().map(|&x| format.format(x).trim().to_owned()).collect()
    })
}

fn repr_body<T: Printable>(view: &ArrayViewD<T>) -> String {
    // NumPy reserves one column for the closing parenthesis.
    array_to_string(view, ", ", REPR_PREFIX.len(), LINE_WIDTH - 1)
}

fn str_text<T: Printable>(view: &ArrayViewD<T>) -> String {
    match view.first() {
        Some(&scalar) if view.ndim() == 0 => scalar.scalar_str(),
        _ => array_to_string(view, " ", 0, LINE_WIDTH),
    }
}

/// Python's spelling of a shape tuple: `(2000,)`, `(0, 3)`.
fn python_tuple(shape: &[usize]) -> String {
    let items: Vec<String> = shape.iter().map(usize::to_string).collect();
    match items.as_slice() {
        [single] => format!("({single},)"),
        _ => format!("({})", items.join(", ")),
    }
}

/// NumPy's `array2string`: brackets, alignment, wrapping and summarisation.
fn array_to_string<T: Printable>(
    view: &ArrayViewD<T>,
    separator: &str,
    prefix_len: usize,
    line_width: usize,
) -> String {
    if view.is_empty() {
        return "[]".to_owned();
    }
    let summarize = view.len() > THRESHOLD;
    let mut shown = Vec::new();
    collect_shown(view.view(), summarize, &mut shown);
    let layout = Layout {
        format: T::element_format(&shown, view.ndim() == 0),
        separator,
        summarize,
    };
    // Continuation lines start under the first element, past `[` and the prefix.
    let hanging_indent = " ".repeat(prefix_len + 1);
    layout.format_block(view.view(), &hanging_indent, line_width)
}

/// A position along one axis of the printed array.
#[derive(Clone, Copy)]
enum Slot {
    Index(usize),
    Ellipsis,
}

/// The indices printed along an axis of length `len`, with `...` where a
/// summarised axis skips its middle.
fn printed_slots(len: usize, summarize: bool) -> impl Iterator<Item = Slot> {
    let skips_middle = summarize && len > 2 * EDGE_ITEMS;
    let (head_end, tail_start) = if skips_middle {
        (EDGE_ITEMS, len - EDGE_ITEMS)
    } else {
        (len, len)
    };
    (0..head_end)
        .map(Slot::Index)
        .chain(skips_middle.then_some(Slot::Ellipsis))
        .chain((tail_start..len).map(Slot::Index))
}

/// Gathers the elements that will be printed; only they decide the widths.
fn collect_shown<T: Copy>(view: ArrayViewD<T>, summarize: bool, out: &mut Vec<T>) {
    if view.ndim() == 0 {
        out.extend(view.iter().copied());
        return;
    }
    for slot in printed_slots(view.len_of(Axis(0)), summarize) {
        if let Slot::Index(i) = slot {
            collect_shown(view.index_axis(Axis(0), i), summarize, out);
        }
    }
}

/// Extends `line` with `word`, first moving to a new line when the word would
/// pass `width` and the current line holds more than its indent.
fn extend_line(text: &mut String, line: &mut String, word: &str, width: usize, indent: &str) {
    if line.len() + word.len() > width && line.len() > indent.len() {
        text.push_str(line.trim_end());
        text.push('\n');
        *line = indent.to_owned();
    }
    line.push_str(word);
}

struct Layout<'s, E> {
    format: E,
    separator: &'s str,
    summarize: bool,
}

impl<E> Layout<'_, E> {
    /// NumPy's `_formatArray` recursion: `hanging_indent` starts every line of
    /// this block and `width` is the room left before the closing brackets.
    fn format_block<T: Copy>(
        &self,
        view: ArrayViewD<T>,
        hanging_indent: &str,
        width: usize,
    ) -> String
    where
        E: ElementFormat<T>,
    {
        if view.ndim() == 0 {
            return view
                .first()
                .map_or_else(String::new, |&x| self.format.format(x));
        }
        let inner_indent = format!("{hanging_indent} ");
        let inner_width = width.saturating_sub(1);
        let slots = printed_slots(view.len_of(Axis(0)), self.summarize);
        let mut text = String::new();

        if view.ndim() == 1 {
            let mut line = hanging_indent.to_owned();
            for (n, slot) in slots.enumerate() {
                if n > 0 {
                    line.push_str(self.separator);
                }
                let word = match slot {
                    Slot::Index(i) => {
                        self.format_block(view.index_axis(Axis(0), i), &inner_indent, inner_width)
                    }
                    Slot::Ellipsis => SUMMARY_INSERT.to_owned(),
                };
                extend_line(
                    &mut text,
                    &mut line,
                    &word,
                    width.saturating_sub(1),
                    hanging_indent,
                );
            }
            text.push_str(&line);
        } else {
            // One newline between rows, one more per extra dimension (blank lines
            // between the 2-d blocks of a 3-d array).
            let row_separator = format!(
                "{}{}",
                self.separator.trim_end(),
                "\n".repeat(view.ndim() - 1)
            );
            for (n, slot) in slots.enumerate() {
                if n > 0 {
                    text.push_str(&row_separator);
                }
                text.push_str(hanging_indent);
                match slot {
                    Slot::Index(i) => text.push_str(&self.format_block(
                        view.index_axis(Axis(0), i),
                        &inner_indent,
                        inner_width,
                    )),
                    Slot::Ellipsis => text.push_str(SUMMARY_INSERT),
                }
            }
        }
        format!("[{}]", text.strip_prefix(hanging_indent).unwrap_or(&text))
    }
}

/// Formats single elements once the widths of all printed elements are known.
trait ElementFormat<T> {
    fn format(&self, x: T) -> String;
}

/// An element type that arrays can be printed with.
trait Printable: Copy {
    type Format: ElementFormat<Self>;

    fn element_format(shown: &[Self], zero_dimensional: bool) -> Self::Format;

    /// Text of the Python/NumPy scalar, used for `str` of a 0-d array.
    fn scalar_str(self) -> String;
}

impl<F: FloatValue> Printable for F {
    type Format = FloatFormat;

    fn element_format(shown: &[Self], _zero_dimensional: bool) -> FloatFormat {
        FloatFormat::new(shown, false)
    }

    fn scalar_str(self) -> String {
        float_scalar_text(self)
    }
}

impl<F: FloatValue> Printable for Complex<F> {
    type Format = ComplexFormat;

    /// NumPy's `ComplexFloatingFormat`: the real and the imaginary parts are
    /// sized as two separate float arrays, the imaginary one always signed.
    fn element_format(shown: &[Self], _zero_dimensional: bool) -> ComplexFormat {
        let real: Vec<F> = shown.iter().map(|z| z.re).collect();
        let imag: Vec<F> = shown.iter().map(|z| z.im).collect();
        ComplexFormat {
            real: FloatFormat::new(&real, false),
            imag: FloatFormat::new(&imag, true),
        }
    }

    fn scalar_str(self) -> String {
        complex_scalar_text(self)
    }
}

macro_rules! integer_printable {
    ($($t:ty),*) => { $(
        impl Printable for $t {
            type Format = IntFormat;

            fn element_format(shown: &[Self], _zero_dimensional: bool) -> IntFormat {
                IntFormat::new(shown)
            }

            fn scalar_str(self) -> String {
                self.to_string()
            }
        }
    )* };
}

integer_printable!(i8, u8, i16, u16, i32, u32, i64, u64);

impl Printable for bool {
    type Format = BoolFormat;

    fn element_format(_shown: &[Self], zero_dimensional: bool) -> BoolFormat {
        // Inside brackets `True` gets a space so that it lines up with `False`.
        BoolFormat {
            true_text: if zero_dimensional { "True" } else { " True" },
        }
    }

    fn scalar_str(self) -> String {
        if self { "True" } else { "False" }.to_owned()
    }
}

struct IntFormat {
    width: usize,
}

impl IntFormat {
    fn new<T: Ord + Display>(shown: &[T]) -> IntFormat {
        let digits_of = |value: Option<&T>| value.map_or(0, |v| v.to_string().len());
        IntFormat {
            width: digits_of(shown.iter().max()).max(digits_of(shown.iter().min())),
        }
    }
}

impl<T: Display> ElementFormat<T> for IntFormat {
    fn format(&self, x: T) -> String {
        format!("{x:>width$}", width = self.width)
    }
}

struct BoolFormat {
    true_text: &'static str,
}

impl ElementFormat<bool> for BoolFormat {
    fn format(&self, x: bool) -> String {
        if x { self.true_text } else { "False" }.to_owned()
    }
}

struct ComplexFormat {
    real: FloatFormat,
    imag: FloatFormat,
}

impl<F: FloatValue> ElementFormat<Complex<F>> for ComplexFormat {
    fn format(&self, z: Complex<F>) -> String {
        let mut text = self.real.format(z.re);
        let imag = self.imag.format(z.im);
        // The `j` goes before the padding of the imaginary column: `1.+0.j  `.
        let (digits, padding) = imag.split_at(imag.trim_end().len());
        text.push_str(digits);
        text.push('j');
        text.push_str(padding);
        text
    }
}

/// A float type whose values NumPy prints with Dragon4.
trait FloatValue: Copy + Into<f64> {
    /// Scalars of this type print positionally below this magnitude.
    const MAX_POSITIONAL: f64;

    fn parts(self) -> FloatParts;

    /// NumPy's choice of exponent notation for an array, given the largest and
    /// smallest non-zero finite magnitudes, computed in the array's own type.
    fn prefers_scientific(abs_max: f64, abs_min: f64) -> bool;
}

impl FloatValue for f64 {
    const MAX_POSITIONAL: f64 = 1e16;

    fn parts(self) -> FloatParts {
        FloatParts::from_ieee_bits(self.to_bits(), 52, 11)
    }

    fn prefers_scientific(abs_max: f64, abs_min: f64) -> bool {
        abs_max >= 1e8 || abs_min < 1e-4 || abs_max / abs_min > 1e3
    }
}

impl FloatValue for f32 {
    const MAX_POSITIONAL: f64 = 1e6;

    fn parts(self) -> FloatParts {
        FloatParts::from_ieee_bits(u64::from(self.to_bits()), 23, 8)
    }

    fn prefers_scientific(abs_max: f64, abs_min: f64) -> bool {
        // The magnitudes came from f32 values, so narrowing them is exact; NumPy
        // compares and divides in f32, and its upper cutoff for f32 is 1e6.
        let (abs_max, abs_min) = (abs_max as f32, abs_min as f32);
        abs_max >= 1e6 || abs_min < 1e-4 || abs_max / abs_min > 1e3
    }
}

impl FloatValue for f16 {
    const MAX_POSITIONAL: f64 = 1e3;

    fn parts(self) -> FloatParts {
        FloatParts::from_ieee_bits(u64::from(self.to_bits()), 10, 5)
    }

    fn prefers_scientific(abs_max: f64, abs_min: f64) -> bool {
        // NumPy's upper cutoff for f16 is 1e3, and its f16 division rounds the
        // f32 quotient to f16 (a ratio past 65504 becomes inf).
        let (abs_max, abs_min) = (f16::from_f64(abs_max), f16::from_f64(abs_min));
        let ratio = f16::from_f32(abs_max.to_f32() / abs_min.to_f32());
        let thousand = f16::from_f32(1e3);
        abs_max >= thousand || abs_min < f16::from_f32(1e-4) || ratio > thousand
    }
}

/// `nan`, `inf` or `-inf`, with `+` before `nan` and `inf` when `plus_sign`.
fn non_finite_text(x: f64, plus_sign: bool) -> String {
    let sign = if x.is_sign_negative() && !x.is_nan() {
        "-"
    } else if plus_sign {
        "+"
    } else {
        ""
    };
    let name = if x.is_nan() { "nan" } else { "inf" };
    format!("{sign}{name}")
}

/// A lone float as NumPy scalars print it: shortest digits, positional for zero
/// and magnitudes in `[1e-4, F::MAX_POSITIONAL)`, exponent form otherwise.
fn float_scalar_text<F: FloatValue>(x: F) -> String {
    scalar_part(x, Trim::LeaveOneZero, false)
}

/// NumPy's `str` of a complex scalar, the same as Python's `repr(complex)` for
/// `complex128`: no trailing `.0`, and no real part when it is `+0`.
fn complex_scalar_text<F: FloatValue>(z: Complex<F>) -> String {
    let re: f64 = z.re.into();
    if re == 0.0 && re.is_sign_positive() {
        return format!("{}j", scalar_part(z.im, Trim::ZerosAndPoint, false));
    }
    format!(
        "({}{}j)",
        scalar_part(z.re, Trim::ZerosAndPoint, false),
        scalar_part(z.im, Trim::ZerosAndPoint, true)
    )
}

/// One float of a scalar's text; `positional_trim` is for the positional form
/// (the exponent form always drops a bare point).
fn scalar_part<F: FloatValue>(x: F, positional_trim: Trim, plus_sign: bool) -> String {
    let value: f64 = x.into();
    if !value.is_finite() {
        return non_finite_text(value, plus_sign);
    }
    // Compared in f64 like NumPy (not in f32), so f32(1e-4), which lies just
    // below 1e-4, takes the exponent form.
    let magnitude = value.abs();
    let shortest = Dragon4 {
        precision: None,
        min_digits: None,
        trim: positional_trim,
        plus_sign,
        pad_left: 0,
        pad_right: None,
        exponent_digits: 0,
    };
    if magnitude == 0.0 || (1e-4..F::MAX_POSITIONAL).contains(&magnitude) {
        shortest.positional(x.parts())
    } else {
        Dragon4 {
            trim: Trim::ZerosAndPoint,
            ..shortest
        }
        .scientific(x.parts())
    }
}

/// NumPy's `FloatingFormat` for one array: notation and padding shared by
/// every element so that they line up in columns.
struct FloatFormat {
    notation: Notation,
    /// Width of the sign and integer digits.
    pad_left: usize,
    /// Width of everything after the decimal point.
    pad_right: usize,
    /// Whether positive values get a `+` (the imaginary parts of complex arrays).
    plus_sign: bool,
}

enum Notation {
    Positional,
    Scientific {
        fraction_digits: u32,
        exponent_digits: usize,
    },
}

impl FloatFormat {
    fn new<F: FloatValue>(shown: &[F], plus_sign: bool) -> FloatFormat {
        let finite: Vec<F> = shown
            .iter()
            .copied()
            .filter(|&x| x.into().is_finite())
            .collect();
        let first_pass = Dragon4 {
            plus_sign,
            ..Dragon4::trimmed_to_precision()
        };
        let mut format = if finite.is_empty() {
            FloatFormat {
                notation: Notation::Positional,
                pad_left: 0,
                pad_right: 0,
                plus_sign,
            }
        } else if Self::needs_scientific(&finite) {
            Self::scientific(&finite, &first_pass)
        } else {
            Self::positional(&finite, &first_pass)
        };

        if finite.len() != shown.len() {
            // `-inf`, `+inf` and `+nan` take a fourth column.
            let signed_inf = plus_sign || shown.iter().any(|&x| x.into() == f64::NEG_INFINITY);
            let after_integer = format.pad_right + 1;
            let widest_special = "inf".len() + usize::from(signed_inf);
            format.pad_left = format
                .pad_left
                .max(widest_special.saturating_sub(after_integer));
        }
        format
    }

    fn needs_scientific<F: FloatValue>(finite: &[F]) -> bool {
        let magnitudes = finite.iter().map(|&x| x.into().abs()).filter(|&m| m != 0.0);
        let range = magnitudes.fold(None, |range: Option<(f64, f64)>, m| match range {
            None => Some((m, m)),
            Some((max, min)) => Some((max.max(m), min.min(m))),
        });
        range.is_some_and(|(max, min)| F::prefers_scientific(max, min))
    }

    /// Sizes the columns from a first pass that prints every value with at most
    /// `PRECISION` digits after the first and trailing zeros trimmed.
    fn scientific<F: FloatValue>(finite: &[F], first_pass: &Dragon4) -> FloatFormat {
        let (mut pad_left, mut fraction_digits, mut exponent_digits) = (0, 0, 0);
        for &x in finite {
            let text = first_pass.scientific(x.parts());
            let (mantissa, exponent) = text.split_once('e').unwrap_or((&text, ""));
            let (integer, fraction) = mantissa.split_once('.').unwrap_or((mantissa, ""));
            pad_left = pad_left.max(integer.len());
            fraction_digits = fraction_digits.max(fraction.len());
            // Not counting the exponent's sign.
            exponent_digits = exponent_digits.max(exponent.len().saturating_sub(1));
        }
        FloatFormat {
            notation: Notation::Scientific {
                fraction_digits: u32::try_from(fraction_digits).unwrap_or(PRECISION),
                exponent_digits,
            },
            pad_left,
            // "e", the exponent's sign and digits, and the mantissa's fraction.
            pad_right: exponent_digits + 2 + fraction_digits,
            plus_sign: first_pass.plus_sign,
        }
    }

    /// Sizes the columns from a first pass that prints every value with at most
    /// `PRECISION` fraction digits and trailing zeros trimmed.
    fn positional<F: FloatValue>(finite: &[F], first_pass: &Dragon4) -> FloatFormat {
        let (mut pad_left, mut pad_right) = (0, 0);
        for &x in finite {
            let text = first_pass.positional(x.parts());
            let (integer, fraction) = text.split_once('.').unwrap_or((&text, ""));
            pad_left = pad_left.max(integer.len());
            pad_right = pad_right.max(fraction.len());
        }
        FloatFormat {
            notation: Notation::Positional,
            pad_left,
            pad_right,
            plus_sign: first_pass.plus_sign,
        }
    }
}

impl<F: FloatValue> ElementFormat<F> for FloatFormat {
    fn format(&self, x: F) -> String {
        let value: f64 = x.into();
        if !value.is_finite() {
            let width = self.pad_left + self.pad_right + 1;
            return format!("{:>width$}", non_finite_text(value, self.plus_sign));
        }
        match self.notation {
            Notation::Positional => Dragon4 {
                precision: Some(PRECISION),
                min_digits: Some(0),
                trim: Trim::Zeros,
                plus_sign: self.plus_sign,
                pad_left: self.pad_left,
                pad_right: Some(self.pad_right),
                exponent_digits: 0,
            }
            .positional(x.parts()),
            // Values whose shortest digits are fewer than the column's get more
            // digits of their exact value, not zeros (`9.0880973e+11` for f32).
            Notation::Scientific {
                fraction_digits,
                exponent_digits,
            } => Dragon4 {
                precision: Some(fraction_digits),
                min_digits: Some(fraction_digits),
                trim: Trim::None,
                plus_sign: self.plus_sign,
                pad_left: self.pad_left,
                pad_right: None,
                exponent_digits,
            }
            .scientific(x.parts()),
        }
    }
}

/// What to do with trailing zeros of the fraction (NumPy's `trim` argument).
#[derive(Clone, Copy, PartialEq, Eq)]
enum Trim {
    /// `'k'`: keep them, and pad with zeros up to `min_digits`.
    None,
    /// `'.'`: drop them but keep the point (`1.`).
    Zeros,
    /// `'0'`: drop them but keep one zero after the point (`1.0`).
    LeaveOneZero,
    /// `'-'`: drop them and a bare point (`1`).
    ZerosAndPoint,
}

/// Options of NumPy's `dragon4_positional` / `dragon4_scientific` in unique mode.
struct Dragon4 {
    /// Most digits after the point (positional) or after the first digit (scientific).
    precision: Option<u32>,
    /// Fewest such digits: further digits of the exact value are printed to reach it.
    min_digits: Option<u32>,
    trim: Trim,
    /// Whether positive values (and `+0`) get a `+`.
    plus_sign: bool,
    /// Width of the sign and integer digits, filled with leading spaces.
    pad_left: usize,
    /// Width after the point, filled with trailing spaces (positional only).
    pad_right: Option<usize>,
    /// Fewest exponent digits (scientific only; at least 2).
    exponent_digits: usize,
}

impl Dragon4 {
    /// The first pass of `FloatingFormat`, which measures the columns.
    fn trimmed_to_precision() -> Dragon4 {
        Dragon4 {
            precision: Some(PRECISION),
            min_digits: None,
            trim: Trim::Zeros,
            plus_sign: false,
            pad_left: 0,
            pad_right: None,
            exponent_digits: 0,
        }
    }

    /// NumPy's `FormatPositional` for a finite value.
    fn positional(&self, parts: FloatParts) -> String {
        let digits = generate_digits(
            &parts,
            CutoffMode::FractionDigits,
            self.precision,
            self.min_digits,
        );
        let text = &digits.digits;
        let (integer, mut fraction) = match usize::try_from(digits.exponent) {
            Ok(exponent) => {
                let whole_digits = exponent + 1;
                match (text.get(..whole_digits), text.get(whole_digits..)) {
                    (Some(integer), Some(fraction)) => (integer.to_owned(), fraction.to_owned()),
                    _ => (format!("{text:0<whole_digits$}"), String::new()),
                }
            }
            Err(_) => {
                let leading_zeros = digits.exponent.unsigned_abs() as usize - 1;
                (
                    "0".to_owned(),
                    format!("{}{text}", "0".repeat(leading_zeros)),
                )
            }
        };
        self.finish_fraction(&mut fraction);
        let sign = self.sign(&parts);
        let signed_integer = format!("{sign}{integer}");
        let mut out = format!("{signed_integer:>width$}", width = self.pad_left);
        if !(fraction.is_empty() && self.trim == Trim::ZerosAndPoint) {
            out.push('.');
        }
        out.push_str(&fraction);
        if let Some(pad_right) = self.pad_right {
            if fraction.is_empty() && self.trim == Trim::ZerosAndPoint {
                out.push(' ');
            }
            out.push_str(&" ".repeat(pad_right.saturating_sub(fraction.len())));
        }
        out
    }

    /// NumPy's `FormatScientific` for a finite value.
    fn scientific(&self, parts: FloatParts) -> String {
        // Dragon4 counts the first digit too in this mode.
        let total = |digits: Option<u32>| digits.map(|n| n.saturating_add(1));
        let digits = generate_digits(
            &parts,
            CutoffMode::TotalDigits,
            total(self.precision),
            total(self.min_digits),
        );
        let (first, rest) = digits.digits.split_at(1.min(digits.digits.len()));
        let mut fraction = rest.to_owned();
        // NumPy keeps a point left bare by trimming here, even in `'-'` mode.
        let had_fraction = !fraction.is_empty();
        self.finish_fraction(&mut fraction);
        let sign = self.sign(&parts);
        let mantissa = format!("{sign}{first}");
        let mut out = format!("{mantissa:>width$}", width = self.pad_left);
        if had_fraction || self.trim != Trim::ZerosAndPoint {
            out.push('.');
        }
        out.push_str(&fraction);
        let exponent_sign = if digits.exponent < 0 { '-' } else { '+' };
        let exponent = digits.exponent.unsigned_abs();
        let width = self.exponent_digits.clamp(2, 5);
        out.push_str(&format!("e{exponent_sign}{exponent:0>width$}"));
        out
    }

    fn sign(&self, parts: &FloatParts) -> &'static str {
        match (parts.negative, self.plus_sign) {
            (true, _) => "-",
            (false, true) => "+",
            (false, false) => "",
        }
    }

    /// Applies `min_digits` padding and trailing-zero trimming to the fraction.
    fn finish_fraction(&self, fraction: &mut String) {
        match self.trim {
            Trim::None => {
                let wanted = self.min_digits.unwrap_or(0) as usize;
                if fraction.len() < wanted {
                    let zeros = wanted - fraction.len();
                    fraction.push_str(&"0".repeat(zeros));
                }
            }
            Trim::Zeros | Trim::ZerosAndPoint | Trim::LeaveOneZero => {
                fraction.truncate(fraction.trim_end_matches('0').len());
                if self.trim == Trim::LeaveOneZero && fraction.is_empty() {
                    fraction.push('0');
                }
            }
        }
    }
}

/// The parts of a finite float that Dragon4 works on: `mantissa × 2^exponent`.
struct FloatParts {
    negative: bool,
    mantissa: u64,
    exponent: i32,
    /// Index of the mantissa's highest set bit.
    mantissa_bit: u32,
    /// Whether the gap to the next float above is twice the gap below (the
    /// mantissa is an exact power of two).
    unequal_margins: bool,
}

impl FloatParts {
    /// Splits an IEEE 754 binary float given as its raw bits.
    fn from_ieee_bits(bits: u64, fraction_bits: u32, exponent_bits: u32) -> FloatParts {
        let fraction = bits & ((1 << fraction_bits) - 1);
        let biased_exponent = (bits >> fraction_bits) & ((1 << exponent_bits) - 1);
        let negative = (bits >> (fraction_bits + exponent_bits)) & 1 == 1;
        let bias = (1_i32 << (exponent_bits - 1)) - 1;
        if biased_exponent == 0 {
            // Subnormal (or zero): no implicit leading bit.
            FloatParts {
                negative,
                mantissa: fraction,
                exponent: 1 - bias - fraction_bits as i32,
                mantissa_bit: fraction.checked_ilog2().unwrap_or(0),
                unequal_margins: false,
            }
        } else {
            FloatParts {
                negative,
                mantissa: fraction | (1 << fraction_bits),
                exponent: biased_exponent as i32 - bias - fraction_bits as i32,
                mantissa_bit: fraction_bits,
                unequal_margins: biased_exponent != 1 && fraction == 0,
            }
        }
    }
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum CutoffMode {
    /// Precision counts all significant digits.
    TotalDigits,
    /// Precision counts digits after the decimal point.
    FractionDigits,
}

/// Decimal digits `d.ddd × 10^exponent`.
struct Digits {
    digits: String,
    exponent: i32,
}

/// Dragon4 (Steele & White, as in NumPy's `dragon4.c`) in unique mode: emits
/// digits until they identify the value among its neighbours, but no more than
/// `cutoff_max` and, printing further digits of the exact value, no fewer than
/// `cutoff_min`; the last digit is rounded to nearest, ties to even.
fn generate_digits(
    parts: &FloatParts,
    mode: CutoffMode,
    cutoff_max: Option<u32>,
    cutoff_min: Option<u32>,
) -> Digits {
    if parts.mantissa == 0 {
        return Digits {
            digits: "0".to_owned(),
            exponent: 0,
        };
    }
    let mut scaled = ScaledValue::new(parts);

    // An estimate of floor(log10(value)) + 1 that is exact or one too low.
    let mut digit_exponent = ((f64::from(parts.mantissa_bit) + f64::from(parts.exponent))
        * std::f64::consts::LOG10_2
        - 0.69)
        .ceil() as i32;
    let to_i32 = |n: u32| i32::try_from(n).unwrap_or(i32::MAX);
    if let (Some(cutoff), CutoffMode::FractionDigits) = (cutoff_max, mode) {
        // Values too small to reach the last allowed digit start there, and
        // round to it.
        digit_exponent = digit_exponent.max(1 - to_i32(cutoff));
    }
    scaled.divide_by_pow10(digit_exponent);
    if scaled.value >= scaled.scale {
        digit_exponent += 1;
    } else {
        scaled.multiply_by_10();
    }

    let cutoff_exponent = |cutoff: u32| match mode {
        CutoffMode::TotalDigits => digit_exponent.saturating_sub(to_i32(cutoff)),
        CutoffMode::FractionDigits => -to_i32(cutoff),
    };
    let last_allowed = cutoff_max.map(cutoff_exponent);
    let last_required = cutoff_min.map_or(digit_exponent, |cutoff| {
        cutoff_exponent(cutoff).min(digit_exponent)
    });
    let mut digits = Digits {
        digits: String::new(),
        exponent: digit_exponent - 1,
    };

    // Exact ties with a neighbour's half-way point read back as this float when
    // its mantissa is even (round-half-even on parsing).
    let boundary_counts = parts.mantissa.is_multiple_of(2);
    loop {
        digit_exponent -= 1;
        let digit = take_digit(&mut scaled.value, &scaled.scale);
        // Whether rounding down / up at this digit still reads back as the value.
        let low_cmp = scaled.value.cmp(&scaled.margin_low);
        let high_cmp = scaled.value.add(&scaled.margin_high()).cmp(&scaled.scale);
        let low = low_cmp.is_lt() || (boundary_counts && low_cmp.is_eq());
        let high = high_cmp.is_gt() || (boundary_counts && high_cmp.is_eq());
        if ((low || high) && digit_exponent <= last_required)
            || Some(digit_exponent) == last_allowed
        {
            let round_down = if low == high {
                // Either way works (or neither does): round to nearest, ties to even.
                scaled.value.mul_small(2);
                match scaled.value.cmp(&scaled.scale) {
                    Ordering::Less => true,
                    Ordering::Greater => false,
                    Ordering::Equal => digit.is_multiple_of(2),
                }
            } else {
                low
            };
            digits.push_last(if round_down { digit } else { digit + 1 });
            return digits;
        }
        digits.digits.push(char::from(b'0' + digit));
        scaled.multiply_by_10();
    }
}

/// The value and half the gaps to its neighbouring floats, as integers over a
/// common `scale`.
struct ScaledValue {
    value: BigUint,
    scale: BigUint,
    margin_low: BigUint,
    /// The gap above is twice the gap below (the mantissa is a power of two).
    margin_high_is_double: bool,
}

impl ScaledValue {
    fn new(parts: &FloatParts) -> ScaledValue {
        // One extra factor 2 makes the half-gaps integers, another one the
        // half of a smaller gap below a power of two.
        let extra = if parts.unequal_margins { 2 } else { 1 };
        let mut value = BigUint::from_u64(parts.mantissa);
        let exponent = parts.exponent.unsigned_abs();
        let (scale, margin_low) = if parts.exponent > 0 {
            value.shift_left(exponent + extra);
            (BigUint::pow2(extra), BigUint::pow2(exponent))
        } else {
            value.shift_left(extra);
            (BigUint::pow2(exponent + extra), BigUint::from_u64(1))
        };
        ScaledValue {
            value,
            scale,
            margin_low,
            margin_high_is_double: parts.unequal_margins,
        }
    }

    fn margin_high(&self) -> BigUint {
        let mut margin = self.margin_low.clone();
        if self.margin_high_is_double {
            margin.mul_small(2);
        }
        margin
    }

    fn divide_by_pow10(&mut self, exponent: i32) {
        let magnitude = exponent.unsigned_abs();
        if exponent > 0 {
            self.scale.mul_pow10(magnitude);
        } else {
            self.value.mul_pow10(magnitude);
            self.margin_low.mul_pow10(magnitude);
        }
    }

    fn multiply_by_10(&mut self) {
        self.value.mul_small(10);
        self.margin_low.mul_small(10);
    }
}

impl Digits {
    /// Appends the final digit, which rounding up may have made 10.
    fn push_last(&mut self, digit: u8) {
        if digit < 10 {
            self.digits.push(char::from(b'0' + digit));
            return;
        }
        // Carry through trailing nines, which then drop off the end.
        let kept = self.digits.trim_end_matches('9').len();
        self.digits.truncate(kept);
        match self.digits.pop() {
            Some(previous) => self.digits.push(char::from(previous as u8 + 1)),
            None => {
                self.digits.push('1');
                self.exponent += 1;
            }
        }
    }
}

/// Divides out one decimal digit: `value / scale` with `value < 10 × scale`,
/// leaving the remainder in `value`.
fn take_digit(value: &mut BigUint, scale: &BigUint) -> u8 {
    let mut digit = 0;
    while *value >= *scale && digit < 9 {
        value.sub_assign(scale);
        digit += 1;
    }
    digit
}

/// Just enough unsigned big-integer arithmetic for Dragon4: 32-bit limbs,
/// least significant first, with no high zero limbs.
#[derive(Clone, PartialEq, Eq)]
struct BigUint {
    limbs: Vec<u32>,
}

impl BigUint {
    fn from_u64(value: u64) -> BigUint {
        let mut number = BigUint {
            limbs: vec![value as u32, (value >> 32) as u32],
        };
        number.normalize();
        number
    }

    fn pow2(exponent: u32) -> BigUint {
        let mut number = BigUint::from_u64(1);
        number.shift_left(exponent);
        number
    }

    fn normalize(&mut self) {
        while self.limbs.last() == Some(&0) {
            self.limbs.pop();
        }
    }

    fn shift_left(&mut self, bits: u32) {
        if self.limbs.is_empty() {
            return;
        }
        let bit_shift = bits % 32;
        if bit_shift != 0 {
            let mut carry = 0;
            for limb in &mut self.limbs {
                let wide = (u64::from(*limb) << bit_shift) | carry;
                *limb = wide as u32;
                carry = wide >> 32;
            }
            if carry != 0 {
                self.limbs.push(carry as u32);
            }
        }
        let limb_shift = (bits / 32) as usize;
        self.limbs.splice(0..0, std::iter::repeat_n(0, limb_shift));
    }

    fn mul_small(&mut self, factor: u32) {
        let mut carry = 0;
        for limb in &mut self.limbs {
            let wide = u64::from(*limb) * u64::from(factor) + carry;
            *limb = wide as u32;
            carry = wide >> 32;
        }
        if carry != 0 {
            self.limbs.push(carry as u32);
        }
        self.normalize();
    }

    fn mul_pow10(&mut self, mut exponent: u32) {
        const TEN_TO_THE_NINE: u32 = 1_000_000_000;
        while exponent >= 9 {
            self.mul_small(TEN_TO_THE_NINE);
            exponent -= 9;
        }
        self.mul_small(10_u32.pow(exponent));
    }

    fn add(&self, other: &BigUint) -> BigUint {
        let (long, short) = if self.limbs.len() >= other.limbs.len() {
            (&self.limbs, &other.limbs)
        } else {
            (&other.limbs, &self.limbs)
        };
        let mut limbs = Vec::with_capacity(long.len() + 1);
        let mut carry = 0;
        for (i, &limb) in long.iter().enumerate() {
            let wide = u64::from(limb) + u64::from(short.get(i).copied().unwrap_or(0)) + carry;
            limbs.push(wide as u32);
            carry = wide >> 32;
        }
        if carry != 0 {
            limbs.push(carry as u32);
        }
        BigUint { limbs }
    }

    /// `self -= other`, for `other <= self`.
    fn sub_assign(&mut self, other: &BigUint) {
        let mut borrow = false;
        for (i, limb) in self.limbs.iter_mut().enumerate() {
            let subtrahend = other.limbs.get(i).copied().unwrap_or(0);
            let (difference, borrowed_once) = limb.overflowing_sub(subtrahend);
            let (difference, borrowed_twice) = difference.overflowing_sub(u32::from(borrow));
            *limb = difference;
            borrow = borrowed_once || borrowed_twice;
        }
        self.normalize();
    }
}

impl Ord for BigUint {
    fn cmp(&self, other: &BigUint) -> Ordering {
        self.limbs
            .len()
            .cmp(&other.limbs.len())
            .then_with(|| self.limbs.iter().rev().cmp(other.limbs.iter().rev()))
    }
}

impl PartialOrd for BigUint {
    fn partial_cmp(&self, other: &BigUint) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

#[cfg(test)]
mod tests {
    //! Expected strings were produced by NumPy 2.4 / CPython 3.11.

    use ndarray::{ArrayD, IxDyn};

    use super::*;
    use crate::base::element::Element;

    fn array<T: Clone>(shape: &[usize], values: &[T]) -> ArrayD<T> {
        ArrayD::from_shape_vec(IxDyn(shape), values.to_vec()).expect("shape matches values")
    }

    fn arange(shape: &[usize]) -> ArrayD<f64> {
        let len = shape.iter().product::<usize>();
        array(shape, &(0..len).map(|i| i as f64).collect::<Vec<_>>())
    }

    fn ramp<T>(shape: &[usize], element: impl Fn(usize) -> T) -> ArrayD<T> {
        let len = shape.iter().product::<usize>();
        ArrayD::from_shape_vec(IxDyn(shape), (0..len).map(element).collect())
            .expect("shape matches values")
    }

    fn h(values: &[f64]) -> Vec<f16> {
        values.iter().map(|&x| f16::from_f64(x)).collect()
    }

    fn c(re: f64, im: f64) -> c128 {
        c128::new(re, im)
    }

    fn c32(re: f64, im: f64) -> c64 {
        c64::new(re as f32, im as f32)
    }

    /// Checks `repr` and `str`, passing `dtype=` as the interpreter does.
    fn assert_prints<T: Formattable + Element>(a: &ArrayD<T>, repr: &str, str: &str) {
        let suffix = if repr_shows_dtype(T::DTYPE) || a.is_empty() {
            format!("dtype={}", T::DTYPE.numpy_name())
        } else {
            String::new()
        };
        assert_eq!(array_repr(&T::format_data(a.view()), &suffix), repr);
        assert_eq!(array_str(&T::format_data(a.view())), str);
    }

    fn repr_f64(a: &ArrayD<f64>) -> String {
        array_repr(&FormatData::F64(a.view()), "")
    }

    fn str_f64(a: &ArrayD<f64>) -> String {
        array_str(&FormatData::F64(a.view()))
    }

    fn repr_f32(a: &ArrayD<f32>) -> String {
        array_repr(&FormatData::F32(a.view()), "dtype=float32")
    }

    #[test]
    fn float_repr_matches_python() {
        let cases = [
            (0.1, "0.1"),
            (3.0, "3.0"),
            (1e-7, "1e-07"),
            (1e-5, "1e-05"),
            (1e16, "1e+16"),
            (1.5e16, "1.5e+16"),
            (123456789012345.0, "123456789012345.0"),
            (0.0001, "0.0001"),
            (-0.0, "-0.0"),
            (f64::INFINITY, "inf"),
            (f64::NEG_INFINITY, "-inf"),
            (f64::NAN, "nan"),
            (5e-324, "5e-324"),
            (f64::MAX, "1.7976931348623157e+308"),
            (2f64.powi(60), "1.152921504606847e+18"),
        ];
        for (x, expected) in cases {
            assert_eq!(float_repr(x), expected, "{x:e}");
        }
    }

    #[test]
    fn float32_repr_matches_numpy() {
        let cases = [
            (0.1, "0.1"),
            (1e6, "1e+06"),
            (999999.0, "999999.0"),
            (1e-4, "1e-04"),
            (1.1e-4, "0.00011"),
            (f32::MAX, "3.4028235e+38"),
            (16777216.0, "1.6777216e+07"),
            (-2.5, "-2.5"),
            (f32::NAN, "nan"),
        ];
        for (x, expected) in cases {
            assert_eq!(float32_repr(x), expected, "{x:e}");
        }
    }

    #[test]
    fn float16_repr_matches_numpy() {
        let cases = [
            (0.1, "0.1"),
            (65504.0, "6.55e+04"),
            (1000.0, "1e+03"),
            (999.0, "999.0"),
            (999.5, "999.5"),
            (1e-4, "0.0001"),
            (9.9e-5, "9.9e-05"),
            (2f64.powi(-24), "6e-08"),
            (2f64.powi(-14), "6.104e-05"),
            (std::f64::consts::PI, "3.14"),
            (2049.0, "2.048e+03"),
            (0.3333, "0.3333"),
            (-1.5, "-1.5"),
            (0.0, "0.0"),
            (-0.0, "-0.0"),
            (f64::INFINITY, "inf"),
            (f64::NEG_INFINITY, "-inf"),
            (f64::NAN, "nan"),
        ];
        for (x, expected) in cases {
            assert_eq!(float16_repr(f16::from_f64(x)), expected, "{x:e}");
        }
    }

    #[test]
    fn complex_repr_matches_python() {
        let cases = [
            (1.0, 2.0, "(1+2j)"),
            (0.0, 2.0, "2j"),
            (0.0, -2.0, "-2j"),
            (-0.0, -1.0, "(-0-1j)"),
            (1.0, -0.0, "(1-0j)"),
            (0.0, 0.0, "0j"),
            (-0.0, 0.0, "(-0+0j)"),
            (0.0, -0.0, "-0j"),
            (f64::NAN, f64::NAN, "(nan+nanj)"),
            (f64::INFINITY, 1.0, "(inf+1j)"),
            (f64::INFINITY, f64::NEG_INFINITY, "(inf-infj)"),
            (f64::NEG_INFINITY, f64::NAN, "(-inf+nanj)"),
            (0.0, f64::INFINITY, "infj"),
            (0.0, f64::NEG_INFINITY, "-infj"),
            (0.0, f64::NAN, "nanj"),
            (0.0, -f64::NAN, "nanj"),
            (1.0, -f64::NAN, "(1+nanj)"),
            (0.0, 1e16, "1e+16j"),
            (1e-7, 1.0, "(1e-07+1j)"),
            (1e16, 1e-5, "(1e+16+1e-05j)"),
            (0.1, 0.2, "(0.1+0.2j)"),
            (1e5, 2.5, "(100000+2.5j)"),
            (1e300, -1e-300, "(1e+300-1e-300j)"),
            (123456789012345.6, 0.5, "(123456789012345.6+0.5j)"),
        ];
        for (re, im, expected) in cases {
            assert_eq!(complex_repr(re, im), expected, "{re:e} {im:e}");
        }
    }

    #[test]
    fn dtype_shows_in_reprs_unless_a_literal_implies_it() {
        let implied = [DType::Bool, DType::I64, DType::F64, DType::C128];
        let shown = [
            DType::I8,
            DType::U8,
            DType::I16,
            DType::U16,
            DType::I32,
            DType::U32,
            DType::U64,
            DType::F16,
            DType::F32,
            DType::C64,
        ];
        assert!(implied.into_iter().all(|d| !repr_shows_dtype(d)));
        assert!(shown.into_iter().all(repr_shows_dtype));
    }

    #[test]
    fn floats_use_unique_digits_padded_to_a_column() {
        let a = array(&[2], &[0.1, 0.25]);
        assert_eq!(repr_f64(&a), "array([0.1 , 0.25])");
        assert_eq!(str_f64(&a), "[0.1  0.25]");
        let a = array(&[3], &[1.0, 2.0, 3.0]);
        assert_eq!(repr_f64(&a), "array([1., 2., 3.])");
        assert_eq!(str_f64(&a), "[1. 2. 3.]");
        let a = array(&[3], &[1.0 / 3.0, 2.0 / 3.0, 1.0]);
        assert_eq!(repr_f64(&a), "array([0.33333333, 0.66666667, 1.        ])");
        // An exact tie at the eighth digit rounds to even.
        let a = array(&[2], &[0.001953125, 0.5]);
        assert_eq!(repr_f64(&a), "array([0.00195312, 0.5       ])");
    }

    #[test]
    fn floats_switch_to_scientific_notation() {
        let a = array(&[2], &[1e-5, 1.5]);
        assert_eq!(repr_f64(&a), "array([1.0e-05, 1.5e+00])");
        assert_eq!(str_f64(&a), "[1.0e-05 1.5e+00]");
        let a = array(&[2], &[1e-5, 1e100]);
        assert_eq!(repr_f64(&a), "array([1.e-005, 1.e+100])");
        let a = array(&[2, 2], &[1e-300, 2.5, f64::INFINITY, -1.0]);
        assert_eq!(
            repr_f64(&a),
            "array([[ 1.0e-300,  2.5e+000],\n       [      inf, -1.0e+000]])"
        );
    }

    #[test]
    fn scientific_columns_extend_short_values_with_exact_digits() {
        let a = array(&[2], &[5e-324, 1.5]);
        assert_eq!(repr_f64(&a), "array([4.9e-324, 1.5e+000])");
        let a = array(&[2], &[9.088097e11_f32, 1.2345678]);
        assert_eq!(
            repr_f32(&a),
            "array([9.0880973e+11, 1.2345678e+00], dtype=float32)"
        );
    }

    #[test]
    fn float32_arrays_use_their_own_cutoffs() {
        let a = array(&[3], &[0.1_f32, 0.2, 1e6]);
        assert_eq!(
            repr_f32(&a),
            "array([1.e-01, 2.e-01, 1.e+06], dtype=float32)"
        );
        let a = array(&[8], &[1.234_567_9_f32; 8]);
        assert_eq!(
            repr_f32(&a),
            "array([1.2345679, 1.2345679, 1.2345679, 1.2345679, 1.2345679, 1.2345679,\n       \
             1.2345679, 1.2345679], dtype=float32)"
        );
    }

    #[test]
    fn non_finite_values_are_right_aligned() {
        let a = array(&[3], &[f64::NAN, 1.0, f64::NEG_INFINITY]);
        assert_eq!(repr_f64(&a), "array([ nan,   1., -inf])");
        assert_eq!(str_f64(&a), "[ nan   1. -inf]");
        let a = array(&[2], &[0.0, -0.0]);
        assert_eq!(repr_f64(&a), "array([ 0., -0.])");
    }

    #[test]
    fn nested_arrays_get_brackets_and_blank_lines() {
        assert_eq!(
            repr_f64(&arange(&[2, 3])),
            "array([[0., 1., 2.],\n       [3., 4., 5.]])"
        );
        assert_eq!(str_f64(&arange(&[2, 3])), "[[0. 1. 2.]\n [3. 4. 5.]]");
        assert_eq!(
            repr_f64(&arange(&[2, 2, 2])),
            "array([[[0., 1.],\n        [2., 3.]],\n\n       [[4., 5.],\n        [6., 7.]]])"
        );
        assert_eq!(
            str_f64(&arange(&[2, 2, 2])),
            "[[[0. 1.]\n  [2. 3.]]\n\n [[4. 5.]\n  [6. 7.]]]"
        );
        let bools = ArrayD::from_elem(IxDyn(&[2, 2, 2, 2]), true);
        assert_eq!(
            array_repr(&FormatData::Bool(bools.view()), ""),
            "array([[[[ True,  True],\n         [ True,  True]],\n\n        [[ True,  True],\n         \
             [ True,  True]]],\n\n\n       [[[ True,  True],\n         [ True,  True]],\n\n        \
             [[ True,  True],\n         [ True,  True]]]])"
        );
    }

    #[test]
    fn long_rows_wrap_at_75_columns() {
        let a = arange(&[30]).mapv(|x| x * 1.5);
        assert_eq!(
            repr_f64(&a),
            "array([ 0. ,  1.5,  3. ,  4.5,  6. ,  7.5,  9. , 10.5, 12. , 13.5, 15. ,\n       \
             16.5, 18. , 19.5, 21. , 22.5, 24. , 25.5, 27. , 28.5, 30. , 31.5,\n       \
             33. , 34.5, 36. , 37.5, 39. , 40.5, 42. , 43.5])"
        );
        assert_eq!(
            str_f64(&a),
            "[ 0.   1.5  3.   4.5  6.   7.5  9.  10.5 12.  13.5 15.  16.5 18.  19.5\n \
             21.  22.5 24.  25.5 27.  28.5 30.  31.5 33.  34.5 36.  37.5 39.  40.5\n 42.  43.5]"
        );
    }

    #[test]
    fn keywords_move_to_a_new_line_when_they_do_not_fit() {
        let a = arange(&[9]).mapv(|x| (x * 1.25) as f32);
        assert_eq!(
            repr_f32(&a),
            "array([ 0.  ,  1.25,  2.5 ,  3.75,  5.  ,  6.25,  7.5 ,  8.75, 10.  ],\n      \
             dtype=float32)"
        );
    }

    #[test]
    fn large_arrays_are_summarised() {
        let a = arange(&[2000]);
        assert_eq!(
            repr_f64(&a),
            "array([0.000e+00, 1.000e+00, 2.000e+00, ..., 1.997e+03, 1.998e+03,\n       \
             1.999e+03], shape=(2000,))"
        );
        assert_eq!(
            str_f64(&a),
            "[0.000e+00 1.000e+00 2.000e+00 ... 1.997e+03 1.998e+03 1.999e+03]"
        );
        let ints = ArrayD::from_shape_vec(IxDyn(&[2000]), (0..2000).collect()).unwrap();
        assert_eq!(
            array_repr(&FormatData::I64(ints.view()), ""),
            "array([   0,    1,    2, ..., 1997, 1998, 1999], shape=(2000,))"
        );
        let column = ints
            .slice_move(ndarray::s![..1100])
            .into_shape_with_order(IxDyn(&[1100, 1]));
        assert_eq!(
            array_str(&FormatData::I64(column.unwrap().view())),
            "[[   0]\n [   1]\n [   2]\n ...\n [1097]\n [1098]\n [1099]]"
        );
    }

    #[test]
    fn summarised_rows_of_a_matrix() {
        assert_eq!(
            str_f64(&arange(&[30, 100])),
            "[[0.000e+00 1.000e+00 2.000e+00 ... 9.700e+01 9.800e+01 9.900e+01]\n \
             [1.000e+02 1.010e+02 1.020e+02 ... 1.970e+02 1.980e+02 1.990e+02]\n \
             [2.000e+02 2.010e+02 2.020e+02 ... 2.970e+02 2.980e+02 2.990e+02]\n \
             ...\n \
             [2.700e+03 2.701e+03 2.702e+03 ... 2.797e+03 2.798e+03 2.799e+03]\n \
             [2.800e+03 2.801e+03 2.802e+03 ... 2.897e+03 2.898e+03 2.899e+03]\n \
             [2.900e+03 2.901e+03 2.902e+03 ... 2.997e+03 2.998e+03 2.999e+03]]"
        );
    }

    #[test]
    fn integers_and_bools_line_up() {
        let a = array(&[3], &[1_i64, -20, 300]);
        assert_eq!(
            array_repr(&FormatData::I64(a.view()), ""),
            "array([  1, -20, 300])"
        );
        assert_eq!(array_str(&FormatData::I64(a.view())), "[  1 -20 300]");
        let b = array(&[2, 2], &[true, false, false, true]);
        assert_eq!(
            array_repr(&FormatData::Bool(b.view()), ""),
            "array([[ True, False],\n       [False,  True]])"
        );
        assert_eq!(
            array_str(&FormatData::Bool(b.view())),
            "[[ True False]\n [False  True]]"
        );
    }

    #[test]
    fn zero_dimensional_arrays() {
        let five = ArrayD::from_elem(IxDyn(&[]), 5.0);
        assert_eq!(repr_f64(&five), "array(5.)");
        assert_eq!(str_f64(&five), "5.0");
        let tiny = ArrayD::from_elem(IxDyn(&[]), 1e-5);
        assert_eq!(repr_f64(&tiny), "array(1.e-05)");
        assert_eq!(str_f64(&tiny), "1e-05");
        let nan = ArrayD::from_elem(IxDyn(&[]), f64::NAN);
        assert_eq!(repr_f64(&nan), "array(nan)");
        let truth = ArrayD::from_elem(IxDyn(&[]), true);
        assert_eq!(
            array_repr(&FormatData::Bool(truth.view()), ""),
            "array(True)"
        );
        assert_eq!(array_str(&FormatData::Bool(truth.view())), "True");
        let seven = ArrayD::from_elem(IxDyn(&[]), 7_i64);
        assert_eq!(array_repr(&FormatData::I64(seven.view()), ""), "array(7)");
        let tenth = ArrayD::from_elem(IxDyn(&[]), 0.1_f32);
        assert_eq!(repr_f32(&tenth), "array(0.1, dtype=float32)");
        assert_eq!(array_str(&FormatData::F32(tenth.view())), "0.1");
    }

    #[test]
    fn empty_arrays() {
        let cases = [
            (vec![0], "array([], dtype=float64)"),
            (vec![0, 3], "array([], shape=(0, 3), dtype=float64)"),
            (vec![2, 0], "array([], shape=(2, 0), dtype=float64)"),
        ];
        for (shape, expected) in cases {
            let a = ArrayD::<f64>::zeros(IxDyn(&shape));
            assert_eq!(
                array_repr(&FormatData::F64(a.view()), "dtype=float64"),
                expected
            );
            assert_eq!(str_f64(&a), "[]");
        }
        for shape in [&[0][..], &[3, 0, 2], &[1, 0], &[0, 0]] {
            let a = ArrayD::<bool>::default(IxDyn(shape));
            assert_eq!(array_str(&FormatData::Bool(a.view())), "[]");
            let a = ArrayD::<f32>::zeros(IxDyn(shape));
            assert!(array_repr(&FormatData::F32(a.view()), "").starts_with("array([]"));
        }
    }

    #[test]
    fn extra_keywords_follow_the_dtype() {
        let a = array(&[2], &[1.0_f32, 2.0]);
        assert_eq!(
            array_repr(&FormatData::F32(a.view()), "dtype=float32, device=gpu"),
            "array([1., 2.], dtype=float32, device=gpu)"
        );
    }

    #[test]
    fn strided_and_transposed_views() {
        let t = arange(&[3, 4]).reversed_axes();
        assert_eq!(
            repr_f64(&t),
            "array([[ 0.,  4.,  8.],\n       [ 1.,  5.,  9.],\n       [ 2.,  6., 10.],\n       \
             [ 3.,  7., 11.]])"
        );
        let ints = ArrayD::from_shape_vec(IxDyn(&[20]), (0..20).collect::<Vec<i64>>()).unwrap();
        let stepped = ints.slice(ndarray::s![..;-3]).into_dyn();
        assert_eq!(
            array_repr(&FormatData::I64(stepped), ""),
            "array([19, 16, 13, 10,  7,  4,  1])"
        );
    }

    #[test]
    fn dragon4_rounds_ties_to_even_and_carries() {
        let digits = |x: f64, fraction_digits: u32| {
            let d = generate_digits(
                &x.parts(),
                CutoffMode::FractionDigits,
                Some(fraction_digits),
                None,
            );
            (d.digits, d.exponent)
        };
        assert_eq!(digits(0.125, 2), ("12".to_owned(), -1));
        assert_eq!(digits(0.375, 2), ("38".to_owned(), -1));
        assert_eq!(digits(9.999, 2), ("1".to_owned(), 1));
        assert_eq!(digits(0.0, 2), ("0".to_owned(), 0));
    }

    #[test]
    fn signed_integers_of_every_width() {
        assert_prints(
            &array(&[3], &[-128_i8, 0, 127]),
            "array([-128,    0,  127], dtype=int8)",
            "[-128    0  127]",
        );
        assert_prints(
            &array(&[2, 2], &[1_i16, -2, 300, -32768]),
            "array([[     1,     -2],\n       [   300, -32768]], dtype=int16)",
            "[[     1     -2]\n [   300 -32768]]",
        );
        assert_prints(
            &array(&[2], &[-2147483648_i32, 2147483647]),
            "array([-2147483648,  2147483647], dtype=int32)",
            "[-2147483648  2147483647]",
        );
        assert_prints(
            &array(&[2], &[-9223372036854775808_i64, 9223372036854775807]),
            "array([-9223372036854775808,  9223372036854775807])",
            "[-9223372036854775808  9223372036854775807]",
        );
        assert_prints(&array(&[], &[-5_i8]), "array(-5, dtype=int8)", "-5");
        assert_prints(&array::<i16>(&[0], &[]), "array([], dtype=int16)", "[]");
        assert_prints(
            &array::<i32>(&[0, 3], &[]),
            "array([], shape=(0, 3), dtype=int32)",
            "[]",
        );
    }

    #[test]
    fn unsigned_integers_of_every_width() {
        assert_prints(
            &array(&[3], &[0_u8, 5, 255]),
            "array([  0,   5, 255], dtype=uint8)",
            "[  0   5 255]",
        );
        assert_prints(
            &array(&[2], &[65535_u16, 0]),
            "array([65535,     0], dtype=uint16)",
            "[65535     0]",
        );
        assert_prints(
            &array(&[2, 1], &[4294967295_u32, 1]),
            "array([[4294967295],\n       [         1]], dtype=uint32)",
            "[[4294967295]\n [         1]]",
        );
        assert_prints(
            &array(&[3], &[18446744073709551615_u64, 0, 9223372036854775808]),
            "array([18446744073709551615,                    0,  9223372036854775808],\n      \
             dtype=uint64)",
            "[18446744073709551615                    0  9223372036854775808]",
        );
        assert_prints(
            &array(&[], &[18446744073709551615_u64]),
            "array(18446744073709551615, dtype=uint64)",
            "18446744073709551615",
        );
        assert_prints(&array(&[], &[5_u8]), "array(5, dtype=uint8)", "5");
        assert_prints(&array::<u8>(&[0], &[]), "array([], dtype=uint8)", "[]");
    }

    #[test]
    fn integer_arrays_wrap_and_summarise() {
        assert_prints(
            &ramp(&[40], |i| i as i16 * 1000 - 20000),
            "array([-20000, -19000, -18000, -17000, -16000, -15000, -14000, -13000,\n       \
             -12000, -11000, -10000,  -9000,  -8000,  -7000,  -6000,  -5000,\n        \
             -4000,  -3000,  -2000,  -1000,      0,   1000,   2000,   3000,\n         \
             4000,   5000,   6000,   7000,   8000,   9000,  10000,  11000,\n        \
             12000,  13000,  14000,  15000,  16000,  17000,  18000,  19000],\n      \
             dtype=int16)",
            "[-20000 -19000 -18000 -17000 -16000 -15000 -14000 -13000 -12000 -11000\n \
             -10000  -9000  -8000  -7000  -6000  -5000  -4000  -3000  -2000  -1000\n      \
             0   1000   2000   3000   4000   5000   6000   7000   8000   9000\n  \
             10000  11000  12000  13000  14000  15000  16000  17000  18000  19000]",
        );
        assert_prints(
            &ramp(&[2000], |i| (i % 256) as u8),
            "array([  0,   1,   2, ..., 205, 206, 207], shape=(2000,), dtype=uint8)",
            "[  0   1   2 ... 205 206 207]",
        );
        assert_prints(
            &ramp(&[4, 300], |i| u64::MAX - i as u64),
            "array([[18446744073709551615, 18446744073709551614, 18446744073709551613,\n        \
             ..., 18446744073709551318, 18446744073709551317,\n        \
             18446744073709551316],\n       \
             [18446744073709551315, 18446744073709551314, 18446744073709551313,\n        \
             ..., 18446744073709551018, 18446744073709551017,\n        \
             18446744073709551016],\n       \
             [18446744073709551015, 18446744073709551014, 18446744073709551013,\n        \
             ..., 18446744073709550718, 18446744073709550717,\n        \
             18446744073709550716],\n       \
             [18446744073709550715, 18446744073709550714, 18446744073709550713,\n        \
             ..., 18446744073709550418, 18446744073709550417,\n        \
             18446744073709550416]], shape=(4, 300), dtype=uint64)",
            "[[18446744073709551615 18446744073709551614 18446744073709551613 ...\n  \
             18446744073709551318 18446744073709551317 18446744073709551316]\n \
             [18446744073709551315 18446744073709551314 18446744073709551313 ...\n  \
             18446744073709551018 18446744073709551017 18446744073709551016]\n \
             [18446744073709551015 18446744073709551014 18446744073709551013 ...\n  \
             18446744073709550718 18446744073709550717 18446744073709550716]\n \
             [18446744073709550715 18446744073709550714 18446744073709550713 ...\n  \
             18446744073709550418 18446744073709550417 18446744073709550416]]",
        );
        assert_prints(
            &ramp(&[2, 3, 4], |i| (i as i8 - 12) * 10),
            "array([[[-120, -110, -100,  -90],\n        \
             [ -80,  -70,  -60,  -50],\n        \
             [ -40,  -30,  -20,  -10]],\n\
             \n       \
             [[   0,   10,   20,   30],\n        \
             [  40,   50,   60,   70],\n        \
             [  80,   90,  100,  110]]], dtype=int8)",
            "[[[-120 -110 -100  -90]\n  \
             [ -80  -70  -60  -50]\n  \
             [ -40  -30  -20  -10]]\n\
             \n \
             [[   0   10   20   30]\n  \
             [  40   50   60   70]\n  \
             [  80   90  100  110]]]",
        );
    }

    #[test]
    fn float16_arrays() {
        assert_prints(
            &array(&[3], &h(&[0.1, 0.25, 1.0])),
            "array([0.1 , 0.25, 1.  ], dtype=float16)",
            "[0.1  0.25 1.  ]",
        );
        assert_prints(
            &array(&[3], &h(&[0.3333333333333333, 0.6666666666666666, -1.0])),
            "array([ 0.3333,  0.6665, -1.    ], dtype=float16)",
            "[ 0.3333  0.6665 -1.    ]",
        );
        assert_prints(
            &array(
                &[5],
                &h(&[
                    65504.0,
                    5.960464477539063e-08,
                    f64::NAN,
                    f64::INFINITY,
                    f64::NEG_INFINITY,
                ]),
            ),
            "array([6.55e+04, 5.96e-08,      nan,      inf,     -inf], dtype=float16)",
            "[6.55e+04 5.96e-08      nan      inf     -inf]",
        );
        assert_prints(
            &array(&[2], &h(&[1000.0, 1.0])),
            "array([1.e+03, 1.e+00], dtype=float16)",
            "[1.e+03 1.e+00]",
        );
        assert_prints(
            &array(&[2], &h(&[999.0, 1.0])),
            "array([999.,   1.], dtype=float16)",
            "[999.   1.]",
        );
        assert_prints(
            &array(&[2], &h(&[100.0, 0.1])),
            "array([100. ,   0.1], dtype=float16)",
            "[100.    0.1]",
        );
        assert_prints(
            &array(&[2], &h(&[-65504.0, 6e-05])),
            "array([-6.55e+04,  6.00e-05], dtype=float16)",
            "[-6.55e+04  6.00e-05]",
        );
        assert_prints(
            &array(&[2, 2], &h(&[1.5, -2.0, 0.0, -0.0])),
            "array([[ 1.5, -2. ],\n       [ 0. , -0. ]], dtype=float16)",
            "[[ 1.5 -2. ]\n [ 0.  -0. ]]",
        );
        assert_prints(&array(&[], &h(&[0.1])), "array(0.1, dtype=float16)", "0.1");
        assert_prints(
            &array(&[], &h(&[1000.0])),
            "array(1.e+03, dtype=float16)",
            "1e+03",
        );
        assert_prints(
            &array(&[], &h(&[6e-08])),
            "array(6.e-08, dtype=float16)",
            "6e-08",
        );
        assert_prints(&array(&[0], &h(&[])), "array([], dtype=float16)", "[]");
        assert_prints(
            &ramp(&[2000], |i| f16::from_f64(i as f64)),
            "array([0.000e+00, 1.000e+00, 2.000e+00, ..., 1.997e+03, 1.998e+03,\n       \
             1.999e+03], shape=(2000,), dtype=float16)",
            "[0.000e+00 1.000e+00 2.000e+00 ... 1.997e+03 1.998e+03 1.999e+03]",
        );
        assert_prints(
            &ramp(&[20], |i| f16::from_f64(i as f64 / 7.0)),
            "array([0.    , 0.1428, 0.2856, 0.4285, 0.5713, 0.7144, 0.857 , 1.    ,\n       \
             1.143 , 1.286 , 1.429 , 1.571 , 1.714 , 1.857 , 2.    , 2.143 ,\n       \
             2.285 , 2.428 , 2.572 , 2.715 ], dtype=float16)",
            "[0.     0.1428 0.2856 0.4285 0.5713 0.7144 0.857  1.     1.143  1.286\n \
             1.429  1.571  1.714  1.857  2.     2.143  2.285  2.428  2.572  2.715 ]",
        );
    }

    #[test]
    fn complex_arrays() {
        assert_prints(
            &array(&[2], &[c(1.0, 2.0), c(3.0, -1.0)]),
            "array([1.+2.j, 3.-1.j])",
            "[1.+2.j 3.-1.j]",
        );
        assert_prints(
            &array(&[2], &[c32(1.0, 2.0), c32(3.0, -1.0)]),
            "array([1.+2.j, 3.-1.j], dtype=complex64)",
            "[1.+2.j 3.-1.j]",
        );
        assert_prints(&array(&[1], &[c(0.0, 0.0)]), "array([0.+0.j])", "[0.+0.j]");
        assert_prints(
            &array(
                &[2],
                &[c(f64::NAN, f64::NAN), c(f64::INFINITY, f64::NEG_INFINITY)],
            ),
            "array([nan+nanj, inf-infj])",
            "[nan+nanj inf-infj]",
        );
        assert_prints(
            &array(&[2], &[c32(1.0, 2.0), c32(f64::NAN, f64::NAN)]),
            "array([ 1. +2.j, nan+nanj], dtype=complex64)",
            "[ 1. +2.j nan+nanj]",
        );
        assert_prints(
            &array(&[2], &[c(1.5, 2.0), c(100.0, -0.25)]),
            "array([  1.5+2.j  , 100. -0.25j])",
            "[  1.5+2.j   100. -0.25j]",
        );
        assert_prints(
            &array(&[2], &[c(1e-05, 1.0), c(1.0, 10000000000.0)]),
            "array([1.e-05+1.e+00j, 1.e+00+1.e+10j])",
            "[1.e-05+1.e+00j 1.e+00+1.e+10j]",
        );
        assert_prints(
            &array(&[2], &[c(1.0, -0.0), c(2.0, 3.0)]),
            "array([1.-0.j, 2.+3.j])",
            "[1.-0.j 2.+3.j]",
        );
        assert_prints(
            &array(&[2], &[c(-0.0, -0.0), c(0.0, 1.0)]),
            "array([-0.-0.j,  0.+1.j])",
            "[-0.-0.j  0.+1.j]",
        );
        assert_prints(
            &array(&[2], &[c(0.0, f64::INFINITY), c(1.0, 1.0)]),
            "array([0.+infj, 1. +1.j])",
            "[0.+infj 1. +1.j]",
        );
        assert_prints(
            &array(&[2], &[c(0.0, f64::NAN), c(0.0, 1.0)]),
            "array([0.+nanj, 0. +1.j])",
            "[0.+nanj 0. +1.j]",
        );
        assert_prints(
            &array(
                &[3],
                &[
                    c(f64::INFINITY, 0.0),
                    c(f64::NEG_INFINITY, 0.0),
                    c(f64::NAN, 1.0),
                ],
            ),
            "array([ inf+0.j, -inf+0.j,  nan+1.j])",
            "[ inf+0.j -inf+0.j  nan+1.j]",
        );
        assert_prints(
            &array(&[2], &[c(1e+300, 1e-300), c(1.0, 1.0)]),
            "array([1.e+300+1.e-300j, 1.e+000+1.e+000j])",
            "[1.e+300+1.e-300j 1.e+000+1.e+000j]",
        );
        assert_prints(
            &array(
                &[2],
                &[c(0.3333333333333333, -0.6666666666666666), c(1.0, 0.0)],
            ),
            "array([0.33333333-0.66666667j, 1.        +0.j        ])",
            "[0.33333333-0.66666667j 1.        +0.j        ]",
        );
        assert_prints(
            &array(
                &[2],
                &[c32(0.3333333333333333, -0.6666666666666666), c32(1.0, 0.0)],
            ),
            "array([0.33333334-0.6666667j, 1.        +0.j       ], dtype=complex64)",
            "[0.33333334-0.6666667j 1.        +0.j       ]",
        );
        assert_prints(
            &array(&[2], &[c32(1000000.0, 1.0), c32(0.5, 0.5)]),
            "array([1.e+06+1.j , 5.e-01+0.5j], dtype=complex64)",
            "[1.e+06+1.j  5.e-01+0.5j]",
        );
        assert_prints(
            &array(
                &[2, 2],
                &[c(1.0, 1.0), c(-1.0, -1.0), c(0.0, 2.5), c(-3.0, 0.0)],
            ),
            "array([[ 1.+1.j , -1.-1.j ],\n       [ 0.+2.5j, -3.+0.j ]])",
            "[[ 1.+1.j  -1.-1.j ]\n [ 0.+2.5j -3.+0.j ]]",
        );
        assert_prints(
            &array::<c128>(&[0], &[]),
            "array([], dtype=complex128)",
            "[]",
        );
        assert_prints(
            &array::<c64>(&[0, 2], &[]),
            "array([], shape=(0, 2), dtype=complex64)",
            "[]",
        );
    }

    #[test]
    fn complex_arrays_wrap_and_summarise() {
        assert_prints(
            &ramp(&[12], |i| c(i as f64 * 1.5, 0.0 - i as f64 / 4.0)),
            "array([ 0. +0.j  ,  1.5-0.25j,  3. -0.5j ,  4.5-0.75j,  6. -1.j  ,\n        \
             7.5-1.25j,  9. -1.5j , 10.5-1.75j, 12. -2.j  , 13.5-2.25j,\n       \
             15. -2.5j , 16.5-2.75j])",
            "[ 0. +0.j    1.5-0.25j  3. -0.5j   4.5-0.75j  6. -1.j    7.5-1.25j\n  \
             9. -1.5j  10.5-1.75j 12. -2.j   13.5-2.25j 15. -2.5j  16.5-2.75j]",
        );
        assert_prints(
            &ramp(&[2000], |i| c(i as f64, 1.0)),
            "array([0.000e+00+1.j, 1.000e+00+1.j, 2.000e+00+1.j, ..., 1.997e+03+1.j,\n       \
             1.998e+03+1.j, 1.999e+03+1.j], shape=(2000,))",
            "[0.000e+00+1.j 1.000e+00+1.j 2.000e+00+1.j ... 1.997e+03+1.j 1.998e+03+1.j\n \
             1.999e+03+1.j]",
        );
        assert_prints(
            &ramp(&[10, 200], |i| c32(i as f64, 0.0 - i as f64)),
            "array([[0.000e+00+0.000e+00j, 1.000e+00-1.000e+00j, 2.000e+00-2.000e+00j,\n        \
             ..., 1.970e+02-1.970e+02j, 1.980e+02-1.980e+02j,\n        \
             1.990e+02-1.990e+02j],\n       \
             [2.000e+02-2.000e+02j, 2.010e+02-2.010e+02j, 2.020e+02-2.020e+02j,\n        \
             ..., 3.970e+02-3.970e+02j, 3.980e+02-3.980e+02j,\n        \
             3.990e+02-3.990e+02j],\n       \
             [4.000e+02-4.000e+02j, 4.010e+02-4.010e+02j, 4.020e+02-4.020e+02j,\n        \
             ..., 5.970e+02-5.970e+02j, 5.980e+02-5.980e+02j,\n        \
             5.990e+02-5.990e+02j],\n       \
             ...,\n       \
             [1.400e+03-1.400e+03j, 1.401e+03-1.401e+03j, 1.402e+03-1.402e+03j,\n        \
             ..., 1.597e+03-1.597e+03j, 1.598e+03-1.598e+03j,\n        \
             1.599e+03-1.599e+03j],\n       \
             [1.600e+03-1.600e+03j, 1.601e+03-1.601e+03j, 1.602e+03-1.602e+03j,\n        \
             ..., 1.797e+03-1.797e+03j, 1.798e+03-1.798e+03j,\n        \
             1.799e+03-1.799e+03j],\n       \
             [1.800e+03-1.800e+03j, 1.801e+03-1.801e+03j, 1.802e+03-1.802e+03j,\n        \
             ..., 1.997e+03-1.997e+03j, 1.998e+03-1.998e+03j,\n        \
             1.999e+03-1.999e+03j]], shape=(10, 200), dtype=complex64)",
            "[[0.000e+00+0.000e+00j 1.000e+00-1.000e+00j 2.000e+00-2.000e+00j ...\n  \
             1.970e+02-1.970e+02j 1.980e+02-1.980e+02j 1.990e+02-1.990e+02j]\n \
             [2.000e+02-2.000e+02j 2.010e+02-2.010e+02j 2.020e+02-2.020e+02j ...\n  \
             3.970e+02-3.970e+02j 3.980e+02-3.980e+02j 3.990e+02-3.990e+02j]\n \
             [4.000e+02-4.000e+02j 4.010e+02-4.010e+02j 4.020e+02-4.020e+02j ...\n  \
             5.970e+02-5.970e+02j 5.980e+02-5.980e+02j 5.990e+02-5.990e+02j]\n \
             ...\n \
             [1.400e+03-1.400e+03j 1.401e+03-1.401e+03j 1.402e+03-1.402e+03j ...\n  \
             1.597e+03-1.597e+03j 1.598e+03-1.598e+03j 1.599e+03-1.599e+03j]\n \
             [1.600e+03-1.600e+03j 1.601e+03-1.601e+03j 1.602e+03-1.602e+03j ...\n  \
             1.797e+03-1.797e+03j 1.798e+03-1.798e+03j 1.799e+03-1.799e+03j]\n \
             [1.800e+03-1.800e+03j 1.801e+03-1.801e+03j 1.802e+03-1.802e+03j ...\n  \
             1.997e+03-1.997e+03j 1.998e+03-1.998e+03j 1.999e+03-1.999e+03j]]",
        );
    }

    #[test]
    fn zero_dimensional_complex_arrays() {
        assert_prints(&array(&[], &[c(1.0, 2.0)]), "array(1.+2.j)", "(1+2j)");
        assert_prints(&array(&[], &[c(0.0, 2.0)]), "array(0.+2.j)", "2j");
        assert_prints(&array(&[], &[c(-0.0, -1.0)]), "array(-0.-1.j)", "(-0-1j)");
        assert_prints(
            &array(&[], &[c(f64::NAN, f64::NAN)]),
            "array(nan+nanj)",
            "(nan+nanj)",
        );
        assert_prints(&array(&[], &[c(0.0, 1e+16)]), "array(0.+1.e+16j)", "1e+16j");
        assert_prints(
            &array(&[], &[c32(1000000.0, 1000000.0)]),
            "array(1.e+06+1.e+06j, dtype=complex64)",
            "(1e+06+1e+06j)",
        );
        assert_prints(
            &array(&[], &[c32(0.1, 0.2)]),
            "array(0.1+0.2j, dtype=complex64)",
            "(0.1+0.2j)",
        );
    }

    #[test]
    fn non_finite_and_extreme_parts() {
        assert_prints(
            &array(
                &[2],
                &[c(1e-05, f64::NAN), c(10000000000.0, f64::NEG_INFINITY)],
            ),
            "array([1.e-05+nanj, 1.e+10-infj])",
            "[1.e-05+nanj 1.e+10-infj]",
        );
        assert_prints(
            &array(&[2], &[c32(-0.0, 0.0), c32(1e-10, 1e+20)]),
            "array([-0.e+00+0.e+00j,  1.e-10+1.e+20j], dtype=complex64)",
            "[-0.e+00+0.e+00j  1.e-10+1.e+20j]",
        );
        assert_prints(
            &array(&[2], &[c(5e-324, 1e+308), c(-1.5, -0.0)]),
            "array([ 4.9e-324+1.e+308j, -1.5e+000-0.e+000j])",
            "[ 4.9e-324+1.e+308j -1.5e+000-0.e+000j]",
        );
        assert_prints(
            &array(
                &[3],
                &[
                    c32(f64::INFINITY, f64::NAN),
                    c32(-1.0, 2.5),
                    c32(f64::NAN, f64::NEG_INFINITY),
                ],
            ),
            "array([inf+nanj, -1.+2.5j, nan-infj], dtype=complex64)",
            "[inf+nanj -1.+2.5j nan-infj]",
        );
        assert_prints(
            &array(&[3], &h(&[f64::NAN, 1.5, f64::NEG_INFINITY])),
            "array([ nan,  1.5, -inf], dtype=float16)",
            "[ nan  1.5 -inf]",
        );
        assert_prints(
            &array(&[2], &h(&[-0.0, 0.0])),
            "array([-0.,  0.], dtype=float16)",
            "[-0.  0.]",
        );
    }
}
