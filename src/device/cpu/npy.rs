//! Saving and loading NumPy `.npy` files.
//!
//! Headers are parsed by `ndarray-npy`; the data is read and written here,
//! since `ndarray-npy` has no float16 and no native-order (`=`) descriptors.
//! The file is checked first (magic string, version, header and data lengths
//! against the file size, nesting depth of the header literal) so that a
//! damaged or foreign file gives a clear message instead of a huge allocation
//! or a deep parser recursion. Files of either byte order and Fortran order
//! load; loaded arrays are always in standard (C) layout. Like `numpy.load`,
//! bytes after the data are ignored.

use std::fs::File;
use std::io::{self, BufReader, Read, Write};
use std::mem::size_of;
use std::path::Path;

use ndarray::{ArrayD, ArrayViewD, IxDyn, Shape, ShapeBuilder};
use ndarray_npy::npy::header::Header;
use num_complex::Complex;

use crate::base::dtype::{DType, Kind, ALL};
use crate::base::element::{c128, c64, f16, Element};

const MAGIC: &[u8] = b"\x93NUMPY";
/// Headers longer than this are rejected. NumPy's own reader refuses headers
/// over 10 000 bytes by default; arrays of the supported dtypes need ~130.
const MAX_HEADER_LEN: usize = 1 << 16;
/// Deeper bracket nesting than this in the header cannot describe a plain array.
const MAX_HEADER_NESTING: usize = 16;
/// NumPy starts the data at a multiple of this many bytes.
const ARRAY_ALIGN: usize = 64;
/// NumPy's room in the header for the digits of a growing axis.
const GROWTH_AXIS_MAX_DIGITS: usize = 21;
/// Data is read and written through a buffer of this many bytes (a multiple of
/// every element size).
const CHUNK_BYTES: usize = 1 << 16;

/// Declares the arrays of each dtype (variants named as in `DType`) and the
/// code that picks a variant's element type.
macro_rules! npy_arrays {
    ($($dtype:ident($t:ty)),* $(,)?) => {
        /// An array read from a `.npy` file.
        #[derive(Clone, Debug, PartialEq)]
        pub enum NpyData {
            $($dtype(ArrayD<$t>),)*
        }

        /// A borrowed array to write to a `.npy` file; any strides are accepted.
        #[derive(Clone, Debug)]
        pub enum NpyView<'a> {
            $($dtype(ArrayViewD<'a, $t>),)*
        }

        impl NpyData {
            pub fn dtype(&self) -> DType {
                match self {
                    $(NpyData::$dtype(_) => DType::$dtype,)*
                }
            }

            pub fn shape(&self) -> &[usize] {
                match self {
                    $(NpyData::$dtype(a) => a.shape(),)*
                }
            }

            pub fn view(&self) -> NpyView<'_> {
                match self {
                    $(NpyData::$dtype(a) => NpyView::$dtype(a.view()),)*
                }
            }

            /// Hands the array, with its element type, to `visitor`.
            pub fn visit<V: ArrayVisitor>(self, visitor: V) -> V::Output {
                match self {
                    $(NpyData::$dtype(a) => visitor.visit(a),)*
                }
            }
        }

        $(
            impl<'a> From<ArrayViewD<'a, $t>> for NpyView<'a> {
                fn from(view: ArrayViewD<'a, $t>) -> NpyView<'a> {
                    NpyView::$dtype(view)
                }
            }
        )*

        fn write_view(out: &mut impl Write, view: NpyView) -> io::Result<()> {
            match view {
                $(NpyView::$dtype(a) => write_array(out, a),)*
            }
        }

        fn read_data(
            dtype: DType,
            data: impl Read,
            shape: Shape<IxDyn>,
            big_endian: bool,
        ) -> Result<NpyData, String> {
            match dtype {
                $(DType::$dtype => read_array(data, shape, big_endian).map(NpyData::$dtype),)*
            }
        }
    };
}

npy_arrays!(
    Bool(bool),
    I8(i8),
    U8(u8),
    I16(i16),
    U16(u16),
    I32(i32),
    U32(u32),
    I64(i64),
    U64(u64),
    F16(f16),
    F32(f32),
    F64(f64),
    C64(c64),
    C128(c128),
);

/// What takes a loaded array of any element type.
pub trait ArrayVisitor {
    type Output;
    fn visit<T: super::CpuElement>(self, array: ArrayD<T>) -> Self::Output;
}

/// How an element is stored in a `.npy` file; `bytes` is one element's worth.
trait NpyElement: Element {
    fn from_le(bytes: &[u8]) -> Self;
    fn from_be(bytes: &[u8]) -> Self;
    fn write_le(self, out: &mut Vec<u8>);
    /// Rejects data holding invalid values (only bools can be invalid).
    fn validate(_data: &[u8]) -> Result<(), String> {
        Ok(())
    }
}

macro_rules! npy_numbers {
    ($($t:ty),*) => { $(
        impl NpyElement for $t {
            fn from_le(bytes: &[u8]) -> Self {
                <$t>::from_le_bytes(bytes.try_into().unwrap())
            }
            fn from_be(bytes: &[u8]) -> Self {
                <$t>::from_be_bytes(bytes.try_into().unwrap())
            }
            fn write_le(self, out: &mut Vec<u8>) {
                out.extend_from_slice(&self.to_le_bytes());
            }
        }
    )* };
}
npy_numbers!(i8, u8, i16, u16, i32, u32, i64, u64, f16, f32, f64);

/// The real part, then the imaginary part, each in the file's byte order.
impl<T: NpyElement> NpyElement for Complex<T>
where
    Complex<T>: Element,
{
    fn from_le(bytes: &[u8]) -> Self {
        let (re, im) = bytes.split_at(size_of::<T>());
        Complex::new(T::from_le(re), T::from_le(im))
    }
    fn from_be(bytes: &[u8]) -> Self {
        let (re, im) = bytes.split_at(size_of::<T>());
        Complex::new(T::from_be(re), T::from_be(im))
    }
    fn write_le(self, out: &mut Vec<u8>) {
        self.re.write_le(out);
        self.im.write_le(out);
    }
}

impl NpyElement for bool {
    fn from_le(bytes: &[u8]) -> Self {
        bytes[0] != 0
    }
    fn from_be(bytes: &[u8]) -> Self {
        bytes[0] != 0
    }
    fn write_le(self, out: &mut Vec<u8>) {
        out.push(u8::from(self));
    }
    fn validate(data: &[u8]) -> Result<(), String> {
        match data.iter().find(|&&byte| byte > 1) {
            Some(byte) => Err(format!("error parsing value {byte:#04x} as a bool")),
            None => Ok(()),
        }
    }
}

/// Writes `data` to `path` byte for byte as `np.save` does: little-endian,
/// format version 1.0 unless the header needs 2.0.
///
/// C- and Fortran-contiguous views are written in their memory order; other
/// views element by element in C order. Nothing is copied.
pub fn save(path: &Path, data: NpyView) -> Result<(), String> {
    let fail = |reason: String| format!("cannot save '{}': {reason}", path.display());
    let mut file = File::create(path).map_err(|e| fail(e.to_string()))?;
    write_view(&mut file, data).map_err(|e| fail(e.to_string()))
}

fn write_array<T: NpyElement>(out: &mut impl Write, array: ArrayViewD<T>) -> io::Result<()> {
    let fortran = !array.is_standard_layout() && array.t().is_standard_layout();
    out.write_all(&format_header(T::DTYPE, array.shape(), fortran))?;
    let in_file_order = if fortran {
        array.reversed_axes()
    } else {
        array
    };
    let mut buffer = Vec::with_capacity(CHUNK_BYTES);
    for &x in in_file_order.iter() {
        x.write_le(&mut buffer);
        if buffer.len() >= CHUNK_BYTES {
            out.write_all(&buffer)?;
            buffer.clear();
        }
    }
    out.write_all(&buffer)
}

/// The header `np.save` writes: keys sorted, room after the literal for the
/// first axis (the last, in Fortran order) to grow in place, and padding that
/// puts the data at a multiple of 64 bytes.
fn format_header(dtype: DType, shape: &[usize], fortran: bool) -> Vec<u8> {
    let mut literal = format!(
        "{{'descr': '{}', 'fortran_order': {}, 'shape': {}, }}",
        saved_descriptor(dtype),
        if fortran { "True" } else { "False" },
        python_shape(shape),
    );
    let growing = if fortran { shape.last() } else { shape.first() };
    if let Some(dim) = growing {
        let digits = dim.to_string().len();
        literal.push_str(&" ".repeat(GROWTH_AXIS_MAX_DIGITS.saturating_sub(digits)));
    }
    let with_newline = literal.len() + 1;
    // NumPy pads a full 64 bytes when the header is already aligned.
    let padded_len = |length_bytes: usize| {
        let unpadded = MAGIC.len() + 2 + length_bytes + with_newline;
        with_newline + ARRAY_ALIGN - unpadded % ARRAY_ALIGN
    };
    let (major, length_bytes) = if padded_len(2) <= usize::from(u16::MAX) {
        (1, 2)
    } else {
        (2, 4)
    };
    let header_len = padded_len(length_bytes);
    let mut bytes = MAGIC.to_vec();
    bytes.extend_from_slice(&[major, 0]);
    bytes.extend_from_slice(&(header_len as u32).to_le_bytes()[..length_bytes]);
    bytes.extend_from_slice(literal.as_bytes());
    bytes.resize(bytes.len() + header_len - with_newline, b' ');
    bytes.push(b'\n');
    bytes
}

/// Reads a `.npy` file of any dtype arrsh has, in either byte order.
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
    let (dtype, big_endian) = header
        .type_descriptor
        .as_string()
        .and_then(|descr| parse_descriptor(descr))
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

    let shape = IxDyn(&header.shape).set_f(header.layout.is_fortran());
    read_data(dtype, reader, shape, big_endian)
        .map_err(|e| fail(format!("{e} (dtype {descriptor})")))
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

/// The dtype a descriptor such as `'>f8'` names, and whether its data is
/// big-endian; `None` if arrsh has no such dtype.
fn parse_descriptor(descriptor: &str) -> Option<(DType, bool)> {
    let (order, code) = match descriptor.strip_prefix(['<', '>', '|', '=']) {
        Some(code) => (descriptor.as_bytes()[0], code),
        None => (b'=', descriptor),
    };
    let dtype = ALL.into_iter().find(|&dtype| type_code(dtype) == code)?;
    // `=`, `|` ("not applicable") and no mark at all mean the machine's order.
    let big_endian = match order {
        b'>' => true,
        b'<' => false,
        _ => cfg!(target_endian = "big"),
    };
    Some((dtype, big_endian))
}

/// The descriptor NumPy writes for `dtype` on a little-endian machine (`'<f8'`).
fn saved_descriptor(dtype: DType) -> String {
    let order = if dtype.size() == 1 { '|' } else { '<' };
    format!("{order}{}", type_code(dtype))
}

/// NumPy's kind letter and byte count (`f8`, `c16`).
fn type_code(dtype: DType) -> String {
    let kind = match dtype.kind() {
        Kind::Bool => 'b',
        Kind::Signed => 'i',
        Kind::Unsigned => 'u',
        Kind::Float => 'f',
        Kind::Complex => 'c',
    };
    format!("{kind}{}", dtype.size())
}

/// Reads the data of an array of `shape`, whose size the caller has checked
/// against the file's.
fn read_array<T: NpyElement>(
    mut data: impl Read,
    shape: Shape<IxDyn>,
    big_endian: bool,
) -> Result<ArrayD<T>, String> {
    let size = size_of::<T>();
    let len = shape.size();
    let mut values = Vec::with_capacity(len);
    let mut chunk = vec![0u8; CHUNK_BYTES.min(len * size)];
    // A chunk reads in microseconds, so Ctrl-C stops a load of gigabytes at once.
    let stop = crate::base::interrupt::Stop::current();
    while values.len() < len {
        if stop.requested() {
            return Err("interrupted".to_string());
        }
        let bytes = &mut chunk[..((len - values.len()) * size).min(CHUNK_BYTES)];
        data.read_exact(bytes).map_err(|e| e.to_string())?;
        T::validate(bytes)?;
        let elements = bytes.chunks_exact(size);
        if big_endian {
            values.extend(elements.map(T::from_be));
        } else {
            values.extend(elements.map(T::from_le));
        }
    }
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
    format!(
        "{what}; arrsh loads bool, int8 to int64, uint8 to uint64, float16 to float64, \
         complex64 and complex128"
    )
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
mod tests;
