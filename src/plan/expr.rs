//! Plans are small values: a DAG of table rows over leaves (array operands, each a buffer seen
//! through a layout broadcast to the plan's shape) and host scalars. Nodes are shared by `Rc`,
//! so a value used twice (`x * x`) is one node, computed once per element.

use std::cell::{Cell, RefCell};
use std::rc::Rc;

use super::table::{self, Op};
use crate::base::layout::Layout;
use crate::base::{DType, Scalar};
use crate::device::Buffer;

#[derive(Clone, Debug)]
pub struct Expr(pub(crate) Rc<Node>);

/// Host scalars' nodes kept for statements run again (`Expr::scalar`), one per slot of a hash.
const KEPT_SCALARS: usize = 16;

thread_local! {
    static RECENT_SCALARS: RefCell<[Option<Expr>; KEPT_SCALARS]> =
        RefCell::new(std::array::from_fn(|_| None));
}

/// A node's arguments (a row has at most three), kept in the node.
pub type Args = smallvec::SmallVec<[Expr; 3]>;

/// The nodes of a DAG in topological order, kept off the heap for most statements' DAGs.
pub type Nodes = smallvec::SmallVec<[Expr; 16]>;

/// Statements' positions, kept off the heap for a pass that one or two statements made.
pub type Positions = smallvec::SmallVec<[u64; 2]>;

#[derive(Debug)]
pub struct Node {
    pub dtype: DType,
    pub kind: NodeKind,
    /// Where the statement that made this node is (for `:time`, `--profile`, `:explain`).
    pub position: u64,
    /// Operations and leaves of this DAG counted once per path to them (so at least as many as
    /// it holds): what a batch checks its limits with, without walking the DAG.
    pub paths: PathCounts,
    /// The last pass of `visit_new_leaves` (its mark) that reached this node.
    seen: Cell<u64>,
}

#[derive(Clone, Copy, Debug, Default)]
pub struct PathCounts {
    pub operations: usize,
    pub leaves: usize,
}

impl PathCounts {
    fn of(kind: &NodeKind) -> PathCounts {
        let args: &[Expr] = match kind {
            NodeKind::Leaf { .. } => {
                return PathCounts {
                    operations: 0,
                    leaves: 1,
                }
            }
            NodeKind::Scalar(_) => return PathCounts::default(),
            NodeKind::Cast(arg) => std::slice::from_ref(arg),
            NodeKind::Apply { args, .. } => args,
        };
        let own = PathCounts {
            operations: 1,
            leaves: 0,
        };
        args.iter().fold(own, |total, a| PathCounts {
            operations: total.operations.saturating_add(a.0.paths.operations),
            leaves: total.leaves.saturating_add(a.0.paths.leaves),
        })
    }
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
            paths: PathCounts::of(&kind),
            kind,
            position: super::current_position(),
            seen: Cell::new(0),
        }))
    }

    pub fn leaf(buffer: Buffer, layout: Layout) -> Expr {
        Expr::new(buffer.dtype(), NodeKind::Leaf { buffer, layout })
    }

    /// A host scalar's node: the one made last for this value and dtype when it is still at
    /// hand, as a statement run again (`y = x * 5 + 1` in a loop) asks for the same constants.
    /// Sharing it is safe: a scalar node holds no buffer, and only operations' positions are read.
    pub fn scalar(value: Scalar, dtype: DType) -> Expr {
        let slot = value.bits_hash(dtype) as usize % KEPT_SCALARS;
        RECENT_SCALARS.with(|recent| {
            let mut recent = recent.borrow_mut();
            if let Some(e) = &recent[slot] {
                if let NodeKind::Scalar(kept) = &e.0.kind {
                    if e.dtype() == dtype && kept.identical(&value) {
                        return e.clone();
                    }
                }
            }
            let e = Expr::new(dtype, NodeKind::Scalar(value));
            recent[slot] = Some(e.clone());
            e
        })
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
        Expr::apply_args(op, args.into_iter().collect(), output)
    }

    /// `apply` of arguments already gathered (the array layer's path, once per operation).
    pub fn apply_args(op: Op, args: Args, output: DType) -> Expr {
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
    pub fn topological(roots: &[&Expr]) -> Nodes {
        let mut order = Nodes::new();
        for root in roots {
            visit(root, &mut order);
        }
        order
    }

    /// Calls `f` on each leaf of this DAG that no earlier call with the same `mark` reached,
    /// and on nothing below a node such a call reached: a batch notes the reads of each new
    /// expression without going over the parts of it that earlier statements made.
    pub fn visit_new_leaves(&self, mark: u64, f: &mut impl FnMut(&Expr)) {
        if self.0.seen.replace(mark) == mark {
            return;
        }
        match &self.0.kind {
            NodeKind::Leaf { .. } => f(self),
            NodeKind::Cast(arg) => arg.visit_new_leaves(mark, f),
            NodeKind::Apply { args, .. } => args.iter().for_each(|a| a.visit_new_leaves(mark, f)),
            NodeKind::Scalar(_) => {}
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
fn visit(e: &Expr, order: &mut Nodes) {
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
pub fn positions(nodes: &[Expr]) -> Positions {
    let mut positions: Positions = nodes
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::device::Device;

    fn leaf(len: usize) -> Expr {
        let buffer = Buffer::alloc(Device::Cpu, len, DType::F64).unwrap();
        Expr::leaf(buffer, Layout::contiguous(&[len]))
    }

    #[test]
    fn path_counts_count_a_shared_node_once_per_path() {
        let x = leaf(4);
        let square = Expr::apply(Op::Multiply, [x.clone(), x], DType::F64);
        let plus_one = Expr::apply(
            Op::Add,
            [square.clone(), Expr::scalar(Scalar::Int(1), DType::F64)],
            DType::F64,
        );
        let twice = Expr::apply(Op::Add, [plus_one.clone(), plus_one], DType::F64);
        let paths = twice.node().paths;
        assert_eq!((paths.operations, paths.leaves), (5, 4));
        assert_eq!(Expr::topological(&[&twice]).len(), 5);
    }

    #[test]
    fn new_leaves_are_visited_once_a_mark() {
        let (x, y) = (leaf(4), leaf(4));
        let sum = Expr::apply(Op::Add, [x.clone(), y], DType::F64);
        let product = Expr::apply(Op::Multiply, [sum.clone(), x], DType::F64);
        let mut seen = 0;
        sum.visit_new_leaves(7, &mut |_| seen += 1);
        assert_eq!(seen, 2);
        product.visit_new_leaves(7, &mut |_| seen += 1);
        assert_eq!(seen, 2, "x and y were reached with mark 7 already");
        product.visit_new_leaves(8, &mut |_| seen += 1);
        assert_eq!(seen, 4, "a new mark reaches each leaf again, once");
    }
}
