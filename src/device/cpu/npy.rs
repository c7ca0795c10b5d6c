//! Saving and loading NumPy `.npy` files.
//!
//! Data is read and written by `ndarray-npy`; this module checks the file
//! first (magic string, version, header and data lengths against the file
//! size, nesting depth of the header literal) so that a damaged or foreign
//! file gives a clear message instead of a huge allocation or a deep parser
//! recursion. Fortran-order and big-endian files load; loaded arrays are
//! always in standard (C) layout. Like `numpy.load`, bytes after the data are
//! ignored.

use std::fs::File;
use std::io::{self, BufReader, BufWriter, Read};
use std::path::Path;

use ndarray::{ArrayD, ArrayViewD, IxDyn, ShapeBuilder};
use ndarray_npy::npy::header::Header;
use ndarray_npy::{ReadableElement, WriteNpyExt};

use crate::array::dtype::DType;

const MAGIC: &[u8] = b"\x93NUMPY";
/// Headers longer than this are rejected. NumPy's own reader refuses headers
/// over 10 000 bytes by default; arrays of the four supported dtypes need ~100.
const MAX_HEADER_LEN: usize = 1 << 16;
/// Deeper bracket nesting than this in the header cannot describe a plain array.
const MAX_HEADER_NESTING: usize = 16;

/// An array read from a `.npy` file.
#[derive(Clone, Debug, PartialEq)]
pub enum NpyData {
    F64(ArrayD<f64>),
    F32(ArrayD<f32>),
    I64(ArrayD<i64>),
    Bool(ArrayD<bool>),
}

/// A borrowed array to write to a `.npy` file; any strides are accepted.
#[derive(Clone, Debug)]
pub enum NpyView<'a> {
    F64(ArrayViewD<'a, f64>),
    F32(ArrayViewD<'a, f32>),
    I64(ArrayViewD<'a, i64>),
    Bool(ArrayViewD<'a, bool>),
}

impl NpyData {
    pub fn dtype(&self) -> DType {
        match self {
            NpyData::F64(_) => DType::F64,
            NpyData::F32(_) => DType::F32,
            NpyData::I64(_) => DType::I64,
            NpyData::Bool(_) => DType::Bool,
        }
    }

    pub fn shape(&self) -> &[usize] {
        match self {
            NpyData::F64(a) => a.shape(),
            NpyData::F32(a) => a.shape(),
            NpyData::I64(a) => a.shape(),
            NpyData::Bool(a) => a.shape(),
        }
    }

    pub fn view(&self) -> NpyView<'_> {
        match self {
            NpyData::F64(a) => NpyView::F64(a.view()),
            NpyData::F32(a) => NpyView::F32(a.view()),
            NpyData::I64(a) => NpyView::I64(a.view()),
            NpyData::Bool(a) => NpyView::Bool(a.view()),
        }
    }
}

/// Writes `data` to `path` in `.npy` format (version 1.0, little-endian).
///
/// C- and Fortran-contiguous views are written in one pass from memory; other
/// views are written element by element in C order. Nothing is copied.
pub fn save(path: &Path, data: NpyView) -> Result<(), String> {
    let fail = |reason: String| format!("cannot save '{}': {reason}", path.display());
    let file = File::create(path).map_err(|e| fail(e.to_string()))?;
    let writer = BufWriter::new(file);
    let written = match data {
        NpyView::F64(a) => a.write_npy(writer),
        NpyView::F32(a) => a.write_npy(writer),
        NpyView::I64(a) => a.write_npy(writer),
        NpyView::Bool(a) => a.write_npy(writer),
    };
    written.map_err(|e| fail(e.to_string()))
}

/// Reads a `.npy` file of dtype float64, float32, int64 or bool.
pub fn load(path: &Path) -> Result<NpyData, String> {
    let fail = |reason: String| format!("cannot load '{}': {reason}", path.display());
    let file = File::open(path).map_err(|e| {
        fail(match e.kind() {
            io::ErrorKind::NotFound => "no such file".to_string(),
            _ => e.to_string(),
        })
    })?;
    let file_len = file.metadata().map_err(|e| fail(e.to_string()))?.len();
    let mut reader = BufReader::new(file);

    let header_bytes = read_header_bytes(&mut reader, file_len).map_err(fail)?;
    let header =
        Header::from_reader(&mut header_bytes.as_slice()).map_err(|e| fail(e.to_string()))?;
    let descriptor = header.type_descriptor.to_string();
    let dtype = header
        .type_descriptor
        .as_string()
        .and_then(|descr| supported_dtype(descr))
        .ok_or_else(|| fail(unsupported_dtype_message(&header)))?;

    let len = header
        .shape
        .iter()
        .try_fold(1usize, |acc, &dim| acc.checked_mul(dim))
        .ok_or_else(|| fail(format!("shape {:?} is too large", header.shape)))?;
    let data_len = len
        .checked_mul(dtype.size())
        .and_then(|bytes| u64::try_from(bytes).ok())
        .ok_or_else(|| fail(format!("shape {:?} is too large", header.shape)))?;
    let available = file_len.saturating_sub(header_bytes.len() as u64);
    if available < data_len {
        return Err(fail(format!(
            "file is truncated: a {} array of shape {} needs {data_len} bytes of data, \
             the file holds {available}",
            dtype.numpy_name(),
            python_shape(&header.shape),
        )));
    }

    let data = reader.take(data_len);
    let shape = IxDyn(&header.shape).set_f(header.layout.is_fortran());
    let loaded = match dtype {
        DType::F64 => read_array(data, &header, shape).map(NpyData::F64),
        DType::F32 => read_array(data, &header, shape).map(NpyData::F32),
        DType::I64 => read_array(data, &header, shape).map(NpyData::I64),
        DType::Bool => read_array(data, &header, shape).map(NpyData::Bool),
    };
    loaded.map_err(|e| fail(format!("{e} (dtype {descriptor})")))
}

/// Reads the magic string, version, length and header literal, checking each
/// against the file size before allocating. Returns all of it, ready to parse.
fn read_header_bytes(reader: &mut impl Read, file_len: u64) -> Result<Vec<u8>, String> {
    const NOT_NPY: &str = "not a .npy file (it does not start with \"\\x93NUMPY\")";
    let mut prefix = vec![0u8; MAGIC.len() + 2];
    if file_len < prefix.len() as u64 {
        return Err(NOT_NPY.to_string());
    }
    reader.read_exact(&mut prefix).map_err(|e| e.to_string())?;
    if !prefix.starts_with(MAGIC) {
        return Err(NOT_NPY.to_string());
    }
    let (major, minor) = (prefix[6], prefix[7]);
    let length_bytes = match major {
        1 => 2,
        2 | 3 => 4,
        _ => return Err(format!("unsupported .npy format version {major}.{minor}")),
    };
    let mut length = [0u8; 4];
    reader
        .read_exact(&mut length[..length_bytes])
        .map_err(|_| "file is truncated inside the header".to_string())?;
    prefix.extend_from_slice(&length[..length_bytes]);
    let header_len = u32::from_le_bytes(length) as usize;
    if header_len > MAX_HEADER_LEN {
        return Err(format!(
            "header is {header_len} bytes long (at most {MAX_HEADER_LEN} are accepted)"
        ));
    }
    if file_len < (prefix.len() + header_len) as u64 {
        return Err("file is truncated inside the header".to_string());
    }
    let start = prefix.len();
    prefix.resize(start + header_len, 0);
    reader
        .read_exact(&mut prefix[start..])
        .map_err(|_| "file is truncated inside the header".to_string())?;
    if nesting_depth(&prefix[start..]) > MAX_HEADER_NESTING {
        return Err("malformed header: brackets nested too deeply".to_string());
    }
    Ok(prefix)
}

/// The deepest bracket nesting in a Python literal (brackets inside strings count
/// too, which only makes the check stricter).
fn nesting_depth(literal: &[u8]) -> usize {
    let mut depth = 0usize;
    let mut deepest = 0;
    for byte in literal {
        match byte {
            b'(' | b'[' | b'{' => {
                depth += 1;
                deepest = deepest.max(depth);
            }
            b')' | b']' | b'}' => depth = depth.saturating_sub(1),
            _ => {}
        }
    }
    deepest
}

fn supported_dtype(descriptor: &str) -> Option<DType> {
    match descriptor {
        "<f8" | ">f8" => Some(DType::F64),
        "<f4" | ">f4" => Some(DType::F32),
        "<i8" | ">i8" => Some(DType::I64),
        "|b1" => Some(DType::Bool),
        _ => None,
    }
}

fn read_array<T: ReadableElement + Clone>(
    data: impl Read,
    header: &Header,
    shape: ndarray::Shape<IxDyn>,
) -> Result<ArrayD<T>, String> {
    let len = shape.size();
    let values =
        T::read_to_end_exact_vec(data, &header.type_descriptor, len).map_err(|e| e.to_string())?;
    let array = ArrayD::from_shape_vec(shape, values).map_err(|e| e.to_string())?;
    Ok(if array.is_standard_layout() {
        array
    } else {
        array.as_standard_layout().into_owned()
    })
}

fn unsupported_dtype_message(header: &Header) -> String {
    let descriptor = &header.type_descriptor;
    let what = match descriptor
        .as_string()
        .and_then(|descr| numpy_dtype_name(descr))
    {
        Some(name) => format!("unsupported dtype {name} ({descriptor})"),
        None if descriptor.as_list().is_some() => {
            format!("unsupported structured dtype {descriptor}")
        }
        None => format!("unrecognised dtype {descriptor}"),
    };
    format!("{what}; arrsh loads float64, float32, int64 and bool")
}

/// NumPy's name for a type descriptor such as `'<u2'` (`uint16`).
fn numpy_dtype_name(descriptor: &str) -> Option<String> {
    let code = descriptor.trim_start_matches(['<', '>', '|', '=']);
    let digits_at = code
        .find(|c: char| c.is_ascii_digit())
        .unwrap_or(code.len());
    let (kind, size) = code.split_at(digits_at);
    let count = size.parse::<usize>().ok();
    let name = match (kind, count) {
        ("b", Some(1)) => "bool".to_string(),
        ("i", Some(n @ (1 | 2 | 4 | 8))) => format!("int{}", n * 8),
        ("u", Some(n @ (1 | 2 | 4 | 8))) => format!("uint{}", n * 8),
        ("f", Some(n @ (2 | 4 | 8 | 12 | 16))) => format!("float{}", n * 8),
        ("c", Some(n @ (8 | 16 | 24 | 32))) => format!("complex{}", n * 8),
        // Unicode strings count 4-byte characters.
        ("U", Some(n)) => format!("str{}", n.saturating_mul(32)),
        ("S", Some(n)) => format!("bytes{}", n.saturating_mul(8)),
        ("V", Some(n)) => format!("void{}", n.saturating_mul(8)),
        ("O", None) => "object".to_string(),
        ("M" | "m", _) if size.starts_with('8') => {
            let unit = size.find('[').map_or("", |start| &size[start..]);
            let name = if kind == "M" {
                "datetime64"
            } else {
                "timedelta64"
            };
            format!("{name}{unit}")
        }
        _ => return None,
    };
    Some(name)
}

fn python_shape(shape: &[usize]) -> String {
    match shape {
        [n] => format!("({n},)"),
        _ => {
            let dims: Vec<String> = shape.iter().map(usize::to_string).collect();
            format!("({})", dims.join(", "))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use ndarray::{arr0, array, s, Array, Array1, Array3};
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

    #[test]
    fn round_trips_every_dtype() {
        let dir = ScratchDir::new("round-trip");
        let path = dir.file("a.npy");
        let cases = vec![
            NpyData::F64(
                Array::linspace(-1.0, 1.0, 24)
                    .into_shape_with_order((2, 3, 4))
                    .unwrap()
                    .into_dyn(),
            ),
            NpyData::F32(array![[1.5f32, -2.0], [f32::NAN, f32::INFINITY]].into_dyn()),
            NpyData::I64(array![i64::MIN, -1, 0, 1, i64::MAX].into_dyn()),
            NpyData::Bool(array![[true, false, true]].into_dyn()),
            NpyData::F64(arr0(3.25).into_dyn()),
            NpyData::I64(Array::zeros(IxDyn(&[0, 5]))),
        ];
        for case in cases {
            save(&path, case.view()).unwrap();
            let loaded = load(&path).unwrap();
            assert_eq!(loaded.dtype(), case.dtype());
            assert_eq!(loaded.shape(), case.shape());
            match (&loaded, &case) {
                (NpyData::F32(got), NpyData::F32(want)) => {
                    assert!(got
                        .iter()
                        .zip(want)
                        .all(|(g, w)| g.to_bits() == w.to_bits()));
                }
                _ => assert_eq!(loaded, case),
            }
        }
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
            err.contains("truncated: a float64 array of shape (2, 3) needs 48 bytes of data, the file holds 47"),
            "{err}"
        );
        let err = write("short-header.npy", &good[..40]);
        assert!(err.contains("truncated inside the header"), "{err}");

        let complex = raw_npy(
            "{'descr': '<c16', 'fortran_order': False, 'shape': (1,), }",
            &[0u8; 16],
        );
        let err = write("complex.npy", &complex);
        assert!(
            err.contains("unsupported dtype complex128 ('<c16')"),
            "{err}"
        );
        let bytes = raw_npy(
            "{'descr': '|u1', 'fortran_order': False, 'shape': (3,), }",
            &[1, 2, 3],
        );
        let err = write("u8.npy", &bytes);
        assert!(err.contains("unsupported dtype uint8 ('|u1')"), "{err}");
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
        assert!(err.contains("0x07"), "{err}");
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
             np.save('i8.npy', np.array([[-(2**63), 2**63 - 1], [5, -7]], dtype=np.int64))\n\
             np.save('big_i8.npy', np.arange(-3, 3).astype('>i8'))\n\
             np.save('bool.npy', np.array([[True, False], [False, True]]))\n\
             np.save('scalar.npy', np.float32(2.5))\n\
             np.save('empty.npy', np.zeros((0, 3)))\n\
             np.save('c64.npy', np.ones(2, dtype=np.complex64))\n\
             np.save('u8.npy', np.ones(2, dtype=np.uint8))\n\
             np.save('i4.npy', np.ones(2, dtype=np.int32))\n\
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
            ("c64.npy", "complex64 ('<c8')"),
            ("u8.npy", "uint8 ('|u1')"),
            ("i4.npy", "int32 ('<i4')"),
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
             check('0d.npy', np.array(-0.5))\n",
            &dir.0,
        );
    }
}
