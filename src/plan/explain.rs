//! What `:explain` shows: each pass a statement's plans ran — its operations and their dtypes,
//! what it read and wrote, and, with `--source`, the CUDA C generated for it (generated on any
//! machine: code generation needs no gpu).

use std::cell::RefCell;

use super::expr::{Expr, NodeKind};
use super::reduce::Reduction;
use crate::base::human_bytes;
use crate::base::layout::Layout;
use crate::device::{Buffer, Device};

/// One kernel (on the gpu) or pass over memory (on the cpu).
pub struct Pass {
    pub device: Device,
    pub shape: Vec<usize>,
    /// `elementwise`, or the reduction that consumes the values.
    pub kind: String,
    pub operations: Vec<String>,
    pub inputs: Vec<(Buffer, Layout)>,
    /// What it wrote: new arrays' buffers, or the targets of in-place writes.
    pub outputs: Vec<(Buffer, Layout)>,
    /// Positions of the statements whose operations it ran.
    pub positions: Vec<u64>,
    pub source: Option<String>,
}

struct Recording {
    source: bool,
    passes: Vec<Pass>,
}

thread_local! {
    static RECORDING: RefCell<Option<Recording>> = const { RefCell::new(None) };
}

/// Starts recording the passes plans run (`source`: with their generated CUDA C).
pub fn start(source: bool) {
    RECORDING.with(|r| {
        *r.borrow_mut() = Some(Recording {
            source,
            passes: Vec::new(),
        })
    });
}

/// Stops recording and returns what ran.
pub fn finish() -> Vec<Pass> {
    RECORDING.with(|r| r.borrow_mut().take().map(|r| r.passes).unwrap_or_default())
}

fn recording() -> Option<bool> {
    RECORDING.with(|r| r.borrow().as_ref().map(|r| r.source))
}

fn push(pass: Pass) {
    RECORDING.with(|r| {
        if let Some(r) = r.borrow_mut().as_mut() {
            r.passes.push(pass);
        }
    });
}

fn describe_nodes(roots: &[&Expr]) -> (Vec<String>, Vec<(Buffer, Layout)>) {
    let mut operations = Vec::new();
    let mut inputs: Vec<(Buffer, Layout)> = Vec::new();
    for node in Expr::topological(roots) {
        match &node.node().kind {
            NodeKind::Leaf { buffer, layout } => {
                if !inputs
                    .iter()
                    .any(|(b, l)| b.same_buffer(buffer) && l == layout)
                {
                    inputs.push((buffer.clone(), layout.clone()));
                }
            }
            NodeKind::Scalar(_) => {}
            NodeKind::Cast(arg) => {
                operations.push(format!("astype {} → {}", arg.dtype(), node.dtype()))
            }
            NodeKind::Apply { args, .. } => {
                let types: Vec<&str> = args.iter().map(|a| a.dtype().name()).collect();
                operations.push(format!(
                    "{} {} → {}",
                    node.describe(),
                    types.join("·"),
                    node.dtype()
                ));
            }
        }
    }
    (operations, inputs)
}

pub(super) fn record(device: Device, shape: &[usize], outputs: &[(Buffer, Layout, Expr)]) {
    let Some(with_source) = recording() else {
        return;
    };
    let roots: Vec<&Expr> = outputs.iter().map(|(_, _, e)| e).collect();
    let (operations, inputs) = describe_nodes(&roots);
    push(Pass {
        device,
        shape: shape.to_vec(),
        kind: "elementwise".into(),
        operations,
        inputs,
        outputs: outputs
            .iter()
            .map(|(b, l, _)| (b.clone(), l.clone()))
            .collect(),
        positions: super::expr::positions(&Expr::topological(&roots)).into_vec(),
        source: with_source.then(|| super::cuda::elementwise_source(shape, outputs)),
    });
}

pub(super) fn record_reduction(device: Device, shape: &[usize], expr: &Expr, r: Reduction) {
    let Some(with_source) = recording() else {
        return;
    };
    let (operations, inputs) = describe_nodes(&[expr]);
    push(Pass {
        device,
        shape: shape.to_vec(),
        kind: r.name().to_string(),
        operations,
        inputs,
        outputs: Vec::new(),
        positions: super::expr::positions(&Expr::topological(&[expr])).into_vec(),
        source: with_source.then(|| super::cuda::reduction_source(r, expr, shape)),
    });
}

/// A kernel the user wrote (`elementwise_kernel`, `reduction_kernel`, `raw_kernel`): one pass.
pub fn record_user_kernel(
    kind: String,
    shape: &[usize],
    inputs: Vec<(Buffer, Layout)>,
    outputs: Vec<(Buffer, Layout)>,
    source: &str,
) {
    let Some(with_source) = recording() else {
        return;
    };
    push(Pass {
        device: Device::Gpu,
        shape: shape.to_vec(),
        kind,
        operations: Vec::new(),
        inputs,
        outputs,
        positions: vec![super::current_position()],
        source: with_source.then(|| source.to_string()),
    });
}

/// `x` for an array of the session, else `a new f64 array` / `a f64[1000] array`.
pub fn describe_buffer(
    buffer: &Buffer,
    layout: &Layout,
    name: &dyn Fn(&Buffer) -> Option<String>,
) -> String {
    let bytes = layout.size() * buffer.dtype().size();
    let shape = crate::base::layout::shape_text(&layout.shape);
    match name(buffer) {
        Some(n) => format!(
            "{n} ({} {shape}, {})",
            buffer.dtype(),
            human_bytes(bytes as f64)
        ),
        None => format!("{} {shape} ({})", buffer.dtype(), human_bytes(bytes as f64)),
    }
}

impl Pass {
    /// Bytes read from its inputs and written to its outputs (broadcast inputs count once).
    pub fn traffic(&self) -> (usize, usize) {
        let read = self
            .inputs
            .iter()
            .map(|(b, l)| distinct_elements(l) * b.dtype().size())
            .sum();
        let written = self
            .outputs
            .iter()
            .map(|(b, l)| l.size() * b.dtype().size())
            .sum();
        (read, written)
    }
}

/// Elements a layout reaches (axes of stride 0 reach one).
fn distinct_elements(layout: &Layout) -> usize {
    layout
        .shape
        .iter()
        .zip(&layout.strides)
        .map(|(&n, &s)| if s == 0 { 1 } else { n })
        .product()
}
