//! Deferred elementwise work: the values and in-place writes that statements made and nothing
//! has observed yet. All of it is over one shape on one device, and every expression in it is a
//! function of the buffers' contents as they were when the batch began — nothing has been
//! written yet — so it all runs as one kernel: each element is read by the thread that writes
//! it, reads first. What would break that (a read of a buffer through another layout than the
//! one a pending write stores through, a new shape or device) runs the batch first.

use std::cell::{Cell, RefCell};
use std::rc::{Rc, Weak};

use smallvec::SmallVec;

use super::expr::{self, Args, Expr, NodeKind};
use super::{Operand, Pending, Storage};
use crate::base::layout::{shape_size, Dims, Layout};
use crate::device::{Buffer, Device};
use crate::error::Result;

/// An expression that takes the batch past this many operations, leaves or outputs runs with it,
/// and the next one starts a new batch: it keeps kernels' parameter lists and compile times small.
const MAX_OPERATIONS: usize = 96;
const MAX_LEAVES: usize = 24;
const MAX_OUTPUTS: usize = 12;

/// Whether a new expression can join the batch.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Room {
    Fits,
    /// Over the limits: it joins, and the batch runs. (Running the batch first would be wrong:
    /// the expression may read the batch's values and writes as expressions over the buffers
    /// as they were, and running the batch changes those buffers.)
    Full,
    /// Another device or shape (so it reads nothing of the batch's): the batch runs first.
    Elsewhere,
}

struct Write {
    buffer: Buffer,
    layout: Layout,
    expr: Expr,
}

#[derive(Default)]
struct Batch {
    device: Option<Device>,
    shape: Dims,
    values: Vec<Weak<Pending>>,
    writes: Vec<Write>,
    /// Buffers the batch reads, with the layouts it reads them through.
    reads: Vec<(Buffer, Layout)>,
    /// Marks the nodes whose leaves are in `reads` (`Expr::visit_new_leaves`): one per batch.
    mark: u64,
}

thread_local! {
    static BATCH: RefCell<Batch> = RefCell::new(Batch::default());
    /// The mark the next batch takes (nodes start unmarked, with 0).
    static NEXT_MARK: Cell<u64> = const { Cell::new(1) };
}

impl Batch {
    fn is_empty(&self) -> bool {
        self.values.is_empty() && self.writes.is_empty()
    }

    fn write_of(&self, buffer: &Buffer) -> Option<&Write> {
        self.writes.iter().find(|w| w.buffer.same_buffer(buffer))
    }

    fn reads_other_than(&self, buffer: &Buffer, layout: &Layout) -> bool {
        self.reads
            .iter()
            .any(|(b, l)| b.same_buffer(buffer) && l != layout)
    }

    fn live_values(&self) -> Vec<Rc<Pending>> {
        self.values.iter().filter_map(Weak::upgrade).collect()
    }

    fn roots(&self) -> Vec<Expr> {
        let mut roots: Vec<Expr> = self.live_values().iter().filter_map(|p| p.expr()).collect();
        roots.extend(self.writes.iter().map(|w| w.expr.clone()));
        roots
    }

    fn fits(&self, device: Device, shape: &[usize], extra: &Expr) -> bool {
        self.room(device, shape, extra) == Room::Fits
    }

    fn room(&self, device: Device, shape: &[usize], extra: &Expr) -> Room {
        if self.is_empty() {
            return Room::Fits;
        }
        if self.device != Some(device) || self.shape[..] != *shape {
            return Room::Elsewhere;
        }
        if self.surely_fits(extra) {
            return Room::Fits;
        }
        let mut roots = self.roots();
        roots.push(extra.clone());
        if roots.len() > MAX_OUTPUTS {
            return Room::Full;
        }
        let nodes = Expr::topological(&roots.iter().collect::<Vec<_>>());
        if expr::operation_count(&nodes) <= MAX_OPERATIONS
            && expr::leaves(&nodes).count() <= MAX_LEAVES
        {
            Room::Fits
        } else {
            Room::Full
        }
    }

    /// Whether the batch with `extra` is within the limits even counting a shared node once
    /// per path to it: the common case, told from the counts the roots keep.
    fn surely_fits(&self, extra: &Expr) -> bool {
        let (mut operations, mut leaves, mut outputs) = (0usize, 0usize, 0);
        let values = self.values.iter().filter_map(Weak::upgrade);
        let value_roots = values.filter_map(|p| p.expr());
        let mut count = |root: &Expr| {
            outputs += 1;
            operations = operations.saturating_add(root.node().paths.operations);
            leaves = leaves.saturating_add(root.node().paths.leaves);
        };
        value_roots.for_each(|root| count(&root));
        self.writes
            .iter()
            .map(|w| &w.expr)
            .chain([extra])
            .for_each(count);
        operations <= MAX_OPERATIONS && leaves <= MAX_LEAVES && outputs <= MAX_OUTPUTS
    }

    fn note_reads(&mut self, expr: &Expr) {
        expr.visit_new_leaves(self.mark, &mut |leaf: &Expr| {
            if let NodeKind::Leaf { buffer, layout } = &leaf.node().kind {
                let known = self
                    .reads
                    .iter()
                    .any(|(b, l)| b.same_buffer(buffer) && l == layout);
                if !known {
                    self.reads.push((buffer.clone(), layout.clone()));
                }
            }
        });
    }

    fn start(&mut self, device: Device, shape: &[usize]) {
        if self.is_empty() {
            self.device = Some(device);
            self.shape = shape.into();
            self.reads.clear();
            self.mark = NEXT_MARK.with(|m| m.replace(m.get() + 1));
        }
    }
}

/// True when the batch reads or writes this buffer.
pub fn involves(buffer: &Buffer) -> bool {
    BATCH.with(|b| {
        let b = b.borrow();
        !b.is_empty()
            && (b.write_of(buffer).is_some() || b.reads.iter().any(|(r, _)| r.same_buffer(buffer)))
    })
}

pub fn has_pending() -> bool {
    BATCH.with(|b| {
        let b = b.borrow();
        !b.writes.is_empty() || b.values.iter().any(|v| v.strong_count() > 0)
    })
}

pub fn pending_positions() -> Vec<u64> {
    BATCH.with(|b| {
        let roots = b.borrow().roots();
        expr::positions(&Expr::topological(&roots.iter().collect::<Vec<_>>())).into_vec()
    })
}

/// Whether reading `operand` over `shape` needs the batch run first.
fn read_needs_flush(batch: &Batch, shape: &[usize], operand: &Operand) -> Result<bool> {
    Ok(match operand.storage {
        Storage::Pending(p) => {
            p.result().is_none() && !(inlinable(p, operand.layout) && p.shape[..] == *shape)
        }
        Storage::Ready(b) => match batch.write_of(b) {
            Some(w) => w.layout != operand.layout.broadcast_to(shape)?,
            None => false,
        },
    })
}

/// Whether writing through `target` would race with reads or writes of the batch through other
/// layouts of its buffer.
fn write_needs_flush(batch: &Batch, target: &Operand) -> bool {
    let buffer = match target.storage {
        Storage::Ready(b) => b,
        Storage::Pending(p) => match p.result() {
            Some(b) => b,
            None => return !inlinable(p, target.layout),
        },
    };
    let written_elsewhere = batch
        .write_of(buffer)
        .is_some_and(|w| w.layout != *target.layout);
    written_elsewhere || batch.reads_other_than(buffer, target.layout)
}

/// The buffer of storage whose deferred work, if any, the caller has already accounted for.
fn buffer_of(storage: &Storage) -> Buffer {
    match storage {
        Storage::Ready(b) => b.clone(),
        Storage::Pending(p) => p.result().expect("computed").clone(),
    }
}

fn inlinable(p: &Pending, layout: &Layout) -> bool {
    layout.offset == 0 && *layout.shape == *p.shape && layout.is_contiguous()
}

pub fn inputs(shape: &[usize], operands: &[Operand], target: Option<&Operand>) -> Result<Args> {
    let needs_flush = BATCH.with(|b| -> Result<bool> {
        let batch = b.borrow();
        for operand in operands {
            if read_needs_flush(&batch, shape, operand)? {
                return Ok(true);
            }
        }
        if let Some(t) = target {
            if let Storage::Ready(buffer) = t.storage {
                let written_elsewhere = batch
                    .write_of(buffer)
                    .is_some_and(|w| w.layout != *t.layout);
                if written_elsewhere || batch.reads_other_than(buffer, t.layout) {
                    return Ok(true);
                }
            }
        }
        Ok(false)
    })?;
    if needs_flush {
        flush()?;
    }
    let mut exprs = Args::new();
    for operand in operands {
        exprs.push(match operand.storage {
            Storage::Pending(p) if p.result().is_none() => p.expr().expect("not computed yet"),
            storage => {
                let layout = operand.layout.broadcast_to(shape)?;
                let overlaps_target =
                    target.is_some_and(|t| t.storage.same(operand.storage) && *t.layout != layout);
                let buffer = buffer_of(storage);
                let substituted = BATCH.with(|b| {
                    b.borrow()
                        .write_of(&buffer)
                        .filter(|w| w.layout == layout)
                        .map(|w| w.expr.clone())
                });
                match substituted {
                    Some(e) => e,
                    // `x[1:] += x[:-1]` reads elements other threads write: as NumPy does, it
                    // reads a copy made first.
                    None if overlaps_target => snapshot(&buffer, &layout, shape)?,
                    None => Expr::leaf(buffer, layout),
                }
            }
        });
    }
    Ok(exprs)
}

fn snapshot(buffer: &Buffer, layout: &Layout, shape: &[usize]) -> Result<Expr> {
    let copy = run_now(
        buffer.device(),
        shape,
        Expr::leaf(buffer.clone(), layout.clone()),
    )?;
    Ok(Expr::leaf(copy, Layout::contiguous(shape)))
}

/// Computes `expr` into a new buffer now, outside the batch.
fn run_now(device: Device, shape: &[usize], expr: Expr) -> Result<Buffer> {
    let buffer = Buffer::alloc(device, shape_size(shape)?, expr.dtype())?;
    execute(
        device,
        shape,
        &[(buffer.clone(), Layout::contiguous(shape), expr)],
    )?;
    Ok(buffer)
}

pub fn value(device: Device, shape: &[usize], expr: Expr) -> Result<Storage> {
    crate::device::check_allocation(device, shape_size(shape)?, expr.dtype())?;
    if !super::fusion() {
        return Ok(Storage::Ready(run_now(device, shape, expr)?));
    }
    let room = make_room(device, shape, &expr)?;
    let pending = Rc::new(Pending {
        expr: RefCell::new(Some(expr.clone())),
        shape: shape.into(),
        device,
        dtype: expr.dtype(),
        result: Default::default(),
    });
    BATCH.with(|b| {
        let mut batch = b.borrow_mut();
        batch.start(device, shape);
        batch.note_reads(&expr);
        batch.values.retain(|v| v.strong_count() > 0);
        batch.values.push(Rc::downgrade(&pending));
    });
    if room == Room::Full {
        flush()?;
    }
    Ok(Storage::Pending(pending))
}

pub fn write(target: &Operand, expr: Expr) -> Result<()> {
    let buffer = match target.storage {
        Storage::Pending(p) if p.result().is_none() && inlinable(p, target.layout) => {
            // A value not computed yet takes the new expression: `y = x * 2; y *= 3` is one
            // pass (views and clones of y share the pending value, as they share a buffer).
            p.expr.replace(Some(expr.clone()));
            BATCH.with(|b| b.borrow_mut().note_reads(&expr));
            return if BATCH.with(|b| b.borrow().fits(p.device, &p.shape, &expr)) {
                Ok(())
            } else {
                flush()
            };
        }
        storage => {
            if BATCH.with(|b| write_needs_flush(&b.borrow(), target)) {
                flush()?;
            }
            buffer_of(storage)
        }
    };
    let buffer = &buffer;
    let device = buffer.device();
    let shape = target.layout.shape.clone();
    if !super::fusion() {
        return execute(
            device,
            &shape,
            &[(buffer.clone(), target.layout.clone(), expr)],
        );
    }
    let room = make_room(device, &shape, &expr)?;
    BATCH.with(|b| {
        let mut batch = b.borrow_mut();
        batch.start(device, &shape);
        batch.note_reads(&expr);
        batch.writes.retain(|w| !w.buffer.same_buffer(buffer));
        batch.writes.push(Write {
            buffer: buffer.clone(),
            layout: target.layout.clone(),
            expr,
        });
    });
    if room == Room::Full {
        flush()?;
    }
    Ok(())
}

/// Runs the batch first when `expr` is for another device or shape; says whether it fits.
fn make_room(device: Device, shape: &[usize], expr: &Expr) -> Result<Room> {
    let room = BATCH.with(|b| b.borrow().room(device, shape, expr));
    if room == Room::Elsewhere {
        flush()?;
    }
    Ok(room)
}

pub fn flush() -> Result<()> {
    let mut batch = BATCH.with(|b| std::mem::take(&mut *b.borrow_mut()));
    let Some(device) = batch.device else {
        return Ok(());
    };
    let ran = run_batch(device, &mut batch);
    // The next batch reuses the lists' memory (one batch runs for every observed statement).
    batch.values.clear();
    batch.writes.clear();
    batch.reads.clear();
    batch.device = None;
    BATCH.with(|b| {
        let mut b = b.borrow_mut();
        if b.is_empty() && b.values.capacity() == 0 {
            *b = batch;
        }
    });
    ran
}

/// Runs `batch`'s values and writes, leaving its lists empty.
fn run_batch(device: Device, batch: &mut Batch) -> Result<()> {
    let mut outputs: SmallVec<[(Buffer, Layout, Expr); 4]> = SmallVec::new();
    let mut fresh: SmallVec<[(Rc<Pending>, Buffer); 4]> = SmallVec::new();
    for p in batch.values.iter().filter_map(Weak::upgrade) {
        let Some(expr) = p.expr() else { continue };
        let buffer = Buffer::alloc(device, shape_size(&p.shape)?, p.dtype)?;
        outputs.push((buffer.clone(), Layout::contiguous(&p.shape), expr));
        fresh.push((p, buffer));
    }
    outputs.extend(batch.writes.drain(..).map(|w| (w.buffer, w.layout, w.expr)));
    if outputs.is_empty() {
        return Ok(());
    }
    execute(device, &batch.shape, &outputs)?;
    for (p, buffer) in fresh {
        p.set_result(buffer);
    }
    Ok(())
}

/// Runs one kernel computing every output (`buffer` seen through `layout`, of `shape`).
fn execute(device: Device, shape: &[usize], outputs: &[(Buffer, Layout, Expr)]) -> Result<()> {
    if shape.contains(&0) {
        return Ok(());
    }
    // Deferred work queued before the gpu lost its state must not run on a fresh context.
    if device == Device::Gpu && crate::device::gpu::losses() > 0 {
        let lost = outputs.iter().any(|(buffer, _, expr)| {
            buffer.lost_generation().is_some() || expr.lost_generation().is_some()
        });
        if lost {
            return Err(super::lost_array());
        }
    }
    super::explain::record(device, shape, outputs);
    let roots: SmallVec<[&Expr; 4]> = outputs.iter().map(|(_, _, e)| e).collect();
    let nodes = Expr::topological(&roots);
    super::record_pass(
        device,
        expr::operation_count(&nodes),
        expr::positions(&nodes),
    );
    match device {
        Device::Cpu => super::cpu::run(shape, outputs, &nodes),
        Device::Gpu => super::cuda::run(shape, outputs),
    }
}
