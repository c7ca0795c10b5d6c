//! Plans: elementwise work as a DAG of table rows (`expr`), deferred until something observes
//! its result (`batch`), then run as one pass over memory — one generated kernel on the gpu
//! (`cuda`), one loop over chunks on the cpu (`cpu`). The table of operations (`table`), NumPy's
//! dtype resolution for it (`resolve`) and the cpu's element functions (`cpu_math`) live here
//! too. The array layer above builds plans; the devices below run them.
//!
//! An array's elements are `Storage`: in a buffer, or pending here. Everything that reads or
//! writes a buffer other than a plan asks `ready` first, which runs the deferred work that the
//! buffer takes part in, so results are always those of eager execution.

mod batch;
pub mod cpu;
mod cpu_loops;
pub mod cpu_math;
pub mod cuda;
pub mod explain;
pub mod expr;
pub mod placement;
pub mod reduce;
pub mod resolve;
pub mod table;
pub mod user_kernel;

use std::cell::{Cell, OnceCell, RefCell};
use std::rc::Rc;

use crate::base::layout::{Dims, Layout};
use crate::base::DType;
use crate::device::{Buffer, Device};
use crate::error::Result;
pub use expr::Expr;

/// Where an array's elements are.
#[derive(Clone, Debug)]
pub enum Storage {
    Ready(Buffer),
    Pending(Rc<Pending>),
}

/// A value that deferred work will compute: a fresh C-ordered array of `shape`.
#[derive(Debug)]
pub struct Pending {
    expr: RefCell<Option<Expr>>,
    pub shape: Dims,
    pub device: Device,
    pub dtype: DType,
    result: OnceCell<Buffer>,
}

impl Pending {
    /// The expression of a value not computed yet.
    pub(crate) fn expr(&self) -> Option<Expr> {
        self.expr.borrow().clone()
    }

    pub(crate) fn set_result(&self, buffer: Buffer) {
        let _ = self.result.set(buffer);
        self.expr.borrow_mut().take();
    }

    pub fn result(&self) -> Option<&Buffer> {
        self.result.get()
    }
}

impl Storage {
    pub fn dtype(&self) -> DType {
        match self {
            Storage::Ready(b) => b.dtype(),
            Storage::Pending(p) => p.dtype,
        }
    }

    pub fn device(&self) -> Device {
        match self {
            Storage::Ready(b) => b.device(),
            Storage::Pending(p) => p.device,
        }
    }

    /// True when both are the same elements (a write through one may change the other).
    pub fn same(&self, other: &Storage) -> bool {
        match (self, other) {
            (Storage::Ready(a), Storage::Ready(b)) => a.same_buffer(b),
            (Storage::Pending(a), Storage::Pending(b)) => Rc::ptr_eq(a, b),
            (Storage::Pending(p), Storage::Ready(b)) | (Storage::Ready(b), Storage::Pending(p)) => {
                p.result().is_some_and(|r| r.same_buffer(b))
            }
        }
    }

    /// The generation of the gpu context these elements (or, not computed yet, the values they
    /// are computed from) were lost with, if they were.
    pub fn lost_generation(&self) -> Option<u32> {
        if crate::device::gpu::losses() == 0 {
            return None;
        }
        match self {
            Storage::Ready(b) => b.lost_generation(),
            Storage::Pending(p) => match p.result() {
                Some(b) => b.lost_generation(),
                None => p.expr().and_then(|e| e.lost_generation()),
            },
        }
    }

    /// Refuses elements lost with the gpu's state: their memory is gone.
    fn check_not_lost(&self) -> Result<()> {
        match self.lost_generation() {
            Some(_) => Err(lost_array()),
            None => Ok(()),
        }
    }

    /// How many arrays share these elements (1: nothing else can see them).
    pub fn sharers(&self) -> usize {
        match self {
            Storage::Ready(b) => b.strong_count(),
            Storage::Pending(p) => Rc::strong_count(p),
        }
    }
}

/// The error for using elements lost with the gpu's state.
fn lost_array() -> crate::error::Error {
    crate::error::device_error("this array was on the gpu when its state was lost; make it again")
}

thread_local! {
    static FUSION: Cell<bool> = const { Cell::new(true) };
    static POSITION: Cell<u64> = const { Cell::new(0) };
    static PASSES: RefCell<PassLog> = RefCell::new(PassLog::default());
}

/// One pass over memory that plans ran: a kernel on the gpu, a loop over chunks on the cpu.
#[derive(Clone, Debug)]
pub struct PassRecord {
    pub device: Device,
    /// Table operations (and casts) it computed; a reduction counts as one more.
    pub operations: usize,
    /// The positions of the statements that made those operations.
    pub positions: expr::Positions,
    /// The position of the statement running when the pass ran.
    pub at: u64,
}

#[derive(Default)]
struct PassLog {
    count: u64,
    recent: std::collections::VecDeque<PassRecord>,
}

/// How many passes a log keeps for `passes_since`: the reports read it after each statement.
const KEPT_PASSES: usize = 4096;

pub(crate) fn record_pass(device: Device, operations: usize, positions: expr::Positions) {
    if device == Device::Cpu {
        crate::stats::record_cpu_pass();
    }
    PASSES.with(|log| {
        let mut log = log.borrow_mut();
        log.count += 1;
        if log.recent.len() == KEPT_PASSES {
            log.recent.pop_front();
        }
        log.recent.push_back(PassRecord {
            device,
            operations,
            positions,
            at: current_position(),
        });
    });
}

/// A mark in the log of passes, for `passes_since`.
pub fn pass_mark() -> u64 {
    PASSES.with(|log| log.borrow().count)
}

/// The passes run since `mark` (the most recent ones kept, when there were very many).
pub fn passes_since(mark: u64) -> Vec<PassRecord> {
    PASSES.with(|log| {
        let log = log.borrow();
        let new = (log.count - mark).min(log.recent.len() as u64) as usize;
        log.recent
            .iter()
            .skip(log.recent.len() - new)
            .cloned()
            .collect()
    })
}

/// `:fuse on|off`, `--no-fuse`: with fusion off every operation runs when it is made, alone.
pub fn set_fusion(on: bool) -> Result<()> {
    flush()?;
    FUSION.with(|f| f.set(on));
    Ok(())
}

pub fn fusion() -> bool {
    FUSION.with(Cell::get)
}

/// Where the statement running now is (an opaque position the interpreter maps to its source
/// line); nodes made from now on carry it.
pub fn set_position(position: u64) {
    POSITION.with(|p| p.set(position));
}

pub fn current_position() -> u64 {
    POSITION.with(Cell::get)
}

/// The buffer of these elements, running the deferred work they take part in first: what every
/// read or write of a buffer outside a plan goes through.
pub fn ready(storage: &Storage) -> Result<Buffer> {
    storage.check_not_lost()?;
    match storage {
        Storage::Ready(b) => {
            if batch::involves(b) {
                flush()?;
            }
            Ok(b.clone())
        }
        Storage::Pending(p) => {
            if let Some(b) = p.result() {
                if batch::involves(b) {
                    flush()?;
                }
                return Ok(b.clone());
            }
            flush()?;
            p.result().cloned().ok_or_else(|| {
                crate::error::device_error("deferred work did not produce its result")
            })
        }
    }
}

/// Runs all deferred work now.
pub fn flush() -> Result<()> {
    batch::flush()
}

/// True when deferred work waits to run.
pub fn has_pending() -> bool {
    batch::has_pending()
}

/// The positions of the statements whose deferred work waits to run.
pub fn pending_positions() -> Vec<u64> {
    batch::pending_positions()
}

/// An array operand of a plan: its elements and the layout it is read through.
pub struct Operand<'a> {
    pub storage: &'a Storage,
    pub layout: &'a Layout,
}

/// Expressions for array operands read over `shape` (each layout broadcast to it), made after
/// running whatever deferred work their reads would race with. `target`, when given, is the
/// array an in-place write will store into.
pub fn inputs(
    shape: &[usize],
    operands: &[Operand],
    target: Option<&Operand>,
) -> Result<expr::Args> {
    for operand in operands.iter().chain(target) {
        operand.storage.check_not_lost()?;
    }
    batch::inputs(shape, operands, target)
}

/// `inputs` of one operand.
pub fn input(shape: &[usize], operand: &Operand, target: Option<&Operand>) -> Result<Expr> {
    let mut exprs = inputs(shape, std::slice::from_ref(operand), target)?;
    Ok(exprs.pop().expect("one input"))
}

/// A new array of `shape` on `device` whose elements `expr` computes: deferred when fusion is
/// on, computed now otherwise.
pub fn value(device: Device, shape: &[usize], expr: Expr) -> Result<Storage> {
    batch::value(device, shape, expr)
}

/// Stores `expr` into the elements `target` sees (an in-place operation): deferred when fusion
/// is on. `target.layout` has `expr`'s shape.
pub fn write(target: &Operand, expr: Expr) -> Result<()> {
    target.storage.check_not_lost()?;
    batch::write(target, expr)
}

/// A plan's result computed now and read back as a host value: for expressions of host scalars
/// (`sqrt(2.0)`), which never join deferred work.
pub fn compute_scalar(expr: Expr) -> Result<crate::base::Scalar> {
    let out = cpu::run_scalar(&expr)?;
    Ok(out)
}
