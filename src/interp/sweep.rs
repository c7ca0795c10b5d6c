//! `:sweep for n in SIZES { BODY }`: BODY timed (as `:bench` times) for each n on the cpu and on
//! the gpu, with the default device switched; a table, the crossover size and a log-log chart
//! (`file=PATH` after the body saves it as SVG or PNG).

use std::path::PathBuf;
use std::time::Duration;

use indicatif::{ProgressBar, ProgressStyle};

use crate::device::{gpu, Device};
use crate::error::{command_error, Result};
use crate::picture::{self, Axis, Chart, Marks, Series};
use crate::plan::placement::{thousands, SweepSize, Work};
use crate::report;

use super::display::{self, Rich, Shown};
use super::report_commands::{report_tables, sample_runs, width};
use super::value::Value;
use super::{Interpreter, Placement};

/// Time one size may take on one device (after its warm-up run).
const BUDGET: Duration = Duration::from_millis(400);

struct Row {
    n: i64,
    cpu: f64,
    gpu: Option<f64>,
    /// The class and units of work of each operation one run did.
    work: Vec<(Work, f64)>,
}

/// Splits `for NAME in SIZES { BODY } REST` into its four parts (REST may be empty).
fn parse(args: &str) -> Option<(&str, &str, &str, &str)> {
    let rest = args.trim().strip_prefix("for")?;
    if !rest.starts_with(char::is_whitespace) {
        return None;
    }
    let rest = rest.trim_start();
    let name_end = rest.find(|c: char| !(c.is_alphanumeric() || c == '_'))?;
    let (name, rest) = rest.split_at(name_end);
    let rest = rest.trim_start().strip_prefix("in")?;
    let mut depth = 0i32;
    let open = rest.char_indices().find_map(|(i, c)| {
        match c {
            '[' | '(' => depth += 1,
            ']' | ')' => depth -= 1,
            '{' if depth == 0 => return Some(i),
            _ => {}
        }
        None
    })?;
    let close = closing_brace(rest, open)?;
    let body = &rest[open + 1..close];
    let sizes = rest[..open].trim();
    let after = rest[close + 1..].trim();
    (!name.is_empty() && !sizes.is_empty()).then_some((name, sizes, body, after))
}

/// Where the `}` that closes the `{` at `open` is (braces inside strings aside).
fn closing_brace(text: &str, open: usize) -> Option<usize> {
    let (mut depth, mut in_string, mut escaped) = (0usize, false, false);
    for (i, c) in text[open..].char_indices() {
        match (in_string, c) {
            (true, _) if escaped => escaped = false,
            (true, '\\') => escaped = true,
            (_, '"') => in_string = !in_string,
            (false, '{') => depth += 1,
            (false, '}') => {
                depth -= 1;
                if depth == 0 {
                    return Some(open + i);
                }
            }
            _ => {}
        }
    }
    None
}

/// `file=PATH` after the body: where the chart is saved, its format checked before the sweep.
fn file_of(interp: &mut Interpreter, args: &str, after: &str) -> Result<Option<PathBuf>> {
    if after.is_empty() {
        return Ok(None);
    }
    let expression = after
        .strip_prefix("file")
        .map(str::trim_start)
        .and_then(|e| e.strip_prefix('='))
        .ok_or_else(|| {
            command_error(format!(
                ":sweep takes only file=\"NAME.svg\" (or .png) after its body, not `{after}`"
            ))
        })?;
    let path = match interp.evaluate_fragment(args, expression.trim())? {
        Value::Str(s) => PathBuf::from(&*s),
        other => {
            return Err(command_error(format!(
                ":sweep's file= must be a str, not {}",
                other.a_kind()
            )))
        }
    };
    picture::Format::of_path(&path)?;
    Ok(Some(path))
}

fn sizes_of(value: &Value) -> Result<Vec<i64>> {
    let items: Vec<Value> = match value {
        Value::List(items) | Value::Tuple(items) => items.to_vec(),
        Value::Array(a) => a.to_vec::<f64>()?.into_iter().map(Value::Float).collect(),
        _ => {
            return Err(command_error(
                ":sweep sizes must be a list, e.g. [1e3, 1e4, 1e5]",
            ))
        }
    };
    if items.is_empty() {
        return Err(command_error(
            ":sweep needs at least one size, e.g. [1e3, 1e4, 1e5]",
        ));
    }
    items
        .iter()
        .map(|v| match v {
            Value::Int(i) if *i >= 0 => Ok(*i),
            Value::Float(f) if *f >= 0.0 && f.fract() == 0.0 && *f < 9e18 => Ok(*f as i64),
            other => Err(command_error(format!(
                ":sweep sizes must be whole non-negative numbers, not {}",
                other.describe()
            ))),
        })
        .collect()
}

pub fn sweep(interp: &mut Interpreter, args: &str) -> Result<()> {
    let (name, sizes, body, after) = parse(args).ok_or_else(|| {
        command_error(
            ":sweep needs `for n in SIZES { BODY }`, e.g. :sweep for n in [1e3, 1e5, 1e7] { x = ones(n); y = x * 5 + 1 }",
        )
    })?;
    let file = file_of(interp, args, after)?;
    let sizes = sizes_of(&interp.evaluate_fragment(args, sizes)?)?;
    let program = interp.compile_fragment(args, body)?;
    let gpu_reason = gpu::availability().err().map(|e| e.message.clone());
    let devices: Vec<Device> = match gpu_reason {
        None => vec![Device::Cpu, Device::Gpu],
        Some(_) => vec![Device::Cpu],
    };
    let progress = ProgressBar::new((sizes.len() * devices.len()) as u64);
    progress.set_style(
        ProgressStyle::with_template(":sweep {bar:30} {pos}/{len} {msg}")
            .unwrap_or_else(|_| ProgressStyle::default_bar()),
    );
    let default = interp.placement();
    let timing = std::mem::replace(&mut interp.timing, false);
    let measured = (|| {
        let mut rows = Vec::with_capacity(sizes.len());
        for &n in &sizes {
            let mut medians = Vec::with_capacity(2);
            for &device in &devices {
                progress.set_message(format!("{name} = {n} on {device}"));
                interp.set_placement(Placement::Fixed(device))?;
                interp.set_global(name, Value::Int(n));
                let (samples, _) = sample_runs(interp, &program, BUDGET)?;
                medians.push(report::summarize(&samples).median);
                progress.inc(1);
            }
            // One more run, untimed, sees the work the body does at this size.
            let work = match devices.len() {
                2 => {
                    let (ran, work) = interp.watching(|i| i.run_program(&program, false));
                    ran?;
                    work
                }
                _ => Vec::new(),
            };
            rows.push(Row {
                n,
                cpu: medians[0],
                gpu: medians.get(1).copied(),
                work,
            });
        }
        Ok::<_, crate::error::Error>(rows)
    })();
    progress.finish_and_clear();
    interp.timing = timing;
    interp.set_placement(default)?;
    let rows = measured?;
    let crossover = crossover(&rows);
    interp.crossover = crossover.or(interp.crossover);
    let table = table(name, &rows);
    let mut verdict = match (&gpu_reason, crossover, rows.last()) {
        (Some(reason), _, _) => format!("cpu only: {reason}\n"),
        (None, Some(n), _) if rows.first().is_some_and(|r| r.n == n) => {
            "the gpu is faster at every size tried\n".to_string()
        }
        (None, Some(n), _) => format!("crossover: the gpu is faster from {name} = {n} on\n"),
        (None, None, _) => {
            "the cpu is faster at every size tried (or the gpu never stays ahead)\n".to_string()
        }
    };
    // Under auto only: a lesson's sweep leaves the model (and its output) alone.
    if gpu_reason.is_none() && interp.auto_placement() {
        verdict += &refinement(interp, &rows);
    }
    let chart = chart(name, &rows);
    // A text chart needs two sizes and a time to draw.
    let drawn = rows.len() >= 2
        && rows
            .iter()
            .any(|r| r.cpu > 0.0 || r.gpu.is_some_and(|g| g > 0.0));
    if let Some(path) = file {
        picture::save(&chart, &path)?;
    }
    let chart_text = match drawn {
        true => picture::text::chart(&chart),
        false => String::new(),
    };
    if interp.has_frontend() {
        // Two outputs: a front end shows a bundle's richest form only, and both should be seen.
        report_tables(interp, &[&table], &verdict);
        if drawn {
            let rich = display::with_pictures(chart_text, Some(&chart), true)?;
            interp.show(Shown::Report, rich);
        }
    } else {
        interp.show(
            Shown::Report,
            Rich::text(format!("{table}\n{verdict}{chart_text}")),
        );
    }
    Ok(())
}

/// What the sweep changed in `device=auto`'s model, or why it changed nothing.
fn refinement(interp: &mut Interpreter, rows: &[Row]) -> String {
    let sizes: Vec<SweepSize> = rows
        .iter()
        .filter_map(|r| {
            r.gpu.map(|gpu| SweepSize {
                work: r.work.clone(),
                cpu: r.cpu,
                gpu,
            })
        })
        .collect();
    let crossover = |c: Option<f64>| c.map_or_else(|| "never".to_string(), thousands);
    match interp.refine_model(&sizes) {
        Ok(r) => format!(
            "device auto: the model's {} now fits this sweep; its crossover {} → {} elements (:calibrate measures it again)\n",
            r.work.row().noun,
            crossover(r.before),
            crossover(r.after)
        ),
        Err(why) => format!("device auto: the model is unchanged: {why}\n"),
    }
}

/// The smallest size from which the gpu is faster at that size and every larger one tried.
fn crossover(rows: &[Row]) -> Option<i64> {
    let mut from = None;
    for row in rows.iter().rev() {
        match row.gpu {
            Some(g) if g < row.cpu => from = Some(row.n),
            _ => break,
        }
    }
    from
}

fn table(name: &str, rows: &[Row]) -> comfy_table::Table {
    let mut table = report::table(&[name, "cpu", "gpu", "speedup", "faster"]);
    table.set_width(width().min(80));
    for row in rows {
        let (gpu, speedup, faster) = match row.gpu {
            Some(g) => (
                report::seconds(g),
                format!("{:.2}×", row.cpu / g),
                if g < row.cpu { "gpu" } else { "cpu" },
            ),
            None => ("—".to_string(), "—".to_string(), "cpu"),
        };
        table.add_row(vec![
            row.n.to_string(),
            report::seconds(row.cpu),
            gpu,
            speedup,
            faster.to_string(),
        ]);
    }
    table
}

/// Median time against size on a log scale: the sizes evenly spaced (they are usually powers),
/// a series for each device.
fn chart(name: &str, rows: &[Row]) -> Chart {
    let cpu = Series {
        label: Some("cpu".to_string()),
        x: (0..rows.len()).map(|i| i as f64).collect(),
        y: rows.iter().map(|r| r.cpu).collect(),
    };
    let (x, y) = rows
        .iter()
        .enumerate()
        .filter_map(|(i, r)| Some((i as f64, r.gpu?)))
        .unzip();
    let gpu = Series {
        label: Some("gpu".to_string()),
        x,
        y,
    };
    Chart {
        title: Some(format!("time (log) against {name} (log)")),
        x: Axis {
            name: Some(name.to_string()),
            ..Axis::categories(rows.iter().map(|r| compact(r.n)).collect())
        },
        y: Axis {
            name: Some("time".to_string()),
            log: true,
            format: Some(report::seconds),
            categories: None,
        },
        marks: Marks::Xy {
            series: vec![cpu, gpu],
            lines: true,
            points: true,
        },
    }
}

/// `1000000` as `1e6`, `1048576` as `2^20`, other numbers as they are.
fn compact(n: i64) -> String {
    let digits = n.to_string();
    let zeros = digits.len() - digits.trim_end_matches('0').len();
    if n >= 1024 && n.count_ones() == 1 {
        format!("2^{}", n.trailing_zeros())
    } else if n >= 1000 && zeros >= 3 {
        let lead = digits.trim_end_matches('0');
        format!("{lead}e{zeros}")
    } else {
        digits
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_command_splits_into_name_sizes_and_body() {
        assert_eq!(
            parse("for n in [1e3, 1e4] { x = ones(n); y = x * 5 }"),
            Some(("n", "[1e3, 1e4]", " x = ones(n); y = x * 5 ", ""))
        );
        assert_eq!(
            parse("for n in [1] { if n > 0 { x = \"}\" } } file=\"a.svg\""),
            Some(("n", "[1]", " if n > 0 { x = \"}\" } ", "file=\"a.svg\""))
        );
        assert_eq!(
            parse("for size in sizes { a = rand([size, size]) }").map(|p| p.1),
            Some("sizes")
        );
        assert_eq!(parse("n in [1] { }"), None);
        assert_eq!(parse("for n in [1] x"), None);
    }

    #[test]
    fn the_crossover_is_where_the_gpu_stays_ahead() {
        let row = |n, cpu, gpu| Row {
            n,
            cpu,
            gpu: Some(gpu),
            work: Vec::new(),
        };
        assert_eq!(
            crossover(&[row(1, 1.0, 2.0), row(10, 2.0, 1.0), row(100, 9.0, 1.0)]),
            Some(10)
        );
        assert_eq!(crossover(&[row(1, 1.0, 0.5), row(10, 1.0, 2.0)]), None);
        assert_eq!(crossover(&[row(1, 1.0, 0.5), row(10, 2.0, 1.0)]), Some(1));
        assert_eq!(compact(1_000_000), "1e6");
        assert_eq!(compact(1 << 24), "2^24");
        assert_eq!(compact(512), "512");
        assert_eq!(compact(2500), "2500");
        assert_eq!(compact(25000), "25e3");
    }
}
