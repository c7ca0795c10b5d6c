use super::*;

#[test]
fn floor_modulo_is_numpys() {
    assert_eq!(
        f64::binary(Op::Remainder, -1.5, 0.5).to_bits(),
        0.0f64.to_bits()
    );
    assert_eq!(f64::binary(Op::Remainder, -1.0, 3.0), 2.0);
    assert_eq!(f64::binary(Op::FloorDivide, -7.0, 2.0), -4.0);
    assert!(f64::binary(Op::FloorDivide, f64::INFINITY, 2.0).is_nan());
    assert_eq!(i64::binary(Op::FloorDivide, -7, 2), -4);
    assert_eq!(i64::binary(Op::Remainder, -7, 3), 2);
    assert_eq!(i64::binary(Op::FloorDivide, i64::MIN, -1), i64::MIN);
    assert_eq!(u8::binary(Op::FloorDivide, 7, 0), 0);
}

#[test]
fn extremes_let_nan_win() {
    assert!(f64::binary(Op::Maximum, 1.0, f64::NAN).is_nan());
    assert_eq!(f64::binary(Op::Fmax, 1.0, f64::NAN), 1.0);
    assert_eq!(
        f64::binary(Op::Maximum, -0.0, 0.0).to_bits(),
        0.0f64.to_bits()
    );
}

#[test]
fn integer_powers_and_shifts() {
    assert_eq!(i64::binary(Op::Power, 3, 4), 81);
    assert_eq!(i8::binary(Op::Power, 2, 7), -128);
    assert_eq!(i64::binary(Op::LeftShift, 1, 64), 0);
    assert_eq!(i64::binary(Op::RightShift, -8, 70), -1);
    assert_eq!(i64::binary(Op::LeftShift, 1, -1), 0);
}

#[test]
fn complex_numbers() {
    let z = c128::new(1.0, 1.0);
    assert_eq!(
        c128::binary(Op::Power, z, c128::new(2.0, 0.0)),
        c128::new(0.0, 2.0)
    );
    assert!(c128::compare(
        Op::Less,
        c128::new(1.0, 2.0),
        c128::new(1.0, 3.0)
    ));
    assert_eq!(c128::part(Op::Absolute, c128::new(3.0, 4.0)), 5.0);
    assert_eq!(
        c128::binary(Op::Divide, c128::new(1.0, 0.0), c128::new(0.0, 2.0)),
        c128::new(0.0, -0.5)
    );
}

#[test]
fn half_rounds_each_result() {
    let third = f16::binary(Op::Divide, f16::from_f32(1.0), f16::from_f32(3.0));
    assert_eq!(third, f16::from_f32(1.0 / 3.0));
    assert_eq!(
        f16::binary(Op::Nextafter, f16::ONE, f16::from_f32(2.0)),
        f16::from_bits(0x3c01)
    );
}
