//! The gpu renders a plan as CUDA C: one kernel whose threads each load their elements of every
//! leaf, compute the DAG in registers (with the functions of `kernels/elementwise.cuh`) and
//! store every output — or hand the value to a reduction (`kernels/reduce.cuh`). Kernels are
//! cached in memory by the plan's shape (nodes, dtypes, how each operand is laid out), not its
//! data, and on disk by their source, so a plan seen before costs a hash lookup.

use std::cell::RefCell;
use std::ffi::c_void;
use std::fmt::Write as _;

use rustc_hash::FxHashMap;

use super::expr::{Expr, NodeKind};
use super::reduce::Reduction;
use super::table;
use crate::base::element::f16;
use crate::base::layout::{collapse, Layout};
use crate::base::{DType, Scalar};
use crate::device::gpu::modules::{Kernel, BLOCK};
use crate::device::gpu::{gpu, Gpu};
use crate::device::{Buffer, Device};
use crate::error::Result;
use crate::with_dtype;

pub(super) const PRELUDE: &str = include_str!("../../kernels/elementwise.cuh");
const REDUCE: &str = include_str!("../../kernels/reduce.cuh");

mod reduction;
pub use reduction::{reduce_all, reduce_axis, reduction_source, scan};

/// How a kernel reaches an operand's elements.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
enum Access {
    /// Element i is at `p[i]` (the pointer already at the view's first element).
    Contiguous,
    /// Every element is `p[0]` (a broadcast scalar-like array).
    Uniform,
    /// Element i is at `p[Σ coordᵈ · strideᵈ]`.
    Strided,
}

struct Operand {
    buffer: Buffer,
    layout: Layout,
    access: Access,
}

/// A plan made ready for the gpu: nodes in order, operands laid out over a collapsed shape.
struct Plan {
    dims: Vec<usize>,
    nodes: super::expr::Nodes,
    /// For each node that is a leaf, its operand; for each scalar, its parameter number.
    leaf_of: Vec<Option<usize>>,
    scalar_of: Vec<Option<usize>>,
    leaves: Vec<Operand>,
    scalars: Vec<(Scalar, DType)>,
    outputs: Vec<(usize, Operand)>,
    wide_index: bool,
}

fn access(layout: &Layout) -> Access {
    if layout.strides.iter().all(|&s| s == 0) {
        Access::Uniform
    } else if layout.is_contiguous() {
        Access::Contiguous
    } else {
        Access::Strided
    }
}

impl Plan {
    /// `roots` over `shape`; `outputs` are the layouts the roots are stored through (none for
    /// a reduction, whose root is watched instead). `order` permutes the axes first (a reduced
    /// axis goes last).
    fn new(
        shape: &[usize],
        roots: &[&Expr],
        outputs: &[(Buffer, Layout)],
        order: Option<&[usize]>,
    ) -> Plan {
        let nodes = Expr::topological(roots);
        let mut index = FxHashMap::default();
        let mut leaves: Vec<(Buffer, Layout)> = Vec::new();
        let mut scalars = Vec::new();
        let mut leaf_of = Vec::with_capacity(nodes.len());
        let mut scalar_of = Vec::with_capacity(nodes.len());
        for (i, node) in nodes.iter().enumerate() {
            index.insert(node.id(), i);
            leaf_of.push(None);
            scalar_of.push(None);
            match &node.node().kind {
                NodeKind::Leaf { buffer, layout } => {
                    let found = leaves
                        .iter()
                        .position(|(b, l)| b.same_buffer(buffer) && l == layout);
                    leaf_of[i] = Some(found.unwrap_or_else(|| {
                        leaves.push((buffer.clone(), layout.clone()));
                        leaves.len() - 1
                    }));
                }
                NodeKind::Scalar(s) => {
                    scalar_of[i] = Some(scalars.len());
                    scalars.push((*s, node.dtype()));
                }
                _ => {}
            }
        }
        let permute = |l: &Layout| match order {
            None => l.clone(),
            Some(o) => Layout {
                shape: o.iter().map(|&a| l.shape[a]).collect(),
                strides: o.iter().map(|&a| l.strides[a]).collect(),
                offset: l.offset,
            },
        };
        let shape: Vec<usize> = match order {
            None => shape.to_vec(),
            Some(o) => o.iter().map(|&a| shape[a]).collect(),
        };
        let mut layouts: Vec<Layout> = leaves.iter().map(|(_, l)| permute(l)).collect();
        layouts.extend(outputs.iter().map(|(_, l)| permute(l)));
        // A reduction along an axis keeps it as its own last axis.
        let dims = if order.is_some() {
            let last = shape.len() - 1;
            let (mut front, mut back): (Vec<Layout>, Vec<Layout>) =
                layouts.iter().map(|l| split_last(l, last)).unzip();
            let mut refs: Vec<&mut Layout> = front.iter_mut().collect();
            let mut dims = collapse(&shape[..last], &mut refs);
            for (l, b) in front.iter_mut().zip(back.iter_mut()) {
                l.shape.append(&mut b.shape);
                l.strides.append(&mut b.strides);
            }
            dims.push(shape[last]);
            layouts = front;
            dims
        } else {
            let mut refs: Vec<&mut Layout> = layouts.iter_mut().collect();
            collapse(&shape, &mut refs)
        };
        let (leaf_layouts, out_layouts) = layouts.split_at(leaves.len());
        let size: usize = dims.iter().product();
        let leaves: Vec<Operand> = leaves
            .iter()
            .zip(leaf_layouts)
            .map(|((b, _), l)| Operand {
                buffer: b.clone(),
                layout: l.clone(),
                access: access(l),
            })
            .collect();
        let outputs: Vec<(usize, Operand)> = roots
            .iter()
            .zip(outputs)
            .zip(out_layouts)
            .map(|((r, (b, _)), l)| {
                (
                    index[&r.id()],
                    Operand {
                        buffer: b.clone(),
                        layout: l.clone(),
                        access: access(l),
                    },
                )
            })
            .collect();
        let reach = |o: &Operand| -> usize {
            o.layout
                .shape
                .iter()
                .zip(&o.layout.strides)
                .map(|(&n, &s)| n.saturating_sub(1) * s.unsigned_abs())
                .sum()
        };
        let wide_index = size > i32::MAX as usize / 2
            || leaves
                .iter()
                .chain(outputs.iter().map(|(_, o)| o))
                .any(|o| reach(o) > i32::MAX as usize);
        Plan {
            dims: dims.to_vec(),
            nodes,
            leaf_of,
            scalar_of,
            leaves,
            scalars,
            outputs,
            wide_index,
        }
    }

    fn size(&self) -> usize {
        self.dims.iter().product()
    }

    /// What the compiled kernel depends on: the DAG's structure and dtypes, each operand's
    /// dtype and access, the index width — never the data, pointers or sizes.
    fn key(&self, kind: u32) -> Vec<u32> {
        let mut key = vec![kind, self.dims.len() as u32, self.wide_index as u32];
        let position: FxHashMap<usize, u32> = self
            .nodes
            .iter()
            .enumerate()
            .map(|(i, n)| (n.id(), i as u32))
            .collect();
        for (i, node) in self.nodes.iter().enumerate() {
            key.push(node.dtype() as u32);
            match &node.node().kind {
                NodeKind::Leaf { .. } => {
                    let leaf = self.leaf_of[i].expect("a leaf");
                    key.extend([1, leaf as u32, self.leaves[leaf].access as u32]);
                }
                NodeKind::Scalar(_) => key.push(2),
                NodeKind::Cast(arg) => key.extend([3, position[&arg.id()]]),
                NodeKind::Apply { op, args } => {
                    key.extend([4, *op as u32, args.len() as u32]);
                    key.extend(args.iter().map(|a| position[&a.id()]));
                }
            }
        }
        for (node, out) in &self.outputs {
            key.extend([
                5,
                *node as u32,
                out.buffer.dtype() as u32,
                out.access as u32,
            ]);
        }
        key
    }
}

fn split_last(l: &Layout, last: usize) -> (Layout, Layout) {
    (
        Layout {
            shape: l.shape[..last].into(),
            strides: l.strides[..last].into(),
            offset: l.offset,
        },
        Layout {
            shape: l.shape[last..].into(),
            strides: l.strides[last..].into(),
            offset: 0,
        },
    )
}

/// The C type a value of `dtype` has in registers (float16 computes in float).
fn register(dtype: DType) -> &'static str {
    match dtype {
        DType::Bool => "bool",
        DType::I8 => "i8",
        DType::U8 => "u8",
        DType::I16 => "i16",
        DType::U16 => "u16",
        DType::I32 => "i32",
        DType::U32 => "u32",
        DType::I64 => "i64",
        DType::U64 => "u64",
        DType::F16 | DType::F32 => "float",
        DType::F64 => "double",
        DType::C64 => "c64",
        DType::C128 => "c128",
    }
}

/// The C type of an element in memory.
fn storage(dtype: DType) -> &'static str {
    match dtype {
        DType::F16 => "u16",
        other => register(other),
    }
}

fn load(dtype: DType, place: &str) -> String {
    match dtype {
        DType::F16 => format!("h2f({place})"),
        _ => place.to_string(),
    }
}

fn store(dtype: DType, value: &str) -> String {
    match dtype {
        DType::F16 => format!("f2h({value})"),
        _ => value.to_string(),
    }
}

/// `value` (of `from`) converted to `to`, as the cpu's `cast` converts.
fn convert(from: DType, to: DType, value: &str) -> String {
    if to == DType::F16 {
        return match from {
            DType::F64 => format!("h2f(d2h({value}))"),
            DType::C128 => format!("h2f(d2h({value}.re))"),
            DType::C64 => format!("rh({value}.re)"),
            DType::F16 => value.to_string(),
            _ => format!("rh(cvt<float>({value}))"),
        };
    }
    let from_register = if from == DType::F16 {
        "float"
    } else {
        register(from)
    };
    format!("cvt<{}, {from_register}>({value})", register(to))
}

struct Source {
    text: String,
}

impl Source {
    fn line(&mut self, text: impl AsRef<str>) {
        self.text.push_str("    ");
        self.text.push_str(text.as_ref());
        self.text.push('\n');
    }
}

/// The kernel's parameters after `n` and the dims: every leaf, output and scalar.
fn parameters(plan: &Plan, index: &str) -> String {
    let mut params = Vec::new();
    let strides = |params: &mut Vec<String>, name: &str| {
        for d in 0..plan.dims.len() {
            params.push(format!("{index} {name}s{d}"));
        }
    };
    for (k, leaf) in plan.leaves.iter().enumerate() {
        params.push(format!(
            "const {}* __restrict__ in{k}",
            storage(leaf.buffer.dtype())
        ));
        if leaf.access == Access::Strided {
            strides(&mut params, &format!("in{k}"));
        }
    }
    for (k, (_, out)) in plan.outputs.iter().enumerate() {
        params.push(format!("{}* out{k}", storage(out.buffer.dtype())));
        if out.access == Access::Strided {
            strides(&mut params, &format!("out{k}"));
        }
    }
    for (k, (_, dtype)) in plan.scalars.iter().enumerate() {
        params.push(format!("{} c{k}", register(*dtype)));
    }
    params.join(", ")
}

/// Emits the loads and the computation of element `idx` for lanes `lanes` (all loads first, so
/// that several are in flight), leaving node values in `v{node}_{lane}`.
fn emit_values(plan: &Plan, src: &mut Source, lanes: usize, index: &str, base: &str) {
    let strided = plan
        .leaves
        .iter()
        .chain(plan.outputs.iter().map(|(_, o)| o))
        .any(|o| o.access == Access::Strided);
    for l in 0..lanes {
        src.line(format!("{index} idx_{l} = {base} + {l} * stride;"));
        if strided {
            src.line(format!("{index} q_{l} = idx_{l};"));
            for d in (0..plan.dims.len()).rev() {
                if d == 0 {
                    src.line(format!("{index} k{d}_{l} = q_{l};"));
                } else {
                    src.line(format!("{index} k{d}_{l} = q_{l} % d{d}; q_{l} /= d{d};"));
                }
            }
        }
    }
    let place = |name: &str, o: &Operand, l: usize| -> String {
        match o.access {
            Access::Contiguous => format!("{name}[idx_{l}]"),
            Access::Uniform => format!("{name}[0]"),
            Access::Strided => {
                let terms: Vec<String> = (0..plan.dims.len())
                    .map(|d| format!("k{d}_{l} * {name}s{d}"))
                    .collect();
                format!("{name}[{}]", terms.join(" + "))
            }
        }
    };
    for l in 0..lanes {
        for (i, node) in plan.nodes.iter().enumerate() {
            if let Some(leaf) = plan.leaf_of[i] {
                let o = &plan.leaves[leaf];
                let value = load(node.dtype(), &place(&format!("in{leaf}"), o, l));
                src.line(format!("{} v{i}_{l} = {value};", register(node.dtype())));
            }
        }
    }
    let position: FxHashMap<usize, usize> = plan
        .nodes
        .iter()
        .enumerate()
        .map(|(i, n)| (n.id(), i))
        .collect();
    for l in 0..lanes {
        for (i, node) in plan.nodes.iter().enumerate() {
            let dtype = node.dtype();
            let value = match &node.node().kind {
                NodeKind::Leaf { .. } => continue,
                NodeKind::Scalar(_) => format!("c{}", plan.scalar_of[i].expect("a scalar")),
                NodeKind::Cast(arg) => {
                    convert(arg.dtype(), dtype, &format!("v{}_{l}", position[&arg.id()]))
                }
                NodeKind::Apply { op, args } => {
                    let row = table::row(*op);
                    let half = args.first().is_some_and(|a| a.dtype() == DType::F16);
                    let function = match (row.op, half) {
                        (table::Op::Nextafter, true) => "op_nextafter_half",
                        (table::Op::Spacing, true) => "op_spacing_half",
                        _ => row.cuda,
                    };
                    let args: Vec<String> = args
                        .iter()
                        .map(|a| format!("v{}_{l}", position[&a.id()]))
                        .collect();
                    let call = format!("{function}({})", args.join(", "));
                    if dtype == DType::F16 {
                        format!("rh({call})")
                    } else {
                        call
                    }
                }
            };
            src.line(format!("{} v{i}_{l} = {value};", register(dtype)));
        }
    }
}

fn emit_stores(plan: &Plan, src: &mut Source, lanes: usize) {
    for l in 0..lanes {
        for (k, (node, out)) in plan.outputs.iter().enumerate() {
            let target = match out.access {
                Access::Strided => {
                    let terms: Vec<String> = (0..plan.dims.len())
                        .map(|d| format!("k{d}_{l} * out{k}s{d}"))
                        .collect();
                    format!("out{k}[{}]", terms.join(" + "))
                }
                _ => format!("out{k}[idx_{l}]"),
            };
            let value = store(out.buffer.dtype(), &format!("v{node}_{l}"));
            src.line(format!("{target} = {value};"));
        }
    }
}

fn header(plan: &Plan, name: &str, extra: &str) -> (Source, &'static str) {
    let index = if plan.wide_index { "i64" } else { "i32" };
    let mut src = Source {
        text: String::new(),
    };
    let dims: Vec<String> = (0..plan.dims.len())
        .map(|d| format!("{index} d{d}"))
        .collect();
    let params = parameters(plan, index);
    let mut all = vec![format!("{index} n")];
    all.extend(dims);
    if !params.is_empty() {
        all.push(params);
    }
    if !extra.is_empty() {
        all.push(extra.to_string());
    }
    let _ = writeln!(
        src.text,
        "extern \"C\" __global__ void {name}({}) {{",
        all.join(", ")
    );
    src.line(format!(
        "const {index} stride = ({index})blockDim.x * gridDim.x;"
    ));
    src.line(format!(
        "{index} i = ({index})blockIdx.x * blockDim.x + threadIdx.x;"
    ));
    (src, index)
}

fn elementwise_text(plan: &Plan) -> String {
    let (mut src, index) = header(plan, "elementwise", "");
    src.line("for (; i + 3 * stride < n; i += 4 * stride) {");
    emit_values(plan, &mut src, 4, index, "i");
    emit_stores(plan, &mut src, 4);
    src.line("}");
    src.line("for (; i < n; i += stride) {");
    emit_values(plan, &mut src, 1, index, "i");
    emit_stores(plan, &mut src, 1);
    src.line("}");
    src.text.push_str("}\n");
    format!("{PRELUDE}\n{}", src.text)
}

/// The generated CUDA C of an elementwise plan (`:explain --source`).
pub fn elementwise_source(shape: &[usize], outputs: &[(Buffer, Layout, Expr)]) -> String {
    let roots: Vec<&Expr> = outputs.iter().map(|(_, _, e)| e).collect();
    let destinations: Vec<(Buffer, Layout)> = outputs
        .iter()
        .map(|(b, l, _)| (b.clone(), l.clone()))
        .collect();
    elementwise_text(&Plan::new(shape, &roots, &destinations, None))
}

/// Generated CUDA C without the hand-written preludes it starts with: what `:explain --source`
/// shows.
pub fn generated_part(text: &str) -> &str {
    let text = text.strip_prefix(PRELUDE).unwrap_or(text).trim_start();
    text.strip_prefix(REDUCE).unwrap_or(text).trim_start()
}

/// A kernel parameter's bytes: the driver reads as many as the kernel declares (an `i32`
/// index reads the low four of the little-endian i64).
enum Param {
    Index(i64),
    Pointer(u64),
    Value([u8; 16]),
}

impl Param {
    fn pointer(&self) -> *mut c_void {
        match self {
            Param::Index(v) => v as *const i64 as *mut c_void,
            Param::Pointer(p) => p as *const u64 as *mut c_void,
            Param::Value(bytes) => bytes.as_ptr() as *mut c_void,
        }
    }
}

/// Parameter values in the order `parameters` declares them.
fn arguments(plan: &Plan) -> Vec<Param> {
    let index = Param::Index;
    let mut args = vec![index(plan.size() as i64)];
    args.extend(plan.dims.iter().map(|&d| index(d as i64)));
    let operand = |args: &mut Vec<Param>, o: &Operand| {
        let g = o.buffer.gpu().expect("gpu plans have gpu buffers");
        args.push(Param::Pointer(g.element_pointer(o.layout.offset)));
        if o.access == Access::Strided {
            args.extend(o.layout.strides.iter().map(|&s| index(s as i64)));
        }
    };
    for leaf in &plan.leaves {
        operand(&mut args, leaf);
    }
    for (_, out) in &plan.outputs {
        operand(&mut args, out);
    }
    for &(value, dtype) in &plan.scalars {
        args.push(scalar_bytes(value, dtype));
    }
    args
}

fn scalar_bytes(value: Scalar, dtype: DType) -> Param {
    let mut bytes = [0u8; 16];
    with_dtype!(dtype, T => {
        let v: T = value.cast();
        // float16 travels as the float it computes in.
        if dtype == DType::F16 {
            let f = f16::to_f32(value.cast::<f16>());
            bytes[..4].copy_from_slice(&f.to_le_bytes());
        } else {
            let size = std::mem::size_of::<T>();
            // SAFETY: T is a plain number (or a pair of them) of `size` bytes.
            let raw = unsafe { std::slice::from_raw_parts(std::ptr::from_ref(&v).cast::<u8>(), size) };
            bytes[..size].copy_from_slice(raw);
        }
    });
    Param::Value(bytes)
}

thread_local! {
    /// Compiled kernels by plan shape.
    static KERNELS: RefCell<FxHashMap<Vec<u32>, Vec<Kernel>>> = RefCell::new(FxHashMap::default());
}

/// The kernels of a plan shape, compiling them on a miss.
fn kernels(
    g: &Gpu,
    key: Vec<u32>,
    label: &str,
    source: impl FnOnce() -> String,
    entries: &[&str],
) -> Result<Vec<Kernel>> {
    let cached = KERNELS.with(|c| c.borrow().get(&key).cloned());
    if let Some(k) = cached.filter(|k| k.iter().all(|k| k.belongs_to(g))) {
        return Ok(k);
    }
    let compiled = g.generated(label, &source(), entries)?;
    KERNELS.with(|c| c.borrow_mut().insert(key, compiled.clone()));
    Ok(compiled)
}

fn launch(
    g: &Gpu,
    kernel: Kernel,
    name: &str,
    elements: usize,
    grid: u32,
    block: u32,
    args: &[Param],
) -> Result<()> {
    let mut pointers: Vec<*mut c_void> = args.iter().map(Param::pointer).collect();
    g.launch_kernel(
        kernel,
        name,
        elements,
        (grid, 1, 1),
        (block, 1, 1),
        &mut pointers,
    )
}

/// A plan that only copies one contiguous array to another of its dtype: the copy engine does
/// that at full bandwidth (`y[:] = x`).
fn plain_copy(plan: &Plan) -> Option<(u64, u64, usize)> {
    let [(node, out)] = plan.outputs.as_slice() else {
        return None;
    };
    let leaf = plan.leaf_of[*node]?;
    let source = &plan.leaves[leaf];
    let same = source.buffer.dtype() == out.buffer.dtype()
        && source.access == Access::Contiguous
        && out.access == Access::Contiguous
        && !source.buffer.same_buffer(&out.buffer);
    same.then(|| {
        let pointer = |o: &Operand| {
            o.buffer
                .gpu()
                .expect("gpu")
                .element_pointer(o.layout.offset)
        };
        (
            pointer(out),
            pointer(source),
            plan.size() * out.buffer.dtype().size(),
        )
    })
}

/// Runs an elementwise plan on the gpu: one kernel.
pub fn run(shape: &[usize], outputs: &[(Buffer, Layout, Expr)]) -> Result<()> {
    let roots: Vec<&Expr> = outputs.iter().map(|(_, _, e)| e).collect();
    let destinations: Vec<(Buffer, Layout)> = outputs
        .iter()
        .map(|(b, l, _)| (b.clone(), l.clone()))
        .collect();
    let plan = Plan::new(shape, &roots, &destinations, None);
    let g = gpu()?;
    if let Some((to, from, bytes)) = plain_copy(&plan) {
        return g.copy_on_device(to, from, bytes);
    }
    let kernel = kernels(
        g,
        plan.key(0),
        "elementwise",
        || elementwise_text(&plan),
        &["elementwise"],
    )?[0];
    let n = plan.size();
    launch(
        g,
        kernel,
        "elementwise",
        n,
        Gpu::whole_grid(n.div_ceil(4)),
        BLOCK,
        &arguments(&plan),
    )
}

#[cfg(test)]
mod tests;
