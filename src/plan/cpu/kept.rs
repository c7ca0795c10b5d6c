//! Programs kept for statements run again: a loop's statement (or a cell run twice) builds the
//! same DAG over new buffers each time, so its program is found here, checked node by node
//! against the new DAG, and pointed at the new buffers instead of being built again.

use std::cell::RefCell;

use smallvec::SmallVec;

use super::{raw, Program, Step, CHUNK};
use crate::base::layout::{Dims, Layout};
use crate::device::Buffer;
use crate::plan::expr::{Expr, NodeKind};
use crate::plan::table::Op;

/// Programs kept, most recent first.
const KEPT_PROGRAMS: usize = 8;
/// Programs with more leaves and outputs than this are not kept (their pairs of buffers must fit
/// in `Recipe::same_buffers`).
const KEPT_BUFFERS: usize = 11;

thread_local! {
    // Boxed: a program is a large value, and the list is reordered on every pass.
    #[allow(clippy::vec_box)]
    static BUILT: RefCell<Vec<Box<Built>>> = const { RefCell::new(Vec::new()) };
}

/// A program and what it was built from, beyond what its steps keep.
pub(super) struct Built {
    pub(super) program: Program,
    recipe: Option<Recipe>,
}

struct Recipe {
    shape: Dims,
    /// The table row each step applies (`None` for loads, constants and casts).
    ops: SmallVec<[Option<Op>; 8]>,
    /// The leaves' and outputs' layouts before they were collapsed.
    leaf_layouts: SmallVec<[Layout; 4]>,
    store_layouts: SmallVec<[Layout; 2]>,
    /// Which of the leaves' and outputs' buffers are the same (a bit for each pair): what the
    /// program's direct writes were decided on.
    same_buffers: u64,
}

/// The leaves' pointers, then the outputs'.
type Pointers = SmallVec<[usize; 8]>;

impl Built {
    /// The kept program for this DAG, pointed at its buffers, or a new one.
    pub(super) fn find_or_build(
        shape: &[usize],
        nodes: &[Expr],
        roots: &[&Expr],
        outputs: &[(&Buffer, &Layout)],
    ) -> Box<Built> {
        let found = BUILT.with(|kept| {
            let mut kept = kept.borrow_mut();
            let (i, pointers) = kept.iter().enumerate().find_map(|(i, built)| {
                let recipe = built.recipe.as_ref()?;
                let pointers = recipe.pointers(&built.program, shape, nodes, roots, outputs)?;
                Some((i, pointers))
            })?;
            let mut built = kept.remove(i);
            built.program.point_at(&pointers);
            Some(built)
        });
        found.unwrap_or_else(|| {
            let mut program = Program::of_nodes(shape, nodes, roots, outputs);
            let recipe = Recipe::of(&program, shape, nodes, outputs);
            if recipe.is_some() {
                program.fill_constants(CHUNK.min(program.size()));
            }
            Box::new(Built { program, recipe })
        })
    }

    /// Keeps this program for the next pass with the same recipe.
    pub(super) fn keep(self: Box<Built>) {
        if self.recipe.is_none() {
            return;
        }
        BUILT.with(|kept| {
            let mut kept = kept.borrow_mut();
            kept.truncate(KEPT_PROGRAMS - 1);
            kept.insert(0, self);
        });
    }
}

impl Program {
    fn pointers(&self) -> impl Iterator<Item = usize> + Clone + '_ {
        let leaves = self.leaves.iter().map(|l| l.pointer);
        leaves.chain(self.stores.iter().map(|(_, d)| d.pointer))
    }

    fn point_at(&mut self, pointers: &[usize]) {
        let sources = self.leaves.iter_mut();
        let sources = sources.chain(self.stores.iter_mut().map(|(_, d)| d));
        for (source, &pointer) in sources.zip(pointers) {
            source.pointer = pointer;
        }
    }
}

/// Bit `k` for each pair of equal pointers, pairs taken in a fixed order.
fn same_pointers(pointers: impl Iterator<Item = usize> + Clone) -> u64 {
    let mut bits = 0u64;
    let mut k = 0;
    for (i, a) in pointers.clone().enumerate() {
        for b in pointers.clone().skip(i + 1) {
            bits |= u64::from(a == b) << k;
            k += 1;
        }
    }
    bits
}

impl Recipe {
    fn of(
        program: &Program,
        shape: &[usize],
        nodes: &[Expr],
        outputs: &[(&Buffer, &Layout)],
    ) -> Option<Recipe> {
        if program.leaves.len() + program.stores.len() > KEPT_BUFFERS {
            return None;
        }
        let mut leaf_layouts: SmallVec<[Layout; 4]> =
            smallvec::smallvec![Layout::contiguous(&[]); program.leaves.len()];
        let mut ops = SmallVec::with_capacity(nodes.len());
        for (node, (step, _)) in nodes.iter().zip(&program.steps) {
            ops.push(match &node.node().kind {
                NodeKind::Apply { op, .. } => Some(*op),
                NodeKind::Leaf { layout, .. } => {
                    if let Step::Load { leaf } = step {
                        leaf_layouts[*leaf] = layout.clone();
                    }
                    None
                }
                NodeKind::Scalar(_) | NodeKind::Cast(_) => None,
            });
        }
        Some(Recipe {
            shape: shape.into(),
            ops,
            leaf_layouts,
            store_layouts: outputs.iter().map(|&(_, l)| l.clone()).collect(),
            same_buffers: same_pointers(program.pointers()),
        })
    }

    /// The leaves' and outputs' pointers, when `nodes` computing `roots` into `outputs` are
    /// what `program` was built from but for their buffers.
    fn pointers(
        &self,
        program: &Program,
        shape: &[usize],
        nodes: &[Expr],
        roots: &[&Expr],
        outputs: &[(&Buffer, &Layout)],
    ) -> Option<Pointers> {
        let (steps, stores) = (&program.steps[..], &program.stores[..]);
        let (ops, leaf_layouts) = (&self.ops[..], &self.leaf_layouts[..]);
        if nodes.len() != steps.len() || outputs.len() != stores.len() || self.shape[..] != *shape {
            return None;
        }
        let mut pointers: Pointers = smallvec::smallvec![0; program.leaves.len()];
        let is = |index: usize, arg: &Expr| nodes[index].id() == arg.id();
        for (i, node) in nodes.iter().enumerate() {
            let (step, dtype) = &steps[i];
            if node.dtype() != *dtype {
                return None;
            }
            let same = match (&node.node().kind, step) {
                (NodeKind::Leaf { buffer, layout }, Step::Load { leaf }) => {
                    let pointer = raw(buffer);
                    let slot = &mut pointers[*leaf];
                    let unseen_or_same = *slot == 0 || *slot == pointer;
                    *slot = pointer;
                    unseen_or_same && leaf_layouts[*leaf] == *layout
                }
                (NodeKind::Scalar(s), Step::Constant(c)) => s.identical(c),
                (NodeKind::Cast(arg), Step::Compute { args, .. }) => {
                    ops[i].is_none() && is(args[0], arg)
                }
                (NodeKind::Apply { op, args }, Step::Compute { args: indices, .. }) => {
                    ops[i] == Some(*op)
                        && args.len() == indices.len()
                        && args.iter().zip(indices.iter()).all(|(a, &i)| is(i, a))
                }
                _ => false,
            };
            if !same {
                return None;
            }
        }
        for (k, root) in roots.iter().enumerate() {
            let ((node, destination), (buffer, layout)) = (&stores[k], outputs[k]);
            let same = is(*node, root)
                && self.store_layouts[k] == *layout
                && destination.size == buffer.dtype().size();
            if !same {
                return None;
            }
            pointers.push(raw(buffer));
        }
        (same_pointers(pointers.iter().copied()) == self.same_buffers).then_some(pointers)
    }
}
