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

fn reduce_code(r: Reduction) -> u32 {
    r as u32
}

/// The reduction's store: how its value (or index) is written to the 0-d output.
fn store_struct(out: DType, acc: DType) -> String {
    format!(
        "struct Out {{ {}* p; long long k; __device__ void value({} v) {{ p[k] = {}; }} __device__ void index(long long i) {{ p[k] = {}; }} }};\n",
        storage(out),
        register(acc),
        store(out, &convert(acc, out, "v")),
        store(out, &convert(DType::I64, out, "i")),
    )
}

fn reduction_text(plan: &Plan, r: Reduction, out: DType) -> String {
    let acc = plan.nodes.last().expect("plans have nodes").dtype();
    let root = plan.nodes.len() - 1;
    let a = register(acc);
    let code = reduce_code(r);
    let (mut src, index) = header(plan, "partial", &format!("Acc<{a}>* partials"));
    for l in 0..4 {
        src.line(format!("Acc<{a}> a{l} = identity<{code}, {a}>();"));
    }
    src.line("for (; i + 3 * stride < n; i += 4 * stride) {");
    emit_values(plan, &mut src, 4, index, "i");
    for l in 0..4 {
        src.line(format!(
            "a{l} = combine<{code}, {a}>(a{l}, lift<{code}, {a}>(v{root}_{l}, idx_{l}));"
        ));
    }
    src.line("}");
    src.line("for (; i < n; i += stride) {");
    emit_values(plan, &mut src, 1, index, "i");
    src.line(format!(
        "a0 = combine<{code}, {a}>(a0, lift<{code}, {a}>(v{root}_0, idx_0));"
    ));
    src.line("}");
    src.line(format!(
        "Acc<{a}> acc = combine<{code}, {a}>(combine<{code}, {a}>(a0, a1), combine<{code}, {a}>(a2, a3));"
    ));
    src.line(format!("acc = block_reduce<{code}, {a}>(acc);"));
    src.line("if (threadIdx.x == 0) partials[blockIdx.x] = acc;");
    src.text.push_str("}\n");
    let _ = writeln!(
        src.text,
        "{}extern \"C\" __global__ void finish(const Acc<{a}>* partials, long long count, {}* out, double divisor) {{\n    Out o; o.p = out; o.k = 0;\n    finish_reduction<{code}, {a}, Out>(partials, count, o, divisor);\n}}",
        store_struct(out, acc),
        storage(out),
    );
    format!("{PRELUDE}\n{REDUCE}\n{}", src.text)
}

/// The generated CUDA C of a full reduction (`:explain --source`).
pub fn reduction_source(r: Reduction, expr: &Expr, shape: &[usize]) -> String {
    let value = expr.clone().cast(r.accumulator(expr.dtype()));
    let plan = Plan::new(shape, &[&value], &[], None);
    reduction_text(&plan, r, r.result_dtype(expr.dtype()))
}

/// Bytes of one partial result (`Acc<A>`: a value and an index, aligned to 8).
fn partial_bytes(acc: DType) -> usize {
    acc.size().next_multiple_of(8) + 8
}

/// A full reduction on the gpu into a new 0-d buffer: the partial pass (the plan's values
/// computed inside it) and one block that finishes.
pub fn reduce_all(
    r: Reduction,
    expr: &Expr,
    shape: &[usize],
    divide_by: Option<f64>,
    out: DType,
) -> Result<Buffer> {
    let value = expr.clone().cast(r.accumulator(expr.dtype()));
    let plan = Plan::new(shape, &[&value], &[], None);
    let g = gpu()?;
    let key = {
        let mut k = plan.key(1 + reduce_code(r));
        k.push(out as u32);
        k
    };
    let found = kernels(
        g,
        key,
        "reduce",
        || reduction_text(&plan, r, out),
        &["partial", "finish"],
    )?;
    let (partial, finish) = (found[0], found[1]);
    let n = plan.size();
    let blocks = g.grid_for(n.div_ceil(4)).min(1024);
    let acc = value.dtype();
    let partials = g.alloc(blocks as usize * partial_bytes(acc), DType::U8)?;
    let result = Buffer::alloc(Device::Gpu, 1, out)?;
    let mut args = arguments(&plan);
    args.push(Param::Pointer(partials.device_pointer()));
    let name = format!("{}_partial", r.name());
    launch(g, partial, &name, n, blocks, BLOCK, &args)?;
    let finish_args = [
        Param::Pointer(partials.device_pointer()),
        Param::Index(blocks as i64),
        Param::Pointer(result.gpu().expect("gpu").device_pointer()),
        double_param(divide_by.unwrap_or(0.0)),
    ];
    launch(
        g,
        finish,
        &format!("{}_finish", r.name()),
        blocks as usize,
        1,
        1024,
        &finish_args,
    )?;
    Ok(result)
}

/// Lanes shorter than this are reduced one per thread; longer ones one per block.
const THREAD_LANES_BELOW: usize = 1024;

fn axis_text(plan: &Plan, r: Reduction, out: DType) -> String {
    let acc = plan.nodes.last().expect("plans have nodes").dtype();
    let root = plan.nodes.len() - 1;
    let a = register(acc);
    let code = reduce_code(r);
    let out_param = format!("{}* out, double divisor", storage(out));
    let mut text = format!("{PRELUDE}\n{REDUCE}\n{}", store_struct(out, acc));
    // One thread per output: `n` counts outputs here, `d_last` is the lane length.
    let lane = format!("d{}", plan.dims.len() - 1);
    let (mut src, index) = header(plan, "axis_threads", &out_param);
    src.line("for (; i < n; i += stride) {");
    src.line(format!("Acc<{a}> acc = identity<{code}, {a}>();"));
    src.line(format!("for ({index} j = 0; j < {lane}; ++j) {{"));
    emit_values(plan, &mut src, 1, index, &format!("i * {lane} + j"));
    src.line(format!(
        "acc = combine<{code}, {a}>(acc, lift<{code}, {a}>(v{root}_0, j));"
    ));
    src.line("}");
    src.line("Out o; o.p = out; o.k = i;");
    src.line(format!(
        "if ({code} == R_ARGMIN || {code} == R_ARGMAX) o.index(acc.i < 0 ? 0 : acc.i); else o.value(divided(acc.v, divisor));"
    ));
    src.line("}");
    src.text.push_str("}\n");
    text.push_str(&src.text);
    // One block per output.
    let (mut src, index) = header(plan, "axis_blocks", &out_param);
    src.line(format!("{index} k = blockIdx.x;"));
    src.line(format!("Acc<{a}> acc = identity<{code}, {a}>();"));
    src.line(format!(
        "for ({index} j = threadIdx.x; j < {lane}; j += blockDim.x) {{"
    ));
    emit_values(plan, &mut src, 1, index, &format!("k * {lane} + j"));
    src.line(format!(
        "acc = combine<{code}, {a}>(acc, lift<{code}, {a}>(v{root}_0, j));"
    ));
    src.line("}");
    src.line(format!("acc = block_reduce<{code}, {a}>(acc);"));
    src.line("if (threadIdx.x == 0) {");
    src.line("Out o; o.p = out; o.k = k;");
    src.line(format!(
        "if ({code} == R_ARGMIN || {code} == R_ARGMAX) o.index(acc.i < 0 ? 0 : acc.i); else o.value(divided(acc.v, divisor));"
    ));
    src.line("}");
    src.text.push_str("}\n");
    text.push_str(&src.text);
    text
}

/// The axes of `shape` in order, with `axis` moved last.
fn axis_last(ndim: usize, axis: usize) -> Vec<usize> {
    let mut order: Vec<usize> = (0..ndim).filter(|&a| a != axis).collect();
    order.push(axis);
    order
}

/// A reduction along `axis` on the gpu into a new C-ordered buffer (the axis removed).
pub fn reduce_axis(
    r: Reduction,
    expr: &Expr,
    shape: &[usize],
    axis: usize,
    divide_by: Option<f64>,
    out: DType,
) -> Result<Buffer> {
    let value = expr.clone().cast(r.accumulator(expr.dtype()));
    let order = axis_last(shape.len(), axis);
    let plan = Plan::new(shape, &[&value], &[], Some(&order));
    let lane = shape[axis];
    let outputs = shape.iter().product::<usize>() / lane.max(1);
    let result = Buffer::alloc(Device::Gpu, outputs, out)?;
    if outputs == 0 {
        return Ok(result);
    }
    let g = gpu()?;
    let mut key = plan.key(20 + reduce_code(r));
    key.push(out as u32);
    let found = kernels(
        g,
        key,
        "reduce_axis",
        || axis_text(&plan, r, out),
        &["axis_threads", "axis_blocks"],
    )?;
    let mut args = arguments(&plan);
    // `n` of these kernels counts outputs.
    args[0] = Param::Index(outputs as i64);
    args.push(Param::Pointer(result.gpu().expect("gpu").device_pointer()));
    args.push(double_param(divide_by.unwrap_or(0.0)));
    let name = format!("{}_axis", r.name());
    if lane < THREAD_LANES_BELOW || outputs >= g.multiprocessors as usize * 64 {
        launch(
            g,
            found[0],
            &name,
            plan.size(),
            g.grid_for(outputs),
            BLOCK,
            &args,
        )?;
    } else {
        launch(
            g,
            found[1],
            &name,
            plan.size(),
            outputs as u32,
            BLOCK,
            &args,
        )?;
    }
    Ok(result)
}

fn double_param(v: f64) -> Param {
    let mut bytes = [0u8; 16];
    bytes[..8].copy_from_slice(&v.to_le_bytes());
    Param::Value(bytes)
}

/// Elements of a flat running sum each block scans (three launches: block totals, a scan of
/// the totals, each block's scan from the total before it).
const SCAN_CHUNK: usize = 2048;
/// Elements each thread of a flat scan's last pass holds (1024 threads cover a chunk). Measured
/// on an H200 (1e8 and 1e9 f64): 2 items, 0.88× CuPy's time; 4 items, 1.2×; 8, 1.4× — a
/// thread's consecutive items are strided loads across its warp, so fewer is faster, down to
/// 1, where the block scans' cost wins (1.12×).
const SCAN_ITEMS: usize = 2;

fn scan_text(plan: &Plan, out: DType, flat: bool, product: bool) -> String {
    let acc = plan.nodes.last().expect("plans have nodes").dtype();
    let root = plan.nodes.len() - 1;
    let a = register(acc);
    // The running operation and its identity (named `zero` for the sum).
    let (combine, zero) = match product {
        false => ("op_add", format!("cvt<{a}>(false)")),
        true => ("op_multiply", format!("cvt<{a}>(true)")),
    };
    let mut text = format!("{PRELUDE}\n");
    let out_ty = storage(out);
    let put = |v: &str| store(out, &convert(acc, out, v));
    if !flat {
        // One thread walks each line; `n` counts lines and the last dim is the scanned axis.
        let lane = format!("d{}", plan.dims.len() - 1);
        let (mut src, index) = header(plan, "scan_lines", &format!("{out_ty}* out"));
        src.line("for (; i < n; i += stride) {");
        src.line(format!("{a} running = {zero};"));
        src.line(format!("for ({index} j = 0; j < {lane}; ++j) {{"));
        emit_values(plan, &mut src, 1, index, &format!("i * {lane} + j"));
        src.line(format!("running = {combine}(running, v{root}_0);"));
        src.line(format!("out[i * {lane} + j] = {};", put("running")));
        src.line("}");
        src.line("}");
        src.text.push_str("}\n");
        text.push_str(&src.text);
        return text;
    }
    let _ = writeln!(
        text,
        "// The inclusive scan of x over the block (all threads call it; blockDim a multiple of 32),
// left in shared[threadIdx.x] too: warp shuffles, then a scan of the warps' totals.
__device__ {a} block_inclusive_scan({a} x, {a} *shared) {{
    static_assert(sizeof({a}) % 4 == 0, \"shuffled as 32-bit words\");
    __shared__ {a} warps[32];
    int t = threadIdx.x, lane = t & 31, warp = t >> 5;
    {a} v = x;
    for (int d = 1; d < 32; d <<= 1) {{
        {a} up = v;
        unsigned int *w = reinterpret_cast<unsigned int *>(&up);
        for (int k = 0; k < (int)(sizeof({a}) / 4); ++k) w[k] = __shfl_up_sync(0xffffffffu, w[k], d);
        if (lane >= d) v = {combine}(up, v);
    }}
    if (lane == 31) warps[warp] = v;
    __syncthreads();
    if (warp == 0) {{
        int count = blockDim.x >> 5;
        {a} s = lane < count ? warps[lane] : {zero};
        for (int d = 1; d < 32; d <<= 1) {{
            {a} up = s;
            unsigned int *w = reinterpret_cast<unsigned int *>(&up);
            for (int k = 0; k < (int)(sizeof({a}) / 4); ++k) w[k] = __shfl_up_sync(0xffffffffu, w[k], d);
            if (lane >= d) s = {combine}(up, s);
        }}
        if (lane < count) warps[lane] = s;
    }}
    __syncthreads();
    if (warp > 0) v = {combine}(warps[warp - 1], v);
    shared[t] = v;
    __syncthreads();
    return v;
}}"
    );
    let (mut src, index) = header(plan, "scan_totals", &format!("{a}* totals"));
    src.line(format!("__shared__ {a} shared[1024];"));
    src.line(format!(
        "{index} start = ({index})blockIdx.x * {SCAN_CHUNK};"
    ));
    src.line(format!(
        "{index} end = start + {SCAN_CHUNK} < n ? start + {SCAN_CHUNK} : n;"
    ));
    src.line(format!("{a} sum = {zero};"));
    src.line(format!(
        "for ({index} j = start + threadIdx.x; j < end; j += blockDim.x) {{"
    ));
    emit_values(plan, &mut src, 1, index, "j");
    src.line(format!("sum = {combine}(sum, v{root}_0);"));
    src.line("}");
    src.line("shared[threadIdx.x] = sum;");
    src.line("__syncthreads();");
    // A tree over the block's partial sums (in order, so that only association changes).
    src.line("for (int half = blockDim.x / 2; half > 0; half >>= 1) {");
    src.line(format!(
        "if (threadIdx.x < half) shared[threadIdx.x] = {combine}(shared[threadIdx.x], shared[threadIdx.x + half]);"
    ));
    src.line("__syncthreads();");
    src.line("}");
    src.line("if (threadIdx.x == 0) totals[blockIdx.x] = shared[0];");
    src.text.push_str("}\n");
    text.push_str(&src.text);
    let _ = writeln!(
        text,
        "extern \"C\" __global__ void scan_offsets({a}* totals, long long count) {{
    __shared__ {a} shared[1024];
    __shared__ {a} last;
    {a} carry = {zero};
    for (long long base = 0; base < count; base += blockDim.x) {{
        long long k = base + threadIdx.x;
        {a} x = k < count ? totals[k] : {zero};
        {a} inclusive = block_inclusive_scan(x, shared);
        {a} before = threadIdx.x > 0 ? shared[threadIdx.x - 1] : {zero};
        __syncthreads();
        if (k < count) totals[k] = {combine}(carry, before);
        if (threadIdx.x == blockDim.x - 1) last = inclusive;
        __syncthreads();
        carry = {combine}(carry, last);
        __syncthreads();
    }}
}}"
    );
    let (mut src, index) = header(
        plan,
        "scan_apply",
        &format!("const {a}* offsets, {out_ty}* out"),
    );
    // Each thread scans SCAN_ITEMS consecutive elements in registers; one block scan of the
    // threads' totals then places them.
    src.line(format!("__shared__ {a} shared[1024];"));
    src.line(format!(
        "{index} start = ({index})blockIdx.x * {SCAN_CHUNK};"
    ));
    src.line(format!(
        "{index} end = start + {SCAN_CHUNK} < n ? start + {SCAN_CHUNK} : n;"
    ));
    src.line(format!(
        "{index} first = start + ({index})threadIdx.x * {SCAN_ITEMS};"
    ));
    src.line(format!("{a} items[{SCAN_ITEMS}];"));
    src.line(format!("{a} running = {zero};"));
    src.line(format!("for (int r = 0; r < {SCAN_ITEMS}; ++r) {{"));
    src.line(format!("{index} j = first + r;"));
    src.line(format!("{a} x = {zero};"));
    src.line("if (j < end) {");
    emit_values(plan, &mut src, 1, index, "j");
    src.line(format!("x = v{root}_0;"));
    src.line("}");
    src.line(format!("running = {combine}(running, x);"));
    src.line("items[r] = running;");
    src.line("}");
    src.line("block_inclusive_scan(running, shared);");
    src.line(format!(
        "{a} before = {combine}(offsets[blockIdx.x], threadIdx.x > 0 ? shared[threadIdx.x - 1] : {zero});"
    ));
    src.line(format!("for (int r = 0; r < {SCAN_ITEMS}; ++r) {{"));
    src.line(format!("{index} j = first + r;"));
    src.line(format!(
        "if (j < end) out[j] = {};",
        put(&format!("{combine}(before, items[r])"))
    ));
    src.line("}");
    src.text.push_str("}\n");
    text.push_str(&src.text);
    text
}

/// A running sum (or, with `product`, product) along `axis` (of a plan of `shape`) on the gpu,
/// into a new C-ordered buffer of `out`; `accumulate` is the dtype it computes in.
pub fn scan(
    expr: &Expr,
    shape: &[usize],
    axis: usize,
    accumulate: DType,
    out: DType,
    product: bool,
) -> Result<Buffer> {
    let value = expr.clone().cast(accumulate);
    let size: usize = shape.iter().product();
    let result = Buffer::alloc(Device::Gpu, size, out)?;
    if size == 0 {
        return Ok(result);
    }
    let g = gpu()?;
    let out_pointer = result.gpu().expect("gpu").device_pointer();
    if shape.len() == 1 {
        let plan = Plan::new(shape, &[&value], &[], None);
        let mut key = plan.key(40);
        key.extend([out as u32, product as u32]);
        let found = kernels(
            g,
            key,
            "scan",
            || scan_text(&plan, out, true, product),
            &["scan_totals", "scan_offsets", "scan_apply"],
        )?;
        let chunks = size.div_ceil(SCAN_CHUNK);
        let totals = g.alloc(chunks, accumulate)?;
        let mut args = arguments(&plan);
        args.push(Param::Pointer(totals.device_pointer()));
        launch(
            g,
            found[0],
            "scan_totals",
            size,
            chunks as u32,
            BLOCK,
            &args,
        )?;
        let offsets_args = [
            Param::Pointer(totals.device_pointer()),
            Param::Index(chunks as i64),
        ];
        launch(g, found[1], "scan_offsets", chunks, 1, 1024, &offsets_args)?;
        let mut args = arguments(&plan);
        args.push(Param::Pointer(totals.device_pointer()));
        args.push(Param::Pointer(out_pointer));
        return launch(g, found[2], "scan_apply", size, chunks as u32, 1024, &args).map(|_| result);
    }
    // Along an axis of a larger array: the result is written in the permuted (axis-last) order
    // and viewed back through the original axes by the caller.
    let order = axis_last(shape.len(), axis);
    let plan = Plan::new(shape, &[&value], &[], Some(&order));
    let mut key = plan.key(41);
    key.extend([out as u32, product as u32]);
    let found = kernels(
        g,
        key,
        "scan",
        || scan_text(&plan, out, false, product),
        &["scan_lines"],
    )?;
    let lines = size / shape[axis];
    let mut args = arguments(&plan);
    args[0] = Param::Index(lines as i64);
    args.push(Param::Pointer(out_pointer));
    launch(
        g,
        found[0],
        "scan_lines",
        size,
        g.grid_for(lines),
        BLOCK,
        &args,
    )?;
    Ok(result)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::base::dtype::ALL;
    use crate::plan::resolve::{self, loops};
    use crate::plan::table::OPS;

    /// A generated kernel renamed so that many can share one compilation.
    fn renamed(text: &str, k: usize) -> String {
        let body = text
            .strip_prefix(PRELUDE)
            .unwrap_or(text)
            .trim_start_matches('\n');
        let body = body.strip_prefix(REDUCE).unwrap_or(body);
        let mut out = body.to_string();
        for name in [
            "elementwise(",
            "partial(",
            "finish(",
            "axis_threads(",
            "axis_blocks(",
            "scan_totals(",
            "scan_offsets(",
            "scan_apply(",
            "scan_lines(",
        ] {
            out = out.replace(&format!("void {name}"), &format!("void k{k}_{name}"));
        }
        out.replace("struct Out ", &format!("struct Out{k} "))
            .replace("Out o;", &format!("Out{k} o;"))
            .replace(", Out>(", &format!(", Out{k}>("))
            .replace("block_inclusive_scan", &format!("block_inclusive_scan{k}"))
    }

    fn leaf(dtype: DType, layout: Layout) -> Expr {
        let size = layout.shape.iter().product::<usize>().max(64);
        Expr::leaf(Buffer::alloc(Device::Cpu, size, dtype).unwrap(), layout)
    }

    fn elementwise_case(shape: &[usize], expr: &Expr, out_layout: Layout) -> String {
        let out = Buffer::alloc(Device::Cpu, 64, expr.dtype()).unwrap();
        elementwise_text(&Plan::new(shape, &[expr], &[(out, out_layout)], None))
    }

    /// Every row and loop of the table, every cast, every reduction and scan accumulator, and
    /// each kind of operand access, generated and compiled with NVRTC (no gpu needed).
    #[test]
    fn generated_kernels_compile() {
        if !crate::device::gpu::modules::nvrtc_or_skip() {
            return;
        }
        let shape = [8];
        let flat = Layout::contiguous(&shape);
        let mut texts = Vec::new();
        for row in OPS {
            let signatures: Vec<resolve::Signature> = match row.op {
                table::Op::Where | table::Op::Clip => ALL
                    .iter()
                    .map(|&d| resolve::Signature {
                        inputs: if row.op == table::Op::Where {
                            [DType::Bool, d, d].into_iter().collect()
                        } else {
                            [d, d, d].into_iter().collect()
                        },
                        output: d,
                    })
                    .collect(),
                _ => loops(row).collect(),
            };
            for sig in signatures {
                let args: Vec<Expr> = sig.inputs.iter().map(|&d| leaf(d, flat.clone())).collect();
                let expr = Expr::apply(row.op, args, sig.output);
                texts.push(elementwise_case(&shape, &expr, flat.clone()));
            }
        }
        for &from in &ALL {
            for &to in &ALL {
                let expr = leaf(from, flat.clone()).cast(to);
                texts.push(elementwise_case(&shape, &expr, flat.clone()));
            }
        }
        // Strided, broadcast and scalar operands, a strided output, float16 and complex scalars.
        let matrix = [4, 6];
        let strided = Layout {
            shape: smallvec::smallvec![4, 6],
            strides: smallvec::smallvec![12, 2],
            offset: 1,
        };
        let row_broadcast = Layout {
            shape: smallvec::smallvec![4, 6],
            strides: smallvec::smallvec![0, 1],
            offset: 0,
        };
        let uniform = Layout {
            shape: smallvec::smallvec![4, 6],
            strides: smallvec::smallvec![0, 0],
            offset: 3,
        };
        for dtype in [DType::F64, DType::F16, DType::C64, DType::U8] {
            let sum = Expr::apply(
                table::Op::Add,
                vec![
                    leaf(dtype, strided.clone()),
                    Expr::apply(
                        table::Op::Multiply,
                        vec![
                            leaf(dtype, row_broadcast.clone()),
                            leaf(dtype, uniform.clone()),
                        ],
                        dtype,
                    ),
                ],
                dtype,
            );
            let scaled = Expr::apply(
                table::Op::Multiply,
                vec![sum, Expr::scalar(Scalar::Int(2), dtype)],
                dtype,
            );
            texts.push(elementwise_case(&matrix, &scaled, strided.clone()));
        }
        for r in [
            Reduction::Sum,
            Reduction::Prod,
            Reduction::Min,
            Reduction::Max,
            Reduction::ArgMin,
            Reduction::ArgMax,
            Reduction::Any,
            Reduction::All,
        ] {
            for &dtype in &ALL {
                let x = leaf(dtype, Layout::contiguous(&matrix));
                let out = r.result_dtype(dtype);
                let value = x.clone().cast(r.accumulator(dtype));
                let plan = Plan::new(&matrix, &[&value], &[], None);
                texts.push(reduction_text(&plan, r, out));
                let axis = Plan::new(&matrix, &[&value], &[], Some(&axis_last(2, 0)));
                texts.push(axis_text(&axis, r, out));
            }
        }
        for &dtype in &ALL {
            let accumulate = Reduction::Sum.accumulator(dtype);
            let out = Reduction::Sum.result_dtype(dtype);
            for product in [false, true] {
                let value = leaf(dtype, Layout::contiguous(&[24])).cast(accumulate);
                let flat = Plan::new(&[24], &[&value], &[], None);
                texts.push(scan_text(&flat, out, true, product));
                let value = leaf(dtype, Layout::contiguous(&matrix)).cast(accumulate);
                let lines = Plan::new(&matrix, &[&value], &[], Some(&axis_last(2, 1)));
                texts.push(scan_text(&lines, out, false, product));
            }
        }
        let mut source = format!("{PRELUDE}\n{REDUCE}\n");
        for (k, text) in texts.iter().enumerate() {
            source.push_str(&renamed(text, k));
        }
        let image = crate::device::gpu::modules::compile("generated", &source, "sm_90")
            .unwrap_or_else(|e| panic!("{}", e.message));
        assert!(image.len() > 10_000);
    }

    /// A statement's kernel, once compiled, is found again in at most 5 µs: the plan made, its
    /// key computed and looked up in the cache (what every gpu statement pays before its launch).
    #[test]
    fn a_cached_kernel_is_found_within_5_microseconds() {
        let Ok(g) = gpu() else {
            assert!(
                std::env::var_os("ARRSH_REQUIRE_GPU").is_none(),
                "needs a gpu and ARRSH_REQUIRE_GPU is set"
            );
            println!("skipped: no gpu");
            return;
        };
        let shape = [1000];
        let layout = Layout::contiguous(&shape);
        let x = Expr::leaf(
            Buffer::alloc(Device::Gpu, 1000, DType::F64).unwrap(),
            layout.clone(),
        );
        let y = Expr::apply(
            table::Op::Add,
            [
                Expr::apply(
                    table::Op::Multiply,
                    [x, Expr::scalar(Scalar::Int(5), DType::F64)],
                    DType::F64,
                ),
                Expr::scalar(Scalar::Int(1), DType::F64),
            ],
            DType::F64,
        );
        let out = Buffer::alloc(Device::Gpu, 1000, DType::F64).unwrap();
        let find = || {
            let plan = Plan::new(&shape, &[&y], &[(out.clone(), layout.clone())], None);
            kernels(
                g,
                plan.key(0),
                "elementwise",
                || elementwise_text(&plan),
                &["elementwise"],
            )
            .unwrap()
        };
        find();
        let lookups = 10_000;
        let start = std::time::Instant::now();
        for _ in 0..lookups {
            std::hint::black_box(find());
        }
        let each = start.elapsed().as_secs_f64() / lookups as f64;
        println!("a cached kernel found in {:.2} µs", each * 1e6);
        assert!(each <= 5e-6, "{each} s");
    }

    #[test]
    fn hand_written_modules_compile() {
        if !crate::device::gpu::modules::nvrtc_or_skip() {
            return;
        }
        for (name, source) in crate::device::gpu::modules::hand_written() {
            let image = crate::device::gpu::modules::compile(name, source, "sm_90")
                .unwrap_or_else(|e| panic!("{}", e.message));
            assert!(image.len() > 1000, "{name}: {} bytes", image.len());
        }
    }
}
