//! Kernels the user writes (CuPy's `ElementwiseKernel`, `ReductionKernel`, `RawKernel`) bound to
//! arrays: type placeholders resolved from the arguments, shapes broadcast, outputs made, the
//! reduced axes moved last; then the plan layer generates the CUDA C and launches it. They run
//! on the gpu only: their code is CUDA C.

use std::cell::RefCell;
use std::rc::Rc;

use rustc_hash::FxHashMap;

use super::Array;
use crate::base::layout::{broadcast_shapes, collapse, shape_size, Layout};
use crate::base::{DType, Scalar};
use crate::device::gpu::gpu;
use crate::device::gpu::modules::Kernel;
use crate::device::{Buffer, Device};
use crate::error::{shape_error, type_error, value_error, Result};
use crate::plan::explain;
use crate::plan::user_kernel::{
    self, ArrayArg, Bound, ElementwiseCall, Generated, Param, ParamType, ReductionCall,
};

/// An argument of a user kernel's call.
#[derive(Clone)]
pub enum Argument {
    Array(Array),
    Scalar(Scalar),
}

#[derive(Debug)]
pub struct ElementwiseKernel {
    pub name: String,
    pub inputs: Vec<Param>,
    pub outputs: Vec<Param>,
    pub operation: String,
    pub preamble: String,
    pub compiled: Compiled,
}

#[derive(Debug)]
pub struct ReductionKernel {
    pub name: String,
    pub inputs: Vec<Param>,
    pub output: Param,
    pub map: String,
    pub reduce: String,
    pub post_map: String,
    pub identity: String,
    pub reduce_type: Option<ParamType>,
    pub preamble: String,
    pub compiled: Compiled,
}

#[derive(Debug)]
pub struct RawKernel {
    pub name: String,
    pub source: String,
    pub compiled: Compiled,
}

fn needs_gpu(what: &str) -> crate::error::Error {
    type_error(format!(
        "{what} needs the gpu: its code is CUDA C (fuse(f) runs arr code on either device)"
    ))
}

/// The natural dtype of a host scalar (Python's int, float, bool, complex).
fn scalar_dtype(s: Scalar) -> DType {
    match s {
        Scalar::Bool(_) => DType::Bool,
        Scalar::Int(_) => DType::I64,
        Scalar::UInt(_) => DType::U64,
        Scalar::Float(_) => DType::F64,
        Scalar::Complex(..) => DType::C128,
    }
}

/// Placeholder bindings (`T` → f64), made from arrays first, then scalars.
#[derive(Default)]
struct Types {
    bound: Vec<(String, DType)>,
}

impl Types {
    fn get(&self, name: &str) -> Option<DType> {
        self.bound.iter().find(|(n, _)| n == name).map(|(_, d)| *d)
    }

    fn bind(&mut self, what: &str, param: &Param, dtype: DType) -> Result<()> {
        let ParamType::Placeholder(name) = &param.ty else {
            return Ok(());
        };
        match self.get(name) {
            None => self.bound.push((name.clone(), dtype)),
            Some(d) if d == dtype => {}
            Some(d) => {
                return Err(type_error(format!(
                    "{what}: type {name} is {d} from an earlier argument but `{}` is {dtype}",
                    param.name
                )))
            }
        }
        Ok(())
    }

    /// Placeholders that no array bound take the type of a host scalar given for them (Python's
    /// int as i64, float as f64); a scalar for a bound placeholder is converted to it.
    fn bind_scalars<'a>(
        &mut self,
        what: &str,
        pairs: impl Iterator<Item = (&'a Param, &'a Argument)>,
    ) -> Result<()> {
        for (param, arg) in pairs {
            if let (Argument::Scalar(s), ParamType::Placeholder(name)) = (arg, &param.ty) {
                let dtype = scalar_dtype(*s);
                if self.get(name).is_none() {
                    self.bind(what, param, dtype)?;
                }
            }
        }
        Ok(())
    }

    fn of(&self, what: &str, param: &Param) -> Result<DType> {
        match &param.ty {
            ParamType::Fixed(d) => Ok(*d),
            ParamType::Placeholder(name) => self.get(name).ok_or_else(|| {
                type_error(format!(
                    "{what}: cannot tell the type {name} of `{}`: give an array of that type",
                    param.name
                ))
            }),
        }
    }
}

fn gpu_array<'a>(what: &str, arg: &'a Argument) -> Result<Option<&'a Array>> {
    match arg {
        Argument::Array(a) if a.device() != Device::Gpu => Err(needs_gpu(what)),
        Argument::Array(a) => Ok(Some(a)),
        Argument::Scalar(_) => Ok(None),
    }
}

/// An array read through a parameter of `dtype`: element arguments convert on load; a raw one
/// is made contiguous in its parameter's dtype.
fn bind_input(
    what: &str,
    param: &Param,
    arg: &Argument,
    dtype: DType,
    shape: &[usize],
) -> Result<Bound> {
    Ok(match arg {
        Argument::Scalar(Scalar::Complex(..)) if !dtype.is_complex() => {
            return Err(type_error(format!(
                "{what}: `{}` is {dtype} and cannot take a complex value",
                param.name
            )))
        }
        Argument::Scalar(s) => Bound::Scalar(*s, dtype),
        Argument::Array(a) if param.raw => {
            let a = a.astype(dtype)?.contiguous()?;
            Bound::Raw(array_arg(&a, a.layout().clone(), dtype)?)
        }
        Argument::Array(a) => {
            if !a
                .dtype()
                .can_cast(dtype, crate::base::dtype::Casting::SameKind)
            {
                return Err(type_error(format!(
                    "{what}: `{}` is {} and cannot be read as {dtype}",
                    param.name,
                    a.dtype()
                )));
            }
            let layout = a.layout().broadcast_to(shape)?;
            Bound::Element(array_arg(a, layout, dtype)?)
        }
    })
}

fn array_arg(a: &Array, layout: Layout, dtype: DType) -> Result<ArrayArg> {
    Ok(ArrayArg {
        buffer: a.buffer()?,
        layout,
        dtype,
    })
}

/// A user kernel's compiled forms, by what their text depends on (argument dtypes, layouts).
#[derive(Debug, Default)]
pub struct Compiled(RefCell<FxHashMap<Vec<u32>, Rc<Entry>>>);

#[derive(Debug)]
struct Entry {
    kernels: Vec<Kernel>,
    source: String,
}

impl Compiled {
    /// The kernels `entries` for `key`, generating and compiling the source on a miss (NVRTC's
    /// own cache on disk spares later processes the compile); NVRTC's errors become an arr error
    /// that points into the user's code.
    fn get(
        &self,
        key: Vec<u32>,
        what: &str,
        name: &str,
        entries: &[String],
        user_lines: usize,
        generate: impl FnOnce() -> Generated,
    ) -> Result<Rc<Entry>> {
        let g = gpu()?;
        if let Some(entry) = self.0.borrow().get(&key) {
            if entry.kernels.iter().all(|k| k.belongs_to(g)) {
                return Ok(entry.clone());
            }
        }
        let generated = generate();
        let names: Vec<&str> = entries.iter().map(String::as_str).collect();
        let kernels = match g.user_module(name, &generated.text(), &names) {
            Ok(Ok(k)) => k,
            Ok(Err(log)) => return Err(compile_error(what, name, &generated, user_lines, &log)),
            Err(e) if e.message.starts_with("no gpu kernel named") => {
                return Err(value_error(format!(
                    "{what}: the code defines no kernel named `{name}` (declare it extern \"C\" __global__ void {name}(...))"
                )))
            }
            Err(e) => return Err(e),
        };
        let entry = Rc::new(Entry {
            kernels,
            source: generated.source,
        });
        self.0.borrow_mut().insert(key, entry.clone());
        Ok(entry)
    }
}

/// NVRTC's log with each `NAME.cu(LINE)` said as the line of the user's code it is.
fn compile_error(
    what: &str,
    name: &str,
    generated: &Generated,
    user_lines: usize,
    log: &str,
) -> crate::error::Error {
    let source_lines: Vec<&str> = generated.source.lines().collect();
    let prefix = format!("{name}.cu(");
    let mut text = format!("{what}: its CUDA code does not compile:");
    // NVRTC's errors are `NAME.cu(LINE): error: …`, each followed by the code and a caret.
    for line in log.lines() {
        let located = line.strip_prefix(&prefix).and_then(|rest| {
            let (number, message) = rest.split_once("): ")?;
            Some((number.parse::<usize>().ok()?, message.trim()))
        });
        let Some((number, message)) = located.filter(|(_, m)| m.starts_with("error")) else {
            continue;
        };
        let Some(number) = generated.source_line(number) else {
            text.push_str(&format!("\n  in the user kernels' prelude: {message}"));
            continue;
        };
        let code = source_lines.get(number - 1).map_or("", |l| l.trim());
        let user_line = number
            .checked_sub(generated.operation_line)
            .filter(|&k| k < user_lines)
            .map(|k| k + 1);
        let place = match user_line {
            Some(k) => format!("line {k} of its code"),
            None => format!("line {number} of the generated source"),
        };
        text.push_str(&format!("\n  {place}: {message}\n      {code}"));
    }
    value_error(text)
}

impl ElementwiseKernel {
    /// `k(inputs…, outputs…)`: outputs not given are made (the broadcast shape, or `size`).
    pub fn call(&self, args: &[Argument], size: Option<usize>) -> Result<Vec<Array>> {
        let what = format!("elementwise_kernel {}", self.name);
        let (n_in, n_out) = (self.inputs.len(), self.outputs.len());
        if args.len() != n_in && args.len() != n_in + n_out {
            return Err(type_error(format!(
                "{what} takes {n_in} inputs (and optionally its {n_out} outputs), got {} arguments",
                args.len()
            )));
        }
        let params: Vec<&Param> = self.inputs.iter().chain(&self.outputs).collect();
        let mut types = Types::default();
        let mut shape: Option<Vec<usize>> = None;
        let mut any_array = false;
        for (k, (param, arg)) in params.iter().zip(args).enumerate() {
            if let Some(a) = gpu_array(&what, arg)? {
                any_array = true;
                types.bind(&what, param, a.dtype())?;
                // The inputs broadcast together; a given output must have their shape.
                if !param.raw && k < n_in {
                    shape = Some(broadcast_shapes(
                        shape.as_deref().unwrap_or(&[]),
                        a.shape(),
                    )?);
                }
            }
        }
        if shape.is_none() {
            let outputs = self.outputs.iter().zip(args.iter().skip(n_in));
            shape = outputs
                .filter(|(p, _)| !p.raw)
                .find_map(|(_, arg)| match arg {
                    Argument::Array(a) => Some(a.shape().to_vec()),
                    Argument::Scalar(_) => None,
                });
        }
        if !any_array {
            gpu()?;
        }
        types.bind_scalars(&what, params.iter().copied().zip(args))?;
        let shape = match (shape, size) {
            (Some(s), None) => s,
            (None, Some(n)) => vec![n],
            (Some(s), Some(n)) if shape_size(&s)? == n => s,
            (Some(_), Some(_)) => {
                return Err(value_error(format!(
                    "{what}: size= is only for calls whose arguments are all raw arrays or scalars"
                )))
            }
            (None, None) => {
                return Err(value_error(format!(
                    "{what}: no array sets the shape: give size="
                )))
            }
        };
        let mut outputs = Vec::with_capacity(n_out);
        for (k, param) in self.outputs.iter().enumerate() {
            let dtype = types.of(&what, param)?;
            let out = match args.get(n_in + k) {
                Some(Argument::Array(a)) => {
                    if a.dtype() != dtype {
                        return Err(type_error(format!(
                            "{what}: the output `{}` is {} but its type is {dtype}",
                            param.name,
                            a.dtype()
                        )));
                    }
                    if !param.raw && a.shape() != shape.as_slice() {
                        return Err(shape_error(format!(
                            "{what}: the output `{}` has shape {} but the inputs broadcast to {}",
                            param.name,
                            crate::base::layout::shape_text(a.shape()),
                            crate::base::layout::shape_text(&shape)
                        )));
                    }
                    if param.raw && !a.layout().is_contiguous() {
                        return Err(value_error(format!(
                            "{what}: the raw output `{}` must be contiguous",
                            param.name
                        )));
                    }
                    a.clone()
                }
                Some(Argument::Scalar(_)) => {
                    return Err(type_error(format!(
                        "{what}: the output `{}` must be an array",
                        param.name
                    )))
                }
                None if param.raw => {
                    return Err(value_error(format!(
                        "{what}: the raw output `{}` must be given",
                        param.name
                    )))
                }
                None => Array::from_buffer(
                    Buffer::alloc(Device::Gpu, shape_size(&shape)?, dtype)?,
                    &shape,
                ),
            };
            outputs.push(out);
        }
        let mut inputs = Vec::with_capacity(n_in);
        for (param, arg) in self.inputs.iter().zip(args) {
            let dtype = types.of(&what, param)?;
            inputs.push((param.clone(), bind_input(&what, param, arg, dtype, &shape)?));
        }
        let mut bound_outputs = Vec::with_capacity(n_out);
        for (param, out) in self.outputs.iter().zip(&outputs) {
            let arg = array_arg(out, out.layout().clone(), out.dtype())?;
            bound_outputs.push((
                param.clone(),
                if param.raw {
                    Bound::Raw(arg)
                } else {
                    Bound::Element(arg)
                },
            ));
        }
        let call = ElementwiseCall {
            name: &self.name,
            operation: &self.operation,
            preamble: &self.preamble,
            placeholders: &types.bound,
            inputs: &inputs,
            outputs: &bound_outputs,
            shape: &shape,
        };
        let collapsed = call.collapse();
        let entry = self.compiled.get(
            call.key(&collapsed),
            &what,
            &self.name,
            std::slice::from_ref(&self.name),
            self.operation.lines().count(),
            || call.source(&collapsed),
        )?;
        explain::record_user_kernel(
            what,
            &shape,
            traffic(&inputs),
            traffic(&bound_outputs),
            &entry.source,
        );
        call.run(&collapsed, entry.kernels[0])?;
        Ok(outputs)
    }
}

fn traffic(bound: &[(Param, Bound)]) -> Vec<(Buffer, Layout)> {
    bound
        .iter()
        .filter_map(|(_, b)| match b {
            Bound::Element(a) | Bound::Raw(a) => Some((a.buffer.clone(), a.layout.clone())),
            Bound::Scalar(..) => None,
        })
        .collect()
}

impl ReductionKernel {
    /// `k(inputs…, axis=, keepdims=)`: reduces the broadcast inputs over `axis` (all by default).
    pub fn call(&self, args: &[Argument], axis: Option<&[i64]>, keepdims: bool) -> Result<Array> {
        let what = format!("reduction_kernel {}", self.name);
        if args.len() != self.inputs.len() {
            return Err(type_error(format!(
                "{what} takes {} inputs, got {}",
                self.inputs.len(),
                args.len()
            )));
        }
        let mut types = Types::default();
        let mut shape: Vec<usize> = Vec::new();
        let mut any_array = false;
        for (param, arg) in self.inputs.iter().zip(args) {
            if let Some(a) = gpu_array(&what, arg)? {
                any_array = true;
                types.bind(&what, param, a.dtype())?;
                if !param.raw {
                    shape = broadcast_shapes(&shape, a.shape())?;
                }
            }
        }
        if !any_array {
            return Err(value_error(format!("{what}: give at least one gpu array")));
        }
        types.bind_scalars(&what, self.inputs.iter().zip(args))?;
        let out_dtype = types.of(&what, &self.output)?;
        let reduce_type = match &self.reduce_type {
            None => out_dtype,
            Some(ty) => types.of(
                &what,
                &Param {
                    name: "reduce_type".into(),
                    ty: ty.clone(),
                    raw: false,
                },
            )?,
        };
        let ndim = shape.len();
        let reduced = match axis {
            None => (0..ndim).collect(),
            Some(axes) => super::shape::normalize_axes(axes, ndim)?,
        };
        let kept: Vec<usize> = (0..ndim).filter(|d| !reduced.contains(d)).collect();
        let order: Vec<usize> = kept.iter().chain(reduced.iter()).copied().collect();
        let rows: usize = kept.iter().map(|&d| shape[d]).product();
        let mut out_shape: Vec<usize> = Vec::new();
        for (d, &n) in shape.iter().enumerate() {
            if !reduced.contains(&d) {
                out_shape.push(n);
            } else if keepdims {
                out_shape.push(1);
            }
        }
        let permuted: Vec<usize> = order.iter().map(|&d| shape[d]).collect();
        let mut inputs = Vec::with_capacity(args.len());
        for (param, arg) in self.inputs.iter().zip(args) {
            let dtype = types.of(&what, param)?;
            let mut bound = bind_input(&what, param, arg, dtype, &shape)?;
            if let Bound::Element(a) = &mut bound {
                a.layout = Layout {
                    shape: order.iter().map(|&d| a.layout.shape[d]).collect(),
                    strides: order.iter().map(|&d| a.layout.strides[d]).collect(),
                    offset: a.layout.offset,
                };
            }
            inputs.push((param.clone(), bound));
        }
        let dims = {
            let mut layouts: Vec<&mut Layout> = inputs
                .iter_mut()
                .filter_map(|(_, b)| match b {
                    Bound::Element(a) => Some(&mut a.layout),
                    _ => None,
                })
                .collect();
            collapse(&permuted, &mut layouts)
        };
        let out_buffer = Buffer::alloc(Device::Gpu, rows, out_dtype)?;
        let call = ReductionCall {
            name: &self.name,
            map: &self.map,
            reduce: &self.reduce,
            post_map: &self.post_map,
            identity: &self.identity,
            preamble: &self.preamble,
            reduce_type,
            placeholders: &types.bound,
            inputs: &inputs,
            output: (&self.output, &out_buffer, out_dtype),
            shape: &dims,
            rows,
        };
        let entries = [self.name.clone(), format!("{}_combine", self.name)];
        let entry = self
            .compiled
            .get(call.key(), &what, &self.name, &entries, 1, || call.source())?;
        explain::record_user_kernel(
            what.clone(),
            &permuted,
            traffic(&inputs),
            vec![(out_buffer.clone(), Layout::contiguous(&[rows]))],
            &entry.source,
        );
        call.run(&entry.kernels)?;
        Ok(Array::from_buffer(out_buffer, &out_shape))
    }
}

impl RawKernel {
    /// `k(grid, block, [args…], shared_mem=)`: arrays as pointers to their first element
    /// (contiguous, on the gpu), ints as long long, floats as double, bools as bool, complex
    /// numbers as two doubles, 0-d cpu arrays as their dtype.
    pub fn call(
        &self,
        grid: (u32, u32, u32),
        block: (u32, u32, u32),
        args: &[Argument],
        shared_bytes: u32,
    ) -> Result<()> {
        let what = format!("raw_kernel {}", self.name);
        let on_cpu = |a: &Argument| matches!(a, Argument::Array(a) if a.device() != Device::Gpu && a.ndim() > 0);
        if args.iter().any(on_cpu) {
            return Err(needs_gpu(&what));
        }
        let g = gpu()?;
        let entry = self.compiled.get(
            Vec::new(),
            &what,
            &self.name,
            std::slice::from_ref(&self.name),
            self.source.lines().count(),
            || Generated::raw(self.source.clone()),
        )?;
        let kernel = entry.kernels[0];
        let mut values = Vec::with_capacity(args.len());
        let mut kept: Vec<(Buffer, Layout)> = Vec::new();
        for (k, arg) in args.iter().enumerate() {
            values.push(match arg {
                Argument::Array(a) if a.device() == Device::Gpu => {
                    if !a.layout().is_contiguous() {
                        return Err(value_error(format!(
                            "{what}: argument {k} is not contiguous (pass ascontiguousarray(x))"
                        )));
                    }
                    let buffer = a.buffer()?;
                    let pointer = buffer
                        .gpu()
                        .expect("a gpu array")
                        .element_pointer(a.layout().offset);
                    kept.push((buffer, a.layout().clone()));
                    user_kernel::Value::Pointer(pointer)
                }
                // A 0-d cpu array (cpu arrays of more dimensions were refused above).
                Argument::Array(a) => user_kernel::Value::scalar(a.item()?, a.dtype()),
                Argument::Scalar(s) => user_kernel::Value::scalar(*s, scalar_dtype(*s)),
            });
        }
        let threads = (grid.0 as usize * grid.1 as usize * grid.2 as usize)
            * (block.0 as usize * block.1 as usize * block.2 as usize);
        explain::record_user_kernel(what, &[threads], kept.clone(), kept, &self.source);
        user_kernel::launch(
            g,
            kernel,
            &self.name,
            threads,
            grid,
            block,
            shared_bytes,
            &values,
        )
    }
}

/// A user kernel, as the value `elementwise_kernel(...)` & co. return.
#[derive(Debug)]
pub enum UserKernel {
    Elementwise(ElementwiseKernel),
    Reduction(ReductionKernel),
    Raw(RawKernel),
}

impl UserKernel {
    pub fn describe(&self) -> String {
        match self {
            UserKernel::Elementwise(k) => format!("<elementwise_kernel {}>", k.name),
            UserKernel::Reduction(k) => format!("<reduction_kernel {}>", k.name),
            UserKernel::Raw(k) => format!("<raw_kernel {}>", k.name),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::plan::user_kernel::parse_params;

    #[test]
    fn a_complex_scalar_binds_only_to_a_complex_parameter() {
        let params = parse_params("float64 x, complex64 z", "k").unwrap();
        let value = Argument::Scalar(Scalar::Complex(1.0, 2.0));
        let refused = bind_input("k", &params[0], &value, DType::F64, &[])
            .err()
            .unwrap();
        let expected = format!("`x` is {} and cannot take a complex value", DType::F64);
        assert!(refused.message.contains(&expected), "{}", refused.message);
        let bound = bind_input("k", &params[1], &value, DType::C64, &[]).unwrap();
        assert!(matches!(
            bound,
            Bound::Scalar(Scalar::Complex(..), DType::C64)
        ));
        assert_eq!(scalar_dtype(Scalar::Complex(0.0, 1.0)), DType::C128);
    }
}
