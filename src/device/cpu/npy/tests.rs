use super::*;
use crate::base::element::{cast, CastFrom};
use ndarray::{arr0, array, s, Array, Array1, Array2, Array3};
use std::path::PathBuf;
use std::process::Command;

/// A scratch directory unique to this test, removed when dropped.
struct ScratchDir(PathBuf);

impl ScratchDir {
    fn new(test: &str) -> Self {
        let dir = std::env::temp_dir().join(format!("arrsh-npy-{test}-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        ScratchDir(dir)
    }

    fn file(&self, name: &str) -> PathBuf {
        self.0.join(name)
    }
}

impl Drop for ScratchDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

fn numpy_available() -> bool {
    let ok = Command::new("python3")
        .args(["-c", "import numpy"])
        .output()
        .is_ok_and(|out| out.status.success());
    if !ok {
        println!("note: python3 with numpy not found; skipping the NumPy interop test");
    }
    ok
}

fn run_python(script: &str, dir: &Path) {
    let out = Command::new("python3")
        .args(["-c", script])
        .current_dir(dir)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "python failed:\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

/// A raw `.npy` file with the given header literal and data bytes.
fn raw_npy(literal: &str, data: &[u8]) -> Vec<u8> {
    let mut header = literal.as_bytes().to_vec();
    while !(MAGIC.len() + 4 + header.len() + 1).is_multiple_of(64) {
        header.push(b' ');
    }
    header.push(b'\n');
    let mut bytes = MAGIC.to_vec();
    bytes.extend_from_slice(&[1, 0]);
    bytes.extend_from_slice(&(header.len() as u16).to_le_bytes());
    bytes.extend_from_slice(&header);
    bytes.extend_from_slice(data);
    bytes
}

/// An array of shape (2, 3, 4) holding 0, 0.75, 1.5, ... cast to `T`.
fn sample<T: Element + CastFrom<f64>>() -> ArrayD<T> {
    Array::from_shape_fn(IxDyn(&[2, 3, 4]), |i| {
        cast((i[0] * 12 + i[1] * 4 + i[2]) as f64 * 0.75)
    })
}

/// A sample array of every dtype.
fn samples() -> Vec<NpyData> {
    vec![
        NpyData::Bool(sample()),
        NpyData::I8(sample()),
        NpyData::U8(sample()),
        NpyData::I16(sample()),
        NpyData::U16(sample()),
        NpyData::I32(sample()),
        NpyData::U32(sample()),
        NpyData::I64(sample()),
        NpyData::U64(sample()),
        NpyData::F16(sample()),
        NpyData::F32(sample()),
        NpyData::F64(sample()),
        NpyData::C64(sample::<c64>().mapv(|z| z * c64::new(1.0, -2.0))),
        NpyData::C128(sample::<c128>().mapv(|z| z * c128::new(-0.5, 1.0))),
    ]
}

/// Files written by `np.save` (NumPy 2.4), and the arrays they hold: every
/// dtype, a Fortran-ordered array, a 0-d and an empty array, and a few
/// big-endian arrays.
fn numpy_files() -> Vec<(&'static [u8], NpyData)> {
    vec![
    (
        b"\x93NUMPY\x01\x00\x76\x00\
          {'descr': '|b1', 'fortran_order': False, 'shape': (2,), }                                                            \n\
          \x01\x00",
        NpyData::Bool(array![true, false].into_dyn()),
    ),
    (
        b"\x93NUMPY\x01\x00\x76\x00\
          {'descr': '|i1', 'fortran_order': False, 'shape': (2,), }                                                            \n\
          \x80\x7f",
        NpyData::I8(array![i8::MIN, i8::MAX].into_dyn()),
    ),
    (
        b"\x93NUMPY\x01\x00\x76\x00\
          {'descr': '|u1', 'fortran_order': False, 'shape': (2,), }                                                            \n\
          \x00\xff",
        NpyData::U8(array![0, u8::MAX].into_dyn()),
    ),
    (
        b"\x93NUMPY\x01\x00\x76\x00\
          {'descr': '<i2', 'fortran_order': False, 'shape': (2,), }                                                            \n\
          \x00\x80\xff\x7f",
        NpyData::I16(array![i16::MIN, i16::MAX].into_dyn()),
    ),
    (
        b"\x93NUMPY\x01\x00\x76\x00\
          {'descr': '<u2', 'fortran_order': False, 'shape': (2,), }                                                            \n\
          \x00\x00\xff\xff",
        NpyData::U16(array![0, u16::MAX].into_dyn()),
    ),
    (
        b"\x93NUMPY\x01\x00\x76\x00\
          {'descr': '<i4', 'fortran_order': False, 'shape': (2,), }                                                            \n\
          \x00\x00\x00\x80\xff\xff\xff\x7f",
        NpyData::I32(array![i32::MIN, i32::MAX].into_dyn()),
    ),
    (
        b"\x93NUMPY\x01\x00\x76\x00\
          {'descr': '<u4', 'fortran_order': False, 'shape': (2,), }                                                            \n\
          \x00\x00\x00\x00\xff\xff\xff\xff",
        NpyData::U32(array![0, u32::MAX].into_dyn()),
    ),
    (
        b"\x93NUMPY\x01\x00\x76\x00\
          {'descr': '<i8', 'fortran_order': False, 'shape': (2,), }                                                            \n\
          \x00\x00\x00\x00\x00\x00\x00\x80\xff\xff\xff\xff\xff\xff\xff\x7f",
        NpyData::I64(array![i64::MIN, i64::MAX].into_dyn()),
    ),
    (
        b"\x93NUMPY\x01\x00\x76\x00\
          {'descr': '<u8', 'fortran_order': False, 'shape': (2,), }                                                            \n\
          \x00\x00\x00\x00\x00\x00\x00\x00\xff\xff\xff\xff\xff\xff\xff\xff",
        NpyData::U64(array![0, u64::MAX].into_dyn()),
    ),
    (
        b"\x93NUMPY\x01\x00\x76\x00\
          {'descr': '<f2', 'fortran_order': False, 'shape': (3,), }                                                            \n\
          \x00\x3e\xff\xfb\x00\x7c",
        NpyData::F16(array![f16::from_f32(1.5), f16::MIN, f16::INFINITY].into_dyn()),
    ),
    (
        b"\x93NUMPY\x01\x00\x76\x00\
          {'descr': '<f4', 'fortran_order': False, 'shape': (3,), }                                                            \n\
          \x00\x00\xc0\x3f\x00\x00\xc0\xbe\xff\xff\x7f\x7f",
        NpyData::F32(array![1.5, -0.375, f32::MAX].into_dyn()),
    ),
    (
        b"\x93NUMPY\x01\x00\x76\x00\
          {'descr': '<f8', 'fortran_order': False, 'shape': (2,), }                                                            \n\
          \x9a\x99\x99\x99\x99\x99\xb9\x3f\x00\x00\x00\x00\x00\x00\x04\xc0",
        NpyData::F64(array![0.1, -2.5].into_dyn()),
    ),
    (
        b"\x93NUMPY\x01\x00\x76\x00\
          {'descr': '<c8', 'fortran_order': False, 'shape': (2,), }                                                            \n\
          \x00\x00\x80\x3f\x00\x00\x00\x40\x00\x00\x40\x40\x00\x00\x00\xbf",
        NpyData::C64(array![c64::new(1.0, 2.0), c64::new(3.0, -0.5)].into_dyn()),
    ),
    (
        b"\x93NUMPY\x01\x00\x76\x00\
          {'descr': '<c16', 'fortran_order': False, 'shape': (1,), }                                                           \n\
          \x00\x00\x00\x00\x00\x00\xf8\x3f\x00\x00\x00\x00\x00\x00\x00\xc0",
        NpyData::C128(array![c128::new(1.5, -2.0)].into_dyn()),
    ),
    (
        b"\x93NUMPY\x01\x00\x76\x00\
          {'descr': '<i2', 'fortran_order': True, 'shape': (2, 3), }                                                           \n\
          \x00\x00\x03\x00\x01\x00\x04\x00\x02\x00\x05\x00",
        NpyData::I16(array![[0, 1, 2], [3, 4, 5]].into_dyn()),
    ),
    (
        b"\x93NUMPY\x01\x00\x76\x00\
          {'descr': '<f2', 'fortran_order': False, 'shape': (), }                                                              \n\
          \x00\x41",
        NpyData::F16(arr0(f16::from_f32(2.5)).into_dyn()),
    ),
    (
        b"\x93NUMPY\x01\x00\x76\x00\
          {'descr': '<c8', 'fortran_order': False, 'shape': (0, 3), }                                                          \n",
        NpyData::C64(Array::zeros(IxDyn(&[0, 3]))),
    ),
    (
        b"\x93NUMPY\x01\x00\x76\x00\
          {'descr': '>i4', 'fortran_order': False, 'shape': (3,), }                                                            \n\
          \x00\x00\x00\x01\xff\xff\xff\xfe\x00\x00\x00\x03",
        NpyData::I32(array![1, -2, 3].into_dyn()),
    ),
    (
        b"\x93NUMPY\x01\x00\x76\x00\
          {'descr': '>f8', 'fortran_order': False, 'shape': (1, 2), }                                                          \n\
          \x3f\xd0\x00\x00\x00\x00\x00\x00\xbf\xf0\x00\x00\x00\x00\x00\x00",
        NpyData::F64(array![[0.25, -1.0]].into_dyn()),
    ),
    (
        b"\x93NUMPY\x01\x00\x76\x00\
          {'descr': '>c16', 'fortran_order': False, 'shape': (2,), }                                                           \n\
          \x3f\xf0\x00\x00\x00\x00\x00\x00\x40\x00\x00\x00\x00\x00\x00\x00\x80\x00\x00\x00\x00\x00\x00\x00\xc0\x0c\x00\x00\x00\x00\x00\x00",
        NpyData::C128(array![c128::new(1.0, 2.0), c128::new(0.0, -3.5)].into_dyn()),
    ),
    (
        b"\x93NUMPY\x01\x00\x76\x00\
          {'descr': '>f2', 'fortran_order': False, 'shape': (2,), }                                                            \n\
          \x3e\x00\xc0\x00",
        NpyData::F16(array![f16::from_f32(1.5), f16::from_f32(-2.0)].into_dyn()),
    ),
    ]
}

fn header_of(file: &[u8]) -> String {
    String::from_utf8_lossy(&file[10..file.len().min(128)]).into_owned()
}

#[test]
fn round_trips_every_dtype() {
    let dir = ScratchDir::new("round-trip");
    let path = dir.file("a.npy");
    let mut cases = samples();
    assert_eq!(
        cases.iter().map(NpyData::dtype).collect::<Vec<_>>(),
        ALL.to_vec()
    );
    cases.extend([
        NpyData::F16(arr0(f16::from_f32(-2.5)).into_dyn()),
        NpyData::C128(Array::zeros(IxDyn(&[0, 5]))),
        NpyData::I64(array![i64::MIN, -1, 0, 1, i64::MAX].into_dyn()),
        NpyData::U64(array![[u64::MAX], [0]].into_dyn()),
    ]);
    for case in cases {
        save(&path, case.view()).unwrap();
        assert_eq!(load(&path).unwrap(), case);
    }
}

#[test]
fn round_trips_nans_bit_for_bit() {
    let dir = ScratchDir::new("nan");
    let (first, second) = (dir.file("1.npy"), dir.file("2.npy"));
    let cases = [
        NpyData::F16(array![f16::NAN, -f16::NAN, f16::from_bits(0x7c01)].into_dyn()),
        NpyData::F32(array![[1.5f32, -0.0], [f32::NAN, f32::from_bits(0xffc0_0001)]].into_dyn()),
        NpyData::C128(array![c128::new(f64::NAN, -0.0), c128::new(1.0, -f64::NAN)].into_dyn()),
    ];
    // NaN != NaN: saving what was loaded must give the same bytes.
    for case in cases {
        save(&first, case.view()).unwrap();
        let loaded = load(&first).unwrap();
        assert_eq!(loaded.dtype(), case.dtype());
        save(&second, loaded.view()).unwrap();
        assert_eq!(
            std::fs::read(&first).unwrap(),
            std::fs::read(&second).unwrap()
        );
    }
}

#[test]
fn loads_files_written_by_numpy() {
    let dir = ScratchDir::new("numpy-files");
    let path = dir.file("a.npy");
    for (file, want) in numpy_files() {
        std::fs::write(&path, file).unwrap();
        assert_eq!(load(&path).unwrap(), want, "{}", header_of(file));
    }
}

#[test]
fn saves_what_numpy_saves_byte_for_byte() {
    let dir = ScratchDir::new("as-numpy");
    let (input, output) = (dir.file("in.npy"), dir.file("out.npy"));
    let mut fortran = None;
    for (file, _) in numpy_files() {
        let header = header_of(file);
        if header.contains("'fortran_order': True") {
            fortran = Some(file);
        }
        if header.contains("'>") || fortran == Some(file) {
            continue;
        }
        std::fs::write(&input, file).unwrap();
        save(&output, load(&input).unwrap().view()).unwrap();
        assert_eq!(std::fs::read(&output).unwrap(), file, "{header}");
    }

    let c_order: Array2<i16> = array![[0, 1, 2], [3, 4, 5]];
    let transposed = c_order.t().as_standard_layout().into_owned();
    save(&output, NpyView::I16(transposed.t().into_dyn())).unwrap();
    assert_eq!(std::fs::read(&output).unwrap(), fortran.unwrap());

    // A Fortran-ordered file loads in C order.
    std::fs::write(&input, fortran.unwrap()).unwrap();
    save(&output, load(&input).unwrap().view()).unwrap();
    let written = std::fs::read(&output).unwrap();
    assert!(header_of(&written).contains("'fortran_order': False"));
}

#[test]
fn reads_every_byte_order_mark() {
    let dir = ScratchDir::new("byte-order");
    let path = dir.file("a.npy");
    let native: Vec<u8> = [1u16, 0x0203]
        .iter()
        .flat_map(|v| v.to_ne_bytes())
        .collect();
    let cases: [(&str, &[u8]); 5] = [
        ("<u2", &[1, 0, 3, 2]),
        (">u2", &[0, 1, 2, 3]),
        ("=u2", &native),
        ("|u2", &native),
        ("u2", &native),
    ];
    for (descr, data) in cases {
        let literal = format!("{{'descr': '{descr}', 'fortran_order': False, 'shape': (2,), }}");
        std::fs::write(&path, raw_npy(&literal, data)).unwrap();
        assert_eq!(
            load(&path).unwrap(),
            NpyData::U16(array![1u16, 0x0203].into_dyn()),
            "{descr}"
        );
    }
    for descr in ["<b1", ">b1", "=b1", "b1"] {
        let literal = format!("{{'descr': '{descr}', 'fortran_order': False, 'shape': (2,), }}");
        std::fs::write(&path, raw_npy(&literal, &[0, 1])).unwrap();
        assert_eq!(
            load(&path).unwrap(),
            NpyData::Bool(array![false, true].into_dyn()),
            "{descr}"
        );
    }
}

#[test]
fn large_arrays_cross_buffer_boundaries() {
    let dir = ScratchDir::new("large");
    let path = dir.file("a.npy");
    let len = CHUNK_BYTES / 16 * 3 + 5;
    let values = Array::from_shape_fn(IxDyn(&[len]), |i| c128::new(i[0] as f64, -(i[0] as f64)));
    let reversed = values.slice(s![..;-1]).into_dyn();
    save(&path, NpyView::C128(reversed.view())).unwrap();
    assert_eq!(load(&path).unwrap(), NpyData::C128(reversed.to_owned()));
}

#[test]
fn saves_strided_views_without_copying() {
    let dir = ScratchDir::new("views");
    let path = dir.file("v.npy");
    let base = Array3::from_shape_fn((4, 5, 6), |(i, j, k)| (i * 100 + j * 10 + k) as i64);
    let views = [
        base.view().reversed_axes().into_dyn(),
        base.slice(s![1..;2, ..;-1, 2..5]).into_dyn(),
        base.slice(s![.., 3, ..]).into_dyn(),
    ];
    for view in views {
        save(&path, NpyView::I64(view.clone())).unwrap();
        let NpyData::I64(loaded) = load(&path).unwrap() else {
            panic!("wrong dtype");
        };
        assert!(loaded.is_standard_layout());
        assert_eq!(loaded, view);
    }
}

#[test]
fn clean_errors_for_bad_files() {
    let dir = ScratchDir::new("errors");
    let missing = load(&dir.file("missing.npy")).unwrap_err();
    assert!(missing.ends_with("missing.npy': no such file"), "{missing}");

    let write = |name: &str, bytes: &[u8]| {
        let path = dir.file(name);
        std::fs::write(&path, bytes).unwrap();
        load(&path).unwrap_err()
    };
    let err = write("text.npy", b"x,y\n1,2\n");
    assert!(err.contains("not a .npy file"), "{err}");
    let err = write("empty.npy", b"");
    assert!(err.contains("not a .npy file"), "{err}");

    let good = raw_npy(
        "{'descr': '<f8', 'fortran_order': False, 'shape': (2, 3), }",
        &[0u8; 48],
    );
    let err = write("short-data.npy", &good[..good.len() - 1]);
    assert!(
        err.contains(
            "truncated: a float64 array of shape (2, 3) needs 48 bytes of data, the file holds 47"
        ),
        "{err}"
    );
    let err = write("short-header.npy", &good[..40]);
    assert!(err.contains("truncated inside the header"), "{err}");

    let short_half = raw_npy(
        "{'descr': '>f2', 'fortran_order': False, 'shape': (3,), }",
        &[0u8; 5],
    );
    let err = write("short-half.npy", &short_half);
    assert!(
        err.contains(
            "truncated: a float16 array of shape (3,) needs 6 bytes of data, the file holds 5"
        ),
        "{err}"
    );

    let long_double = raw_npy(
        "{'descr': '<f16', 'fortran_order': False, 'shape': (1,), }",
        &[0u8; 16],
    );
    let err = write("long-double.npy", &long_double);
    assert!(
        err.contains("unsupported dtype float128 ('<f16'); arrsh loads bool, int8 to int64"),
        "{err}"
    );
    let long_complex = raw_npy(
        "{'descr': '>c32', 'fortran_order': False, 'shape': (1,), }",
        &[0u8; 32],
    );
    let err = write("long-complex.npy", &long_complex);
    assert!(
        err.contains("unsupported dtype complex256 ('>c32')"),
        "{err}"
    );
    let structured = raw_npy(
        "{'descr': [('x', '<f8')], 'fortran_order': False, 'shape': (1,), }",
        &[0u8; 8],
    );
    let err = write("structured.npy", &structured);
    assert!(
        err.contains("unsupported structured dtype [('x', '<f8')]"),
        "{err}"
    );

    let err = write(
        "garbled.npy",
        &raw_npy("{'descr': '<f8', 'shape': (1,", &[0u8; 8]),
    );
    assert!(err.contains("error parsing"), "{err}");
    let deep = format!("{}{}", "(".repeat(5000), ")".repeat(5000));
    let err = write("deep.npy", &raw_npy(&deep, &[]));
    assert!(err.contains("nested too deeply"), "{err}");
    let bad_bool = raw_npy(
        "{'descr': '|b1', 'fortran_order': False, 'shape': (2,), }",
        &[1, 7],
    );
    let err = write("bad-bool.npy", &bad_bool);
    assert!(
        err.contains("error parsing value 0x07 as a bool (dtype '|b1')"),
        "{err}"
    );
    let huge = raw_npy(
        "{'descr': '<f8', 'fortran_order': False, 'shape': (4294967296, 4294967296), }",
        &[],
    );
    let err = write("huge.npy", &huge);
    assert!(err.contains("too large"), "{err}");

    let unwritable = save(
        &dir.file("no/such/dir.npy"),
        NpyView::F64(arr0(1.0).into_dyn().view()),
    );
    assert!(unwritable.unwrap_err().starts_with("cannot save"));
}

#[test]
fn trailing_bytes_are_ignored_like_numpy() {
    let dir = ScratchDir::new("trailing");
    let path = dir.file("t.npy");
    let mut bytes = raw_npy(
        "{'descr': '<i8', 'fortran_order': False, 'shape': (2,), }",
        &[0u8; 16],
    );
    let first = bytes.len() - 16;
    bytes[first] = 7;
    bytes.extend_from_slice(b"junk");
    std::fs::write(&path, bytes).unwrap();
    assert_eq!(
        load(&path).unwrap(),
        NpyData::I64(array![7i64, 0].into_dyn())
    );
}

#[test]
fn numpy_files_load() {
    if !numpy_available() {
        return;
    }
    let dir = ScratchDir::new("from-numpy");
    run_python(
        "import numpy as np\n\
         a = np.arange(24, dtype=np.float64).reshape(2, 3, 4) / 8\n\
         np.save('c.npy', a)\n\
         np.save('fortran.npy', np.asfortranarray(a))\n\
         np.save('big.npy', a.astype('>f8'))\n\
         np.save('big_fortran_f4.npy', np.asfortranarray(a.astype('>f4')))\n\
         np.save('big_fortran_c8.npy', np.asfortranarray((a + 1j * a).astype('>c8')))\n\
         np.save('big_f2.npy', a.astype('>f2'))\n\
         np.save('i8.npy', np.array([[-(2**63), 2**63 - 1], [5, -7]], dtype=np.int64))\n\
         np.save('big_i8.npy', np.arange(-3, 3).astype('>i8'))\n\
         np.save('bool.npy', np.array([[True, False], [False, True]]))\n\
         np.save('scalar.npy', np.float32(2.5))\n\
         np.save('empty.npy', np.zeros((0, 3)))\n\
         np.save('ld.npy', np.ones(2, dtype=np.longdouble))\n\
         np.save('cld.npy', np.ones(2, dtype=np.clongdouble))\n\
         np.save('void.npy', np.zeros(2, dtype='V4'))\n\
         np.save('str.npy', np.array(['ab', 'c']))\n\
         np.save('obj.npy', np.array([None, 1], dtype=object))\n\
         np.save('dt.npy', np.zeros(2, dtype='M8[ns]'))\n",
        &dir.0,
    );
    let expected = Array::range(0.0, 24.0, 1.0)
        .into_shape_with_order((2, 3, 4))
        .unwrap()
        .mapv(|v| v / 8.0)
        .into_dyn();
    for name in ["c.npy", "fortran.npy", "big.npy"] {
        let loaded = load(&dir.file(name)).unwrap();
        assert_eq!(loaded, NpyData::F64(expected.clone()), "{name}");
        let NpyData::F64(array) = loaded else {
            unreachable!()
        };
        assert!(array.is_standard_layout(), "{name}");
    }
    assert_eq!(
        load(&dir.file("big_fortran_f4.npy")).unwrap(),
        NpyData::F32(expected.mapv(|v| v as f32))
    );
    assert_eq!(
        load(&dir.file("big_fortran_c8.npy")).unwrap(),
        NpyData::C64(expected.mapv(|v| c64::new(v as f32, v as f32)))
    );
    assert_eq!(
        load(&dir.file("big_f2.npy")).unwrap(),
        NpyData::F16(expected.mapv(f16::from_f64))
    );
    assert_eq!(
        load(&dir.file("i8.npy")).unwrap(),
        NpyData::I64(array![[i64::MIN, i64::MAX], [5, -7]].into_dyn())
    );
    assert_eq!(
        load(&dir.file("big_i8.npy")).unwrap(),
        NpyData::I64(array![-3i64, -2, -1, 0, 1, 2].into_dyn())
    );
    assert_eq!(
        load(&dir.file("bool.npy")).unwrap(),
        NpyData::Bool(array![[true, false], [false, true]].into_dyn())
    );
    assert_eq!(
        load(&dir.file("scalar.npy")).unwrap(),
        NpyData::F32(arr0(2.5f32).into_dyn())
    );
    assert_eq!(load(&dir.file("empty.npy")).unwrap().shape(), &[0, 3]);
    for (name, dtype) in [
        ("ld.npy", "float128 ('<f16')"),
        ("cld.npy", "complex256 ('<c32')"),
        ("void.npy", "void32 ('|V4')"),
        ("str.npy", "str64 ('<U2')"),
        ("obj.npy", "object ('|O')"),
        ("dt.npy", "datetime64[ns] ('<M8[ns]')"),
    ] {
        let err = load(&dir.file(name)).unwrap_err();
        assert!(err.contains(&format!("unsupported dtype {dtype}")), "{err}");
    }
}

#[test]
fn numpy_reads_saved_files() {
    if !numpy_available() {
        return;
    }
    let dir = ScratchDir::new("to-numpy");
    let a = Array::range(0.0, 24.0, 1.0)
        .into_shape_with_order((2, 3, 4))
        .unwrap()
        / 8.0;
    save(&dir.file("c.npy"), NpyView::F64(a.view().into_dyn())).unwrap();
    save(&dir.file("t.npy"), NpyView::F64(a.t().into_dyn())).unwrap();
    save(
        &dir.file("s.npy"),
        NpyView::F64(a.slice(s![.., ..;-1, 1..3]).into_dyn()),
    )
    .unwrap();
    let a32 = a.mapv(|v| v as f32);
    save(&dir.file("f4.npy"), NpyView::F32(a32.view().into_dyn())).unwrap();
    let ints: Array1<i64> = array![i64::MIN, -1, 0, i64::MAX];
    save(&dir.file("i8.npy"), NpyView::I64(ints.view().into_dyn())).unwrap();
    let flags = array![[true, false, true]];
    save(&dir.file("b.npy"), NpyView::Bool(flags.view().into_dyn())).unwrap();
    save(
        &dir.file("0d.npy"),
        NpyView::F64(arr0(-0.5).into_dyn().view()),
    )
    .unwrap();
    for case in samples() {
        let name = format!("sample_{}.npy", type_code(case.dtype()));
        save(&dir.file(&name), case.view()).unwrap();
    }
    let z = Array2::from_shape_fn((3, 4), |(i, j)| c64::new(i as f32, j as f32));
    save(&dir.file("zt.npy"), NpyView::C64(z.t().into_dyn())).unwrap();
    save(
        &dir.file("zs.npy"),
        NpyView::C64(z.slice(s![..;-1, 1..3]).into_dyn()),
    )
    .unwrap();
    run_python(
        "import numpy as np\n\
         a = np.arange(24, dtype=np.float64).reshape(2, 3, 4) / 8\n\
         def check(name, want):\n\
         \x20   got = np.load(name)\n\
         \x20   assert got.dtype == want.dtype, (name, got.dtype)\n\
         \x20   assert got.shape == want.shape, (name, got.shape)\n\
         \x20   assert np.array_equal(got, want), name\n\
         check('c.npy', a)\n\
         check('t.npy', a.T)\n\
         check('s.npy', a[:, ::-1, 1:3])\n\
         check('f4.npy', a.astype(np.float32))\n\
         check('i8.npy', np.array([-(2**63), -1, 0, 2**63 - 1], dtype=np.int64))\n\
         check('b.npy', np.array([[True, False, True]]))\n\
         check('0d.npy', np.array(-0.5))\n\
         z = (np.arange(3)[:, None] + 1j * np.arange(4)).astype(np.complex64)\n\
         check('zt.npy', z.T)\n\
         check('zs.npy', z[::-1, 1:3])\n\
         for d in ['|b1', '|i1', '|u1', '<i2', '<u2', '<i4', '<u4', '<i8', '<u8',\n\
         \x20         '<f2', '<f4', '<f8', '<c8', '<c16']:\n\
         \x20   want = np.arange(24).reshape(2, 3, 4) * 0.75\n\
         \x20   want = want * {'c8': 1 - 2j, 'c16': -0.5 + 1j}.get(d[1:], 1)\n\
         \x20   check('sample_' + d[1:] + '.npy', want.astype(d))\n\
         \x20   assert np.load('sample_' + d[1:] + '.npy').dtype.str == d, d\n",
        &dir.0,
    );
}
