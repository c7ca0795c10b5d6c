//! Plans are small values: a DAG of table rows over leaves (array operands, each a buffer seen
//! through a layout broadcast to the plan's shape) and host scalars. Nodes are shared by `Rc`,
//! so a value used twice (`x * x`) is one node, computed once per element.

use std::rc::Rc;

use super::table::{self, Op};
use crate::base::layout::Layout;
use crate::base::{DType, Scalar};
use crate::device::Buffer;

#[derive(Clone, Debug)]
pub struct Expr(pub(crate) Rc<Node>);

/// A node's arguments (a row has at most three), kept in the node.
pub type Args = smallvec::SmallVec<[Expr; 3]>;

#[derive(Debug)]
pub struct Node {
    pub dtype: DType,
    pub kind: NodeKind,
    /// Where the statement that made this node is (for `:time`, `--profile`, `:explain`).
    pub position: u64,
}

#[derive(Debug)]
pub enum NodeKind {
    /// Elements of a buffer: `layout` has the plan's shape (broadcast axes have stride 0).
    Leaf { buffer: Buffer, layout: Layout },
    /// A host scalar, converted to the node's dtype when the plan runs.
    Scalar(Scalar),
    /// NumPy's `astype` of the argument to the node's dtype.
    Cast(Expr),
    /// A row of the table applied to arguments already of its loop's input dtypes.
    Apply { op: Op, args: Args },
}

impl Expr {
    fn new(dtype: DType, kind: NodeKind) -> Expr {
        Expr(Rc::new(Node {
            dtype,
            kind,
            position: super::current_position(),
        }))
    }

    pub fn leaf(buffer: Buffer, layout: Layout) -> Expr {
        Expr::new(buffer.dtype(), NodeKind::Leaf { buffer, layout })
    }

    pub fn scalar(value: Scalar, dtype: DType) -> Expr {
        Expr::new(dtype, NodeKind::Scalar(value))
    }

    /// This value as `dtype` (itself when it already is).
    pub fn cast(self, dtype: DType) -> Expr {
        if self.dtype() == dtype {
            return self;
        }
        match &self.0.kind {
            // A host scalar is converted once, where the plan runs, not per element.
            NodeKind::Scalar(s) => Expr::scalar(*s, dtype),
            _ => Expr::new(dtype, NodeKind::Cast(self)),
        }
    }

    pub fn apply(op: Op, args: impl IntoIterator<Item = Expr>, output: DType) -> Expr {
        let args = args.into_iter().collect();
        Expr::new(output, NodeKind::Apply { op, args })
    }

    pub fn dtype(&self) -> DType {
        self.0.dtype
    }

    pub fn node(&self) -> &Node {
        &self.0
    }

    pub fn id(&self) -> usize {
        Rc::as_ptr(&self.0) as usize
    }

    /// The nodes of this DAG (shared nodes once), each after its arguments.
    pub fn topological(roots: &[&Expr]) -> Vec<Expr> {
        let mut order = Vec::with_capacity(16);
        for root in roots {
            visit(root, &mut order);
        }
        order
    }

    /// Calls `f` on every path to a node of this DAG (a shared node once per path to it), in
    /// no particular order, and stops after `budget` calls: false when it stopped early. A walk
    /// that needs no record of the nodes seen, for the small DAGs of most statements.
    pub fn walk(&self, budget: &mut usize, f: &mut impl FnMut(&Expr)) -> bool {
        if *budget == 0 {
            return false;
        }
        *budget -= 1;
        f(self);
        match &self.0.kind {
            NodeKind::Cast(arg) => arg.walk(budget, f),
            NodeKind::Apply { args, .. } => args.iter().all(|a| a.walk(budget, f)),
            NodeKind::Leaf { .. } | NodeKind::Scalar(_) => true,
        }
    }

    /// The generation of the gpu context that one of this DAG's leaves was lost with, if any.
    pub fn lost_generation(&self) -> Option<u32> {
        Expr::topological(&[self])
            .iter()
            .find_map(|e| match &e.0.kind {
                NodeKind::Leaf { buffer, .. } => buffer.lost_generation(),
                _ => None,
            })
    }

    /// A readable name of the operation a node applies (`add`, `astype f32`).
    pub fn describe(&self) -> String {
        match &self.0.kind {
            NodeKind::Apply { op, .. } => table::row(*op).name.to_string(),
            NodeKind::Cast(_) => format!("astype {}", self.dtype()),
            NodeKind::Leaf { .. } => "load".to_string(),
            NodeKind::Scalar(_) => "scalar".to_string(),
        }
    }
}

/// A node is in `order` once it is visited; a linear search beats hashing at the sizes batches
/// allow (a few dozen nodes), and no node is reached again while its own arguments are visited.
fn visit(e: &Expr, order: &mut Vec<Expr>) {
    if order.iter().any(|o| o.id() == e.id()) {
        return;
    }
    match &e.0.kind {
        NodeKind::Cast(arg) => visit(arg, order),
        NodeKind::Apply { args, .. } => args.iter().for_each(|a| visit(a, order)),
        NodeKind::Leaf { .. } | NodeKind::Scalar(_) => {}
    }
    order.push(e.clone());
}

fn is_operation(e: &Expr) -> bool {
    matches!(e.0.kind, NodeKind::Apply { .. } | NodeKind::Cast(_))
}

/// How many table operations (and casts) `nodes` (a topological order) hold: what fusion saves
/// launches of.
pub fn operation_count(nodes: &[Expr]) -> usize {
    nodes.iter().filter(|e| is_operation(e)).count()
}

/// The positions of the statements that made the operations among `nodes`.
pub fn positions(nodes: &[Expr]) -> Vec<u64> {
    let mut positions: Vec<u64> = nodes
        .iter()
        .filter(|e| is_operation(e))
        .map(|e| e.0.position)
        .collect();
    positions.sort_unstable();
    positions.dedup();
    positions
}

/// The leaves among `nodes` (each buffer and layout once).
pub fn leaves(nodes: &[Expr]) -> impl Iterator<Item = &Expr> {
    nodes
        .iter()
        .filter(|e| matches!(e.0.kind, NodeKind::Leaf { .. }))
}
