//! The cpu runs a plan as one pass over memory: the flat iteration space is cut into tasks for
//! the cores, each task into chunks that stay in the L1 cache, and for each chunk every node of
//! the DAG is one tight loop (`cpu_math`, instantiated per dtype) from its arguments' chunk to
//! its own. Contiguous leaves are read in place; strided ones are gathered first, and strided
//! outputs scattered after. No temporary as large as the arrays exists, whatever the plan.

use rayon::prelude::*;
use smallvec::SmallVec;

use super::cpu_math::{ComplexMath, Math};
use super::expr::{Expr, NodeKind};
use super::table::Op;
use crate::base::element::{c128, c64, cast, Element};
use crate::base::interrupt::Stop;
use crate::base::layout::{collapse, Dims, Layout};
use crate::base::{DType, Scalar};
use crate::device::cpu::threads;
use crate::device::Buffer;
use crate::error::{Error, ErrorKind, Result};
use crate::with_dtype;

/// Elements per chunk: 8 KB registers for f64 keep a plan's chunks in L1/L2.
pub const CHUNK: usize = 1024;
/// Elements per task given to a core.
const TASK: usize = 64 * CHUNK;
/// Plans over fewer elements run on the calling thread.
const PARALLEL_FROM: usize = 1 << 15;

/// One loop over `n` elements: inputs and output are contiguous runs of their dtypes.
pub type Loop = unsafe fn(n: usize, inputs: &[*const u8], out: *mut u8);

/// Where a node's chunk comes from.
enum Step {
    /// A leaf read in place (contiguous) or gathered (strided).
    Load {
        leaf: usize,
    },
    /// A host scalar: its register is filled once per task.
    Constant(Scalar),
    Compute {
        run: Loop,
        args: Few<usize>,
    },
}

struct Source {
    pointer: usize,
    layout: Layout,
    size: usize,
}

/// A program's parts are kept off the heap up to these counts (most statements' plans).
type Steps = SmallVec<[(Step, DType); 8]>;
type Sources = SmallVec<[Source; 4]>;
type Stores = SmallVec<[(usize, Source); 2]>;

pub(crate) struct Program {
    shape: Dims,
    steps: Steps,
    leaves: Sources,
    /// (node index, destination) for each output.
    stores: Stores,
    /// For each step, the store whose contiguous destination it computes into directly (no
    /// register, no copy): one no leaf reads, so writing early cannot change what is read.
    direct: SmallVec<[Option<usize>; 8]>,
}

fn raw(buffer: &Buffer) -> usize {
    buffer
        .cpu()
        .expect("cpu plans have cpu buffers")
        .raw_pointer() as usize
}

impl Program {
    /// The steps that compute `roots`, and how to reach the leaves' elements.
    pub(crate) fn new(shape: &[usize], roots: &[&Expr], outputs: &[(&Buffer, &Layout)]) -> Program {
        Program::of_nodes(shape, &Expr::topological(roots), roots, outputs)
    }

    /// `new`, given the DAG's nodes in topological order.
    fn of_nodes(
        shape: &[usize],
        nodes: &[Expr],
        roots: &[&Expr],
        outputs: &[(&Buffer, &Layout)],
    ) -> Program {
        // Nodes come in topological order, so an argument is found among those already placed.
        let index_of = |id: usize| {
            nodes
                .iter()
                .position(|n| n.id() == id)
                .expect("arguments precede their node")
        };
        // Built in place: a program is a large value, and moving its parts in costs copies.
        let mut program = Program {
            shape: Dims::new(),
            steps: Steps::with_capacity(nodes.len()),
            leaves: Sources::new(),
            stores: Stores::new(),
            direct: SmallVec::new(),
        };
        let Program {
            steps,
            leaves,
            stores,
            direct,
            ..
        } = &mut program;
        for node in nodes {
            let step = match &node.node().kind {
                NodeKind::Leaf { buffer, layout } => {
                    let pointer = raw(buffer);
                    let found = leaves
                        .iter()
                        .position(|l| l.pointer == pointer && l.layout == *layout);
                    let leaf = found.unwrap_or_else(|| {
                        leaves.push(Source {
                            pointer,
                            layout: layout.clone(),
                            size: buffer.dtype().size(),
                        });
                        leaves.len() - 1
                    });
                    Step::Load { leaf }
                }
                NodeKind::Scalar(s) => Step::Constant(*s),
                NodeKind::Cast(arg) => Step::Compute {
                    run: cast_loop(arg.dtype(), node.dtype()),
                    args: Few::from_iter([index_of(arg.id())]),
                },
                NodeKind::Apply { op, args } => {
                    let dtypes: Few<DType> = args.iter().map(Expr::dtype).collect();
                    Step::Compute {
                        run: op_loop(*op, &dtypes, node.dtype()),
                        args: args.iter().map(|a| index_of(a.id())).collect(),
                    }
                }
            };
            steps.push((step, node.dtype()));
        }
        stores.extend(roots.iter().zip(outputs).map(|(root, &(buffer, layout))| {
            let destination = Source {
                pointer: raw(buffer),
                layout: layout.clone(),
                size: buffer.dtype().size(),
            };
            (index_of(root.id()), destination)
        }));
        let collapsed = {
            let mut layouts: SmallVec<[&mut Layout; 8]> = leaves
                .iter_mut()
                .map(|l| &mut l.layout)
                .chain(stores.iter_mut().map(|(_, d)| &mut d.layout))
                .collect();
            collapse(shape, &mut layouts)
        };
        direct.resize(steps.len(), None);
        for (k, (node, destination)) in stores.iter().enumerate() {
            let computed = matches!(steps[*node].0, Step::Compute { .. });
            if computed
                && direct[*node].is_none()
                && destination.layout.is_contiguous()
                && destination.size == steps[*node].1.size()
                && writes_after_reads(steps, leaves, stores, *node, destination)
            {
                direct[*node] = Some(k);
            }
        }
        program.shape = collapsed;
        program
    }

    fn size(&self) -> usize {
        self.shape.iter().product()
    }

    /// Runs elements `[start, end)` of the flat iteration space: `sink` sees each chunk's value
    /// of node `watch` (for reductions), and outputs are stored.
    fn run_range(
        &self,
        start: usize,
        end: usize,
        watch: Option<usize>,
        mut sink: impl FnMut(*const u8, usize),
    ) {
        let width = CHUNK.min(end - start);
        let needs_register = |i: usize, step: &Step| match step {
            Step::Load { leaf } => !self.leaves[*leaf].layout.is_contiguous(),
            _ => self.direct[i].is_none(),
        };
        // One uninitialised arena: every loop and gather writes a register before it is read.
        let mut at: SmallVec<[usize; 16]> = SmallVec::with_capacity(self.steps.len());
        let mut words = 0;
        for (i, (step, dtype)) in self.steps.iter().enumerate() {
            at.push(words);
            if needs_register(i, step) {
                words += (width * dtype.size()).div_ceil(16);
            }
        }
        let mut arena = Arena::take(words);
        let base = arena.0.as_mut_ptr();
        // SAFETY: every offset lies inside the arena's capacity.
        let register = |i: usize| unsafe { base.add(at[i]) } as *mut u8;
        for (i, (step, dtype)) in self.steps.iter().enumerate() {
            if let Step::Constant(s) = step {
                fill(register(i), width, *s, *dtype);
            }
        }
        let mut pointers: SmallVec<[*const u8; 16]> =
            smallvec::smallvec![std::ptr::null(); self.steps.len()];
        let mut chunk_start = start;
        while chunk_start < end {
            let n = CHUNK.min(end - chunk_start);
            for (i, (step, _)) in self.steps.iter().enumerate() {
                pointers[i] = match step {
                    Step::Load { leaf } => {
                        let source = &self.leaves[*leaf];
                        match contiguous_run(&source.layout, chunk_start) {
                            Some(offset) => (source.pointer + offset * source.size) as *const u8,
                            None => {
                                let out = register(i);
                                // SAFETY: the register holds `width` elements; the layout lies
                                // inside its buffer.
                                unsafe { gather(source, &self.shape, chunk_start, n, out) };
                                out
                            }
                        }
                    }
                    Step::Constant(_) => register(i) as *const u8,
                    Step::Compute { run, args } => {
                        let mut inputs = [std::ptr::null(); 3];
                        for (input, &a) in inputs.iter_mut().zip(args.iter()) {
                            *input = pointers[a];
                        }
                        let out = match self.direct[i] {
                            Some(k) => {
                                let d = &self.stores[k].1;
                                (d.pointer + (d.layout.offset + chunk_start) * d.size) as *mut u8
                            }
                            None => register(i),
                        };
                        // SAFETY: each argument points at n elements of the loop's input dtype,
                        // the output (register or destination) has room for n of its own.
                        unsafe { run(n, &inputs[..args.len()], out) };
                        out
                    }
                };
            }
            if let Some(w) = watch {
                sink(pointers[w], n);
            }
            for (k, (node, destination)) in self.stores.iter().enumerate() {
                if self.direct[*node] == Some(k) {
                    continue;
                }
                // SAFETY: the destination layout lies inside its buffer; chunks of different
                // tasks write disjoint elements.
                unsafe { scatter(destination, &self.shape, chunk_start, n, pointers[*node]) };
            }
            chunk_start += n;
        }
    }
}

thread_local! {
    /// The registers' memory of the last pass this thread ran, kept for the next: a small pass
    /// would otherwise spend as long in the allocator as in its loops.
    static SPARE: std::cell::Cell<Vec<u128>> = const { std::cell::Cell::new(Vec::new()) };
}

/// Registers' memory for a pass, returned to this thread's spare when the pass is done.
struct Arena(Vec<u128>);

impl Arena {
    fn take(words: usize) -> Arena {
        let mut spare = SPARE.take();
        spare.clear();
        spare.reserve(words);
        Arena(spare)
    }
}

impl Drop for Arena {
    fn drop(&mut self) {
        // Chunks of CHUNK elements bound what a pass needs; a very wide plan's is not kept.
        if self.0.capacity() <= 16 * CHUNK {
            SPARE.set(std::mem::take(&mut self.0));
        }
    }
}

/// Whether step `node` may write its chunk straight into `destination`: no leaf reads the
/// destination's buffer, or one does through the same layout (an in-place update, `x *= 5`) and
/// `node` is the last step to read it — each element is then read before it is overwritten, as
/// in NumPy's in-place loops — and no output is stored from it afterwards.
fn writes_after_reads(
    steps: &[(Step, DType)],
    leaves: &[Source],
    stores: &[(usize, Source)],
    node: usize,
    destination: &Source,
) -> bool {
    let aliased: SmallVec<[usize; 4]> = (0..leaves.len())
        .filter(|&l| leaves[l].pointer == destination.pointer)
        .collect();
    if aliased
        .iter()
        .any(|&l| leaves[l].layout != destination.layout)
    {
        return false;
    }
    let loads_aliased =
        |i: usize| matches!(steps[i].0, Step::Load { leaf } if aliased.contains(&leaf));
    let last_reader = steps
        .iter()
        .enumerate()
        .filter(|(_, (step, _))| {
            matches!(step, Step::Compute { args, .. } if args.iter().any(|&a| loads_aliased(a)))
        })
        .map(|(i, _)| i)
        .max();
    last_reader.is_none_or(|last| last <= node) && !stores.iter().any(|(n, _)| loads_aliased(*n))
}

/// Up to three items (a loop's arguments) without a heap allocation.
#[derive(Clone, Copy)]
struct Few<T: Copy + Default> {
    items: [T; 3],
    len: usize,
}

impl<T: Copy + Default> FromIterator<T> for Few<T> {
    fn from_iter<I: IntoIterator<Item = T>>(iter: I) -> Few<T> {
        let mut few = Few {
            items: [T::default(); 3],
            len: 0,
        };
        for item in iter {
            few.items[few.len] = item;
            few.len += 1;
        }
        few
    }
}

impl<T: Copy + Default> std::ops::Deref for Few<T> {
    type Target = [T];
    fn deref(&self) -> &[T] {
        &self.items[..self.len]
    }
}

/// The buffer offset where elements `[start, start + CHUNK)` of a contiguous layout begin.
fn contiguous_run(layout: &Layout, start: usize) -> Option<usize> {
    layout.is_contiguous().then(|| layout.offset + start)
}

/// Buffer offsets of flat positions `start..start + n`, walked like an odometer.
fn offsets(
    layout: &Layout,
    shape: &[usize],
    start: usize,
    n: usize,
    mut each: impl FnMut(usize, isize),
) {
    let ndim = shape.len();
    if ndim == 0 {
        each(0, layout.offset as isize);
        return;
    }
    let mut coords = vec![0usize; ndim];
    let mut rest = start;
    for d in (0..ndim).rev() {
        coords[d] = rest % shape[d];
        rest /= shape[d];
    }
    let mut offset: isize = layout.offset as isize
        + coords
            .iter()
            .zip(&layout.strides)
            .map(|(&c, &s)| c as isize * s)
            .sum::<isize>();
    let last = ndim - 1;
    let (last_len, last_stride) = (shape[last], layout.strides[last]);
    let mut k = 0;
    while k < n {
        let run = (last_len - coords[last]).min(n - k);
        for j in 0..run {
            each(k + j, offset + j as isize * last_stride);
        }
        k += run;
        offset += run as isize * last_stride;
        coords[last] += run;
        let mut d = last;
        while coords[d] == shape[d] && d > 0 {
            offset -= shape[d] as isize * layout.strides[d];
            coords[d] = 0;
            d -= 1;
            coords[d] += 1;
            offset += layout.strides[d];
        }
    }
}

macro_rules! by_size {
    ($size:expr, $T:ident => $body:expr) => {
        match $size {
            1 => {
                type $T = u8;
                $body
            }
            2 => {
                type $T = u16;
                $body
            }
            4 => {
                type $T = u32;
                $body
            }
            8 => {
                type $T = u64;
                $body
            }
            _ => {
                type $T = u128;
                $body
            }
        }
    };
}

/// # Safety
/// `out` has room for `n` elements; the layout lies inside the source's buffer.
unsafe fn gather(source: &Source, shape: &[usize], start: usize, n: usize, out: *mut u8) {
    by_size!(source.size, T => {
        let base = source.pointer as *const T;
        let out = out as *mut T;
        offsets(&source.layout, shape, start, n, |k, offset| {
            out.add(k).write(base.offset(offset).read_unaligned());
        });
    })
}

/// # Safety
/// `values` holds `n` elements; the layout lies inside the destination's buffer.
unsafe fn scatter(
    destination: &Source,
    shape: &[usize],
    start: usize,
    n: usize,
    values: *const u8,
) {
    if let Some(offset) = contiguous_run(&destination.layout, start) {
        let to = (destination.pointer + offset * destination.size) as *mut u8;
        std::ptr::copy(values, to, n * destination.size);
        return;
    }
    by_size!(destination.size, T => {
        let base = destination.pointer as *mut T;
        let values = values as *const T;
        offsets(&destination.layout, shape, start, n, |k, offset| {
            base.offset(offset).write_unaligned(values.add(k).read_unaligned());
        });
    })
}

fn fill(out: *mut u8, n: usize, value: Scalar, dtype: DType) {
    with_dtype!(dtype, T => {
        let v: T = value.cast();
        let out = out as *mut T;
        for k in 0..n {
            // SAFETY: the register has room for `n` elements of `dtype`.
            unsafe { out.add(k).write(v) };
        }
    })
}

/// Runs a plan that computes `outputs` (each a buffer seen through a layout of `shape`).
/// `nodes` are the outputs' DAG in topological order.
pub fn run(shape: &[usize], outputs: &[(Buffer, Layout, Expr)], nodes: &[Expr]) -> Result<()> {
    let roots: SmallVec<[&Expr; 4]> = outputs.iter().map(|(_, _, e)| e).collect();
    let destinations: SmallVec<[(&Buffer, &Layout); 4]> =
        outputs.iter().map(|(b, l, _)| (b, l)).collect();
    let program = Program::of_nodes(shape, nodes, &roots, &destinations);
    let size = program.size();
    if size >= PARALLEL_FROM {
        // Each task is a few hundred microseconds of work: an interrupt stops the pass at the
        // next one (a pass into an existing array leaves it partly updated).
        let stop = Stop::current();
        threads::install(|| {
            (0..size.div_ceil(TASK)).into_par_iter().for_each(|t| {
                if stop.requested() {
                    return;
                }
                let start = t * TASK;
                program.run_range(start, (start + TASK).min(size), None, |_, _| {});
            })
        });
        if stop.requested() {
            return Err(Error::new(ErrorKind::Interrupted, "interrupted"));
        }
    } else {
        program.run_range(0, size, None, |_, _| {});
    }
    Ok(())
}

/// The value of an expression of host scalars.
pub fn run_scalar(expr: &Expr) -> Result<Scalar> {
    let program = Program::new(&[], &[expr], &[]);
    let root = program.steps.len() - 1;
    let mut out = Scalar::Int(0);
    program.run_range(0, 1, Some(root), |pointer, _| {
        out = with_dtype!(expr.dtype(), T => unsafe { (pointer as *const T).read() }.to_scalar());
    });
    Ok(out)
}

// SAFETY (for the `Program` shared between rayon tasks): its pointers are plain addresses of
// buffers that stay alive and unaliased by other code while the plan runs.
unsafe impl Sync for Program {}

/// Runs `program` over `[start, end)`, handing each chunk of node `watch` to `sink`.
pub(crate) fn run_watching(
    program: &Program,
    start: usize,
    end: usize,
    sink: impl FnMut(*const u8, usize),
) {
    let watch = program.steps.len() - 1;
    program.run_range(start, end, Some(watch), sink);
}

impl Program {
    pub(crate) fn len(&self) -> usize {
        self.size()
    }

    /// Where the values of the last node (the one reductions watch) from `start` on lie in
    /// memory, when that node is a contiguous leaf read in place.
    pub(crate) fn values_in_place(&self, start: usize) -> Option<*const u8> {
        match self.steps.last()? {
            (Step::Load { leaf }, _) => {
                let source = &self.leaves[*leaf];
                contiguous_run(&source.layout, start)
                    .map(|offset| (source.pointer + offset * source.size) as *const u8)
            }
            _ => None,
        }
    }

    /// The dtype of the last node, the one reductions watch.
    pub(crate) fn value_dtype(&self) -> DType {
        self.steps.last().expect("plans have nodes").1
    }

    /// Reads the elements of one layout of a cpu buffer (at `pointer`, of `from`) as `to`:
    /// built without `Expr`, so lanes of a reduction can be planned on any thread.
    pub(crate) fn single_leaf(pointer: usize, layout: Layout, from: DType, to: DType) -> Program {
        let mut steps: Steps = smallvec::smallvec![(Step::Load { leaf: 0 }, from)];
        if from != to {
            steps.push((
                Step::Compute {
                    run: cast_loop(from, to),
                    args: Few::from_iter([0]),
                },
                to,
            ));
        }
        Program {
            shape: layout.shape.clone(),
            direct: smallvec::smallvec![None; steps.len()],
            steps,
            leaves: smallvec::smallvec![Source {
                pointer,
                layout,
                size: from.size(),
            }],
            stores: Stores::new(),
        }
    }
}

// ---- loops ----

const fn op_of(code: u8) -> Op {
    // SAFETY: only called with `Op::X as u8` constants.
    unsafe { std::mem::transmute::<u8, Op>(code) }
}

/// Elements per block of `map`: all of a block's inputs are read before any of its outputs is
/// written, so an output may be one of the inputs (in place, element for element: `x *= 5`
/// computes into `x`), and the block's fixed length lets the compiler vectorise it.
const BLOCK: usize = 16;

/// `out[i] = f(i)` for `i < n`, where `f` reads element `i` of the inputs.
///
/// # Safety
/// `out` has room for `n` elements of `O`; `f(i)` reads only element `i` of memory that is
/// either not `out` or exactly `out`.
#[inline(always)]
unsafe fn map<O>(n: usize, out: *mut u8, f: impl Fn(usize) -> O) {
    let out = out as *mut O;
    let mut start = 0;
    while start + BLOCK <= n {
        let mut block = [const { std::mem::MaybeUninit::<O>::uninit() }; BLOCK];
        for (k, slot) in block.iter_mut().enumerate() {
            slot.write(f(start + k));
        }
        std::ptr::copy_nonoverlapping(block.as_ptr() as *const O, out.add(start), BLOCK);
        start += BLOCK;
    }
    for i in start..n {
        out.add(i).write(f(i));
    }
}

// The loops below name their operation `op_of(OP)` inside the closure, a constant there, so
// that the closure shrinks to the operation's own instructions and is inlined into `map`.

/// Element `i` of a loop input of type `T`.
///
/// # Safety
/// `input` points at more than `i` elements of `T`.
#[inline(always)]
unsafe fn at<T: Copy>(input: *const u8, i: usize) -> T {
    (input as *const T).add(i).read()
}

unsafe fn map2<T: Math, const OP: u8>(n: usize, ins: &[*const u8], out: *mut u8) {
    let (a, b) = (ins[0], ins[1]);
    map(n, out, |i| T::binary(op_of(OP), at(a, i), at(b, i)));
}

unsafe fn compare2<T: Math, const OP: u8>(n: usize, ins: &[*const u8], out: *mut u8) {
    let (a, b) = (ins[0], ins[1]);
    map(n, out, |i| T::compare(op_of(OP), at(a, i), at(b, i)));
}

unsafe fn map1<T: Math, const OP: u8>(n: usize, ins: &[*const u8], out: *mut u8) {
    let a = ins[0];
    map(n, out, |i| T::unary(op_of(OP), at(a, i)));
}

unsafe fn test1<T: Math, const OP: u8>(n: usize, ins: &[*const u8], out: *mut u8) {
    let a = ins[0];
    map(n, out, |i| T::predicate(op_of(OP), at(a, i)));
}

unsafe fn part1<T: ComplexMath, const OP: u8>(n: usize, ins: &[*const u8], out: *mut u8) {
    let a = ins[0];
    map(n, out, |i| T::part(op_of(OP), at(a, i)));
}

unsafe fn choose<T: Copy>(n: usize, ins: &[*const u8], out: *mut u8) {
    let (c, a, b) = (ins[0], ins[1], ins[2]);
    map(n, out, |i| {
        if at::<bool>(c, i) {
            at::<T>(a, i)
        } else {
            at::<T>(b, i)
        }
    });
}

unsafe fn clip<T: Math>(n: usize, ins: &[*const u8], out: *mut u8) {
    let (x, low, high) = (ins[0], ins[1], ins[2]);
    map(n, out, |i| T::clip(at(x, i), at(low, i), at(high, i)));
}

/// `int64 < uint64` and friends, compared exactly (NumPy's `qQ->?` loops).
unsafe fn compare_mixed<A: Element + Into<i128>, B: Element + Into<i128>, const OP: u8>(
    n: usize,
    ins: &[*const u8],
    out: *mut u8,
) {
    let (a, b) = (ins[0], ins[1]);
    map(n, out, |i| {
        let (x, y): (i128, i128) = (at::<A>(a, i).into(), at::<B>(b, i).into());
        i128_compare(op_of(OP), x, y)
    });
}

#[inline(always)]
fn i128_compare(op: Op, a: i128, b: i128) -> bool {
    match op {
        Op::Equal => a == b,
        Op::NotEqual => a != b,
        Op::Less => a < b,
        Op::LessEqual => a <= b,
        Op::Greater => a > b,
        Op::GreaterEqual => a >= b,
        Op::LogicalAnd => a != 0 && b != 0,
        Op::LogicalOr => a != 0 || b != 0,
        _ => (a != 0) != (b != 0),
    }
}

unsafe fn cast_run<T: Copy, U: crate::base::element::CastFrom<T>>(
    n: usize,
    ins: &[*const u8],
    out: *mut u8,
) {
    let a = ins[0];
    map(n, out, |i| cast::<T, U>(at(a, i)));
}

fn cast_loop(from: DType, to: DType) -> Loop {
    with_dtype!(from, T => with_dtype!(to, U => cast_run::<T, U> as Loop))
}

macro_rules! pick {
    ($op:expr, $wrapper:ident, $T:ty, [$($name:ident),* $(,)?]) => {
        match $op {
            $(Op::$name => $wrapper::<$T, { Op::$name as u8 }> as Loop,)*
            other => unreachable!("{other:?} is not in this family"),
        }
    };
}

fn binary_loop<T: Math>(op: Op) -> Loop {
    pick!(
        op,
        map2,
        T,
        [
            Add,
            Subtract,
            Multiply,
            Divide,
            FloorDivide,
            Remainder,
            Fmod,
            Power,
            FloatPower,
            Maximum,
            Minimum,
            Fmax,
            Fmin,
            Arctan2,
            Hypot,
            Copysign,
            Logaddexp,
            Logaddexp2,
            Heaviside,
            Nextafter,
            BitwiseAnd,
            BitwiseOr,
            BitwiseXor,
            LeftShift,
            RightShift,
        ]
    )
}

fn compare_loop<T: Math>(op: Op) -> Loop {
    pick!(
        op,
        compare2,
        T,
        [
            Equal,
            NotEqual,
            Less,
            LessEqual,
            Greater,
            GreaterEqual,
            LogicalAnd,
            LogicalOr,
            LogicalXor,
        ]
    )
}

fn unary_loop<T: Math>(op: Op) -> Loop {
    pick!(
        op,
        map1,
        T,
        [
            Negative, Positive, Absolute, Sign, Square, Reciprocal, Conjugate, Sqrt, Cbrt, Exp,
            Exp2, Expm1, Log, Log2, Log10, Log1p, Sin, Cos, Tan, Arcsin, Arccos, Arctan, Sinh,
            Cosh, Tanh, Arcsinh, Arccosh, Arctanh, Floor, Ceil, Trunc, Rint, Deg2rad, Rad2deg,
            Invert, Spacing,
        ]
    )
}

fn predicate_loop<T: Math>(op: Op) -> Loop {
    pick!(op, test1, T, [Isnan, Isinf, Isfinite, Signbit, LogicalNot])
}

fn part_loop<T: ComplexMath>(op: Op) -> Loop {
    pick!(op, part1, T, [Absolute, Real, Imag])
}

fn mixed_compare<const OP: u8>(a: DType, b: DType) -> Loop {
    match (a, b) {
        (DType::I64, DType::U64) => compare_mixed::<i64, u64, OP>,
        (DType::U64, DType::I64) => compare_mixed::<u64, i64, OP>,
        other => unreachable!("no mixed comparison for {other:?}"),
    }
}

/// The loop a node of `op` runs, for arguments of `inputs` dtypes giving `output`.
pub fn op_loop(op: Op, inputs: &[DType], output: DType) -> Loop {
    let t = inputs[0];
    match op {
        Op::Equal
        | Op::NotEqual
        | Op::Less
        | Op::LessEqual
        | Op::Greater
        | Op::GreaterEqual
        | Op::LogicalAnd
        | Op::LogicalOr
        | Op::LogicalXor => {
            if inputs[1] != t {
                return match op {
                    Op::Equal => mixed_compare::<{ Op::Equal as u8 }>(t, inputs[1]),
                    Op::NotEqual => mixed_compare::<{ Op::NotEqual as u8 }>(t, inputs[1]),
                    Op::Less => mixed_compare::<{ Op::Less as u8 }>(t, inputs[1]),
                    Op::LessEqual => mixed_compare::<{ Op::LessEqual as u8 }>(t, inputs[1]),
                    Op::Greater => mixed_compare::<{ Op::Greater as u8 }>(t, inputs[1]),
                    _ => mixed_compare::<{ Op::GreaterEqual as u8 }>(t, inputs[1]),
                };
            }
            with_dtype!(t, T => compare_loop::<T>(op))
        }
        Op::Isnan | Op::Isinf | Op::Isfinite | Op::Signbit | Op::LogicalNot => {
            with_dtype!(t, T => predicate_loop::<T>(op))
        }
        Op::Absolute | Op::Real | Op::Imag if t.is_complex() => match t {
            DType::C64 => part_loop::<c64>(op),
            _ => part_loop::<c128>(op),
        },
        Op::Where => with_dtype!(output, T => choose::<T> as Loop),
        Op::Clip => with_dtype!(t, T => clip::<T> as Loop),
        _ if inputs.len() == 2 => with_dtype!(t, T => binary_loop::<T>(op)),
        _ => with_dtype!(t, T => unary_loop::<T>(op)),
    }
}
