//! The values a program handles. Scalars, strings and functions live on the host; arrays live on
//! one device.

use std::cell::RefCell;
use std::fmt::Write as _;
use std::rc::Rc;

use crate::array::format::{self, Formattable};
use crate::array::user_kernels::UserKernel;
use crate::array::Array;
use crate::base::{DType, Scalar};
use crate::device::Device;
use crate::error::Result;
use crate::syntax::ast::FnDecl;
use crate::with_dtype;

use super::builtins::{Builtin, Namespace};

/// A variable captured by a closure: shared between the defining frame and the closure.
pub type CellRef = Rc<RefCell<Option<Value>>>;

#[derive(Clone, Debug)]
pub enum Value {
    None,
    /// `...`, for subscripts.
    Ellipsis,
    Bool(bool),
    Int(i64),
    Float(f64),
    Complex(f64, f64),
    Str(Rc<str>),
    Array(Rc<Array>),
    /// A host list (`[a, b]` of arrays, or a literal passed straight to a function).
    List(Rc<Vec<Value>>),
    /// A tuple: `x.shape`, the several results of `unique`, `split` ... (printed as Python does).
    Tuple(Rc<Vec<Value>>),
    /// `range(...)`, iterated lazily.
    Range {
        start: i64,
        stop: i64,
        step: i64,
    },
    Device(Device),
    DType(DType),
    Function(Rc<Closure>),
    Builtin(&'static Builtin),
    /// A value with named fields read as attributes (`finfo(f32).eps`).
    Record(Rc<Record>),
    /// `linalg`, `fft`, `random`: built-ins read as attributes.
    Namespace(&'static Namespace),
    /// A kernel the user wrote in CUDA C (`elementwise_kernel` ...).
    Kernel(Rc<UserKernel>),
    /// `fuse(f)`: f, run with fusion on.
    Fused(Rc<Value>),
}

/// Named fields and how the value prints (`finfo(resolution=1e-06, ...)`).
#[derive(Debug)]
pub struct Record {
    pub kind: &'static str,
    pub repr: String,
    pub fields: Vec<(&'static str, Value)>,
}

#[derive(Debug)]
pub struct Closure {
    pub decl: Rc<FnDecl>,
    pub defaults: Vec<Option<Value>>,
    pub captured: Vec<CellRef>,
}

impl Value {
    pub fn array(a: Array) -> Value {
        Value::Array(Rc::new(a))
    }

    /// The host value of a scalar; a uint64 beyond the range of arr's ints stays a 0-d array.
    pub fn from_scalar(s: Scalar) -> Value {
        match s {
            Scalar::Bool(b) => Value::Bool(b),
            Scalar::Int(i) => Value::Int(i),
            Scalar::UInt(u) => Value::array(Array::from_vec(vec![u], vec![])),
            Scalar::Float(f) => Value::Float(f),
            Scalar::Complex(re, im) => Value::Complex(re, im),
        }
    }

    pub fn as_scalar(&self) -> Option<Scalar> {
        match self {
            Value::Bool(b) => Some(Scalar::Bool(*b)),
            Value::Int(i) => Some(Scalar::Int(*i)),
            Value::Float(f) => Some(Scalar::Float(*f)),
            Value::Complex(re, im) => Some(Scalar::Complex(*re, *im)),
            _ => None,
        }
    }

    /// The word used for this kind of value in messages and `:vars`.
    pub fn kind(&self) -> &'static str {
        match self {
            Value::None => "none",
            Value::Ellipsis => "ellipsis",
            Value::Bool(_) => "bool",
            Value::Int(_) => "int",
            Value::Float(_) => "float",
            Value::Complex(..) => "complex",
            Value::Str(_) => "str",
            Value::Array(_) => "array",
            Value::List(_) => "list",
            Value::Tuple(_) => "tuple",
            Value::Range { .. } => "range",
            Value::Device(_) => "device",
            Value::DType(_) => "dtype",
            Value::Function(_) | Value::Builtin(_) => "function",
            Value::Record(r) => r.kind,
            Value::Namespace(_) => "namespace",
            Value::Kernel(_) | Value::Fused(_) => "function",
        }
    }

    /// The kind with its article, for messages: "an int", "a str".
    pub fn a_kind(&self) -> String {
        let kind = self.kind();
        let article = if kind.starts_with(['a', 'e', 'i', 'o', 'u']) {
            "an"
        } else {
            "a"
        };
        format!("{article} {kind}")
    }

    /// `print`'s form (NumPy's `str` for arrays); reading a gpu array's elements can fail.
    pub fn to_display(&self) -> Result<String> {
        match self {
            Value::Str(s) => Ok(s.to_string()),
            Value::Array(a) => array_text(a, false),
            Value::List(items) => match super::convert::list_as_host_array(items) {
                Some(a) => array_text(&a, false),
                None => self.to_repr(),
            },
            _ => self.to_repr(),
        }
    }

    /// The REPL's echo (NumPy's `repr` for arrays).
    pub fn to_repr(&self) -> Result<String> {
        Ok(match self {
            Value::Array(a) => array_text(a, true)?,
            Value::List(items) => match super::convert::list_as_host_array(items) {
                Some(a) => array_text(&a, true)?,
                None => format!("[{}]", join_reprs(items)?),
            },
            Value::Tuple(items) if items.len() == 1 => format!("({},)", items[0].to_repr()?),
            Value::Tuple(items) => format!("({})", join_reprs(items)?),
            other => other.host_text(),
        })
    }

    /// What an error message shows for a value: its repr, or its kind and shape for arrays
    /// (whose elements may be on the gpu).
    pub fn describe(&self) -> String {
        match self {
            Value::Array(a) => format!(
                "an array of shape {}",
                crate::base::layout::shape_text(a.shape())
            ),
            Value::List(_) | Value::Tuple(_) => self.to_repr().unwrap_or_else(|_| self.a_kind()),
            other => other.host_text(),
        }
    }

    /// The repr of a value that holds no array.
    fn host_text(&self) -> String {
        match self {
            Value::None => "none".into(),
            Value::Ellipsis => "...".into(),
            Value::Bool(b) => b.to_string(),
            Value::Int(i) => i.to_string(),
            Value::Float(f) => format::float_repr(*f),
            Value::Complex(re, im) => format::complex_repr(*re, *im),
            Value::Str(s) => string_repr(s),
            Value::Range { start, stop, step } => match step {
                1 => format!("range({start}, {stop})"),
                _ => format!("range({start}, {stop}, {step})"),
            },
            Value::Device(d) => d.to_string(),
            Value::DType(d) => d.to_string(),
            Value::Function(c) => format!("<fn {}>", c.decl.name),
            Value::Builtin(b) => format!("<built-in fn {}>", b.name),
            Value::Record(r) => r.repr.clone(),
            Value::Namespace(ns) => format!("<namespace {}>", ns.name),
            Value::Kernel(k) => k.describe(),
            Value::Fused(f) => format!("<fused {}>", f.host_text()),
            Value::Array(_) | Value::List(_) | Value::Tuple(_) => self.describe(),
        }
    }
}

fn join_reprs(items: &[Value]) -> Result<String> {
    Ok(items
        .iter()
        .map(Value::to_repr)
        .collect::<Result<Vec<_>>>()?
        .join(", "))
}

fn string_repr(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\t' => out.push_str("\\t"),
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

/// NumPy's printing of an array; reprs add `dtype=` (NumPy's rule) and `device=gpu`.
pub fn array_text(a: &Array, repr: bool) -> Result<String> {
    with_dtype!(a.dtype(), T => a.with_view::<T, _>(|v| {
        let data = T::format_data(v);
        if !repr {
            return format::array_str(&data);
        }
        let mut suffix = String::new();
        if format::repr_shows_dtype(a.dtype()) || a.size() == 0 {
            let _ = write!(suffix, "dtype={}", a.dtype().numpy_name());
        }
        if a.device() != Device::Cpu {
            if !suffix.is_empty() {
                suffix.push_str(", ");
            }
            let _ = write!(suffix, "device={}", a.device());
        }
        format::array_repr(&data, &suffix)
    }))
}
