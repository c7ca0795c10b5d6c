//! Expected strings were produced by NumPy 2.4 / CPython 3.11.

use ndarray::{ArrayD, IxDyn};

use super::*;
use crate::base::element::Element;

mod dtypes;

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
