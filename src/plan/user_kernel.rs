//! Kernels the user writes, as CuPy's `ElementwiseKernel`, `ReductionKernel` and `RawKernel`:
//! their parameter lists (`"T x, raw float64 y"`), the CUDA C generated around the user's
//! snippet (one grid-stride loop; a block per output row for reductions), and their launches.
//! Type placeholders are resolved by the array layer; here every parameter has a dtype.

use std::ffi::c_void;
use std::fmt::Write as _;
use std::sync::LazyLock;

use crate::base::layout::{collapse, Layout};
use crate::base::{DType, Scalar};
use crate::device::gpu::modules::{Kernel, BLOCK};
use crate::device::gpu::{gpu, Gpu};
use crate::device::Buffer;
use crate::error::{value_error, Result};
use crate::with_dtype;

/// A parameter's declared type: a dtype, or a placeholder (`T`) bound at the call.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ParamType {
    Fixed(DType),
    Placeholder(String),
}

#[derive(Clone, Debug)]
pub struct Param {
    pub name: String,
    pub ty: ParamType,
    /// `raw`: the whole array, indexed by the code (`x[j]`), not one element per thread.
    pub raw: bool,
}

/// `"T x, raw float64 y"` → its parameters. A type that names no dtype is a placeholder.
pub fn parse_params(text: &str, what: &str) -> Result<Vec<Param>> {
    let mut params: Vec<Param> = Vec::new();
    for piece in text.split(',').map(str::trim).filter(|p| !p.is_empty()) {
        let words: Vec<&str> = piece.split_whitespace().collect();
        let (raw, rest) = match words.as_slice() {
            ["raw", rest @ ..] => (true, rest),
            rest => (false, rest),
        };
        let [ty, name] = rest else {
            return Err(value_error(format!(
                "{what}: `{piece}` is not a parameter (write `TYPE NAME` or `raw TYPE NAME`)"
            )));
        };
        if !is_identifier(name) || !is_identifier(ty) {
            return Err(value_error(format!(
                "{what}: `{piece}`: types and names are C identifiers"
            )));
        }
        if params.iter().any(|p| p.name == *name) {
            return Err(value_error(format!(
                "{what}: the parameter `{name}` is declared twice"
            )));
        }
        let ty = match DType::from_name(ty) {
            Some(d) => ParamType::Fixed(d),
            None => ParamType::Placeholder(ty.to_string()),
        };
        params.push(Param {
            name: name.to_string(),
            ty,
            raw,
        });
    }
    Ok(params)
}

fn is_identifier(word: &str) -> bool {
    let mut chars = word.chars();
    chars
        .next()
        .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_')
}

/// The C type of a dtype in user code: complex numbers and float16 are the classes of
/// `kernels/user.cuh`, as CuPy's headers name them.
pub fn c_type(dtype: DType) -> &'static str {
    match dtype {
        DType::Bool => "bool",
        DType::I8 => "signed char",
        DType::U8 => "unsigned char",
        DType::I16 => "short",
        DType::U16 => "unsigned short",
        DType::I32 => "int",
        DType::U32 => "unsigned int",
        DType::I64 => "long long",
        DType::U64 => "unsigned long long",
        DType::F16 => "float16",
        DType::F32 => "float",
        DType::F64 => "double",
        DType::C64 => "complex<float>",
        DType::C128 => "complex<double>",
    }
}

/// What elementwise and reduction kernels are compiled after: the engine's prelude and the
/// user-kernel types built on it (raw kernels are whole sources, as CuPy's).
static PRELUDE: LazyLock<String> = LazyLock::new(|| {
    format!(
        "{}{}",
        super::cuda::PRELUDE,
        include_str!("../../kernels/user.cuh")
    )
});

/// One array a generated kernel reads or writes, seen over the kernel's shape.
pub struct ArrayArg {
    pub buffer: Buffer,
    pub layout: Layout,
    /// The dtype the code sees (`const T x`); the elements are converted on load.
    pub dtype: DType,
}

/// A bound argument of a generated kernel, in the order of the parameter list.
pub enum Bound {
    /// An element per thread (broadcast over the kernel's shape).
    Element(ArrayArg),
    /// A raw array: a pointer to its first element (contiguous).
    Raw(ArrayArg),
    /// A host scalar, passed by value as `dtype`.
    Scalar(Scalar, DType),
}

/// The typedefs of the placeholders, the helper the code knows as `_ind`, and the preamble.
fn prologue(placeholders: &[(String, DType)], preamble: &str) -> String {
    let mut text = String::new();
    for (name, dtype) in placeholders {
        let _ = writeln!(text, "typedef {} {name};", c_type(*dtype));
    }
    text.push_str(
        "struct arrsh_indexer { long long n; __device__ long long size() const { return n; } };\n",
    );
    if !preamble.is_empty() {
        text.push_str(preamble);
        text.push('\n');
    }
    text
}

/// The declaration of a parameter in the kernel's signature, and how its element is reached.
fn declare(name: &str, bound: &Bound, output: bool, dims: usize) -> String {
    let constant = if output { "" } else { "const " };
    match bound {
        Bound::Element(a) => {
            let mut text = format!(
                "{constant}{}* __restrict__ arrsh_{name}",
                c_type(a.buffer.dtype())
            );
            if !is_flat(&a.layout) {
                for d in 0..dims {
                    let _ = write!(text, ", long long arrsh_{name}_s{d}");
                }
            }
            text
        }
        Bound::Raw(a) => format!("{constant}{}* {name}", c_type(a.dtype)),
        Bound::Scalar(_, dtype) => format!("const {} {name}", c_type(*dtype)),
    }
}

fn is_flat(layout: &Layout) -> bool {
    layout.is_contiguous()
}

/// The C type of a kernel's loop index and coordinates.
fn index_type(narrow: bool) -> &'static str {
    if narrow {
        "int"
    } else {
        "long long"
    }
}

/// `name`'s element at the loop's index `arrsh_i` (flat) or at coordinates `k0 …`; a narrow
/// loop casts the strides to `int` as its coordinates are (a product of two `long long`s costs
/// several instructions).
fn place(name: &str, layout: &Layout, dims: usize, narrow: bool) -> String {
    if is_flat(layout) {
        return format!("arrsh_{name}[arrsh_i]");
    }
    let cast = if narrow { "(int)" } else { "" };
    let terms: Vec<String> = (0..dims)
        .map(|d| format!("k{d} * {cast}arrsh_{name}_s{d}"))
        .collect();
    format!("arrsh_{name}[{}]", terms.join(" + "))
}

/// The code that splits flat index `index` into coordinates `k0 …` of type `ty` over dims `d0 …`.
fn coordinates(dims: usize, index: &str, ty: &str) -> String {
    let mut text = format!("{ty} q = {index};");
    for d in (0..dims).rev() {
        if d == 0 {
            let _ = write!(text, " {ty} k0 = q;");
        } else {
            let _ = write!(text, " {ty} k{d} = q % ({ty})d{d}; q /= ({ty})d{d};");
        }
    }
    text
}

/// A user kernel's source (what `:explain --source` shows), what it is compiled after, and the
/// line of the source where the user's code starts (for compile errors).
pub struct Generated {
    prelude: &'static str,
    pub source: String,
    pub operation_line: usize,
}

impl Generated {
    fn after_prelude(source: String, operation_line: usize) -> Generated {
        Generated {
            prelude: &PRELUDE,
            source,
            operation_line,
        }
    }

    /// A raw kernel: the user's whole source, compiled as it is.
    pub fn raw(source: String) -> Generated {
        Generated {
            prelude: "",
            source,
            operation_line: 1,
        }
    }

    /// The text NVRTC compiles.
    pub fn text(&self) -> String {
        format!("{}{}", self.prelude, self.source)
    }

    /// The line of the source that line `line` of `text()` is; `None` within the prelude.
    pub fn source_line(&self, line: usize) -> Option<usize> {
        line.checked_sub(self.prelude.lines().count())
            .filter(|&n| n > 0)
    }
}

pub struct ElementwiseCall<'a> {
    pub name: &'a str,
    pub operation: &'a str,
    pub preamble: &'a str,
    pub placeholders: &'a [(String, DType)],
    pub inputs: &'a [(Param, Bound)],
    pub outputs: &'a [(Param, Bound)],
    pub shape: &'a [usize],
}

/// The shape a kernel loops over, collapsed with every element argument's layout (in order).
pub struct Collapsed {
    dims: Vec<usize>,
    layouts: Vec<Layout>,
    /// Whether the loop index and every element's offset fit a 32-bit `int`, which the kernel
    /// then indexes with (as CuPy's arrays do): 64-bit index arithmetic costs several
    /// instructions, a 64-bit division (strided coordinates) dozens.
    narrow: bool,
}

/// Below this many elements a kernel's grid-stride loop cannot overflow a 32-bit index: the
/// index stays under twice the count.
const NARROW_ELEMENTS: usize = 1 << 30;

/// Whether a loop over `dims` reaching elements through `layouts` can index with `int`.
fn fits_narrow(dims: &[usize], layouts: &[Layout]) -> bool {
    let n: usize = dims.iter().product();
    // Offsets count from the pointer passed, which is already at the layout's offset.
    let reach = |l: &Layout| -> usize {
        l.strides
            .iter()
            .zip(&l.shape)
            .map(|(&s, &d)| s.unsigned_abs().saturating_mul(d.saturating_sub(1)))
            .fold(0, usize::saturating_add)
    };
    n < NARROW_ELEMENTS && layouts.iter().all(|l| reach(l) < i32::MAX as usize)
}

/// What a generated kernel's text depends on besides the kernel's definition: each argument's
/// kind and dtypes, the collapsed rank, the placeholders' dtypes.
fn shape_key(
    bound: &[&Bound],
    collapsed: &Collapsed,
    placeholders: &[(String, DType)],
) -> Vec<u32> {
    let mut key = vec![collapsed.dims.len() as u32, collapsed.narrow as u32];
    key.extend(placeholders.iter().map(|(_, d)| *d as u32));
    let mut layouts = collapsed.layouts.iter();
    for b in bound {
        key.extend(match b {
            Bound::Element(a) => {
                let flat = layouts.next().is_some_and(is_flat);
                [flat as u32, a.buffer.dtype() as u32, a.dtype as u32]
            }
            Bound::Raw(a) => [2, a.buffer.dtype() as u32, a.dtype as u32],
            Bound::Scalar(_, d) => [3, *d as u32, *d as u32],
        });
    }
    key
}

impl ElementwiseCall<'_> {
    /// The cache key of the kernel this call needs.
    pub fn key(&self, collapsed: &Collapsed) -> Vec<u32> {
        let bound: Vec<&Bound> = self
            .inputs
            .iter()
            .chain(self.outputs)
            .map(|(_, b)| b)
            .collect();
        shape_key(&bound, collapsed, self.placeholders)
    }

    /// The shape the kernel loops over, collapsed with every element argument's layout.
    pub fn collapse(&self) -> Collapsed {
        let mut layouts: Vec<Layout> = self
            .inputs
            .iter()
            .chain(self.outputs)
            .filter_map(|(_, b)| match b {
                Bound::Element(a) => Some(a.layout.clone()),
                _ => None,
            })
            .collect();
        let mut refs: Vec<&mut Layout> = layouts.iter_mut().collect();
        let dims = collapse(self.shape, &mut refs);
        Collapsed {
            narrow: fits_narrow(&dims, &layouts),
            dims: dims.to_vec(),
            layouts,
        }
    }

    pub fn source(&self, collapsed: &Collapsed) -> Generated {
        let dims = &collapsed.dims;
        let mut layout_of = collapsed.layouts.iter().cloned();
        let mut signature = vec!["long long n".to_string()];
        signature.extend((0..dims.len()).map(|d| format!("long long d{d}")));
        let mut loads = Vec::new();
        let mut strided = false;
        for (k, (param, bound)) in self.inputs.iter().chain(self.outputs).enumerate() {
            let output = k >= self.inputs.len();
            if let Bound::Element(a) = bound {
                let layout = layout_of.next().expect("one layout per element argument");
                strided |= !is_flat(&layout);
                let flat = ArrayArg {
                    buffer: a.buffer.clone(),
                    layout: layout.clone(),
                    dtype: a.dtype,
                };
                signature.push(declare(
                    &param.name,
                    &Bound::Element(flat),
                    output,
                    dims.len(),
                ));
                let at = place(&param.name, &layout, dims.len(), collapsed.narrow);
                let ty = c_type(a.dtype);
                loads.push(if output {
                    format!("{ty} &{} = {at};", param.name)
                } else {
                    format!("const {ty} {} = ({ty}){at};", param.name)
                });
            } else {
                signature.push(declare(&param.name, bound, output, dims.len()));
            }
        }
        let mut text = prologue(self.placeholders, self.preamble);
        let _ = writeln!(
            text,
            "extern \"C\" __global__ void {}({}) {{",
            self.name,
            signature.join(", ")
        );
        text.push_str("    const arrsh_indexer _ind = {n};\n    (void)_ind;\n");
        let ty = index_type(collapsed.narrow);
        let _ = writeln!(
            text,
            "    const {ty} arrsh_n = ({ty})n, arrsh_stride = ({ty})blockDim.x * gridDim.x;"
        );
        let _ = writeln!(
            text,
            "    for ({ty} arrsh_i = ({ty})blockIdx.x * blockDim.x + threadIdx.x; arrsh_i < arrsh_n; arrsh_i += arrsh_stride) {{"
        );
        // The user's code sees a 64-bit `i`, as CuPy's (`i * i` must not overflow).
        text.push_str("        const long long i = arrsh_i;\n        (void)i;\n");
        if strided {
            let _ = writeln!(text, "        {}", coordinates(dims.len(), "arrsh_i", ty));
        }
        for load in loads {
            let _ = writeln!(text, "        {load}");
        }
        let operation_line = text.lines().count() + 1;
        for line in self.operation.lines() {
            let _ = writeln!(text, "        {line}");
        }
        text.push_str("        ;\n    }\n}\n");
        Generated::after_prelude(text, operation_line)
    }

    /// Launches the kernel: one counted kernel, a thread per element (as CuPy launches).
    pub fn run(&self, collapsed: &Collapsed, kernel: Kernel) -> Result<()> {
        let n: usize = self.shape.iter().product();
        if n == 0 {
            return Ok(());
        }
        let mut args = vec![Value::Long(n as i64)];
        args.extend(collapsed.dims.iter().map(|&d| Value::Long(d as i64)));
        let mut layout_of = collapsed.layouts.iter();
        for (_, bound) in self.inputs.iter().chain(self.outputs) {
            let layout = match bound {
                Bound::Element(_) => layout_of.next(),
                _ => None,
            };
            push_argument(
                &mut args,
                bound,
                layout,
                layout.is_some_and(|l| !is_flat(l)),
            );
        }
        let g = gpu()?;
        let grid = n.div_ceil(BLOCK as usize).min(i32::MAX as usize) as u32;
        launch(
            g,
            kernel,
            self.name,
            n,
            (grid, 1, 1),
            (BLOCK, 1, 1),
            0,
            &args,
        )
    }
}

pub struct ReductionCall<'a> {
    pub name: &'a str,
    pub map: &'a str,
    pub reduce: &'a str,
    pub post_map: &'a str,
    pub identity: &'a str,
    pub preamble: &'a str,
    pub reduce_type: DType,
    pub placeholders: &'a [(String, DType)],
    /// Inputs over `[rows…, reduced…]` (the reduced axes last), scalars by value.
    pub inputs: &'a [(Param, Bound)],
    /// The output parameter and its contiguous buffer of `rows` elements.
    pub output: (&'a Param, &'a Buffer, DType),
    pub shape: &'a [usize],
    pub rows: usize,
}

/// Threads of a reduction block.
const REDUCE_BLOCK: u32 = 256;

impl ReductionCall<'_> {
    /// Blocks per output row: several when there are few rows (the partial results are then
    /// combined by a second kernel), so that a full reduction fills the gpu.
    pub fn blocks_per_row(&self, g: &Gpu) -> usize {
        let length = (self.shape.iter().product::<usize>()) / self.rows.max(1);
        let wanted = (g.multiprocessors as usize * 4).div_ceil(self.rows.max(1));
        wanted
            .min(length.div_ceil(REDUCE_BLOCK as usize * 8))
            .max(1)
    }

    /// The cache key of the kernels this call needs.
    pub fn key(&self) -> Vec<u32> {
        let bound: Vec<&Bound> = self.inputs.iter().map(|(_, b)| b).collect();
        let strided = Collapsed {
            dims: self.shape.to_vec(),
            layouts: Vec::new(),
            narrow: false,
        };
        let mut key = shape_key(&bound, &strided, self.placeholders);
        key.extend([self.reduce_type as u32, self.output.2 as u32]);
        key
    }

    /// Both kernels' source: `NAME` (partials, or the result when one block per row) and
    /// `NAME_combine`.
    pub fn source(&self) -> Generated {
        let dims = self.shape.len();
        let acc = c_type(self.reduce_type);
        let out_ty = c_type(self.output.2);
        let mut signature = vec![
            "long long rows".to_string(),
            "long long length".to_string(),
            "long long parts".to_string(),
        ];
        signature.extend((0..dims).map(|d| format!("long long d{d}")));
        let mut loads = Vec::new();
        for (param, bound) in self.inputs {
            // A reduction reaches every element through its strides.
            signature.push(match bound {
                Bound::Element(a) => strided_declaration(&param.name, a, dims),
                _ => declare(&param.name, bound, false, dims),
            });
            if let Bound::Element(a) = bound {
                let ty = c_type(a.dtype);
                let at = strided_place(&param.name, dims);
                loads.push(format!("const {ty} {} = ({ty}){at};", param.name));
            }
        }
        let out = &self.output.0.name;
        let mut text = prologue(self.placeholders, self.preamble);
        let _ = writeln!(text, "typedef {acc} _type_reduce;");
        let _ = writeln!(text, "#define REDUCE(a, b) ({})", self.reduce);
        let _ = writeln!(
            text,
            "__device__ __forceinline__ void arrsh_post(_type_reduce a, {out_ty} &{out}) {{ {}; }}",
            self.post_map
        );
        let _ = writeln!(
            text,
            "__device__ __forceinline__ _type_reduce arrsh_block(_type_reduce acc) {{"
        );
        // Bytes, not an array of the type: a class with a constructor (complex, float16) cannot be
        // a __shared__ array.
        let _ = writeln!(
            text,
            "    __shared__ __align__(16) unsigned char partial_bytes[{REDUCE_BLOCK} * sizeof(_type_reduce)];\n    _type_reduce* partial = (_type_reduce*)partial_bytes;"
        );
        text.push_str(
            "    partial[threadIdx.x] = acc;\n    __syncthreads();\n    for (unsigned s = blockDim.x / 2; s > 0; s >>= 1) {\n        if (threadIdx.x < s) { _type_reduce a = partial[threadIdx.x], b = partial[threadIdx.x + s]; partial[threadIdx.x] = REDUCE(a, b); }\n        __syncthreads();\n    }\n    _type_reduce total = partial[0];\n    __syncthreads();\n    return total;\n}\n",
        );
        let _ = writeln!(
            text,
            "extern \"C\" __global__ void {}({}, _type_reduce* arrsh_partials, {out_ty}* arrsh_out) {{",
            self.name,
            signature.join(", ")
        );
        text.push_str("    const arrsh_indexer _ind = {rows * length};\n    (void)_ind;\n");
        text.push_str(
            "    for (long long job = blockIdx.x; job < rows * parts; job += gridDim.x) {\n",
        );
        text.push_str("        long long row = job / parts, part = job % parts;\n");
        let _ = writeln!(text, "        _type_reduce acc = ({});", self.identity);
        text.push_str(
            "        for (long long j = part * blockDim.x + threadIdx.x; j < length; j += (long long)parts * blockDim.x) {\n",
        );
        text.push_str("            long long i = row * length + j;\n");
        let _ = writeln!(
            text,
            "            {}",
            coordinates(dims, "i", index_type(false))
        );
        for load in loads {
            let _ = writeln!(text, "            {load}");
        }
        let operation_line = text.lines().count() + 1;
        let _ = writeln!(
            text,
            "            _type_reduce a = acc, b = ({});",
            self.map
        );
        text.push_str("            acc = REDUCE(a, b);\n        }\n");
        text.push_str("        acc = arrsh_block(acc);\n");
        text.push_str("        if (threadIdx.x == 0) {\n");
        text.push_str("            if (parts == 1) arrsh_post(acc, arrsh_out[row]); else arrsh_partials[job] = acc;\n");
        text.push_str("        }\n    }\n}\n");
        let _ = writeln!(
            text,
            "extern \"C\" __global__ void {}_combine(long long rows, long long parts, const _type_reduce* arrsh_partials, {out_ty}* arrsh_out) {{",
            self.name
        );
        text.push_str("    for (long long row = blockIdx.x; row < rows; row += gridDim.x) {\n");
        let _ = writeln!(text, "        _type_reduce acc = ({});", self.identity);
        text.push_str(
            "        for (long long j = threadIdx.x; j < parts; j += blockDim.x) { _type_reduce a = acc, b = arrsh_partials[row * parts + j]; acc = REDUCE(a, b); }\n",
        );
        text.push_str("        acc = arrsh_block(acc);\n");
        text.push_str("        if (threadIdx.x == 0) arrsh_post(acc, arrsh_out[row]);\n    }\n}\n");
        Generated::after_prelude(text, operation_line)
    }

    /// Launches the reduction (and the combining kernel when a row took several blocks).
    pub fn run(&self, kernels: &[Kernel]) -> Result<()> {
        let g = gpu()?;
        let n: usize = self.shape.iter().product();
        let rows = self.rows;
        if rows == 0 {
            return Ok(());
        }
        let length = n.checked_div(rows).unwrap_or(0);
        let parts = self.blocks_per_row(g);
        let partials = if parts > 1 {
            Some(Buffer::alloc(
                crate::device::Device::Gpu,
                rows * parts,
                self.reduce_type,
            )?)
        } else {
            None
        };
        let partials_pointer = partials.as_ref().map_or(0, |b| pointer(b, 0));
        let mut args = vec![
            Value::Long(rows as i64),
            Value::Long(length as i64),
            Value::Long(parts as i64),
        ];
        args.extend(self.shape.iter().map(|&d| Value::Long(d as i64)));
        for (_, bound) in self.inputs {
            push_argument(&mut args, bound, None, true);
        }
        let out_pointer = pointer(self.output.1, 0);
        args.push(Value::Pointer(partials_pointer));
        args.push(Value::Pointer(out_pointer));
        let jobs = rows * parts;
        let grid = jobs.min(g.multiprocessors as usize * 32).max(1) as u32;
        let block = (REDUCE_BLOCK, 1, 1);
        launch(g, kernels[0], self.name, n, (grid, 1, 1), block, 0, &args)?;
        if parts > 1 {
            let combine = [
                Value::Long(rows as i64),
                Value::Long(parts as i64),
                Value::Pointer(partials_pointer),
                Value::Pointer(out_pointer),
            ];
            let grid = rows.min(g.multiprocessors as usize * 32).max(1) as u32;
            launch(
                g,
                kernels[1],
                self.name,
                rows * parts,
                (grid, 1, 1),
                block,
                0,
                &combine,
            )?;
        }
        Ok(())
    }
}

/// A bound argument's kernel parameters: an element argument's pointer at `layout` (its own
/// when none is given) and, with `strides`, its strides; a raw array's pointer; a scalar's bytes.
fn push_argument(args: &mut Vec<Value>, bound: &Bound, layout: Option<&Layout>, strides: bool) {
    match bound {
        Bound::Element(a) => {
            let layout = layout.unwrap_or(&a.layout);
            args.push(Value::Pointer(pointer(&a.buffer, layout.offset)));
            if strides {
                args.extend(layout.strides.iter().map(|&s| Value::Long(s as i64)));
            }
        }
        Bound::Raw(a) => args.push(Value::Pointer(pointer(&a.buffer, a.layout.offset))),
        Bound::Scalar(s, dtype) => args.push(Value::scalar(*s, *dtype)),
    }
}

/// An input read through its strides, whatever its layout.
fn strided_declaration(name: &str, a: &ArrayArg, dims: usize) -> String {
    let mut text = format!(
        "const {}* __restrict__ arrsh_{name}",
        c_type(a.buffer.dtype())
    );
    for d in 0..dims {
        let _ = write!(text, ", long long arrsh_{name}_s{d}");
    }
    text
}

/// An element of input `name` at coordinates `k0 …` (its strides are parameters).
fn strided_place(name: &str, dims: usize) -> String {
    let terms: Vec<String> = (0..dims)
        .map(|d| format!("k{d} * arrsh_{name}_s{d}"))
        .collect();
    if terms.is_empty() {
        return format!("arrsh_{name}[0]");
    }
    format!("arrsh_{name}[{}]", terms.join(" + "))
}

/// A kernel argument's bytes.
pub enum Value {
    Long(i64),
    Pointer(u64),
    /// A scalar of up to 16 bytes (a complex<double>), in its parameter's dtype.
    Bytes([u8; 16]),
}

impl Value {
    pub fn scalar(value: Scalar, dtype: DType) -> Value {
        let mut bytes = [0u8; 16];
        with_dtype!(dtype, T => {
            let v: T = value.cast();
            let size = std::mem::size_of::<T>();
            // SAFETY: T is a number or a pair of floats (complex), of `size` ≤ 16 bytes, no padding.
            let raw = unsafe { std::slice::from_raw_parts(std::ptr::from_ref(&v).cast::<u8>(), size) };
            bytes[..size].copy_from_slice(raw);
        });
        Value::Bytes(bytes)
    }

    fn pointer(&self) -> *mut c_void {
        match self {
            Value::Long(v) => v as *const i64 as *mut c_void,
            Value::Pointer(p) => p as *const u64 as *mut c_void,
            Value::Bytes(b) => b.as_ptr() as *mut c_void,
        }
    }
}

fn pointer(buffer: &Buffer, offset: usize) -> u64 {
    buffer
        .gpu()
        .expect("user kernels run on gpu buffers")
        .element_pointer(offset)
}

/// Launches `kernel` with `args` (one per kernel parameter): counted as one kernel.
#[allow(clippy::too_many_arguments)]
pub fn launch(
    g: &Gpu,
    kernel: Kernel,
    name: &str,
    elements: usize,
    grid: (u32, u32, u32),
    block: (u32, u32, u32),
    shared_bytes: u32,
    args: &[Value],
) -> Result<()> {
    let mut pointers: Vec<*mut c_void> = args.iter().map(Value::pointer).collect();
    g.launch_user_kernel(
        kernel,
        name,
        elements,
        grid,
        block,
        shared_bytes,
        &mut pointers,
    )
}

#[cfg(test)]
mod tests;
