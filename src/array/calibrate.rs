//! Measures this machine for `device=auto`: each class of work at a small and a large size on
//! each device, and copies both ways, timed with the device synchronized. The model is kept in
//! the kernel cache (`placement.txt`), one model a key: the machine and the cpu's thread count.

use std::time::Instant;

use super::fft::Norm;
use super::random::Source;
use super::{linalg, ops, reduce, sort, Array};
use crate::base::{DType, Scalar};
use crate::device::cpu::random::Rng;
use crate::device::{self, Device};
use crate::error::Result;
use crate::plan::placement::{GpuCosts, Line, Model, Work, WORKS};
use crate::plan::reduce::Reduction;

/// Timed runs of each measurement (the fastest counts: others are the machine's noise).
const RUNS: usize = 3;

/// What the model is keyed by: the processor, the threads it uses, and the gpu.
pub fn machine() -> String {
    let gpu = device::gpu::name().unwrap_or_else(|_| "no gpu".to_string());
    format!(
        "{} · {} threads · {gpu}",
        device::cpu::model_name(),
        device::cpu::threads::count()
    )
}

fn cache_file() -> Option<std::path::PathBuf> {
    device::gpu::modules::cache_dir().map(|d| d.join("placement.txt"))
}

/// The model measured before on this machine, if the cache has it.
pub fn cached() -> Option<Model> {
    let text = std::fs::read_to_string(cache_file()?).ok()?;
    let here = machine();
    models(&text).into_iter().find(|m| m.machine == here)
}

/// The cache keeps one model a key (a session with `--threads 4` has its own), the newest last.
const KEPT_MODELS: usize = 8;

/// The models in the cache's text: each starts with its `machine` line.
fn models(text: &str) -> Vec<Model> {
    let mut sections: Vec<String> = Vec::new();
    for line in text.lines() {
        if line.starts_with("machine ") || sections.is_empty() {
            sections.push(String::new());
        }
        if let Some(section) = sections.last_mut() {
            section.push_str(line);
            section.push('\n');
        }
    }
    sections
        .iter()
        .filter_map(|s| Model::from_text(s))
        .collect()
}

/// Measures the model (about a second; the first gpu use also compiles its kernels) and keeps it.
pub fn measure() -> Result<Model> {
    // Starting the gpu is measured when this is its first use (else the start it took is kept).
    let fresh = device::gpu::started().is_none();
    let before = crate::stats::session().setup_seconds;
    let gpu = device::gpu::availability().is_ok();
    let here = match fresh {
        true => crate::stats::session().setup_seconds - before,
        false => cached()
            .and_then(|m| m.gpu)
            .map_or(f64::INFINITY, |g| g.start),
    };
    let start = match gpu {
        true => here.min(start_in_a_new_process().unwrap_or(f64::INFINITY)),
        false => 0.0,
    };
    let start = if start.is_finite() { start } else { 0.0 };
    let mut rng = Rng::from_seed(1);
    let mut cpu = [Line::default(); 7];
    for (line, row) in cpu.iter_mut().zip(&WORKS) {
        *line = measure_work(row.work, Device::Cpu, &mut rng)?;
    }
    let gpu = match gpu {
        true => Some(measure_gpu(&mut rng, start)?),
        false => None,
    };
    let model = Model {
        cpu,
        gpu,
        machine: machine(),
    };
    keep(&model);
    Ok(model)
}

/// Keeps `model` as this machine's (for later sessions too), beside the other keys' models.
pub fn keep(model: &Model) {
    let Some(file) = cache_file() else { return };
    let text = std::fs::read_to_string(&file).unwrap_or_default();
    let mut kept = models(&text);
    kept.retain(|m| m.machine != model.machine);
    let drop = (kept.len() + 1).saturating_sub(KEPT_MODELS);
    let text: String = kept
        .iter()
        .skip(drop)
        .chain([model])
        .map(Model::to_text)
        .collect();
    device::gpu::modules::write_atomically(&file, text.as_bytes());
}

/// What starting the gpu costs a later arrsh process: the first process on a machine pays
/// more (the driver starting up), which would overstate it. Two runs each of `arrsh -e ""` with
/// and without `--device gpu`; `None` where this is not the arrsh binary or a run fails.
fn start_in_a_new_process() -> Option<f64> {
    let exe = std::env::current_exe().ok()?;
    if !exe.file_stem()?.to_string_lossy().starts_with("arrsh") {
        return None;
    }
    let run = |args: &[&str]| -> Option<f64> {
        let started = Instant::now();
        let status = std::process::Command::new(&exe)
            .args(args)
            .args(["-e", ""])
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::null())
            .status()
            .ok()?;
        status.success().then(|| started.elapsed().as_secs_f64())
    };
    let mut best = f64::INFINITY;
    for _ in 0..2 {
        best = best.min(run(&["--device", "gpu"])? - run(&[])?);
    }
    Some(best.max(0.0))
}

fn measure_gpu(rng: &mut Rng, start: f64) -> Result<GpuCosts> {
    let mut work = [Line::default(); 7];
    for (line, row) in work.iter_mut().zip(&WORKS) {
        *line = measure_work(row.work, Device::Gpu, rng)?;
    }
    let copy_line = |from: Device, to: Device| -> Result<Line> {
        let at = |elements: usize| -> Result<(f64, f64)> {
            let x = Array::full(&[elements], Scalar::Float(1.0), DType::F64, from)?;
            x.buffer()?;
            let t = fastest(|| x.to_device(to)?.buffer().map(|_| ()))?;
            Ok(((elements * 8) as f64, t))
        };
        Ok(Line::through(at(1 << 10)?, at(1 << 20)?))
    };
    let to_gpu = copy_line(Device::Cpu, Device::Gpu)?;
    let to_cpu = copy_line(Device::Gpu, Device::Cpu)?;
    let x = Array::full(&[1 << 10], Scalar::Float(1.0), DType::F64, Device::Gpu)?;
    x.buffer()?;
    let element_read = fastest(|| x.element(&[7]).map(|_| ()))?;
    Ok(GpuCosts {
        work,
        to_gpu,
        to_cpu,
        element_read,
        start,
    })
}

/// The line of one class of work on one device, from a small and a large size (elements).
fn measure_work(work: Work, device: Device, rng: &mut Rng) -> Result<Line> {
    let (small, large) = match (work, device) {
        (Work::MatrixProduct, Device::Cpu) => (32 * 32, 192 * 192),
        (Work::MatrixProduct, Device::Gpu) => (64 * 64, 1024 * 1024),
        (Work::Decomposition, Device::Cpu) => (16 * 16, 128 * 128),
        (Work::Decomposition, Device::Gpu) => (32 * 32, 256 * 256),
        (Work::Sort | Work::Fourier, Device::Cpu) => (1 << 10, 1 << 16),
        (_, Device::Cpu) => (1 << 10, 1 << 20),
        (_, Device::Gpu) => (1 << 10, 1 << 22),
    };
    let at = |elements: usize, rng: &mut Rng| -> Result<(f64, f64)> {
        let t = time_work(work, device, elements, rng)?;
        Ok((work.units(elements as f64), t))
    };
    Ok(Line::through(at(small, rng)?, at(large, rng)?))
}

/// The fastest of `RUNS` runs of one operation of `work` over `elements` (after a warm-up run
/// that compiles and allocates what it needs).
fn time_work(work: Work, device: Device, elements: usize, rng: &mut Rng) -> Result<f64> {
    let side = (elements as f64).sqrt().round() as usize;
    let multiply = crate::plan::table::find("multiply").expect("a row");
    let add = crate::plan::table::find("add").expect("a row");
    let mut source = Source { rng, device };
    let input = match work {
        Work::MatrixProduct | Work::Decomposition => {
            let a = super::random::random(&mut source, &[side, side], DType::F64)?;
            // Diagonally dominant, so that a solve never meets a singular matrix.
            let eye = super::decompositions::identity(&[], side, DType::F64, device)?;
            let scaled = ops::apply(
                multiply,
                &[
                    ops::Operand::Array(&eye),
                    ops::Operand::Scalar(Scalar::Float(side as f64)),
                ],
            )?;
            ops::apply(
                add,
                &[ops::Operand::Array(&a), ops::Operand::Array(&scaled)],
            )?
        }
        Work::Fourier => {
            super::random::random(&mut source, &[elements], DType::F64)?.astype(DType::C128)?
        }
        _ => super::random::random(&mut source, &[elements], DType::F64)?,
    };
    input.buffer()?;
    let run = || -> Result<()> {
        match work {
            Work::Elementwise => {
                let y = ops::apply(
                    multiply,
                    &[
                        ops::Operand::Array(&input),
                        ops::Operand::Scalar(Scalar::Float(2.0)),
                    ],
                )?;
                let z = ops::apply(
                    add,
                    &[
                        ops::Operand::Array(&y),
                        ops::Operand::Scalar(Scalar::Float(1.0)),
                    ],
                )?;
                z.buffer().map(|_| ())
            }
            Work::Reduction => reduce::reduce_all(Reduction::Sum, &input).map(|_| ()),
            Work::MatrixProduct => linalg::matmul(&input, &input)?.buffer().map(|_| ()),
            Work::Sort => sort::sort(&input, Some(-1), false, false)?
                .buffer()
                .map(|_| ()),
            Work::Fourier => super::fft::fft(&input, None, -1, Norm::Backward, false)?
                .buffer()
                .map(|_| ()),
            Work::Decomposition => super::decompositions::solve(&input, &input)?
                .buffer()
                .map(|_| ()),
            Work::Random => {
                let mut source = Source {
                    rng: &mut Rng::from_seed(2),
                    device,
                };
                super::random::random(&mut source, &[elements], DType::F64)?
                    .buffer()
                    .map(|_| ())
            }
        }
    };
    run()?;
    device::synchronize()?;
    fastest(run)
}

/// The fastest of `RUNS` timed runs of `f`, each ended by waiting for the device.
fn fastest(mut f: impl FnMut() -> Result<()>) -> Result<f64> {
    let mut best = f64::INFINITY;
    for _ in 0..RUNS {
        device::synchronize()?;
        let start = Instant::now();
        f()?;
        device::synchronize()?;
        best = best.min(start.elapsed().as_secs_f64());
    }
    Ok(best)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The cache holds a model a key: each section parses on its own, a malformed one is passed over.
    #[test]
    fn the_cache_keeps_a_model_a_key() {
        let fixed = include_str!("../../tests/scripts/placement.model");
        let mut other = Model::from_text(fixed).unwrap();
        other.machine = "another machine · 4 threads · no gpu".to_string();
        other.gpu = None;
        let text = format!("{fixed}machine broken\ncpu nonsense\n{}", other.to_text());
        let found: Vec<String> = models(&text).into_iter().map(|m| m.machine).collect();
        assert_eq!(
            found,
            [
                "a fixed model for the tests: 16 threads, one gpu",
                "another machine · 4 threads · no gpu"
            ]
        );
    }
}
