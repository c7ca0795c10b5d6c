//! The interpreter: runs statements, keeps the session's globals, calls functions, and asks the
//! array layer for every numeric operation. It never knows which device does the work.

pub mod bounded;
pub mod builtins;
pub mod commands;
mod convert;
mod cycles;
pub mod display;
mod eval;
mod exec;
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
