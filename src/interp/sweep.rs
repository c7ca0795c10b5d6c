//! `:sweep for n in SIZES { BODY }`: BODY timed (as `:bench` times) for each n on the cpu and on
//! the gpu, with the default device switched; a table, the crossover size and a log-log chart.

use std::time::Duration;

use indicatif::{ProgressBar, ProgressStyle};

use crate::device::{gpu, Device};
use crate::error::{command_error, Result};
use crate::report;

use super::report_commands::{sample_runs, width};
use super::value::Value;
use super::Interpreter;

/// Time one size may take on one device (after its warm-up run).
const BUDGET: Duration = Duration::from_millis(400);

struct Row {
    n: i64,
    cpu: f64,
    gpu: Option<f64>,
}

/// Splits `for NAME in SIZES { BODY }` into its three parts.
fn parse(args: &str) -> Option<(&str, &str, &str)> {
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
    let body = rest[open + 1..].trim_end().strip_suffix('}')?;
    let sizes = rest[..open].trim();
    (!name.is_empty() && !sizes.is_empty()).then_some((name, sizes, body))
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
    let (name, sizes, body) = parse(args).ok_or_else(|| {
        command_error(
            ":sweep needs `for n in SIZES { BODY }`, e.g. :sweep for n in [1e3, 1e5, 1e7] { x = ones(n); y = x * 5 + 1 }",
        )
    })?;
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
    let default = interp.default_device;
    let timing = std::mem::replace(&mut interp.timing, false);
    let measured = (|| {
        let mut rows = Vec::with_capacity(sizes.len());
        for &n in &sizes {
            let mut medians = Vec::with_capacity(2);
            for &device in &devices {
                progress.set_message(format!("{name} = {n} on {device}"));
                interp.set_default_device(device)?;
                interp.set_global(name, Value::Int(n));
                let (samples, _) = sample_runs(interp, &program, BUDGET)?;
                medians.push(report::summarize(&samples).median);
                progress.inc(1);
            }
            rows.push(Row {
                n,
                cpu: medians[0],
                gpu: medians.get(1).copied(),
            });
        }
        Ok::<_, crate::error::Error>(rows)
    })();
    progress.finish_and_clear();
    interp.timing = timing;
    interp.set_default_device(default)?;
    let rows = measured?;
    let crossover = crossover(&rows);
    interp.crossover = crossover.or(interp.crossover);
    let mut text = format!("{}\n", table(name, &rows));
    text.push_str(&match (&gpu_reason, crossover, rows.last()) {
        (Some(reason), _, _) => format!("cpu only: {reason}\n"),
        (None, Some(n), _) if rows.first().is_some_and(|r| r.n == n) => {
            "the gpu is faster at every size tried\n".to_string()
        }
        (None, Some(n), _) => format!("crossover: the gpu is faster from {name} = {n} on\n"),
        (None, None, _) => {
            "the cpu is faster at every size tried (or the gpu never stays ahead)\n".to_string()
        }
    });
    text.push_str(&chart(name, &rows));
    interp.write_err(&text);
    Ok(())
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

/// Median time against size, both on log scales: `c` the cpu, `g` the gpu, `*` both.
fn chart(name: &str, rows: &[Row]) -> String {
    const HEIGHT: usize = 8;
    const COLUMN: usize = 8;
    let times: Vec<f64> = rows
        .iter()
        .flat_map(|r| std::iter::once(r.cpu).chain(r.gpu))
        .filter(|t| *t > 0.0)
        .collect();
    if rows.len() < 2 || times.is_empty() {
        return String::new();
    }
    let low = times.iter().copied().fold(f64::INFINITY, f64::min).log10();
    let high = times.iter().copied().fold(0.0, f64::max).log10();
    let span = (high - low).max(1e-9);
    let level = |t: f64| (((t.log10() - low) / span) * (HEIGHT - 1) as f64).round() as usize;
    let mut grid = vec![vec![' '; rows.len() * COLUMN]; HEIGHT];
    for (i, row) in rows.iter().enumerate() {
        let x = i * COLUMN + COLUMN / 2;
        let c = level(row.cpu);
        grid[c][x] = 'c';
        if let Some(g) = row.gpu.filter(|g| *g > 0.0) {
            let g = level(g);
            grid[g][x] = if g == c { '*' } else { 'g' };
        }
    }
    let label_width = 9;
    let mut out = format!("time (log) against {name} (log): c cpu, g gpu, * both\n");
    for (k, line) in grid.iter().enumerate().rev() {
        let label = match k {
            k if k == HEIGHT - 1 => report::seconds(10f64.powf(high)),
            0 => report::seconds(10f64.powf(low)),
            _ => String::new(),
        };
        out.push_str(&format!(
            "{label:>label_width$} │{}\n",
            line.iter().collect::<String>().trim_end()
        ));
    }
    out.push_str(&format!(
        "{} └{}\n",
        " ".repeat(label_width),
        "─".repeat(rows.len() * COLUMN)
    ));
    let ticks: String = rows
        .iter()
        .map(|r| format!("{:^COLUMN$}", compact(r.n)))
        .collect();
    out.push_str(&format!("{}  {}\n", " ".repeat(label_width), ticks));
    out
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
            Some(("n", "[1e3, 1e4]", " x = ones(n); y = x * 5 "))
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
