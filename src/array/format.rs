//! NumPy-compatible text for arrays of every dtype and Python-compatible text
//! for floats and complex numbers.
//!
//! A port of NumPy 2.x `arrayprint` with its default print options
//! (`precision=8`, `floatmode='maxprec'`, `suppress=False`, `linewidth=75`,
//! `threshold=1000`, `edgeitems=3`, `sign='-'`), including NumPy's Dragon4 digit
//! generator: when NumPy asks for more digits than the shortest round-trip ones
//! (to line up a column in exponent notation) it prints further digits of the
//! exact binary value, so no off-the-shelf shortest formatter can stand in for it.

use std::fmt::Display;

use ndarray::{ArrayViewD, Axis};
use num_complex::Complex;

use crate::base::dtype::DType;
use crate::base::element::{c128, c64, f16};
use dragon4::{Dragon4, FloatParts, Trim};

mod dragon4;

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

#[cfg(test)]
mod tests;
