//! The measuring and inspecting commands: `:help`, `:time`, `:vars`, `:device`, `:scalar`,
//! `:bench`, `:profile`. Their text goes to the report stream.

use std::time::{Duration, Instant};

use crate::device::{self, Device};
use crate::error::{command_error, Result};
use crate::picture::{self, Axis, Chart, Marks};
use crate::plan::placement;
use crate::report;
use crate::stats;

use super::display::{self, Rich, Shown};
use super::value::Value;
use super::{builtins, commands, Interpreter, Placement, ScalarMode};

/// Terminal width for tables, or 100 columns when output is not a terminal.
pub(super) fn width() -> u16 {
    comfy_table::Table::new()
        .use_stderr()
        .width()
        .unwrap_or(100)
}

pub fn help(interp: &mut Interpreter, name: &str) -> Result<()> {
    let name = name.trim_start_matches(':');
    let text = if name.is_empty() {
        let mut table = report::table(&["command", "does"]);
        for c in commands::all() {
            table.add_row(vec![format!(":{} {}", c.name, c.args), c.help.to_string()]);
        }
        let names: Vec<&str> = builtins::all()
            .iter()
            .map(|b| b.name)
            .filter(|n| !n.contains('.'))
            .collect();
        let namespaces: Vec<&str> = builtins::NAMESPACES.iter().map(|ns| ns.name).collect();
        format!(
            "{table}\nbuilt-ins: {}\nnamespaces: {}\nvalues: {}\n:help NAME shows a built-in's signature, doc and example; :help linalg a namespace's members.\n",
            names.join(" "),
            namespaces.join(" "),
            builtins::CONSTANTS.join(" ")
        )
    } else if let Some(text) = help_text(name) {
        text
    } else {
        return Err(command_error(format!(
            "no built-in or command named `{name}`"
        )));
    };
    interp.write_err(&text);
    Ok(())
}

/// What `:help NAME` says of a namespace, built-in, command (`:time` or `time`) or named value.
pub fn help_text(name: &str) -> Option<String> {
    let name = name.trim_start_matches(':');
    if let Some(ns) = builtins::Namespace::find(name) {
        Some(ns.help())
    } else if let Some(b) = builtins::find(name) {
        Some(b.help())
    } else if let Some(c) = commands::find(name) {
        Some(format!(":{} {}\n  {}\n", c.name, c.args, c.help))
    } else {
        builtins::lookup_value(name).map(|v| format!("{name}: a {} value\n", v.kind()))
    }
}

pub fn time(interp: &mut Interpreter, args: &str) -> Result<()> {
    interp.timing = match args {
        "" => !interp.timing,
        "on" => true,
        "off" => false,
        other => {
            return Err(command_error(format!(
                ":time takes on or off, not `{other}`"
            )))
        }
    };
    let state = if interp.timing { "on" } else { "off" };
    interp.write_err(&format!("timing {state}\n"));
    Ok(())
}

pub fn fuse(interp: &mut Interpreter, args: &str) -> Result<()> {
    let on = match args {
        "" => !crate::plan::fusion(),
        "on" => true,
        "off" => false,
        other => {
            return Err(command_error(format!(
                ":fuse takes on or off, not `{other}`"
            )))
        }
    };
    crate::plan::set_fusion(on)?;
    interp.write_err(&format!("fusion {}\n", if on { "on" } else { "off" }));
    Ok(())
}

/// `:explain [--source] STMT`: runs the statement (its deferred work at its end) and describes
/// every pass its plans ran.
pub fn explain(interp: &mut Interpreter, args: &str) -> Result<()> {
    let (source, statement) = match args.strip_prefix("--source") {
        Some(rest) => (true, rest.trim_start()),
        None => (false, args),
    };
    if statement.is_empty() {
        return Err(command_error(
            ":explain needs a statement, e.g. :explain y = x * 5 + 1",
        ));
    }
    let program = interp.compile_fragment(args, statement)?;
    crate::plan::flush()?;
    crate::plan::explain::start(source);
    let ran = interp.run_program(&program, false);
    let passes = crate::plan::explain::finish();
    ran?;
    let mut text = String::new();
    if passes.is_empty() {
        text.push_str("no elementwise or reduction pass ran\n");
    }
    for (k, pass) in passes.iter().enumerate() {
        text.push_str(&interp.describe_pass(k + 1, pass));
    }
    for decision in interp.decisions_text() {
        text.push_str(&format!("placement: {decision}\n"));
    }
    interp.write_err(&text);
    Ok(())
}

pub fn scalar(interp: &mut Interpreter, args: &str) -> Result<()> {
    if !args.is_empty() {
        interp.scalar_mode = ScalarMode::parse(args).ok_or_else(|| {
            command_error(format!(":scalar takes allow, warn or error, not `{args}`"))
        })?;
    }
    let mode = interp.scalar_mode.name();
    interp.write_err(&format!("scalar guard: {mode}\n"));
    Ok(())
}

pub fn vars(interp: &mut Interpreter) -> Result<()> {
    let variables = interp.variables();
    if variables.is_empty() {
        interp.write_err("no variables yet\n");
        return Ok(());
    }
    let mut table = report::table(&["name", "kind", "dtype", "shape", "device", "bytes"]);
    for (name, value) in variables {
        let (dtype, shape, device, bytes) = match &value {
            Value::Array(a) => (
                a.dtype().to_string(),
                crate::base::layout::shape_text(a.shape()),
                a.device().to_string(),
                crate::base::human_bytes(a.nbytes() as f64),
            ),
            _ => Default::default(),
        };
        table.add_row(vec![
            name.to_string(),
            value.kind().to_string(),
            dtype,
            shape,
            device,
            bytes,
        ]);
    }
    report_tables(interp, &[&table], "");
    Ok(())
}

/// A report of tables (and a closing note) on stderr, or as HTML tables on a front end.
pub(super) fn report_tables(interp: &mut Interpreter, tables: &[&comfy_table::Table], note: &str) {
    let mut text: String = tables.iter().map(|t| format!("{t}\n")).collect();
    text.push_str(note);
    let html = Some(display::report_html(tables, note));
    interp.show(
        Shown::Report,
        Rich {
            text,
            html,
            ..Rich::default()
        },
    );
}

pub fn devices(interp: &mut Interpreter) -> Result<()> {
    let cores = crate::device::cpu::threads::cores();
    let mut table = report::table(&["device", "", "details"]);
    let placement = interp.placement();
    let mark = |d: Device| match placement {
        Placement::Fixed(default) if d == default => "default",
        Placement::Auto => "auto",
        _ => "",
    };
    table.add_row(vec![
        "cpu".to_string(),
        mark(Device::Cpu).to_string(),
        format!(
            "{}, {cores} cores, {}",
            crate::device::cpu::model_name(),
            match crate::device::cpu::threads::count() {
                1 => "1 worker thread".to_string(),
                n => format!("{n} worker threads"),
            }
        ),
    ]);
    table.add_row(vec![
        "gpu".to_string(),
        mark(Device::Gpu).to_string(),
        device::gpu::describe(),
    ]);
    let totals = stats::session();
    let mut moved = report::table(&["session", "count", "bytes", "time"]);
    moved.add_row(vec![
        "host→device".to_string(),
        totals.h2d_count.to_string(),
        crate::base::human_bytes(totals.h2d_bytes as f64),
        report::seconds(totals.h2d_seconds),
    ]);
    moved.add_row(vec![
        "device→host".to_string(),
        totals.d2h_count.to_string(),
        crate::base::human_bytes(totals.d2h_bytes as f64),
        report::seconds(totals.d2h_seconds),
    ]);
    let note = format!(
        "kernels {} · allocations {} ({}) · synchronizations {}\n",
        totals.kernels,
        totals.allocations,
        crate::base::human_bytes(totals.allocated_bytes as f64),
        totals.syncs
    );
    match interp.known_model() {
        Some(model) => report_tables(interp, &[&table, &model_table(&model), &moved], &note),
        None => report_tables(interp, &[&table, &moved], &note),
    }
    Ok(())
}

/// `:calibrate`: measures the placement model and shows it.
pub fn calibrate(interp: &mut Interpreter) -> Result<()> {
    let start = std::time::Instant::now();
    let model = interp.calibrate()?;
    let note = format!(
        "measured in {} on {}{}\n",
        report::seconds(start.elapsed().as_secs_f64()),
        model.machine,
        match interp.auto_placement() {
            true => "",
            false => " (used by :device auto)",
        }
    );
    report_tables(interp, &[&model_table(&model)], &note);
    Ok(())
}

/// `4 µs + 0.52 ns/element`; a copy's rate as bandwidth (`12 µs + 23.4 GB/s`).
fn cost_text(line: &placement::Line, unit: &str) -> String {
    let rate = match unit {
        "byte" if line.per_unit > 0.0 => format!("{:.1} GB/s", 1e-9 / line.per_unit),
        _ => format!("{:.3} ns/{unit}", line.per_unit * 1e9),
    };
    format!("{} + {rate}", report::seconds(line.fixed))
}

/// The placement model: each class of work's cost on each device, and the crossover it implies.
fn model_table(model: &placement::Model) -> comfy_table::Table {
    use placement::thousands;
    let mut table = report::table(&["work", "cpu", "gpu", "gpu faster from"]);
    for (k, row) in placement::WORKS.iter().enumerate() {
        let unit = row.unit;
        let cpu = cost_text(&model.cpu[k], unit);
        let gpu = model
            .gpu
            .as_ref()
            .map_or_else(|| "no gpu".to_string(), |g| cost_text(&g.work[k], unit));
        let crossover = match (&model.gpu, model.crossover(row.work)) {
            (None, _) => "—".to_string(),
            (_, Some(n)) => format!("{} elements", thousands(n)),
            (_, None) => "never".to_string(),
        };
        table.add_row(vec![row.key.to_string(), cpu, gpu, crossover]);
    }
    if let Some(g) = &model.gpu {
        table.add_row(vec![
            "copy to gpu".to_string(),
            String::new(),
            cost_text(&g.to_gpu, "byte"),
            String::new(),
        ]);
        table.add_row(vec![
            "copy to cpu".to_string(),
            String::new(),
            cost_text(&g.to_cpu, "byte"),
            format!("element read {}", report::seconds(g.element_read)),
        ]);
        table.add_row(vec![
            "start the gpu".to_string(),
            String::new(),
            report::seconds(g.start),
            "once, by the first work placed there".to_string(),
        ]);
    }
    table
}

/// Longest a `:bench` measures (after its warm-up), and the most runs it makes.
const BENCH_BUDGET: Duration = Duration::from_secs(1);
const BENCH_MAX_RUNS: usize = 10_000;
/// Bins of `:bench`'s histogram.
const HISTOGRAM_BINS: usize = 20;

pub fn bench(interp: &mut Interpreter, statement: &str) -> Result<()> {
    if statement.is_empty() {
        return Err(command_error(
            ":bench needs a statement, e.g. :bench x *= 5",
        ));
    }
    let program = interp.compile_fragment(statement, statement)?;
    let timing = std::mem::replace(&mut interp.timing, false);
    let measured = sample_runs(interp, &program, BENCH_BUDGET);
    interp.timing = timing;
    let (samples, counters) = measured?;
    let s = report::summarize(&samples);
    let runs = samples.len() as u64;
    let per_run = |n: u64| n as f64 / runs as f64;
    let mut text = format!(
        "{runs} runs (after 1 warm-up; new arrays on {})\nmin {} · median {} · mean {} ± {} · max {}\n{} ({} … {})\nper run: H→D {} · D→H {} · kernels {}\n",
        interp.placement_name(),
        report::seconds(s.min),
        report::seconds(s.median),
        report::seconds(s.mean),
        report::seconds(s.sd),
        report::seconds(s.max),
        picture::text::histogram_line(&samples, HISTOGRAM_BINS),
        report::seconds(s.min),
        report::seconds(s.max),
        per_run(counters.h2d_count),
        per_run(counters.d2h_count),
        per_run(counters.kernels),
    );
    for hint in report::hints(samples.iter().sum(), &counters, interp.crossover) {
        text.push_str(&hint);
        text.push('\n');
    }
    if s.max > 4.0 * s.min && runs > 1 {
        text.push_str(&format!(
            "warning: the slowest run took {:.1}× the fastest: other work on the machine, caches or first-touch memory skew these figures\n",
            s.max / s.min
        ));
    }
    let chart = interp
        .has_frontend()
        .then(|| bench_chart(statement, &samples));
    let rich = display::with_pictures(text, chart.as_ref(), interp.has_frontend())?;
    interp.show(Shown::Report, rich);
    Ok(())
}

/// `:bench`'s histogram as a picture (for a front end): how many runs took each time.
fn bench_chart(statement: &str, samples: &[f64]) -> Chart {
    let (edges, counts) = picture::equal_bins(samples, HISTOGRAM_BINS);
    Chart {
        title: Some(format!(":bench {statement}")),
        x: Axis {
            name: Some("time of a run".to_string()),
            format: Some(report::seconds),
            ..Axis::default()
        },
        y: Axis {
            name: Some("runs".to_string()),
            ..Axis::default()
        },
        marks: Marks::Bins {
            edges,
            counts: counts.into_iter().map(|c| c as f64).collect(),
        },
    }
}

/// Runs `program` once to warm up, then again until `budget` is spent (at least 3 runs, at most
/// `BENCH_MAX_RUNS`; one run when a single run is over the budget). Each run is timed until the
/// device has finished. Returns the times and the counters of the timed runs.
pub(super) fn sample_runs(
    interp: &mut Interpreter,
    program: &crate::syntax::ast::Program,
    budget: Duration,
) -> Result<(Vec<f64>, stats::Counters)> {
    let time_one = |interp: &mut Interpreter| -> Result<f64> {
        let start = Instant::now();
        interp.run_program(program, false)?;
        device::synchronize()?;
        Ok(start.elapsed().as_secs_f64())
    };
    time_one(interp)?;
    let before = stats::session();
    let started = Instant::now();
    let mut samples = Vec::new();
    while samples.len() < BENCH_MAX_RUNS && (samples.len() < 3 || started.elapsed() < budget) {
        interp.check_interrupt()?;
        samples.push(time_one(interp)?);
        if samples.len() == 1 && samples[0] > budget.as_secs_f64() {
            break;
        }
    }
    Ok((samples, stats::session() - before))
}

pub fn profile(interp: &mut Interpreter, path: &str) -> Result<()> {
    if path.is_empty() {
        return Err(command_error(":profile needs a script file"));
    }
    let text = super::read_script(path)?;
    let report = interp.profile_source(path, &text, width().min(100))?;
    interp.show(Shown::Report, report);
    Ok(())
}

impl Interpreter {
    /// The session's name for the array a buffer holds, if a variable holds it.
    fn name_of(&self, buffer: &crate::device::Buffer) -> Option<String> {
        let target = crate::plan::Storage::Ready(buffer.clone());
        self.variables()
            .into_iter()
            .find_map(|(name, value)| match value {
                Value::Array(a) if a.storage().same(&target) => Some(name.to_string()),
                _ => None,
            })
    }

    fn describe_pass(&self, number: usize, pass: &crate::plan::explain::Pass) -> String {
        use crate::plan::explain::describe_buffer;
        let name = |b: &crate::device::Buffer| self.name_of(b);
        let what = match pass.device {
            Device::Gpu => "gpu kernel",
            Device::Cpu => "cpu pass",
        };
        let inputs: Vec<String> = pass
            .inputs
            .iter()
            .map(|(b, l)| describe_buffer(b, l, &name))
            .collect();
        let outputs: Vec<String> = pass
            .outputs
            .iter()
            .map(|(b, l)| describe_buffer(b, l, &name))
            .collect();
        let mut lines: Vec<usize> = pass
            .positions
            .iter()
            .map(|&p| super::line_at(&self.sources, p))
            .collect();
        lines.sort_unstable();
        lines.dedup();
        let (read, written) = pass.traffic();
        let mut text = format!(
            "pass {number}: {what}, {} over {} elements ({})\n",
            pass.kind,
            pass.shape.iter().product::<usize>(),
            report::lines_text(&lines)
        );
        if !pass.operations.is_empty() {
            text.push_str(&format!("  operations: {}\n", pass.operations.join(", ")));
        }
        text.push_str(&format!(
            "  reads: {}\n",
            if inputs.is_empty() {
                "nothing (scalars only)".to_string()
            } else {
                inputs.join(", ")
            }
        ));
        if !outputs.is_empty() {
            text.push_str(&format!("  writes: {}\n", outputs.join(", ")));
        }
        text.push_str(&format!(
            "  bytes: {} read, {} written\n",
            crate::base::human_bytes(read as f64),
            crate::base::human_bytes(written as f64)
        ));
        if let Some(source) = &pass.source {
            let body = crate::plan::cuda::generated_part(source);
            text.push_str(if body.len() == source.len() {
                "  CUDA C:\n"
            } else {
                "  generated CUDA C (after the preludes kernels/elementwise.cuh and reduce.cuh):\n"
            });
            for line in body.lines() {
                text.push_str("    ");
                text.push_str(line);
                text.push('\n');
            }
        }
        text
    }
}
