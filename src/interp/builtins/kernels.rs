//! Kernels the user writes, as CuPy's: `elementwise_kernel`, `reduction_kernel` and `raw_kernel`
//! (CUDA C, gpu only), and `fuse(f)`, which runs an arr function of elementwise work as one
//! kernel on either device, even with fusion off.

use std::rc::Rc;

use super::{builtin, count_arg, Args, Builtin};
use crate::array::user_kernels::{
    Argument, ElementwiseKernel, RawKernel, ReductionKernel, UserKernel,
};
use crate::error::{type_error, value_error, Result};
use crate::interp::value::Value;
use crate::interp::{convert, Interpreter};
use crate::plan::user_kernel::{parse_params, Param};

pub fn builtins() -> Vec<Builtin> {
    vec![
        builtin!(
            "elementwise_kernel",
            ["in_params", "out_params", "operation", "name=", "preamble="],
            "A gpu kernel from a snippet of CUDA C, as CuPy's ElementwiseKernel: parameters \"T x, float64 y\" (a type that names no dtype is a placeholder bound by the arguments; `raw` ones are whole arrays, indexed by the code), the operation runs once per element of the broadcast inputs with `i` the index (a `long long`) and `_ind.size()` the count. Call it as k(inputs...) or k(inputs..., outputs...), size= when no array sets the shape. Compiled by NVRTC on first use and cached on disk.",
            "k = elementwise_kernel(\"T x, T y\", \"T z\", \"z = x * y + 1\", \"axpy1\")",
            |_, a| {
                let what = "elementwise_kernel";
                let name = name_arg(&a, 3, "kernel")?;
                let (inputs, outputs) = parameters(&a, what)?;
                Ok(kernel_value(UserKernel::Elementwise(ElementwiseKernel {
                    inputs,
                    outputs,
                    operation: text_arg(a.required(2), what, "operation")?,
                    preamble: optional_text(&a, 4, what)?,
                    name,
                    compiled: Default::default(),
                })))
            }
        ),
        builtin!(
            "reduction_kernel",
            ["in_params", "out_params", "map_expr", "reduce_expr", "post_map_expr", "identity", "name=", "reduce_type=", "preamble="],
            "A gpu reduction from CUDA C expressions, as CuPy's ReductionKernel: map_expr makes each element's value, reduce_expr combines two (`a`, `b`), post_map_expr stores the total `a` into the output, identity starts each total. Call it as k(inputs..., axis=, keepdims=).",
            "k = reduction_kernel(\"T x\", \"T y\", \"x * x\", \"a + b\", \"y = sqrt(a)\", \"0\", \"l2norm\")",
            |_, a| {
                let what = "reduction_kernel";
                let (inputs, output) = parameters(&a, what)?;
                let [output] = <[_; 1]>::try_from(output).map_err(|_| {
                    value_error("reduction_kernel has exactly one output parameter")
                })?;
                let reduce_type = match a.get(7) {
                    None => None,
                    Some(v) => {
                        let t = text_arg(v, what, "reduce_type")?;
                        let [param] = <[_; 1]>::try_from(parse_params(&format!("{t} a"), what)?)
                            .map_err(|_| value_error("reduce_type is one type"))?;
                        Some(param.ty)
                    }
                };
                Ok(kernel_value(UserKernel::Reduction(ReductionKernel {
                    name: name_arg(&a, 6, "reduce_kernel")?,
                    inputs,
                    output,
                    map: text_arg(a.required(2), what, "map_expr")?,
                    reduce: text_arg(a.required(3), what, "reduce_expr")?,
                    post_map: text_arg(a.required(4), what, "post_map_expr")?,
                    identity: text_arg(a.required(5), what, "identity")?,
                    reduce_type,
                    preamble: optional_text(&a, 8, what)?,
                    compiled: Default::default(),
                })))
            }
        ),
        builtin!(
            "raw_kernel",
            ["code", "name"],
            "A whole CUDA C kernel, as CuPy's RawKernel: k(grid, block, [args...], shared_mem=) launches `extern \"C\" __global__ void NAME(...)` with gpu arrays as pointers, ints as long long, floats as double, bools as bool, 0-d cpu arrays (array(3, dtype=i32, device=cpu)) as their dtype (a 0-d gpu array is a pointer, as in CuPy).",
            "k = raw_kernel(\"extern \\\"C\\\" __global__ void twice(double* x, long long n) { long long i = blockIdx.x * blockDim.x + threadIdx.x; if (i < n) x[i] *= 2; }\", \"twice\")",
            |_, a| {
                let what = "raw_kernel";
                Ok(kernel_value(UserKernel::Raw(RawKernel {
                    source: text_arg(a.required(0), what, "code")?,
                    name: identifier(text_arg(a.required(1), what, "name")?, what)?,
                    compiled: Default::default(),
                })))
            }
        ),
        builtin!(
            "fuse",
            ["f"],
            "f's elementwise work (and a final reduction) as one kernel on either device, even with :fuse off; arrsh fuses plain code by itself, so with fusion on this changes nothing (CuPy's cupy.fuse).",
            "norm2 = fuse(fn(x, y) { return sqrt(x * x + y * y) })",
            |_, a| match a.required(0) {
                f @ (Value::Function(_) | Value::Builtin(_)) => Ok(Value::Fused(Rc::new(f.clone()))),
                other => Err(type_error(format!("fuse takes a function, not {}", other.a_kind()))),
            }
        ),
    ]
}

fn kernel_value(k: UserKernel) -> Value {
    Value::Kernel(Rc::new(k))
}

fn text_arg(v: &Value, what: &str, param: &str) -> Result<String> {
    match v {
        Value::Str(s) => Ok(s.to_string()),
        other => Err(type_error(format!(
            "{what}: {param} is a string, not {}",
            other.a_kind()
        ))),
    }
}

fn optional_text(args: &Args, i: usize, what: &str) -> Result<String> {
    args.get(i)
        .map(|v| text_arg(v, what, "preamble"))
        .transpose()
        .map(Option::unwrap_or_default)
}

fn identifier(name: String, what: &str) -> Result<String> {
    let mut chars = name.chars();
    let valid = chars
        .next()
        .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_');
    if !valid {
        return Err(value_error(format!(
            "{what}: the name `{name}` is not a C identifier"
        )));
    }
    Ok(name)
}

fn name_arg(args: &Args, i: usize, default: &str) -> Result<String> {
    match args.get(i) {
        None => Ok(default.to_string()),
        Some(v) => identifier(text_arg(v, "a kernel", "name")?, "a kernel"),
    }
}

/// The input and output parameters of a kernel, `in_params` and `out_params` of `a`: each name
/// once in both together (an output that is also an input would be written while it is read).
fn parameters(a: &Args, what: &str) -> Result<(Vec<Param>, Vec<Param>)> {
    let inputs = parse_params(&text_arg(a.required(0), what, "in_params")?, what)?;
    let outputs = parse_params(&text_arg(a.required(1), what, "out_params")?, what)?;
    if outputs.is_empty() {
        return Err(value_error(format!(
            "{what}: out_params declares no output"
        )));
    }
    if let Some(both) = outputs
        .iter()
        .find(|o| inputs.iter().any(|i| i.name == o.name))
    {
        return Err(value_error(format!(
            "{what}: `{}` is both an input and an output parameter: give the output its own name",
            both.name
        )));
    }
    Ok((inputs, outputs))
}

fn argument(interp: &mut Interpreter, v: &Value) -> Result<Argument> {
    if let Some(s) = v.as_scalar() {
        return Ok(Argument::Scalar(s));
    }
    convert::to_array(interp, v, None).map(Argument::Array)
}

fn keyword<'a>(keywords: &'a [(Rc<str>, Value)], name: &str) -> Option<&'a Value> {
    keywords.iter().find(|(k, _)| &**k == name).map(|(_, v)| v)
}

fn only_keywords(keywords: &[(Rc<str>, Value)], allowed: &[&str], what: &str) -> Result<()> {
    match keywords.iter().find(|(k, _)| !allowed.contains(&&**k)) {
        Some((k, _)) => Err(type_error(format!(
            "{what} got an unexpected keyword argument `{k}`"
        ))),
        None => Ok(()),
    }
}

/// Calls a user kernel with a call's arguments.
pub fn call(
    interp: &mut Interpreter,
    kernel: &UserKernel,
    positional: Vec<Value>,
    keywords: Vec<(Rc<str>, Value)>,
) -> Result<Value> {
    match kernel {
        UserKernel::Elementwise(k) => {
            only_keywords(&keywords, &["size"], &kernel.describe())?;
            let size = keyword(&keywords, "size")
                .map(|v| count_arg(v, "size").map(|n| n.max(0) as usize))
                .transpose()?;
            let args: Vec<Argument> = positional
                .iter()
                .map(|v| argument(interp, v))
                .collect::<Result<_>>()?;
            let mut outs = k.call(&args, size)?;
            Ok(match outs.len() {
                1 => Value::array(outs.remove(0)),
                _ => Value::Tuple(Rc::new(outs.into_iter().map(Value::array).collect())),
            })
        }
        UserKernel::Reduction(k) => {
            only_keywords(&keywords, &["axis", "keepdims"], &kernel.describe())?;
            let axis = match keyword(&keywords, "axis") {
                None | Some(Value::None) => None,
                Some(v) => Some(super::manipulation::ints_arg(v, "an axis")?),
            };
            let keepdims = keyword(&keywords, "keepdims")
                .map(convert::truth)
                .transpose()?
                .unwrap_or(false);
            let args: Vec<Argument> = positional
                .iter()
                .map(|v| argument(interp, v))
                .collect::<Result<_>>()?;
            // A 0-d gpu array, as CuPy's: reading its value is the caller's counted transfer.
            Ok(Value::array(k.call(&args, axis.as_deref(), keepdims)?))
        }
        UserKernel::Raw(k) => {
            only_keywords(&keywords, &["shared_mem"], &kernel.describe())?;
            let [grid, block, args] = positional.as_slice() else {
                return Err(type_error(format!(
                    "{} is called as k(grid, block, [args...], shared_mem=)",
                    kernel.describe()
                )));
            };
            let shared = keyword(&keywords, "shared_mem")
                .map(|v| count_arg(v, "shared_mem"))
                .transpose()?
                .unwrap_or(0);
            let shared = u32::try_from(shared)
                .map_err(|_| value_error("shared_mem must be between 0 and 2³² bytes"))?;
            let values = match args {
                Value::List(items) | Value::Tuple(items) => items.clone(),
                other => {
                    return Err(type_error(format!(
                        "{}: the arguments are a list, not {}",
                        kernel.describe(),
                        other.a_kind()
                    )))
                }
            };
            let args: Vec<Argument> = values
                .iter()
                .map(|v| argument(interp, v))
                .collect::<Result<_>>()?;
            k.call(dims(grid, "grid")?, dims(block, "block")?, &args, shared)?;
            Ok(Value::None)
        }
    }
}

/// A launch dimension: an int or up to three of them.
fn dims(v: &Value, what: &str) -> Result<(u32, u32, u32)> {
    let items: Vec<i64> = match v {
        Value::List(items) | Value::Tuple(items) => items
            .iter()
            .map(|d| count_arg(d, what))
            .collect::<Result<_>>()?,
        other => vec![count_arg(other, what)?],
    };
    let positive = |i: usize| -> Result<u32> {
        let d = items.get(i).copied().unwrap_or(1);
        u32::try_from(d)
            .ok()
            .filter(|&d| d > 0)
            .ok_or_else(|| value_error(format!("{what} sizes are positive, not {d}")))
    };
    if items.is_empty() || items.len() > 3 {
        return Err(value_error(format!("{what} has one to three sizes")));
    }
    Ok((positive(0)?, positive(1)?, positive(2)?))
}

/// Calls a `fuse`d function: its elementwise work deferred and run as one pass, even when the
/// session has fusion off.
pub fn call_fused(
    interp: &mut Interpreter,
    function: &Value,
    positional: Vec<Value>,
    keywords: Vec<(Rc<str>, Value)>,
) -> Result<Value> {
    if crate::plan::fusion() {
        return interp.call(function, positional, keywords);
    }
    crate::plan::set_fusion(true)?;
    let result = interp.call(function, positional, keywords);
    // Turning fusion back off runs the deferred work: one pass.
    crate::plan::set_fusion(false)?;
    result
}
