//! Where `device=auto` runs work: a cost model of this machine (a fixed cost and a cost per unit
//! of work for each class of work on each device, and the cost of moving bytes between them),
//! the decision it implies for one operation, and the sentence that explains the decision.
//! The model is measured once per machine (`crate::array::calibrate`) and kept as text.

use crate::base::human_bytes;
use crate::device::Device;

/// The share of the gpu's start that the time it would have saved must reach to start it.
const START_SHARE: f64 = 0.5;

/// How much faster the other device must be for work to move there from its inputs.
const MOVE_MARGIN: f64 = 1.25;

/// A class of work, whose cost grows with its size in the same way on both devices.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Work {
    Elementwise,
    Reduction,
    MatrixProduct,
    Sort,
    Fourier,
    Decomposition,
    Random,
}

/// One row of the table of work classes.
pub struct WorkRow {
    pub work: Work,
    /// The name in the model's text and in `:device`.
    pub key: &'static str,
    /// How a decision names it: `below the gpu crossover of 120,000 for elementwise work`.
    pub noun: &'static str,
    /// What its costs are per (`Work::units`).
    pub unit: &'static str,
}

pub const WORKS: [WorkRow; 7] = [
    WorkRow {
        work: Work::Elementwise,
        key: "elementwise",
        noun: "elementwise work",
        unit: "element",
    },
    WorkRow {
        work: Work::Reduction,
        key: "reduction",
        noun: "reductions",
        unit: "element",
    },
    WorkRow {
        work: Work::MatrixProduct,
        key: "matmul",
        noun: "matrix products",
        unit: "flop",
    },
    WorkRow {
        work: Work::Sort,
        key: "sort",
        noun: "sorting",
        unit: "n·log₂n",
    },
    WorkRow {
        work: Work::Fourier,
        key: "fft",
        noun: "Fourier transforms",
        unit: "n·log₂n",
    },
    WorkRow {
        work: Work::Decomposition,
        key: "linalg",
        noun: "decompositions and solvers",
        unit: "n³",
    },
    WorkRow {
        work: Work::Random,
        key: "random",
        noun: "random numbers",
        unit: "number",
    },
];

impl Work {
    pub fn row(self) -> &'static WorkRow {
        WORKS
            .iter()
            .find(|r| r.work == self)
            .expect("every work has a row")
    }

    /// The units of work of an operation over `elements` (the result's elements for a matrix
    /// product, which is taken as square): the model's costs are per unit.
    pub fn units(self, elements: f64) -> f64 {
        let n = elements.max(1.0);
        match self {
            Work::Elementwise | Work::Reduction | Work::Random => n,
            Work::Sort | Work::Fourier => n * n.max(2.0).log2(),
            Work::MatrixProduct => 2.0 * n.powf(1.5),
            Work::Decomposition => n.powf(1.5),
        }
    }
}

/// A cost that grows linearly: `fixed + per_unit × units` seconds.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Line {
    pub fixed: f64,
    pub per_unit: f64,
}

impl Line {
    pub fn at(self, units: f64) -> f64 {
        self.fixed + self.per_unit * units
    }

    /// The line through two measurements (units, seconds), never negative.
    pub fn through(small: (f64, f64), large: (f64, f64)) -> Line {
        let per_unit = ((large.1 - small.1) / (large.0 - small.0).max(1.0)).max(0.0);
        Line {
            fixed: (small.1 - per_unit * small.0).max(0.0),
            per_unit,
        }
    }
}

/// The machine's costs. The gpu's are absent when there is none.
#[derive(Clone, Debug, PartialEq)]
pub struct Model {
    pub cpu: [Line; 7],
    pub gpu: Option<GpuCosts>,
    /// What was measured: the machine, the cpu threads, when.
    pub machine: String,
}

#[derive(Clone, Debug, PartialEq)]
pub struct GpuCosts {
    pub work: [Line; 7],
    /// Moving bytes host→device and device→host (per byte).
    pub to_gpu: Line,
    pub to_cpu: Line,
    /// Reading one element of a gpu array on the host (a copy of a few bytes and a wait).
    pub element_read: f64,
    /// Starting the gpu (its context), paid by the first work placed there.
    pub start: f64,
}

/// An array an operation reads: where it lives, its size, and a name for the decision's text.
#[derive(Clone, Debug)]
pub struct Input {
    pub device: Device,
    pub bytes: usize,
    /// The variable it was read from, if any.
    pub name: Option<String>,
    /// Whether the planner may move it (arrays the user placed with `device=` or `to()` stay).
    pub movable: bool,
}

/// One operation to place.
#[derive(Clone, Debug)]
pub struct Task {
    pub work: Work,
    /// Its size in elements (of the largest input, or of the result when there is none).
    pub elements: usize,
    /// Its units of work (`Work::units` of `elements`, or exact for a matrix product).
    pub units: f64,
    pub inputs: Vec<Input>,
    /// Whether the gpu is started (else running there first costs its start).
    pub gpu_started: bool,
    /// While it is not: the time the gpu would have saved the session so far.
    pub forgone: f64,
}

impl Task {
    pub fn new(work: Work, elements: usize, inputs: Vec<Input>) -> Task {
        Task {
            work,
            elements,
            units: work.units(elements as f64),
            inputs,
            gpu_started: true,
            forgone: 0.0,
        }
    }
}

/// Where an operation runs, which inputs move there, and why.
#[derive(Clone, Debug, PartialEq)]
pub struct Decision {
    pub device: Device,
    /// Indices of the inputs that move to `device`.
    pub moves: Vec<usize>,
    pub reason: String,
    /// What the gpu would have saved had it been started (to add to `Task::forgone`).
    pub forgone: f64,
}

impl Model {
    pub fn time(&self, device: Device, work: Work, units: f64) -> Option<f64> {
        let index = WORKS.iter().position(|r| r.work == work)?;
        match device {
            Device::Cpu => Some(self.cpu[index].at(units)),
            Device::Gpu => self.gpu.as_ref().map(|g| g.work[index].at(units)),
        }
    }

    /// The time to move `bytes` to `device`.
    pub fn transfer(&self, to: Device, bytes: usize) -> f64 {
        match (&self.gpu, to) {
            (Some(g), Device::Gpu) => g.to_gpu.at(bytes as f64),
            (Some(g), Device::Cpu) => g.to_cpu.at(bytes as f64),
            (None, _) => f64::INFINITY,
        }
    }

    /// The smallest size (elements) from which the gpu does `work` faster than the cpu, its
    /// inputs already there; `None` when it never does (or there is no gpu).
    pub fn crossover(&self, work: Work) -> Option<f64> {
        let faster = |n: f64| {
            let units = work.units(n);
            self.time(Device::Gpu, work, units)
                .is_some_and(|g| g < self.time(Device::Cpu, work, units).unwrap_or(0.0))
        };
        let limit = 1e13;
        if !faster(limit) {
            return None;
        }
        if faster(1.0) {
            return Some(1.0);
        }
        let (mut low, mut high) = (0.0f64, limit.log10());
        for _ in 0..60 {
            let middle = (low + high) / 2.0;
            if faster(10f64.powf(middle)) {
                high = middle;
            } else {
                low = middle;
            }
        }
        Some(10f64.powf(high).ceil())
    }

    /// The cost of running `task` on `device`: the work, and moving there what is elsewhere
    /// (with starting the gpu, when that is still to do).
    fn cost(&self, task: &Task, device: Device) -> Option<(f64, f64)> {
        let work = self.time(device, task.work, task.units)?;
        let moving: f64 = task
            .inputs
            .iter()
            .filter(|i| i.device != device)
            .map(|i| self.transfer(device, i.bytes))
            .sum();
        Some((work, moving + self.start_cost(task, device)))
    }

    fn start_cost(&self, task: &Task, device: Device) -> f64 {
        match (&self.gpu, device, task.gpu_started) {
            (Some(g), Device::Gpu, false) => g.start,
            _ => 0.0,
        }
    }

    /// Whether `task` may run on `device`: inputs placed by the user stay where they are.
    fn allowed(task: &Task, device: Device) -> bool {
        task.inputs.iter().all(|i| i.movable || i.device == device)
    }

    /// Where `task` runs. A gpu not started yet is started once the time it would have saved
    /// (this task included) reaches `START_SHARE` of its start: ski rental, so that a session
    /// never pays more than about twice the better of starting and not starting it.
    pub fn decide(&self, task: &Task) -> Decision {
        let mut decision = self.decide_once(task);
        let Some(g) = self.gpu.as_ref() else {
            return decision;
        };
        if task.gpu_started || decision.device == Device::Gpu {
            return decision;
        }
        let started = Task {
            gpu_started: true,
            ..task.clone()
        };
        let mut as_if = self.decide_once(&started);
        if as_if.device != Device::Gpu {
            return decision;
        }
        let total = |t: &Task, d| self.cost(t, d).map_or(f64::INFINITY, |(w, m)| w + m);
        let saving = total(task, Device::Cpu) - total(&started, Device::Gpu);
        if task.forgone + saving >= START_SHARE * g.start {
            as_if.reason.push_str(&format!(
                "; this starts the gpu ({}): the time it saves, with what it would have saved so far, is {}, more than half of that",
                seconds(g.start),
                seconds(task.forgone + saving)
            ));
            return as_if;
        }
        decision.forgone = saving.max(0.0);
        decision
    }

    fn decide_once(&self, task: &Task) -> Decision {
        // Ties go to where the most bytes already are (the cpu when nothing is anywhere).
        let resident = |d: Device| -> usize {
            task.inputs
                .iter()
                .filter(|i| i.device == d)
                .map(|i| i.bytes)
                .sum()
        };
        let home = if resident(Device::Gpu) > resident(Device::Cpu) {
            Device::Gpu
        } else {
            Device::Cpu
        };
        let away = other(home);
        let total = |d| self.cost(task, d).map(|(w, m)| w + m);
        let pinned = !Model::allowed(task, away) && Model::allowed(task, home);
        // Moving work that could stay must win clearly, so that values do not go back and forth.
        let margin = match task.inputs.iter().all(|i| i.device == home) {
            true => MOVE_MARGIN,
            false => 1.0,
        };
        let device = match (total(home), total(away)) {
            _ if pinned => home,
            (Some(h), Some(a)) if a * margin < h && Model::allowed(task, away) => away,
            (None, Some(_)) => away,
            _ => home,
        };
        let moves: Vec<usize> = (0..task.inputs.len())
            .filter(|&i| task.inputs[i].device != device)
            .collect();
        let reason = match (pinned, &self.gpu) {
            (_, None) => format!("{} on cpu: no gpu", verb(task)),
            (true, _) => {
                let placed = task.inputs.iter().find(|i| !i.movable && i.device == home);
                format!(
                    "{} on {home}: {} was placed there with device= or to()",
                    verb(task),
                    placed.map_or_else(|| "an input".to_string(), input_text)
                )
            }
            _ => self.reason(task, device, &moves),
        };
        Decision {
            device,
            moves,
            reason,
            forgone: 0.0,
        }
    }

    /// Why the model chose `device` for `task`: its crossover when that says it all, else the
    /// costs compared.
    fn reason(&self, task: &Task, device: Device, moves: &[usize]) -> String {
        let noun = task.work.row().noun;
        let crossover = self.crossover(task.work);
        let above = crossover.is_some_and(|c| task.elements as f64 >= c);
        let starting = self.start_cost(task, device) > 0.0;
        if moves.is_empty() && (device == Device::Gpu) == above && !starting {
            let crossover_text = match crossover {
                Some(c) => format!("the gpu crossover of {} for {noun}", thousands(c)),
                None => format!("the cpu is faster at every size for {noun}"),
            };
            let side = match (crossover, above) {
                (None, _) => "and",
                (_, true) => "above",
                (_, false) => "below",
            };
            return format!(
                "{} on {device}: {} elements, {side} {crossover_text}",
                verb(task),
                thousands(task.elements as f64)
            );
        }
        let (work, moving) = self.cost(task, device).unwrap_or_default();
        let (there, there_moving) = self.cost(task, other(device)).unwrap_or_default();
        let start = self.start_cost(task, Device::Gpu);
        if start > 0.0 && device == Device::Cpu && moves.is_empty() {
            return format!(
                "{} on cpu: {} elements of {noun} take {} here; the gpu would take {} after starting it ({})",
                verb(task),
                thousands(task.elements as f64),
                seconds(work),
                seconds(there + there_moving - start),
                seconds(start)
            );
        }
        let mut text = match moves.is_empty() {
            true if task.inputs.is_empty() => format!("{} on {device}: ", verb(task)),
            true => format!("{} on {device}, where its inputs are: ", verb(task)),
            false => {
                let names: Vec<String> =
                    moves.iter().map(|&i| input_text(&task.inputs[i])).collect();
                format!("moved {} to the {device}: ", names.join(", "))
            }
        };
        text.push_str(&format!(
            "{} elements of {noun} take {}",
            thousands(task.elements as f64),
            seconds(work)
        ));
        if moving > 0.0 {
            let what = match (self.start_cost(task, device) > 0.0, moves.is_empty()) {
                (false, _) => "of copies",
                (true, true) => "to start the gpu",
                (true, false) => "to start the gpu and copy",
            };
            text.push_str(&format!(" + {} {what}", seconds(moving)));
        }
        text.push_str(&format!(" here, {}", seconds(there)));
        if there_moving > 0.0 {
            text.push_str(&format!(" + {} of copies", seconds(there_moving)));
        }
        text.push_str(&format!(" on the {}", other(device)));
        text
    }

    /// How many element reads of one gpu array cost as much as moving all of it to the cpu:
    /// after that many, the planner moves it (`None` without a gpu).
    pub fn reads_worth_a_move(&self, bytes: usize) -> Option<u64> {
        let g = self.gpu.as_ref()?;
        let read = g.element_read.max(1e-9);
        Some((self.transfer(Device::Cpu, bytes) / read).ceil().max(1.0) as u64)
    }

    /// The model as text, one `key value…` line each (what the cache holds, and `:device`'s
    /// source for its table).
    pub fn to_text(&self) -> String {
        let mut text = format!("machine {}\n", self.machine);
        for (row, line) in WORKS.iter().zip(&self.cpu) {
            text.push_str(&format!(
                "cpu {} {:e} {:e}\n",
                row.key, line.fixed, line.per_unit
            ));
        }
        if let Some(g) = &self.gpu {
            for (row, line) in WORKS.iter().zip(&g.work) {
                text.push_str(&format!(
                    "gpu {} {:e} {:e}\n",
                    row.key, line.fixed, line.per_unit
                ));
            }
            text.push_str(&format!(
                "link to_gpu {:e} {:e}\nlink to_cpu {:e} {:e}\nlink element_read {:e} 0\nlink start {:e} 0\n",
                g.to_gpu.fixed,
                g.to_gpu.per_unit,
                g.to_cpu.fixed,
                g.to_cpu.per_unit,
                g.element_read,
                g.start
            ));
        }
        text
    }

    /// A model from `to_text`'s form; `None` when a line is missing or malformed.
    pub fn from_text(text: &str) -> Option<Model> {
        let mut machine = None;
        let mut cpu = [None; 7];
        let mut gpu = [None; 7];
        let mut links: [Option<Line>; 4] = [None; 4];
        for line in text.lines() {
            if let Some(rest) = line.strip_prefix("machine ") {
                machine = Some(rest.to_string());
                continue;
            }
            let words: Vec<&str> = line.split_whitespace().collect();
            let [side, key, fixed, per_unit] = words.as_slice() else {
                continue;
            };
            let value = Line {
                fixed: fixed.parse().ok()?,
                per_unit: per_unit.parse().ok()?,
            };
            let work = WORKS.iter().position(|r| r.key == *key);
            match (*side, work) {
                ("cpu", Some(i)) => cpu[i] = Some(value),
                ("gpu", Some(i)) => gpu[i] = Some(value),
                ("link", _) => {
                    let at = ["to_gpu", "to_cpu", "element_read", "start"]
                        .iter()
                        .position(|k| k == key)?;
                    links[at] = Some(value);
                }
                _ => return None,
            }
        }
        let cpu = all_present(cpu)?;
        let gpu = match (all_present(gpu), links) {
            (Some(work), [Some(to_gpu), Some(to_cpu), Some(read), Some(start)]) => Some(GpuCosts {
                work,
                to_gpu,
                to_cpu,
                element_read: read.fixed,
                start: start.fixed,
            }),
            (None, [None, None, None, None]) => None,
            _ => return None,
        };
        Some(Model {
            cpu,
            gpu,
            machine: machine?,
        })
    }
}

fn all_present(lines: [Option<Line>; 7]) -> Option<[Line; 7]> {
    let mut out = [Line::default(); 7];
    for (o, l) in out.iter_mut().zip(lines) {
        *o = l?;
    }
    Some(out)
}

pub fn other(device: Device) -> Device {
    match device {
        Device::Cpu => Device::Gpu,
        Device::Gpu => Device::Cpu,
    }
}

fn verb(task: &Task) -> &'static str {
    if task.inputs.is_empty() {
        "made"
    } else {
        "ran"
    }
}

fn input_text(input: &Input) -> String {
    let size = human_bytes(input.bytes as f64);
    match &input.name {
        Some(name) => format!("{name} ({size})"),
        None => size,
    }
}

/// `120,000`: a count with thousands separators.
pub fn thousands(n: f64) -> String {
    let digits = format!("{:.0}", n.max(0.0));
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i) % 3 == 0 {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// `0.4 ms`, `12 µs`, `1.3 s`: a short time for a decision's text.
pub fn seconds(t: f64) -> String {
    if t >= 1.0 {
        format!("{t:.1} s")
    } else if t >= 1e-3 {
        format!("{:.1} ms", t * 1e3)
    } else {
        format!("{:.0} µs", (t * 1e6).max(1.0))
    }
}

mod refine;

pub use refine::{Refined, SweepSize};

#[cfg(test)]
mod tests;
