//! NumPy's Dragon4 (`dragon4.c`, after Steele & White) in unique mode: the shortest digits that
//! round-trip, or further digits of the exact binary value where NumPy asks for more.

use std::cmp::Ordering;

use super::PRECISION;

/// What to do with trailing zeros of the fraction (NumPy's `trim` argument).
#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) enum Trim {
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
pub(super) struct Dragon4 {
    /// Most digits after the point (positional) or after the first digit (scientific).
    pub(super) precision: Option<u32>,
    /// Fewest such digits: further digits of the exact value are printed to reach it.
    pub(super) min_digits: Option<u32>,
    pub(super) trim: Trim,
    /// Whether positive values (and `+0`) get a `+`.
    pub(super) plus_sign: bool,
    /// Width of the sign and integer digits, filled with leading spaces.
    pub(super) pad_left: usize,
    /// Width after the point, filled with trailing spaces (positional only).
    pub(super) pad_right: Option<usize>,
    /// Fewest exponent digits (scientific only; at least 2).
    pub(super) exponent_digits: usize,
}

impl Dragon4 {
    /// The first pass of `FloatingFormat`, which measures the columns.
    pub(super) fn trimmed_to_precision() -> Dragon4 {
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
    pub(super) fn positional(&self, parts: FloatParts) -> String {
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
    pub(super) fn scientific(&self, parts: FloatParts) -> String {
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
pub(super) struct FloatParts {
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
    pub(super) fn from_ieee_bits(bits: u64, fraction_bits: u32, exponent_bits: u32) -> FloatParts {
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
    use super::super::FloatValue;
    use super::*;

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
}
