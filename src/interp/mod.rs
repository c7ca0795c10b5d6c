//! The interpreter: runs statements, keeps the session's globals, calls functions, and asks the
//! array layer for every numeric operation. It never knows which device does the work.

pub mod bounded;
pub mod builtins;
pub mod commands;
mod convert;
mod cycles;
pub mod display;
mod host_ops;
mod lost;
mod placement;
mod profile;
#[cfg(test)]
mod reference;
mod report_commands;
mod sweep;
pub mod value;

use std::cell::RefCell;
use std::io::Write;
use std::rc::Rc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Instant;

use rustc_hash::FxHashMap;

use crate::array::index::{self, Selection};
use crate::array::ops;
use crate::array::Array;
use crate::device::cpu::random::Rng;
use crate::device::Device;
use crate::error::{name_error, type_error, Error, ErrorKind, Result, SourceMap, Span};
use crate::plan::table;
use crate::syntax::ast::*;
use crate::syntax::{self, resolve};
use builtins::Builtin;
pub use placement::Placement;
pub use report_commands::help_text;
use value::{CellRef, Closure, Value};

/// Deep recursion in user programs needs more stack than a main thread has: the interpreter
/// runs on a thread of this size.
pub const INTERPRETER_STACK_BYTES: usize = 512 << 20;

/// How deep user functions may call before the session stops the recursion.
const MAX_CALL_DEPTH: usize = 1000;

/// The storage of one running function.
#[derive(Default)]
struct Frame {
    locals: Vec<Option<Value>>,
    cells: Vec<CellRef>,
    free: Vec<CellRef>,
}

/// What a statement tells the block that runs it.
enum Flow {
    Next,
    Break,
    Continue,
    Return(Value),
}

/// What the shell asked the interpreter to do after a command line.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Request {
    Continue,
    Quit,
}

pub struct Interpreter {
    pub sources: SourceMap,
    globals: Vec<Option<Value>>,
    global_names: Vec<Rc<str>>,
    global_index: FxHashMap<Rc<str>, u32>,
    builtin_for_global: Vec<Option<Value>>,
    pub default_device: Device,
    pub rng: Rng,
    pub color: bool,
    /// `:time on` / `--time`: a report line after each top-level statement.
    pub timing: bool,
    pub scalar_mode: ScalarMode,
    /// The smallest size from which the gpu won the last `:sweep`, for hints.
    pub crossover: Option<i64>,
    /// Whether the scalar guard has warned this session (it warns once).
    scalar_warned: bool,
    /// The statement running now, for messages that name the line.
    statement: Option<Span>,
    out: Box<dyn Write>,
    /// Where reports (`:time` lines, tables) go: stderr, or a buffer in tests.
    err: Box<dyn Write>,
    profiler: Option<profile::Profiler>,
    depth: usize,
    interrupt: Arc<AtomicBool>,
    quit_requested: bool,
    /// The front end that renders rich output (the Jupyter kernel); none in a terminal.
    frontend: Option<Box<dyn display::Frontend>>,
    /// Every closure made, so that those in unreachable cycles can be freed.
    closures: cycles::Closures,
    /// Programs running now (a `:load` runs one inside another).
    running: usize,
    /// Where the gpu lost its state, for the errors of names that held its arrays.
    gpu_losses: lost::GpuLosses,
    /// `device=auto`: the cost model and this statement's decisions.
    auto: placement::Auto,
}

/// What an implicit element read of a gpu array does (CUDA.jl's `allowscalar`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ScalarMode {
    Allow,
    Warn,
    Error,
}

impl ScalarMode {
    pub fn parse(text: &str) -> Option<ScalarMode> {
        match text {
            "allow" => Some(ScalarMode::Allow),
            "warn" => Some(ScalarMode::Warn),
            "error" => Some(ScalarMode::Error),
            _ => None,
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            ScalarMode::Allow => "allow",
            ScalarMode::Warn => "warn",
            ScalarMode::Error => "error",
        }
    }
}

/// Reads a script file with clean errors for a directory, a missing file or non-UTF-8 bytes.
pub fn read_script(path: &str) -> Result<String> {
    let shown = std::path::Path::new(path);
    if shown.is_dir() {
        return Err(crate::error::io_error(format!(
            "{path} is a directory, not a script"
        )));
    }
    let bytes = std::fs::read(shown)
        .map_err(|e| crate::error::io_error(format!("cannot read {path}: {e}")))?;
    String::from_utf8(bytes).map_err(|e| {
        crate::error::io_error(format!(
            "{path} is not a text script: invalid UTF-8 at byte {}",
            e.utf8_error().valid_up_to()
        ))
    })
}

impl Interpreter {
    pub fn new(out: Box<dyn Write>, err: Box<dyn Write>) -> Interpreter {
        Interpreter {
            sources: SourceMap::default(),
            globals: Vec::new(),
            global_names: Vec::new(),
            global_index: FxHashMap::default(),
            builtin_for_global: Vec::new(),
            default_device: Device::Cpu,
            rng: Rng::new_from_entropy(),
            color: false,
            timing: false,
            scalar_mode: ScalarMode::Warn,
            scalar_warned: false,
            crossover: None,
            statement: None,
            out,
            err,
            profiler: None,
            depth: 0,
            interrupt: Arc::new(AtomicBool::new(false)),
            quit_requested: false,
            frontend: None,
            closures: cycles::Closures::default(),
            running: 0,
            gpu_losses: Default::default(),
            auto: Default::default(),
        }
    }

    /// A flag that, when set (by a Ctrl-C handler), stops the running statement.
    pub fn interrupt_flag(&self) -> Arc<AtomicBool> {
        self.interrupt.clone()
    }

    /// Forgets a Ctrl-C that came after the last statement ended.
    pub fn clear_interrupt(&self) {
        self.interrupt.store(false, Ordering::Relaxed);
    }

    pub fn quit_requested(&self) -> bool {
        self.quit_requested
    }

    pub fn set_default_device(&mut self, device: Device) -> Result<()> {
        if device == Device::Gpu {
            crate::device::gpu::availability()?;
        }
        self.default_device = device;
        Ok(())
    }

    pub fn flush(&mut self) {
        let _ = self.out.flush();
    }

    pub fn write_out(&mut self, text: &str) {
        let _ = self.out.write_all(text.as_bytes());
    }

    /// A report on the error stream (after flushing what the program printed, to keep order).
    pub fn write_err(&mut self, text: &str) {
        self.flush();
        let _ = self.err.write_all(text.as_bytes());
        let _ = self.err.flush();
    }

    pub fn set_frontend(&mut self, frontend: Box<dyn display::Frontend>) {
        self.frontend = Some(frontend);
    }

    /// Whether a front end renders rich forms (so that making them is worth it).
    pub fn has_frontend(&self) -> bool {
        self.frontend.is_some()
    }

    /// Shows `rich` on the front end, after what was printed before it; without one, its text
    /// (ended by a newline) goes to stdout, or to stderr for a report.
    pub fn show(&mut self, why: display::Shown, rich: display::Rich) {
        self.flush();
        match (&mut self.frontend, why) {
            (Some(frontend), _) => frontend.show(why, rich),
            (None, display::Shown::Report) => self.write_err(&display::line_ended(rich.text)),
            (None, _) => self.write_out(&display::line_ended(rich.text)),
        }
    }

    fn intern(&mut self, name: &str) -> u32 {
        if let Some(&i) = self.global_index.get(name) {
            return i;
        }
        let i = self.globals.len() as u32;
        let name: Rc<str> = name.into();
        self.globals.push(None);
        self.builtin_for_global.push(builtins::lookup_value(&name));
        self.global_names.push(name.clone());
        self.global_index.insert(name, i);
        i
    }

    /// Sets a global variable (`:sweep` binds its size this way).
    pub fn set_global(&mut self, name: &str, value: Value) {
        let slot = self.intern(name) as usize;
        self.globals[slot] = Some(value);
    }

    /// The value of `fragment`, one expression in the running command's arguments `args`,
    /// evaluated at the top level.
    pub fn evaluate_fragment(&mut self, args: &str, fragment: &str) -> Result<Value> {
        let program = self.compile_fragment(args, fragment)?;
        match program.body.as_slice() {
            [Stmt {
                kind: StmtKind::Expr(e),
                ..
            }] => self.eval(e, &mut Frame::default()),
            _ => Err(crate::error::command_error(format!(
                "expected one expression, not `{fragment}`"
            ))),
        }
    }

    /// Parses and resolves a source; it is kept while errors may quote it: while it runs, and
    /// while functions defined in it live (a shell line that defines none is forgotten at the
    /// next one, so a long session does not grow with its history).
    pub fn compile(&mut self, name: &str, text: &str) -> Result<Program> {
        if self.running == 0 && self.profiler.is_none() {
            let in_use = self.closures.sources_in_use();
            self.sources.retain(|id| in_use.contains(&id));
        }
        let id = self.sources.add(name, text);
        self.parse_and_resolve(text, id)
    }

    /// Parses `fragment`, a slice of the running command's arguments `args` (`:bench STMT`,
    /// `:sweep`'s sizes and body), so that its errors point into the command's own line: the
    /// line's source is parsed with everything but the fragment blanked out.
    pub fn compile_fragment(&mut self, args: &str, fragment: &str) -> Result<Program> {
        match self.blank_around(args, fragment) {
            Some((source, blanked)) => self.parse_and_resolve(&blanked, source),
            None => self.compile("<command>", fragment),
        }
    }

    /// The running statement's source with every byte but `fragment`'s (a slice of `args`) and
    /// the newlines made a space, so that positions in it are positions in the source.
    fn blank_around(&self, args: &str, fragment: &str) -> Option<(u32, String)> {
        let within_args = (fragment.as_ptr() as usize).checked_sub(args.as_ptr() as usize)?;
        if within_args + fragment.len() > args.len() {
            return None;
        }
        let span = self.statement?;
        let text = &self.sources.get(span.source)?.text;
        let statement = text.get(span.start as usize..span.end as usize)?;
        let start = span.start as usize + statement.rfind(args)? + within_args;
        let kept = start..start + fragment.len();
        let mut bytes = text.as_bytes().to_vec();
        for (i, byte) in bytes.iter_mut().enumerate() {
            if !kept.contains(&i) && *byte != b'\n' {
                *byte = b' ';
            }
        }
        Some((span.source, String::from_utf8(bytes).ok()?))
    }

    fn parse_and_resolve(&mut self, text: &str, source: u32) -> Result<Program> {
        let program = syntax::parse(text, source)?;
        let mut intern = |n: &str| self.intern(n);
        resolve::resolve(&program, &mut intern);
        Ok(program)
    }

    /// Runs a whole source. With `echo`, top-level expression values are printed (the REPL).
    pub fn run_source(&mut self, name: &str, text: &str, echo: bool) -> Result<()> {
        let program = self.compile(name, text)?;
        self.run_program(&program, echo)
    }

    pub fn run_program(&mut self, program: &Program, echo: bool) -> Result<()> {
        crate::base::interrupt::set_current(&self.interrupt);
        self.running += 1;
        let result = self.run_statements(program, echo);
        self.running -= 1;
        result
    }

    fn run_statements(&mut self, program: &Program, echo: bool) -> Result<()> {
        let mut frame = Frame::default();
        let mut held: Vec<String> = Vec::new();
        let count = program.body.len();
        for (k, stmt) in program.body.iter().enumerate() {
            if self.quit_requested {
                break;
            }
            let timed = self.timing && !matches!(stmt.kind, StmtKind::Command { .. });
            if timed {
                crate::device::gpu::begin_measure();
            }
            self.clear_decisions();
            let start = Instant::now();
            let counters = crate::stats::session();
            let passes = crate::plan::pass_mark();
            let mut result = self.run_top_level(stmt, &mut frame, echo);
            // The end of a line or script observes everything: deferred work runs with the last
            // statement, or with the one that failed (whose predecessors ran, as eagerly).
            if k + 1 == count || result.is_err() || self.quit_requested {
                let flushed = crate::plan::flush();
                result = result.and(flushed);
            }
            self.gpu_losses
                .note(result.as_ref().err(), stmt.span, &self.sources);
            if let Err(e) = result {
                self.release_held(&mut held, self.sources.line_of(stmt.span));
                return Err(self.interrupted_instead(e));
            }
            if timed {
                let returned = start.elapsed().as_secs_f64();
                crate::device::synchronize()?;
                let wall = start.elapsed().as_secs_f64();
                crate::stats::record_device_time(crate::device::gpu::end_measure());
                let counters = crate::stats::session() - counters;
                let ran = crate::plan::passes_since(passes);
                let fused = self.fusion_note(&ran);
                let mut text =
                    crate::report::time_line(wall, returned, &counters, fused.as_deref());
                for hint in crate::report::hints(wall, &counters, self.crossover) {
                    text.push_str("\n  ");
                    text.push_str(&hint);
                }
                for decision in self.decisions_text() {
                    text.push_str("\n  ");
                    text.push_str(&decision);
                }
                let within = position_of(stmt.span)..=position_of(Span {
                    start: stmt.span.end,
                    ..stmt.span
                });
                let deferred = crate::plan::pending_positions()
                    .iter()
                    .any(|p| within.contains(p));
                if let Some(pass) = ran.last() {
                    let at = self.line_at(pass.at);
                    self.release_held(&mut held, at);
                }
                if deferred && ran.is_empty() {
                    held.push(text);
                } else {
                    self.write_err(&format!("{text}\n"));
                }
            }
        }
        self.flush();
        Ok(())
    }

    fn line_at(&self, position: u64) -> usize {
        line_at(&self.sources, position)
    }

    /// `fused 3 ops of lines 2–4` for the passes a statement ran, when one fused work (of
    /// several operations, or of other lines).
    fn fusion_note(&self, passes: &[crate::plan::PassRecord]) -> Option<String> {
        let fused = passes
            .iter()
            .any(|p| p.operations > 1 || p.positions.len() > 1);
        if !fused {
            return None;
        }
        let operations: usize = passes.iter().map(|p| p.operations).sum();
        let mut lines: Vec<usize> = passes
            .iter()
            .flat_map(|p| p.positions.iter().map(|&q| self.line_at(q)))
            .collect();
        lines.sort_unstable();
        lines.dedup();
        Some(format!(
            "fused {operations} ops of {}",
            crate::report::lines_text(&lines)
        ))
    }

    /// Prints the `:time` lines of statements whose work was deferred, now that it ran with
    /// line `at`.
    fn release_held(&mut self, held: &mut Vec<String>, at: usize) {
        for text in std::mem::take(held) {
            self.write_err(&format!("{text} · deferred: runs with line {at}\n"));
        }
    }

    fn run_top_level(&mut self, stmt: &Stmt, frame: &mut Frame, echo: bool) -> Result<()> {
        match &stmt.kind {
            StmtKind::Expr(e) if echo => {
                let v = self.eval(e, frame)?;
                if !matches!(v, Value::None) {
                    let text = v.to_repr().map_err(|er| er.at(stmt.span))?;
                    let html = match self.has_frontend() {
                        true => display::value_html(&v).map_err(|er| er.at(stmt.span))?,
                        false => None,
                    };
                    let rich = display::Rich {
                        text,
                        html,
                        ..display::Rich::default()
                    };
                    self.show(display::Shown::Value, rich);
                }
                Ok(())
            }
            _ => match self.exec(stmt, frame)? {
                Flow::Next => Ok(()),
                Flow::Return(_) => {
                    Err(Error::new(ErrorKind::Syntax, "`return` outside a function").at(stmt.span))
                }
                _ => Err(
                    Error::new(ErrorKind::Syntax, "`break` or `continue` outside a loop")
                        .at(stmt.span),
                ),
            },
        }
    }

    /// Runs a script with the per-line profiler on and returns its report.
    pub fn profile_source(&mut self, name: &str, text: &str, width: u16) -> Result<display::Rich> {
        let program = self.compile(name, text)?;
        self.profiler = Some(profile::Profiler::default());
        let result = self.run_program(&program, false);
        let profiler = self.profiler.take().expect("set above");
        result?;
        Ok(profiler.report(&self.sources, width.min(profile::MAX_WIDTH)))
    }

    /// User-visible global variables, in the order they were first named.
    pub fn variables(&self) -> Vec<(Rc<str>, Value)> {
        self.global_names
            .iter()
            .zip(&self.globals)
            .filter_map(|(n, v)| v.clone().map(|v| (n.clone(), v)))
            .collect()
    }

    /// A copy of the global table, to restore when a REPL line fails.
    pub fn snapshot(&self) -> Vec<Option<Value>> {
        self.globals.clone()
    }

    pub fn restore(&mut self, snapshot: Vec<Option<Value>>) {
        let grown = self.globals.len();
        self.globals = snapshot;
        self.globals.resize(grown, None);
    }

    pub fn reset(&mut self) {
        self.globals.iter_mut().for_each(|v| *v = None);
        self.closures.collect();
    }

    /// The closures alive now (for tests of the cycle collector).
    pub fn live_closures(&mut self) -> usize {
        self.closures.collect();
        self.closures.live()
    }

    /// A built-in that gave up for an interrupt fails with whatever its layer says; the user
    /// pressed Ctrl-C, and that is what the error should say.
    fn interrupted_instead(&self, e: Error) -> Error {
        if e.kind != ErrorKind::Interrupted && self.interrupt.swap(false, Ordering::Relaxed) {
            let interrupted = Error::new(ErrorKind::Interrupted, "interrupted");
            return match e.span {
                Some(span) => interrupted.at(span),
                None => interrupted,
            };
        }
        e
    }

    fn check_interrupt(&self) -> Result<()> {
        if self.interrupt.load(Ordering::Relaxed) {
            self.interrupt.store(false, Ordering::Relaxed);
            return Err(Error::new(ErrorKind::Interrupted, "interrupted"));
        }
        Ok(())
    }

    fn exec_block(&mut self, block: &Block, frame: &mut Frame) -> Result<Flow> {
        for stmt in block {
            match self.exec(stmt, frame)? {
                Flow::Next => {}
                other => return Ok(other),
            }
        }
        Ok(Flow::Next)
    }

    fn exec(&mut self, stmt: &Stmt, frame: &mut Frame) -> Result<Flow> {
        if self.profiler.is_none() {
            return self.exec_statement(stmt, frame);
        }
        if let Some(p) = self.profiler.as_mut() {
            p.enter();
        }
        let result = self
            .exec_statement(stmt, frame)
            .and_then(|flow| crate::device::synchronize().map(|_| flow));
        let line = self.sources.line_of(stmt.span);
        if let Some(p) = self.profiler.as_mut() {
            p.exit(stmt.span.source, line);
        }
        result
    }

    fn exec_statement(&mut self, stmt: &Stmt, frame: &mut Frame) -> Result<Flow> {
        self.statement = Some(stmt.span);
        crate::plan::set_position(position_of(stmt.span));
        match &stmt.kind {
            StmtKind::Expr(e) => {
                self.eval(e, frame)?;
            }
            StmtKind::Assign { target, op, value } => self
                .assign(target, *op, value, frame)
                .map_err(|e| e.at(stmt.span))?,
            StmtKind::Unpack { names, value } => {
                let v = self.eval(value, frame)?;
                let items = host_ops::unpack(&v, names.len()).map_err(|e| e.at(value.span))?;
                for (name, item) in names.iter().zip(items) {
                    self.store(name, item, frame);
                }
            }
            StmtKind::If {
                branches,
                otherwise,
            } => {
                for (cond, body) in branches {
                    if self.truth(cond, frame)? {
                        return self.exec_block(body, frame);
                    }
                }
                if let Some(body) = otherwise {
                    return self.exec_block(body, frame);
                }
            }
            StmtKind::While { cond, body } => {
                while self.truth(cond, frame)? {
                    self.check_interrupt().map_err(|e| e.at(stmt.span))?;
                    match self.exec_block(body, frame)? {
                        Flow::Break => break,
                        Flow::Return(v) => return Ok(Flow::Return(v)),
                        _ => {}
                    }
                }
            }
            StmtKind::For { var, iter, body } => {
                return self.exec_for(var, iter, body, frame, stmt.span)
            }
            StmtKind::FnDef { name, func } => {
                let closure = self.make_closure(func, frame)?;
                self.store(name, closure, frame);
            }
            StmtKind::Return(value) => {
                let v = match value {
                    Some(e) => self.eval(e, frame)?,
                    None => Value::None,
                };
                return Ok(Flow::Return(v));
            }
            StmtKind::Break => return Ok(Flow::Break),
            StmtKind::Continue => return Ok(Flow::Continue),
            StmtKind::Command { name, args } => {
                self.flush();
                if commands::run(self, name, args).map_err(|e| e.at(stmt.span))? == Request::Quit {
                    self.quit_requested = true;
                }
            }
        }
        Ok(Flow::Next)
    }

    fn exec_for(
        &mut self,
        var: &Name,
        iter: &Expr,
        body: &Block,
        frame: &mut Frame,
        span: Span,
    ) -> Result<Flow> {
        let iterable = match &iter.kind {
            ExprKind::List(items) => Value::List(Rc::new(
                items
                    .iter()
                    .map(|e| self.eval(e, frame))
                    .collect::<Result<_>>()?,
            )),
            _ => self.eval(iter, frame)?,
        };
        let run_body =
            |this: &mut Interpreter, item: Value, frame: &mut Frame| -> Result<Option<Flow>> {
                this.check_interrupt().map_err(|e| e.at(span))?;
                this.store(var, item, frame);
                Ok(match this.exec_block(body, frame)? {
                    Flow::Break => Some(Flow::Next),
                    Flow::Return(v) => Some(Flow::Return(v)),
                    _ => None,
                })
            };
        match iterable {
            Value::Range { start, stop, step } => {
                let mut i = start;
                while (step > 0 && i < stop) || (step < 0 && i > stop) {
                    if let Some(flow) = run_body(self, Value::Int(i), frame)? {
                        return Ok(flow);
                    }
                    let Some(next) = i.checked_add(step) else {
                        break;
                    };
                    i = next;
                }
            }
            Value::List(items) | Value::Tuple(items) => {
                for item in items.iter() {
                    if let Some(flow) = run_body(self, item.clone(), frame)? {
                        return Ok(flow);
                    }
                }
            }
            Value::Str(s) => {
                for c in s.chars() {
                    if let Some(flow) = run_body(self, Value::Str(c.to_string().into()), frame)? {
                        return Ok(flow);
                    }
                }
            }
            Value::Array(a) => {
                if a.ndim() == 0 {
                    return Err(type_error("iteration over a 0-d array").at(iter.span));
                }
                for i in 0..a.shape()[0] {
                    let item = self
                        .index_value(
                            &a,
                            &[index::Subscript::Basic(crate::base::layout::AxisIndex::At(
                                i as i64,
                            ))],
                        )
                        .map_err(|e| e.at(iter.span))?;
                    if let Some(flow) = run_body(self, item, frame)? {
                        return Ok(flow);
                    }
                }
            }
            other => {
                return Err(
                    type_error(format!("{} cannot be iterated", other.a_kind())).at(iter.span)
                );
            }
        }
        Ok(Flow::Next)
    }

    fn truth(&mut self, cond: &Expr, frame: &mut Frame) -> Result<bool> {
        let v = self.eval(cond, frame)?;
        convert::condition(&v).map_err(|e| e.at(cond.span))
    }

    fn make_closure(&mut self, decl: &Rc<FnDecl>, frame: &mut Frame) -> Result<Value> {
        let defaults = decl
            .params
            .iter()
            .map(|p| p.default.as_ref().map(|e| self.eval(e, frame)).transpose())
            .collect::<Result<Vec<_>>>()?;
        let captured = decl
            .captures
            .borrow()
            .iter()
            .map(|c| match *c {
                Capture::EnclosingCell(i) => frame.cells[i as usize].clone(),
                Capture::EnclosingFree(i) => frame.free[i as usize].clone(),
            })
            .collect();
        let closure = Rc::new(Closure {
            decl: decl.clone(),
            defaults,
            captured,
        });
        self.closures.track(&closure);
        Ok(Value::Function(closure))
    }

    fn store(&mut self, name: &Name, value: Value, frame: &mut Frame) {
        match name.slot.get() {
            Slot::Global(i) => self.globals[i as usize] = Some(value),
            Slot::Local(i) => frame.locals[i as usize] = Some(value),
            Slot::Cell(i) => *frame.cells[i as usize].borrow_mut() = Some(value),
            Slot::Free(i) => *frame.free[i as usize].borrow_mut() = Some(value),
            Slot::Unresolved => unreachable!("every name is resolved before it runs"),
        }
    }

    fn load(&self, name: &Name, frame: &Frame) -> Result<Value> {
        let found = match name.slot.get() {
            Slot::Global(i) => {
                let i = i as usize;
                match &self.globals[i] {
                    Some(v) if !self.gpu_losses.any() => return Ok(v.clone()),
                    Some(v) => Some(v.clone()),
                    None => self.builtin_for_global[i].clone(),
                }
            }
            Slot::Local(i) => frame.locals[i as usize].clone(),
            Slot::Cell(i) => frame.cells[i as usize].borrow().clone(),
            Slot::Free(i) => frame.free[i as usize].borrow().clone(),
            Slot::Unresolved => unreachable!("every name is resolved before it runs"),
        };
        if let (Some(value), true) = (&found, self.gpu_losses.any()) {
            self.gpu_losses
                .check(&name.text, value, name.span, &self.sources)?;
        }
        found.ok_or_else(|| {
            let message = match name.slot.get() {
                Slot::Global(_) => format!("name `{}` is not defined", name.text),
                _ => format!(
                    "local variable `{}` is used before it is assigned",
                    name.text
                ),
            };
            name_error(message).at(name.span)
        })
    }

    fn assign(
        &mut self,
        target: &Target,
        op: Option<BinOp>,
        value: &Expr,
        frame: &mut Frame,
    ) -> Result<()> {
        let rhs = self.eval(value, frame)?;
        match (&target.index, op) {
            (None, None) => {
                self.store(&target.name, rhs, frame);
                Ok(())
            }
            (None, Some(op)) => {
                if let Slot::Global(i) = target.name.slot.get() {
                    if let Some(current) = &mut self.globals[i as usize] {
                        if let Some(v) = host_ops::fast_numeric(op, current, &rhs) {
                            *current = v;
                            return Ok(());
                        }
                    }
                }
                let mut current = self.load(&target.name, frame)?;
                if let Value::Array(_) = &current {
                    let mut rhs = rhs;
                    self.place_update(&mut current, &mut rhs, &target.name, frame)
                        .map_err(|e| e.at(value.span))?;
                    let Value::Array(a) = &current else {
                        unreachable!("placing moves an array, it stays one")
                    };
                    return self.in_place(op, a, &rhs).map_err(|e| e.at(value.span));
                }
                let result =
                    host_ops::binary(self, op, &current, &rhs).map_err(|e| e.at(value.span))?;
                self.store(&target.name, result, frame);
                Ok(())
            }
            (Some(subscripts), op) => {
                let mut container = self.load(&target.name, frame)?;
                for step in &target.path {
                    container = match step {
                        TargetStep::Index(subs) => self.eval_index(container, subs, frame)?,
                        TargetStep::Attr(name) => convert::attribute(&container, name)?,
                    };
                }
                let Value::Array(a) = container else {
                    return Err(type_error(format!(
                        "{} does not support item assignment",
                        container.a_kind()
                    ))
                    .at(target.name.span));
                };
                let subs = self.subscripts(subscripts, a.device(), frame)?;
                if a.device() == Device::Gpu && reads_one_element(&a, &subs) {
                    // `x[0] = v` sends one element; `x[0] += v` first reads it.
                    let access = if op.is_some() {
                        Access::Read
                    } else {
                        Access::Write
                    };
                    self.scalar_guard(access)?;
                }
                let new_value = match op {
                    None => rhs,
                    Some(op) => {
                        if let Some(view) = index::basic_view(&a, &subs)? {
                            // `x[1:] *= 2.5`: in place on the view, with NumPy's casting rule.
                            if view.ndim() > 0 || !reads_one_element(&a, &subs) {
                                return self
                                    .in_place(op, &view, &rhs)
                                    .map_err(|e| e.at(target.span));
                            }
                        }
                        let current = self.index_value(&a, &subs)?;
                        let result = host_ops::binary(self, op, &current, &rhs)?;
                        check_in_place_cast(op, &result, a.dtype())?;
                        result
                    }
                };
                let new_value = self.follow(a.device(), new_value)?;
                let operand = convert::operand(self, &new_value)?;
                index::set(&a, &subs, operand.as_operand()).map_err(|e| e.at(target.span))
            }
        }
    }

    /// `a op= rhs` on an array, in place.
    fn in_place(&mut self, op: BinOp, a: &Array, rhs: &Value) -> Result<()> {
        if op == BinOp::MatMul {
            return Err(type_error(
                "in-place matrix product `@=` is not supported; write x = x @ y",
            ));
        }
        let rhs = self.follow(a.device(), rhs.clone())?;
        let operand = convert::operand(self, &rhs)?;
        ops::apply_in_place(
            table::by_symbol(op.symbol(), true),
            a,
            &[operand.as_operand()],
        )
    }

    /// Evaluated subscripts; index lists become arrays on `device` (the indexed array's).
    fn subscripts(
        &mut self,
        subs: &[Subscript],
        device: Device,
        frame: &mut Frame,
    ) -> Result<Vec<index::Subscript>> {
        use crate::base::layout::AxisIndex;
        let mut out = Vec::with_capacity(subs.len());
        for sub in subs {
            out.push(match sub {
                Subscript::Index(e) => {
                    let v = self.eval(e, frame)?;
                    self.subscript_value(v, device)
                        .map_err(|er| er.at(e.span))?
                }
                Subscript::Slice { start, stop, step } => {
                    let mut part = |p: &Option<Expr>| -> Result<Option<i64>> {
                        match p {
                            None => Ok(None),
                            Some(e) => {
                                let v = self.eval(e, frame)?;
                                match v {
                                    Value::None => Ok(None),
                                    other => convert::index_int(&other)
                                        .map(Some)
                                        .map_err(|er| er.at(e.span)),
                                }
                            }
                        }
                    };
                    index::Subscript::Basic(AxisIndex::Range {
                        start: part(start)?,
                        stop: part(stop)?,
                        step: part(step)?,
                    })
                }
            });
        }
        Ok(out)
    }

    /// One evaluated `[...]` entry: a position, or an index array (mask or gather).
    fn subscript_value(&mut self, v: Value, device: Device) -> Result<index::Subscript> {
        use crate::base::layout::AxisIndex;
        Ok(match v {
            Value::Array(a) if a.ndim() > 0 || a.dtype() == crate::base::DType::Bool => {
                index::Subscript::Array((*a).clone())
            }
            Value::List(_) => index::Subscript::Array(convert::to_array(self, &v, Some(device))?),
            Value::None => index::Subscript::Basic(AxisIndex::NewAxis),
            Value::Bool(b) => index::Subscript::Array(Array::from_vec(vec![b], vec![])),
            Value::Ellipsis => index::Subscript::Ellipsis,
            other => index::Subscript::Basic(AxisIndex::At(convert::index_int(&other)?)),
        })
    }

    fn index_value(&mut self, a: &Array, subs: &[index::Subscript]) -> Result<Value> {
        if a.device() == Device::Gpu && reads_one_element(a, subs) {
            self.scalar_guard(Access::Read)?;
        }
        Ok(match index::get(a, subs)? {
            Selection::Scalar(s) => Value::from_scalar(s),
            Selection::Array(a) => Value::array(a),
        })
    }

    /// The scalar guard (LANGUAGE.md §5): an element of a gpu array is about to be read or
    /// written on its own, one device↔host copy.
    fn scalar_guard(&mut self, access: Access) -> Result<()> {
        let (verb, copy) = match access {
            Access::Read => ("reads", "device→host"),
            Access::Write => ("writes", "host→device"),
        };
        let fix =
            format!("each element is a separate {copy} copy; move the array once with to(x, cpu)");
        match self.scalar_mode {
            ScalarMode::Allow => Ok(()),
            ScalarMode::Error => Err(Error::new(
                ErrorKind::Device,
                format!("scalar indexing of a gpu array is disallowed (:scalar error): {fix}"),
            )),
            ScalarMode::Warn if self.scalar_warned => Ok(()),
            ScalarMode::Warn => {
                self.scalar_warned = true;
                let place = self.statement.map_or(String::new(), |span| {
                    let line = self.sources.line_of(span);
                    let name = self
                        .sources
                        .get(span.source)
                        .map_or("", |s| s.name.as_str());
                    let text = self
                        .sources
                        .line_text(span.source, line)
                        .unwrap_or("")
                        .trim();
                    format!("{name}:{line}: `{text}`: ")
                });
                let text = format!(
                    "warning: {place}{verb} one element of a gpu array: {fix} (shown once; :scalar allow hides it, :scalar error forbids it)\n"
                );
                let text = if self.color {
                    use colored::Colorize;
                    text.yellow().to_string()
                } else {
                    text
                };
                self.write_err(&text);
                Ok(())
            }
        }
    }

    fn eval(&mut self, expr: &Expr, frame: &mut Frame) -> Result<Value> {
        match &expr.kind {
            ExprKind::Int(i) => Ok(Value::Int(*i)),
            ExprKind::Float(f) => Ok(Value::Float(*f)),
            ExprKind::Str(s) => Ok(Value::Str(s.clone())),
            ExprKind::Bool(b) => Ok(Value::Bool(*b)),
            ExprKind::None => Ok(Value::None),
            ExprKind::Ellipsis => Ok(Value::Ellipsis),
            ExprKind::Name(name) => self.load(name, frame),
            ExprKind::List(items) => {
                let values = items
                    .iter()
                    .map(|e| self.eval(e, frame))
                    .collect::<Result<Vec<_>>>()?;
                convert::list_literal(self, values).map_err(|e| e.at(expr.span))
            }
            ExprKind::Imaginary(im) => Ok(Value::Complex(0.0, *im)),
            ExprKind::Lambda(decl) => self.make_closure(decl, frame),
            ExprKind::Unary(op, operand) => {
                let v = self.eval(operand, frame)?;
                host_ops::unary(*op, &v).map_err(|e| e.at(expr.span))
            }
            ExprKind::Compare { first, rest, .. } => self.eval_compare(first, rest, frame),
            ExprKind::Not(operand) => {
                let v = self.eval(operand, frame)?;
                Ok(Value::Bool(
                    !convert::condition(&v).map_err(|e| e.at(operand.span))?,
                ))
            }
            ExprKind::And(lhs, rhs) => {
                let l = self.eval(lhs, frame)?;
                if !convert::condition(&l).map_err(|e| e.at(lhs.span))? {
                    return Ok(l);
                }
                let r = self.eval(rhs, frame)?;
                convert::condition(&r).map_err(|e| e.at(rhs.span))?;
                Ok(r)
            }
            ExprKind::Or(lhs, rhs) => {
                let l = self.eval(lhs, frame)?;
                if convert::condition(&l).map_err(|e| e.at(lhs.span))? {
                    return Ok(l);
                }
                let r = self.eval(rhs, frame)?;
                convert::condition(&r).map_err(|e| e.at(rhs.span))?;
                Ok(r)
            }
            ExprKind::Binary { op, lhs, rhs } => {
                let mut l = self.eval(lhs, frame)?;
                let mut r = self.eval(rhs, frame)?;
                if let Some(v) = host_ops::fast_numeric(*op, &l, &r) {
                    return Ok(v);
                }
                let mut placed = false;
                if self.watches_work() && [&l, &r].iter().any(|v| matches!(v, Value::Array(_))) {
                    let operands = [
                        placement::Candidate {
                            value: &mut l,
                            name: name_of(lhs),
                        },
                        placement::Candidate {
                            value: &mut r,
                            name: name_of(rhs),
                        },
                    ];
                    placed = self
                        .place_operator(*op, operands, frame)
                        .map_err(|e| e.at(expr.span))?;
                }
                let result = host_ops::binary(self, *op, &l, &r).map_err(|e| e.at(expr.span))?;
                Ok(mark_placed(result, placed))
            }
            ExprKind::Call { callee, args } => self.eval_call(callee, args, frame, expr.span),
            ExprKind::Index { target, subscripts } => {
                let mut container = self.eval(target, frame)?;
                if !self.auto_placement() || !placement::counts_element_reads(&container) {
                    return self
                        .eval_index(container, subscripts, frame)
                        .map_err(|e| e.at(expr.span));
                }
                let value = self
                    .eval_index(container.clone(), subscripts, frame)
                    .map_err(|e| e.at(expr.span))?;
                if !matches!(value, Value::Array(_)) {
                    self.note_element_read(&mut container, name_of(target), frame)
                        .map_err(|e| e.at(expr.span))?;
                }
                Ok(value)
            }
            ExprKind::Attr { target, name } => {
                let v = self.eval(target, frame)?;
                convert::attribute(&v, name).map_err(|e| e.at(expr.span))
            }
        }
    }

    /// `a < b <= c`: Python's chain, each operand evaluated once, stopping at the first false
    /// link; a chain of one is an ordinary comparison (arrays allowed).
    fn eval_compare(
        &mut self,
        first: &Expr,
        rest: &[(BinOp, Expr)],
        frame: &mut Frame,
    ) -> Result<Value> {
        let mut left = self.eval(first, frame)?;
        let mut left_span = first.span;
        for (k, (op, right_expr)) in rest.iter().enumerate() {
            let right = self.eval(right_expr, frame)?;
            let span = left_span.to(right_expr.span);
            let result = match host_ops::fast_numeric(*op, &left, &right) {
                Some(v) => v,
                None => host_ops::binary(self, *op, &left, &right).map_err(|e| e.at(span))?,
            };
            if k + 1 == rest.len() {
                return Ok(result);
            }
            if !convert::condition(&result).map_err(|e| e.at(span))? {
                return Ok(result);
            }
            left = right;
            left_span = right_expr.span;
        }
        Ok(left)
    }

    fn eval_index(
        &mut self,
        container: Value,
        subscripts: &[Subscript],
        frame: &mut Frame,
    ) -> Result<Value> {
        match container {
            Value::Array(a) => {
                if let [Subscript::Index(e)] = subscripts {
                    let i = self.eval(e, frame)?;
                    if let (Value::Int(i), 1) = (&i, a.ndim()) {
                        let position = crate::base::layout::normalize_index(*i, a.shape()[0], 0)?;
                        if a.device() == Device::Gpu {
                            self.scalar_guard(Access::Read)?;
                        }
                        return Ok(Value::from_scalar(a.element(&[position])?));
                    }
                    let subs = [self
                        .subscript_value(i, a.device())
                        .map_err(|er| er.at(e.span))?];
                    return self.index_value(&a, &subs);
                }
                let subs = self.subscripts(subscripts, a.device(), frame)?;
                self.index_value(&a, &subs)
            }
            Value::Str(_) | Value::List(_) | Value::Tuple(_) | Value::Range { .. } => {
                let [Subscript::Index(e)] = subscripts else {
                    return Err(type_error(format!(
                        "{} takes one integer index",
                        container.a_kind()
                    )));
                };
                let i = self.eval(e, frame)?;
                let i = convert::index_int(&i).map_err(|er| er.at(e.span))?;
                host_ops::index_sequence(&container, i)
            }
            other => Err(type_error(format!("{} cannot be indexed", other.a_kind()))),
        }
    }

    fn eval_call(
        &mut self,
        callee: &Expr,
        args: &[Arg],
        frame: &mut Frame,
        span: Span,
    ) -> Result<Value> {
        let (function, receiver) = match &callee.kind {
            ExprKind::Attr { target, name } => {
                let receiver = self.eval(target, frame)?;
                if let Value::Namespace(_) = receiver {
                    let member =
                        convert::attribute(&receiver, name).map_err(|e| e.at(callee.span))?;
                    (member, None)
                } else {
                    let function = self.lookup_function(name).ok_or_else(|| {
                        type_error(format!("{} has no method `{}`", receiver.a_kind(), name))
                            .at(callee.span)
                    })?;
                    (function, Some(receiver))
                }
            }
            _ => (self.eval(callee, frame)?, None),
        };
        // The variables the arguments came from, which only `device=auto` needs.
        let auto = self.watches_work();
        let mut names: Vec<Option<&Name>> = Vec::new();
        if let (true, Some(_), ExprKind::Attr { target, .. }) = (auto, &receiver, &callee.kind) {
            names.push(name_of(target));
        }
        let mut positional = Vec::with_capacity(args.len() + 1);
        positional.extend(receiver);
        let mut keywords = Vec::new();
        for arg in args {
            // A list literal passed straight to a function stays a host list: `zeros([2, 3])`
            // must not send its shape to the gpu.
            let value = match &arg.value.kind {
                ExprKind::List(items) => Value::List(Rc::new(
                    items
                        .iter()
                        .map(|e| self.eval(e, frame))
                        .collect::<Result<_>>()?,
                )),
                _ => self.eval(&arg.value, frame)?,
            };
            match &arg.name {
                Some(n) => keywords.push((n.clone(), value)),
                None => {
                    if auto {
                        names.push(name_of(&arg.value));
                    }
                    positional.push(value);
                }
            }
        }
        let Value::Builtin(b) = function else {
            return self
                .call(&function, positional, keywords)
                .map_err(|e| e.at(span));
        };
        self.call_placed(b, positional, keywords, &names, frame)
            .map_err(|e| e.at(span))
    }

    /// A built-in call, with its new array or its inputs placed under `device=auto`, and its
    /// result marked as the user's placement when it was (`device=`, `to()`).
    fn call_placed(
        &mut self,
        b: &'static Builtin,
        mut positional: Vec<Value>,
        mut keywords: Vec<(Rc<str>, Value)>,
        names: &[Option<&Name>],
        frame: &mut Frame,
    ) -> Result<Value> {
        let asked = keywords.iter().any(|(k, _)| &**k == "device") || b.name == "to";
        if !self.watches_work() && !asked {
            return self.call(&Value::Builtin(b), positional, keywords);
        }
        if let Some(device) = self.place_new(b, &positional, &mut keywords) {
            let fixed = std::mem::replace(&mut self.default_device, device);
            let result = self.call(&Value::Builtin(b), positional, keywords);
            self.default_device = fixed;
            return result;
        }
        let mut placed = asked;
        if self.watches_work() && positional.iter().any(|v| matches!(v, Value::Array(_))) {
            let mut inputs: Vec<placement::Candidate> = positional
                .iter_mut()
                .zip(names.iter().copied().chain(std::iter::repeat(None)))
                .map(|(value, name)| placement::Candidate { value, name })
                .collect();
            placed |= self.place_call(b, &mut inputs, frame)?;
        }
        let result = self.call(&Value::Builtin(b), positional, keywords)?;
        Ok(mark_placed(result, placed))
    }

    fn lookup_function(&self, name: &str) -> Option<Value> {
        let global = self
            .global_index
            .get(name)
            .and_then(|&i| self.globals[i as usize].clone());
        global.or_else(|| builtins::lookup_value(name))
    }

    pub fn call(
        &mut self,
        function: &Value,
        positional: Vec<Value>,
        keywords: Vec<(Rc<str>, Value)>,
    ) -> Result<Value> {
        match function {
            Value::Builtin(b) => {
                let args = builtins::bind(b, positional, keywords)?;
                (b.run)(self, args)
            }
            Value::Function(closure) => self.call_closure(closure, positional, keywords),
            Value::Kernel(k) => builtins::call_kernel(self, k, positional, keywords),
            Value::Fused(f) => builtins::call_fused(self, f, positional, keywords),
            Value::DType(d) if keywords.is_empty() => builtins::call_dtype(self, *d, positional),
            other => Err(type_error(format!("{} is not callable", other.a_kind()))),
        }
    }

    fn call_closure(
        &mut self,
        closure: &Closure,
        positional: Vec<Value>,
        keywords: Vec<(Rc<str>, Value)>,
    ) -> Result<Value> {
        let decl = &closure.decl;
        let params = &decl.params;
        if positional.len() > params.len() {
            return Err(type_error(format!(
                "{}() takes {} arguments but {} were given",
                decl.name,
                params.len(),
                positional.len()
            )));
        }
        let mut values: Vec<Option<Value>> = positional.into_iter().map(Some).collect();
        values.resize(params.len(), None);
        for (name, value) in keywords {
            let i = params
                .iter()
                .position(|p| p.name.text == name)
                .ok_or_else(|| {
                    type_error(format!(
                        "{}() got an unexpected keyword argument `{}`",
                        decl.name, name
                    ))
                })?;
            if values[i].is_some() {
                return Err(type_error(format!(
                    "{}() got multiple values for argument `{}`",
                    decl.name, name
                )));
            }
            values[i] = Some(value);
        }
        let shape = decl.frame.get();
        let mut frame = Frame {
            locals: vec![None; shape.locals as usize],
            cells: (0..shape.cells)
                .map(|_| Rc::new(RefCell::new(None)))
                .collect(),
            free: closure.captured.clone(),
        };
        for (i, param) in params.iter().enumerate() {
            let value = values[i]
                .take()
                .or_else(|| closure.defaults[i].clone())
                .ok_or_else(|| {
                    type_error(format!(
                        "{}() missing required argument `{}`",
                        decl.name, param.name.text
                    ))
                })?;
            self.store(&param.name, value, &mut frame);
        }
        if self.depth >= MAX_CALL_DEPTH {
            return Err(Error::new(
                ErrorKind::Recursion,
                format!(
                    "maximum recursion depth ({MAX_CALL_DEPTH}) exceeded in {}()",
                    decl.name
                ),
            ));
        }
        self.depth += 1;
        let result = self.run_function_body(decl, &mut frame);
        self.depth -= 1;
        result
    }

    fn run_function_body(&mut self, decl: &FnDecl, frame: &mut Frame) -> Result<Value> {
        let body = &decl.body;
        let (init, last) = match (decl.is_lambda, body.split_last()) {
            (true, Some((last, init))) => match &last.kind {
                StmtKind::Expr(e) => (init, Some(e)),
                _ => (&body[..], None),
            },
            _ => (&body[..], None),
        };
        for stmt in init {
            match self.exec(stmt, frame)? {
                Flow::Next => {}
                Flow::Return(v) => return Ok(v),
                _ => {
                    return Err(Error::new(
                        ErrorKind::Syntax,
                        "`break` or `continue` outside a loop",
                    )
                    .at(stmt.span))
                }
            }
        }
        match last {
            Some(e) => self.eval(e, frame),
            None => Ok(Value::None),
        }
    }

    pub fn builtin(&self, name: &str) -> Option<&'static Builtin> {
        builtins::find(name)
    }
}

/// The error NumPy gives when `x[idx] op= v` through an index array would need an unsafe cast:
/// the selection's `op=` is in place on its copy, so the result must cast to the array's dtype
/// by `same_kind`. (One element, `x[0] op= v`, is read, computed and stored, as in NumPy.)
fn check_in_place_cast(op: BinOp, result: &Value, target: crate::base::DType) -> Result<()> {
    match result {
        Value::Array(r) => {
            ops::check_same_kind(table::by_symbol(op.symbol(), true), r.dtype(), target)
        }
        _ => Ok(()),
    }
}

/// The variable an expression reads, when it is just a name.
fn name_of(expr: &Expr) -> Option<&Name> {
    match &expr.kind {
        ExprKind::Name(name) => Some(name),
        _ => None,
    }
}

/// `value`, marked as placed by the user when `placed` (so that `device=auto` leaves it).
#[inline]
fn mark_placed(mut value: Value, placed: bool) -> Value {
    if !placed {
        return value;
    }
    if let Value::Array(a) = &mut value {
        if !a.placed_by_user() {
            Rc::make_mut(a).mark_placed_by_user();
        }
    }
    value
}

/// The source line of a plan position.
pub(crate) fn line_at(sources: &SourceMap, position: u64) -> usize {
    let span = Span {
        source: (position >> 32) as u32,
        start: position as u32,
        end: position as u32,
    };
    sources.line_of(span)
}

/// A statement's place as the plan records it: its source and byte offset.
fn position_of(span: Span) -> u64 {
    ((span.source as u64) << 32) | span.start as u64
}

/// Which way a lone element of a gpu array travels.
#[derive(Clone, Copy)]
enum Access {
    Read,
    Write,
}

/// True when `subs` name one position on every axis of `a`: one element, read or written alone.
fn reads_one_element(a: &Array, subs: &[index::Subscript]) -> bool {
    use crate::base::layout::AxisIndex;
    subs.len() == a.ndim()
        && subs
            .iter()
            .all(|s| matches!(s, index::Subscript::Basic(AxisIndex::At(_))))
}
