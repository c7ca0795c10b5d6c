//! `device=auto` in the interpreter: before a built-in, an operator or an element read runs,
//! the cost model (`crate::plan::placement`) chooses the device, the inputs it needs move there
//! (counted transfers like any other), and the decision's sentence is kept for `:time` and
//! `:explain`. A variable whose array moved is bound to the moved array when nothing else sees
//! its elements, so values stay where they were last moved.

use std::rc::Rc;

use rustc_hash::FxHashMap;

use super::builtins::{self, Builtin};
use super::value::Value;
use super::{Frame, Interpreter};
use crate::array::calibrate;
use crate::device::Device;
use crate::error::{Error, ErrorKind, Result};
use crate::plan::placement::{Decision, Input, Model, Refined, SweepSize, Task, Work};
use crate::syntax::ast::{BinOp, Name};

/// A file with the model to use instead of this machine's (the tests' fixed model); a sweep
/// refines it for the session only.
const INJECTED_MODEL: &str = "ARRSH_PLACEMENT_MODEL";

/// The decisions one statement keeps for its report (more are counted, not kept).
const KEPT_DECISIONS: usize = 4;

/// Decisions made, each kept once with how many times it was made, up to a limit (more are
/// counted): what `:time`, `:explain` and `--profile` print.
#[derive(Clone, Default)]
pub struct Tally {
    kept: Vec<(String, u64)>,
    more: u64,
}

impl Tally {
    pub fn note(&mut self, reason: &str, limit: usize) {
        if let Some(kept) = self.kept.iter_mut().find(|(r, _)| r == reason) {
            kept.1 += 1;
        } else if self.kept.len() < limit {
            self.kept.push((reason.to_string(), 1));
        } else {
            self.more += 1;
        }
    }

    pub fn is_empty(&self) -> bool {
        self.kept.is_empty() && self.more == 0
    }

    /// One line a decision (`… (3 times)`), then `and N more decisions`.
    pub fn lines(&self) -> Vec<String> {
        let mut lines: Vec<String> = self
            .kept
            .iter()
            .map(|(reason, times)| match times {
                1 => reason.clone(),
                n => format!("{reason} ({} times)", super::profile::group_digits(*n)),
            })
            .collect();
        if self.more > 0 {
            lines.push(format!(
                "and {} more decisions",
                super::profile::group_digits(self.more)
            ));
        }
        lines
    }
}

/// Where a session makes new arrays: on one device, or where the cost model says.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Placement {
    Fixed(Device),
    Auto,
}

/// The state of `device=auto` in a session.
#[derive(Default)]
pub struct Auto {
    /// Whether new arrays and operations are placed (`:device auto`); `device=auto` places one
    /// array even when the session has a fixed device.
    on: bool,
    model: Option<Model>,
    /// Element reads of each gpu array (by its address) since it was made or moved.
    reads: FxHashMap<usize, u64>,
    /// This statement's decisions.
    decisions: Tally,
    /// Whether the session was told that auto is the cpu because there is no gpu.
    told_no_gpu: bool,
    totals: Totals,
    /// What the gpu would have saved so far, had it been started (see `Model::decide`).
    forgone: f64,
    /// While a `:sweep` watches its body: the class and units of each operation it runs.
    observed: Option<Vec<(Work, f64)>>,
}

/// What `device=auto` decided in a session.
#[derive(Default)]
struct Totals {
    decisions: u64,
    on_gpu: u64,
    moves: u64,
    moved_bytes: u64,
}

/// The class of work of a built-in, by its area of the table (`None`: it runs where its inputs
/// are, and nothing is placed for it: printing, files, transfers, pictures ...).
fn work_of(b: &Builtin) -> Option<Work> {
    if [
        "matmul",
        "dot",
        "linalg.matmul",
        "tensordot",
        "vecdot",
        "inner",
        "einsum",
    ]
    .contains(&b.name)
    {
        return Some(Work::MatrixProduct);
    }
    Some(match b.area {
        "creation" | "elementwise" | "indexing" | "manipulation" | "logic" | "linear algebra" => {
            Work::Elementwise
        }
        "random sampling" | "random" => Work::Random,
        "statistics" | "searching and counting" => Work::Reduction,
        "sorting" | "sets" | "order statistics and histograms" => Work::Sort,
        "linalg" => Work::Decomposition,
        "fft" => Work::Fourier,
        _ => return None,
    })
}

/// One array among an operation's inputs, with the variable it came from.
pub struct Candidate<'a> {
    pub value: &'a mut Value,
    pub name: Option<&'a Name>,
}

impl Interpreter {
    pub fn auto_placement(&self) -> bool {
        self.auto.on
    }

    /// Whether operations go through the placement hooks: to be placed, or to be watched.
    pub(super) fn watches_work(&self) -> bool {
        self.auto.on || self.auto.observed.is_some()
    }

    /// Runs `run` with its operations watched: their class and units of work, in order.
    pub(super) fn watching<T>(
        &mut self,
        run: impl FnOnce(&mut Self) -> Result<T>,
    ) -> (Result<T>, Vec<(Work, f64)>) {
        self.auto.observed = Some(Vec::new());
        let result = run(self);
        (result, self.auto.observed.take().unwrap_or_default())
    }

    /// `:sweep`'s times refit the model's lines for the class of work its body stands for; the
    /// refined model is kept for later sessions too. An error says why nothing changed.
    pub(super) fn refine_model(
        &mut self,
        sizes: &[SweepSize],
    ) -> std::result::Result<Refined, String> {
        let mut model = self
            .model()
            .cloned()
            .ok_or("there is no gpu to compare with")?;
        let refined = model.refine(sizes)?;
        if std::env::var_os(INJECTED_MODEL).is_none() {
            calibrate::keep(&model);
        }
        self.auto.model = Some(model);
        Ok(refined)
    }

    /// `:device auto` / `--device auto`. Without a gpu it says once that auto is the cpu.
    pub fn set_auto(&mut self) {
        if self.auto.on {
            return;
        }
        self.default_device = Device::Cpu;
        self.auto.on = true;
        if std::mem::replace(&mut self.auto.told_no_gpu, true) {
            return;
        }
        if let Err(e) = crate::device::gpu::name() {
            self.write_err(&format!(
                "device auto: no usable gpu ({}), so everything runs on the cpu\n",
                e.message
            ));
        }
    }

    pub fn set_placement(&mut self, placement: Placement) -> Result<()> {
        match placement {
            Placement::Fixed(device) => {
                self.set_default_device(device)?;
                self.auto.on = false;
            }
            Placement::Auto => self.set_auto(),
        }
        Ok(())
    }

    pub fn placement(&self) -> Placement {
        match self.auto.on {
            true => Placement::Auto,
            false => Placement::Fixed(self.default_device),
        }
    }

    /// What new arrays are made on: `cpu`, `gpu` or `auto`.
    pub fn placement_name(&self) -> &'static str {
        match self.auto.on {
            true => "auto",
            false => self.default_device.name(),
        }
    }

    /// The session's model: injected (`ARRSH_PLACEMENT_MODEL`), cached, or measured now.
    /// `None` without a gpu: then everything is on the cpu and nothing is decided.
    fn model(&mut self) -> Option<&Model> {
        if self.auto.model.as_ref().is_some_and(|m| m.gpu.is_some()) {
            return self.auto.model.as_ref();
        }
        crate::device::gpu::name().ok()?;
        let auto = &mut self.auto;
        if auto.model.is_none() {
            let injected = std::env::var_os(INJECTED_MODEL)
                .and_then(|f| std::fs::read_to_string(f).ok())
                .and_then(|text| Model::from_text(&text));
            auto.model = injected.or_else(calibrate::cached);
        }
        if auto.model.is_none() {
            let measured = calibrate::measure();
            match measured {
                Ok(m) => self.auto.model = Some(m),
                Err(e) => {
                    self.write_err(&format!(
                        "device auto: the measurement failed ({}); everything runs on the cpu\n",
                        e.message
                    ));
                    return None;
                }
            }
        }
        self.auto.model.as_ref()
    }

    /// `decision`'s device, unless it is a gpu that cannot start (the driver's report named
    /// one that CUDA refuses): then the cpu, and the model forgets the gpu for the session.
    fn usable(&mut self, device: Device) -> Device {
        if device == Device::Cpu || crate::device::gpu::started().is_some() {
            return device;
        }
        match crate::device::gpu::availability() {
            Ok(()) => device,
            Err(e) => {
                self.write_err(&format!(
                    "device auto: the gpu cannot start ({}), so everything runs on the cpu\n",
                    e.message
                ));
                if let Some(model) = self.auto.model.as_mut() {
                    model.gpu = None;
                }
                Device::Cpu
            }
        }
    }

    /// `:calibrate`: measures the model again and keeps it (for `auto` now or later).
    pub fn calibrate(&mut self) -> Result<Model> {
        crate::plan::flush()?;
        let model = calibrate::measure()?;
        self.auto.model = Some(model.clone());
        Ok(model)
    }

    /// The model `:device` shows: the session's, else the cached one.
    pub fn known_model(&self) -> Option<Model> {
        self.auto.model.clone().or_else(calibrate::cached)
    }

    /// Forgets the decisions of the last statement (a new one starts).
    pub(super) fn clear_decisions(&mut self) {
        if !self.auto.decisions.is_empty() {
            self.auto.decisions = Tally::default();
        }
    }

    /// The last statement's decisions, for `:time` and `:explain`.
    pub(super) fn decisions_text(&self) -> Vec<String> {
        self.auto.decisions.lines()
    }

    fn record(&mut self, reason: String, device: Device) {
        self.auto.totals.decisions += 1;
        self.auto.totals.on_gpu += (device == Device::Gpu) as u64;
        if let Some(p) = self.profiler.as_mut() {
            p.note_decision(&reason);
        }
        self.auto.decisions.note(&reason, KEPT_DECISIONS);
    }

    /// At the end of a script under `device=auto`: how many decisions it made and what moved.
    pub fn placement_summary(&self) -> Option<String> {
        let t = &self.auto.totals;
        (self.auto.on && t.decisions > 0).then(|| {
            format!(
                "device auto: {} decisions ({} on the gpu), {} moves ({})\n",
                t.decisions,
                t.on_gpu,
                t.moves,
                crate::base::human_bytes(t.moved_bytes as f64)
            )
        })
    }

    /// The device a creation or random built-in makes its array on, from the size it asks for;
    /// `None` when it is not one, or `device=` says where.
    /// `device=auto` given to it is replaced by the device chosen.
    pub(super) fn place_new(
        &mut self,
        b: &Builtin,
        positional: &[Value],
        keywords: &mut [(Rc<str>, Value)],
    ) -> Option<Device> {
        let work = match b.area {
            "creation" => Work::Elementwise,
            "random sampling" | "random" => Work::Random,
            _ => return None,
        };
        let asked = keywords.iter().position(|(k, _)| &**k == "device");
        let asked_auto = asked.is_some_and(|k| is_auto(&keywords[k].1));
        let placed = asked_auto || self.auto.on && asked.is_none();
        if !placed && self.auto.observed.is_none() {
            return None;
        }
        let any_array = positional
            .iter()
            .chain(keywords.iter().map(|(_, v)| v))
            .any(|v| matches!(v, Value::Array(_)));
        let elements = match any_array {
            true => None,
            false => builtins::requested_elements(b, positional, keywords),
        };
        if let (Some(seen), Some(e)) = (self.auto.observed.as_mut(), elements) {
            seen.push((work, work.units(e as f64)));
        }
        if !placed {
            return None;
        }
        let forgone = self.auto.forgone;
        let device = match (elements, self.model()) {
            (Some(elements), Some(model)) => {
                let mut task = Task::new(work, elements, Vec::new());
                task.gpu_started = crate::device::gpu::started().is_some();
                task.forgone = forgone;
                let decision = model.decide(&task);
                self.auto.forgone += decision.forgone;
                self.record(decision.reason, decision.device);
                self.usable(decision.device)
            }
            _ => Device::Cpu,
        };
        if let Some(k) = asked {
            keywords[k].1 = Value::Device(device);
        }
        Some(device)
    }

    /// Places an operation of `work` over the arrays among `inputs`: moves those the decision
    /// moves (binding their variables to the moved arrays when nothing else sees them).
    /// Returns whether an input was placed by the user, so that the result is too.
    pub(super) fn place_inputs(
        &mut self,
        work: Work,
        units: Option<f64>,
        inputs: &mut [Candidate],
        frame: &mut Frame,
    ) -> Result<bool> {
        let arrays: Vec<usize> = (0..inputs.len())
            .filter(|&i| matches!(inputs[i].value, Value::Array(_)))
            .collect();
        let mut task_inputs = Vec::with_capacity(arrays.len());
        let mut elements = 0;
        let mut placed = false;
        for &i in &arrays {
            let Value::Array(a) = &*inputs[i].value else {
                unreachable!("filtered to arrays")
            };
            elements = elements.max(a.size());
            placed |= a.placed_by_user();
            task_inputs.push(Input {
                device: a.device(),
                bytes: a.nbytes(),
                name: inputs[i].name.map(|n| n.text.to_string()),
                movable: !a.placed_by_user(),
            });
        }
        if task_inputs.is_empty() {
            return Ok(false);
        }
        if let Some(seen) = self.auto.observed.as_mut() {
            seen.push((work, units.unwrap_or_else(|| work.units(elements as f64))));
            if !self.auto.on {
                return Ok(placed);
            }
        }
        let mixed = task_inputs
            .iter()
            .any(|t| t.device != task_inputs[0].device);
        if !mixed && task_inputs.iter().all(|t| !t.movable) {
            return Ok(true);
        }
        let mut task = Task::new(work, elements, task_inputs);
        task.gpu_started = crate::device::gpu::started().is_some();
        task.forgone = self.auto.forgone;
        if let Some(u) = units {
            task.units = u;
        }
        let Some(model) = self.model() else {
            return Ok(placed);
        };
        let decision: Decision = model.decide(&task);
        self.auto.forgone += decision.forgone;
        self.record(decision.reason, decision.device);
        if self.usable(decision.device) != decision.device {
            return Ok(placed);
        }
        // An array given twice (`x @ x`) moves once.
        let mut moved: Vec<(usize, Value)> = Vec::new();
        for &k in &decision.moves {
            let Candidate { value, name } = &mut inputs[arrays[k]];
            let Value::Array(original) = &**value else {
                continue;
            };
            let original = Rc::as_ptr(original) as usize;
            match moved.iter().find(|(o, _)| *o == original) {
                Some((_, done)) => **value = done.clone(),
                None => {
                    self.move_value(value, *name, decision.device, frame)?;
                    moved.push((original, value.clone()));
                }
            }
        }
        Ok(placed)
    }

    /// Moves the array in `value` to `device`; its variable `name` is bound to the moved array
    /// when that variable holds this very array and no view shares its elements.
    fn move_value(
        &mut self,
        value: &mut Value,
        name: Option<&Name>,
        device: Device,
        frame: &mut Frame,
    ) -> Result<()> {
        let Value::Array(a) = &*value else {
            return Ok(());
        };
        let mut moved = a.to_device(device)?;
        self.auto.totals.moves += 1;
        self.auto.totals.moved_bytes += a.nbytes() as u64;
        if a.placed_by_user() {
            moved.mark_placed_by_user();
        }
        let moved = Value::Array(Rc::new(moved));
        if let Some(name) = name {
            let held = self.load(name, frame).ok();
            // The variable, `value` and `held` are the only holders of this array.
            let alone = matches!(&held, Some(Value::Array(h)) if Rc::ptr_eq(h, a)
                && Rc::strong_count(a) == 3
                && a.storage().sharers() == 1);
            drop(held);
            if alone {
                self.store(name, moved.clone(), frame);
            }
        }
        *value = moved;
        Ok(())
    }

    /// The inputs of a binary operator, placed (`@` as a matrix product, others elementwise).
    pub(super) fn place_operator(
        &mut self,
        op: BinOp,
        mut operands: [Candidate; 2],
        frame: &mut Frame,
    ) -> Result<bool> {
        let (work, units) = match op {
            BinOp::MatMul => (Work::MatrixProduct, product_units(&operands)),
            _ => (Work::Elementwise, None),
        };
        self.place_inputs(work, units, &mut operands, frame)
    }

    /// The inputs of a built-in call, placed by its class of work.
    pub(super) fn place_call(
        &mut self,
        b: &Builtin,
        inputs: &mut [Candidate],
        frame: &mut Frame,
    ) -> Result<bool> {
        let Some(work) = work_of(b) else {
            return Ok(false);
        };
        let units = match work {
            Work::MatrixProduct if inputs.len() == 2 => product_units(inputs),
            _ => None,
        };
        self.place_inputs(work, units, inputs, frame)
    }

    /// `x op= rhs` with `rhs` an array on the other device: when `x`'s variable alone holds its
    /// array, the update runs where the model says, and `x` moves there (its variable with it)
    /// when that device is clearly faster; otherwise `rhs` follows `x` (see `follow`).
    pub(super) fn place_update(
        &mut self,
        target: &mut Value,
        rhs: &mut Value,
        name: &Name,
        frame: &mut Frame,
    ) -> Result<()> {
        let (Value::Array(t), Value::Array(r)) = (&*target, &*rhs) else {
            return Ok(());
        };
        // The variable and `target` hold the array, and no view shares its elements.
        let alone = Rc::strong_count(t) == 2 && t.storage().sharers() == 1;
        if !self.auto.on || t.device() == r.device() || t.placed_by_user() || !alone {
            return Ok(());
        }
        let mut inputs = [
            Candidate {
                value: target,
                name: Some(name),
            },
            Candidate {
                value: rhs,
                name: None,
            },
        ];
        self.place_inputs(Work::Elementwise, None, &mut inputs, frame)?;
        Ok(())
    }

    /// `value`, moved to `device` when it is an array elsewhere (the other side of an in-place
    /// update or a store, whose target does not move).
    pub(super) fn follow(&mut self, device: Device, value: Value) -> Result<Value> {
        match &value {
            Value::Array(a) if self.auto.on && a.device() != device => {
                self.record(
                    format!(
                        "moved {} to the {device}, where the array it updates is",
                        crate::base::human_bytes(a.nbytes() as f64)
                    ),
                    device,
                );
                self.auto.totals.moves += 1;
                self.auto.totals.moved_bytes += a.nbytes() as u64;
                Ok(Value::Array(Rc::new(a.to_device(device)?)))
            }
            _ => Ok(value),
        }
    }

    /// Counts a host read of one element of the gpu array in `value`; once the reads have cost
    /// as much as moving the whole array, it moves to the cpu (and its variable with it).
    pub(super) fn note_element_read(
        &mut self,
        value: &mut Value,
        name: Option<&Name>,
        frame: &mut Frame,
    ) -> Result<()> {
        let Value::Array(a) = &*value else {
            return Ok(());
        };
        if !counts_element_reads(value) {
            return Ok(());
        }
        let (key, bytes) = (Rc::as_ptr(a) as usize, a.nbytes());
        let Some(worth) = self.model().and_then(|m| m.reads_worth_a_move(bytes)) else {
            return Ok(());
        };
        let auto = &mut self.auto;
        if auto.reads.len() > 4096 {
            auto.reads.clear();
        }
        let reads = auto.reads.entry(key).or_insert(0);
        *reads += 1;
        if *reads < worth {
            return Ok(());
        }
        let reads = *reads;
        auto.reads.remove(&key);
        let what = name.map_or_else(String::new, |n| format!("{} ", n.text));
        self.record(
            format!(
                "moved {what}({}) to the cpu: {reads} element reads cost as much as moving it once",
                crate::base::human_bytes(bytes as f64)
            ),
            Device::Cpu,
        );
        self.move_value(value, name, Device::Cpu, frame)
    }
}

/// Whether a host read of one element of `value` counts towards moving it: a gpu array that
/// `device=auto` placed.
pub(super) fn counts_element_reads(value: &Value) -> bool {
    matches!(value, Value::Array(a) if a.device() == Device::Gpu && !a.placed_by_user())
}

/// The units of a matrix product of two arrays: 2·m·k·n.
fn product_units(inputs: &[Candidate]) -> Option<f64> {
    let (Value::Array(a), Value::Array(b)) = (&*inputs[0].value, &*inputs[1].value) else {
        return None;
    };
    let columns = if b.ndim() >= 2 {
        b.shape()[b.ndim() - 1]
    } else {
        1
    };
    Some(2.0 * a.size() as f64 * columns as f64)
}

/// The value of the name `auto`.
pub fn auto_value() -> Value {
    Value::Str("auto".into())
}

fn is_auto(v: &Value) -> bool {
    matches!(v, Value::Str(s) if &**s == "auto")
}

/// The error for `device=auto` where a device is needed and none can be chosen.
pub fn auto_is_not_a_device() -> Error {
    Error::new(
        ErrorKind::Type,
        "auto chooses where work runs; here a device is needed (cpu or gpu)",
    )
}
