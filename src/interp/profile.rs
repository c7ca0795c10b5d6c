//! The per-line profile (`--profile`, `:profile`): every statement is timed with the device
//! synchronized after it, so its time (and its transfers) land on the line that caused them.
//! A line's figures exclude the statements nested in it, as line profilers do.

use std::collections::BTreeMap;
use std::time::Instant;

/// The table fits an 80-column terminal: long source lines are cut to one row with `…`.
pub const MAX_WIDTH: u16 = 80;

use super::display::{self, Rich};
use super::placement::Tally;
use crate::error::SourceMap;
use crate::report;
use crate::stats::{self, Counters};

#[derive(Clone, Default)]
struct LineCost {
    hits: u64,
    seconds: f64,
    counters: Counters,
    /// Passes that ran while this line's statement ran, and what they fused.
    passes: u64,
    operations: usize,
    fused_positions: Vec<u64>,
    /// `device=auto`'s decisions on this line.
    decisions: Tally,
}

/// The distinct decisions a line keeps for the report (more are counted).
const KEPT_DECISIONS: usize = 3;

/// What a statement being measured has accumulated from the statements nested in it.
struct Open {
    start: Instant,
    counters_at_start: Counters,
    nested_seconds: f64,
    nested_counters: Counters,
    decisions: Vec<String>,
}

#[derive(Default)]
pub struct Profiler {
    lines: BTreeMap<(u32, usize), LineCost>,
    open: Vec<Open>,
    /// The passes already attributed to a line: each goes to the innermost statement that was
    /// running when it ran.
    seen_passes: u64,
}

impl Profiler {
    pub fn enter(&mut self) {
        if self.lines.is_empty() && self.open.is_empty() {
            self.seen_passes = crate::plan::pass_mark();
        }
        self.open.push(Open {
            start: Instant::now(),
            counters_at_start: stats::session(),
            nested_seconds: 0.0,
            nested_counters: Counters::default(),
            decisions: Vec::new(),
        });
    }

    /// A decision of `device=auto`, made by the innermost statement running.
    pub fn note_decision(&mut self, reason: &str) {
        if let Some(open) = self.open.last_mut() {
            open.decisions.push(reason.to_string());
        }
    }

    /// Closes the innermost statement, after the device has been synchronized.
    pub fn exit(&mut self, source: u32, line: usize) {
        let Some(open) = self.open.pop() else { return };
        let total = open.start.elapsed().as_secs_f64();
        let counters = stats::session() - open.counters_at_start;
        let passes = crate::plan::passes_since(self.seen_passes);
        self.seen_passes = crate::plan::pass_mark();
        let cost = self.lines.entry((source, line)).or_default();
        cost.hits += 1;
        cost.seconds += total - open.nested_seconds;
        cost.counters += counters - open.nested_counters;
        for pass in passes {
            cost.passes += 1;
            cost.operations += pass.operations;
            for p in pass.positions {
                if !cost.fused_positions.contains(&p) {
                    cost.fused_positions.push(p);
                }
            }
        }
        for reason in open.decisions {
            cost.decisions.note(&reason, KEPT_DECISIONS);
        }
        if let Some(parent) = self.open.last_mut() {
            parent.nested_seconds += total;
            parent.nested_counters += counters;
        }
    }

    /// The per-line table and, under it, a hint naming the costliest line and why.
    /// The report as text (a table as wide as `width`), and as HTML for a front end.
    pub fn report(&self, sources: &SourceMap, width: u16) -> Rich {
        let run: f64 = self.lines.values().map(|c| c.seconds).sum();
        let header = [
            "line", "hits", "time", "share", "H→D", "D→H", "kernels", "source",
        ];
        let mut table = report::table(&header);
        table.set_width(width);
        let rows: Vec<Vec<String>> = self
            .lines
            .iter()
            .map(|(&(source, line), cost)| {
                vec![
                    line.to_string(),
                    cost.hits.to_string(),
                    report::seconds(cost.seconds),
                    format!("{:.1}%", percent(cost.seconds, run)),
                    report::transfers(cost.counters.h2d_count, cost.counters.h2d_bytes),
                    report::transfers(cost.counters.d2h_count, cost.counters.d2h_bytes),
                    cost.counters.kernels.to_string(),
                    sources
                        .line_text(source, line)
                        .unwrap_or("")
                        .trim()
                        .to_string(),
                ]
            })
            .collect();
        // Every column but the source as wide as its widest cell, each with a border and two
        // spaces; the source gets the rest of the line, cut with `…` (as line_profiler does).
        let columns = header.len() - 1;
        let others: usize = (0..columns)
            .map(|c| {
                rows.iter()
                    .map(|r| r[c].chars().count())
                    .chain(std::iter::once(header[c].chars().count()))
                    .max()
                    .unwrap_or(0)
                    + 3
            })
            .sum();
        let room = (width as usize).saturating_sub(others + 4).max(8);
        for mut row in rows {
            row[columns] = cut(&row[columns], room);
            table.add_row(row);
        }
        let heading = "per-line profile (the device is synchronized after each statement, so time lands on the line that caused it)";
        let mut out = format!("total {}\n", report::seconds(run));
        for (&(_, line), cost) in &self.lines {
            if let Some(fused) = fused_lines(sources, line, cost) {
                let operations = match cost.operations {
                    1 => "1 operation".to_string(),
                    n => format!("{n} operations"),
                };
                let passes = match cost.passes {
                    1 => "1 pass".to_string(),
                    n => format!("{n} passes"),
                };
                out.push_str(&format!(
                    "line {line} ran {operations} of {fused} in {passes} (deferred work runs where it is observed)\n"
                ));
            }
        }
        for (&(_, line), cost) in &self.lines {
            for decision in cost.decisions.lines() {
                out.push_str(&format!("line {line}, device auto: {decision}\n"));
            }
        }
        if let Some(hint) = self.hint(sources, run) {
            out.push_str(&hint);
            out.push('\n');
        }
        Rich {
            text: format!("{heading}\n{table}\n{out}"),
            html: Some(format!(
                "<p>{heading}</p>{}",
                display::report_html(&[&table], &out)
            )),
            ..Rich::default()
        }
    }

    fn hint(&self, sources: &SourceMap, run: f64) -> Option<String> {
        let (&(source, line), cost) = self
            .lines
            .iter()
            .max_by(|a, b| a.1.seconds.total_cmp(&b.1.seconds))?;
        let text = sources.line_text(source, line).unwrap_or("").trim();
        let share = percent(cost.seconds, run);
        let c = &cost.counters;
        let why = if c.d2h_count > 0
            && c.d2h_count >= cost.hits
            && c.d2h_bytes / c.d2h_count.max(1) <= 64
        {
            let name = indexed_name(text).unwrap_or("the array");
            format!(
                ": {} device→host copies of {} B; move `{name}` to the cpu once before the loop",
                group_digits(c.d2h_count),
                c.d2h_bytes / c.d2h_count
            )
        } else if c.setup_seconds >= 0.3 * cost.seconds && c.setup_seconds > 0.0 {
            format!(
                ": {} of it one-time gpu set-up (CUDA context, loading or compiling kernels)",
                crate::report::seconds(c.setup_seconds)
            )
        } else if c.h2d_count > 0 {
            format!(": {} host→device copies", group_digits(c.h2d_count))
        } else if let Some(fused) = fused_lines(sources, line, cost) {
            format!(": it ran the deferred, fused work of {fused}")
        } else {
            String::new()
        };
        Some(format!(
            "hint: line {line} (`{text}`) takes {share:.0}% of the run{why}"
        ))
    }
}

/// The lines whose work a line's passes fused, when that is more than the line itself or its
/// passes fused several operations.
/// `text` cut to `room` characters, the last one `…` when it was longer.
fn cut(text: &str, room: usize) -> String {
    if text.chars().count() <= room {
        return text.to_string();
    }
    let kept: String = text.chars().take(room.saturating_sub(1)).collect();
    format!("{kept}…")
}

fn fused_lines(sources: &SourceMap, line: usize, cost: &LineCost) -> Option<String> {
    let mut lines: Vec<usize> = cost
        .fused_positions
        .iter()
        .map(|&p| super::line_at(sources, p))
        .collect();
    lines.sort_unstable();
    lines.dedup();
    let fused = cost.operations > cost.passes as usize || lines.iter().any(|&l| l != line);
    fused.then(|| report::lines_text(&lines))
}

fn percent(part: f64, whole: f64) -> f64 {
    if whole > 0.0 {
        100.0 * part / whole
    } else {
        0.0
    }
}

/// `47,497`
pub fn group_digits(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// The first name that is indexed on a line (`nums` in `chars[nums[count]]`, innermost first).
fn indexed_name(line: &str) -> Option<&str> {
    let bytes = line.as_bytes();
    let mut best: Option<&str> = None;
    for (i, _) in line.match_indices('[') {
        let start = bytes[..i]
            .iter()
            .rposition(|b| !(b.is_ascii_alphanumeric() || *b == b'_'))
            .map_or(0, |p| p + 1);
        if start < i {
            best = Some(&line[start..i]);
        }
    }
    best
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn digits_are_grouped() {
        assert_eq!(group_digits(47497), "47,497");
        assert_eq!(group_digits(12), "12");
        assert_eq!(group_digits(1_000_000), "1,000,000");
    }

    #[test]
    fn the_innermost_indexed_name_is_found() {
        assert_eq!(
            indexed_name("line = line + chars[nums[count]]"),
            Some("nums")
        );
        assert_eq!(indexed_name("x = 1"), None);
    }
}
