//! The cpu runs a plan as one pass over memory: the flat iteration space is cut into tasks for
//! the cores, each task into chunks that stay in the L1 cache, and for each chunk every node of
//! the DAG is one tight loop (`cpu_math`, instantiated per dtype) from its arguments' chunk to
//! its own. Contiguous leaves are read in place; strided ones are gathered first, and strided
//! outputs scattered after. No temporary as large as the arrays exists, whatever the plan.

mod kept;
#[cfg(test)]
mod tests;

use rayon::prelude::*;
use smallvec::SmallVec;

use super::cpu_loops::{cast_loop, op_loop};
use super::expr::{Expr, NodeKind};
use crate::base::element::Element;
use crate::base::few::Few;
use crate::base::interrupt::Stop;
use crate::base::layout::{collapse, Dims, Layout};
use crate::base::{DType, Scalar};
use crate::device::cpu::threads;
use crate::device::Buffer;
use crate::error::{Error, ErrorKind, Result};
use crate::with_dtype;
use kept::Built;

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
    /// The constants' registers, when the program is kept for passes to come.
    constants: Constants,
}

/// Registers of a program's constants filled once, `width` elements each, at `at[step]`.
#[derive(Default)]
struct Constants {
    words: Vec<u128>,
    at: SmallVec<[usize; 8]>,
    width: usize,
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
            constants: Constants::default(),
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
        // Slices taken once: indexing the small vectors checks where they live every time.
        let (steps, leaves, direct, stores) = (
            &self.steps[..],
            &self.leaves[..],
            &self.direct[..],
            &self.stores[..],
        );
        let width = CHUNK.min(end - start);
        let filled = width <= self.constants.width;
        let needs_register = |i: usize, step: &Step| match step {
            Step::Load { leaf } => !leaves[*leaf].layout.is_contiguous(),
            Step::Constant(_) => !filled,
            _ => direct[i].is_none(),
        };
        // One uninitialised arena: every loop and gather writes a register before it is read.
        let (mut at_inline, mut at_spilled) = ([0; INLINE_STEPS], Vec::new());
        let at = scratch(&mut at_inline, &mut at_spilled, steps.len(), 0);
        let mut words = 0;
        for (i, (step, dtype)) in steps.iter().enumerate() {
            at[i] = words;
            if needs_register(i, step) {
                words += register_words(width, *dtype);
            }
        }
        let at = &*at;
        let mut arena = Arena::take(words);
        let base = arena.base(self.registers_in_page(start, end, filled));
        // SAFETY: every offset lies inside the arena's capacity.
        let register = |i: usize| unsafe { base.add(at[i]) } as *mut u8;
        for (i, (step, dtype)) in steps.iter().enumerate() {
            match step {
                Step::Constant(s) if !filled => fill(register(i), width, *s, *dtype),
                _ => {}
            }
        }
        let null = std::ptr::null();
        let (mut pointers_inline, mut pointers_spilled) = ([null; INLINE_STEPS], Vec::new());
        let pointers = scratch(
            &mut pointers_inline,
            &mut pointers_spilled,
            steps.len(),
            null,
        );
        let mut chunk_start = start;
        while chunk_start < end {
            let n = CHUNK.min(end - chunk_start);
            for (i, (step, _)) in steps.iter().enumerate() {
                pointers[i] = match step {
                    Step::Load { leaf } => {
                        let source = &leaves[*leaf];
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
                    Step::Constant(_) if filled => self.constants.register(i),
                    Step::Constant(_) => register(i) as *const u8,
                    Step::Compute { run, args } => {
                        let mut inputs = [std::ptr::null(); 3];
                        for (input, &a) in inputs.iter_mut().zip(args.iter()) {
                            *input = pointers[a];
                        }
                        let out = match direct[i] {
                            Some(k) => {
                                let d = &stores[k].1;
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
            for (k, (node, destination)) in stores.iter().enumerate() {
                if direct[*node] == Some(k) {
                    continue;
                }
                // SAFETY: the destination layout lies inside its buffer; chunks of different
                // tasks write disjoint elements.
                unsafe { scatter(destination, &self.shape, chunk_start, n, pointers[*node]) };
            }
            chunk_start += n;
        }
    }

    /// Where in a page the registers of the pass over `start..end` go (`REGISTERS_IN_PAGE`).
    fn registers_in_page(&self, start: usize, end: usize, filled: bool) -> usize {
        if end - start < PLACED_FROM {
            return REGISTERS_IN_PAGE;
        }
        let arrays = (self.leaves.iter())
            .chain(self.stores.iter().map(|(_, store)| store))
            .map(|s| s.pointer + (s.layout.offset + start) * s.size);
        let constants = (self.steps.iter().enumerate())
            .filter(|(_, (step, _))| filled && matches!(step, Step::Constant(_)))
            .map(|(i, _)| self.constants.register(i) as usize);
        let distance = |place: usize| {
            (arrays.clone().chain(constants.clone()))
                .map(|address| {
                    let apart = (place + PAGE - address % PAGE) % PAGE;
                    apart.min(PAGE - apart)
                })
                .min()
                .unwrap_or(PAGE)
        };
        (0..REGISTER_PLACES)
            .map(|k| (REGISTERS_IN_PAGE + k * PAGE / REGISTER_PLACES) % PAGE)
            .rev()
            .max_by_key(|&place| distance(place))
            .unwrap_or(REGISTERS_IN_PAGE)
    }
}

/// Programs of up to this many steps keep their per-pass scratch (register offsets, chunk
/// pointers) on the stack.
const INLINE_STEPS: usize = 16;

/// `len` items of scratch, in `inline` when they fit.
fn scratch<'a, T: Copy>(
    inline: &'a mut [T; INLINE_STEPS],
    spilled: &'a mut Vec<T>,
    len: usize,
    value: T,
) -> &'a mut [T] {
    if len <= INLINE_STEPS {
        return &mut inline[..len];
    }
    spilled.resize(len, value);
    spilled
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
        spare.reserve(words + PAGE_WORDS);
        Arena(spare)
    }

    /// Where the registers start: `in_page` bytes into a page.
    fn base(&mut self, in_page: usize) -> *mut u128 {
        let start = self.0.as_mut_ptr();
        // SAFETY: `take` reserved a page of words beyond what the registers need.
        unsafe { start.add(words_to_page_offset(start, in_page)) }
    }
}

/// A loop that stores to one stream and loads from another whose address is the same modulo
/// 4 KiB as a store a few elements back waits for that store (4K aliasing): a thread whose
/// registers lay 16 bytes past the constants' in the page ran `y = x * 5 + 1` at 2.6× the time
/// per element of the other thread. So kept constants start a third of a page from where
/// large arrays start in theirs (16 bytes in), and each pass puts its registers as far as it
/// can from where its arrays and constants start.
const PAGE: usize = 4096;
const PAGE_WORDS: usize = PAGE / 16;
const CONSTANTS_IN_PAGE: usize = 16 + 1360;
/// Registers go here in passes shorter than `PLACED_FROM` elements (far from large arrays and
/// constants), or at the first of the `REGISTER_PLACES` places a step of `PAGE / REGISTER_PLACES`
/// apart from it that is farthest from where the pass's arrays and constants are.
const REGISTERS_IN_PAGE: usize = 16 + 2 * 1360;
const REGISTER_PLACES: usize = 8;
const PLACED_FROM: usize = 256;

/// The 16-byte words of a register of `width` elements of `dtype`.
fn register_words(width: usize, dtype: DType) -> usize {
    (width * dtype.size()).div_ceil(16)
}

/// How many 16-byte words past `start` the address `offset` bytes into a page is.
fn words_to_page_offset(start: *const u128, offset: usize) -> usize {
    (offset + PAGE - start as usize % PAGE) % PAGE / 16
}

impl Drop for Arena {
    fn drop(&mut self) {
        // Chunks of CHUNK elements bound what a pass needs; a very wide plan's is not kept.
        if self.0.capacity() <= 16 * CHUNK + PAGE_WORDS {
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
    let built = Built::find_or_build(shape, nodes, &roots, &destinations);
    let ran = run_program(&built.program);
    built.keep();
    ran
}

fn run_program(program: &Program) -> Result<()> {
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
            constants: Constants::default(),
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

impl Constants {
    fn register(&self, step: usize) -> *const u8 {
        // SAFETY: `at` holds offsets inside `words`.
        unsafe { self.words.as_ptr().add(self.at[step]) as *const u8 }
    }
}

impl Program {
    /// Fills the constants' registers for chunks of up to `width` elements, once for every
    /// pass this program will run.
    fn fill_constants(&mut self, width: usize) {
        let words: usize = (self.steps.iter())
            .filter(|(step, _)| matches!(step, Step::Constant(_)))
            .map(|(_, dtype)| register_words(width, *dtype))
            .sum();
        let words = vec![0; words + PAGE_WORDS];
        let mut at = SmallVec::with_capacity(self.steps.len());
        let mut next = words_to_page_offset(words.as_ptr(), CONSTANTS_IN_PAGE);
        for (step, dtype) in &self.steps {
            at.push(next);
            if let Step::Constant(_) = step {
                next += register_words(width, *dtype);
            }
        }
        let constants = Constants { words, at, width };
        for (i, (step, dtype)) in self.steps.iter().enumerate() {
            if let Step::Constant(s) = step {
                let register = constants.register(i) as *mut u8;
                fill(register, width, *s, *dtype);
            }
        }
        self.constants = constants;
    }
}
