//! The built-in functions: one table (name, parameters, doc, example, implementation) assembled
//! from the files of each area — `creation`, `math` (the elementwise functions, one per row of
//! the plan's table of operations, plus NumPy's composites), `statistics`, `shapes`, `linalg`,
//! `host` (printing, conversions, devices, time, files), `charts` (pictures) — that feeds calls, `:help`, completion
//! and the generated reference.

mod charts;
mod creation;
mod decompositions;
mod dtypes;
mod fourier;
mod host;
mod indexing;
mod kernels;
mod linalg;
mod logic;
mod manipulation;
mod math;
mod random;
mod searching;
mod sets;
mod sorting;
mod statistics;

use std::rc::Rc;
use std::sync::LazyLock;

use crate::array::Array;
use crate::base::{DType, Scalar};
use crate::device::Device;
use crate::error::{type_error, value_error, Result};
use crate::plan::table::ElementwiseOp;

use super::convert::{self, OwnedOperand};
use super::value::Value;
use super::Interpreter;

pub use host::start_clock;
pub use kernels::{call as call_kernel, call_fused};

pub struct Builtin {
    pub name: &'static str,
    /// Parameter names; `name=` is optional, `*name` takes the remaining positional arguments.
    pub params: &'static [&'static str],
    pub doc: &'static str,
    pub example: &'static str,
    /// The area it belongs to, for `:help` and the reference (`elementwise`, `creation` ...).
    pub area: &'static str,
    /// For the elementwise functions, their row of the table of operations.
    pub op: Option<&'static ElementwiseOp>,
    pub run: fn(&mut Interpreter, Args) -> Result<Value>,
}

impl std::fmt::Debug for Builtin {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "<built-in fn {}>", self.name)
    }
}

impl Builtin {
    /// `zeros(shape, dtype=, device=)`
    pub fn signature(&self) -> String {
        format!("{}({})", self.name, self.params.join(", "))
    }

    /// What `:help NAME` and the reference say: the signature, the doc, for an elementwise
    /// function its names, operator and the dtypes it has loops for, and the example.
    pub fn help(&self) -> String {
        let mut text = format!(
            "{}
  {}
",
            self.signature(),
            self.doc
        );
        if let Some(row) = self.op {
            let names: Vec<&str> = std::iter::once(row.name)
                .chain(row.aliases.iter().copied())
                .collect();
            text.push_str(&format!("  elementwise; computes in {}", loop_dtypes(row)));
            if let Some(symbol) = row.symbol {
                text.push_str(&format!("; the operator `{symbol}`"));
            }
            if names.len() > 1 {
                text.push_str(&format!("; also named {}", names.join(", ")));
            }
            text.push('\n');
        }
        text.push_str(&format!("  example: {}\n", self.example));
        text
    }
}

/// The dtypes a row has loops for (other inputs are cast to one of them, as NumPy casts).
fn loop_dtypes(row: &ElementwiseOp) -> String {
    let mut dtypes: Vec<DType> = crate::plan::resolve::loops(row)
        .filter_map(|s| s.inputs.last().copied())
        .collect();
    dtypes.sort();
    dtypes.dedup();
    if dtypes.is_empty() || dtypes.len() == crate::base::dtype::ALL.len() {
        return "every dtype".to_string();
    }
    let names: Vec<&str> = dtypes.iter().map(|d| d.name()).collect();
    names.join(" ")
}

/// Arguments bound to a built-in's parameters.
pub struct Args {
    name: &'static str,
    op: Option<&'static ElementwiseOp>,
    values: Vec<Option<Value>>,
    rest: Vec<Value>,
}

impl Args {
    fn get(&self, i: usize) -> Option<&Value> {
        self.values
            .get(i)
            .and_then(|v| v.as_ref())
            .filter(|v| !matches!(v, Value::None))
    }

    fn required(&self, i: usize) -> &Value {
        self.values[i]
            .as_ref()
            .expect("bind checks required arguments")
    }
}

/// A row of a built-in table, spelled short.
macro_rules! builtin {
    ($name:literal, [$($param:literal),*], $doc:literal, $example:expr, $run:expr) => {
        $crate::interp::builtins::Builtin {
            name: $name,
            params: &[$($param),*],
            doc: $doc,
            example: $example,
            area: "",
            op: None,
            run: $run,
        }
    };
}
pub(crate) use builtin;

/// Matches call arguments to a built-in's parameters, with Python's rules and messages.
pub fn bind(
    b: &'static Builtin,
    positional: Vec<Value>,
    keywords: Vec<(Rc<str>, Value)>,
) -> Result<Args> {
    let variadic = b.params.iter().position(|p| p.starts_with('*'));
    // Parameters after `*name` can only be given by keyword.
    let fixed = variadic.unwrap_or(b.params.len());
    let mut values: Vec<Option<Value>> = vec![None; b.params.len()];
    if variadic.is_none() && positional.len() > fixed {
        return Err(type_error(format!(
            "{} takes at most {fixed} positional argument{} ({} given)",
            b.signature(),
            if fixed == 1 { "" } else { "s" },
            positional.len()
        )));
    }
    let mut rest = Vec::new();
    for (i, v) in positional.into_iter().enumerate() {
        if i < fixed {
            values[i] = Some(v);
        } else {
            rest.push(v);
        }
    }
    for (name, v) in keywords {
        let i = b
            .params
            .iter()
            .position(|p| !p.starts_with('*') && p.trim_end_matches('=') == &*name)
            .ok_or_else(|| {
                type_error(format!(
                    "{} got an unexpected keyword argument `{name}`",
                    b.signature()
                ))
            })?;
        if values[i].is_some() {
            return Err(type_error(format!(
                "{} got multiple values for `{name}`",
                b.signature()
            )));
        }
        values[i] = Some(v);
    }
    for (i, p) in b.params.iter().enumerate() {
        if values[i].is_none() && !p.ends_with('=') && !p.starts_with('*') {
            return Err(type_error(format!(
                "{} is missing the argument `{p}`",
                b.signature()
            )));
        }
    }
    Ok(Args {
        name: b.name,
        op: b.op,
        values,
        rest,
    })
}

/// Every built-in, by area.
static BUILTINS: LazyLock<Vec<Builtin>> = LazyLock::new(|| {
    let areas: [(&str, Vec<Builtin>); 20] = [
        ("creation", creation::builtins()),
        ("random sampling", random::builtins()),
        ("data types", dtypes::builtins()),
        ("elementwise", math::builtins()),
        ("indexing", indexing::builtins()),
        ("manipulation", manipulation::builtins()),
        ("searching and counting", searching::builtins()),
        ("sets", sets::builtins()),
        ("sorting", sorting::builtins()),
        ("statistics", statistics::builtins()),
        (
            "order statistics and histograms",
            statistics::more_builtins(),
        ),
        ("logic", logic::builtins()),
        ("linear algebra", linalg::builtins()),
        ("devices and time", host::device_builtins()),
        ("host", host::builtins()),
        ("pictures", charts::builtins()),
        ("user kernels", kernels::builtins()),
        ("linalg", decompositions::builtins()),
        ("fft", fourier::builtins()),
        ("random", random::namespace_builtins()),
    ];
    let mut table: Vec<Builtin> = areas
        .into_iter()
        .flat_map(|(area, list)| list.into_iter().map(move |b| Builtin { area, ..b }))
        .collect();
    // A namespace's members from the main namespace are rows of the table under both names.
    for ns in &NAMESPACES {
        for &name in ns.shared {
            let main = table
                .iter()
                .find(|b| b.name == name)
                .unwrap_or_else(|| panic!("{}.{name}: no built-in {name}", ns.name));
            let full: &'static str = Box::leak(format!("{}.{name}", ns.name).into_boxed_str());
            table.push(Builtin {
                name: full,
                area: ns.name,
                ..*main
            });
        }
    }
    table
});

pub fn find(name: &str) -> Option<&'static Builtin> {
    BUILTINS.iter().find(|b| b.name == name)
}

/// A namespace (`linalg`, `fft`, `random`): a value whose attributes are built-ins, named
/// `linalg.inv` in the table.
#[derive(Debug)]
pub struct Namespace {
    pub name: &'static str,
    pub doc: &'static str,
    /// Built-ins of the main namespace that this one offers too (`linalg.matmul`).
    pub shared: &'static [&'static str],
}

pub static NAMESPACES: [Namespace; 3] = [
    Namespace {
        name: "linalg",
        doc: "Linear algebra as NumPy's numpy.linalg and the array API standard's extension: decompositions, solvers, norms; stacks of matrices (..., M, N) as NumPy's.",
        shared: &[
            "matmul",
            "outer",
            "tensordot",
            "vecdot",
            "matrix_transpose",
            "cross",
        ],
    },
    Namespace {
        name: "fft",
        doc: "Discrete Fourier transforms as NumPy's numpy.fft: cuFFT on the gpu (plans cached), rustfft on the cpu.",
        shared: &[],
    },
    Namespace {
        name: "random",
        doc: "Random numbers as NumPy's numpy.random: the session's seeded generator on the cpu (parallel chunks), cuRAND and Philox kernels on the gpu; reproducible per seed and device, not NumPy's streams.",
        shared: &["seed", "rand", "randn", "randint"],
    },
];

impl Namespace {
    pub fn find(name: &str) -> Option<&'static Namespace> {
        NAMESPACES.iter().find(|ns| ns.name == name)
    }

    pub fn member(&self, name: &str) -> Option<&'static Builtin> {
        find(&format!("{}.{name}", self.name))
    }

    /// Its members, as `inv` (not `linalg.inv`), sorted.
    pub fn member_names(&self) -> Vec<&'static str> {
        let prefix = format!("{}.", self.name);
        let mut names: Vec<&str> = all()
            .iter()
            .filter_map(|b| b.name.strip_prefix(prefix.as_str()))
            .collect();
        names.sort_unstable();
        names
    }

    /// `:help linalg`: the doc and the members.
    pub fn help(&self) -> String {
        format!(
            "{} (namespace)\n  {}\n  members: {}\n  :help {}.NAME shows one.\n",
            self.name,
            self.doc,
            self.member_names().join(" "),
            self.name
        )
    }
}

/// Whether a row is a namespace's name for a built-in of the main namespace (`linalg.matmul`).
pub fn is_shared(b: &Builtin) -> bool {
    b.name
        .split_once('.')
        .is_some_and(|(_, bare)| find(bare).is_some())
}

pub fn all() -> &'static [Builtin] {
    &BUILTINS
}

/// Names that are values rather than functions (for completion and `:help`).
pub const CONSTANTS: &[&str] = &[
    "cpu", "gpu", "bool", "i8", "u8", "i16", "u16", "i32", "u32", "i64", "u64", "f16", "f32",
    "f64", "c64", "c128", "pi", "e", "inf", "nan", "newaxis", "auto",
];

/// The value a global name has when no variable shadows it: a function, device, dtype or
/// constant.
pub fn lookup_value(name: &str) -> Option<Value> {
    match name {
        "cpu" => return Some(Value::Device(Device::Cpu)),
        "gpu" => return Some(Value::Device(Device::Gpu)),
        "pi" => return Some(Value::Float(std::f64::consts::PI)),
        "e" => return Some(Value::Float(std::f64::consts::E)),
        "inf" => return Some(Value::Float(f64::INFINITY)),
        "nan" => return Some(Value::Float(f64::NAN)),
        "newaxis" => return Some(Value::None),
        "auto" => return Some(super::placement::auto_value()),
        _ => {}
    }
    if let Some(ns) = Namespace::find(name) {
        return Some(Value::Namespace(ns));
    }
    if CONSTANTS.contains(&name) {
        if let Some(d) = DType::from_name(name) {
            return Some(Value::DType(d));
        }
    }
    find(name).map(Value::Builtin)
}

/// A dtype called as a function: `f32(x)` converts an array (`astype`); a host value or a
/// 0-d array becomes a host scalar, as `np.float64(x)` does.
pub fn call_dtype(interp: &mut Interpreter, dtype: DType, positional: Vec<Value>) -> Result<Value> {
    let [value] = positional.as_slice() else {
        return Err(type_error(format!("{dtype}(x) takes one argument")));
    };
    if let Value::Array(a) = value {
        if a.ndim() > 0 {
            return a.astype(dtype).map(Value::array);
        }
    }
    match dtype {
        DType::Bool => convert::truth(value).map(Value::Bool),
        d if d.is_integer() => host::int_of(value),
        d if d.is_complex() => {
            let x = array_arg(interp, value)?.astype(d)?;
            Ok(Value::from_scalar(x.item()?))
        }
        _ => host::float_of(value),
    }
}

// ---- argument conversions shared by the areas ----

fn array_arg(interp: &mut Interpreter, v: &Value) -> Result<Array> {
    convert::to_array(interp, v, None)
}

/// An array from a value; a host value becomes a host (cpu) array, so that host math stays on
/// the host, unless `on_default_device`.
fn array_arg_on(interp: &mut Interpreter, v: &Value, on_default_device: bool) -> Result<Array> {
    let device = (!on_default_device).then_some(Device::Cpu);
    convert::to_array(interp, v, device)
}

/// The array a built-in changes in place: it must be one already (NumPy's `put(5, …)` is a
/// TypeError), since a list or number converted to one would be changed and dropped.
fn in_place_arg(v: &Value, builtin: &str) -> Result<Array> {
    match v {
        Value::Array(x) => Ok(Array::clone(x)),
        other => Err(type_error(format!(
            "{builtin} needs an array, not {}: it changes one in place",
            other.a_kind()
        ))),
    }
}

fn operand_arg(interp: &mut Interpreter, v: &Value) -> Result<OwnedOperand> {
    convert::operand(interp, v)
}

fn dtype_arg(v: &Value) -> Result<DType> {
    let names = "bool i8 u8 i16 u16 i32 u32 i64 u64 f16 f32 f64 c64 c128";
    match v {
        Value::DType(d) => Ok(*d),
        Value::Str(s) => DType::from_name(s)
            .ok_or_else(|| type_error(format!("unknown dtype \"{s}\" ({names})"))),
        other => Err(type_error(format!(
            "expected a dtype ({names}), got {}",
            other.a_kind()
        ))),
    }
}

fn optional_dtype(args: &Args, i: usize) -> Result<Option<DType>> {
    args.get(i).map(dtype_arg).transpose()
}

fn device_arg(v: &Value) -> Result<Device> {
    match v {
        Value::Device(d) => Ok(*d),
        Value::Str(s) if &**s == "cpu" => Ok(Device::Cpu),
        Value::Str(s) if &**s == "gpu" => Ok(Device::Gpu),
        Value::Str(s) if &**s == "auto" => Err(super::placement::auto_is_not_a_device()),
        other => Err(type_error(format!(
            "expected a device (cpu or gpu), got {}",
            other.describe()
        ))),
    }
}

fn device_or_default(interp: &Interpreter, args: &Args, i: usize) -> Result<Device> {
    args.get(i)
        .map(device_arg)
        .unwrap_or(Ok(interp.default_device))
}

/// An int or a whole float (`ones(1e9)`) as a count.
fn count_arg(v: &Value, what: &str) -> Result<i64> {
    match v {
        Value::Int(i) => Ok(*i),
        Value::Bool(b) => Ok(*b as i64),
        Value::Float(f) if f.fract() == 0.0 && f.abs() < 9.2e18 => Ok(*f as i64),
        Value::Float(f) if f.fract() == 0.0 => Err(crate::error::memory_error(format!(
            "{what} {} is too large",
            crate::array::format::float_repr(*f)
        ))),
        Value::Array(a) if a.size() == 1 => match a.item()? {
            Scalar::Float(f) if f.fract() != 0.0 => Err(type_error(format!(
                "{what} must be a whole number, not {f}"
            ))),
            s => Ok(s.cast::<i64>()),
        },
        other => Err(type_error(format!(
            "{what} must be an integer, not {}",
            other.describe()
        ))),
    }
}

/// The elements a creation or random built-in is asked to make, read from its arguments by
/// parameter name (`shape`, `size`, `n` and `m`, `num`, `arange`'s range); `None` when they do
/// not say (a random draw of one host number, a bad argument that the call itself reports).
pub fn requested_elements(
    b: &Builtin,
    positional: &[Value],
    keywords: &[(Rc<str>, Value)],
) -> Option<usize> {
    let arg = |param: &str| -> Option<Value> {
        let at = b
            .params
            .iter()
            .position(|p| p.trim_end_matches('=') == param)?;
        let name = param.trim_start_matches('*');
        match b.params[at].starts_with('*') {
            true => match &positional[at.min(positional.len())..] {
                [] => None,
                [one] => Some(one.clone()),
                many => Some(Value::Tuple(Rc::new(many.to_vec()))),
            },
            false => positional.get(at).cloned().or_else(|| {
                keywords
                    .iter()
                    .find(|(k, _)| &**k == name)
                    .map(|(_, v)| v.clone())
            }),
        }
    };
    let count = |v: Option<Value>| {
        v.and_then(|v| count_arg(&v, "").ok())
            .map(|n| n.max(0) as usize)
    };
    for param in ["shape", "*shape", "size", "*size"] {
        if b.params.iter().any(|p| p.trim_end_matches('=') == param) {
            return shape_arg(&arg(param)?).ok().map(|s| s.iter().product());
        }
    }
    if b.name == "arange" {
        let number = |v: Option<Value>| v.and_then(|v| v.as_scalar()).map(|s| s.cast::<f64>());
        let first = number(arg("start"))?;
        let (start, stop) = match number(arg("stop")) {
            Some(stop) => (first, stop),
            None => (0.0, first),
        };
        let step = number(arg("step")).unwrap_or(1.0);
        return Some(((stop - start) / step).ceil().max(0.0) as usize);
    }
    if b.params.contains(&"num=") {
        return Some(count(arg("num")).unwrap_or(50));
    }
    let n = count(arg("n"))?;
    Some(n * count(arg("m")).unwrap_or(n))
}

fn shape_arg(v: &Value) -> Result<Vec<usize>> {
    let dims: Vec<i64> = match v {
        Value::List(items) | Value::Tuple(items) => items
            .iter()
            .map(|d| count_arg(d, "a dimension"))
            .collect::<Result<_>>()?,
        Value::Array(a) if a.ndim() == 1 => a.to_vec::<i64>()?,
        other => vec![count_arg(other, "a shape")?],
    };
    let shape = dims
        .into_iter()
        .map(|d| usize::try_from(d).map_err(|_| value_error("negative dimensions are not allowed")))
        .collect::<Result<Vec<_>>>()?;
    crate::base::layout::shape_size(&shape)?;
    Ok(shape)
}

fn axis_arg(args: &Args, i: usize) -> Result<Option<i64>> {
    args.get(i).map(|v| count_arg(v, "axis")).transpose()
}

/// An optional bool keyword (`keepdims=`, `endpoint=` ...) at `i`; `default` when not given.
fn flag_arg(args: &Args, i: usize, default: bool) -> Result<bool> {
    args.get(i)
        .map(convert::truth)
        .transpose()
        .map(|b| b.unwrap_or(default))
}

/// A reduction's result: a host scalar when it reduced every axis and kept none (`whole`),
/// else the array.
fn reduced(result: Array, whole: bool) -> Result<Value> {
    if whole && result.ndim() == 0 {
        return Ok(Value::from_scalar(result.item()?));
    }
    Ok(Value::array(result))
}

/// A number: a host value or a 0-d array (`finfo(f32).eps`), read to the host.
fn scalar_arg(v: &Value) -> Result<Scalar> {
    match v {
        Value::Array(a) if a.ndim() == 0 => a.item(),
        _ => v
            .as_scalar()
            .ok_or_else(|| type_error(format!("expected a number, got {}", v.a_kind()))),
    }
}

fn float_arg(v: &Value, what: &str) -> Result<f64> {
    match v.as_scalar() {
        Some(Scalar::Complex(..)) | None => Err(type_error(format!(
            "{what} must be a real number, not {}",
            v.describe()
        ))),
        Some(s) => Ok(s.as_f64()),
    }
}

fn is_array_input(v: &Value) -> bool {
    matches!(v, Value::Array(_) | Value::List(_) | Value::Tuple(_))
}

fn arrays_arg(interp: &mut Interpreter, v: &Value) -> Result<Vec<Array>> {
    match v {
        Value::List(items) | Value::Tuple(items) => {
            items.iter().map(|x| array_arg(interp, x)).collect()
        }
        Value::Array(a) if a.ndim() > 0 => (0..a.shape()[0])
            .map(|i| {
                let layout = a
                    .layout()
                    .index(&[crate::base::layout::AxisIndex::At(i as i64)])?;
                Ok(a.with_layout(layout))
            })
            .collect(),
        other => Err(type_error(format!(
            "expected a list of arrays, got {}",
            other.a_kind()
        ))),
    }
}

/// The one array result of a built-in, as a host value when its inputs were all host values.
fn array_or_scalar(input_was_array: bool, result: Array) -> Result<Value> {
    if input_was_array {
        Ok(Value::array(result))
    } else {
        Ok(Value::from_scalar(result.item()?))
    }
}

fn two_arrays(interp: &mut Interpreter, args: &Args) -> Result<(Array, Array)> {
    Ok((
        array_arg(interp, args.required(0))?,
        array_arg(interp, args.required(1))?,
    ))
}
